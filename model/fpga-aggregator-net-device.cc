/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-aggregator-net-device.h"

#include "wan-wire.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FpgaAggregatorNetDevice");

NS_OBJECT_ENSURE_REGISTERED(FpgaAggregatorNetDevice);

namespace
{

constexpr uint16_t DEFAULT_MTU = 9000; //!< informational MTU of the device

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
    case PASS_REDUCE:
        return "Reduce";
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
                          MakeUintegerAccessor(&FpgaAggregatorNetDevice::SetGradientPort,
                                               &FpgaAggregatorNetDevice::GetGradientPort),
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
                          MakeDataRateAccessor(&FpgaAggregatorNetDevice::SetProcessingRate,
                                               &FpgaAggregatorNetDevice::GetProcessingRate),
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
      m_slotCount(0),
      m_passCount{},
      m_complete(0),
      m_partial(0)
{
    NS_LOG_FUNCTION(this);
    m_table.SetEmitCallback(MakeCallback(&FpgaAggregatorNetDevice::Emit, this));
    m_input.SetServeCallback(MakeCallback(&FpgaAggregatorNetDevice::Process, this));
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
    m_input.Clear();
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

void
FpgaAggregatorNetDevice::SetProcessingRate(DataRate rate)
{
    m_input.SetProcessingRate(rate);
}

DataRate
FpgaAggregatorNetDevice::GetProcessingRate() const
{
    return m_input.GetProcessingRate();
}

void
FpgaAggregatorNetDevice::SetGradientPort(uint16_t port)
{
    m_input.SetGradientPort(port);
}

uint16_t
FpgaAggregatorNetDevice::GetGradientPort() const
{
    return m_input.GetGradientPort();
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
    if (protocol != WanWire::IPV4_ETHERTYPE || !m_input.IsGradientTraffic(packet))
    {
        PassThrough(m_islandPort, packet, protocol, PASS_NOT_GRADIENT);
        return;
    }
    m_input.Receive(packet);
}

void
FpgaAggregatorNetDevice::Process(Ptr<const Packet> packet)
{
    GradientHeader& header = m_parsed;
    FpgaSlotTable::InputFields fields;
    uint32_t payloadOffset;
    if (!m_input.Parse(packet, header, fields, payloadOffset))
    {
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_MALFORMED);
        return;
    }
    if (header.HasFlag(GradientHeader::FLAG_REDUCE))
    {
        // Going up a reduction tree to its root: transit FPGAs add it up, the root's
        // exchange sorts out the pieces; summed here, it would leave the tree.
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_REDUCE);
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
    if (m_islandAddress == Ipv4Address::GetAny() && !fields.destination.IsMulticast())
    {
        m_islandAddress = fields.destination;
    }
    // Slots the sender skipped settle first, so aggregates leave in chunk order; then this
    // chunk, then the frontier moves past it.
    m_table.AdvanceFrontier(header, header.GetChunkIndex());
    Aggregate(packet, fields, header, payloadOffset);
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
    IslandBitmap self;
    self.Set(m_islandIndex);
    switch (m_table.Offer(header,
                          fields,
                          header.GetMembers().Minus(self),
                          packet,
                          payloadOffset,
                          m_slotCount,
                          m_timeout))
    {
    case FpgaSlotTable::OPENED:
        m_slotAllocatedTrace(header);
        break;
    case FpgaSlotTable::OVERFLOW:
        m_overflowTrace(header);
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_OVERFLOW);
        break;
    case FpgaSlotTable::MISMATCH:
    case FpgaSlotTable::OVERLAP: // not for DATA: one contributor is in the slot or not
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
    // Source: the first contributor (so the island sees a peer's address and port, as it
    // would for a DATA packet); destination: the island.
    const Ipv4Address destination =
        m_islandAddress == Ipv4Address::GetAny() ? slot.fields.destination : m_islandAddress;
    GradientHeader out;
    Ptr<Packet> packet = m_output.MakeAggregate(slot,
                                                slot.settled ? GradientHeader::FLAG_SETTLED : 0,
                                                destination,
                                                GetGradientPort(),
                                                out);

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
