/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of loss and its recovery (doc/training.rst, "Recovery protocol"), on the scenarios of
 * training-scenario.h: single known drops (a ListErrorModel dropping chosen packets) in the
 * direct unicast, multicast and FPGA exchanges, with the exact extra time and the exact resend
 * count; random WAN loss of 0.1%, 1% and 5% in every capability set, direct and ring, with exact
 * real-mode results and no queue drops; a cut access link ending in the exact lost peers of
 * every island within the documented bound; and no resends without loss.
 *
 * Expected times are computed here from the links (rates, delays, header and framing bytes),
 * never read back from a run. Times in ns-3 are whole nanoseconds: every serialisation and every
 * pacing instant is rounded to one, and two copies paced in phase drift apart by the rounding
 * of their serialisations (under 1 ns per chunk). The timing checks therefore allow
 * TIME_TOLERANCE, far below anything the protocol does (the shortest packet, a NACK, takes 78 ns
 * on a 10 Gbit/s access link; a full chunk 7.2 us).
 */

// ctest-suite: loss-recovery

#include "exchange-unit-harness.h"
#include "training-scenario.h"

#include "ns3/direct-exchange.h"
#include "ns3/gradient-pacer.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/training-application.h"

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::training_test;

namespace
{

/// Allowed difference between a computed time and the simulated one: ns rounding only.
const Time TIME_TOLERANCE = NanoSeconds(10);

/**
 * \param chunks full chunks already sent \param bps the stream's pacing rate
 * \return when a paced stream sends its chunk \p chunks, after its start: the pacer counts
 *         every full chunk's wire bytes (framing included) at the stream's rate
 */
Time
Paced(uint32_t chunks, uint64_t bps)
{
    return Seconds(chunks * (FULL_CHUNK_IP + FRAMING) * 8.0 / bps);
}

/**
 * \param ipBytes an IPv4 packet's size \param bps an FPGA's ProcessingRate (0: none)
 * \return the time its aggregation engine takes for the packet (inbound gradient traffic)
 */
Time
Service(uint32_t ipBytes, uint64_t bps)
{
    return bps == 0 ? Time(0) : Seconds(ipBytes * 8.0 / bps);
}

/**
 * \param ipBytes an IPv4 packet's size \param wanDelay the WAN link's delay, s
 * \param fpgaBps the FPGAs' ProcessingRate
 * \return its time island -> access -> FPGA -> in-box -> router -> one WAN link -> router ->
 *         in-box -> FPGA (its engine, as inbound gradient traffic that passes through) ->
 *         access -> island, nothing queued
 */
Time
FpgaPathTime(uint32_t ipBytes, double wanDelay, uint64_t fpgaBps)
{
    return PathTime(ipBytes, wanDelay) + 2 * Hop(ipBytes, IN_BOX_BPS, IN_BOX_DELAY) +
           Service(ipBytes, fpgaBps);
}

/**
 * \param run a run's result \param island an island \param round a round
 * \param islands islands of the run
 * \return its record (records are round-major, then island)
 */
const TrainingRoundRecord&
RecordOf(const RunResult& run, uint32_t island, uint32_t round, uint32_t islands)
{
    return run.records.at(round * islands + island);
}

/**
 * \param run a real-payload run of the global clique \param setup its set-up (one island per
 *        city) \return the largest error of an island's final parameters from the mean of
 *        everyone's initial ones, computed here
 */
double
WorstErrorFromMean(const RunResult& run, const Setup& setup)
{
    const std::vector<uint32_t> all = AllIslands(setup.cities);
    const std::vector<double> mean = Mean(run.before, all);
    double worst = 0;
    for (uint32_t i : all)
    {
        worst = std::max(worst, MaxError(run.after[i], mean));
    }
    return worst;
}

/// Delay of the two WAN links of the far city C2 in the single-drop triangles, s.
constexpr double FAR_DELAY = 3e-3;
/// Rate of a stream that shares a 10 Gbit/s access link with one other (max-min), bit/s.
constexpr uint64_t HALF_ACCESS_BPS = ACCESS_BPS / 2;

/**
 * \param caps capability set
 * \return three cities in a triangle, C2 FAR_DELAY from the others, island 1's arrivals
 *         traced, transmit queues at the helper's tuned bound (twice the planned streams per
 *         link direction, so a sender paced over its rate overflows them)
 */
Setup
FarTriangle(const std::string& caps)
{
    Setup setup;
    setup.caps = caps;
    setup.farDelay = FAR_DELAY;
    setup.traceIsland = 1;
    setup.queuePackets = 1; // raised by the helper to the planned bound
    return setup;
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief Random loss on every WAN link direction: every round completes, nobody is lost, the
 *        results are exact and recovery never overflows a queue.
 *
 * Four cities in a ring, one island each, global clique (direct, or one ring all-reduce of
 * four), 2 rounds of a 400-chunk model (3.6 MB; 1,200 chunks at 0.1% loss) with real
 * payloads and no local steps: after the rounds every island must hold the mean of the
 * initial parameters, computed here, within the fixed-point resolution (R + 1) x 0.5 / Scale
 * for R = 2 rounds. The WAN carries at least 4 x 1.5 x C chunk crossings per round (ring:
 * 2(k-1)/k of the model per island, one hop each): 2,400 at 1% (24 losses expected per
 * round), 7,200 at 0.1% (7), so every round loses packets with the fixed seed; every round has
 * resends (asserted per round: a recovery bug of the second round cannot hide behind an exact
 * mean made by the first). Up to 1% loss, transmit queues are at the helper's tuned bound
 * (twice the planned streams per link direction), so a sender paced over its planned rate
 * overflows them, and zero queue drops says that the first passes and the recovery together
 * keep to the plan; at 5% they hold 100 packets.
 */
class TrainingLossTestCase : public TestCase
{
  public:
    /** \param loss per-packet loss \param caps capability set \param ring ring all-reduce */
    TrainingLossTestCase(double loss, const std::string& caps, bool ring)
        : TestCase(Name(loss, caps, ring)),
          m_loss(loss),
          m_caps(caps),
          m_ring(ring)
    {
    }

  private:
    /** \param loss loss \param caps capabilities \param ring ring \return the test's name */
    static std::string Name(double loss, const std::string& caps, bool ring)
    {
        std::ostringstream os;
        os << "real mode with " << loss * 100 << "% WAN loss, capabilities=" << caps
           << (ring ? ", ring" : ", direct");
        return os.str();
    }

    void DoRun() override
    {
        Setup setup;
        setup.caps = m_caps;
        setup.real = true;
        setup.loss = m_loss;
        setup.ring = m_ring;
        setup.cities = 4;
        setup.rounds = 2;
        setup.modelBytes = (m_loss < 0.01 ? 1200 : 400) * CHUNK;
        // Up to 1%: the helper's planned bound (raised from 1 packet). At 5% the repair runs
        // beyond the plan's budget and 100 packets absorb it; TrainingRecoveryKeepsToPlan
        // checks 5% against small fixed queues.
        setup.queuePackets = m_loss <= 0.01 ? 1 : 100;
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), setup.rounds * setup.cities, "all records");
        std::vector<uint64_t> roundResends(setup.rounds, 0);
        for (const TrainingRoundRecord& r : run.records)
        {
            roundResends.at(r.round) += r.retransmissions;
            NS_TEST_EXPECT_MSG_EQ(r.finished,
                                  true,
                                  "round " << r.round << " of island " << r.island << " finished");
            NS_TEST_EXPECT_MSG_EQ(r.lostPeers.size(),
                                  0u,
                                  "nobody lost, round " << r.round << " island " << r.island);
        }
        NS_TEST_EXPECT_MSG_GT(run.lossDrops, 0u, "the error models dropped packets");
        for (uint32_t round = 0; round < setup.rounds; ++round)
        {
            NS_TEST_EXPECT_MSG_GT(roundResends[round], 0u, "round " << round << " repaired losses");
        }
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "recovery overflowed no queue");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(WorstErrorFromMean(run, setup),
                                    (setup.rounds + 1) * 0.5 / SCALE,
                                    "every island holds the exact mean despite loss");
    }

    double m_loss;      //!< loss rate
    std::string m_caps; //!< capability set
    bool m_ring;        //!< ring all-reduce
};

