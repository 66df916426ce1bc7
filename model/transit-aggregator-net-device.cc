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
    auto root = m_roots.find(address.Get());
    return root == m_roots.end() ? IslandBitmap() : root->second.below;
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
    switch (Offer(packet, fields, header, expected, payloadOffset))
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
    EmitAggregate(index,
                  complete,
                  GradientHeader::FLAG_REDUCE,
                  slot.fields.destination,
                  m_routerPort,
                  m_routerBroadcast);
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

} // namespace ns3
