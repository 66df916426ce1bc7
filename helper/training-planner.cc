/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-planner.h"

#include "ns3/fragment-plan.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"
#include "ns3/wan-mpi.h"
#include "ns3/wan-partition.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-units.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingPlanner");

namespace
{

/**
 * Work of a packet at an island (sent or received), in units of one end of a link hop. Set
 * when the islands' datagrams went through ns-3's IPv4/UDP stack (callgrind on a 5 MB
 * global-clique round without multicast: about 3.4 k instructions per end of a hop, with its
 * event and the router's forwarding; 12.4 k per packet sent by a host, 14.2 k per packet
 * received). With IslandUdpPort (the default) the same count gives about 2.8 units to send
 * (6.8 k with the pacer and the port) and 1.6 to receive (3.8 k with the exchange), against
 * 2.45 k per end of a hop; with those values Balance chooses the same split for every
 * capability set on doublezero-9, so the constant stays (doc/training.rst, "Measured speed of
 * distributed runs").
 */
constexpr double HOST_PACKET_WORK = 4.0;
/**
 * Work of a packet through an in-line FPGA (the extra hop: received, then sent or folded into
 * an aggregate), in the same units.
 */
constexpr double FPGA_PACKET_WORK = 2.0;

} // namespace

void
TrainingPlanner::EstimateLoad(const WanTopology& topology,
                              const WanRouting& routing,
                              const std::vector<SyncRoundEstimate>& plans,
                              uint32_t rounds,
                              std::vector<double>& cityLoad,
                              std::vector<double>& linkPackets)
{
    // Where each resource's packets are handled: a WAN hop by the routers at both ends, an
    // access link by the island's stack and its router at the other end, plus the FPGA in
    // between if there is one. Into an island with an FPGA, every sender's packet crosses the
    // in-box link before the FPGA folds it (the access link then carries the aggregates).
    const auto hasFpga = [&topology](uint32_t island) {
        return topology.GetCities()[topology.GetIslands()[island].city].caps.fpga;
    };
    std::vector<std::vector<std::pair<uint32_t, double>>> work(routing.GetResourceCount());
    std::vector<uint32_t> linkOf(routing.GetResourceCount(), WanRouting::NO_LINK);
    const auto& links = topology.GetLinks();
    for (uint32_t l = 0; l < links.size(); ++l)
    {
        for (const WanHop& hop :
             {WanHop{l, links[l].a, links[l].b}, WanHop{l, links[l].b, links[l].a}})
        {
            work[routing.GetHopResource(hop)] = {{hop.from, 1.0}, {hop.to, 1.0}};
            linkOf[routing.GetHopResource(hop)] = l;
        }
    }
    for (uint32_t i = 0; i < topology.GetIslands().size(); ++i)
    {
        const uint32_t city = topology.GetIslands()[i].city;
        const double fpga = hasFpga(i) ? FPGA_PACKET_WORK : 0.0;
        work[routing.GetAccessUpResource(i)] = {{city, HOST_PACKET_WORK + 1.0 + fpga}};
        work[routing.GetAccessDownResource(i)] = {{city, HOST_PACKET_WORK + 1.0}};
    }
    cityLoad.assign(topology.GetCities().size(), 0.0);
    linkPackets.assign(links.size(), 0.0);
    for (uint32_t t = 0; t < plans.size(); ++t)
    {
        // Rounds t, t + T, ... of the run use plan t.
        const uint32_t uses = rounds / plans.size() + (t < rounds % plans.size() ? 1 : 0);
        for (const SyncStream& stream : plans[t].streams)
        {
            for (const auto& [resource, weight] : stream.resources)
            {
                const double packets = double(uses) * stream.chunks * weight;
                for (const auto& [city, units] : work[resource])
                {
                    cityLoad[city] += packets * units;
                }
                if (linkOf[resource] != WanRouting::NO_LINK)
                {
                    linkPackets[linkOf[resource]] += packets;
                }
            }
            for (uint32_t receiver : stream.receivers)
            {
                if (hasFpga(receiver))
                {
                    cityLoad[topology.GetIslands()[receiver].city] +=
                        double(uses) * stream.chunks * FPGA_PACKET_WORK;
                }
            }
        }
    }
}

