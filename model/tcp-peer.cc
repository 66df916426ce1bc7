/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-peer.h"

#include "round-exchange.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpPeer");

TcpPeer::TcpPeer(uint32_t peer,
                 uint32_t streams,
                 ExchangeContext& context,
                 ReceiveCallback receive,
                 HeartbeatMaker heartbeat)
    : m_peer(peer),
      m_streams(streams),
      m_context(context),
      m_receive(std::move(receive)),
      m_heartbeat(std::move(heartbeat)),
      m_failed(false),
      m_writing(true),
      m_pumping(false),
      m_again(false),
      m_unsentOwner(nullptr),
      m_written(0),
      m_read(0),
      m_created(Simulator::Now())
{
    NS_LOG_FUNCTION(this << peer << streams);
    NS_ABORT_MSG_IF(streams == 0, "TcpPeer: a peer needs at least one connection");
}

TcpPeer::~TcpPeer() = default;

uint32_t
TcpPeer::GetPeer() const
{
    return m_peer;
}

void
TcpPeer::AddConnection(Ptr<Socket> socket, uint16_t key, bool accepted)
{
    NS_LOG_FUNCTION(this << m_peer << socket << key << accepted);
    NS_ABORT_MSG_IF(IsComplete(), "TcpPeer: more connections to " << m_peer << " than Streams");
    m_links.push_back(std::make_unique<TcpConnection>(*this, m_context));
    TcpConnection& link = *m_links.back();
    link.SetCheckAppLimited(m_checkAppLimited);
    link.Attach(socket, key, accepted);
    if (IsComplete())
    {
        // Both ends number the connections by the connecting side's port.
        std::sort(
            m_links.begin(),
            m_links.end(),
            [](const std::unique_ptr<TcpConnection>& a, const std::unique_ptr<TcpConnection>& b) {
                return a->GetKey() < b->GetKey();
            });
    }
    if (IsComplete())
    {
        Arrived(); // what the first ones read while the rest were still opening
    }
}

void
TcpPeer::SetCheckAppLimited(bool check)
{
    NS_LOG_FUNCTION(this << check);
    m_checkAppLimited = check;
    for (const auto& link : m_links)
    {
        link->SetCheckAppLimited(check);
    }
}

bool
TcpPeer::IsComplete() const
{
    NS_LOG_FUNCTION(this);
    return m_links.size() == m_streams;
}

void
TcpPeer::Close()
{
    NS_LOG_FUNCTION(this << m_peer);
    Ended(true);
}

void
TcpPeer::Ended(bool failed)
{
    NS_LOG_FUNCTION(this << m_peer << failed);
    StopWriting();
    if (failed && !m_failed)
    {
        // The order of the stream is lost for good: close the rest, so that the peer sees it.
        m_failed = true;
        for (const auto& link : m_links)
        {
            link->Close();
        }
    }
}

void
TcpPeer::StopWriting()
{
    NS_LOG_FUNCTION(this);
    m_writing = false;
    m_sources.clear();
    m_unsent = nullptr;
}

// ---------------------------------------------------------------------------------------------
// Writing

TcpConnection&
TcpPeer::NextToWrite() const
{
    NS_LOG_FUNCTION(this);
    return *m_links[m_written % m_streams];
}

void
TcpPeer::AddSource(const void* owner, Source source)
{
    NS_LOG_FUNCTION(this << m_peer << owner);
    if (m_writing)
    {
        m_sources.emplace_back(owner, std::move(source));
        Pump();
    }
}

void
TcpPeer::RemoveSources(const void* owner)
{
    NS_LOG_FUNCTION(this << m_peer << owner);
    m_sources.erase(std::remove_if(m_sources.begin(),
                                   m_sources.end(),
                                   [owner](const std::pair<const void*, Source>& entry) {
                                       return entry.first == owner;
                                   }),
                    m_sources.end());
    if (m_unsent && m_unsentOwner == owner)
    {
        m_unsent = nullptr;
    }
    Pump(); // the next source may go now
}

void
TcpPeer::Announce()
{
    NS_LOG_FUNCTION(this << m_peer);
    for (const auto& link : m_links)
    {
        link->Announce();
    }
    Pump();
}

void
TcpPeer::AnnounceIdle()
{
    NS_LOG_FUNCTION(this);
    for (const auto& link : m_links)
    {
        if (link->TakeIdle())
        {
            link->Announce();
        }
    }
    Pump();
}

void
TcpPeer::Wake()
{
    NS_LOG_FUNCTION(this);
    Pump();
}

