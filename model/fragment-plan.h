/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FRAGMENT_PLAN_H
#define FRAGMENT_PLAN_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Streaming synchronisation of a round in fragments (Streaming DiLoCo): which elements
 *        each fragment holds, after which inner step it is sent, and how much of the exchange
 *        the compute hides.
 *
 * The one owner of these rules: TrainingApplication runs them packet by packet, and
 * TrainingPlanner::ReplayRounds estimates with them.
 *
 * A model of E elements in F fragments: fragment f holds elements [floor(E f / F),
 * floor(E (f + 1) / F)). Over a round of H inner steps, fragment f is sent once the island
 * has computed floor(H (f + 1) / F) inner steps (the last one when the compute phase ends), so
 * a fragment's exchange runs while later inner steps compute. An island runs one fragment's
 * exchange at a time: fragment f starts at the later of its launch and the end of fragment
 * f - 1. The round ends when every fragment's exchange has ended; the next round's compute
 * starts then.
 *
 * A round's time splits into compute (the phase), exposed sync (from the end of the compute
 * phase to the end of the last fragment: the island waits) and hidden sync (fragment exchange
 * time spent while the island computes). With F = 1 there is one fragment, sent when the
 * compute phase ends: all sync is exposed, as in a round without fragments.
 *
 * A step read from an execution trace (ChakraStep) makes a plan of buckets instead: fragment f
 * is the trace's f-th synchronisation, of its bytes (whole elements of 4 bytes), sent when it is
 * ready; the last one when the compute phase ends (in data-parallel traces the last bucket waits
 * for the first layer's backward, the step's last compute).
 */
class FragmentPlan
{
  public:
    /** A round's time, split (seconds). */
    struct Split
    {
        double exposed{0}; //!< from the end of compute to the end of the last fragment
        double hidden{0};  //!< fragment exchange time while computing
    };

    /**
     * \param modelBytes M, one island's update \param fragments F (at least 1)
     * \param innerSteps H, a round's inner steps \param stepTime the time of one
     */
    FragmentPlan(uint64_t modelBytes, uint32_t fragments, uint32_t innerSteps, Time stepTime);
    /**
     * \brief A plan of buckets (ChakraStep's synchronisations).
     * \param bytes per bucket, its bytes (at least 1) \param ready per bucket, when it may be
     *        sent from the start of compute (non-decreasing)
     * \param computePhase the compute phase (the last bucket's launch)
     */
    FragmentPlan(const std::vector<uint64_t>& bytes,
                 const std::vector<Time>& ready,
                 Time computePhase);

    /**
     * \param stepTime the time of one inner step \param steps inner steps
     * \return the time they take: stepTime x steps (the compute phase of H steps; the rule
     *         every planner, estimate and application uses)
     */
    static Time StepsTime(Time stepTime, uint32_t steps);

    /**
     * \param fragments F \param innerSteps H \param modelBytes M
     * \return an empty string if F fragments fit (1 <= F <= H, at most one per element);
     *         otherwise why not, naming the numbers
     */
    static std::string Problem(uint32_t fragments, uint32_t innerSteps, uint64_t modelBytes);
    /**
     * \param fragment f \param fragments F \param innerSteps H
     * \return the inner steps computed before fragment f is sent: floor(H (f + 1) / F)
     */
    static uint32_t LaunchStep(uint32_t fragment, uint32_t fragments, uint32_t innerSteps);
    /**
     * \brief Time a round's fragments as the application runs them.
     * \param launch per fragment, when it may be sent, seconds from the start of compute (the
     *        last one: the end of the compute phase); non-decreasing
     * \param durations per fragment, its exchange time once started, seconds
     * \param start receives, per fragment, when its exchange starts (seconds from the start
     *        of compute; may be null)
     * \return the exposed and hidden sync
     */
    static Split Overlap(const std::vector<double>& launch,
                         const std::vector<double>& durations,
                         std::vector<double>* start);
    /**
     * \brief Split a round's exchange time into exposed and hidden sync: every fragment is
     *        launched by the end of compute, so after it they run back to back and what runs
     *        past it is exposed.
     * \param busy the round's fragment exchanges' time, seconds
     * \param end when the last fragment's exchange ends \param computeEnd when compute ends
     *        (the last launch)
     * \return exposed = end - computeEnd, hidden = busy - exposed
     */
    static Split SplitAt(double busy, double end, double computeEnd);

    /** \return F */
    uint32_t GetFragments() const;
    /** \return M, the bytes of the whole update */
    uint64_t GetModelBytes() const;
    /**
     * \param other a plan
     * \return true if both cut the update alike: as many fragments, each of the same bytes
     *         (what data-parallel islands must share; launches may differ)
     */
    bool HasSameFragments(const FragmentPlan& other) const;
    /** \param fragment f \return its first element */
    uint64_t GetFirstElement(uint32_t fragment) const;
    /** \param fragment f \return its elements */
    uint64_t GetElements(uint32_t fragment) const;
    /**
     * \param fragment f
     * \return the update bytes of its exchange: M itself with one fragment, else its elements
     *         at 4 bytes each
     */
    uint64_t GetBytes(uint32_t fragment) const;
    /** \return the bytes of the largest fragment (what rounds are planned for) */
    uint64_t GetLargestBytes() const;
    /**
     * \param fragment f
     * \return when it is launched, from the start of compute: StepsTime of LaunchStep's inner
     *         steps (the last fragment: the compute phase)
     */
    Time GetLaunch(uint32_t fragment) const;
    /** \return every fragment's GetLaunch, in order */
    std::vector<Time> GetLaunches() const;
    /** \return the compute phase (the last fragment's launch) */
    Time GetComputePhase() const;

  private:
    uint64_t m_modelBytes;               //!< M
    uint64_t m_elements;                 //!< E
    uint32_t m_fragments;                //!< F
    uint32_t m_innerSteps;               //!< H
    Time m_stepTime;                     //!< the time of one inner step
    std::vector<uint64_t> m_bucketFirst; //!< buckets: first elements, and E (empty: streaming)
    std::vector<Time> m_bucketLaunch;    //!< buckets: launches
};

/**
 * \ingroup wan-training
 * \brief An island's way through one round's fragments (FragmentPlan's rules): which are
 *        launched (their inner steps computed), which one runs, and the time they ran.
 */
class FragmentProgress
{
  public:
    /** \brief A new round of \p fragments fragments, none launched. \param fragments F */
    void Reset(uint32_t fragments);
    /** \brief The next fragment's inner steps are computed. \return true if it was the last */
    bool Launch();
    /** \return true if a launched fragment waits and none runs */
    bool CanStart() const;
    /** \param now the time \brief the waiting fragment (GetCurrent) starts its exchange */
    void Start(Time now);
    /**
     * \param now the time \brief the running fragment's exchange ended
     * \return true if it was the round's last
     */
    bool Finish(Time now);
    /** \return the fragment running, or the next to run */
    uint32_t GetCurrent() const;
    /** \return true while a fragment's exchange runs (started, not finished) */
    bool IsRunning() const;
    /** \return the fragments launched so far */
    uint32_t GetLaunched() const;
    /** \return the total time of the round's finished fragment exchanges */
    Time GetBusy() const;

  private:
    uint32_t m_fragments{1}; //!< F
    uint32_t m_launched{0};  //!< fragments whose inner steps are computed
    uint32_t m_current{0};   //!< fragment running or next to run
    bool m_running{false};   //!< m_current's exchange runs
    Time m_started;          //!< when it started
    Time m_busy;             //!< finished exchanges' time
};

} // namespace ns3

#endif /* FRAGMENT_PLAN_H */
