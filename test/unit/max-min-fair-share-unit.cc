/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of MaxMinFairShare: classic hand-computed examples, weighted (FPGA) usages, and a
 * brute-force lexicographic search on a rate grid.
 */

#include "ns3/max-min-fair-share.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <stdexcept>

using namespace ns3;

namespace
{
constexpr double TOL = 1e-9;
} // namespace

TEST(MaxMinFairShare, OneLinkSharedEqually)
{
    MaxMinFairShare mm;
    uint32_t link = mm.AddResource(10);
    for (int i = 0; i < 3; ++i)
    {
        mm.AddFlow({{link, 1}});
    }
    auto rate = mm.Solve();
    ASSERT_EQ(rate.size(), 3u);
    for (double r : rate)
    {
        EXPECT_NEAR(r, 10.0 / 3.0, TOL);
    }
}

TEST(MaxMinFairShare, ParkingLot)
{
    // Two unit links in series; the long flow crosses both, one short flow on each.
    MaxMinFairShare mm;
    uint32_t l1 = mm.AddResource(1);
    uint32_t l2 = mm.AddResource(1);
    mm.AddFlow({{l1, 1}, {l2, 1}});
    mm.AddFlow({{l1, 1}});
    mm.AddFlow({{l2, 1}});
    auto rate = mm.Solve();
    EXPECT_NEAR(rate[0], 0.5, TOL);
    EXPECT_NEAR(rate[1], 0.5, TOL);
    EXPECT_NEAR(rate[2], 0.5, TOL);
}

TEST(MaxMinFairShare, BottleneckFreesCapacityElsewhere)
{
    // L2 (4) saturates first at 2 per flow; the flow alone on L1 (10) then takes 10 - 2 = 8.
    MaxMinFairShare mm;
    uint32_t l1 = mm.AddResource(10);
    uint32_t l2 = mm.AddResource(4);
    mm.AddFlow({{l1, 1}, {l2, 1}});
    mm.AddFlow({{l1, 1}});
    mm.AddFlow({{l2, 1}});
    auto rate = mm.Solve();
    EXPECT_NEAR(rate[0], 2, TOL);
    EXPECT_NEAR(rate[1], 8, TOL);
    EXPECT_NEAR(rate[2], 2, TOL);
}

TEST(MaxMinFairShare, ThreeLevels)
{
    // A: L1 only (cap 3, shared with B), B: L1+L2, C: L2 (cap 10) + L3 (cap 1).
    // Level 1: L3 saturates at 1 -> C = 1. Level 2: L1 at 1.5 -> A = B = 1.5.
    MaxMinFairShare mm;
    uint32_t l1 = mm.AddResource(3);
    uint32_t l2 = mm.AddResource(10);
    uint32_t l3 = mm.AddResource(1);
    mm.AddFlow({{l1, 1}});
    mm.AddFlow({{l1, 1}, {l2, 1}});
    mm.AddFlow({{l2, 1}, {l3, 1}});
    auto rate = mm.Solve();
    EXPECT_NEAR(rate[0], 1.5, TOL);
    EXPECT_NEAR(rate[1], 1.5, TOL);
    EXPECT_NEAR(rate[2], 1.0, TOL);
}

TEST(MaxMinFairShare, FpgaWeightedIngress)
{
    // Three senders (egress 10 each) into one island whose FPGA folds the three streams into
    // one: each stream uses 1/3 of the 9-unit ingress, so all three run at 9, not 3.
    MaxMinFairShare mm;
    uint32_t ingress = mm.AddResource(9);
    for (int i = 0; i < 3; ++i)
    {
        uint32_t egress = mm.AddResource(10);
        mm.AddFlow({{egress, 1}, {ingress, 1.0 / 3.0}});
    }
    auto rate = mm.Solve();
    for (double r : rate)
    {
        EXPECT_NEAR(r, 9, TOL);
    }
}