/**
 * \ingroup wan-training-tests
 * \brief The common checks of a single known drop of island 0's chunk: exactly one packet
 *        dropped, no queue drop, every round finished with nobody lost, exactly one resend (by
 *        island 0), the receiver's round ending when computed, every other round unchanged.
 */
class SingleDropTestCase : public TestCase
{
  protected:
    /** \param name the test's name */
    explicit SingleDropTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /**
     * \param setup a run tracing its traceIsland (or that island's FPGA port)
     * \param sender the sender of the chunk to drop \param chunk its index
     * \param clean receives the lossless run
     * \param type the dropped packet's type (the first such arrival is dropped)
     * \return the run with that one packet dropped where it was traced (dropAtIsland =
     *         traceIsland), or the lossless run again if it never arrived there; packet uids
     *         count on across runs, so the uid is taken relative to a probe made just before
     *         each run
     */
    RunResult SimulateDropping(Setup setup,
                               uint32_t sender,
                               uint32_t chunk,
                               RunResult& clean,
                               GradientHeader::Type type = GradientHeader::DATA)
    {
        const uint64_t cleanBase = Create<Packet>()->GetUid();
        clean = Simulate(setup);
        const RunResult::Arrival* lost = clean.Find(type, sender, chunk);
        NS_TEST_EXPECT_MSG_NE(lost, nullptr, "chunk " << chunk << " of " << sender << " seen");
        if (lost != nullptr)
        {
            setup.dropAtIsland = setup.traceIsland;
            const uint64_t base = Create<Packet>()->GetUid();
            setup.dropUids = {base + (lost->uid - cleanBase)};
        }
        return Simulate(setup);
    }

    /**
     * \param arrival a traced arrival (nullptr: never seen) \param expected when it must come
     * \param what what it is
     */
    void CheckArrival(const RunResult::Arrival* arrival, Time expected, const std::string& what)
    {
        NS_TEST_EXPECT_MSG_NE(arrival, nullptr, what << ": seen");
        if (arrival != nullptr)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(arrival->at, expected, TIME_TOLERANCE, what);
        }
    }

    /**
     * \param run the run with the drop \param clean the lossless run
     * \param receiver the island that lost the chunk \param expected when its round must end
     */
    void CheckOneResend(const RunResult& run,
                        const RunResult& clean,
                        uint32_t receiver,
                        Time expected)
    {
        NS_TEST_EXPECT_MSG_EQ(run.lossDrops, 1u, "exactly one chunk dropped");
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "no queue drops");
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), clean.records.size(), "one round each");
        for (uint32_t i = 0; i < std::min(run.records.size(), clean.records.size()); ++i)
        {
            const TrainingRoundRecord& r = run.records[i];
            NS_TEST_ASSERT_MSG_EQ(r.island, i, "island " << i << "'s record");
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_EXPECT_MSG_EQ(r.lostPeers.size(), 0u, "nobody lost");
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, (i == 0 ? 1u : 0u), "one resend, island 0");
            if (i == receiver)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(r.syncEnd,
                                          expected,
                                          TIME_TOLERANCE,
                                          "the receiver's round ends when computed");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(r.syncEnd,
                                      clean.records[i].syncEnd,
                                      "island " << i << "'s round is unchanged");
            }
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief One known lost chunk costs the time to see the gap, one NACK and one resend, all
 *        computed here from the links, and exactly one resend.
 *
 * Two cities, one island each; island 0's 11-chunk update to island 1, one stream at the
 * 10 Gbit/s of its access link (the bottleneck), so chunk c leaves at start + c x slot, slot
 * = (full chunk + framing) x 8 / 10 Gbit/s, and reaches island 1 a path later (access, WAN,
 * access: each hop its serialisation and delay). A lossless run lists the packets island 1
 * receives; a second run drops island 0's chunk 3 there (ListErrorModel on island 1's access
 * link, by packet uid). Island 1 sees the gap when chunk 4 arrives and NACKs at once; the 11
 * chunks take 80 us, so island 0's first pass is long over when the NACK arrives (2.2 ms round
 * trip): it resends at once. Island 1's round ends when the resend arrives:
 *   start + 4 x slot + path(full chunk) + path(NACK) + path(full chunk).
 * Transmit queues are the helper's tuned bound (2 packets for the one stream per direction):
 * a sender paced at twice its rate would overflow them.
 */
