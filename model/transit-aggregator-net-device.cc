/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "transit-aggregator-net-device.h"

#include "wan-wire.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TransitAggregatorNetDevice");

NS_OBJECT_ENSURE_REGISTERED(TransitAggregatorNetDevice);

namespace
{

constexpr uint16_t DEFAULT_MTU = 9000; //!< informational MTU of the device

} // namespace

const char*
TransitAggregatorNetDevice::PassReasonName(PassReason reason)
{
    switch (reason)
    {
    case PASS_NOT_GRADIENT:
        return "NotGradient";
    case PASS_MALFORMED:
        return "Malformed";
    case PASS_NOT_REDUCE:
        return "NotReduce";
    case PASS_RETRANSMISSION:
        return "Retransmission";
    case PASS_UNKNOWN_ROOT:
        return "UnknownRoot";
    case PASS_COVERED:
        return "Covered";
    case PASS_NOT_BELOW:
        return "NotBelow";
    case PASS_OVERLAP:
        return "Overlap";
    case PASS_MISMATCH:
        return "Mismatch";
    case PASS_OVERFLOW:
        return "Overflow";
    default:
        return "Unknown";
    }
}

TypeId
TransitAggregatorNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TransitAggregatorNetDevice")
            .SetParent<WanPortDevice>()
            .SetGroupName("WanTraining")
            .AddConstructor<TransitAggregatorNetDevice>()
            .AddAttribute("GradientPort",
                          "UDP destination port of gradient traffic.",
                          UintegerValue(GradientHeader::DEFAULT_PORT),
                          MakeUintegerAccessor(&TransitAggregatorNetDevice::SetGradientPort,
                                               &TransitAggregatorNetDevice::GetGradientPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("SlotCount",
                          "Aggregation slots; with none free, a piece passes through.",
                          UintegerValue(8192),
                          MakeUintegerAccessor(&TransitAggregatorNetDevice::m_slotCount),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Timeout",
                          "A slot not complete this long after it opened leaves as a partial "
                          "aggregate carrying its bitmap.",
                          TimeValue(MilliSeconds(50)),
                          MakeTimeAccessor(&TransitAggregatorNetDevice::m_timeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("PipelineLatency",
                          "Delay from the last piece of a slot to the aggregate's departure.",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&TransitAggregatorNetDevice::SetPipelineLatency,
                                           &TransitAggregatorNetDevice::GetPipelineLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ProcessingRate",
                          "Rate of the aggregation engine (FIFO, service time = size / rate). "
                          "0: line rate of the port, no extra delay.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&TransitAggregatorNetDevice::SetProcessingRate,
                                               &TransitAggregatorNetDevice::GetProcessingRate),
                          MakeDataRateChecker())
            .AddAttribute("PortBacklog",
                          "Packets the router port may hold (waiting or on the wire) before "
                          "aggregates wait in slot memory instead. At most that queue's size.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&TransitAggregatorNetDevice::m_portBacklog),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource(
                "SlotAllocated",
                "A piece opened a slot.",
                MakeTraceSourceAccessor(&TransitAggregatorNetDevice::m_slotAllocatedTrace),
                "ns3::TransitAggregatorNetDevice::HeaderTracedCallback")
            .AddTraceSource(
                "AggregateEmitted",
                "An AGGREGATE left towards its root (complete or partial).",
                MakeTraceSourceAccessor(&TransitAggregatorNetDevice::m_aggregateEmittedTrace),
                "ns3::TransitAggregatorNetDevice::AggregateTracedCallback")
            .AddTraceSource(
                "PassThrough",
                "A packet went back to the router untouched, with the reason.",
                MakeTraceSourceAccessor(&TransitAggregatorNetDevice::m_passThroughTrace),
                "ns3::TransitAggregatorNetDevice::PassThroughTracedCallback")
            .AddTraceSource("Overflow",
                            "A piece found no free slot (it passes through).",
                            MakeTraceSourceAccessor(&TransitAggregatorNetDevice::m_overflowTrace),
                            "ns3::TransitAggregatorNetDevice::HeaderTracedCallback")
            .AddTraceSource("Duplicate",
                            "A piece whose contributors were all in its slot was absorbed.",
                            MakeTraceSourceAccessor(&TransitAggregatorNetDevice::m_duplicateTrace),
                            "ns3::TransitAggregatorNetDevice::DuplicateTracedCallback");
    return tid;
}

TransitAggregatorNetDevice::TransitAggregatorNetDevice()
    : WanPortDevice(Mac48Address::Allocate(), DEFAULT_MTU),
      m_slotCount(0),
      m_portBacklog(1),
      m_passCount{},
      m_complete(0),
      m_partial(0)
{
    NS_LOG_FUNCTION(this);
    // Pieces come up from several directions, not one sender's chunks in order: only the
    // timeout flushes an incomplete slot.
    m_table.SetEarlyFlush(false);
    m_table.SetEmitCallback(MakeCallback(&TransitAggregatorNetDevice::Emit, this));
    m_input.SetServeCallback(MakeCallback(&TransitAggregatorNetDevice::Process, this));
}

TransitAggregatorNetDevice::~TransitAggregatorNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
TransitAggregatorNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_table.Clear();
    m_output.Clear();
    m_input.Clear();
    m_roots.clear();
    m_routerPort = nullptr;
    WanPortDevice::DoDispose();
}

void
TransitAggregatorNetDevice::SetRouterPort(Ptr<NetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(port == nullptr || port->GetNode() == nullptr,
                    "TransitAggregatorNetDevice: the router port must be installed on a node");
    NS_ABORT_MSG_IF(m_routerPort != nullptr, "TransitAggregatorNetDevice: router port set twice");
    m_routerPort = port;
    m_routerBroadcast = port->GetBroadcast();
    port->GetNode()->RegisterProtocolHandler(
        MakeCallback(&TransitAggregatorNetDevice::ReceiveFromRouter, this),
        0,
        port,
        false);
}

Ptr<NetDevice>
TransitAggregatorNetDevice::GetRouterPort() const
{
    return m_routerPort;
}

void
TransitAggregatorNetDevice::AddRoot(Ipv4Address address, uint32_t island, const IslandBitmap& below)
{
    NS_LOG_FUNCTION(this << address << island << below);
    m_roots[address.Get()] = Root{island, below};
}

IslandBitmap
TransitAggregatorNetDevice::GetBelow(Ipv4Address address) const
{
    auto root = m_roots.find(address.Get());
    return root == m_roots.end() ? IslandBitmap() : root->second.below;
}

void
TransitAggregatorNetDevice::SetPipelineLatency(Time latency)
{
    m_table.SetPipelineLatency(latency);
}

Time
TransitAggregatorNetDevice::GetPipelineLatency() const
{
    return m_table.GetPipelineLatency();
}

void
TransitAggregatorNetDevice::SetProcessingRate(DataRate rate)
{
    m_input.SetProcessingRate(rate);
}

DataRate
TransitAggregatorNetDevice::GetProcessingRate() const
{
    return m_input.GetProcessingRate();
}

void
TransitAggregatorNetDevice::SetGradientPort(uint16_t port)
{
    m_input.SetGradientPort(port);
}

uint16_t
TransitAggregatorNetDevice::GetGradientPort() const
{
    return m_input.GetGradientPort();
}

// ---------------------------------------------------------------------------------------------
// Receive path

void
TransitAggregatorNetDevice::ReceiveFromRouter(Ptr<NetDevice> device,
                                              Ptr<const Packet> packet,
                                              uint16_t protocol,
                                              const Address& source,
                                              const Address& destination,
                                              NetDevice::PacketType packetType)
{
    NS_LOG_FUNCTION(this << packet << protocol);
    // The router diverts reduction-tree pieces only; anything else goes back as it came.
    if (protocol != WanWire::IPV4_ETHERTYPE || !m_input.IsGradientTraffic(packet))
    {
        PassThrough(packet, protocol, PASS_NOT_GRADIENT);
        return;
    }
    m_input.Receive(packet);
}

void
TransitAggregatorNetDevice::Process(Ptr<const Packet> packet)
{
    GradientHeader& header = m_parsed;
    FpgaSlotTable::InputFields fields;
    uint32_t payloadOffset;
    if (!m_input.Parse(packet, header, fields, payloadOffset))
    {
        PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_MALFORMED);
        return;
    }
    if (!header.HasFlag(GradientHeader::FLAG_REDUCE))
    {
        PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_NOT_REDUCE);
        return;
    }
    if (header.HasFlag(GradientHeader::FLAG_RETRANSMISSION))
    {
        // The root asked for it: it completes the root's sum, never a slot here.
        PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_RETRANSMISSION);
        return;
    }
    auto root = m_roots.find(fields.destination.Get());
    if (root == m_roots.end())
    {
        PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_UNKNOWN_ROOT);
        return;
    }
    IslandBitmap self;
    self.Set(root->second.island);
    const IslandBitmap expected =
        header.GetMembers().Minus(self).Minus(header.GetMembers().Minus(root->second.below));
    const IslandBitmap& pieces = header.GetContributors();
    if (expected.IsSubsetOf(pieces))
    {
        PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_COVERED);
        return;
    }
    if (!pieces.IsSubsetOf(expected))
    {
        PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_NOT_BELOW);
        return;
    }
    Aggregate(packet, fields, header, expected, payloadOffset);
}

