/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-transport.h"

#include "gradient-payload.h"
#include "round-config.h"
#include "round-exchange.h"
#include "tcp-fork-repair.h"
#include "wan-wire.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/tcp-socket.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpTransport");

NS_OBJECT_ENSURE_REGISTERED(TcpTransport);

namespace
{
/** How class names of ns-3 start. */
const std::string NS3_PREFIX = "ns3::";
/** Messages a connection's buffer holds at least: one is written while one is in flight. */
constexpr uint32_t MIN_BUFFERED_MESSAGES = 2;
} // namespace

TypeId
TcpTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TcpTransport")
            .SetParent<Object>()
            .SetGroupName("WanTraining")
            .AddConstructor<TcpTransport>()
            .AddAttribute("CongestionControl",
                          "The TCP congestion control of every connection (a TcpCongestionOps "
                          "subclass, set as the node's TcpL4Protocol SocketType).",
                          TypeIdValue(TcpCubic::GetTypeId()),
                          MakeTypeIdAccessor(&TcpTransport::SetCongestionControl,
                                             &TcpTransport::GetCongestionControl),
                          MakeTypeIdChecker())
            .AddAttribute("Streams",
                          "TCP connections per peer. Messages to a peer are dealt round-robin "
                          "over them, whole, and read back in the order they were written.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TcpTransport::m_streams),
                          MakeUintegerChecker<uint32_t>(1, MAX_STREAMS))
            .AddAttribute("BufferBytes",
                          "Send and receive buffer per peer, bytes, shared equally by its "
                          "Streams connections. 0: BdpFactor times the path's bandwidth-delay "
                          "product (its narrowest link's rate times the round trip). A "
                          "connection's share is never below TcpSocket's default SndBufSize "
                          "(0 only) nor two of the largest messages.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TcpTransport::m_bufferBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("BdpFactor",
                          "With BufferBytes 0: buffers of this many bandwidth-delay products.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&TcpTransport::m_bdpFactor),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("SegmentSize",
                          "TCP segment size, bytes. 0: the access link's MTU after the IPv4 "
                          "header and the largest TCP header (no segment is fragmented).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TcpTransport::m_segmentSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HeartbeatInterval",
                          "An idle connection carries a heartbeat this often; exchanges check "
                          "their peers' liveness as often.",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&TcpTransport::m_heartbeatInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("PeerTimeout",
                          "A peer an exchange needs that sent no byte for this long is declared "
                          "lost. Above the longest silence of a connection TCP still keeps "
                          "(its last retransmission timeout before it gives up: 60 s, ns-3's "
                          "cap, with MinRto 1 s and DataRetries 6), so a congested peer is not "
                          "mistaken for a dead one.",
                          TimeValue(Seconds(120)),
                          MakeTimeAccessor(&TcpTransport::m_peerTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MaxPacingRate",
                          "The most any connection is paced at (TcpSocketState::MaxPacingRate "
                          "of its sockets; congestion controls that pace, e.g. TcpBbr, use it). "
                          "0: the island's access rate, which no sender exceeds anyway. ns-3's "
                          "own default, 4 Gbit/s, would hold a BBR connection below 40% of a "
                          "10 Gbit/s link, and in a data centre's sub-segment round trips its "
                          "rate samples then fall short of the pacing rate and BBR paces ever "
                          "slower.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&TcpTransport::m_maxPacingRate),
                          MakeDataRateChecker())
            .AddAttribute("DelAckCount",
                          "TcpSocket::DelAckCount of every connection: segments received before "
                          "an ACK is sent without waiting for the delayed-ACK timer. 1 stands in "
                          "for Linux, which grows a window by the segments acknowledged and "
                          "acknowledges at once in slow start and after idle time: with ns-3's "
                          "default 2, TcpNewReno's slow start grows by half a window per round "
                          "trip, a lone segment waits DelAckTimeout (200 ms) for its ACK, and "
                          "the heartbeats of an idle connection are acknowledged only on the "
                          "peer's own segments, which freezes the timestamp ns-3 echoes "
                          "(TcpSocketBase::SendDataPacket does not advance the last ACK sent, "
                          "3.37 to 3.48) so that its round-trip estimate grows with the idle "
                          "time. 0: TcpSocket's default.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TcpTransport::m_delAckCount),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CheckAppLimited",
                          "Before each message is written, let the socket check whether the "
                          "connection is application-limited (an empty write), as Linux does at "
                          "the start of every write (tcp_rate_check_app_limited). ns-3 3.37 to "
                          "3.48 check only after queueing the written data "
                          "(TcpSocketBase::Send), so a message of a segment or more never finds "
                          "the connection application-limited, and TcpBbr takes the rate at "
                          "which a ring all-reduce feeds the socket for the path's bandwidth: "
                          "its estimate ratchets down until the ring stalls. false: ns-3's "
                          "behaviour.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TcpTransport::m_checkAppLimited),
                          MakeBooleanChecker());
    return tid;
}

TcpTransport::TcpTransport()
    : m_congestion(TcpCubic::GetTypeId()),
      m_bufferBytes(0),
      m_bdpFactor(1.0),
      m_segmentSize(0),
      m_streams(1),
      m_heartbeatInterval(MilliSeconds(100)),
      m_peerTimeout(Seconds(120)),
      m_maxPacingRate(0),
      m_delAckCount(1),
      m_checkAppLimited(true),
      m_context(nullptr),
      m_round(0),
      m_usedSegmentSize(0),
      m_usedMaxPacingRate(0)
{
    NS_LOG_FUNCTION(this);
}

TcpTransport::~TcpTransport() = default;

void
TcpTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_tick.Cancel();
    m_peers.clear(); // each connection detaches from its socket
    if (m_listener)
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
        m_listener = nullptr;
    }
    m_node = nullptr;
    m_context = nullptr;
    Object::DoDispose();
}

