/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of WanTopologyHelper on topologies built in code: exact unicast arrival times over
 * several routers (module and stock links) with pcap files of an access link, a multicast tree to 8
 * receivers (one copy per link, one per receiver), multicast refused and dropped where a router
 * cannot replicate, identical routes on every build, and unicast through in-line FPGAs. Expected
 * values are computed here from the link parameters, never read back from the simulation.
 */

// ctest-suite: wan-topology-helper

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pcap-file.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/trace-helper.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/wan-router-net-device.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology-json.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// UDP port of the test traffic (not the gradient port, so FPGAs pass it through).
const uint16_t TEST_PORT = 9000;
/// Bytes UDP and IPv4 add to a payload: 8 + 20.
const uint32_t DATAGRAM_OVERHEAD = 8 + 20;
/// Bytes a UDP payload adds on the wire: the datagram's headers and 2 bytes of link framing
/// (WanLinkNetDevice's FramingBytes, PPP's header), counted in serialisation times.
const uint32_t WIRE_OVERHEAD = DATAGRAM_OVERHEAD + 2;
/// One gigabit per second.
const uint64_t GBPS = 1000000000ULL;

/** Add a city by code. \param t topology \param code its code \return index */
uint32_t
AddCity(WanTopology& t, const std::string& code)
{
    WanCity c;
    c.code = code;
    c.name = code;
    return t.AddCity(c);
}

/** Add a link. \return its index */
uint32_t
AddLink(WanTopology& t, uint32_t a, uint32_t b, uint64_t bps, double delay)
{
    return t.AddLink(WanLink{a, b, bps, delay});
}

/** Add an island. \return its index */
uint32_t
AddIsland(WanTopology& t, const std::string& name, uint32_t city, uint64_t bps, double delay)
{
    return t.AddIsland(WanIsland{name, city, bps, delay});
}

/** Serialisation time of \p bytes at \p bps, in whole ns (the tests pick exact values). */
int64_t
SerialNs(uint32_t bytes, uint64_t bps)
{
    return static_cast<int64_t>(bytes) * 8 * 1000000000LL / static_cast<int64_t>(bps);
}

/**
 * Common machinery: UDP sockets on the islands, a record of every datagram received, and a
 * member function to send one, so no lambdas are scheduled.
 */
class FabricTestCase : public TestCase
{
  public:
    /** \param name the test's name */
    explicit FabricTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /** One datagram received. */
    struct Arrival
    {
        uint32_t island; //!< receiving island
        Time time;       //!< when the socket got it
        uint32_t size;   //!< payload bytes
    };

    /** \brief Open a receiving socket on every island of \p helper. */
    void ListenOnAllIslands(const WanTopologyHelper& helper)
    {
        for (uint32_t i = 0; i < helper.GetIslandNodes().GetN(); ++i)
        {
            Ptr<Socket> s =
                Socket::CreateSocket(helper.GetIslandNode(i), UdpSocketFactory::GetTypeId());
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), TEST_PORT));
            s->SetRecvCallback(MakeCallback(&FabricTestCase::Receive, this));
            m_socketIsland[s] = i;
        }
    }

    /** \brief Create a sending socket on island \p island. \return the socket */
    Ptr<Socket> Sender(const WanTopologyHelper& helper, uint32_t island)
    {
        return Socket::CreateSocket(helper.GetIslandNode(island), UdpSocketFactory::GetTypeId());
    }

    /** \brief Schedule one datagram of \p size payload bytes at \p at. */
    void SendAt(Time at, Ptr<Socket> socket, Ipv4Address to, uint32_t size)
    {
        Simulator::ScheduleWithContext(socket->GetNode()->GetId(),
                                       at,
                                       &FabricTestCase::Send,
                                       this,
                                       socket,
                                       to,
                                       size);
    }

    /** \brief Send now. \param socket sender \param to destination \param size payload */
    void Send(Ptr<Socket> socket, Ipv4Address to, uint32_t size)
    {
        socket->SendTo(Create<Packet>(size), 0, InetSocketAddress(to, TEST_PORT));
    }

    /** \brief Read everything waiting on \p socket. */
    void Receive(Ptr<Socket> socket)
    {
        Ptr<Packet> p;
        while ((p = socket->Recv()))
        {
            m_arrivals.push_back({m_socketIsland[socket], Simulator::Now(), p->GetSize()});
        }
    }

    /** \return the arrivals at island \p island, in order */
    std::vector<Arrival> ArrivalsAt(uint32_t island) const
    {
        std::vector<Arrival> out;
        for (const Arrival& a : m_arrivals)
        {
            if (a.island == island)
            {
                out.push_back(a);
            }
        }
        return out;
    }

    /** \brief Count a packet leaving a device (PhyTxEnd: the IPv4 datagram; the link's
     *  framing is not part of the packet). */
    void CountTx(Ptr<const Packet> p)
    {
        ++m_txPackets;
        m_txBytes += p->GetSize();
    }

    /** \brief Count per device (the context is the device's trace path). */
    void CountTxAt(std::string context, Ptr<const Packet> p)
    {
        ++m_txPerDevice[context];
    }

    std::vector<Arrival> m_arrivals;                //!< every datagram received
    std::map<Ptr<Socket>, uint32_t> m_socketIsland; //!< receiving socket to island
    uint64_t m_txPackets{0};                        //!< packets counted by CountTx
    uint64_t m_txBytes{0};                          //!< bytes counted by CountTx
    std::map<std::string, uint64_t> m_txPerDevice;  //!< packets counted by CountTxAt
};

