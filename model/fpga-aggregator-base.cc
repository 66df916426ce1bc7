/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-aggregator-base.h"

#include "wan-wire.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FpgaAggregatorBase");

NS_OBJECT_ENSURE_REGISTERED(FpgaAggregatorBase);

TypeId
FpgaAggregatorBase::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FpgaAggregatorBase")
            .SetParent<WanPortDevice>()
            .SetGroupName("WanTraining")
            .AddAttribute("SlotCount",
                          "Aggregation slots (SwitchML uses 8192); with none free, a piece "
                          "passes through.",
                          UintegerValue(8192),
                          MakeUintegerAccessor(&FpgaAggregatorBase::m_slotCount),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Timeout",
                          "A slot not complete this long after it opened is flushed as a "
                          "partial aggregate carrying its bitmap.",
                          TimeValue(MilliSeconds(50)),
                          MakeTimeAccessor(&FpgaAggregatorBase::m_timeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("PipelineLatency",
                          "Delay from the last contribution to the aggregate's departure.",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&FpgaAggregatorBase::SetPipelineLatency,
                                           &FpgaAggregatorBase::GetPipelineLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PortBacklog",
                          "Packets the output port may hold (waiting or on the wire) before "
                          "aggregates wait in slot memory instead, leaving as the port drains: "
                          "a burst of settled or timed-out slots never overflows the port's "
                          "transmit queue. At most that queue's size.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&FpgaAggregatorBase::m_portBacklog),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ProcessingRate",
                          "Rate of the aggregation engine (FIFO, service time = size / rate) "
                          "for gradient packets. 0: line rate of the ports, no extra delay.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&FpgaAggregatorBase::SetProcessingRate,
                                               &FpgaAggregatorBase::GetProcessingRate),
                          MakeDataRateChecker())
            .AddTraceSource("SlotAllocated",
                            "A piece opened a slot.",
                            MakeTraceSourceAccessor(&FpgaAggregatorBase::m_slotAllocatedTrace),
                            "ns3::FpgaAggregatorBase::HeaderTracedCallback")
            .AddTraceSource("AggregateEmitted",
                            "An AGGREGATE packet left (complete or partial).",
                            MakeTraceSourceAccessor(&FpgaAggregatorBase::m_aggregateEmittedTrace),
                            "ns3::FpgaAggregatorBase::AggregateTracedCallback")
            .AddTraceSource("Overflow",
                            "A piece found no free slot (it passes through).",
                            MakeTraceSourceAccessor(&FpgaAggregatorBase::m_overflowTrace),
                            "ns3::FpgaAggregatorBase::HeaderTracedCallback")
            .AddTraceSource("Duplicate",
                            "A piece whose contributors were all in its slot was absorbed.",
                            MakeTraceSourceAccessor(&FpgaAggregatorBase::m_duplicateTrace),
                            "ns3::FpgaAggregatorBase::DuplicateTracedCallback");
    return tid;
}

FpgaAggregatorBase::FpgaAggregatorBase(Mac48Address address, uint16_t mtu)
    : WanPortDevice(address, mtu),
      m_slotCount(0),
      m_portBacklog(1),
      m_complete(0),
      m_partial(0)
{
    NS_LOG_FUNCTION(this << address << mtu);
}

FpgaAggregatorBase::~FpgaAggregatorBase() = default;

void
FpgaAggregatorBase::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_table.Clear();
    m_output.Clear();
    m_input.Clear();
    m_routerPort = nullptr;
    WanPortDevice::DoDispose();
}

void
FpgaAggregatorBase::SetRouterPort(Ptr<NetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    AttachPort(port,
               "router",
               m_routerPort,
               m_routerBroadcast,
               MakeCallback(&FpgaAggregatorBase::ReceiveFromRouter, this));
}

void
FpgaAggregatorBase::AttachPort(Ptr<NetDevice> port,
                               const char* role,
                               Ptr<NetDevice>& slot,
                               Address& broadcast,
                               NetDevice::ReceiveCallback handler)
{
    NS_LOG_FUNCTION(this << port << role);
    const std::string type = GetInstanceTypeId().GetName();
    NS_ABORT_MSG_IF(port == nullptr || port->GetNode() == nullptr,
                    type << ": the " << role << " port must be installed on a node");
    NS_ABORT_MSG_IF(slot != nullptr, type << ": " << role << " port set twice");
    slot = port;
    broadcast = port->GetBroadcast();
    // The port hands its frames straight to the FPGA: the FPGA's node runs no protocol stack,
    // so the node's protocol dispatch (Node::ReceiveFromDevice) would only pass them on.
    port->SetReceiveCallback(handler);
}

