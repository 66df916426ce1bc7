/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tree-exchange.h"

#include "round-config.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TreeExchange");

TreeExchange::TreeExchange(ExchangeContext& context,
                           uint32_t round,
                           const TrainingRoundConfig& config)
    : StreamExchange(context, round, config),
      m_rootSlot(SlotOf(config.root)),
      m_lostCount(0),
      m_endedCount(0)
{
    NS_LOG_FUNCTION(this << round);
    NS_ABORT_MSG_IF(m_rootSlot == NO_SLOT,
                    "TREE round " << round << ": root " << config.root << " is not a member");
    CheckStreams();
    const uint32_t chunks = m_layout.GetChunkCount();
    if (IsRoot())
    {
        for (uint32_t s = 0; s < m_k; ++s)
        {
            if (s != m_position)
            {
                ExpectFrom(s);
            }
        }
        m_have.assign(chunks, 0);
        m_positionOf.assign(chunks, NO_SLOT);
        m_ended.assign(m_k, false);
        m_ready.reserve(chunks);
    }
    else
    {
        ExpectFrom(m_rootSlot);
    }
}

void
TreeExchange::CheckStreams() const
{
    NS_LOG_FUNCTION(this);
    const uint32_t root = m_config.root;
    if (!IsRoot())
    {
        NS_ABORT_MSG_IF(m_config.streams.size() != 1 ||
                            m_config.streams[0].receivers != std::vector<uint32_t>{root},
                        "TREE round " << m_round << ": island " << m_context.settings.island
                                      << " needs exactly one stream, to its root " << root);
        return;
    }
    std::vector<bool> reached(m_k, false);
    for (const TrainingStreamConfig& stream : m_config.streams)
    {
        for (uint32_t receiver : stream.receivers)
        {
            const uint32_t slot = SlotOf(receiver);
            NS_ABORT_MSG_IF(slot == NO_SLOT || slot == m_position,
                            "TREE round " << m_round << ": the root's stream reaches island "
                                          << receiver << ", not a member below it");
            reached[slot] = true;
        }
    }
    for (uint32_t s = 0; s < m_k; ++s)
    {
        NS_ABORT_MSG_IF(s != m_position && !reached[s],
                        "TREE round " << m_round << ": no stream of the root reaches member "
                                      << IslandAt(s));
    }
}

bool
TreeExchange::IsRoot() const
{
    NS_LOG_FUNCTION(this);
    return m_position == m_rootSlot;
}

Time
TreeExchange::HoldAt(uint32_t island) const
{
    NS_LOG_FUNCTION(this << island);
    return island == m_config.root ? StreamExchange::HoldAt(island) : Time(0);
}

uint16_t
TreeExchange::EndFlags() const
{
    NS_LOG_FUNCTION(this);
    return IsRoot() ? 0 : GradientHeader::FLAG_REDUCE;
}

// ---------------------------------------------------------------------------------------------
// Send side

void
TreeExchange::StartSending()
{
    NS_LOG_FUNCTION(this);
    // The root's streams are the only ones entering a member; the members' all enter the root.
    OpenStreams(IsRoot() ? 1 : m_k - 1);
}

Ptr<Packet>
TreeExchange::BuildChunk(uint32_t chunk, uint16_t flags)
{
    NS_LOG_FUNCTION(this << chunk << flags);
    if (!IsRoot())
    {
        return BuildDataChunk(chunk, flags | GradientHeader::FLAG_REDUCE);
    }
    IslandBitmap contributors;
    for (uint32_t s = 0; s < m_k; ++s)
    {
        if (s == m_position || m_in[s].Has(chunk))
        {
            contributors.Set(IslandAt(s));
        }
    }
    return BuildDirectChunk(GradientHeader::AGGREGATE, chunk, contributors, flags, &m_sums);
}

bool
TreeExchange::FirstPassChunk(uint32_t position, uint32_t& chunk) const
{
    NS_LOG_FUNCTION(this << position);
    if (!IsRoot())
    {
        return StreamExchange::FirstPassChunk(position, chunk);
    }
    if (position >= m_ready.size())
    {
        return false;
    }
    chunk = m_ready[position];
    return true;
}

uint32_t
TreeExchange::FirstPassPosition(uint32_t chunk) const
{
    NS_LOG_FUNCTION(this << chunk);
    if (!IsRoot())
    {
        return StreamExchange::FirstPassPosition(chunk);
    }
    return chunk < m_positionOf.size() ? m_positionOf[chunk] : NO_SLOT;
}

// ---------------------------------------------------------------------------------------------
// Receive side

void
TreeExchange::ReceiveChunk(const GradientHeader& header,
                           const std::vector<int32_t>& values,
                           bool congested)
{
    NS_LOG_FUNCTION(this << congested);
    uint32_t first = 0;
    if (!CheckDirectChunk(header, values, first))
    {
        return;
    }
    if (IsRoot())
    {
        ReceiveUp(header, first, values, congested);
    }
    else
    {
        ReceiveDown(header, first, values, congested);
    }
    CheckComplete();
}

void
TreeExchange::ReceiveUp(const GradientHeader& header,
                        uint32_t first,
                        const std::vector<int32_t>& values,
                        bool congested)
{
    NS_LOG_FUNCTION(this << first << congested);
    const uint32_t chunk = header.GetChunkIndex();
    if (!header.HasFlag(GradientHeader::FLAG_REDUCE))
    {
        ++m_context.counters.dropped; // only pieces going up reach the root
        return;
    }
    EchoCongestion(header.GetContributors(), congested);
    if (m_positionOf[chunk] != NO_SLOT)
    {
        ++m_context.counters
              .duplicates; // its total went down already (a late or lost member's piece)
        return;
    }
    uint32_t fresh = 0;
    if (!AcceptPiece(header, first, values, fresh))
    {
        return;
    }
    m_have[chunk] += fresh;
    if (IsCovered(chunk))
    {
        CompleteChunk(chunk);
    }
    else if (m_endedCount > 0)
    {
        CheckEndedMissing(chunk);
    }
}

