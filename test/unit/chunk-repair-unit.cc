/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the repair bookkeeping (model/chunk-repair.h): when a stream's first pass is
 * over, which chunks are asked for when (exact due order, re-asks, continued asks, and the
 * same decisions as the rules restated chunk by chunk under random loss), the held-back
 * chunks of a pipelined ring step, and how many copies of a chunk the sender resends.
 */

#include "ns3/chunk-repair.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/** (first chunk, count) of each range, in order. */
using RangeList = std::vector<std::pair<uint32_t, uint32_t>>;

/** \param ranges as CollectDue returns them \return the same as a RangeList */
RangeList
Ranges(const std::vector<GradientHeader::ChunkRange>& ranges)
{
    RangeList list;
    for (const GradientHeader::ChunkRange& range : ranges)
    {
        list.emplace_back(range.first, range.count);
    }
    return list;
}

} // namespace

TEST(ChunkTracker, PassIsOverWhenTheFrontierReachesTheEndOrAllAreIn)
{
    ChunkTracker t;
    t.Init(4);
    EXPECT_FALSE(t.IsPassOver());
    t.Mark(0);
    t.Mark(2);
    EXPECT_FALSE(t.IsPassOver()); // chunk 3 may still come
    EXPECT_TRUE(t.Advance(3));    // chunk 1 is a gap
    EXPECT_FALSE(t.IsPassOver());
    t.Advance(4); // the sender's END: chunks 1 and 3 were lost
    EXPECT_TRUE(t.IsPassOver());
    EXPECT_FALSE(t.IsComplete());

    ChunkTracker full;
    full.Init(2);
    full.Mark(1);
    full.Mark(0);
    EXPECT_TRUE(full.IsPassOver()); // every chunk in, though no END was seen
}

TEST(ChunkTracker, ASilenceAskDoesNotHoldBackTheGapNackThatFollows)
{
    // A silent peer is asked for everything (it may not have started), then its first pass
    // comes with chunk 3 lost: the gap is asked for at once, not a repair interval later.
    ChunkTracker t;
    t.Init(8);
    const Time interval = MilliSeconds(400);
    const auto probe = t.CollectDue(MilliSeconds(100), interval, true, 16);
    ASSERT_EQ(probe.size(), 1u);
    EXPECT_EQ(probe[0].first, 0u);
    EXPECT_EQ(probe[0].count, 8u);
    EXPECT_EQ(t.NextDue(interval), Time::Max()); // nothing known missing was asked
    for (uint32_t c : {0u, 1u, 2u, 4u})
    {
        t.Mark(c);
    }
    EXPECT_TRUE(t.Advance(5)); // chunk 4 arrived: chunk 3 was lost
    const auto gap = t.CollectDue(MilliSeconds(150), interval, false, 16);
    ASSERT_EQ(gap.size(), 1u);
    EXPECT_EQ(gap[0].first, 3u);
    EXPECT_EQ(gap[0].count, 1u);
    EXPECT_EQ(t.NextDue(interval), MilliSeconds(550)); // re-asked a repair interval later
    // Silence again: a known gap asked after silence is noted, so it is re-asked on time.
    const auto again = t.CollectDue(MilliSeconds(600), interval, true, 16);
    ASSERT_EQ(again.size(), 2u); // chunk 3 (due again) and chunks 5..7 (never sent)
    EXPECT_EQ(again[0].first, 3u);
    EXPECT_EQ(again[1].first, 5u);
    EXPECT_EQ(again[1].count, 3u);
    EXPECT_EQ(t.NextDue(interval), MilliSeconds(1000));
}

