/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the round-start bookkeeping (model/round-alignment.h): whom a held first pass
 * waits for, when it may start, and what a lost START costs (a member's contribution stands in
 * for it).
 */

#include "ns3/round-alignment.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(RoundAlignment, NoNoticeNoWait)
{
    RoundAlignment alignment;
    EXPECT_FALSE(alignment.IsWaiting(1));
    EXPECT_EQ(alignment.GetNotBefore(1), Time(0));
}

TEST(RoundAlignment, WaitsForEveryLateMemberThenStartsAtTheLatestAnnouncedTime)
{
    RoundAlignment alignment;
    alignment.NoteLate(1, 3);
    alignment.NoteLate(1, 5);
    EXPECT_TRUE(alignment.IsWaiting(1));
    EXPECT_FALSE(alignment.IsWaiting(2)); // another round
    alignment.NoteStart(1, 5, MilliSeconds(700));
    EXPECT_TRUE(alignment.IsWaiting(1)); // 3 has not announced yet
    alignment.NoteStart(1, 3, MilliSeconds(650));
    EXPECT_FALSE(alignment.IsWaiting(1));
    EXPECT_EQ(alignment.GetNotBefore(1), MilliSeconds(700));
}

TEST(RoundAlignment, AStartBeforeItsLateNoticeIsNotWaitedForAgain)
{
    RoundAlignment alignment;
    alignment.NoteStart(1, 3, MilliSeconds(400)); // reordered: START overtook LATE
    alignment.NoteLate(1, 3);
    EXPECT_FALSE(alignment.IsWaiting(1));
    EXPECT_EQ(alignment.GetNotBefore(1), MilliSeconds(400));
}

TEST(RoundAlignment, AContributionStandsInForALostStart)
{
    RoundAlignment alignment;
    alignment.NoteLate(1, 3);
    alignment.NoteLate(1, 5);
    alignment.NoteStart(1, 5, MilliSeconds(700));
    // Every copy of 3's START was lost, but a chunk it contributed to arrived: it has started.
    alignment.NoteContribution(1, 3);
    EXPECT_FALSE(alignment.IsWaiting(1));
    EXPECT_EQ(alignment.GetNotBefore(1), MilliSeconds(700)); // 3's start is past: no later
    // Its START arriving after all changes nothing either.
    alignment.NoteStart(1, 3, MilliSeconds(690));
    EXPECT_EQ(alignment.GetNotBefore(1), MilliSeconds(700));
}

TEST(RoundAlignment, ContributionsOfOthersOrOtherRoundsDoNotRelease)
{
    RoundAlignment alignment;
    alignment.NoteLate(1, 3);
    alignment.NoteContribution(1, 4); // 4 was never late
    alignment.NoteContribution(2, 3); // the next round's data
    alignment.NoteContribution(0, 3); // the round before's
    EXPECT_TRUE(alignment.IsWaiting(1));
    // A member that was never awaited is not remembered as started either: its LATE, if it
    // comes after, is waited for.
    alignment.NoteLate(1, 4);
    EXPECT_TRUE(alignment.IsWaiting(1));
}

TEST(RoundAlignment, AnnouncesOncePerRoundAndForgetsPastRounds)
{
    RoundAlignment alignment;
    EXPECT_TRUE(alignment.Announce(1));
    EXPECT_FALSE(alignment.Announce(1));
    EXPECT_TRUE(alignment.HasAnnounced(1));
    EXPECT_FALSE(alignment.HasAnnounced(2));
    alignment.NoteLate(1, 3);
    alignment.NoteLate(2, 3);
    alignment.ForgetBefore(2);
    EXPECT_FALSE(alignment.HasAnnounced(1));
    EXPECT_FALSE(alignment.IsWaiting(1));
    EXPECT_TRUE(alignment.IsWaiting(2));
}