class TrainingSingleDropTestCase : public SingleDropTestCase
{
  public:
    TrainingSingleDropTestCase()
        : SingleDropTestCase("one lost chunk: gap seen, one NACK, one resend, exact extra time")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 2;
        setup.traceIsland = 1;
        setup.queuePackets = 1; // raised by the helper to the planned bound
        RunResult clean;
        const RunResult run = SimulateDropping(setup, 0, 3, clean);
        const Time start = setup.compute;
        const Time gap = start + Paced(4, ACCESS_BPS) + PathTime(FULL_CHUNK_IP);
        CheckArrival(clean.Find(GradientHeader::DATA, 0, 4), gap, "chunk 4 arrives as computed");
        const Time expected = gap + PathTime(NACK_IP) + PathTime(FULL_CHUNK_IP);
        CheckOneResend(run, clean, 1, expected); // gap at chunk 4 + NACK path + resend path
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Ring all-reduce: one lost chunk costs one NACK and one resend, and delays only that
 *        chunk's way on round the ring, by exactly the repair.
 *
 * Two cities, one island each, one ring of two: step 0 (reduce-scatter) sends each island's
 * half of the model (5 full chunks and a short one) to the other, step 1 (all-gather) the
 * reduced half back, each paced at the 10 Gbit/s access rate. Island 1 loses island 0's step-0
 * chunk 3 (ListErrorModel on its access link); it sees the gap when chunk 4 arrives,
 *   gap = start + 4 x slot + path(full chunk),
 * NACKs at once, and island 0, whose step 0 is long sent, resends at once: the resend reaches
 * island 1 at R = gap + path(NACK) + path(full chunk). Island 1's step 1 starts when its input's
 * first pass is over, without chunk 3, which it holds back (DeferredChunks) and sends when the
 * repair arrives, at R; so island 1's round ends at R (all in, all sent) and island 0's when
 * that chunk arrives, at R + path(full chunk). Island 0 NACKs step-1 chunk 3 on seeing the gap
 * and is told "not yet" (held back, not lost): exactly one resend in all, by island 0.
 */
class TrainingRingDropTestCase : public SingleDropTestCase
{
  public:
    TrainingRingDropTestCase()
        : SingleDropTestCase(
              "ring: one lost chunk, one resend, its way round delayed by the repair")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 2;
        setup.ring = true;
        setup.traceIsland = 1;
        setup.queuePackets = 1; // raised by the helper to the planned bound
        RunResult clean;
        const RunResult run = SimulateDropping(setup, 0, 3, clean, GradientHeader::RING);
        const Time start = setup.compute;
        const Time gap = start + Paced(4, ACCESS_BPS) + PathTime(FULL_CHUNK_IP);
        CheckArrival(clean.Find(GradientHeader::RING, 0, 4), gap, "chunk 4 arrives as computed");
        const Time repaired = gap + PathTime(NACK_IP) + PathTime(FULL_CHUNK_IP);
        CheckArrival(run.Find(GradientHeader::RING, 0, 3, true), repaired, "the resend arrives");

        NS_TEST_EXPECT_MSG_EQ(run.lossDrops, 1u, "exactly one chunk dropped");
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "no queue drops");
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 2u, "one round each");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_EXPECT_MSG_EQ(r.lostPeers.size(), 0u, "nobody lost");
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, (r.island == 0 ? 1u : 0u), "one resend");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(run.records[1].syncEnd,
                                  repaired,
                                  TIME_TOLERANCE,
                                  "island 1 ends when the repair lets it send its held chunk");
        NS_TEST_EXPECT_MSG_EQ_TOL(run.records[0].syncEnd,
                                  repaired + PathTime(FULL_CHUNK_IP),
                                  TIME_TOLERANCE,
                                  "island 0 ends when that chunk arrives");
        NS_TEST_EXPECT_MSG_LT(clean.records[0].syncEnd, run.records[0].syncEnd, "a real delay");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief One receiver's copy of a multicast chunk lost on its access link: that receiver NACKs
 *        once, the sender resends once, to its multicast group (DirectExchange queues a
 *        resend on the stream that carried the chunk, and the stream's destination is the
 *        group), and the other receivers' rounds do not change.
 *
 * Three cities in a triangle, one island each, multicast; C0-C1 1 ms, the two links of C2 3 ms,
 * so island 2's update reaches islands 0 and 1 2 ms after island 1's and island 0's: no two
 * streams share an ingress at the same time, and nothing below waits in a queue. Every
 * receiver's 10 Gbit/s access link carries two multicast streams: 5 Gbit/s each (max-min).
 * Island 1 loses island 0's chunk 3 on its access link; it sees the gap when chunk 4 arrives at
 *   gap = start + 4 x slot(5 Gbit/s) + path(full chunk, 1 ms),
 * NACKs island 0 (one range) at once, and island 0, long idle (its 11 chunks left within
 * 160 us), resends at once on its stream, to the group:
 *   island 1's end = gap + path(NACK, 1 ms) + path(full chunk, 1 ms) (about start + 3.39 ms),
 * after island 2's last chunk (the lossless end, about start + 3.25 ms: the short last chunk,
 * paced at start + 10 x slot, overtakes nothing but reaches island 1's router while chunk 9
 * is still on island 1's access link, so it arrives right behind chunk 9: start + 9 x slot +
 * path(full chunk, 3 ms) + ser(last chunk, 10 Gbit/s)). The group's copy also reaches island 2
 * (after its round ended, counted there as one more packet received and ignored). Exactly one
 * resend, one drop; the rounds of islands 0 and 2 end exactly as without the loss.
 */
