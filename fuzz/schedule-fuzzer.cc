/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness for the schedule loader: the fuzzer's bytes are a schedule file's text,
 * given to CliqueSchedule::Parse. A rejected document must raise std::runtime_error (the
 * documented error; anything else escaping is a finding); an accepted one must read back equal
 * from its ToJson(), and its period and mixing matrix must be computable.
 */

#include "ns3/clique-schedule-file.h"
#include "ns3/clique-schedule.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

namespace
{
/// Islands above which the harness skips the mixing math (n x n matrices, cubic products).
constexpr uint32_t MAX_ISLANDS_FOR_MIXING = 16;
/// Period above which the harness skips the mixing math.
constexpr uint32_t MAX_PERIOD_FOR_MIXING = 16;
/// Rounds the mixing math may walk per input.
constexpr uint64_t MAX_MIXING_ROUNDS = 200;
} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    ns3::CliqueSchedule schedule;
    try
    {
        schedule = ns3::CliqueScheduleFile::Parse(text, "fuzz-input.json");
    }
    catch (const std::runtime_error&)
    {
        return 0; // rejected with the documented error: fine
    }
    // Accepted: ToJson() must give a document that Parse() reads back to an equal schedule.
    const std::string json = ns3::CliqueScheduleFile::ToJson(schedule);
    try
    {
        const ns3::CliqueSchedule again = ns3::CliqueScheduleFile::Parse(json, "round-trip.json");
        if (!(again == schedule) || ns3::CliqueScheduleFile::ToJson(again) != json)
        {
            std::cerr << "schedule-fuzzer: round trip changed the schedule\n" << json;
            std::abort();
        }
    }
    catch (const std::runtime_error& e)
    {
        std::cerr << "schedule-fuzzer: ToJson() output rejected by Parse(): " << e.what() << "\n"
                  << json;
        std::abort();
    }
    // The mixing math on what was accepted (small schedules only: it is cubic in the islands).
    if (schedule.GetIslandCount() <= MAX_ISLANDS_FOR_MIXING &&
        schedule.GetPeriod() <= MAX_PERIOD_FOR_MIXING)
    {
        schedule.GetRoundsToEpsilon(1e-3, MAX_MIXING_ROUNDS);
    }
    return 0;
}
