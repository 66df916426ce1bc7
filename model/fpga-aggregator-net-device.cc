/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-aggregator-net-device.h"

#include "gradient-payload.h"
#include "update-format.h"
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
    case PASS_NOT_SUMMABLE:
        return "NotSummable";
    default:
        return "Unknown";
    }
}

TypeId
FpgaAggregatorNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FpgaAggregatorNetDevice")
            .SetParent<FpgaAggregatorBase>()
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
            .AddAttribute("EarlyFlush",
                          "Emit a slot as a partial aggregate as soon as every missing sender "
                          "has gone past its chunk (a later first-pass chunk or its END "
                          "arrived), instead of waiting for Timeout. Relies on each sender's "
                          "first pass arriving in chunk order, as on one path.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FpgaAggregatorNetDevice::SetEarlyFlush,
                                              &FpgaAggregatorNetDevice::GetEarlyFlush),
                          MakeBooleanChecker())
            .AddTraceSource("PassThrough",
                            "A packet passed through untouched, with the reason.",
                            MakeTraceSourceAccessor(&FpgaAggregatorNetDevice::m_passThroughTrace),
                            "ns3::FpgaAggregatorNetDevice::PassThroughTracedCallback");
    return tid;
}

FpgaAggregatorNetDevice::FpgaAggregatorNetDevice()
    : FpgaAggregatorBase(Mac48Address::Allocate(), WanWire::DEFAULT_MTU),
      m_islandIndex(0),
      m_passCount{}
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
    m_islandPort = nullptr;
    FpgaAggregatorBase::DoDispose();
}

void
FpgaAggregatorNetDevice::SetIslandPort(Ptr<NetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    AttachPort(port,
               "island",
               m_islandPort,
               m_islandBroadcast,
               MakeCallback(&FpgaAggregatorNetDevice::ReceiveFromIsland, this));
}

Ptr<NetDevice>
FpgaAggregatorNetDevice::GetIslandPort() const
{
    NS_LOG_FUNCTION(this);
    return m_islandPort;
}

void
FpgaAggregatorNetDevice::SetEarlyFlush(bool earlyFlush)
{
    NS_LOG_FUNCTION(this << earlyFlush);
    m_table.SetEarlyFlush(earlyFlush);
}

bool
FpgaAggregatorNetDevice::GetEarlyFlush() const
{
    NS_LOG_FUNCTION(this);
    return m_table.GetEarlyFlush();
}

// ---------------------------------------------------------------------------------------------
// Receive paths

bool
FpgaAggregatorNetDevice::ReceiveFromIsland(Ptr<NetDevice> device,
                                           Ptr<const Packet> packet,
                                           uint16_t protocol,
                                           const Address& source)
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
    return true;
}

bool
FpgaAggregatorNetDevice::ReceiveFromRouter(Ptr<NetDevice> device,
                                           Ptr<const Packet> packet,
                                           uint16_t protocol,
                                           const Address& source)
{
    NS_LOG_FUNCTION(this << packet << protocol);
    if (m_islandPort == nullptr)
    {
        return true;
    }
    if (protocol != WanWire::IPV4_ETHERTYPE || !m_input.IsGradientTraffic(packet))
    {
        PassThrough(m_islandPort, packet, protocol, PASS_NOT_GRADIENT);
        return true;
    }
    m_input.Receive(packet);
    return true;
}

void
FpgaAggregatorNetDevice::Process(Ptr<const Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
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
    // The integer encodings add up; bf16 and top-k do not.
    if (!GradientPayload::IsFixedPoint(header.GetEncoding()))
    {
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_NOT_SUMMABLE);
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
    NS_LOG_FUNCTION(this << packet << payloadOffset);
    IslandBitmap self;
    self.Set(m_islandIndex);
    switch (Offer(packet, fields, header, header.GetMembers().Minus(self), payloadOffset))
    {
    case FpgaSlotTable::OVERFLOW:
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_OVERFLOW);
        break;
    case FpgaSlotTable::MISMATCH:
    case FpgaSlotTable::OVERLAP: // not for DATA: one contributor is in the slot or not
        PassThrough(m_islandPort, packet, WanWire::IPV4_ETHERTYPE, PASS_MISMATCH);
        break;
    default: // added or absorbed
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
    EmitAggregate(index,
                  complete,
                  slot.settled ? GradientHeader::FLAG_SETTLED : 0,
                  m_islandAddress == Ipv4Address::GetAny() ? slot.fields.destination
                                                           : m_islandAddress,
                  m_islandPort,
                  m_islandBroadcast);
}

void
FpgaAggregatorNetDevice::PassThrough(Ptr<NetDevice> port,
                                     Ptr<const Packet> packet,
                                     uint16_t protocol,
                                     PassReason reason)
{
    NS_LOG_FUNCTION(this << port << packet << protocol << reason);
    ++m_passCount[reason];
    m_passThroughTrace(packet, reason);
    SendCopy(port, port == m_islandPort ? m_islandBroadcast : m_routerBroadcast, packet, protocol);
}

// ---------------------------------------------------------------------------------------------
// Counters

uint64_t
FpgaAggregatorNetDevice::GetPassThroughCount(PassReason reason) const
{
    NS_LOG_FUNCTION(this << reason);
    NS_ABORT_MSG_IF(reason >= PASS_REASON_COUNT, "bad pass-through reason " << reason);
    return m_passCount[reason];
}

// The NetDevice interface (a bump in the wire, invisible to IP) is WanPortDevice's.

} // namespace ns3
