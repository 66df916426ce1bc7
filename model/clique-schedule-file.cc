/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-schedule-file.h"

#include "wan-json-input.h"
#include "wan-topology.h"

#include "ns3/log.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueScheduleFile");

namespace
{

using Json = WanJsonInput::Json;

/**
 * \brief Read an island index: an integer in 0 .. islands - 1.
 * \param value the JSON value \param source file name \param field field path
 * \param islands the schedule's island count
 * \return the index
 */
uint32_t
ReadIsland(const Json& value, const std::string& source, const std::string& field, uint32_t islands)
{
    NS_LOG_FUNCTION(source << field << islands);
    if (!value.is_number_integer() || (!value.is_number_unsigned() && value.get<int64_t>() < 0))
    {
        WanJsonInput::Reject(source,
                             field,
                             value,
                             "expected an island index (a non-negative integer)");
    }
    if (value.get<uint64_t>() >= islands)
    {
        WanJsonInput::Reject(source,
                             field,
                             value,
                             "island index out of range (the schedule has " +
                                 std::to_string(islands) + " islands: 0.." +
                                 std::to_string(islands - 1) + ")");
    }
    return value.get<uint32_t>();
}

/**
 * \param round a round's object \return its "format" (an UpdateFormat name), if it has one
 * \throws WanInputError naming the file, the field and the value
 */
std::optional<UpdateFormat>
ReadFormat(const WanJsonObject& round)
{
    if (!round.Has("format"))
    {
        return std::nullopt;
    }
    const Json& value = round.Require("format");
    if (!value.is_string())
    {
        round.Fail("format", value, std::string("expected ") + UpdateFormat::EXPECTED);
    }
    try
    {
        return UpdateFormat::FromString(value.get<std::string>());
    }
    catch (const std::invalid_argument& e)
    {
        round.Fail("format", value, e.what());
    }
}

} // namespace

std::string
CliqueScheduleFile::ToJson(const CliqueSchedule& schedule)
{
    NS_LOG_FUNCTION_NOARGS();
    Json doc;
    doc["name"] = schedule.GetName();
    doc["islands"] = schedule.GetIslandCount();
    Json rounds = Json::array();
    for (uint32_t r = 0; r < schedule.GetPeriod(); ++r)
    {
        Json round;
        round["cliques"] = schedule.GetRounds()[r];
        Json algorithms = Json::array();
        for (SyncAlgorithm a : schedule.GetAlgorithms(r))
        {
            algorithms.push_back(SyncAlgorithmToString(a));
        }
        round["algorithms"] = algorithms;
        if (schedule.GetFormat(r))
        {
            round["format"] = schedule.GetFormat(r)->ToString();
        }
        rounds.push_back(round);
    }
    doc["rounds"] = rounds;
    return doc.dump(2) + "\n";
}

CliqueSchedule
CliqueScheduleFile::Parse(const std::string& text, const std::string& source)
{
    NS_LOG_FUNCTION(source);
    const Json doc = WanJsonInput::Parse(text, source);
    const WanJsonObject root(doc, source, "", {"name", "islands", "rounds"});
    const std::string name = root.Name("name", false);
    const auto islands =
        static_cast<uint32_t>(root.Integer("islands", 1, WanTopology::MAX_ISLANDS));
    const Json& jr = root.Array("rounds", true);
    if (jr.empty())
    {
        root.Fail("rounds", jr, "expected a non-empty array of rounds");
    }
    std::vector<Partition> rounds;
    std::vector<std::vector<SyncAlgorithm>> algorithms;
    std::vector<std::optional<UpdateFormat>> formats;
    for (size_t r = 0; r < jr.size(); ++r)
    {
        const std::string field = WanJsonInput::Element("rounds", r);
        const WanJsonObject round(jr[r], source, field, {"cliques", "algorithms", "format"});
        formats.push_back(ReadFormat(round));
        const Json& jc = round.Array("cliques", true);
        Partition partition;
        for (size_t c = 0; c < jc.size(); ++c)
        {
            const std::string cf = WanJsonInput::Element(field + ".cliques", c);
            if (!jc[c].is_array())
            {
                WanJsonInput::Reject(source, cf, jc[c], "expected an array of island indices");
            }
            Clique clique;
            for (size_t m = 0; m < jc[c].size(); ++m)
            {
                clique.push_back(
                    ReadIsland(jc[c][m], source, WanJsonInput::Element(cf, m), islands));
            }
            partition.push_back(clique);
        }
        CliqueSchedule::ValidatePartition(islands, partition, source + ": " + field);
        std::vector<SyncAlgorithm> algs(partition.size(), SyncAlgorithm::DIRECT);
        if (round.Has("algorithms"))
        {
            const Json& ja = round.Array("algorithms", true);
            if (ja.size() != partition.size())
            {
                round.Fail("algorithms",
                           ja,
                           "expected one name per clique (" + std::to_string(partition.size()) +
                               ")");
            }
            for (size_t c = 0; c < ja.size(); ++c)
            {
                const std::string af = WanJsonInput::Element(field + ".algorithms", c);
                if (!ja[c].is_string())
                {
                    WanJsonInput::Reject(source,
                                         af,
                                         ja[c],
                                         std::string("expected ") + SYNC_ALGORITHM_NAMES);
                }
                algs[c] = SyncAlgorithmFromString(ja[c].get<std::string>(), source + ": " + af);
            }
        }
        // Algorithms follow the cliques into canonical order.
        std::vector<std::pair<Clique, SyncAlgorithm>> pairs;
        for (size_t c = 0; c < partition.size(); ++c)
        {
            Clique sorted = partition[c];
            std::sort(sorted.begin(), sorted.end());
            pairs.emplace_back(sorted, algs[c]);
        }
        std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
            return a.first.front() < b.first.front();
        });
        Partition canonical;
        std::vector<SyncAlgorithm> canonicalAlgs;
        for (auto& [clique, alg] : pairs)
        {
            canonical.push_back(clique);
            canonicalAlgs.push_back(alg);
        }
        rounds.push_back(canonical);
        algorithms.push_back(canonicalAlgs);
    }
    CliqueSchedule schedule(islands, rounds, name);
    for (uint32_t r = 0; r < rounds.size(); ++r)
    {
        schedule.SetAlgorithms(r, algorithms[r]);
        if (formats[r])
        {
            schedule.SetFormat(r, *formats[r]);
        }
    }
    return schedule;
}

CliqueSchedule
CliqueScheduleFile::LoadFile(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    return Parse(WanJsonInput::ReadFile(path, "schedule file"), path);
}

void
CliqueScheduleFile::SaveFile(const CliqueSchedule& schedule, const std::string& path)
{
    NS_LOG_FUNCTION(path);
    std::ofstream out(path);
    if (!out)
    {
        throw std::runtime_error("schedule file " + path + ": cannot be written");
    }
    out << ToJson(schedule);
    if (!out)
    {
        throw std::runtime_error("schedule file " + path + ": write failed");
    }
}

} // namespace ns3