void
TreeExchange::ReceiveEnd(const GradientHeader& header)
{
    NS_LOG_FUNCTION(this);
    if (!IsRoot() || !HoldAt(m_context.settings.island).IsStrictlyPositive())
    {
        StreamExchange::ReceiveEnd(header);
        return;
    }
    const uint32_t slot = SlotOf(header.GetSender());
    if (slot == NO_SLOT || slot == m_position ||
        header.GetChunkCount() != m_layout.GetChunkCount() || m_ended[slot])
    {
        ++m_context.counters.dropped;
        return;
    }
    m_ended[slot] = true;
    ++m_endedCount;
    for (uint32_t chunk = 0; chunk < m_positionOf.size(); ++chunk)
    {
        if (m_positionOf[chunk] == NO_SLOT && !m_in[slot].Has(chunk))
        {
            CheckEndedMissing(chunk);
        }
    }
}

void
TreeExchange::CheckEndedMissing(uint32_t chunk)
{
    NS_LOG_FUNCTION(this << chunk);
    if (m_have[chunk] + m_lostCount + 2 < m_k)
    {
        return; // two members or more still missing: one may hold the other's piece
    }
    uint32_t missing = NO_SLOT;
    for (uint32_t s = 0; s < m_k; ++s)
    {
        if (s == m_position || m_lost[s] || m_in[s].Has(chunk))
        {
            continue;
        }
        if (missing != NO_SLOT)
        {
            return;
        }
        missing = s;
    }
    if (missing != NO_SLOT && m_ended[missing])
    {
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": chunk "
                               << chunk << " of " << IslandAt(missing)
                               << " lost (its END came, every other member is in)");
        NoteLost(missing, chunk);
    }
}

void
TreeExchange::ReceiveDown(const GradientHeader& header,
                          uint32_t first,
                          const std::vector<int32_t>& values,
                          bool congested)
{
    NS_LOG_FUNCTION(this << first << congested);
    const uint32_t chunk = header.GetChunkIndex();
    const IslandBitmap& contributors = header.GetContributors();
    if (header.GetType() != GradientHeader::AGGREGATE ||
        header.HasFlag(GradientHeader::FLAG_REDUCE) || header.GetSender() != m_config.root ||
        !contributors.Test(m_config.root))
    {
        ++m_context.counters.dropped; // a member hears only its root's totals
        return;
    }
    if (!IsStarted())
    {
        // It cannot hold this island (the root gave up on it), and the own values to add are
        // not known yet: the chunk is asked for again once the exchange runs.
        ++m_context.counters.dropped;
        return;
    }
    IslandBitmap root;
    root.Set(m_config.root);
    EchoCongestion(root, congested);
    if (m_finished || m_in[m_rootSlot].Has(chunk))
    {
        ++m_context.counters.duplicates;
        return;
    }
    MarkIn(m_rootSlot, chunk, !header.HasFlag(GradientHeader::FLAG_RETRANSMISSION));
    if (!m_context.settings.real)
    {
        return;
    }
    m_sums.Add(chunk, first, values, contributors.Count());
    if (!contributors.Test(m_context.settings.island))
    {
        // The root gave up on this island: its own values still count here, as in DIRECT.
        m_values.assign(m_own.begin() + first, m_own.begin() + first + values.size());
        m_sums.Add(chunk, first, m_values, 1);
    }
}

bool
TreeExchange::IsCovered(uint32_t chunk) const
{
    NS_LOG_FUNCTION(this << chunk);
    if (m_have[chunk] + m_lostCount + 1 < m_k)
    {
        return false; // the count cannot cover the members yet: no need to look
    }
    for (uint32_t s = 0; s < m_k; ++s)
    {
        if (s != m_position && !m_lost[s] && !m_in[s].Has(chunk))
        {
            return false;
        }
    }
    return true;
}

void
TreeExchange::CompleteChunk(uint32_t chunk)
{
    NS_LOG_FUNCTION(this << chunk);
    NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": chunk "
                           << chunk << " complete, " << m_have[chunk] << " members in");
    m_positionOf[chunk] = static_cast<uint32_t>(m_ready.size());
    m_ready.push_back(chunk);
    WakeStreams();
}

void
TreeExchange::OnPeerLost(uint32_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    StreamExchange::OnPeerLost(slot);
    ++m_lostCount;
    if (!IsRoot())
    {
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": root "
                               << m_config.root << " lost: the round is abandoned");
        m_abandoned = true; // the root is the only peer a member hears from
        return;
    }
    // The chunks that waited only for the lost member go down without it.
    NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": member "
                           << m_config.members[slot] << " lost (" << m_lostCount
                           << " in all): chunks that waited only for the lost go down");
    for (uint32_t c = 0; c < m_positionOf.size(); ++c)
    {
        if (m_positionOf[c] == NO_SLOT && IsCovered(c))
        {
            CompleteChunk(c);
        }
    }
}

bool
TreeExchange::IsDone() const
{
    NS_LOG_FUNCTION(this);
    if (IsRoot())
    {
        return m_ready.size() == m_positionOf.size() && StreamsSent();
    }
    return m_incomplete == 0 && StreamsSent();
}

void
TreeExchange::Average(std::vector<double>& x, double scale) const
{
    NS_LOG_FUNCTION(this << scale);
    // The root adds its own values to the members' sums; a member's totals hold its own.
    static const std::vector<int32_t> included;
    m_sums.Average(m_layout, IsRoot() ? m_own : included, x, scale);
}

} // namespace ns3
