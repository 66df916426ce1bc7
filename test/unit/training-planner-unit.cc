/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of TrainingPlanner::PlanRound (helper/training-planner.h), the pure planning step
 * of TrainingHelper::Install: a hand-made cost-model plan in, each island's round config out.
 */

#include "ns3/training-planner.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/** Four islands at 10.0.0.1 .. 10.0.0.4, named A .. D. */
struct FourIslands
{
    std::vector<Ipv4Address> addresses{Ipv4Address("10.0.0.1"),
                                       Ipv4Address("10.0.0.2"),
                                       Ipv4Address("10.0.0.3"),
                                       Ipv4Address("10.0.0.4")};
    std::vector<std::string> names{"A", "B", "C", "D"};
    TrainingRoundGroups groups;

    FourIslands()
    {
        groups.group.assign(4, Ipv4Address());
        groups.capable.assign(4, false);
        groups.refusal.assign(4, "");
    }
};

/** \return a stream of \p sender to \p receivers at \p rate, DIRECT unless told */
SyncStream
Stream(uint32_t sender, std::vector<uint32_t> receivers, bool multicast, double rate)
{
    SyncStream s;
    s.sender = sender;
    s.receivers = receivers;
    s.multicast = multicast;
    s.rateBps = rate;
    return s;
}

} // namespace

// A DIRECT clique {2, 0, 1} and a lone island 3: members sorted, clique index, the plan's sync
// time; a capable multicast stream stays one stream to its group, a unicast stream becomes one
// stream per receiver to its address, each with the plan's rate and resend weight.
TEST(TrainingPlanner, DirectStreamsBecomeOneMulticastOrOneUnicastPerReceiver)
{
    FourIslands net;
    net.groups.group[0] = Ipv4Address("239.0.0.7");
    net.groups.capable[0] = true;
    SyncRoundEstimate plan;
    plan.syncTime = 0.5;
    SyncStream multicast = Stream(0, {1, 2}, true, 1e9);
    multicast.resendWeight = 2;
    plan.streams = {multicast, Stream(1, {0, 2}, false, 5e8)};
    const Partition partition = {{2, 0, 1}, {3}};
    const auto configs = TrainingPlanner::PlanRound(partition,
                                                    {SyncAlgorithm::DIRECT, SyncAlgorithm::DIRECT},
                                                    plan,
                                                    net.groups,
                                                    net.addresses,
                                                    net.names,
                                                    0);
    ASSERT_EQ(configs.size(), 4u);
    for (uint32_t i : {0u, 1u, 2u})
    {
        EXPECT_EQ(configs[i].clique, 0u);
        EXPECT_EQ(configs[i].members, (std::vector<uint32_t>{0, 1, 2}));
        EXPECT_EQ(configs[i].algorithm, SyncAlgorithm::DIRECT);
        EXPECT_DOUBLE_EQ(configs[i].estimatedSyncTime, 0.5);
    }
    EXPECT_EQ(configs[3].clique, 1u);
    EXPECT_EQ(configs[3].members, (std::vector<uint32_t>{3}));
    EXPECT_TRUE(configs[3].streams.empty());

    ASSERT_EQ(configs[0].streams.size(), 1u);
    EXPECT_TRUE(configs[0].streams[0].multicast);
    EXPECT_EQ(configs[0].streams[0].destination, Ipv4Address("239.0.0.7"));
    EXPECT_EQ(configs[0].streams[0].receivers, (std::vector<uint32_t>{1, 2}));
    EXPECT_DOUBLE_EQ(configs[0].streams[0].rateBps, 1e9);
    EXPECT_DOUBLE_EQ(configs[0].streams[0].resendWeight, 2);

    ASSERT_EQ(configs[1].streams.size(), 2u);
    for (uint32_t s = 0; s < 2; ++s)
    {
        const uint32_t receiver = s == 0 ? 0 : 2;
        EXPECT_FALSE(configs[1].streams[s].multicast);
        EXPECT_EQ(configs[1].streams[s].receivers, (std::vector<uint32_t>{receiver}));
        EXPECT_EQ(configs[1].streams[s].destination, net.addresses[receiver]);
        EXPECT_DOUBLE_EQ(configs[1].streams[s].rateBps, 5e8);
        EXPECT_DOUBLE_EQ(configs[1].streams[s].resendWeight, 1);
    }
    EXPECT_TRUE(configs[2].streams.empty());
}

// RING streams give rates per step (a step the plan leaves out stays 0), no stream configs;
// a TREE clique's members all learn the plan's root.
TEST(TrainingPlanner, RingRatesPerStepAndTreeRoots)
{
    FourIslands net;
    SyncRoundEstimate plan;
    SyncStream late = Stream(1, {2}, false, 3e8);
    late.algorithm = SyncAlgorithm::RING;
    late.ringStep = 2;
    SyncStream first = Stream(1, {2}, false, 1e8);
    first.algorithm = SyncAlgorithm::RING;
    first.ringStep = 0;
    plan.streams = {late, first};
    plan.cliqueRoot = {0, 3};
    const Partition partition = {{0, 1}, {2, 3}};
    const auto configs = TrainingPlanner::PlanRound(partition,
                                                    {SyncAlgorithm::RING, SyncAlgorithm::TREE},
                                                    plan,
                                                    net.groups,
                                                    net.addresses,
                                                    net.names,
                                                    0);
    EXPECT_EQ(configs[1].ringRateBps, (std::vector<double>{1e8, 0, 3e8}));
    EXPECT_TRUE(configs[1].streams.empty());
    EXPECT_TRUE(configs[0].ringRateBps.empty());
    EXPECT_EQ(configs[2].algorithm, SyncAlgorithm::TREE);
    EXPECT_EQ(configs[2].root, 3u);
    EXPECT_EQ(configs[3].root, 3u);
    EXPECT_EQ(configs[0].root, 0u); // RING: no root (the default)
}

// A plan that multicasts an update the routers refuse is an error naming the round, the island
// and the routers' reason (unicast copies would overload the sender's access link).
TEST(TrainingPlanner, RefusedMulticastTreeIsAnErrorNamingIsland)
{
    FourIslands net;
    net.groups.refusal[2] = "router FRA cannot replicate";
    SyncRoundEstimate plan;
    plan.streams = {Stream(2, {0, 1}, true, 1e9)};
    try
    {
        TrainingPlanner::PlanRound({{0, 1, 2}},
                                   {SyncAlgorithm::DIRECT},
                                   plan,
                                   net.groups,
                                   net.addresses,
                                   net.names,
                                   7);
        FAIL() << "no error";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "TrainingHelper: round 7: the plan multicasts island C's update, but the "
                  "routers refuse its tree: router FRA cannot replicate");
    }
}