TEST(ChunkTracker, AskedChunksComeDueInTheOrderTheyWereAskedAndLeaveInChunkOrder)
{
    // Chunks 1, 3 and 5 are gaps asked at 0 ms; chunk 7 is a gap asked at 100 ms; chunk 2 is a
    // gap asked at 250 ms. With a 400 ms interval: 1, 3, 5 are due at 400 ms, 7 at 500 ms,
    // 2 at 650 ms; what is due leaves in chunk order, one range per run of chunks.
    ChunkTracker t;
    t.Init(10);
    const Time interval = MilliSeconds(400);
    for (uint32_t c : {0u, 2u, 4u, 6u})
    {
        t.Mark(c);
    }
    EXPECT_TRUE(t.Advance(7)); // chunk 6 in: 1, 3, 5 were lost
    auto first = t.CollectDue(MilliSeconds(0), interval, false, 16);
    EXPECT_EQ(Ranges(first), (RangeList{{1, 1}, {3, 1}, {5, 1}}));
    t.Mark(8);
    EXPECT_TRUE(t.Advance(9)); // chunk 7 lost
    auto second = t.CollectDue(MilliSeconds(100), interval, false, 16);
    EXPECT_EQ(Ranges(second), (RangeList{{7, 1}})); // 1, 3, 5 are not due yet
    EXPECT_EQ(t.NextDue(interval), MilliSeconds(400));
    EXPECT_TRUE(t.CollectDue(MilliSeconds(399), interval, false, 16).empty());
    // Chunk 3 arrives (its resend): it is no longer asked for, nor due.
    t.Mark(3);
    auto due = t.CollectDue(MilliSeconds(400), interval, false, 16);
    EXPECT_EQ(Ranges(due), (RangeList{{1, 1}, {5, 1}}));
    // 1 and 5 were re-asked at 400 ms: 7 (asked at 100 ms) is the next due, at 500 ms.
    EXPECT_EQ(t.NextDue(interval), MilliSeconds(500));
    auto seven = t.CollectDue(MilliSeconds(500), interval, false, 16);
    EXPECT_EQ(Ranges(seven), (RangeList{{7, 1}}));
    EXPECT_EQ(t.NextDue(interval), MilliSeconds(800)); // 1 and 5, re-asked at 400 ms
    t.Mark(1);
    t.Mark(5);
    EXPECT_EQ(t.NextDue(interval), MilliSeconds(900)); // 7, re-asked at 500 ms
    t.Mark(7);
    EXPECT_EQ(t.NextDue(interval), Time::Max()); // 9 is beyond the frontier, never asked
}

TEST(ChunkTracker, OneAskContinuesWhereItsLastPacketStopped)
{
    // Gaps 1, 3, 5, 7, 9 with at most two ranges per call: three calls of one ask (each from
    // where the last stopped) return 1 3 | 5 7 | 9, and a fourth returns nothing.
    ChunkTracker t;
    t.Init(11);
    for (uint32_t c = 0; c < 11; c += 2)
    {
        t.Mark(c);
    }
    EXPECT_TRUE(t.Advance(11));
    const Time now = Seconds(1);
    const Time interval = MilliSeconds(300);
    uint32_t from = 0;
    std::vector<uint32_t> firsts;
    for (int call = 0; call < 4; ++call)
    {
        auto ranges = t.CollectDue(now, interval, false, 2, from);
        for (const auto& r : ranges)
        {
            EXPECT_EQ(r.count, 1u);
            firsts.push_back(r.first);
        }
        if (!ranges.empty())
        {
            from = ranges.back().first + ranges.back().count;
        }
    }
    EXPECT_EQ(firsts, (std::vector<uint32_t>{1, 3, 5, 7, 9}));
    EXPECT_EQ(t.NextDue(interval), Seconds(1.3));
}

TEST(ChunkTracker, ChunksKnownLostBeyondTheFrontierAreAskedOnceThenWhenDue)
{
    ChunkTracker t;
    t.Init(100);
    t.Mark(0);
    EXPECT_FALSE(t.Advance(1));
    EXPECT_TRUE(t.MarkLost(40)); // absent from a settled partial aggregate
    EXPECT_TRUE(t.MarkLost(60));
    EXPECT_FALSE(t.MarkLost(0));   // received
    EXPECT_FALSE(t.MarkLost(100)); // not a chunk of the stream
    const Time interval = MilliSeconds(200);
    auto ranges = t.CollectDue(MilliSeconds(10), interval, false, 8);
    EXPECT_EQ(Ranges(ranges), (RangeList{{40, 1}, {60, 1}}));
    EXPECT_FALSE(t.MarkLost(40)); // asked for already
    EXPECT_TRUE(t.CollectDue(MilliSeconds(209), interval, false, 8).empty());
    EXPECT_EQ(t.NextDue(interval), MilliSeconds(210));
    // Both are due at 210 ms; one range per call takes 40 alone, re-asked at 210 ms.
    ranges = t.CollectDue(MilliSeconds(210), interval, false, 1);
    EXPECT_EQ(Ranges(ranges), (RangeList{{40, 1}}));
    // The interval is the caller's: with 400 ms, 60 (asked at 10 ms) is due only at 410 ms,
    // though 200 ms found it due already; with 100 ms, 40 (asked at 210 ms) is due at 310 ms.
    EXPECT_TRUE(t.CollectDue(MilliSeconds(300), MilliSeconds(400), false, 8).empty());
    EXPECT_EQ(t.NextDue(MilliSeconds(400)), MilliSeconds(410));
    ranges = t.CollectDue(MilliSeconds(310), MilliSeconds(100), false, 8);
    EXPECT_EQ(Ranges(ranges), (RangeList{{40, 1}, {60, 1}}));
    EXPECT_EQ(t.NextDue(MilliSeconds(100)), MilliSeconds(410)); // both re-asked at 310 ms
}

