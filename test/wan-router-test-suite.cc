/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of WanRouterNetDevice on small hand-built topologies (no WanTopologyHelper): unicast
 * through one and two routers with exact arrival times, TTL expiry, multicast replication
 * (never back out of the ingress port), MulticastEnabled=false, the fan-out limit, no route,
 * Mtu, checksums, malformed, random and non-IPv4 input, and the packet a module link hands
 * over edited in place only while nothing else holds it.
 */

// ctest-suite: wan-router

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/global-value.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-link-helper.h"
#include "ns3/wan-router-net-device.h"

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// UDP port every receiving socket listens on.
const uint16_t UDP_PORT = 9;
/// Bytes a UDP payload of n bytes adds on the wire: UDP 8 + IPv4 20 + PPP 2.
const uint32_t WIRE_OVERHEAD = 8 + 20 + 2;
/// Ethernet protocol number of IPv4 and of IPv6.
const uint16_t IPV4 = 0x0800;
const uint16_t IPV6 = 0x86DD; //!< see IPV4

/** One point-to-point link's parameters. */
struct LinkSpec
{
    std::string rate;  //!< DataRate string
    std::string delay; //!< Time string
};

/** Records what arrives at a UDP socket: times and received TTLs. */
struct SocketRecorder
{
    std::vector<Time> times;  //!< arrival times
    std::vector<uint8_t> ttl; //!< TTL of each arrival (SocketIpTtlTag)

    /** \param socket the socket with data to read */
    void Receive(Ptr<Socket> socket)
    {
        Ptr<Packet> packet;
        while ((packet = socket->Recv()))
        {
            times.push_back(Simulator::Now());
            SocketIpTtlTag tag;
            ttl.push_back(packet->RemovePacketTag(tag) ? tag.GetTtl() : 0);
        }
    }
};

/** Records every packet a device hands up (MacRx), with its bytes. */
struct DeviceRecorder
{
    std::vector<std::vector<uint8_t>> packets; //!< bytes of each packet, PPP header included

    /** \param packet a packet received */
    void Receive(Ptr<const Packet> packet)
    {
        std::vector<uint8_t> bytes(packet->GetSize());
        packet->CopyData(bytes.data(), packet->GetSize());
        packets.push_back(bytes);
    }
};

/** Counts the Replicate trace. */
struct ReplicateRecorder
{
    std::vector<uint32_t> copies; //!< copies of each replication

    /** \param packet the packet \param inPort ingress \param n copies */
    void Replicate(Ptr<const Packet> packet, uint32_t inPort, uint32_t n)
    {
        copies.push_back(n);
    }
};

/**
 * Send one UDP datagram (scheduled with the host's context).
 * \param socket sending socket \param destination address \param size payload bytes
 * \param ttl TTL to set first, or 0 to leave the socket's
 */
void
SendUdp(Ptr<Socket> socket, Ipv4Address destination, uint32_t size, uint8_t ttl)
{
    if (ttl != 0)
    {
        socket->SetIpTtl(ttl);
    }
    socket->SendTo(Create<Packet>(size), 0, InetSocketAddress(destination, UDP_PORT));
}

/**
 * Send raw bytes out of a device as the given protocol.
 * \param device sending device \param bytes the packet \param protocol Ethernet protocol
 */
void
SendRaw(Ptr<NetDevice> device, std::vector<uint8_t> bytes, uint16_t protocol)
{
    Ptr<Packet> packet = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
    device->Send(packet, device->GetBroadcast(), protocol);
}

/** \return the one's complement sum checksum over bytes [begin, begin + length) */
uint16_t
Checksum(const std::vector<uint8_t>& bytes, std::size_t begin, std::size_t length)
{
    uint32_t sum = 0;
    for (std::size_t i = begin; i < begin + length; i += 2)
    {
        sum += (bytes[i] << 8) | bytes[i + 1];
    }
    while (sum > 0xffff)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum & 0xffff);
}

/**
 * \return a 20-byte IPv4 header written by hand plus zero payload, total length size
 * \param size total length \param ttl TTL \param source source address
 * \param destination destination address \param withChecksum fill the checksum field
 */
std::vector<uint8_t>
HandMadeIpv4(uint16_t size,
             uint8_t ttl,
             Ipv4Address source,
             Ipv4Address destination,
             bool withChecksum)
{
    std::vector<uint8_t> b(size, 0);
    b[0] = 0x45; // version 4, IHL 5
    b[2] = size >> 8;
    b[3] = size & 0xff;
    b[8] = ttl;
    b[9] = 17; // UDP
    for (int i = 0; i < 4; ++i)
    {
        b[12 + i] = (source.Get() >> (24 - 8 * i)) & 0xff;
        b[16 + i] = (destination.Get() >> (24 - 8 * i)) & 0xff;
    }
    if (withChecksum)
    {
        const uint16_t sum = Checksum(b, 0, 20);
        b[10] = sum >> 8;
        b[11] = sum & 0xff;
    }
    return b;
}

/** \return nanoseconds to serialise a frame \param bytes frame bytes \param bps rate in bit/s */
int64_t
TxNs(uint32_t bytes, uint64_t bps)
{
    return static_cast<int64_t>(bytes) * 8 * 1000000000LL / static_cast<int64_t>(bps);
}

