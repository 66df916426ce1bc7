/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of FpgaAggregatorNetDevice. Two harnesses:
 *  - a raw one (router side -- FPGA -- island side, no IP stacks), which injects hand-built
 *    IPv4 packets and records every byte that comes out of either side;
 *  - an IP network (senders -- ns-3 IPv4 router -- FPGA -- receiver host) with UDP sockets and
 *    TCP connections, for the end-to-end claims.
 * Every expected value is computed here, independently of the device.
 */

// ctest-suite: fpga-aggregator

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/fpga-aggregator-net-device.h"
#include "ns3/gradient-header.h"
#include "ns3/gradient-payload.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"
#include "ns3/wan-wire.h"

#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

const uint16_t PORT = WanWire::DEFAULT_GRADIENT_PORT;

/** \return the bytes of a packet */
std::vector<uint8_t>
ToBytes(Ptr<const Packet> packet)
{
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), packet->GetSize());
    return bytes;
}

/** \return the address of sender island i in the raw harness */
Ipv4Address
SenderAddress(uint32_t island)
{
    return Ipv4Address(0x0a000000 + 100 + island); // 10.0.0.(100 + island)
}

const Ipv4Address ISLAND_ADDRESS("10.0.0.1"); //!< the island behind the FPGA (raw harness)

/** Wrap an IPv4 payload (UDP header included) into an IPv4 packet. */
Ptr<Packet>
AddIpv4(Ptr<Packet> packet, Ipv4Address source, Ipv4Address destination, uint8_t protocol)
{
    Ipv4Header ip;
    ip.SetSource(source);
    ip.SetDestination(destination);
    ip.SetProtocol(protocol);
    ip.SetPayloadSize(packet->GetSize());
    ip.SetTtl(64);
    packet->AddHeader(ip);
    return packet;
}

/** A UDP datagram to destination:port carrying payload. */
Ptr<Packet>
MakeUdp(Ptr<Packet> payload, Ipv4Address source, Ipv4Address destination, uint16_t port)
{
    UdpHeader udp;
    udp.SetSourcePort(49152);
    udp.SetDestinationPort(port);
    payload->AddHeader(udp);
    return AddIpv4(payload, source, destination, 17);
}

/** A DATA header of a clique. */
GradientHeader
DataHeader(const IslandBitmap& members, uint16_t sender, uint32_t chunk, uint32_t chunks)
{
    GradientHeader header;
    header.SetType(GradientHeader::DATA);
    header.SetJobId(1);
    header.SetRound(5);
    header.SetCliqueId(0);
    header.SetSender(sender);
    header.SetChunkIndex(chunk);
    header.SetChunkCount(chunks);
    header.SetMembers(members);
    IslandBitmap self;
    self.Set(sender);
    header.SetContributors(self);
    return header;
}

/** \return a bitmap of the listed islands */
IslandBitmap
Bitmap(const std::vector<uint32_t>& islands)
{
    IslandBitmap bitmap;
    for (uint32_t island : islands)
    {
        bitmap.Set(island);
    }
    return bitmap;
}

/** Wrap-around int32 sum of int64 running totals, with the number of additions that
 *  overflowed, computed with 64-bit arithmetic (independent of the device's method). */
struct ReferenceSum
{
    std::vector<int64_t> sum; //!< running sums, kept within int32 by explicit wrapping
    uint64_t wraps{0};        //!< additions that left the int32 range

    /** \param values one contribution, added in arrival order */
    void Add(const std::vector<int32_t>& values)
    {
        if (sum.empty())
        {
            sum.assign(values.size(), 0);
        }
        for (size_t i = 0; i < values.size(); ++i)
        {
            int64_t total = sum[i] + values[i];
            if (total > std::numeric_limits<int32_t>::max())
            {
                total -= int64_t{1} << 32;
                ++wraps;
            }
            else if (total < std::numeric_limits<int32_t>::min())
            {
                total += int64_t{1} << 32;
                ++wraps;
            }
            sum[i] = total;
        }
    }
};

/**
 * Router side -- FPGA -- island side; no IP stacks. Packets are injected as IPv4 frames and
 * everything leaving the FPGA is recorded with its arrival time.
 */
class RawHarness
{
  public:
    Ptr<Node> routerNode;                    //!< plays the city router
    Ptr<Node> fpgaNode;                      //!< holds the FPGA
    Ptr<Node> islandNode;                    //!< plays the island
    Ptr<PointToPointNetDevice> routerDev;    //!< router end of the in-box link
    Ptr<PointToPointNetDevice> islandDev;    //!< island end of the access link
    Ptr<FpgaAggregatorNetDevice> fpga;       //!< device under test
    std::vector<Ptr<const Packet>> atIsland; //!< packets out of the island port
    std::vector<Time> atIslandTime;          //!< their arrival times
    std::vector<Ptr<const Packet>> atRouter; //!< packets out of the router port

    static constexpr uint64_t INBOX_BPS = 100000000000ULL; //!< in-box link: 100 Gbps
    static constexpr uint64_t ACCESS_BPS = 10000000000ULL; //!< access link: 10 Gbps
    static constexpr uint64_t DELAY_NS = 1000;             //!< both links: 1 us

    /** Build; attributes are set on the FPGA before its ports. */
    void Build(const std::map<std::string, Ptr<AttributeValue>>& attributes)
    {
        routerNode = CreateObject<Node>();
        fpgaNode = CreateObject<Node>();
        islandNode = CreateObject<Node>();
        PointToPointHelper p2p;
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("100000p"));
        p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(DELAY_NS)));
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(INBOX_BPS)));
        NetDeviceContainer inBox = p2p.Install(routerNode, fpgaNode);
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(ACCESS_BPS)));
        NetDeviceContainer access = p2p.Install(fpgaNode, islandNode);
        routerDev = DynamicCast<PointToPointNetDevice>(inBox.Get(0));
        islandDev = DynamicCast<PointToPointNetDevice>(access.Get(1));
        fpga = CreateObject<FpgaAggregatorNetDevice>();
        for (const auto& attribute : attributes)
        {
            fpga->SetAttribute(attribute.first, *attribute.second);
        }
        fpgaNode->AddDevice(fpga);
        fpga->SetIslandPort(access.Get(0));
        fpga->SetRouterPort(inBox.Get(1));
        islandNode->RegisterProtocolHandler(MakeCallback(&RawHarness::ReceiveAtIsland, this),
                                            0,
                                            islandDev,
                                            true);
        routerNode->RegisterProtocolHandler(MakeCallback(&RawHarness::ReceiveAtRouter, this),
                                            0,
                                            routerDev,
                                            true);
    }

    /** Send an IPv4 frame from the router side at time t. */
    void InjectFromRouter(Time t, Ptr<Packet> packet)
    {
        Simulator::Schedule(t, &RawHarness::Send, routerDev, packet);
    }

    /** Send an IPv4 frame from the island side at time t. */
    void InjectFromIsland(Time t, Ptr<Packet> packet)
    {
        Simulator::Schedule(t, &RawHarness::Send, islandDev, packet);
    }

    /** Run the simulation (counters stay readable until the harness goes away). */
    void Run()
    {
        Simulator::Run();
    }

    ~RawHarness()
    {
        Simulator::Destroy();
    }

  private:
    static void Send(Ptr<PointToPointNetDevice> device, Ptr<Packet> packet)
    {
        device->Send(packet, device->GetBroadcast(), 0x0800);
    }

    void ReceiveAtIsland(Ptr<NetDevice> device,
                         Ptr<const Packet> packet,
                         uint16_t protocol,
                         const Address& from,
                         const Address& to,
                         NetDevice::PacketType type)
    {
        atIsland.push_back(packet->Copy());
        atIslandTime.push_back(Simulator::Now());
    }

    void ReceiveAtRouter(Ptr<NetDevice> device,
                         Ptr<const Packet> packet,
                         uint16_t protocol,
                         const Address& from,
                         const Address& to,
                         NetDevice::PacketType type)
    {
        atRouter.push_back(packet->Copy());
    }
};

/** A received gradient packet taken apart. */
struct Decoded
{
    bool valid{false};           //!< IPv4/UDP/GradientHeader all parsed
    Ipv4Header ip;               //!< its IPv4 header
    UdpHeader udp;               //!< its UDP header
    GradientHeader header;       //!< its gradient header
    std::vector<int32_t> values; //!< real payload values
};

/** Take an IPv4 frame apart. */
Decoded
Decode(Ptr<const Packet> frame)
{
    Decoded d;
    Ptr<Packet> p = frame->Copy();
    p->RemoveHeader(d.ip);
    if (d.ip.GetProtocol() != 17 || p->GetSize() < 8)
    {
        return d;
    }
    p->RemoveHeader(d.udp);
    d.valid = GradientPayload::Parse(p, d.header, &d.values);
    return d;
}

/** Attribute map shorthand. */
std::map<std::string, Ptr<AttributeValue>>
Attributes(uint32_t island, uint32_t slots, Time timeout)
{
    return {{"IslandIndex", Create<UintegerValue>(island)},
            {"SlotCount", Create<UintegerValue>(slots)},
            {"Timeout", Create<TimeValue>(timeout)}};
}

} // namespace

/**
 * \ingroup wan-training-tests
 * Real payloads: every aggregate holds the exact wrap-around sum of the contributions
 * (negative values, extremes, overflow), the full bitmap, and valid IPv4/UDP headers.
 */
