/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "schedule-scorer.h"

#include "ns3/log.h"
#include "ns3/wan-input-error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduleScorer");

namespace
{

/** Default consensus target. */
constexpr double DEFAULT_EPSILON = 1e-3;
/** Default model size: 100 MB. */
constexpr uint64_t DEFAULT_MODEL_BYTES = 100000000;
/** Relative difference below which two objectives count as equal (then ties are broken). */
constexpr double TIE_TOLERANCE = 1e-12;

/** \param s schedule \return the largest clique of any round */
size_t
LargestClique(const CliqueSchedule& s)
{
    size_t k = 1;
    for (const auto& part : s.GetRounds())
    {
        for (const auto& c : part)
        {
            k = std::max(k, c.size());
        }
    }
    return k;
}

} // namespace

ScheduleScorer::ScheduleScorer()
    : m_hasRouting(false),
      m_islands(0),
      m_modelBytes(DEFAULT_MODEL_BYTES),
      m_compute(0),
      m_epsilon(DEFAULT_EPSILON),
      m_maxRounds(CliqueSchedule::DEFAULT_MAX_ROUNDS),
      m_schedulesScored(0)
{
    m_model = CreateObject<SyncCostModel>();
}

void
ScheduleScorer::SetModelBytes(uint64_t bytes)
{
    m_modelBytes = bytes;
    m_syncCache.clear();
    m_algorithmCache.clear();
    m_rootCache.clear();
}

uint64_t
ScheduleScorer::GetModelBytes() const
{
    return m_modelBytes;
}

void
ScheduleScorer::SetComputeTime(double seconds)
{
    m_compute = seconds;
}

void
ScheduleScorer::SetFragmentPlan(const FragmentPlan& plan)
{
    m_plan = plan;
    m_syncCache.clear();
}

double
ScheduleScorer::EstimateExposedSync(const Partition& partition,
                                    const std::vector<SyncAlgorithm>& algorithms) const
{
    if (!m_plan)
    {
        return m_model->EstimateSyncTime(partition, algorithms, m_modelBytes);
    }
    // Each fragment's exchange alone at its bytes (few distinct sizes: estimated once each).
    std::map<uint64_t, double> byBytes;
    std::vector<double> launches;
    std::vector<double> durations;
    for (uint32_t f = 0; f < m_plan->GetFragments(); ++f)
    {
        const uint64_t bytes = m_plan->GetBytes(f);
        auto it = byBytes.find(bytes);
        if (it == byBytes.end())
        {
            it = byBytes.emplace(bytes, m_model->EstimateSyncTime(partition, algorithms, bytes))
                     .first;
        }
        launches.push_back(m_plan->GetLaunch(f).GetSeconds());
        durations.push_back(it->second);
    }
    return FragmentPlan::Overlap(launches, durations, nullptr).exposed;
}

double
ScheduleScorer::GetComputeTime() const
{
    return m_compute;
}

void
ScheduleScorer::SetEpsilon(double epsilon)
{
    m_epsilon = epsilon;
}

double
ScheduleScorer::GetEpsilon() const
{
    return m_epsilon;
}

void
ScheduleScorer::SetMaxRounds(uint64_t rounds)
{
    m_maxRounds = rounds;
}

void
ScheduleScorer::SetCostModelAttribute(const std::string& name, const AttributeValue& value)
{
    m_model->SetAttribute(name, value);
    m_syncCache.clear();
    m_algorithmCache.clear();
    m_rootCache.clear();
}

Ptr<SyncCostModel>
ScheduleScorer::GetCostModel() const
{
    return m_model;
}

void
ScheduleScorer::SetRouting(const WanRouting& routing)
{
    m_model->SetRouting(routing);
    m_islands = routing.GetTopology().GetIslands().size();
    m_hasRouting = true;
    m_syncCache.clear();
    m_algorithmCache.clear();
    m_rootCache.clear();
}

bool
ScheduleScorer::HasRouting() const
{
    return m_hasRouting;
}

uint32_t
ScheduleScorer::GetIslandCount() const
{
    return m_islands;
}

uint64_t
ScheduleScorer::GetPartitionsScored() const
{
    return m_syncCache.size();
}

uint64_t
ScheduleScorer::GetSchedulesScored() const
{
    return m_schedulesScored;
}

void
ScheduleScorer::ResetSchedulesScored()
{
    m_schedulesScored = 0;
}

