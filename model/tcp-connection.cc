/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-connection.h"

#include "round-exchange.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpConnection");

TcpConnection::TcpConnection(uint32_t peer,
                             ExchangeContext& context,
                             ReceiveCallback receive,
                             HeartbeatMaker heartbeat)
    : m_peer(peer),
      m_context(context),
      m_receive(std::move(receive)),
      m_heartbeat(std::move(heartbeat)),
      m_established(false),
      m_closed(false),
      m_pumping(false),
      m_again(false),
      m_heartbeatDue(false),
      m_wrote(false),
      m_checkAppLimited(false),
      m_unsentOwner(nullptr),
      m_lastHeard(Simulator::Now()),
      m_peerRound(0),
      m_heartbeatsSent(0)
{
}

TcpConnection::~TcpConnection()
{
    if (m_socket)
    {
        // The socket lives on in TCP (closing, TIME_WAIT): it must not call back into this.
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        m_socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                    MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                     MakeNullCallback<void, Ptr<Socket>>());
    }
}

void
TcpConnection::Attach(Ptr<Socket> socket)
{
    m_socket = socket;
    socket->SetRecvCallback(MakeCallback(&TcpConnection::HandleRead, this));
    socket->SetSendCallback(MakeCallback(&TcpConnection::HandleSend, this));
    socket->SetCloseCallbacks(MakeCallback(&TcpConnection::NormalClose, this),
                              MakeCallback(&TcpConnection::ErrorClose, this));
    socket->SetConnectCallback(MakeCallback(&TcpConnection::ConnectionSucceeded, this),
                               MakeCallback(&TcpConnection::ConnectionFailed, this));
}

Ptr<Socket>
TcpConnection::GetSocket() const
{
    return m_socket;
}

void
TcpConnection::Establish()
{
    NS_LOG_INFO("island " << m_context.island << ": connected to " << m_peer);
    m_established = true;
    m_lastHeard = Simulator::Now();
    Pump();
}

void
TcpConnection::ConnectionSucceeded(Ptr<Socket> /* socket */)
{
    Establish();
}

void
TcpConnection::ConnectionFailed(Ptr<Socket> /* socket */)
{
    NS_LOG_INFO("island " << m_context.island << ": no connection to " << m_peer);
    MarkClosed();
}

void
TcpConnection::NormalClose(Ptr<Socket> socket)
{
    if (!m_closed)
    {
        NS_LOG_INFO("island " << m_context.island << ": " << m_peer << " closed its connection");
        MarkClosed();
        socket->Close(); // our side too: the peer reads nothing more
    }
}

void
TcpConnection::ErrorClose(Ptr<Socket> /* socket */)
{
    NS_LOG_INFO("island " << m_context.island << ": connection to " << m_peer
                          << " reset or given up");
    MarkClosed();
}

void
TcpConnection::Close()
{
    if (m_socket && !m_closed)
    {
        m_socket->Close();
    }
    MarkClosed();
}

void
TcpConnection::MarkClosed()
{
    m_closed = true;
    m_sources.clear();
    m_unsent = nullptr;
    m_pending = nullptr;
}

// ---------------------------------------------------------------------------------------------
// Writing

void
TcpConnection::AddSource(const void* owner, Source source)
{
    if (!m_closed)
    {
        m_sources.emplace_back(owner, std::move(source));
        Pump();
    }
}

