/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_PLANNER_H
#define TRAINING_PLANNER_H

#include "ns3/clique-schedule.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/round-config.h"
#include "ns3/sync-cost-model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class WanRouting;
class WanTopology;
class WanTopologyHelper;

/**
 * \ingroup wan-training
 * \brief The multicast groups of one period round, as TrainingHelper installed them.
 */
struct TrainingRoundGroups
{
    std::vector<Ipv4Address> group;   //!< per island: the group it sends to (if it multicasts)
    std::vector<bool> capable;        //!< per island: the routers carry its tree
    std::vector<std::string> refusal; //!< per island: why not (WanMulticastTree::Install)
};

/**
 * \ingroup wan-training
 * \brief What the cost model's round plans imply, computed without installing anything: the
 *        algorithm of every clique, when each island may start sending (the rounds replayed),
 *        the work of each city, and the city -> MPI rank assignment of a distributed run.
 *
 * TrainingHelper::Install uses the first two; programs call DistributeCities before
 * WanTopologyHelper::Install.
 */
class TrainingPlanner
{
  public:
    /**
     * \brief Resolve one round's algorithms by the cost model's choice per clique.
     * \param costModel the model (of the round's update format) \param schedule changed in
     *        place \param periodRound the round, 0..T-1 \param modelBytes M
     */
    static void ChooseRoundAlgorithms(const SyncCostModel& costModel,
                                      CliqueSchedule& schedule,
                                      uint32_t periodRound,
                                      uint64_t modelBytes);
    /**
     * \brief Resolve the schedule's algorithms by the cost model's choice per clique.
     * \param costModel the model \param schedule changed in place \param modelBytes M
     */
    static void ChooseAlgorithms(const SyncCostModel& costModel,
                                 CliqueSchedule& schedule,
                                 uint64_t modelBytes);
    /**
     * \brief Each island's part of one period round, from the cost model's plan: its clique
     *        (members ascending), algorithm, TREE root and estimated sync time; its RING rate
     *        per step; and its streams: one multicast stream where the plan multicasts and the
     *        routers carry the sender's tree, else one unicast stream per receiver.
     * \param partition the round's cliques \param algorithms per clique
     * \param plan the cost model's plan of the round (SyncCostModel::GetRoundPlan)
     * \param groups the round's multicast groups \param addresses every island's address
     * \param names every island's name (messages) \param round the period round (messages)
     * \return per island, its config (default for an island in no clique)
     * \throws std::runtime_error if the plan multicasts an update whose tree the routers
     *         refuse: its rates assume one copy per tree edge, which unicast copies would
     *         overload
     */
    static std::vector<TrainingRoundConfig> PlanRound(const Partition& partition,
                                                      const std::vector<SyncAlgorithm>& algorithms,
                                                      const SyncRoundEstimate& plan,
                                                      const TrainingRoundGroups& groups,
                                                      const std::vector<Ipv4Address>& addresses,
                                                      const std::vector<std::string>& names,
                                                      uint32_t round);

    /** What ReplayRounds estimates: the mean per island and round (seconds). */
    struct ReplayedSync
    {
        double exposed{0}; //!< sync after the compute phase (the whole sync without fragments)
        double hidden{0};  //!< fragment exchanges while computing (FragmentPlan)
    };

