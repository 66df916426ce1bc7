/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest units made from the crashes the fuzzers of fuzz/ found (tools/run-fuzzers.sh),
 * one per finding, reduced to the smallest input that shows it.
 *
 * DISABLED_ tests are findings in files another change owns, not fixed yet: remove the prefix
 * with the fix (see doc/building.rst, "Sanitizers and fuzzing").
 */

#include "ns3/clique-schedule-file.h"
#include "ns3/clique-schedule.h"
#include "ns3/wan-topology-json.h"
#include "ns3/wan-topology.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

namespace
{

// topology-fuzzer, 2026: a number too large for a double ("34.0e522") made nlohmann::json::parse
// throw json::out_of_range (406), not parse_error; WanTopology::Parse caught only parse_error,
// so the exception escaped as an nlohmann type instead of WanTopologyError (a program that
// reports WanTopologyError with exit code 1 terminated instead).
TEST(FuzzRegression, TopologyNumberOverflowIsATopologyError)
{
    const std::string text = R"({"cities": [{"code": "A", "latitude": 1e999, "longitude": 0},
                                             {"code": "B", "latitude": 1, "longitude": 1}],
                                 "links": [{"a": "A", "b": "B"}]})";
    EXPECT_THROW(ns3::WanTopologyJson::Parse(text, "overflow.json"), ns3::WanTopologyError);
}

// schedule-fuzzer: the same in CliqueSchedule::Parse ("8e088880888"), whose documented error
// is std::runtime_error.
TEST(FuzzRegression, ScheduleNumberOverflowIsARuntimeError)
{
    const std::string text = R"({"islands": 1e999, "rounds": [{"cliques": [[0]]}]})";
    EXPECT_THROW(ns3::CliqueScheduleFile::Parse(text, "overflow.json"), std::runtime_error);
}

} // namespace
