/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Rounds synchronised in fragments (Streaming DiLoCo): FragmentPlan's arithmetic against hand
 * figures, and packet-level runs whose exposed and hidden sync are computed by hand from the
 * links (serialisation of each fragment's stream plus the path delay) and compared with the
 * cost model's replay of the same rounds.
 */

// ctest-suite: fragments

#include "training-scenario.h"

#include "ns3/fragment-plan.h"
#include "ns3/test.h"
#include "ns3/training-support.h"

#include <stdexcept>

namespace ns3
{

using namespace training_test;

namespace
{

/**
 * \param step one inner step's compute \param fragments F
 * \return two islands, a 10 MB update, two rounds of four inner steps
 */
Setup
TwoIslands(Time step, uint32_t fragments)
{
    Setup setup;
    setup.cities = 2;
    setup.modelBytes = 10000000;
    setup.rounds = 2;
    setup.innerSteps = 4;
    setup.compute = step;
    setup.fragments = fragments;
    return setup;
}

/**
 * \param run a run \param from first round to check
 * \param check called with every finished record of round >= from
 */
void
ForRecords(const RunResult& run,
           uint32_t from,
           const std::function<void(const TrainingRoundRecord&)>& check)
{
    for (const TrainingRoundRecord& r : run.records)
    {
        if (r.round >= from)
        {
            check(r);
        }
    }
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief FragmentPlan: elements, bytes and launch steps of each fragment, the overlap of a
 *        round's fragments, and the refusals, against figures worked out by hand.
 */
class FragmentPlanTestCase : public TestCase
{
  public:
    FragmentPlanTestCase()
        : TestCase("fragment plan: elements, launch steps, overlap, refusals")
    {
    }

  private:
    void DoRun() override
    {
        // 41 bytes are 11 elements; in 3 fragments: [0, 3), [3, 7), [7, 11).
        const FragmentPlan three(41, 3, 10, MilliSeconds(20));
        NS_TEST_ASSERT_MSG_EQ(three.GetFirstElement(1), 3u, "floor(11 / 3)");
        NS_TEST_ASSERT_MSG_EQ(three.GetElements(0), 3u, "fragment 0");
        NS_TEST_ASSERT_MSG_EQ(three.GetElements(1), 4u, "fragment 1: 7 - 3");
        NS_TEST_ASSERT_MSG_EQ(three.GetElements(2), 4u, "fragment 2: 11 - 7");
        NS_TEST_ASSERT_MSG_EQ(three.GetBytes(2), 16u, "4 elements of 4 bytes");
        NS_TEST_ASSERT_MSG_EQ(three.GetLargestBytes(), 16u, "fragments 1 and 2");
        NS_TEST_ASSERT_MSG_EQ(FragmentPlan(41, 1, 1, Seconds(1)).GetBytes(0),
                              41u,
                              "one fragment: M itself");
        // H = 10, F = 3: after 3, 6 and 10 inner steps, of 20 ms each.
        NS_TEST_ASSERT_MSG_EQ(FragmentPlan::LaunchStep(0, 3, 10), 3u, "floor(10 / 3)");
        NS_TEST_ASSERT_MSG_EQ(FragmentPlan::LaunchStep(1, 3, 10), 6u, "floor(20 / 3)");
        NS_TEST_ASSERT_MSG_EQ(FragmentPlan::LaunchStep(2, 3, 10), 10u, "the compute phase");
        const std::vector<Time> launches = three.GetLaunches();
        NS_TEST_ASSERT_MSG_EQ(launches.size(), 3u, "a launch per fragment");
        NS_TEST_ASSERT_MSG_EQ(launches[0], MilliSeconds(60), "3 steps of 20 ms");
        NS_TEST_ASSERT_MSG_EQ(launches[1], MilliSeconds(120), "6 steps");
        NS_TEST_ASSERT_MSG_EQ(launches[2], MilliSeconds(200), "10 steps: the compute phase");
        // Launches at 1, 2, 3 s, exchanges of 0.5, 1.5 and 0.5 s: fragment 1 runs 2 to 3.5,
        // fragment 2 waits for it and ends at 4; exposed 4 - 3, hidden 2.5 - 1.
        std::vector<double> start;
        const FragmentPlan::Split split = FragmentPlan::Overlap({1, 2, 3}, {0.5, 1.5, 0.5}, &start);
        NS_TEST_ASSERT_MSG_EQ_TOL(split.exposed, 1.0, 1e-12, "exposed");
        NS_TEST_ASSERT_MSG_EQ_TOL(split.hidden, 1.5, 1e-12, "hidden");
        NS_TEST_ASSERT_MSG_EQ(start.size(), 3u, "a start per fragment");
        NS_TEST_ASSERT_MSG_EQ_TOL(start[2], 3.5, 1e-12, "fragment 2 waits for fragment 1");
        // One fragment: all of it exposed.
        const FragmentPlan::Split whole = FragmentPlan::Overlap({4}, {2}, nullptr);
        NS_TEST_ASSERT_MSG_EQ_TOL(whole.exposed, 2.0, 1e-12, "one fragment");
        NS_TEST_ASSERT_MSG_EQ_TOL(whole.hidden, 0.0, 1e-12, "nothing hidden");
        NS_TEST_ASSERT_MSG_EQ(FragmentPlan::Problem(4, 4, 1000), "", "F = H fits");
        NS_TEST_ASSERT_MSG_NE(FragmentPlan::Problem(5, 4, 1000).find("5 fragments over 4 inner"),
                              std::string::npos,
                              "more fragments than inner steps");
        NS_TEST_ASSERT_MSG_NE(FragmentPlan::Problem(3, 10, 8).find("model of 2 elements"),
                              std::string::npos,
                              "more fragments than elements");
        NS_TEST_ASSERT_MSG_NE(FragmentPlan::Problem(0, 10, 8), "", "no fragment");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Two islands, four fragments, enough compute to hide three of them: each fragment's
 *        exchange takes its own stream's time, the last one is exposed, the others hidden;
 *        the compute phase and the bytes are those of one whole exchange.
 */
class FragmentHiddenTestCase : public TestCase
{
  public:
    FragmentHiddenTestCase()
        : TestCase("four fragments behind 10 ms inner steps: exposed sync is the last fragment's")
    {
    }

  private:
    void DoRun() override
    {
        const RunResult whole = Simulate(TwoIslands(MilliSeconds(10), 1));
        Simulator::Destroy();
        const Setup setup = TwoIslands(MilliSeconds(10), 4);
        const RunResult parts = Simulate(setup);
        const uint64_t fragment = setup.modelBytes / 4; // 625,000 elements each
        const double all = PairExchangeTime(setup.modelBytes);
        const double last = PairExchangeTime(fragment);
        NS_TEST_ASSERT_MSG_EQ(parts.records.size(), RecordCount(setup), "a record per round");
        ForRecords(whole, 0, [&](const TrainingRoundRecord& r) {
            NS_TEST_ASSERT_MSG_EQ_TOL((r.syncEnd - r.syncStart).GetSeconds(),
                                      all,
                                      0.02 * all,
                                      "one fragment: the whole exchange, island " << r.island);
            NS_TEST_ASSERT_MSG_EQ(r.hiddenSync, Time(0), "one fragment hides nothing");
        });
        ForRecords(parts, 0, [&](const TrainingRoundRecord& r) {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "round " << r.round << " finished");
            NS_TEST_ASSERT_MSG_EQ(r.syncStart - r.computeStart,
                                  MilliSeconds(40),
                                  "the compute phase is H steps, fragments or not");
            NS_TEST_ASSERT_MSG_EQ_TOL((r.syncEnd - r.syncStart).GetSeconds(),
                                      last,
                                      0.02 * last,
                                      "exposed: the last fragment, island " << r.island);
            NS_TEST_ASSERT_MSG_EQ_TOL(r.hiddenSync.GetSeconds(),
                                      3 * last,
                                      0.02 * 3 * last,
                                      "hidden: three fragments while computing");
            NS_TEST_ASSERT_MSG_EQ(r.bytesSent,
                                  4 * StreamBytes(fragment),
                                  "four streams of a quarter each");
            NS_TEST_ASSERT_MSG_EQ(r.bytesReceived, 4 * StreamBytes(fragment), "and received");
        });
        NS_TEST_ASSERT_MSG_EQ_TOL(parts.replayedExposed, last, 0.02 * last, "cost model, exposed");
        NS_TEST_ASSERT_MSG_EQ_TOL(parts.replayedHidden,
                                  3 * last,
                                  0.02 * 3 * last,
                                  "cost model, hidden");
        NS_TEST_ASSERT_MSG_EQ(parts.queueDrops, 0u, "paced fragments lose nothing");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Inner steps too short to hide the fragments: each waits for the one before, and the
 *        exposed sync is what is left after the compute phase, by hand and by the cost model.
 */
class FragmentQueuedTestCase : public TestCase
{
  public:
    FragmentQueuedTestCase()
        : TestCase("four fragments behind 0.5 ms inner steps queue one after the other")
    {
    }

  private:
    void DoRun() override
    {
        const Setup setup = TwoIslands(MicroSeconds(500), 4);
        const RunResult run = Simulate(setup);
        // Launched at 0.5, 1, 1.5 and 2 ms, each exchange takes d (more than 0.5 ms), so they
        // run back to back from 0.5 ms and end at 0.5 ms + 4 d: exposed 4 d - 1.5 ms, hidden
        // the 1.5 ms of compute after the first launch.
        const double d = PairExchangeTime(setup.modelBytes / 4);
        const double exposed = 4 * d - 1.5e-3;
        ForRecords(run, 0, [&](const TrainingRoundRecord& r) {
            NS_TEST_ASSERT_MSG_EQ_TOL((r.syncEnd - r.syncStart).GetSeconds(),
                                      exposed,
                                      0.02 * exposed,
                                      "exposed, island " << r.island << " round " << r.round);
            NS_TEST_ASSERT_MSG_EQ_TOL(r.hiddenSync.GetSeconds(),
                                      1.5e-3,
                                      0.02 * 1.5e-3,
                                      "hidden: the compute after the first launch");
        });
        NS_TEST_ASSERT_MSG_EQ_TOL(run.replayedExposed, exposed, 0.02 * exposed, "cost model");
        NS_TEST_ASSERT_MSG_EQ_TOL(run.replayedHidden, 1.5e-3, 0.02 * 1.5e-3, "cost model");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Fragments through multicast and FPGAs: every chunk of every fragment is summed (one
 *        aggregate per chunk), and the exposed and hidden sync are the cost model's within 2%.
 */
class FragmentFpgaTestCase : public TestCase
{
  public:
    FragmentFpgaTestCase()
        : TestCase("fragments through multicast and FPGAs, against the cost model")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.modelBytes = 4000000;
        setup.rounds = 3;
        setup.innerSteps = 2;
        setup.compute = MilliSeconds(5);
        setup.fragments = 2;
        const RunResult run = Simulate(setup);
        const uint64_t fragment = setup.modelBytes / 2;
        double exposed = 0;
        double hidden = 0;
        ForRecords(run, 0, [&](const TrainingRoundRecord& r) {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "round " << r.round << " finished");
            NS_TEST_ASSERT_MSG_EQ(r.bytesSent, 2 * StreamBytes(fragment), "one multicast each");
            NS_TEST_ASSERT_MSG_EQ(r.bytesReceived,
                                  2 * StreamBytes(fragment),
                                  "one aggregate per chunk of each fragment");
            exposed += (r.syncEnd - r.syncStart).GetSeconds() / run.records.size();
            hidden += r.hiddenSync.GetSeconds() / run.records.size();
        });
        NS_TEST_ASSERT_MSG_EQ(run.fpga.partial, 0u, "no partial flush");
        NS_TEST_ASSERT_MSG_GT(hidden, 0.0, "the first fragment ran while computing");
        NS_TEST_ASSERT_MSG_EQ_TOL(exposed, run.replayedExposed, 0.02 * exposed, "exposed");
        NS_TEST_ASSERT_MSG_EQ_TOL(hidden, run.replayedHidden, 0.02 * hidden, "hidden");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Loss with fragments and FPGAs: every round still ends (repairs per fragment), and
 *        what cannot run is refused with a message naming it.
 */
class FragmentLossAndRefusalTestCase : public TestCase
{
  public:
    FragmentLossAndRefusalTestCase()
        : TestCase("fragments under 1% loss end every round; refusals name the problem")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.modelBytes = 2000000;
        setup.rounds = 3;
        setup.innerSteps = 3;
        setup.fragments = 3;
        setup.loss = 0.01;
        const RunResult run = Simulate(setup);
        uint64_t resent = 0;
        ForRecords(run, 0, [&](const TrainingRoundRecord& r) {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "round " << r.round << " ends");
            NS_TEST_ASSERT_MSG_EQ(r.lostPeers.size(), 0u, "no peer lost to 1% loss");
            resent += r.retransmissions;
        });
        NS_TEST_ASSERT_MSG_GT(run.lossDrops, 0u, "the loss happened");
        NS_TEST_ASSERT_MSG_GT(resent, 0u, "and was repaired");
        Simulator::Destroy();

        Setup tooMany;
        tooMany.innerSteps = 2;
        tooMany.fragments = 3;
        NS_TEST_ASSERT_MSG_NE(Refusal<std::runtime_error>(tooMany).find("3 fragments over 2"),
                              std::string::npos,
                              "more fragments than inner steps");
        Setup real;
        real.innerSteps = 2;
        real.fragments = 2;
        real.real = true;
        NS_TEST_ASSERT_MSG_NE(Refusal<UnsupportedRunError>(real).find("rounds in fragments"),
                              std::string::npos,
                              "real payloads");
        Setup tcp;
        tcp.innerSteps = 2;
        tcp.fragments = 2;
        tcp.tcp = true;
        NS_TEST_ASSERT_MSG_NE(Refusal<UnsupportedRunError>(tcp).find("rounds in fragments"),
                              std::string::npos,
                              "the tcp transport");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A cut island in fragmented rounds: every fragment's exchange declares it lost, every
 *        round of the others still ends, and each round records it once (the cut island, cut
 *        off from both, records the two others).
 */
class FragmentLostPeerTestCase : public TestCase
{
  public:
    FragmentLostPeerTestCase()
        : TestCase("a cut island is lost in every fragment, recorded once per round")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.rounds = 2;
        setup.innerSteps = 3;
        setup.fragments = 3;
        setup.cut = 2;
        const RunResult run = Simulate(setup); // returning at all proves there is no hang
        const std::vector<std::vector<uint32_t>> expected{{2}, {2}, {0, 1}};
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 6u, "3 islands x 2 rounds");
        ForRecords(run, 0, [&](const TrainingRoundRecord& r) {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "round ended, island " << r.island);
            NS_TEST_EXPECT_MSG_EQ((r.lostPeers == expected.at(r.island)),
                                  true,
                                  "round " << r.round << ", island " << r.island << " lost "
                                           << r.lostPeers.size());
        });
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Rounds synchronised in fragments (TrainingApplication's Fragments, FragmentPlan).
 */
class FragmentsTestSuite : public TestSuite
{
  public:
    FragmentsTestSuite()
        : TestSuite("fragments")
    {
        AddTestCase(new FragmentPlanTestCase());
        AddTestCase(new FragmentHiddenTestCase());
        AddTestCase(new FragmentQueuedTestCase());
        AddTestCase(new FragmentFpgaTestCase());
        AddTestCase(new FragmentLossAndRefusalTestCase());
        AddTestCase(new FragmentLostPeerTestCase());
    }
};

/** The suite's instance. */
static FragmentsTestSuite g_fragmentsTestSuite;

} // namespace ns3