// ---------------------------------------------------------------------------------------------
// Congestion controls and partners

void
TcpTransport::SetCongestionControl(TypeId congestion)
{
    NS_LOG_FUNCTION(this << congestion);
    TypeId checked;
    NS_ABORT_MSG_UNLESS(LookupCongestionControl(congestion.GetName(), checked),
                        "TcpTransport: CongestionControl " << congestion.GetName()
                                                           << " is not a TCP congestion control");
    m_congestion = checked;
}

TypeId
TcpTransport::GetCongestionControl() const
{
    NS_LOG_FUNCTION(this);
    return m_congestion;
}

bool
TcpTransport::LookupCongestionControl(const std::string& name, TypeId& tid)
{
    NS_LOG_FUNCTION(name);
    const std::string full =
        name.compare(0, NS3_PREFIX.size(), NS3_PREFIX) == 0 ? name : NS3_PREFIX + name;
    TypeId found;
    // ns-3 3.37 registers TcpCubic with TcpSocketBase as its parent: the TypeId tree only
    // narrows the candidates, an instance decides.
    if (name.empty() || !TypeId::LookupByNameFailSafe(full, &found) || !found.HasConstructor() ||
        found == TcpCongestionOps::GetTypeId() ||
        !(found.IsChildOf(TcpCongestionOps::GetTypeId()) ||
          found.IsChildOf(TcpSocketBase::GetTypeId())))
    {
        return false;
    }
    ObjectFactory factory(found.GetName());
    if (!DynamicCast<TcpCongestionOps>(factory.Create()))
    {
        return false;
    }
    tid = found;
    return true;
}

