/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_RUN_LIMITS_H
#define TRAINING_RUN_LIMITS_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The guards of a run (doc/training.rst, "Bounded runs"): a simulated-time limit and a
 *        wall-clock deadline, after which the simulation stops cleanly.
 *
 * Arm() schedules the simulated-time limit, an event that calls Simulator::Stop; Disarm()
 * cancels it once the run's work is done, so the run ends by itself. Run() runs the simulator,
 * with a watchdog thread when a wall-clock deadline is set: the simulation may spend unbounded
 * wall time between two of its own events, so the deadline is not an event; the thread
 * schedules Simulator::Stop through ScheduleWithContext, which ns-3's default simulator accepts
 * from other threads. The ranks of a distributed run must stop at one simulated time, so there
 * the caller runs the simulator itself and only the simulated-time limit applies.
 *
 * Used by TrainingExperiment; it keeps a callback to itself in the event queue while armed,
 * so it is neither copied nor moved.
 */
class TrainingRunLimits
{
  public:
    /** GetStoppedBy() of a run stopped by the simulated-time limit. */
    static const char SIM_TIME[];
    /** GetStoppedBy() of a run stopped by the wall-clock deadline. */
    static const char WALL_TIME[];

    TrainingRunLimits();
    TrainingRunLimits(const TrainingRunLimits&) = delete;
    TrainingRunLimits& operator=(const TrainingRunLimits&) = delete;

    /** \param limit simulated time after which the run stops (zero, the default: none) */
    void SetMaxSimTime(Time limit);
    /** \return the simulated-time limit (zero: none) */
    Time GetMaxSimTime() const;
    /** \param deadline wall-clock time after which the run stops (default: none) */
    void SetWallDeadline(std::chrono::steady_clock::time_point deadline);

    /** \brief Forget the last run's stop and schedule the simulated-time limit, if any. */
    void Arm();
    /** \brief Cancel the simulated-time limit: the run's work is done. */
    void Disarm();
    /** \brief Simulator::Run(), watched by a thread for the wall-clock deadline if one is set. */
    void Run();
    /** \return why the last run stopped early: "", SIM_TIME or WALL_TIME */
    const std::string& GetStoppedBy() const;
    /**
     * \return whether the last run ran out of events before its simulated-time limit, so that
     *         the clock jumped to the limit's event: Simulator::Now() then reads the limit, not
     *         when the run's last work ended
     */
    bool IsClockAtIdleLimit() const;

  private:
    /** \brief At the simulated-time limit: stop the simulation. */
    void OnSimTimeLimit();

    Time m_maxSimTime;                                                   //!< zero: none
    std::optional<std::chrono::steady_clock::time_point> m_wallDeadline; //!< none: unset
    EventId m_simTimeLimit;                                              //!< the limit's event
    std::atomic<bool> m_wallLimitHit; //!< set by the watchdog thread
    std::string m_stoppedBy;          //!< why the last run stopped early
    bool m_clockAtIdleLimit{false};   //!< the limit found nothing left to run
};

} // namespace ns3

#endif /* TRAINING_RUN_LIMITS_H */