class FpgaExactSumTestCase : public TestCase
{
  public:
    FpgaExactSumTestCase()
        : TestCase("real payloads: exact int32 sums with wrap-around")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t chunks = 3;
        const uint32_t elements = 64;
        const std::vector<uint32_t> senders = {1, 2, 3, 4, 70}; // island 70: a second word
        const IslandBitmap members = Bitmap({0, 1, 2, 3, 4, 70});
        RawHarness h;
        h.Build(Attributes(0, 8192, MilliSeconds(50)));
        std::mt19937 rng(7);
        std::uniform_int_distribution<int32_t> any(std::numeric_limits<int32_t>::min(),
                                                   std::numeric_limits<int32_t>::max());
        std::vector<ReferenceSum> expected(chunks);
        Time t = MicroSeconds(1);
        for (uint32_t sender : senders)
        {
            for (uint32_t c = 0; c < chunks; ++c)
            {
                std::vector<int32_t> values(elements);
                for (uint32_t e = 0; e < elements; ++e)
                {
                    values[e] = any(rng);
                }
                // Fixed extremes so every run exercises overflow both ways and -1.
                values[0] = std::numeric_limits<int32_t>::max();
                values[1] = std::numeric_limits<int32_t>::min();
                values[2] = -1;
                values[3] = -static_cast<int32_t>(sender);
                expected[c].Add(values);
                Ptr<Packet> payload = GradientPayload::CreateReal(
                    DataHeader(members, static_cast<uint16_t>(sender), c, chunks),
                    values);
                h.InjectFromRouter(t,
                                   MakeUdp(payload, SenderAddress(sender), ISLAND_ADDRESS, PORT));
                t += MicroSeconds(1);
            }
        }
        Ptr<FpgaAggregatorNetDevice> fpga = h.fpga;
        h.Run();

        NS_TEST_ASSERT_MSG_EQ(h.atIsland.size(), chunks, "one aggregate per chunk");
        uint64_t expectedWraps = 0;
        for (const ReferenceSum& r : expected)
        {
            expectedWraps += r.wraps;
        }
        NS_TEST_ASSERT_MSG_GT(expectedWraps, 0u, "the test exercises overflow");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetWrapCount(), expectedWraps, "wrapped additions");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetAggregatedCount(), senders.size() * chunks, "absorbed");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetCompleteCount(), chunks, "complete aggregates");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetPartialCount(), 0u, "no partial aggregates");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetSlotsInUse(), 0u, "all slots freed");
        std::vector<bool> seen(chunks, false);
        for (Ptr<const Packet> frame : h.atIsland)
        {
            Decoded d = Decode(frame);
            NS_TEST_ASSERT_MSG_EQ(d.valid, true, "aggregate parses");
            NS_TEST_ASSERT_MSG_EQ(d.header.GetType(), GradientHeader::AGGREGATE, "type");
            NS_TEST_ASSERT_MSG_EQ(d.header.GetContributors(),
                                  Bitmap(senders),
                                  "contributors: every member but the island");
            NS_TEST_ASSERT_MSG_EQ(d.header.GetMembers(), members, "members kept");
            NS_TEST_ASSERT_MSG_EQ(d.header.GetSender(), senders[0], "first contributor");
            NS_TEST_ASSERT_MSG_EQ(d.ip.GetDestination(), ISLAND_ADDRESS, "to the island");
            NS_TEST_ASSERT_MSG_EQ(d.ip.GetSource(), SenderAddress(senders[0]), "from the first");
            NS_TEST_ASSERT_MSG_EQ(d.ip.GetPayloadSize(), frame->GetSize() - 20, "IPv4 length");
            NS_TEST_ASSERT_MSG_EQ(d.udp.GetDestinationPort(), PORT, "UDP port");
            const uint32_t c = d.header.GetChunkIndex();
            NS_TEST_ASSERT_MSG_LT(c, chunks, "chunk index");
            NS_TEST_ASSERT_MSG_EQ(seen[c], false, "one aggregate for chunk " << c);
            seen[c] = true;
            NS_TEST_ASSERT_MSG_EQ(d.values.size(), elements, "element count");
            for (uint32_t e = 0; e < elements; ++e)
            {
                NS_TEST_ASSERT_MSG_EQ(int64_t{d.values[e]},
                                      expected[c].sum[e],
                                      "chunk " << c << " element " << e);
            }
        }
    }
};

/**
 * \ingroup wan-training-tests
 * A second copy from a sender already in the slot is absorbed and counted, not added.
 */
class FpgaDuplicateTestCase : public TestCase
{
  public:
    FpgaDuplicateTestCase()
        : TestCase("duplicates are not counted twice")
    {
    }

  private:
    void DoRun() override
    {
        const IslandBitmap members = Bitmap({0, 1, 2, 3});
        RawHarness h;
        h.Build(Attributes(0, 8192, MilliSeconds(50)));
        // Sender 2's copy arrives twice before sender 3 completes the slot.
        const std::vector<uint32_t> order = {1, 2, 2, 3};
        for (size_t i = 0; i < order.size(); ++i)
        {
            const uint16_t sender = static_cast<uint16_t>(order[i]);
            std::vector<int32_t> values = {int32_t(sender) * 10, -int32_t(sender)};
            Ptr<Packet> payload =
                GradientPayload::CreateReal(DataHeader(members, sender, 0, 1), values);
            h.InjectFromRouter(MicroSeconds(1 + i),
                               MakeUdp(payload, SenderAddress(sender), ISLAND_ADDRESS, PORT));
        }
        Ptr<FpgaAggregatorNetDevice> fpga = h.fpga;
        h.Run();
        NS_TEST_ASSERT_MSG_EQ(h.atIsland.size(), 1u, "one packet reaches the island");
        Decoded d = Decode(h.atIsland[0]);
        NS_TEST_ASSERT_MSG_EQ(d.valid, true, "parses");
        NS_TEST_ASSERT_MSG_EQ(d.header.GetType(), GradientHeader::AGGREGATE, "aggregate");
        NS_TEST_ASSERT_MSG_EQ(d.values[0], 10 + 20 + 30, "sender 2 added once");
        NS_TEST_ASSERT_MSG_EQ(d.values[1], -1 - 2 - 3, "sender 2 added once");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetDuplicateCount(), 1u, "one duplicate");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetAggregatedCount(), 3u, "three contributions");
    }
};

/**
 * \ingroup wan-training-tests
 * A resend (FLAG_RETRANSMISSION, sent to the whole group because another island asked) of a
 * contribution that an open slot already holds is absorbed: the slot's aggregate brings it,
 * and the island would otherwise hold the sender twice and discard that aggregate. A resend
 * from a sender the slot lacks, or of a chunk without an open slot, passes to the island.
 */
class FpgaResendAbsorbedTestCase : public TestCase
{
  public:
    FpgaResendAbsorbedTestCase()
        : TestCase("a resend the open slot already holds is absorbed")
    {
    }

  private:
    void DoRun() override
    {
        typedef FpgaAggregatorNetDevice F;
        const IslandBitmap members = Bitmap({0, 1, 2, 3});
        RawHarness h;
        h.Build(Attributes(0, 8192, MilliSeconds(50)));

        struct Send
        {
            uint16_t sender;
            uint32_t chunk;
            bool resend;
        };

        // Senders 1 and 2 open chunk 0's slot; resends of 1 (held), 3 (not held) and of
        // chunk 5 (no slot) follow; sender 3's first pass completes the slot.
        const std::vector<Send> sends =
            {{1, 0, false}, {2, 0, false}, {1, 0, true}, {3, 0, true}, {1, 5, true}, {3, 0, false}};
        for (size_t i = 0; i < sends.size(); ++i)
        {
            GradientHeader header = DataHeader(members, sends[i].sender, sends[i].chunk, 8);
            header.SetFlags(sends[i].resend ? GradientHeader::FLAG_RETRANSMISSION : 0);
            std::vector<int32_t> values = {int32_t(sends[i].sender) * 10, 1};
            h.InjectFromRouter(MicroSeconds(1 + i),
                               MakeUdp(GradientPayload::CreateReal(header, values),
                                       SenderAddress(sends[i].sender),
                                       ISLAND_ADDRESS,
                                       PORT));
        }
        Ptr<FpgaAggregatorNetDevice> fpga = h.fpga;
        h.Run();
        NS_TEST_ASSERT_MSG_EQ(h.atIsland.size(), 3u, "two resends and the aggregate");
        const Decoded first = Decode(h.atIsland[0]);
        const Decoded second = Decode(h.atIsland[1]);
        const Decoded sum = Decode(h.atIsland[2]);
        NS_TEST_ASSERT_MSG_EQ(first.header.GetSender(), 3u, "sender 3's resend passed");
        NS_TEST_ASSERT_MSG_EQ(first.header.GetChunkIndex(), 0u, "of chunk 0");
        NS_TEST_ASSERT_MSG_EQ(second.header.GetChunkIndex(), 5u, "chunk 5's resend passed");
        NS_TEST_ASSERT_MSG_EQ(sum.header.GetType(), GradientHeader::AGGREGATE, "aggregate");
        NS_TEST_ASSERT_MSG_EQ((sum.header.GetContributors() == Bitmap({1, 2, 3})),
                              true,
                              "complete");
        NS_TEST_ASSERT_MSG_EQ(sum.values[0], 10 + 20 + 30, "sender 1 added once");
        NS_TEST_ASSERT_MSG_EQ(sum.values[1], 3, "three contributions");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetDuplicateCount(), 1u, "sender 1's resend absorbed");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetPassThroughCount(F::PASS_RETRANSMISSION), 2u, "passed");
    }
};

/**
 * \ingroup wan-training-tests
 * A slot that can no longer complete is flushed at once: sender 2's chunk 1 is lost, so its
 * chunk 2 tells the FPGA that slot 1 will never see it; sender 3 never sends chunk 2, and
 * its END says so. Both partial aggregates leave exactly as long after the packet that
 * settled them as the complete aggregate of chunk 0 leaves after its last contribution (the
 * same pipeline and link), long before Timeout. Without EarlyFlush they wait for Timeout.
 */