TEST(MaxMinFairShare, MergesRepeatedResourcesAndHandlesEmptyFlows)
{
    MaxMinFairShare mm;
    uint32_t l = mm.AddResource(6);
    uint32_t f0 = mm.AddFlow({{l, 1}, {l, 1}}); // counts twice: rate 6 / (2 + 1) = 2
    mm.AddFlow({{l, 1}});
    uint32_t free = mm.AddFlow({});
    ASSERT_EQ(mm.GetFlowUsages(f0).size(), 1u);
    EXPECT_DOUBLE_EQ(mm.GetFlowUsages(f0)[0].second, 2.0);
    auto rate = mm.Solve();
    EXPECT_NEAR(rate[0], 2, TOL);
    EXPECT_NEAR(rate[1], 2, TOL);
    EXPECT_TRUE(std::isinf(rate[free]));
}

TEST(MaxMinFairShare, FlowsKeepTheirOwnUsagesAndClearStartsAfresh)
{
    // Flows are stored one after another; each keeps its merged usages in order of first use,
    // a repeat in one flow does not leak into the next, and the flows of a resource are found
    // whatever their position.
    MaxMinFairShare mm;
    uint32_t a = mm.AddResource(12);
    uint32_t b = mm.AddResource(4);
    uint32_t c = mm.AddResource(30);
    uint32_t f0 = mm.AddFlow({{c, 1}, {a, 0.5}, {c, 1}});
    uint32_t f1 = mm.AddFlow({});
    uint32_t f2 = mm.AddFlow({{b, 1}, {a, 1}, {b, 0}});
    uint32_t f3 = mm.AddFlow({{a, 1}});
    using U = std::vector<MaxMinFairShare::Usage>;
    EXPECT_EQ(mm.GetFlowUsages(f0), (U{{c, 2.0}, {a, 0.5}}));
    EXPECT_TRUE(mm.GetFlowUsages(f1).empty());
    EXPECT_EQ(mm.GetFlowUsages(f2), (U{{b, 1.0}, {a, 1.0}}));
    EXPECT_EQ(mm.GetFlowUsages(f3), (U{{a, 1.0}}));
    EXPECT_THROW(mm.GetFlowUsages(4), std::out_of_range);
    // By hand: b holds f2 at 4; a then has 12 - 4 = 8 for f3 (weight 1) and f0 (weight 0.5),
    // so both reach 8 / 1.5 = 16/3, and f0 uses 2 x 16/3 of c's 30 (not saturated).
    auto rate = mm.Solve();
    EXPECT_NEAR(rate[f0], 16.0 / 3, TOL);
    EXPECT_TRUE(std::isinf(rate[f1]));
    EXPECT_NEAR(rate[f2], 4, TOL);
    EXPECT_NEAR(rate[f3], 16.0 / 3, TOL);

    mm.Clear();
    EXPECT_EQ(mm.GetFlowCount(), 0u);
    uint32_t l = mm.AddResource(6);
    uint32_t g = mm.AddFlow({{l, 1}, {l, 2}});
    EXPECT_EQ(mm.GetFlowUsages(g), (U{{l, 3.0}}));
    EXPECT_NEAR(mm.Solve()[g], 2, TOL);
}

TEST(MaxMinFairShare, ZeroCapacityGivesZeroRate)
{
    MaxMinFairShare mm;
    uint32_t dead = mm.AddResource(0);
    uint32_t live = mm.AddResource(5);
    mm.AddFlow({{dead, 1}, {live, 1}});
    mm.AddFlow({{live, 1}});
    auto rate = mm.Solve();
    EXPECT_NEAR(rate[0], 0, TOL);
    EXPECT_NEAR(rate[1], 5, TOL);
}

/**
 * Brute force: with integer capacities and unit weights, the max-min fair rates of 3 flows are
 * multiples of 1/6 (each level divides a capacity remainder by 1, 2 or 3 flows). Enumerate every
 * feasible allocation on that grid and keep the lexicographically largest sorted rate vector.
 */
