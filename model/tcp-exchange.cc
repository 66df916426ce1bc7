/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-exchange.h"

#include "round-config.h"
#include "tcp-transport.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpExchange");

TcpExchange::TcpExchange(ExchangeContext& context,
                         uint32_t round,
                         const TrainingRoundConfig& config)
    : RoundExchange(context, round, config)
{
    NS_LOG_FUNCTION(this << round);
    NS_ABORT_MSG_IF(context.tcp == nullptr,
                    "TcpExchange: island " << context.settings.island << " has no tcp transport");
    m_lastData.assign(m_k, Time(0));
}

TcpExchange::~TcpExchange()
{
    NS_LOG_FUNCTION(this);
    m_check.Cancel();
    RemoveSources();
}

void
TcpExchange::ReceiveControl(const GradientHeader& header)
{
    NS_LOG_FUNCTION(this);
    NS_LOG_LOGIC("round " << m_round << ": control packet of type " << header.GetType()
                          << " over TCP dropped");
    ++m_context.counters.dropped;
}

void
TcpExchange::Shutdown()
{
    NS_LOG_FUNCTION(this);
    m_check.Cancel();
    RemoveSources();
}

void
TcpExchange::RemoveSources()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t s = 0; s < m_k; ++s)
    {
        if (s != m_position)
        {
            m_context.tcp->RemoveSources(IslandAt(s), this);
        }
    }
}

void
TcpExchange::OnStart()
{
    NS_LOG_FUNCTION(this);
    std::fill(m_lastData.begin(), m_lastData.end(), GetStartTime());
    if (m_k > 1)
    {
        m_check = Simulator::Schedule(m_context.tcp->GetHeartbeatInterval(),
                                      &TcpExchange::CheckPeers,
                                      this);
    }
}

void
TcpExchange::OnFinished()
{
    NS_LOG_FUNCTION(this);
    m_check.Cancel();
}

void
TcpExchange::NoteData(uint32_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    m_lastData[slot] = Simulator::Now();
}

void
TcpExchange::AddSource(uint32_t slot, std::function<Ptr<Packet>(bool&)> source)
{
    NS_LOG_FUNCTION(this << slot);
    m_context.tcp->AddSource(IslandAt(slot), this, std::move(source));
}

void
TcpExchange::Wake(uint32_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    m_context.tcp->Wake(IslandAt(slot));
}

void
TcpExchange::NoteWritten(Ptr<const Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
    m_context.on.written(m_round, packet->GetSize());
}

void
TcpExchange::CheckPeers()
{
    NS_LOG_FUNCTION(this);
    const TcpTransport& tcp = *m_context.tcp;
    const Time now = Simulator::Now();
    for (uint32_t s = 0; s < m_k && !m_finished; ++s)
    {
        if (s == m_position || m_lost[s])
        {
            continue;
        }
        const bool awaits = Awaits(s);
        if (!awaits && !Feeds(s))
        {
            continue;
        }
        const uint32_t peer = IslandAt(s);
        if (tcp.IsClosed(peer))
        {
            DeclareLost(s, "its connection ended");
        }
        else if (tcp.GetPeerRound(peer) > m_round)
        {
            DeclareLost(s, "it has gone past this round");
        }
        else if (now - std::max(tcp.GetLastHeard(peer), GetStartTime()) > tcp.GetPeerTimeout())
        {
            DeclareLost(s, "silent for PeerTimeout");
        }
        else if (awaits && now - m_lastData[s] > m_context.settings.peerPatience)
        {
            DeclareLost(s, "no data for PeerPatience");
        }
    }
    if (!m_finished)
    {
        m_check = Simulator::Schedule(tcp.GetHeartbeatInterval(), &TcpExchange::CheckPeers, this);
    }
}

void
TcpExchange::DeclareLost(uint32_t slot, const char* why)
{
    NS_LOG_FUNCTION(this << slot << why);
    const uint32_t peer = IslandAt(slot);
    NS_LOG_INFO("island " << m_context.settings.island << " round " << m_round << ": peer " << peer
                          << " lost: " << why);
    m_lost[slot] = true;
    m_context.tcp->RemoveSources(peer, this);
    m_context.on.peerLost(m_round, peer);
    OnPeerLost(slot);
    CheckComplete();
}

} // namespace ns3
