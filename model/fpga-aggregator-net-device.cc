/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-aggregator-net-device.h"

#include "wan-wire.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FpgaAggregatorNetDevice");

NS_OBJECT_ENSURE_REGISTERED(FpgaAggregatorNetDevice);

namespace
{

constexpr uint16_t DEFAULT_MTU = 9000; //!< informational MTU of the device
/** Bytes IsGradientTraffic() reads: IPv4 and UDP headers. */
constexpr uint32_t PROBE_SIZE = WanWire::IPV4_HEADER_BYTES + WanWire::UDP_HEADER_BYTES;

/** \param p two bytes in network order \return their value */
uint16_t
ReadU16(const uint8_t* p)
{
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

} // namespace

const char*
FpgaAggregatorNetDevice::PassReasonName(PassReason reason)
{
    switch (reason)
    {
    case PASS_OUTBOUND:
        return "Outbound";
    case PASS_NOT_GRADIENT:
        return "NotGradient";
    case PASS_MALFORMED:
        return "Malformed";
    case PASS_NOT_DATA:
        return "NotData";
    case PASS_RETRANSMISSION:
        return "Retransmission";
    case PASS_NO_AGGREGATE:
        return "NoAggregate";
    case PASS_NOT_MEMBER:
        return "NotMember";
    case PASS_MISMATCH:
        return "Mismatch";
    case PASS_OVERFLOW:
        return "Overflow";
    default:
        return "Unknown";
    }
}

TypeId
FpgaAggregatorNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FpgaAggregatorNetDevice")
            .SetParent<WanPortDevice>()
            .SetGroupName("WanTraining")
            .AddConstructor<FpgaAggregatorNetDevice>()
            .AddAttribute("IslandIndex",
                          "Index of the island this FPGA serves (removed from each slot's "
                          "expected contributors).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FpgaAggregatorNetDevice::m_islandIndex),
                          MakeUintegerChecker<uint32_t>(0, IslandBitmap::MAX_ISLANDS - 1))
            .AddAttribute("IslandAddress",
                          "IPv4 destination of emitted aggregates. 0.0.0.0: learn it from the "
                          "island's outbound packets or inbound unicast DATA; until then use the "
                          "first contribution's destination.",
                          Ipv4AddressValue(Ipv4Address::GetAny()),
                          MakeIpv4AddressAccessor(&FpgaAggregatorNetDevice::m_islandAddress),
                          MakeIpv4AddressChecker())
            .AddAttribute("GradientPort",
                          "UDP destination port of gradient traffic.",
                          UintegerValue(GradientHeader::DEFAULT_PORT),
                          MakeUintegerAccessor(&FpgaAggregatorNetDevice::m_gradientPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("SlotCount",
                          "Aggregation slots (SwitchML uses 8192); with none free, DATA passes "
                          "through.",
                          UintegerValue(8192),
                          MakeUintegerAccessor(&FpgaAggregatorNetDevice::m_slotCount),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Timeout",
                          "A slot not complete this long after it opened is flushed as a "
                          "partial aggregate carrying its bitmap.",
                          TimeValue(MilliSeconds(50)),
                          MakeTimeAccessor(&FpgaAggregatorNetDevice::m_timeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("EarlyFlush",
                          "Emit a slot as a partial aggregate as soon as every missing sender "
                          "has gone past its chunk (a later first-pass chunk or its END "
                          "arrived), instead of waiting for Timeout. Relies on each sender's "
                          "first pass arriving in chunk order, as on one path.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FpgaAggregatorNetDevice::SetEarlyFlush,
                                              &FpgaAggregatorNetDevice::GetEarlyFlush),
                          MakeBooleanChecker())
            .AddAttribute("PipelineLatency",
                          "Delay from the last contribution to the aggregate's departure.",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&FpgaAggregatorNetDevice::SetPipelineLatency,
                                           &FpgaAggregatorNetDevice::GetPipelineLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PortBacklog",
                          "Packets the island port may hold (waiting or on the wire) before "
                          "aggregates wait in slot memory instead, leaving as the port drains: "
                          "a burst of settled or timed-out slots never overflows the port's "
                          "transmit queue. At most that queue's size.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&FpgaAggregatorNetDevice::m_portBacklog),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ProcessingRate",
                          "Rate of the aggregation engine (FIFO, service time = size / rate) "
                          "for inbound gradient packets. 0: line rate of the ports, no extra "
                          "delay.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&FpgaAggregatorNetDevice::m_processingRate),
                          MakeDataRateChecker())
            .AddTraceSource("SlotAllocated",
                            "A DATA packet opened a slot.",
                            MakeTraceSourceAccessor(&FpgaAggregatorNetDevice::m_slotAllocatedTrace),
                            "ns3::FpgaAggregatorNetDevice::HeaderTracedCallback")
            .AddTraceSource(
                "AggregateEmitted",
                "An AGGREGATE packet left towards the island (complete or partial).",
                MakeTraceSourceAccessor(&FpgaAggregatorNetDevice::m_aggregateEmittedTrace),
                "ns3::FpgaAggregatorNetDevice::AggregateTracedCallback")
            .AddTraceSource("PassThrough",
                            "A packet passed through untouched, with the reason.",
                            MakeTraceSourceAccessor(&FpgaAggregatorNetDevice::m_passThroughTrace),
                            "ns3::FpgaAggregatorNetDevice::PassThroughTracedCallback")
            .AddTraceSource("Overflow",
                            "A DATA packet found no free slot (it passes through).",
                            MakeTraceSourceAccessor(&FpgaAggregatorNetDevice::m_overflowTrace),
                            "ns3::FpgaAggregatorNetDevice::HeaderTracedCallback")
            .AddTraceSource("Duplicate",
                            "A DATA copy from a sender already in its slot was absorbed.",
                            MakeTraceSourceAccessor(&FpgaAggregatorNetDevice::m_duplicateTrace),
                            "ns3::FpgaAggregatorNetDevice::DuplicateTracedCallback");
    return tid;
}

FpgaAggregatorNetDevice::FpgaAggregatorNetDevice()
    : WanPortDevice(Mac48Address::Allocate(), DEFAULT_MTU),
      m_islandIndex(0),
      m_gradientPort(GradientHeader::DEFAULT_PORT),
      m_slotCount(0),
      m_busyUntil(0),
      m_passCount{},
      m_complete(0),
      m_partial(0),
      m_nextIdentification(0)
{
    NS_LOG_FUNCTION(this);
    m_table.SetEmitCallback(MakeCallback(&FpgaAggregatorNetDevice::Emit, this));
}

FpgaAggregatorNetDevice::~FpgaAggregatorNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
FpgaAggregatorNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_table.Clear();
    m_output.Clear();
    m_serviceEvent.Cancel();
    m_pending.clear();
    m_islandPort = nullptr;
    m_routerPort = nullptr;
    WanPortDevice::DoDispose();
}

void
FpgaAggregatorNetDevice::SetIslandPort(Ptr<NetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(port == nullptr || port->GetNode() == nullptr,
                    "FpgaAggregatorNetDevice: the island port must be installed on a node");
    NS_ABORT_MSG_IF(m_islandPort != nullptr, "FpgaAggregatorNetDevice: island port set twice");
    m_islandPort = port;
    m_islandBroadcast = port->GetBroadcast();
    // The port's node is the FPGA's node, whether or not AddDevice(this) came first.
    port->GetNode()->RegisterProtocolHandler(
        MakeCallback(&FpgaAggregatorNetDevice::ReceiveFromIsland, this),
        0,
        port,
        false); // every frame of a point-to-point port reaches a non-promiscuous handler
}

void
FpgaAggregatorNetDevice::SetRouterPort(Ptr<NetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(port == nullptr || port->GetNode() == nullptr,
                    "FpgaAggregatorNetDevice: the router port must be installed on a node");
    NS_ABORT_MSG_IF(m_routerPort != nullptr, "FpgaAggregatorNetDevice: router port set twice");
    m_routerPort = port;
    m_routerBroadcast = port->GetBroadcast();
    port->GetNode()->RegisterProtocolHandler(
        MakeCallback(&FpgaAggregatorNetDevice::ReceiveFromRouter, this),
        0,
        port,
        false);
}

Ptr<NetDevice>
FpgaAggregatorNetDevice::GetIslandPort() const
{
    return m_islandPort;
}

Ptr<NetDevice>
FpgaAggregatorNetDevice::GetRouterPort() const
{
    return m_routerPort;
}

void
FpgaAggregatorNetDevice::SetEarlyFlush(bool earlyFlush)
{
    m_table.SetEarlyFlush(earlyFlush);
}

bool
FpgaAggregatorNetDevice::GetEarlyFlush() const
{
    return m_table.GetEarlyFlush();
}

void
FpgaAggregatorNetDevice::SetPipelineLatency(Time latency)
{
    m_table.SetPipelineLatency(latency);
}

Time
FpgaAggregatorNetDevice::GetPipelineLatency() const
{
    return m_table.GetPipelineLatency();
}

// ---------------------------------------------------------------------------------------------
// Receive paths

void
FpgaAggregatorNetDevice::ReceiveFromIsland(Ptr<NetDevice> device,
                                           Ptr<const Packet> packet,
                                           uint16_t protocol,
                                           const Address& source,
                                           const Address& destination,
                                           NetDevice::PacketType packetType)
{
    NS_LOG_FUNCTION(this << packet << protocol);
    if (m_islandAddress == Ipv4Address::GetAny() && protocol == WanWire::IPV4_ETHERTYPE &&
        packet->GetSize() >= WanWire::IPV4_HEADER_BYTES)
    {
        // The island's own packets name its address: aggregates go there.
        uint8_t probe[WanWire::IPV4_HEADER_BYTES];
        packet->CopyData(probe, WanWire::IPV4_HEADER_BYTES);
        m_islandAddress = Ipv4Address::Deserialize(probe + WanWire::IPV4_SOURCE_OFFSET);
    }
    if (m_routerPort != nullptr)
    {
        PassThrough(m_routerPort, packet, protocol, PASS_OUTBOUND);
    }
}

void
FpgaAggregatorNetDevice::ReceiveFromRouter(Ptr<NetDevice> device,
                                           Ptr<const Packet> packet,
                                           uint16_t protocol,
                                           const Address& source,
                                           const Address& destination,
                                           NetDevice::PacketType packetType)
{
    NS_LOG_FUNCTION(this << packet << protocol);
    if (m_islandPort == nullptr)
    {
        return;
    }
    if (protocol != WanWire::IPV4_ETHERTYPE || !IsGradientTraffic(packet))
    {
        PassThrough(m_islandPort, packet, protocol, PASS_NOT_GRADIENT);
        return;
    }
    if (m_processingRate.GetBitRate() == 0)
    {
        Process(packet);
    }
    else
    {
        Enqueue(packet);
    }
}

bool
FpgaAggregatorNetDevice::IsGradientTraffic(Ptr<const Packet> packet) const
{
    // A fixed-size peek at the IPv4 and UDP headers: non-gradient traffic costs one copy of
    // 28 bytes and a few compares, never a header object.
    if (packet->GetSize() < PROBE_SIZE)
    {
        return false;
    }
    uint8_t probe[PROBE_SIZE];
    packet->CopyData(probe, PROBE_SIZE);
    const uint8_t versionIhl = probe[0];
    const uint16_t fragment = ReadU16(probe + WanWire::IPV4_FRAGMENT_OFFSET);
    const uint16_t port =
        ReadU16(probe + WanWire::IPV4_HEADER_BYTES + WanWire::UDP_DESTINATION_PORT_OFFSET);
    return (versionIhl >> 4) == WanWire::IPV4_VERSION &&
           (versionIhl & 0x0f) == WanWire::IPV4_PLAIN_IHL &&
           (fragment & WanWire::IPV4_FRAGMENT_MASK) == 0 &&
           probe[WanWire::IPV4_PROTOCOL_OFFSET] == WanWire::UDP_PROTOCOL && port == m_gradientPort;
}

void
FpgaAggregatorNetDevice::Enqueue(Ptr<const Packet> packet)
{
    const Time now = Simulator::Now();
    const Time start = std::max(now, m_busyUntil);
    m_busyUntil = start + m_processingRate.CalculateBytesTxTime(packet->GetSize());
    m_pending.push_back(PendingInput{packet, m_busyUntil});
    if (m_pending.size() == 1)
    {
        m_serviceEvent =
            Simulator::Schedule(m_busyUntil - now, &FpgaAggregatorNetDevice::ServiceComplete, this);
    }
}

void
FpgaAggregatorNetDevice::ServiceComplete()
{
    NS_ASSERT(!m_pending.empty());
    Ptr<const Packet> packet = m_pending.front().packet;
    m_pending.pop_front();
    if (!m_pending.empty())
    {
        m_serviceEvent = Simulator::Schedule(m_pending.front().finish - Simulator::Now(),
                                             &FpgaAggregatorNetDevice::ServiceComplete,
                                             this);
    }
    Process(packet);
}

void
FpgaAggregatorNetDevice::Process(Ptr<const Packet> packet)
{
    // One copy of the header bytes, parsed in place: no header objects, no packet copies.
    const uint32_t size = packet->GetSize();
    const uint32_t copied =
        packet->CopyData(m_headerBytes.data(),
                         std::min<uint32_t>(size, static_cast<uint32_t>(m_headerBytes.size())));
    const uint8_t* b = m_headerBytes.data();
    // IsGradientTraffic() checked version, IHL, fragment, protocol and port on these bytes.
    if (copied < PROBE_SIZE || ReadU16(b + WanWire::IPV4_TOTAL_LENGTH_OFFSET) != size ||
        ReadU16(b + WanWire::IPV4_HEADER_BYTES + WanWire::UDP_LENGTH_OFFSET) !=
            size - WanWire::IPV4_HEADER_BYTES)
    {
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_MALFORMED);
        return;
    }
    GradientHeader& header = m_parsed;
    if (!GradientHeader::ParseBytes(b + PROBE_SIZE, copied - PROBE_SIZE, size - PROBE_SIZE, header))
    {
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_MALFORMED);
        return;
    }
    if (header.GetType() == GradientHeader::END && header.GetMembers().Test(m_islandIndex) &&
        header.GetSender() != m_islandIndex)
    {
        m_table.AdvanceFrontier(header, header.GetChunkCount());
    }
    if (header.GetType() != GradientHeader::DATA)
    {
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_NOT_DATA);
        return;
    }
    if (header.HasFlag(GradientHeader::FLAG_RETRANSMISSION))
    {
        // A resend to a multicast group reaches islands that did not ask for it. Where this
        // island's own copy of the chunk waits in a slot, the aggregate brings it; passed on,
        // the resend would arrive first and the island would have to discard that aggregate
        // (a sum cannot be split) and ask its other contributors again.
        if (m_table.AbsorbResend(header))
        {
            m_duplicateTrace(packet, header);
            return;
        }
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_RETRANSMISSION);
        return;
    }
    if (header.HasFlag(GradientHeader::FLAG_NO_AGGREGATE))
    {
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_NO_AGGREGATE);
        return;
    }
    if (!header.GetMembers().Test(m_islandIndex) || header.GetSender() == m_islandIndex)
    {
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_NOT_MEMBER);
        return;
    }
    FpgaSlotTable::InputFields fields;
    fields.source = Ipv4Address::Deserialize(b + WanWire::IPV4_SOURCE_OFFSET);
    fields.destination = Ipv4Address::Deserialize(b + WanWire::IPV4_DESTINATION_OFFSET);
    fields.sourcePort = ReadU16(b + WanWire::IPV4_HEADER_BYTES);
    fields.ttl = b[WanWire::IPV4_TTL_OFFSET];
    fields.tos = b[WanWire::IPV4_TOS_OFFSET];
    if (m_islandAddress == Ipv4Address::GetAny() && !fields.destination.IsMulticast())
    {
        m_islandAddress = fields.destination;
    }
    // Slots the sender skipped settle first, so aggregates leave in chunk order; then this
    // chunk, then the frontier moves past it.
    m_table.AdvanceFrontier(header, header.GetChunkIndex());
    Aggregate(packet, fields, header, size - header.GetPayloadSize());
    m_table.AdvanceFrontier(header, header.GetChunkIndex() + 1);
}