void
TrainingPlanner::ChooseAlgorithms(const SyncCostModel& costModel,
                                  CliqueSchedule& schedule,
                                  uint64_t modelBytes)
{
    for (uint32_t t = 0; t < schedule.GetPeriod(); ++t)
    {
        ChooseRoundAlgorithms(costModel, schedule, t, modelBytes);
    }
}

void
TrainingPlanner::ChooseRoundAlgorithms(const SyncCostModel& costModel,
                                       CliqueSchedule& schedule,
                                       uint32_t periodRound,
                                       uint64_t modelBytes)
{
    std::vector<SyncAlgorithm> algorithms;
    for (const Clique& clique : schedule.GetPartition(periodRound))
    {
        algorithms.push_back(costModel.ChooseAlgorithm(clique, modelBytes));
    }
    schedule.SetAlgorithms(periodRound, algorithms);
}

std::vector<uint32_t>
TrainingPlanner::PartitionCities(const WanTopology& topology,
                                 const CliqueSchedule& schedule,
                                 uint64_t modelBytes,
                                 uint32_t rounds,
                                 uint16_t mtu,
                                 bool chooseAlgorithms,
                                 uint32_t ranks)
{
    WanPartition::CheckRanks(ranks, topology.GetCities().size()); // before planning
    const WanRouting routing(topology);
    Ptr<SyncCostModel> costModel = CreateObject<SyncCostModel>();
    costModel->SetAttribute("Mtu", UintegerValue(mtu));
    costModel->SetRouting(routing);
    CliqueSchedule resolved = schedule;
    if (chooseAlgorithms)
    {
        ChooseAlgorithms(*costModel, resolved, modelBytes);
    }
    std::vector<SyncRoundEstimate> plans;
    for (uint32_t t = 0; t < resolved.GetPeriod(); ++t)
    {
        plans.push_back(costModel->GetRoundPlan(resolved, t, modelBytes));
    }
    std::vector<double> cityLoad;
    std::vector<double> linkPackets;
    EstimateLoad(topology, routing, plans, rounds, cityLoad, linkPackets);
    const std::vector<uint32_t> cityRanks =
        WanPartition::Balance(topology, cityLoad, linkPackets, ranks);
    for (uint32_t c = 0; c < cityRanks.size(); ++c)
    {
        NS_LOG_INFO("city " << topology.GetCities()[c].code << ": estimated load " << cityLoad[c]
                            << ", rank " << cityRanks[c]);
    }
    return cityRanks;
}

std::vector<uint32_t>
TrainingPlanner::DistributeCities(WanTopologyHelper& wan,
                                  const WanTopology& topology,
                                  const CliqueSchedule& schedule,
                                  uint64_t modelBytes,
                                  uint32_t rounds,
                                  const std::string& partition)
{
    if (!WanMpi::IsSimulating() || WanMpi::GetSize() == 1)
    {
        return {};
    }
    const uint32_t ranks = WanMpi::GetSize();
    std::vector<uint32_t> cityRanks(topology.GetCities().size(), 0);
    if (cityRanks.size() > 1)
    {
        cityRanks = partition.empty() ? PartitionCities(topology,
                                                        schedule,
                                                        modelBytes,
                                                        rounds,
                                                        wan.GetMtu(),
                                                        false,
                                                        ranks)
                                      : WanPartition::Parse(partition, topology, ranks);
    }
    wan.SetCitySystemIds(cityRanks);
    NS_LOG_INFO("topology '" << topology.GetName() << "' over " << ranks
                             << " ranks: " << WanPartition::Describe(topology, cityRanks));
    return cityRanks;
}

