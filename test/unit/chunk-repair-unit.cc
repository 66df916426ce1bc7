/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the repair bookkeeping (model/chunk-repair.h): when a stream's first pass is
 * over, and the held-back chunks of a pipelined ring step.
 */

#include "ns3/chunk-repair.h"

#include <gtest/gtest.h>

using namespace ns3;

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
