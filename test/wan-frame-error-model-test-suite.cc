/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of WanFrameErrorModel (model/wan-frame-error-model.h): a frame's fate depends on the
 * frame, the seed, the run and the stream, not on the order frames arrive in (ns-3's
 * RateErrorModel, checked beside it, does depend on it); the loss rate is the rate asked for,
 * within binomial bounds; which bytes make a frame's identity.
 */

// ctest-suite: wan-frame-error-model

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"
#include "ns3/wan-frame-error-model.h"

#include <cmath>
#include <numeric>
#include <set>
#include <vector>

namespace ns3
{
namespace
{

/**
 * \brief A UDP datagram as an island sends it: IPv4 and UDP headers over a virtual payload.
 * \param id IPv4 identification \param payload payload bytes \param ttl IPv4 TTL
 * \param tos IPv4 TOS byte (its low bits are ECN)
 * \return the frame
 */
Ptr<Packet>
MakeFrame(uint16_t id, uint32_t payload = 8920, uint8_t ttl = 64, uint8_t tos = 0)
{
    Ptr<Packet> p = Create<Packet>(payload);
    UdpHeader udp;
    udp.SetSourcePort(47000);
    udp.SetDestinationPort(47000);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.1.1"));
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    ip.SetIdentification(id);
    ip.SetTtl(ttl);
    ip.SetTos(tos);
    ip.EnableChecksum();
    p->AddHeader(ip);
    return p;
}

/**
 * \param n how many (at most 65536) \return n frames that differ in their identification
 */
std::vector<Ptr<Packet>>
DistinctFrames(uint32_t n)
{
    std::vector<Ptr<Packet>> frames;
    for (uint32_t i = 0; i < n; ++i)
    {
        frames.push_back(MakeFrame(static_cast<uint16_t>(i)));
    }
    return frames;
}

/** \param n a count \return the indices 0 .. n-1 in order */
std::vector<uint32_t>
InOrder(std::size_t n)
{
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    return order;
}

/**
 * \brief The indices of \p frames that \p model loses, offered in the order \p order gives.
 * \param model the error model \param frames the frames \param order indices into frames
 * \return the lost indices
 */
std::set<uint32_t>
Lost(Ptr<ErrorModel> model,
     const std::vector<Ptr<Packet>>& frames,
     const std::vector<uint32_t>& order)
{
    std::set<uint32_t> lost;
    for (uint32_t i : order)
    {
        if (model->IsCorrupt(frames[i]))
        {
            lost.insert(i);
        }
    }
    return lost;
}

/**
 * \brief A frame error model on stream \p stream at rate \p rate.
 * \param rate ErrorRate \param stream stream \return the model
 */
Ptr<WanFrameErrorModel>
FrameModel(double rate, int64_t stream = 7)
{
    Ptr<WanFrameErrorModel> m = CreateObject<WanFrameErrorModel>();
    m->SetAttribute("ErrorRate", DoubleValue(rate));
    m->AssignStreams(stream);
    return m;
}

/**
 * \ingroup wan-training-tests
 * \brief The same frames offered forwards and backwards: the frame model loses the same ones,
 *        ns-3's RateErrorModel (one draw per packet, in order) does not.
 */
class OrderTestCase : public TestCase
{
  public:
    OrderTestCase()
        : TestCase("a frame's fate does not depend on the order frames arrive in")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<Ptr<Packet>> frames = DistinctFrames(4000);
        const std::vector<uint32_t> forwards = InOrder(frames.size());
        const std::vector<uint32_t> backwards(forwards.rbegin(), forwards.rend());

        const std::set<uint32_t> a = Lost(FrameModel(0.05), frames, forwards);
        const std::set<uint32_t> b = Lost(FrameModel(0.05), frames, backwards);
        NS_TEST_ASSERT_MSG_GT(a.size(), 0u, "4000 frames at 5%: some are lost");
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "the same frames are lost in either order");

        // ns-3's model on the same stream, both ways: the draws hit other frames.
        auto rate = [](int64_t stream) {
            Ptr<RateErrorModel> m = CreateObject<RateErrorModel>();
            m->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
            m->SetAttribute("ErrorRate", DoubleValue(0.05));
            m->AssignStreams(stream);
            return m;
        };
        const std::set<uint32_t> c = Lost(rate(7), frames, forwards);
        const std::set<uint32_t> d = Lost(rate(7), frames, backwards);
        NS_TEST_ASSERT_MSG_EQ((c == d), false, "RateErrorModel's losses follow the order");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The share of frames lost is ErrorRate, within five standard deviations of the
 *        binomial count; 0 loses none and 1 all.
 */
class RateTestCase : public TestCase
{
  public:
    RateTestCase()
        : TestCase("the share of frames lost is the rate asked for")
    {
    }

