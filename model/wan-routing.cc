/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-routing.h"

#include "ns3/log.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <cmath>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanRouting");

namespace
{

/** Nanoseconds per second: link delays are compared as integer nanoseconds. */
constexpr double NS_PER_S = 1e9;
/** Distance of a city that cannot be reached. */
constexpr int64_t UNREACHABLE = std::numeric_limits<int64_t>::max();
/** Marker for "no city" (the root's parent, an unreachable city's parent). */
constexpr uint32_t NO_CITY = std::numeric_limits<uint32_t>::max();

/** The WAN as an undirected Boost graph; the edge weight is the link delay in nanoseconds. */
using WanGraph = boost::adjacency_list<boost::vecS,
                                       boost::vecS,
                                       boost::undirectedS,
                                       boost::no_property,
                                       boost::property<boost::edge_weight_t, int64_t>>;

} // namespace

bool
WanHop::operator==(const WanHop& o) const
{
    return link == o.link && from == o.from && to == o.to;
}

int64_t
WanRouting::ToNanoSeconds(double seconds)
{
    return static_cast<int64_t>(std::llround(seconds * NS_PER_S));
}

WanRouting::WanRouting(const WanTopology& topology)
    : m_topology(topology)
{
    NS_LOG_FUNCTION(this);
    const uint32_t nCities = m_topology.GetCities().size();
    const auto& links = m_topology.GetLinks();

    WanGraph graph(nCities);
    for (const auto& link : links)
    {
        boost::add_edge(link.a, link.b, ToNanoSeconds(link.delay), graph);
    }

    m_nextLink.assign(nCities, std::vector<uint32_t>(nCities, NO_LINK));
    m_parent.assign(nCities, std::vector<uint32_t>(nCities, NO_CITY));
    m_parentLink.assign(nCities, std::vector<uint32_t>(nCities, NO_LINK));
    m_delay.assign(nCities, std::vector<double>(nCities, 0.0));
    m_delayNs.assign(nCities, std::vector<int64_t>(nCities, UNREACHABLE));
    m_depth.assign(nCities, std::vector<uint32_t>(nCities, 0));

    for (uint32_t root = 0; root < nCities; ++root)
    {
        std::vector<int64_t> dist(nCities, UNREACHABLE);
        boost::dijkstra_shortest_paths(
            graph,
            root,
            boost::distance_map(
                boost::make_iterator_property_map(dist.begin(),
                                                  boost::get(boost::vertex_index, graph)))
                .distance_inf(UNREACHABLE));
        BuildTree(root, dist);
    }

    // Destination-based forwarding: the next link from 'at' towards 'dst' is the link from
    // 'at' to its parent on the tree rooted at 'dst'. Walking these links from any city
    // follows that tree, so every hop-by-hop route is a shortest path and GetPath() (the walk)
    // is exactly what the routers do.
    for (uint32_t at = 0; at < nCities; ++at)
    {
        for (uint32_t dst = 0; dst < nCities; ++dst)
        {
            m_nextLink[at][dst] = (at == dst) ? NO_LINK : m_parentLink[dst][at];
            m_delay[at][dst] = (m_delayNs[at][dst] == UNREACHABLE)
                                   ? std::numeric_limits<double>::infinity()
                                   : static_cast<double>(m_delayNs[at][dst]) / NS_PER_S;
        }
    }
}

void
WanRouting::BuildTree(uint32_t root, const std::vector<int64_t>& dist)
{
    NS_LOG_FUNCTION(this << root);
    const uint32_t nCities = dist.size();
    const auto& links = m_topology.GetLinks();
    for (uint32_t city = 0; city < nCities; ++city)
    {
        m_delayNs[root][city] = dist[city];
    }

    // Settle cities in order of distance. A city's parent is the lowest-index neighbour u with
    // dist[u] + w(u, v) == dist[v] (then the lowest link index). With positive delays every
    // such u is strictly closer, so it is settled first and the rule applies as stated; with
    // zero-delay links, cities at the same distance are settled in rounds and a parent must be
    // settled already, which keeps the parent relation acyclic.
    std::vector<bool> settled(nCities, false);
    settled[root] = true;
    m_parent[root][root] = NO_CITY;
    m_depth[root][root] = 0;

    std::vector<uint32_t> order;
    for (uint32_t city = 0; city < nCities; ++city)
    {
        if (city != root && dist[city] != UNREACHABLE)
        {
            order.push_back(city);
        }
    }
    std::stable_sort(order.begin(), order.end(), [&dist](uint32_t x, uint32_t y) {
        return dist[x] < dist[y];
    });

    std::size_t begin = 0;
    while (begin < order.size())
    {
        std::size_t end = begin;
        while (end < order.size() && dist[order[end]] == dist[order[begin]])
        {
            ++end;
        }
        // Cities [begin, end) share one distance; settle them in rounds.
        std::vector<uint32_t> pending(order.begin() + begin, order.begin() + end);
        while (!pending.empty())
        {
            std::vector<std::pair<uint32_t, std::pair<uint32_t, uint32_t>>> chosen;
            std::vector<uint32_t> still;
            for (uint32_t v : pending)
            {
                uint32_t bestParent = NO_CITY;
                uint32_t bestLink = NO_LINK;
                for (uint32_t l = 0; l < links.size(); ++l)
                {
                    const WanLink& link = links[l];
                    if (link.a != v && link.b != v)
                    {
                        continue;
                    }
                    const uint32_t u = (link.a == v) ? link.b : link.a;
                    if (!settled[u] || dist[u] == UNREACHABLE ||
                        dist[u] + ToNanoSeconds(link.delay) != dist[v])
                    {
                        continue;
                    }
                    if (u < bestParent || (u == bestParent && l < bestLink))
                    {
                        bestParent = u;
                        bestLink = l;
                    }
                }
                if (bestParent == NO_CITY)
                {
                    still.push_back(v);
                }
                else
                {
                    chosen.push_back({v, {bestParent, bestLink}});
                }
            }
            // Dijkstra's distances guarantee progress: some pending city has a settled
            // predecessor in every round.
            if (chosen.empty())
            {
                break;
            }
            for (const auto& c : chosen)
            {
                const uint32_t v = c.first;
                settled[v] = true;
                m_parent[root][v] = c.second.first;
                m_parentLink[root][v] = c.second.second;
                m_depth[root][v] = m_depth[root][c.second.first] + 1;
            }
            pending = still;
        }
        begin = end;
    }
}