class TrainingMulticastDropTestCase : public SingleDropTestCase
{
  public:
    TrainingMulticastDropTestCase()
        : SingleDropTestCase(
              "one lost multicast copy: one NACK, one resend to the group, exact extra time")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup = FarTriangle("multicast");
        RunResult clean;
        const RunResult run = SimulateDropping(setup, 0, 3, clean);
        const Time start = setup.compute;
        const uint32_t lastIp = setup.modelBytes - 10 * CHUNK + HEADER + IP_UDP;
        // Store and forward: the short last chunk reaches island 1's router while chunk 9 is
        // still on island 1's access link, and follows it there back to back.
        const Time cleanEnd =
            std::max(start + Paced(10, HALF_ACCESS_BPS) + PathTime(lastIp, FAR_DELAY),
                     start + Paced(9, HALF_ACCESS_BPS) + PathTime(FULL_CHUNK_IP, FAR_DELAY) +
                         Serialisation(lastIp, ACCESS_BPS));
        NS_TEST_EXPECT_MSG_EQ_TOL(clean.records[1].syncEnd,
                                  cleanEnd,
                                  TIME_TOLERANCE,
                                  "lossless: island 2's last chunk ends island 1's round");
        const Time gap = start + Paced(4, HALF_ACCESS_BPS) + PathTime(FULL_CHUNK_IP);
        CheckArrival(clean.Find(GradientHeader::DATA, 0, 4), gap, "chunk 4 arrives as computed");

