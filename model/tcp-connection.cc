/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-connection.h"

#include "gradient-payload.h"
#include "round-exchange.h"
#include "tcp-peer.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpConnection");

TcpConnection::TcpConnection(TcpPeer& owner, ExchangeContext& context)
    : m_owner(owner),
      m_context(context),
      m_key(0),
      m_established(false),
      m_awaitingPeer(false),
      m_peerAckHeard(false),
      m_closed(false),
      m_heartbeatDue(false),
      m_checkAppLimited(false),
      m_wrote(false),
      m_lastHeard(Simulator::Now()),
      m_peerRound(0),
      m_heartbeatsSent(0),
      m_dataBytesSent(0),
      m_dataBytesReceived(0)
{
    NS_LOG_FUNCTION(this);
}

TcpConnection::~TcpConnection()
{
    NS_LOG_FUNCTION(this);
    if (m_socket)
    {
        // The socket lives on in TCP (closing, TIME_WAIT): it must not call back into this.
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        m_socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                    MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                     MakeNullCallback<void, Ptr<Socket>>());
        if (m_awaitingPeer)
        {
            m_socket->TraceDisconnectWithoutContext(
                "HighestRxAck",
                MakeCallback(&TcpConnection::PeerAckMoved, this));
        }
    }
}

void
TcpConnection::Attach(Ptr<Socket> socket, uint16_t key, bool accepted)
{
    NS_LOG_FUNCTION(this << socket << key << accepted);
    m_socket = socket;
    m_key = key;
    socket->SetRecvCallback(MakeCallback(&TcpConnection::HandleRead, this));
    socket->SetSendCallback(MakeCallback(&TcpConnection::HandleSend, this));
    socket->SetCloseCallbacks(MakeCallback(&TcpConnection::NormalClose, this),
                              MakeCallback(&TcpConnection::ErrorClose, this));
    socket->SetConnectCallback(MakeCallback(&TcpConnection::ConnectionSucceeded, this),
                               MakeCallback(&TcpConnection::ConnectionFailed, this));
    if (accepted)
    {
        m_awaitingPeer = true;
        socket->TraceConnectWithoutContext("HighestRxAck",
                                           MakeCallback(&TcpConnection::PeerAckMoved, this));
    }
}

uint16_t
TcpConnection::GetKey() const
{
    NS_LOG_FUNCTION(this);
    return m_key;
}

void
TcpConnection::Establish()
{
    NS_LOG_FUNCTION(this);
    NS_LOG_INFO("island " << m_context.settings.island << ": connected to " << m_owner.GetPeer()
                          << " (port " << m_key << ")");
    m_established = true;
    m_lastHeard = Simulator::Now();
    m_owner.Wake();
}

void
TcpConnection::PeerAckMoved(SequenceNumber32 /* previous */, SequenceNumber32 /* now */)
{
    NS_LOG_FUNCTION(this);
    m_peerAckHeard = true; // written on from HandleRead, not inside the socket's receive path
}

void
TcpConnection::EstablishIfHeard()
{
    NS_LOG_FUNCTION(this);
    if (m_awaitingPeer && m_peerAckHeard && !m_closed)
    {
        m_awaitingPeer = false;
        Establish();
    }
}

void
TcpConnection::ConnectionSucceeded(Ptr<Socket> /* socket */)
{
    NS_LOG_FUNCTION(this);
    m_heartbeatDue = true; // the hello: the acceptor writes once it has heard it (see Attach)
    Establish();
}

void
TcpConnection::ConnectionFailed(Ptr<Socket> /* socket */)
{
    NS_LOG_FUNCTION(this);
    NS_LOG_INFO("island " << m_context.settings.island << ": no connection to "
                          << m_owner.GetPeer());
    MarkClosed(true);
}

void
TcpConnection::NormalClose(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    if (!m_closed)
    {
        NS_LOG_INFO("island " << m_context.settings.island << ": " << m_owner.GetPeer()
                              << " closed a connection");
        MarkClosed(false);
        socket->Close(); // our side too: the peer reads nothing more
    }
}