/** A host or router attachment: the node, its devices, and for hosts the address. */
struct Host
{
    Ptr<Node> node;                    //!< host node
    Ptr<PointToPointNetDevice> device; //!< its only device
    Ipv4Address address;               //!< its address
    Ptr<Socket> socket;                //!< a UDP socket bound to UDP_PORT
};

/**
 * Give a host node its internet stack, an address 10.1.<subnet>.1/24 on its device, a default
 * route out of it, and a UDP socket bound to UDP_PORT.
 * \param host the host (node and device set) \param subnet third address byte
 */
void
SetUpHost(Host& host, uint32_t subnet)
{
    InternetStackHelper stack;
    stack.Install(host.node);
    Ipv4AddressHelper addresses;
    const std::string base = "10.1." + std::to_string(subnet) + ".0";
    addresses.SetBase(base.c_str(), "255.255.255.0");
    host.address = addresses.Assign(NetDeviceContainer(host.device)).GetAddress(0);
    Ptr<Ipv4> ipv4 = host.node->GetObject<Ipv4>();
    const uint32_t interface = ipv4->GetInterfaceForDevice(host.device);
    // The gateway is nominal: point-to-point devices ignore link destinations.
    const std::string gateway = "10.1." + std::to_string(subnet) + ".254";
    Ipv4StaticRoutingHelper().GetStaticRouting(ipv4)->SetDefaultRoute(Ipv4Address(gateway.c_str()),
                                                                      interface);
    host.socket = Socket::CreateSocket(host.node, TypeId::LookupByName("ns3::UdpSocketFactory"));
    host.socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), UDP_PORT));
    host.socket->SetIpRecvTtl(true);
}

/**
 * Connect a and b by a point-to-point link.
 * \param a first node \param b second node \param spec rate and delay
 * \return the devices (on a, on b)
 */
NetDeviceContainer
Connect(Ptr<Node> a, Ptr<Node> b, const LinkSpec& spec)
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(spec.rate));
    p2p.SetChannelAttribute("Delay", StringValue(spec.delay));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1000p"));
    return p2p.Install(a, b);
}

/** \return a router device installed on a fresh node \param delay its ForwardingDelay */
Ptr<WanRouterNetDevice>
MakeRouter(Time delay = Seconds(0))
{
    Ptr<Node> node = CreateObject<Node>();
    Ptr<WanRouterNetDevice> router = CreateObject<WanRouterNetDevice>();
    router->SetAttribute("ForwardingDelay", TimeValue(delay));
    node->AddDevice(router);
    return router;
}

/**
 * A chain host A -- router 1 -- ... -- router n -- host B. Router ports: 0 towards A, 1
 * towards B.
 */
struct Chain
{
    Host a;                                       //!< left host (10.1.1.1)
    Host b;                                       //!< right host (10.1.2.1)
    std::vector<Ptr<WanRouterNetDevice>> routers; //!< routers, left to right

    /**
     * \param links n + 1 links, left to right \param forwardingDelay every router's
     */
    Chain(const std::vector<LinkSpec>& links, Time forwardingDelay = Seconds(0))
    {
        a.node = CreateObject<Node>();
        b.node = CreateObject<Node>();
        for (std::size_t i = 0; i + 1 < links.size(); ++i)
        {
            routers.push_back(MakeRouter(forwardingDelay));
        }
        Ptr<Node> left = a.node;
        std::vector<Ptr<NetDevice>> leftPorts;
        std::vector<Ptr<NetDevice>> rightPorts;
        for (std::size_t i = 0; i < links.size(); ++i)
        {
            Ptr<Node> right = i < routers.size() ? routers[i]->GetNode() : b.node;
            NetDeviceContainer devices = Connect(left, right, links[i]);
            if (i == 0)
            {
                a.device = DynamicCast<PointToPointNetDevice>(devices.Get(0));
            }
            else
            {
                rightPorts.push_back(devices.Get(0));
            }
            if (i < routers.size())
            {
                leftPorts.push_back(devices.Get(1));
            }
            else
            {
                b.device = DynamicCast<PointToPointNetDevice>(devices.Get(1));
            }
            left = right;
        }
        SetUpHost(a, 1);
        SetUpHost(b, 2);
        for (std::size_t i = 0; i < routers.size(); ++i)
        {
            const uint32_t toA = routers[i]->AddPort(leftPorts[i]);
            const uint32_t toB = routers[i]->AddPort(rightPorts[i]);
            routers[i]->AddHostRoute(a.address, toA);
            routers[i]->AddHostRoute(b.address, toB);
        }
    }
};

/** A star: one router, host i on port i (10.1.<i+1>.1). */
struct Star
{
    Ptr<WanRouterNetDevice> router; //!< the router
    std::vector<Host> hosts;        //!< hosts, by port index