        // Gap at chunk 4 + NACK path + resend path.
        const Time expected = gap + PathTime(NACK_IP) + PathTime(FULL_CHUNK_IP);
        CheckOneResend(run, clean, 1, expected);
        NS_TEST_EXPECT_MSG_GT(expected, cleanEnd, "the resend comes after island 2's chunks");
        CheckArrival(run.Find(GradientHeader::DATA, 0, 3, true), expected, "resend arrival");
        // The resend went to the group: island 2 received it too, island 1 got it instead of
        // the lost copy, island 0 nothing more.
        const uint64_t received[] = {0, 0, 1};
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(run.records[i].packetsReceived,
                                  clean.records[i].packetsReceived + received[i],
                                  "packets received by island " << i);
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A contribution lost before the receiving island's FPGA: the FPGA emits that chunk's
 *        slot as a partial aggregate as soon as the missing sender's frontier has passed it
 *        (EarlyFlush), the island NACKs only the missing sender for only that chunk, and the
 *        resend passes through the FPGA (a retransmission is never folded) to the island.
 *
 * Three cities in a triangle, one island each, FPGAs, unicast copies; C0-C1 1 ms, the links of
 * C2 3 ms. Each island sends two copies at 5 Gbit/s (its 10 Gbit/s egress shared), in phase,
 * the copy to the lower island first (streams in receiver order): island 2's copy to island 1
 * waits one full chunk's serialisation behind its copy to island 0. Every FPGA has
 * PipelineLatency 2 us and ProcessingRate 40 Gbit/s (each inbound gradient packet occupies its
 * engine size x 8 / 40 Gbit/s; outbound packets pass at once), the in-box links 400 Gbit/s
 * and 0.5 us. Island 0's chunk 3 to island 1 is dropped at FPGA 1's router port. Island 0's
 * later chunks and its END reach FPGA 1 within 1.3 ms, so island 0's frontier is past chunk 3
 * long before island 2's chunk 3 arrives (2 ms later), at
 *   A = start + 3 x slot + ser(full, 10 Gbit/s) [behind the copy to island 0]
 *       + access + in-box + WAN (3 ms) + in-box hops (serialisation and delay each);
 * that contribution opens slot 3, which can never complete: it leaves as a partial aggregate
 * (contributor 2 only) after the engine and the pipeline, and island 1 NACKs island 0 when it
 * arrives:
 *   nack = A + service(full) + PipelineLatency + access hop(full);
 * the NACK takes the FPGA path to island 0 (through FPGA 0's engine), island 0 (idle) resends
 * at once, and the resend takes the FPGA path back (through FPGA 1's engine):
 *   island 1's end = nack + fpgaPath(NACK, 1 ms) + fpgaPath(full chunk, 1 ms).
 * Exactly one resend, one drop, one early partial aggregate (every other slot complete), and
 * the rounds of islands 0 and 2 end exactly as without the loss.
 */
class TrainingFpgaDropTestCase : public SingleDropTestCase
{
  public:
    TrainingFpgaDropTestCase()
        : SingleDropTestCase(
              "one contribution lost before an FPGA: early partial, one NACK, one resend")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup = FarTriangle("fpga");
        setup.atFpga = true;
        setup.fpgaLatency = MicroSeconds(2);
        setup.fpgaRateBps = 40 * GBPS;
        RunResult clean;
        const RunResult run = SimulateDropping(setup, 0, 3, clean);
        const uint64_t chunks = Chunks(setup.modelBytes);
        const Time start = setup.compute;
        const Time arrival =
            start + Paced(3, HALF_ACCESS_BPS) + Serialisation(FULL_CHUNK_IP, ACCESS_BPS) +
            Hop(FULL_CHUNK_IP, ACCESS_BPS, ACCESS_DELAY) +
            Hop(FULL_CHUNK_IP, IN_BOX_BPS, IN_BOX_DELAY) + Hop(FULL_CHUNK_IP, WAN_BPS, FAR_DELAY) +
            Hop(FULL_CHUNK_IP, IN_BOX_BPS, IN_BOX_DELAY);
        CheckArrival(clean.Find(GradientHeader::DATA, 2, 3),
                     arrival,
                     "island 2's chunk 3 reaches FPGA 1 as computed");
        const Time nack = arrival + Service(FULL_CHUNK_IP, setup.fpgaRateBps) + setup.fpgaLatency +
                          Hop(FULL_CHUNK_IP, ACCESS_BPS, ACCESS_DELAY);
        const Time expected = nack + FpgaPathTime(NACK_IP, WAN_DELAY, setup.fpgaRateBps) +
                              FpgaPathTime(FULL_CHUNK_IP, WAN_DELAY, setup.fpgaRateBps);

        CheckOneResend(run, clean, 1, expected);
        NS_TEST_EXPECT_MSG_GT(expected, clean.records[1].syncEnd, "the loss costs time");
        CheckArrival(run.Find(GradientHeader::DATA, 0, 3, true),
                     expected - Service(FULL_CHUNK_IP, setup.fpgaRateBps) -
                         Hop(FULL_CHUNK_IP, ACCESS_BPS, ACCESS_DELAY),
                     "the resend reaches FPGA 1 an engine and an access hop early");
        // Island 1 received one aggregate per chunk (one of them partial) and the resend.
        NS_TEST_EXPECT_MSG_EQ(run.records[1].packetsReceived, chunks + 1, "aggregates + resend");
        // 3 FPGAs x chunks slots; slot 3 at FPGA 1 lacks island 0's contribution.
        NS_TEST_EXPECT_MSG_EQ(clean.fpga.complete, 3 * chunks, "lossless: every slot complete");
        NS_TEST_EXPECT_MSG_EQ(run.fpga.complete, 3 * chunks - 1, "complete aggregates");
        NS_TEST_EXPECT_MSG_EQ(run.fpga.aggregated, 2 * 3 * chunks - 1, "contributions folded");
        NS_TEST_EXPECT_MSG_EQ(run.fpga.partial, 1u, "one partial aggregate");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A cut access link ends in exactly the lost peers the protocol implies, in every island
 *        and round, within the documented bound; never a hang.
 *
 * Three cities in a triangle, one island each, multicast and FPGAs (Timeout 30 ms, above the
 * 21 ms the helper would tune), 2 rounds;
 * both directions of island 2's access link lose every packet from the start.
 *
 * Direct: islands 0 and 1 hear nothing from island 2 and declare it lost; island 2 hears
 * nothing from either and declares both lost (in member order, in the same check):
 * lostPeers 0: {2}, 1: {2}, 2: {0, 1}, in both rounds.
 *
 * Ring (members in island order, predecessor of member p is p - 1 mod 3): island 0's
 * predecessor is island 2 (cut): lost. Island 2's predecessor island 1 cannot reach it: lost.
 * Island 1's predecessor island 0 is alive, but sends only step 0 (its step 1 needs island 2's
 * step 0); it answers island 1's NACKs "not yet" until it abandons the round itself (declaring
 * island 2 lost), and an abandoned ring answers nothing: island 1 then declares island 0 lost.
 * So every island records exactly its predecessor: 0: {2}, 1: {0}, 2: {1}, in both rounds.
 *
 * Bound (doc/training.rst, "Recovery protocol"): a peer that stops is declared lost at most
 *   L = hold + RTT + (MaxRetries + 1) x (RetransmissionTimeout + RTT + hold)
 * after the later of the round's start and its last packet, with hold the island's FPGA hold
 * (Timeout + PipelineLatency) in DIRECT rounds and none in RING rounds (ring chunks are never
 * held), and RTT here at most two full-chunk paths through the FPGAs. Direct: each island's
 * round ends at most L after its start. Ring: islands 0 and 2 too; island 1's predecessor
 * sends its last packet when it abandons its round, so island 1's round ends at most L after
 * that (plus the one-way path). The simulation, 2 rounds of 10 ms compute and at most two such
 * declarations in a row per round, then ends by 2 x (compute + chain x L) + RTT, chain = 1
 * (direct) or 2 (ring).
 */
class TrainingCutLinkTestCase : public TestCase
{
  public:
    /** \param ring use ring all-reduce */
    TrainingCutLinkTestCase(bool ring)
        : TestCase(std::string("cut link: exact lost peers of every island, bounded end, ") +
                   (ring ? "ring" : "direct")),
          m_ring(ring)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.cities = 3;
        setup.rounds = 2;
        setup.cut = 2;
        setup.ring = m_ring;
        setup.fpgaTimeout = MilliSeconds(30);
        const RunResult run = Simulate(setup); // returning at all proves there is no hang
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 6u, "3 islands x 2 rounds");
        const Time fpgaHold = setup.fpgaTimeout + setup.fpgaLatency;
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(run.hold[i], fpgaHold, "the helper kept Timeout 30 ms");
        }
        const std::vector<std::vector<uint32_t>> expected =
            m_ring ? std::vector<std::vector<uint32_t>>{{2}, {0}, {1}}
                   : std::vector<std::vector<uint32_t>>{{2}, {2}, {0, 1}};
        const Time rtt = 2 * FpgaPathTime(FULL_CHUNK_IP, WAN_DELAY, 0);
        const Time hold = m_ring ? Time(0) : fpgaHold;
        const Time bound = hold + rtt + (MAX_RETRIES + 1) * (RETRANSMISSION_TIMEOUT + rtt + hold);
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "round ended, island " << r.island);
            std::ostringstream lost;
            for (uint32_t peer : r.lostPeers)
            {
                lost << " " << peer;
            }
            NS_TEST_EXPECT_MSG_EQ((r.lostPeers == expected.at(r.island)),
                                  true,
                                  "round " << r.round << ", island " << r.island
                                           << " lost:" << lost.str());
            // The later of the start and the silent peer's last packet.
            Time from = r.syncStart;
            if (m_ring && r.island == 1)
            {
                const TrainingRoundRecord& predecessor = RecordOf(run, 0, r.round, 3);
                from = std::max(from, predecessor.syncEnd + rtt / 2);
            }
            NS_TEST_EXPECT_MSG_LT_OR_EQ(r.syncEnd - from,
                                        bound,
                                        "round " << r.round << ", island " << r.island
                                                 << ": lost peer declared within the bound");
        }
        const Time end = setup.rounds * (setup.compute + (m_ring ? 2 : 1) * bound) + rtt;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(run.end, end, "the simulation ends within the bound");
    }

    bool m_ring; //!< ring all-reduce
};

/**
 * \ingroup wan-training-tests
 * \brief Without loss nothing is resent, even when peers are silent for many check intervals
 *        (a 10x straggler): a NACK that races data still on the way is answered "not yet".
 *
 * Transmit queues are the helper's tuned bound (twice the planned streams per link direction),
 * so islands paced over their planned rates would overflow them: "a clean network" (no queue
 * drop, no loss) also says that every stream keeps to its plan.
 */
