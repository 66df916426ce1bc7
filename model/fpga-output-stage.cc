/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-output-stage.h"

#include "wan-wire.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FpgaOutputStage");

FpgaOutputStage::FpgaOutputStage()
    : m_protocol(0),
      m_backlog(1),
      m_framing(WanWire::PPP_HEADER_BYTES),
      m_maxHeld(0)
{
}

FpgaOutputStage::~FpgaOutputStage()
{
    Clear();
}

void
FpgaOutputStage::Configure(Ptr<NetDevice> port,
                           const Address& to,
                           uint16_t protocol,
                           uint32_t backlog)
{
    NS_ABORT_MSG_IF(backlog == 0, "FpgaOutputStage: the port must be allowed one packet");
    m_port = port;
    m_to = to;
    m_protocol = protocol;
    m_backlog = backlog;
    // Both point-to-point devices (the module's and ns-3's) have a DataRate attribute; a port
    // without one is never waited for.
    DataRateValue rate;
    m_rate = port->GetAttributeFailSafe("DataRate", rate) ? rate.Get() : DataRate(0);
    // The module's device counts its FramingBytes attribute; ns-3's adds its PPP header.
    UintegerValue framing;
    m_framing = port->GetAttributeFailSafe("FramingBytes", framing)
                    ? static_cast<uint32_t>(framing.Get())
                    : WanWire::PPP_HEADER_BYTES;
}

void
FpgaOutputStage::Expire()
{
    const Time now = Simulator::Now();
    while (!m_leaves.empty() && m_leaves.front() <= now)
    {
        m_leaves.pop_front();
    }
}

void
FpgaOutputStage::Account(Ptr<const Packet> packet)
{
    if (m_rate.GetBitRate() == 0)
    {
        return;
    }
    Expire();
    const Time start = m_leaves.empty() ? Simulator::Now() : m_leaves.back();
    m_leaves.push_back(start + m_rate.CalculateBytesTxTime(packet->GetSize() + m_framing));
}

void
FpgaOutputStage::NoteSent(Ptr<const Packet> packet)
{
    Account(packet);
}

void
FpgaOutputStage::SendAggregate(Ptr<Packet> packet)
{
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
    Expire();
    while (!m_held.empty() && (m_rate.GetBitRate() == 0 || m_leaves.size() < m_backlog))
    {
        Ptr<Packet> packet = m_held.front();
        m_held.pop_front();
        Account(packet);
        m_port->Send(packet, m_to, m_protocol);
    }
    if (!m_held.empty())
    {
        // Room again when the oldest packet still in the port has left.
        NS_LOG_LOGIC(m_held.size() << " aggregates wait for the island port");
        m_drain =
            Simulator::Schedule(m_leaves.front() - Simulator::Now(), &FpgaOutputStage::Drain, this);
    }
}

uint32_t
FpgaOutputStage::GetHeld() const
{
    return static_cast<uint32_t>(m_held.size());
}

uint32_t
FpgaOutputStage::GetMaxHeld() const
{
    return m_maxHeld;
}

void
FpgaOutputStage::Clear()
{
    m_drain.Cancel();
    m_held.clear();
    m_leaves.clear();
    m_port = nullptr;
}

} // namespace ns3
