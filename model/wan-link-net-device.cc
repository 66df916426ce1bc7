/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-link-net-device.h"

#include "wan-ipv4-header-bytes.h"
#include "wan-link-channel.h"
#include "wan-wire.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanLinkNetDevice");

NS_OBJECT_ENSURE_REGISTERED(WanLinkNetDevice);

namespace
{

/**
 * \brief Fire one of the device's packet trace sources, skipping the call (and its copy of
 *        the packet pointer) when no sink is connected, as in most runs for all of them but
 *        PhyTxEnd: a frame passes seven of them per link hop, about 3% of a run's
 *        instructions when fired empty.
 * \param trace the trace source \param packet the packet
 */
template <typename Trace, typename P>
inline void
FireTrace(const Trace& trace, const Ptr<P>& packet)
{
    if (!trace.IsEmpty())
    {
        trace(packet);
    }
}

} // namespace

TypeId
WanLinkNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanLinkNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanLinkNetDevice>()
            .AddAttribute(
                "Mtu",
                "The MAC-level maximum transmission unit: the largest packet, "
                "without framing, the device sends",
                UintegerValue(1500),
                MakeUintegerAccessor(&WanLinkNetDevice::SetMtu, &WanLinkNetDevice::GetMtu),
                MakeUintegerChecker<uint16_t>(MIN_MTU))
            .AddAttribute("Address",
                          "The device's MAC address",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&WanLinkNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute("DataRate",
                          "The transmission rate",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&WanLinkNetDevice::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("FramingBytes",
                          "Bytes of link framing counted in each frame's transmission time "
                          "(2: PointToPointNetDevice's PPP header); never added to the packet",
                          UintegerValue(DEFAULT_FRAMING_BYTES),
                          MakeUintegerAccessor(&WanLinkNetDevice::m_framingBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxQueueMaxSize",
                          "The most the transmit FIFO holds, in packets or bytes, besides the "
                          "frame on the wire; beyond it Send refuses the packet (MacTxDrop)",
                          QueueSizeValue(QueueSize("100p")),
                          MakeQueueSizeAccessor(&WanLinkNetDevice::m_queueMaxSize),
                          MakeQueueSizeChecker())
            .AddAttribute("EcnMarking",
                          "Mark ECN-capable IPv4 packets CE by the FIFO's length when they are "
                          "accepted (EcnMinThreshold, EcnMaxThreshold, EcnMaxProbability)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&WanLinkNetDevice::m_ecnMarking),
                          MakeBooleanChecker())
            .AddAttribute("EcnMinThreshold",
                          "Kmin: a packet finding at most this much waiting is never marked "
                          "(packets or bytes; the unit of both thresholds)",
                          QueueSizeValue(QueueSize("20p")),
                          MakeQueueSizeAccessor(&WanLinkNetDevice::m_ecnMin),
                          MakeQueueSizeChecker())
            .AddAttribute("EcnMaxThreshold",
                          "Kmax: a packet finding at least this much waiting is always marked "
                          "(same unit as EcnMinThreshold)",
                          QueueSizeValue(QueueSize("60p")),
                          MakeQueueSizeAccessor(&WanLinkNetDevice::m_ecnMax),
                          MakeQueueSizeChecker())
            .AddAttribute("EcnMaxProbability",
                          "Pmax: the marking probability just below EcnMaxThreshold (it rises "
                          "linearly from 0 at EcnMinThreshold)",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&WanLinkNetDevice::m_ecnMaxProbability),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("ReceiveErrorModel",
                          "The error model applied to every received frame",
                          PointerValue(),
                          MakePointerAccessor(&WanLinkNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("MacTx",
                            "A packet accepted from the upper layer for transmission",
                            MakeTraceSourceAccessor(&WanLinkNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A packet refused for transmission: FIFO full or link down",
                            MakeTraceSourceAccessor(&WanLinkNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A packet received and passed up to the node",
                            MakeTraceSourceAccessor(&WanLinkNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame starts its transmission",
                            MakeTraceSourceAccessor(&WanLinkNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "A frame ends its transmission",
                            MakeTraceSourceAccessor(&WanLinkNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A frame arrives from the channel intact",
                            MakeTraceSourceAccessor(&WanLinkNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "A frame arrives from the channel and the error model drops it",
                            MakeTraceSourceAccessor(&WanLinkNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Every frame the device starts sending or receives intact (pcap)",
                            MakeTraceSourceAccessor(&WanLinkNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("EcnMark",
                            "A packet accepted for transmission and marked CE (the marked copy)",
                            MakeTraceSourceAccessor(&WanLinkNetDevice::m_ecnMarkTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

WanLinkNetDevice::WanLinkNetDevice()
    : m_current{nullptr, 0},
      m_ecnRandom(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

WanLinkNetDevice::~WanLinkNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
WanLinkNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_channel = nullptr;
    m_receiveErrorModel = nullptr;
    m_ecnRandom = nullptr;
    m_queue.clear();
    m_queuedBytes = 0;
    m_current.packet = nullptr;
    m_rxCallback =
        MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    m_promiscCallback = MakeNullCallback<bool,
                                         Ptr<NetDevice>,
                                         Ptr<const Packet>,
                                         uint16_t,
                                         const Address&,
                                         const Address&,
                                         NetDevice::PacketType>();
    NetDevice::DoDispose();
}

void
WanLinkNetDevice::Attach(Ptr<WanLinkChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    NS_ABORT_MSG_UNLESS(channel, "WanLinkNetDevice::Attach: null channel");
    NS_ABORT_MSG_IF(m_channel, "WanLinkNetDevice::Attach: the device already has a channel");
    channel->Attach(this);
    m_channel = channel;
    m_linkChangeCallbacks();
}

Time
WanLinkNetDevice::TxTime(uint32_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    // CalculateBytesTxTime divides in 128 bits, and most frames of a run have the same size:
    // keep the last result, keyed by everything it depends on.
    const uint32_t frameBytes = bytes + m_framingBytes;
    if (frameBytes != m_lastTxBytes || m_rate.GetBitRate() != m_lastTxBps)
    {
        m_lastTxBytes = frameBytes;
        m_lastTxBps = m_rate.GetBitRate();
        m_lastTxTime = m_rate.CalculateBytesTxTime(frameBytes);
    }
    return m_lastTxTime;
}

bool
WanLinkNetDevice::HasRoom(const Frame& frame) const
{
    NS_LOG_FUNCTION(this);
    if (m_queueMaxSize.GetUnit() == QueueSizeUnit::PACKETS)
    {
        return m_queue.size() + 1 <= m_queueMaxSize.GetValue();
    }
    return m_queuedBytes + frame.packet->GetSize() <= m_queueMaxSize.GetValue();
}

bool
WanLinkNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    if (!m_channel)
    {
        m_macTxDropTrace(packet);
        return false;
    }
    FireTrace(m_macTxTrace, packet);
    Frame frame{packet, protocolNumber};
    if (!m_busy)
    {
        TransmitStart(frame);
        return true;
    }
    if (!HasRoom(frame))
    {
        NS_LOG_LOGIC("transmit FIFO full: drop " << packet);
        m_macTxDropTrace(packet);
        return false;
    }
    if (m_ecnMarking)
    {
        MaybeMark(frame);
    }
    m_queue.push_back(frame);
    m_queuedBytes += packet->GetSize();
    return true;
}

double
WanLinkNetDevice::MarkProbability() const
{
    NS_LOG_FUNCTION(this);
    const bool packets = m_ecnMin.GetUnit() == QueueSizeUnit::PACKETS;
    const double q = packets ? m_queue.size() : m_queuedBytes;
    const double kmin = m_ecnMin.GetValue();
    const double kmax = m_ecnMax.GetValue();
    if (q <= kmin)
    {
        return 0;
    }
    if (q >= kmax)
    {
        return 1;
    }
    return m_ecnMaxProbability * (q - kmin) / (kmax - kmin);
}

void
WanLinkNetDevice::MaybeMark(Frame& frame)
{
    NS_LOG_FUNCTION(this);
    if (frame.protocol != WanWire::IPV4_ETHERTYPE ||
        frame.packet->GetSize() < WanWire::IPV4_HEADER_BYTES)
    {
        return;
    }
    const double p = MarkProbability();
    if (p <= 0)
    {
        return;
    }
    uint8_t bytes[WanWire::IPV4_HEADER_BYTES];
    frame.packet->CopyData(bytes, WanWire::IPV4_HEADER_BYTES);
    const uint8_t ecn = bytes[WanWire::IPV4_TOS_OFFSET] & WanWire::IPV4_ECN_MASK;
    if (ecn != WanWire::IPV4_ECN_ECT0 && ecn != WanWire::IPV4_ECN_ECT1)
    {
        return; // not ECN-capable, or already marked
    }
    if (p < 1 && m_ecnRandom->GetValue() >= p)
    {
        return;
    }
    WanIpv4HeaderBytes header;
    std::copy(bytes, bytes + WanWire::IPV4_HEADER_BYTES, header.m_bytes);
    header.m_bytes[WanWire::IPV4_TOS_OFFSET] |= WanWire::IPV4_ECN_CE;
    header.UpdateChecksum(Node::ChecksumEnabled());
    frame.packet = WanIpv4HeaderBytes::Rewrite(frame.packet, header.m_bytes);
    m_ecnMarkTrace(frame.packet);
}

uint32_t
WanLinkNetDevice::GetQueuePackets() const
{
    NS_LOG_FUNCTION(this);
    return static_cast<uint32_t>(m_queue.size());
}

uint32_t
WanLinkNetDevice::GetFramingBytes() const
{
    NS_LOG_FUNCTION(this);
    return m_framingBytes;
}

uint64_t
WanLinkNetDevice::GetQueueBytes() const
{
    NS_LOG_FUNCTION(this);
    return m_queuedBytes;
}

int64_t
WanLinkNetDevice::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_ecnRandom->SetStream(stream);
    return 1;
}

void
WanLinkNetDevice::TransmitStart(const Frame& frame)
{
    NS_LOG_FUNCTION(this);
    m_busy = true;
    m_current = frame;
    FireTrace(m_promiscSnifferTrace, frame.packet);
    FireTrace(m_phyTxBeginTrace, frame.packet);
    const Time txTime = TxTime(frame.packet->GetSize());
    Simulator::Schedule(txTime, &WanLinkNetDevice::TransmitComplete, this);
    m_channel->TransmitStart(frame.packet, frame.protocol, this, txTime);
}

void
WanLinkNetDevice::TransmitComplete()
{
    NS_LOG_FUNCTION(this);
    m_busy = false;
    if (!m_current.packet)
    {
        return; // disposed while the frame was on the wire
    }
    FireTrace(m_phyTxEndTrace, m_current.packet);
    m_current.packet = nullptr;
    if (m_queue.empty())
    {
        return;
    }
    const Frame next = m_queue.front();
    m_queue.pop_front();
    m_queuedBytes -= next.packet->GetSize();
    TransmitStart(next);
}

bool
WanLinkNetDevice::IsIdle() const
{
    NS_LOG_FUNCTION(this);
    return !m_busy && m_queue.empty() &&
           (!m_channel || m_channel->GetInFlight(Ptr<const WanLinkNetDevice>(this)) == 0);
}

void
WanLinkNetDevice::Receive(const Ptr<Packet>& packet, uint16_t protocol)
{
    NS_LOG_FUNCTION(this << packet << protocol);
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(packet))
    {
        m_phyRxDropTrace(packet);
        return;
    }
    FireTrace(m_promiscSnifferTrace, packet);
    FireTrace(m_phyRxEndTrace, packet);
    FireTrace(m_macRxTrace, packet);
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, packet, protocol, GetRemote(), m_address, NetDevice::PACKET_HOST);
    }
    if (!m_rxCallback.IsNull())
    {
        // One reference: the channel's, which it drops after this call.
        m_deliveringSoleCopy = packet->GetReferenceCount() == 1;
        m_rxCallback(this, packet, protocol, GetRemote());
        m_deliveringSoleCopy = false;
    }
}

bool
WanLinkNetDevice::IsDeliveringSoleCopy() const
{
    NS_LOG_FUNCTION(this);
    return m_deliveringSoleCopy;
}

Address
WanLinkNetDevice::GetRemote() const
{
    NS_LOG_FUNCTION(this);
    if (m_remote.IsInvalid() && m_channel)
    {
        for (std::size_t d = 0; d < m_channel->GetNDevices(); ++d)
        {
            Ptr<NetDevice> device = m_channel->GetDevice(d);
            if (device != this)
            {
                m_remote = device->GetAddress();
            }
        }
    }
    return m_remote;
}

// NetDevice interface

void
WanLinkNetDevice::SetIfIndex(const uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    m_ifIndex = index;
}

uint32_t
WanLinkNetDevice::GetIfIndex() const
{
    NS_LOG_FUNCTION(this);
    return m_ifIndex;
}

Ptr<Channel>
WanLinkNetDevice::GetChannel() const
{
    NS_LOG_FUNCTION(this);
    return m_channel;
}

void
WanLinkNetDevice::SetAddress(Address address)
{
    NS_LOG_FUNCTION(this << address);
    m_address = Mac48Address::ConvertFrom(address);
}

Address
WanLinkNetDevice::GetAddress() const
{
    NS_LOG_FUNCTION(this);
    return m_address;
}

bool
WanLinkNetDevice::SetMtu(const uint16_t mtu)
{
    NS_LOG_FUNCTION(this << mtu);
    if (mtu < MIN_MTU)
    {
        return false;
    }
    m_mtu = mtu;
    return true;
}

uint16_t
WanLinkNetDevice::GetMtu() const
{
    NS_LOG_FUNCTION(this);
    return m_mtu;
}

bool
WanLinkNetDevice::IsLinkUp() const
{
    NS_LOG_FUNCTION(this);
    return m_channel != nullptr;
}

void
WanLinkNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    NS_LOG_FUNCTION(this);
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
WanLinkNetDevice::IsBroadcast() const
{
    NS_LOG_FUNCTION(this);
    return true; // a point-to-point link reaches its one peer with any address
}

Address
WanLinkNetDevice::GetBroadcast() const
{
    NS_LOG_FUNCTION(this);
    return Mac48Address::GetBroadcast();
}

bool
WanLinkNetDevice::IsMulticast() const
{
    NS_LOG_FUNCTION(this);
    return true;
}

Address
WanLinkNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    NS_LOG_FUNCTION(this << multicastGroup);
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
WanLinkNetDevice::GetMulticast(Ipv6Address addr) const
{
    NS_LOG_FUNCTION(this << addr);
    return Mac48Address::GetMulticast(addr);
}

bool
WanLinkNetDevice::IsPointToPoint() const
{
    NS_LOG_FUNCTION(this);
    return true;
}

bool
WanLinkNetDevice::IsBridge() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

bool
WanLinkNetDevice::SendFrom(Ptr<Packet> packet,
                           const Address& source,
                           const Address& dest,
                           uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    return false;
}

Ptr<Node>
WanLinkNetDevice::GetNode() const
{
    NS_LOG_FUNCTION(this);
    return m_node;
}

void
WanLinkNetDevice::SetNode(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_node = node;
}

bool
WanLinkNetDevice::NeedsArp() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

void
WanLinkNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    NS_LOG_FUNCTION(this);
    m_rxCallback = cb;
}

void
WanLinkNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    NS_LOG_FUNCTION(this);
    m_promiscCallback = cb;
}

bool
WanLinkNetDevice::SupportsSendFrom() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

} // namespace ns3