namespace
{

/**
 * The repair rules of ChunkTracker restated chunk by chunk, with no index: what a tracker must
 * decide, for the randomised comparison below.
 */
class NaiveTracker
{
  public:
    explicit NaiveTracker(uint32_t chunks)
        : m_have(chunks, false),
          m_asked(chunks, false),
          m_askedAt(chunks),
          m_lost(chunks, false)
    {
    }

    void Mark(uint32_t c)
    {
        m_have[c] = true;
        m_asked[c] = false;
    }

    bool Advance(uint32_t frontier)
    {
        frontier = std::min<uint32_t>(frontier, m_have.size());
        bool gap = false;
        for (uint32_t c = m_frontier; c < frontier; ++c)
        {
            gap = gap || (!m_have[c] && !m_asked[c]);
        }
        m_frontier = std::max(m_frontier, frontier);
        return gap;
    }

    bool MarkLost(uint32_t c)
    {
        if (c >= m_have.size() || m_have[c] || m_asked[c])
        {
            return false;
        }
        m_lost[c] = m_lost[c] || c >= m_frontier;
        return true;
    }

    RangeList CollectDue(Time now, Time interval, bool all, uint32_t maxRanges, uint32_t from)
    {
        const uint32_t n = m_have.size();
        std::vector<bool> wanted(n, false);
        for (uint32_t c = 0; c < n; ++c)
        {
            if (m_have[c])
            {
                continue;
            }
            wanted[c] =
                m_asked[c] ? m_askedAt[c] + interval <= now : (c < m_frontier || m_lost[c] || all);
        }
        RangeList ranges;
        for (uint32_t c = from; c < n; ++c)
        {
            if (!wanted[c])
            {
                continue;
            }
            if (!ranges.empty() && ranges.back().first + ranges.back().second == c)
            {
                ++ranges.back().second; // the run goes on
                continue;
            }
            if (ranges.size() == maxRanges)
            {
                break;
            }
            ranges.emplace_back(c, 1);
        }
        for (const auto& r : ranges)
        {
            for (uint32_t c = r.first; c < r.first + r.second; ++c)
            {
                if (c < m_frontier || m_asked[c] || m_lost[c])
                {
                    m_asked[c] = true;
                    m_askedAt[c] = now;
                }
            }
        }
        return ranges;
    }

    Time NextDue(Time interval) const
    {
        Time next = Time::Max();
        for (uint32_t c = 0; c < m_have.size(); ++c)
        {
            if (m_asked[c])
            {
                next = std::min(next, m_askedAt[c] + interval);
            }
        }
        return next;
    }

  private:
    std::vector<bool> m_have;
    std::vector<bool> m_asked;
    std::vector<Time> m_askedAt;
    std::vector<bool> m_lost;
    uint32_t m_frontier{0};
};

} // namespace

TEST(ChunkTracker, DecidesAsTheChunkByChunkRulesUnderRandomLoss)
{
    std::mt19937 rng(15);
    for (int trial = 0; trial < 200; ++trial)
    {
        const uint32_t n = 1 + rng() % 300;
        ChunkTracker t;
        t.Init(n);
        NaiveTracker naive(n);
        Time now = MilliSeconds(rng() % 10);
        uint32_t sent = 0; // the first pass, in chunk order
        for (int op = 0; op < 400; ++op)
        {
            const uint32_t kind = rng() % 8;
            const uint32_t c = rng() % n;
            if (kind <= 2 && sent < n)
            {
                if (rng() % 5 != 0 && !t.Has(sent)) // 20% lost
                {
                    t.Mark(sent);
                    naive.Mark(sent);
                }
                ++sent;
                ASSERT_EQ(t.Advance(sent), naive.Advance(sent)) << "trial " << trial;
            }
            else if (kind == 3 && !t.Has(c) && rng() % 2 == 0)
            {
                t.Mark(c); // a resend arrives
                naive.Mark(c);
            }
            else if (kind == 4)
            {
                ASSERT_EQ(t.MarkLost(c), naive.MarkLost(c)) << "trial " << trial;
            }
            else if (kind >= 5)
            {
                now += MilliSeconds(rng() % 120);
                // Mostly one interval; now and then a different one, as a caller may pass.
                const Time interval = MilliSeconds(rng() % 10 == 0 ? rng() % 500 : 200);
                const bool all = rng() % 6 == 0;
                const uint32_t maxRanges = 1 + rng() % 4;
                const uint32_t from = rng() % 3 == 0 ? c : 0;
                ASSERT_EQ(Ranges(t.CollectDue(now, interval, all, maxRanges, from)),
                          naive.CollectDue(now, interval, all, maxRanges, from))
                    << "trial " << trial << " op " << op;
                ASSERT_EQ(t.NextDue(interval), naive.NextDue(interval)) << "trial " << trial;
            }
        }
    }
}

