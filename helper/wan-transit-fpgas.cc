/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-transit-fpgas.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTransitFpgas");

WanTransitFpgas::WanTransitFpgas()
{
    m_factory.SetTypeId(TransitAggregatorNetDevice::GetTypeId());
}

void
WanTransitFpgas::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
WanTransitFpgas::Install(const WanRouting& routing,
                         const std::vector<Ptr<WanRouterNetDevice>>& routers,
                         const std::vector<Ipv4Address>& islandAddresses,
                         const std::vector<uint32_t>& systemIds,
                         const InBoxLink& inBoxLink)
{
    const auto& cities = routing.GetTopology().GetCities();
    m_devices.assign(cities.size(), nullptr);
    m_inBoxDevices.clear();
    const uint32_t roots = std::min<uint32_t>(islandAddresses.size(), IslandBitmap::MAX_ISLANDS);
    for (uint32_t c = 0; c < cities.size(); ++c)
    {
        if (!cities[c].caps.transit)
        {
            continue;
        }
        const Ptr<Node> node = CreateObject<Node>(systemIds.empty() ? 0u : systemIds[c]);
        const auto inBox = inBoxLink(node, routers[c]->GetNode());
        const Ptr<TransitAggregatorNetDevice> fpga = m_factory.Create<TransitAggregatorNetDevice>();
        node->AddDevice(fpga);
        fpga->SetRouterPort(inBox[0]);
        routers[c]->SetTransitPort(routers[c]->AddPort(inBox[1]));
        const std::vector<IslandBitmap> below = BelowSets(routing, c);
        for (uint32_t r = 0; r < roots; ++r)
        {
            fpga->AddRoot(islandAddresses[r], r, below[r]);
        }
        NS_LOG_INFO("transit FPGA at " << cities[c].code << ", router port "
                                       << routers[c]->GetTransitPort());
        m_devices[c] = fpga;
        m_inBoxDevices.insert(m_inBoxDevices.end(), inBox.begin(), inBox.end());
    }
}

Ptr<TransitAggregatorNetDevice>
WanTransitFpgas::Get(uint32_t city) const
{
    return city < m_devices.size() ? m_devices[city] : nullptr;
}

std::vector<Ptr<NetDevice>>
WanTransitFpgas::GetInBoxDevices() const
{
    return m_inBoxDevices;
}

std::vector<IslandBitmap>
WanTransitFpgas::BelowSets(const WanRouting& routing, uint32_t city)
{
    const auto& islands = routing.GetTopology().GetIslands();
    const uint32_t n = std::min<uint32_t>(islands.size(), IslandBitmap::MAX_ISLANDS);
    const uint32_t nCities = routing.GetTopology().GetCities().size();
    // The islands of each city; and whether the path from city a to city d passes the city,
    // once per pair of cities with islands.
    std::vector<IslandBitmap> ofCity(nCities);
    for (uint32_t i = 0; i < n; ++i)
    {
        ofCity[islands[i].city].Set(i);
    }
    std::vector<std::vector<bool>> passes(nCities, std::vector<bool>(nCities, false));
    for (uint32_t a = 0; a < nCities; ++a)
    {
        for (uint32_t d = 0; d < nCities && !ofCity[a].IsEmpty(); ++d)
        {
            if (ofCity[d].IsEmpty())
            {
                continue;
            }
            const std::vector<uint32_t> path = routing.GetCityPath(a, d);
            passes[a][d] = std::find(path.begin(), path.end(), city) != path.end();
        }
    }
    std::vector<IslandBitmap> below(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        const uint32_t d = islands[r].city;
        for (uint32_t a = 0; a < nCities; ++a)
        {
            if (passes[a][d])
            {
                below[r] = below[r].Union(ofCity[a]);
            }
        }
        below[r].Reset(r);
    }
    return below;
}

} // namespace ns3
