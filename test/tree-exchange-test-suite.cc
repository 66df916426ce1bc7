/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of TreeExchange (doc/training.rst, "Reduction trees (TREE)"). The exchange alone,
 * driven by hand: a root collecting single DATA pieces and multi-contributor aggregates (as
 * transit FPGAs send them), discarding an overlapping piece and asking its fresh contributor
 * again, completing chunks out of order and answering "not yet"; a member resending its chunks
 * and averaging totals that lack its own values. Then the application on the scenarios of
 * training-scenario.h with TREE configs made here (root, streams and rates chosen by the test;
 * the helper plans the schedule as DIRECT, and the hook replaces every island's config before
 * the run): plain routers, so every member's stream reaches the root separately. A star's
 * round time against the links, worked out here; exact fixed-point averages (k = 3 and 8, with
 * and without multicast) against an independent sum of the initial parameters; single drops on
 * the way up and down, 1% WAN loss, a lost member and a lost root; the adaptive transport; and
 * the tcp transport's refusal.
 */

// ctest-suite: tree-exchange

#include "exchange-unit-harness.h"
#include "training-scenario.h"

#include "ns3/chunk-layout.h"
#include "ns3/error-model.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/round-exchange.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/training-application.h"
#include "ns3/training-helper.h"
#include "ns3/tree-exchange.h"
#include "ns3/wan-topology-helper.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;
using namespace ns3::training_test;

namespace
{

/// Allowed difference between a computed time and the simulated one: ns rounding only.
const Time TIME_TOLERANCE = NanoSeconds(10);

/** A reduction tree over every island of a run, as the test plans it. */
struct TreePlan
{
    uint32_t root{0};     //!< the root island
    double upBps{0};      //!< each member's stream to the root
    double downBps{0};    //!< the root's multicast stream, or each unicast copy
    bool multicast{true}; //!< one multicast stream down, else unicast copies
};

/**
 * \param plan the tree \param n islands (all members) \param addresses their addresses
 * \param group the root's multicast group (multicast plans)
 * \return every island's TREE config
 */
std::vector<TrainingRoundConfig>
TreeConfigs(const TreePlan& plan,
            uint32_t n,
            const std::vector<Ipv4Address>& addresses,
            Ipv4Address group)
{
    std::vector<TrainingRoundConfig> configs(n);
    const std::vector<uint32_t> members = AllIslands(n);
    std::vector<uint32_t> below; // every member but the root
    std::copy_if(members.begin(), members.end(), std::back_inserter(below), [&plan](uint32_t m) {
        return m != plan.root;
    });
    for (uint32_t i = 0; i < n; ++i)
    {
        TrainingRoundConfig& config = configs[i];
        config.members = members;
        config.algorithm = SyncAlgorithm::TREE;
        config.root = plan.root;
        if (i != plan.root)
        {
            TrainingStreamConfig up;
            up.receivers = {plan.root};
            up.destination = addresses[plan.root];
            up.rateBps = plan.upBps;
            config.streams.push_back(up);
            continue;
        }
        if (plan.multicast)
        {
            TrainingStreamConfig down;
            down.receivers = below;
            down.destination = group;
            down.multicast = true;
            down.rateBps = plan.downBps;
            config.streams.push_back(down);
            continue;
        }
        for (uint32_t m : below)
        {
            TrainingStreamConfig down;
            down.receivers = {m};
            down.destination = addresses[m];
            down.rateBps = plan.downBps;
            config.streams.push_back(down);
        }
    }
    return configs;
}

/**
 * \brief Make \p setup's run a TREE over all its islands: before the run, install the root's
 *        multicast tree (multicast plans: capability multicast, unless the setup has other
 *        capabilities) and hand every application its config.
 * \param setup the run \param plan the tree
 * \param more what else to do before the run (error models), or empty
 */
void
UseTree(Setup& setup,
        const TreePlan& plan,
        std::function<void(WanTopologyHelper&, TrainingHelper&)> more = {})
{
    if (plan.multicast && setup.caps == "none")
    {
        setup.caps = "multicast"; // routers that carry the root's tree; no FPGA on the way
    }
    setup.beforeRun = [plan, more](WanTopologyHelper& wan, TrainingHelper& helper) {
        const uint32_t n = wan.GetTopology().GetIslands().size();
        std::vector<Ipv4Address> addresses;
        for (uint32_t i = 0; i < n; ++i)
        {
            addresses.push_back(wan.GetIslandAddress(i));
        }
        Ipv4Address group;
        if (plan.multicast)
        {
            group = wan.AllocateGroup();
            std::string refusal;
            const bool carried =
                wan.InstallMulticastTree(plan.root, group, AllIslands(n), &refusal);
            NS_ABORT_MSG_UNLESS(carried, "the root's tree: " << refusal);
        }
        const std::vector<TrainingRoundConfig> configs = TreeConfigs(plan, n, addresses, group);
        for (uint32_t i = 0; i < n; ++i)
        {
            helper.GetApplication(i)->SetRoundConfigs({configs[i]});
        }
        if (more)
        {
            more(wan, helper);
        }
    };
}

/**
 * \param before parameters of the islands averaged \param rounds chained rounds
 * \return what each of them holds after \p rounds exact fixed-point averages over them
 *         (FixedPointMean element by element, the result encoded again for the next round)
 */
std::vector<double>
AfterRounds(std::vector<std::vector<double>> before, uint32_t rounds)
{
    std::vector<double> mean = before.at(0);
    for (uint32_t r = 0; r < rounds; ++r)
    {
        for (size_t e = 0; e < mean.size(); ++e)
        {
            mean[e] = FixedPointMean(before, e);
        }
        std::fill(before.begin(), before.end(), mean);
    }
    return mean;
}

/**
 * \ingroup wan-training-tests
 * \brief Drops the first pass of chosen gradient packets (type, sender, chunk) once each, as
 *        a device's ReceiveErrorModel (the packet starts at its IPv4 header).
 */
class DropFirstPass : public ErrorModel
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TreeTestDropFirstPass")
                                .SetParent<ErrorModel>()
                                .SetGroupName("WanTraining")
                                .AddConstructor<DropFirstPass>();
        return tid;
    }

    /** \param type packet type \param sender its sender \param chunk its chunk: drop it */
    void Add(GradientHeader::Type type, uint32_t sender, uint32_t chunk)
    {
        m_wanted.insert({type, sender, chunk});
    }

  private:
    bool DoCorrupt(Ptr<Packet> packet) override
    {
        Ptr<Packet> copy = packet->Copy();
        copy->RemoveAtStart(IP_UDP);
        GradientHeader h;
        if (!GradientHeader::Parse(copy, h) || h.HasFlag(GradientHeader::FLAG_RETRANSMISSION))
        {
            return false;
        }
        return m_wanted.erase({h.GetType(), h.GetSender(), h.GetChunkIndex()}) > 0;
    }

    void DoReset() override
    {
    }

    std::set<std::tuple<uint8_t, uint32_t, uint32_t>> m_wanted; //!< not dropped yet
};

