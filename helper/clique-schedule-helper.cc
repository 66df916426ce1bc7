/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-schedule-helper.h"

#include "training-csv.h"

#include "ns3/log.h"
#include "ns3/text-table.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueScheduleHelper");

namespace
{

/** Widest clique-size text in the table. */
constexpr size_t SIZES_WIDTH = 34;
/** Width of the sync algorithms column. */
constexpr size_t SYNC_WIDTH = 24;

} // namespace

CliqueScheduleHelper::CliqueScheduleHelper() = default;

void
CliqueScheduleHelper::SetModelBytes(uint64_t bytes)
{
    m_scorer.SetModelBytes(bytes);
}

void
CliqueScheduleHelper::SetComputeTime(Time compute)
{
    m_scorer.SetComputeTime(compute.GetSeconds());
}

void
CliqueScheduleHelper::SetFragmentPlan(const FragmentPlan& plan)
{
    m_scorer.SetFragmentPlan(plan);
}

void
CliqueScheduleHelper::SetEpsilon(double epsilon)
{
    m_scorer.SetEpsilon(epsilon);
}

void
CliqueScheduleHelper::SetMaxPeriod(uint32_t period)
{
    m_settings.maxPeriod = period;
}

void
CliqueScheduleHelper::SetSeed(uint32_t seed)
{
    m_settings.seed = seed;
}

void
CliqueScheduleHelper::SetLocalSearchIterations(uint32_t iterations)
{
    m_settings.localIterations = iterations;
}

void
CliqueScheduleHelper::SetExhaustiveIslands(uint32_t islands)
{
    m_settings.exhaustiveIslands = islands;
}

void
CliqueScheduleHelper::SetExhaustivePairLimit(uint64_t pairs)
{
    m_settings.exhaustivePairLimit = pairs;
}

void
CliqueScheduleHelper::SetProgress(const std::string& label, double seconds, std::ostream& out)
{
    m_settings.progressLabel = label;
    m_settings.progressSeconds = seconds;
    m_settings.progressOut = &out;
}

void
CliqueScheduleHelper::SetDeadline(std::chrono::steady_clock::time_point deadline)
{
    m_settings.deadline = deadline;
}

void
CliqueScheduleHelper::SetMaxRounds(uint64_t rounds)
{
    m_scorer.SetMaxRounds(rounds);
}

void
CliqueScheduleHelper::SetCostModelAttribute(const std::string& name, const AttributeValue& value)
{
    m_scorer.SetCostModelAttribute(name, value);
}

Ptr<SyncCostModel>
CliqueScheduleHelper::GetCostModel() const
{
    return m_scorer.GetCostModel();
}

void
CliqueScheduleHelper::SetRouting(const WanRouting& routing)
{
    m_scorer.SetRouting(routing);
}

void
CliqueScheduleHelper::CheckSettings() const
{
    if (!m_scorer.HasRouting())
    {
        throw std::runtime_error("CliqueScheduleHelper: SetRouting() was not called");
    }
    if (m_scorer.GetModelBytes() == 0)
    {
        throw std::runtime_error("CliqueScheduleHelper: model bytes must be > 0");
    }
    const double epsilon = m_scorer.GetEpsilon();
    if (!(epsilon > 0 && epsilon < 1))
    {
        throw std::runtime_error("CliqueScheduleHelper: epsilon " + std::to_string(epsilon) +
                                 " must be in (0, 1)");
    }
    if (m_settings.maxPeriod == 0)
    {
        throw std::runtime_error("CliqueScheduleHelper: max period must be >= 1");
    }
    if (!(m_scorer.GetComputeTime() >= 0))
    {
        throw std::runtime_error("CliqueScheduleHelper: compute time must be >= 0");
    }
}

std::vector<SyncAlgorithm>
CliqueScheduleHelper::ChooseAlgorithms(const Partition& partition)
{
    return m_scorer.ChooseAlgorithms(partition);
}

double
CliqueScheduleHelper::GetSyncTime(const Partition& partition)
{
    return m_scorer.GetSyncTime(partition);
}

double
CliqueScheduleHelper::TimeToEpsilon(uint64_t rounds, const std::vector<double>& syncTimes) const
{
    return m_scorer.TimeToEpsilon(rounds, syncTimes);
}

ScheduleCandidate
CliqueScheduleHelper::Evaluate(const CliqueSchedule& schedule,
                               bool chooseAlgorithms,
                               const std::string& family)
{
    CheckSettings();
    return m_scorer.Evaluate(schedule, chooseAlgorithms, family);
}

ScheduleSearchResult
CliqueScheduleHelper::Optimise(const WanRouting& routing)
{
    SetRouting(routing);
    return Optimise();
}

ScheduleSearchResult
CliqueScheduleHelper::Optimise()
{
    CheckSettings();
    ScheduleSearch search(m_scorer, m_settings);
    return search.Run();
}

