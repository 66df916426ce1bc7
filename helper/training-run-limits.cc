/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-run-limits.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/wan-mpi.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingRunLimits");

const char TrainingRunLimits::SIM_TIME[] = "maxSimTime";
const char TrainingRunLimits::WALL_TIME[] = "maxWallTime";

namespace
{

/** \brief Stop the simulator (scheduled by the wall-clock watchdog thread). */
void
StopSimulator()
{
    Simulator::Stop();
}

} // namespace

TrainingRunLimits::TrainingRunLimits()
    : m_wallLimitHit(false)
{
}

void
TrainingRunLimits::SetMaxSimTime(Time limit)
{
    m_maxSimTime = limit;
}

Time
TrainingRunLimits::GetMaxSimTime() const
{
    return m_maxSimTime;
}

void
TrainingRunLimits::SetWallDeadline(std::chrono::steady_clock::time_point deadline)
{
    m_wallDeadline = deadline;
}

void
TrainingRunLimits::Arm()
{
    m_stoppedBy.clear();
    m_wallLimitHit = false;
    m_clockAtIdleLimit = false;
    if (m_maxSimTime.IsStrictlyPositive())
    {
        m_simTimeLimit =
            Simulator::Schedule(m_maxSimTime, &TrainingRunLimits::OnSimTimeLimit, this);
    }
}

void
TrainingRunLimits::Disarm()
{
    // Removed, not cancelled: a cancelled event still moves the clock to its time when the
    // simulator reaches it, and the run's end time would read as the limit.
    if (!m_simTimeLimit.IsExpired())
    {
        Simulator::Remove(m_simTimeLimit);
    }
}

void
TrainingRunLimits::OnSimTimeLimit()
{
    NS_LOG_INFO("maxSimTime reached at " << Simulator::Now().As(Time::S));
    // Nothing else pending (one process): the run had ended, and the simulator only jumped to
    // the limit; it cut nothing. Under MPI another rank may still have events, so it counts.
    if (WanMpi::GetSize() == 1 && Simulator::IsFinished())
    {
        NS_LOG_INFO("nothing left to run: the limit cut nothing");
        m_clockAtIdleLimit = true;
        return;
    }
    m_stoppedBy = SIM_TIME;
    Simulator::Stop();
}

void
TrainingRunLimits::Run()
{
    if (!m_wallDeadline)
    {
        Simulator::Run();
        return;
    }
    std::mutex mutex;
    std::condition_variable wake;
    bool finished = false;
    const auto deadline = *m_wallDeadline;
    std::thread watchdog([this, &mutex, &wake, &finished, deadline]() {
        std::unique_lock<std::mutex> lock(mutex);
        if (!wake.wait_until(lock, deadline, [&finished]() { return finished; }))
        {
            m_wallLimitHit = true;
            // Runs on the simulation thread, as the next event.
            Simulator::ScheduleWithContext(Simulator::NO_CONTEXT, Seconds(0), &StopSimulator);
        }
    });
    Simulator::Run();
    {
        std::lock_guard<std::mutex> lock(mutex);
        finished = true;
    }
    wake.notify_all();
    watchdog.join();
    if (m_wallLimitHit && m_stoppedBy.empty())
    {
        NS_LOG_INFO("maxWallTime reached at " << Simulator::Now().As(Time::S));
        m_stoppedBy = WALL_TIME;
    }
}

const std::string&
TrainingRunLimits::GetStoppedBy() const
{
    return m_stoppedBy;
}

bool
TrainingRunLimits::IsClockAtIdleLimit() const
{
    return m_clockAtIdleLimit;
}

} // namespace ns3
