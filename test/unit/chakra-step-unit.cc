/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ChakraStep: a rank's step timed from its trace, against times worked out by hand.
 */

#include "ns3/chakra-step.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace
{

using ns3::ChakraCollective;
using ns3::ChakraNode;
using ns3::ChakraNodeType;
using ns3::ChakraStep;
using ns3::ChakraTrace;
using ns3::ChakraTraceError;
using ns3::MicroSeconds;

/** \return a compute node \param id its id \param micros its duration \param deps data deps */
ChakraNode
Compute(uint64_t id, uint64_t micros, std::vector<uint64_t> deps)
{
    ChakraNode node;
    node.id = id;
    node.name = "compute_" + std::to_string(id);
    node.type = ChakraNodeType::COMP_NODE;
    node.durationMicros = micros;
    node.dataDeps = std::move(deps);
    return node;
}

/**
 * \return a collective node \param id its id \param type its collective \param bytes comm_size
 * \param deps data deps
 */
ChakraNode
Collective(uint64_t id, ChakraCollective type, uint64_t bytes, std::vector<uint64_t> deps)
{
    ChakraNode node;
    node.id = id;
    node.name = "collective_" + std::to_string(id);
    node.type = ChakraNodeType::COMM_COLL_NODE;
    node.commType = type;
    node.commSize = bytes;
    node.dataDeps = std::move(deps);
    return node;
}

/** \param nodes the nodes \return the error ChakraStep refuses them with ("" if none) */
std::string
Refusal(std::vector<ChakraNode> nodes)
{
    try
    {
        ChakraStep step(ChakraTrace("t.et", "0.0.4", std::move(nodes)));
    }
    catch (const ChakraTraceError& e)
    {
        return e.what();
    }
    return "";
}

// examples/traces/tiny-dp (its README, by hand): four layers of 657 us forward and 1313 us
// backward; the first bucket after the backward of layers 3 and 2, the second at the end.
TEST(ChakraStep, TheCommittedTinyTraceAsWorkedOutByHand)
{
    const ChakraStep step(ChakraTrace::Read("examples/traces/tiny-dp.0.et"));
    EXPECT_EQ(step.GetComputeTime(), MicroSeconds(4 * 657 + 4 * 1313));
    ASSERT_EQ(step.GetSyncs().size(), 2u);
    EXPECT_EQ(step.GetSyncs()[0].name, "all_reduce_bucket_0");
    EXPECT_EQ(step.GetSyncs()[0].bytes, 200000000u);
    EXPECT_EQ(step.GetSyncs()[0].ready, MicroSeconds(4 * 657 + 2 * 1313));
    EXPECT_EQ(step.GetSyncs()[1].ready, MicroSeconds(4 * 657 + 4 * 1313));
    EXPECT_EQ(step.GetSyncBytes(), 400000000u);
}

// Two branches share one device: compute runs one node at a time, in dependency order, so a
// node ready early waits for the device; syncs are issued by ready time, whatever their file
// order; an all-gather and metadata take no time.
TEST(ChakraStep, ComputeSharesTheDeviceAndSyncsGoInReadyOrder)
{
    ChakraNode metadata;
    metadata.id = 9;
    metadata.type = ChakraNodeType::METADATA_NODE;
    std::vector<ChakraNode> nodes = {
        Compute(1, 100, {}),                                     // 0 .. 100
        Compute(2, 50, {}),                                      // 100 .. 150 (device busy)
        Collective(3, ChakraCollective::ALL_REDUCE, 40, {2}),    // ready 150
        Collective(4, ChakraCollective::REDUCE_SCATTER, 8, {1}), // ready 100
        Collective(5, ChakraCollective::ALL_GATHER, 8, {1}),     // no time, no sync
        Compute(6, 30, {5}),                                     // 150 .. 180
        metadata,
    };
    nodes[6].dataDeps = {6};
    const ChakraStep step(ChakraTrace("t.et", "0.0.4", nodes));
    EXPECT_EQ(step.GetComputeTime(), MicroSeconds(180));
    ASSERT_EQ(step.GetSyncs().size(), 2u);
    EXPECT_EQ(step.GetSyncs()[0].nodeId, 4u);
    EXPECT_EQ(step.GetSyncs()[0].ready, MicroSeconds(100));
    EXPECT_EQ(step.GetSyncs()[1].nodeId, 3u);
    EXPECT_EQ(step.GetSyncs()[1].ready, MicroSeconds(150));
    EXPECT_EQ(step.GetSyncBytes(), 48u);
}

// A sync found late in the dependency order (behind a chain of metadata) but ready early goes
// first: X 0-100, Y 100-150, Z 150-160; A is ready at 100 (X, through M1-M3), B at 160 (Z).
TEST(ChakraStep, SyncsAreIssuedByReadyTimeNotByDiscovery)
{
    ChakraNode m1;
    m1.id = 4;
    m1.type = ChakraNodeType::METADATA_NODE;
    m1.dataDeps = {1};
    ChakraNode m2 = m1;
    m2.id = 5;
    m2.dataDeps = {4};
    ChakraNode m3 = m1;
    m3.id = 6;
    m3.dataDeps = {5};
    const ChakraStep step(ChakraTrace("t.et",
                                      "0.0.4",
                                      {Compute(1, 100, {}),
                                       Compute(2, 50, {}),
                                       Compute(3, 10, {2}),
                                       m1,
                                       m2,
                                       m3,
                                       Collective(7, ChakraCollective::ALL_REDUCE, 8, {6}),
                                       Collective(8, ChakraCollective::ALL_REDUCE, 8, {3})}));
    ASSERT_EQ(step.GetSyncs().size(), 2u);
    EXPECT_EQ(step.GetSyncs()[0].nodeId, 7u);
    EXPECT_EQ(step.GetSyncs()[0].ready, MicroSeconds(100));
    EXPECT_EQ(step.GetSyncs()[1].nodeId, 8u);
    EXPECT_EQ(step.GetSyncs()[1].ready, MicroSeconds(160));
}

TEST(ChakraStep, WhatAStepCannotHoldIsNamed)
{
    // Compute after a synchronisation, directly and through an all-gather.
    EXPECT_EQ(Refusal({Compute(1, 10, {}),
                       Collective(2, ChakraCollective::ALL_REDUCE, 8, {1}),
                       Compute(3, 10, {2})}),
              "t.et: node 2 (id 3): data_deps: compute after a synchronisation (through node 2) "
              "is not modelled: a round's compute comes before its exchanges end");
    EXPECT_EQ(Refusal({Compute(1, 10, {}),
                       Collective(2, ChakraCollective::REDUCE_SCATTER, 8, {1}),
                       Collective(3, ChakraCollective::ALL_GATHER, 8, {2}),
                       Compute(4, 10, {3})}),
              "t.et: node 3 (id 4): data_deps: compute after a synchronisation (through node 3) "
              "is not modelled: a round's compute comes before its exchanges end");
    ChakraNode send = Compute(2, 1, {});
    send.type = ChakraNodeType::COMM_SEND_NODE;
    EXPECT_EQ(Refusal({Compute(1, 10, {}), send}),
              "t.et: node 1 (id 2): type: COMM_SEND_NODE is no part of a data-parallel step "
              "here (compute, collectives and metadata only)");
    EXPECT_EQ(Refusal({Collective(1, ChakraCollective::BROADCAST, 8, {})}),
              "t.et: node 0 (id 1): comm_type: BROADCAST: a data-parallel step here "
              "synchronises with ALL_REDUCE or REDUCE_SCATTER (and ALL_GATHER)");
    EXPECT_EQ(Refusal({Collective(1, ChakraCollective::ALL_REDUCE, 0, {})}),
              "t.et: node 0 (id 1): comm_size: 0 bytes: nothing to synchronise");
    EXPECT_EQ(Refusal({Compute(1, 10, {})}),
              "t.et: no ALL_REDUCE or REDUCE_SCATTER node: a data-parallel step synchronises "
              "its gradients at least once");
}

// Buckets are one island's update, at most ChunkLayout::MAX_MODEL_BYTES = 4 x (2^32 - 1) =
// 17,179,869,180 bytes in all; a step's compute ends within ns-3's Time, 9.2e9 s. Both were
// once passed on unchecked: a 20 GB bucket aborted the application, a duration of 2^63 - 1 us
// wrapped to 0 and chained ones were cut at the limit.
TEST(ChakraStep, BucketsAndComputeBeyondWhatARoundHoldsAreNamed)
{
    const uint64_t maxBytes = 4ULL * 4294967295ULL; // 17179869180
    const std::string tooMany = " bytes: the step's buckets would sum to more than 17179869180 "
                                "bytes (the most a 32-bit element index covers: 2^32 - 1 int32 "
                                "elements, ChunkLayout::MAX_MODEL_BYTES)";
    EXPECT_EQ(Refusal({Collective(1, ChakraCollective::ALL_REDUCE, 20000000000ULL, {})}),
              "t.et: node 0 (id 1): comm_size: 20000000000" + tooMany);
    EXPECT_EQ(Refusal({Collective(1, ChakraCollective::ALL_REDUCE, UINT64_MAX, {})}),
              "t.et: node 0 (id 1): comm_size: 18446744073709551615" + tooMany);
    // Two buckets within the limit each, not together: the second is named.
    EXPECT_EQ(Refusal({Collective(1, ChakraCollective::ALL_REDUCE, 10000000000ULL, {}),
                       Collective(2, ChakraCollective::REDUCE_SCATTER, 10000000000ULL, {1})}),
              "t.et: node 1 (id 2): comm_size: 10000000000" + tooMany);
    // Exactly the limit is a step.
    EXPECT_EQ(Refusal({Collective(1, ChakraCollective::ALL_REDUCE, maxBytes - 1, {}),
                       Collective(2, ChakraCollective::ALL_REDUCE, 1, {1})}),
              "");

    const std::string tooLong =
        " us: the step's compute would end too large for ns-3's Time (at most 9.2e9 s, 292 years)";
    EXPECT_EQ(Refusal({Compute(1, 9223372036854775807ULL, {}),
                       Collective(2, ChakraCollective::ALL_REDUCE, 8, {1})}),
              "t.et: node 0 (id 1): duration_micros: 9223372036854775807" + tooLong);
    // 9e15 us = 9e9 s fits; a second one after it would end at 1.8e10 s.
    EXPECT_EQ(Refusal({Compute(1, 9000000000000000ULL, {}),
                       Compute(2, 9000000000000000ULL, {1}),
                       Collective(3, ChakraCollective::ALL_REDUCE, 8, {2})}),
              "t.et: node 1 (id 2): duration_micros: 9000000000000000" + tooLong);
    const ChakraStep longest(ChakraTrace("t.et",
                                         "0.0.4",
                                         {Compute(1, 9200000000000000ULL, {}),
                                          Collective(2, ChakraCollective::ALL_REDUCE, 8, {1})}));
    EXPECT_EQ(longest.GetComputeTime(), ns3::Seconds(9.2e9));
}

} // namespace
