/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of ns-3's congestion controls under the tcp transport, against times derived here from
 * the links and ns-3's TCP defaults: a BBR ring all-reduce finishes every round within a bound
 * (it stalled before TcpTransport's CheckAppLimited), and one 1 GB transfer over a long fat
 * pipe takes slow start plus the line rate (TcpCubic, TcpNewReno) or BBR's startup plus its
 * probing cycle's rate (TcpBbr, which ns-3's 4 Gbit/s MaxPacingRate default held far below).
 */

// ctest-suite: tcp-bbr-ring
// ctest-suite: tcp-transfer-time

#include "training-scenario.h"

#include "ns3/tcp-socket.h"
#include "ns3/tcp-transport.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <string>

using namespace ns3;
using namespace ns3::training_test;

namespace
{

/** Bytes of IPv4 (20), TCP (20) and the most TCP options (40): segments fill the MTU after them. */
constexpr uint32_t TCP_IP_BYTES = 20 + 20 + 40;

/** \param attribute an attribute of ns3::TcpSocket \return its initial (default) value */
uint64_t
TcpSocketDefault(const std::string& attribute)
{
    TypeId::AttributeInformation info;
    TcpSocket::GetTypeId().LookupAttributeByName(attribute, &info);
    return DynamicCast<const UintegerValue>(info.initialValue)->Get();
}

/** \return the DelAckCount the tcp transport gives its sockets (TcpSocket's if 0) */
uint64_t
TransportDelAckCount()
{
    UintegerValue count;
    CreateObject<TcpTransport>()->GetAttribute("DelAckCount", count);
    return count.Get() != 0 ? count.Get() : TcpSocketDefault("DelAckCount");
}

/** \param wanDelay a path's WAN delay, s \return its round trip between two islands, s */
double
RoundTrip(double wanDelay)
{
    return 2 * (2 * ACCESS_DELAY + wanDelay);
}

/**
 * \brief Time to send \p bytes from a window of \p window bytes that grows by \p growth each
 *        round trip while it is below the bandwidth-delay product, then at \p bps.
 *
 * Round trip n carries the window of that round trip (the path is not full yet); from the round
 * trip in which the window reaches the BDP, the rest leaves at the rate. The last byte's trip to
 * the receiver is not included.
 *
 * \param bytes bytes to send \param window the first round trip's window, bytes
 * \param growth window factor per round trip \param rtt round trip, s \param bps the rate
 * \return the time, s
 */
double
SlowStartThenRate(double bytes, double window, double growth, double rtt, double bps)
{
    const double bdp = bps * rtt / 8;
    double sent = 0;
    double time = 0;
    while (window < bdp && sent + window < bytes)
    {
        sent += window;
        window *= growth;
        time += rtt;
    }
    return time + (bytes - sent) * 8 / bps;
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief A BBR ring over three cities, one of them far, finishes every round within a bound
 *        derived from the links.
 *
 * The WAN: cities C0 and C1 1 ms apart, C2 20 ms from both; islands 0, 1, 2 (one per city) in
 * the ring 0 -> 1 -> 2 -> 0, so connection 0 -> 1 has a round trip of 2.2 ms and the others
 * 40.2 ms (RoundTrip: access links both ways, serialisation below 0.1% and left out). Device
 * queues hold one BDP of the long paths, in bytes. The update is M = k c CHUNK bytes (c chunks
 * per ring segment), so each island writes D = 2 (k - 1) c (CHUNK + HEADER) bytes to its
 * successor per round, in 2 (k - 1) steps.
 *
 * Bound of a round, cold or warm: each connection sends its D bytes as a TCP that starts from
 * ns-3's InitialCwnd (segments of MTU - 80 bytes) and doubles its window every round trip
 * (BBR's STARTUP grows its window by the bytes acknowledged and paces at 2.89 times the
 * delivery rate it measures: the window doubles per round trip) until the window reaches the
 * BDP, then at the access rate R (SlowStartThenRate over the longest round trip); a warm
 * connection starts from a larger window and is faster. The ring adds its dependency chain: a
 * chunk of step s + 1 leaves only after the same chunk of step s arrived, so the round's last
 * chunk follows 2 (k - 1) one-way trips, each at most half the longest round trip. The bound
 * is 1.5 times that sum (BBR paces its first round trip, its probing cycle spends one round
 * trip in eight at 0.75 of the rate, and headers add 0.6%).
 *
 * Simulated: 0.36 to 0.38 s in round 0, 0.06 s in rounds 1 and 2 (bound 0.55 s). With
 * CheckAppLimited false (ns-3's own behaviour) the bandwidth estimate of the short connection,
 * fed by a long one still in STARTUP, fell to that feed's rate, and the ring's rates ratcheted
 * each other down: 5.9 to 9.2 s in round 0, up to 686 s in round 1 and 1872 s in round 2.
 */
class TcpBbrRingTestCase : public TestCase
{
  public:
    TcpBbrRingTestCase()
        : TestCase("BBR ring on a WAN with a far city: every round within the derived bound")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t k = 3;
        const uint64_t segmentChunks = 374; // M about 10 MB
        const double farDelay = 20e-3;
        Setup setup;
        setup.cities = k;
        setup.farDelay = farDelay;
        setup.ring = true;
        setup.tcp = true;
        setup.congestion = "ns3::TcpBbr";
        setup.modelBytes = k * segmentChunks * CHUNK;
        setup.rounds = 3;
        const double longRtt = RoundTrip(farDelay);
        setup.queueBytes = static_cast<uint32_t>(ACCESS_BPS * longRtt / 8);
        const RunResult run = Simulate(setup);

        const double bytes = 2.0 * (k - 1) * segmentChunks * (CHUNK + HEADER);
        const double window =
            TcpSocketDefault("InitialCwnd") * static_cast<double>(setup.mtu - TCP_IP_BYTES);
        const double transfer = SlowStartThenRate(bytes, window, 2, longRtt, ACCESS_BPS);
        const double chain = 2.0 * (k - 1) * longRtt / 2;
        const double slack = 1.5;
        const double bound = slack * (transfer + chain);

        NS_TEST_ASSERT_MSG_EQ(run.records.size(), k * setup.rounds, "every island's rounds");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished && r.lostPeers.empty(),
                                  true,
                                  "island " << r.island << " round " << r.round
                                            << " ended with its ring");
            NS_TEST_EXPECT_MSG_EQ(r.bytesSent, bytes, "D bytes to the successor");
            const double sync = (r.syncEnd - r.syncStart).GetSeconds();
            NS_TEST_EXPECT_MSG_LT_OR_EQ(sync,
                                        bound,
                                        "island " << r.island << " round " << r.round
                                                  << ": within 1.5 x (" << transfer << " + "
                                                  << chain << ") s");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief One 1 GB transfer over a 10 Gbit/s path with a 100 ms round trip and one-BDP queues
 *        takes slow start, then the line rate (TcpCubic, TcpNewReno), or BBR's startup, then
 *        its probing cycle's rate (TcpBbr).
 *
 * Two cities, one island each, 10 Gbit/s access links (the bottleneck: island 1's own device
 * queue), a 100 Gbit/s WAN link of 49.9 ms: a round trip of RTT = 100 ms, a bandwidth-delay
 * product BDP = R x RTT / 8 = 125 MB, and every device queue holds one BDP in bytes; MTU 64000
 * (chunks and segments fill it). Island 1
 * computes ten times longer than island 0 (10 s against 1 s), so island 0's own update has long
 * arrived when island 1 writes its D = M + chunks x HEADER bytes (the messages of M = 1 GB) into
 * a connection that has carried only heartbeats (its window is still InitialCwnd: ns-3 keeps a
 * window through idle time). The transfer runs from island 1's sync start to island 0's sync end;
 * the handshake is not in it (the connection opened while both computed).
 *
 * Expectation from ns-3's defaults: segments of S = MTU - 80 bytes (TCP_IP_BYTES); the first
 * round trip carries W = InitialCwnd x S; while W < BDP the path is not full, round trip n
 * carries W g^n; from the round trip in which W reaches the BDP the rest of D leaves at R; the
 * last byte then needs RTT / 2 to arrive:
 *
 *   T = n x RTT + (D - W (g^n - 1) / (g - 1)) x 8 / R + RTT / 2,  n the first with W g^n >= BDP.
 *
 * The growth g per round trip is ns-3's: TcpCubic counts bytes in slow start (g = 2);
 * TcpNewReno adds one segment per ACK and the receiver acknowledges every DelAckCount-th
 * segment, so g = 1 + 1 / DelAckCount: 2 with the transport's DelAckCount 1 (1.5 with
 * TcpSocket's own 2). Here W = 639,200 bytes, n = 8, 163 MB go in slow start and 843 MB at R:
 * T = 0.8 + 0.674 + 0.05 = 1.520 s. From the round trip in which W passes the BDP the receive
 * window (the transport's buffer of one BDP) caps the flight at the BDP, which fills the path
 * and queues nothing; slow start's bursts (the ACK clock releases two segments per segment
 * acknowledged, at the line rate, into the sender's own 10 Gbit/s device) queue up to half a
 * window, which one-BDP queues hold. T ignores the TCP/IP headers (0.1% at this MTU). TcpCubic
 * and TcpNewReno must lie within 10% of T. Simulated: 1.522 s for both (+0.1%); with 100-packet
 * queues instead, slow start loses its bursts and they take 4.1 s and 6.0 s (red).
 *
 * TcpBbr: STARTUP grows the window by the bytes acknowledged and paces at 2/ln 2 = 2.89 times
 * the measured rate, so the window doubles per round trip as above (g = 2); it leaves STARTUP
 * three round trips after the rate stopped growing, when the path is already full; DRAIN ends
 * at once (the receive window kept the flight at one BDP); PROBE_BW then paces at the measured
 * rate times a gain cycling through 1.25, 0.75 and six times 1, one phase per round trip, and
 * the 1.25 phase is capped at the line rate by the transport's MaxPacingRate (the access rate):
 * on average 7.75 / 8 of R. T_BBR is T with the rest at 7.75 / 8 of R (1.542 s); the simulated
 * time must lie between T (nothing beats the line rate) and T_BBR + 10%. Simulated: 1.567 s
 * (+1.6%), as well with 100-packet queues (BBR paces, nothing is lost); with ns-3's
 * MaxPacingRate of 4 Gbit/s instead, 2.634 s (red).
 *
 * MTU 64000: at 9000 the TcpCubic case alone took 225 s of wall time (ns-3's TCP walks its list
 * of segments in flight on every ACK, 14 thousand of them here).
 */
class TcpTransferTimeTestCase : public TestCase
{
  public:
    /** \param congestion the TCP congestion control's TypeId name */
    explicit TcpTransferTimeTestCase(const std::string& congestion)
        : TestCase("1 GB over 10 Gbps, RTT 100 ms, one-BDP queues: " + congestion +
                   " takes the time derived from ns-3's defaults"),
          m_congestion(congestion)
    {
    }

  private:
    void DoRun() override
    {
        const double rtt = 0.1;
        const double wanDelay = rtt / 2 - 2 * ACCESS_DELAY;
        const double bdp = ACCESS_BPS * rtt / 8;
        Setup setup;
        setup.cities = 2;
        setup.tcp = true;
        setup.congestion = m_congestion;
        setup.modelBytes = 1000000000;
        setup.wanDelay = wanDelay;
        setup.compute = Seconds(1);
        setup.straggler = 1;
        setup.queueBytes = static_cast<uint32_t>(bdp);
        setup.mtu = 64000;
        const RunResult run = Simulate(setup);

        const bool bbr = m_congestion == "ns3::TcpBbr";
        const bool newReno = m_congestion == "ns3::TcpNewReno";
        const double growth = newReno ? 1.0 + 1.0 / TransportDelAckCount() : 2.0;
        const double window =
            TcpSocketDefault("InitialCwnd") * static_cast<double>(setup.mtu - TCP_IP_BYTES);
        // The stream's bytes: M cut into chunks filling the MTU after IPv4, UDP and HEADER
        // (as over UDP; a multiple of 4 bytes), each behind its HEADER.
        const uint64_t chunk = (setup.mtu - IP_UDP - HEADER) / 4 * 4;
        const double bytes =
            setup.modelBytes + (setup.modelBytes + chunk - 1) / chunk * static_cast<double>(HEADER);
        const double expected =
            SlowStartThenRate(bytes, window, growth, RoundTrip(wanDelay), ACCESS_BPS) + rtt / 2;
        const double probing = (1.0 + 0.75 + 6 * 1.0) / 8; // PROBE_BW's mean, 1.25 capped at 1
        const double expectedBbr =
            SlowStartThenRate(bytes, window, growth, RoundTrip(wanDelay), probing * ACCESS_BPS) +
            rtt / 2;

        NS_TEST_ASSERT_MSG_EQ(run.tcpBufferBytes,
                              static_cast<uint32_t>(std::ceil(bdp)),
                              "buffers of one bandwidth-delay product");
        const TrainingRoundRecord& sender = RecordOf(run, 1, 0);
        const TrainingRoundRecord& receiver = RecordOf(run, 0, 0);
        NS_TEST_ASSERT_MSG_EQ(receiver.bytesReceived, bytes, "the whole update arrived");
        const double measured = (receiver.syncEnd - sender.syncStart).GetSeconds();
        if (bbr)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(measured, expected, "not faster than the line rate");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(measured,
                                        expectedBbr * 1.1,
                                        "within 10% above STARTUP then PROBE_BW (" << expectedBbr
                                                                                   << " s)");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(measured,
                                      expected,
                                      expected * 0.1,
                                      "within 10% of slow start then the line rate");
        }
    }

    std::string m_congestion; //!< TypeId name
};

/**
 * \ingroup wan-training-tests
 * \brief The BBR ring's suite (a second).
 */
class TcpBbrRingTestSuite : public TestSuite
{
  public:
    TcpBbrRingTestSuite()
        : TestSuite("tcp-bbr-ring")
    {
        AddTestCase(new TcpBbrRingTestCase);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The transfer-time suite (a 1 GB transfer per congestion control, seconds each).
 */
class TcpTransferTimeTestSuite : public TestSuite
{
  public:
    TcpTransferTimeTestSuite()
        : TestSuite("tcp-transfer-time")
    {
        AddTestCase(new TcpTransferTimeTestCase("ns3::TcpCubic"));
        AddTestCase(new TcpTransferTimeTestCase("ns3::TcpNewReno"));
        AddTestCase(new TcpTransferTimeTestCase("ns3::TcpBbr"));
    }
};

/// The BBR ring suite's one instance.
static TcpBbrRingTestSuite g_tcpBbrRingTestSuite;
/// The transfer-time suite's one instance.
static TcpTransferTimeTestSuite g_tcpTransferTimeTestSuite;