/**
 * Unicast over three routers and a detour that loses: A - B - C - D is 6.5 ms, the direct
 * A - D link 10 ms. One datagram each way; arrival time = send time + the five propagation
 * delays + five serialisations of the 1030-byte frame (rates chosen so each is whole ns).
 * The same with ns-3's stock devices and channels. A pcap file of the sender's access
 * device holds the datagram it sent and the one it received: raw IPv4 datagrams (link type
 * 101) from a WanLinkNetDevice, PPP frames (link type 9, 2 bytes more) from the stock one.
 */
class UnicastExactTimeTest : public FabricTestCase
{
  public:
    /** \param stock ns-3's PointToPointNetDevice and PointToPointChannel on every link */
    explicit UnicastExactTimeTest(bool stock)
        : FabricTestCase(std::string("unicast over three WAN hops arrives at the exact analytic "
                                     "time, pcap of the access link") +
                         (stock ? ", stock links" : "")),
          m_stock(stock)
    {
    }

  private:
    bool m_stock; //!< stock links

    void DoRun() override
    {
        // The helper, and with it the last reference to the devices and their pcap files,
        // is gone when Simulate returns: the file is complete.
        std::string pcapFile;
        Simulate(pcapFile);
        CheckPcap(pcapFile);
    }

    /** \brief Simulate and check the arrival times. \param pcapFile set to the sender's pcap
     *  file name */
    void Simulate(std::string& pcapFile)
    {
        WanTopology t;
        const uint32_t a = AddCity(t, "A");
        const uint32_t b = AddCity(t, "B");
        const uint32_t c = AddCity(t, "C");
        const uint32_t d = AddCity(t, "D");
        AddLink(t, a, b, 10 * GBPS, 1e-3);
        AddLink(t, b, c, 4 * GBPS, 3e-3);
        AddLink(t, c, d, 8 * GBPS, 2.5e-3);
        AddLink(t, a, d, 10 * GBPS, 10e-3);
        const uint32_t src = AddIsland(t, "A-0", a, 1 * GBPS, 100e-6);
        const uint32_t dst = AddIsland(t, "D-0", d, 2 * GBPS, 50e-6);

        WanTopologyHelper helper;
        helper.SetStockLinks(m_stock);
        helper.Install(t);
        ListenOnAllIslands(helper);
        const std::string prefix = CreateTempDirFilename(m_stock ? "stock" : "link");
        helper.EnablePcapAccess(prefix, src);
        pcapFile = PcapHelper().GetFilenameFromDevice(prefix, helper.GetIslandDevice(src));
        const uint32_t payload = 1000;
        const uint32_t wire = payload + WIRE_OVERHEAD;
        const Time start = MilliSeconds(1);
        SendAt(start, Sender(helper, src), helper.GetIslandAddress(dst), payload);
        SendAt(start, Sender(helper, dst), helper.GetIslandAddress(src), payload);
        Simulator::Run();

        const int64_t serial = SerialNs(wire, 1 * GBPS) + SerialNs(wire, 10 * GBPS) +
                               SerialNs(wire, 4 * GBPS) + SerialNs(wire, 8 * GBPS) +
                               SerialNs(wire, 2 * GBPS);
        // 8240 + 824 + 2060 + 1030 + 4120 ns
        NS_TEST_ASSERT_MSG_EQ(serial, 16274, "hand sum of the serialisations");
        const Time propagation = MicroSeconds(100 + 1000 + 3000 + 2500 + 50);
        const Time expected = start + propagation + NanoSeconds(serial);
        for (uint32_t island : {src, dst})
        {
            const auto got = ArrivalsAt(island);
            NS_TEST_ASSERT_MSG_EQ(got.size(), 1, "one datagram at island " << island);
            NS_TEST_EXPECT_MSG_EQ(got[0].time, expected, "arrival time at island " << island);
            NS_TEST_EXPECT_MSG_EQ(got[0].size, payload, "payload size");
        }
        NS_TEST_EXPECT_MSG_EQ(helper.GetIslandIndex(helper.GetIslandAddress(dst)), dst, "index");
        NS_TEST_EXPECT_MSG_EQ(helper.GetIslandAddress(0), Ipv4Address("10.0.0.1"), "scheme");
        NS_TEST_EXPECT_MSG_EQ(helper.GetIslandAddress(1), Ipv4Address("10.0.1.1"), "scheme");
        Simulator::Destroy();
    }

