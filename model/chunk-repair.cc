/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chunk-repair.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChunkRepair");

namespace
{
/** Chunks per bitmap word. */
constexpr uint32_t WORD_BITS = 64;
/** A send time this far from the pace's prediction breaks it (pacing rounds to ns). */
const Time PACE_TOLERANCE = MicroSeconds(1);
} // namespace

ChunkTracker::ChunkTracker()
    : m_chunks(0),
      m_missing(0),
      m_frontier(0),
      m_scanFrom(0),
      m_dueBefore(Time::Min()),
      m_askedAll(false)
{
    NS_LOG_FUNCTION(this);
}

void
ChunkTracker::Init(uint32_t chunks)
{
    NS_LOG_FUNCTION(this << chunks);
    NS_ASSERT(chunks >= 1);
    m_chunks = chunks;
    m_missing = chunks;
    m_frontier = 0;
    m_scanFrom = 0;
    m_bits.assign((chunks + WORD_BITS - 1) / WORD_BITS, 0);
    m_asked.clear();
    m_byTime.clear();
    m_wanted.clear();
    m_dueBefore = Time::Min();
    m_askedAll = false;
}

uint32_t
ChunkTracker::GetChunkCount() const
{
    NS_LOG_FUNCTION(this);
    return m_chunks;
}

uint32_t
ChunkTracker::GetMissing() const
{
    NS_LOG_FUNCTION(this);
    return m_missing;
}

bool
ChunkTracker::IsComplete() const
{
    NS_LOG_FUNCTION(this);
    return m_missing == 0;
}

bool
ChunkTracker::IsPassOver() const
{
    NS_LOG_FUNCTION(this);
    return m_missing == 0 || m_frontier >= m_chunks;
}

bool
ChunkTracker::Has(uint32_t chunk) const
{
    return (m_bits[chunk / WORD_BITS] >> (chunk % WORD_BITS)) & 1;
}

bool
ChunkTracker::IsKnownMissing(uint32_t chunk) const
{
    return chunk < m_chunks && !Has(chunk) &&
           (m_askedAll || chunk < m_frontier || m_asked.count(chunk) != 0 ||
            m_wanted.count(chunk) != 0);
}

void
ChunkTracker::Mark(uint32_t chunk)
{
    NS_LOG_FUNCTION(this << chunk);
    NS_ASSERT(chunk < m_chunks && !Has(chunk));
    m_bits[chunk / WORD_BITS] |= uint64_t{1} << (chunk % WORD_BITS);
    --m_missing;
    if (!m_wanted.empty())
    {
        m_wanted.erase(chunk);
    }
    if (!m_asked.empty())
    {
        auto it = m_asked.find(chunk);
        if (it != m_asked.end())
        {
            m_byTime.erase({it->second, chunk});
            m_asked.erase(it);
        }
    }
    m_scanFrom = NextMissing(m_scanFrom);
}

uint32_t
ChunkTracker::NextMissing(uint32_t chunk) const
{
    while (chunk < m_chunks)
    {
        const uint64_t missing = ~m_bits[chunk / WORD_BITS] >> (chunk % WORD_BITS);
        if (missing != 0)
        {
            return std::min(m_chunks, chunk + static_cast<uint32_t>(__builtin_ctzll(missing)));
        }
        chunk = (chunk / WORD_BITS + 1) * WORD_BITS;
    }
    return m_chunks;
}

bool
ChunkTracker::Advance(uint32_t frontier)
{
    NS_LOG_FUNCTION(this << frontier);
    frontier = std::min(frontier, m_chunks);
    if (frontier <= m_frontier)
    {
        return false;
    }
    // Every chunk still missing below the new frontier and never asked for is a gap.
    bool gap = false;
    for (uint32_t c = NextMissing(std::max(m_frontier, m_scanFrom)); c < frontier;
         c = NextMissing(c + 1))
    {
        if (m_asked.find(c) == m_asked.end())
        {
            m_wanted.insert(c);
            gap = true;
        }
    }
    m_frontier = frontier;
    return gap;
}

bool
ChunkTracker::MarkLost(uint32_t chunk)
{
    NS_LOG_FUNCTION(this << chunk);
    if (chunk >= m_chunks || Has(chunk) || m_asked.find(chunk) != m_asked.end())
    {
        return false;
    }
    if (chunk >= m_frontier)
    {
        m_wanted.insert(chunk); // below the frontier it is a gap, wanted already
    }
    return true;
}

