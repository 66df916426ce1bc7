/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest units for TcpBaselineSet: the set-ups the TCP baseline runs, and the choice of the
 * fastest among runs that finished.
 */

#include "ns3/tcp-baseline-set.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/** \param timeToEpsilon its time to epsilon (negative: none) \param unfinished rounds left
 *  \return a summary with just these */
TrainingSummary
Summary(double timeToEpsilon, uint32_t unfinished = 0)
{
    TrainingSummary s;
    if (timeToEpsilon >= 0)
    {
        s.timeToEpsilon = timeToEpsilon;
    }
    s.unfinishedRounds = unfinished;
    return s;
}

} // namespace

TEST(TcpBaselineSet, CubicAndBbrWithOneAndEightConnections)
{
    std::vector<std::string> labels;
    for (const TcpBaseline& b : TcpBaselineSet::GetDefault())
    {
        labels.push_back(b.GetLabel());
    }
    EXPECT_EQ(labels,
              (std::vector<std::string>{"TcpCubic x1", "TcpCubic x8", "TcpBbr x1", "TcpBbr x8"}));
}

TEST(TcpBaselineSet, TheFastestOfThoseThatFinished)
{
    // The fastest run left a round unfinished: the next fastest that finished is the baseline.
    EXPECT_EQ(TcpBaselineSet::FindBest({Summary(3.0), Summary(1.0, 1), Summary(2.0)}),
              std::optional<size_t>(2));
    EXPECT_EQ(TcpBaselineSet::FindBest({Summary(3.0), Summary(1.5), Summary(2.0)}),
              std::optional<size_t>(1));
    // Equal times: the first.
    EXPECT_EQ(TcpBaselineSet::FindBest({Summary(2.0), Summary(2.0)}), std::optional<size_t>(0));
    // A run that never reaches epsilon is no baseline, nor is any when none finished.
    EXPECT_EQ(TcpBaselineSet::FindBest({Summary(-1), Summary(4.0)}), std::optional<size_t>(1));
    EXPECT_EQ(TcpBaselineSet::FindBest({Summary(1.0, 2), Summary(-1)}), std::nullopt);
    EXPECT_EQ(TcpBaselineSet::FindBest({}), std::nullopt);
}
