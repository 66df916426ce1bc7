/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fragment-plan.h"

#include "chunk-layout.h"
#include "gradient-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FragmentPlan");

FragmentPlan::FragmentPlan(uint64_t modelBytes,
                           uint32_t fragments,
                           uint32_t innerSteps,
                           Time stepTime)
    : m_modelBytes(modelBytes),
      m_elements(ChunkLayout::ElementsOf(modelBytes)),
      m_fragments(fragments),
      m_innerSteps(innerSteps),
      m_stepTime(stepTime)
{
    NS_LOG_FUNCTION(this << modelBytes << fragments << innerSteps << stepTime);
    NS_ABORT_MSG_IF(fragments == 0 || (fragments > 1 && fragments > m_elements),
                    "FragmentPlan: " << fragments << " fragments of " << m_elements << " elements");
}

FragmentPlan::FragmentPlan(const std::vector<uint64_t>& bytes,
                           const std::vector<Time>& ready,
                           Time computePhase)
    : m_modelBytes(0),
      m_elements(0),
      m_fragments(static_cast<uint32_t>(bytes.size())),
      m_innerSteps(1),
      m_stepTime(computePhase)
{
    NS_LOG_FUNCTION(this << bytes.size() << computePhase);
    NS_ABORT_MSG_IF(bytes.empty() || bytes.size() != ready.size(),
                    "FragmentPlan: " << bytes.size() << " buckets, " << ready.size()
                                     << " ready times");
    m_bucketFirst.push_back(0);
    for (size_t f = 0; f < bytes.size(); ++f)
    {
        NS_ABORT_MSG_IF(bytes[f] == 0 || (f > 0 && ready[f] < ready[f - 1]),
                        "FragmentPlan: bucket " << f << ": " << bytes[f] << " bytes, ready at "
                                                << ready[f].As(Time::US));
        m_modelBytes += bytes[f];
        m_elements += ChunkLayout::ElementsOf(bytes[f]);
        m_bucketFirst.push_back(m_elements);
        m_bucketLaunch.push_back(f + 1 < bytes.size() ? std::min(ready[f], computePhase)
                                                      : computePhase);
    }
}

std::string
FragmentPlan::Problem(uint32_t fragments, uint32_t innerSteps, uint64_t modelBytes)
{
    NS_LOG_FUNCTION(fragments << innerSteps << modelBytes);
    if (fragments == 0)
    {
        return "0 fragments: a round synchronises at least one";
    }
    if (fragments > innerSteps)
    {
        return std::to_string(fragments) + " fragments over " + std::to_string(innerSteps) +
               " inner steps: each fragment is sent after an inner step of its own, so at most "
               "as many fragments as inner steps";
    }
    if (fragments > 1 && fragments > ChunkLayout::ElementsOf(modelBytes))
    {
        return std::to_string(fragments) + " fragments of a model of " +
               std::to_string(ChunkLayout::ElementsOf(modelBytes)) +
               " elements: at least one element per fragment";
    }
    return "";
}

uint32_t
FragmentPlan::LaunchStep(uint32_t fragment, uint32_t fragments, uint32_t innerSteps)
{
    NS_LOG_FUNCTION(fragment << fragments << innerSteps);
    return static_cast<uint32_t>(uint64_t(innerSteps) * (fragment + 1) / fragments);
}

FragmentPlan::Split
FragmentPlan::Overlap(const std::vector<double>& launch,
                      const std::vector<double>& durations,
                      std::vector<double>* start)
{
    NS_LOG_FUNCTION(launch.size());
    NS_ABORT_MSG_IF(launch.empty() || launch.size() != durations.size(),
                    "FragmentPlan::Overlap: " << launch.size() << " launches, " << durations.size()
                                              << " durations");
    double end = 0;
    double busy = 0;
    for (size_t f = 0; f < launch.size(); ++f)
    {
        const double from = std::max(launch[f], end);
        if (start != nullptr)
        {
            start->push_back(from);
        }
        end = from + durations[f];
        busy += durations[f];
    }
    return SplitAt(busy, end, launch.back());
}

FragmentPlan::Split
FragmentPlan::SplitAt(double busy, double end, double computeEnd)
{
    Split split;
    split.exposed = end - computeEnd;
    split.hidden = busy - split.exposed;
    return split;
}