/**
 * \param k islands in one city \return a star: k islands on one router, 11 chunks (the last
 *        400 bytes), no WAN
 */
Setup
Star(uint32_t k)
{
    Setup setup;
    setup.cities = 1;
    setup.perCity = k;
    return setup;
}

/**
 * \param k clique size: 3 (three cities of one island) or 8 (four of two)
 * \return a WAN of that many islands with real payloads, 2 rounds of a 60-chunk model
 */
Setup
Wan(uint32_t k)
{
    Setup setup;
    setup.cities = k == 3 ? 3 : 4;
    setup.perCity = k == 3 ? 1 : 2;
    setup.real = true;
    setup.rounds = 2;
    setup.modelBytes = 60 * CHUNK + 400;
    return setup;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// The exchange alone

/**
 * \ingroup wan-training-tests
 * \brief The root collects single DATA pieces and multi-contributor aggregates (as transit
 *        FPGAs send them), completes chunks out of order, discards overlaps and late pieces,
 *        answers "not yet" and resends its totals.
 *
 * Root island 0 of 0..3, one multicast stream down. Chunk 0: an aggregate of {1, 2} and DATA of
 * 3. Chunk 1: DATA of 2, then an aggregate of {2, 3} that overlaps (discarded; 3, not 2, is
 * asked again at once), a NACK of member 2 for chunk 1 (answered "not yet"). Chunk 2: an
 * aggregate of {1, 2, 3}, complete before chunk 1 (and its first pass shows 1's chunk 1 missing:
 * 1 is asked). Chunk 1's resends from 1 and 3 complete it; a late copy is a duplicate. 13 ms
 * later member 2 asks for chunk 1 again: it is resent to the group.
 */
class TreeRootUnitTestCase : public ExchangeUnitTestCase
{
  public:
    TreeRootUnitTestCase()
        : ExchangeUnitTestCase("root: single and aggregated pieces, overlap, out of order, not yet")
    {
    }

  private:
    void DoRun() override
    {
        MakeContext(0);
        const Ipv4Address group("239.0.0.9");
        TrainingRoundConfig config;
        config.members = {0, 1, 2, 3};
        config.algorithm = SyncAlgorithm::TREE;
        config.root = 0;
        TrainingStreamConfig down;
        down.receivers = {1, 2, 3};
        down.destination = group;
        down.multicast = true;
        down.rateBps = 1e9;
        config.streams = {down};
        auto exchange = std::make_unique<TreeExchange>(m_context, 0, config);
        TreeExchange* ex = exchange.get();
        NS_TEST_ASSERT_MSG_EQ(ex->IsRoot(), true, "island 0 is the root");

        // Parameters in fixed point: island i, element e: 1000 i + e - 7 (some negative).
        MakeOwn(1000, 1, -7);
        auto slice = [this](std::vector<uint32_t> islands, uint32_t chunk) {
            return Slice(islands, chunk);
        };
        const uint16_t reduce = GradientHeader::FLAG_REDUCE | GradientHeader::FLAG_REAL_PAYLOAD;
        const uint16_t resend = reduce | GradientHeader::FLAG_RETRANSMISSION;
        using G = GradientHeader;
        Simulator::Schedule(MilliSeconds(1), [ex, this]() { ex->Start(m_own[0]); });
        Deliver(ex, MilliSeconds(2), Header(G::AGGREGATE, 1, 0, {1, 2}, reduce), slice({1, 2}, 0));
        Deliver(ex, MilliSeconds(2), Header(G::DATA, 3, 0, {3}, reduce), slice({3}, 0));
        Deliver(ex, MilliSeconds(3), Header(G::DATA, 2, 1, {2}, reduce), slice({2}, 1));
        Deliver(ex, MilliSeconds(4), Header(G::AGGREGATE, 2, 1, {2, 3}, reduce), slice({2, 3}, 1));
        Deliver(ex, MilliSeconds(5), Header(G::NACK, 2, 1, {0}, 0), {});
        Deliver(ex,
                MilliSeconds(6),
                Header(G::AGGREGATE, 3, 2, {1, 2, 3}, reduce),
                slice({1, 2, 3}, 2));
        Deliver(ex, MilliSeconds(7), Header(G::DATA, 1, 1, {1}, resend), slice({1}, 1));
        Deliver(ex, MilliSeconds(7), Header(G::DATA, 3, 1, {3}, resend), slice({3}, 1));
        Deliver(ex, MilliSeconds(8), Header(G::DATA, 3, 1, {3}, resend), slice({3}, 1));
        Deliver(ex, MilliSeconds(20), Header(G::NACK, 2, 1, {0}, 0), {});
        Simulator::Run();

        // Down: chunks 0, 2, 1 as they completed, then the resend of 1; every one the exact
        // total of all four members.
        const std::vector<Sent> data = SentTo(false, group);
        NS_TEST_ASSERT_MSG_EQ(data.size(), 4u, "three totals and one resend down");
        const std::vector<uint32_t> order = {0, 2, 1, 1};
        // Chunk 2 waits for the two copies of the NACK to 1 its arrival caused: control
        // packets are charged to the pacer of the stream on the same access link.
        const Time nacks = Seconds(2 * (NACK_IP + FRAMING) * 8.0 / down.rateBps);
        const std::vector<Time> at = {MilliSeconds(2), MilliSeconds(6) + nacks, MilliSeconds(7)};
        for (uint32_t i = 0; i < 4; ++i)
        {
            const GradientHeader& h = data[i].header;
            NS_TEST_EXPECT_MSG_EQ(h.GetChunkIndex(), order[i], "down packet " << i);
            NS_TEST_EXPECT_MSG_EQ(h.GetType(), G::AGGREGATE, "a total is an AGGREGATE");
            NS_TEST_EXPECT_MSG_EQ(h.HasFlag(G::FLAG_REDUCE), false, "going down");
            NS_TEST_EXPECT_MSG_EQ(h.HasFlag(G::FLAG_RETRANSMISSION), (i == 3), "resend flag");
            NS_TEST_EXPECT_MSG_EQ(h.GetContributors().Count(), 4u, "all members summed");
            NS_TEST_EXPECT_MSG_EQ((data[i].values == slice({0, 1, 2, 3}, order[i])),
                                  true,
                                  "exact total of chunk " << order[i]);
            if (i < 3)
            {
                NS_TEST_EXPECT_MSG_EQ(data[i].at, at[i], "sent as soon as complete, " << i);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(m_resent, 1u, "one resend");
        // Asked again: 3 at once after the overlap (two copies), 1 after chunk 2's first pass
        // showed its chunk 1 missing; never 2, whose chunk 1 was in.
        const std::vector<Sent> to3 = SentTo(true, m_context.settings.addresses[3]);
        const std::vector<Sent> to1 = SentTo(true, m_context.settings.addresses[1]);
        const std::vector<Sent> to2 = SentTo(true, m_context.settings.addresses[2]);
        NS_TEST_EXPECT_MSG_EQ(to3.size(), 2u, "3 asked once, two copies");
        NS_TEST_EXPECT_MSG_EQ(to1.size(), 2u, "1 asked once, two copies");
        for (const Sent& s : to3)
        {
            NS_TEST_EXPECT_MSG_EQ(s.header.GetType(), G::NACK, "a NACK to 3");
            NS_TEST_EXPECT_MSG_EQ(s.header.GetNackRanges().at(0).first, 1u, "for chunk 1");
            NS_TEST_EXPECT_MSG_EQ(s.at, MilliSeconds(4), "at the overlap");
        }
        for (const Sent& s : to1)
        {
            NS_TEST_EXPECT_MSG_EQ(s.header.GetType(), G::NACK, "a NACK to 1");
            NS_TEST_EXPECT_MSG_EQ(s.at, MilliSeconds(6), "at chunk 2's first pass");
        }
        NS_TEST_ASSERT_MSG_EQ(to2.size(), 1u, "2 hears one answer");
        NS_TEST_EXPECT_MSG_EQ(to2[0].header.GetType(), G::ACK, "not yet");
        NS_TEST_EXPECT_MSG_EQ(to2[0].header.GetContributors().IsEmpty(), true, "empty: not yet");
        NS_TEST_EXPECT_MSG_EQ(to2[0].at, MilliSeconds(5), "at the NACK");
        const std::vector<Sent> ends = SentTo(true, group);
        NS_TEST_EXPECT_MSG_EQ(ends.size(), 1u, "one END down");
        NS_TEST_EXPECT_MSG_EQ(m_context.counters.duplicates, 2u, "the overlap and the late copy");
        NS_TEST_EXPECT_MSG_EQ(m_context.counters.dropped, 0u, "nothing malformed");
        NS_TEST_EXPECT_MSG_EQ(m_completed, 1u, "the round ended once");
        NS_TEST_EXPECT_MSG_EQ(ex->IsFinished(), true, "finished");

        CheckExactMean(*ex, "root's mean");
        exchange.reset();
        Simulator::Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A member sends its chunks up with FLAG_REDUCE, resends one the root asks for, NACKs a
 *        gap in the root's totals, drops what is not its root's total (and a total before its
 *        start), and averages: a total holding it as is, a total the root made without it with
 *        its own values added.
 */
class TreeMemberUnitTestCase : public ExchangeUnitTestCase
{
  public:
    TreeMemberUnitTestCase()
        : ExchangeUnitTestCase("member: up with REDUCE, resend, gap NACK, totals without it")
    {
    }

  private:
    void DoRun() override
    {
        MakeContext(1);
        TrainingRoundConfig config;
        config.members = {0, 1, 2, 3};
        config.algorithm = SyncAlgorithm::TREE;
        config.root = 0;
        TrainingStreamConfig up;
        up.receivers = {0};
        up.destination = m_context.settings.addresses[0];
        up.rateBps = 1e9;
        config.streams = {up};
        auto exchange = std::make_unique<TreeExchange>(m_context, 0, config);
        TreeExchange* ex = exchange.get();
        NS_TEST_ASSERT_MSG_EQ(ex->IsRoot(), false, "island 1 is a member");
        const std::vector<int32_t> own = {11, -12, 13, -14, 15, -16};
        const std::vector<std::vector<int32_t>> total = {{100, 200}, {-300, 400}, {500, -600}};
        const uint16_t real = GradientHeader::FLAG_REAL_PAYLOAD;
        using G = GradientHeader;
        // Before its start a member cannot take a total without it (its values are not known).
        Deliver(ex, MicroSeconds(500), Header(G::AGGREGATE, 0, 2, {0, 2, 3}, real), total[2]);
        Simulator::Schedule(MilliSeconds(1), [ex, own]() { ex->Start(own); });
        Deliver(ex, MilliSeconds(2), Header(G::AGGREGATE, 0, 0, {0, 1, 2, 3}, real), total[0]);
        // Not its root's total: from a member, and one going up.
        Deliver(ex, MilliSeconds(2), Header(G::AGGREGATE, 2, 1, {0, 1, 2, 3}, real), total[1]);
        Deliver(ex,
                MilliSeconds(2),
                Header(G::AGGREGATE, 0, 1, {0, 1, 2, 3}, real | G::FLAG_REDUCE),
                total[1]);
        // The root gave up on island 1 for chunk 2; chunk 1 is a gap behind it.
        Deliver(ex, MilliSeconds(3), Header(G::AGGREGATE, 0, 2, {0, 2, 3}, real), total[2]);
        Deliver(ex, MilliSeconds(4), Header(G::NACK, 0, 1, {1}, 0), {});
        Deliver(ex,
                MilliSeconds(5),
                Header(G::AGGREGATE, 0, 1, {0, 1, 2, 3}, real | G::FLAG_RETRANSMISSION),
                total[1]);
        Simulator::Run();

        const std::vector<Sent> data = SentTo(false, m_context.settings.addresses[0]);
        NS_TEST_ASSERT_MSG_EQ(data.size(), 4u, "three chunks up and one resend");
        for (uint32_t i = 0; i < 4; ++i)
        {
            const GradientHeader& h = data[i].header;
            const uint32_t chunk = i < 3 ? i : 1;
            NS_TEST_EXPECT_MSG_EQ(h.GetType(), G::DATA, "up as DATA");
            NS_TEST_EXPECT_MSG_EQ(h.GetChunkIndex(), chunk, "in order, then the resend");
            NS_TEST_EXPECT_MSG_EQ(h.HasFlag(G::FLAG_REDUCE), true, "going up");
            NS_TEST_EXPECT_MSG_EQ(h.HasFlag(G::FLAG_RETRANSMISSION), (i == 3), "resend flag");
            NS_TEST_EXPECT_MSG_EQ(
                (data[i].values == std::vector<int32_t>{own[2 * chunk], own[2 * chunk + 1]}),
                true,
                "its own values");
        }
        NS_TEST_EXPECT_MSG_EQ(data[3].at, MilliSeconds(4), "resent at the NACK");
        NS_TEST_EXPECT_MSG_EQ(m_resent, 1u, "one resend");
        uint32_t nacks = 0;
        uint32_t ends = 0;
        for (const Sent& s : SentTo(true, m_context.settings.addresses[0]))
        {
            if (s.header.GetType() == G::NACK)
            {
                ++nacks;
                NS_TEST_EXPECT_MSG_EQ(s.header.GetNackRanges().at(0).first, 1u, "chunk 1");
                NS_TEST_EXPECT_MSG_EQ(s.at, MilliSeconds(3), "when chunk 2 came");
            }
            ends += s.header.GetType() == G::END ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(nacks, 2u, "the gap asked for once, two copies");
        NS_TEST_EXPECT_MSG_EQ(ends, 1u, "one END up");
        NS_TEST_EXPECT_MSG_EQ(m_context.counters.dropped,
                              3u,
                              "a total before the start, a member's packet and one going up");
        NS_TEST_EXPECT_MSG_EQ(m_completed, 1u, "the round ended once");
        NS_TEST_EXPECT_MSG_EQ(ex->IsAbandoned(), false, "not abandoned");

        std::vector<double> x(6, 0.0);
        ex->Average(x, SCALE);
        for (uint32_t e = 0; e < 6; ++e)
        {
            const uint32_t chunk = e / 2;
            const int32_t value = total[chunk][e % 2];
            const double expected =
                chunk == 2 ? (value + own[e]) / (SCALE * 4) : value / (SCALE * 4);
            NS_TEST_EXPECT_MSG_EQ(x[e], expected, "member's mean, element " << e);
        }
        exchange.reset();
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------------------------
// The application on a WAN

/**
 * \ingroup wan-training-tests
 * \brief A star of k islands on one router (10 Gbit/s, 50 us access links): the round time of
 *        a TREE, worked out from the links.
 *
 * Every member paces its 11 chunks (10 full, one of 400 bytes) at a k-th of the access rate, so
 * the k-1 copies of chunk i that reach the router together leave it for the root one after the
 * other within the chunk's slot, and the root's link is free when the next ones come. Chunk i
 * is complete at the root when the last of them arrives: T_i = S_i + ser_i + d + (k-1) ser_i +
 * d (S_i the members' send time, ser_i the chunk's serialisation, d the access delay). The root
 * sends its total down at D_i = max(T_i, D_{i-1} + wire_{i-1} / down rate): multicast (half the
 * access rate: one copy up, the router replicates), or unicast copies (a k-th each, queued one
 * after the other on the root's link). A member ends when the last total arrives: D_10 + (j + 2)
 * ser_10 + 2d, j its copy's place on the root's link (0 with multicast); the root when it sent
 * the last total, D_10. Bytes and packets are counted exactly, and nothing is resent.
 */
class TreeStarTimingTestCase : public TestCase
{
  public:
    /** \param k islands \param multicast one multicast stream down */
    TreeStarTimingTestCase(uint32_t k, bool multicast)
        : TestCase("star of " + std::to_string(k) + ": round time from the links, " +
                   (multicast ? "multicast" : "unicast copies") + " down"),
          m_k(k),
          m_multicast(multicast)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t k = m_k;
        Setup setup = Star(k);
        TreePlan plan;
        plan.root = 1;
        plan.upBps = double(ACCESS_BPS) / k;
        plan.downBps = m_multicast ? ACCESS_BPS / 2.0 : double(ACCESS_BPS) / k;
        plan.multicast = m_multicast;
        UseTree(setup, plan);
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), k, "one round per island");

        const uint32_t chunks = Chunks(setup.modelBytes);
        const Time d = Seconds(ACCESS_DELAY);
        const Time t0 = run.records[plan.root].syncStart;
        Time free(0); // the root's access link, towards the root
        Time down(0); // the root's last total sent
        uint32_t lastIp = 0;
        for (uint32_t i = 0; i < chunks; ++i)
        {
            const uint32_t payload =
                i + 1 < chunks ? CHUNK : setup.modelBytes - (chunks - 1) * CHUNK;
            const uint32_t ip = payload + HEADER + IP_UDP;
            const Time ser = Serialisation(ip, ACCESS_BPS);
            const Time sent = t0 + Seconds(i * (FULL_CHUNK_IP + FRAMING) * 8.0 / plan.upBps);
            const Time start = std::max(sent + ser + d, free);
            free = start + (k - 1) * ser;
            const Time complete = free + d;
            down = i == 0 ? complete
                          : std::max(complete,
                                     down + Seconds((lastIp + FRAMING) * 8.0 / plan.downBps));
            lastIp = ip;
        }
        const Time lastSer = Serialisation(lastIp, ACCESS_BPS);
        uint32_t copy = 0;
        for (uint32_t i = 0; i < k; ++i)
        {
            const TrainingRoundRecord& r = run.records[i];
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "island " << i << " finished");
            NS_TEST_EXPECT_MSG_EQ(r.syncStart, t0, "all start together");
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0u, "nothing resent, island " << i);
            NS_TEST_EXPECT_MSG_EQ(r.lostPeers.size(), 0u, "nobody lost");
            Time expected = down;
            if (i != plan.root)
            {
                const uint32_t place = m_multicast ? 0 : copy++;
                expected = down + (place + 2) * lastSer + 2 * d;
            }
            NS_TEST_EXPECT_MSG_LT_OR_EQ(r.syncEnd - expected,
                                        TIME_TOLERANCE,
                                        "island " << i << " ends when computed");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(expected - r.syncEnd,
                                        TIME_TOLERANCE,
                                        "island " << i << " ends when computed");
            const uint64_t stream = StreamBytes(setup.modelBytes);
            const uint32_t copies = i != plan.root ? 1 : m_multicast ? 1 : k - 1;
            NS_TEST_EXPECT_MSG_EQ(r.bytesSent, copies * stream, "bytes sent, island " << i);
            NS_TEST_EXPECT_MSG_EQ(r.packetsSent, copies * chunks, "packets sent, island " << i);
            NS_TEST_EXPECT_MSG_EQ(r.controlPacketsSent, copies, "one END per stream");
            NS_TEST_EXPECT_MSG_EQ(r.bytesReceived,
                                  (i == plan.root ? k - 1 : 1) * stream,
                                  "bytes received, island " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "no queue drop");
    }

    uint32_t m_k;     //!< islands
    bool m_multicast; //!< multicast down
};

/**
 * \ingroup wan-training-tests
 * \brief Real payloads on a WAN of plain routers (every member's stream reaches the root
 *        separately): after 2 rounds every island holds exactly the fixed-point mean of the
 *        initial parameters, computed here from them (AfterRounds), bit for bit.
 *
 * Members pace at (k-1)-th of the access rate, filling the root's ingress; the root sends at
 * the access rate (multicast) or a (k-1)-th per copy. Queues are the helper's tuned bound for
 * the DIRECT plan of the same clique (k-1 streams entering every island), so a stream paced
 * over its rate overflows them: no queue drop, no resend.
 */
class TreeRealTestCase : public TestCase
{
  public:
    /** \param k clique size (3 or 8) \param multicast one multicast stream down */
    TreeRealTestCase(uint32_t k, bool multicast)
        : TestCase("k = " + std::to_string(k) + ", real payloads: exact means, " +
                   (multicast ? "multicast" : "unicast copies") + " down"),
          m_k(k),
          m_multicast(multicast)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup = Wan(m_k);
        TreePlan plan;
        plan.root = m_k - 2;
        plan.upBps = double(ACCESS_BPS) / (m_k - 1);
        plan.downBps = m_multicast ? double(ACCESS_BPS) : double(ACCESS_BPS) / (m_k - 1);
        plan.multicast = m_multicast;
        UseTree(setup, plan);
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), setup.rounds * m_k, "all records");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "island " << r.island << " finished");
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0u, "nothing resent");
            NS_TEST_EXPECT_MSG_EQ(r.lostPeers.size(), 0u, "nobody lost");
        }
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "every stream kept to its rate");
        const std::vector<double> expected = AfterRounds(run.before, setup.rounds);
        for (uint32_t i = 0; i < m_k; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(MaxError(run.after[i], expected), 0.0, "island " << i);
        }
    }

    uint32_t m_k;     //!< clique size
    bool m_multicast; //!< multicast down
};

