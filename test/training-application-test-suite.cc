/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of TrainingApplication and TrainingHelper on small topologies built in code (the
 * shared scenario builder of training-scenario.h): exact byte counts of a 3-island exchange
 * under each capability set, the sync time of an uncongested direct exchange against its
 * analytic value, ring all-reduce volumes, real-mode averages (global clique, 3x3 rotating
 * cliques), queues sized to the planned streams, FPGA holds, rounds that overlap, a straggler
 * delaying only its own clique, and byte-identical CSV output for the same seed. Loss and its
 * recovery are the loss-recovery suite's (loss-recovery-test-suite.cc). Expected values are
 * computed here from the model size, chunk size and header sizes, never read back from the
 * simulation.
 *
 * Fixed-point tolerance (real mode): every parameter travels as round(x * Scale), so one
 * averaging round is off the exact mean by at most 0.5 / Scale; R chained rounds by at most
 * R * 0.5 / Scale. The tests allow (R + 1) * 0.5 / Scale.
 */

// ctest-suite: training-application

#include "training-scenario.h"

#include "ns3/global-value.h"
#include "ns3/test.h"
#include "ns3/training-application.h"
#include "ns3/uinteger.h"
#include "ns3/wan-wire.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::training_test;

namespace
{

/**
 * \return the runs two implementations must agree on byte for byte: 4 cities of 2 islands,
 *         2 rounds, none and both, direct and ring
 */
std::vector<Setup>
EquivalenceSetups()
{
    std::vector<Setup> setups;
    for (const char* caps : {"none", "both"})
    {
        for (bool ring : {false, true})
        {
            Setup setup;
            setup.caps = caps;
            setup.ring = ring;
            setup.cities = 4;
            setup.perCity = 2;
            setup.rounds = 2;
            setups.push_back(setup);
        }
    }
    return setups;
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief A 3-island global clique exchanges exactly the bytes the capability set implies.
 *
 * Transmit queues are the helper's tuned bound (twice the planned streams per link direction,
 * 2 to 4 packets here), so a sender paced over its planned rate overflows one within the
 * 11 chunks: zero queue drops says that every stream keeps to its plan.
 */
class TrainingExactBytesTestCase : public TestCase
{
  public:
    /** \param caps capability set */
    explicit TrainingExactBytesTestCase(const std::string& caps)
        : TestCase("3-island direct exchange, exact bytes, capabilities=" + caps),
          m_caps(caps)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = m_caps;
        setup.rounds = 2;
        setup.queuePackets = 1; // raised by the helper to the planned bound
        const RunResult run = Simulate(setup);
        const bool multicast = m_caps == "multicast" || m_caps == "both";
        const bool fpga = m_caps == "fpga" || m_caps == "both";
        const uint64_t chunks = Chunks(setup.modelBytes);
        const uint64_t update = StreamBytes(setup.modelBytes);
        // Sender: one multicast stream or two unicast copies.
        const uint64_t sent = multicast ? update : 2 * update;
        const uint64_t packetsSent = multicast ? chunks : 2 * chunks;
        // Receiver: two peers' chunks, or one FPGA aggregate per chunk (same header size).
        const uint64_t received = fpga ? update : 2 * update;
        const uint64_t packetsReceived = fpga ? chunks : 2 * chunks;
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 6u, "2 rounds x 3 islands");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "round finished");
            NS_TEST_ASSERT_MSG_EQ(r.bytesSent, sent, "bytes sent, island " << r.island);
            NS_TEST_ASSERT_MSG_EQ(r.packetsSent, packetsSent, "packets sent");
            NS_TEST_ASSERT_MSG_EQ(r.bytesReceived, received, "bytes received");
            NS_TEST_ASSERT_MSG_EQ(r.packetsReceived, packetsReceived, "packets received");
            NS_TEST_ASSERT_MSG_EQ(r.retransmissions, 0u, "no retransmissions");
            NS_TEST_ASSERT_MSG_EQ(r.lostPeers.size(), 0u, "no lost peers");
        }
        NS_TEST_ASSERT_MSG_EQ(run.queueDrops, 0u, "paced streams lose nothing in queues");
    }

    std::string m_caps; //!< capability set
};

/**
 * \ingroup wan-training-tests
 * \brief The gradient port is one setting, the global value WanGradientPort: bound to 48000,
 *        the applications send to it and the FPGAs still aggregate every chunk (they look for
 *        the same port), so each island receives one aggregate per chunk.
 */
