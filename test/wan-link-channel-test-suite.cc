/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of WanLinkChannel: exact arrival times by formula in both directions at once, the
 * same arrivals as the stock PointToPointChannel, packets in flight, and a simulation torn
 * down with packets still on the wire.
 */

// ctest-suite: wan-link-channel

#include "ns3/data-rate.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/wan-link-channel.h"

#include <array>
#include <vector>

using namespace ns3;

namespace
{

/** Link rate of the test links: 1 Gbps. */
const uint64_t RATE_BPS = 1000000000ULL;
/** One-way delay of the test links. */
const Time DELAY = MilliSeconds(10);
/** Bytes PointToPointNetDevice adds (its PPP header). */
const uint32_t PPP_BYTES = 2;

/** One received packet. */
struct Arrival
{
    Time at;       //!< when it was received
    uint32_t size; //!< its size as delivered (PPP header removed)
};

/**
 * Two nodes joined by one point-to-point link over the given channel, recording what each
 * end receives.
 */
class LinkHarness
{
  public:
    std::array<Ptr<PointToPointNetDevice>, 2> devices; //!< the two ends
    std::array<std::vector<Arrival>, 2> received;      //!< per end

    /** \param channel the channel to attach both devices to */
    explicit LinkHarness(Ptr<PointToPointChannel> channel)
    {
        channel->SetAttribute("Delay", TimeValue(DELAY));
        for (uint32_t end = 0; end < 2; ++end)
        {
            Ptr<Node> node = CreateObject<Node>();
            Ptr<PointToPointNetDevice> device = CreateObject<PointToPointNetDevice>();
            device->SetAddress(Mac48Address::Allocate());
            device->SetDataRate(DataRate(RATE_BPS));
            node->AddDevice(device);
            ObjectFactory queueFactory("ns3::DropTailQueue<Packet>");
            device->SetQueue(queueFactory.Create<Queue<Packet>>());
            device->Attach(channel);
            device->SetReceiveCallback(
                MakeCallback(end == 0 ? &LinkHarness::ReceiveAt0 : &LinkHarness::ReceiveAt1, this));
            devices[end] = device;
        }
    }

    /** \brief Send packets of these sizes from one end at time 0. \param end sender */
    void SendBurst(uint32_t end, const std::vector<uint32_t>& sizes)
    {
        for (uint32_t size : sizes)
        {
            devices[end]->Send(Create<Packet>(size), devices[1 - end]->GetAddress(), 0x0800);
        }
    }

  private:
    bool Record(uint32_t end, Ptr<const Packet> packet)
    {
        received[end].push_back({Simulator::Now(), packet->GetSize()});
        return true;
    }

    bool ReceiveAt0(Ptr<NetDevice>, Ptr<const Packet> packet, uint16_t, const Address&)
    {
        return Record(0, packet);
    }

    bool ReceiveAt1(Ptr<NetDevice>, Ptr<const Packet> packet, uint16_t, const Address&)
    {
        return Record(1, packet);
    }
};

/** Sizes of the burst each end sends. */
const std::vector<uint32_t> BURST_A = {1000, 200, 8998, 64};
/** Sizes of the burst the other end sends at the same time. */
const std::vector<uint32_t> BURST_B = {500, 1500};

/** \return the arrival times of a back-to-back burst starting at 0, by formula */
std::vector<Time>
ExpectedArrivals(const std::vector<uint32_t>& sizes)
{
    std::vector<Time> arrivals;
    uint64_t bits = 0;
    for (uint32_t size : sizes)
    {
        bits += (size + PPP_BYTES) * 8ULL;
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
        LinkHarness h(CreateObject<WanLinkChannel>());
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
 * The same bursts over the stock PointToPointChannel give the same arrivals (a second method).
 */
class LinkSameAsStockTest : public TestCase
{
  public:
    LinkSameAsStockTest()
        : TestCase("same arrivals as PointToPointChannel")
    {
    }

  private:
    /** \param channel the channel \return per end, what it received */
    static std::array<std::vector<Arrival>, 2> Run(Ptr<PointToPointChannel> channel)
    {
        LinkHarness h(channel);
        h.SendBurst(0, BURST_A);
        h.SendBurst(1, BURST_B);
        Simulator::Run();
        Simulator::Destroy();
        return h.received;
    }

    void DoRun() override
    {
        const auto stock = Run(CreateObject<PointToPointChannel>());
        const auto fifo = Run(CreateObject<WanLinkChannel>());
        for (uint32_t end = 0; end < 2; ++end)
        {
            NS_TEST_ASSERT_MSG_EQ(fifo[end].size(), stock[end].size(), "count at " << end);
            for (size_t i = 0; i < stock[end].size() && i < fifo[end].size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(fifo[end][i].at, stock[end][i].at, "time " << i);
                NS_TEST_ASSERT_MSG_EQ(fifo[end][i].size, stock[end][i].size, "size " << i);
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

    void Sample(Ptr<WanLinkChannel> channel, Ptr<PointToPointNetDevice> src)
    {
        m_counts.push_back(channel->GetInFlight(src));
    }

    void DoRun() override
    {
        Ptr<WanLinkChannel> channel = CreateObject<WanLinkChannel>();
        {
            LinkHarness h(channel);
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
            LinkHarness h(CreateObject<WanLinkChannel>());
            h.SendBurst(0, BURST_A);
            Simulator::Stop(DELAY / 2);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(h.received[1].size(), 0u, "stopped before any arrival");
            Simulator::Destroy(); // pending deliveries are discarded without a crash
        }
    }
};

/**
 * \ingroup wan-training-tests
 * The WanLinkChannel test suite.
 */
class WanLinkChannelTestSuite : public TestSuite
{
  public:
    WanLinkChannelTestSuite()
        : TestSuite("wan-link-channel", UNIT)
    {
        AddTestCase(new LinkExactTimesTest, TestCase::QUICK);
        AddTestCase(new LinkSameAsStockTest, TestCase::QUICK);
        AddTestCase(new LinkInFlightTest, TestCase::QUICK);
    }
};

/** Static instance of the suite. */
static WanLinkChannelTestSuite g_wanLinkChannelTestSuite;