/**
 * \ingroup wan-training-tests
 * \brief Single drops of first passes, up and down, in the middle and at the tail (k = 3,
 *        root 0): the root asks member 1 for its chunk 4 (a gap) and member 2 for its last
 *        chunk (behind its END); members 1 and 2 ask the root for totals 2 and 10 (a gap, and
 *        behind the root's END). Each is resent once, the means are exact, and every round
 *        ends before the first silence check (RetransmissionTimeout, 20 ms; a lossless round
 *        takes about 5 ms): gaps and ENDs found the drops.
 */
class TreeSingleDropsTestCase : public TestCase
{
  public:
    /** \param multicast one multicast stream down */
    explicit TreeSingleDropsTestCase(bool multicast)
        : TestCase(std::string("single drops up and down, middle and tail: one resend each, ") +
                   (multicast ? "multicast" : "unicast copies")),
          m_multicast(multicast)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup = Wan(3);
        setup.rounds = 1;
        setup.modelBytes = 10 * CHUNK + 400;
        TreePlan plan;
        plan.root = 0;
        plan.upBps = ACCESS_BPS / 2.0;
        plan.downBps = m_multicast ? double(ACCESS_BPS) : ACCESS_BPS / 2.0;
        plan.multicast = m_multicast;
        UseTree(setup, plan, [](WanTopologyHelper& wan, TrainingHelper&) {
            const uint32_t last = Chunks(10 * CHUNK + 400) - 1;
            Ptr<DropFirstPass> atRoot = CreateObject<DropFirstPass>();
            atRoot->Add(GradientHeader::DATA, 1, 4);
            atRoot->Add(GradientHeader::DATA, 2, last);
            Ptr<DropFirstPass> at1 = CreateObject<DropFirstPass>();
            at1->Add(GradientHeader::AGGREGATE, 0, 2);
            Ptr<DropFirstPass> at2 = CreateObject<DropFirstPass>();
            at2->Add(GradientHeader::AGGREGATE, 0, last);
            wan.GetIslandDevice(0)->SetAttribute("ReceiveErrorModel", PointerValue(atRoot));
            wan.GetIslandDevice(1)->SetAttribute("ReceiveErrorModel", PointerValue(at1));
            wan.GetIslandDevice(2)->SetAttribute("ReceiveErrorModel", PointerValue(at2));
        });
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 3u, "one round per island");
        NS_TEST_EXPECT_MSG_EQ(run.lossDrops, 4u, "the four chosen packets dropped");
        const std::vector<uint32_t> resends = {2, 1, 1};
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "island " << r.island << " finished");
            NS_TEST_EXPECT_MSG_EQ(r.lostPeers.size(), 0u, "nobody lost");
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions,
                                  resends[r.island],
                                  "resends of island " << r.island);
            // Gaps and ENDs, not silence, revealed the drops: no round waited for a check.
            NS_TEST_EXPECT_MSG_LT(r.syncEnd - r.syncStart,
                                  RETRANSMISSION_TIMEOUT,
                                  "island " << r.island << " repaired without a silence check");
        }
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "no queue drop");
        const std::vector<double> expected = AfterRounds(run.before, 1);
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(MaxError(run.after[i], expected), 0.0, "island " << i);
        }
    }

    bool m_multicast; //!< multicast down
};

