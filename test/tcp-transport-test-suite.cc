/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the tcp transport (TcpTransport, TcpPeer, TcpDirectExchange, TcpRingExchange): the
 * time of one TCP transfer against slow start and the access rate, exact real-payload sums over
 * TCP for a DIRECT clique and a ring with one, two and eight connections per peer (every message
 * carried once, dealt over the connections), the buffers per connection, lost peers (a cut
 * link, a stopped peer) within the documented bound, and the flags that choose the transport
 * and the congestion control.
 */

// ctest-suite: tcp-transport

#include "training-scenario.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/exchange-sum.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-fork-repair.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket.h"
#include "ns3/tcp-transport.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-input-error.h"
#include "ns3/wan-topology-helper.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;
using namespace ns3::training_test;

namespace
{

/** \param attribute an attribute of ns3::TcpSocket \return its initial (default) value */
uint64_t
TcpSocketDefault(const std::string& attribute)
{
    TypeId::AttributeInformation info;
    TcpSocket::GetTypeId().LookupAttributeByName(attribute, &info);
    return DynamicCast<const UintegerValue>(info.initialValue)->Get();
}

/** \param peers islands \return them as text, e.g. " 0 1" */
std::string
Islands(const std::vector<uint32_t>& peers)
{
    std::ostringstream text;
    for (uint32_t peer : peers)
    {
        text << " " << peer;
    }
    return text.str();
}

/** \param bytes a count per connection \return their sum */
uint64_t
Total(const std::vector<uint64_t>& bytes)
{
    uint64_t total = 0;
    for (uint64_t b : bytes)
    {
        total += b;
    }
    return total;
}

/**
 * \param modelBytes M \param k ring members
 * \return the message bytes (headers and payload) a ring all-reduce of k members writes in all:
 *         every segment travels k - 1 times in the reduce-scatter and k - 1 times in the
 *         all-gather; segments of ceil(E / k) int32 elements (E = M / 4), the last shorter
 */
uint64_t
RingBytes(uint64_t modelBytes, uint32_t k)
{
    const uint64_t elements = (modelBytes + 3) / 4;
    const uint64_t size = (elements + k - 1) / k;
    uint64_t bytes = 0;
    for (uint32_t g = 0; g < k; ++g)
    {
        const uint64_t first = std::min(elements, g * size);
        bytes += StreamBytes(4 * (std::min(elements, first + size) - first));
    }
    return 2 * (k - 1) * bytes;
}

/**
 * A TCP socket that is no congestion control but, like TcpCubic in ns-3 3.37, descends from
 * TcpSocketBase in the TypeId tree: --tcp must refuse it.
 */
class TcpTransportTestSocket : public TcpSocketBase
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TcpTransportTestSocket")
                                .SetParent<TcpSocketBase>()
                                .SetGroupName("WanTraining")
                                .AddConstructor<TcpTransportTestSocket>();
        return tid;
    }
};

