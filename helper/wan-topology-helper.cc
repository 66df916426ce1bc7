/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-topology-helper.h"

#include "wan-link-helper.h"
#include "wan-multicast-tree.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/trace-helper.h"
#include "ns3/uinteger.h"
#include "ns3/wan-link-channel.h"
#include "ns3/wan-link-net-device.h"
#include "ns3/wan-mpi.h"
#include "ns3/wan-wire.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTopologyHelper");

namespace
{

/** Largest number of islands the 10.0.0.0/8 scheme numbers (256 x 256 subnets). */
constexpr uint32_t MAX_ISLANDS = 1u << 16;

/** Islands are numbered into 10.0.0.0/8: island i is 10.(i / 256).(i % 256).1. */
constexpr uint32_t ISLAND_NET_BASE = 0x0A000000;
/** Each access link is one /24 subnet; the host is its .1 (the router needs no address). */
constexpr uint32_t ISLAND_SUBNET_SHIFT = 8;
/** Host part of an island's address inside its /24. */
constexpr uint32_t ISLAND_HOST_PART = 1;
/** Mask of an access subnet (/24). */
const char* const ACCESS_MASK = "255.255.255.0";
/** The administratively scoped multicast block the groups come from. */
const char* const GROUP_BLOCK = "239.0.0.0";
/** Mask of GROUP_BLOCK (/8). */
const char* const GROUP_MASK = "255.0.0.0";

} // namespace

const DataRate WanTopologyHelper::DEFAULT_IN_BOX_RATE = DataRate("400Gbps");
const Time WanTopologyHelper::DEFAULT_IN_BOX_DELAY = NanoSeconds(500);

WanTopologyHelper::WanTopologyHelper()
    : m_inBoxRate(DEFAULT_IN_BOX_RATE),
      m_inBoxDelay(DEFAULT_IN_BOX_DELAY),
      m_mtu(WanWire::DEFAULT_MTU),
      m_nextGroup(FIRST_GROUP)
{
    m_routerFactory.SetTypeId(WanRouterNetDevice::GetTypeId());
    m_fpgaFactory.SetTypeId(FpgaAggregatorNetDevice::GetTypeId());
}

WanTopologyHelper::~WanTopologyHelper() = default;

void
WanTopologyHelper::SetRouterAttribute(const std::string& name, const AttributeValue& value)
{
    m_routerFactory.Set(name, value);
}

void
WanTopologyHelper::SetFpgaAttribute(const std::string& name, const AttributeValue& value)
{
    m_fpgaFactory.Set(name, value);
}

void
WanTopologyHelper::SetTransitAttribute(const std::string& name, const AttributeValue& value)
{
    m_transit.SetAttribute(name, value);
}

void
WanTopologyHelper::SetInBoxLink(DataRate rate, Time delay)
{
    m_inBoxRate = rate;
    m_inBoxDelay = delay;
}

void
WanTopologyHelper::SetQueue(const WanQueueSpec& queue)
{
    m_queue = queue;
}

void
WanTopologyHelper::SetQueueSize(QueueSize size)
{
    SetQueue(size.GetUnit() == QueueSizeUnit::PACKETS ? WanQueueSpec::Packets(size.GetValue())
                                                      : WanQueueSpec::Bytes(size.GetValue()));
}

QueueSize
WanTopologyHelper::ResolveQueue(const WanQueueSpec& spec, DataRate rate, double roundTrip) const
{
    const QueueSizeUnit unit =
        spec.GetKind() == WanQueueSpec::PACKETS ? QueueSizeUnit::PACKETS : QueueSizeUnit::BYTES;
    return QueueSize(unit,
                     static_cast<uint32_t>(spec.Resolve(rate.GetBitRate(), roundTrip, m_mtu)));
}

void
WanTopologyHelper::CheckMtu(uint32_t mtu)
{
    if (mtu < MIN_MTU || mtu > MAX_MTU)
    {
        throw std::invalid_argument("MTU " + std::to_string(mtu) + " bytes: expected " +
                                    std::to_string(MIN_MTU) + " to " + std::to_string(MAX_MTU));
    }
}

void
WanTopologyHelper::SetMtu(uint32_t mtu)
{
    CheckMtu(mtu);
    m_mtu = static_cast<uint16_t>(mtu);
}

