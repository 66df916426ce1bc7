/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of WanLinkNetDevice and WanLinkChannel: exact arrival times by formula in both
 * directions at once, the same arrivals as ns-3's PointToPointNetDevice over its
 * PointToPointChannel, packets in flight, a simulation torn down with packets still on the
 * wire, the transmit FIFO's bound, a link that is down, receive errors, framing bytes and the
 * protocol number; WanLinkHelper's links (the harness builds its module links with it).
 */

// ctest-suite: wan-link-channel

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-link-channel.h"
#include "ns3/wan-link-helper.h"
#include "ns3/wan-link-net-device.h"

#include <array>
#include <vector>

using namespace ns3;

namespace
{

/** Link rate of the test links: 1 Gbps. */
const uint64_t RATE_BPS = 1000000000ULL;
/** One-way delay of the test links. */
const Time DELAY = MilliSeconds(10);
/** Bytes PointToPointNetDevice adds (its PPP header), and WanLinkNetDevice's FramingBytes. */
const uint32_t PPP_BYTES = 2;
/** Protocol number of the test packets (IPv4). */
const uint16_t PROTOCOL = 0x0800;

/** One received packet. */
struct Arrival
{
    Time at;           //!< when it was received
    uint32_t size;     //!< its size as delivered (PPP header removed)
    uint16_t protocol; //!< protocol number as delivered
};

/**
 * Two nodes joined by one link, recording what each end receives: two WanLinkNetDevices over
 * a WanLinkChannel, or ns-3's two PointToPointNetDevices over a PointToPointChannel.
 */
class LinkHarness
{
  public:
    std::array<Ptr<NetDevice>, 2> devices;        //!< the two ends
    std::array<std::vector<Arrival>, 2> received; //!< per end
    Ptr<WanLinkChannel> channel;                  //!< the module's channel, or null if stock

    /** \param stock true: ns-3's devices and channel \param framing WanLinkNetDevice's
     *  FramingBytes */
    explicit LinkHarness(bool stock, uint32_t framing = PPP_BYTES)
    {
        const std::array<Ptr<Node>, 2> nodes = {CreateObject<Node>(), CreateObject<Node>()};
        if (stock)
        {
            Ptr<PointToPointChannel> stockChannel =
                CreateObjectWithAttributes<PointToPointChannel>("Delay", TimeValue(DELAY));
            for (uint32_t end = 0; end < 2; ++end)
            {
                Ptr<PointToPointNetDevice> p2p = CreateObject<PointToPointNetDevice>();
                p2p->SetDataRate(DataRate(RATE_BPS));
                ObjectFactory queueFactory("ns3::DropTailQueue<Packet>");
                p2p->SetQueue(queueFactory.Create<Queue<Packet>>());
                p2p->SetAddress(Mac48Address::Allocate());
                nodes[end]->AddDevice(p2p);
                p2p->Attach(stockChannel);
                devices[end] = p2p;
            }
        }
        else
        {
            WanLinkHelper link;
            link.SetDeviceAttribute("DataRate", DataRateValue(DataRate(RATE_BPS)));
            link.SetDeviceAttribute("FramingBytes", UintegerValue(framing));
            link.SetChannelAttribute("Delay", TimeValue(DELAY));
            const NetDeviceContainer pair = link.Install(nodes[0], nodes[1]);
            devices = {pair.Get(0), pair.Get(1)};
            channel = DynamicCast<WanLinkChannel>(devices[0]->GetChannel());
        }
        devices[0]->SetReceiveCallback(MakeCallback(&LinkHarness::ReceiveAt0, this));
        devices[1]->SetReceiveCallback(MakeCallback(&LinkHarness::ReceiveAt1, this));
    }

    /** \brief Send packets of these sizes from one end at time 0. \param end sender */
    void SendBurst(uint32_t end, const std::vector<uint32_t>& sizes)
    {
        for (uint32_t size : sizes)
        {
            devices[end]->Send(Create<Packet>(size), devices[1 - end]->GetAddress(), PROTOCOL);
        }
    }

  private:
    bool Record(uint32_t end, Ptr<const Packet> packet, uint16_t protocol)
    {
        received[end].push_back({Simulator::Now(), packet->GetSize(), protocol});
        return true;
    }

    bool ReceiveAt0(Ptr<NetDevice>, Ptr<const Packet> packet, uint16_t protocol, const Address&)
    {
        return Record(0, packet, protocol);
    }