class FpgaEarlyFlushTestCase : public TestCase
{
  public:
    FpgaEarlyFlushTestCase()
        : TestCase("a slot whose missing senders went past it is flushed at once")
    {
    }

  private:
    /**
     * \param early EarlyFlush \param timeout Timeout
     * \param arrivals receives the island's packets' arrival times by chunk
     * \param injected receives the injection time of chunk 0's last contribution, of sender
     *        2's chunk 2 and of sender 3's END
     * \param bitmaps receives the aggregates' contributors by chunk
     * \param settled receives, by chunk, whether the aggregate carries FLAG_SETTLED
     * \param fpga receives the device
     */
    void Run(bool early,
             Time timeout,
             std::map<uint32_t, Time>& arrivals,
             std::vector<Time>& injected,
             std::map<uint32_t, IslandBitmap>& bitmaps,
             std::map<uint32_t, bool>& settled,
             Ptr<FpgaAggregatorNetDevice>& fpga)
    {
        const IslandBitmap members = Bitmap({0, 1, 2, 3});
        const uint32_t chunks = 3;
        RawHarness h;
        auto attributes = Attributes(0, 8192, timeout);
        attributes["EarlyFlush"] = Create<BooleanValue>(early);
        h.Build(attributes);
        Time t = MicroSeconds(1);
        auto send = [&](uint16_t sender, uint32_t chunk) {
            const std::vector<int32_t> values = {int32_t(sender), int32_t(chunk)};
            h.InjectFromRouter(
                t,
                MakeUdp(
                    GradientPayload::CreateReal(DataHeader(members, sender, chunk, chunks), values),
                    SenderAddress(sender),
                    ISLAND_ADDRESS,
                    PORT));
            t += MicroSeconds(10);
        };
        send(1, 0);
        send(2, 0);
        send(3, 0);
        injected.push_back(t - MicroSeconds(10));
        send(1, 1);
        send(3, 1); // sender 2's chunk 1 was lost on the way
        send(1, 2);
        send(2, 2); // settles slot 1: sender 2 went past chunk 1
        injected.push_back(t - MicroSeconds(10));
        GradientHeader end = DataHeader(members, 3, chunks - 1, chunks);
        end.SetType(GradientHeader::END);
        h.InjectFromRouter(
            t,
            MakeUdp(GradientPayload::CreateVirtual(end), SenderAddress(3), ISLAND_ADDRESS, PORT));
        injected.push_back(t);
        fpga = h.fpga;
        h.Run();
        for (size_t i = 0; i < h.atIsland.size(); ++i)
        {
            Decoded d = Decode(h.atIsland[i]);
            if (d.valid && d.header.GetType() == GradientHeader::AGGREGATE)
            {
                arrivals[d.header.GetChunkIndex()] = h.atIslandTime[i];
                bitmaps[d.header.GetChunkIndex()] = d.header.GetContributors();
                settled[d.header.GetChunkIndex()] = d.header.HasFlag(GradientHeader::FLAG_SETTLED);
            }
        }
    }

    void DoRun() override
    {
        std::map<uint32_t, Time> at;
        std::vector<Time> injected;
        std::map<uint32_t, IslandBitmap> bitmaps;
        std::map<uint32_t, bool> settled;
        Ptr<FpgaAggregatorNetDevice> fpga;
        Run(true, MilliSeconds(50), at, injected, bitmaps, settled, fpga);
        NS_TEST_ASSERT_MSG_EQ(at.size(), 3u, "three aggregates");
        const Time offset = at[0] - injected[0]; // pipeline and link, from a complete slot
        NS_TEST_EXPECT_MSG_EQ(at[1], injected[1] + offset, "slot 1 flushed by sender 2's chunk 2");
        NS_TEST_EXPECT_MSG_EQ(at[2], injected[2] + offset, "slot 2 flushed by sender 3's END");
        NS_TEST_EXPECT_MSG_EQ(bitmaps[1], Bitmap({1, 3}), "slot 1 lacks sender 2");
        NS_TEST_EXPECT_MSG_EQ(bitmaps[2], Bitmap({1, 2}), "slot 2 lacks sender 3");
        NS_TEST_EXPECT_MSG_EQ(fpga->GetEarlyFlushCount(), 2u, "two early flushes");
        NS_TEST_EXPECT_MSG_EQ(fpga->GetPartialCount(), 2u, "two partial aggregates");
        NS_TEST_EXPECT_MSG_EQ(fpga->GetCompleteCount(), 1u, "chunk 0 complete");
        NS_TEST_EXPECT_MSG_EQ(settled[0], false, "a complete aggregate is not flagged settled");
        NS_TEST_EXPECT_MSG_EQ(settled[1], true, "an early partial is flagged settled");
        NS_TEST_EXPECT_MSG_EQ(settled[2], true, "an early partial (END) is flagged settled");

        // Without early flushes the same slots wait for Timeout.
        std::map<uint32_t, Time> late;
        std::vector<Time> lateInjected;
        bitmaps.clear();
        settled.clear();
        Run(false, MilliSeconds(50), late, lateInjected, bitmaps, settled, fpga);
        NS_TEST_EXPECT_MSG_GT(late[1], MilliSeconds(50), "slot 1 waits for Timeout");
        NS_TEST_EXPECT_MSG_EQ(settled[1], false, "a partial after Timeout is not settled");
        NS_TEST_EXPECT_MSG_EQ(settled[2], false, "a partial after Timeout is not settled");
        NS_TEST_EXPECT_MSG_EQ(fpga->GetEarlyFlushCount(), 0u, "no early flush");
    }
};

/**
 * \ingroup wan-training-tests
 * With SlotCount 2 and 4 chunks, chunks 2 and 3 find no slot: they pass through byte for
 * byte; chunks 0 and 1 are still aggregated exactly.
 */
class FpgaSlotExhaustionTestCase : public TestCase
{
  public:
    FpgaSlotExhaustionTestCase()
        : TestCase("slot exhaustion passes packets through untouched")
    {
    }

  private:
    void DoRun() override
    {
        const IslandBitmap members = Bitmap({0, 1, 2, 3});
        const uint32_t chunks = 4;
        RawHarness h;
        // Sender 3 goes out of chunk order on purpose (no real path does): early flushes,
        // which rely on the order, are off.
        auto attributes = Attributes(0, 2, MilliSeconds(50));
        attributes["EarlyFlush"] = Create<BooleanValue>(false);
        h.Build(attributes);
        std::vector<std::vector<uint8_t>> overflowBytes;
        Time t = MicroSeconds(1);
        // Sender 3 sends its overflowing chunks first: chunks 0 and 1 hold both slots until
        // sender 3 completes them.
        const std::vector<uint32_t> orderOf12 = {0, 1, 2, 3};
        const std::vector<uint32_t> orderOf3 = {2, 3, 0, 1};
        for (uint16_t sender = 1; sender <= 3; ++sender)
        {
            for (uint32_t c : (sender == 3 ? orderOf3 : orderOf12))
            {
                std::vector<int32_t> values = {int32_t(sender), int32_t(c), -7};
                Ptr<Packet> frame = MakeUdp(
                    GradientPayload::CreateReal(DataHeader(members, sender, c, chunks), values),
                    SenderAddress(sender),
                    ISLAND_ADDRESS,
                    PORT);
                if (c >= 2)
                {
                    overflowBytes.push_back(ToBytes(frame));
                }
                h.InjectFromRouter(t, frame);
                t += MicroSeconds(1);
            }
        }
        Ptr<FpgaAggregatorNetDevice> fpga = h.fpga;
        h.Run();

        // 2 aggregates + 3 senders x 2 overflowing chunks.
        NS_TEST_ASSERT_MSG_EQ(h.atIsland.size(), 2u + 6u, "packets at the island");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetPassThroughCount(FpgaAggregatorNetDevice::PASS_OVERFLOW),
                              6u,
                              "overflow count");
        uint32_t aggregates = 0;
        std::vector<std::vector<uint8_t>> passed;
        for (Ptr<const Packet> frame : h.atIsland)
        {
            Decoded d = Decode(frame);
            NS_TEST_ASSERT_MSG_EQ(d.valid, true, "parses");
            if (d.header.GetType() == GradientHeader::AGGREGATE)
            {
                ++aggregates;
                NS_TEST_ASSERT_MSG_LT(d.header.GetChunkIndex(), 2u, "aggregated chunk");
                NS_TEST_ASSERT_MSG_EQ(d.values[0], 1 + 2 + 3, "sum of sender indices");
                NS_TEST_ASSERT_MSG_EQ(d.values[1], int32_t(3 * d.header.GetChunkIndex()), "sum");
                NS_TEST_ASSERT_MSG_EQ(d.values[2], -21, "sum of -7 three times");
            }
            else
            {
                passed.push_back(ToBytes(frame));
            }
        }
        NS_TEST_ASSERT_MSG_EQ(aggregates, 2u, "aggregates");
        NS_TEST_ASSERT_MSG_EQ(passed.size(), overflowBytes.size(), "passed through");
        for (size_t i = 0; i < passed.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ((passed[i] == overflowBytes[i]), true, "bytes of packet " << i);
        }
    }
};

/**
 * \ingroup wan-training-tests
 * A missing contribution: after Timeout the slot is flushed as a partial aggregate with
 * exactly the contributors that arrived, and their exact sum.
 */
class FpgaPartialTestCase : public TestCase
{
  public:
    FpgaPartialTestCase()
        : TestCase("missing contribution gives a partial aggregate after the timeout")
    {
    }