void
TcpConnection::ErrorClose(Ptr<Socket> /* socket */)
{
    NS_LOG_FUNCTION(this);
    NS_LOG_INFO("island " << m_context.settings.island << ": connection to " << m_owner.GetPeer()
                          << " reset or given up");
    MarkClosed(true);
}

void
TcpConnection::Close()
{
    NS_LOG_FUNCTION(this);
    if (m_socket && !m_closed)
    {
        m_socket->Close();
    }
    MarkClosed(true);
}

void
TcpConnection::Abandon(const char* why)
{
    NS_LOG_FUNCTION(this << why);
    NS_LOG_WARN("island " << m_context.settings.island << ": " << why << " from "
                          << m_owner.GetPeer() << ": connection closed");
    ++m_context.counters.dropped;
    Close();
}

void
TcpConnection::MarkClosed(bool failed)
{
    NS_LOG_FUNCTION(this << failed);
    if (m_closed)
    {
        return;
    }
    m_closed = true;
    m_heartbeatDue = false;
    m_heartbeat = nullptr;
    m_received.Clear();
    m_owner.Ended(failed);
}

// ---------------------------------------------------------------------------------------------
// Writing

bool
TcpConnection::HasRoom(uint32_t bytes) const
{
    NS_LOG_FUNCTION(this << bytes);
    return m_established && !m_closed && m_socket->GetTxAvailable() >= bytes;
}

void
TcpConnection::SetCheckAppLimited(bool check)
{
    NS_LOG_FUNCTION(this << check);
    m_checkAppLimited = check;
}

bool
TcpConnection::Write(Ptr<Packet> message)
{
    NS_LOG_FUNCTION(this << message);
    const uint32_t bytes = message->GetSize();
    if (m_checkAppLimited)
    {
        // ns-3's TcpSocketBase::Send asks whether the connection is application-limited only
        // after queueing what it is given, so a message of a segment or more never finds it
        // so; Linux asks before (tcp_rate_check_app_limited). An empty write queues nothing
        // and asks with the socket as this message finds it.
        m_socket->Send(Create<Packet>(0));
    }
    if (!Send(message))
    {
        return false;
    }
    m_dataBytesSent += bytes;
    return true;
}

bool
TcpConnection::Send(Ptr<Packet> message)
{
    NS_LOG_FUNCTION(this << message);
    if (m_socket->Send(message) < 0)
    {
        NS_LOG_WARN("island " << m_context.settings.island << ": cannot write to "
                              << m_owner.GetPeer());
        MarkClosed(true);
        return false;
    }
    m_wrote = true;
    return true;
}

void
TcpConnection::Announce()
{
    NS_LOG_FUNCTION(this);
    if (m_established && !m_closed)
    {
        m_heartbeatDue = true;
    }
}

bool
TcpConnection::FlushHeartbeat()
{
    NS_LOG_FUNCTION(this);
    if (m_heartbeat && HasRoom(m_heartbeat->GetSize()) && Send(m_heartbeat))
    {
        m_heartbeat = nullptr;
    }
    return !m_heartbeat;
}

void
TcpConnection::WriteDueHeartbeat(const std::function<Ptr<Packet>()>& heartbeat)
{
    NS_LOG_FUNCTION(this);
    if (m_heartbeatDue && !m_heartbeat && m_established && !m_closed)
    {
        m_heartbeatDue = false;
        m_heartbeat = heartbeat(); // made now, its round fixed: it goes when there is room
        ++m_heartbeatsSent;
    }
    FlushHeartbeat();
}

bool
TcpConnection::TakeIdle()
{
    NS_LOG_FUNCTION(this);
    const bool idle = !m_wrote;
    m_wrote = false;
    return idle;
}

void
TcpConnection::HandleSend(Ptr<Socket> /* socket */, uint32_t /* available */)
{
    NS_LOG_FUNCTION(this);
    m_owner.Wake();
}

// ---------------------------------------------------------------------------------------------
// Reading