void
TcpConnection::RemoveSources(const void* owner)
{
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
TcpConnection::Announce()
{
    if (m_established && !m_closed)
    {
        m_heartbeatDue = true;
        Pump();
    }
}

bool
TcpConnection::TakeIdle()
{
    const bool idle = !m_wrote;
    m_wrote = false;
    return idle;
}

void
TcpConnection::SetCheckAppLimited(bool check)
{
    m_checkAppLimited = check;
}

void
TcpConnection::HandleSend(Ptr<Socket> /* socket */, uint32_t /* available */)
{
    Pump();
}

void
TcpConnection::Pump()
{
    if (m_pumping)
    {
        m_again = true; // a source or the application called back in: the outer loop goes on
        return;
    }
    m_pumping = true;
    do
    {
        m_again = false;
        while (m_established && !m_closed)
        {
            if (!m_unsent && !m_sources.empty())
            {
                const void* owner = m_sources.front().first;
                bool exhausted = false;
                Ptr<Packet> next = m_sources.front().second(exhausted);
                if (exhausted && !m_sources.empty() && m_sources.front().first == owner)
                {
                    m_sources.pop_front();
                }
                if (next)
                {
                    m_unsent = next;
                    m_unsentOwner = owner;
                }
                else if (exhausted)
                {
                    continue;
                }
            }
            if (!m_unsent && m_heartbeatDue)
            {
                m_heartbeatDue = false;
                m_unsent = m_heartbeat();
                m_unsentOwner = nullptr;
                ++m_heartbeatsSent;
            }
            if (!m_unsent || m_socket->GetTxAvailable() < m_unsent->GetSize())
            {
                break; // nothing to write yet, or no room: HandleSend pumps again
            }
            if (m_checkAppLimited)
            {
                // ns-3's TcpSocketBase::Send asks whether the connection is application-limited
                // only after queueing what it is given, so a message of a segment or more never
                // finds it so; Linux asks before (tcp_rate_check_app_limited). An empty write
                // queues nothing and asks with the socket as this message finds it.
                m_socket->Send(Create<Packet>(0));
            }
            if (m_socket->Send(m_unsent) < 0)
            {
                NS_LOG_WARN("island " << m_context.island << ": cannot write to " << m_peer);
                MarkClosed();
                break;
            }
            m_wrote = true;
            m_unsent = nullptr;
        }
    } while (m_again);
    m_pumping = false;
}

// ---------------------------------------------------------------------------------------------
// Reading

void
TcpConnection::HandleRead(Ptr<Socket> socket)
{
    Ptr<Packet> packet;
    while ((packet = socket->Recv()))
    {
        m_lastHeard = Simulator::Now();
        if (m_closed)
        {
            continue; // read and discard: a full receive window would stall the peer for ever
        }
        if (m_pending)
        {
            m_pending->AddAtEnd(packet);
        }
        else
        {
            m_pending = packet;
        }
        Extract();
    }
}

void
TcpConnection::Extract()
{
    uint8_t fixed[GradientHeader::FIXED_SIZE];
    while (m_pending && m_pending->GetSize() >= GradientHeader::FIXED_SIZE)
    {
        m_pending->CopyData(fixed, GradientHeader::FIXED_SIZE);
        const uint64_t size = GradientHeader::FramedSize(fixed);
        if (size == 0)
        {
            // The stream lost its framing: nothing after this can be trusted.
            NS_LOG_WARN("island " << m_context.island << ": not a gradient message from " << m_peer
                                  << ": connection closed");
            ++m_context.dropped;
            Close();
            return;
        }
        if (m_pending->GetSize() < size)
        {
            return;
        }
        Ptr<Packet> message = m_pending->CreateFragment(0, static_cast<uint32_t>(size));
        m_pending->RemoveAtStart(static_cast<uint32_t>(size));
        if (m_pending->GetSize() == 0)
        {
            m_pending = nullptr;
        }
        Deliver(message);
    }
}

void
TcpConnection::Deliver(Ptr<Packet> message)
{
    GradientHeader header;
    m_values.clear();
    if (!GradientHeader::Parse(message, header, m_context.real ? &m_values : nullptr) ||
        header.GetSender() != m_peer || header.GetJobId() != m_context.jobId)
    {
        ++m_context.dropped;
        return;
    }
    m_peerRound = std::max(m_peerRound, header.GetRound());
    if (header.GetType() == GradientHeader::ACK && header.GetContributors().IsEmpty())
    {
        return; // a heartbeat
    }
    m_receive(header, m_values, message->GetSize());
}

// ---------------------------------------------------------------------------------------------
// Queries

bool
TcpConnection::IsEstablished() const
{
    return m_established;
}

bool
TcpConnection::IsClosed() const
{
    return m_closed;
}

Time
TcpConnection::GetLastHeard() const
{
    return m_lastHeard;
}

void
TcpConnection::SetLastHeard(Time time)
{
    m_lastHeard = time;
}

uint32_t
TcpConnection::GetPeerRound() const
{
    return m_peerRound;
}

uint64_t
TcpConnection::GetHeartbeatsSent() const
{
    return m_heartbeatsSent;
}

} // namespace ns3
