/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of ExchangeBound, the lower bound on an exchange's time that does not use the cost
 * model: its value for a small two-city WAN against the bytes per link counted by hand, and
 * the simulated exchanges of the planned and tcp transports against it (never below it; the
 * planned transport without loss within a stated factor of it).
 */

// ctest-suite: exchange-bound

#include "ns3/clique-schedule.h"
#include "ns3/exchange-bound.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/training-experiment.h"
#include "ns3/training-helper.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The WAN link between the two cities, bits per second: the bottleneck.
constexpr double WAN_BPS = 1e9;
/// Its one-way delay, s.
constexpr double WAN_DELAY = 20e-3;
/// Every island's access rate, bits per second.
constexpr double ACCESS_BPS = 10e9;
/// The slow access rate of the cases where access links dominate, bits per second.
constexpr double SLOW_ACCESS_BPS = 0.25e9;
/// Every island's access delay, s.
constexpr double ACCESS_DELAY = 1e-3;
/// The model: 300000 int32 elements, so a ring of 4 has segments of exactly M / 4.
constexpr double MODEL_BYTES = 1.2e6;
/// The planned transport's direct exchange stays within this factor of the bound: its rates
/// fill the WAN link, and headers add about 0.5% (measured 1.006 without capabilities,
/// 1.005 with both).
constexpr double PLANNED_DIRECT_FACTOR = 1.02;
/// Its ring within this one: the chain's propagation plus one segment's serialisation and
/// the per-step pacing on top of it (measured 1.114).
constexpr double PLANNED_RING_FACTOR = 1.15;

/**
 * \param caps every city's capabilities \param accessBps every access link's rate
 * \return cities A and B joined by one 1 Gbps, 20 ms link; islands at A and B-0, B-1
 *         at B, each on a 1 ms access link (10 Gbps by default)
 */
WanTopology
TwoCities(WanCapabilities caps, double accessBps = ACCESS_BPS)
{
    WanTopology t;
    for (const char* code : {"A", "B"})
    {
        WanCity city;
        city.code = code;
        city.name = code;
        city.caps = caps;
        t.AddCity(city);
    }
    t.AddLink(WanLink{0, 1, static_cast<uint64_t>(WAN_BPS), WAN_DELAY});
    for (uint32_t c = 0; c < 2; ++c)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            t.AddIsland(WanIsland{t.GetCities()[c].code + "-" + std::to_string(i),
                                  c,
                                  static_cast<uint64_t>(accessBps),
                                  ACCESS_DELAY});
        }
    }
    t.Validate();
    return t;
}

/// Propagation of the longest member-to-member path: access, WAN link, access.
constexpr double LONGEST = ACCESS_DELAY + WAN_DELAY + ACCESS_DELAY;
/// Direct, unicast: A->B carries M from each of to each of B-0, B-1: 4M. Before
/// it the sender's access link (1 ms), after it its own delay and B's access (21 ms).
constexpr double UNICAST_BOUND = 4 * MODEL_BYTES * 8 / WAN_BPS + LONGEST;
/// Direct, multicast: A->B carries each of A's two sources once: 2M.
constexpr double MULTICAST_BOUND = 2 * MODEL_BYTES * 8 / WAN_BPS + LONGEST;
/// Ring, B-0, B-1: A-1 sends B-0 2(k-1) = 6 segments of M/4 over A->B (14.4 ms, B-1
/// to A-0 the same over B->A), but each segment travels 6 successive ring hops, alternately
/// within a city (two access links, 2 ms) and across (22 ms): 3 x 2 + 3 x 22 = 72 ms.
constexpr double RING_BOUND = 3 * (2 * ACCESS_DELAY) + 3 * LONGEST;
/// The ring's bytes alone: less than the chain's propagation.
constexpr double RING_BYTES_BOUND = 6 * (MODEL_BYTES / 4) * 8 / WAN_BPS + LONGEST;

/**
 * \ingroup wan-training-tests
 * \brief The bound of the two-city WAN per algorithm and sharing, counted by hand.
 */
class ExchangeBoundByHandTestCase : public TestCase
{
  public:
    ExchangeBoundByHandTestCase()
        : TestCase("the bound of a two-city WAN equals the bytes per link counted by hand, for "
                   "every capability set")
    {
    }