std::vector<TrainingRoundConfig>
TrainingPlanner::PlanRound(const Partition& partition,
                           const std::vector<SyncAlgorithm>& algorithms,
                           const SyncRoundEstimate& plan,
                           const TrainingRoundGroups& groups,
                           const std::vector<Ipv4Address>& addresses,
                           const std::vector<std::string>& names,
                           uint32_t round)
{
    NS_LOG_FUNCTION(round);
    std::vector<TrainingRoundConfig> configs(addresses.size());
    for (uint32_t c = 0; c < partition.size(); ++c)
    {
        for (uint32_t island : partition[c])
        {
            TrainingRoundConfig& config = configs.at(island);
            config.clique = c;
            config.members = partition[c];
            std::sort(config.members.begin(), config.members.end());
            config.algorithm = algorithms.at(c);
            if (config.algorithm == SyncAlgorithm::TREE)
            {
                config.root = plan.cliqueRoot.at(c);
            }
            config.estimatedSyncTime = plan.syncTime;
        }
    }
    for (const SyncStream& stream : plan.streams)
    {
        TrainingRoundConfig& config = configs.at(stream.sender);
        if (stream.algorithm == SyncAlgorithm::RING)
        {
            if (config.ringRateBps.size() <= stream.ringStep)
            {
                config.ringRateBps.resize(stream.ringStep + 1, 0.0);
            }
            config.ringRateBps[stream.ringStep] = stream.rateBps;
            continue;
        }
        if (stream.multicast && !groups.capable.at(stream.sender))
        {
            std::ostringstream os;
            os << "TrainingHelper: round " << round << ": the plan multicasts island "
               << names.at(stream.sender) << "'s update, but the routers refuse its tree: "
               << groups.refusal.at(stream.sender);
            throw std::runtime_error(os.str());
        }
        TrainingStreamConfig s;
        s.multicast = stream.multicast;
        s.rateBps = stream.rateBps;
        s.resendWeight = stream.resendWeight;
        if (stream.multicast)
        {
            s.receivers = stream.receivers;
            s.destination = groups.group.at(stream.sender);
            config.streams.push_back(s);
            continue;
        }
        for (uint32_t receiver : stream.receivers)
        {
            s.receivers = {receiver};
            s.destination = addresses.at(receiver);
            config.streams.push_back(s);
        }
    }
    return configs;
}

namespace
{

/** One stream's last arrival at a receiver: (sender, time). */
using Arrival = std::pair<uint32_t, double>;

/**
 * \brief ReplayRounds: hold each sender until its first packet reaches each of its receivers
 *        after the receiver's previous-round arrivals from other senders.
 * \param routing the routes \param plan the round's plan
 * \param previous per island, the previous round's arrivals at it
 * \param go per island, when it may start sending (raised here)
 */
void
HoldForPreviousArrivals(const WanRouting& routing,
                        const SyncRoundEstimate& plan,
                        const std::vector<std::vector<Arrival>>& previous,
                        std::vector<double>& go)
{
    for (const SyncStream& stream : plan.streams)
    {
        const uint32_t i = stream.sender;
        for (uint32_t j : stream.receivers)
        {
            for (const Arrival& other : previous[j])
            {
                if (other.first != i)
                {
                    go[i] = std::max(go[i], other.second - routing.GetIslandDelay(i, j));
                }
            }
        }
    }
}

/**
 * \brief ReplayRounds: when each island's sync of the round ends, and the arrivals at it.
 * \param routing the routes \param plan the round's plan
 * \param go per island, when it starts sending
 * \param finish per island, when its sync ends (from go; raised here)
 * \param arrivals per island, receives the round's last arrival from each sender
 */
void
ReplayFinishes(const WanRouting& routing,
               const SyncRoundEstimate& plan,
               const std::vector<double>& go,
               std::vector<double>& finish,
               std::vector<std::vector<Arrival>>& arrivals)
{
    // A TREE clique's sums come down once the root has every member's update: the clique
    // runs from its last member's start.
    std::map<uint32_t, double> treeGo;
    for (const SyncStream& stream : plan.streams)
    {
        if (stream.algorithm == SyncAlgorithm::TREE)
        {
            double& at = treeGo[stream.clique];
            at = std::max(at, go[stream.sender]);
        }
    }
    for (const SyncStream& stream : plan.streams)
    {
        const uint32_t i = stream.sender;
        if (stream.algorithm == SyncAlgorithm::TREE)
        {
            const double from = treeGo[stream.clique];
            finish[i] = std::max(finish[i], from + plan.islandTime.at(i));
            for (uint32_t j : stream.receivers)
            {
                finish[j] = std::max(finish[j], from + plan.islandTime.at(j));
            }
            continue;
        }
        if (stream.algorithm == SyncAlgorithm::RING)
        {
            // A member's chain of ring steps, as the cost model times it (over the ring the
            // members' start differences cancel in the mean); its successor's chain ends
            // with the last step from it.
            finish[i] = std::max(finish[i], go[i] + plan.islandTime.at(i));
            continue;
        }
        const double sent = go[i] + stream.finishTime - stream.startTime - stream.delay;
        finish[i] = std::max(finish[i], sent);
        for (uint32_t j : stream.receivers)
        {
            const double arrival = sent + routing.GetIslandDelay(i, j);
            finish[j] = std::max(finish[j], arrival);
            arrivals[j].emplace_back(i, arrival);
        }
    }
    for (const SyncStream& stream : plan.streams)
    {
        if (stream.algorithm != SyncAlgorithm::DIRECT)
        {
            for (uint32_t j : stream.receivers)
            {
                arrivals[j].emplace_back(stream.sender, finish[j]);
            }
        }
    }
}

} // namespace