    /** \param n number of hosts */
    explicit Star(uint32_t n)
    {
        router = MakeRouter();
        hosts.resize(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            hosts[i].node = CreateObject<Node>();
            NetDeviceContainer devices =
                Connect(hosts[i].node, router->GetNode(), LinkSpec{"1Gbps", "1ms"});
            hosts[i].device = DynamicCast<PointToPointNetDevice>(devices.Get(0));
            SetUpHost(hosts[i], i + 1);
            const uint32_t port = router->AddPort(devices.Get(1));
            router->AddHostRoute(hosts[i].address, port);
        }
    }
};

/**
 * Unicast through one router (with and without ForwardingDelay) and through two routers:
 * the exact arrival time is the sum of serialisation and propagation times, and each router
 * decrements the TTL once.
 */
class WanRouterUnicastTestCase : public TestCase
{
  public:
    WanRouterUnicastTestCase()
        : TestCase("Unicast through one and two routers arrives at the computed time")
    {
    }

  private:
    /**
     * Send one datagram A -> B at 1 s and check arrival and TTL.
     * \param links the chain's links \param rates their rates in bit/s
     * \param delaysNs their delays in ns \param forwardingDelayNs each router's delay
     */
    void RunChain(const std::vector<LinkSpec>& links,
                  const std::vector<uint64_t>& rates,
                  const std::vector<int64_t>& delaysNs,
                  int64_t forwardingDelayNs)
    {
        const uint32_t payload = 1000;
        const uint8_t initialTtl = 64; // ns-3's default Ipv4L3Protocol DefaultTtl
        Chain chain(links, NanoSeconds(forwardingDelayNs));
        SocketRecorder atB;
        chain.b.socket->SetRecvCallback(MakeCallback(&SocketRecorder::Receive, &atB));
        Simulator::ScheduleWithContext(chain.a.node->GetId(),
                                       Seconds(1),
                                       &SendUdp,
                                       chain.a.socket,
                                       chain.b.address,
                                       payload,
                                       0);
        Simulator::Run();

        int64_t expectedNs = 1000000000LL;
        for (std::size_t i = 0; i < links.size(); ++i)
        {
            expectedNs += TxNs(payload + WIRE_OVERHEAD, rates[i]) + delaysNs[i];
        }
        expectedNs += forwardingDelayNs * static_cast<int64_t>(chain.routers.size());
        NS_TEST_ASSERT_MSG_EQ(atB.times.size(), 1, "one datagram arrives");
        if (atB.times.size() == 1)
        {
            NS_TEST_EXPECT_MSG_EQ(atB.times[0].GetNanoSeconds(), expectedNs, "arrival time");
            NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(atB.ttl[0]),
                                  initialTtl - chain.routers.size(),
                                  "TTL decremented once per router");
        }
        for (Ptr<WanRouterNetDevice> router : chain.routers)
        {
            NS_TEST_EXPECT_MSG_EQ(router->GetForwardCount(), 1, "each router forwards once");
            NS_TEST_EXPECT_MSG_EQ(router->GetTotalDropCount(), 0, "no drops");
        }
        Simulator::Destroy();
    }

    void DoRun() override
    {
        // 1030-byte frames: 8240 ns at 1 Gbps, 82400 ns at 100 Mbps, 824 ns at 10 Gbps.
        RunChain({{"1Gbps", "1ms"}, {"100Mbps", "2ms"}},
                 {1000000000ULL, 100000000ULL},
                 {1000000, 2000000},
                 0);
        RunChain({{"1Gbps", "1ms"}, {"100Mbps", "2ms"}},
                 {1000000000ULL, 100000000ULL},
                 {1000000, 2000000},
                 3000);
        RunChain({{"1Gbps", "1ms"}, {"10Gbps", "5ms"}, {"100Mbps", "2ms"}},
                 {1000000000ULL, 10000000000ULL, 100000000ULL},
                 {1000000, 5000000, 2000000},
                 0);
    }
};

/** TTL 1 dies at the first router, TTL 2 at the second, TTL 3 arrives with TTL 1. */
class WanRouterTtlTestCase : public TestCase
{
  public:
    WanRouterTtlTestCase()
        : TestCase("TTL expiry drops and counts at the right router")
    {
    }

  private:
    void DoRun() override
    {
        Chain chain({{"1Gbps", "1ms"}, {"1Gbps", "1ms"}, {"1Gbps", "1ms"}});
        SocketRecorder atB;
        chain.b.socket->SetRecvCallback(MakeCallback(&SocketRecorder::Receive, &atB));
        const uint32_t id = chain.a.node->GetId();
        Simulator::ScheduleWithContext(id,
                                       Seconds(1),
                                       &SendUdp,
                                       chain.a.socket,
                                       chain.b.address,
                                       100,
                                       1);
        Simulator::ScheduleWithContext(id,
                                       Seconds(2),
                                       &SendUdp,
                                       chain.a.socket,
                                       chain.b.address,
                                       100,
                                       2);
        Simulator::ScheduleWithContext(id,
                                       Seconds(3),
                                       &SendUdp,
                                       chain.a.socket,
                                       chain.b.address,
                                       100,
                                       3);
        Simulator::Run();

        Ptr<WanRouterNetDevice> r1 = chain.routers[0];
        Ptr<WanRouterNetDevice> r2 = chain.routers[1];
        NS_TEST_EXPECT_MSG_EQ(r1->GetDropCount(WanRouterNetDevice::DROP_TTL_EXPIRED), 1, "TTL 1");
        NS_TEST_EXPECT_MSG_EQ(r2->GetDropCount(WanRouterNetDevice::DROP_TTL_EXPIRED), 1, "TTL 2");
        NS_TEST_EXPECT_MSG_EQ(r1->GetTotalDropCount(), 1, "router 1 drops only TTL 1");
        NS_TEST_EXPECT_MSG_EQ(r1->GetForwardCount(), 2, "router 1 forwards TTL 2 and 3");
        NS_TEST_EXPECT_MSG_EQ(r2->GetForwardCount(), 1, "router 2 forwards TTL 3");
        NS_TEST_ASSERT_MSG_EQ(atB.times.size(), 1, "only the TTL 3 datagram arrives");
        NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(atB.ttl[0]), 1, "arrives with TTL 3 - 2");
        NS_TEST_EXPECT_MSG_EQ((atB.times[0] > Seconds(3)), true, "it is the third one");
        Simulator::Destroy();
    }
};