TEST(MaxMinFairShare, MatchesBruteForceOnRandomInstances)
{
    std::mt19937 rng(12345);
    const int grid = 6;
    for (int instance = 0; instance < 60; ++instance)
    {
        int nr = 1 + static_cast<int>(rng() % 3);
        std::vector<int> cap(nr);
        for (auto& c : cap)
        {
            c = 1 + static_cast<int>(rng() % 5);
        }
        const int nf = 3;
        std::vector<std::vector<int>> uses(nf);
        for (int f = 0; f < nf; ++f)
        {
            for (int r = 0; r < nr; ++r)
            {
                if (rng() % 2)
                {
                    uses[f].push_back(r);
                }
            }
            if (uses[f].empty())
            {
                uses[f].push_back(static_cast<int>(rng() % nr));
            }
        }
        MaxMinFairShare mm;
        for (int c : cap)
        {
            mm.AddResource(c);
        }
        for (const auto& u : uses)
        {
            std::vector<MaxMinFairShare::Usage> usage;
            for (int r : u)
            {
                usage.emplace_back(r, 1.0);
            }
            mm.AddFlow(usage);
        }
        auto rate = mm.Solve();

        int maxUnits = grid * 5;
        std::vector<int> best;
        std::vector<int> bestAlloc;
        std::vector<int> a(nf, 0);
        for (a[0] = 0; a[0] <= maxUnits; ++a[0])
        {
            for (a[1] = 0; a[1] <= maxUnits; ++a[1])
            {
                for (a[2] = 0; a[2] <= maxUnits; ++a[2])
                {
                    bool feasible = true;
                    for (int r = 0; r < nr && feasible; ++r)
                    {
                        int load = 0;
                        for (int f = 0; f < nf; ++f)
                        {
                            if (std::find(uses[f].begin(), uses[f].end(), r) != uses[f].end())
                            {
                                load += a[f];
                            }
                        }
                        feasible = load <= cap[r] * grid;
                    }
                    if (!feasible)
                    {
                        continue;
                    }
                    std::vector<int> sorted = a;
                    std::sort(sorted.begin(), sorted.end());
                    if (best.empty() || sorted > best)
                    {
                        best = sorted;
                        bestAlloc = a;
                    }
                }
            }
        }
        for (int f = 0; f < nf; ++f)
        {
            EXPECT_NEAR(rate[f], bestAlloc[f] / static_cast<double>(grid), TOL)
                << "instance " << instance << " flow " << f;
        }
    }
}

/**
 * Larger random weighted instances: the result must be feasible and every flow must have a
 * bottleneck (a saturated resource on which no other flow is faster), which characterises the
 * max-min fair allocation.
 */
TEST(MaxMinFairShare, BottleneckPropertyOnWeightedInstances)
{
    std::mt19937 rng(777);
    for (int instance = 0; instance < 40; ++instance)
    {
        int nr = 2 + static_cast<int>(rng() % 8);
        int nf = 1 + static_cast<int>(rng() % 12);
        MaxMinFairShare mm;
        std::vector<double> cap(nr);
        for (auto& c : cap)
        {
            c = 1 + rng() % 100;
            mm.AddResource(c);
        }
        std::vector<std::vector<std::pair<int, double>>> uses(nf);
        for (int f = 0; f < nf; ++f)
        {
            std::vector<MaxMinFairShare::Usage> usage;
            for (int r = 0; r < nr; ++r)
            {
                if (rng() % 3 == 0)
                {
                    double w = 1.0 / (1 + rng() % 4);
                    usage.emplace_back(r, w);
                    uses[f].emplace_back(r, w);
                }
            }
            if (usage.empty())
            {
                usage.emplace_back(0, 1.0);
                uses[f].emplace_back(0, 1.0);
            }
            mm.AddFlow(usage);
        }
        auto rate = mm.Solve();
        std::vector<double> load(nr, 0);
        for (int f = 0; f < nf; ++f)
        {
            for (auto [r, w] : uses[f])
            {
                load[r] += w * rate[f];
            }
        }
        for (int r = 0; r < nr; ++r)
        {
            EXPECT_LE(load[r], cap[r] * (1 + 1e-9));
        }
        for (int f = 0; f < nf; ++f)
        {
            bool hasBottleneck = false;
            for (auto [r, w] : uses[f])
            {
                if (load[r] < cap[r] * (1 - 1e-9))
                {
                    continue;
                }
                bool fastest = true;
                for (int g = 0; g < nf; ++g)
                {
                    for (auto [r2, w2] : uses[g])
                    {
                        if (r2 == r && rate[g] > rate[f] * (1 + 1e-9))
                        {
                            fastest = false;
                        }
                    }
                }
                hasBottleneck = hasBottleneck || fastest;
            }
            EXPECT_TRUE(hasBottleneck) << "instance " << instance << " flow " << f;
        }
    }
}
