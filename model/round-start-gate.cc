/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "round-start-gate.h"

#include "gradient-header.h"
#include "gradient-payload.h"
#include "round-exchange.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoundStartGate");

void
RoundStartGate::Setup(const ExchangeSettings& settings,
                      Time limit,
                      Time margin,
                      uint32_t noticeCopies,
                      std::function<bool(uint32_t)> pending,
                      std::function<void(uint32_t)> start)
{
    NS_LOG_FUNCTION(this << settings.island << limit << margin << noticeCopies);
    m_settings = &settings;
    m_limit = limit;
    m_margin = margin;
    m_noticeCopies = noticeCopies;
    m_pending = std::move(pending);
    m_start = std::move(start);
}

void
RoundStartGate::SetNotBefore(const std::vector<Time>& notBefore)
{
    NS_LOG_FUNCTION(this << notBefore.size());
    m_notBefore = notBefore;
}

void
RoundStartGate::Request(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    // Held: until then the island answers as if still computing (nothing sent yet).
    if (m_alignment.IsWaiting(round))
    {
        m_heldEvent.Cancel();
        NS_LOG_INFO("island " << m_settings->island << " round " << round
                              << ": first pass held for a late member's START");
        if (m_limitEvent.IsExpired())
        {
            m_limitEvent = Simulator::Schedule(m_limit, &RoundStartGate::StopWaiting, this, round);
        }
        return;
    }
    m_limitEvent.Cancel();
    Time notBefore = m_alignment.GetNotBefore(round);
    if (round < m_notBefore.size())
    {
        notBefore = std::max(notBefore, m_notBefore[round]);
    }
    if (notBefore > Simulator::Now())
    {
        m_heldEvent.Cancel();
        m_heldEvent = Simulator::Schedule(notBefore - Simulator::Now(),
                                          &RoundStartGate::StartHeld,
                                          this,
                                          round);
        return;
    }
    m_start(round);
}

void
RoundStartGate::Cancel()
{
    NS_LOG_FUNCTION(this);
    m_heldEvent.Cancel();
    m_limitEvent.Cancel();
}

void
RoundStartGate::Resume(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    if (!m_limitEvent.IsExpired() || !m_heldEvent.IsExpired())
    {
        Request(round);
    }
}

void
RoundStartGate::StartHeld(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    if (m_pending(round))
    {
        m_start(round);
    }
}

void
RoundStartGate::StopWaiting(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    NS_LOG_WARN("island " << m_settings->island << " round " << round << ": no START within "
                          << m_limit.As(Time::S) << "; the round starts without");
    StartHeld(round);
}

void
RoundStartGate::AnnounceLate(uint32_t round, RoundExchange& exchange)
{
    NS_LOG_FUNCTION(this << round);
    if (!m_alignment.Announce(round))
    {
        return;
    }
    NS_LOG_INFO("island " << m_settings->island << " round " << round - 1
                          << " repairs: LATE for round " << round);
    exchange.SendNotice(GradientHeader::LATE, Time(0), m_noticeCopies);
}

void
RoundStartGate::AnnounceStart(uint32_t round,
                              RoundExchange& exchange,
                              const std::vector<uint32_t>& members,
                              Time launchDelay)
{
    NS_LOG_FUNCTION(this << round << launchDelay);
    if (!m_alignment.HasAnnounced(round))
    {
        return;
    }
    // Late enough for the START to reach the farthest member before it.
    Time farthest;
    for (uint32_t member : members)
    {
        farthest = std::max(farthest, m_settings->rtt.at(member) / 2);
    }
    const Time at = Simulator::Now() + std::max(launchDelay, farthest + m_margin);
    NS_LOG_INFO("island " << m_settings->island << " START of round " << round << " at "
                          << at.As(Time::S));
    m_alignment.NoteStart(round, m_settings->island, at);
    exchange.SendNotice(GradientHeader::START, at, m_noticeCopies);
}

void
RoundStartGate::NoteNotice(const GradientHeader& header, Ptr<const Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
    if (header.GetType() == GradientHeader::START)
    {
        m_alignment.NoteStart(header.GetRound(),
                              header.GetSender(),
                              GradientPayload::ReadStartTime(packet));
    }
    else
    {
        m_alignment.NoteLate(header.GetRound(), header.GetSender());
    }
}

bool
RoundStartGate::NoteContributors(const GradientHeader& header)
{
    NS_LOG_FUNCTION(this);
    const uint32_t round = header.GetRound();
    if (!m_alignment.IsWaiting(round))
    {
        return false;
    }
    header.GetContributors().ForEach(
        [this, round](uint32_t member) { m_alignment.NoteContribution(round, member); });
    return true;
}

void
RoundStartGate::ForgetBefore(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    m_alignment.ForgetBefore(round);
}

} // namespace ns3
