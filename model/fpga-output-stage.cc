/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-output-stage.h"

#include "gradient-payload.h"
#include "update-format.h"
#include "wan-wire.h"

#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FpgaOutputStage");

FpgaOutputStage::FpgaOutputStage()
    : m_protocol(0),
      m_backlog(1),
      m_portSending(false),
      m_maxHeld(0),
      m_nextIdentification(0)
{
    NS_LOG_FUNCTION(this);
}

FpgaOutputStage::~FpgaOutputStage()
{
    NS_LOG_FUNCTION(this);
    Clear();
}

void
FpgaOutputStage::Configure(Ptr<NetDevice> port,
                           const Address& to,
                           uint16_t protocol,
                           uint32_t backlog)
{
    NS_LOG_FUNCTION(this << port << to << protocol << backlog);
    NS_ABORT_MSG_IF(backlog == 0, "FpgaOutputStage: the port must be allowed one packet");
    m_port = port;
    m_to = to;
    m_protocol = protocol;
    m_backlog = backlog;
    m_portQueue = LinkPort(port);
    // Both point-to-point devices (the module's and ns-3's) have these trace sources; a port
    // without them never looks busy, so nothing waits for it.
    port->TraceConnectWithoutContext("PhyTxBegin",
                                     MakeCallback(&FpgaOutputStage::PortTxBegin, this));
    port->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&FpgaOutputStage::PortTxEnd, this));
}

Ptr<Packet>
FpgaOutputStage::MakeAggregate(const FpgaSlotTable::Slot& slot,
                               uint16_t flags,
                               Ipv4Address destination,
                               uint16_t port,
                               GradientHeader& out)
{
    NS_LOG_FUNCTION(this << flags << destination << port);
    const bool real = slot.header.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD);
    out = slot.header;
    out.SetType(GradientHeader::AGGREGATE);
    out.SetContributors(slot.contributors);
    out.SetFlags((real ? GradientHeader::FLAG_REAL_PAYLOAD : 0) | flags);
    // A sum of narrow values needs wider elements on the way down (of what its pieces sum).
    out.SetEncoding(UpdateFormat::SumEncoding(UpdateFormat::NarrowestSource(slot.sources),
                                              slot.contributors.Count()));

    Ptr<Packet> packet;
    if (real)
    {
        const uint32_t bytes = out.GetPayloadSize();
        m_scratch.assign(bytes, 0);
        for (size_t i = 0; i < slot.sum.size(); ++i)
        {
            GradientPayload::WriteElement(out.GetEncoding(),
                                          m_scratch.data(),
                                          static_cast<uint32_t>(i),
                                          static_cast<int32_t>(slot.sum[i]));
        }
        packet = Create<Packet>(m_scratch.data(), bytes);
    }
    else
    {
        packet = Create<Packet>(out.GetPayloadSize());
    }
    packet->AddHeader(out);

    const bool checksums = Node::ChecksumEnabled();
    UdpHeader udp;
    udp.SetSourcePort(slot.fields.sourcePort);
    udp.SetDestinationPort(port);
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
    return packet;
}

uint32_t
FpgaOutputStage::GetPortBacklog() const
{
    NS_LOG_FUNCTION(this);
    return m_portQueue.GetQueuedPackets() + (m_portSending ? 1 : 0);
}

void
FpgaOutputStage::PortTxBegin(Ptr<const Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
    m_portSending = true;
}

void
FpgaOutputStage::PortTxEnd(Ptr<const Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
    m_portSending = false;
    if (!m_held.empty() && m_drain.IsExpired())
    {
        // Not now: the port is still inside its transmit-complete step, about to start its
        // next queued frame, which must go before anything given to it now.
        m_drain = Simulator::ScheduleNow(&FpgaOutputStage::Drain, this);
    }
}

void
FpgaOutputStage::SendAggregate(Ptr<Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
    m_held.push_back(packet);
    m_maxHeld = std::max(m_maxHeld, static_cast<uint32_t>(m_held.size()));
    if (m_drain.IsExpired())
    {
        Drain();
    }
}

void
FpgaOutputStage::Drain()
{
    NS_LOG_FUNCTION(this);
    while (!m_held.empty() && GetPortBacklog() < m_backlog)
    {
        Ptr<Packet> packet = m_held.front();
        m_held.pop_front();
        m_port->Send(packet, m_to, m_protocol);
    }
    if (!m_held.empty())
    {
        // Room again when the port's frame on the wire has left (PortTxEnd).
        NS_LOG_LOGIC(m_held.size() << " aggregates wait for the output port");
    }
}

uint32_t
FpgaOutputStage::GetHeld() const
{
    NS_LOG_FUNCTION(this);
    return static_cast<uint32_t>(m_held.size());
}

uint32_t
FpgaOutputStage::GetMaxHeld() const
{
    NS_LOG_FUNCTION(this);
    return m_maxHeld;
}

void
FpgaOutputStage::Clear()
{
    NS_LOG_FUNCTION(this);
    m_drain.Cancel();
    m_held.clear();
    if (m_port)
    {
        m_port->TraceDisconnectWithoutContext("PhyTxBegin",
                                              MakeCallback(&FpgaOutputStage::PortTxBegin, this));
        m_port->TraceDisconnectWithoutContext("PhyTxEnd",
                                              MakeCallback(&FpgaOutputStage::PortTxEnd, this));
    }
    m_portSending = false;
    m_portQueue = LinkPort();
    m_port = nullptr;
}

} // namespace ns3