  private:
    void DoRun() override
    {
        constexpr uint32_t N = 100000;
        const double p = 0.01;
        Ptr<WanFrameErrorModel> model = FrameModel(p);
        Ptr<WanFrameErrorModel> none = FrameModel(0);
        Ptr<WanFrameErrorModel> all = FrameModel(1);
        uint32_t lost = 0;
        uint32_t lostByNone = 0;
        uint32_t lostByAll = 0;
        for (uint32_t i = 0; i < N; ++i)
        {
            // Identification wraps at 65536: the payload size keeps every frame distinct.
            Ptr<Packet> frame = MakeFrame(static_cast<uint16_t>(i), 8000 + i / 65536);
            lost += model->IsCorrupt(frame);
            lostByNone += none->IsCorrupt(frame);
            lostByAll += all->IsCorrupt(frame);
            const double draw = model->Draw(frame);
            if (!(draw >= 0 && draw < 1))
            {
                NS_TEST_ASSERT_MSG_EQ(draw, 0.5, "a draw outside [0, 1)");
            }
        }
        // N p = 1000, sd = sqrt(N p (1 - p)) = 31.46: 5 sd is 157.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(lost, 843u, "1% of 100,000 frames, binomial lower bound");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(lost, 1157u, "1% of 100,000 frames, binomial upper bound");
        NS_TEST_ASSERT_MSG_EQ(lostByNone, 0u, "ErrorRate 0 loses nothing");
        NS_TEST_ASSERT_MSG_EQ(lostByAll, N, "ErrorRate 1 loses every frame");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Another stream or another run loses other frames (about p^2 of them in common); the
 *        same seed, run and stream lose the same ones again.
 */
class StreamTestCase : public TestCase
{
  public:
    StreamTestCase()
        : TestCase("streams and runs give independent draws, and repeat exactly")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<Ptr<Packet>> frames = DistinctFrames(20000);
        const std::vector<uint32_t> order = InOrder(frames.size());
        const uint32_t run = RngSeedManager::GetRun();
        const std::set<uint32_t> one = Lost(FrameModel(0.1, 1), frames, order);
        const std::set<uint32_t> again = Lost(FrameModel(0.1, 1), frames, order);
        const std::set<uint32_t> two = Lost(FrameModel(0.1, 2), frames, order);
        RngSeedManager::SetRun(run + 1);
        const std::set<uint32_t> nextRun = Lost(FrameModel(0.1, 1), frames, order);
        RngSeedManager::SetRun(run);

        NS_TEST_ASSERT_MSG_EQ((one == again), true, "same seed, run and stream: same losses");
        // Independent draws at 10%: about 2000 lost each, 200 in common (20000 x 0.01, sd 14).
        auto common = [](const std::set<uint32_t>& x, const std::set<uint32_t>& y) {
            uint32_t n = 0;
            for (uint32_t i : x)
            {
                n += y.count(i);
            }
            return n;
        };
        NS_TEST_ASSERT_MSG_LT(common(one, two), 300u, "another stream: independent draws");
        NS_TEST_ASSERT_MSG_GT(common(one, two), 100u, "another stream: independent draws");
        NS_TEST_ASSERT_MSG_LT(common(one, nextRun), 300u, "another run: independent draws");
        NS_TEST_ASSERT_MSG_GT(common(one, nextRun), 100u, "another run: independent draws");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Which bytes are a frame's identity: ECN marks and the IPv4 checksum are not; TTL,
 *        identification, size and the first KEY_BYTES bytes are; later bytes are not.
 */
class IdentityTestCase : public TestCase
{
  public:
    IdentityTestCase()
        : TestCase("ECN marks and the checksum are not a frame's identity; its header is")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<WanFrameErrorModel> model = FrameModel(0.5);
        const double base = model->Draw(MakeFrame(42));
        NS_TEST_ASSERT_MSG_EQ(model->Draw(MakeFrame(42)), base, "the same frame, the same draw");
        // ECN CE (TOS 0x03) changes the TOS byte and the checksum only.
        NS_TEST_ASSERT_MSG_EQ(model->Draw(MakeFrame(42, 8920, 64, 0x03)),
                              base,
                              "a congestion mark does not change the draw");
        NS_TEST_ASSERT_MSG_NE(model->Draw(MakeFrame(43)), base, "another identification");
        NS_TEST_ASSERT_MSG_NE(model->Draw(MakeFrame(42, 8920, 63)), base, "another TTL");
        NS_TEST_ASSERT_MSG_NE(model->Draw(MakeFrame(42, 8921)), base, "another size");

        // A payload byte within the key changes the draw; one beyond it does not.
        const uint32_t headers = 28;
        std::vector<uint8_t> payload(1000, 0);
        auto withPayload = [&](const std::vector<uint8_t>& bytes) {
            Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
            UdpHeader udp;
            p->AddHeader(udp);
            Ipv4Header ip;
            ip.SetPayloadSize(p->GetSize());
            p->AddHeader(ip);
            return model->Draw(p);
        };
        const double plain = withPayload(payload);
        payload[WanFrameErrorModel::KEY_BYTES - headers - 1] = 1;
        NS_TEST_ASSERT_MSG_NE(withPayload(payload), plain, "the key's last byte counts");
        payload[WanFrameErrorModel::KEY_BYTES - headers - 1] = 0;
        payload[WanFrameErrorModel::KEY_BYTES - headers] = 1;
        NS_TEST_ASSERT_MSG_EQ(withPayload(payload), plain, "the first byte past the key does not");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The WanFrameErrorModel test suite.
 */
class WanFrameErrorModelTestSuite : public TestSuite
{
  public:
    WanFrameErrorModelTestSuite()
        : TestSuite("wan-frame-error-model")
    {
        AddTestCase(new OrderTestCase);
        AddTestCase(new RateTestCase);
        AddTestCase(new StreamTestCase);
        AddTestCase(new IdentityTestCase);
    }
};

/// Static instance of the suite.
WanFrameErrorModelTestSuite g_wanFrameErrorModelTestSuite;

} // namespace
} // namespace ns3
