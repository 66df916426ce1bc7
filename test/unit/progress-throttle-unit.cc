/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of when a progress line is due (helper/progress-throttle.h): never with a period of
 * 0, not before a period has passed since Start() or the last line, and at once after one has.
 */

#include "ns3/progress-throttle.h"

#include <chrono>
#include <gtest/gtest.h>
#include <thread>

using namespace ns3;

namespace
{

/** A pause, s: periods below it have passed after it. */
constexpr double PAUSE_S = 0.05;
/** The pause, for sleep_for. */
constexpr auto PAUSE = std::chrono::milliseconds(50);
/** A period no test waits out. */
constexpr double HOUR_S = 3600;

TEST(ProgressThrottle, PeriodZeroOrLessPrintsNothing)
{
    ProgressThrottle off;
    off.Start();
    std::this_thread::sleep_for(PAUSE);
    EXPECT_FALSE(off.IsOn());
    EXPECT_FALSE(off.TakeTurn());
    off.SetPeriod(-1);
    EXPECT_FALSE(off.IsOn());
    EXPECT_FALSE(off.TakeTurn());
}

TEST(ProgressThrottle, ALineIsDueOncePerPeriodFromTheLastLine)
{
    ProgressThrottle throttle;
    throttle.SetPeriod(HOUR_S);
    ASSERT_TRUE(throttle.IsOn());
    throttle.Start();
    EXPECT_FALSE(throttle.TakeTurn()); // no period since Start()
    std::this_thread::sleep_for(PAUSE);
    throttle.SetPeriod(PAUSE_S / 5);
    EXPECT_TRUE(throttle.TakeTurn());
    // 0.8 pauses: passed since Start(), not since the line just taken.
    throttle.SetPeriod(PAUSE_S * 0.8);
    EXPECT_FALSE(throttle.TakeTurn());
    std::this_thread::sleep_for(PAUSE);
    EXPECT_TRUE(throttle.TakeTurn());
    EXPECT_GE(throttle.GetElapsedSeconds(), 2 * PAUSE_S);
}

TEST(ProgressThrottle, StartRestartsTheClock)
{
    ProgressThrottle throttle;
    throttle.SetPeriod(HOUR_S);
    throttle.Start();
    std::this_thread::sleep_for(PAUSE);
    const double before = throttle.GetElapsedSeconds();
    EXPECT_GE(before, PAUSE_S);
    throttle.Start();
    EXPECT_LT(throttle.GetElapsedSeconds(), before);
    throttle.SetPeriod(PAUSE_S * 0.8);
    EXPECT_FALSE(throttle.TakeTurn()); // a pause since the first Start(), not since this one
}

} // namespace
