/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The adaptive transport: ECN marking in WanLinkNetDevice, and the gradient protocol whose
 * streams' rates follow the marks (AdaptiveTransport, AdaptiveRateControl).
 */

// ctest-suite: adaptive-transport

#include "training-scenario.h"

#include "ns3/adaptive-rate-control.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/global-value.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/training-helper.h"
#include "ns3/wan-link-channel.h"
#include "ns3/wan-link-net-device.h"
#include "ns3/wan-topology-helper.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

using namespace ns3;
using namespace ns3::training_test;

namespace
{

/// IPv4 payload bytes of every packet of the marking test.
constexpr uint32_t MARK_PAYLOAD = 1000;

/** What the far end of the marking test's link received. */
struct Received
{
    std::vector<uint8_t> ecn;  //!< per packet, in order: its ECN field
    std::vector<bool> goodSum; //!< per packet: its IPv4 checksum verifies
    uint32_t marks{0};         //!< EcnMark trace calls
};

/** \brief Keep a received packet's ECN field. */
bool
ReceiveMarked(Received* received,
              Ptr<NetDevice> /* device */,
              Ptr<const Packet> packet,
              uint16_t /* protocol */,
              const Address& /* from */)
{
    Ptr<Packet> copy = packet->Copy();
    Ipv4Header header;
    header.EnableChecksum();
    copy->RemoveHeader(header);
    received->ecn.push_back(header.GetEcn());
    received->goodSum.push_back(header.IsChecksumOk());
    return true;
}

/** \brief Count an EcnMark trace call. */
void
CountMark(Received* received, Ptr<const Packet> /* packet */)
{
    ++received->marks;
}

/**
 * \param ecn the ECN field to send with \param count packets sent at once
 * \param marking EcnMarking \param kmin EcnMinThreshold (packets) \param kmax EcnMaxThreshold
 * \return what the far end received
 */
Received
SendBurst(Ipv4Header::EcnType ecn, uint32_t count, bool marking, uint32_t kmin, uint32_t kmax)
{
    Ptr<WanLinkChannel> channel =
        CreateObjectWithAttributes<WanLinkChannel>("Delay", TimeValue(MicroSeconds(10)));
    Ptr<WanLinkNetDevice> devices[2];
    for (auto& device : devices)
    {
        Ptr<Node> node = CreateObject<Node>();
        device = CreateObjectWithAttributes<WanLinkNetDevice>(
            "DataRate",
            DataRateValue(DataRate("1Gbps")),
            "EcnMarking",
            BooleanValue(marking),
            "EcnMinThreshold",
            QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, kmin)),
            "EcnMaxThreshold",
            QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, kmax)),
            "EcnMaxProbability",
            DoubleValue(1.0));
        device->SetAddress(Mac48Address::Allocate());
        node->AddDevice(device);
        device->Attach(channel);
    }
    Received received;
    devices[1]->SetReceiveCallback(MakeBoundCallback(&ReceiveMarked, &received));
    devices[0]->TraceConnectWithoutContext("EcnMark", MakeBoundCallback(&CountMark, &received));
    for (uint32_t i = 0; i < count; ++i)
    {
        Ptr<Packet> packet = Create<Packet>(MARK_PAYLOAD);
        Ipv4Header header;
        header.SetSource(Ipv4Address("10.0.0.1"));
        header.SetDestination(Ipv4Address("10.0.0.2"));
        header.SetProtocol(17);
        header.SetPayloadSize(MARK_PAYLOAD);
        header.SetTtl(64);
        header.SetEcn(ecn);
        header.EnableChecksum();
        packet->AddHeader(header);
        devices[0]->Send(packet, devices[1]->GetAddress(), 0x0800);
    }
    Simulator::Run();
    Simulator::Destroy();
    return received;
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief ECN marking of WanLinkNetDevice, with thresholds that leave nothing to chance.
 *
 * Eleven packets are sent at once: the first goes on the wire, packet k (k >= 1) finds k - 1
 * waiting. With EcnMinThreshold 3 and EcnMaxThreshold 4 no queue length lies strictly between
 * them, so the marks are certain: packets 1..4 find 0..3 (<= Kmin: none marked), packets 5..10
 * find 4..9 (>= Kmax: all six marked), each with a correct IPv4 checksum (checksums on). Not
 * ECN-capable packets are never marked, and with EcnMarking off (the default) nothing is.
 */
class EcnMarkingTestCase : public TestCase
{
  public:
    EcnMarkingTestCase()
        : TestCase("ECN marking: none at or under Kmin, all at or over Kmax, only ECT packets")
    {
    }