/** Common set-up of the multicast tests: a star of four hosts, host 0 sends to a group. */
class WanRouterMulticastTestBase : public TestCase
{
  public:
    /** \param name test name */
    explicit WanRouterMulticastTestBase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /** \param star the star \param at per-host MacRx recorders, filled */
    void Record(Star& star, std::vector<DeviceRecorder>& at)
    {
        at.resize(star.hosts.size());
        for (std::size_t i = 0; i < star.hosts.size(); ++i)
        {
            star.hosts[i].device->TraceConnectWithoutContext(
                "MacRx",
                MakeCallback(&DeviceRecorder::Receive, &at[i]));
        }
    }

    /** \param star the star \param group group \param when send time \param count datagrams */
    void SendGroup(Star& star, Ipv4Address group, Time when, uint32_t count)
    {
        for (uint32_t k = 0; k < count; ++k)
        {
            Simulator::ScheduleWithContext(star.hosts[0].node->GetId(),
                                           when + MilliSeconds(k),
                                           &SendUdp,
                                           star.hosts[0].socket,
                                           group,
                                           200,
                                           0);
        }
    }
};

/** A (source, group) entry listing two ports and the ingress port: two copies, none back. */
class WanRouterMulticastTestCase : public WanRouterMulticastTestBase
{
  public:
    WanRouterMulticastTestCase()
        : WanRouterMulticastTestBase("Multicast replicates to listed ports, never the ingress")
    {
    }

  private:
    void DoRun() override
    {
        Star star(4);
        const Ipv4Address group("239.0.0.1");
        star.router->AddMulticastRoute(star.hosts[0].address, group, {1, 0, 2});
        std::vector<DeviceRecorder> at;
        Record(star, at);
        SocketRecorder socket1;
        star.hosts[1].socket->SetRecvCallback(MakeCallback(&SocketRecorder::Receive, &socket1));
        ReplicateRecorder replicate;
        star.router->TraceConnectWithoutContext(
            "Replicate",
            MakeCallback(&ReplicateRecorder::Replicate, &replicate));
        SendGroup(star, group, Seconds(1), 3);
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(at[0].packets.size(), 0, "nothing back to the sender");
        NS_TEST_EXPECT_MSG_EQ(at[1].packets.size(), 3, "host 1 gets every datagram");
        NS_TEST_EXPECT_MSG_EQ(at[2].packets.size(), 3, "host 2 gets every datagram");
        NS_TEST_EXPECT_MSG_EQ(at[3].packets.size(), 0, "host 3 is not on the entry");
        NS_TEST_EXPECT_MSG_EQ(socket1.times.size(), 3, "the copies reach host 1's socket");
        NS_TEST_EXPECT_MSG_EQ(star.router->GetForwardCount(), 6, "3 datagrams x 2 copies");
        NS_TEST_EXPECT_MSG_EQ(star.router->GetTotalDropCount(), 0, "no drops");
        NS_TEST_ASSERT_MSG_EQ(replicate.copies.size(), 3, "one Replicate per datagram");
        NS_TEST_EXPECT_MSG_EQ(replicate.copies[0], 2, "two copies each");
        Simulator::Destroy();
    }
};

/** MulticastEnabled=false: every multicast datagram is dropped and counted. */
class WanRouterMulticastDisabledTestCase : public WanRouterMulticastTestBase
{
  public:
    WanRouterMulticastDisabledTestCase()
        : WanRouterMulticastTestBase("MulticastEnabled=false drops and counts multicast")
    {
    }