std::vector<SyncAlgorithm>
ScheduleScorer::ChooseAlgorithms(const Partition& partition)
{
    std::vector<SyncAlgorithm> algorithms;
    algorithms.reserve(partition.size());
    for (const auto& clique : partition)
    {
        if (clique.size() <= 2)
        {
            algorithms.push_back(SyncAlgorithm::DIRECT);
            continue;
        }
        auto it = m_algorithmCache.find(clique);
        if (it == m_algorithmCache.end())
        {
            it = m_algorithmCache.emplace(clique, m_model->ChooseAlgorithm(clique, m_modelBytes))
                     .first;
        }
        algorithms.push_back(it->second);
    }
    return algorithms;
}

std::vector<uint32_t>
ScheduleScorer::ChooseRoots(const Partition& partition,
                            const std::vector<SyncAlgorithm>& algorithms)
{
    std::vector<uint32_t> roots(partition.size(), SyncRoundEstimate::NO_ROOT);
    for (size_t c = 0; c < partition.size(); ++c)
    {
        if (algorithms.at(c) != SyncAlgorithm::TREE || partition[c].size() < 2)
        {
            continue;
        }
        auto it = m_rootCache.find(partition[c]);
        if (it == m_rootCache.end())
        {
            it = m_rootCache.emplace(partition[c], m_model->ChooseRoot(partition[c], m_modelBytes))
                     .first;
        }
        roots[c] = it->second;
    }
    return roots;
}

double
ScheduleScorer::GetSyncTime(const Partition& partition)
{
    auto it = m_syncCache.find(partition);
    if (it != m_syncCache.end())
    {
        return it->second;
    }
    const double t = EstimateExposedSync(partition, ChooseAlgorithms(partition));
    m_syncCache.emplace(partition, t);
    NoteWork();
    return t;
}

double
ScheduleScorer::TimeToEpsilon(uint64_t rounds, const std::vector<double>& syncTimes) const
{
    if (rounds == CliqueSchedule::UNREACHABLE)
    {
        return std::numeric_limits<double>::infinity();
    }
    uint64_t t = syncTimes.size();
    double period = 0;
    for (double s : syncTimes)
    {
        period += m_compute + s;
    }
    double total = (rounds / t) * period;
    for (uint64_t r = 0; r < rounds % t; ++r)
    {
        total += m_compute + syncTimes[r];
    }
    return total;
}

bool
ScheduleScorer::Better(const ScheduleCandidate& a, const ScheduleCandidate& b)
{
    double ta = a.timeToEpsilon;
    double tb = b.timeToEpsilon;
    if (std::isfinite(ta) && std::isfinite(tb) &&
        std::fabs(ta - tb) > TIE_TOLERANCE * std::max(ta, tb))
    {
        return ta < tb;
    }
    if (std::isfinite(ta) != std::isfinite(tb))
    {
        return std::isfinite(ta);
    }
    if (a.schedule.GetPeriod() != b.schedule.GetPeriod())
    {
        return a.schedule.GetPeriod() < b.schedule.GetPeriod();
    }
    return a.schedule.GetRounds() < b.schedule.GetRounds();
}

