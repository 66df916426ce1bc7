/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sync-tree-plan.h"

#include "chunk-layout.h"
#include "sync-path-table.h"
#include "wan-routing.h"
#include "wan-wire.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SyncTreePlan");

SyncTreePlan::SyncTreePlan()
{
    NS_LOG_FUNCTION(this);
}

SyncTreePlan::SyncTreePlan(const WanRouting& routing)
{
    NS_LOG_FUNCTION(this);
    const auto& islands = routing.GetTopology().GetIslands();
    const auto& cities = routing.GetTopology().GetCities();
    for (const auto& island : islands)
    {
        m_islandCity.push_back(island.city);
    }
    const uint32_t nCities = cities.size();
    for (const auto& city : cities)
    {
        m_cityTransit.push_back(city.caps.transit);
    }
    // Only the cities that hold islands send or root a tree.
    m_cityPath.assign(nCities, std::vector<std::vector<uint32_t>>(nCities));
    std::vector<uint32_t> islandCities(m_islandCity);
    std::sort(islandCities.begin(), islandCities.end());
    islandCities.erase(std::unique(islandCities.begin(), islandCities.end()), islandCities.end());
    for (uint32_t src : islandCities)
    {
        for (uint32_t dst : islandCities)
        {
            m_cityPath[src][dst] = routing.GetCityPath(src, dst);
        }
    }
    m_below.assign(nCities, 0);
}

void
SyncTreePlan::BuildUp(const SyncPathTable& paths,
                      const Clique& clique,
                      uint32_t root,
                      double transitLatency,
                      uint32_t transitBase,
                      const std::vector<double>& sumRatio,
                      std::vector<UpStream>& ups) const
{
    NS_LOG_FUNCTION(this << root << transitLatency << transitBase);
    const uint32_t rootCity = m_islandCity[root];
    // The members below each city: those whose path to the root passes it.
    for (uint32_t m : clique)
    {
        if (m != root)
        {
            for (uint32_t v : m_cityPath[m_islandCity[m]][rootCity])
            {
                ++m_below[v];
            }
        }
    }
    ups.clear();
    for (uint32_t m : clique)
    {
        if (m == root)
        {
            continue;
        }
        UpStream up;
        up.member = m;
        up.delay = paths.GetPathDelay(m, root);
        // resources[0] is m's access up; resources[h] (h >= 1) leaves cities[h - 1], whose
        // transit FPGA (if any) merged what crosses it.
        const auto& resources = paths.GetPathResources(m, root);
        const auto& cities = m_cityPath[m_islandCity[m]][rootCity];
        NS_ASSERT_MSG(resources.size() == cities.size() + 1, "a path of cities and resources");
        double weight = 1.0;
        for (size_t h = 0; h < resources.size(); ++h)
        {
            up.usages.emplace_back(resources[h], weight);
            if (h < cities.size() && m_cityTransit[cities[h]])
            {
                // The piece enters the transit FPGA with the weight it arrived with.
                if (transitBase != NO_RESOURCE)
                {
                    up.usages.emplace_back(transitBase + cities[h], weight);
                }
                up.delay += transitLatency;
                up.aggregated = true;
                const uint32_t below = m_below[cities[h]];
                weight = sumRatio.at(below) / below;
            }
        }
        ups.push_back(std::move(up));
    }
    for (uint32_t m : clique)
    {
        if (m != root)
        {
            for (uint32_t v : m_cityPath[m_islandCity[m]][rootCity])
            {
                m_below[v] = 0;
            }
        }
    }
}

double
SyncTreePlan::Complete(const std::vector<Leg>& up,
                       const std::vector<Leg>& down,
                       const StreamBits& upBits,
                       const StreamBits& downBits,
                       Times* times)
{
    NS_LOG_FUNCTION(upBits.whole << downBits.whole);
    const double wireBits = upBits.whole;
    const double firstChunkBits = upBits.first;
    const double never = std::numeric_limits<double>::infinity();
    double first = 0;
    double last = 0;
    for (const Leg& leg : up)
    {
        if (!(leg.rate > 0))
        {
            first = last = never;
            break;
        }
        first = std::max(first, firstChunkBits / leg.rate + leg.delay);
        last = std::max(last, wireBits / leg.rate + leg.delay);
    }
    double done = 0;
    if (times)
    {
        times->downStart = first;
        times->upEnd = last;
        times->downSent.clear();
    }
    for (const Leg& leg : down)
    {
        const double sent = leg.rate > 0 ? std::max(first + downBits.whole / leg.rate,
                                                    last + downBits.last / leg.rate)
                                         : never;
        done = std::max(done, sent + leg.delay);
        if (times)
        {
            times->downSent.push_back(sent);
        }
    }
    return done;
}

} // namespace ns3
