/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Rounds run as steps read from Chakra traces (ChakraStep, TrainingHelper::SetStepPlans): two
 * islands, traces built node by node with known durations and bucket sizes, and the round's
 * compute, exposed and hidden sync worked out by hand from the links (each bucket's stream
 * serialised at the 10 Gbps access rate plus the path delay), then compared with the cost
 * model's replay.
 */

// ctest-suite: chakra-workload

#include "training-scenario.h"

#include "ns3/chakra-step.h"
#include "ns3/test.h"
#include "ns3/wan-command-line.h"

namespace ns3
{

using namespace training_test;

namespace
{

/**
 * \brief A data-parallel step: a forward node, then one backward node per bucket (the last
 *        layer first), each bucket's all-reduce behind its backward.
 * \param forwardMicros the forward \param backwardMicros each backward node
 * \param buckets each bucket's bytes, in backward order
 * \return the trace
 */
ChakraTrace
Step(uint64_t forwardMicros, uint64_t backwardMicros, const std::vector<uint64_t>& buckets)
{
    std::vector<ChakraNode> nodes;
    ChakraNode forward;
    forward.id = 0;
    forward.name = "forward";
    forward.type = ChakraNodeType::COMP_NODE;
    forward.durationMicros = forwardMicros;
    nodes.push_back(forward);
    for (size_t b = 0; b < buckets.size(); ++b)
    {
        ChakraNode backward = forward;
        backward.id = 2 * b + 1;
        backward.name = "backward_" + std::to_string(b);
        backward.durationMicros = backwardMicros;
        backward.dataDeps = {b == 0 ? 0 : 2 * b - 1};
        ChakraNode sync;
        sync.id = 2 * b + 2;
        sync.name = "all_reduce_" + std::to_string(b);
        sync.type = ChakraNodeType::COMM_COLL_NODE;
        sync.commType = ChakraCollective::ALL_REDUCE;
        sync.commSize = buckets[b];
        sync.dataDeps = {backward.id};
        nodes.push_back(backward);
        nodes.push_back(sync);
    }
    return ChakraTrace("step.et", "0.0.4", nodes);
}

/**
 * \param trace both islands' trace \return two islands, two rounds of it
 */
Setup
TwoIslands(const ChakraTrace& trace)
{
    const FragmentPlan plan = ChakraStep(trace).MakePlan();
    Setup setup;
    setup.cities = 2;
    setup.rounds = 2;
    setup.modelBytes = plan.GetModelBytes();
    setup.stepPlans = {plan, plan};
    return setup;
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief One bucket at the end of the step: no overlap. The compute phase is the trace's
 *        (2 + 3 ms), the whole exchange is exposed.
 */
class ChakraNoOverlapTestCase : public TestCase
{
  public:
    ChakraNoOverlapTestCase()
        : TestCase("a trace of one bucket after all compute: the exchange is exposed")
    {
    }

  private:
    void DoRun() override
    {
        const Setup setup = TwoIslands(Step(2000, 3000, {10000000}));
        const RunResult run = Simulate(setup);
        const double d = PairExchangeTime(10000000);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 4u, "two islands, two rounds");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "round " << r.round << " finished");
            NS_TEST_ASSERT_MSG_EQ(r.syncStart - r.computeStart,
                                  MicroSeconds(5000),
                                  "compute: the forward and the backward");
            NS_TEST_ASSERT_MSG_EQ_TOL((r.syncEnd - r.syncStart).GetSeconds(),
                                      d,
                                      0.02 * d,
                                      "exposed: the bucket, island " << r.island);
            NS_TEST_ASSERT_MSG_EQ(r.hiddenSync, Time(0), "nothing hidden");
            NS_TEST_ASSERT_MSG_EQ(r.bytesSent, StreamBytes(10000000), "one stream");
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(run.replayedExposed, d, 0.02 * d, "cost model, exposed");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Four buckets of different sizes (1, 2, 4 and 3 MB) behind four 10 ms backward
 *        nodes: each of the first three ends before the next is ready, so they are hidden; the
 *        last, ready when compute ends, is exposed. Each bucket is planned at its own bytes,
 *        so the cost model's replay matches too.
 */
class ChakraFullOverlapTestCase : public TestCase
{
  public:
    ChakraFullOverlapTestCase()
        : TestCase("a trace of four buckets behind backward compute: only the last is exposed")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<uint64_t> buckets = {1000000, 2000000, 4000000, 3000000};
        const Setup setup = TwoIslands(Step(1000, 10000, buckets));
        const RunResult run = Simulate(setup);
        const double hidden =
            PairExchangeTime(1000000) + PairExchangeTime(2000000) + PairExchangeTime(4000000);
        const double exposed = PairExchangeTime(3000000);
        NS_TEST_ASSERT_MSG_LT(PairExchangeTime(4000000), 0.01, "each bucket fits a backward node");
        uint64_t streams = 0;
        for (uint64_t b : buckets)
        {
            streams += StreamBytes(b);
        }
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "round " << r.round << " finished");
            NS_TEST_ASSERT_MSG_EQ(r.syncStart - r.computeStart,
                                  MicroSeconds(41000),
                                  "compute: 1 ms forward, four 10 ms backward");
            NS_TEST_ASSERT_MSG_EQ_TOL((r.syncEnd - r.syncStart).GetSeconds(),
                                      exposed,
                                      0.02 * exposed,
                                      "exposed: the last bucket, island " << r.island);
            NS_TEST_ASSERT_MSG_EQ_TOL(r.hiddenSync.GetSeconds(),
                                      hidden,
                                      0.02 * hidden,
                                      "hidden: the first three buckets");
            NS_TEST_ASSERT_MSG_EQ(r.bytesSent, streams, "a stream per bucket, of its bytes");
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(run.replayedExposed, exposed, 0.02 * exposed, "cost model");
        NS_TEST_ASSERT_MSG_EQ_TOL(run.replayedHidden, hidden, 0.02 * hidden, "cost model");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The committed generator trace examples/traces/tiny-dp (its README, by hand: 4 layers
 *        of 657 us forward and 1313 us backward, two 200 MB buckets ready at 5254 us and at the
 *        end of compute, 7880 us): the first bucket's exchange d outlasts the compute left
 *        behind it, so the second waits for it: exposed 5254 us + 2 d - 7880 us, hidden the
 *        2626 us of compute after the first launch.
 */
class ChakraGeneratedTraceTestCase : public TestCase
{
  public:
    ChakraGeneratedTraceTestCase()
        : TestCase("the generator's tiny-dp trace: the second bucket queues behind the first")
    {
    }

  private:
    void DoRun() override
    {
        const Setup setup = TwoIslands(
            ChakraTrace::Read(WanCommandLine::ResolveDataPath("examples/traces/tiny-dp.0.et")));
        const RunResult run = Simulate(setup);
        const double d = PairExchangeTime(200000000);
        const double exposed = 5254e-6 + 2 * d - 7880e-6;
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.syncStart - r.computeStart,
                                  MicroSeconds(7880),
                                  "compute: 4 x 657 + 4 x 1313 us");
            NS_TEST_ASSERT_MSG_EQ_TOL((r.syncEnd - r.syncStart).GetSeconds(),
                                      exposed,
                                      0.02 * exposed,
                                      "exposed, island " << r.island << " round " << r.round);
            NS_TEST_ASSERT_MSG_EQ_TOL(r.hiddenSync.GetSeconds(),
                                      2626e-6,
                                      0.02 * 2626e-6,
                                      "hidden: the compute after the first launch");
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(run.replayedExposed, exposed, 0.02 * exposed, "cost model");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Execution traces as workloads.
 */
class ChakraWorkloadTestSuite : public TestSuite
{
  public:
    ChakraWorkloadTestSuite()
        : TestSuite("chakra-workload")
    {
        AddTestCase(new ChakraNoOverlapTestCase());
        AddTestCase(new ChakraFullOverlapTestCase());
        AddTestCase(new ChakraGeneratedTraceTestCase());
    }
};

/** The suite's instance. */
static ChakraWorkloadTestSuite g_chakraWorkloadTestSuite;

} // namespace ns3