    /** \brief Check the sender's pcap file. \param pcapFile its name */
    void CheckPcap(const std::string& pcapFile)
    {
        const uint32_t payload = 1000;
        PcapFile pcap;
        pcap.Open(pcapFile, std::ios::in);
        NS_TEST_ASSERT_MSG_EQ(pcap.Fail(), false, "pcap file " << pcapFile);
        const uint32_t linkType = m_stock ? PcapHelper::DLT_PPP : PcapHelper::DLT_RAW;
        NS_TEST_EXPECT_MSG_EQ(pcap.GetDataLinkType(), linkType, "link type");
        const uint32_t recordBytes = payload + (m_stock ? WIRE_OVERHEAD : DATAGRAM_OVERHEAD);
        std::vector<uint8_t> data(recordBytes + 64);
        uint32_t records = 0;
        while (true)
        {
            uint32_t sec = 0;
            uint32_t usec = 0;
            uint32_t inclLen = 0;
            uint32_t origLen = 0;
            uint32_t readLen = 0;
            pcap.Read(data.data(), data.size(), sec, usec, inclLen, origLen, readLen);
            if (pcap.Eof() || pcap.Fail())
            {
                break;
            }
            ++records;
            NS_TEST_EXPECT_MSG_EQ(origLen, recordBytes, "record " << records << " length");
            if (!m_stock)
            {
                NS_TEST_EXPECT_MSG_EQ(uint32_t(data[0]), 0x45u, "an IPv4 header comes first");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(records, 2u, "one datagram sent, one received");
    }
};

/**
 * The star S - T - {U, V}: sender S-0, receivers T-0, T-1, U-0..2, V-0..2 (8 in all). The
 * tree is S>T, T>U, T>V. The burst crosses the sender's access link and every tree edge
 * once; every receiver gets every datagram exactly once; router T sends 4 copies of each
 * (2 WAN, 2 access), U and V 3 each, S 1.
 */
class MulticastTreeTest : public FabricTestCase
{
  public:
    /**
     * \param disableAt "" for all routers capable; "caps" to remove T's capability in the
     *        topology; "attribute" to switch T's MulticastEnabled off after Install
     */
    explicit MulticastTreeTest(const std::string& disableAt)
        : FabricTestCase(disableAt.empty()
                             ? "multicast tree to 8 receivers: one copy per link and receiver"
                             : "multicast refused and dropped at a router without it (" +
                                   disableAt + ")"),
          m_disableAt(disableAt)
    {
    }

  private:
    void DoRun() override
    {
        WanTopology t;
        const uint32_t s = AddCity(t, "S");
        const uint32_t tt = AddCity(t, "T");
        const uint32_t u = AddCity(t, "U");
        const uint32_t v = AddCity(t, "V");
        AddLink(t, s, tt, 10 * GBPS, 1e-3);
        AddLink(t, tt, u, 10 * GBPS, 2e-3);
        AddLink(t, tt, v, 10 * GBPS, 3e-3);
        const uint32_t sender = AddIsland(t, "S-0", s, 10 * GBPS, 10e-6);
        std::vector<uint32_t> receivers;
        for (const auto& [city, code, n] :
             std::vector<std::tuple<uint32_t, std::string, int>>{{tt, "T", 2},
                                                                 {u, "U", 3},
                                                                 {v, "V", 3}})
        {
            for (int k = 0; k < n; ++k)
            {
                receivers.push_back(
                    AddIsland(t, code + "-" + std::to_string(k), city, 10 * GBPS, 10e-6));
            }
        }
        NS_TEST_ASSERT_MSG_EQ(receivers.size(), 8, "eight receivers");
        t.SetCapabilities(WanCapabilities::Parse("multicast", "test"));
        if (m_disableAt == "caps")
        {
            t.ApplyCityCapabilities("T:none");
        }

        WanTopologyHelper helper;
        helper.SetQueueSize(QueueSize("1000p"));
        helper.Install(t);
        if (m_disableAt == "attribute")
        {
            helper.GetRouter(tt)->SetAttribute("MulticastEnabled", BooleanValue(false));
        }
        ListenOnAllIslands(helper);
        const Ipv4Address group = helper.AllocateGroup();
        NS_TEST_EXPECT_MSG_EQ(group, Ipv4Address("239.0.0.1"), "first group");
        NS_TEST_EXPECT_MSG_EQ(helper.AllocateGroup(), Ipv4Address("239.0.0.2"), "second group");
        std::vector<uint32_t> members = receivers;
        members.push_back(sender); // the sender itself is ignored
        const bool capable = helper.InstallMulticastTree(sender, group, members);
        NS_TEST_EXPECT_MSG_EQ(capable, m_disableAt.empty(), "capability of the tree");

        helper.GetIslandDevice(sender)->TraceConnectWithoutContext(
            "PhyTxEnd",
            MakeCallback(&MulticastTreeTest::CountTx, this));
        const WanRouting& routing = helper.GetRouting();
        const WanTree tree = routing.GetTree(s, {tt, u, v});
        NS_TEST_ASSERT_MSG_EQ(tree.hops.size(), 3, "three tree edges");
        for (const WanHop& hop : tree.hops)
        {
            helper.GetWanDevice(hop)->TraceConnect(
                "PhyTxEnd",
                std::to_string(hop.link),
                MakeCallback(&MulticastTreeTest::CountTxAt, this));
        }

        const uint32_t count = 30;
        const Ptr<Socket> socket = Sender(helper, sender);
        uint64_t datagramBytes = 0;
        std::vector<uint32_t> sizes;
        for (uint32_t k = 0; k < count; ++k)
        {
            const uint32_t size = 500 + 7 * k; // distinct sizes identify the datagrams
            sizes.push_back(size);
            datagramBytes += size + DATAGRAM_OVERHEAD;
            SendAt(MicroSeconds(10 + k), socket, group, size);
        }
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(m_txPackets, count, "the access link carries the burst once");
        NS_TEST_EXPECT_MSG_EQ(m_txBytes, datagramBytes, "access link bytes");
        if (m_disableAt.empty())
        {
            for (const WanHop& hop : tree.hops)
            {
                NS_TEST_EXPECT_MSG_EQ(m_txPerDevice[std::to_string(hop.link)],
                                      count,
                                      "tree edge " << hop.link << " carries each packet once");
            }
            for (uint32_t r : receivers)
            {
                std::vector<uint32_t> got;
                for (const Arrival& a : ArrivalsAt(r))
                {
                    got.push_back(a.size);
                }
                std::sort(got.begin(), got.end());
                NS_TEST_EXPECT_MSG_EQ((got == sizes),
                                      true,
                                      "island " << r << " gets one copy of each");
            }
            NS_TEST_EXPECT_MSG_EQ(ArrivalsAt(sender).size(), 0, "no copy back to the sender");
            NS_TEST_EXPECT_MSG_EQ(helper.GetRouter(s)->GetForwardCount(), count * 1, "S copies");
            NS_TEST_EXPECT_MSG_EQ(helper.GetRouter(tt)->GetForwardCount(), count * 4, "T copies");
            NS_TEST_EXPECT_MSG_EQ(helper.GetRouter(u)->GetForwardCount(), count * 3, "U copies");
            NS_TEST_EXPECT_MSG_EQ(helper.GetRouter(v)->GetForwardCount(), count * 3, "V copies");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(
                helper.GetRouter(tt)->GetDropCount(WanRouterNetDevice::DROP_MULTICAST_DISABLED),
                count,
                "T drops and counts every packet");
            NS_TEST_EXPECT_MSG_EQ(m_arrivals.size(), 0, "nothing reaches a receiver");
        }
        Simulator::Destroy();
    }

    std::string m_disableAt; //!< where multicast is switched off ("" nowhere)
};

/** The nine-city graph built twice gives the same next links, trees and addresses. */
class DeterministicRoutesTest : public TestCase
{
  public:
    DeterministicRoutesTest()
        : TestCase("the same routes and trees on every build")
    {
    }

  private:
    /** \return a nine-city topology with ties (LAX-SIN equals LAX-TYO-SIN) */
    static WanTopology Build()
    {
        WanTopology t;
        for (const char* code : {"NYC", "LAX", "LON", "AMS", "FRA", "TYO", "SEO", "SIN", "BUE"})
        {
            AddCity(t, code);
        }
        const std::vector<std::tuple<const char*, const char*, double>> links = {
            {"SEO", "TYO", 7.3},
            {"TYO", "LAX", 56.1},
            {"TYO", "SIN", 33.8},
            {"SIN", "LAX", 89.9},
            {"SIN", "FRA", 65.3},
            {"LAX", "NYC", 25.1},
            {"NYC", "BUE", 54.3},
            {"NYC", "LON", 35.5},
            {"LON", "AMS", 2.3},
            {"LON", "FRA", 4.1},
            {"AMS", "FRA", 2.3}};
        for (const auto& [x, y, ms] : links)
        {
            AddLink(t, t.GetCityIndex(x), t.GetCityIndex(y), 10 * GBPS, ms * 1e-3);
        }
        for (uint32_t c = 0; c < t.GetCities().size(); ++c)
        {
            AddIsland(t, t.GetCities()[c].code + "-0", c, 10 * GBPS, 0);
        }
        t.SetCapabilities(WanCapabilities::Parse("both", "test"));
        return t;
    }

    void DoRun() override
    {
        WanTopologyHelper first;
        first.Install(Build());
        WanTopologyHelper second;
        second.Install(Build());
        const uint32_t n = first.GetTopology().GetCities().size();
        std::vector<uint32_t> all;
        for (uint32_t c = 0; c < n; ++c)
        {
            all.push_back(c);
        }
        for (uint32_t src = 0; src < n; ++src)
        {
            for (uint32_t dst = 0; dst < n; ++dst)
            {
                NS_TEST_EXPECT_MSG_EQ(first.GetRouting().GetNextLink(src, dst),
                                      second.GetRouting().GetNextLink(src, dst),
                                      "next link " << src << " to " << dst);
            }
            const WanTree a = first.GetRouting().GetTree(src, all);
            const WanTree b = second.GetRouting().GetTree(src, all);
            NS_TEST_EXPECT_MSG_EQ((a.hops == b.hops), true, "tree from " << src);
            NS_TEST_EXPECT_MSG_EQ(first.GetRouter(src)->GetNPorts(),
                                  second.GetRouter(src)->GetNPorts(),
                                  "ports of router " << src);
        }
        for (uint32_t i = 0; i < first.GetIslandNodes().GetN(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(first.GetIslandAddress(i), second.GetIslandAddress(i), "address");
        }
        Simulator::Destroy();
    }
};

/**
 * Islands behind FPGAs still get unicast: A has an FPGA in front of A-0 and A-1, B has none.
 * B-0 to A-0 crosses the in-box link (default 400 Gbps, 0.5 us) after the WAN; A-0 to A-1
 * crosses two FPGAs and two in-box links. Exact times with 1000-byte frames (whole ns at every
 * rate, 20 ns at 400 Gbps).
 */
class FpgaUnicastTest : public FabricTestCase
{
  public:
    FpgaUnicastTest()
        : FabricTestCase("islands behind FPGAs get unicast at the exact analytic time")
    {
    }

  private:
    void DoRun() override
    {
        WanTopology t;
        const uint32_t a = AddCity(t, "A");
        const uint32_t b = AddCity(t, "B");
        AddLink(t, a, b, 10 * GBPS, 2e-3);
        const uint32_t a0 = AddIsland(t, "A-0", a, 2 * GBPS, 20e-6);
        const uint32_t a1 = AddIsland(t, "A-1", a, 4 * GBPS, 30e-6);
        const uint32_t b0 = AddIsland(t, "B-0", b, 8 * GBPS, 40e-6);
        t.SetCapabilities(WanCapabilities::Parse("fpga", "test"));
        t.ApplyCityCapabilities("B:none");

        WanTopologyHelper helper;
        helper.Install(t);
        NS_TEST_ASSERT_MSG_NE(helper.GetFpga(a0), nullptr, "FPGA in front of A-0");
        NS_TEST_ASSERT_MSG_NE(helper.GetFpga(a1), nullptr, "FPGA in front of A-1");
        NS_TEST_ASSERT_MSG_EQ(helper.GetFpga(b0), nullptr, "no FPGA at B");
        NS_TEST_EXPECT_MSG_EQ(helper.GetAccessPeerDevice(a0)->GetNode(),
                              helper.GetFpga(a0)->GetNode(),
                              "the access link ends at the FPGA");
        ListenOnAllIslands(helper);
        const uint32_t payload = 1000 - WIRE_OVERHEAD;
        const Time start = MilliSeconds(1);
        SendAt(start, Sender(helper, b0), helper.GetIslandAddress(a0), payload);
        SendAt(start, Sender(helper, a0), helper.GetIslandAddress(a1), payload);
        SendAt(start + MilliSeconds(10), Sender(helper, a1), helper.GetIslandAddress(b0), payload);
        Simulator::Run();

        const int64_t inBoxNs = SerialNs(1000, 400 * GBPS) + 500; // 20 ns + 0.5 us
        NS_TEST_ASSERT_MSG_EQ(inBoxNs, 520, "in-box hop by hand");
        // B-0 -> A-0: access B (1000 ns + 40 us), WAN (800 ns + 2 ms), in-box, access A-0
        // (4000 ns + 20 us).
        const Time toA0 =
            start + NanoSeconds(1000 + 800 + inBoxNs + 4000) + MicroSeconds(40 + 2000 + 20);
        // A-0 -> A-1: access A-0 (4000 ns + 20 us), two in-box hops, access A-1 (2000 + 30 us).
        const Time toA1 = start + NanoSeconds(4000 + 2 * inBoxNs + 2000) + MicroSeconds(20 + 30);
        // A-1 -> B-0: access A-1 (2000 ns + 30 us), in-box, WAN, access B-0 (1000 ns + 40 us).
        const Time toB0 = start + MilliSeconds(10) + NanoSeconds(2000 + inBoxNs + 800 + 1000) +
                          MicroSeconds(30 + 2000 + 40);
        const std::vector<std::pair<uint32_t, Time>> expected = {{a0, toA0},
                                                                 {a1, toA1},
                                                                 {b0, toB0}};
        for (const auto& [island, when] : expected)
        {
            const auto got = ArrivalsAt(island);
            NS_TEST_ASSERT_MSG_EQ(got.size(), 1, "one datagram at island " << island);
            NS_TEST_EXPECT_MSG_EQ(got[0].time, when, "arrival time at island " << island);
        }
        Simulator::Destroy();
    }
};

/** Bad requests throw instead of crashing. */
class BadInputTest : public TestCase
{
  public:
    BadInputTest()
        : TestCase("bad island indices, group addresses and MTUs throw")
    {
    }

  private:
    void DoRun() override
    {
        WanTopology t;
        const uint32_t a = AddCity(t, "A");
        AddIsland(t, "A-0", a, GBPS, 0);
        AddIsland(t, "A-1", a, GBPS, 0);
        WanTopologyHelper helper;
        helper.Install(t);
        bool thrown = false;
        try
        {
            helper.InstallMulticastTree(5, helper.AllocateGroup(), {0});
        }
        catch (const WanTopologyError&)
        {
            thrown = true;
        }
        NS_TEST_EXPECT_MSG_EQ(thrown, true, "unknown sender");
        thrown = false;
        try
        {
            helper.InstallMulticastTree(0, Ipv4Address("10.0.0.1"), {1});
        }
        catch (const WanTopologyError&)
        {
            thrown = true;
        }
        NS_TEST_EXPECT_MSG_EQ(thrown, true, "unicast group address");
        NS_TEST_EXPECT_MSG_EQ(helper.GetIslandIndex(Ipv4Address("10.9.9.9")), UINT32_MAX, "none");
        WanTopologyHelper mtu;
        thrown = false;
        try
        {
            mtu.SetMtu(1279);
        }
        catch (const std::invalid_argument&)
        {
            thrown = true;
        }
        NS_TEST_EXPECT_MSG_EQ(thrown, true, "an MTU below 1280 bytes");
        NS_TEST_EXPECT_MSG_EQ(mtu.GetMtu(), 9000, "the rejected MTU is not kept");
        mtu.SetMtu(1280);
        NS_TEST_EXPECT_MSG_EQ(mtu.GetMtu(), 1280, "1280 bytes is accepted");
        Simulator::Destroy();
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Every device's queue is its link's spec resolved at that link's rate and round trip:
 *        a line NYC -- LON -- FRA with per-link and per-island keys (values by hand below).
 */
class QueueResolutionTest : public TestCase
{
  public:
    /** \param override a SetQueue spec ("" for the topology's own) */
    explicit QueueResolutionTest(const std::string& override)
        : TestCase("device queues resolved from the topology's specs" +
                   (override.empty() ? std::string() : " (SetQueue " + override + ")")),
          m_override(override)
    {
    }

  private:
    /** \param device a link device \return its transmit queue's bound */
    static QueueSize Bound(Ptr<NetDevice> device)
    {
        QueueSizeValue size;
        device->GetAttribute("TxQueueMaxSize", size);
        return size.Get();
    }

    void DoRun() override
    {
        // WAN links 100 Gbps (the file's default), access 10 Gbps, access delay 1 ms. One way:
        // NYC-0 to LON-0 22 ms, to FRA-0 1 + 20 + 2 + 1 = 24 ms; LON-0 to FRA-0 4 ms.
        const WanTopology t = WanTopologyJson::Parse(R"({
          "defaults": {"accessDelay": "1ms", "queue": "10ms", "fpga": false},
          "cities": [{"code": "NYC", "latitude": 40.7, "longitude": -74.0, "fpga": true},
                     {"code": "LON", "latitude": 51.5, "longitude": -0.1},
                     {"code": "FRA", "latitude": 50.1, "longitude": 8.7}],
          "islands": [{"name": "NYC-0", "city": "NYC", "queue": "bdp"},
                      {"name": "LON-0", "city": "LON", "queue": "300p"},
                      {"name": "FRA-0", "city": "FRA"}],
          "links": [{"a": "NYC", "b": "LON", "delay": "20ms", "queue": "bdp"},
                    {"a": "LON", "b": "FRA", "delay": "2ms"}]})",
                                                     "line.json");
        WanTopologyHelper helper;
        if (!m_override.empty())
        {
            helper.SetQueue(WanQueueSpec::Parse(m_override, "test"));
        }
        helper.Install(t);
        const WanHop nycLon{0, 0, 1};
        const WanHop lonFra{1, 1, 2};
        std::map<std::string, QueueSize> expected;
        if (m_override.empty())
        {
            // NYC-LON "bdp": 100 Gbps x 48 ms (NYC-0 <-> FRA-0) / 8 = 600,000,000 bytes.
            expected["NYC-LON"] = QueueSize(QueueSizeUnit::BYTES, 600000000);
            // LON-FRA "10ms" (the default): 100 Gbps x 10 ms / 8 = 125,000,000 bytes.
            expected["LON-FRA"] = QueueSize(QueueSizeUnit::BYTES, 125000000);
            // NYC-0's access "bdp": 10 Gbps x 48 ms / 8 = 60,000,000 bytes; its FPGA's in-box
            // link the same spec at 400 Gbps: 2,400,000,000 bytes.
            expected["NYC-0"] = QueueSize(QueueSizeUnit::BYTES, 60000000);
            expected["NYC-0 in-box"] = QueueSize(QueueSizeUnit::BYTES, 2400000000U);
            expected["LON-0"] = QueueSize(QueueSizeUnit::PACKETS, 300);
            // FRA-0 "10ms" at 10 Gbps: 12,500,000 bytes.
            expected["FRA-0"] = QueueSize(QueueSizeUnit::BYTES, 12500000);
        }
        else
        {
            // SetQueue("1ms") everywhere: 12,500,000 B at 100 Gbps, 1,250,000 B at 10 Gbps,
            // 50,000,000 B at 400 Gbps.
            expected["NYC-LON"] = QueueSize(QueueSizeUnit::BYTES, 12500000);
            expected["LON-FRA"] = QueueSize(QueueSizeUnit::BYTES, 12500000);
            expected["NYC-0"] = QueueSize(QueueSizeUnit::BYTES, 1250000);
            expected["NYC-0 in-box"] = QueueSize(QueueSizeUnit::BYTES, 50000000);
            expected["LON-0"] = QueueSize(QueueSizeUnit::BYTES, 1250000);
            expected["FRA-0"] = QueueSize(QueueSizeUnit::BYTES, 1250000);
        }
        const WanHop reverse[] = {{0, 1, 0}, {1, 2, 1}};
        for (const WanHop& hop : {nycLon, reverse[0]})
        {
            NS_TEST_EXPECT_MSG_EQ(Bound(helper.GetWanDevice(hop)), expected["NYC-LON"], "NYC-LON");
        }
        for (const WanHop& hop : {lonFra, reverse[1]})
        {
            NS_TEST_EXPECT_MSG_EQ(Bound(helper.GetWanDevice(hop)), expected["LON-FRA"], "LON-FRA");
        }
        const char* names[] = {"NYC-0", "LON-0", "FRA-0"};
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(Bound(helper.GetIslandDevice(i)), expected[names[i]], names[i]);
            NS_TEST_EXPECT_MSG_EQ(Bound(helper.GetAccessPeerDevice(i)),
                                  expected[names[i]],
                                  names[i] << " at the far end");
        }
        // NYC-0's in-box link: the router's port towards its FPGA.
        const Ptr<NetDevice> inBox = helper.GetRouter(0)->GetPort(helper.GetAccessPort(0));
        NS_TEST_EXPECT_MSG_EQ(Bound(inBox), expected["NYC-0 in-box"], "NYC-0's in-box link");
        Simulator::Destroy();
    }

    std::string m_override; //!< SetQueue's spec, or ""
};

} // namespace

/** The wan-topology-helper suite. */

class WanTopologyHelperTestSuite : public TestSuite
{
  public:
    WanTopologyHelperTestSuite()
        : TestSuite("wan-topology-helper")
    {
        AddTestCase(new UnicastExactTimeTest(false));
        AddTestCase(new UnicastExactTimeTest(true));
        AddTestCase(new MulticastTreeTest(""));
        AddTestCase(new MulticastTreeTest("caps"));
        AddTestCase(new MulticastTreeTest("attribute"));
        AddTestCase(new DeterministicRoutesTest);
        AddTestCase(new FpgaUnicastTest);
        AddTestCase(new BadInputTest);
        AddTestCase(new QueueResolutionTest(""));
        AddTestCase(new QueueResolutionTest("1ms"));
    }
};

/** Static instance registering the suite. */
static WanTopologyHelperTestSuite g_wanTopologyHelperTestSuite;