NS_OBJECT_ENSURE_REGISTERED(TcpTransportTestSocket);

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief Two islands, TcpNewReno: one update's transfer takes slow start from the initial
 *        window, doubling every round trip until the window covers the bandwidth-delay
 *        product, then the access rate.
 *
 * Island 1 computes 10 times longer (100 ms), so island 0's update is in by the time island 1
 * starts sending: island 1's update is the only data on the path, and the connection, opened
 * while both computed, has carried none yet (its window is TcpSocket's InitialCwnd). Its
 * transfer runs from island 1's sync start to island 0's sync end.
 *
 * Expectation, from the links and ns-3's TCP defaults alone: segments of
 * S = MTU - IPv4 (20) - TCP (20) - the most TCP options (40) bytes; a round trip of
 * RTT = 2 x (2 x access delay + WAN delay); the bandwidth-delay product BDP = R x RTT / 8 with
 * R the 10 Gbit/s access rate. Slow start sends W = InitialCwnd x S bytes in the first round
 * trip and doubles W every round trip (the receiver acknowledges every segment: DelAckCount 1
 * here, ns-3's default 2 would grow the window by half per round trip) while W < BDP; from the
 * round in which W covers the BDP the path is full and the rest of the D bytes of the update
 * (payload and gradient headers, the messages on the stream) leaves at R; the last byte then
 * needs half a round trip to arrive. So
 *
 *   T = n x RTT + (D - sent in the n slow-start rounds) x 8 / R + RTT / 2.
 *
 * T ignores the TCP/IP headers (54 of every 8974 bytes on the link: 0.6%) and that a buffer
 * of one propagation BDP leaves the pipe slightly short of full (the true round trip adds
 * serialisation, 0.7% here): it is a lower bound, and the simulated time must lie within 2%
 * above it. Device queues hold 1000 packets, so slow start loses nothing (its last doubling
 * queues at most half a window, 160 packets): the premise, checked as zero queue drops.
 */
class TcpSlowStartTestCase : public TestCase
{
  public:
    TcpSlowStartTestCase()
        : TestCase("2 islands: one TCP transfer is slow start, then the access rate")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t delayedAcks = TcpSocketDefault("DelAckCount");
        Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
        Setup setup;
        setup.cities = 2;
        setup.tcp = true;
        setup.congestion = "ns3::TcpNewReno";
        setup.modelBytes = 20000000;
        setup.straggler = 1;
        setup.queuePackets = 1000;
        const RunResult run = Simulate(setup);
        Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delayedAcks));

        const uint32_t segment = setup.mtu - 20 - 20 - 40;
        const double rtt = 2 * (2 * ACCESS_DELAY + WAN_DELAY);
        const double bdp = ACCESS_BPS * rtt / 8;
        const double bytes = StreamBytes(setup.modelBytes);
        double window = TcpSocketDefault("InitialCwnd") * segment;
        double sent = 0;
        double expected = 0;
        while (window < bdp && sent + window < bytes)
        {
            sent += window;
            window *= 2;
            expected += rtt;
        }
        expected += (bytes - sent) * 8 / ACCESS_BPS + rtt / 2;

        NS_TEST_ASSERT_MSG_EQ(run.tcpSegmentSize, segment, "segments fill the MTU");
        NS_TEST_ASSERT_MSG_EQ(run.tcpBufferBytes,
                              static_cast<uint32_t>(std::ceil(bdp)),
                              "buffers of one bandwidth-delay product by default");
        NS_TEST_ASSERT_MSG_EQ(run.queueDrops, 0, "slow start lost nothing");
        const TrainingRoundRecord& sender = RecordOf(run, 1, 0);
        const TrainingRoundRecord& receiver = RecordOf(run, 0, 0);
        NS_TEST_ASSERT_MSG_EQ(sender.bytesSent, bytes, "the update's messages");
        NS_TEST_ASSERT_MSG_EQ(receiver.bytesReceived, bytes, "all of them arrived");
        const double measured = (receiver.syncEnd - sender.syncStart).GetSeconds();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(measured, expected, "not faster than slow start allows");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(measured, expected * 1.02, "within 2% of it");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Real payloads over TCP with 1, 2 or 8 connections per peer: a 4-island DIRECT clique
 *        and a 4-island ring end with every island at the exact fixed-point mean, on a WAN with
 *        multicast and FPGAs (which TCP leaves unused, and says so); every message crosses
 *        once, on one of the peer's connections, each connection carrying its share.
 *
 * The expectation is computed here from the parameters before the round: each island's value
 * in fixed point, round(x x Scale), summed in int32 with wrap-around, divided by 4 x Scale.
 * Every island must hold exactly that double (the same arithmetic, bit for bit).
 *
 * Bytes, counted at the sockets (TcpTransport::GetStreamBytesReceived, whole messages read,
 * heartbeats apart): from each peer, DIRECT, one update, StreamBytes(M) (21 chunks: payload and
 * headers); around the ring, RingBytes(M, 4) in all. Each connection reads what the other end
 * wrote on it, the application takes every message once (its records, no duplicates, nothing
 * dropped), and with 2 or 8 connections every one carries a share, none all; DIRECT, chunk c
 * travels on connection c mod N (whole messages dealt in turn).
 */
class TcpExactSumTestCase : public TestCase
{
  public:
    /** \param ring ring all-reduce instead of DIRECT \param streams connections per peer */
    TcpExactSumTestCase(bool ring, uint32_t streams)
        : TestCase(std::string("real payloads over TCP are summed exactly, ") +
                   (ring ? "ring" : "direct clique") + ", " + std::to_string(streams) +
                   " connection(s) per peer, every message once"),
          m_ring(ring),
          m_streams(streams)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.cities = 4;
        setup.tcp = true;
        setup.real = true;
        setup.ring = m_ring;
        setup.tcpStreams = m_streams;
        // A short last chunk, uneven ring segments; at least four messages per connection.
        setup.modelBytes = 20 * CHUNK + 36;
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.after.size(), 4u, "four islands");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ((r.finished && r.lostPeers.empty()),
                                  true,
                                  "island " << r.island << " ended with every peer");
        }
        const size_t elements = run.before[0].size();
        for (size_t e = 0; e < elements; ++e)
        {
            const double expected = FixedPointMean(run.before, e);
            for (uint32_t i = 0; i < 4; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(run.after[i][e],
                                      expected,
                                      "island " << i << ", element " << e);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(run.fpga.aggregated, 0, "the FPGAs folded nothing");
        NS_TEST_EXPECT_MSG_EQ(run.transportNote.empty(), false, "a note says so");
        CheckBytes(run, setup.modelBytes);
    }

    /** \param run the run \param modelBytes M \brief every message once, over every connection */
    void CheckBytes(const RunResult& run, uint64_t modelBytes)
    {
        uint64_t ring = 0;
        for (uint32_t i = 0; i < 4; ++i)
        {
            uint64_t received = 0;
            for (uint32_t peer = 0; peer < 4; ++peer)
            {
                const std::vector<uint64_t>& in = run.tcpStreamReceived[i][peer];
                const bool predecessor = (peer + 1) % 4 == i;
                if (peer == i || (m_ring && !predecessor && (i + 1) % 4 != peer))
                {
                    NS_TEST_EXPECT_MSG_EQ(in.size(), 0u, "no connection " << peer << "->" << i);
                    continue;
                }
                NS_TEST_ASSERT_MSG_EQ(in.size(), m_streams, "connections " << peer << "->" << i);
                NS_TEST_EXPECT_MSG_EQ((in == run.tcpStreamSent[peer][i]),
                                      true,
                                      "each connection " << peer << "->" << i
                                                         << " reads what was written on it");
                const uint64_t total = Total(in);
                if (!m_ring)
                {
                    NS_TEST_EXPECT_MSG_EQ(total,
                                          StreamBytes(modelBytes),
                                          "one update " << peer << "->" << i);
                    NS_TEST_EXPECT_MSG_EQ((in == DealtUpdate(modelBytes)),
                                          true,
                                          "chunk c on connection c mod N, " << peer << "->" << i);
                }
                else if (!predecessor)
                {
                    NS_TEST_EXPECT_MSG_EQ(total,
                                          0,
                                          "ring messages go one way " << peer << "->" << i);
                }
                CheckShares(in, peer, i);
                received += total;
            }
            ring += received;
            NS_TEST_EXPECT_MSG_EQ(RecordOf(run, i, 0).bytesReceived,
                                  received,
                                  "island " << i << " took every message read, once");
        }
        if (m_ring)
        {
            NS_TEST_EXPECT_MSG_EQ(ring, RingBytes(modelBytes, 4), "the ring's messages, once");
        }
        NS_TEST_EXPECT_MSG_EQ(run.duplicates, 0, "no message twice");
        NS_TEST_EXPECT_MSG_EQ(run.dropped, 0, "none out of order");
    }

    /**
     * \param modelBytes M
     * \return per connection, the bytes of one DIRECT update's chunks dealt in turn: chunk c
     *         (a header and up to CHUNK bytes of payload) on connection c mod Streams
     */
    std::vector<uint64_t> DealtUpdate(uint64_t modelBytes) const
    {
        std::vector<uint64_t> bytes(m_streams, 0);
        for (uint64_t c = 0; c < Chunks(modelBytes); ++c)
        {
            bytes[c % m_streams] += HEADER + std::min<uint64_t>(CHUNK, modelBytes - c * CHUNK);
        }
        return bytes;
    }

    /**
     * \param in bytes per connection \param from the writer \param to the reader
     * \brief with several connections, each carries a share, none all
     */
    void CheckShares(const std::vector<uint64_t>& in, uint32_t from, uint32_t to)
    {
        const uint64_t total = Total(in);
        if (m_streams < 2 || total == 0)
        {
            return;
        }
        for (uint32_t c = 0; c < in.size(); ++c)
        {
            NS_TEST_EXPECT_MSG_GT(in[c], 0, "connection " << c << " " << from << "->" << to);
            NS_TEST_EXPECT_MSG_LT(in[c], total, "connection " << c << " " << from << "->" << to);
        }
    }

    bool m_ring;        //!< ring all-reduce
    uint32_t m_streams; //!< connections per peer
};