  private:
    void DoRun() override
    {
        const IslandBitmap members = Bitmap({0, 1, 2, 3, 4});
        const Time timeout = MilliSeconds(5);
        RawHarness h;
        h.Build(Attributes(0, 8192, timeout));
        // Island 3 never sends; island 2 sends a virtual payload to a second slot as well.
        const std::vector<uint16_t> present = {1, 2, 4};
        for (size_t i = 0; i < present.size(); ++i)
        {
            std::vector<int32_t> values = {int32_t(present[i]) * 1000, -5};
            Ptr<Packet> payload =
                GradientPayload::CreateReal(DataHeader(members, present[i], 0, 2), values);
            h.InjectFromRouter(MicroSeconds(1 + i),
                               MakeUdp(payload, SenderAddress(present[i]), ISLAND_ADDRESS, PORT));
        }
        GradientHeader virtualHeader = DataHeader(members, 2, 1, 2);
        virtualHeader.SetElementCount(100);
        h.InjectFromRouter(MicroSeconds(10),
                           MakeUdp(GradientPayload::CreateVirtual(virtualHeader),
                                   SenderAddress(2),
                                   ISLAND_ADDRESS,
                                   PORT));
        Ptr<FpgaAggregatorNetDevice> fpga = h.fpga;
        h.Run();

        NS_TEST_ASSERT_MSG_EQ(h.atIsland.size(), 2u, "two partial aggregates");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetPartialCount(), 2u, "partial count");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetCompleteCount(), 0u, "complete count");
        for (size_t i = 0; i < h.atIsland.size(); ++i)
        {
            Decoded d = Decode(h.atIsland[i]);
            NS_TEST_ASSERT_MSG_EQ(d.valid, true, "parses");
            NS_TEST_ASSERT_MSG_EQ(d.header.GetType(), GradientHeader::AGGREGATE, "aggregate");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(h.atIslandTime[i], timeout, "not before the timeout");
            if (d.header.GetChunkIndex() == 0)
            {
                NS_TEST_ASSERT_MSG_EQ(d.header.GetContributors(),
                                      Bitmap({1, 2, 4}),
                                      "bitmap names exactly who arrived");
                NS_TEST_ASSERT_MSG_EQ(d.values[0], 7000, "1000 + 2000 + 4000");
                NS_TEST_ASSERT_MSG_EQ(d.values[1], -15, "three times -5");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(d.header.GetContributors(), Bitmap({2}), "virtual bitmap");
                NS_TEST_ASSERT_MSG_EQ(d.header.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD),
                                      false,
                                      "virtual stays virtual");
                NS_TEST_ASSERT_MSG_EQ(d.header.GetElementCount(), 100u, "virtual size kept");
            }
        }
    }
};

/**
 * \ingroup wan-training-tests
 * The set-up of the tests of Timeout alone: a RawHarness whose FPGA never flushes early, so
 * that a slot a sender skips stays open until its Timeout, traced where slots open and
 * aggregates leave, and one clique's chunks (virtual, 16 elements) injected from the router.
 */
class TimeoutHarness : public RawHarness
{
  public:
    /**
     * \param members the clique \param timeout the FPGA's Timeout
     * \param opened sink of SlotAllocated \param emitted sink of AggregateEmitted
     */
    void BuildTimeoutOnly(const IslandBitmap& members,
                          Time timeout,
                          const CallbackBase& opened,
                          const CallbackBase& emitted)
    {
        m_members = members;
        auto attributes = Attributes(0, 64, timeout);
        attributes["EarlyFlush"] = Create<BooleanValue>(false);
        Build(attributes);
        fpga->TraceConnectWithoutContext("SlotAllocated", opened);
        fpga->TraceConnectWithoutContext("AggregateEmitted", emitted);
    }

    /** Send \p sender's chunk \p chunk (of 8) of clique \p clique from the router at \p t. */
    void Inject(Time t, uint16_t sender, uint32_t chunk, uint32_t clique)
    {
        GradientHeader header = DataHeader(m_members, sender, chunk, 8);
        header.SetCliqueId(clique);
        header.SetElementCount(16);
        InjectFromRouter(t,
                         MakeUdp(GradientPayload::CreateVirtual(header),
                                 SenderAddress(sender),
                                 ISLAND_ADDRESS,
                                 PORT));
    }

  private:
    IslandBitmap m_members; //!< the clique injected chunks belong to
};

/**
 * \ingroup wan-training-tests
 * Every slot times out at exactly its own allocation time plus the Timeout in force when it
 * opened, independently of other flows' slots: a slot completed in time never flushes, and a
 * slot of another clique opened after Timeout was shortened flushes before an older slot with
 * a longer deadline.
 */
class FpgaDeadlineTestCase : public TestCase
{
  public:
    FpgaDeadlineTestCase()
        : TestCase("each slot flushes at its own deadline; completed slots never do")
    {
    }

  private:
    std::map<uint32_t, Time> m_opened;  //!< chunk -> allocation time
    std::map<uint32_t, Time> m_emitted; //!< chunk -> emission time
    std::map<uint32_t, bool> m_full;    //!< chunk -> complete

    void Opened(const GradientHeader& header)
    {
        m_opened[header.GetChunkIndex()] = Simulator::Now();
    }

    void Emitted(Ptr<const Packet> packet, const GradientHeader& header, bool complete)
    {
        m_emitted[header.GetChunkIndex()] = Simulator::Now();
        m_full[header.GetChunkIndex()] = complete;
    }

    static void Shorten(Ptr<FpgaAggregatorNetDevice> fpga, Time timeout)
    {
        fpga->SetAttribute("Timeout", TimeValue(timeout));
    }

    void DoRun() override
    {
        const Time longTimeout = MilliSeconds(1);
        const Time shortTimeout = MicroSeconds(100);
        TimeoutHarness h;
        // Senders skip chunks here to leave slots incomplete: only Timeout may flush them.
        h.BuildTimeoutOnly(Bitmap({0, 1, 2}),
                           longTimeout,
                           MakeCallback(&FpgaDeadlineTestCase::Opened, this),
                           MakeCallback(&FpgaDeadlineTestCase::Emitted, this));
        // Chunks 0 and 2 get one contribution of two; chunk 1 gets both, 10 us apart.
        h.Inject(MicroSeconds(1), 1, 0, 0);
        h.Inject(MicroSeconds(50), 1, 1, 0);
        h.Inject(MicroSeconds(60), 2, 1, 0);
        h.Inject(MicroSeconds(100), 2, 2, 0);
        // Timeout shortened at 200 us: chunk 3 of clique 1 (opened at 300 us) is due at 400 us,
        // before chunk 0 of clique 0 (due at 1001 us), which keeps the Timeout it opened with.
        Simulator::Schedule(MicroSeconds(200),
                            &FpgaDeadlineTestCase::Shorten,
                            h.fpga,
                            shortTimeout);
        h.Inject(MicroSeconds(300), 1, 3, 1);
        h.Run();

        NS_TEST_ASSERT_MSG_EQ(m_opened.size(), 4u, "four slots opened");
        NS_TEST_ASSERT_MSG_EQ(m_emitted.size(), 4u, "four aggregates emitted, one per slot");
        NS_TEST_ASSERT_MSG_EQ(h.fpga->GetPartialCount(), 3u, "chunks 0, 2 and 3 partial");
        NS_TEST_ASSERT_MSG_EQ(h.fpga->GetCompleteCount(), 1u, "chunk 1 complete");
        NS_TEST_ASSERT_MSG_EQ(m_full[1], true, "chunk 1 complete");
        // The in-box link adds the same serialisation and delay to every injected frame, so
        // the second contribution of chunk 1 arrives 10 us after the first; the aggregate
        // leaves PipelineLatency (default 500 ns) later.
        NS_TEST_ASSERT_MSG_EQ(m_emitted[1],
                              m_opened[1] + MicroSeconds(10) + NanoSeconds(500),
                              "chunk 1 on completion");
        NS_TEST_ASSERT_MSG_EQ(m_emitted[0], m_opened[0] + longTimeout, "chunk 0 at its deadline");
        NS_TEST_ASSERT_MSG_EQ(m_emitted[2], m_opened[2] + longTimeout, "chunk 2 at its deadline");
        NS_TEST_ASSERT_MSG_EQ(m_emitted[3], m_opened[3] + shortTimeout, "chunk 3, shorter timeout");
        NS_TEST_ASSERT_MSG_LT(m_emitted[3], m_emitted[0], "the later slot flushes first");
        NS_TEST_ASSERT_MSG_EQ(h.fpga->GetSlotsInUse(), 0u, "every slot freed");
    }
};

/**
 * \ingroup wan-training-tests
 * Aggregates of one flow leave in chunk order: a slot that times out first takes the open
 * slots of its flow with lower chunks with it (partial, lowest first, at its own deadline),
 * so an island never sees a sender's later chunk before an earlier one the FPGA still holds.
 */
class FpgaChunkOrderTestCase : public TestCase
{
  public:
    FpgaChunkOrderTestCase()
        : TestCase("a slot timing out first takes its flow's earlier open slots, in chunk order")
    {
    }

  private:
    std::vector<std::pair<uint32_t, uint32_t>> m_emitted; //!< (clique, chunk), in order
    std::vector<Time> m_at;                               //!< their emission times
    std::map<uint32_t, Time> m_opened;                    //!< clique * 100 + chunk -> time

    void Opened(const GradientHeader& header)
    {
        m_opened[header.GetCliqueId() * 100 + header.GetChunkIndex()] = Simulator::Now();
    }

