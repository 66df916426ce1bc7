/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Properties of lossless training runs over a corpus of generated WANs (WanTopologyGenerator):
 * every family, several seeds and sizes from 3 to 32 islands, heterogeneous link rates, for
 * every capability set (and the generator's own per-city mix), with direct exchanges, ring
 * all-reduce, rotating cliques and gossip pairs (cliques that run at different paces, so a
 * round meets receivers still in their previous round: TrainingHelper holds it). A network that
 * carries the plan it was given must show:
 *
 *  - no resends, no NACK-driven traffic, no queue drops;
 *  - no FPGA partial flushes, overflows or mismatches (every chunk folded while its slot was
 *    open);
 *  - for every island and round, exactly the gradient bytes and packets the plan implies:
 *    sent = the island's streams (a multicast stream once, unicast copies once per receiver);
 *    received = the streams that name it, except that behind an FPGA a DIRECT round's chunks
 *    arrive as one aggregate each;
 *  - a mean sync time within 1% of the cost model's (rounds replayed with staggered starts).
 *
 * The expected bytes are computed here from the plan's streams and the header size
 * (36 + 2 x 8 bytes with up to 64 islands), not read back from the simulation. The corpus
 * holds the smallest generated WAN on which the FPGA path used to fail: hub-and-spoke, 5
 * cities, seed 2, whose far peers are more than RetransmissionTimeout plus a near peer's round
 * trip away, so near peers were NACKed for chunks the FPGA was holding (1,200 resends and a
 * sync 1.41 times the plan's in a 2-round global clique with FPGAs, before the fix).
 */

// One suite per capability set, so that ctest -j runs them side by side (under ASan the corpus
// as one suite was CI's long pole, a single 7.6 CPU-minute thread). Together they hold exactly
// the cases of the former single suite: every WAN x capability set x exchange.
// ctest-suite: wan-corpus-none
// ctest-suite: wan-corpus-multicast
// ctest-suite: wan-corpus-fpga
// ctest-suite: wan-corpus-both
// ctest-suite: wan-corpus-mixed
// ctest-suite: wan-corpus-both+transit

#include "ns3/clique-schedule.h"
#include "ns3/fpga-aggregator-net-device.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/training-experiment.h"
#include "ns3/training-helper.h"
#include "ns3/wan-topology-generator.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Gradient header of DATA, AGGREGATE and RING packets with up to 64 islands: 36 + 2 x 8.
const uint32_t HEADER_BYTES = 52;
/// Device MTU: small packets, so that a few hundred kilobytes are many packets per stream.
const uint32_t MTU = 1500;
/// Model bytes: 150 chunks of 1420 bytes at MTU 1500, more than a device queue holds (100),
/// so a stream paced faster than its share would overflow a queue.
const uint64_t MODEL_BYTES = 213000;
/// Largest relative error of the mean sync time against the cost model's.
const double SYNC_TOLERANCE = 0.01;

/** How the cliques exchange. */
enum class Exchange
{
    DIRECT,   //!< global clique, direct exchange
    RING,     //!< global clique, ring all-reduce
    ROTATING, //!< Moshpit grid (rotating cliques), algorithm chosen per clique by the cost model
    PAIRS,    //!< gossip pairs: cliques of two that finish at different times, so one pair's
              //!< next round meets a receiver still in its previous round
    TREE      //!< global clique, reduction tree (root chosen by the cost model)
};

/** \param exchange an exchange \return its name */
std::string
ExchangeName(Exchange exchange)
{
    switch (exchange)
    {
    case Exchange::DIRECT:
        return "direct";
    case Exchange::RING:
        return "ring";
    case Exchange::ROTATING:
        return "rotating";
    case Exchange::TREE:
        return "tree";
    default:
        return "pairs";
    }
}

/** One WAN of the corpus. */
struct CorpusEntry
{
    WanTopologyGeneratorParams params; //!< generator parameters
    bool mixed{false};                 //!< also run the generator's own per-city capabilities
};

/**
 * \return the corpus: every family, sizes 3..32 islands, seeds 1..4, WAN rates drawn per link
 *         from 20 to 100 Gbps (so streams get different max-min rates), some cities with two
 *         islands, and two WANs whose cities get multicast and FPGAs at random
 */
std::vector<CorpusEntry>
Corpus()
{
    std::vector<CorpusEntry> corpus;
    const auto add = [&corpus](const std::string& family,
                               uint32_t cities,
                               uint64_t seed,
                               uint32_t perCity,
                               bool mixed) {
        CorpusEntry entry;
        entry.params.family = family;
        entry.params.cities = cities;
        entry.params.seed = seed;
        entry.params.islandsPerCity = perCity;
        entry.params.wanBps = 20000000000ULL;
        entry.params.wanBpsMax = 100000000000ULL;
        if (mixed)
        {
            entry.params.multicastFraction = 0.5;
            entry.params.fpgaFraction = 0.5;
            entry.params.transitFraction = 0.5;
        }
        entry.mixed = mixed;
        corpus.push_back(entry);
    };
    add("geometric", 3, 1, 1, false);
    add("geometric", 12, 3, 1, false);
    add("geometric", 16, 4, 1, true);
    add("geometric", 32, 2, 1, false);
    add("ring", 4, 1, 1, false);
    add("ring", 6, 2, 2, false);
    add("hub", 5, 2, 1, false); // the FPGA hold regression
    add("hub", 16, 2, 1, true);
    add("grid", 9, 1, 1, false);
    add("grid", 12, 3, 2, false);
    add("continents", 10, 1, 1, false);
    add("continents", 20, 2, 1, false);
    add("backbone", 8, 1, 2, false);
    add("backbone", 24, 3, 1, false);
    return corpus;
}

/**
 * \param plan a round's plan \param island an island \param fpga whether it has an FPGA
 * \param sent receives the gradient bytes the island sends \param received the bytes it
 *        receives \param packetsSent, packetsReceived the same in packets
 */
void
PlannedBytes(const SyncRoundEstimate& plan,
             const WanRouting& routing,
             uint32_t island,
             bool fpga,
             uint64_t& sent,
             uint64_t& received,
             uint64_t& packetsSent,
             uint64_t& packetsReceived)
{
    sent = received = packetsSent = packetsReceived = 0;
    bool folded = false;
    // A TREE root receives one piece per transit city where its members' routes last meet
    // (the last transit city on a member's route), and each member without one on its route
    // alone: the labels of the pieces that reached it.
    std::set<std::pair<uint32_t, uint32_t>> pieces;
    for (const SyncStream& stream : plan.streams)
    {
        if (stream.reduce && stream.receivers.at(0) == island)
        {
            const WanTopology& topology = routing.GetTopology();
            const uint32_t rootCity = topology.GetIslands()[island].city;
            std::pair<uint32_t, uint32_t> label{0, stream.sender};
            for (uint32_t c :
                 routing.GetCityPath(topology.GetIslands()[stream.sender].city, rootCity))
            {
                if (topology.GetCities()[c].caps.transit)
                {
                    label = {1, c};
                }
            }
            const uint64_t bytes = stream.payloadBytes + stream.chunks * HEADER_BYTES;
            if (pieces.insert(label).second)
            {
                received += bytes;
                packetsReceived += stream.chunks;
            }
            continue;
        }
        const uint64_t bytes = stream.payloadBytes + stream.chunks * HEADER_BYTES;
        if (stream.sender == island)
        {
            const uint64_t copies = stream.multicast ? 1 : stream.receivers.size();
            sent += copies * bytes;
            packetsSent += copies * stream.chunks;
        }
        if (!std::binary_search(stream.receivers.begin(), stream.receivers.end(), island))
        {
            continue;
        }
        if (stream.algorithm == SyncAlgorithm::DIRECT && fpga)
        {
            // One aggregate per chunk, whatever the number of peers: count the update once.
            if (!folded)
            {
                received += bytes;
                packetsReceived += stream.chunks;
                folded = true;
            }
            continue;
        }
        received += bytes;
        packetsReceived += stream.chunks;
    }
}

/**
 * \ingroup wan-training-tests
 * \brief One generated WAN under one capability set and exchange: the properties above.
 */
class WanCorpusTestCase : public TestCase
{
  public:
    /**
     * \param entry the WAN \param caps capability set ("" keeps the topology's own)
     * \param exchange how cliques exchange
     */
    WanCorpusTestCase(const CorpusEntry& entry, const std::string& caps, Exchange exchange)
        : TestCase(WanTopologyGenerator::Describe(entry.params) +
                   " caps=" + (caps.empty() ? "mixed" : caps) + " " + ExchangeName(exchange)),
          m_entry(entry),
          m_caps(caps),
          m_exchange(exchange)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        WanTopology topology = WanTopologyGenerator::Generate(m_entry.params);
        if (!m_caps.empty())
        {
            topology.SetCapabilities(WanCapabilities::Parse(m_caps, "test"));
        }
        const uint32_t n = topology.GetIslands().size();
        NS_TEST_ASSERT_MSG_LT_OR_EQ(n, 64u, "header size assumes one bitmap word");
        WanTopologyHelper wan;
        wan.SetMtu(MTU);
        wan.Install(topology);
        CliqueSchedule schedule = m_exchange == Exchange::ROTATING ? CliqueSchedule::MoshpitGrid(n)
                                  : m_exchange == Exchange::PAIRS  ? CliqueSchedule::GossipPairs(n)
                                                                  : CliqueSchedule::GlobalClique(n);
        if (m_exchange == Exchange::RING || m_exchange == Exchange::TREE)
        {
            schedule.SetAlgorithms(
                0,
                {m_exchange == Exchange::RING ? SyncAlgorithm::RING : SyncAlgorithm::TREE});
        }
        TrainingHelper helper(wan, schedule);
        helper.SetModelBytes(MODEL_BYTES);
        helper.SetRounds(std::min<uint32_t>(std::max<uint32_t>(2, schedule.GetPeriod()), 4));
        helper.SetChooseAlgorithms(m_exchange == Exchange::ROTATING);
        helper.Install();
        TrainingExperiment experiment(helper);
        experiment.Run();

        const TrainingSummary summary = experiment.Summarise(1e-3);
        NS_TEST_EXPECT_MSG_EQ(summary.retransmissions, 0u, "resends");
        NS_TEST_EXPECT_MSG_EQ(summary.lostPeers, 0u, "lost peers");
        NS_TEST_EXPECT_MSG_EQ(summary.queueDrops, 0u, "queue drops");
        const TrainingFpgaCounters& fpga = experiment.GetFpgaCounters();
        NS_TEST_EXPECT_MSG_EQ(fpga.partial, 0u, "FPGA partial flushes");
        NS_TEST_EXPECT_MSG_EQ(fpga.overflows, 0u, "FPGA overflows");
        NS_TEST_EXPECT_MSG_EQ(fpga.mismatches, 0u, "FPGA mismatches");
        NS_TEST_EXPECT_MSG_EQ(fpga.duplicates, 0u, "FPGA duplicates");
        NS_TEST_EXPECT_MSG_EQ_TOL(summary.meanSync,
                                  summary.estimatedSync,
                                  SYNC_TOLERANCE * summary.estimatedSync,
                                  "mean sync time against the cost model's");

        const std::vector<SyncRoundEstimate>& plans = helper.GetPlans();
        const std::vector<TrainingRoundRecord>& records = experiment.GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(),
                              size_t{n} * helper.GetRounds(),
                              "a record per island and round");
        for (const TrainingRoundRecord& r : records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "island " << r.island << " round " << r.round);
            uint64_t sent = 0;
            uint64_t received = 0;
            uint64_t packetsSent = 0;
            uint64_t packetsReceived = 0;
            PlannedBytes(plans.at(r.round % plans.size()),
                         wan.GetRouting(),
                         r.island,
                         wan.GetFpga(r.island) != nullptr,
                         sent,
                         received,
                         packetsSent,
                         packetsReceived);
            NS_TEST_EXPECT_MSG_EQ(r.bytesSent, sent, "island " << r.island << " round " << r.round);
            NS_TEST_EXPECT_MSG_EQ(r.bytesReceived,
                                  received,
                                  "island " << r.island << " round " << r.round);
            NS_TEST_EXPECT_MSG_EQ(r.packetsSent,
                                  packetsSent,
                                  "island " << r.island << " round " << r.round);
            NS_TEST_EXPECT_MSG_EQ(r.packetsReceived,
                                  packetsReceived,
                                  "island " << r.island << " round " << r.round);
        }
        Simulator::Destroy();
    }

    CorpusEntry m_entry; //!< the WAN
    std::string m_caps;  //!< capability set ("" : the topology's own)
    Exchange m_exchange; //!< how cliques exchange
};