/**
 * \ingroup wan-training-tests
 * \brief 1% loss on every WAN link direction, k = 8 over four cities, 2 rounds: every round
 *        ends, nobody is lost, losses were repaired, no queue drop, and the means are exact.
 */
class TreeLossTestCase : public TestCase
{
  public:
    /** \param multicast one multicast stream down \param rngRun the RNG run */
    TreeLossTestCase(bool multicast, uint64_t rngRun)
        : TestCase(std::string("k = 8, 1% WAN loss: recovered, exact, ") +
                   (multicast ? "multicast" : "unicast copies") + ", RngRun " +
                   std::to_string(rngRun)),
          m_multicast(multicast),
          m_run(rngRun)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup = Wan(8);
        setup.loss = 0.01;
        setup.run = m_run;
        setup.modelBytes = 200 * CHUNK + 400; // about 50 WAN drops per run
        setup.queuePackets = 1; // raised by the helper to the planned bound: no slack to hide in
        TreePlan plan;
        plan.root = 5;
        plan.upBps = ACCESS_BPS / 7.0;
        plan.downBps = m_multicast ? double(ACCESS_BPS) : ACCESS_BPS / 7.0;
        plan.multicast = m_multicast;
        UseTree(setup, plan);
        const RunResult run = Simulate(setup); // returning at all says nothing hangs
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 16u, "8 islands x 2 rounds");
        uint64_t resends = 0;
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "island " << r.island << " finished");
            NS_TEST_EXPECT_MSG_EQ(r.lostPeers.size(), 0u, "nobody lost");
            resends += r.retransmissions;
        }
        NS_TEST_EXPECT_MSG_GT(run.lossDrops, 0u, "the WAN dropped packets");
        NS_TEST_EXPECT_MSG_GT(resends, 0u, "and they were resent");
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "recovery kept to the rates");
        const std::vector<double> expected = AfterRounds(run.before, setup.rounds);
        for (uint32_t i = 0; i < 8; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(MaxError(run.after[i], expected), 0.0, "island " << i);
        }
    }

    bool m_multicast; //!< multicast down
    uint64_t m_run;   //!< RNG run
};