class TrainingGradientPortTestCase : public TestCase
{
  public:
    TrainingGradientPortTestCase()
        : TestCase("WanGradientPort moves applications, routers and FPGAs together")
    {
    }

  private:
    void DoRun() override
    {
        const uint16_t port = 48000;
        NS_TEST_ASSERT_MSG_NE(port,
                              WanWire::DEFAULT_GRADIENT_PORT,
                              "a port other than the default");
        GlobalValue::Bind("WanGradientPort", UintegerValue(port));
        Setup setup;
        setup.caps = "both";
        setup.rounds = 2;
        const RunResult run = Simulate(setup);
        GlobalValue::Bind("WanGradientPort", UintegerValue(WanWire::DEFAULT_GRADIENT_PORT));
        const uint64_t chunks = Chunks(setup.modelBytes);
        NS_TEST_EXPECT_MSG_EQ(run.island0Ports.size(), 1u, "one UDP port");
        NS_TEST_EXPECT_MSG_EQ(run.island0Ports.count(port), 1u, "island 0 sends to the new port");
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 6u, "2 rounds x 3 islands");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_EXPECT_MSG_EQ(r.packetsReceived, chunks, "one aggregate per chunk");
        }
        // 3 islands x 2 rounds x chunks slots, each folding its 2 peers' chunks.
        NS_TEST_EXPECT_MSG_EQ(run.fpga.complete, 3 * 2 * chunks, "complete aggregates");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The module's links (WanLinkNetDevice, WanLinkChannel) against ns-3's own
 *        PointToPointNetDevice and PointToPointChannel (a second implementation of the same
 *        timing): every round of every island has the same times, bytes and packets, so
 *        rounds.csv is byte-identical, for direct and ring sync, with and without multicast
 *        and FPGAs, over 4 cities of 2 islands.
 */
class TrainingStockLinksTestCase : public TestCase
{
  public:
    TrainingStockLinksTestCase()
        : TestCase("module links and stock point-to-point links give identical rounds")
    {
    }