Ptr<NetDevice>
FpgaAggregatorBase::GetRouterPort() const
{
    NS_LOG_FUNCTION(this);
    return m_routerPort;
}

void
FpgaAggregatorBase::SetPipelineLatency(Time latency)
{
    NS_LOG_FUNCTION(this << latency);
    m_table.SetPipelineLatency(latency);
}

Time
FpgaAggregatorBase::GetPipelineLatency() const
{
    NS_LOG_FUNCTION(this);
    return m_table.GetPipelineLatency();
}

void
FpgaAggregatorBase::SetProcessingRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    m_input.SetProcessingRate(rate);
}

DataRate
FpgaAggregatorBase::GetProcessingRate() const
{
    NS_LOG_FUNCTION(this);
    return m_input.GetProcessingRate();
}

void
FpgaAggregatorBase::SendCopy(Ptr<NetDevice> port,
                             const Address& to,
                             Ptr<const Packet> packet,
                             uint16_t protocol)
{
    NS_LOG_FUNCTION(this << port << packet << protocol);
    port->Send(packet->Copy(), to, protocol);
}

FpgaSlotTable::AddResult
FpgaAggregatorBase::Offer(Ptr<const Packet> packet,
                          const FpgaSlotTable::InputFields& fields,
                          const GradientHeader& header,
                          const IslandBitmap& expected,
                          uint32_t payloadOffset)
{
    NS_LOG_FUNCTION(this << packet << expected << payloadOffset);
    const FpgaSlotTable::AddResult result =
        m_table.Offer(header, fields, expected, packet, payloadOffset, m_slotCount, m_timeout);
    NS_LOG_LOGIC("packet " << packet->GetUid() << ": round " << header.GetRound() << " chunk "
                           << header.GetChunkIndex() << " from " << header.GetContributors()
                           << " offered: " << FpgaSlotTable::AddResultName(result));
    switch (result)
    {
    case FpgaSlotTable::OPENED:
        m_slotAllocatedTrace(header);
        break;
    case FpgaSlotTable::DUPLICATE:
        m_duplicateTrace(packet, header);
        break;
    case FpgaSlotTable::OVERFLOW:
        m_overflowTrace(header);
        break;
    default:
        break;
    }
    return result;
}

void
FpgaAggregatorBase::EmitAggregate(uint32_t index,
                                  bool complete,
                                  uint16_t flags,
                                  Ipv4Address destination,
                                  Ptr<NetDevice> port,
                                  const Address& to)
{
    NS_LOG_FUNCTION(this << index << complete << flags << destination << port << to);
    GradientHeader out;
    Ptr<Packet> packet = m_output.MakeAggregate(m_table.GetSlot(index),
                                                flags,
                                                destination,
                                                m_input.GetGradientPort(),
                                                out);
    // Free the slot before sending: the trace sinks and the send see a consistent table.
    // Its deadline, if any, goes stale and the table's timer skips it.
    m_table.Free(index);
    ++(complete ? m_complete : m_partial);
    m_aggregateEmittedTrace(packet, out, complete);
    if (!m_outputConfigured)
    {
        // The port aggregates leave by is the one this first aggregate names.
        m_output.Configure(port, to, WanWire::IPV4_ETHERTYPE, m_portBacklog);
        m_outputConfigured = true;
    }
    m_output.SendAggregate(packet);
}

uint64_t
FpgaAggregatorBase::GetAggregatedCount() const
{
    NS_LOG_FUNCTION(this);
    return m_table.GetAggregatedCount();
}

uint64_t
FpgaAggregatorBase::GetDuplicateCount() const
{
    NS_LOG_FUNCTION(this);
    return m_table.GetDuplicateCount();
}

uint64_t
FpgaAggregatorBase::GetCompleteCount() const
{
    NS_LOG_FUNCTION(this);
    return m_complete;
}

uint64_t
FpgaAggregatorBase::GetPartialCount() const
{
    NS_LOG_FUNCTION(this);
    return m_partial;
}

uint64_t
FpgaAggregatorBase::GetEarlyFlushCount() const
{
    NS_LOG_FUNCTION(this);
    return m_table.GetEarlyFlushCount();
}

uint64_t
FpgaAggregatorBase::GetWrapCount() const
{
    NS_LOG_FUNCTION(this);
    return m_table.GetWrapCount();
}

uint32_t
FpgaAggregatorBase::GetSlotsInUse() const
{
    NS_LOG_FUNCTION(this);
    return m_table.GetSlotsInUse();
}

} // namespace ns3