std::vector<std::string>
TcpTransport::GetCongestionControls()
{
    NS_LOG_FUNCTION_NOARGS();
    std::vector<std::string> names;
    for (uint32_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const std::string name = TypeId::GetRegistered(i).GetName();
        TypeId tid;
        if (LookupCongestionControl(name, tid))
        {
            names.push_back(name.substr(NS3_PREFIX.size()));
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<uint32_t>
TcpTransport::Partners(uint32_t island,
                       const std::vector<TrainingRoundConfig>& configs,
                       uint32_t rounds)
{
    NS_LOG_FUNCTION(island << rounds);
    std::vector<uint32_t> partners;
    for (uint32_t r = 0; r < configs.size() && r < rounds; ++r)
    {
        const std::vector<uint32_t>& members = configs[r].members;
        const auto k = static_cast<uint32_t>(members.size());
        const auto self = static_cast<uint32_t>(std::find(members.begin(), members.end(), island) -
                                                members.begin());
        for (uint32_t s = 0; s < k; ++s)
        {
            const bool neighbour = s == (self + 1) % k || (s + 1) % k == self;
            if (s != self && (configs[r].algorithm != SyncAlgorithm::RING || neighbour))
            {
                partners.push_back(members[s]);
            }
        }
    }
    std::sort(partners.begin(), partners.end());
    partners.erase(std::unique(partners.begin(), partners.end()), partners.end());
    return partners;
}

// ---------------------------------------------------------------------------------------------
// Set-up

void
TcpTransport::SetPathRates(const std::vector<double>& bps)
{
    NS_LOG_FUNCTION(this);
    m_rates = bps;
}

uint32_t
TcpTransport::BufferFor(uint32_t peer, uint32_t floor, uint32_t message) const
{
    NS_LOG_FUNCTION(this << peer << floor << message);
    // The peer's buffer, shared by its connections: together they hold what one would.
    double bytes = static_cast<double>(m_bufferBytes) / m_streams;
    if (m_bufferBytes == 0)
    {
        const double rtt = peer < m_context->settings.rtt.size()
                               ? m_context->settings.rtt[peer].GetSeconds()
                               : 0.0;
        const double rate = peer < m_rates.size() ? m_rates[peer] : 0.0;
        const double bdp = m_bdpFactor * rate * rtt / WanWire::BITS_PER_BYTE;
        bytes = std::max<double>(floor, bdp / m_streams);
    }
    bytes = std::max<double>(bytes, MIN_BUFFERED_MESSAGES * message);
    return static_cast<uint32_t>(
        std::min<double>(std::ceil(bytes), std::numeric_limits<uint32_t>::max()));
}

Ptr<Socket>
TcpTransport::CreateSocket(uint32_t buffer)
{
    NS_LOG_FUNCTION(this << buffer);
    // A socket's TcpSocketState takes its attributes from their defaults when the socket is
    // made (ns-3 has no setter for them on a socket): set MaxPacingRate's for this socket only.
    const std::string pacingCap = "ns3::TcpSocketState::MaxPacingRate";
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(TcpSocketState::GetTypeId().LookupAttributeByName("MaxPacingRate", &info));
    const DataRateValue outside(DynamicCast<const DataRateValue>(info.initialValue)->Get());
    Config::SetDefault(pacingCap, DataRateValue(m_usedMaxPacingRate));
    Ptr<Socket> socket = Socket::CreateSocket(m_node, TcpSocketFactory::GetTypeId());
    Config::SetDefault(pacingCap, outside);
    socket->SetAttribute("SegmentSize", UintegerValue(m_usedSegmentSize));
    socket->SetAttribute("SndBufSize", UintegerValue(buffer));
    socket->SetAttribute("RcvBufSize", UintegerValue(buffer));
    if (m_delAckCount != 0)
    {
        socket->SetAttribute("DelAckCount", UintegerValue(m_delAckCount));
    }
    return socket;
}

void
TcpTransport::Start(Ptr<Node> node,
                    ExchangeContext& context,
                    uint16_t port,
                    const std::vector<uint32_t>& partners,
                    ReceiveCallback receive)
{
    NS_LOG_FUNCTION(this << context.settings.island);
    m_node = node;
    m_context = &context;
    m_round = 0;
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    NS_ABORT_MSG_IF(!tcp || !ipv4,
                    "TcpTransport: island " << context.settings.island << " has no TCP/IP");
    // Sockets created from here on take the congestion control.
    tcp->SetAttribute("SocketType", TypeIdValue(m_congestion));
    const int32_t interface =
        ipv4->GetInterfaceForAddress(context.settings.addresses[context.settings.island]);
    NS_ABORT_MSG_IF(interface < 0,
                    "TcpTransport: island " << context.settings.island << " has no address");
    m_usedSegmentSize = m_segmentSize != 0
                            ? m_segmentSize
                            : ipv4->GetMtu(interface) - WanWire::IPV4_HEADER_BYTES -
                                  WanWire::TCP_HEADER_BYTES - WanWire::TCP_MAX_OPTION_BYTES;
    m_usedMaxPacingRate = m_maxPacingRate;
    if (m_usedMaxPacingRate.GetBitRate() == 0)
    {
        DataRateValue access;
        NS_ABORT_MSG_UNLESS(ipv4->GetNetDevice(interface)->GetAttributeFailSafe("DataRate", access),
                            "TcpTransport: island " << context.settings.island
                                                    << "'s device has no DataRate");
        m_usedMaxPacingRate = access.Get();
    }
    // The floor: what TcpSocket's SndBufSize gives a socket (its default, or Config's).
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(TcpSocket::GetTypeId().LookupAttributeByName("SndBufSize", &info));
    const auto floor =
        static_cast<uint32_t>(DynamicCast<const UintegerValue>(info.initialValue)->Get());
    const uint32_t message = ChunkLayout::DataHeaderBytes(context.settings.islandCount) +
                             context.settings.layout.GetLargestChunkPayload();

    m_peers.clear();
    m_peers.resize(context.settings.islandCount);
    m_buffers.assign(context.settings.islandCount, 0);
    uint32_t listenBuffer = 0;
    for (uint32_t peer : partners)
    {
        m_peers[peer] = std::make_unique<TcpPeer>(peer, m_streams, context, receive, [this]() {
            return MakeHeartbeat();
        });
        m_peers[peer]->SetCheckAppLimited(m_checkAppLimited);
        m_buffers[peer] = BufferFor(peer, floor, message);
        if (peer < context.settings.island)
        {
            listenBuffer = std::max(listenBuffer, m_buffers[peer]);
        }
    }
    if (listenBuffer > 0)
    {
        // Accepted sockets copy the listener's segment size, buffers, DelAckCount and pacing cap
        // (its receive buffer sets the window scale of every connection it accepts): the
        // largest buffer, lowered per peer.
        m_listener = CreateSocket(listenBuffer);
        if (m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), port)) != 0 ||
            m_listener->Listen() != 0)
        {
            NS_FATAL_ERROR("TcpTransport: island " << context.settings.island
                                                   << " cannot listen on TCP port " << port);
        }
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&TcpTransport::Accepted, this));
    }
    for (uint32_t peer : partners)
    {
        if (peer > context.settings.island)
        {
            Connect(peer, port);
        }
    }
    m_tick = Simulator::Schedule(m_heartbeatInterval, &TcpTransport::Tick, this);
}

