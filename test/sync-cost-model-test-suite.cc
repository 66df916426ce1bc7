/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of SyncCostModel against rates and times computed by hand on small topologies: a line
 * of three cities, a star of four leaves, and two cities with two islands each, for every
 * capability set (none, multicast, fpga, both) and for ring all-reduce.
 */

// ctest-suite: sync-cost-model

#include "ns3/clique-schedule.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/sync-cost-model.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** Gbps in bit/s. */
constexpr double GBPS = 1e9;
/** Chunk payload used by every test: 1000 bytes. */
constexpr uint32_t CHUNK = 1000;
/** Gradient header bytes used by every test. */
constexpr uint32_t GRADIENT_HEADER = 48;
/** Per-packet overhead: IPv4 20 + UDP 8 + gradient 48 + PPP 2. */
constexpr uint32_t OVERHEAD = 20 + 8 + GRADIENT_HEADER + 2;
/** FPGA latency used by every test, s. */
constexpr double FPGA_LATENCY = 5e-6;
/** Model bytes M of the small tests: 1000 chunks. */
constexpr uint64_t MODEL_BYTES = 1000000;
/** Time tolerance, s. */
constexpr double TIME_TOL = 1e-12;

/** \param payload bytes \return bits on the wire with the tests' chunking */
double
WireBits(uint64_t payload)
{
    uint64_t chunks = (payload + CHUNK - 1) / CHUNK;
    return 8.0 * (payload + chunks * OVERHEAD);
}

/** \param caps a capability set \return a city with that capability at (0, 0) */
WanCity
City(const std::string& code, const std::string& caps)
{
    WanCity c;
    c.code = code;
    c.name = code;
    c.caps = WanCapabilities::Parse(caps, "test");
    return c;
}

/** \return an island of \p city with rate \p bps and delay \p delay */
WanIsland
Island(const std::string& name, uint32_t city, double bps, double delay)
{
    return WanIsland{name, city, static_cast<uint64_t>(bps), delay};
}

/** \return a link */
WanLink
Link(uint32_t a, uint32_t b, double bps, double delay)
{
    return WanLink{a, b, static_cast<uint64_t>(bps), delay};
}

/** \return a cost model with the tests' packet sizes on \p topology */
Ptr<SyncCostModel>
MakeModel(const WanTopology& topology)
{
    Ptr<SyncCostModel> m = CreateObject<SyncCostModel>();
    m->SetAttribute("ChunkPayloadBytes", UintegerValue(CHUNK));
    m->SetAttribute("GradientHeaderBytes", UintegerValue(GRADIENT_HEADER));
    m->SetAttribute("FpgaLatency", TimeValue(Seconds(FPGA_LATENCY)));
    m->SetRouting(WanRouting(topology));
    return m;
}

/** Line A - B - C, one island each: access 1 Gbps / 1 ms, A-B 1 Gbps / 10 ms, B-C / 20 ms. */
WanTopology
Line(const std::string& caps)
{
    WanTopology t;
    for (const char* code : {"A", "B", "C"})
    {
        t.AddCity(City(code, caps));
    }
    for (uint32_t c = 0; c < 3; ++c)
    {
        t.AddIsland(Island("i" + std::to_string(c), c, GBPS, 1e-3));
    }
    t.AddLink(Link(0, 1, GBPS, 10e-3));
    t.AddLink(Link(1, 2, GBPS, 20e-3));
    return t;
}

/** Star: hub H (no island) and leaves L0..L3 with one island each; access 1 Gbps / 0.5 ms,
 *  hub links 10 Gbps / 5 ms. */
WanTopology
Star(const std::string& caps)
{
    WanTopology t;
    t.AddCity(City("H", caps));
    for (uint32_t l = 0; l < 4; ++l)
    {
        uint32_t c = t.AddCity(City("L" + std::to_string(l), caps));
        t.AddIsland(Island("i" + std::to_string(l), c, GBPS, 0.5e-3));
        t.AddLink(Link(0, c, 10 * GBPS, 5e-3));
    }
    return t;
}