/**
 * \ingroup wan-training-tests
 * \brief Eight connections per peer under WAN loss: the connections fall out of step (a lost
 *        segment holds one back for a retransmission while the others go on), yet every round
 *        ends with every peer, every message crossing once and in order.
 *
 * Three islands, DIRECT, three rounds of 200 chunks each, 1% of the packets on every WAN link
 * lost. A peer's messages then arrive out of order across its connections; the reader must
 * hand them on in the order written (the exchange drops a chunk out of order), and must not
 * take a peer's later round on one connection for the end of its messages on the others (the
 * peer's round is the lowest its connections announced).
 */
class TcpStreamsUnderLossTestCase : public TestCase
{
  public:
    TcpStreamsUnderLossTestCase()
        : TestCase("TCP, 8 connections per peer, 1% WAN loss: every message once, in order, no "
                   "peer lost")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 3;
        setup.rounds = 3;
        setup.tcp = true;
        setup.tcpStreams = 8;
        setup.loss = 0.01;
        setup.modelBytes = 200 * CHUNK;
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_GT(run.lossDrops, 0u, "the premise: the WAN lost packets");
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 9u, "3 islands x 3 rounds");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_EXPECT_MSG_EQ((r.finished && r.lostPeers.empty()),
                                  true,
                                  "round "
                                      << r.round << ", island " << r.island
                                      << " ended with every peer, lost:" << Islands(r.lostPeers));
            NS_TEST_EXPECT_MSG_EQ(r.bytesReceived,
                                  2 * StreamBytes(setup.modelBytes),
                                  "round " << r.round << ", island " << r.island
                                           << ": both updates, once");
        }
        for (uint32_t i = 0; i < 3; ++i)
        {
            for (uint32_t peer = 0; peer < 3; ++peer)
            {
                if (peer != i)
                {
                    NS_TEST_EXPECT_MSG_EQ(Total(run.tcpStreamReceived[i][peer]),
                                          setup.rounds * StreamBytes(setup.modelBytes),
                                          "three updates " << peer << "->" << i);
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(run.duplicates, 0, "no message twice");
        NS_TEST_EXPECT_MSG_EQ(run.dropped, 0, "none out of order");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Buffers per connection: a peer's buffer (BufferBytes, or one bandwidth-delay product
 *        of the path) is shared equally by its Streams connections, never below TcpSocket's
 *        default SndBufSize (from the path only) nor two messages.
 *
 * Two islands, the path's BDP = 10 Gbit/s x 2.2 ms / 8 = 2.75 MB: 8 connections get an eighth
 * each; 64 connections would get 42,969 bytes, below the 128 KiB floor, so the floor; a
 * BufferBytes of 1 MB over 4 connections gives 250,000 each; 80,000 over 8 would give 10,000,
 * below two messages of 8972 bytes, so two messages. Every run still completes.
 */
class TcpStreamBuffersTestCase : public TestCase
{
  public:
    TcpStreamBuffersTestCase()
        : TestCase("TCP buffers: a peer's buffer is shared by its connections, above the floors")
    {
    }

  private:
    /** \param streams Streams \param buffer BufferBytes \return island 0's buffer, per connection
     */
    uint32_t BufferOf(uint32_t streams, uint32_t buffer)
    {
        Setup setup;
        setup.cities = 2;
        setup.tcp = true;
        setup.tcpStreams = streams;
        setup.tcpBuffer = buffer;
        const RunResult run = Simulate(setup);
        NS_TEST_EXPECT_MSG_EQ(run.tcpStreamReceived[1][0].size(), streams, "connections");
        NS_TEST_EXPECT_MSG_EQ(RecordOf(run, 1, 0).bytesReceived,
                              StreamBytes(setup.modelBytes),
                              "the update arrived, " << streams << " connections");
        return run.tcpBufferBytes;
    }

    void DoRun() override
    {
        const double rtt = 2 * (2 * ACCESS_DELAY + WAN_DELAY);
        const double bdp = ACCESS_BPS * rtt / 8;
        const auto floor = static_cast<uint32_t>(TcpSocketDefault("SndBufSize"));
        NS_TEST_ASSERT_MSG_LT(bdp / 64, floor, "the premise: 64 shares fall below the floor");
        NS_TEST_EXPECT_MSG_EQ(BufferOf(8, 0),
                              static_cast<uint32_t>(std::ceil(bdp / 8)),
                              "an eighth of the path's BDP");
        NS_TEST_EXPECT_MSG_EQ(BufferOf(64, 0), floor, "never below SndBufSize's default");
        NS_TEST_EXPECT_MSG_EQ(BufferOf(4, 1000000), 250000u, "a quarter of BufferBytes");
        NS_TEST_EXPECT_MSG_EQ(BufferOf(8, 80000), 2 * (HEADER + CHUNK), "never below 2 messages");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A peer cut off or stopped is declared lost within the documented bound (TcpExchange),
 *        and the run ends.
 *
 * Cut (DIRECT, 3 islands, 2 rounds, PeerTimeout 200 ms): both directions of island 2's access
 * link lose every packet from the start, so its connections never open and no byte of it
 * arrives. Islands 0 and 1 declare it lost, island 2 both of them (in member order), in every
 * round: at the first liveness check (every HeartbeatInterval from the round's start) more
 * than PeerTimeout after the later of the round's start and the peer's last byte, here the
 * start. So each round ends in [start + PeerTimeout, start + PeerTimeout + HeartbeatInterval].
 *
 * Stopped (RING, 3 islands, 2 rounds, real payloads): island 2's application stops at 5 ms, after
 * its connections opened and before any round's exchange; its transport closes them. Island 0
 * (whose predecessor is island 2) and island 1 (whose successor it is) see the connection
 * closed at their first check and keep their own parameters: each round ends at most
 * HeartbeatInterval after its start, with island 2 lost. Island 2 finishes nothing.
 */
class TcpLostPeerTestCase : public TestCase
{
  public:
    /**
     * \param stop stop island 2 (ring) instead of cutting its link (direct)
     * \param streams connections per peer
     */
    TcpLostPeerTestCase(bool stop, uint32_t streams)
        : TestCase(std::string("TCP: a ") + (stop ? "stopped peer (ring)" : "cut link (direct)") +
                   " is declared lost within the bound, and the run ends, " +
                   std::to_string(streams) + " connection(s) per peer"),
          m_stop(stop),
          m_streams(streams)
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 3;
        setup.rounds = 2;
        setup.tcp = true;
        setup.tcpPeerTimeout = MilliSeconds(200);
        setup.tcpStreams = m_streams;
        setup.ring = m_stop;
        setup.real = m_stop;
        setup.cut = m_stop ? -1 : 2;
        setup.stopIsland = m_stop ? 2 : -1;
        setup.stopAt = MilliSeconds(5);
        const RunResult run = Simulate(setup); // returning at all proves there is no hang
        TimeValue interval;
        CreateObject<TcpTransport>()->GetAttribute("HeartbeatInterval", interval);
        const Time earliest = m_stop ? Time(0) : setup.tcpPeerTimeout;
        const Time latest = earliest + interval.Get();
        const std::vector<std::vector<uint32_t>> expected = {{2}, {2}, {0, 1}};
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 6u, "3 islands x 2 rounds");
        for (const TrainingRoundRecord& r : run.records)
        {
            if (m_stop && r.island == 2)
            {
                NS_TEST_EXPECT_MSG_EQ(r.finished, false, "the stopped island finished nothing");
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "round ended, island " << r.island);
            NS_TEST_EXPECT_MSG_EQ((r.lostPeers == expected[r.island]),
                                  true,
                                  "round " << r.round << ", island " << r.island
                                           << " lost:" << Islands(r.lostPeers));
            const Time sync = r.syncEnd - r.syncStart;
            NS_TEST_EXPECT_MSG_GT_OR_EQ(sync, earliest, "not before the bound's start");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(sync, latest, "lost within the bound");
        }
        if (m_stop)
        {
            for (uint32_t i = 0; i < 2; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ((run.after[i] == run.before[i]),
                                      true,
                                      "island " << i << " kept its own parameters");
            }
        }
    }

    bool m_stop;        //!< stopped peer instead of a cut link
    uint32_t m_streams; //!< connections per peer
};

/**
 * \ingroup wan-training-tests
 * \brief The transport and congestion-control flags take what they name and reject the rest
 *        by flag and value (as nine-city-training registers them).
 */
class TcpFlagsTestCase : public TestCase
{
  public:
    TcpFlagsTestCase()
        : TestCase("--transport and --tcp: accepted names, rejected values")
    {
    }

  private:
    /**
     * \param argument one flag \param transport receives --transport \param tcp receives --tcp
     * \return the message of the rejection, or "" if accepted
     */
    static std::string Parse(const std::string& argument, std::string& transport, TypeId& tcp)
    {
        WanCommandLine cmd("tcp-test", "flags of the tcp transport");
        transport = "planned";
        cmd.Flags().AddChoice("transport",
                              "how exchanges reach the wire",
                              transport,
                              {"planned", "tcp"},
                              {{"adaptive", "not available yet"}});
        cmd.Flags().AddCongestionControl("tcp", "the TCP congestion control", tcp);
        std::vector<std::string> words = {"tcp-test", argument};
        std::vector<char*> argv;
        for (std::string& word : words)
        {
            argv.push_back(&word[0]);
        }
        try
        {
            cmd.Parse(static_cast<int>(argv.size()), argv.data());
        }
        catch (const WanInputError& e)
        {
            return e.what();
        }
        return "";
    }

    void DoRun() override
    {
        std::string transport;
        TypeId tcp = TcpNewReno::GetTypeId();
        NS_TEST_EXPECT_MSG_EQ(Parse("--transport=tcp", transport, tcp), "", "tcp is a transport");
        NS_TEST_EXPECT_MSG_EQ(transport, "tcp", "and is taken");
        NS_TEST_EXPECT_MSG_EQ(Parse("--tcp=TcpBbr", transport, tcp), "", "TcpBbr is known");
        NS_TEST_EXPECT_MSG_EQ(tcp.GetName(), "ns3::TcpBbr", "and is taken");
        NS_TEST_EXPECT_MSG_EQ(Parse("--tcp=ns3::TcpCubic", transport, tcp),
                              "",
                              "the full name is known too (3.37 registers TcpCubic under "
                              "TcpSocketBase)");
        NS_TEST_EXPECT_MSG_EQ(tcp.GetName(), "ns3::TcpCubic", "and is taken");

        const std::vector<std::pair<std::string, std::string>> refused = {
            {"--transport=adaptive",
             "--transport=adaptive: not available yet; expected planned|tcp"},
            {"--transport=udp", "--transport=udp: expected planned|tcp"},
            {"--tcp=TcpFoo",
             "--tcp=TcpFoo: not a TCP congestion control of this ns-3; expected "
             "one of "},
            {"--tcp=TcpSocketBase", "--tcp=TcpSocketBase: not a TCP congestion control"},
            {"--tcp=TcpTransportTestSocket",
             "--tcp=TcpTransportTestSocket: not a TCP congestion control"},
            {"--tcp=RttMeanDeviation", "--tcp=RttMeanDeviation: not a TCP congestion control"}};
        for (const auto& [argument, message] : refused)
        {
            const std::string error = Parse(argument, transport, tcp);
            NS_TEST_EXPECT_MSG_EQ(error.compare(0, message.size(), message),
                                  0,
                                  argument << " is refused by name: \"" << error << "\"");
        }
        const std::string error = Parse("--tcp=TcpFoo", transport, tcp);
        NS_TEST_EXPECT_MSG_NE(error.find("TcpNewReno"), std::string::npos, "the list names them");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief An accepted connection writes only once its socket has heard the peer after the
 *        handshake, and the connecting side's hello brings that at once.
 *
 * ns-3's TcpSocketBase (3.37 to 3.48) moves the highest acknowledgement it has received
 * (HighestRxAck) only for segments that reach it in ESTABLISHED, so the segment that completes
 * the handshake leaves it at 0 on the accepting side while the peer's window is already known.
 * A socket that then fills that whole window sends one byte beyond it as measured from
 * HighestRxAck, and a debug build of ns-3 aborts (the assert of SendDataPacket). So the
 * acceptor must receive a second segment of the peer before it writes: the handshake's last
 * ACK, then the connecting side's hello (a heartbeat written when its handshake succeeds).
 *
 * A ring of four islands over one connection per peer: islands connect to higher-numbered
 * ones, and the ring sends i -> i+1, so the connection 0-3 is accepted by island 3, which
 * sends the data on it; the others' acceptors send heartbeats only. The compute phase (1 ms) is
 * shorter than the handshake (1.5 round trips of 2.2 ms), so island 3 has data to write when it
 * accepts. Traced at the islands' IP layers, for each of the four connections: the segments
 * from the connecting side that reached the acceptor (SYN excluded) before its first segment
 * with payload are at least two, and island 3's first data to island 0 leaves within two round
 * trips of the round's start (the hello, right behind the handshake's ACK, freed it; a
 * HeartbeatInterval is 100 ms).
 */
class TcpAcceptedWritesAfterHearingTestCase : public TestCase
{
  public:
    TcpAcceptedWritesAfterHearingTestCase()
        : TestCase("TCP: an accepted connection writes after it heard the peer's hello")
    {
    }

  private:
    /** One connection, as the IP layers saw it. */
    struct Connection
    {
        uint32_t heard{0};     //!< segments from the connecting side at the acceptor (no SYN)
        int64_t firstSend{-1}; //!< when the acceptor's first payload left (ns), -1: not yet
        uint32_t heardThen{0}; //!< heard when it did
    };

    /** (acceptor address, acceptor port, connector address, connector port) */
    using Key = std::tuple<uint32_t, uint16_t, uint32_t, uint16_t>;

    /**
     * \param packet an IPv4 packet, header included \param ipv4 the node's IPv4
     * \param sent true for the Tx trace \brief note a TCP segment of the node's own
     */
    void Note(Ptr<const Packet> packet, Ptr<Ipv4> ipv4, bool sent)
    {
        Ptr<Packet> copy = packet->Copy();
        Ipv4Header ip;
        copy->RemoveHeader(ip);
        if (ip.GetProtocol() != TcpL4Protocol::PROT_NUMBER)
        {
            return;
        }
        const Ipv4Address own = sent ? ip.GetSource() : ip.GetDestination();
        if (ipv4->GetInterfaceForAddress(own) < 0)
        {
            return; // forwarded
        }
        TcpHeader tcp;
        copy->RemoveHeader(tcp);
        const uint8_t flags = tcp.GetFlags();
        const uint32_t src = ip.GetSource().Get();
        const uint32_t dst = ip.GetDestination().Get();
        if ((flags & TcpHeader::SYN) && !(flags & TcpHeader::ACK))
        {
            if (!sent)
            {
                m_connections[Key(dst, tcp.GetDestinationPort(), src, tcp.GetSourcePort())];
            }
            return;
        }
        auto received =
            m_connections.find(Key(dst, tcp.GetDestinationPort(), src, tcp.GetSourcePort()));
        if (!sent && received != m_connections.end())
        {
            ++received->second.heard; // from the connecting side, at the acceptor
            return;
        }
        auto sending =
            m_connections.find(Key(src, tcp.GetSourcePort(), dst, tcp.GetDestinationPort()));
        if (sent && sending != m_connections.end() && copy->GetSize() > 0 &&
            sending->second.firstSend < 0)
        {
            sending->second.firstSend = Simulator::Now().GetNanoSeconds();
            sending->second.heardThen = sending->second.heard;
        }
    }

    void DoRun() override
    {
        Setup setup;
        setup.cities = 4;
        setup.tcp = true;
        setup.ring = true;
        setup.compute = MilliSeconds(1);
        setup.beforeRun = [this](WanTopologyHelper& wan, TrainingHelper&) {
            m_island0 = wan.GetIslandAddress(0).Get();
            m_island3 = wan.GetIslandAddress(3).Get();
            Config::ConnectWithoutContext(
                "/NodeList/*/$ns3::Ipv4L3Protocol/Tx",
                MakeCallback(&TcpAcceptedWritesAfterHearingTestCase::Sent, this));
            Config::ConnectWithoutContext(
                "/NodeList/*/$ns3::Ipv4L3Protocol/Rx",
                MakeCallback(&TcpAcceptedWritesAfterHearingTestCase::Received, this));
        };
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(m_connections.size(), 4u, "a ring of four: four connections");
        const double rtt = 2 * (2 * ACCESS_DELAY + WAN_DELAY);
        uint32_t sendsData = 0;
        for (const auto& [key, c] : m_connections)
        {
            NS_TEST_ASSERT_MSG_EQ((c.firstSend >= 0), true, "every acceptor wrote");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(c.heardThen,
                                        2u,
                                        "the acceptor heard the handshake's ACK and the hello "
                                        "before it wrote (port "
                                            << std::get<1>(key) << ")");
            if (std::get<0>(key) == m_island3 && std::get<2>(key) == m_island0)
            {
                ++sendsData;
                NS_TEST_EXPECT_MSG_LT_OR_EQ(c.firstSend,
                                            (setup.compute + Seconds(2 * rtt)).GetNanoSeconds(),
                                            "island 3's data to 0 waited for no heartbeat");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(sendsData, 1u, "island 3 accepted island 0's connection");
        const TrainingRoundRecord& sender = RecordOf(run, 3, 0);
        NS_TEST_EXPECT_MSG_EQ((sender.finished && sender.lostPeers.empty()),
                              true,
                              "the ring ended");
    }

    /** \param packet sent \param ipv4 its IPv4 \param interface its interface */
    void Sent(Ptr<const Packet> packet, Ptr<Ipv4> ipv4, uint32_t /* interface */)
    {
        Note(packet, ipv4, true);
    }

    /** \param packet received \param ipv4 its IPv4 \param interface its interface */
    void Received(Ptr<const Packet> packet, Ptr<Ipv4> ipv4, uint32_t /* interface */)
    {
        Note(packet, ipv4, false);
    }

    std::map<Key, Connection> m_connections; //!< every connection seen opening
    uint32_t m_island0{0};                   //!< island 0's address
    uint32_t m_island3{0};                   //!< island 3's address
};

/**
 * \ingroup wan-training-tests
 * \brief TcpForkRepair::CopyAttributes copies the configured values of plain attributes and
 *        leaves object pointers alone.
 *
 * A TcpCubic with Beta 0.5 and C 0.2 (defaults 0.7 and 0.4) gives them to a default one. Two
 * TcpSocketBase objects: the second takes the first's SegmentSize (1000 instead of 536) but
 * not its CongestionOps, a pointer that two connections must not share.
 */
class TcpForkRepairCopyTestCase : public TestCase
{
  public:
    TcpForkRepairCopyTestCase()
        : TestCase("TcpForkRepair copies plain attributes, not object pointers")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TcpCubic> configured = CreateObject<TcpCubic>();
        configured->SetAttribute("Beta", DoubleValue(0.5));
        configured->SetAttribute("C", DoubleValue(0.2));
        Ptr<TcpCubic> copy = CreateObject<TcpCubic>();
        const std::vector<std::string> names = TcpForkRepair::CopyAttributes(*configured, *copy);
        DoubleValue value;
        copy->GetAttribute("Beta", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 0.5, "Beta copied");
        copy->GetAttribute("C", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 0.2, "C copied");
        NS_TEST_EXPECT_MSG_EQ(std::count(names.begin(), names.end(), "Beta"), 1, "named once");

        Ptr<TcpSocketBase> listener = CreateObject<TcpSocketBase>();
        listener->SetAttribute("SegmentSize", UintegerValue(1000));
        listener->SetCongestionControlAlgorithm(CreateObject<TcpNewReno>());
        Ptr<TcpSocketBase> accepted = CreateObject<TcpSocketBase>();
        const std::vector<std::string> socketNames =
            TcpForkRepair::CopyAttributes(*listener, *accepted);
        UintegerValue segment;
        accepted->GetAttribute("SegmentSize", segment);
        NS_TEST_EXPECT_MSG_EQ(segment.Get(), 1000, "SegmentSize copied");
        PointerValue ops;
        accepted->GetAttribute("CongestionOps", ops);
        NS_TEST_EXPECT_MSG_EQ(ops.Get<TcpCongestionOps>(), nullptr, "the pointer is not copied");
        NS_TEST_EXPECT_MSG_EQ(std::count(socketNames.begin(), socketNames.end(), "CongestionOps"),
                              0,
                              "not named");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief An accepted TCP connection runs the congestion control as configured, whatever the
 *        heap held before it.
 *
 * ns-3 makes an accepted socket's congestion control with a copy constructor; the TcpCubic
 * of ns-3 3.43 and 3.48 copies every attribute but TcpFriendliness, which took the value of
 * whatever was in the memory before. The heap is filled with zero bytes, then 0xff bytes, in blocks
 * of TcpCubic's size before each run; once every connection is open (the first sync, 10 ms in, plus
 * two round trips), every plain attribute of every socket's congestion control, read from the
 * islands' TcpL4Protocol socket lists, must read as the defaults a new TcpCubic has, and both runs
 * must end their round at the same nanosecond.
 */
class TcpAcceptedCongestionTestCase : public TestCase
{
  public:
    TcpAcceptedCongestionTestCase()
        : TestCase("TCP: accepted connections run the configured congestion control")
    {
    }

  private:
    /** \param fill the byte \brief fill heap blocks of TcpCubic's size with it and free them */
    static void FillFreedMemory(uint8_t fill)
    {
        std::vector<void*> blocks(4096);
        for (void*& block : blocks)
        {
            block = ::operator new(sizeof(TcpCubic));
            std::memset(block, fill, sizeof(TcpCubic));
        }
        for (void* block : blocks)
        {
            ::operator delete(block);
        }
    }

    /** \brief compare every socket's congestion control with a new TcpCubic's attributes */
    void CheckSockets()
    {
        Ptr<TcpCubic> configured = CreateObject<TcpCubic>();
        const Config::MatchContainer sockets =
            Config::LookupMatches("/NodeList/*/$ns3::TcpL4Protocol/SocketList/*");
        for (std::size_t i = 0; i < sockets.GetN(); ++i)
        {
            PointerValue ops;
            sockets.Get(i)->GetAttribute("CongestionOps", ops);
            Ptr<TcpCongestionOps> congestion = ops.Get<TcpCongestionOps>();
            NS_TEST_ASSERT_MSG_NE(congestion, nullptr, "socket " << sockets.GetMatchedPath(i));
            const TypeId tid = configured->GetInstanceTypeId();
            for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
            {
                const TypeId::AttributeInformation info = tid.GetAttribute(a);
                const Ptr<AttributeValue> wanted = info.checker->Create();
                const Ptr<AttributeValue> found = info.checker->Create();
                configured->GetAttribute(info.name, *wanted);
                congestion->GetAttribute(info.name, *found);
                NS_TEST_EXPECT_MSG_EQ(found->SerializeToString(info.checker),
                                      wanted->SerializeToString(info.checker),
                                      info.name << " of " << sockets.GetMatchedPath(i));
            }
            ++m_checked;
        }
    }

    void DoRun() override
    {
        std::vector<Time> ends;
        for (uint8_t fill : {0x00, 0xff})
        {
            m_checked = 0;
            Setup setup;
            setup.cities = 2;
            setup.tcp = true;
            setup.modelBytes = 5000000;
            setup.beforeRun = [this, fill, &setup](WanTopologyHelper&, TrainingHelper&) {
                FillFreedMemory(fill);
                const double rtt = 2 * (2 * ACCESS_DELAY + WAN_DELAY);
                Simulator::Schedule(setup.compute + Seconds(2 * rtt),
                                    &TcpAcceptedCongestionTestCase::CheckSockets,
                                    this);
            };
            const RunResult run = Simulate(setup);
            // Island 1 listens, island 0 connects: listener, connecting and accepted socket.
            NS_TEST_EXPECT_MSG_EQ(m_checked, 3u, "three sockets checked, fill " << +fill);
            ends.push_back(RecordOf(run, 0, 0).syncEnd);
        }
        NS_TEST_EXPECT_MSG_EQ(ends[0], ends[1], "the same round whatever the heap held");
    }

    uint32_t m_checked{0}; //!< sockets checked in the current run
};

/**
 * \ingroup wan-training-tests
 * \brief The tcp transport's suite.
 */
class TcpTransportTestSuite : public TestSuite
{
  public:
    TcpTransportTestSuite()
        : TestSuite("tcp-transport")
    {
        AddTestCase(new TcpFlagsTestCase);
        AddTestCase(new TcpSlowStartTestCase);
        for (uint32_t streams : {1, 2, 8})
        {
            AddTestCase(new TcpExactSumTestCase(false, streams));
            AddTestCase(new TcpExactSumTestCase(true, streams));
        }
        AddTestCase(new TcpStreamBuffersTestCase);
        AddTestCase(new TcpAcceptedWritesAfterHearingTestCase);
        AddTestCase(new TcpForkRepairCopyTestCase);
        AddTestCase(new TcpAcceptedCongestionTestCase);
        AddTestCase(new TcpStreamsUnderLossTestCase);
        for (uint32_t streams : {1, 8})
        {
            AddTestCase(new TcpLostPeerTestCase(false, streams));
            AddTestCase(new TcpLostPeerTestCase(true, streams));
        }
    }
};

/// The suite's one instance.
static TcpTransportTestSuite g_tcpTransportTestSuite;