/**
 * \ingroup wan-training-tests
 * \brief A cut access link (k = 3, root 0): a cut member is lost to the root, which sums the
 *        others without it, and the member loses the root and keeps its parameters; a cut
 *        root is lost to both members, which keep theirs, and loses them both. Every round
 *        ends within the silence bound (twice: the members wait for the root's loss first).
 */
class TreeLostPeerTestCase : public TestCase
{
  public:
    /** \param cutRoot cut the root's link, else member 2's */
    explicit TreeLostPeerTestCase(bool cutRoot)
        : TestCase(std::string("cut link: lost ") + (cutRoot ? "root" : "member") +
                   " recorded, exact means of the rest, no hang"),
          m_cutRoot(cutRoot)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup = Wan(3);
        setup.rounds = 1;
        setup.cut = m_cutRoot ? 0 : 2;
        TreePlan plan;
        plan.root = 0;
        plan.upBps = ACCESS_BPS / 2.0;
        plan.downBps = ACCESS_BPS;
        UseTree(setup, plan);
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 3u, "one round per island");
        const std::vector<std::vector<uint32_t>> lost =
            m_cutRoot ? std::vector<std::vector<uint32_t>>{{1, 2}, {0}, {0}}
                      : std::vector<std::vector<uint32_t>>{{2}, {}, {0}};
        const Time rtt = 2 * PathTime(FULL_CHUNK_IP);
        const Time bound = rtt + (MAX_RETRIES + 1) * (RETRANSMISSION_TIMEOUT + rtt);
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "island " << r.island << " finished");
            NS_TEST_EXPECT_MSG_EQ((r.lostPeers == lost[r.island]),
                                  true,
                                  "lost peers of island " << r.island);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(r.syncEnd - r.syncStart,
                                        2 * bound,
                                        "island " << r.island << " within the bound");
        }
        // Who averages what: the cut island and the members of a cut root keep their own.
        const std::vector<uint32_t> kept =
            m_cutRoot ? std::vector<uint32_t>{1, 2} : std::vector<uint32_t>{2};
        std::vector<std::vector<double>> summed;
        for (uint32_t i = 0; i < 3; ++i)
        {
            if (std::find(kept.begin(), kept.end(), i) == kept.end())
            {
                summed.push_back(run.before[i]);
            }
        }
        const std::vector<double> mean = AfterRounds(summed, 1);
        for (uint32_t i = 0; i < 3; ++i)
        {
            const bool keeps = std::find(kept.begin(), kept.end(), i) != kept.end();
            NS_TEST_EXPECT_MSG_EQ(MaxError(run.after[i], keeps ? run.before[i] : mean),
                                  0.0,
                                  "island " << i << (keeps ? " kept its own" : " averaged"));
        }
    }

    bool m_cutRoot; //!< cut the root
};