uint32_t
FragmentPlan::GetFragments() const
{
    NS_LOG_FUNCTION(this);
    return m_fragments;
}

uint64_t
FragmentPlan::GetModelBytes() const
{
    NS_LOG_FUNCTION(this);
    return m_modelBytes;
}

bool
FragmentPlan::HasSameFragments(const FragmentPlan& other) const
{
    NS_LOG_FUNCTION(this);
    if (m_fragments != other.m_fragments)
    {
        return false;
    }
    for (uint32_t f = 0; f < m_fragments; ++f)
    {
        if (GetBytes(f) != other.GetBytes(f))
        {
            return false;
        }
    }
    return true;
}

uint64_t
FragmentPlan::GetFirstElement(uint32_t fragment) const
{
    NS_LOG_FUNCTION(this << fragment);
    return m_bucketFirst.empty() ? m_elements * fragment / m_fragments : m_bucketFirst.at(fragment);
}

uint64_t
FragmentPlan::GetElements(uint32_t fragment) const
{
    NS_LOG_FUNCTION(this << fragment);
    return GetFirstElement(fragment + 1) - GetFirstElement(fragment);
}

uint64_t
FragmentPlan::GetBytes(uint32_t fragment) const
{
    NS_LOG_FUNCTION(this << fragment);
    return m_fragments == 1 ? m_modelBytes : GetElements(fragment) * GradientHeader::ELEMENT_SIZE;
}

uint64_t
FragmentPlan::GetLargestBytes() const
{
    NS_LOG_FUNCTION(this);
    uint64_t largest = 0;
    for (uint32_t f = 0; f < m_fragments; ++f)
    {
        largest = std::max(largest, GetBytes(f));
    }
    return largest;
}

Time
FragmentPlan::StepsTime(Time stepTime, uint32_t steps)
{
    NS_LOG_FUNCTION(stepTime << steps);
    return stepTime * int64_t(steps);
}

Time
FragmentPlan::GetLaunch(uint32_t fragment) const
{
    NS_LOG_FUNCTION(this << fragment);
    return m_bucketLaunch.empty()
               ? StepsTime(m_stepTime, LaunchStep(fragment, m_fragments, m_innerSteps))
               : m_bucketLaunch.at(fragment);
}

Time
FragmentPlan::GetComputePhase() const
{
    NS_LOG_FUNCTION(this);
    return GetLaunch(m_fragments - 1);
}

std::vector<Time>
FragmentPlan::GetLaunches() const
{
    NS_LOG_FUNCTION(this);
    std::vector<Time> launches;
    for (uint32_t f = 0; f < m_fragments; ++f)
    {
        launches.push_back(GetLaunch(f));
    }
    return launches;
}

void
FragmentProgress::Reset(uint32_t fragments)
{
    NS_LOG_FUNCTION(this << fragments);
    m_fragments = fragments;
    m_launched = 0;
    m_current = 0;
    m_running = false;
    m_busy = Time(0);
}

bool
FragmentProgress::Launch()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_launched >= m_fragments, "FragmentProgress: all launched");
    ++m_launched;
    return m_launched == m_fragments;
}

bool
FragmentProgress::CanStart() const
{
    NS_LOG_FUNCTION(this);
    return !m_running && m_current < m_launched;
}

void
FragmentProgress::Start(Time now)
{
    NS_LOG_FUNCTION(this << now);
    NS_ABORT_MSG_IF(!CanStart(), "FragmentProgress: fragment " << m_current << " cannot start");
    m_running = true;
    m_started = now;
}

bool
FragmentProgress::Finish(Time now)
{
    NS_LOG_FUNCTION(this << now);
    NS_ABORT_MSG_IF(!m_running, "FragmentProgress: no fragment runs");
    m_running = false;
    m_busy += now - m_started;
    ++m_current;
    return m_current == m_fragments;
}

uint32_t
FragmentProgress::GetCurrent() const
{
    NS_LOG_FUNCTION(this);
    return m_current;
}

bool
FragmentProgress::IsRunning() const
{
    NS_LOG_FUNCTION(this);
    return m_running;
}

uint32_t
FragmentProgress::GetLaunched() const
{
    NS_LOG_FUNCTION(this);
    return m_launched;
}

Time
FragmentProgress::GetBusy() const
{
    NS_LOG_FUNCTION(this);
    return m_busy;
}

} // namespace ns3