void
ChunkTracker::SetDueThreshold(Time dueBefore)
{
    NS_LOG_FUNCTION(this << dueBefore);
    // The asked chunks whose ask time lies between the old and the new threshold change sides.
    const Time low = std::min(dueBefore, m_dueBefore);
    const Time high = std::max(dueBefore, m_dueBefore);
    for (auto it = m_byTime.upper_bound({low, std::numeric_limits<uint32_t>::max()});
         it != m_byTime.end() && it->first <= high;
         ++it)
    {
        if (dueBefore > m_dueBefore)
        {
            m_wanted.insert(it->second);
        }
        else
        {
            m_wanted.erase(it->second);
        }
    }
    m_dueBefore = dueBefore;
}

bool
ChunkTracker::IsWanted(uint32_t chunk, bool all) const
{
    if (Has(chunk))
    {
        return false;
    }
    if (m_wanted.find(chunk) != m_wanted.end())
    {
        return true;
    }
    // After silence also chunks beyond the frontier never asked for: they may not be sent yet.
    return all && chunk >= m_frontier && m_asked.find(chunk) == m_asked.end();
}

uint32_t
ChunkTracker::NextWanted(uint32_t chunk, bool all) const
{
    NS_LOG_FUNCTION(this << chunk << all);
    auto it = m_wanted.lower_bound(chunk);
    const uint32_t listed = it == m_wanted.end() ? m_chunks : *it;
    if (!all)
    {
        return listed;
    }
    for (uint32_t c = NextMissing(std::max(chunk, m_frontier)); c < listed; c = NextMissing(c + 1))
    {
        if (m_asked.find(c) == m_asked.end())
        {
            return c;
        }
    }
    return listed;
}

void
ChunkTracker::NoteAsked(uint32_t chunk, Time now)
{
    NS_LOG_FUNCTION(this << chunk << now);
    auto it = m_asked.find(chunk);
    if (it != m_asked.end())
    {
        m_byTime.erase({it->second, chunk});
        it->second = now;
    }
    else
    {
        m_asked.emplace(chunk, now);
    }
    m_byTime.emplace(now, chunk);
    if (now > m_dueBefore)
    {
        m_wanted.erase(chunk); // due again a repair interval from now
    }
}

std::vector<GradientHeader::ChunkRange>
ChunkTracker::CollectDue(Time now, Time interval, bool all, uint32_t maxRanges, uint32_t from)
{
    NS_LOG_FUNCTION(this << now << interval << all << maxRanges << from);
    SetDueThreshold(now - interval);
    std::vector<GradientHeader::ChunkRange> ranges;
    uint32_t c = std::max(m_scanFrom, from);
    while (ranges.size() < maxRanges)
    {
        const uint32_t first = NextWanted(c, all);
        if (first >= m_chunks)
        {
            break;
        }
        uint32_t stop = first + 1;
        while (stop < m_chunks && IsWanted(stop, all))
        {
            ++stop;
        }
        ranges.push_back({first, stop - first});
        c = stop;
    }
    m_askedAll = m_askedAll || (all && !ranges.empty());
    // Only chunks known missing (listed in m_wanted) count as asked: one beyond the frontier,
    // asked after silence, may simply not be sent yet, and must not hold back the gap NACK that
    // follows once it is known lost.
    std::vector<uint32_t> asked;
    for (const GradientHeader::ChunkRange& range : ranges)
    {
        for (auto it = m_wanted.lower_bound(range.first);
             it != m_wanted.end() && *it < range.first + range.count;
             ++it)
        {
            asked.push_back(*it);
        }
    }
    for (uint32_t chunk : asked)
    {
        NoteAsked(chunk, now);
    }
    return ranges;
}

Time
ChunkTracker::NextDue(Time interval) const
{
    NS_LOG_FUNCTION(this << interval);
    return m_byTime.empty() ? Time::Max() : m_byTime.begin()->first + interval;
}

void
AsidePieces::Put(uint32_t slot, uint32_t chunk, Piece piece)
{
    NS_LOG_FUNCTION(this << slot << chunk);
    m_pieces[{slot, chunk}] = std::move(piece);
}

bool
AsidePieces::Take(uint32_t slot, uint32_t chunk, Piece& piece)
{
    NS_LOG_FUNCTION(this << slot << chunk);
    auto it = m_pieces.find({slot, chunk});
    if (it == m_pieces.end())
    {
        return false;
    }
    piece = std::move(it->second);
    m_pieces.erase(it);
    return true;
}

void
AsidePieces::Forget(uint32_t slot, uint32_t chunk)
{
    NS_LOG_FUNCTION(this << slot << chunk);
    m_pieces.erase({slot, chunk});
}

std::vector<uint32_t>
AsidePieces::KnownMissing(uint32_t slot, const ChunkTracker& tracker) const
{
    NS_LOG_FUNCTION(this << slot);
    std::vector<uint32_t> chunks;
    for (auto it = m_pieces.lower_bound({slot, 0}); it != m_pieces.end() && it->first.first == slot;
         ++it)
    {
        if (tracker.IsKnownMissing(it->first.second))
        {
            chunks.push_back(it->first.second);
        }
    }
    return chunks;
}