void
TcpTransport::Connect(uint32_t peer, uint16_t port)
{
    NS_LOG_FUNCTION(this << peer << port);
    std::vector<Ptr<Socket>> sockets;
    for (uint32_t stream = 0; stream < m_streams; ++stream)
    {
        Ptr<Socket> socket = CreateSocket(m_buffers[peer]);
        socket->Bind();
        Address local;
        socket->GetSockName(local);
        m_peers[peer]->AddConnection(socket,
                                     InetSocketAddress::ConvertFrom(local).GetPort(),
                                     false);
        sockets.push_back(socket);
    }
    for (const Ptr<Socket>& socket : sockets)
    {
        socket->Connect(InetSocketAddress(m_context->settings.addresses[peer], port));
    }
}

void
TcpTransport::Accepted(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    uint32_t peer = m_context->settings.islandCount;
    if (InetSocketAddress::IsMatchingType(from))
    {
        const Ipv4Address address = InetSocketAddress::ConvertFrom(from).GetIpv4();
        const auto& addresses = m_context->settings.addresses;
        peer = static_cast<uint32_t>(std::find(addresses.begin(), addresses.end(), address) -
                                     addresses.begin());
    }
    // Only partners of lower index connect here, Streams times each.
    TcpPeer* partner = peer < m_context->settings.island ? Find(peer) : nullptr;
    if (partner == nullptr || partner->IsComplete() || partner->IsClosed())
    {
        NS_LOG_WARN("island " << m_context->settings.island << ": refused a connection from "
                              << from);
        socket->Close();
        return;
    }
    // Before its first acknowledgement: the fork's congestion control as configured.
    TcpForkRepair::RepairAccepted(m_listener, socket);
    socket->SetAttribute("SndBufSize", UintegerValue(m_buffers[peer]));
    socket->SetAttribute("RcvBufSize", UintegerValue(m_buffers[peer]));
    partner->AddConnection(socket, InetSocketAddress::ConvertFrom(from).GetPort(), true);
}

// ---------------------------------------------------------------------------------------------
// Life cycle

void
TcpTransport::Stop()
{
    NS_LOG_FUNCTION(this);
    m_tick.Cancel();
    for (const auto& partner : m_peers)
    {
        if (partner)
        {
            partner->Close();
        }
    }
    if (m_listener)
    {
        m_listener->Close();
    }
}

void
TcpTransport::EndRound(uint32_t next,
                       const std::vector<uint32_t>& members,
                       bool last,
                       bool incomplete)
{
    NS_LOG_FUNCTION(this << next << last << incomplete);
    m_round = next;
    if (last)
    {
        m_tick.Cancel();
        for (uint32_t peer = 0; peer < m_peers.size(); ++peer)
        {
            Announce(peer);
        }
    }
    else if (incomplete)
    {
        for (uint32_t peer : members)
        {
            Announce(peer);
        }
    }
}

void
TcpTransport::Announce(uint32_t peer)
{
    NS_LOG_FUNCTION(this << peer);
    if (TcpPeer* partner = Find(peer))
    {
        partner->Announce();
    }
}