/**
 * \ingroup wan-training-tests
 * \brief The adaptive transport runs a TREE with its rate controllers on the same streams:
 *        every round ends with the exact means.
 */
class TreeAdaptiveTestCase : public TestCase
{
  public:
    TreeAdaptiveTestCase()
        : TestCase("adaptive transport: k = 3, exact means")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup = Wan(3);
        setup.adaptive = true;
        TreePlan plan;
        plan.root = 2;
        plan.upBps = ACCESS_BPS / 2.0;
        plan.downBps = ACCESS_BPS;
        UseTree(setup, plan);
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 6u, "3 islands x 2 rounds");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "island " << r.island << " finished");
            NS_TEST_EXPECT_MSG_EQ(r.lostPeers.size(), 0u, "nobody lost");
        }
        const std::vector<double> expected = AfterRounds(run.before, setup.rounds);
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(MaxError(run.after[i], expected), 0.0, "island " << i);
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The tcp transport refuses a schedule with TREE cliques, saying why.
 */
class TreeTcpRefusedTestCase : public TestCase
{
  public:
    TreeTcpRefusedTestCase()
        : TestCase("tcp transport: TREE refused")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.tree = true;
        setup.tcp = true;
        const std::string message = Refusal<std::invalid_argument>(setup);
        NS_TEST_EXPECT_MSG_NE(message.find("tcp transport has no reduction trees"),
                              std::string::npos,
                              "refused: " << message);
    }
};