/** Two cities A, B with islands 0, 1 in A and 2, 3 in B; access 1 Gbps / 0.5 ms, A-B 1 Gbps /
 *  10 ms. */
WanTopology
TwoByTwo(const std::string& capsA, const std::string& capsB)
{
    WanTopology t;
    t.AddCity(City("A", capsA));
    t.AddCity(City("B", capsB));
    t.AddIsland(Island("a0", 0, GBPS, 0.5e-3));
    t.AddIsland(Island("a1", 0, GBPS, 0.5e-3));
    t.AddIsland(Island("b0", 1, GBPS, 0.5e-3));
    t.AddIsland(Island("b1", 1, GBPS, 0.5e-3));
    t.AddLink(Link(0, 1, GBPS, 10e-3));
    return t;
}

/** \param n islands \return all islands in one clique, DIRECT */
Partition
All(uint32_t n)
{
    Clique c;
    for (uint32_t i = 0; i < n; ++i)
    {
        c.push_back(i);
    }
    return {c};
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief Packet sizes: chunk count, wire bytes, default chunk payload from the MTU.
 */
class SyncCostModelSizesTestCase : public TestCase
{
  public:
    SyncCostModelSizesTestCase()
        : TestCase("chunking and per-packet overheads")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SyncCostModel> m = MakeModel(Line("none"));
        NS_TEST_ASSERT_MSG_EQ(m->GetPacketOverheadBytes(), 78u, "20 + 8 + 48 + 2");
        NS_TEST_ASSERT_MSG_EQ(m->GetChunkCount(1000000), 1000u, "exact chunks");
        NS_TEST_ASSERT_MSG_EQ(m->GetChunkCount(1000001), 1001u, "a partial last chunk");
        NS_TEST_ASSERT_MSG_EQ(m->GetWireBytes(1000000), 1078000u, "payload + 1000 x 78");

        // Defaults: gradient header 36 + 16 for up to 64 islands; MTU 9000 leaves
        // 9000 - 20 - 8 - 52 = 8920 bytes, a multiple of 4.
        Ptr<SyncCostModel> d = CreateObject<SyncCostModel>();
        d->SetRouting(WanRouting(Line("none")));
        NS_TEST_ASSERT_MSG_EQ(d->GetPacketOverheadBytes(), 20u + 8u + 52u + 2u, "defaults");
        NS_TEST_ASSERT_MSG_EQ(d->GetChunkPayloadBytes(), 8920u, "MTU-derived chunk payload");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Line of three, global clique, DIRECT and RING, by hand.
 */
class SyncCostModelLineTestCase : public TestCase
{
  public:
    SyncCostModelLineTestCase()
        : TestCase("line of three: direct and ring by hand")
    {
    }

  private:
    void DoRun() override
    {
        // DIRECT, no capabilities: six unicast streams; every access link and every directed
        // WAN link carries exactly two of them, so all run at 0.5 Gbps. The farthest pair
        // (0, 2) has 1 + 10 + 20 + 1 = 32 ms of propagation.
        Ptr<SyncCostModel> m = MakeModel(Line("none"));
        SyncRoundEstimate e = m->EstimateRound(All(3), {SyncAlgorithm::DIRECT}, MODEL_BYTES);
        NS_TEST_ASSERT_MSG_EQ(e.streams.size(), 6u, "k(k-1) unicast streams");
        for (const auto& s : e.streams)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(s.rateBps, 0.5 * GBPS, 1e-3, "every stream at 0.5 Gbps");
            NS_TEST_ASSERT_MSG_EQ(s.multicast, false, "no multicast");
            NS_TEST_ASSERT_MSG_EQ(s.receivers.size(), 1u, "unicast");
        }
        double expected = WireBits(MODEL_BYTES) / (0.5 * GBPS) + 32e-3;
        NS_TEST_ASSERT_MSG_EQ_TOL(e.syncTime, expected, TIME_TOL, "49.248 ms");
        NS_TEST_ASSERT_MSG_EQ_TOL(expected, 49.248e-3, TIME_TOL, "hand value");
        NS_TEST_ASSERT_MSG_EQ_TOL(m->EstimateSyncTime(All(3), {SyncAlgorithm::DIRECT}, MODEL_BYTES),
                                  expected,
                                  TIME_TOL,
                                  "fast path agrees");
        // Each island is done when the farthest peer's stream has arrived: islands 0 and 2
        // wait 32 ms of propagation, island 1 waits 22 ms (from island 2).
        const double fluid = WireBits(MODEL_BYTES) / (0.5 * GBPS);
        NS_TEST_ASSERT_MSG_EQ_TOL(e.islandTime[0], fluid + 32e-3, TIME_TOL, "island 0");
        NS_TEST_ASSERT_MSG_EQ_TOL(e.islandTime[1], fluid + 22e-3, TIME_TOL, "island 1");
        NS_TEST_ASSERT_MSG_EQ_TOL(e.islandTime[2], fluid + 32e-3, TIME_TOL, "island 2");
        NS_TEST_ASSERT_MSG_EQ_TOL(e.meanIslandTime, fluid + 86e-3 / 3, TIME_TOL, "mean");

        // RING 0 -> 1 -> 2 -> 0: the three streams share nothing, each at 1 Gbps. M = 10^6
        // bytes is E = 250,000 int32 elements in segments of ceil(E/3) = 83,334 elements:
        // segments 0 and 1 carry 333,336 bytes (334 chunks, the last of 336 bytes), segment 2
        // the remaining 83,332 elements = 333,328 bytes (334 chunks, the last of 328 bytes).
        //
        // The application starts step s at a member once its predecessor's step s-1 has
        // arrived (here always later than its own hand-off, the delays being >= 12 ms), so a
        // member's completion is the chain of the 2(k-1) = 4 ring edges ending at it, each
        // carrying the same segment around the ring. One edge costs: the segment's wire bits
        // at 1 Gbps, minus the last packet (pacing hands it off one packet early), plus that
        // last packet stored and forwarded on every 1 Gbps link of the path, plus the
        // propagation delay: edge = wire / B + (links - 1) x last / B + delay.
        // Edges: 0->1 (3 links, 12 ms), 1->2 (3 links, 22 ms), 2->0 (4 links, 32 ms).
        //   member 0: edges 2->0, 0->1, 1->2, 2->0 with segment 2: 10 extra last packets, 98 ms;
        //   member 1: edges 0->1, 1->2, 2->0, 0->1 with segment 0:  9 extra, 78 ms;
        //   member 2: edges 1->2, 2->0, 0->1, 1->2 with segment 1:  9 extra, 88 ms.
        SyncRoundEstimate r = m->EstimateRound(All(3), {SyncAlgorithm::RING}, MODEL_BYTES);
        const double last01 = 8.0 * (336 + OVERHEAD);
        const double last2 = 8.0 * (328 + OVERHEAD);
        const double member0 = 4 * WireBits(333328) / GBPS + 10 * last2 / GBPS + 98e-3;
        const double member1 = 4 * WireBits(333336) / GBPS + 9 * last01 / GBPS + 78e-3;
        const double member2 = 4 * WireBits(333336) / GBPS + 9 * last01 / GBPS + 88e-3;
        NS_TEST_ASSERT_MSG_EQ_TOL(WireBits(333328), 8.0 * (333328 + 334 * 78), 1e-6, "wire");
        // A RING clique's time is the mean of its members' completions (their mean sync time
        // in every round); each island's completion is reported too.
        NS_TEST_ASSERT_MSG_EQ_TOL(r.syncTime,
                                  (member0 + member1 + member2) / 3,
                                  TIME_TOL,
                                  "mean of the members");
        NS_TEST_ASSERT_MSG_EQ(r.islandTime.size(), 3u, "one time per island");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.islandTime[0], member0, TIME_TOL, "member 0");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.islandTime[1], member1, TIME_TOL, "member 1");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.islandTime[2], member2, TIME_TOL, "member 2");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.meanIslandTime, r.syncTime, TIME_TOL, "one clique");
        NS_TEST_ASSERT_MSG_EQ_TOL(member0, 0.10950016 + 10 * last2 / GBPS, 1e-12, "by hand");
        NS_TEST_ASSERT_MSG_EQ(r.streams.size(), 12u, "3 streams x 4 steps");
        for (const auto& s : r.streams)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(s.rateBps, GBPS, 1e-3, "ring streams at 1 Gbps");
            NS_TEST_ASSERT_MSG_EQ(s.receivers.size(), 1u, "one successor");
            NS_TEST_ASSERT_MSG_EQ(s.receivers[0], (s.sender + 1) % 3, "ring successor");
            // Reduce-scatter sends segment (p - s) mod 3, all-gather (p + 1 - (s - 2)) mod 3.
            uint32_t segment = s.ringStep < 2 ? (s.sender + 3 - s.ringStep) % 3
                                              : (s.sender + 1 + 3 - (s.ringStep - 2)) % 3;
            NS_TEST_ASSERT_MSG_EQ(s.payloadBytes,
                                  (segment == 2 ? 333328u : 333336u),
                                  "segment bytes");
            if (s.ringStep == 0)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(s.startTime, 0.0, TIME_TOL, "all start at once");
            }
        }
        // Member 1 starts step 1 when member 0's step 0 (segment 0) has arrived over 0 -> 1.
        const double arrive01 = WireBits(333336) / GBPS + 2 * last01 / GBPS + 12e-3;
        bool seen = false;
        for (const auto& s : r.streams)
        {
            if (s.sender == 1 && s.ringStep == 1)
            {
                seen = true;
                NS_TEST_ASSERT_MSG_EQ_TOL(s.startTime, arrive01, TIME_TOL, "step 1 of member 1");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(seen, true, "member 1 has a step 1");
        const double step = r.syncTime / 4; // for the capability check below
        NS_TEST_ASSERT_MSG_EQ(m->ChooseAlgorithm(All(3)[0], MODEL_BYTES),
                              SyncAlgorithm::DIRECT,
                              "latency-bound: direct wins");

        // Multicast and FPGAs do not apply to ring traffic.
        Ptr<SyncCostModel> both = MakeModel(Line("both"));
        NS_TEST_ASSERT_MSG_EQ_TOL(
            both->EstimateSyncTime(All(3), {SyncAlgorithm::RING}, MODEL_BYTES),
            4 * step,
            1e-15,
            "ring ignores capabilities");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Star of four leaves, global clique, every capability set.
 *
 * Hub links are 10x the access rate, so only access links bind. Without multicast a sender's
 * egress carries 3 copies (1/3 Gbps each); without FPGAs a receiver's ingress carries 3
 * streams (1/3 Gbps); only with both does each stream reach 1 Gbps.
 */
class SyncCostModelStarTestCase : public TestCase
{
  public:
    SyncCostModelStarTestCase()
        : TestCase("star of four: none, multicast, fpga, both")
    {
    }

  private:
    void DoRun() override
    {
        const double delay = 0.5e-3 + 5e-3 + 5e-3 + 0.5e-3; // leaf to leaf
        const double wire = WireBits(MODEL_BYTES);

        struct Case
        {
            const char* caps;
            double rate;
            double extraDelay;
            size_t streams;
            double resendWeight;
        };

        // Resend weights: a resend passes the FPGAs unsummed. With fpga, an ingress folds three
        // 1/3 Gbps streams at 1/3 each (load 1/3 Gbps of 1): a resend fits beside them, weight
        // max(1, (1/3) / (1/3 x 1)) = 1. With both, the three 1 Gbps streams fill it (load
        // 1 Gbps): a resend must take the place of 1 / (1/3) = 3 chunks of its stream.
        const Case cases[] = {
            {"none", GBPS / 3, 0, 12, 1},
            {"multicast", GBPS / 3, 0, 4, 1},
            {"fpga", GBPS / 3, FPGA_LATENCY, 12, 1},
            {"both", GBPS, FPGA_LATENCY, 4, 3},
        };
        for (const auto& c : cases)
        {
            Ptr<SyncCostModel> m = MakeModel(Star(c.caps));
            SyncRoundEstimate e = m->EstimateRound(All(4), {SyncAlgorithm::DIRECT}, MODEL_BYTES);
            NS_TEST_ASSERT_MSG_EQ(e.streams.size(), c.streams, c.caps);
            for (const auto& s : e.streams)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(s.rateBps, c.rate, 1e-3, c.caps);
                NS_TEST_ASSERT_MSG_EQ(s.aggregated, (c.extraDelay > 0), c.caps);
                NS_TEST_ASSERT_MSG_EQ(s.receivers.size(), (c.streams == 4 ? 3u : 1u), c.caps);
                NS_TEST_ASSERT_MSG_EQ_TOL(s.resendWeight, c.resendWeight, 1e-9, c.caps);
            }
            NS_TEST_ASSERT_MSG_EQ_TOL(e.syncTime,
                                      wire / c.rate + delay + c.extraDelay,
                                      TIME_TOL,
                                      c.caps);
        }
        // The FPGA weight: each of the three streams into an aggregated island uses 1/3.
        Ptr<SyncCostModel> both = MakeModel(Star("both"));
        SyncRoundEstimate e = both->EstimateRound(All(4), {SyncAlgorithm::DIRECT}, MODEL_BYTES);
        uint32_t down0 = both->GetRouting().GetAccessDownResource(0);
        bool found = false;
        for (const auto& [res, w] : e.streams[1].resources)
        {
            if (res == down0)
            {
                found = true;
                NS_TEST_ASSERT_MSG_EQ_TOL(w, 1.0 / 3.0, 1e-12, "1/(k-1) of the ingress");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(found, true, "sender 1's multicast reaches island 0");
        // Five hops for a multicast stream on the star: up, leaf->hub, three hub->leaf, plus
        // three ingress links.
        NS_TEST_ASSERT_MSG_EQ(e.streams[0].resources.size(), 1u + 1u + 3u + 3u, "tree usage");

        // Bandwidth-bound (100 MB, no capabilities): ring (1.5 M/B) beats direct (3 M/B).
        Ptr<SyncCostModel> none = MakeModel(Star("none"));
        const uint64_t big = 100000000;
        NS_TEST_ASSERT_MSG_EQ(none->ChooseAlgorithm(All(4)[0], big),
                              SyncAlgorithm::RING,
                              "ring wins bandwidth-bound");
        // Ring: every edge is leaf -> hub -> leaf (4 links: 1, 10, 10, 1 Gbps) and every
        // segment is 25 MB (25,000 chunks, the last of 1000 bytes); the chain of 2(k-1) = 6
        // edges costs, per edge, the wire bits at 1 Gbps minus the last packet, plus the last
        // packet stored and forwarded on the four links, plus 11 ms.
        const double lastBits = 8.0 * (1000 + OVERHEAD);
        const double forward = lastBits / GBPS + 2 * lastBits / (10 * GBPS) + lastBits / GBPS;
        double ringTime = 6 * ((WireBits(big / 4) - lastBits) / GBPS + forward + delay);
        NS_TEST_ASSERT_MSG_EQ_TOL(none->EstimateSyncTime(All(4), {SyncAlgorithm::RING}, big),
                                  ringTime,
                                  TIME_TOL,
                                  "ring by hand");
        NS_TEST_ASSERT_MSG_EQ(both->ChooseAlgorithm(All(4)[0], big),
                              SyncAlgorithm::DIRECT,
                              "with both capabilities direct wins");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Two cities with two islands each: multicast shares the WAN hop, cliques share links,
 *        and the multicast rule needs every router on the tree.
 */
class SyncCostModelTwoByTwoTestCase : public TestCase
{
  public:
    SyncCostModelTwoByTwoTestCase()
        : TestCase("two cities x two islands: shared WAN link")
    {
    }

  private:
    void DoRun() override
    {
        const double wire = WireBits(MODEL_BYTES);
        const double cross = 0.5e-3 + 10e-3 + 0.5e-3;

        // none: the A->B link carries 4 unicast copies (0.25 Gbps), the slowest streams.
        // multicast: A->B carries 2 streams (0.5), but each ingress carries 3: 1/3 Gbps.
        // fpga: like none on the WAN link: 0.25 Gbps.
        // both: ingress is folded, A->B carries 2 streams: 0.5 Gbps.
        struct Case
        {
            const char* caps;
            double slowest;
            double extraDelay;
        };

        const Case cases[] = {
            {"none", GBPS / 4, 0},
            {"multicast", GBPS / 3, 0},
            {"fpga", GBPS / 4, FPGA_LATENCY},
            {"both", GBPS / 2, FPGA_LATENCY},
        };
        for (const auto& c : cases)
        {
            Ptr<SyncCostModel> m = MakeModel(TwoByTwo(c.caps, c.caps));
            SyncRoundEstimate e = m->EstimateRound(All(4), {SyncAlgorithm::DIRECT}, MODEL_BYTES);
            double slowest = 1e300;
            for (const auto& s : e.streams)
            {
                slowest = std::min(slowest, s.rateBps);
            }
            NS_TEST_ASSERT_MSG_EQ_TOL(slowest, c.slowest, 1e-3, c.caps);
            NS_TEST_ASSERT_MSG_EQ_TOL(e.syncTime,
                                      wire / c.slowest + cross + c.extraDelay,
                                      TIME_TOL,
                                      c.caps);
        }
        // none: the local streams (0 -> 1, ...) get what the cross streams leave: 0.5 Gbps.
        Ptr<SyncCostModel> none = MakeModel(TwoByTwo("none", "none"));
        SyncRoundEstimate e = none->EstimateRound(All(4), {SyncAlgorithm::DIRECT}, MODEL_BYTES);
        for (const auto& s : e.streams)
        {
            bool local = (s.sender < 2) == (s.receivers[0] < 2);
            NS_TEST_ASSERT_MSG_EQ_TOL(s.rateBps, (local ? GBPS / 2 : GBPS / 4), 1e-3, "rates");
        }

        // Multicast needs every router on the tree: with B not capable, nobody multicasts.
        Ptr<SyncCostModel> half = MakeModel(TwoByTwo("multicast", "none"));
        e = half->EstimateRound(All(4), {SyncAlgorithm::DIRECT}, MODEL_BYTES);
        NS_TEST_ASSERT_MSG_EQ(e.streams.size(), 12u, "unicast copies only");
        NS_TEST_ASSERT_MSG_EQ_TOL(e.syncTime, wire / (GBPS / 4) + cross, TIME_TOL, "as none");

        // Two cliques {0,2} and {1,3} share the A-B link: 0.5 Gbps each, not 1 Gbps alone.
        Partition pairs{{0, 2}, {1, 3}};
        e = none->EstimateRound(pairs, {SyncAlgorithm::DIRECT, SyncAlgorithm::DIRECT}, MODEL_BYTES);
        NS_TEST_ASSERT_MSG_EQ(e.cliqueTime.size(), 2u, "two cliques");
        NS_TEST_ASSERT_MSG_EQ_TOL(e.cliqueTime[0], wire / (GBPS / 2) + cross, TIME_TOL, "shared");
        NS_TEST_ASSERT_MSG_EQ_TOL(e.cliqueTime[1], wire / (GBPS / 2) + cross, TIME_TOL, "shared");
        double alone = none->EstimateSyncTime(
            {{0, 2}, {1}, {3}},
            {SyncAlgorithm::DIRECT, SyncAlgorithm::DIRECT, SyncAlgorithm::DIRECT},
            MODEL_BYTES);
        NS_TEST_ASSERT_MSG_EQ_TOL(alone, wire / GBPS + cross, TIME_TOL, "alone at 1 Gbps");

        // The plan of a schedule round follows the schedule's partition and algorithms.
        CliqueSchedule s(4, {{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}});
        SyncRoundEstimate plan = none->GetRoundPlan(s, 3, MODEL_BYTES);
        NS_TEST_ASSERT_MSG_EQ(plan.streams.size(), 4u, "two pairs");
        NS_TEST_ASSERT_MSG_EQ(plan.streams[0].sender, 0u, "clique 0 first");
        NS_TEST_ASSERT_MSG_EQ(plan.streams[0].receivers[0], 2u, "round 3 uses partition 1");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The optimiser's shortcuts against the plain computation on a grid WAN with
 *        equal-delay links (many tied shortest paths) and a mix of capabilities: multicast
 *        streams use exactly the hops of WanRouting::GetTree() and multicast exactly when
 *        WanRouting::IsMulticastCapable() says so; ChooseAlgorithm() picks what comparing
 *        both estimates picks.
 */
class SyncCostModelShortcutsTestCase : public TestCase
{
  public:
    SyncCostModelShortcutsTestCase()
        : TestCase("stored trees and the algorithm shortcut match the plain computation")
    {
    }

  private:
    /** Grid side. */
    static constexpr uint32_t SIDE = 4;

    /**
     * \param everyOther true: cities with an index divisible by 3 lack multicast
     * \param caps the capabilities of the others
     * \return a SIDE x SIDE grid of cities, one island each, 1 ms links
     */
    static WanTopology Grid(const std::string& caps, bool everyOther)
    {
        WanTopology t;
        for (uint32_t c = 0; c < SIDE * SIDE; ++c)
        {
            const bool plain = everyOther && c % 3 == 0;
            t.AddCity(City("G" + std::to_string(c), plain ? "none" : caps));
            t.AddIsland(Island("g" + std::to_string(c), c, GBPS, 1e-4));
        }
        for (uint32_t r = 0; r < SIDE; ++r)
        {
            for (uint32_t c = 0; c < SIDE; ++c)
            {
                const uint32_t v = r * SIDE + c;
                if (c + 1 < SIDE)
                {
                    t.AddLink(Link(v, v + 1, 10 * GBPS, 1e-3));
                }
                if (r + 1 < SIDE)
                {
                    t.AddLink(Link(v, v + SIDE, 10 * GBPS, 1e-3));
                }
            }
        }
        return t;
    }

    /**
     * \return a ring of SIDE x SIDE cities with equal links: the two halves to the opposite
     *         city tie, and a source's tree breaks the tie at the far end while forwarding
     *         towards a destination breaks it at the near end
     */
    static WanTopology Ring()
    {
        WanTopology t;
        const uint32_t n = SIDE * SIDE;
        for (uint32_t c = 0; c < n; ++c)
        {
            t.AddCity(City("R" + std::to_string(c), "both"));
            t.AddIsland(Island("r" + std::to_string(c), c, GBPS, 1e-4));
        }
        for (uint32_t c = 0; c < n; ++c)
        {
            t.AddLink(Link(c, (c + 1) % n, 10 * GBPS, 1e-3));
        }
        return t;
    }

    /** \param clique members \param n islands \return the clique plus singletons */
    static Partition WithSingletons(const Clique& clique, uint32_t n)
    {
        Partition p{clique};
        for (uint32_t i = 0; i < n; ++i)
        {
            if (std::find(clique.begin(), clique.end(), i) == clique.end())
            {
                p.push_back({i});
            }
        }
        return p;
    }

    void DoRun() override
    {
        const uint32_t n = SIDE * SIDE;
        // Cliques from a fixed LCG: sizes 2..9, members spread over the grid.
        uint64_t state = 12345;
        auto next = [&state](uint32_t bound) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            return static_cast<uint32_t>((state >> 33) % bound);
        };
        std::vector<Clique> cliques;
        for (int k = 0; k < 24; ++k)
        {
            const uint32_t size = 2 + next(8);
            Clique c;
            while (c.size() < size)
            {
                const uint32_t i = next(n);
                if (std::find(c.begin(), c.end(), i) == c.end())
                {
                    c.push_back(i);
                }
            }
            std::sort(c.begin(), c.end());
            cliques.push_back(c);
        }

        uint32_t multicastSeen = 0;
        uint32_t unicastSeen = 0;
        for (const WanTopology& topology : {Grid("both", false), Grid("both", true), Ring()})
        {
            Ptr<SyncCostModel> m = MakeModel(topology);
            const WanRouting& routing = m->GetRouting();
            for (const auto& clique : cliques)
            {
                Partition p = WithSingletons(clique, n);
                std::vector<SyncAlgorithm> algs(p.size(), SyncAlgorithm::DIRECT);
                SyncRoundEstimate e = m->EstimateRound(p, algs, MODEL_BYTES);
                for (uint32_t s : clique)
                {
                    std::vector<uint32_t> peerCities;
                    for (uint32_t j : clique)
                    {
                        if (j != s)
                        {
                            peerCities.push_back(topology.GetIslands()[j].city);
                        }
                    }
                    WanTree tree = routing.GetTree(topology.GetIslands()[s].city, peerCities);
                    const bool capable = routing.IsMulticastCapable(tree);
                    uint32_t streams = 0;
                    for (const auto& stream : e.streams)
                    {
                        if (stream.sender != s)
                        {
                            continue;
                        }
                        ++streams;
                        NS_TEST_ASSERT_MSG_EQ(stream.multicast, capable, "multicast rule");
                        if (!stream.multicast)
                        {
                            continue;
                        }
                        std::vector<uint32_t> expected{routing.GetAccessUpResource(s)};
                        for (const auto& hop : tree.hops)
                        {
                            expected.push_back(routing.GetHopResource(hop));
                        }
                        for (uint32_t j : clique)
                        {
                            if (j != s)
                            {
                                expected.push_back(routing.GetAccessDownResource(j));
                            }
                        }
                        std::vector<uint32_t> used;
                        for (const auto& [res, w] : stream.resources)
                        {
                            used.push_back(res);
                        }
                        std::sort(expected.begin(), expected.end());
                        std::sort(used.begin(), used.end());
                        NS_TEST_ASSERT_MSG_EQ((used == expected),
                                              true,
                                              "tree of sender " << s << " in a clique of "
                                                                << clique.size());
                    }
                    NS_TEST_ASSERT_MSG_EQ(streams,
                                          (capable ? 1u : clique.size() - 1),
                                          "streams of sender " << s);
                    (capable ? multicastSeen : unicastSeen) += 1;
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(multicastSeen, 0u, "some senders multicast");
        NS_TEST_ASSERT_MSG_GT(unicastSeen, 0u, "some senders cannot");

        // ChooseAlgorithm() against both estimates, for sizes where either side wins.
        uint32_t ringChosen = 0;
        uint32_t directChosen = 0;
        for (const char* caps : {"none", "multicast", "fpga", "both"})
        {
            Ptr<SyncCostModel> m = MakeModel(Grid(caps, false));
            for (uint64_t bytes : {uint64_t{10000}, MODEL_BYTES, 100 * MODEL_BYTES})
            {
                for (const auto& clique : cliques)
                {
                    const double direct =
                        m->EstimateSyncTime({clique}, {SyncAlgorithm::DIRECT}, bytes);
                    const double ring = m->EstimateSyncTime({clique}, {SyncAlgorithm::RING}, bytes);
                    const SyncAlgorithm expected = (clique.size() > 2 && ring < direct)
                                                       ? SyncAlgorithm::RING
                                                       : SyncAlgorithm::DIRECT;
                    const SyncAlgorithm chosen = m->ChooseAlgorithm(clique, bytes);
                    NS_TEST_ASSERT_MSG_EQ(chosen,
                                          expected,
                                          caps << ", " << bytes << " B, clique of "
                                               << clique.size());
                    (chosen == SyncAlgorithm::RING ? ringChosen : directChosen) += 1;
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(ringChosen, 0u, "ring wins somewhere");
        NS_TEST_ASSERT_MSG_GT(directChosen, 0u, "direct wins somewhere");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The suite.
 */
class SyncCostModelTestSuite : public TestSuite
{
  public:
    SyncCostModelTestSuite()
        : TestSuite("sync-cost-model")
    {
        AddTestCase(new SyncCostModelSizesTestCase);
        AddTestCase(new SyncCostModelLineTestCase);
        AddTestCase(new SyncCostModelStarTestCase);
        AddTestCase(new SyncCostModelTwoByTwoTestCase);
        AddTestCase(new SyncCostModelShortcutsTestCase);
    }
};

/** Static instance. */
static SyncCostModelTestSuite g_syncCostModelTestSuite;