uint16_t
WanTopologyHelper::GetMtu() const
{
    return m_mtu;
}

void
WanTopologyHelper::SetCitySystemIds(const std::vector<uint32_t>& systemIds)
{
    NS_ABORT_MSG_IF(m_routing, "WanTopologyHelper::SetCitySystemIds after Install");
    m_citySystemIds = systemIds;
}

const std::vector<uint32_t>&
WanTopologyHelper::GetCitySystemIds() const
{
    return m_citySystemIds;
}

void
WanTopologyHelper::SetStockLinks(bool stock)
{
    m_stockLinks = stock;
}

std::array<Ptr<NetDevice>, 2>
WanTopologyHelper::Connect(Ptr<Node> a,
                           Ptr<Node> b,
                           DataRate rate,
                           Time delay,
                           const std::array<QueueSize, 2>& queues)
{
    NS_LOG_FUNCTION(this << a->GetId() << b->GetId() << rate << delay << queues[0] << queues[1]);
    if (m_stockLinks)
    {
        return ConnectStockLink(a, b, rate, delay, queues);
    }
    WanLinkHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(rate));
    link.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    const NetDeviceContainer pair = link.Install(a, b);
    std::array<Ptr<NetDevice>, 2> devices;
    for (uint32_t end = 0; end < devices.size(); ++end)
    {
        devices[end] = pair.Get(end);
        devices[end]->SetAttribute("TxQueueMaxSize", QueueSizeValue(queues[end]));
    }
    return devices;
}

std::array<Ptr<NetDevice>, 2>
WanTopologyHelper::ConnectStockLink(Ptr<Node> a,
                                    Ptr<Node> b,
                                    DataRate rate,
                                    Time delay,
                                    const std::array<QueueSize, 2>& queues)
{
    NS_LOG_FUNCTION(this << a->GetId() << b->GetId() << rate << delay);
    // As PointToPointHelper::Install does (addresses, queues). Flow control (a
    // NetDeviceQueueInterface) only serves an IP stack's traffic-control layer: ConfigureHost()
    // adds it to the hosts' devices; on router and FPGA ports its queue trace sinks would
    // only cost time. Between ranks of a distributed run: ns-3's remote channel, as
    // PointToPointHelper chooses it (either end simulated by another rank).
    const bool remote = WanMpi::IsSimulating() && (a->GetSystemId() != WanMpi::GetRank() ||
                                                   b->GetSystemId() != WanMpi::GetRank());
    Ptr<PointToPointChannel> channel = WanMpi::CreatePointToPointChannel(remote);
    channel->SetAttribute("Delay", TimeValue(delay));
    const std::array<Ptr<Node>, 2> nodes{a, b};
    std::array<Ptr<NetDevice>, 2> devices;
    for (uint32_t end = 0; end < devices.size(); ++end)
    {
        Ptr<PointToPointNetDevice> device =
            CreateObjectWithAttributes<PointToPointNetDevice>("DataRate",
                                                              DataRateValue(rate),
                                                              "Mtu",
                                                              UintegerValue(m_mtu));
        device->SetAddress(Mac48Address::Allocate());
        nodes[end]->AddDevice(device);
        device->SetQueue(
            CreateObjectWithAttributes<DropTailQueue<Packet>>("MaxSize",
                                                              QueueSizeValue(queues[end])));
        device->Attach(channel);
        WanMpi::AttachReceiver(device, MakeCallback(&PointToPointNetDevice::Receive, device));
        devices[end] = device;
    }
    return devices;
}

void
WanTopologyHelper::Install(const WanTopology& topology)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_routing, "WanTopologyHelper::Install called twice");
    CheckInstallable(topology);
    m_topology = topology;
    if (m_queue)
    {
        m_topology.SetQueue(*m_queue);
    }
    m_routing = std::make_unique<WanRouting>(m_topology);
    std::vector<double> linkRoundTrips;
    std::vector<double> accessRoundTrips;
    m_routing->GetLongestRoundTrips(linkRoundTrips, accessRoundTrips);
    m_longestRoundTrip = 0;
    for (double roundTrip : accessRoundTrips)
    {
        m_longestRoundTrip = std::max(m_longestRoundTrip, roundTrip);
    }
    CreateNodes();
    ConnectWanLinks(linkRoundTrips);
    const std::vector<Ptr<NetDevice>> routerSide = ConnectIslands(accessRoundTrips);
    InstallRouters(routerSide);
    InstallHosts();
    InstallUnicastRoutes();
    InstallTransitFpgas();
}