/** Pieces going up that reached the root, by kind. */
struct RootPieces
{
    uint64_t data{0};       //!< DATA with FLAG_REDUCE, first passes
    uint64_t aggregates{0}; //!< AGGREGATE with FLAG_REDUCE
    uint64_t complete{0};   //!< of those, summing every member but the root
    uint32_t members{0};    //!< members of the clique
};

/** \param pieces where to count \param packet an IPv4 packet the root's device received */
void
CountRootPiece(RootPieces* pieces, Ptr<const Packet> packet)
{
    Ptr<Packet> copy = packet->Copy();
    copy->RemoveAtStart(IP_UDP);
    GradientHeader h;
    if (!GradientHeader::Parse(copy, h) || !h.HasFlag(GradientHeader::FLAG_REDUCE))
    {
        return;
    }
    if (h.GetType() == GradientHeader::AGGREGATE)
    {
        ++pieces->aggregates;
        pieces->complete += h.GetContributors().Count() + 1 == pieces->members ? 1 : 0;
    }
    else if (h.GetType() == GradientHeader::DATA && !h.HasFlag(GradientHeader::FLAG_RETRANSMISSION))
    {
        ++pieces->data; // not the END behind them, which has FLAG_REDUCE too
    }
}

/**
 * \param setup a planned TREE run \param pieces where to count
 * \brief count the pieces its root's device receives (CountRootPiece)
 */
void
CountRootPieces(Setup& setup, RootPieces& pieces)
{
    pieces.members = 8;
    setup.beforeRun = [&pieces](WanTopologyHelper& wan, TrainingHelper& helper) {
        const uint32_t root = helper.GetPlans().at(0).cliqueRoot.at(0);
        wan.GetIslandDevice(root)->TraceConnectWithoutContext(
            "MacRx",
            MakeBoundCallback(&CountRootPiece, &pieces));
    };
}

/**
 * \ingroup wan-training-tests
 * \brief The whole chain as planned by the helper (Setup::tree: root and rates from the cost
 *        model) over transit FPGAs, k = 8 in four cities: the root takes multi-contributor
 *        aggregates, every round ends with the exact means, with and without loss.
 *
 * Without loss the pieces reaching the root are known from the topology alone: with transit at
 * every city the root's own city's transit FPGA has every other member below it, so the root
 * receives exactly one aggregate of all seven per chunk and round, and no DATA; without transit
 * it receives every member's DATA, 7 per chunk and round, and no aggregate.
 */
class TreeTransitTestCase : public TestCase
{
  public:
    /** \param caps capability set \param loss WAN loss: 0 or 1% */
    TreeTransitTestCase(const std::string& caps, double loss)
        : TestCase("planned TREE, capabilities=" + caps + (loss > 0 ? ", 1% WAN loss" : "") +
                   ": exact means"),
          m_caps(caps),
          m_loss(loss)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup = Wan(8);
        setup.caps = m_caps;
        setup.tree = true;
        setup.loss = m_loss;
        RootPieces pieces;
        CountRootPieces(setup, pieces);
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 16u, "8 islands x 2 rounds");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "island " << r.island << " finished");
            NS_TEST_EXPECT_MSG_EQ(r.lostPeers.size(), 0u, "nobody lost");
        }
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "no queue drop");
        const std::vector<double> expected = AfterRounds(run.before, setup.rounds);
        for (uint32_t i = 0; i < 8; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(MaxError(run.after[i], expected), 0.0, "island " << i);
        }
        const uint64_t chunkRounds = Chunks(setup.modelBytes) * setup.rounds;
        const bool transit = m_caps.find("transit") != std::string::npos;
        if (m_loss > 0)
        {
            NS_TEST_EXPECT_MSG_GT(run.lossDrops, 0u, "the WAN dropped packets");
            NS_TEST_EXPECT_MSG_EQ((pieces.aggregates > 0), transit, "aggregates iff transit");
            return;
        }
        // The expected counts in variables: the test macros compare their arguments unbracketed.
        const uint64_t aggregates = transit ? chunkRounds : 0;
        const uint64_t singles = transit ? 0 : 7 * chunkRounds;
        NS_TEST_EXPECT_MSG_EQ(pieces.aggregates, aggregates, "aggregates");
        NS_TEST_EXPECT_MSG_EQ(pieces.complete, aggregates, "of all seven");
        NS_TEST_EXPECT_MSG_EQ(pieces.data, singles, "single pieces");
    }

    std::string m_caps; //!< capability set
    double m_loss;      //!< WAN loss
};