TEST(DeferredChunks, HeldUntilReleasedThenSentInReleaseOrder)
{
    DeferredChunks d;
    EXPECT_TRUE(d.IsEmpty());
    d.Defer(7);
    d.Defer(3);
    EXPECT_TRUE(d.IsDeferred(7));
    EXPECT_TRUE(d.IsDeferred(3));
    EXPECT_FALSE(d.IsDeferred(5));
    uint64_t key = 0;
    EXPECT_FALSE(d.PopReady(key)); // inputs not in yet
    EXPECT_FALSE(d.Release(5));    // never held back: the pass sends it
    EXPECT_TRUE(d.Release(3));
    EXPECT_FALSE(d.Release(3)); // a duplicate input changes nothing
    EXPECT_TRUE(d.Release(7));
    ASSERT_TRUE(d.PopReady(key));
    EXPECT_EQ(key, 3u);
    EXPECT_TRUE(d.IsDeferred(3)); // popped, but not sent yet
    d.Sent(3, Seconds(1.5));
    EXPECT_FALSE(d.IsDeferred(3));
    Time at;
    ASSERT_TRUE(d.SentAt(3, at));
    EXPECT_EQ(at, Seconds(1.5));
    EXPECT_FALSE(d.SentAt(7, at));
    EXPECT_FALSE(d.IsEmpty()); // 7 is ready but not sent
    ASSERT_TRUE(d.PopReady(key));
    EXPECT_EQ(key, 7u);
    d.Sent(7, Seconds(2));
    EXPECT_TRUE(d.IsEmpty());
    d.Clear();
    EXPECT_FALSE(d.SentAt(3, at));
}

namespace
{

/** \param queue a ResendQueue \return the (chunk, asker) it hands out, in order, until empty */
std::vector<std::pair<uint64_t, uint32_t>>
Drain(ResendQueue& queue)
{
    std::vector<std::pair<uint64_t, uint32_t>> popped;
    uint64_t key = 0;
    uint32_t asker = 0;
    while (queue.Pop(key, asker))
    {
        popped.emplace_back(key, asker);
    }
    return popped;
}

} // namespace

TEST(ResendQueue, AFirstAskIsOneCopyAndTheSameAskerAgainAfterTheResendGetsRepeats)
{
    using Popped = std::vector<std::pair<uint64_t, uint32_t>>;
    const Time rtt = MilliSeconds(10);
    ResendQueue q;
    EXPECT_TRUE(q.IsEmpty());
    EXPECT_TRUE(q.Request(4, 1, Seconds(1), rtt, 3));
    EXPECT_FALSE(q.Request(4, 1, Seconds(1.001), rtt, 3)); // already waiting
    EXPECT_EQ(Drain(q), (Popped{{4, 1}}));
    q.Sent(4, Seconds(1.002));
    // Within a round trip of the resend the asker cannot have seen it: not resent again.
    EXPECT_FALSE(q.Request(4, 1, Seconds(1.011), rtt, 3));
    EXPECT_TRUE(q.IsEmpty());
    // A round trip later it is still missing: that resend was lost, three copies now.
    EXPECT_TRUE(q.Request(4, 1, Seconds(1.012), rtt, 3));
    EXPECT_EQ(Drain(q), (Popped{{4, 1}, {4, 1}, {4, 1}}));
}

TEST(ResendQueue, AnyAskerAfterAResentChunkCouldHaveArrivedGetsRepeats)
{
    using Popped = std::vector<std::pair<uint64_t, uint32_t>>;
    const Time rtt = MilliSeconds(10);
    ResendQueue q;
    // Island 2 asks for chunk 9 (a multicast copy lost before the tree branched); island 5's
    // ask comes while the resend waits and is answered by it: one copy, to the group.
    EXPECT_TRUE(q.Request(9, 2, Seconds(1), rtt, 3));
    EXPECT_FALSE(q.Request(9, 5, Seconds(1), rtt, 3));
    EXPECT_EQ(Drain(q), (Popped{{9, 2}}));
    q.Sent(9, Seconds(1));
    // Island 7 asks within a round trip of the resend: it may be on its way.
    EXPECT_FALSE(q.Request(9, 7, Seconds(1.005), rtt, 3));
    EXPECT_TRUE(q.IsEmpty());
    // Later, the resend to the group did not reach island 7 either: repeats.
    EXPECT_TRUE(q.Request(9, 7, Seconds(1.5), rtt, 3));
    EXPECT_EQ(Drain(q), (Popped{{9, 7}, {9, 7}, {9, 7}}));
    // Another chunk's first ask is one copy.
    EXPECT_TRUE(q.Request(10, 5, Seconds(2), rtt, 3));
    EXPECT_EQ(Drain(q), (Popped{{10, 5}}));
    // Cleared (a new round), chunk 9 is new again.
    q.Clear();
    EXPECT_TRUE(q.Request(9, 5, Seconds(3), rtt, 3));
    EXPECT_EQ(Drain(q), (Popped{{9, 5}}));
}
