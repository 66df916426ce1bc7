/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLIQUE_SCHEDULE_HELPER_H
#define CLIQUE_SCHEDULE_HELPER_H

#include "ns3/attribute.h"
#include "ns3/clique-schedule.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/sync-cost-model.h"
#include "ns3/wan-routing.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief One scored schedule: its mixing, its estimated round times and time to epsilon.
 */
struct ScheduleCandidate
{
    CliqueSchedule schedule;        //!< the schedule, with the algorithm of every clique
    std::string family;             //!< where it came from: "baseline", "exhaustive", ...
    double rho{1};                  //!< ||W_T ... W_1 - J||_2 of one period
    uint64_t roundsToEpsilon{0};    //!< R, or CliqueSchedule::UNREACHABLE
    std::vector<double> syncTimes;  //!< estimated sync time of each round of the period, s
    std::vector<double> roundTimes; //!< compute + sync of each round of the period, s
    double timeToEpsilon{0};        //!< sum of the first R round times, s (+inf if unreachable)
};

/**
 * \ingroup wan-training
 * \brief What CliqueScheduleHelper::Optimise() found.
 */
struct ScheduleSearchResult
{
    ScheduleCandidate best;                   //!< the fastest schedule to epsilon-consensus
    std::vector<ScheduleCandidate> baselines; //!< global clique, ring, Moshpit, gossip, one-peer
    std::vector<ScheduleCandidate> table;     //!< baselines, then the best of each search stage
    uint64_t partitionsScored{0};             //!< distinct rounds estimated by the cost model
    uint64_t schedulesScored{0};              //!< schedules whose mixing was evaluated
};

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
 * move, merge, split) from the best of them.
 */
class CliqueScheduleHelper
{
  public:
    CliqueScheduleHelper();

    /** \param bytes M, the bytes of one island's update (> 0) */
    void SetModelBytes(uint64_t bytes);
    /** \param compute the compute phase of every round (>= 0) */
    void SetComputeTime(Time compute);
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
     * \param candidates the rows \return a fixed-width text table (name, family, period,
     *        clique sizes, rho, R, round times, time to epsilon)
     */
    static std::string FormatTable(const std::vector<ScheduleCandidate>& candidates);
    /**
     * \brief Write the table as CSV. \param candidates rows \param path the file
     * \throws std::runtime_error naming the file if it cannot be written
     */
    static void WriteCsv(const std::vector<ScheduleCandidate>& candidates, const std::string& path);

  private:
    /**
     * \brief Score a schedule for the search: R walked no further than needed to beat \p bound.
     * \param schedule the schedule (algorithms are set here)
     * \param bound the objective to beat (+inf for none)
     * \param family label
     * \param out receives the candidate if it beats \p bound
     * \return true if it beats \p bound
     */
    bool Score(CliqueSchedule schedule,
               double bound,
               const std::string& family,
               ScheduleCandidate& out);
    /** \param a candidate \param b candidate \return true if a is better (deterministic) */
    static bool Better(const ScheduleCandidate& a, const ScheduleCandidate& b);
    /** \return islands ordered by a nearest-neighbour chain on island delay */
    std::vector<uint32_t> DelayOrder() const;
    /** \param result receives the exhaustive stages' best \param best the running best */
    void SearchExhaustive(ScheduleSearchResult& result, ScheduleCandidate& best);
    /** \param result receives the structured stages' best \param best the running best
     *  \param starts receives starting points for the local search */
    void SearchStructured(ScheduleSearchResult& result,
                          ScheduleCandidate& best,
                          std::vector<ScheduleCandidate>& starts);
    /** \param result receives the local search's best \param best the running best
     *  \param starts starting points */
    void SearchLocal(ScheduleSearchResult& result,
                     ScheduleCandidate& best,
                     const std::vector<ScheduleCandidate>& starts);
    /** \brief Throw std::runtime_error for invalid settings. */
    void CheckSettings() const;

    Ptr<SyncCostModel> m_model;                       //!< the cost model
    bool m_hasRouting;                                //!< SetRouting() called
    uint32_t m_islands;                               //!< N
    uint64_t m_modelBytes;                            //!< M
    double m_compute;                                 //!< compute time per round, s
    double m_epsilon;                                 //!< consensus target
    uint32_t m_maxPeriod;                             //!< largest T
    uint32_t m_seed;                                  //!< local search seed
    uint32_t m_localIterations;                       //!< local search moves
    uint32_t m_exhaustiveIslands;                     //!< N limit of the exhaustive stage
    uint64_t m_exhaustivePairLimit;                   //!< pair limit of the T = 2 stage
    uint64_t m_maxRounds;                             //!< cap on R
    std::map<Clique, SyncAlgorithm> m_algorithmCache; //!< per clique, alone on the WAN
    std::map<Partition, double> m_syncCache;          //!< per partition, chosen algorithms
    uint64_t m_schedulesScored;                       //!< counter
};

} // namespace ns3

#endif /* CLIQUE_SCHEDULE_HELPER_H */