  private:
    void DoRun() override
    {
        WanCapabilities multicast;
        multicast.multicast = true;
        WanCapabilities fpga;
        fpga.fpga = true;
        WanCapabilities both = multicast;
        both.fpga = true;
        const WanRouting none(TwoCities(WanCapabilities{}));
        const WanRouting withMulticast(TwoCities(multicast));
        const WanRouting withFpga(TwoCities(fpga));
        const WanRouting withBoth(TwoCities(both));
        const std::vector<uint32_t> all{0, 1, 2, 3};
        const uint64_t m = static_cast<uint64_t>(MODEL_BYTES);
        const double tolerance = 1e-12;
        const auto direct = [m, &all](const WanRouting& routing, bool unicastOnly) {
            return ExchangeBound(routing, m, unicastOnly)
                .GetCliqueBound(all, SyncAlgorithm::DIRECT);
        };
        NS_TEST_ASSERT_MSG_EQ_TOL(direct(none, false),
                                  UNICAST_BOUND,
                                  tolerance,
                                  "none: 4M on A->B");
        NS_TEST_ASSERT_MSG_EQ_TOL(direct(withMulticast, false),
                                  MULTICAST_BOUND,
                                  tolerance,
                                  "multicast: 2M on A->B");
        NS_TEST_ASSERT_MSG_EQ_TOL(direct(withFpga, false),
                                  UNICAST_BOUND,
                                  tolerance,
                                  "fpga: the FPGAs aggregate into islands, not on the WAN: 4M");
        NS_TEST_ASSERT_MSG_EQ_TOL(direct(withBoth, false),
                                  MULTICAST_BOUND,
                                  tolerance,
                                  "both: 2M on A->B");
        NS_TEST_ASSERT_MSG_EQ_TOL(direct(withBoth, true),
                                  UNICAST_BOUND,
                                  tolerance,
                                  "a unicast-only transport (TCP) shares nothing: 4M");

        // Slow access links, B-0. Unicast, B-0's uplink carries 2M (to ),
        // its downlink 2M (from ), both on 22 ms paths. Multicast, its uplink
        // carries M but its downlink still 2M; FPGAs alone, the downlink M but the uplink
        // 2M; both, M on every access link.
        const std::vector<uint32_t> three{0, 1, 2};
        const auto slow = [m, &three](WanCapabilities caps) {
            return ExchangeBound(WanRouting(TwoCities(caps, SLOW_ACCESS_BPS)), m, false)
                .GetCliqueBound(three, SyncAlgorithm::DIRECT);
        };
        const double twoUpdates = 2 * MODEL_BYTES * 8 / SLOW_ACCESS_BPS + LONGEST;
        const double oneUpdate = MODEL_BYTES * 8 / SLOW_ACCESS_BPS + LONGEST;
        NS_TEST_ASSERT_MSG_EQ_TOL(slow(WanCapabilities{}), twoUpdates, tolerance, "slow, none");
        NS_TEST_ASSERT_MSG_EQ_TOL(slow(multicast), twoUpdates, tolerance, "slow, multicast");
        NS_TEST_ASSERT_MSG_EQ_TOL(slow(fpga), twoUpdates, tolerance, "slow, fpga");
        NS_TEST_ASSERT_MSG_EQ_TOL(slow(both), oneUpdate, tolerance, "slow, both");
        // All four, both, slow access: every access link carries one update (38.4 ms, but B-0's
        // downlink also serves B-1, 1 ms away: 40.4 ms), A->B two sources (41.2 ms); yet A-0's
        // update to B-0 alone needs 38.4 ms at its access rate plus the 22 ms path: 60.4 ms.
        NS_TEST_ASSERT_MSG_EQ_TOL(
            ExchangeBound(WanRouting(TwoCities(both, SLOW_ACCESS_BPS)), m, false)
                .GetCliqueBound(all, SyncAlgorithm::DIRECT),
            oneUpdate,
            tolerance,
            "slow, both, four islands: one flow's bytes at the access rate plus its path");

        NS_TEST_ASSERT_MSG_EQ_TOL(
            ExchangeBound(withBoth, m, false).GetCliqueBound(all, SyncAlgorithm::RING),
            RING_BOUND,
            tolerance,
            "ring: the chain of six hops, whatever the capabilities");
        NS_TEST_ASSERT_MSG_LT(RING_BYTES_BOUND, RING_BOUND, "the chain is the larger term");
        // Ten times the model: the segments' bytes on A->B dominate the chain.
        NS_TEST_ASSERT_MSG_EQ_TOL(
            ExchangeBound(none, 10 * m, false).GetCliqueBound(all, SyncAlgorithm::RING),
            6 * (10 * MODEL_BYTES / 4) * 8 / WAN_BPS + LONGEST,
            tolerance,
            "ring of a 12 MB model: 6 segments of M/4 on A->B");
        // A clique within one city: the access links only. A-0 -> A-1 carries M at 10 Gbps,
        // nothing before it on A-0's uplink, then both access delays.
        NS_TEST_ASSERT_MSG_EQ_TOL(
            ExchangeBound(none, m, false).GetCliqueBound({0, 1}, SyncAlgorithm::DIRECT),
            MODEL_BYTES * 8 / ACCESS_BPS + 2 * ACCESS_DELAY,
            tolerance,
            "one city: M over an access link plus two access delays");
        NS_TEST_ASSERT_MSG_EQ(
            ExchangeBound(none, m, false).GetCliqueBound({2}, SyncAlgorithm::DIRECT),
            0,
            "a clique of one exchanges nothing");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Simulated exchanges on the two-city WAN against the hand-counted bound.
 */
class ExchangeBoundSimulationTestCase : public TestCase
{
  public:
    /**
     * \param tcp the tcp transport (else planned) \param ring ring all-reduce (else direct)
     * \param both every city with multicast and FPGAs (else none)
     */
    ExchangeBoundSimulationTestCase(bool tcp, bool ring, bool both)
        : TestCase(std::string(tcp ? "tcp" : "planned") + " " + (ring ? "ring" : "direct") +
                   (both ? ", both" : "") + ": the simulated exchange is never below the bound" +
                   (tcp    ? ""
                    : ring ? ", and within 15% of it"
                           : ", and within 2% of it")),
          m_tcp(tcp),
          m_ring(ring),
          m_both(both)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        WanCapabilities caps;
        caps.multicast = m_both;
        caps.fpga = m_both;
        const WanTopology topology = TwoCities(caps);
        WanTopologyHelper wan;
        wan.Install(topology);
        CliqueSchedule schedule = CliqueSchedule::GlobalClique(4);
        if (m_ring)
        {
            schedule.SetAlgorithms(0, {SyncAlgorithm::RING});
        }
        TrainingHelper helper(wan, schedule);
        helper.SetModelBytes(static_cast<uint64_t>(MODEL_BYTES));
        helper.SetRounds(2);
        helper.SetComputeTime(MilliSeconds(10));
        if (m_tcp)
        {
            helper.SetTransport(TrainingApplication::TCP);
        }
        helper.Install();
        TrainingExperiment experiment(helper);
        experiment.Run();
        const ExchangeBound bound(wan.GetRouting(), static_cast<uint64_t>(MODEL_BYTES), m_tcp);
        const ExchangeBound::Comparison c = bound.Compare(experiment.GetRecords(), schedule);
        Simulator::Destroy();

        // Over TCP, both is unicast.
        const double expected =
            m_ring ? RING_BOUND : (m_both && !m_tcp ? MULTICAST_BOUND : UNICAST_BOUND);
        NS_TEST_ASSERT_MSG_EQ(c.exchanges, 2, "both rounds finished and compared");
        NS_TEST_ASSERT_MSG_EQ_TOL(c.meanBound, expected, 1e-12, "the hand-counted bound");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(c.minRatio, 1.0, "no exchange beats the bound");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(c.meanExchange, expected, "nor does their mean");
        if (!m_tcp)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(c.meanExchange,
                                        (m_ring ? PLANNED_RING_FACTOR : PLANNED_DIRECT_FACTOR) *
                                            expected,
                                        "planned, lossless: within the stated factor");
        }
    }

    bool m_tcp;  //!< tcp transport
    bool m_ring; //!< ring all-reduce
    bool m_both; //!< multicast and FPGAs
};

/**
 * \ingroup wan-training-tests
 * \brief The exchange-bound suite.
 */
class ExchangeBoundTestSuite : public TestSuite
{
  public:
    ExchangeBoundTestSuite()
        : TestSuite("exchange-bound")
    {
        AddTestCase(new ExchangeBoundByHandTestCase);
        AddTestCase(new ExchangeBoundSimulationTestCase(false, false, false));
        AddTestCase(new ExchangeBoundSimulationTestCase(false, true, false));
        AddTestCase(new ExchangeBoundSimulationTestCase(false, false, true));
        AddTestCase(new ExchangeBoundSimulationTestCase(true, false, false));
        AddTestCase(new ExchangeBoundSimulationTestCase(true, true, false));
        AddTestCase(new ExchangeBoundSimulationTestCase(true, false, true));
    }
};

/// The suite's instance.
static ExchangeBoundTestSuite g_exchangeBoundTestSuite;

} // namespace
