/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// WanTopologyHelper's hosts: the islands' stacks, addresses and host routes, and the attachment
// of extra hosts (AttachHost; WanHostHelper numbers them). The rest of the class is in
// wan-topology-helper.cc.

#include "wan-topology-helper.h"

#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"

#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTopologyHelperHosts");

namespace
{

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
    const auto access = Connect(node, m_routerNodes.Get(city), rate, delay, queue);
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
