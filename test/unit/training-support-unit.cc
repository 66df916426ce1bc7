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
