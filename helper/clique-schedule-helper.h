/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLIQUE_SCHEDULE_HELPER_H
#define CLIQUE_SCHEDULE_HELPER_H

#include "schedule-scorer.h"
#include "schedule-search.h"

#include "ns3/attribute.h"
#include "ns3/clique-schedule.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/sync-cost-model.h"
#include "ns3/wan-routing.h"

#include <chrono>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The schedule optimiser: searches rotating-clique schedules for the shortest estimated
 *        wall time to epsilon-consensus on a WAN.
 *
 * Objective: R x rounds, where R is the smallest number of rounds (walking the periodic
 * schedule from round 0) with ||W_R ... W_1 - J||_2 <= epsilon, and round r costs the compute
 * time plus the SyncCostModel estimate of partition r mod T. The objective is the sum of the
 * first R round times (R x the period's mean round time when T divides R). Each clique uses
 * DIRECT or RING, whichever SyncCostModel estimates faster for the clique alone (cached per
 * clique); the round is then estimated as a whole, since cliques share WAN links.
 *
 * Search, all deterministic for a seed: the baselines; every set partition as a one-round
 * schedule for N <= ExhaustiveIslands (only the global clique mixes on its own, but the scored
 * partitions feed the next stage); every ordered pair of partitions (T = 2) when the pairs fit
 * ExhaustivePairLimit, else the pairs of the fastest partitions that fit, pruned by lower
 * bounds; structured families for T = 2..MaxPeriod (grids on index and delay orders,
 * delay clusters with their transversals, shifted blocks); then a seeded local search (swap,
 * move, merge, split) from the best of them. The objective is ScheduleScorer's and the search
 * ScheduleSearch's; this helper holds their settings and writes the table.
 */
class CliqueScheduleHelper
{
  public:
    CliqueScheduleHelper();

    /** \param bytes M, the bytes of one island's update (> 0) */
    void SetModelBytes(uint64_t bytes);
    /** \param compute the compute phase of every round (>= 0) */
    void SetComputeTime(Time compute);
    /**
     * \param plan rounds synchronised in fragments or buckets: score each round by the sync
     *        its compute does not hide (ScheduleScorer::SetFragmentPlan)
     */
    void SetFragmentPlan(const FragmentPlan& plan);
    /** \param epsilon the consensus target, in (0, 1); default 1e-3 */
    void SetEpsilon(double epsilon);
    /** \param period the largest period searched (>= 1); default 4 */
    void SetMaxPeriod(uint32_t period);
    /** \param seed the local search's seed; default 1 */
    void SetSeed(uint32_t seed);
    /** \param iterations local-search moves in total; default 600 */
    void SetLocalSearchIterations(uint32_t iterations);
    /** \param islands the largest N for which every set partition is scored; default 10 */
    void SetExhaustiveIslands(uint32_t islands);
    /**
     * \param pairs the most unordered partition pairs (both orders each) the T = 2 stage scores
     *        after pruning; default 25,000 (exhaustive up to N = 6)
     */
    void SetExhaustivePairLimit(uint64_t pairs);
    /** \param rounds the most rounds walked when computing R; default 100,000 */
    void SetMaxRounds(uint64_t rounds);
    /**
     * \brief Print a progress line at most every \p seconds of wall time while Optimise()
     *        runs ("progress: <label> optimiser <stage>: ... rounds estimated, ... schedules
     *        scored, best ... s wall=...s"); the search and its result are the same either way.
     * \param label the lines' label, e.g. "capabilities=both"; may be empty
     * \param seconds wall seconds between lines; 0 (the default): none
     * \param out where the lines go
     */
    void SetProgress(const std::string& label, double seconds, std::ostream& out = std::cerr);
    /**
     * \brief Stop the search at a wall-clock time: the baselines are always scored, then the
     *        stages run until \p deadline passes, and Optimise() returns the best found so far
     *        with ScheduleSearchResult::stoppedIn naming the stage it stopped.
     *        The result then depends on the machine's speed; without a deadline (the default)
     *        it does not.
     * \param deadline the wall-clock time
     */
    void SetDeadline(std::chrono::steady_clock::time_point deadline);
    /**
     * \brief Set an attribute of the cost model (e.g. "ChunkPayloadBytes").
     * \param name attribute name \param value attribute value
     */
    void SetCostModelAttribute(const std::string& name, const AttributeValue& value);
    /** \return the cost model (its routing is set by SetRouting()) */
    Ptr<SyncCostModel> GetCostModel() const;

    /**
     * \brief Set the routes to optimise for; clears the caches.
     * \param routing the WAN controller's routes
     */
    void SetRouting(const WanRouting& routing);
    /**
     * \brief Run the search on the routes of SetRouting().
     * \return the best schedule and the candidate table
     * \throws std::runtime_error for invalid settings (model bytes, epsilon, period)
     */
    ScheduleSearchResult Optimise();
    /**
     * \brief SetRouting() then Optimise(). \param routing the routes \return the result
     */
    ScheduleSearchResult Optimise(const WanRouting& routing);
    /**
     * \brief Score one schedule with the helper's settings.
     * \param schedule the schedule (its island count must match the routing)
     * \param chooseAlgorithms pick DIRECT/RING per clique; if false keep the schedule's own
     * \param family label stored in the candidate
     * \return the candidate
     * \throws std::runtime_error if the island counts differ
     */
    ScheduleCandidate Evaluate(const CliqueSchedule& schedule,
                               bool chooseAlgorithms = true,
                               const std::string& family = "given");
    /**
     * \param partition a canonical partition
     * \return the algorithm of each clique, as the optimiser chooses them
     */
    std::vector<SyncAlgorithm> ChooseAlgorithms(const Partition& partition);
    /**
     * \param partition a canonical partition
     * \return its estimated sync time with ChooseAlgorithms(), s (cached)
     */
    double GetSyncTime(const Partition& partition);
    /**
     * \brief The objective of a schedule whose round sync times are known.
     * \param rounds R (or UNREACHABLE) \param syncTimes per round of the period, s
     * \return the sum of the first R round times, s (+inf if unreachable)
     */
    double TimeToEpsilon(uint64_t rounds, const std::vector<double>& syncTimes) const;

    /**
     * \param candidate a scored schedule \param islandNames names of the islands (empty:
     *        islands are named by index)
     * \return its cliques' algorithms, each once in order of first use, comma-separated; a
     *         TREE clique's with its root: e.g. "direct", "ring,direct", "tree@LAX-0"
     */
    static std::string DescribeSync(const ScheduleCandidate& candidate,
                                    const std::vector<std::string>& islandNames = {});
    /**
     * \param candidates the rows \param islandNames names of the islands (for TREE roots)
     * \return a fixed-width text table (name, family, period, clique sizes, sync algorithms,
     *         rho, R, round times, time to epsilon)
     */
    static std::string FormatTable(const std::vector<ScheduleCandidate>& candidates,
                                   const std::vector<std::string>& islandNames = {});
    /**
     * \brief Write the table as CSV. \param candidates rows \param path the file
     * \param islandNames names of the islands (for TREE roots)
     * \throws std::runtime_error naming the file if it cannot be written
     */
    static void WriteCsv(const std::vector<ScheduleCandidate>& candidates,
                         const std::string& path,
                         const std::vector<std::string>& islandNames = {});

  private:
    /** \brief Throw std::runtime_error for invalid settings. */
    void CheckSettings() const;

    ScheduleScorer m_scorer;           //!< the objective: cost model, settings and caches
    ScheduleSearchSettings m_settings; //!< the search's knobs
};

} // namespace ns3

#endif /* CLIQUE_SCHEDULE_HELPER_H */
