/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-fpgas.h"

#include "wan-topology-helper.h"

#include "ns3/fpga-aggregator-net-device.h"
#include "ns3/log.h"
#include "ns3/transit-aggregator-net-device.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingFpgas");

namespace
{
/** FPGA slots provisioned per slot the delay spread needs (bursts, stragglers). */
constexpr double FPGA_SLOT_HEADROOM = 2.0;
} // namespace

Time
TrainingFpgas::HoldOf(Ptr<Object> fpga)
{
    TimeValue timeout;
    TimeValue latency;
    fpga->GetAttribute("Timeout", timeout);
    fpga->GetAttribute("PipelineLatency", latency);
    return timeout.Get() + latency.Get();
}

void
TrainingFpgas::Tune(Ptr<Object> fpga,
                    const std::string& name,
                    const Need& need,
                    double stagger,
                    const Settings& settings)
{
    if (need.rate <= 0)
    {
        return;
    }
    // Tuned: the need plus the margin. Untuned: the attributes must cover the need itself,
    // or the run would flush partial aggregates (or pass chunks through) that the plan
    // assumed folded: say so now, not as resends and queue drops later.
    const Time hold = Seconds(need.spread + stagger) + (settings.tune ? settings.margin : Time(0));
    TimeValue timeout;
    fpga->GetAttribute("Timeout", timeout);
    if (timeout.Get() < hold)
    {
        if (!settings.tune)
        {
            std::ostringstream os;
            os << "TrainingHelper: " << name << " has Timeout " << timeout.Get().As(Time::MS)
               << ", but the plan holds its slots up to " << hold.As(Time::MS)
               << " (the spread of its senders' delays and start times): raise Timeout or "
                  "let SetTuneFpgas size it";
            throw std::runtime_error(os.str());
        }
        fpga->SetAttribute("Timeout", TimeValue(hold));
    }
    const double needed =
        std::ceil(std::min(FPGA_SLOT_HEADROOM * hold.GetSeconds() * need.rate / settings.packetBits,
                           2.0 * settings.chunkCount));
    UintegerValue slots;
    fpga->GetAttribute("SlotCount", slots);
    if (needed > slots.Get())
    {
        if (!settings.tune)
        {
            std::ostringstream os;
            os << "TrainingHelper: " << name << " has SlotCount " << slots.Get()
               << ", but the plan may keep up to " << needed
               << " slots open at once: raise SlotCount or let SetTuneFpgas size it";
            throw std::runtime_error(os.str());
        }
        fpga->SetAttribute("SlotCount", UintegerValue(static_cast<uint32_t>(needed)));
    }
    NS_LOG_INFO(name << ": timeout " << hold.As(Time::MS) << ", slots "
                     << std::max<double>(needed, slots.Get()));
}

TrainingFpgas::Need
TrainingFpgas::TransitNeed(const WanTopologyHelper& topology,
                           uint32_t city,
                           const std::vector<SyncRoundEstimate>& plans)
{
    const WanRouting& routing = topology.GetRouting();
    const auto& islands = topology.GetTopology().GetIslands();
    const std::vector<IslandBitmap> below = WanTransitFpgas::BelowSets(routing, city);
    Need need;
    for (const SyncRoundEstimate& plan : plans)
    {
        // Per clique: the nearest and farthest of its pieces passing this city.
        std::map<uint32_t, std::pair<double, double>> range;
        for (const SyncStream& stream : plan.streams)
        {
            if (!stream.reduce)
            {
                continue;
            }
            if (!below.at(stream.receivers.at(0)).Test(stream.sender))
            {
                continue;
            }
            const WanIsland& sender = islands[stream.sender];
            const double d = sender.accessDelay + routing.GetPathDelay(sender.city, city);
            auto [it, fresh] = range.emplace(stream.clique, std::make_pair(d, d));
            it->second.first = std::min(it->second.first, d);
            it->second.second = std::max(it->second.second, d);
            need.rate = std::max(need.rate, stream.rateBps);
        }
        for (const auto& [clique, r] : range)
        {
            need.spread = std::max(need.spread, r.second - r.first);
        }
    }
    return need;
}

void
TrainingFpgas::Size(const WanTopologyHelper& topology,
                    const std::vector<SyncRoundEstimate>& plans,
                    const Settings& settings)
{
    const WanRouting& routing = topology.GetRouting();
    const WanTopology& wan = topology.GetTopology();
    double stagger = 0;
    for (const SyncRoundEstimate& plan : plans)
    {
        stagger = std::max(stagger, plan.syncTime);
    }
    for (uint32_t j = 0; j < wan.GetIslands().size(); ++j)
    {
        Ptr<FpgaAggregatorNetDevice> fpga = topology.GetFpga(j);
        if (!fpga)
        {
            continue;
        }
        Need need;
        for (const SyncRoundEstimate& plan : plans)
        {
            double nearest = std::numeric_limits<double>::infinity();
            double farthest = 0;
            for (const SyncStream& stream : plan.streams)
            {
                if (stream.algorithm != SyncAlgorithm::DIRECT ||
                    !std::binary_search(stream.receivers.begin(), stream.receivers.end(), j))
                {
                    continue;
                }
                const double d = routing.GetIslandDelay(stream.sender, j);
                nearest = std::min(nearest, d);
                farthest = std::max(farthest, d);
                need.rate = std::max(need.rate, stream.rateBps);
            }
            if (farthest > 0)
            {
                need.spread = std::max(need.spread, farthest - nearest);
            }
        }
        Tune(fpga, "the FPGA of island " + wan.GetIslands()[j].name, need, stagger, settings);
    }
    for (uint32_t c = 0; c < wan.GetCities().size(); ++c)
    {
        if (Ptr<TransitAggregatorNetDevice> transit = topology.GetTransit(c))
        {
            Tune(transit,
                 "the transit FPGA of " + wan.GetCities()[c].code,
                 TransitNeed(topology, c, plans),
                 stagger,
                 settings);
        }
    }
}

std::vector<Time>
TrainingFpgas::Holds(const WanTopologyHelper& topology, const std::vector<SyncRoundEstimate>& plans)
{
    const WanRouting& routing = topology.GetRouting();
    const auto& islands = topology.GetTopology().GetIslands();
    std::vector<Time> hold(islands.size());
    for (uint32_t i = 0; i < islands.size(); ++i)
    {
        if (Ptr<FpgaAggregatorNetDevice> fpga = topology.GetFpga(i))
        {
            hold[i] = HoldOf(fpga);
        }
    }
    std::vector<Time> transit(islands.size());
    for (const SyncRoundEstimate& plan : plans)
    {
        for (const SyncStream& stream : plan.streams)
        {
            if (!stream.reduce)
            {
                continue;
            }
            const uint32_t root = stream.receivers.at(0);
            Time sum;
            for (uint32_t c : routing.GetCityPath(islands[stream.sender].city, islands[root].city))
            {
                if (Ptr<TransitAggregatorNetDevice> fpga = topology.GetTransit(c))
                {
                    sum += HoldOf(fpga);
                }
            }
            transit[root] = std::max(transit[root], sum);
        }
    }
    for (uint32_t i = 0; i < islands.size(); ++i)
    {
        hold[i] += transit[i];
    }
    return hold;
}

} // namespace ns3