void
TransitAggregatorNetDevice::Aggregate(Ptr<const Packet> packet,
                                      const FpgaSlotTable::InputFields& fields,
                                      const GradientHeader& header,
                                      const IslandBitmap& expected,
                                      uint32_t payloadOffset)
{
    switch (m_table.Offer(header, fields, expected, packet, payloadOffset, m_slotCount, m_timeout))
    {
    case FpgaSlotTable::OPENED:
        m_slotAllocatedTrace(header);
        break;
    case FpgaSlotTable::ADDED:
        break;
    case FpgaSlotTable::DUPLICATE:
        m_duplicateTrace(packet, header);
        break;
    case FpgaSlotTable::OVERLAP:
        PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_OVERLAP);
        break;
    case FpgaSlotTable::MISMATCH:
        PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_MISMATCH);
        break;
    case FpgaSlotTable::OVERFLOW:
        m_overflowTrace(header);
        PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_OVERFLOW);
        break;
    }
}

void
TransitAggregatorNetDevice::Emit(uint32_t index, bool complete)
{
    const FpgaSlotTable::Slot& slot = m_table.GetSlot(index);
    NS_LOG_FUNCTION(this << index << complete << slot.contributors.Count());
    NS_LOG_DEBUG("round " << slot.key.round << " chunk " << slot.key.chunkIndex
                          << (complete ? " complete" : " partial") << " aggregate of "
                          << slot.contributors << " of " << slot.expected << " to "
                          << slot.fields.destination);
    // Every piece of a slot goes to the same root: the first one's destination.
    GradientHeader out;
    Ptr<Packet> packet = m_output.MakeAggregate(slot,
                                                GradientHeader::FLAG_REDUCE,
                                                slot.fields.destination,
                                                GetGradientPort(),
                                                out);
    m_table.Free(index);
    ++(complete ? m_complete : m_partial);
    m_aggregateEmittedTrace(packet, out, complete);
    if (!m_outputConfigured)
    {
        // Now, not when the port is attached: its DataRate may be set after that.
        m_output.Configure(m_routerPort, m_routerBroadcast, WanWire::IPV4_ETHERTYPE, m_portBacklog);
        m_outputConfigured = true;
    }
    m_output.SendAggregate(packet);
}

