/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The adaptive transport: ECN marking in WanLinkNetDevice, and the gradient protocol whose
 * streams' rates follow the marks (AdaptiveTransport, AdaptiveRateControl).
 */

// ctest-suite: adaptive-transport

#include "training-scenario.h"

#include "ns3/adaptive-rate-control.h"
#include "ns3/adaptive-transport.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/global-value.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/queue-size.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/training-helper.h"
#include "ns3/uinteger.h"
#include "ns3/wan-link-channel.h"
#include "ns3/wan-link-net-device.h"
#include "ns3/wan-topology-helper.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
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

/** \brief Tell a controller it sent \p count packets and \p receiver echoed \p marks. */
void
Feed(Ptr<AdaptiveRateControl> control, uint32_t count, uint32_t receiver, uint32_t marks)
{
    for (uint32_t i = 0; i < count; ++i)
    {
        control->OnSent();
    }
    if (marks > 0)
    {
        control->OnCongestion(receiver, marks);
    }
}

/** \brief Tell a controller of a loss. */
void
Lose(Ptr<AdaptiveRateControl> control)
{
    control->OnLoss();
}

/** \brief Keep a controller's rate. */
void
SampleRate(std::vector<double>* rates, Ptr<AdaptiveRateControl> control)
{
    rates->push_back(control->GetRate());
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief AdaptiveRateControl's rule, period by period, against the formula worked by hand.
 *
 * Round trip 1 ms (the period), line rate 10 Gbit/s, MarkDecrease 0.5, IncreaseBytes 10000,
 * MarkTrend 0,
 * defaults otherwise: LossDecrease 0.3 (an increase of 8 x 10000 bit / 1 ms = 80 Mbit/s per
 * period), MinRate 10 Mbit/s, HyperAfter 0 (no hyper increase). The controller started at 8 Gbit/s:
 * period 1, 100 packets, receivers 3 and 5 echo 20 and 40 marks: F = 60 / (100 x 2 receivers) =
 * 0.3, R = 8 G x 0.85 + 80 M; period 2, nothing: + 80 M; period 3, a loss (and marks): x 0.7, no
 * increase; period 4, 10 packets, 30 marks: F capped at 1: x 0.5 + 80 M; period 5, nothing sent and
 * 5 marks: they count against the 10 packets of period 4, F = 0.5: x 0.75 + 80 M. One started at 1
 * Gbit/s and never marked climbs 80 M per period for three periods, then 160 M, 320 M. One started
 * at 9.995 Gbit/s stops at the line rate. One started at 12 Mbit/s and told of a loss every period:
 * period 1 x 0.7 floored at MinRate; period 2, the loss of the same episode ignored, + 80 M; period
 * 3 x 0.7.
 */
class RateControlRulesTestCase : public TestCase
{
  public:
    RateControlRulesTestCase()
        : TestCase("rate control: cut by the marked fraction, loss cut, additive increase, bounds")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<AdaptiveRateControl> control = CreateObject<AdaptiveRateControl>();
        Ptr<AdaptiveRateControl> climb = CreateObject<AdaptiveRateControl>();
        Ptr<AdaptiveRateControl> high = CreateObject<AdaptiveRateControl>();
        Ptr<AdaptiveRateControl> low = CreateObject<AdaptiveRateControl>();
        for (auto& c : {control, climb, high, low})
        {
            c->SetAttribute("MarkDecrease", DoubleValue(0.5));
            c->SetAttribute("IncreaseBytes", UintegerValue(10000));
            c->SetAttribute("MarkTrend", DoubleValue(0.0));
        }
        control->Start(10e9, 8e9, MilliSeconds(1));
        climb->SetAttribute("HyperAfter", UintegerValue(3));
        climb->Start(10e9, 1e9, MilliSeconds(1));
        high->Start(10e9, 9.995e9, MilliSeconds(1));
        low->Start(10e9, 12e6, MilliSeconds(1));
        Simulator::Schedule(MicroSeconds(300), &Feed, control, 100, 3, 20);
        Simulator::Schedule(MicroSeconds(400), &Feed, control, 0, 5, 40);
        Simulator::Schedule(MicroSeconds(2300), &Lose, control);
        Simulator::Schedule(MicroSeconds(2400), &Feed, control, 0, 3, 5);
        Simulator::Schedule(MicroSeconds(3300), &Feed, control, 10, 3, 30);
        Simulator::Schedule(MicroSeconds(4300), &Feed, control, 0, 3, 5);
        const uint32_t periods = 5;
        std::vector<double> rates;
        std::vector<double> climbRates;
        std::vector<double> highRates;
        std::vector<double> lowRates;
        for (uint32_t period = 0; period <= periods; ++period)
        {
            const Time at = MicroSeconds(1000 * period + 500);
            Simulator::Schedule(at, &SampleRate, &rates, control);
            Simulator::Schedule(at, &SampleRate, &climbRates, climb);
            Simulator::Schedule(at, &SampleRate, &highRates, high);
            Simulator::Schedule(at, &Lose, low);
            Simulator::Schedule(at, &SampleRate, &lowRates, low);
        }
        Simulator::Stop(MicroSeconds(1000 * periods + 600));
        Simulator::Run();
        for (auto& c : {control, climb, high, low})
        {
            c->Dispose();
        }
        Simulator::Destroy();

        const double ai = 8.0 * 10000 / 1e-3;
        std::vector<double> expected{8e9};
        expected.push_back(expected.back() * (1 - 0.5 * 0.3) + ai);
        expected.push_back(expected.back() + ai);
        expected.push_back(expected.back() * 0.7);
        expected.push_back(expected.back() * 0.5 + ai);
        expected.push_back(expected.back() * (1 - 0.5 * 0.5) + ai);
        const std::vector<double> climbing{1e9,
                                           1e9 + ai,
                                           1e9 + 2 * ai,
                                           1e9 + 3 * ai,
                                           1e9 + 5 * ai,
                                           1e9 + 9 * ai};
        NS_TEST_ASSERT_MSG_EQ(rates.size(), expected.size(), "samples");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(rates[i], expected[i], 1.0, "period " << i);
            NS_TEST_EXPECT_MSG_EQ_TOL(climbRates[i], climbing[i], 1.0, "climb " << i);
            const double cap = i == 0 ? 9.995e9 : 10e9;
            NS_TEST_EXPECT_MSG_EQ_TOL(highRates[i], cap, 1.0, "line cap " << i);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(lowRates[1], 10e6, 1.0, "a loss cut, floored at MinRate");
        NS_TEST_EXPECT_MSG_EQ_TOL(lowRates[2], 10e6 + ai, 1.0, "the same loss: ignored");
        NS_TEST_EXPECT_MSG_EQ_TOL(lowRates[3], (10e6 + ai) * 0.7, 1.0, "a new loss cut");
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
 * \brief What the incast cases share: island 0's ingress queue and every island's stream
 *        rate traced, the run, and the checks that every island ended with every peer.
 */
class IncastTestCase : public TestCase
{
  protected:
    /** \param name the case's name \param runs RngRuns 1 to \p runs are checked */
    IncastTestCase(const std::string& name, uint64_t runs)
        : TestCase(name),
          m_runs(runs)
    {
    }

    /** \param run the RngRun \brief one incast, checked */
    virtual void RunOnce(uint64_t run) = 0;

    /**
     * \param perCity islands in each of the three cities \param modelBytes the update
     * \param run the RngRun \return a global clique with multicast over the adaptive transport
     */
    static Setup IncastSetup(uint32_t perCity, uint64_t modelBytes, uint64_t run)
    {
        Setup setup;
        setup.caps = "multicast";
        setup.cities = 3;
        setup.perCity = perCity;
        setup.adaptive = true;
        setup.modelBytes = modelBytes;
        setup.run = run;
        return setup;
    }

    /**
     * \param senders streams sharing an ingress queue
     * \return its EcnMaxThreshold, packets, as TrainingLinkQueues::EnableEcn computes it
     */
    static double Kmax(uint32_t senders)
    {
        return std::max(60.0, 3 * std::max(20.0, 2.0 * senders));
    }

    /**
     * \brief Run \p setup (adaptive) with \p trace attached; check that island 0's ingress
     *        port was found and that every island ended every round with every peer.
     * \param setup the run (its beforeRun is set here) \param trace window and step set,
     *        filled with rate changes and queue samples
     * \return false if a check failed (the case should stop)
     */
    bool SimulateIncast(Setup& setup, IncastTrace& trace)
    {
        const uint32_t islands = setup.cities * setup.perCity;
        setup.beforeRun = [&trace, islands](WanTopologyHelper& wan, TrainingHelper& helper) {
            trace.port = DynamicCast<WanLinkNetDevice>(wan.GetAccessPeerDevice(0));
            for (uint32_t i = 0; i < islands; ++i)
            {
                helper.GetApplication(i)->GetAdaptiveTransport()->TraceConnectWithoutContext(
                    "Rate",
                    MakeBoundCallback(&NoteRate, &trace));
            }
            Simulator::Schedule(trace.from, &SampleQueue, &trace);
        };
        const RunResult result = Simulate(setup);
        NS_TEST_EXPECT_MSG_NE(trace.port, nullptr, "island 0's ingress port");
        NS_TEST_EXPECT_MSG_EQ(result.records.size(),
                              RecordCount(setup),
                              "a record per island and round");
        for (const TrainingRoundRecord& r : result.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished && r.lostPeers.empty(),
                                  true,
                                  "run " << setup.run << ": island " << r.island
                                         << " ended with every peer");
        }
        NS_TEST_EXPECT_MSG_EQ(trace.queue.empty(), false, "queue sampled");
        return !IsStatusFailure();
    }

  private:
    void DoRun() override
    {
        for (uint64_t run = 1; run <= m_runs; ++run)
        {
            RunOnce(run);
        }
    }

    uint64_t m_runs; //!< RngRuns checked
};

/**
 * \ingroup wan-training-tests
 * \brief Incast: eight senders into one island share its access link fairly, with its queue
 *        under the marking threshold, for five random stream layouts.
 *
 * Nine islands (three cities of three), a global DIRECT clique with multicast: each island
 * sends one multicast stream that every other island receives, so every access link carries
 * eight senders. The fair share is the access capacity / 8 (the senders' own egress carries one
 * stream each). Every stream starts at InitialRate fair, which here is that share (the own
 * access rate over one stream, each receiver's over its eight senders: the smaller), and then
 * climbs by IncreaseBytes per period until the marks at the ingress queues hold it. In steady
 * state (the window: from 100 ms after the exchange starts to when a fair-share sender would be
 * 80% through its update), every sender's time-averaged rate is within 10% of the share, and
 * island 0's ingress queue, sampled every 50 us, stays below EcnMaxThreshold, computed here as
 * TrainingLinkQueues::EnableEcn does: max(60, 3 x max(20, 2 x 8)) packets. RngRun 1 to 5 (the
 * ECN marking draws and every other random stream differ).
 */
class AdaptiveIncastTestCase : public IncastTestCase
{
  public:
    AdaptiveIncastTestCase()
        : IncastTestCase("adaptive incast: 8 senders converge to the fair share, queue under Kmax",
                         5)
    {
    }

  private:
    void RunOnce(uint64_t run) override
    {
        Setup setup = IncastSetup(3, 40000000, run);
        const uint32_t senders = 8;
        const double fair = static_cast<double>(ACCESS_BPS) / senders;
        const double kmax = Kmax(senders);
        const double updateWireBits =
            8.0 * (StreamBytes(setup.modelBytes) + Chunks(setup.modelBytes) * WIRE_EXTRA);
        IncastTrace trace;
        trace.from = setup.compute + MilliSeconds(100);
        trace.to = setup.compute + Seconds(0.8 * updateWireBits / fair);
        trace.step = MicroSeconds(50);
        if (!SimulateIncast(setup, trace))
        {
            return;
        }
        for (uint32_t i = 0; i < 9; ++i)
        {
            const double mean = MeanRate(trace.rates[i], trace.from, trace.to);
            NS_TEST_EXPECT_MSG_EQ_TOL(mean / fair,
                                      1.0,
                                      0.1,
                                      "run " << run << ": island " << i << "'s rate");
        }
        const uint32_t most = *std::max_element(trace.queue.begin(), trace.queue.end());
        NS_TEST_EXPECT_MSG_LT(most,
                              kmax,
                              "run " << run << ": island 0's ingress queue stays under Kmax");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Incast from the line rate: two senders that start at twice their fair share slow
 *        down, drain the receiver's queue and climb again.
 *
 * Three islands in three cities, a global DIRECT clique with multicast: every access link
 * receives two streams, so the fair share is half the access rate, and InitialRate line starts
 * every stream at twice that. A controller that never updated its rate would keep it there (the
 * incast case above starts at the fair share and would not notice). What the default
 * controller does from there (MarkDecrease 0.1, HyperAfter 0: tuned for a start at the fair
 * share): while the queue is over Kmax each receiver marks every packet, but it receives only
 * half of what a sender sends, so each period cuts about 5%; the queue peaks near 2,600
 * packets and drains by 60 ms, the rates having fallen to about a sixth of the share, from
 * which the additive increase (8 x IncreaseBytes per period) climbs back. Checked for RngRun
 * 1 to 3: every stream's rate falls below 0.8 x the line rate within the exchange's first
 * 20 ms; island 0's ingress queue, sampled every 50 us from 80 ms to 150 ms after the exchange
 * starts, stays under EcnMaxThreshold, max(60, 3 x max(20, 2 x 2)) = 60 packets; and every rate
 * at 150 ms is above its lowest since 80 ms (it climbs).
 */
class AdaptiveIncastFromLineTestCase : public IncastTestCase
{
  public:
    AdaptiveIncastFromLineTestCase()
        : IncastTestCase("adaptive incast from the line rate: 2 senders slow down, drain, climb", 3)
    {
    }

  private:
    void RunOnce(uint64_t run) override
    {
        Setup setup = IncastSetup(1, 100000000, run); // still sending at 150 ms
        setup.initialRate = "line";
        const double line = static_cast<double>(ACCESS_BPS);
        const double kmax = Kmax(2);
        const Time slowBy = setup.compute + MilliSeconds(20);
        IncastTrace trace;
        trace.from = setup.compute + MilliSeconds(80);
        trace.to = setup.compute + MilliSeconds(150);
        trace.step = MicroSeconds(50);
        if (!SimulateIncast(setup, trace))
        {
            return;
        }
        for (uint32_t i = 0; i < 3; ++i)
        {
            const std::vector<std::pair<Time, double>>& changes = trace.rates[i];
            NS_TEST_ASSERT_MSG_EQ(changes.empty(), false, "island " << i << "'s rate traced");
            NS_TEST_EXPECT_MSG_EQ_TOL(changes.front().second / line,
                                      1.0,
                                      0.01,
                                      "run " << run << ": island " << i << " starts at the line");
            double early = line;  // the lowest rate in the first 20 ms
            double lowest = line; // the lowest rate from trace.from to trace.to
            double atEnd = line;  // the rate at trace.to
            for (const auto& [at, rate] : changes)
            {
                early = at <= slowBy ? std::min(early, rate) : early;
                lowest = at <= trace.to ? std::min(lowest, rate) : lowest;
                atEnd = at <= trace.to ? rate : atEnd;
            }
            NS_TEST_EXPECT_MSG_LT(early,
                                  0.8 * line,
                                  "run " << run << ": island " << i << " slows within 20 ms");
            NS_TEST_EXPECT_MSG_GT(atEnd,
                                  lowest,
                                  "run " << run << ": island " << i << " climbs after the drain");
        }
        const uint32_t most = *std::max_element(trace.queue.begin(), trace.queue.end());
        NS_TEST_EXPECT_MSG_LT(most, kmax, "run " << run << ": island 0's queue has drained");
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
        NS_TEST_ASSERT_MSG_EQ(run.records.size(),
                              RecordCount(setup),
                              "a record per island and round");
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
 * \brief With multicast and FPGAs, marks arise, reach the islands in aggregates, are echoed
 *        to the contributors, and slow them down.
 *
 * Two cities of two islands, capabilities both, WAN links of 10 Gbit/s. Each island's fair
 * guess is its whole access rate (one multicast stream; every receiver's FPGA sums what enters
 * it), so the two streams of each city cross the WAN at 2 x 10 Gbit/s into 10: the WAN ports
 * mark, and the receiving city's FPGAs fold marked contributions into aggregates (that the
 * aggregate then leaves marked is FpgaCarriesMarkTestCase's). Island C1-0 counts marks for both
 * islands of C0 and notifies them; their rates are cut below the guess; and the FPGAs folded
 * chunks (the marks did arrive through them).
 */
class AdaptiveFpgaMarkTestCase : public TestCase
{
  public:
    AdaptiveFpgaMarkTestCase()
        : TestCase("adaptive, FPGA: marked contributions are echoed to their senders")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup;
        setup.caps = "both";
        setup.cities = 2;
        setup.perCity = 2;
        setup.adaptive = true;
        setup.wanBps = 10 * GBPS;
        setup.modelBytes = 20000000;
        std::vector<Ptr<AdaptiveTransport>> transports;
        IncastTrace trace;
        setup.beforeRun = [&transports, &trace](WanTopologyHelper&, TrainingHelper& helper) {
            for (uint32_t i = 0; i < 4; ++i)
            {
                transports.push_back(helper.GetApplication(i)->GetAdaptiveTransport());
                transports.back()->TraceConnectWithoutContext("Rate",
                                                              MakeBoundCallback(&NoteRate, &trace));
            }
        };
        const RunResult run = Simulate(setup);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(),
                              RecordCount(setup),
                              "a record per island and round");
        for (const TrainingRoundRecord& r : run.records)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished && r.lostPeers.empty(),
                                  true,
                                  "island " << r.island << " ended with every peer");
        }
        NS_TEST_ASSERT_MSG_EQ(transports.size(), 4u, "four transports");
        NS_TEST_EXPECT_MSG_GT(run.fpga.aggregated, 0u, "the FPGAs folded chunks");
        NS_TEST_EXPECT_MSG_GT(transports[2]->GetMarksFrom(0), 0u, "C1-0 counts marks of C0-0");
        NS_TEST_EXPECT_MSG_GT(transports[2]->GetMarksFrom(1), 0u, "C1-0 counts marks of C0-1");
        NS_TEST_EXPECT_MSG_GT(transports[2]->GetNotificationsSent(), 0u, "C1-0 notified");
        const double guess = static_cast<double>(ACCESS_BPS);
        for (uint32_t i : {0, 1})
        {
            double lowest = guess;
            for (const auto& change : trace.rates[i])
            {
                lowest = std::min(lowest, change.second);
            }
            NS_TEST_EXPECT_MSG_LT(lowest, 0.9 * guess, "C0-" << i << " slowed down");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The marks of a run do not depend on what ran before it in the process: the helper
 *        gives every link device's ECN decisions its own RNG stream. Six islands start at line
 *        rate (queues, marks between the thresholds, so random draws decide), once; then
 *        random variables are made (each takes the next automatic stream, as another
 *        experiment's devices would) and the same run repeats: the same rows, the same marks.
 */
class EcnStreamsTestCase : public TestCase
{
  public:
    EcnStreamsTestCase()
        : TestCase("adaptive: the same marks whatever ran before in the process")
    {
    }

  private:
    void DoRun() override
    {
        Setup setup = CongestedAdaptive();
        Received tally;
        setup.beforeRun = [&tally](WanTopologyHelper&, TrainingHelper&) {
            for (const Ptr<NetDevice>& device : TrainingHelper::GetLinkDevices())
            {
                device->TraceConnectWithoutContext("EcnMark",
                                                   MakeBoundCallback(&CountMark, &tally));
            }
        };
        const std::string first = Simulate(setup).csv;
        Simulator::Destroy();
        const uint32_t firstMarks = tally.marks;
        tally.marks = 0;
        std::vector<Ptr<UniformRandomVariable>> others;
        for (uint32_t k = 0; k < 50; ++k)
        {
            others.push_back(CreateObject<UniformRandomVariable>());
        }
        const std::string second = Simulate(setup).csv;
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_GT(firstMarks, 0u, "no marks: nothing for the draws to decide");
        NS_TEST_EXPECT_MSG_EQ(tally.marks, firstMarks, "marks of the repeated run");
        NS_TEST_EXPECT_MSG_EQ(second, first, "rounds of the repeated run");
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
        AddTestCase(new AdaptiveIncastFromLineTestCase);
        AddTestCase(new AdaptiveFpgaMarkTestCase);
        AddTestCase(new EcnStreamsTestCase);
    }
};

/// The suite's one instance.
static AdaptiveTransportTestSuite g_adaptiveTransportTestSuite;
