/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCHEDULE_SEARCH_H
#define SCHEDULE_SEARCH_H

#include "schedule-scorer.h"

#include <cstdint>
#include <vector>

namespace ns3
{

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
 * \brief The search's own knobs (CliqueScheduleHelper's setters document them).
 */
struct ScheduleSearchSettings
{
    uint32_t maxPeriod{4};               //!< largest period T searched
    uint32_t seed{1};                    //!< local search's seed
    uint32_t localIterations{600};       //!< local-search moves in total
    uint32_t exhaustiveIslands{10};      //!< largest N for which every partition is scored
                                         //!< (Bell(10) = 115,975 partitions)
    uint64_t exhaustivePairLimit{25000}; //!< most unordered partition pairs the T = 2 stage
                                         //!< scores after pruning: all 20,100 pairs of N = 6
                                         //!< fit; each costs 10-20 us at N = 9
};

/**
 * \ingroup wan-training
 * \brief The optimiser's search over rotating-clique schedules, deterministic for a seed.
 *
 * Stages, keeping the best so far (doc/schedules.rst, section Search): the baselines; every
 * set partition for N <= exhaustiveIslands and the ordered pairs of the fastest of them,
 * pruned by lower bounds; structured families for T = 2..maxPeriod (grids on index and delay
 * orders, delay clusters with their transversals, shifted blocks); then a seeded local search
 * (swap, move, merge, split) from the best of them. Every candidate is scored by the
 * ScheduleScorer it is given.
 */
class ScheduleSearch
{
  public:
    /**
     * \param scorer the objective, with its routing and settings (checked by the caller)
     * \param settings the search's knobs
     */
    ScheduleSearch(ScheduleScorer& scorer, const ScheduleSearchSettings& settings);

    /** \return the best schedule, the baselines and the candidate table */
    ScheduleSearchResult Run();

  private:
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

    ScheduleScorer& m_scorer;       //!< the objective
    uint32_t m_islands;             //!< N
    double m_compute;               //!< compute time per round, s
    double m_epsilon;               //!< consensus target
    uint32_t m_maxPeriod;           //!< largest T
    uint32_t m_seed;                //!< local search seed
    uint32_t m_localIterations;     //!< local search moves
    uint32_t m_exhaustiveIslands;   //!< N limit of the exhaustive stage
    uint64_t m_exhaustivePairLimit; //!< pair limit of the T = 2 stage
};

} // namespace ns3

#endif /* SCHEDULE_SEARCH_H */
