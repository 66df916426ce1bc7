/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of TrainingSupport (helper/training-support.h): the one place that says which
 * runs the module supports.
 */

#include "ns3/training-support.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/** \param run a request \return the message Check throws ("" if none) */
std::string
Thrown(const TrainingRunRequest& run)
{
    try
    {
        TrainingSupport::Check(run);
    }
    catch (const UnsupportedRunError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

// Everything is supported in one process but TCP with reduction trees; several ranks support
// the UDP transports with virtual payloads, with or without trees.
TEST(TrainingSupport, SupportedRunsPass)
{
    TrainingRunRequest one;
    one.realPayloads = true;
    one.crossTraffic = true;
    one.reductionTrees = true;
    EXPECT_EQ(TrainingSupport::Refusal(one), "");
    one.reductionTrees = false;
    one.tcp = true;
    EXPECT_EQ(TrainingSupport::Refusal(one), "");
    TrainingRunRequest ranks;
    ranks.processes = 4;
    ranks.reductionTrees = true;
    EXPECT_EQ(Thrown(ranks), "");
}

// Each rule refuses its run with a message naming the feature, the ranks and why.
TEST(TrainingSupport, EachRuleNamesTheFeature)
{
    TrainingRunRequest tcp;
    tcp.processes = 2;
    tcp.tcp = true;
    EXPECT_EQ(Thrown(tcp),
              "the tcp transport needs one process, not 2 MPI ranks: TCP segments carry their "
              "bytes, and packets crossing MPI ranks must be virtual");
    TrainingRunRequest real;
    real.processes = 3;
    real.realPayloads = true;
    EXPECT_EQ(Thrown(real).rfind("real payloads need one process, not 3 MPI ranks: ", 0), 0u);
    TrainingRunRequest cross;
    cross.processes = 2;
    cross.crossTraffic = true;
    EXPECT_EQ(Thrown(cross),
              "cross traffic needs one process, not 2 MPI ranks: its goodput is read from every "
              "sink at the end");
    TrainingRunRequest trees;
    trees.tcp = true;
    trees.reductionTrees = true;
    EXPECT_EQ(Thrown(trees).rfind("the tcp transport has no reduction trees (TREE)", 0), 0u);
    // One error type, an invalid_argument as TrainingHelper threw before.
    EXPECT_THROW(TrainingSupport::Check(trees), std::invalid_argument);
}

// Update formats: int8 and int4 run in every clique over any transport (TREE not over tcp, as
// int32); bf16 and top-k only DIRECT; real payloads in every format but top-k.
TEST(TrainingSupport, FormatRules)
{
    const auto request = [](const std::string& format) {
        TrainingRunRequest run;
        TrainingSupport::NoteFormat(ns3::UpdateFormat::FromString(format), run);
        return run;
    };
    TrainingRunRequest int8 = request("int8");
    EXPECT_TRUE(int8.compressed && int8.fixedPoint && !int8.sparse);
    int8.ringAllReduce = true;
    int8.tcp = true;
    int8.realPayloads = true;
    EXPECT_EQ(TrainingSupport::Refusal(int8), "");
    int8.tcp = false;
    int8.reductionTrees = true;
    EXPECT_EQ(TrainingSupport::Refusal(int8), "");
    TrainingRunRequest bf16 = request("bf16");
    EXPECT_TRUE(bf16.compressed && !bf16.fixedPoint && !bf16.sparse);
    bf16.realPayloads = true;
    bf16.tcp = true;
    EXPECT_EQ(TrainingSupport::Refusal(bf16), "");
    bf16.ringAllReduce = true;
    EXPECT_EQ(Thrown(bf16).rfind("bf16 and top-k updates are exchanged in DIRECT cliques", 0), 0u);
    TrainingRunRequest topk = request("topk:0.01");
    EXPECT_TRUE(topk.sparse);
    EXPECT_EQ(TrainingSupport::Refusal(topk), "");
    // Real top-k sums changes: islands must start together and average in global cliques.
    topk.realPayloads = true;
    EXPECT_NE(Thrown(topk).find("(--sharedStart=true)"), std::string::npos);
    topk.sharedStart = true;
    EXPECT_EQ(TrainingSupport::Refusal(topk), "");
    TrainingSupport::NoteAlgorithms(CliqueSchedule::GlobalClique(4), topk);
    EXPECT_EQ(TrainingSupport::Refusal(topk), "");
    TrainingSupport::NoteAlgorithms(CliqueSchedule::GossipPairs(4), topk);
    EXPECT_NE(Thrown(topk).find("(use --schedule=global)"), std::string::npos);
    // A schedule naming int8 for a round of an int32 run: virtual payloads only.
    TrainingRunRequest mixed = request("int32");
    CliqueSchedule schedule = CliqueSchedule::GlobalClique(3);
    schedule.SetFormat(0, ns3::UpdateFormat::FromString("int8"));
    TrainingSupport::NoteFormats(schedule, ns3::UpdateFormat(), mixed);
    EXPECT_TRUE(mixed.compressed && mixed.mixedFormats);
    EXPECT_EQ(TrainingSupport::Refusal(mixed), "");
    mixed.realPayloads = true;
    EXPECT_EQ(Thrown(mixed).rfind("update formats that vary by round travel as sizes only", 0), 0u);
    TrainingRunRequest int32 = request("int32");
    EXPECT_FALSE(int32.compressed || int32.sparse);
    int32.reductionTrees = true;
    EXPECT_EQ(TrainingSupport::Refusal(int32), "");
}

// Rounds in fragments run over the planned or adaptive transport with virtual payloads.
TEST(TrainingSupport, FragmentRules)
{
    TrainingRunRequest fragments;
    fragments.fragments = true;
    EXPECT_EQ(TrainingSupport::Refusal(fragments), "");
    fragments.tcp = true;
    EXPECT_EQ(Thrown(fragments).rfind("rounds in fragments run over the planned or adaptive", 0),
              0u);
    fragments.tcp = false;
    fragments.realPayloads = true;
    EXPECT_EQ(Thrown(fragments).rfind("rounds in fragments run over the planned or adaptive", 0),
              0u);
}