void
WanTopologyHelper::CheckInstallable(const WanTopology& topology) const
{
    topology.Validate();
    if (topology.GetIslands().size() > MAX_ISLANDS)
    {
        throw WanTopologyError("topology '" + topology.GetName() +
                               "': " + std::to_string(topology.GetIslands().size()) +
                               " islands exceed the addressing scheme's " +
                               std::to_string(MAX_ISLANDS));
    }
    if (!m_citySystemIds.empty() && m_citySystemIds.size() != topology.GetCities().size())
    {
        throw WanTopologyError("topology '" + topology.GetName() +
                               "': " + std::to_string(m_citySystemIds.size()) + " system ids for " +
                               std::to_string(topology.GetCities().size()) + " cities");
    }
}

uint32_t
WanTopologyHelper::SystemIdOf(uint32_t city) const
{
    return m_citySystemIds.empty() ? 0u : m_citySystemIds[city];
}

void
WanTopologyHelper::CreateNodes()
{
    // Routers by city index, then hosts by island index (FPGAs as they come); each with its
    // city's system id (the rank that simulates it in a distributed run).
    for (uint32_t c = 0; c < m_topology.GetCities().size(); ++c)
    {
        m_routerNodes.Add(CreateObject<Node>(SystemIdOf(c)));
    }
    for (const WanIsland& island : m_topology.GetIslands())
    {
        m_islandNodes.Add(CreateObject<Node>(SystemIdOf(island.city)));
    }
}

void
WanTopologyHelper::ConnectWanLinks(const std::vector<double>& linkRoundTrips)
{
    const auto& cities = m_topology.GetCities();
    const auto& links = m_topology.GetLinks();
    m_wanDevices.clear();
    for (uint32_t l = 0; l < links.size(); ++l)
    {
        const WanLink& link = links[l];
        const QueueSize queue =
            ResolveQueue(m_topology.GetLinkQueue(l), DataRate(link.bps), linkRoundTrips[l]);
        NS_LOG_INFO("link " << cities[link.a].code << "-" << cities[link.b].code << ": queues "
                            << queue << " (" << m_topology.GetLinkQueue(l).ToString() << ")");
        m_wanDevices.push_back(Connect(m_routerNodes.Get(link.a),
                                       m_routerNodes.Get(link.b),
                                       DataRate(link.bps),
                                       NanoSeconds(WanRouting::ToNanoSeconds(link.delay)),
                                       {queue, queue}));
    }
}

std::vector<Ptr<NetDevice>>
WanTopologyHelper::ConnectIslands(const std::vector<double>& accessRoundTrips)
{
    const uint32_t nIslands = m_topology.GetIslands().size();
    m_islandDevices.assign(nIslands, nullptr);
    m_accessPeers.assign(nIslands, nullptr);
    m_fpgas.assign(nIslands, nullptr);
    m_inBox.assign(nIslands, {nullptr, nullptr});
    std::vector<Ptr<NetDevice>> routerSide(nIslands);
    for (uint32_t i = 0; i < nIslands; ++i)
    {
        routerSide[i] = ConnectIsland(i, accessRoundTrips[i]);
    }
    return routerSide;
}

