/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Reduction trees end to end (#18): the planner, the island's TreeExchange and the transit
 * FPGAs together, packet by packet, on doublezero-9 with 100 Gbps access links. The bound and
 * the bytes every link must carry are worked out here from the topology, the routes and the
 * chunk layout, not from the cost model.
 */

// ctest-suite: transit-tree

#include "ns3/chunk-layout.h"
#include "ns3/clique-schedule.h"
#include "ns3/gradient-header.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/training-experiment.h"
#include "ns3/training-helper.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology-json.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-wire.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** The model of the acceptance case: 1 GB. */
constexpr uint64_t GIGABYTE = 1000000000;
/** Access rate of the acceptance case: the WAN binds, not the access links. */
constexpr uint64_t ACCESS_BPS = 100000000000;
/** MTU of the run (as tools/run-main.sh's 1 GB runs): a seventh of the packets of 9000. */
constexpr uint16_t MTU = 64000;
/** Bytes an END or a control packet may add to a link direction beyond the updates. */
constexpr uint64_t CONTROL_ALLOWANCE = 9 * 200;

/** What one run of the global clique gives. */
struct GlobalRun
{
    double exchange{0}; //!< first sync start to last sync end, s
    uint32_t root{0};   //!< the plan's root (TREE)
    std::map<std::pair<std::string, std::string>, uint64_t> bytes; //!< per (from, to) city
};

/** \param caps capability set \return doublezero-9 with 100 Gbps access links and \p caps */
WanTopology
DoubleZero100(const std::string& caps)
{
    WanTopology t = WanTopologyJson::LoadFile(
        WanCommandLine::ResolveDataPath("data/topologies/doublezero-9.json"));
    WanTopology out;
    out.SetName(t.GetName());
    for (const WanCity& city : t.GetCities())
    {
        out.AddCity(city);
    }
    for (WanIsland island : t.GetIslands())
    {
        island.accessBps = ACCESS_BPS;
        out.AddIsland(island);
    }
    for (const WanLink& link : t.GetLinks())
    {
        out.AddLink(link);
    }
    out.SetCapabilities(WanCapabilities::Parse(caps, "test"));
    return out;
}

/**
 * \param caps capability set \param algorithm the global clique's exchange
 * \return one round of a 1 GB model over the global clique of doublezero-9
 */
GlobalRun
RunGlobal(const std::string& caps, SyncAlgorithm algorithm)
{
    const WanTopology topology = DoubleZero100(caps);
    const uint32_t n = topology.GetIslands().size();
    WanTopologyHelper wan;
    wan.SetMtu(MTU);
    wan.Install(topology);
    CliqueSchedule schedule = CliqueSchedule::GlobalClique(n);
    schedule.SetAlgorithms(0, {algorithm});
    TrainingHelper helper(wan, schedule);
    helper.SetModelBytes(GIGABYTE);
    helper.SetRounds(1);
    helper.SetComputeTime(MilliSeconds(10));
    helper.Install();
    TrainingExperiment experiment(helper);
    experiment.Run();
    GlobalRun run;
    Time first = Time::Max();
    Time last;
    for (const TrainingRoundRecord& r : experiment.GetRecords())
    {
        first = std::min(first, r.syncStart);
        last = std::max(last, r.syncEnd);
    }
    run.exchange = (last - first).GetSeconds();
    if (algorithm == SyncAlgorithm::TREE)
    {
        run.root = helper.GetPlans().at(0).cliqueRoot.at(0);
    }
    for (const TrainingLinkUsage& u : experiment.GetLinkUsage())
    {
        run.bytes[{u.from, u.to}] = u.bytes;
    }
    Simulator::Destroy();
    return run;
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief The #18 acceptance case packet by packet: the tree with transit FPGAs everywhere is at
 *        least 2x faster than DIRECT with edge FPGAs and multicast, within 10% of the bound,
 *        and every link direction on the tree carries the update exactly once.
 */
class TransitTreeDoubleZeroTestCase : public TestCase
{
  public:
    TransitTreeDoubleZeroTestCase()
        : TestCase("doublezero-9, 100 Gbps access, 1 GB: tree 2x faster than edge, within 10% "
                   "of the bound, one update per tree link direction")
    {
    }

  private:
    void DoRun() override
    {
        const GlobalRun edge = RunGlobal("both", SyncAlgorithm::DIRECT);
        const GlobalRun tree = RunGlobal("both+transit", SyncAlgorithm::TREE);

        // The update on the wire: every chunk a packet with IPv4, UDP, the gradient header
        // (36 fixed bytes and two one-word bitmaps for nine islands) and the 2 bytes of PPP
        // framing the links count.
        const WanTopology topology = DoubleZero100("both+transit");
        const WanRouting routing(topology);
        const uint32_t n = topology.GetIslands().size();
        const uint64_t payload = ChunkLayout::DefaultChunkPayload(MTU, n);
        const uint64_t chunks = (GIGABYTE + payload - 1) / payload;
        const uint64_t perPacket = WanWire::IPV4_HEADER_BYTES + WanWire::UDP_HEADER_BYTES +
                                   GradientHeader::FIXED_SIZE + 2 * 8 + 2;
        const uint64_t wire = GIGABYTE + chunks * perPacket;

        // The tree: the members' routes up to the root, the root's routes down. With a transit
        // FPGA in every city, each direction of each of its links carries one update.
        const uint32_t rootCity = topology.GetIslands()[tree.root].city;
        std::map<std::pair<std::string, std::string>, uint64_t> pieces;
        double up = 0;
        double down = 0;
        for (uint32_t m = 0; m < n; ++m)
        {
            const uint32_t city = topology.GetIslands()[m].city;
            for (const WanHop& hop : routing.GetPath(city, rootCity))
            {
                pieces[{topology.GetCities()[hop.from].code, topology.GetCities()[hop.to].code}] =
                    1;
            }
            for (const WanHop& hop : routing.GetPath(rootCity, city))
            {
                pieces[{topology.GetCities()[hop.from].code, topology.GetCities()[hop.to].code}] =
                    1;
            }
            if (m != tree.root)
            {
                up = std::max(up, routing.GetIslandDelay(m, tree.root));
                down = std::max(down, routing.GetIslandDelay(tree.root, m));
            }
        }
        // Max over links of bytes per direction / capacity: every link (WAN and access) runs at
        // 100 Gbps and carries at most one update per direction.
        double serialisation = 0;
        for (const WanLink& link : topology.GetLinks())
        {
            serialisation = std::max(serialisation, 8.0 * wire / link.bps);
        }
        serialisation = std::max(serialisation, 8.0 * wire / ACCESS_BPS);
        const double bound = serialisation + up + down;

        NS_TEST_EXPECT_MSG_GT_OR_EQ(tree.exchange, bound, "the bound is a lower bound");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(tree.exchange, 1.1 * bound, "within 10% of the bound");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(edge.exchange, 2 * tree.exchange, "at least 2x faster");
        for (const auto& [direction, bytes] : tree.bytes)
        {
            const uint64_t expected = pieces.count(direction) ? wire : 0;
            NS_TEST_EXPECT_MSG_GT_OR_EQ(bytes,
                                        expected,
                                        direction.first << "->" << direction.second);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(bytes,
                                        expected + CONTROL_ALLOWANCE,
                                        direction.first << "->" << direction.second);
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Reduction trees end to end.
 */
class TransitTreeTestSuite : public TestSuite
{
  public:
    TransitTreeTestSuite()
        : TestSuite("transit-tree")
    {
        AddTestCase(new TransitTreeDoubleZeroTestCase);
    }
};

/** The suite's instance. */
static TransitTreeTestSuite g_transitTreeTestSuite;