    void Emitted(Ptr<const Packet> packet, const GradientHeader& header, bool complete)
    {
        m_emitted.emplace_back(header.GetCliqueId(), header.GetChunkIndex());
        m_at.push_back(Simulator::Now());
    }

    void DoRun() override
    {
        RunLateOpenedSlots();
        m_emitted.clear();
        m_at.clear();
        m_opened.clear();
        RunChain();
    }

    /** The FPGA's Timeout in both scenarios. */
    const Time m_timeout = MilliSeconds(1);

    /** \param h a harness: build it for members 0 to 3, traced by this test */
    void Build(TimeoutHarness& h)
    {
        h.BuildTimeoutOnly(Bitmap({0, 1, 2, 3}),
                           m_timeout,
                           MakeCallback(&FpgaChunkOrderTestCase::Opened, this),
                           MakeCallback(&FpgaChunkOrderTestCase::Emitted, this));
    }

    /** Slots opened late after a loss leave before a higher chunk of their flow. */
    void RunLateOpenedSlots()
    {
        TimeoutHarness h;
        Build(h);
        // Sender 1's chunks 2 and 3 were lost: chunks 4 and 5 open their slots first (sender
        // 1), chunks 2 and 3 only when sender 2's copies arrive 40 and 50 us later. Sender 3 is
        // late and never comes. Clique 1's chunk 1, opened between them, is another flow.
        h.Inject(MicroSeconds(10), 1, 4, 0);
        h.Inject(MicroSeconds(20), 1, 5, 0);
        h.Inject(MicroSeconds(30), 1, 1, 1);
        h.Inject(MicroSeconds(50), 2, 2, 0);
        h.Inject(MicroSeconds(60), 2, 3, 0);
        h.Inject(MicroSeconds(70), 2, 4, 0);
        h.Inject(MicroSeconds(80), 2, 5, 0);
        h.Run();

        // Slot 4 opened first: at its deadline it goes, after 2 and 3 (opened later, deadlines
        // not due). Slot 5 goes at its own deadline, then clique 1's chunk 1 at its own.
        NS_TEST_ASSERT_MSG_EQ(m_emitted.size(), 5u, "five partial aggregates");
        NS_TEST_ASSERT_MSG_EQ(h.fpga->GetPartialCount(), 5u, "all partial");
        const std::vector<std::pair<uint32_t, uint32_t>> order = {{0, 2},
                                                                  {0, 3},
                                                                  {0, 4},
                                                                  {0, 5},
                                                                  {1, 1}};
        for (size_t i = 0; i < order.size() && i < m_emitted.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(m_emitted[i].first, order[i].first, "clique of emission " << i);
            NS_TEST_ASSERT_MSG_EQ(m_emitted[i].second, order[i].second, "chunk of emission " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(m_emitted.size(), order.size(), "every emission checked");
        const Time due4 = m_opened[4] + m_timeout;
        NS_TEST_ASSERT_MSG_EQ(m_at[0], due4, "chunk 2 leaves at chunk 4's deadline");
        NS_TEST_ASSERT_MSG_EQ(m_at[1], due4, "chunk 3 leaves at chunk 4's deadline");
        NS_TEST_ASSERT_MSG_EQ(m_at[2], due4, "chunk 4 at its deadline");
        NS_TEST_ASSERT_MSG_EQ(m_at[3], m_opened[5] + m_timeout, "chunk 5 at its own deadline");
        NS_TEST_ASSERT_MSG_EQ(m_at[4], m_opened[101] + m_timeout, "clique 1 at its own deadline");
        NS_TEST_ASSERT_MSG_LT(m_opened[2], m_opened[4] + m_timeout, "chunk 2 left early");
        NS_TEST_ASSERT_MSG_GT(m_opened[2] + m_timeout, due4, "chunk 2's own deadline was later");
        NS_TEST_ASSERT_MSG_EQ(h.fpga->GetSlotsInUse(), 0u, "every slot freed");
    }

    /**
     * The slots taken along grow the senders followed: slot 5 (senders 1, 2) times out first;
     * going down, slot 4 (sender 3 only) stays, slot 3 (sender 2) and slot 2 (senders 2, 3)
     * go, and with slot 2 sender 3 joins, so slot 1 (sender 3) goes too. Slot 4, passed before
     * sender 3 joined, leaves at its own deadline.
     */
    void RunChain()
    {
        TimeoutHarness h;
        Build(h);
        h.Inject(MicroSeconds(10), 1, 5, 0);
        h.Inject(MicroSeconds(20), 3, 4, 0);
        h.Inject(MicroSeconds(30), 2, 3, 0);
        h.Inject(MicroSeconds(40), 2, 2, 0);
        h.Inject(MicroSeconds(45), 3, 2, 0);
        h.Inject(MicroSeconds(50), 3, 1, 0);
        h.Inject(MicroSeconds(60), 2, 5, 0);
        h.Run();

        const std::vector<uint32_t> order = {1, 2, 3, 5, 4};
        NS_TEST_ASSERT_MSG_EQ(m_emitted.size(), order.size(), "five partial aggregates");
        for (size_t i = 0; i < order.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(m_emitted[i].second, order[i], "chunk of emission " << i);
        }
        const Time due5 = m_opened[5] + m_timeout;
        for (size_t i = 0; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(m_at[i], due5, "emission " << i << " at chunk 5's deadline");
        }
        NS_TEST_ASSERT_MSG_EQ(m_at[4], m_opened[4] + m_timeout, "chunk 4 at its own deadline");
        NS_TEST_ASSERT_MSG_EQ(h.fpga->GetSlotsInUse(), 0u, "every slot freed");
    }
};

/**
 * \ingroup wan-training-tests
 * A burst of aggregates waits in the FPGA (PortBacklog), not in the island port's queue: 20
 * one-sender slots, opened 0.7 us apart by the 100 Gbit/s in-box link, time out as fast, but
 * the 10 Gbit/s access port takes 6.6 us per aggregate and its queue holds 2 packets. With
 * PortBacklog 2 all 20 reach the island, back to back: aggregate i arrives i x (bytes + 2 PPP
 * bytes) x 8 / 10 Gbit/s after the first. Letting the port hold them all (PortBacklog 1000)
 * overflows its queue.
 */
class FpgaOutputBurstTestCase : public TestCase
{
  public:
    FpgaOutputBurstTestCase()
        : TestCase("a burst of aggregates waits in the FPGA and leaves at the port's rate")
    {
    }

  private:
    uint32_t m_drops{0}; //!< packets the island port's queue refused

    void Dropped(Ptr<const Packet> packet)
    {
        ++m_drops;
    }

    /** \param backlog PortBacklog \param h the harness, run */
    void Run(uint32_t backlog, RawHarness& h)
    {
        const IslandBitmap members = Bitmap({0, 1, 2});
        const uint32_t chunks = 20;
        auto attributes = Attributes(0, 64, MicroSeconds(100));
        attributes["EarlyFlush"] = Create<BooleanValue>(false);
        attributes["PortBacklog"] = Create<UintegerValue>(backlog);
        h.Build(attributes);
        Ptr<PointToPointNetDevice> port =
            DynamicCast<PointToPointNetDevice>(h.fpga->GetIslandPort());
        port->GetQueue()->SetMaxSize(QueueSize("2p"));
        m_drops = 0;
        port->TraceConnectWithoutContext("MacTxDrop",
                                         MakeCallback(&FpgaOutputBurstTestCase::Dropped, this));
        for (uint32_t c = 0; c < chunks; ++c)
        {
            GradientHeader header = DataHeader(members, 1, c, chunks);
            header.SetElementCount(2000);
            h.InjectFromRouter(MicroSeconds(1),
                               MakeUdp(GradientPayload::CreateVirtual(header),
                                       SenderAddress(1),
                                       ISLAND_ADDRESS,
                                       PORT));
        }
        h.Run();
    }

    void DoRun() override
    {
        RawHarness held;
        Run(2, held);
        NS_TEST_ASSERT_MSG_EQ(held.atIsland.size(), 20u, "every aggregate reaches the island");
        NS_TEST_EXPECT_MSG_EQ(m_drops, 0u, "no queue drop");
        const uint32_t bytes = held.atIsland[0]->GetSize() + 2; // IPv4 packet + PPP header
        const Time perPacket = DataRate(RawHarness::ACCESS_BPS).CalculateBytesTxTime(bytes);
        for (uint32_t i = 1; i < held.atIsland.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(held.atIslandTime[i] - held.atIslandTime[0],
                                  perPacket * i,
                                  "aggregate " << i << " right behind the one before");
        }

        RawHarness flooded;
        Run(1000, flooded);
        NS_TEST_EXPECT_MSG_GT(m_drops, 0u, "without holding back, the port's queue overflows");
        NS_TEST_EXPECT_MSG_EQ(flooded.atIsland.size() + m_drops,
                              20u,
                              "what is not dropped arrives");
    }
};

/**
 * \ingroup wan-training-tests
 * Everything that is not aggregatable DATA crosses the FPGA byte for byte, in both
 * directions, and is counted under the right reason.
 */
class FpgaPassThroughTestCase : public TestCase
{
  public:
    FpgaPassThroughTestCase()
        : TestCase("non-aggregatable traffic passes unchanged both ways")
    {
    }

  private:
    void DoRun() override
    {
        typedef FpgaAggregatorNetDevice F;
        const IslandBitmap members = Bitmap({0, 1, 2});
        RawHarness h;
        h.Build(Attributes(0, 8192, MilliSeconds(50)));
        std::vector<std::vector<uint8_t>> inbound;
        std::vector<std::vector<uint8_t>> outbound;
        Time t = MicroSeconds(1);
        auto inject = [&](Ptr<Packet> frame, bool fromRouter) {
            (fromRouter ? inbound : outbound).push_back(ToBytes(frame));
            if (fromRouter)
            {
                h.InjectFromRouter(t, frame);
            }
            else
            {
                h.InjectFromIsland(t, frame);
            }
            t += MicroSeconds(1);
        };

        // Plain UDP to another port, TCP (even to the gradient port), both directions.
        for (bool fromRouter : {true, false})
        {
            Ipv4Address src = fromRouter ? SenderAddress(1) : ISLAND_ADDRESS;
            Ipv4Address dst = fromRouter ? ISLAND_ADDRESS : SenderAddress(1);
            inject(MakeUdp(Create<Packet>(500), src, dst, 5000), fromRouter);
            for (uint16_t port : {uint16_t(80), PORT})
            {
                TcpHeader tcp;
                tcp.SetSourcePort(40000);
                tcp.SetDestinationPort(port);
                tcp.SetSequenceNumber(SequenceNumber32(12345));
                tcp.SetFlags(TcpHeader::ACK);
                Ptr<Packet> segment = Create<Packet>(1000);
                segment->AddHeader(tcp);
                inject(AddIpv4(segment, src, dst, 6), fromRouter);
            }
            // A gradient DATA going the other way is outbound traffic: untouched.
            if (!fromRouter)
            {
                inject(MakeUdp(GradientPayload::CreateVirtual(DataHeader(members, 0, 0, 1)),
                               ISLAND_ADDRESS,
                               SenderAddress(1),
                               PORT),
                       false);
            }
        }
        // Inbound gradient traffic the FPGA must not aggregate.
        GradientHeader nack = DataHeader(members, 1, 0, 4);
        nack.SetType(GradientHeader::NACK);
        nack.SetNackRanges({{0, 4}});
        nack.SetContributors(Bitmap({0}));
        inject(
            MakeUdp(GradientPayload::CreateVirtual(nack), SenderAddress(1), ISLAND_ADDRESS, PORT),
            true);
        GradientHeader aggregate = DataHeader(members, 1, 0, 1);
        aggregate.SetType(GradientHeader::AGGREGATE);
        inject(MakeUdp(GradientPayload::CreateVirtual(aggregate),
                       SenderAddress(1),
                       ISLAND_ADDRESS,
                       PORT),
               true);
        GradientHeader resend = DataHeader(members, 1, 0, 1);
        resend.SetFlags(GradientHeader::FLAG_RETRANSMISSION);
        inject(MakeUdp(GradientPayload::CreateReal(resend, {1, 2, 3}),
                       SenderAddress(1),
                       ISLAND_ADDRESS,
                       PORT),
               true);
        GradientHeader noAggregate = DataHeader(members, 2, 0, 1);
        noAggregate.SetFlags(GradientHeader::FLAG_NO_AGGREGATE);
        inject(MakeUdp(GradientPayload::CreateVirtual(noAggregate),
                       SenderAddress(2),
                       ISLAND_ADDRESS,
                       PORT),
               true);
        // A clique the island is not in.
        inject(MakeUdp(GradientPayload::CreateVirtual(DataHeader(Bitmap({1, 2}), 1, 0, 1)),
                       SenderAddress(1),
                       ISLAND_ADDRESS,
                       PORT),
               true);
        // Garbage to the gradient port.
        std::vector<uint8_t> junk(80, 0xab);
        inject(MakeUdp(Create<Packet>(junk.data(), 80), SenderAddress(1), ISLAND_ADDRESS, PORT),
               true);
        // A truncated gradient header.
        Ptr<Packet> cut = GradientPayload::CreateVirtual(DataHeader(members, 1, 0, 1));
        cut->RemoveAtEnd(20);
        inject(MakeUdp(cut, SenderAddress(1), ISLAND_ADDRESS, PORT), true);

        Ptr<FpgaAggregatorNetDevice> fpga = h.fpga;
        h.Run();

        NS_TEST_ASSERT_MSG_EQ(h.atIsland.size(), inbound.size(), "inbound all delivered");
        NS_TEST_ASSERT_MSG_EQ(h.atRouter.size(), outbound.size(), "outbound all delivered");
        for (size_t i = 0; i < inbound.size() && i < h.atIsland.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ((ToBytes(h.atIsland[i]) == inbound[i]), true, "inbound " << i);
        }
        for (size_t i = 0; i < outbound.size() && i < h.atRouter.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ((ToBytes(h.atRouter[i]) == outbound[i]), true, "outbound " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(fpga->GetPassThroughCount(F::PASS_OUTBOUND), 4u, "outbound");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetPassThroughCount(F::PASS_NOT_GRADIENT), 3u, "UDP + TCP");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetPassThroughCount(F::PASS_NOT_DATA), 2u, "NACK, AGGREGATE");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetPassThroughCount(F::PASS_RETRANSMISSION), 1u, "resend");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetPassThroughCount(F::PASS_NO_AGGREGATE), 1u, "flagged");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetPassThroughCount(F::PASS_NOT_MEMBER), 1u, "other clique");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetPassThroughCount(F::PASS_MALFORMED), 2u, "junk, cut");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetAggregatedCount(), 0u, "nothing aggregated");
        NS_TEST_ASSERT_MSG_EQ(fpga->GetSlotsInUse(), 0u, "no slot opened");
    }
};