Ptr<NetDevice>
WanTopologyHelper::ConnectIsland(uint32_t i, double accessRoundTrip)
{
    const WanIsland& island = m_topology.GetIslands()[i];
    const Ptr<Node> router = m_routerNodes.Get(island.city);
    const DataRate accessRate(island.accessBps);
    const Time accessDelay = NanoSeconds(WanRouting::ToNanoSeconds(island.accessDelay));
    const QueueSize accessQueue =
        ResolveQueue(m_topology.GetIslandQueue(i), accessRate, accessRoundTrip);
    NS_LOG_INFO("island " << island.name << ": access queues " << accessQueue << " ("
                          << m_topology.GetIslandQueue(i).ToString() << ")");
    if (!m_topology.GetCities()[island.city].caps.fpga)
    {
        const auto access = Connect(m_islandNodes.Get(i),
                                    router,
                                    accessRate,
                                    accessDelay,
                                    {accessQueue, accessQueue});
        m_islandDevices[i] = access[0];
        m_accessPeers[i] = access[1];
        return access[1];
    }
    // Island - FPGA - router: the access link ends at the FPGA, an in-box link joins the router.
    const Ptr<Node> fpgaNode = CreateObject<Node>(SystemIdOf(island.city));
    m_fpgaNodes.Add(fpgaNode);
    const auto access = Connect(m_islandNodes.Get(i),
                                fpgaNode,
                                accessRate,
                                accessDelay,
                                {accessQueue, accessQueue});
    const QueueSize inBoxQueue =
        ResolveQueue(m_topology.GetIslandQueue(i), m_inBoxRate, accessRoundTrip);
    const auto inBox =
        Connect(fpgaNode, router, m_inBoxRate, m_inBoxDelay, {inBoxQueue, inBoxQueue});
    const Ptr<FpgaAggregatorNetDevice> fpga = m_fpgaFactory.Create<FpgaAggregatorNetDevice>();
    fpga->SetAttribute("IslandIndex", UintegerValue(i));
    fpgaNode->AddDevice(fpga);
    fpga->SetIslandPort(access[1]);
    fpga->SetRouterPort(inBox[0]);
    m_islandDevices[i] = access[0];
    m_accessPeers[i] = access[1];
    m_inBox[i] = inBox;
    m_fpgas[i] = fpga;
    return inBox[1];
}

void
WanTopologyHelper::InstallRouters(const std::vector<Ptr<NetDevice>>& routerSide)
{
    // Ports are the WAN links by link index, then the access (or in-box) links by island
    // index, so port numbers do not depend on anything but the topology.
    const auto& cities = m_topology.GetCities();
    const auto& islands = m_topology.GetIslands();
    const auto& links = m_topology.GetLinks();
    m_routers.assign(cities.size(), nullptr);
    m_wanPorts.assign(links.size(), {0, 0});
    m_accessPorts.assign(islands.size(), 0);
    for (uint32_t c = 0; c < cities.size(); ++c)
    {
        const Ptr<WanRouterNetDevice> router = m_routerFactory.Create<WanRouterNetDevice>();
        m_routerNodes.Get(c)->AddDevice(router);
        // The city's capability and the user's attribute must both allow replication.
        BooleanValue enabled;
        router->GetAttribute("MulticastEnabled", enabled);
        router->SetAttribute("MulticastEnabled",
                             BooleanValue(enabled.Get() && cities[c].caps.multicast));
        for (uint32_t l = 0; l < links.size(); ++l)
        {
            if (links[l].a == c)
            {
                m_wanPorts[l][0] = router->AddPort(m_wanDevices[l][0]);
            }
            if (links[l].b == c)
            {
                m_wanPorts[l][1] = router->AddPort(m_wanDevices[l][1]);
            }
        }
        for (uint32_t i = 0; i < islands.size(); ++i)
        {
            if (islands[i].city == c)
            {
                m_accessPorts[i] = router->AddPort(routerSide[i]);
            }
        }
        m_routers[c] = router;
    }
}

void
WanTopologyHelper::InstallTransitFpgas()
{
    m_transit.Install(*m_routing,
                      m_routers,
                      m_islandAddresses,
                      m_citySystemIds,
                      [this](Ptr<Node> fpga, Ptr<Node> router) {
                          const QueueSize queue = ResolveQueue(m_topology.GetDefaultQueue(),
                                                               m_inBoxRate,
                                                               m_longestRoundTrip);
                          return Connect(fpga, router, m_inBoxRate, m_inBoxDelay, {queue, queue});
                      });
}

void
WanTopologyHelper::CheckInstalled(const char* what) const
{
    NS_ABORT_MSG_IF(!m_routing, "WanTopologyHelper::" << what << ": call Install() first");
}

