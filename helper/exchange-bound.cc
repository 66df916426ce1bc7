/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "exchange-bound.h"

#include "ns3/chunk-layout.h"
#include "ns3/log.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ExchangeBound");

ExchangeBound::ExchangeBound(const WanRouting& routing, uint64_t modelBytes, bool unicastOnly)
    : m_routing(routing),
      m_modelBytes(modelBytes),
      m_multicast(false)
{
    const WanTopology& topology = routing.GetTopology();
    for (const WanCity& city : topology.GetCities())
    {
        m_multicast = m_multicast || (city.caps.multicast && !unicastOnly);
        m_transit.push_back(city.caps.transit && !unicastOnly);
    }
    for (const WanIsland& island : topology.GetIslands())
    {
        m_aggregate.push_back(topology.GetCities()[island.city].caps.fpga && !unicastOnly);
    }
}

void
ExchangeBound::SetUpdateFormat(const UpdateFormat& format, uint32_t chunkPayloadBytes)
{
    NS_LOG_FUNCTION(this << format.ToString() << chunkPayloadBytes);
    m_layout.reset();
    if (format != UpdateFormat())
    {
        m_layout = ChunkLayout(m_modelBytes,
                               chunkPayloadBytes,
                               format,
                               m_routing.GetTopology().GetIslands().size());
    }
    if (!format.IsSummable())
    {
        std::fill(m_aggregate.begin(), m_aggregate.end(), false);
    }
}

uint64_t
ExchangeBound::DirectBytes() const
{
    return m_layout ? m_layout->GetPayloadBytes() : m_modelBytes;
}

uint64_t
ExchangeBound::DirectSumBytes(uint32_t k) const
{
    return m_layout ? m_layout->GetSumPayloadBytes(k - 1) : m_modelBytes;
}

uint64_t
ExchangeBound::RingStepBytes(uint32_t k, uint32_t segment, uint32_t step) const
{
    if (!m_layout)
    {
        return ChunkLayout::RingSegmentBytes(m_modelBytes, k, segment);
    }
    uint64_t chunks = 0;
    uint32_t lastPayload = 0;
    return m_layout->GetRingStepPayload(k, segment, step, chunks, lastPayload);
}

double
ExchangeBound::GetCliqueBound(const std::vector<uint32_t>& members, SyncAlgorithm algorithm) const
{
    const uint32_t k = members.size();
    if (k < 2)
    {
        return 0;
    }
    if (algorithm == SyncAlgorithm::TREE)
    {
        double bound = std::numeric_limits<double>::infinity();
        for (uint32_t root : members)
        {
            bound = std::min(bound, GetTreeBound(members, root));
        }
        return bound;
    }
    std::vector<Flow> flows;
    if (algorithm == SyncAlgorithm::RING)
    {
        for (uint32_t p = 0; p < k; ++p)
        {
            uint64_t bytes = 0;
            for (uint32_t step = 0; step < ChunkLayout::RingSteps(k); ++step)
            {
                bytes += RingStepBytes(k, ChunkLayout::RingSendSegment(k, p, step), step);
            }
            flows.push_back({members[p], members[(p + 1) % k], bytes, bytes});
        }
        // Each segment travels 2(k-1) successive ring hops (reduced on the way, then
        // gathered), one chain from every member: the longest chain's propagation.
        double chain = 0;
        for (uint32_t p = 0; p < k; ++p)
        {
            double delay = 0;
            for (uint32_t step = 0; step < ChunkLayout::RingSteps(k); ++step)
            {
                delay +=
                    m_routing.GetIslandDelay(members[(p + step) % k], members[(p + step + 1) % k]);
            }
            chain = std::max(chain, delay);
        }
        return std::max(chain, Bound(flows, false));
    }
    for (uint32_t src : members)
    {
        for (uint32_t dst : members)
        {
            if (src != dst)
            {
                flows.push_back({src, dst, DirectBytes(), DirectSumBytes(k)});
            }
        }
    }
    return Bound(flows, true);
}

double
ExchangeBound::Bound(const std::vector<Flow>& flows, bool shared) const
{
    const WanTopology& topology = m_routing.GetTopology();
    const auto& islands = topology.GetIslands();
    const auto& links = topology.GetLinks();
    constexpr double NONE = std::numeric_limits<double>::infinity();

    // Per resource: the bytes it must carry, keyed by what may share them, and the least
    // propagation before it and after it (its own delay included) over the flows crossing it.
    struct Load
    {
        std::map<uint64_t, uint64_t> bytes;
        double up{NONE};
        double down{NONE};
    };

    std::map<uint32_t, Load> loads;
    double bound = 0;
    for (size_t f = 0; f < flows.size(); ++f)
    {
        const Flow& flow = flows[f];
        std::vector<std::pair<uint32_t, double>> path; // (resource, its delay)
        path.emplace_back(m_routing.GetAccessUpResource(flow.src), islands[flow.src].accessDelay);
        for (const WanHop& hop : m_routing.GetPath(islands[flow.src].city, islands[flow.dst].city))
        {
            path.emplace_back(m_routing.GetHopResource(hop), links[hop.link].delay);
        }
        path.emplace_back(m_routing.GetAccessDownResource(flow.dst), islands[flow.dst].accessDelay);
        // The flow alone: its own bytes cross its narrowest resource, the first of them not
        // before they could get there, the last still to travel the rest of the path.
        double total = 0;
        double narrowest = std::numeric_limits<double>::infinity();
        for (const auto& [resource, delay] : path)
        {
            total += delay;
            narrowest = std::min(narrowest, m_routing.GetResourceCapacity(resource));
        }
        bound = std::max(bound, total + flow.bytes * 8.0 / narrowest);
        // What may share a resource's bytes: nothing (the flow's own key), the source's other
        // flows (multicast), every flow into an FPGA's island (its last resource).
        const uint64_t own = flows.size() + f;
        const uint64_t key = shared && m_multicast ? flow.src : own;
        const uint64_t last =
            shared && m_aggregate[flow.dst] ? std::numeric_limits<uint64_t>::max() : key;
        double before = 0;
        for (size_t h = 0; h < path.size(); ++h)
        {
            const auto& [resource, delay] = path[h];
            Load& load = loads[resource];
            uint64_t& bytes = load.bytes[h + 1 == path.size() ? last : key];
            bytes = std::max(bytes, h + 1 == path.size() && last != key ? flow.sum : flow.bytes);
            load.up = std::min(load.up, before);
            load.down = std::min(load.down, total - before);
            before += delay;
        }
    }
    for (const auto& [resource, load] : loads)
    {
        uint64_t bytes = 0;
        for (const auto& entry : load.bytes)
        {
            bytes += entry.second;
        }
        const double serialise = bytes * 8.0 / m_routing.GetResourceCapacity(resource);
        bound = std::max(bound, load.up + serialise + load.down);
        NS_LOG_LOGIC(m_routing.GetResourceName(resource)
                     << ": " << bytes << " bytes, " << serialise << " s, up " << load.up
                     << " s, down " << load.down << " s");
    }
    return bound;
}

