/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "round-alignment.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoundAlignment");

bool
RoundAlignment::Announce(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    RoundState& state = m_rounds[round];
    const bool first = !state.announced;
    state.announced = true;
    return first;
}

bool
RoundAlignment::HasAnnounced(uint32_t round) const
{
    NS_LOG_FUNCTION(this << round);
    auto it = m_rounds.find(round);
    return it != m_rounds.end() && it->second.announced;
}

void
RoundAlignment::NoteLate(uint32_t round, uint32_t member)
{
    NS_LOG_FUNCTION(this << round << member);
    RoundState& state = m_rounds[round];
    if (state.started.count(member) == 0)
    {
        state.late.insert(member);
    }
}

void
RoundAlignment::NoteStart(uint32_t round, uint32_t member, Time at)
{
    NS_LOG_FUNCTION(this << round << member << at);
    RoundState& state = m_rounds[round];
    state.late.erase(member);
    state.started.insert(member);
    state.notBefore = std::max(state.notBefore, at);
}

void
RoundAlignment::NoteContribution(uint32_t round, uint32_t member)
{
    NS_LOG_FUNCTION(this << round << member);
    auto it = m_rounds.find(round);
    if (it != m_rounds.end() && it->second.late.erase(member) != 0)
    {
        NS_LOG_LOGIC("round " << round << ": member " << member << " sends, its START is lost");
        it->second.started.insert(member);
    }
}

bool
RoundAlignment::IsWaiting(uint32_t round) const
{
    NS_LOG_FUNCTION(this << round);
    auto it = m_rounds.find(round);
    return it != m_rounds.end() && !it->second.late.empty();
}

Time
RoundAlignment::GetNotBefore(uint32_t round) const
{
    NS_LOG_FUNCTION(this << round);
    auto it = m_rounds.find(round);
    return it == m_rounds.end() ? Time(0) : it->second.notBefore;
}

void
RoundAlignment::ForgetBefore(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    m_rounds.erase(m_rounds.begin(), m_rounds.lower_bound(round));
}

} // namespace ns3