class TrainingNoNeedlessResendTestCase : public TestCase
{
  public:
    /** \param ring ring all-reduce (else direct exchange) */
    explicit TrainingNoNeedlessResendTestCase(bool ring)
        : TestCase(std::string("no loss, straggler: zero retransmissions, ") +
                   (ring ? "ring" : "direct")),
          m_ring(ring)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 4;
        setup.rounds = 3;
        setup.compute = MilliSeconds(50);
        setup.straggler = 1;
        setup.ring = m_ring;
        setup.modelBytes = 40 * CHUNK;
        // WAN round trips (>= 120 ms) longer than a step's send time and than the 20 ms check
        // interval: a NACK sent in a silence arrives after the whole step has left.
        setup.wanDelay = 0.03;
        // Queues at the helper's tuned bound (twice the planned streams per link direction):
        // islands paced over their rates would overflow them.
        setup.queuePackets = 1;
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), setup.rounds * setup.cities, "all records");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "finished");
            NS_TEST_ASSERT_MSG_EQ(r.lostPeers.size(), 0u, "a slow peer is not lost");
            NS_TEST_ASSERT_MSG_EQ(r.retransmissions, 0u, "island " << r.island << " resent");
        }
        NS_TEST_ASSERT_MSG_EQ(run.queueDrops + run.lossDrops, 0u, "a clean network");
    }

    bool m_ring; //!< ring all-reduce
};

/**
 * \ingroup wan-training-tests
 * \brief Heavy loss with small queues: recovery takes the place of first-pass data and never
 *        overflows a queue.
 *
 * 5% loss on every WAN link direction and a 1,500-chunk model, so the streams keep their
 * access links fully booked for a long time, with small transmit queues. Two kinds of recovery
 * traffic overflow them when they come on top of the plan's rates:
 *
 * - NACKs and "not yet" answers: thousands of small packets up an island's access link, which
 *   its paced streams already fill (each is charged to the pacer of the stream on that link).
 *   Four cities, queues of 16 packets: without the charge, ``none`` drops 11 packets.
 * - with FPGAs and multicast (``both``), resends to a group pass every receiver's FPGA
 *   unsummed, onto an access link the folded stream fills: one resend weighs k-1 = 8 chunks
 *   there (SyncStream::resendWeight). Nine cities, queues of 40 packets (8 streams, and a
 *   burst of 3 copies of a LATE or START to eight peers, TrainingApplication::NoticeCopies,
 *   which the helper requires room for): weighing resends as one chunk drops 28,222 packets
 *   (53,342 with queues of 32 when notices went in 2 copies).
 *
 * Zero queue drops, every round finished, nobody lost, and losses were repaired.
 */
class TrainingRecoveryKeepsToPlanTestCase : public TestCase
{
  public:
    /** \param caps capability set \param ring ring all-reduce */
    TrainingRecoveryKeepsToPlanTestCase(const std::string& caps, bool ring)
        : TestCase("5% loss, small queues: recovery drops nothing, capabilities=" + caps +
                   (ring ? ", ring" : ", direct")),
          m_caps(caps),
          m_ring(ring)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = m_caps;
        const bool folded = m_caps == "both";
        setup.cities = folded ? 9 : 4;
        setup.ring = m_ring;
        setup.loss = 0.05;
        setup.modelBytes = 1500 * CHUNK;
        setup.queuePackets = folded ? 40 : 16;
        setup.tuneQueues = false;
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), setup.cities, "all records");
        uint64_t retransmissions = 0;
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "island " << r.island << " finished");
            NS_TEST_EXPECT_MSG_EQ(r.lostPeers.size(), 0u, "nobody lost, island " << r.island);
            retransmissions += r.retransmissions;
        }
        NS_TEST_EXPECT_MSG_GT(run.lossDrops, 100u, "the error models dropped many packets");
        NS_TEST_EXPECT_MSG_GT(retransmissions, 100u, "losses were repaired by resends");
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "recovery overflowed no queue");
    }

    std::string m_caps; //!< capability set
    bool m_ring;        //!< ring all-reduce
};

/**
 * \ingroup wan-training-tests
 * \brief A loss costs the FPGAs the slots its lost copy should have reached, not the next
 *        round: with AlignStarts, members still repairing a round announce it (LATE, START),
 *        and the next round's first passes start together.
 *
 * Four cities in a ring, 20 ms WAN links (round trips of 40 to 80 ms, beyond the FPGAs'
 * 20 ms slot margin), one island each with an FPGA, multicast, a global DIRECT clique, 2
 * rounds of a 400-chunk model with real payloads and 1% loss on every WAN link direction.
 * Every island repairs in round 0 and starts round 1 late by a repair's round trip, longer
 * than the whole first pass (400 chunks at a quarter of 10 Gbit/s: under 12 ms). A lost copy
 * leaves at most one partial slot at each of the three FPGAs past the link that lost it, so
 * aligned, partial aggregates are at most 3 per lost packet; unaligned (AlignStarts false,
 * the behaviour before it existed), every FPGA flushes round 1's slots without the late
 * members, which the test requires to be more than 10 per lost packet so that it shows what
 * the alignment prevents. Both runs end with the exact mean.
 */
class TrainingAlignedStartsTestCase : public TestCase
{
  public:
    /** \param align AlignStarts */
    explicit TrainingAlignedStartsTestCase(bool align)
        : TestCase(std::string("1% loss with FPGAs, 40-80 ms round trips: ") +
                   (align ? "aligned starts, at most 3 partial aggregates per lost packet"
                          : "unaligned starts cascade (the behaviour AlignStarts prevents)")),
          m_align(align)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.real = true;
        setup.loss = 0.01;
        setup.cities = 4;
        setup.rounds = 2;
        setup.wanDelay = 20e-3;
        setup.modelBytes = 400 * CHUNK;
        setup.queuePackets = 1; // raised by the helper to the planned bound
        setup.alignStarts = m_align;
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), RecordCount(setup), "a record per round");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished && r.lostPeers.empty(),
                                  true,
                                  "round " << r.round << " island " << r.island);
        }
        NS_TEST_ASSERT_MSG_GT(run.lossDrops, 10u, "the WAN dropped packets");
        NS_TEST_EXPECT_MSG_EQ(run.queueDrops, 0u, "no queue drop");
        const uint64_t perLost = 3; // the FPGAs a lost copy can miss: every other island's
        if (m_align)
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(run.fpga.partial,
                                        perLost * run.lossDrops,
                                        "partial aggregates per lost packet");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(run.fpga.partial,
                                  10 * run.lossDrops,
                                  "without alignment round 1 is flushed without the late");
        }
        NS_TEST_EXPECT_MSG_LT_OR_EQ(WorstErrorFromMean(run, setup),
                                    (setup.rounds + 1) * 0.5 / SCALE,
                                    "every island holds the exact mean despite loss");
    }

    bool m_align; //!< AlignStarts
};