const WanTopology&
WanRouting::GetTopology() const
{
    NS_LOG_FUNCTION(this);
    return m_topology;
}

void
WanRouting::CheckCity(uint32_t city, const char* what) const
{
    NS_LOG_FUNCTION(this << city << what);
    if (city >= m_topology.GetCities().size())
    {
        throw WanTopologyError(std::string("WanRouting: ") + what + " city index " +
                               std::to_string(city) + " out of range (" +
                               std::to_string(m_topology.GetCities().size()) + " cities)");
    }
}

void
WanRouting::CheckReachable(uint32_t src, uint32_t dst) const
{
    NS_LOG_FUNCTION(this << src << dst);
    CheckCity(src, "source");
    CheckCity(dst, "destination");
    if (m_delayNs[src][dst] == UNREACHABLE)
    {
        const auto& cities = m_topology.GetCities();
        throw WanTopologyError("WanRouting: no route from city " + cities[src].code + " to " +
                               cities[dst].code);
    }
}

uint32_t
WanRouting::GetNextLink(uint32_t at, uint32_t dst) const
{
    NS_LOG_FUNCTION(this << at << dst);
    CheckCity(at, "current");
    CheckCity(dst, "destination");
    return m_nextLink[at][dst];
}

std::vector<uint32_t>
WanRouting::GetCityPath(uint32_t src, uint32_t dst) const
{
    NS_LOG_FUNCTION(this << src << dst);
    std::vector<uint32_t> cities{src};
    for (const WanHop& hop : GetPath(src, dst))
    {
        cities.push_back(hop.to);
    }
    return cities;
}

std::vector<WanHop>
WanRouting::GetPath(uint32_t src, uint32_t dst) const
{
    NS_LOG_FUNCTION(this << src << dst);
    CheckReachable(src, dst);
    const auto& links = m_topology.GetLinks();
    std::vector<WanHop> path;
    uint32_t at = src;
    while (at != dst)
    {
        const uint32_t l = m_nextLink[at][dst];
        WanHop hop;
        hop.link = l;
        hop.from = at;
        hop.to = (links[l].a == at) ? links[l].b : links[l].a;
        path.push_back(hop);
        at = hop.to;
    }
    return path;
}

double
WanRouting::GetPathDelay(uint32_t src, uint32_t dst) const
{
    NS_LOG_FUNCTION(this << src << dst);
    CheckReachable(src, dst);
    return m_delay[src][dst];
}

int64_t
WanRouting::GetPathDelayNs(uint32_t src, uint32_t dst) const
{
    NS_LOG_FUNCTION(this << src << dst);
    CheckReachable(src, dst);
    return m_delayNs[src][dst];
}

double
WanRouting::GetIslandDelay(uint32_t srcIsland, uint32_t dstIsland) const
{
    NS_LOG_FUNCTION(this << srcIsland << dstIsland);
    const auto& islands = m_topology.GetIslands();
    if (srcIsland >= islands.size() || dstIsland >= islands.size())
    {
        throw WanTopologyError("WanRouting: island index " +
                               std::to_string(std::max(srcIsland, dstIsland)) + " out of range (" +
                               std::to_string(islands.size()) + " islands)");
    }
    const WanIsland& s = islands[srcIsland];
    const WanIsland& d = islands[dstIsland];
    const int64_t ns = ToNanoSeconds(s.accessDelay) + GetPathDelayNs(s.city, d.city) +
                       ToNanoSeconds(d.accessDelay);
    return static_cast<double>(ns) / NS_PER_S;
}