void
WanTopologyHelper::CheckIsland(uint32_t island, const char* what) const
{
    CheckInstalled(what);
    if (island >= m_topology.GetIslands().size())
    {
        throw WanTopologyError(std::string("WanTopologyHelper::") + what + ": island index " +
                               std::to_string(island) + " out of range (" +
                               std::to_string(m_topology.GetIslands().size()) + " islands)");
    }
}

const WanTopology&
WanTopologyHelper::GetTopology() const
{
    CheckInstalled("GetTopology");
    return m_topology;
}

const WanRouting&
WanTopologyHelper::GetRouting() const
{
    CheckInstalled("GetRouting");
    return *m_routing;
}

NodeContainer
WanTopologyHelper::GetIslandNodes() const
{
    return m_islandNodes;
}

Ptr<Node>
WanTopologyHelper::GetIslandNode(uint32_t island) const
{
    CheckIsland(island, "GetIslandNode");
    return m_islandNodes.Get(island);
}

Ipv4Address
WanTopologyHelper::GetIslandAddress(uint32_t island) const
{
    CheckIsland(island, "GetIslandAddress");
    return m_islandAddresses[island];
}

uint32_t
WanTopologyHelper::GetIslandIndex(Ipv4Address address) const
{
    const auto it = m_islandByAddress.find(address.Get());
    return it == m_islandByAddress.end() ? UINT32_MAX : it->second;
}

Ptr<Node>
WanTopologyHelper::GetRouterNode(uint32_t city) const
{
    CheckInstalled("GetRouterNode");
    NS_ABORT_MSG_IF(city >= m_routerNodes.GetN(), "GetRouterNode: city " << city);
    return m_routerNodes.Get(city);
}

Ptr<WanRouterNetDevice>
WanTopologyHelper::GetRouter(uint32_t city) const
{
    CheckInstalled("GetRouter");
    NS_ABORT_MSG_IF(city >= m_routers.size(), "GetRouter: city " << city);
    return m_routers[city];
}

NodeContainer
WanTopologyHelper::GetCityNodes(uint32_t city) const
{
    CheckInstalled("GetCityNodes");
    NS_ABORT_MSG_IF(city >= m_routers.size(), "GetCityNodes: city " << city);
    NodeContainer nodes(m_routerNodes.Get(city));
    const auto& islands = m_topology.GetIslands();
    for (uint32_t i = 0; i < islands.size(); ++i)
    {
        if (islands[i].city != city)
        {
            continue;
        }
        if (m_fpgas[i])
        {
            nodes.Add(m_fpgas[i]->GetNode());
        }
        nodes.Add(m_islandNodes.Get(i));
    }
    if (m_transit.Get(city))
    {
        nodes.Add(m_transit.Get(city)->GetNode());
    }
    for (uint32_t h = 0; h < m_hostLinks.size(); ++h)
    {
        if (m_hostCities[h] == city)
        {
            nodes.Add(m_hostLinks[h][0]->GetNode());
        }
    }
    return nodes;
}

Ptr<FpgaAggregatorNetDevice>
WanTopologyHelper::GetFpga(uint32_t island) const
{
    CheckIsland(island, "GetFpga");
    return m_fpgas[island];
}

Ptr<TransitAggregatorNetDevice>
WanTopologyHelper::GetTransit(uint32_t city) const
{
    CheckInstalled("GetTransit");
    return m_transit.Get(city);
}

Ptr<NetDevice>
WanTopologyHelper::GetIslandDevice(uint32_t island) const
{
    CheckIsland(island, "GetIslandDevice");
    return m_islandDevices[island];
}

Ptr<NetDevice>
WanTopologyHelper::GetAccessPeerDevice(uint32_t island) const
{
    CheckIsland(island, "GetAccessPeerDevice");
    return m_accessPeers[island];
}

Ptr<NetDevice>
WanTopologyHelper::GetWanDevice(const WanHop& hop) const
{
    CheckInstalled("GetWanDevice");
    const auto& links = m_topology.GetLinks();
    NS_ABORT_MSG_IF(hop.link >= links.size(), "GetWanDevice: link " << hop.link);
    const WanLink& link = links[hop.link];
    NS_ABORT_MSG_IF(hop.from != link.a && hop.from != link.b,
                    "GetWanDevice: city " << hop.from << " is not an end of link " << hop.link);
    return m_wanDevices[hop.link][hop.from == link.a ? 0 : 1];
}