  private:
    void DoRun() override
    {
        Star star(3);
        const Ipv4Address group("239.0.0.1");
        star.router->SetAttribute("MulticastEnabled", BooleanValue(false));
        star.router->AddMulticastRoute(star.hosts[0].address, group, {1, 2});
        std::vector<DeviceRecorder> at;
        Record(star, at);
        SendGroup(star, group, Seconds(1), 4);
        // Unicast still flows while multicast is off.
        Simulator::ScheduleWithContext(star.hosts[0].node->GetId(),
                                       Seconds(2),
                                       &SendUdp,
                                       star.hosts[0].socket,
                                       star.hosts[2].address,
                                       200,
                                       0);
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(
            star.router->GetDropCount(WanRouterNetDevice::DROP_MULTICAST_DISABLED),
            4,
            "four multicast drops");
        NS_TEST_EXPECT_MSG_EQ(star.router->GetTotalDropCount(), 4, "no other drops");
        NS_TEST_EXPECT_MSG_EQ(at[1].packets.size(), 0, "nothing to host 1");
        NS_TEST_EXPECT_MSG_EQ(at[2].packets.size(), 1, "only the unicast to host 2");
        NS_TEST_EXPECT_MSG_EQ(star.router->GetForwardCount(), 1, "only the unicast forwarded");
        Simulator::Destroy();
    }
};

/** MaxFanOut: an entry longer than the limit is dropped; one within it is served. Also
 *  no-route for multicast and unicast. */
class WanRouterFanOutTestCase : public WanRouterMulticastTestBase
{
  public:
    WanRouterFanOutTestCase()
        : WanRouterMulticastTestBase("MaxFanOut drops large entries; missing routes drop")
    {
    }

  private:
    void DoRun() override
    {
        Star star(4);
        const Ipv4Address wide("239.0.0.1");
        const Ipv4Address narrow("239.0.0.2");
        const Ipv4Address unknownGroup("239.0.0.3");
        star.router->SetAttribute("MaxFanOut", UintegerValue(2));
        star.router->AddMulticastRoute(star.hosts[0].address, wide, {1, 2, 3});
        star.router->AddMulticastRoute(star.hosts[0].address, narrow, {2, 3});
        std::vector<DeviceRecorder> at;
        Record(star, at);
        SendGroup(star, wide, Seconds(1), 2);
        SendGroup(star, narrow, Seconds(2), 1);
        SendGroup(star, unknownGroup, Seconds(3), 1);
        Simulator::ScheduleWithContext(star.hosts[0].node->GetId(),
                                       Seconds(4),
                                       &SendUdp,
                                       star.hosts[0].socket,
                                       Ipv4Address("10.9.9.9"),
                                       200,
                                       0);
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(star.router->GetDropCount(WanRouterNetDevice::DROP_FANOUT_LIMIT),
                              2,
                              "the 3-port entry exceeds MaxFanOut 2");
        NS_TEST_EXPECT_MSG_EQ(star.router->GetDropCount(WanRouterNetDevice::DROP_NO_ROUTE),
                              2,
                              "unknown group and unknown unicast destination");
        NS_TEST_EXPECT_MSG_EQ(star.router->GetTotalDropCount(), 4, "no other drops");
        NS_TEST_EXPECT_MSG_EQ(at[1].packets.size(), 0, "host 1 only on the wide entry");
        NS_TEST_EXPECT_MSG_EQ(at[2].packets.size(), 1, "host 2 gets the narrow group");
        NS_TEST_EXPECT_MSG_EQ(at[3].packets.size(), 1, "host 3 gets the narrow group");
        NS_TEST_EXPECT_MSG_EQ(star.router->GetForwardCount(), 2, "the narrow group's copies");
        Simulator::Destroy();
    }
};

/**
 * Malformed input from a bare injector node (no IP stack) on port 0: hand-made bad headers,
 * a few hundred random byte strings of length 0..100 from a seeded RNG, and non-IPv4 frames.
 * Nothing crashes, nothing is forwarded, every packet is counted once. Also Mtu.
 */
class WanRouterMalformedTestCase : public TestCase
{
  public:
    WanRouterMalformedTestCase()
        : TestCase("Malformed, random and non-IPv4 input is dropped and counted")
    {
    }