std::string
CliqueScheduleHelper::DescribeSync(const ScheduleCandidate& candidate,
                                   const std::vector<std::string>& islandNames)
{
    std::vector<std::string> labels;
    for (uint32_t r = 0; r < candidate.schedule.GetPeriod(); ++r)
    {
        const auto& algorithms = candidate.schedule.GetAlgorithms(r);
        for (size_t c = 0; c < algorithms.size(); ++c)
        {
            if (candidate.schedule.GetRounds()[r][c].size() < 2)
            {
                continue;
            }
            std::string label = SyncAlgorithmToString(algorithms[c]);
            const uint32_t root = r < candidate.roots.size() && c < candidate.roots[r].size()
                                      ? candidate.roots[r][c]
                                      : SyncRoundEstimate::NO_ROOT;
            if (algorithms[c] == SyncAlgorithm::TREE && root != SyncRoundEstimate::NO_ROOT)
            {
                label +=
                    "@" + (root < islandNames.size() ? islandNames[root] : std::to_string(root));
            }
            if (std::find(labels.begin(), labels.end(), label) == labels.end())
            {
                labels.push_back(label);
            }
        }
    }
    std::string text;
    for (const auto& label : labels)
    {
        text += (text.empty() ? "" : ",") + label;
    }
    return text.empty() ? "-" : text;
}

std::string
CliqueScheduleHelper::FormatTable(const std::vector<ScheduleCandidate>& candidates,
                                  const std::vector<std::string>& islandNames)
{
    TextTable table;
    table.AddColumn("schedule", 28, TextTable::LEFT);
    table.AddColumn("family", 18, TextTable::LEFT);
    table.AddColumn("T", 4, TextTable::LEFT);
    table.AddColumn("clique sizes", SIZES_WIDTH + 2, TextTable::LEFT);
    table.AddColumn("sync", SYNC_WIDTH + 2, TextTable::LEFT);
    table.AddColumn("rho", 10, TextTable::RIGHT);
    table.AddColumn("R", 9, TextTable::RIGHT);
    table.AddColumn("round ms", 14, TextTable::RIGHT);
    table.AddColumn("to eps s", 14, TextTable::RIGHT);
    for (const auto& c : candidates)
    {
        std::string sizes = c.schedule.DescribeCliqueSizes();
        if (sizes.size() > SIZES_WIDTH)
        {
            sizes = sizes.substr(0, SIZES_WIDTH - 3) + "...";
        }
        std::string sync = DescribeSync(c, islandNames);
        if (sync.size() > SYNC_WIDTH)
        {
            sync = sync.substr(0, SYNC_WIDTH - 3) + "...";
        }
        double mean = 0;
        for (double t : c.roundTimes)
        {
            mean += t;
        }
        mean = c.roundTimes.empty() ? 0 : mean / c.roundTimes.size();
        table.AddRow(
            {c.schedule.GetName(),
             c.family,
             std::to_string(c.schedule.GetPeriod()),
             sizes,
             sync,
             TextTable::Fixed(c.rho, 4),
             c.roundsToEpsilon == CliqueSchedule::UNREACHABLE ? "inf"
                                                              : std::to_string(c.roundsToEpsilon),
             TextTable::Fixed(mean * 1e3, 3),
             std::isfinite(c.timeToEpsilon) ? TextTable::Fixed(c.timeToEpsilon, 4) : "inf"});
    }
    std::ostringstream os;
    os << table.FormatHeader() << "\n";
    for (uint32_t i = 0; i < candidates.size(); ++i)
    {
        os << table.FormatRow(i) << "\n";
    }
    return os.str();
}

void
CliqueScheduleHelper::WriteCsv(const std::vector<ScheduleCandidate>& candidates,
                               const std::string& path,
                               const std::vector<std::string>& islandNames)
{
    std::ofstream out(path);
    if (!out)
    {
        throw std::runtime_error("candidate table " + path + ": cannot be written");
    }
    out << "name,family,period,clique_sizes,sync,rho,rounds_to_epsilon,round_times_s,"
           "time_to_epsilon_s\n";
    for (const auto& c : candidates)
    {
        // Names come from schedule files and the user: quoted per RFC 4180 when they need it.
        out << TrainingCsv::Field(c.schedule.GetName()) << "," << TrainingCsv::Field(c.family)
            << "," << c.schedule.GetPeriod() << ","
            << TrainingCsv::Field(c.schedule.DescribeCliqueSizes()) << ","
            << TrainingCsv::Field(DescribeSync(c, islandNames)) << "," << std::setprecision(9)
            << c.rho << ",";
        if (c.roundsToEpsilon == CliqueSchedule::UNREACHABLE)
        {
            out << "inf";
        }
        else
        {
            out << c.roundsToEpsilon;
        }
        out << ",";
        for (size_t k = 0; k < c.roundTimes.size(); ++k)
        {
            out << (k ? ";" : "") << c.roundTimes[k];
        }
        out << "," << c.timeToEpsilon << "\n";
    }
    if (!out)
    {
        throw std::runtime_error("candidate table " + path + ": write failed");
    }
}

} // namespace ns3