/**
 * \ingroup wan-training-tests
 * \brief One shard of the corpus: every WAN x exchange under one capability set, named
 *        wan-corpus-<set>; "mixed" runs the generator's own per-city capabilities on the WANs
 *        that have them. The six shards together are the whole corpus.
 */
class WanCorpusTestSuite : public TestSuite
{
  public:
    /** \param caps capability set ("" : the generator's own per-city mix) */
    explicit WanCorpusTestSuite(const std::string& caps)
        : TestSuite("wan-corpus-" + (caps.empty() ? std::string("mixed") : caps))
    {
        for (const CorpusEntry& entry : Corpus())
        {
            if (caps.empty() && !entry.mixed)
            {
                continue;
            }
            // Trees where some city may add up the updates on the way: the transit shard,
            // and the generator's mix (half the cities with transit FPGAs).
            const bool transit = caps.empty() || caps == "both+transit";
            std::vector<Exchange> exchanges = {Exchange::DIRECT,
                                               Exchange::RING,
                                               Exchange::ROTATING,
                                               Exchange::PAIRS};
            if (caps == "both+transit")
            {
                exchanges = {Exchange::TREE, Exchange::ROTATING};
            }
            else if (transit)
            {
                exchanges.push_back(Exchange::TREE);
            }
            for (Exchange exchange : exchanges)
            {
                AddTestCase(new WanCorpusTestCase(entry, caps, exchange));
            }
        }
    }
};

/// The shards' static instances, one per capability set (see the ctest-suite lines above).
static WanCorpusTestSuite g_wanCorpusNone("none");
static WanCorpusTestSuite g_wanCorpusMulticast("multicast");
static WanCorpusTestSuite g_wanCorpusFpga("fpga");
static WanCorpusTestSuite g_wanCorpusBoth("both");
static WanCorpusTestSuite g_wanCorpusMixed("");
static WanCorpusTestSuite g_wanCorpusTransit("both+transit");

} // namespace