/**
 * \ingroup wan-training-tests
 * Multicast DATA (destination a 239/8 group) whose member bitmap holds the island is
 * aggregated; the aggregate goes to the group until the island's address is known, and to
 * the configured IslandAddress otherwise.
 */
class FpgaMulticastTestCase : public TestCase
{
  public:
    FpgaMulticastTestCase()
        : TestCase("multicast DATA is aggregated for member islands")
    {
    }

  private:
    void DoRun() override
    {
        const Ipv4Address group("239.0.0.7");
        for (bool configured : {false, true})
        {
            RawHarness h;
            auto attributes = Attributes(3, 8192, MilliSeconds(50));
            if (configured)
            {
                attributes["IslandAddress"] = Create<Ipv4AddressValue>(ISLAND_ADDRESS);
            }
            h.Build(attributes);
            const IslandBitmap members = Bitmap({1, 2, 3});
            for (uint16_t sender : {uint16_t(1), uint16_t(2)})
            {
                GradientHeader header = DataHeader(members, sender, 0, 1);
                header.SetElementCount(256);
                h.InjectFromRouter(MicroSeconds(sender),
                                   MakeUdp(GradientPayload::CreateVirtual(header),
                                           SenderAddress(sender),
                                           group,
                                           PORT));
            }
            h.Run();
            NS_TEST_ASSERT_MSG_EQ(h.atIsland.size(), 1u, "one aggregate");
            Decoded d = Decode(h.atIsland[0]);
            NS_TEST_ASSERT_MSG_EQ(d.valid, true, "parses");
            NS_TEST_ASSERT_MSG_EQ(d.header.GetContributors(), Bitmap({1, 2}), "both peers");
            NS_TEST_ASSERT_MSG_EQ(d.header.GetElementCount(), 256u, "size kept");
            NS_TEST_ASSERT_MSG_EQ(d.ip.GetDestination(),
                                  (configured ? ISLAND_ADDRESS : group),
                                  "aggregate destination");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * ProcessingRate > 0: inputs queue in a FIFO, each served in size / rate; the aggregate
 * leaves PipelineLatency after the last service ends. The arrival time is derived here from
 * link rates and delays.
 */
class FpgaProcessingRateTestCase : public TestCase
{
  public:
    FpgaProcessingRateTestCase()
        : TestCase("processing rate: FIFO service times")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t rateBps = 1000000000ULL; // 1 Gbps engine behind a 100 Gbps in-box link
        // 242 elements: a 1048-byte frame, 1050 bytes with PPP, so every transmission and
        // service time below is a whole number of nanoseconds.
        const uint32_t ELEMENTS = 242;
        const Time latency = NanoSeconds(700);
        RawHarness h;
        auto attributes = Attributes(0, 8192, MilliSeconds(50));
        attributes["ProcessingRate"] = Create<DataRateValue>(DataRate(rateBps));
        attributes["PipelineLatency"] = Create<TimeValue>(latency);
        h.Build(attributes);
        const IslandBitmap members = Bitmap({0, 1, 2, 3});
        uint32_t frameSize = 0;
        for (uint16_t sender = 1; sender <= 3; ++sender)
        {
            GradientHeader header = DataHeader(members, sender, 0, 1);
            Ptr<Packet> frame =
                MakeUdp(GradientPayload::CreateReal(header, std::vector<int32_t>(ELEMENTS, sender)),
                        SenderAddress(sender),
                        ISLAND_ADDRESS,
                        PORT);
            frameSize = frame->GetSize();
            h.InjectFromRouter(Time(0), frame); // all queued at once on the in-box link
        }
        h.Run();
        NS_TEST_ASSERT_MSG_EQ(h.atIsland.size(), 1u, "one aggregate");
        Decoded d = Decode(h.atIsland[0]);
        NS_TEST_ASSERT_MSG_EQ(d.values[17], 6, "1 + 2 + 3");

        NS_TEST_ASSERT_MSG_EQ(frameSize, 20u + 8u + 52u + 4u * ELEMENTS, "frame size");
        // Reference timeline in nanoseconds.
        const uint32_t ppp = 2; // PPP header on the wire
        auto txNs = [](uint64_t bytes, uint64_t bps) { return bytes * 8 * 1000000000ULL / bps; };
        const uint64_t inBoxTx = txNs(frameSize + ppp, RawHarness::INBOX_BPS);
        const uint64_t service = txNs(frameSize, rateBps);
        uint64_t busy = 0;
        for (uint64_t i = 1; i <= 3; ++i)
        {
            const uint64_t arrival = i * inBoxTx + RawHarness::DELAY_NS;
            busy = std::max(busy, arrival) + service;
        }
        const uint64_t expectedNs = busy + latency.GetNanoSeconds() +
                                    txNs(frameSize + ppp, RawHarness::ACCESS_BPS) +
                                    RawHarness::DELAY_NS;
        NS_TEST_ASSERT_MSG_EQ(h.atIslandTime[0].GetNanoSeconds(),
                              int64_t(expectedNs),
                              "arrival time of the aggregate");
    }
};

/**
 * \ingroup wan-training-tests
 * An IP network with UDP sockets: 8 senders -- IPv4 router -- FPGA -- receiver. With the FPGA
 * the receiver's access link carries exactly 1/8 of the gradient packets and bytes it carries
 * without; the receiver's sums are exact either way. Checksums are enabled, so the emitted
 * IPv4 and UDP headers must be valid to be delivered at all. TCP and non-gradient UDP cross
 * the FPGA unchanged in both directions.
 */
class FpgaNetworkTestCase : public TestCase
{
  public:
    FpgaNetworkTestCase()
        : TestCase("8 senders through an IP router: ingress relief of exactly one eighth")
    {
    }

  private:
    static constexpr uint32_t SENDERS = 8;
    static constexpr uint32_t CHUNKS = 20;
    static constexpr uint32_t ELEMENTS = 300;
    static constexpr uint32_t TCP_BYTES = 200000;

    /** Per-run observations. */
    struct Run
    {
        uint64_t accessPackets{0};              //!< packets the receiver's access link delivered
        uint64_t accessBytes{0};                //!< bytes (PPP header included)
        uint64_t gradientPackets{0};            //!< gradient packets the receiver's socket read
        std::vector<IslandBitmap> covered;      //!< per chunk: contributors seen
        std::vector<std::vector<int64_t>> sums; //!< per chunk: element sums seen
        uint64_t tcpToReceiver{0};              //!< TCP bytes the receiver read
        uint64_t tcpToSender{0};                //!< TCP bytes sender 0 read
        uint64_t udpOther{0};                   //!< non-gradient UDP bytes the receiver read
    };

    Run m_run;                                //!< the run in progress
    std::vector<Ptr<Socket>> m_senderSockets; //!< one UDP socket per sender
    Ptr<Socket> m_tcpSource[2];               //!< [0] sender 0 -> receiver, [1] reverse
    uint32_t m_tcpSent[2];                    //!< bytes queued per TCP source
    IslandBitmap m_members;                   //!< islands 0..8; the receiver is 8

    /** Element e of sender s's chunk c: a formula, mixing signs and magnitudes. */
    static int32_t Value(uint32_t s, uint32_t c, uint32_t e)
    {
        return static_cast<int32_t>((s + 1) * 1000003u * (c + 1) + e * 7919u) -
               static_cast<int32_t>(s * 400000000u);
    }

    void SendChunk(uint32_t s, uint32_t c)
    {
        GradientHeader header = DataHeader(m_members, static_cast<uint16_t>(s), c, CHUNKS);
        std::vector<int32_t> values(ELEMENTS);
        for (uint32_t e = 0; e < ELEMENTS; ++e)
        {
            values[e] = Value(s, c, e);
        }
        m_senderSockets[s]->Send(GradientPayload::CreateReal(header, values));
    }

    void ReceiveGradient(Ptr<Socket> socket)
    {
        Ptr<Packet> packet;
        while ((packet = socket->Recv()))
        {
            GradientHeader header;
            std::vector<int32_t> values;
            if (!GradientPayload::Parse(packet, header, &values))
            {
                continue;
            }
            ++m_run.gradientPackets;
            const uint32_t c = header.GetChunkIndex();
            m_run.covered[c] = m_run.covered[c].Union(header.GetContributors());
            for (uint32_t e = 0; e < values.size(); ++e)
            {
                m_run.sums[c][e] += values[e];
            }
        }
    }

    void ReceiveOtherUdp(Ptr<Socket> socket)
    {
        Ptr<Packet> packet;
        while ((packet = socket->Recv()))
        {
            m_run.udpOther += packet->GetSize();
        }
    }

    void AccessRx(Ptr<const Packet> packet)
    {
        ++m_run.accessPackets;
        m_run.accessBytes += packet->GetSize();
    }

    void Accept(Ptr<Socket> socket, const Address& from)
    {
        socket->SetRecvCallback(MakeCallback(&FpgaNetworkTestCase::TcpRead, this));
    }

    void TcpRead(Ptr<Socket> socket)
    {
        Ptr<Packet> packet;
        while ((packet = socket->Recv()))
        {
            // The receiver's node holds the sink of direction 0.
            (socket->GetNode()->GetId() == m_receiverNodeId ? m_run.tcpToReceiver
                                                            : m_run.tcpToSender) +=
                packet->GetSize();
        }
    }

    void TcpSend(Ptr<Socket> socket, uint32_t available)
    {
        const uint32_t which = socket == m_tcpSource[0] ? 0 : 1;
        while (m_tcpSent[which] < TCP_BYTES && socket->GetTxAvailable() > 0)
        {
            const uint32_t size =
                std::min({TCP_BYTES - m_tcpSent[which], socket->GetTxAvailable(), 1400u});
            const int sent = socket->Send(Create<Packet>(size));
            if (sent <= 0)
            {
                break;
            }
            m_tcpSent[which] += static_cast<uint32_t>(sent);
        }
    }

    void TcpConnected(Ptr<Socket> socket)
    {
        TcpSend(socket, socket->GetTxAvailable());
    }

    void StartTcp(uint32_t which, Ipv4Address sink)
    {
        m_tcpSource[which]->Connect(InetSocketAddress(sink, 9000 + which));
    }

    void SendOtherUdp(Ptr<Socket> socket)
    {
        socket->Send(Create<Packet>(777));
    }

    uint32_t m_receiverNodeId{0}; //!< node id of the receiver

    /** Build, run and measure one configuration. */
    Run Simulate(bool withFpga, bool withTcp)
    {
        Config::SetGlobal("ChecksumEnabled", BooleanValue(true));
        m_run = Run();
        m_run.covered.assign(CHUNKS, IslandBitmap());
        m_run.sums.assign(CHUNKS, std::vector<int64_t>(ELEMENTS, 0));
        m_senderSockets.clear();
        m_tcpSent[0] = m_tcpSent[1] = 0;
        m_members = IslandBitmap();
        for (uint32_t i = 0; i <= SENDERS; ++i)
        {
            m_members.Set(i);
        }

        NodeContainer senders;
        senders.Create(SENDERS);
        Ptr<Node> router = CreateObject<Node>();
        Ptr<Node> receiver = CreateObject<Node>();
        m_receiverNodeId = receiver->GetId();
        InternetStackHelper stack;
        stack.Install(senders);
        stack.Install(router);
        stack.Install(receiver);

        PointToPointHelper p2p;
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("100000p"));
        p2p.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("100us"));
        Ipv4AddressHelper addresses;
        Ipv4StaticRoutingHelper routingHelper;
        for (uint32_t s = 0; s < SENDERS; ++s)
        {
            NetDeviceContainer link = p2p.Install(senders.Get(s), router);
            std::ostringstream subnet;
            subnet << "10.1." << s + 1 << ".0";
            addresses.SetBase(subnet.str().c_str(), "255.255.255.0");
            Ipv4InterfaceContainer interfaces = addresses.Assign(link);
            routingHelper.GetStaticRouting(senders.Get(s)->GetObject<Ipv4>())
                ->SetDefaultRoute(interfaces.GetAddress(1), 1);
        }

        // Router -- [in-box link -- FPGA --] access link -- receiver, one IPv4 subnet.
        Ptr<NetDevice> routerPort;
        Ptr<NetDevice> receiverPort;
        if (withFpga)
        {
            Ptr<Node> fpgaNode = CreateObject<Node>();
            p2p.SetDeviceAttribute("DataRate", StringValue("400Gbps"));
            p2p.SetChannelAttribute("Delay", StringValue("500ns"));
            NetDeviceContainer inBox = p2p.Install(router, fpgaNode);
            p2p.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
            p2p.SetChannelAttribute("Delay", StringValue("100us"));
            NetDeviceContainer access = p2p.Install(fpgaNode, receiver);
            Ptr<FpgaAggregatorNetDevice> fpga = CreateObject<FpgaAggregatorNetDevice>();
            fpga->SetAttribute("IslandIndex", UintegerValue(SENDERS));
            fpgaNode->AddDevice(fpga);
            fpga->SetIslandPort(access.Get(0));
            fpga->SetRouterPort(inBox.Get(1));
            routerPort = inBox.Get(0);
            receiverPort = access.Get(1);
        }
        else
        {
            NetDeviceContainer access = p2p.Install(router, receiver);
            routerPort = access.Get(0);
            receiverPort = access.Get(1);
        }
        addresses.SetBase("10.2.0.0", "255.255.255.0");
        NetDeviceContainer pair;
        pair.Add(routerPort);
        pair.Add(receiverPort);
        Ipv4InterfaceContainer edge = addresses.Assign(pair);
        routingHelper.GetStaticRouting(receiver->GetObject<Ipv4>())
            ->SetDefaultRoute(edge.GetAddress(0), 1);
        const Ipv4Address receiverAddress = edge.GetAddress(1);
        receiverPort->TraceConnectWithoutContext(
            "PhyRxEnd",
            MakeCallback(&FpgaNetworkTestCase::AccessRx, this));

        Ptr<Socket> sink = Socket::CreateSocket(receiver, UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), PORT));
        sink->SetRecvCallback(MakeCallback(&FpgaNetworkTestCase::ReceiveGradient, this));
        for (uint32_t s = 0; s < SENDERS; ++s)
        {
            Ptr<Socket> socket =
                Socket::CreateSocket(senders.Get(s), UdpSocketFactory::GetTypeId());
            socket->Bind();
            socket->Connect(InetSocketAddress(receiverAddress, PORT));
            m_senderSockets.push_back(socket);
            for (uint32_t c = 0; c < CHUNKS; ++c)
            {
                // Senders interleave; each paces its chunks 10 us apart.
                Simulator::Schedule(MicroSeconds(10 * c + s),
                                    &FpgaNetworkTestCase::SendChunk,
                                    this,
                                    s,
                                    c);
            }
        }

        if (withTcp)
        {
            // Non-gradient UDP both ways, and TCP both ways, during the gradient exchange.
            const Ipv4Address senderAddress =
                senders.Get(0)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
            Ptr<Socket> otherSink = Socket::CreateSocket(receiver, UdpSocketFactory::GetTypeId());
            otherSink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000));
            otherSink->SetRecvCallback(MakeCallback(&FpgaNetworkTestCase::ReceiveOtherUdp, this));
            Ptr<Socket> other = Socket::CreateSocket(senders.Get(1), UdpSocketFactory::GetTypeId());
            other->Connect(InetSocketAddress(receiverAddress, 5000));
            Simulator::Schedule(MicroSeconds(3), &FpgaNetworkTestCase::SendOtherUdp, this, other);

            Ptr<Node> ends[2][2] = {{senders.Get(0), receiver}, {receiver, senders.Get(0)}};
            const Ipv4Address sinks[2] = {receiverAddress, senderAddress};
            for (uint32_t d = 0; d < 2; ++d)
            {
                Ptr<Socket> listener =
                    Socket::CreateSocket(ends[d][1], TcpSocketFactory::GetTypeId());
                listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9000 + d));
                listener->Listen();
                listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                            MakeCallback(&FpgaNetworkTestCase::Accept, this));
                m_tcpSource[d] = Socket::CreateSocket(ends[d][0], TcpSocketFactory::GetTypeId());
                m_tcpSource[d]->Bind();
                m_tcpSource[d]->SetConnectCallback(
                    MakeCallback(&FpgaNetworkTestCase::TcpConnected, this),
                    MakeNullCallback<void, Ptr<Socket>>());
                m_tcpSource[d]->SetSendCallback(MakeCallback(&FpgaNetworkTestCase::TcpSend, this));
                // Connect once the simulation runs: the stack's queue discs exist only then.
                Simulator::Schedule(MicroSeconds(1),
                                    &FpgaNetworkTestCase::StartTcp,
                                    this,
                                    d,
                                    sinks[d]);
            }
        }

        Simulator::Stop(Seconds(2));
        Simulator::Run();
        Simulator::Destroy();
        Config::SetGlobal("ChecksumEnabled", BooleanValue(false));
        m_senderSockets.clear();
        m_tcpSource[0] = m_tcpSource[1] = nullptr;
        return m_run;
    }

    void CheckSums(const Run& run, const char* label)
    {
        IslandBitmap peers = m_members;
        peers.Reset(SENDERS);
        for (uint32_t c = 0; c < CHUNKS; ++c)
        {
            NS_TEST_ASSERT_MSG_EQ(run.covered[c], peers, label << ": chunk " << c << " covered");
            for (uint32_t e = 0; e < ELEMENTS; ++e)
            {
                int64_t expected = 0;
                for (uint32_t s = 0; s < SENDERS; ++s)
                {
                    expected += Value(s, c, e);
                }
                // Without the FPGA the receiver adds in int64; with it, the FPGA wraps in int32.
                const int64_t got = run.sums[c][e];
                NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(got),
                                      static_cast<uint32_t>(expected),
                                      label << ": chunk " << c << " element " << e);
            }
        }
    }

    void DoRun() override
    {
        const Run without = Simulate(false, false);
        const Run with = Simulate(true, false);
        NS_TEST_ASSERT_MSG_EQ(without.gradientPackets, SENDERS * CHUNKS, "DATA without FPGA");
        NS_TEST_ASSERT_MSG_EQ(with.gradientPackets, CHUNKS, "one aggregate per chunk");
        NS_TEST_ASSERT_MSG_EQ(without.accessPackets, SENDERS * CHUNKS, "access link without");
        NS_TEST_ASSERT_MSG_EQ(with.accessPackets * SENDERS,
                              without.accessPackets,
                              "exactly 1/8 of the packets");
        NS_TEST_ASSERT_MSG_EQ(with.accessBytes * SENDERS,
                              without.accessBytes,
                              "exactly 1/8 of the bytes");
        CheckSums(without, "without FPGA");
        CheckSums(with, "with FPGA");

        const Run mixed = Simulate(true, true);
        CheckSums(mixed, "with FPGA and TCP");
        NS_TEST_ASSERT_MSG_EQ(mixed.gradientPackets, CHUNKS, "still one aggregate per chunk");
        NS_TEST_ASSERT_MSG_EQ(mixed.tcpToReceiver, TCP_BYTES, "TCP through the FPGA inbound");
        NS_TEST_ASSERT_MSG_EQ(mixed.tcpToSender, TCP_BYTES, "TCP through the FPGA outbound");
        NS_TEST_ASSERT_MSG_EQ(mixed.udpOther, 777u, "other UDP delivered");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A contribution that arrives marked CE marks its slot: the aggregate leaves CE
 *        (FpgaSlotTable::MarkCongested), whichever contribution was marked; an aggregate of
 *        unmarked ECT(0) contributions leaves ECT(0).
 *
 * Clique {0, 1, 2} at island 0's FPGA, three chunks from senders 1 and 2: chunk 0, sender 1's
 * (the first, whose fields the slot keeps) marked; chunk 1, sender 2's (the last) marked;
 * chunk 2, neither. Expected ECN fields of the three aggregates: CE, CE, ECT(0).
 */
class FpgaCarriesMarkTestCase : public TestCase
{
  public:
    FpgaCarriesMarkTestCase()
        : TestCase("a contribution marked CE marks the aggregate")
    {
    }

  private:
    /** \param frame an IPv4 frame \param ecn its new ECN field \return the frame */
    static Ptr<Packet> WithEcn(Ptr<Packet> frame, Ipv4Header::EcnType ecn)
    {
        Ipv4Header ip;
        frame->RemoveHeader(ip);
        ip.SetEcn(ecn);
        frame->AddHeader(ip);
        return frame;
    }

    void DoRun() override
    {
        const IslandBitmap members = Bitmap({0, 1, 2});
        const uint32_t chunks = 3;
        RawHarness h;
        h.Build(Attributes(0, 64, MilliSeconds(50)));
        Time t = MicroSeconds(1);
        for (uint16_t sender : {1, 2})
        {
            for (uint32_t c = 0; c < chunks; ++c)
            {
                const bool marked = (c == 0 && sender == 1) || (c == 1 && sender == 2);
                Ptr<Packet> frame =
                    MakeUdp(GradientPayload::CreateVirtual(DataHeader(members, sender, c, chunks)),
                            SenderAddress(sender),
                            ISLAND_ADDRESS,
                            PORT);
                h.InjectFromRouter(
                    t,
                    WithEcn(frame, marked ? Ipv4Header::ECN_CE : Ipv4Header::ECN_ECT0));
                t += MicroSeconds(1);
            }
        }
        h.Run();
        std::map<uint32_t, uint8_t> ecn;
        for (const Ptr<const Packet>& frame : h.atIsland)
        {
            const Decoded d = Decode(frame);
            if (d.valid && d.header.GetType() == GradientHeader::AGGREGATE)
            {
                ecn[d.header.GetChunkIndex()] = d.ip.GetEcn();
            }
        }
        NS_TEST_ASSERT_MSG_EQ(ecn.size(), chunks, "one aggregate per chunk");
        NS_TEST_EXPECT_MSG_EQ(unsigned(ecn[0]), unsigned(Ipv4Header::ECN_CE), "first marked");
        NS_TEST_EXPECT_MSG_EQ(unsigned(ecn[1]), unsigned(Ipv4Header::ECN_CE), "last marked");
        NS_TEST_EXPECT_MSG_EQ(unsigned(ecn[2]), unsigned(Ipv4Header::ECN_ECT0), "none marked");
    }
};

/**
 * \ingroup wan-training-tests
 * The fpga-aggregator test suite.
 */
class FpgaAggregatorTestSuite : public TestSuite
{
  public:
    FpgaAggregatorTestSuite()
        : TestSuite("fpga-aggregator")
    {
        AddTestCase(new FpgaExactSumTestCase);
        AddTestCase(new FpgaDuplicateTestCase);
        AddTestCase(new FpgaResendAbsorbedTestCase);
        AddTestCase(new FpgaSlotExhaustionTestCase);
        AddTestCase(new FpgaEarlyFlushTestCase);
        AddTestCase(new FpgaPartialTestCase);
        AddTestCase(new FpgaDeadlineTestCase);
        AddTestCase(new FpgaChunkOrderTestCase);
        AddTestCase(new FpgaOutputBurstTestCase);
        AddTestCase(new FpgaPassThroughTestCase);
        AddTestCase(new FpgaMulticastTestCase);
        AddTestCase(new FpgaProcessingRateTestCase);
        AddTestCase(new FpgaNetworkTestCase);
        AddTestCase(new FpgaCarriesMarkTestCase);
    }
};

/// Static instance registering the suite.
static FpgaAggregatorTestSuite g_fpgaAggregatorTestSuite;