Ipv4Address
WanTopologyHelper::AllocateGroup()
{
    if (m_nextGroup > LAST_GROUP || m_nextGroup < FIRST_GROUP)
    {
        throw std::runtime_error("WanTopologyHelper::AllocateGroup: 239.0.0.0/8 exhausted");
    }
    return Ipv4Address(m_nextGroup++);
}

bool
WanTopologyHelper::InstallMulticastTree(uint32_t sender,
                                        Ipv4Address group,
                                        const std::vector<uint32_t>& receivers,
                                        std::string* refusal)
{
    CheckInstalled("InstallMulticastTree");
    return WanMulticastTree::Install(*this, sender, group, receivers, refusal);
}

uint32_t
WanTopologyHelper::GetWanPort(const WanHop& hop) const
{
    GetWanDevice(hop); // checks the hop
    return m_wanPorts[hop.link][m_topology.GetLinks()[hop.link].a == hop.from ? 0 : 1];
}

uint32_t
WanTopologyHelper::GetAccessPort(uint32_t island) const
{
    CheckIsland(island, "GetAccessPort");
    return m_accessPorts[island];
}

void
WanTopologyHelper::EnablePcap(const std::string& prefix, Ptr<NetDevice> device)
{
    const Ptr<WanLinkNetDevice> linkDevice = DynamicCast<WanLinkNetDevice>(device);
    if (!linkDevice)
    {
        m_p2p.EnablePcap(prefix, device);
        return;
    }
    // The packets of a WanLinkNetDevice carry no link header: raw IPv4.
    PcapHelper pcap;
    const std::string file = pcap.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> wrapper = pcap.CreateFile(file, std::ios::out, PcapHelper::DLT_RAW);
    pcap.HookDefaultSink<WanLinkNetDevice>(linkDevice, "PromiscSniffer", wrapper);
}

void
WanTopologyHelper::EnablePcapAccess(const std::string& prefix, uint32_t island)
{
    CheckIsland(island, "EnablePcapAccess");
    EnablePcap(prefix, m_islandDevices[island]);
    EnablePcap(prefix, m_accessPeers[island]);
}

void
WanTopologyHelper::EnablePcapAll(const std::string& prefix)
{
    CheckInstalled("EnablePcapAll");
    for (const auto& link : m_wanDevices)
    {
        EnablePcap(prefix, link[0]);
        EnablePcap(prefix, link[1]);
    }
    for (uint32_t i = 0; i < m_islandDevices.size(); ++i)
    {
        EnablePcap(prefix, m_islandDevices[i]);
        EnablePcap(prefix, m_accessPeers[i]);
        if (m_inBox[i][0])
        {
            EnablePcap(prefix, m_inBox[i][0]);
            EnablePcap(prefix, m_inBox[i][1]);
        }
    }
    for (const Ptr<NetDevice>& device : m_transit.GetInBoxDevices())
    {
        EnablePcap(prefix, device);
    }
    for (const auto& link : m_hostLinks)
    {
        EnablePcap(prefix, link[0]);
        EnablePcap(prefix, link[1]);
    }
}

void
WanTopologyHelper::InstallHosts()
{
    const uint32_t nIslands = m_topology.GetIslands().size();
    InternetStackHelper stack;
    stack.Install(m_islandNodes);
    Ipv4StaticRoutingHelper staticRouting;
    const Ipv4Mask groupMask(GROUP_MASK);
    m_islandAddresses.assign(nIslands, Ipv4Address());
    m_islandByAddress.clear();
    for (uint32_t i = 0; i < nIslands; ++i)
    {
        const Ipv4Address address = GetSubnetHostAddress(ISLAND_NET_BASE, i);
        const uint32_t interface = ConfigureHost(m_islandNodes.Get(i), m_islandDevices[i], address);
        // The group block too, so a UDP socket finds a route for a group destination (outbound
        // multicast routes live in the unicast table in ns-3).
        staticRouting.GetStaticRouting(m_islandNodes.Get(i)->GetObject<Ipv4>())
            ->AddNetworkRouteTo(Ipv4Address(GROUP_BLOCK), groupMask, interface);
        m_islandAddresses[i] = address;
        m_islandByAddress[address.Get()] = i;
        if (m_fpgas[i])
        {
            // Aggregates go to the island's address (the FPGA learns it otherwise).
            m_fpgas[i]->SetAttributeFailSafe("IslandAddress", Ipv4AddressValue(address));
        }
    }
}

