/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chunk-repair.h"

#include "ns3/assert.h"

#include <algorithm>

namespace ns3
{

namespace
{
/** Chunks per bitmap word. */
constexpr uint32_t WORD_BITS = 64;
/** A bitmap word with every chunk received. */
constexpr uint64_t FULL_WORD = ~uint64_t{0};
/** A send time this far from the pace's prediction breaks it (pacing rounds to ns). */
const Time PACE_TOLERANCE = MicroSeconds(1);
} // namespace

ChunkTracker::ChunkTracker()
    : m_chunks(0),
      m_missing(0),
      m_frontier(0),
      m_scanFrom(0)
{
}

void
ChunkTracker::Init(uint32_t chunks)
{
    NS_ASSERT(chunks >= 1);
    m_chunks = chunks;
    m_missing = chunks;
    m_frontier = 0;
    m_scanFrom = 0;
    m_bits.assign((chunks + WORD_BITS - 1) / WORD_BITS, 0);
    m_asked.clear();
    m_knownLost.clear();
}

uint32_t
ChunkTracker::GetChunkCount() const
{
    return m_chunks;
}

uint32_t
ChunkTracker::GetMissing() const
{
    return m_missing;
}

bool
ChunkTracker::IsComplete() const
{
    return m_missing == 0;
}

bool
ChunkTracker::IsPassOver() const
{
    return m_missing == 0 || m_frontier >= m_chunks;
}

bool
ChunkTracker::Has(uint32_t chunk) const
{
    return (m_bits[chunk / WORD_BITS] >> (chunk % WORD_BITS)) & 1;
}

void
ChunkTracker::Mark(uint32_t chunk)
{
    NS_ASSERT(chunk < m_chunks && !Has(chunk));
    m_bits[chunk / WORD_BITS] |= uint64_t{1} << (chunk % WORD_BITS);
    --m_missing;
    if (!m_asked.empty())
    {
        m_asked.erase(chunk);
    }
    while (m_scanFrom < m_chunks && Has(m_scanFrom))
    {
        ++m_scanFrom;
    }
}

bool
ChunkTracker::Advance(uint32_t frontier)
{
    frontier = std::min(frontier, m_chunks);
    if (frontier <= m_frontier)
    {
        return false;
    }
    bool gap = false;
    for (uint32_t c = std::max(m_frontier, m_scanFrom); c < frontier && !gap; ++c)
    {
        gap = !Has(c) && m_asked.find(c) == m_asked.end();
    }
    m_frontier = frontier;
    return gap;
}

bool
ChunkTracker::MarkLost(uint32_t chunk)
{
    if (chunk >= m_chunks || Has(chunk) || m_asked.find(chunk) != m_asked.end())
    {
        return false;
    }
    if (chunk >= m_frontier)
    {
        m_knownLost.push_back(chunk);
    }
    return true;
}

bool
ChunkTracker::IsDue(uint32_t chunk, Time now, Time interval) const
{
    auto it = m_asked.find(chunk);
    return it == m_asked.end() || it->second + interval <= now;
}

std::vector<GradientHeader::ChunkRange>
ChunkTracker::CollectDue(Time now, Time interval, bool all, uint32_t maxRanges, uint32_t from)
{
    std::vector<GradientHeader::ChunkRange> ranges;
    // Chunks above the frontier known lost (from partial aggregates) count as below it.
    std::sort(m_knownLost.begin(), m_knownLost.end());
    uint32_t limit = all ? m_chunks : m_frontier;
    size_t lost = 0;
    auto wanted = [&](uint32_t c) {
        if (Has(c) || !IsDue(c, now, interval))
        {
            return false;
        }
        if (c < limit || m_asked.find(c) != m_asked.end())
        {
            return true; // a gap, or asked before and due again
        }
        while (lost < m_knownLost.size() && m_knownLost[lost] < c)
        {
            ++lost;
        }
        return lost < m_knownLost.size() && m_knownLost[lost] == c;
    };
    uint32_t end = limit;
    if (!m_knownLost.empty())
    {
        end = std::max(end, m_knownLost.back() + 1);
    }
    if (!m_asked.empty())
    {
        end = std::max(end, m_asked.rbegin()->first + 1);
    }
    uint32_t c = std::max(m_scanFrom, from);
    while (c < end && ranges.size() < maxRanges)
    {
        if (c % WORD_BITS == 0 && c + WORD_BITS <= end && m_bits[c / WORD_BITS] == FULL_WORD)
        {
            c += WORD_BITS;
            continue;
        }
        if (!wanted(c))
        {
            ++c;
            continue;
        }
        uint32_t stop = c + 1;
        while (stop < end && wanted(stop))
        {
            ++stop;
        }
        ranges.push_back({c, stop - c});
        for (uint32_t a = c; a < stop; ++a)
        {
            // Only chunks known missing count as asked: one beyond the frontier, asked after
            // silence, may simply not be sent yet, and must not hold back the gap NACK that
            // follows once it is known lost.
            if (a < m_frontier || m_asked.find(a) != m_asked.end() ||
                std::binary_search(m_knownLost.begin(), m_knownLost.end(), a))
            {
                m_asked[a] = now;
            }
        }
        c = stop;
    }
    m_knownLost.erase(
        std::remove_if(m_knownLost.begin(),
                       m_knownLost.end(),
                       [this](uint32_t k) { return Has(k) || m_asked.find(k) != m_asked.end(); }),
        m_knownLost.end());
    return ranges;
}

Time
ChunkTracker::NextDue(Time interval) const
{
    Time next = Time::Max();
    for (const auto& entry : m_asked)
    {
        next = std::min(next, entry.second + interval);
    }
    return next;
}

bool
ResendQueue::Request(uint64_t key, uint32_t asker, Time now, Time minAge, uint32_t repeatCopies)
{
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
    m_lastSent[key] = now;
}

bool
ResendQueue::IsEmpty() const
{
    return m_queue.empty();
}

void
ResendQueue::Clear()
{
    m_queue.clear();
    m_waiting.clear();
    m_lastSent.clear();
}

void
DeferredChunks::Defer(uint64_t key)
{
    m_held.insert(key);
}

bool
DeferredChunks::IsDeferred(uint64_t key) const
{
    return m_held.count(key) != 0;
}

bool
DeferredChunks::Release(uint64_t key)
{
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
    m_held.erase(key);
    m_sent[key] = now;
}

bool
DeferredChunks::SentAt(uint64_t key, Time& at) const
{
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
    return m_held.empty();
}

void
DeferredChunks::Clear()
{
    m_held.clear();
    m_ready.clear();
    m_sent.clear();
}

void
FirstPassClock::Start(Time slot)
{
    m_slot = slot;
    m_checkpoints.clear();
}

void
FirstPassClock::Note(uint32_t chunk, Time now)
{
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
    NS_ASSERT(!m_checkpoints.empty() && chunk >= m_checkpoints.front().chunk);
    auto it = std::upper_bound(m_checkpoints.begin(),
                               m_checkpoints.end(),
                               chunk,
                               [](uint32_t c, const Checkpoint& cp) { return c < cp.chunk; });
    --it;
    return it->at + m_slot * static_cast<int64_t>(chunk - it->chunk);
}

} // namespace ns3