void
TcpTransport::Tick()
{
    NS_LOG_FUNCTION(this);
    for (const auto& partner : m_peers)
    {
        if (partner)
        {
            partner->AnnounceIdle();
        }
    }
    m_tick = Simulator::Schedule(m_heartbeatInterval, &TcpTransport::Tick, this);
}

Ptr<Packet>
TcpTransport::MakeHeartbeat() const
{
    NS_LOG_FUNCTION(this);
    GradientHeader header;
    header.SetType(GradientHeader::ACK);
    header.SetSender(static_cast<uint16_t>(m_context->settings.island));
    header.SetJobId(m_context->settings.jobId);
    header.SetRound(m_round);
    IslandBitmap self;
    self.Set(m_context->settings.island);
    header.SetMembers(self);
    return GradientPayload::CreateVirtual(header); // no contributors: "nothing for you"
}

// ---------------------------------------------------------------------------------------------
// Writing

TcpPeer*
TcpTransport::Find(uint32_t peer) const
{
    NS_LOG_FUNCTION(this << peer);
    return peer < m_peers.size() ? m_peers[peer].get() : nullptr;
}

void
TcpTransport::AddSource(uint32_t peer, const void* owner, Source source)
{
    NS_LOG_FUNCTION(this << peer);
    TcpPeer* partner = Find(peer);
    NS_ABORT_MSG_IF(partner == nullptr,
                    "TcpTransport: island " << m_context->settings.island
                                            << " has no connection to " << peer);
    partner->AddSource(owner, std::move(source));
}

void
TcpTransport::RemoveSources(uint32_t peer, const void* owner)
{
    NS_LOG_FUNCTION(this << peer);
    if (TcpPeer* partner = Find(peer))
    {
        partner->RemoveSources(owner);
    }
}

void
TcpTransport::Wake(uint32_t peer)
{
    NS_LOG_FUNCTION(this << peer);
    if (TcpPeer* partner = Find(peer))
    {
        partner->Pump();
    }
}

// ---------------------------------------------------------------------------------------------
// Queries

bool
TcpTransport::IsClosed(uint32_t peer) const
{
    NS_LOG_FUNCTION(this << peer);
    const TcpPeer* partner = Find(peer);
    return partner == nullptr || partner->IsClosed();
}

Time
TcpTransport::GetLastHeard(uint32_t peer) const
{
    NS_LOG_FUNCTION(this << peer);
    const TcpPeer* partner = Find(peer);
    return partner != nullptr ? partner->GetLastHeard() : Time(0);
}

uint32_t
TcpTransport::GetPeerRound(uint32_t peer) const
{
    NS_LOG_FUNCTION(this << peer);
    const TcpPeer* partner = Find(peer);
    return partner != nullptr ? partner->GetPeerRound() : 0;
}

Time
TcpTransport::GetHeartbeatInterval() const
{
    NS_LOG_FUNCTION(this);
    return m_heartbeatInterval;
}

Time
TcpTransport::GetPeerTimeout() const
{
    NS_LOG_FUNCTION(this);
    return m_peerTimeout;
}

uint32_t
TcpTransport::GetBufferBytes(uint32_t peer) const
{
    NS_LOG_FUNCTION(this << peer);
    return peer < m_buffers.size() ? m_buffers[peer] : 0;
}

uint32_t
TcpTransport::GetStreams() const
{
    NS_LOG_FUNCTION(this);
    return m_streams;
}

std::vector<uint64_t>
TcpTransport::GetStreamBytesSent(uint32_t peer) const
{
    NS_LOG_FUNCTION(this << peer);
    const TcpPeer* partner = Find(peer);
    return partner != nullptr ? partner->GetStreamBytesSent() : std::vector<uint64_t>();
}

std::vector<uint64_t>
TcpTransport::GetStreamBytesReceived(uint32_t peer) const
{
    NS_LOG_FUNCTION(this << peer);
    const TcpPeer* partner = Find(peer);
    return partner != nullptr ? partner->GetStreamBytesReceived() : std::vector<uint64_t>();
}

uint32_t
TcpTransport::GetSegmentSize() const
{
    NS_LOG_FUNCTION(this);
    return m_usedSegmentSize;
}

DataRate
TcpTransport::GetMaxPacingRate() const
{
    NS_LOG_FUNCTION(this);
    return m_usedMaxPacingRate;
}

uint64_t
TcpTransport::GetHeartbeatsSent() const
{
    NS_LOG_FUNCTION(this);
    uint64_t sent = 0;
    for (const auto& partner : m_peers)
    {
        sent += partner ? partner->GetHeartbeatsSent() : 0;
    }
    return sent;
}

} // namespace ns3