/**
 * \ingroup wan-training-tests
 * \brief int8 and int4 up a reduction tree: transit FPGAs add a member's values (int8 or int4)
 *        to lower FPGAs' sums (int16 or int8) in one slot, the root gets one sum of all seven
 *        per chunk in the wider encoding and sends the total of eight down in it; every island
 *        ends with the exact mean of the quantised values.
 *
 * k = 8 in four cities (Wan(8)), one round, real payloads of 133,900 elements: int8 chunks of
 * 4460 elements (a sum of eight needs int16), 31 of them; int4 chunks of 8920 (a sum of eight,
 * at most 56, fits int8), 16 of them; and int32 as before, chunks of 2230, 61 of them.
 */
class TreeFormatTestCase : public TestCase
{
  public:
    /** \param format int8 or int4 \param scale its Scale \param chunks chunks of the update */
    TreeFormatTestCase(const std::string& format, double scale, uint64_t chunks)
        : TestCase("planned TREE through transit FPGAs in " + format + ": exact means"),
          m_format(format),
          m_scale(scale),
          m_chunks(chunks)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup = Wan(8);
        setup.caps = "both+transit";
        setup.tree = true;
        setup.rounds = 1;
        setup.format = m_format;
        setup.scale = m_scale;
        RootPieces pieces;
        CountRootPieces(setup, pieces);
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 8u, "8 islands x 1 round");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "island " << r.island << " finished");
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0u, "nothing resent");
        }
        NS_TEST_EXPECT_MSG_EQ(
            run.fpga.transitPassThroughs[TransitAggregatorNetDevice::PASS_MISMATCH],
            0u,
            "every piece fits its slot, values and sums alike");
        NS_TEST_EXPECT_MSG_EQ(pieces.aggregates, m_chunks, "one sum per chunk at the root");
        NS_TEST_EXPECT_MSG_EQ(pieces.complete, m_chunks, "of all seven");
        NS_TEST_EXPECT_MSG_EQ(pieces.data, 0u, "no single piece");
        for (size_t e = 0; e < run.before[0].size(); ++e)
        {
            int64_t sum = 0;
            for (const std::vector<double>& x : run.before)
            {
                sum += static_cast<int64_t>(std::round(x[e] * m_scale));
            }
            const double exact = double(sum) / (m_scale * 8);
            for (uint32_t i = 0; i < 8; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(run.after[i][e],
                                          exact,
                                          1e-12,
                                          "island " << i << " element " << e);
            }
        }
        Simulator::Destroy();
        // 20 MB without payloads, where the bytes weigh: the cost model times the wider sums
        // up and down as the packets take them (the clique's time is its last member's), with
        // multicast (the sums into the root bind) and without (its seven copies of the total
        // down bind).
        for (const std::string caps : {"both+transit", "transit"})
        {
            setup.caps = caps;
            TimeAgainstCostModel(setup);
        }
    }

    /**
     * \param setup a TREE run without payloads
     * \brief check the slowest member's sync against the cost model's plan (2%)
     */
    void TimeAgainstCostModel(Setup setup)
    {
        Simulator::Destroy();
        setup.real = false;
        setup.modelBytes = 20000000;
        setup.beforeRun = nullptr;
        const RunResult timed = Simulate(setup);
        double sync = 0;
        for (const TrainingRoundRecord& r : timed.records)
        {
            sync = std::max(sync, (r.syncEnd - r.syncStart).GetSeconds());
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(timed.estimatedSync,
                                  sync,
                                  0.02 * sync,
                                  "the cost model's tree, capabilities=" << setup.caps);
    }

    std::string m_format; //!< int8 or int4
    double m_scale;       //!< its Scale
    uint64_t m_chunks;    //!< chunks of the update
};

/**
 * \ingroup wan-training-tests
 * \brief The tree-exchange test suite.
 */
class TreeExchangeTestSuite : public TestSuite
{
  public:
    TreeExchangeTestSuite()
        : TestSuite("tree-exchange")
    {
        AddTestCase(new TreeRootUnitTestCase);
        AddTestCase(new TreeMemberUnitTestCase);
        for (uint32_t k : {3, 8})
        {
            for (bool multicast : {true, false})
            {
                AddTestCase(new TreeStarTimingTestCase(k, multicast));
                AddTestCase(new TreeRealTestCase(k, multicast));
            }
        }
        AddTestCase(new TreeSingleDropsTestCase(true));
        AddTestCase(new TreeSingleDropsTestCase(false));
        AddTestCase(new TreeLossTestCase(true, 1));
        AddTestCase(new TreeLossTestCase(false, 2));
        AddTestCase(new TreeLostPeerTestCase(false));
        AddTestCase(new TreeLostPeerTestCase(true));
        for (const char* caps : {"none", "transit", "both+transit"})
        {
            AddTestCase(new TreeTransitTestCase(caps, 0));
            AddTestCase(new TreeTransitTestCase(caps, 0.01));
        }
        AddTestCase(new TreeFormatTestCase("int32", 65536, 61));
        AddTestCase(new TreeFormatTestCase("int8", 127, 31));
        AddTestCase(new TreeFormatTestCase("int4", 7, 16));
        AddTestCase(new TreeAdaptiveTestCase);
        AddTestCase(new TreeTcpRefusedTestCase);
    }
};

/// The suite's static instance.
static TreeExchangeTestSuite g_treeExchangeTestSuite;