    bool ReceiveAt1(Ptr<NetDevice>, Ptr<const Packet> packet, uint16_t protocol, const Address&)
    {
        return Record(1, packet, protocol);
    }
};

/** Sizes of the burst each end sends. */
const std::vector<uint32_t> BURST_A = {1000, 200, 8998, 64};
/** Sizes of the burst the other end sends at the same time. */
const std::vector<uint32_t> BURST_B = {500, 1500};

/**
 * \param sizes packet sizes \param framing framing bytes per frame
 * \return the arrival times of a back-to-back burst starting at 0, by formula
 */
std::vector<Time>
ExpectedArrivals(const std::vector<uint32_t>& sizes, uint32_t framing = PPP_BYTES)
{
    std::vector<Time> arrivals;
    uint64_t bits = 0;
    for (uint32_t size : sizes)
    {
        bits += (size + framing) * 8ULL;
        // bits / RATE_BPS seconds = bits nanoseconds at 1 Gbps.
        arrivals.push_back(NanoSeconds(bits) + DELAY);
    }
    return arrivals;
}

} // namespace

/**
 * \ingroup wan-training-tests
 * Two bursts cross the link in opposite directions at once: every packet arrives at the sum
 * of the serialisation times up to and including its own plus the delay, intact and in order.
 */
class LinkExactTimesTest : public TestCase
{
  public:
    LinkExactTimesTest()
        : TestCase("arrivals at serialisation + delay, both directions at once")
    {
    }