  private:
    void DoRun() override
    {
        BooleanValue checksums;
        GlobalValue::GetValueByName("ChecksumEnabled", checksums);
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
        const uint32_t count = 11;
        const uint32_t kmin = 3;
        const uint32_t kmax = 4;
        const Received ect = SendBurst(Ipv4Header::ECN_ECT0, count, true, kmin, kmax);
        const Received plain = SendBurst(Ipv4Header::ECN_NotECT, count, true, kmin, kmax);
        const Received off = SendBurst(Ipv4Header::ECN_ECT0, count, false, kmin, kmax);
        GlobalValue::Bind("ChecksumEnabled", checksums);

        NS_TEST_ASSERT_MSG_EQ(ect.ecn.size(), count, "every packet arrived");
        for (uint32_t k = 0; k < count; ++k)
        {
            const bool queued = k >= 1;
            const uint32_t waiting = queued ? k - 1 : 0;
            const uint8_t expected =
                queued && waiting >= kmax ? Ipv4Header::ECN_CE : Ipv4Header::ECN_ECT0;
            NS_TEST_EXPECT_MSG_EQ(unsigned(ect.ecn[k]), unsigned(expected), "packet " << k);
            NS_TEST_EXPECT_MSG_EQ(ect.goodSum[k], true, "checksum of packet " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(ect.marks, count - 1 - kmax, "EcnMark fired once per mark");
        NS_TEST_EXPECT_MSG_EQ(plain.marks, 0u, "not ECN-capable: never marked");
        NS_TEST_EXPECT_MSG_EQ(std::count(plain.ecn.begin(), plain.ecn.end(), 0),
                              long(count),
                              "and they arrive as sent");
        NS_TEST_EXPECT_MSG_EQ(off.marks, 0u, "EcnMarking off: no marks");
    }
};

namespace
{

/** Rates seen by the rate-control test. */
struct ControlSamples
{
    std::vector<double> rates;  //!< GetRate() at each sample
    std::vector<double> alphas; //!< GetAlpha() at each sample
};

/** \brief Sample a controller. */
void
SampleControl(ControlSamples* samples, Ptr<AdaptiveRateControl> control)
{
    samples->rates.push_back(control->GetRate());
    samples->alphas.push_back(control->GetAlpha());
}

/** \brief Signal congestion to a controller. */
void
Congest(Ptr<AdaptiveRateControl> control)
{
    control->OnCongestion();
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief AdaptiveRateControl follows DCQCN's rules on the round-trip clock, step by step.
 *
 * Line rate 10 Gbit/s, first rate 8 Gbit/s, round trip 1 ms, defaults otherwise (g = 1/16,
 * alpha 0.5, F = 5, Rai 40 Mbit/s, Rhai 200 Mbit/s). Congestion at 0.5 ms: Rt = 8, Rc = 8 x
 * (1 - 0.25) = 6; a second signal 0.2 ms later changes nothing (one cut per round trip). At
 * 1 ms the alpha timer sees the signal: alpha = 15/16 x 0.5 + 1/16. The increase steps come
 * every 1 ms from the cut (1.5, 2.5, ... ms): five of fast recovery halve the distance to 8
 * (7, 7.5, 7.75, 7.875, 7.9375), then additive steps raise the target by 0.04 first (Rt 8.04,
 * Rc (8.04 + 7.9375) / 2). Sampled 0.1 ms after each step; alpha decays by 15/16 per quiet
 * millisecond.
 */
class RateControlRulesTestCase : public TestCase
{
  public:
    RateControlRulesTestCase()
        : TestCase("rate control: cut once per round trip, fast recovery, additive increase")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<AdaptiveRateControl> control = CreateObject<AdaptiveRateControl>();
        control->Start(10e9, 8e9, MilliSeconds(1));
        ControlSamples samples;
        Simulator::Schedule(MicroSeconds(500), &Congest, control);
        Simulator::Schedule(MicroSeconds(700), &Congest, control);
        Simulator::Schedule(MicroSeconds(800), &SampleControl, &samples, control);
        for (uint32_t step = 1; step <= 6; ++step)
        {
            Simulator::Schedule(MicroSeconds(500 + 1000 * step + 100),
                                &SampleControl,
                                &samples,
                                control);
        }
        Simulator::Stop(MilliSeconds(7));
        Simulator::Run();
        control->Dispose();
        Simulator::Destroy();

        const double g = 1.0 / 16;
        double rc = 8e9 * (1 - 0.5 / 2);
        double rt = 8e9;
        std::vector<double> expected{rc};
        for (uint32_t step = 1; step <= 6; ++step)
        {
            rt += step > 5 ? 40e6 : 0;
            rc = (rt + rc) / 2;
            expected.push_back(rc);
        }
        NS_TEST_ASSERT_MSG_EQ(samples.rates.size(), expected.size(), "samples");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(samples.rates[i], expected[i], 1.0, "sample " << i);
        }
        // Alpha: 0.5 until 1 ms; then the signalled interval, then quiet ones.
        NS_TEST_EXPECT_MSG_EQ_TOL(samples.alphas[0], 0.5, 1e-12, "alpha before its timer");
        double alpha = (1 - g) * 0.5 + g; // at 1 ms
        alpha *= 1 - g;                   // at 2 ms
        NS_TEST_EXPECT_MSG_EQ_TOL(samples.alphas[2], alpha, 1e-12, "alpha at 2.6 ms");
    }
};

namespace
{

/** Rate and queue samples of the incast run. */
struct IncastTrace
{
    std::map<uint32_t, std::vector<std::pair<Time, double>>> rates; //!< per island: changes
    std::vector<uint32_t> queue;                                    //!< queue samples (window)
    Ptr<WanLinkNetDevice> port;                                     //!< island 0's ingress
    Time from;                                                      //!< window start
    Time to;                                                        //!< window end
    Time step;                                                      //!< sampling period
};

/** \brief Keep a stream's rate change. */
void
NoteRate(IncastTrace* trace, uint32_t island, uint32_t round, Ipv4Address, double rate)
{
    if (round == 0)
    {
        trace->rates[island].emplace_back(Simulator::Now(), rate);
    }
}

/** \brief Sample the ingress queue, and schedule the next sample. */
void
SampleQueue(IncastTrace* trace)
{
    trace->queue.push_back(trace->port->GetQueuePackets());
    if (Simulator::Now() + trace->step <= trace->to)
    {
        Simulator::Schedule(trace->step, &SampleQueue, trace);
    }
}

/**
 * \param changes a rate's changes, in time order \param from window start \param to its end
 * \return the rate's time average over [from, to]
 */
double
MeanRate(const std::vector<std::pair<Time, double>>& changes, Time from, Time to)
{
    double area = 0;
    for (size_t i = 0; i < changes.size(); ++i)
    {
        const Time start = std::max(changes[i].first, from);
        const Time end = std::min(i + 1 < changes.size() ? changes[i + 1].first : to, to);
        if (end > start)
        {
            area += changes[i].second * (end - start).GetSeconds();
        }
    }
    return area / (to - from).GetSeconds();
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief Incast: eight senders into one island converge to a fair share of its access link,
 *        with its queue under the marking threshold.
 *
 * Nine islands (three cities of three), a global DIRECT clique with multicast: each island
 * sends one multicast stream that every other island receives, so every access link carries
 * eight senders. The fair share is the access capacity / 8 (the senders' own egress carries one
 * stream each). Every stream starts at InitialRate line-share, the access rate over the eight
 * peers, and then climbs (fast recovery, additive and hyper increase) until the marks at the
 * ingress queues cut it back. (From the access rate itself, InitialRate line, the streams have
 * not become fair within the window: measured 0.35 to 1.5 times the share.) In steady state
 * (the window: from 100 ms
 * after the exchange starts to when a fair-share sender would be 80% through its update),
 * each sender's time-averaged rate is within 10% of it, and island 0's ingress queue, sampled
 * every 50 us, stays below EcnMaxThreshold (TrainingLinkQueues::EnableEcn gives it
 * max(60, 3 x max(20, 2 x 8)) = 60 packets).
 */
class AdaptiveIncastTestCase : public TestCase
{
  public:
    AdaptiveIncastTestCase()
        : TestCase("adaptive incast: 8 senders converge to the fair share, queue under Kmax")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "multicast";
        setup.cities = 3;
        setup.perCity = 3;
        setup.adaptive = true;
        setup.initialRate = "line-share";
        setup.modelBytes = 40000000;
        const uint32_t senders = 8;
        const double fair = static_cast<double>(ACCESS_BPS) / senders;
        const double kmax = std::max(60.0, 3 * std::max(20.0, 2.0 * senders));
        const double updateWireBits =
            8.0 * (StreamBytes(setup.modelBytes) + Chunks(setup.modelBytes) * WIRE_EXTRA);
        IncastTrace trace;
        trace.from = setup.compute + MilliSeconds(100);
        trace.to = setup.compute + Seconds(0.8 * updateWireBits / fair);
        trace.step = MicroSeconds(50);
        setup.beforeRun = [&trace](WanTopologyHelper& wan, TrainingHelper& helper) {
            trace.port = DynamicCast<WanLinkNetDevice>(wan.GetAccessPeerDevice(0));
            for (uint32_t i = 0; i < 9; ++i)
            {
                helper.GetApplication(i)->GetAdaptiveTransport()->TraceConnectWithoutContext(
                    "Rate",
                    MakeBoundCallback(&NoteRate, &trace));
            }
            Simulator::Schedule(trace.from, &SampleQueue, &trace);
        };
        const RunResult run = Simulate(setup);

        NS_TEST_ASSERT_MSG_NE(trace.port, nullptr, "island 0's ingress port");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished && r.lostPeers.empty(),
                                  true,
                                  "island " << r.island << " ended with every peer");
        }
        for (uint32_t i = 0; i < 9; ++i)
        {
            const double mean = MeanRate(trace.rates[i], trace.from, trace.to);
            NS_TEST_EXPECT_MSG_EQ_TOL(mean / fair, 1.0, 0.1, "island " << i << "'s rate");
        }
        const uint32_t most = *std::max_element(trace.queue.begin(), trace.queue.end());
        NS_TEST_EXPECT_MSG_LT(most, kmax, "island 0's ingress queue stays under Kmax");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Two islands: the adaptive exchange takes no longer than the access link needs.
 *
 * Each island sends its update to the other; nothing else shares the access links, so the
 * stream never sees a mark and runs at the access rate from its first guess (the plan's
 * rate, the access rate). The round's exchange lasts at least the update's wire bits over the
 * access rate plus one packet's path (the last chunk's way), and the test allows 2% over that
 * for the END and the pacing granularity.
 */
class AdaptiveTwoIslandTestCase : public TestCase
{
  public:
    AdaptiveTwoIslandTestCase()
        : TestCase("adaptive, 2 islands: the exchange takes the access link's time")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.cities = 2;
        setup.adaptive = true;
        setup.modelBytes = 20000000;
        const RunResult run = Simulate(setup);
        const double bits =
            8.0 * (StreamBytes(setup.modelBytes) + Chunks(setup.modelBytes) * WIRE_EXTRA);
        const double expected =
            bits / ACCESS_BPS +
            (PathTime(FULL_CHUNK_IP) - Serialisation(FULL_CHUNK_IP, ACCESS_BPS)).GetSeconds();
        NS_TEST_ASSERT_MSG_EQ(run.queueDrops, 0u, "nothing lost");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished, true, "island " << r.island << " finished");
            const double sync = (r.syncEnd - r.syncStart).GetSeconds();
            NS_TEST_EXPECT_MSG_GT_OR_EQ(sync, expected, "not faster than the access link");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(sync, expected * 1.02, "within 2% of it");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Real payloads under the adaptive transport, with multicast and FPGAs, are summed
 *        exactly, even when every stream starts at the access rate.
 *
 * Four islands in four cities, every capability on, each stream starting at the access rate
 * (so queues fill and marks and repairs happen). The expectation: each island's value in fixed
 * point, round(x x Scale), summed in int32 with wrap-around, divided by 4 x Scale; every island
 * must hold exactly that double.
 */
class AdaptiveExactSumTestCase : public TestCase
{
  public:
    AdaptiveExactSumTestCase()
        : TestCase("adaptive, multicast and FPGAs: real payloads are summed exactly")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.cities = 4;
        setup.adaptive = true;
        setup.initialRate = "line";
        setup.real = true;
        setup.modelBytes = 200 * CHUNK + 36;
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.after.size(), 4u, "four islands");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished && r.lostPeers.empty(),
                                  true,
                                  "island " << r.island << " ended with every peer");
        }
        NS_TEST_EXPECT_MSG_GT(run.fpga.aggregated, 0u, "the FPGAs folded chunks");
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
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The adaptive transport's suite.
 */
class AdaptiveTransportTestSuite : public TestSuite
{
  public:
    AdaptiveTransportTestSuite()
        : TestSuite("adaptive-transport")
    {
        AddTestCase(new EcnMarkingTestCase);
        AddTestCase(new RateControlRulesTestCase);
        AddTestCase(new AdaptiveTwoIslandTestCase);
        AddTestCase(new AdaptiveExactSumTestCase);
        AddTestCase(new AdaptiveIncastTestCase);
    }
};

/// The suite's one instance.
static AdaptiveTransportTestSuite g_adaptiveTransportTestSuite;
