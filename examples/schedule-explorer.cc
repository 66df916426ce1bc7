/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * schedule-explorer: the schedule optimiser alone, on any topology file.
 *
 * Loads --topology with the shared flags (--capabilities, --cityCapabilities, --seed), runs
 * CliqueScheduleHelper for an update of --modelBytes bytes, --innerSteps steps of --computeTime
 * of compute per round and consensus target --epsilon, searching periods up to --maxPeriod, and
 * prints the candidate table: the baselines (global clique, ring all-reduce, Moshpit grid, gossip
 * pairs, one-peer exponential graph) and the best schedule of each search stage, with rho, rounds
 * to epsilon, mean round time and estimated time to epsilon. Writes into --output:
 *
 *   best-schedule.json   the best schedule (CliqueSchedule JSON, with per-clique algorithms)
 *   candidates.csv       the table
 *
 *   schedule-explorer --capabilities=both --modelBytes=1000000000 --output=results/explore
 */

#include "ns3/chunk-layout.h"
#include "ns3/clique-schedule-file.h"
#include "ns3/clique-schedule-helper.h"
#include "ns3/clique-schedule.h"
#include "ns3/nstime.h"
#include "ns3/training-application.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-flags.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-units.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/** Default update size: 1 GB. */
const uint64_t DEFAULT_MODEL_BYTES = 1000000000;
/** Default compute phase per round, s. */
const double DEFAULT_COMPUTE_S = 60.0;
/** Default consensus target. */
const double DEFAULT_EPSILON = 1e-3;
/** Default largest period. */
const uint32_t DEFAULT_MAX_PERIOD = 4;
/** Default local-search moves. */
const uint32_t DEFAULT_ITERATIONS = 600;
/** Most local-search moves (each scores a schedule with the cost model). */
const uint32_t MAX_ITERATIONS = 10000000;
/** Wall seconds between progress lines of a long search (hundreds of islands). */
const double PROGRESS_SECONDS = 5.0;

/**
 * \brief Print the best schedule's cliques, round by round, by city name (with each TREE
 *        clique's root, as the table names it).
 * \param result the search's result \param topology the topology searched
 */
void
PrintRounds(const ScheduleSearchResult& result, const WanTopology& topology)
{
    const CliqueSchedule& best = result.best.schedule;
    const auto& islands = topology.GetIslands();
    for (uint32_t r = 0; r < best.GetPeriod(); ++r)
    {
        std::cout << "  round " << r << ":";
        const auto& partition = best.GetRounds()[r];
        for (uint32_t c = 0; c < partition.size(); ++c)
        {
            std::cout << " {";
            for (size_t m = 0; m < partition[c].size(); ++m)
            {
                std::cout << (m ? " " : "") << islands[partition[c][m]].name;
            }
            std::cout << "}";
            const SyncAlgorithm algorithm = best.GetAlgorithm(r, c);
            if (algorithm != SyncAlgorithm::DIRECT && partition[c].size() > 1)
            {
                // A TREE clique names its root, as the table does.
                std::cout << algorithm;
                if (algorithm == SyncAlgorithm::TREE)
                {
                    std::cout << "@" << islands[result.best.roots.at(r).at(c)].name;
                }
            }
        }
        std::cout << "\n";
    }
}