  private:
    void DoRun() override
    {
        LinkHarness h(false);
        h.SendBurst(0, BURST_A);
        h.SendBurst(1, BURST_B);
        Simulator::Run();
        const std::vector<Time> toB = ExpectedArrivals(BURST_A);
        const std::vector<Time> toA = ExpectedArrivals(BURST_B);
        NS_TEST_ASSERT_MSG_EQ(h.received[1].size(), toB.size(), "all of burst A arrived");
        NS_TEST_ASSERT_MSG_EQ(h.received[0].size(), toA.size(), "all of burst B arrived");
        for (size_t i = 0; i < toB.size() && i < h.received[1].size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(h.received[1][i].at, toB[i], "burst A packet " << i);
            NS_TEST_ASSERT_MSG_EQ(h.received[1][i].size, BURST_A[i], "size of A " << i);
            NS_TEST_ASSERT_MSG_EQ(h.received[1][i].protocol, PROTOCOL, "protocol of A " << i);
        }
        for (size_t i = 0; i < toA.size() && i < h.received[0].size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(h.received[0][i].at, toA[i], "burst B packet " << i);
            NS_TEST_ASSERT_MSG_EQ(h.received[0][i].size, BURST_B[i], "size of B " << i);
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * The same bursts between ns-3's PointToPointNetDevices over PointToPointChannel give the same
 * arrivals (a second method).
 */
class LinkSameAsStockTest : public TestCase
{
  public:
    LinkSameAsStockTest()
        : TestCase("same arrivals as PointToPointNetDevice over PointToPointChannel")
    {
    }

  private:
    /** \param stock ns-3's devices and channel \return per end, what it received */
    static std::array<std::vector<Arrival>, 2> Run(bool stock)
    {
        LinkHarness h(stock);
        h.SendBurst(0, BURST_A);
        h.SendBurst(1, BURST_B);
        Simulator::Run();
        Simulator::Destroy();
        return h.received;
    }

    void DoRun() override
    {
        const auto stock = Run(true);
        const auto fifo = Run(false);
        for (uint32_t end = 0; end < 2; ++end)
        {
            NS_TEST_ASSERT_MSG_EQ(fifo[end].size(), stock[end].size(), "count at " << end);
            for (size_t i = 0; i < stock[end].size() && i < fifo[end].size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(fifo[end][i].at, stock[end][i].at, "time " << i);
                NS_TEST_ASSERT_MSG_EQ(fifo[end][i].size, stock[end][i].size, "size " << i);
                NS_TEST_ASSERT_MSG_EQ(fifo[end][i].protocol, stock[end][i].protocol, "protocol");
            }
        }
    }
};

/**
 * \ingroup wan-training-tests
 * Packets in flight: the whole burst is on the wire half-way through the delay, none after;
 * a simulation stopped with packets on the wire is torn down cleanly.
 */
class LinkInFlightTest : public TestCase
{
  public:
    LinkInFlightTest()
        : TestCase("packets in flight, and teardown with packets on the wire")
    {
    }

  private:
    std::vector<uint32_t> m_counts; //!< in-flight counts sampled

    void Sample(Ptr<WanLinkChannel> channel, Ptr<NetDevice> src)
    {
        m_counts.push_back(channel->GetInFlight(DynamicCast<WanLinkNetDevice>(src)));
    }

    void DoRun() override
    {
        {
            LinkHarness h(false);
            Ptr<WanLinkChannel> channel = h.channel;
            h.SendBurst(0, BURST_A);
            // Burst A is 10,270 bytes with PPP headers: serialised by 82.16 us, first arrival
            // at 10 ms + 8.016 us. Sample in between (all on the wire), then after the end.
            const Time allSent = ExpectedArrivals(BURST_A).back() - DELAY;
            Simulator::Schedule(allSent + DELAY / 2,
                                &LinkInFlightTest::Sample,
                                this,
                                channel,
                                h.devices[0]);
            Simulator::Schedule(DELAY * 2, &LinkInFlightTest::Sample, this, channel, h.devices[0]);
            Simulator::Schedule(DELAY * 2, &LinkInFlightTest::Sample, this, channel, h.devices[1]);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(m_counts.size(), 3u, "three samples");
            NS_TEST_ASSERT_MSG_EQ(m_counts[0], BURST_A.size(), "whole burst on the wire");
            NS_TEST_ASSERT_MSG_EQ(m_counts[1], 0u, "all delivered");
            NS_TEST_ASSERT_MSG_EQ(m_counts[2], 0u, "nothing the other way");
            Simulator::Destroy();
        }
        {
            LinkHarness h(false);
            h.SendBurst(0, BURST_A);
            Simulator::Stop(DELAY / 2);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(h.received[1].size(), 0u, "stopped before any arrival");
            Simulator::Destroy(); // pending deliveries are discarded without a crash
        }
    }
};

/** Counts a trace source's firings. \param count the counter \param packet the packet */
void
CountPacket(uint32_t* count, Ptr<const Packet> packet)
{
    ++*count;
}

/**
 * \ingroup wan-training-tests
 * WanLinkNetDevice on its own: the transmit FIFO's bound in packets and in bytes, a device
 * without a channel, a receive error model, FramingBytes and the trace sources' counts.
 */
class LinkDeviceTest : public TestCase
{
  public:
    LinkDeviceTest()
        : TestCase("WanLinkNetDevice: FIFO bound, link down, receive errors, framing, traces")
    {
    }

  private:
    /**
     * A burst of BURST_A into a FIFO of the given bound: the first packet goes on the wire at
     * once, the next two wait, and the fourth finds the FIFO full.
     * \param bound TxQueueMaxSize
     */
    void CheckBound(const std::string& bound)
    {
        LinkHarness h(false);
        h.devices[0]->SetAttribute("TxQueueMaxSize", QueueSizeValue(QueueSize(bound)));
        uint32_t drops = 0;
        h.devices[0]->TraceConnectWithoutContext("MacTxDrop",
                                                 MakeBoundCallback(&CountPacket, &drops));
        std::vector<bool> accepted;
        for (uint32_t size : BURST_A)
        {
            accepted.push_back(
                h.devices[0]->Send(Create<Packet>(size), h.devices[1]->GetAddress(), PROTOCOL));
        }
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ((accepted == std::vector<bool>{true, true, true, false}),
                              true,
                              bound << ": the fourth packet is refused");
        NS_TEST_EXPECT_MSG_EQ(drops, 1u, bound << ": one MacTxDrop");
        const std::vector<uint32_t> sent(BURST_A.begin(), BURST_A.begin() + 3);
        const std::vector<Time> expected = ExpectedArrivals(sent);
        NS_TEST_ASSERT_MSG_EQ(h.received[1].size(), expected.size(), bound << ": three arrive");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(h.received[1][i].at, expected[i], bound << ": packet " << i);
        }
        Simulator::Destroy();
    }

    void DoRun() override
    {
        // 2 packets wait; in bytes, 200 + 8998 = 9198 fit exactly and 64 more do not.
        CheckBound("2p");
        CheckBound("9198B");

        // No channel: the link is down, Send refuses and says so.
        {
            Ptr<Node> node = CreateObject<Node>();
            Ptr<WanLinkNetDevice> lone = CreateObject<WanLinkNetDevice>();
            node->AddDevice(lone);
            uint32_t drops = 0;
            uint32_t sent = 0;
            lone->TraceConnectWithoutContext("MacTxDrop", MakeBoundCallback(&CountPacket, &drops));
            lone->TraceConnectWithoutContext("MacTx", MakeBoundCallback(&CountPacket, &sent));
            NS_TEST_EXPECT_MSG_EQ(lone->IsLinkUp(), false, "down without a channel");
            NS_TEST_EXPECT_MSG_EQ(lone->Send(Create<Packet>(100), Mac48Address(), PROTOCOL),
                                  false,
                                  "Send refuses");
            NS_TEST_EXPECT_MSG_EQ(drops, 1u, "MacTxDrop fired");
            NS_TEST_EXPECT_MSG_EQ(sent, 0u, "MacTx did not");
            Simulator::Destroy();
        }

        // An error model that drops the second packet: the others arrive on time.
        {
            LinkHarness h(false);
            Ptr<Packet> second = Create<Packet>(BURST_A[1]);
            Ptr<ListErrorModel> errors = CreateObject<ListErrorModel>();
            errors->SetList({static_cast<uint32_t>(second->GetUid())});
            h.devices[1]->SetAttribute("ReceiveErrorModel", PointerValue(errors));
            uint32_t lost = 0;
            h.devices[1]->TraceConnectWithoutContext("PhyRxDrop",
                                                     MakeBoundCallback(&CountPacket, &lost));
            for (uint32_t i = 0; i < BURST_A.size(); ++i)
            {
                h.devices[0]->Send(i == 1 ? second : Create<Packet>(BURST_A[i]),
                                   h.devices[1]->GetAddress(),
                                   PROTOCOL);
            }
            Simulator::Run();
            const std::vector<Time> expected = ExpectedArrivals(BURST_A);
            NS_TEST_EXPECT_MSG_EQ(lost, 1u, "one PhyRxDrop");
            NS_TEST_ASSERT_MSG_EQ(h.received[1].size(), 3u, "three arrive");
            NS_TEST_EXPECT_MSG_EQ(h.received[1][0].at, expected[0], "first");
            NS_TEST_EXPECT_MSG_EQ(h.received[1][1].at, expected[2], "third");
            NS_TEST_EXPECT_MSG_EQ(h.received[1][2].at, expected[3], "fourth");
            Simulator::Destroy();
        }

        // Without framing the serialisation counts the packet bytes alone.
        {
            LinkHarness h(false, 0);
            h.SendBurst(0, BURST_A);
            Simulator::Run();
            const std::vector<Time> expected = ExpectedArrivals(BURST_A, 0);
            NS_TEST_ASSERT_MSG_EQ(h.received[1].size(), expected.size(), "all arrive");
            for (size_t i = 0; i < expected.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(h.received[1][i].at, expected[i], "unframed " << i);
            }
            Simulator::Destroy();
        }

        // Every trace source fires once per packet where it should.
        {
            LinkHarness h(false);
            std::array<uint32_t, 8> counts{};
            const std::array<const char*, 4> txTraces{"MacTx",
                                                      "PhyTxBegin",
                                                      "PhyTxEnd",
                                                      "PromiscSniffer"};
            const std::array<const char*, 4> rxTraces{"PhyRxEnd",
                                                      "MacRx",
                                                      "PromiscSniffer",
                                                      "PhyRxDrop"};
            for (uint32_t t = 0; t < 4; ++t)
            {
                h.devices[0]->TraceConnectWithoutContext(
                    txTraces[t],
                    MakeBoundCallback(&CountPacket, &counts[t]));
                h.devices[1]->TraceConnectWithoutContext(
                    rxTraces[t],
                    MakeBoundCallback(&CountPacket, &counts[4 + t]));
            }
            h.SendBurst(0, BURST_A);
            Simulator::Run();
            const std::array<uint32_t, 8> expected{4, 4, 4, 4, 4, 4, 4, 0};
            for (uint32_t t = 0; t < counts.size(); ++t)
            {
                NS_TEST_EXPECT_MSG_EQ(counts[t],
                                      expected[t],
                                      (t < 4 ? txTraces[t] : rxTraces[t - 4]) << " count");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup wan-training-tests
 * WanLinkHelper: each Install makes a new channel with the helper's channel attributes and two
 * devices with its device attributes, one on each node (the first node's first), each with its
 * own address, attached to that channel.
 */
class LinkHelperTest : public TestCase
{
  public:
    LinkHelperTest()
        : TestCase("WanLinkHelper: a new channel and two devices per link, attributes applied")
    {
    }

  private:
    void DoRun() override
    {
        const Ptr<Node> a = CreateObject<Node>();
        const Ptr<Node> b = CreateObject<Node>();
        const Ptr<Node> c = CreateObject<Node>();
        WanLinkHelper link;
        link.SetDeviceAttribute("DataRate", DataRateValue(DataRate("2Gbps")));
        link.SetDeviceAttribute("Mtu", UintegerValue(9000));
        link.SetChannelAttribute("Delay", TimeValue(MilliSeconds(3)));
        const NetDeviceContainer ab = link.Install(a, b);
        link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(40)));
        const NetDeviceContainer bc = link.Install(b, c);

        NS_TEST_ASSERT_MSG_EQ(ab.GetN(), 2u, "two devices");
        NS_TEST_EXPECT_MSG_EQ(ab.Get(0)->GetNode(), a, "the first device is a's");
        NS_TEST_EXPECT_MSG_EQ(ab.Get(1)->GetNode(), b, "the second device is b's");
        NS_TEST_EXPECT_MSG_EQ(a->GetNDevices(), 1u, "a holds one device");
        NS_TEST_EXPECT_MSG_EQ(b->GetNDevices(), 2u, "b holds one device per link");
        NS_TEST_EXPECT_MSG_EQ(bc.Get(0), b->GetDevice(1), "b's second link device");
        NS_TEST_EXPECT_MSG_EQ((ab.Get(0)->GetAddress() == ab.Get(1)->GetAddress()),
                              false,
                              "each end has its own address");

        const Ptr<WanLinkChannel> abChannel = DynamicCast<WanLinkChannel>(ab.Get(0)->GetChannel());
        const Ptr<WanLinkChannel> bcChannel = DynamicCast<WanLinkChannel>(bc.Get(0)->GetChannel());
        NS_TEST_ASSERT_MSG_NE(abChannel, nullptr, "a WanLinkChannel");
        NS_TEST_ASSERT_MSG_NE(bcChannel, nullptr, "a WanLinkChannel");
        NS_TEST_EXPECT_MSG_EQ((abChannel == bcChannel), false, "a new channel per link");
        NS_TEST_EXPECT_MSG_EQ(ab.Get(1)->GetChannel(), abChannel, "both ends on one channel");
        NS_TEST_EXPECT_MSG_EQ(abChannel->GetNDevices(), 2u, "the channel holds both");
        NS_TEST_EXPECT_MSG_EQ(abChannel->GetDevice(0), ab.Get(0), "in a, b order");
        NS_TEST_EXPECT_MSG_EQ(abChannel->GetDelay(), MilliSeconds(3), "the first delay");
        NS_TEST_EXPECT_MSG_EQ(bcChannel->GetDelay(), MicroSeconds(40), "the changed delay");

        for (const NetDeviceContainer& pair : {ab, bc})
        {
            for (uint32_t end = 0; end < 2; ++end)
            {
                const Ptr<NetDevice> device = pair.Get(end);
                NS_TEST_EXPECT_MSG_EQ(device->GetMtu(), 9000, "Mtu applied");
                DataRateValue rate;
                device->GetAttribute("DataRate", rate);
                NS_TEST_EXPECT_MSG_EQ(rate.Get(), DataRate("2Gbps"), "DataRate applied");
                NS_TEST_EXPECT_MSG_EQ(device->IsLinkUp(), true, "attached: the link is up");
            }
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * The WanLinkNetDevice and WanLinkChannel test suite.
 */
class WanLinkChannelTestSuite : public TestSuite
{
  public:
    WanLinkChannelTestSuite()
        : TestSuite("wan-link-channel")
    {
        AddTestCase(new LinkExactTimesTest);
        AddTestCase(new LinkSameAsStockTest);
        AddTestCase(new LinkInFlightTest);
        AddTestCase(new LinkDeviceTest);
        AddTestCase(new LinkHelperTest);
    }
};

/** Static instance of the suite. */
static WanLinkChannelTestSuite g_wanLinkChannelTestSuite;