void
TcpConnection::HandleRead(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    Ptr<Packet> packet;
    while ((packet = socket->Recv()))
    {
        m_lastHeard = Simulator::Now();
        if (m_closed)
        {
            continue; // read and discard: a full receive window would stall the peer for ever
        }
        m_received.Append(packet);
        Extract();
    }
    EstablishIfHeard();
}

void
TcpConnection::Extract()
{
    NS_LOG_FUNCTION(this);
    uint8_t fixed[GradientHeader::FIXED_SIZE];
    while (m_received.GetSize() >= GradientHeader::FIXED_SIZE) // MarkClosed empties it
    {
        m_received.Peek(fixed, GradientHeader::FIXED_SIZE);
        const uint64_t size = GradientHeader::FramedSize(fixed);
        if (size == 0 || size > std::numeric_limits<uint32_t>::max())
        {
            // The stream lost its framing: nothing after this can be trusted.
            Abandon("not a gradient message");
            return;
        }
        if (m_received.GetSize() < size)
        {
            return;
        }
        // Real payloads are read whole; of a virtual one only the header matters.
        const auto whole = static_cast<uint32_t>(size);
        const uint32_t wanted =
            m_context.settings.real ? whole : std::min(whole, GradientHeader::MAX_SERIALIZED_SIZE);
        m_message.resize(wanted);
        m_received.Peek(m_message.data(), wanted);
        m_received.Consume(whole);
        Accept(m_message.data(), wanted, whole);
    }
}

void
TcpConnection::Accept(const uint8_t* bytes, uint32_t available, uint32_t size)
{
    NS_LOG_FUNCTION(this << available << size);
    TcpMessage parsed;
    uint32_t headerSize = 0;
    if (!GradientHeader::ParseBytes(bytes, available, size, parsed.header, &headerSize) ||
        parsed.header.GetSender() != m_owner.GetPeer() ||
        parsed.header.GetJobId() != m_context.settings.jobId)
    {
        // Not the peer's: it cannot be told from a heartbeat, so the order of its messages
        // across the connections is lost.
        Abandon("not a message of this peer");
        return;
    }
    m_peerRound = std::max(m_peerRound, parsed.header.GetRound());
    if (parsed.header.GetType() == GradientHeader::ACK && parsed.header.GetContributors().IsEmpty())
    {
        return; // a heartbeat
    }
    if (m_context.settings.real && parsed.header.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD))
    {
        GradientPayload::ReadValues(parsed.header, bytes + headerSize, parsed.values);
    }
    parsed.bytes = size;
    m_dataBytesReceived += parsed.bytes;
    m_inbox.push_back(std::move(parsed));
    m_owner.Arrived();
}

bool
TcpConnection::HasMessage() const
{
    NS_LOG_FUNCTION(this);
    return !m_inbox.empty();
}

TcpMessage
TcpConnection::TakeMessage()
{
    NS_LOG_FUNCTION(this);
    TcpMessage message = std::move(m_inbox.front());
    m_inbox.pop_front();
    return message;
}

// ---------------------------------------------------------------------------------------------
// Queries

bool
TcpConnection::IsEstablished() const
{
    NS_LOG_FUNCTION(this);
    return m_established;
}

bool
TcpConnection::IsClosed() const
{
    NS_LOG_FUNCTION(this);
    return m_closed;
}

Time
TcpConnection::GetLastHeard() const
{
    NS_LOG_FUNCTION(this);
    return m_lastHeard;
}

uint32_t
TcpConnection::GetPeerRound() const
{
    NS_LOG_FUNCTION(this);
    return m_peerRound;
}

uint64_t
TcpConnection::GetHeartbeatsSent() const
{
    NS_LOG_FUNCTION(this);
    return m_heartbeatsSent;
}

uint64_t
TcpConnection::GetDataBytesSent() const
{
    NS_LOG_FUNCTION(this);
    return m_dataBytesSent;
}

uint64_t
TcpConnection::GetDataBytesReceived() const
{
    NS_LOG_FUNCTION(this);
    return m_dataBytesReceived;
}

} // namespace ns3