int
Body(int argc, char** argv)
{
    WanCommandLine cmd("schedule-explorer",
                       "Search rotating-clique synchronisation schedules for a WAN topology "
                       "and print the candidates; writes best-schedule.json and "
                       "candidates.csv into --output.");
    uint64_t modelBytes = DEFAULT_MODEL_BYTES;
    double computeTime = DEFAULT_COMPUTE_S;
    uint32_t innerSteps = 1;
    double epsilon = DEFAULT_EPSILON;
    uint32_t maxPeriod = DEFAULT_MAX_PERIOD;
    uint32_t iterations = DEFAULT_ITERATIONS;
    WanFlags& flags = cmd.Flags();
    flags.AddUnsigned("modelBytes",
                      "bytes of one island's update",
                      modelBytes,
                      1,
                      ChunkLayout::MAX_MODEL_BYTES,
                      ChunkLayout::MAX_MODEL_BYTES_REASON);
    flags.AddReal("computeTime",
                  "compute time of one inner step, seconds",
                  computeTime,
                  WanFlagRange{0, WanUnits::MAX_TIME_SECONDS, false, false});
    flags.AddUnsigned("innerSteps",
                      "inner steps of compute per round before it synchronises (DiLoCo's H)",
                      innerSteps,
                      1,
                      TrainingApplication::MAX_INNER_STEPS);
    flags.AddReal("epsilon",
                  "consensus target ||prod W - J||_2",
                  epsilon,
                  WanFlagRange{0, 1, true, true});
    flags.AddUnsigned("maxPeriod",
                      "largest schedule period searched",
                      maxPeriod,
                      1,
                      WanCommandLine::MAX_PERIOD);
    flags.AddUnsigned("iterations", "local-search moves", iterations, 0, MAX_ITERATIONS);
    cmd.Parse(argc, argv);
    if (cmd.IsGiven("queue"))
    {
        throw std::runtime_error(WanFlags::ChangesNothing(
            "queue",
            "the optimiser's cost model has no queues (nine-city-training simulates them)"));
    }
    const std::string phaseProblem =
        TrainingApplication::ComputePhaseProblem(computeTime, innerSteps);
    if (!phaseProblem.empty())
    {
        throw std::runtime_error("--innerSteps: " + phaseProblem);
    }
    WanTopology topology = cmd.LoadTopology();
    const std::string output = cmd.PrepareOutput();

    CliqueScheduleHelper helper;
    helper.SetModelBytes(modelBytes);
    helper.SetComputeTime(TrainingApplication::ComputePhase(Seconds(computeTime), innerSteps));
    helper.SetEpsilon(epsilon);
    helper.SetMaxPeriod(maxPeriod);
    helper.SetSeed(cmd.GetSeed());
    helper.SetLocalSearchIterations(iterations);
    helper.SetProgress("", PROGRESS_SECONDS);

    auto start = std::chrono::steady_clock::now();
    ScheduleSearchResult result = helper.Optimise(WanRouting(topology));
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::cout << "topology " << cmd.GetTopologyPath() << " (" << topology.GetIslands().size()
              << " islands), capabilities "
              << (cmd.GetCapabilities().empty() ? "from file" : cmd.GetCapabilities()) << ", model "
              << modelBytes << " B, compute " << computeTime * innerSteps << " s, epsilon "
              << epsilon << "\n\n";
    std::vector<std::string> names;
    for (const auto& island : topology.GetIslands())
    {
        names.push_back(island.name);
    }
    std::cout << CliqueScheduleHelper::FormatTable(result.table, names) << "\n";
    const CliqueSchedule& best = result.best.schedule;
    std::cout << "best: " << best.GetName() << " (" << result.best.family << "), period "
              << best.GetPeriod() << ", " << result.best.roundsToEpsilon << " rounds to epsilon, "
              << std::fixed << std::setprecision(4) << result.best.timeToEpsilon << " s\n";
    PrintRounds(result, topology);
    std::cout << "search: " << result.partitionsScored << " rounds estimated, "
              << result.schedulesScored << " schedules scored, " << std::setprecision(3) << wall
              << " s\n";

    CliqueScheduleFile::SaveFile(best, output + "/best-schedule.json");
    CliqueScheduleHelper::WriteCsv(result.table, output + "/candidates.csv", names);
    std::cout << "wrote " << output << "/best-schedule.json and " << output << "/candidates.csv\n";
    return 0;
}

} // namespace

int
main(int argc, char** argv)
{
    return WanCommandLine::RunMain(Body, argc, argv);
}