uint32_t
WanTopologyHelper::ConfigureHost(Ptr<Node> node, Ptr<NetDevice> device, Ipv4Address address)
{
    const Ptr<PointToPointNetDevice> stockDevice = DynamicCast<PointToPointNetDevice>(device);
    if (stockDevice)
    {
        // Flow control between the traffic-control layer and the stock device's queue.
        Ptr<NetDeviceQueueInterface> queueInterface = CreateObject<NetDeviceQueueInterface>();
        queueInterface->GetTxQueue(0)->ConnectQueueTraces(stockDevice->GetQueue());
        stockDevice->AggregateObject(queueInterface);
    }
    const Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    const int32_t interface = ipv4->AddInterface(device);
    ipv4->AddAddress(interface, Ipv4InterfaceAddress(address, Ipv4Mask(ACCESS_MASK)));
    ipv4->SetMetric(interface, 1);
    ipv4->SetUp(interface);
    // Everything leaves by the access link: a default route. The point-to-point link needs no
    // gateway address.
    Ipv4StaticRoutingHelper staticRouting;
    staticRouting.GetStaticRouting(ipv4)->AddNetworkRouteTo(Ipv4Address::GetZero(),
                                                            Ipv4Mask::GetZero(),
                                                            interface);
    return static_cast<uint32_t>(interface);
}

void
WanTopologyHelper::InstallUnicastRoutes()
{
    const auto& islands = m_topology.GetIslands();
    for (uint32_t i = 0; i < islands.size(); ++i)
    {
        InstallHostRoute(m_islandAddresses[i], islands[i].city, m_accessPorts[i]);
    }
}

void
WanTopologyHelper::InstallHostRoute(Ipv4Address address, uint32_t city, uint32_t accessPort)
{
    const auto& links = m_topology.GetLinks();
    for (uint32_t c = 0; c < m_routers.size(); ++c)
    {
        uint32_t port = accessPort;
        if (city != c)
        {
            const uint32_t l = m_routing->GetNextLink(c, city);
            if (l == WanRouting::NO_LINK)
            {
                continue; // unreachable city (Validate allows cities without islands)
            }
            port = m_wanPorts[l][links[l].a == c ? 0 : 1];
        }
        m_routers[c]->AddHostRoute(address, port);
    }
}

Ipv4Address
WanTopologyHelper::GetSubnetHostAddress(uint32_t netBase, uint32_t index)
{
    return Ipv4Address(netBase | (index << ISLAND_SUBNET_SHIFT) | ISLAND_HOST_PART);
}

std::array<Ptr<NetDevice>, 2>
WanTopologyHelper::AttachHost(uint32_t city,
                              Ipv4Address address,
                              DataRate rate,
                              Time delay,
                              QueueSize queue)
{
    NS_LOG_FUNCTION(this << city << address << rate << delay << queue);
    CheckInstalled("AttachHost");
    const auto& cities = m_topology.GetCities();
    if (city >= cities.size())
    {
        throw WanTopologyError("WanTopologyHelper::AttachHost: city index " + std::to_string(city) +
                               " out of range (" + std::to_string(cities.size()) + " cities)");
    }
    const uint32_t systemId = m_citySystemIds.empty() ? 0 : m_citySystemIds[city];
    const Ptr<Node> node = CreateObject<Node>(systemId);
    const QueueSize routerQueue =
        ResolveQueue(m_topology.GetDefaultQueue(), rate, m_longestRoundTrip);
    const auto access = Connect(node, m_routerNodes.Get(city), rate, delay, {queue, routerQueue});
    const uint32_t port = m_routers[city]->AddPort(access[1]);
    InternetStackHelper stack;
    stack.Install(node);
    ConfigureHost(node, access[0], address);
    InstallHostRoute(address, city, port);
    m_hostCities.push_back(city);
    m_hostLinks.push_back(access);
    NS_LOG_INFO("host " << address << " at " << cities[city].code << ", router port " << port);
    return access;
}

} // namespace ns3
