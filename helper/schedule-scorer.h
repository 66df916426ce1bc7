/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCHEDULE_SCORER_H
#define SCHEDULE_SCORER_H

#include "ns3/attribute.h"
#include "ns3/clique-schedule.h"
#include "ns3/fragment-plan.h"
#include "ns3/ptr.h"
#include "ns3/sync-cost-model.h"
#include "ns3/wan-routing.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
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
    CliqueSchedule schedule; //!< the schedule, with the algorithm of every clique
    /**
     * Per round of the period, per clique: the root island of a TREE clique
     * (SyncCostModel::ChooseRoot()), else SyncRoundEstimate::NO_ROOT.
     */
    std::vector<std::vector<uint32_t>> roots;
    std::string family;             //!< where it came from: "baseline", "exhaustive", ...
    double rho{1};                  //!< ||W_T ... W_1 - J||_2 of one period
    uint64_t roundsToEpsilon{0};    //!< R, or CliqueSchedule::UNREACHABLE
    std::vector<double> syncTimes;  //!< estimated sync time of each round of the period, s
    std::vector<double> roundTimes; //!< compute + sync of each round of the period, s
    double timeToEpsilon{0};        //!< sum of the first R round times, s (+inf if unreachable)
};

/**
 * \ingroup wan-training
 * \brief The optimiser's objective: scores schedules on a WAN with the SyncCostModel.
 *
 * The objective of a schedule is the sum of its first R round times, R the rounds to
 * epsilon-consensus and round r costing the compute time plus the estimated sync time of
 * partition r mod T. Each clique uses DIRECT, RING or TREE, whichever the cost model estimates
 * fastest for the clique alone (SyncCostModel::ChooseAlgorithm(), cached per clique, with a
 * TREE clique's root); a round's sync time is cached per partition. ScheduleSearch explores with
 * it; CliqueScheduleHelper owns one.
 */
class ScheduleScorer
{
  public:
    ScheduleScorer();

    /** \param bytes M, the bytes of one island's update; clears the caches */
    void SetModelBytes(uint64_t bytes);
    /** \return M */
    uint64_t GetModelBytes() const;
    /** \param seconds the compute phase of every round */
    void SetComputeTime(double seconds);
    /**
     * \brief Score rounds synchronised in fragments or buckets (FragmentPlan): a round's sync
     *        is then its exposed part, each fragment's exchange estimated at its own bytes and
     *        overlapped with compute as FragmentPlan::Overlap says; clears the caches.
     * \param plan the fragments' bytes and launches (its compute phase SetComputeTime's)
     */
    void SetFragmentPlan(const FragmentPlan& plan);
    /** \return the compute phase of every round, s */
    double GetComputeTime() const;
    /** \param epsilon the consensus target */
    void SetEpsilon(double epsilon);
    /** \return the consensus target */
    double GetEpsilon() const;
    /** \param rounds the most rounds walked when computing R */
    void SetMaxRounds(uint64_t rounds);
    /**
     * \brief Set an attribute of the cost model; clears the caches.
     * \param name attribute name \param value attribute value
     */
    void SetCostModelAttribute(const std::string& name, const AttributeValue& value);
    /** \return the cost model */
    Ptr<SyncCostModel> GetCostModel() const;
    /** \param routing the routes to score on; clears the caches */
    void SetRouting(const WanRouting& routing);
    /** \return true once SetRouting() was called */
    bool HasRouting() const;
    /** \return N, the islands of the routing */
    uint32_t GetIslandCount() const;

    /** \param partition a canonical partition \return the algorithm of each clique */
    std::vector<SyncAlgorithm> ChooseAlgorithms(const Partition& partition);
    /**
     * \param partition a canonical partition \param algorithms its cliques' algorithms
     * \return per clique: the root of a TREE clique, else SyncRoundEstimate::NO_ROOT (cached)
     */
    std::vector<uint32_t> ChooseRoots(const Partition& partition,
                                      const std::vector<SyncAlgorithm>& algorithms);
    /** \param partition a canonical partition \return its sync time with those, s (cached) */
    double GetSyncTime(const Partition& partition);
    /**
     * \param rounds R (or UNREACHABLE) \param syncTimes per round of the period, s
     * \return the sum of the first R round times, s (+inf if unreachable)
     */
    double TimeToEpsilon(uint64_t rounds, const std::vector<double>& syncTimes) const;
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
    /**
     * \brief Score one schedule completely.
     * \param schedule the schedule (its island count must match the routing)
     * \param chooseAlgorithms pick DIRECT/RING/TREE per clique; if false keep the schedule's
     * \param family label stored in the candidate
     * \return the candidate \throws std::runtime_error if the island counts differ
     */
    ScheduleCandidate Evaluate(const CliqueSchedule& schedule,
                               bool chooseAlgorithms,
                               const std::string& family);
    /** \param a candidate \param b candidate \return true if a is better (deterministic) */
    static bool Better(const ScheduleCandidate& a, const ScheduleCandidate& b);
    /**
     * \brief Lower bound on R from information spread: after R rounds with cliques of at most
     *        k, an island has heard from at most k^R islands, and any missing entry of the
     *        product leaves ||P - J||_2 >= 1/N.
     * \param n islands \param k largest clique \param epsilon target
     * \return the bound (1 if it does not apply)
     */
    static uint64_t SpreadLowerBound(uint32_t n, size_t k, double epsilon);

    /** \return the distinct partitions estimated since the routing was set */
    uint64_t GetPartitionsScored() const;
    /** \return the schedules whose mixing was evaluated since the last reset */
    uint64_t GetSchedulesScored() const;
    /** \brief Restart the count of GetSchedulesScored(). */
    void ResetSchedulesScored();
    /**
     * \brief Call back after each unit of work: a round estimated (a partition the cost model
     *        had not seen) and a schedule scored. The search reports its progress from it.
     * \param callback the function to call; empty: none
     */
    void SetWorkCallback(std::function<void()> callback);

  private:
    /** \brief Call the work callback, if one is set. */
    void NoteWork() const;
    /**
     * \param partition a round's cliques \param algorithms per clique
     * \return the round's sync as rounds run it: the whole update's, or with a fragment
     *         plan the part the compute does not hide
     */
    double EstimateExposedSync(const Partition& partition,
                               const std::vector<SyncAlgorithm>& algorithms) const;

    Ptr<SyncCostModel> m_model;                       //!< the cost model
    bool m_hasRouting;                                //!< SetRouting() called
    uint32_t m_islands;                               //!< N
    uint64_t m_modelBytes;                            //!< M
    double m_compute;                                 //!< compute time per round, s
    std::optional<FragmentPlan> m_plan;               //!< SetFragmentPlan, or whole rounds
    double m_epsilon;                                 //!< consensus target
    uint64_t m_maxRounds;                             //!< cap on R
    std::map<Clique, SyncAlgorithm> m_algorithmCache; //!< per clique, alone on the WAN
    std::map<Clique, uint32_t> m_rootCache;           //!< per TREE clique, alone on the WAN
    std::map<Partition, double> m_syncCache;          //!< per partition, chosen algorithms
    uint64_t m_schedulesScored;                       //!< counter
    std::function<void()> m_onWork;                   //!< SetWorkCallback(), or empty
};

} // namespace ns3

#endif /* SCHEDULE_SCORER_H */