TrainingPlanner::ReplayedSync
TrainingPlanner::ReplayRounds(const WanRouting& routing,
                              const std::vector<std::vector<SyncRoundEstimate>>& plans,
                              uint32_t rounds,
                              const std::vector<std::vector<Time>>& launches,
                              const std::vector<double>& multipliers,
                              std::vector<std::vector<double>>* notBefore)
{
    // Like for like with the simulated mean sync: replay the rounds with the cost model's
    // plans. Islands start syncing when their own compute ends, so from the second round on
    // they start at different times; an island's sync ends when its own streams are sent and
    // every peer's stream has arrived (sender's start + transfer + path delay), or, in a ring
    // clique, when its own chain of steps ends.
    //
    // A round's rates assume its receivers' ingress carries that round only. A receiver still
    // receiving its previous round from another sender (a partner of an earlier clique, or a
    // slower peer) would carry both, so an island holds its sending until its first packet
    // would arrive after the last of those (its own earlier stream is no conflict: it sends
    // one round after the other).
    //
    // In fragments (FragmentPlan), each fragment's exchange is replayed like a round: it starts
    // at the later of its launch and the end of the island's previous fragment.
    const uint32_t n = multipliers.size();
    const auto fragments = static_cast<uint32_t>(launches.at(0).size());
    std::vector<std::vector<Arrival>> previous(n);
    std::vector<std::vector<Arrival>> arrivals(n);
    std::vector<double> end(n, 0.0);
    std::vector<double> computeStart(n);
    std::vector<double> busy(n);
    std::vector<double> start(n);
    std::vector<double> go(n);
    std::vector<double> finish(n);
    if (notBefore != nullptr)
    {
        notBefore->assign(uint64_t(rounds) * fragments, std::vector<double>(n, 0.0));
    }
    ReplayedSync sum;
    uint64_t count = 0;
    for (uint32_t r = 0; r < rounds; ++r)
    {
        const std::vector<SyncRoundEstimate>& roundPlans = plans.at(r % plans.size());
        computeStart = end;
        std::fill(busy.begin(), busy.end(), 0.0);
        for (uint32_t f = 0; f < fragments; ++f)
        {
            const SyncRoundEstimate& plan = roundPlans.at(roundPlans.size() == 1 ? 0 : f);
            for (uint32_t i = 0; i < n; ++i)
            {
                const std::vector<Time>& launch = launches.at(launches.size() == 1 ? 0 : i);
                start[i] =
                    std::max(computeStart[i] + launch[f].GetSeconds() * multipliers[i], end[i]);
                go[i] = start[i];
            }
            HoldForPreviousArrivals(routing, plan, previous, go);
            for (uint32_t i = 0; i < n; ++i)
            {
                if (notBefore != nullptr && go[i] > start[i])
                {
                    (*notBefore)[uint64_t(r) * fragments + f][i] = go[i];
                }
                finish[i] = go[i];
                arrivals[i].clear();
            }
            ReplayFinishes(routing, plan, go, finish, arrivals);
            for (uint32_t i = 0; i < n; ++i)
            {
                busy[i] += finish[i] - start[i];
            }
            end = finish;
            previous.swap(arrivals);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            const FragmentPlan::Split split = FragmentPlan::SplitAt(
                busy[i],
                end[i],
                computeStart[i] +
                    launches.at(launches.size() == 1 ? 0 : i).back().GetSeconds() * multipliers[i]);
            sum.exposed += split.exposed;
            sum.hidden += split.hidden;
            ++count;
        }
    }
    if (count > 0)
    {
        sum.exposed /= count;
        sum.hidden /= count;
    }
    return sum;
}