double
ExchangeBound::GetTreeBound(const std::vector<uint32_t>& members, uint32_t root) const
{
    if (members.size() < 2)
    {
        return 0;
    }
    const auto& islands = m_routing.GetTopology().GetIslands();
    const uint32_t rootCity = islands[root].city;
    // Per resource, the pieces crossing it: a member's own update (key: the island) until its
    // first transit city, then the aggregate of that city (key: islands + city), and the root's
    // sum going down (multicast: one key; unicast: one per destination).
    const uint64_t cityKey = islands.size();
    const uint64_t downKey = cityKey + m_transit.size();
    std::map<uint32_t, std::set<uint64_t>> pieces;
    double up = 0;
    double down = 0;
    for (uint32_t m : members)
    {
        if (m == root)
        {
            continue;
        }
        up = std::max(up, m_routing.GetIslandDelay(m, root));
        down = std::max(down, m_routing.GetIslandDelay(root, m));
        uint64_t key = m;
        pieces[m_routing.GetAccessUpResource(m)].insert(key);
        for (const WanHop& hop : m_routing.GetPath(islands[m].city, rootCity))
        {
            key = m_transit[hop.from] ? cityKey + hop.from : key;
            pieces[m_routing.GetHopResource(hop)].insert(key);
        }
        key = m_transit[rootCity] ? cityKey + rootCity : key;
        pieces[m_routing.GetAccessDownResource(root)].insert(key);
        // Down: the root's sum to m.
        const uint64_t sum = m_multicast ? downKey : downKey + 1 + m;
        pieces[m_routing.GetAccessUpResource(root)].insert(sum);
        for (const WanHop& hop : m_routing.GetPath(rootCity, islands[m].city))
        {
            pieces[m_routing.GetHopResource(hop)].insert(sum);
        }
        pieces[m_routing.GetAccessDownResource(m)].insert(sum);
    }
    // A member's update and a transit city's sum cost at least an update's bytes (a sum is never
    // narrower); the root's sum of all k its own bytes.
    const double sumBytes = m_layout ? m_layout->GetSumPayloadBytes(members.size()) : m_modelBytes;
    double serialise = 0;
    for (const auto& [resource, keys] : pieces)
    {
        double bytes = 0;
        for (uint64_t key : keys)
        {
            bytes += key >= downKey ? sumBytes : DirectBytes();
        }
        const double seconds = bytes * 8.0 / m_routing.GetResourceCapacity(resource);
        NS_LOG_LOGIC(m_routing.GetResourceName(resource)
                     << ": " << keys.size() << " pieces, " << seconds << " s");
        serialise = std::max(serialise, seconds);
    }
    return serialise + up + down;
}

ExchangeBound::Comparison
ExchangeBound::Compare(const std::vector<TrainingRoundRecord>& records,
                       const CliqueSchedule& schedule,
                       uint32_t firstRound) const
{
    // Per (round, clique): first sync start, last sync end, members seen, all finished.
    struct Window
    {
        double start{std::numeric_limits<double>::infinity()};
        double end{0};
        uint32_t finished{0};
        std::vector<uint32_t> members;
    };

    std::map<std::pair<uint32_t, uint32_t>, Window> windows;
    for (const TrainingRoundRecord& r : records)
    {
        if (r.round < firstRound)
        {
            continue;
        }
        Window& w = windows[{r.round, r.clique}];
        w.members = r.members;
        if (r.finished)
        {
            w.start = std::min(w.start, r.syncStart.GetSeconds());
            w.end = std::max(w.end, r.syncEnd.GetSeconds());
            ++w.finished;
        }
    }
    Comparison c;
    double exchangeSum = 0;
    double boundSum = 0;
    for (const auto& [key, w] : windows)
    {
        if (w.members.size() < 2 || w.finished < w.members.size())
        {
            continue;
        }
        const double bound =
            GetCliqueBound(w.members, schedule.GetAlgorithm(key.first, key.second));
        const double exchange = w.end - w.start;
        const double ratio = bound > 0 ? exchange / bound : 0;
        c.minRatio = c.exchanges == 0 ? ratio : std::min(c.minRatio, ratio);
        ++c.exchanges;
        exchangeSum += exchange;
        boundSum += bound;
    }
    if (c.exchanges > 0)
    {
        c.meanExchange = exchangeSum / c.exchanges;
        c.meanBound = boundSum / c.exchanges;
    }
    return c;
}

} // namespace ns3