void
WanRouting::GetLongestRoundTrips(std::vector<double>& linkRoundTrips,
                                 std::vector<double>& accessRoundTrips) const
{
    NS_LOG_FUNCTION(this);
    const auto& islands = m_topology.GetIslands();
    const uint32_t nCities = m_topology.GetCities().size();
    linkRoundTrips.assign(m_topology.GetLinks().size(), 0);
    accessRoundTrips.assign(islands.size(), 0);
    // Per pair of cities, the longest round trip of an island pair between them; every link
    // on the route between them carries one direction or the other (data or its ACKs).
    std::vector<std::vector<double>> cityRoundTrip(nCities, std::vector<double>(nCities, 0));
    for (uint32_t s = 0; s < islands.size(); ++s)
    {
        for (uint32_t d = 0; d < islands.size(); ++d)
        {
            if (s == d)
            {
                continue;
            }
            const double roundTrip = GetIslandDelay(s, d) + GetIslandDelay(d, s);
            accessRoundTrips[s] = std::max(accessRoundTrips[s], roundTrip);
            double& cities = cityRoundTrip[islands[s].city][islands[d].city];
            cities = std::max(cities, roundTrip);
        }
    }
    for (uint32_t a = 0; a < nCities; ++a)
    {
        for (uint32_t b = 0; b < nCities; ++b)
        {
            if (cityRoundTrip[a][b] == 0)
            {
                continue;
            }
            for (const WanHop& hop : GetPath(a, b))
            {
                linkRoundTrips[hop.link] = std::max(linkRoundTrips[hop.link], cityRoundTrip[a][b]);
            }
        }
    }
}

WanTree
WanRouting::GetTree(uint32_t srcCity, const std::vector<uint32_t>& dstCities) const
{
    NS_LOG_FUNCTION(this << srcCity);
    CheckCity(srcCity, "tree root");
    std::set<uint32_t> onTree{srcCity};
    for (uint32_t dst : dstCities)
    {
        CheckReachable(srcCity, dst);
        for (uint32_t v = dst; v != srcCity && onTree.insert(v).second; v = m_parent[srcCity][v])
        {
        }
    }

    WanTree tree;
    tree.root = srcCity;
    tree.routers.assign(onTree.begin(), onTree.end());

    // Parents before children: order the non-root cities by depth on the tree, then by index.
    std::vector<uint32_t> children;
    for (uint32_t v : tree.routers)
    {
        if (v != srcCity)
        {
            children.push_back(v);
        }
    }
    const auto& depth = m_depth[srcCity];
    std::stable_sort(children.begin(), children.end(), [&depth](uint32_t x, uint32_t y) {
        return depth[x] < depth[y];
    });
    for (uint32_t v : children)
    {
        WanHop hop;
        hop.link = m_parentLink[srcCity][v];
        hop.from = m_parent[srcCity][v];
        hop.to = v;
        tree.hops.push_back(hop);
    }
    return tree;
}

bool
WanRouting::IsMulticastCapable(const WanTree& tree) const
{
    NS_LOG_FUNCTION(this);
    const auto& cities = m_topology.GetCities();
    for (uint32_t city : tree.routers)
    {
        if (!cities.at(city).caps.multicast)
        {
            return false;
        }
    }
    return true;
}

uint32_t
WanRouting::GetResourceCount() const
{
    NS_LOG_FUNCTION(this);
    return 2 * m_topology.GetLinks().size() + 2 * m_topology.GetIslands().size();
}

uint32_t
WanRouting::GetHopResource(const WanHop& hop) const
{
    NS_LOG_FUNCTION(this);
    const WanLink& link = m_topology.GetLinks().at(hop.link);
    return 2 * hop.link + ((hop.from == link.a) ? 0 : 1);
}

uint32_t
WanRouting::GetAccessUpResource(uint32_t island) const
{
    NS_LOG_FUNCTION(this << island);
    return 2 * m_topology.GetLinks().size() + 2 * island;
}

uint32_t
WanRouting::GetAccessDownResource(uint32_t island) const
{
    NS_LOG_FUNCTION(this << island);
    return 2 * m_topology.GetLinks().size() + 2 * island + 1;
}

double
WanRouting::GetResourceCapacity(uint32_t resource) const
{
    NS_LOG_FUNCTION(this << resource);
    const uint32_t wanResources = 2 * m_topology.GetLinks().size();
    if (resource < wanResources)
    {
        return static_cast<double>(m_topology.GetLinks()[resource / 2].bps);
    }
    const uint32_t island = (resource - wanResources) / 2;
    return static_cast<double>(m_topology.GetIslands().at(island).accessBps);
}

std::string
WanRouting::GetResourceName(uint32_t resource) const
{
    const auto& links = m_topology.GetLinks();
    const auto& cities = m_topology.GetCities();
    const uint32_t wanResources = 2 * links.size();
    if (resource < wanResources)
    {
        const WanLink& link = links[resource / 2];
        const bool forward = resource % 2 == 0;
        return "link " + cities[forward ? link.a : link.b].code + " to " +
               cities[forward ? link.b : link.a].code;
    }
    const uint32_t island = (resource - wanResources) / 2;
    const std::string& name = m_topology.GetIslands().at(island).name;
    return (resource - wanResources) % 2 == 0 ? "egress of " + name : "ingress of " + name;
}

} // namespace ns3