std::string
TrainingPlanner::DescribeLongRound(const WanRouting& routing,
                                   const std::vector<SyncRoundEstimate>& plans,
                                   Time threshold,
                                   Time maxSimTime)
{
    const auto longest =
        std::max_element(plans.begin(),
                         plans.end(),
                         [](const SyncRoundEstimate& a, const SyncRoundEstimate& b) {
                             return a.syncTime < b.syncTime;
                         });
    if (longest == plans.end() || longest->syncTime <= threshold.GetSeconds())
    {
        return "";
    }
    std::ostringstream os;
    os << "the plan's round " << (longest - plans.begin()) << " syncs in "
       << WanUnits::FormatNumber(longest->syncTime) << " s of simulated time ("
       << WanUnits::FormatNumber(longest->syncTime / 86400) << " days), above "
       << WanUnits::FormatNumber(threshold.GetSeconds()) << " s";
    // What holds it up: the narrowest share on the path of its last stream to finish.
    const auto last = std::max_element(
        longest->streams.begin(),
        longest->streams.end(),
        [](const SyncStream& a, const SyncStream& b) { return a.finishTime < b.finishTime; });
    if (last != longest->streams.end() && !last->resources.empty())
    {
        const auto narrowest = std::min_element(
            last->resources.begin(),
            last->resources.end(),
            [&routing](const MaxMinFairShare::Usage& a, const MaxMinFairShare::Usage& b) {
                return routing.GetResourceCapacity(a.first) / a.second <
                       routing.GetResourceCapacity(b.first) / b.second;
            });
        os << ", limited by " << routing.GetResourceName(narrowest->first) << " at "
           << WanUnits::FormatRate(
                  static_cast<uint64_t>(routing.GetResourceCapacity(narrowest->first)));
    }
    os << "; is a rate in the topology a typo? --maxSimTime=DURATION stops the run at that much "
          "simulated time";
    if (maxSimTime.IsStrictlyPositive())
    {
        os << " (this run stops at " << WanUnits::FormatNumber(maxSimTime.GetSeconds()) << " s)";
    }
    return os.str();
}

WanTopology
TrainingPlanner::PlannedTopology(const WanTopology& topology, bool tcp)
{
    WanTopology planned = topology;
    if (tcp)
    {
        planned.SetCapabilities(WanCapabilities());
    }
    return planned;
}

std::string
TrainingPlanner::TransportNote(const WanTopology& topology, bool tcp)
{
    const std::vector<WanCity>& cities = topology.GetCities();
    const bool capable = std::any_of(cities.begin(), cities.end(), [](const WanCity& city) {
        return city.caps.multicast || city.caps.fpga;
    });
    return tcp && capable ? "multicast and FPGA aggregation do not apply to TCP: the exchanges "
                            "ran as unicast TCP streams without them"
                          : "";
}

} // namespace ns3