    /**
     * \brief Replay the rounds with the cost model's plans: the estimate of the mean per-island
     *        sync time, like for like with the simulated one.
     * \param routing the routes
     * \param plans per period round, per fragment: the plan of that fragment's bytes (one
     *        plan alone: every fragment's)
     * \param rounds rounds of the run (round r uses plan r mod plans.size())
     * \param launches per island (one alone: every island's), per fragment, when it is sent,
     *        from the start of compute (without stragglers; FragmentPlan::GetLaunch); the last
     *        is the compute phase
     * \param multipliers per island, its compute time factor
     * \param notBefore if not null, receives per exchange (round x fragments + fragment) and
     *        island the time the island may start sending (0: when its fragment is launched and
     *        its previous one ended): when its first packet to each receiver arrives after the
     *        receiver's previous exchange from other senders
     * \return the mean per-island exposed and hidden sync
     */
    static ReplayedSync ReplayRounds(const WanRouting& routing,
                                     const std::vector<std::vector<SyncRoundEstimate>>& plans,
                                     uint32_t rounds,
                                     const std::vector<std::vector<Time>>& launches,
                                     const std::vector<double>& multipliers,
                                     std::vector<std::vector<double>>* notBefore);
    /**
     * \brief The work of a plan, by city and by link: what a distributed run balances.
     * \param topology the WAN \param routing its routes \param plans per period round
     * \param rounds rounds of the run (round r uses plan r mod plans.size())
     * \param cityLoad per city: packets its router, FPGAs and islands handle, weighted in
     *        handlings of one packet by a device: 1 per end of a WAN hop, 1 + 4 per packet an
     *        island sends or receives (its IPv4/UDP stack), 2 more per packet through an FPGA
     * \param linkPackets per WAN link: packets it carries, both directions
     */
    static void EstimateLoad(const WanTopology& topology,
                             const WanRouting& routing,
                             const std::vector<SyncRoundEstimate>& plans,
                             uint32_t rounds,
                             std::vector<double>& cityLoad,
                             std::vector<double>& linkPackets);
    /**
     * \brief Assign the cities to the ranks of a distributed run before the network is built
     *        (WanTopologyHelper::SetCitySystemIds): the plan's estimated work (EstimateLoad)
     *        balanced by WanPartition::Balance.
     * \param topology the WAN \param schedule the schedule \param modelBytes M
     * \param rounds rounds \param mtu the links' MTU (WanTopologyHelper::SetMtu)
     * \param chooseAlgorithms as TrainingHelper::SetChooseAlgorithms \param ranks number of ranks
     * \return the rank of every city
     */
    static std::vector<uint32_t> PartitionCities(const WanTopology& topology,
                                                 const CliqueSchedule& schedule,
                                                 uint64_t modelBytes,
                                                 uint32_t rounds,
                                                 uint16_t mtu,
                                                 bool chooseAlgorithms,
                                                 uint32_t ranks);
    /**
     * \brief Before WanTopologyHelper::Install of a distributed run (WanMpi::IsSimulating()
     *        with several ranks): assign the cities to the ranks and give the topology helper
     *        their system ids. Nothing in one process.
     * \param wan the topology helper, not installed yet (its MTU is used)
     * \param topology the WAN it will install \param schedule the schedule
     * \param modelBytes M \param rounds rounds
     * \param partition an explicit list (WanPartition::Parse), or "" to balance the plan's
     *        estimated load (PartitionCities); a one-city topology runs on rank 0
     * \return the rank of every city (empty in one process)
     */
    static std::vector<uint32_t> DistributeCities(WanTopologyHelper& wan,
                                                  const WanTopology& topology,
                                                  const CliqueSchedule& schedule,
                                                  uint64_t modelBytes,
                                                  uint32_t rounds,
                                                  const std::string& partition);

    /**
     * \brief The warning for plans whose round is absurdly long (often a rate mistyped in a
     *        topology file, e.g. "1bps"): such a run spends wall time on simulated days.
     * \param routing the routes the plans were made on \param plans per period round
     * \param threshold a planned sync time above this is absurd
     * \param maxSimTime the run's simulated-time limit (zero: none), named in the text
     * \return "" if no plan's sync time exceeds \p threshold; else the longest plan's sync
     *         time, the narrowest share (resource and its rate) on the path of its last stream
     *         to finish, and that --maxSimTime stops the run
     */
    static std::string DescribeLongRound(const WanRouting& routing,
                                         const std::vector<SyncRoundEstimate>& plans,
                                         Time threshold,
                                         Time maxSimTime);
    /**
     * \param topology a WAN \param tcp the exchanges run over TCP
     * \return the WAN the rounds are planned on: \p topology, or with TCP, which uses neither,
     *         the same WAN without multicast and FPGAs
     */
    static WanTopology PlannedTopology(const WanTopology& topology, bool tcp);
    /**
     * \param topology a WAN \param tcp the exchanges run over TCP
     * \return with TCP on a WAN with multicast or FPGAs: a note that TCP ran without them; else
     *         empty
     */
    static std::string TransportNote(const WanTopology& topology, bool tcp);
};

} // namespace ns3

#endif /* TRAINING_PLANNER_H */