// ---------------------------------------------------------------------------------------------
// Aggregation

void
FpgaAggregatorNetDevice::Aggregate(Ptr<const Packet> packet,
                                   const FpgaSlotTable::InputFields& fields,
                                   const GradientHeader& header,
                                   uint32_t payloadOffset)
{
    const FpgaSlotTable::SlotKey key{header.GetJobId(),
                                     header.GetRound(),
                                     header.GetCliqueId(),
                                     header.GetChunkIndex()};
    uint32_t index;
    if (!m_table.Find(key, index))
    {
        if (m_table.GetSlotsInUse() >= m_slotCount)
        {
            m_overflowTrace(header);
            PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_OVERFLOW);
            return;
        }
        IslandBitmap self;
        self.Set(m_islandIndex);
        index = m_table.Open(header,
                             fields,
                             header.GetMembers().Minus(self),
                             Simulator::Now() + m_timeout);
        m_slotAllocatedTrace(header);
    }
    if ((fields.tos & WanWire::IPV4_ECN_MASK) == WanWire::IPV4_ECN_CE)
    {
        // The contributor's leg was congested; the aggregate carries the mark on (before Add,
        // which may emit the slot).
        m_table.MarkCongested(index);
    }
    switch (m_table.Add(index, header, packet, payloadOffset))
    {
    case FpgaSlotTable::MISMATCH:
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_MISMATCH);
        break;
    case FpgaSlotTable::DUPLICATE:
        m_duplicateTrace(packet, header);
        break;
    case FpgaSlotTable::ADDED:
        break;
    }
}