void
TransitAggregatorNetDevice::PassThrough(Ptr<const Packet> packet,
                                        uint16_t protocol,
                                        PassReason reason)
{
    NS_LOG_LOGIC("pass " << PassReasonName(reason));
    ++m_passCount[reason];
    m_passThroughTrace(packet, reason);
    Ptr<Packet> copy = packet->Copy();
    m_output.NoteSent(copy);
    m_routerPort->Send(copy, m_routerBroadcast, protocol);
}

// ---------------------------------------------------------------------------------------------
// Counters

uint64_t
TransitAggregatorNetDevice::GetPassThroughCount(PassReason reason) const
{
    NS_ABORT_MSG_IF(reason >= PASS_REASON_COUNT, "bad pass-through reason " << reason);
    return m_passCount[reason];
}

uint64_t
TransitAggregatorNetDevice::GetAggregatedCount() const
{
    return m_table.GetAggregatedCount();
}

uint64_t
TransitAggregatorNetDevice::GetDuplicateCount() const
{
    return m_table.GetDuplicateCount();
}

uint64_t
TransitAggregatorNetDevice::GetCompleteCount() const
{
    return m_complete;
}

uint64_t
TransitAggregatorNetDevice::GetPartialCount() const
{
    return m_partial;
}

uint64_t
TransitAggregatorNetDevice::GetWrapCount() const
{
    return m_table.GetWrapCount();
}

uint32_t
TransitAggregatorNetDevice::GetSlotsInUse() const
{
    return m_table.GetSlotsInUse();
}

} // namespace ns3
