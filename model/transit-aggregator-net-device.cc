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
    case PASS_END:
        return "End";
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
            .SetParent<FpgaAggregatorBase>()
            .SetGroupName("WanTraining")
            .AddConstructor<TransitAggregatorNetDevice>()
            .AddTraceSource(
                "PassThrough",
                "A packet went back to the router untouched, with the reason.",
                MakeTraceSourceAccessor(&TransitAggregatorNetDevice::m_passThroughTrace),
                "ns3::TransitAggregatorNetDevice::PassThroughTracedCallback");
    return tid;
}

TransitAggregatorNetDevice::TransitAggregatorNetDevice()
    : FpgaAggregatorBase(Mac48Address::Allocate(), WanWire::DEFAULT_MTU),
      m_passCount{}
{
    NS_LOG_FUNCTION(this);
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
    m_roots.clear();
    FpgaAggregatorBase::DoDispose();
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
    NS_LOG_FUNCTION(this << address);
    auto root = m_roots.find(address.Get());
    return root == m_roots.end() ? IslandBitmap() : root->second.below;
}

// ---------------------------------------------------------------------------------------------
// Receive path

bool
TransitAggregatorNetDevice::ReceiveFromRouter(Ptr<NetDevice> device,
                                              Ptr<const Packet> packet,
                                              uint16_t protocol,
                                              const Address& source)
{
    NS_LOG_FUNCTION(this << packet << protocol);
    // The router diverts reduction-tree pieces only; anything else goes back as it came.
    if (protocol != WanWire::IPV4_ETHERTYPE || !m_input.IsGradientTraffic(packet))
    {
        PassThrough(packet, protocol, PASS_NOT_GRADIENT);
        return true;
    }
    m_input.Receive(packet);
    return true;
}

void
TransitAggregatorNetDevice::Process(Ptr<const Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
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
    if (header.GetType() == GradientHeader::END)
    {
        // A member's END, behind its pieces: a slot waiting only for members gone past its
        // chunk leaves now (their pieces were lost below).
        if (root->second.below.Test(header.GetSender()))
        {
            m_table.AdvanceFrontier(header, header.GetChunkCount());
        }
        // It leaves behind the member's pieces still in slots here, not before them.
        if (m_endGate.Admit(header, packet))
        {
            PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_END);
        }
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
    // Every member's pieces come up its one path in chunk order, merged below or not: the
    // slots its contributors skipped settle first (their pieces were lost on the way), so the
    // aggregates leave in chunk order; then this chunk; then the frontiers move past it.
    const uint32_t chunk = header.GetChunkIndex();
    m_table.AdvanceFrontiers(header, pieces, chunk);
    Aggregate(packet, fields, header, expected, payloadOffset);
    m_table.AdvanceFrontiers(header, pieces, chunk + 1);
}

void
TransitAggregatorNetDevice::Aggregate(Ptr<const Packet> packet,
                                      const FpgaSlotTable::InputFields& fields,
                                      const GradientHeader& header,
                                      const IslandBitmap& expected,
                                      uint32_t payloadOffset)
{
    NS_LOG_FUNCTION(this << packet << expected << payloadOffset);
    // Held before the offer: a slot it settles may be emitted within it (no pipeline latency).
    m_endGate.Hold(header);
    const FpgaSlotTable::AddResult result = Offer(packet, fields, header, expected, payloadOffset);
    if (result != FpgaSlotTable::OPENED && result != FpgaSlotTable::ADDED)
    {
        PassEnds(m_endGate.Release(header, header.GetContributors()));
    }
    switch (result)
    {
    case FpgaSlotTable::OVERLAP:
        PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_OVERLAP);
        break;
    case FpgaSlotTable::MISMATCH:
        PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_MISMATCH);
        break;
    case FpgaSlotTable::OVERFLOW:
        PassThrough(packet, WanWire::IPV4_ETHERTYPE, PASS_OVERFLOW);
        break;
    default: // added or absorbed
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
    const GradientHeader flow = slot.header;
    const IslandBitmap contributors = slot.contributors;
    EmitAggregate(index,
                  complete,
                  GradientHeader::FLAG_REDUCE,
                  slot.fields.destination,
                  m_routerPort,
                  m_routerBroadcast);
    PassEnds(m_endGate.Release(flow, contributors));
}

void
TransitAggregatorNetDevice::PassEnds(const std::vector<Ptr<const Packet>>& ends)
{
    NS_LOG_FUNCTION(this);
    for (const Ptr<const Packet>& end : ends)
    {
        PassThrough(end, WanWire::IPV4_ETHERTYPE, PASS_END);
    }
}

void
TransitAggregatorNetDevice::PassThrough(Ptr<const Packet> packet,
                                        uint16_t protocol,
                                        PassReason reason)
{
    NS_LOG_FUNCTION(this << packet << protocol << reason);
    NS_LOG_LOGIC("pass " << PassReasonName(reason));
    ++m_passCount[reason];
    m_passThroughTrace(packet, reason);
    SendCopy(m_routerPort, m_routerBroadcast, packet, protocol);
}

// ---------------------------------------------------------------------------------------------
// Counters

uint64_t
TransitAggregatorNetDevice::GetPassThroughCount(PassReason reason) const
{
    NS_LOG_FUNCTION(this << reason);
    NS_ABORT_MSG_IF(reason >= PASS_REASON_COUNT, "bad pass-through reason " << reason);
    return m_passCount[reason];
}

} // namespace ns3