void
FpgaAggregatorNetDevice::Emit(uint32_t index, bool complete)
{
    const FpgaSlotTable::Slot& slot = m_table.GetSlot(index);
    NS_LOG_FUNCTION(this << index << complete << slot.contributors.Count());
    NS_LOG_DEBUG("island " << m_islandIndex << " round " << slot.key.round << " chunk "
                           << slot.key.chunkIndex << (complete ? " complete" : " partial")
                           << " aggregate of " << slot.contributors << " of " << slot.expected);
    const bool real = slot.header.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD);

    GradientHeader out = slot.header;
    out.SetType(GradientHeader::AGGREGATE);
    out.SetContributors(slot.contributors);
    out.SetFlags((real ? GradientHeader::FLAG_REAL_PAYLOAD : 0) |
                 (slot.settled ? GradientHeader::FLAG_SETTLED : 0));

    Ptr<Packet> packet;
    if (real)
    {
        const uint32_t bytes = out.GetPayloadSize();
        m_scratch.resize(bytes);
        uint8_t* p = m_scratch.data();
        for (uint32_t value : slot.sum)
        {
            *p++ = static_cast<uint8_t>(value >> 24);
            *p++ = static_cast<uint8_t>(value >> 16);
            *p++ = static_cast<uint8_t>(value >> 8);
            *p++ = static_cast<uint8_t>(value);
        }
        packet = Create<Packet>(m_scratch.data(), bytes);
    }
    else
    {
        packet = Create<Packet>(out.GetPayloadSize());
    }
    packet->AddHeader(out);

    // Source: the first contributor (so the island sees a peer's address and port, as it
    // would for a DATA packet); destination: the island.
    const Ipv4Address destination =
        m_islandAddress == Ipv4Address::GetAny() ? slot.fields.destination : m_islandAddress;
    const bool checksums = Node::ChecksumEnabled();
    UdpHeader udp;
    udp.SetSourcePort(slot.fields.sourcePort);
    udp.SetDestinationPort(m_gradientPort);
    if (checksums)
    {
        udp.EnableChecksums();
        udp.InitializeChecksum(slot.fields.source, destination, WanWire::UDP_PROTOCOL);
    }
    packet->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(slot.fields.source);
    ip.SetDestination(destination);
    ip.SetProtocol(WanWire::UDP_PROTOCOL);
    ip.SetPayloadSize(packet->GetSize());
    ip.SetTtl(slot.fields.ttl);
    ip.SetTos(slot.fields.tos);
    ip.SetIdentification(m_nextIdentification++);
    if (checksums)
    {
        ip.EnableChecksum();
    }
    packet->AddHeader(ip);

    // Free the slot before sending: the trace sinks and the send see a consistent table.
    // Its deadline, if any, goes stale and the table's timer skips it.
    m_table.Free(index);
    if (complete)
    {
        ++m_complete;
    }
    else
    {
        ++m_partial;
    }
    m_aggregateEmittedTrace(packet, out, complete);
    if (!m_outputConfigured)
    {
        // Now, not when the port is attached: its DataRate may be set after that.
        m_output.Configure(m_islandPort, m_islandBroadcast, WanWire::IPV4_ETHERTYPE, m_portBacklog);
        m_outputConfigured = true;
    }
    m_output.SendAggregate(packet);
}