void
TcpPeer::Pump()
{
    NS_LOG_FUNCTION(this);
    if (m_pumping)
    {
        m_again = true; // a source or the application called back in: the outer loop goes on
        return;
    }
    m_pumping = true;
    do
    {
        m_again = false;
        WriteMessages();
        WriteHeartbeats();
    } while (m_again);
    m_pumping = false;
}

void
TcpPeer::WriteMessages()
{
    NS_LOG_FUNCTION(this);
    while (m_writing && IsComplete())
    {
        TcpConnection& next = NextToWrite();
        // A message goes on its own connection only: the reader counts on the round-robin.
        if (!next.IsEstablished() || next.IsClosed() || !next.FlushHeartbeat() || !PullMessage() ||
            !next.HasRoom(m_unsent->GetSize()))
        {
            return; // nothing to write yet, or no room: the connection's HandleSend wakes this
        }
        if (!next.Write(m_unsent))
        {
            return; // it failed: Ended stopped the writing
        }
        NS_LOG_LOGIC("island " << m_context.settings.island << ": message " << m_written << " to "
                               << m_peer << " on stream " << m_written % m_streams);
        m_unsent = nullptr;
        ++m_written;
    }
}

void
TcpPeer::WriteHeartbeats()
{
    NS_LOG_FUNCTION(this);
    for (const auto& link : m_links)
    {
        const bool dataWaits = m_unsent && IsComplete() && link.get() == &NextToWrite();
        if (!dataWaits)
        {
            link->WriteDueHeartbeat(m_heartbeat);
        }
    }
}

bool
TcpPeer::PullMessage()
{
    NS_LOG_FUNCTION(this);
    while (m_writing && !m_unsent && !m_sources.empty())
    {
        const void* owner = m_sources.front().first;
        bool exhausted = false;
        Ptr<Packet> next = m_sources.front().second(exhausted);
        if (exhausted && !m_sources.empty() && m_sources.front().first == owner)
        {
            m_sources.pop_front();
        }
        if (next && m_writing)
        {
            m_unsent = next;
            m_unsentOwner = owner;
        }
        else if (!exhausted)
        {
            break;
        }
    }
    return m_unsent != nullptr;
}

// ---------------------------------------------------------------------------------------------
// Reading

TcpConnection&
TcpPeer::NextToRead() const
{
    NS_LOG_FUNCTION(this);
    return *m_links[m_read % m_streams];
}

void
TcpPeer::Arrived()
{
    NS_LOG_FUNCTION(this);
    while (!m_failed && IsComplete() && NextToRead().HasMessage())
    {
        const TcpMessage message = NextToRead().TakeMessage();
        ++m_read;
        m_receive(message.header, message.values, message.bytes);
    }
}

// ---------------------------------------------------------------------------------------------
// Queries

bool
TcpPeer::IsClosed() const
{
    NS_LOG_FUNCTION(this);
    if (m_failed)
    {
        return true;
    }
    // Closed by the peer: lost once the next message would have to come on a closed connection.
    return IsComplete() && NextToRead().IsClosed() && !NextToRead().HasMessage();
}

Time
TcpPeer::GetLastHeard() const
{
    NS_LOG_FUNCTION(this);
    Time last = m_created;
    for (const auto& link : m_links)
    {
        last = std::max(last, link->GetLastHeard());
    }
    return last;
}

uint32_t
TcpPeer::GetPeerRound() const
{
    NS_LOG_FUNCTION(this);
    if (!IsComplete())
    {
        return 0;
    }
    uint32_t round = m_links.front()->GetPeerRound();
    for (const auto& link : m_links)
    {
        round = std::min(round, link->GetPeerRound());
    }
    return round;
}

uint64_t
TcpPeer::GetHeartbeatsSent() const
{
    NS_LOG_FUNCTION(this);
    uint64_t sent = 0;
    for (const auto& link : m_links)
    {
        sent += link->GetHeartbeatsSent();
    }
    return sent;
}

std::vector<uint64_t>
TcpPeer::GetStreamBytesSent() const
{
    NS_LOG_FUNCTION(this);
    return PerStream(&TcpConnection::GetDataBytesSent);
}

std::vector<uint64_t>
TcpPeer::GetStreamBytesReceived() const
{
    NS_LOG_FUNCTION(this);
    return PerStream(&TcpConnection::GetDataBytesReceived);
}

std::vector<uint64_t>
TcpPeer::PerStream(uint64_t (TcpConnection::*count)() const) const
{
    NS_LOG_FUNCTION(this);
    std::vector<uint64_t> counts;
    for (const auto& link : m_links)
    {
        counts.push_back(((*link).*count)());
    }
    return counts;
}

} // namespace ns3