bool
ScheduleScorer::Score(CliqueSchedule schedule,
                      double bound,
                      const std::string& family,
                      ScheduleCandidate& out)
{
    uint32_t period = schedule.GetPeriod();
    std::vector<double> sync(period);
    std::vector<std::vector<uint32_t>> roots(period);
    for (uint32_t r = 0; r < period; ++r)
    {
        const Partition& p = schedule.GetRounds()[r];
        schedule.SetAlgorithms(r, ChooseAlgorithms(p));
        roots[r] = ChooseRoots(p, schedule.GetAlgorithms(r));
        sync[r] = GetSyncTime(p);
    }
    if (!schedule.IsMixing())
    {
        return false;
    }
    // The most rounds that can still beat the bound.
    uint64_t cap = m_maxRounds;
    if (std::isfinite(bound))
    {
        double periodTime = 0;
        for (double s : sync)
        {
            periodTime += m_compute + s;
        }
        if (periodTime > 0)
        {
            double full = std::floor(bound / periodTime);
            if (full * period < static_cast<double>(m_maxRounds))
            {
                uint64_t r = static_cast<uint64_t>(full) * period;
                double cum = full * periodTime;
                while (r > 0 && cum >= bound)
                {
                    --r;
                    cum -= m_compute + sync[r % period];
                }
                while (r < m_maxRounds && cum + m_compute + sync[r % period] < bound)
                {
                    cum += m_compute + sync[r % period];
                    ++r;
                }
                cap = r;
            }
        }
    }
    if (SpreadLowerBound(m_islands, LargestClique(schedule), m_epsilon) > cap)
    {
        return false;
    }
    ++m_schedulesScored;
    uint64_t rounds = schedule.GetRoundsToEpsilon(m_epsilon, cap);
    NoteWork();
    if (rounds == CliqueSchedule::UNREACHABLE && std::isfinite(bound))
    {
        return false;
    }
    out.schedule = schedule;
    out.roots = roots;
    out.family = family;
    out.roundsToEpsilon = rounds;
    out.syncTimes = sync;
    out.roundTimes.clear();
    for (double s : sync)
    {
        out.roundTimes.push_back(m_compute + s);
    }
    out.timeToEpsilon = TimeToEpsilon(rounds, sync);
    // rho is reported, never compared: it is filled in for the rows that are returned only
    // (a dense eigenvalue problem per scored schedule would dominate the search at large N).
    out.rho = std::numeric_limits<double>::quiet_NaN();
    return !std::isfinite(bound) || out.timeToEpsilon < bound;
}

ScheduleCandidate
ScheduleScorer::Evaluate(const CliqueSchedule& schedule,
                         bool chooseAlgorithms,
                         const std::string& family)
{
    if (schedule.GetIslandCount() != m_islands)
    {
        throw std::runtime_error("schedule " + WanInputError::Quote(schedule.GetName()) + " has " +
                                 std::to_string(schedule.GetIslandCount()) +
                                 " islands but the topology has " + std::to_string(m_islands));
    }
    ScheduleCandidate c;
    if (chooseAlgorithms)
    {
        Score(schedule, std::numeric_limits<double>::infinity(), family, c);
        c.rho = schedule.GetContraction();
        if (!schedule.IsMixing())
        {
            // Score() stops early for schedules that never mix; fill in the row anyway.
            c.schedule = schedule;
            c.family = family;
            c.roundsToEpsilon = CliqueSchedule::UNREACHABLE;
            c.syncTimes.clear();
            c.roundTimes.clear();
            c.roots.clear();
            for (uint32_t r = 0; r < schedule.GetPeriod(); ++r)
            {
                c.schedule.SetAlgorithms(r, ChooseAlgorithms(schedule.GetRounds()[r]));
                c.roots.push_back(
                    ChooseRoots(schedule.GetRounds()[r], c.schedule.GetAlgorithms(r)));
                c.syncTimes.push_back(GetSyncTime(schedule.GetRounds()[r]));
                c.roundTimes.push_back(m_compute + c.syncTimes.back());
            }
            c.timeToEpsilon = std::numeric_limits<double>::infinity();
        }
        return c;
    }
    c.schedule = schedule;
    c.family = family;
    for (uint32_t r = 0; r < schedule.GetPeriod(); ++r)
    {
        c.roots.push_back(ChooseRoots(schedule.GetRounds()[r], schedule.GetAlgorithms(r)));
        c.syncTimes.push_back(
            EstimateExposedSync(schedule.GetRounds()[r], schedule.GetAlgorithms(r)));
        c.roundTimes.push_back(m_compute + c.syncTimes.back());
    }
    c.roundsToEpsilon = schedule.GetRoundsToEpsilon(m_epsilon, m_maxRounds);
    c.rho = schedule.GetContraction();
    c.timeToEpsilon = TimeToEpsilon(c.roundsToEpsilon, c.syncTimes);
    ++m_schedulesScored;
    NoteWork();
    return c;
}

void
ScheduleScorer::SetWorkCallback(std::function<void()> callback)
{
    m_onWork = std::move(callback);
}

void
ScheduleScorer::NoteWork() const
{
    if (m_onWork)
    {
        m_onWork();
    }
}

uint64_t
ScheduleScorer::SpreadLowerBound(uint32_t n, size_t k, double epsilon)
{
    if (n <= 1 || k <= 1 || epsilon >= 1.0 / n)
    {
        return 1;
    }
    uint64_t r = 0;
    double reach = 1;
    while (reach < n)
    {
        reach *= k;
        ++r;
    }
    return r;
}

} // namespace ns3