void
FpgaAggregatorNetDevice::PassThrough(Ptr<NetDevice> port,
                                     Ptr<const Packet> packet,
                                     uint16_t protocol,
                                     PassReason reason)
{
    ++m_passCount[reason];
    m_passThroughTrace(packet, reason);
    Ptr<Packet> copy = packet->Copy();
    if (port == m_islandPort)
    {
        m_output.NoteSent(copy);
    }
    port->Send(copy, port == m_islandPort ? m_islandBroadcast : m_routerBroadcast, protocol);
}

// ---------------------------------------------------------------------------------------------
// Counters

uint64_t
FpgaAggregatorNetDevice::GetPassThroughCount(PassReason reason) const
{
    NS_ABORT_MSG_IF(reason >= PASS_REASON_COUNT, "bad pass-through reason " << reason);
    return m_passCount[reason];
}

uint64_t
FpgaAggregatorNetDevice::GetAggregatedCount() const
{
    return m_table.GetAggregatedCount();
}

uint64_t
FpgaAggregatorNetDevice::GetDuplicateCount() const
{
    return m_table.GetDuplicateCount();
}

uint64_t
FpgaAggregatorNetDevice::GetCompleteCount() const
{
    return m_complete;
}

uint64_t
FpgaAggregatorNetDevice::GetEarlyFlushCount() const
{
    return m_table.GetEarlyFlushCount();
}

uint64_t
FpgaAggregatorNetDevice::GetPartialCount() const
{
    return m_partial;
}

uint64_t
FpgaAggregatorNetDevice::GetWrapCount() const
{
    return m_table.GetWrapCount();
}

uint32_t
FpgaAggregatorNetDevice::GetSlotsInUse() const
{
    return m_table.GetSlotsInUse();
}

// The NetDevice interface (a bump in the wire, invisible to IP) is WanPortDevice's.

} // namespace ns3
