/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-multicast-tree.h"

#include "wan-topology-helper.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanMulticastTree");

bool
WanMulticastTree::Install(WanTopologyHelper& wan,
                          uint32_t sender,
                          Ipv4Address group,
                          const std::vector<uint32_t>& receivers,
                          std::string* refusal)
{
    NS_LOG_FUNCTION(sender << group);
    // GetIslandAddress checks the island's range (WanTopologyError).
    const Ipv4Address source = wan.GetIslandAddress(sender);
    if (!group.IsMulticast())
    {
        std::ostringstream os;
        os << "WanTopologyHelper::InstallMulticastTree: group " << group
           << " is not a multicast address";
        throw WanTopologyError(os.str());
    }
    const WanTopology& topology = wan.GetTopology();
    const auto& islands = topology.GetIslands();
    const auto& cities = topology.GetCities();
    std::set<uint32_t> members;
    std::vector<uint32_t> memberCities;
    for (uint32_t r : receivers)
    {
        wan.GetIslandAddress(r);
        if (r != sender && members.insert(r).second)
        {
            memberCities.push_back(islands[r].city);
        }
    }
    const WanTree tree = wan.GetRouting().GetTree(islands[sender].city, memberCities);

    std::ostringstream why;
    for (uint32_t city : tree.routers)
    {
        std::vector<uint32_t> ports;
        for (const WanHop& hop : tree.hops)
        {
            if (hop.from == city)
            {
                ports.push_back(wan.GetWanPort(hop));
            }
        }
        for (uint32_t r : members)
        {
            if (islands[r].city == city)
            {
                ports.push_back(wan.GetAccessPort(r));
            }
        }
        const Ptr<WanRouterNetDevice> router = wan.GetRouter(city);
        router->AddMulticastRoute(source, group, ports);
        // The first reason the routers would drop the group's packets, if any.
        BooleanValue routerEnabled;
        UintegerValue maxFanOut;
        router->GetAttribute("MulticastEnabled", routerEnabled);
        router->GetAttribute("MaxFanOut", maxFanOut);
        if (!why.str().empty())
        {
            continue;
        }
        if (!cities[city].caps.multicast)
        {
            why << "city " << cities[city].code << " is not multicast-capable";
        }
        else if (!routerEnabled.Get())
        {
            why << "the router of " << cities[city].code << " has MulticastEnabled false";
        }
        else if (ports.size() > maxFanOut.Get())
        {
            why << "the router of " << cities[city].code << " would replicate to " << ports.size()
                << " ports, over its MaxFanOut " << maxFanOut.Get();
        }
    }
    // Hosts need no join: ns-3 3.37's Ipv4L3Protocol::IsDestinationAddress accepts every
    // multicast destination (its group check is compiled out), so a receiver's UDP socket bound
    // to the port gets whatever the routers deliver; the (source, group) entries above decide
    // which access links carry the group.
    if (refusal != nullptr)
    {
        *refusal = why.str();
    }
    return why.str().empty();
}

} // namespace ns3
