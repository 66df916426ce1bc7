/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCHEDULE_SEARCH_H
#define SCHEDULE_SEARCH_H

#include "progress-throttle.h"
#include "schedule-scorer.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <ostream>
#include <random>
#include <string>
#include <utility>
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
    std::string stoppedIn; //!< the stage the deadline stopped, or empty: the search completed
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
    double progressSeconds{0};           //!< wall seconds between progress lines; 0: none
    std::string progressLabel;           //!< the lines' label (e.g. "capabilities=both")
    std::ostream* progressOut{nullptr};  //!< where the lines go; nullptr: std::cerr
    std::chrono::steady_clock::time_point deadline{
        std::chrono::steady_clock::time_point::max()}; //!< wall-clock end of the stages after
                                                       //!< the baselines (default: none)
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
    /**
     * \brief Start a stage: progress lines name it from here on.
     * \param stage e.g. "structured families"
     */
    void EnterStage(const std::string& stage);
    /** \brief Print a progress line if one is due. */
    void ReportProgress();
    /**
     * \brief After each unit of work (the scorer calls it): progress, and the deadline once
     *        the baselines are in.
     * \throw DeadlinePassed when the deadline has passed
     */
    void OnWork();

    /** Thrown by OnWork() through the stage that runs when the deadline passes. */
    struct DeadlinePassed
    {
    };

    /** A candidate schedule before scoring: its name and the partitions of its rounds. */
    using NamedRounds = std::pair<std::string, std::vector<Partition>>;
    /** An order of the islands by position, with its name ("index" or "delay"). */
    using NamedOrder = std::pair<std::string, std::vector<uint32_t>>;

    /**
     * \brief The T = 2 stage's progress over the pairs of partitions.
     */
    struct PairStage
    {
        uint64_t evaluated{0}; //!< pairs that passed the pruning (including the one over the limit)
        bool truncated{false}; //!< the pair limit was reached
        ScheduleCandidate best; //!< the last pair that improved the running best (+inf if none)
    };

    /** \return islands ordered by a nearest-neighbour chain on island delay */
    std::vector<uint32_t> DelayOrder() const;
    /**
     * \brief Score the schedule of N islands made of \p rounds (ScheduleScorer::Score()).
     * \param rounds the partitions of one period \param name the schedule's display name
     * \param bound the objective to beat (+inf for none) \param family the candidate's label
     * \param out receives the candidate if it beats \p bound
     * \return true if it beats \p bound
     */
    bool ScoreRounds(const std::vector<Partition>& rounds,
                     const std::string& name,
                     double bound,
                     const std::string& family,
                     ScheduleCandidate& out);

    /** \param result receives the exhaustive stages' best \param best the running best */
    void SearchExhaustive(ScheduleSearchResult& result, ScheduleCandidate& best);
    /**
     * \brief The estimated sync time of every partition, in order.
     * \param partitions canonical partitions
     * \return per partition, its sync time, s
     */
    std::vector<double> SyncTimes(const std::vector<Partition>& partitions);
    /**
     * \brief The exhaustive T = 1 stage: a single partition (mixing only if it is the global
     *        clique).
     * \param partition the partition \param result its table receives the candidate if it
     *        mixes \param best the running best
     */
    void ScoreSinglePartition(const Partition& partition,
                              ScheduleSearchResult& result,
                              ScheduleCandidate& best);
    /**
     * \brief The exhaustive T = 2 stage: ordered pairs in increasing order of the faster
     *        partition's round time, pruned by lower bounds and stopped at the pair limit.
     * \param partitions every set partition \param sync their sync times, s
     * \param result its table receives the best pair if one improved \p best
     * \param best the running best
     */
    void SearchPairs(const std::vector<Partition>& partitions,
                     const std::vector<double>& sync,
                     ScheduleSearchResult& result,
                     ScheduleCandidate& best);
    /**
     * \brief SearchPairs(): the pairs of the a-th partition with the slower ones after it.
     * \param a position in \p order \param order partition indices, fastest first
     * \param partitions every set partition \param sync their sync times, s
     * \param best the running best \param stage the stage's progress
     */
    void ScorePairsFrom(size_t a,
                        const std::vector<uint32_t>& order,
                        const std::vector<Partition>& partitions,
                        const std::vector<double>& sync,
                        ScheduleCandidate& best,
                        PairStage& stage);
    /**
     * \param pa a partition \param pb another \param ta round time of \p pa, s
     * \param tb round time of \p pb, s \param bound the objective to beat
     * \return true if the pair cannot mix, or its lower bound on the time to epsilon (from
     *         ScheduleScorer::SpreadLowerBound()) does not beat \p bound
     */
    bool IsPairPruned(const Partition& pa,
                      const Partition& pb,
                      double ta,
                      double tb,
                      double bound) const;
    /**
     * \brief Score both orders of a pair of partitions as T = 2 schedules.
     * \param pa a partition \param pb another \param best the running best
     * \param pairBest receives each order that improves \p best
     */
    void ScorePairOrders(const Partition& pa,
                         const Partition& pb,
                         ScheduleCandidate& best,
                         ScheduleCandidate& pairBest);

    /** \param result receives the structured stages' best \param best the running best
     *  \param starts receives starting points for the local search */
    void SearchStructured(ScheduleSearchResult& result,
                          ScheduleCandidate& best,
                          std::vector<ScheduleCandidate>& starts);
    /** \return the island orders the structured families are built on: index, and delay if
     *          it differs */
    std::vector<NamedOrder> IslandOrders() const;
    /**
     * \brief Exact grids N = d_0 x ... x d_{T-1} for T = 2..maxPeriod; round t groups the
     *        positions differing only in coordinate t. Every distinct order of the factors.
     * \param order the island order \param families receives the candidates
     */
    void AddGridFamilies(const NamedOrder& order, std::vector<NamedRounds>& families) const;
    /**
     * \brief Delay clusters: blocks of s consecutive positions, then the transversal (the
     *        j-th member of every block); a grid when s divides N, a partial grid otherwise.
     * \param order the island order \param families receives the candidates
     */
    void AddClusterFamilies(const NamedOrder& order, std::vector<NamedRounds>& families) const;
    /**
     * \brief Shifted blocks: blocks of s on the cyclic order, shifted by s/T each round.
     * \param order the island order \param families receives the candidates
     */
    void AddShiftedFamilies(const NamedOrder& order, std::vector<NamedRounds>& families) const;
    /**
     * \brief Score the structured candidates, each cut off at START_SLACK times the best.
     * \param families the candidates \param best the running best
     * \return the candidates with a finite time to epsilon, by period, in scoring order
     */
    std::map<uint32_t, std::vector<ScheduleCandidate>> ScoreFamilies(
        const std::vector<NamedRounds>& families,
        ScheduleCandidate& best);

    /** \param result receives the local search's best \param best the running best
     *  \param starts starting points */
    void SearchLocal(ScheduleSearchResult& result,
                     ScheduleCandidate& best,
                     const std::vector<ScheduleCandidate>& starts);
    /**
     * \brief Local search from one start: random moves, each kept if it beats the current
     *        schedule.
     * \param start the starting point \param moves moves tried
     * \param rng the search's generator \param best the running best
     * \param localBest receives each schedule that improves \p best
     * \return true if one improved \p best
     */
    bool ClimbFrom(const ScheduleCandidate& start,
                   uint32_t moves,
                   std::mt19937& rng,
                   ScheduleCandidate& best,
                   ScheduleCandidate& localBest);

    ScheduleScorer& m_scorer;                         //!< the objective
    uint32_t m_islands;                               //!< N
    double m_compute;                                 //!< compute time per round, s
    double m_epsilon;                                 //!< consensus target
    uint32_t m_maxPeriod;                             //!< largest T
    uint32_t m_seed;                                  //!< local search seed
    uint32_t m_localIterations;                       //!< local search moves
    uint32_t m_exhaustiveIslands;                     //!< N limit of the exhaustive stage
    uint64_t m_exhaustivePairLimit;                   //!< pair limit of the T = 2 stage
    ProgressThrottle m_progress;                      //!< when the next progress line is due
    std::string m_progressLabel;                      //!< the lines' label, or empty
    std::ostream* m_progressOut;                      //!< where the lines go
    std::string m_stage;                              //!< the stage running now
    const ScheduleCandidate* m_best;                  //!< Run()'s running best, once there is one
    std::chrono::steady_clock::time_point m_deadline; //!< settings' deadline
};

} // namespace ns3

#endif /* SCHEDULE_SEARCH_H */