  private:
    void DoRun() override
    {
        // The sink has no IP stack, so it answers nothing (no ICMP back to the injector).
        Ptr<Node> injector = CreateObject<Node>();
        Ptr<WanRouterNetDevice> router = MakeRouter();
        Ptr<Node> sink = CreateObject<Node>();
        NetDeviceContainer in = Connect(injector, router->GetNode(), LinkSpec{"1Gbps", "1ms"});
        NetDeviceContainer out = Connect(router->GetNode(), sink, LinkSpec{"1Gbps", "1ms"});
        router->AddPort(in.Get(1));
        const uint32_t toSink = router->AddPort(out.Get(0));
        const Ipv4Address destination("10.1.2.1");
        router->AddHostRoute(destination, toSink);
        router->SetAttribute("Mtu", UintegerValue(600));
        DeviceRecorder atB;
        out.Get(1)->TraceConnectWithoutContext("MacRx",
                                               MakeCallback(&DeviceRecorder::Receive, &atB));

        const Ipv4Address source("10.1.1.1");
        std::vector<std::vector<uint8_t>> malformed;
        // Truncated: the header claims more bytes than the packet has.
        std::vector<uint8_t> truncated = HandMadeIpv4(100, 64, source, destination, false);
        truncated.resize(60);
        malformed.push_back(truncated);
        // Shorter than a header.
        std::vector<uint8_t> stub = HandMadeIpv4(100, 64, source, destination, false);
        stub.resize(19);
        malformed.push_back(stub);
        // Total length shorter than the packet.
        std::vector<uint8_t> padded = HandMadeIpv4(100, 64, source, destination, false);
        padded.resize(120, 0);
        malformed.push_back(padded);
        // IHL 4, IHL 6 (options: not forwarded), version 6.
        for (uint8_t first : {uint8_t(0x44), uint8_t(0x46), uint8_t(0x65)})
        {
            std::vector<uint8_t> bad = HandMadeIpv4(100, 64, source, destination, false);
            bad[0] = first;
            malformed.push_back(bad);
        }
        // Empty.
        malformed.push_back({});

        std::mt19937 rng(20260801);
        std::uniform_int_distribution<uint32_t> length(0, 100);
        std::uniform_int_distribution<uint32_t> byte(0, 255);
        const uint32_t randomCount = 400;
        std::vector<std::vector<uint8_t>> random;
        for (uint32_t k = 0; k < randomCount; ++k)
        {
            std::vector<uint8_t> bytes(length(rng));
            for (uint8_t& value : bytes)
            {
                value = static_cast<uint8_t>(byte(rng));
            }
            random.push_back(bytes);
        }

        const uint32_t id = injector->GetId();
        Ptr<NetDevice> injectorDevice = in.Get(0);
        Time when = Seconds(1);
        const Time gap = MicroSeconds(10);
        for (const auto& bytes : malformed)
        {
            Simulator::ScheduleWithContext(id, when, &SendRaw, injectorDevice, bytes, IPV4);
            when += gap;
        }
        for (const auto& bytes : random)
        {
            Simulator::ScheduleWithContext(id, when, &SendRaw, injectorDevice, bytes, IPV4);
            when += gap;
        }
        // Valid IPv4 bytes, but framed as IPv6.
        Simulator::ScheduleWithContext(id,
                                       when,
                                       &SendRaw,
                                       injectorDevice,
                                       HandMadeIpv4(100, 64, source, destination, false),
                                       IPV6);
        when += gap;
        // Valid, but larger than the router's Mtu of 600.
        Simulator::ScheduleWithContext(id,
                                       when,
                                       &SendRaw,
                                       injectorDevice,
                                       HandMadeIpv4(601, 64, source, destination, false),
                                       IPV4);
        when += gap;
        // Valid with TTL 0 and TTL 1: expired.
        for (uint8_t ttl : {uint8_t(0), uint8_t(1)})
        {
            Simulator::ScheduleWithContext(id,
                                           when,
                                           &SendRaw,
                                           injectorDevice,
                                           HandMadeIpv4(100, ttl, source, destination, false),
                                           IPV4);
            when += gap;
        }
        // Finally one valid packet of exactly the Mtu: it must get through.
        Simulator::ScheduleWithContext(id,
                                       when,
                                       &SendRaw,
                                       injectorDevice,
                                       HandMadeIpv4(600, 64, source, destination, false),
                                       IPV4);
        Simulator::Run();

        const uint64_t sent = malformed.size() + random.size() + 4;
        NS_TEST_EXPECT_MSG_EQ(router->GetTotalDropCount(), sent, "every bad packet dropped");
        NS_TEST_EXPECT_MSG_EQ(router->GetDropCount(WanRouterNetDevice::DROP_NOT_IPV4), 1, "v6");
        NS_TEST_EXPECT_MSG_EQ(router->GetDropCount(WanRouterNetDevice::DROP_TOO_BIG), 1, "Mtu");
        NS_TEST_EXPECT_MSG_EQ(router->GetDropCount(WanRouterNetDevice::DROP_TTL_EXPIRED),
                              2,
                              "TTL 0 and 1");
        NS_TEST_EXPECT_MSG_EQ(
            (router->GetDropCount(WanRouterNetDevice::DROP_MALFORMED) >= malformed.size()),
            true,
            "every hand-made malformed packet counts as malformed");
        NS_TEST_EXPECT_MSG_EQ(router->GetForwardCount(), 1, "only the valid packet");
        NS_TEST_ASSERT_MSG_EQ(atB.packets.size(), 1, "only the valid packet arrives");
        NS_TEST_EXPECT_MSG_EQ(atB.packets[0].size(), 600 + 2, "its size, PPP header included");
        NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(atB.packets[0][2 + 8]), 63, "TTL 64 - 1");
        Simulator::Destroy();
    }
};

/** With ChecksumEnabled, a bad checksum is malformed and a forwarded header stays valid. */
class WanRouterChecksumTestCase : public TestCase
{
  public:
    WanRouterChecksumTestCase()
        : TestCase("Checksums are verified and rewritten when enabled")
    {
    }