  private:
    void DoRun() override
    {
        for (Setup setup : EquivalenceSetups())
        {
            const RunResult wan = Simulate(setup);
            setup.stockLinks = true;
            const RunResult stock = Simulate(setup);
            NS_TEST_ASSERT_MSG_EQ(wan.records.size(), 16u, "8 islands x 2 rounds");
            NS_TEST_ASSERT_MSG_EQ(wan.csv,
                                  stock.csv,
                                  setup.caps << (setup.ring ? " ring" : " direct"));
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The island paces on the framing its access device reports (LinkPort), not on a
 *        constant: with 4000 bytes of framing per frame, a sender pacing on the usual 2 would
 *        send 44 % faster than its access link and overflow the planned queue.
 */
class TrainingDeviceFramingTestCase : public TestCase
{
  public:
    TrainingDeviceFramingTestCase()
        : TestCase("the island paces on its access device's framing")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t framing = 4000;
        Setup setup;
        setup.cities = 2;
        setup.modelBytes = 100 * CHUNK; // 44 packets of backlog if paced on 2 bytes of framing
        setup.framing = framing;
        setup.traceIsland = 1;
        setup.queuePackets = 1; // raised by the helper to the planned bound
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.queueDrops, 0, "no queue overflows");
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 2u, "2 islands x 1 round");
        // Every frame takes (IPv4 bytes + framing) at each link's rate.
        const double frameBits = (FULL_CHUNK_IP + framing) * 8.0;
        const Time path = Seconds(frameBits / ACCESS_BPS + ACCESS_DELAY + frameBits / WAN_BPS +
                                  WAN_DELAY + frameBits / ACCESS_BPS + ACCESS_DELAY);
        for (uint32_t chunk : {0u, 1u, 2u, 50u, 99u})
        {
            const RunResult::Arrival* arrival = run.Find(GradientHeader::DATA, 0, chunk);
            NS_TEST_ASSERT_MSG_NE(arrival, nullptr, "chunk " << chunk << " arrives");
            const Time expected = setup.compute + Seconds(chunk * frameBits / ACCESS_BPS) + path;
            NS_TEST_ASSERT_MSG_EQ_TOL(arrival->at,
                                      expected,
                                      NanoSeconds(10),
                                      "chunk " << chunk << " arrives as paced");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief With a 1500-byte MTU, chunks fill exactly that MTU: no packet is larger, none is
 *        fragmented (one IPv4 packet per chunk), and the bytes are exact.
 */
class TrainingMtuTestCase : public TestCase
{
  public:
    TrainingMtuTestCase()
        : TestCase("chunks fill a 1500-byte MTU, never more")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.mtu = 1500;
        const RunResult run = Simulate(setup);
        // 1500 - 20 (IPv4) - 8 (UDP) - 52 (gradient header) = 1420, a multiple of 4.
        const uint64_t chunk = 1420;
        const uint64_t chunks = (setup.modelBytes + chunk - 1) / chunk;
        NS_TEST_ASSERT_MSG_EQ(chunks, 64u, "89,600 bytes in 1420-byte chunks (by hand)");
        NS_TEST_ASSERT_MSG_EQ(run.records.size(),
                              RecordCount(setup),
                              "a record per island and round");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "round finished");
            NS_TEST_ASSERT_MSG_EQ(r.packetsSent, 2 * chunks, "two unicast copies per chunk");
            NS_TEST_ASSERT_MSG_EQ(r.bytesSent,
                                  2 * (setup.modelBytes + chunks * HEADER),
                                  "payload and gradient headers, twice");
        }
        // Plus one END control packet after each of the two unicast streams.
        NS_TEST_ASSERT_MSG_EQ(run.island0Packets,
                              2 * chunks + 2,
                              "one IPv4 packet per chunk copy, one END per stream");
        NS_TEST_ASSERT_MSG_EQ(run.island0Largest, 1500u, "full chunks fill the MTU exactly");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief An uncongested 2-island exchange takes path delay plus bottleneck serialisation.
 */
class TrainingSyncTimeTestCase : public TestCase
{
  public:
    TrainingSyncTimeTestCase()
        : TestCase("direct exchange sync time within 2% of the analytic value")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 2;
        setup.modelBytes = 10000000;
        const RunResult run = Simulate(setup);
        // Each island sends one stream at the full 10 Gbps of its access link (the bottleneck).
        const uint64_t chunks = Chunks(setup.modelBytes);
        const double wireBits = 8.0 * (setup.modelBytes + chunks * (HEADER + WIRE_EXTRA));
        const double analytic = wireBits / ACCESS_BPS + 2 * ACCESS_DELAY + WAN_DELAY;
        NS_TEST_ASSERT_MSG_EQ(run.records.size(),
                              RecordCount(setup),
                              "a record per island and round");
        for (const TrainingRoundRecord& r : run.records)
        {
            const double sync = (r.syncEnd - r.syncStart).GetSeconds();
            NS_TEST_ASSERT_MSG_EQ_TOL(sync, analytic, 0.02 * analytic, "island " << r.island);
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(run.estimatedSync, analytic, 0.02 * analytic, "cost model");

        // No compute phase at all (Time::IsNegative() is true for zero, which once refused
        // it): the exchange starts where the round starts and takes as long.
        setup.compute = Seconds(0);
        const RunResult instant = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(instant.records.size(), RecordCount(setup), "zero compute ran");
        for (const TrainingRoundRecord& r : instant.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.syncStart, r.computeStart, "island " << r.island);
            const double sync = (r.syncEnd - r.syncStart).GetSeconds();
            NS_TEST_ASSERT_MSG_EQ_TOL(sync, analytic, 0.02 * analytic, "island " << r.island);
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Ring all-reduce moves 2(k-1)/k x M bytes of payload per island in 2(k-1) steps.
 */
class TrainingRingTestCase : public TestCase
{
  public:
    TrainingRingTestCase()
        : TestCase("ring all-reduce volume and steps, FPGAs and multicast present")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t k = 4;
        const uint64_t segmentChunks = 3;
        Setup setup;
        setup.caps = "both";
        setup.cities = k;
        setup.modelBytes = uint64_t{k} * segmentChunks * CHUNK;
        setup.ring = true;
        const RunResult run = Simulate(setup);
        const uint64_t steps = 2 * (k - 1);
        const uint64_t payload = steps * setup.modelBytes / k;
        NS_TEST_ASSERT_MSG_EQ(run.records.size(),
                              RecordCount(setup),
                              "a record per island and round");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_ASSERT_MSG_EQ(r.packetsSent, steps * segmentChunks, "packets = steps x chunks");
            NS_TEST_ASSERT_MSG_EQ(r.bytesSent - r.packetsSent * HEADER, payload, "2(k-1)/k x M");
            NS_TEST_ASSERT_MSG_EQ(r.bytesReceived - r.packetsReceived * HEADER,
                                  payload,
                                  "received from the predecessor");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A parameter whose fixed-point value cannot be summed in int32 by its clique is an
 *        error naming it, not a silent wrap: 3 islands, Scale 2^40, so a parameter of
 *        magnitude 1 is 2^40, far beyond (2^31 - 1) / 3, and the limit is 2^31 / 3 / 2^40.
 */
class TrainingFixedPointRangeTestCase : public TestCase
{
  public:
    TrainingFixedPointRangeTestCase()
        : TestCase("real parameters beyond the fixed-point range are refused by name")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.real = true;
        setup.scale = std::ldexp(1.0, 40);
        const std::string message = Refusal<std::range_error>(setup);
        NS_TEST_ASSERT_MSG_NE(message.find("is outside the fixed-point range"),
                              std::string::npos,
                              "refused: " << message);
        NS_TEST_EXPECT_MSG_NE(message.find("3 members summed in int32"),
                              std::string::npos,
                              message);
        std::ostringstream limit;
        limit << "+-" << std::numeric_limits<int32_t>::max() / 3.0 / setup.scale;
        NS_TEST_EXPECT_MSG_NE(message.find(limit.str()), std::string::npos, message);
        // The default Scale keeps the same run exact (see the real-mode cases).
        setup.scale = SCALE;
        NS_TEST_EXPECT_MSG_EQ(Refusal<std::range_error>(setup), "", "default Scale accepted");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Real payloads: one global-clique round leaves every island at the mean.
 */
class TrainingRealMeanTestCase : public TestCase
{
  public:
    /** \param caps capability set */
    explicit TrainingRealMeanTestCase(const std::string& caps)
        : TestCase("real mode: global clique gives the mean, capabilities=" + caps),
          m_caps(caps)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = m_caps;
        setup.real = true;
        setup.modelBytes = 3 * CHUNK + 40;
        const RunResult run = Simulate(setup);
        const std::vector<double> mean = Mean(run.before, {0, 1, 2});
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(MaxError(run.after[i], mean),
                                        1.0 / SCALE,
                                        "island " << i << " holds the mean");
        }
    }

    std::string m_caps; //!< capability set
};

/**
 * \ingroup wan-training-tests
 * \brief Real payloads, 9 islands: rows then columns (3x3) give the global mean in 2 rounds,
 *        by direct exchange and by ring all-reduce.
 */
class TrainingGridTestCase : public TestCase
{
  public:
    /** \param ring use ring all-reduce in every clique */
    explicit TrainingGridTestCase(bool ring)
        : TestCase(std::string("real mode: 3x3 rotating cliques are exact after 2 rounds, ") +
                   (ring ? "ring" : "direct")),
          m_ring(ring)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.cities = 9;
        setup.real = true;
        setup.rounds = 2;
        setup.ring = m_ring;
        setup.modelBytes = 2 * CHUNK + 36;
        setup.partitions = {{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}, {{0, 3, 6}, {1, 4, 7}, {2, 5, 8}}};
        const RunResult run = Simulate(setup);
        const std::vector<double> mean = Mean(run.before, {0, 1, 2, 3, 4, 5, 6, 7, 8});
        for (uint32_t i = 0; i < 9; ++i)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(MaxError(run.after[i], mean),
                                        1.5 / SCALE,
                                        "island " << i << " holds the global mean");
        }
    }

    bool m_ring; //!< ring all-reduce
};

/**
 * \ingroup wan-training-tests
 * \brief The work TrainingHelper balances across ranks, by hand: three cities in a triangle,
 *        one island each, global clique, 11 chunks per stream. Units: 1 per end of a WAN hop,
 *        5 per packet an island sends or receives (4 for its host stack, 1 for the router's
 *        end of the access link), 2 more per packet through an FPGA.
 */
class TrainingEstimateLoadTestCase : public TestCase
{
  public:
    TrainingEstimateLoadTestCase()
        : TestCase("EstimateLoad by hand for the four capability sets")
    {
    }

  private:
    void DoRun() override
    {
        const double chunks = double(Chunks(10 * CHUNK + 400));
        NS_TEST_ASSERT_MSG_EQ(chunks, 11.0, "10 full chunks and 400 bytes");
        // Per city, per chunk:
        // none: 2 copies up (2 x 5), 2 hops out, 2 hops in, 2 copies down (2 x 5) = 24;
        // multicast: 1 stream up (5), 2 tree edges out, 2 in, 2 streams down (10) = 19;
        // fpga: copies up through the FPGA (2 x 7), 2 + 2 hops, 2 packets into the FPGA
        //   (2 x 2), one aggregate down (2 x 1/2 x 5) = 27;
        // both: 1 x 7 up, 2 + 2 hops, 2 x 2 into the FPGA, 2 x 1/2 x 5 down = 20.
        const std::vector<std::pair<std::string, double>> expected = {{"none", 24},
                                                                      {"multicast", 19},
                                                                      {"fpga", 27},
                                                                      {"both", 20}};
        for (const auto& [caps, perChunk] : expected)
        {
            Setup setup;
            setup.caps = caps;
            const RunResult run = Simulate(setup);
            NS_TEST_ASSERT_MSG_EQ(run.cityLoad.size(), 3u, caps);
            for (double load : run.cityLoad)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(load, perChunk * chunks, 1e-9, caps);
            }
            // Every link carries one chunk stream each way.
            NS_TEST_ASSERT_MSG_EQ(run.linkPackets.size(), 3u, caps);
            for (double packets : run.linkPackets)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(packets, 2 * chunks, 1e-9, caps);
            }
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A multicast tree the routers would refuse is an error before the run, naming the
 *        router and why; the plan's multicast rates are never silently replaced by unicast
 *        copies (which would overload the sender's access link).
 */
class TrainingRefusedTreeTestCase : public TestCase
{
  public:
    TrainingRefusedTreeTestCase()
        : TestCase("a multicast tree the routers refuse is an error before the run")
    {
    }

  private:
    void DoRun() override
    {
        // Three cities in a triangle: island C0-0's tree leaves C0 on two WAN ports.
        Setup setup;
        setup.caps = "multicast";
        setup.fanOutCity = 0;
        setup.fanOut = 1;
        const std::string fanOut = Refusal<std::runtime_error>(setup);
        NS_TEST_EXPECT_MSG_NE(fanOut.find("island C0-0's update, but the routers refuse its "
                                          "tree: the router of C0 would replicate to 2 ports, "
                                          "over its MaxFanOut 1"),
                              std::string::npos,
                              "fan-out over the limit: " << fanOut);
        setup.fanOutCity = -1;
        setup.multicastOffCity = 2;
        const std::string off = Refusal<std::runtime_error>(setup);
        NS_TEST_EXPECT_MSG_NE(off.find("the router of C2 has MulticastEnabled false"),
                              std::string::npos,
                              "multicast switched off: " << off);
        // A fan-out within the limit runs, and so does a router without multicast when the
        // plan sends unicast copies anyway.
        setup.multicastOffCity = -1;
        setup.fanOutCity = 0;
        setup.fanOut = 2;
        NS_TEST_EXPECT_MSG_EQ(Refusal<std::runtime_error>(setup),
                              "",
                              "fan-out 2 within MaxFanOut 2");
        setup.caps = "none";
        setup.fanOutCity = -1;
        setup.multicastOffCity = 2;
        NS_TEST_EXPECT_MSG_EQ(Refusal<std::runtime_error>(setup),
                              "",
                              "unicast plan, multicast switched off");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Behind an FPGA, a near peer's chunks wait in their slots for a far peer's: the
 *        receiver must not NACK the near peer for them (regression: it did after
 *        RetransmissionTimeout plus the near peer's round trip, and the resent copies passed
 *        the FPGA unfolded and overloaded the island's ingress).
 *
 * Three cities in a triangle: C0 and C1 1 ms apart, C2 60 ms from both, one island each, an
 * FPGA at every island, RetransmissionTimeout 20 ms. Island C0-0 hears from C1-1 after 1 ms
 * but gets every aggregate only after C2-0's chunk arrived, 60 ms in: without the FPGA's hold
 * it would NACK C1-0 at about 22 ms. Each FPGA folds exactly one aggregate per chunk per
 * round, all complete. Queues at the helper's tuned bound: a copy paced over its rate would
 * overflow its island's egress.
 */
class TrainingFpgaHoldTestCase : public TestCase
{
  public:
    TrainingFpgaHoldTestCase()
        : TestCase("behind an FPGA, a near peer is not NACKed while a far peer's chunk is due")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "fpga";
        setup.farDelay = 60e-3;
        setup.rounds = 2;
        setup.queuePackets = 1; // raised by the helper to the planned bound
        const RunResult run = Simulate(setup);
        const uint64_t chunks = Chunks(setup.modelBytes);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(),
                              RecordCount(setup),
                              "a record per island and round");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0u, "island " << r.island << " resent");
            NS_TEST_EXPECT_MSG_EQ(r.packetsReceived, chunks, "one aggregate per chunk");
        }
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "no queue drops");
        // 3 islands x 2 rounds x chunks slots, each folding its 2 peers' chunks.
        NS_TEST_EXPECT_MSG_EQ(run.fpga.complete, 3 * 2 * chunks, "complete aggregates");
        NS_TEST_EXPECT_MSG_EQ(run.fpga.aggregated, 2 * 3 * 2 * chunks, "contributions");
        NS_TEST_EXPECT_MSG_EQ(run.fpga.partial, 0u, "no partial flushes");

        // Untuned, the FPGAs' defaults (Timeout 50 ms) fall short of the 60 ms spread: an
        // error before the run. With a long enough Timeout but a single slot, the same.
        setup.tuneFpgas = false;
        std::string message = Refusal<std::runtime_error>(setup);
        NS_TEST_EXPECT_MSG_NE(message.find("the FPGA of island C0-0 has Timeout +50ms, but the "
                                           "plan holds its slots up to"),
                              std::string::npos,
                              "untuned timeout: " << message);
        setup.fpgaTimeout = Seconds(1);
        setup.fpgaSlots = 1;
        message = Refusal<std::runtime_error>(setup);
        NS_TEST_EXPECT_MSG_NE(message.find("the FPGA of island C0-0 has SlotCount 1, but the "
                                           "plan may keep up to 22 slots"),
                              std::string::npos,
                              "untuned slots: " << message);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Transmit queues hold one packet per planned stream that shares a link direction:
 *        paced streams in phase reach that bound.
 *
 * Three cities in a ring, two islands each, global clique, no multicast: each island sends 5
 * unicast copies, all starting together at equal rates, so every chunk leaves as a burst of 5
 * packets into the island's own 4-packet queue. Tuned, the helper raises every queue to twice
 * the busiest direction's streams, and nothing is lost; untuned, Install() names the problem.
 * The busiest directions are the WAN links: the 2 islands of a city each send to the 2 of the
 * next city along it, and with a ring of 3 every pair is one hop: 4 streams; an island's
 * egress carries its 5 copies, so 5 is the most: 10 packets, and 3 more for a burst of control
 * packets (a re-ask NACK in ReaskCopies 3 copies; without FPGAs no LATE or START is sent, so
 * no notice burst to the 5 other members): queues get 13.
 */
class TrainingQueueSizeTestCase : public TestCase
{
  public:
    TrainingQueueSizeTestCase()
        : TestCase("transmit queues hold a packet per planned stream in phase")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 3;
        setup.perCity = 2;
        setup.rounds = 2;
        setup.queuePackets = 4;
        const RunResult run = Simulate(setup);
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "sized queues drop nothing");
        NS_TEST_ASSERT_MSG_EQ(run.records.size(),
                              RecordCount(setup),
                              "a record per island and round");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0u, "island " << r.island << " resent");
        }
        setup.tuneQueues = false;
        const std::string message = Refusal<std::runtime_error>(setup);
        NS_TEST_EXPECT_MSG_NE(message.find("a transmit queue holds 4p, but up to 5 planned "
                                           "streams share one link direction (egress of C0-0)"),
                              std::string::npos,
                              "untuned: " << message);
        NS_TEST_EXPECT_MSG_NE(message.find("control packets come in bursts of 3; make queues "
                                           "hold at least 13 packets"),
                              std::string::npos,
                              "untuned: " << message);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A round that meets a receiver still in its previous round is held.
 *
 * Four cities in a ring, one island each; C0-C1 and C1-C2 1 ms, the links of C3 30 ms. Round
 * 0 pairs {0,1} and {2,3}, round 1 pairs {0,2} and {1,3}; 20 MB updates take 16 ms at 10 Gbps.
 * Island 0 ends round 0 at about 17 ms and computes until 27 ms, but island 2 receives island
 * 3's update until about 46 ms: sending at once, island 0's stream (2 ms away) would share
 * island 2's ingress with it for some 15 ms, about 18 MB more than its queue holds. Island 0
 * alone must wait (island 1's first packet reaches island 3 only 31 ms after it leaves, after
 * island 3's round 0 has ended); nothing is lost or resent.
 */
class TrainingOverlapTestCase : public TestCase
{
  public:
    TrainingOverlapTestCase()
        : TestCase("a round that meets a receiver still in its previous round is held")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 4;
        setup.farDelay = 30e-3;
        setup.modelBytes = 20000000;
        setup.rounds = 2;
        setup.partitions = {{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}};
        const RunResult run = Simulate(setup);
        NS_TEST_EXPECT_MSG_EQ(run.heldStarts, 1u, "island 0 in round 1 only");
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "no queue drops");
        NS_TEST_ASSERT_MSG_EQ(run.records.size(),
                              RecordCount(setup),
                              "a record per island and round");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0u, "island " << r.island << " resent");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A 10x straggler delays its own clique only, and is not declared lost.
 */
class TrainingStragglerTestCase : public TestCase
{
  public:
    TrainingStragglerTestCase()
        : TestCase("10x straggler delays only its clique")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 4;
        setup.compute = MilliSeconds(100);
        setup.straggler = 0;
        setup.partitions = {{{0, 1}, {2, 3}}};
        const RunResult run = Simulate(setup);
        const double slow = 10 * 0.1;
        NS_TEST_ASSERT_MSG_EQ(run.records.size(),
                              RecordCount(setup),
                              "a record per island and round");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_ASSERT_MSG_EQ(r.lostPeers.size(), 0u, "a slow peer is not lost");
            const double end = r.syncEnd.GetSeconds();
            if (r.island <= 1)
            {
                NS_TEST_ASSERT_MSG_GT(end, slow, "the straggler's clique waits for it");
            }
            else
            {
                NS_TEST_ASSERT_MSG_LT(end, slow / 2, "the other clique does not wait");
            }
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The same seed gives byte-identical rounds.csv rows, under random loss.
 */
class TrainingDeterminismTestCase : public TestCase
{
  public:
    TrainingDeterminismTestCase()
        : TestCase("same seed, byte-identical CSV")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.loss = 0.02;
        setup.rounds = 2;
        setup.modelBytes = 20 * CHUNK;
        const RunResult first = Simulate(setup);
        const RunResult second = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(first.csv, second.csv, "identical CSV");
        NS_TEST_ASSERT_MSG_GT(first.lossDrops, 0u, "the runs had random loss to repeat");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The training application's test suite.
 */
class TrainingApplicationTestSuite : public TestSuite
{
  public:
    TrainingApplicationTestSuite()
        : TestSuite("training-application")
    {
        for (const char* caps : {"none", "multicast", "fpga", "both"})
        {
            AddTestCase(new TrainingExactBytesTestCase(caps));
        }
        AddTestCase(new TrainingSyncTimeTestCase());
        AddTestCase(new TrainingMtuTestCase());
        AddTestCase(new TrainingStockLinksTestCase());
        AddTestCase(new TrainingDeviceFramingTestCase());
        AddTestCase(new TrainingRingTestCase());
        AddTestCase(new TrainingFixedPointRangeTestCase());
        AddTestCase(new TrainingRealMeanTestCase("none"));
        AddTestCase(new TrainingRealMeanTestCase("both"));
        AddTestCase(new TrainingGridTestCase(false));
        AddTestCase(new TrainingGridTestCase(true));
        AddTestCase(new TrainingRefusedTreeTestCase());
        AddTestCase(new TrainingFpgaHoldTestCase());
        AddTestCase(new TrainingQueueSizeTestCase());
        AddTestCase(new TrainingOverlapTestCase());
        AddTestCase(new TrainingEstimateLoadTestCase());
        AddTestCase(new TrainingStragglerTestCase());
        AddTestCase(new TrainingDeterminismTestCase());
        AddTestCase(new TrainingGradientPortTestCase());
    }
};

/// The suite's static instance.
static TrainingApplicationTestSuite g_trainingApplicationTestSuite;