/**
 * \ingroup wan-training-tests
 * \brief GradientPacer::Charge: bytes sent beside the stream (NACKs, answers) delay its next
 *        packet by their time at the stream's rate, busy or idle.
 *
 * At 8 Mbit/s a byte takes 1 us. 1,000-byte packets: the first leaves at 0 and the next would
 * at 1,000 us; 500 bytes charged at 100 us move it to 1,500 us, the third leaves at 2,500 us
 * and at 3,500 us there is nothing left (the pacer idles). At 10,000 us, the clock long past,
 * 250 bytes are charged: the clock restarts then, so a wake at 10,100 us sends at 10,250 us,
 * and the next call comes 1,000 us later.
 */
class GradientPacerChargeTestCase : public TestCase
{
  public:
    GradientPacerChargeTestCase()
        : TestCase("pacer: a charge delays the next packet by its bytes at the rate")
    {
    }

  private:
    void DoRun() override
    {
        GradientPacer pacer;
        std::vector<Time> calls;
        uint32_t packets = 0;
        pacer.SetSendFunction([&]() -> uint32_t {
            calls.push_back(Simulator::Now());
            return packets-- > 0 ? 1000 : 0;
        });
        Simulator::Schedule(Time(0), [&]() {
            packets = 3;
            pacer.Restart(8e6);
        });
        Simulator::Schedule(MicroSeconds(100), [&]() { pacer.Charge(500); });
        Simulator::Schedule(MicroSeconds(10000), [&]() { pacer.Charge(250); });
        Simulator::Schedule(MicroSeconds(10100), [&]() {
            packets = 1;
            pacer.Wake();
        });
        Simulator::Run();
        Simulator::Destroy();
        const std::vector<Time> expected = {MicroSeconds(0),
                                            MicroSeconds(1500),
                                            MicroSeconds(2500),
                                            MicroSeconds(3500),
                                            MicroSeconds(10250),
                                            MicroSeconds(11250)};
        NS_TEST_ASSERT_MSG_EQ(calls.size(), expected.size(), "send calls");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(calls[i], expected[i], "call " << i);
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The plan's budget rules live in GradientPacer: at a planned rate a resend costs its
 *        size times the resend weight (1,000 bytes, weight 2.5: 2,500) and a charge delays
 *        the next packet; under a rate function (transport adaptive) a resend costs its size
 *        and a charge changes nothing. At 8 Mbit/s a byte takes 1 us: with a rate function
 *        the pacer sends at 0, 1,000 and 2,000 us although 500 bytes were charged at 100 us.
 */
class GradientPacerBudgetTestCase : public TestCase
{
  public:
    GradientPacerBudgetTestCase()
        : TestCase("pacer: resend cost and charges at a planned rate, not under a rate function")
    {
    }

  private:
    void DoRun() override
    {
        GradientPacer planned;
        planned.SetResendWeight(2.5);
        NS_TEST_EXPECT_MSG_EQ(planned.ResendCost(1000), 2500u, "planned: size x weight");
        planned.SetResendWeight(0.5);
        NS_TEST_EXPECT_MSG_EQ(planned.ResendCost(1000), 1000u, "a weight below 1 counts as 1");

        GradientPacer adaptive;
        adaptive.SetResendWeight(2.5);
        adaptive.SetRateFunction([]() { return 8e6; });
        NS_TEST_EXPECT_MSG_EQ(adaptive.ResendCost(1000), 1000u, "rate function: its size");
        std::vector<Time> calls;
        uint32_t packets = 0;
        adaptive.SetSendFunction([&]() -> uint32_t {
            calls.push_back(Simulator::Now());
            return packets-- > 0 ? 1000 : 0;
        });
        Simulator::Schedule(Time(0), [&]() {
            packets = 2;
            adaptive.Restart(8e6);
        });
        Simulator::Schedule(MicroSeconds(100), [&]() { adaptive.Charge(500); });
        Simulator::Run();
        Simulator::Destroy();
        const std::vector<Time> expected = {MicroSeconds(0),
                                            MicroSeconds(1000),
                                            MicroSeconds(2000)};
        NS_TEST_ASSERT_MSG_EQ(calls.size(), expected.size(), "send calls");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(calls[i], expected[i], "call " << i);
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Behind an FPGA, a peer's resend that reaches the island before it knew the chunk
 *        missing is set aside (AsidePieces): taken if the chunk turns out missing, forgotten if
 *        an aggregate brings it.
 *
 * Island 2 of members 0..3, DIRECT over one multicast stream, an FPGA in front of every island
 * (hold 5 ms). The FPGA's aggregates come in chunk order: chunk 0's complete one at 2 ms.
 * Island 0's chunk 1 arrives as a resend (asked by another member; island 2 has not seen its
 * chunk 1 missing) at 2 ms. Then at 3 ms, in the first case, the complete aggregate {0, 1, 3}
 * of chunk 1 (the one its FPGA made, which the resend overtook): taken whole, no NACK, no
 * duplicate; taking the resend at once would have made the aggregate overlap, dropped it and
 * asked 1 and 3 again. In the second case a settled partial aggregate {1, 3}: island 0's
 * chunk 1 is missing, and the piece set aside fills it with no NACK. In the third, the partial
 * comes first (2 ms), and the resend after the NACK (3 ms) is taken at once. Chunk 2's complete
 * aggregate follows at 4 ms, after any NACK went; the round ends once, and the mean is exact.
 */
class AsideResendUnitTestCase : public ExchangeUnitTestCase
{
  public:
    /** Which packet follows the resend. */
    enum Order
    {
        AGGREGATE_AFTER,  //!< the complete aggregate after the resend
        PARTIAL_AFTER,    //!< a settled partial lacking 0 after the resend
        RESEND_AFTER_NACK //!< the partial first, the resend after the NACK
    };

    /** \param order the case */
    explicit AsideResendUnitTestCase(Order order)
        : ExchangeUnitTestCase(std::string("behind an FPGA, an unasked resend is set aside: ") +
                               (order == AGGREGATE_AFTER ? "the aggregate after it is taken whole"
                                : order == PARTIAL_AFTER ? "a partial lacking it takes it"
                                                         : "asked for, it is taken at once")),
          m_order(order)
    {
    }

  private:
    void DoRun() override
    {
        MakeContext(2, MilliSeconds(5));
        const Ipv4Address group("239.0.0.9");
        TrainingRoundConfig config;
        config.members = {0, 1, 2, 3};
        TrainingStreamConfig out;
        out.receivers = {0, 1, 3};
        out.destination = group;
        out.multicast = true;
        out.rateBps = 1e9;
        config.streams = {out};
        auto exchange = std::make_unique<DirectExchange>(m_context, 0, config);
        DirectExchange* ex = exchange.get();

        MakeOwn(700, -3, 5);
        auto slice = [this](std::vector<uint32_t> islands, uint32_t chunk) {
            return Slice(islands, chunk);
        };
        using G = GradientHeader;
        const uint16_t real = G::FLAG_REAL_PAYLOAD;
        const uint16_t resend = real | G::FLAG_RETRANSMISSION;
        const uint16_t settled = real | G::FLAG_SETTLED;
        Simulator::Schedule(MilliSeconds(1), [ex, this]() { ex->Start(m_own[2]); });
        // The FPGA's aggregates come in chunk order; the resend overtakes the one of chunk 1.
        const GradientHeader whole = Header(G::AGGREGATE, 1, 1, {0, 1, 3}, real);
        const GradientHeader partial = Header(G::AGGREGATE, 1, 1, {1, 3}, settled);
        const GradientHeader resent = Header(G::DATA, 0, 1, {0}, resend);
        const Time first = MilliSeconds(2);
        const Time second = MilliSeconds(3);
        Deliver(ex, first, Header(G::AGGREGATE, 0, 0, {0, 1, 3}, real), slice({0, 1, 3}, 0));
        if (m_order == RESEND_AFTER_NACK)
        {
            Deliver(ex, first, partial, slice({1, 3}, 1));
            Deliver(ex, second, resent, slice({0}, 1));
        }
        else
        {
            Deliver(ex, first, resent, slice({0}, 1));
            Deliver(ex,
                    second,
                    m_order == AGGREGATE_AFTER ? whole : partial,
                    slice(m_order == AGGREGATE_AFTER ? std::vector<uint32_t>{0, 1, 3}
                                                     : std::vector<uint32_t>{1, 3},
                          1));
        }
        Deliver(ex,
                MilliSeconds(4),
                Header(G::AGGREGATE, 0, 2, {0, 1, 3}, real),
                slice({0, 1, 3}, 2));
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();

        uint32_t nacks = 0;
        for (uint32_t peer : {0U, 1U, 3U})
        {
            for (const Sent& s : SentTo(true, m_context.settings.addresses[peer]))
            {
                if (s.header.GetType() != G::NACK)
                {
                    continue; // the round's notices
                }
                ++nacks;
                NS_TEST_EXPECT_MSG_EQ(
                    (peer == 0 && m_order == RESEND_AFTER_NACK && s.at == MilliSeconds(2)),
                    true,
                    "only the third case asks, island 0, at the partial");
            }
        }
        const uint32_t expectedNacks =
            m_order == RESEND_AFTER_NACK ? m_context.settings.nackCopies : 0;
        NS_TEST_EXPECT_MSG_EQ(nacks, expectedNacks, "NACK copies sent");
        NS_TEST_EXPECT_MSG_EQ(m_context.counters.duplicates, 0u, "no overlap, no duplicate");
        NS_TEST_EXPECT_MSG_EQ(m_completed, 1u, "the round ended once");
        NS_TEST_ASSERT_MSG_EQ(ex->IsFinished(), true, "finished");
        CheckExactMean(*ex, "exact mean");
        exchange.reset();
        Simulator::Destroy();
    }

    Order m_order; //!< the case
};

/**
 * \ingroup wan-training-tests
 * \brief The loss-recovery test suite.
 */
class LossRecoveryTestSuite : public TestSuite
{
  public:
    LossRecoveryTestSuite()
        : TestSuite("loss-recovery")
    {
        AddTestCase(new GradientPacerChargeTestCase);
        AddTestCase(new GradientPacerBudgetTestCase);
        AddTestCase(new TrainingSingleDropTestCase);
        for (auto order : {AsideResendUnitTestCase::AGGREGATE_AFTER,
                           AsideResendUnitTestCase::PARTIAL_AFTER,
                           AsideResendUnitTestCase::RESEND_AFTER_NACK})
        {
            AddTestCase(new AsideResendUnitTestCase(order));
        }
        AddTestCase(new TrainingMulticastDropTestCase);
        AddTestCase(new TrainingFpgaDropTestCase);
        AddTestCase(new TrainingRingDropTestCase);
        AddTestCase(new TrainingNoNeedlessResendTestCase(false));
        AddTestCase(new TrainingNoNeedlessResendTestCase(true));
        for (bool ring : {false, true})
        {
            for (const char* caps : {"none", "multicast", "fpga", "both"})
            {
                for (double loss : {0.001, 0.01, 0.05})
                {
                    AddTestCase(new TrainingLossTestCase(loss, caps, ring));
                }
            }
        }
        for (const char* caps : {"none", "fpga", "both"})
        {
            AddTestCase(new TrainingRecoveryKeepsToPlanTestCase(caps, false));
        }
        AddTestCase(new TrainingRecoveryKeepsToPlanTestCase("none", true));
        AddTestCase(new TrainingAlignedStartsTestCase(true));
        AddTestCase(new TrainingAlignedStartsTestCase(false));
        AddTestCase(new TrainingCutLinkTestCase(false));
        AddTestCase(new TrainingCutLinkTestCase(true));
    }
};

/// The suite's static instance.
static LossRecoveryTestSuite g_lossRecoveryTestSuite;