  private:
    void DoRun() override
    {
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
        Ptr<Node> injector = CreateObject<Node>();
        Ptr<WanRouterNetDevice> router = MakeRouter();
        Ptr<Node> sink = CreateObject<Node>();
        NetDeviceContainer in = Connect(injector, router->GetNode(), LinkSpec{"1Gbps", "1ms"});
        NetDeviceContainer out = Connect(router->GetNode(), sink, LinkSpec{"1Gbps", "1ms"});
        router->AddPort(in.Get(1));
        const uint32_t toSink = router->AddPort(out.Get(0));
        const Ipv4Address source("10.1.1.1");
        const Ipv4Address destination("10.1.2.1");
        router->AddHostRoute(destination, toSink);
        DeviceRecorder atSink;
        out.Get(1)->TraceConnectWithoutContext("MacRx",
                                               MakeCallback(&DeviceRecorder::Receive, &atSink));

        std::vector<uint8_t> good = HandMadeIpv4(100, 64, source, destination, true);
        std::vector<uint8_t> bad = good;
        bad[11] ^= 0x01;
        Simulator::ScheduleWithContext(injector->GetId(),
                                       Seconds(1),
                                       &SendRaw,
                                       in.Get(0),
                                       good,
                                       IPV4);
        Simulator::ScheduleWithContext(injector->GetId(),
                                       Seconds(2),
                                       &SendRaw,
                                       in.Get(0),
                                       bad,
                                       IPV4);
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(router->GetDropCount(WanRouterNetDevice::DROP_MALFORMED),
                              1,
                              "bad checksum");
        NS_TEST_EXPECT_MSG_EQ(router->GetForwardCount(), 1, "good checksum forwarded");
        NS_TEST_ASSERT_MSG_EQ(atSink.packets.size(), 1, "one arrives");
        const std::vector<uint8_t>& arrived = atSink.packets[0];
        NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(arrived[2 + 8]), 63, "TTL decremented");
        NS_TEST_EXPECT_MSG_EQ(Checksum(arrived, 2, 20), 0, "rewritten checksum is valid");
        Simulator::Destroy();
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
    }
};

/** Records the packet objects a device trace sees (their addresses: no reference kept). */
struct ObjectRecorder
{
    std::vector<const Packet*> objects; //!< each packet's address
    std::vector<uint8_t> ttl;           //!< each packet's TTL byte at the time

    /** \param packet a packet (IPv4 first) */
    void Record(Ptr<const Packet> packet)
    {
        objects.push_back(PeekPointer(packet));
        uint8_t header[20];
        packet->CopyData(header, sizeof(header));
        ttl.push_back(header[8]);
    }
};

/** Keeps every packet a trace sees, as a user's trace sink may. */
struct PacketKeeper
{
    std::vector<Ptr<const Packet>> packets; //!< the packets, held

    /** \param packet a packet */
    void Keep(Ptr<const Packet> packet)
    {
        packets.push_back(packet);
    }
};

/**
 * On module links (WanLinkNetDevice), the router edits the delivered packet itself instead of
 * a copy when nothing else holds it, and copies it when a trace sink keeps it: the kept packet
 * still shows the TTL it arrived with. Multicast copies each carry the decremented TTL once.
 */
class WanRouterInPlaceTestCase : public TestCase
{
  public:
    WanRouterInPlaceTestCase()
        : TestCase("Module links: the sole copy is edited in place, a kept packet never")
    {
    }

  private:
    /** The router, its three module links, and traces on both sides of it. */
    struct Bed
    {
        Ptr<WanRouterNetDevice> router;              //!< the router
        Ptr<NetDevice> injector;                     //!< sends raw IPv4 to the router
        Ptr<NetDevice> ingress;                      //!< the router's port from the injector
        std::array<Ptr<NetDevice>, 2> egress;        //!< the router's ports to sinks A and B
        ObjectRecorder arriving;                     //!< MacRx at the ingress port
        std::array<ObjectRecorder, 2> leaving;       //!< MacTx at each egress port
        std::array<std::vector<uint8_t>, 2> sinkTtl; //!< TTL of what sink A and B receive

        Bed()
        {
            router = MakeRouter();
            WanLinkHelper link;
            link.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
            link.SetChannelAttribute("Delay", StringValue("1ms"));
            NetDeviceContainer in = link.Install(CreateObject<Node>(), router->GetNode());
            injector = in.Get(0);
            ingress = in.Get(1);
            router->AddPort(ingress);
            for (uint32_t k = 0; k < 2; ++k)
            {
                NetDeviceContainer out = link.Install(router->GetNode(), CreateObject<Node>());
                egress[k] = out.Get(0);
                const uint32_t port = router->AddPort(egress[k]);
                router->AddHostRoute(SinkAddress(k), port);
                out.Get(1)->SetReceiveCallback(
                    MakeCallback(k == 0 ? &Bed::ReceiveAtA : &Bed::ReceiveAtB, this));
                egress[k]->TraceConnectWithoutContext(
                    "MacTx",
                    MakeCallback(&ObjectRecorder::Record, &leaving[k]));
            }
            router->AddMulticastRoute(Source(), Group(), {1, 2});
            ingress->TraceConnectWithoutContext("MacRx",
                                                MakeCallback(&ObjectRecorder::Record, &arriving));
        }

        /** \return the injector's address */
        static Ipv4Address Source()
        {
            return Ipv4Address("10.1.1.1");
        }

        /** \return the group both sinks are on */
        static Ipv4Address Group()
        {
            return Ipv4Address("239.1.1.1");
        }

        /** \param k sink index \return its address */
        static Ipv4Address SinkAddress(uint32_t k)
        {
            return Ipv4Address(k == 0 ? "10.1.2.1" : "10.1.3.1");
        }