size_t
AsidePieces::GetSize() const
{
    NS_LOG_FUNCTION(this);
    return m_pieces.size();
}

bool
ResendQueue::Request(uint64_t key, uint32_t asker, Time now, Time minAge, uint32_t repeatCopies)
{
    NS_LOG_FUNCTION(this << key << asker << now << minAge << repeatCopies);
    if (m_waiting.count(key) != 0)
    {
        return false;
    }
    auto it = m_lastSent.find(key);
    if (it != m_lastSent.end() && it->second + minAge > now)
    {
        return false;
    }
    // Asked again after a resend: that resend was lost too. Several copies now, so a path
    // that lost it twice is unlikely to hold the round up for a third repair interval.
    const uint32_t copies = it != m_lastSent.end() ? repeatCopies : 1;
    for (uint32_t copy = 0; copy < copies; ++copy)
    {
        m_queue.emplace_back(key, asker);
    }
    m_waiting.insert(key);
    return true;
}

bool
ResendQueue::Pop(uint64_t& key, uint32_t& asker)
{
    NS_LOG_FUNCTION(this);
    if (m_queue.empty())
    {
        return false;
    }
    key = m_queue.front().first;
    asker = m_queue.front().second;
    m_queue.pop_front();
    m_waiting.erase(key);
    return true;
}

void
ResendQueue::Sent(uint64_t key, Time now)
{
    NS_LOG_FUNCTION(this << key << now);
    m_lastSent[key] = now;
}

bool
ResendQueue::IsEmpty() const
{
    NS_LOG_FUNCTION(this);
    return m_queue.empty();
}

void
ResendQueue::Clear()
{
    NS_LOG_FUNCTION(this);
    m_queue.clear();
    m_waiting.clear();
    m_lastSent.clear();
}

void
DeferredChunks::Defer(uint64_t key)
{
    NS_LOG_FUNCTION(this << key);
    m_held.insert(key);
}

bool
DeferredChunks::IsDeferred(uint64_t key) const
{
    NS_LOG_FUNCTION(this << key);
    return m_held.count(key) != 0;
}

bool
DeferredChunks::Release(uint64_t key)
{
    NS_LOG_FUNCTION(this << key);
    if (m_held.count(key) == 0 || std::find(m_ready.begin(), m_ready.end(), key) != m_ready.end())
    {
        return false;
    }
    m_ready.push_back(key);
    return true;
}

bool
DeferredChunks::PopReady(uint64_t& key)
{
    NS_LOG_FUNCTION(this);
    if (m_ready.empty())
    {
        return false;
    }
    key = m_ready.front();
    m_ready.pop_front();
    return true;
}

void
DeferredChunks::Sent(uint64_t key, Time now)
{
    NS_LOG_FUNCTION(this << key << now);
    m_held.erase(key);
    m_sent[key] = now;
}

bool
DeferredChunks::SentAt(uint64_t key, Time& at) const
{
    NS_LOG_FUNCTION(this << key);
    auto it = m_sent.find(key);
    if (it == m_sent.end())
    {
        return false;
    }
    at = it->second;
    return true;
}

bool
DeferredChunks::IsEmpty() const
{
    NS_LOG_FUNCTION(this);
    return m_held.empty();
}

void
DeferredChunks::Clear()
{
    NS_LOG_FUNCTION(this);
    m_held.clear();
    m_ready.clear();
    m_sent.clear();
}

void
FirstPassClock::Start(Time slot)
{
    NS_LOG_FUNCTION(this << slot);
    m_slot = slot;
    m_checkpoints.clear();
}

void
FirstPassClock::Note(uint32_t chunk, Time now)
{
    NS_LOG_FUNCTION(this << chunk << now);
    if (!m_checkpoints.empty() && chunk > m_checkpoints.back().chunk)
    {
        const Time predicted = SentAt(chunk);
        if (now - predicted <= PACE_TOLERANCE && predicted - now <= PACE_TOLERANCE)
        {
            return;
        }
    }
    m_checkpoints.push_back({chunk, now});
}

Time
FirstPassClock::SentAt(uint32_t chunk) const
{
    NS_LOG_FUNCTION(this << chunk);
    NS_ASSERT(!m_checkpoints.empty() && chunk >= m_checkpoints.front().chunk);
    auto it = std::upper_bound(m_checkpoints.begin(),
                               m_checkpoints.end(),
                               chunk,
                               [](uint32_t c, const Checkpoint& cp) { return c < cp.chunk; });
    --it;
    return it->at + m_slot * static_cast<int64_t>(chunk - it->chunk);
}

Time
FirstPassClock::LeftBy(Time handedOver) const
{
    NS_LOG_FUNCTION(this << handedOver);
    return handedOver + m_slot;
}

} // namespace ns3
