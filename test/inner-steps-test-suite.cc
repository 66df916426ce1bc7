/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Inner steps (DiLoCo's H): a round computes for InnerSteps x ComputeTime, and with real
 * payloads every island takes InnerSteps x LocalSteps gradient steps on its own objective
 * before the clique averages. The expected drift is the closed form of gradient descent on a
 * separable quadratic, a second method beside the workload's step-by-step iteration.
 */

// ctest-suite: inner-steps

#include "training-scenario.h"

#include "ns3/double.h"
#include "ns3/test.h"
#include "ns3/training-workload.h"

#include <cmath>

namespace ns3
{

using namespace training_test;

namespace
{

/** The quadratic workload's default LearningRate (QuadraticTrainingWorkload). */
constexpr double LEARNING_RATE = 0.05;

/**
 * \brief The parameters every island holds after one round that starts from x = 0 at every
 *        island, H gradient steps each, then averaging within each clique.
 *
 * One gradient step on f_i moves x_d - c_d to (1 - eta a_d)(x_d - c_d), so H steps from 0
 * end at c_d (1 - (1 - eta a_d)^H); the clique then holds the mean of its members' ends.
 * \param problem a workload initialised like the run's (same seed, islands and dimension)
 * \param cliques the round's partition \param steps H x LocalSteps
 * \return [island] parameters
 */
std::vector<std::vector<double>>
ClosedFormAfterRound(const QuadraticTrainingWorkload& problem,
                     const Partition& cliques,
                     uint32_t steps)
{
    const uint32_t n = problem.GetIslandCount();
    const uint32_t dimension = problem.GetDimension();
    std::vector<std::vector<double>> end(n, std::vector<double>(dimension));
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t d = 0; d < dimension; ++d)
        {
            const double rho = 1 - LEARNING_RATE * problem.GetCurvature(i)[d];
            end[i][d] = problem.GetCentre(i)[d] * (1 - std::pow(rho, steps));
        }
    }
    std::vector<std::vector<double>> after(n);
    for (const std::vector<uint32_t>& clique : cliques)
    {
        for (uint32_t i : clique)
        {
            after[i] = Mean(end, clique);
        }
    }
    return after;
}

/**
 * \param x [island] parameters
 * \return the consensus distance sqrt(1/(N D) sum_i ||x_i - mean||^2)
 */
double
ConsensusDistance(const std::vector<std::vector<double>>& x)
{
    const std::vector<double> mean = Mean(x, AllIslands(x.size()));
    double sum = 0;
    for (const std::vector<double>& xi : x)
    {
        for (size_t d = 0; d < mean.size(); ++d)
        {
            sum += (xi[d] - mean[d]) * (xi[d] - mean[d]);
        }
    }
    return std::sqrt(sum / (double(x.size()) * mean.size()));
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief Every round's compute phase is InnerSteps x ComputeTime (x ComputeMultiplier).
 */
class InnerStepsComputePhaseTestCase : public TestCase
{
  public:
    InnerStepsComputePhaseTestCase()
        : TestCase("a round computes for InnerSteps x ComputeTime, a straggler 10 times that")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.compute = MilliSeconds(10);
        setup.innerSteps = 7;
        setup.rounds = 2;
        setup.straggler = 2;
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), RecordCount(setup), "a record per round");
        for (const TrainingRoundRecord& r : run.records)
        {
            const Time expected = MilliSeconds(r.island == 2 ? 700 : 70);
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "round " << r.round << " finished");
            NS_TEST_ASSERT_MSG_EQ(r.syncStart - r.computeStart,
                                  expected,
                                  "island " << r.island << " round " << r.round);
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Real payloads, two cliques of two: after one round from consensus the islands hold
 *        their clique's mean of H local descents, and the consensus distance grows with H.
 */
class InnerStepsDriftTestCase : public TestCase
{
  public:
    InnerStepsDriftTestCase()
        : TestCase("real: the drift after a round is the closed form of H gradient steps")
    {
    }

  private:
    void DoRun() override
    {
        const Partition cliques{{0, 1}, {2, 3}};
        double previous = 0;
        for (uint32_t h : {1u, 10u, 100u})
        {
            Setup setup;
            setup.cities = 4;
            setup.real = true;
            setup.localSteps = 1;
            setup.initialSpread = 0;
            setup.innerSteps = h;
            setup.partitions = {cliques};
            setup.modelBytes = 3 * CHUNK + 40;
            const RunResult run = Simulate(setup);

            Ptr<QuadraticTrainingWorkload> problem = CreateObject<QuadraticTrainingWorkload>();
            problem->SetAttribute("InitialSpread", DoubleValue(0.0));
            problem->Initialise(4, setup.modelBytes / 4);
            const auto expected = ClosedFormAfterRound(*problem, cliques, h);
            for (uint32_t i = 0; i < 4; ++i)
            {
                // Each member's value is rounded to 1 / SCALE on the wire (0.5 / SCALE off),
                // and so is their mean.
                NS_TEST_ASSERT_MSG_LT_OR_EQ(MaxError(run.after[i], expected[i]),
                                            0.5 / SCALE,
                                            "H " << h << ", island " << i);
            }
            const double distance = ConsensusDistance(run.after);
            NS_TEST_ASSERT_MSG_EQ_TOL(distance,
                                      ConsensusDistance(expected),
                                      0.5 / SCALE,
                                      "H " << h << ": consensus distance");
            NS_TEST_ASSERT_MSG_GT(distance, previous + 0.01, "H " << h << ": more drift");
            previous = distance;
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Inner steps: the compute phase and the drift it causes.
 */
class InnerStepsTestSuite : public TestSuite
{
  public:
    InnerStepsTestSuite()
        : TestSuite("inner-steps")
    {
        AddTestCase(new InnerStepsComputePhaseTestCase());
        AddTestCase(new InnerStepsDriftTestCase());
    }
};

/// The suite's instance.
static InnerStepsTestSuite g_innerStepsTestSuite;

} // namespace ns3