        /** \brief Send one 100-byte packet with TTL 64 at 1 s. \param destination where */
        void Send(Ipv4Address destination)
        {
            Simulator::ScheduleWithContext(injector->GetNode()->GetId(),
                                           Seconds(1),
                                           &SendRaw,
                                           injector,
                                           HandMadeIpv4(100, 64, Source(), destination, false),
                                           IPV4);
            Simulator::Run();
        }

      private:
        bool ReceiveAt(uint32_t k, Ptr<const Packet> packet)
        {
            uint8_t header[20];
            packet->CopyData(header, sizeof(header));
            sinkTtl[k].push_back(header[8]);
            return true;
        }

        bool ReceiveAtA(Ptr<NetDevice>, Ptr<const Packet> packet, uint16_t, const Address&)
        {
            return ReceiveAt(0, packet);
        }

        bool ReceiveAtB(Ptr<NetDevice>, Ptr<const Packet> packet, uint16_t, const Address&)
        {
            return ReceiveAt(1, packet);
        }
    };

    void DoRun() override
    {
        {
            // Unicast, nothing else holds the packet: the router sends the delivered object.
            Bed bed;
            bed.Send(Bed::SinkAddress(0));
            NS_TEST_ASSERT_MSG_EQ(bed.arriving.objects.size(), 1, "one packet arrives");
            NS_TEST_ASSERT_MSG_EQ(bed.leaving[0].objects.size(), 1, "one leaves towards A");
            NS_TEST_EXPECT_MSG_EQ(bed.leaving[0].objects[0],
                                  bed.arriving.objects[0],
                                  "the delivered packet object itself is sent on");
            NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(bed.leaving[0].ttl[0]), 63, "TTL - 1");
            NS_TEST_ASSERT_MSG_EQ(bed.sinkTtl[0].size(), 1, "A receives it");
            NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(bed.sinkTtl[0][0]), 63, "once");
            NS_TEST_EXPECT_MSG_EQ(bed.sinkTtl[1].size(), 0, "B receives nothing");
            Simulator::Destroy();
        }
        {
            // A trace sink keeps the packet: the router must copy, and the kept packet keeps
            // the TTL it arrived with.
            Bed bed;
            PacketKeeper keeper;
            bed.ingress->TraceConnectWithoutContext("MacRx",
                                                    MakeCallback(&PacketKeeper::Keep, &keeper));
            bed.Send(Bed::SinkAddress(0));
            NS_TEST_ASSERT_MSG_EQ(keeper.packets.size(), 1, "the sink kept the arrival");
            NS_TEST_ASSERT_MSG_EQ(bed.leaving[0].objects.size(), 1, "one leaves towards A");
            NS_TEST_EXPECT_MSG_NE(bed.leaving[0].objects[0],
                                  PeekPointer(keeper.packets[0]),
                                  "a copy is sent on");
            uint8_t kept[20];
            keeper.packets[0]->CopyData(kept, sizeof(kept));
            NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(kept[8]), 64, "kept packet untouched");
            NS_TEST_ASSERT_MSG_EQ(bed.sinkTtl[0].size(), 1, "A receives it");
            NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(bed.sinkTtl[0][0]), 63, "TTL - 1");
            Simulator::Destroy();
        }
        {
            // Multicast to A and B: the last port takes the delivered object, the other a copy
            // made after the rewrite; each sink sees TTL 63 exactly once.
            Bed bed;
            bed.Send(Bed::Group());
            NS_TEST_ASSERT_MSG_EQ(bed.arriving.objects.size(), 1, "one packet arrives");
            NS_TEST_ASSERT_MSG_EQ(bed.leaving[0].objects.size(), 1, "one copy towards A");
            NS_TEST_ASSERT_MSG_EQ(bed.leaving[1].objects.size(), 1, "one copy towards B");
            NS_TEST_EXPECT_MSG_NE(bed.leaving[0].objects[0],
                                  bed.arriving.objects[0],
                                  "A gets a copy");
            NS_TEST_EXPECT_MSG_EQ(bed.leaving[1].objects[0],
                                  bed.arriving.objects[0],
                                  "B, the last port, gets the delivered object");
            for (uint32_t k = 0; k < 2; ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(bed.sinkTtl[k].size(), 1, "each sink receives one");
                NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(bed.sinkTtl[k][0]), 63, "TTL - 1");
            }
            Simulator::Destroy();
        }
    }
};

/** The wan-router test suite. */
class WanRouterTestSuite : public TestSuite
{
  public:
    WanRouterTestSuite()
        : TestSuite("wan-router")
    {
        AddTestCase(new WanRouterUnicastTestCase);
        AddTestCase(new WanRouterTtlTestCase);
        AddTestCase(new WanRouterMulticastTestCase);
        AddTestCase(new WanRouterMulticastDisabledTestCase);
        AddTestCase(new WanRouterFanOutTestCase);
        AddTestCase(new WanRouterMalformedTestCase);
        AddTestCase(new WanRouterChecksumTestCase);
        AddTestCase(new WanRouterInPlaceTestCase);
    }
};

/** Static instance registering the suite. */
static WanRouterTestSuite g_wanRouterTestSuite;

} // namespace
