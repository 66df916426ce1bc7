/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sync-path-table.h"

#include "wan-routing.h"
#include "wan-wire.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SyncPathTable");

SyncPathTable::SyncPathTable()
    : m_stamp(0)
{
    NS_LOG_FUNCTION(this);
}

SyncPathTable::SyncPathTable(const WanRouting& routing)
    : m_stamp(0)
{
    NS_LOG_FUNCTION(this);
    const auto& islands = routing.GetTopology().GetIslands();
    const auto& cities = routing.GetTopology().GetCities();
    uint32_t n = islands.size();
    m_islandCity.assign(n, 0);
    m_islandFpga.assign(n, false);
    for (uint32_t i = 0; i < n; ++i)
    {
        m_islandCity[i] = islands[i].city;
        m_islandFpga[i] = cities[islands[i].city].caps.fpga;
    }
    // Unicast resources between every pair of islands.
    m_pathResources.assign(n, std::vector<std::vector<uint32_t>>(n));
    m_pathDelay.assign(n, std::vector<double>(n, 0.0));
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            if (s == d)
            {
                continue;
            }
            auto& res = m_pathResources[s][d];
            res.push_back(routing.GetAccessUpResource(s));
            for (const auto& hop : routing.GetPath(m_islandCity[s], m_islandCity[d]))
            {
                res.push_back(routing.GetHopResource(hop));
            }
            res.push_back(routing.GetAccessDownResource(d));
            m_pathDelay[s][d] = routing.GetIslandDelay(s, d);
        }
    }
    const uint32_t nResources = routing.GetResourceCount();
    m_capacity.resize(nResources);
    for (uint32_t r = 0; r < nResources; ++r)
    {
        m_capacity[r] = routing.GetResourceCapacity(r);
    }
    // Multicast trees: the tree of a sender's city to any receiver set is the union of the
    // paths up its shortest-path tree, so the whole tree of every sender city is stored once
    // (parent and hop per city) and WalkTree() walks it instead of asking for a tree per
    // stream.
    const uint32_t nCities = cities.size();
    m_cityMulticast.assign(nCities, false);
    for (uint32_t c = 0; c < nCities; ++c)
    {
        m_cityMulticast[c] = cities[c].caps.multicast;
    }
    std::vector<uint32_t> islandCities(m_islandCity);
    std::sort(islandCities.begin(), islandCities.end());
    islandCities.erase(std::unique(islandCities.begin(), islandCities.end()), islandCities.end());
    m_treeParent.assign(nCities, std::vector<uint32_t>());
    m_treeHop.assign(nCities, std::vector<uint32_t>());
    for (uint32_t root : islandCities)
    {
        std::vector<uint32_t>& parent = m_treeParent[root];
        std::vector<uint32_t>& hopResource = m_treeHop[root];
        parent.assign(nCities, root);
        hopResource.assign(nCities, 0);
        for (const auto& hop : routing.GetTree(root, islandCities).hops)
        {
            parent[hop.to] = hop.from;
            hopResource[hop.to] = routing.GetHopResource(hop);
        }
    }
    m_cityStamp.assign(nCities, 0);
}

double
SyncPathTable::GetPathRate(uint32_t src, uint32_t dst) const
{
    NS_LOG_FUNCTION(this << src << dst);
    double rate = std::numeric_limits<double>::infinity();
    for (uint32_t res : m_pathResources[src][dst])
    {
        rate = std::min(rate, m_capacity[res]);
    }
    return rate;
}

std::vector<double>
SyncPathTable::GetPathRates(uint32_t src) const
{
    NS_LOG_FUNCTION(this << src);
    std::vector<double> rates(GetIslandCount(), 0.0);
    for (uint32_t dst = 0; dst < rates.size(); ++dst)
    {
        rates[dst] = dst == src ? 0.0 : GetPathRate(src, dst);
    }
    return rates;
}

double
SyncPathTable::GetPacketTransit(uint32_t src, uint32_t dst, uint64_t wireBytes) const
{
    NS_LOG_FUNCTION(this << src << dst << wireBytes);
    double transit = m_pathDelay[src][dst];
    for (uint32_t res : m_pathResources[src][dst])
    {
        transit += WanWire::BITS_PER_BYTE * wireBytes / m_capacity[res];
    }
    return transit;
}

bool
SyncPathTable::WalkTree(uint32_t sender,
                        const Clique& clique,
                        std::vector<MaxMinFairShare::Usage>* hops) const
{
    NS_LOG_FUNCTION(this << sender);
    // Walk up from every member's city until the walk meets the tree built so far; the
    // stamp marks the cities already on it.
    const uint32_t root = m_islandCity[sender];
    const auto& parent = m_treeParent[root];
    const auto& hopResource = m_treeHop[root];
    const uint64_t stamp = ++m_stamp;
    m_cityStamp[root] = stamp;
    bool multicast = m_cityMulticast[root];
    for (uint32_t j : clique)
    {
        for (uint32_t v = m_islandCity[j]; m_cityStamp[v] != stamp; v = parent[v])
        {
            m_cityStamp[v] = stamp;
            multicast = multicast && m_cityMulticast[v];
            if (hops)
            {
                hops->emplace_back(hopResource[v], 1.0);
            }
        }
    }
    return multicast;
}

} // namespace ns3
