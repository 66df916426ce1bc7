/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * optimiser-bench: wall time of CliqueScheduleHelper::Optimise() (the schedule optimiser).
 *
 * Topologies: doublezero-9 (data/topologies/doublezero-9.json, run from the repository root)
 * and generated WANs of 32, 64, 128 and 256 cities with one island each (WanTopologyGenerator,
 * geometric family: cities at seeded random points of the continents, each linked to its three
 * nearest, fibre delays from great-circle distance x 1.3, 100 Gbps links and 10 Gbps access). Each
 * topology runs with capabilities none and both, and with a compute time of 0 s (sync-bound, the
 * hardest search) and 60 s. Targets: under 2 s for N = 9, under 60 s for N = 32 to 256. Prints one
 * line per run (wall and CPU time, best schedule and its time to epsilon) and whether the target
 * was met.
 *
 *   optimiser-bench [--modelBytes=1000000000] [--iterations=600] [--only=9|32|64|128|256]
 */

#include "ns3/clique-schedule-helper.h"
#include "ns3/command-line.h"
#include "ns3/nstime.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology-generator.h"
#include "ns3/wan-topology-json.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** Target wall time for N = 9, s. */
const double TARGET_SMALL_S = 2.0;
/** Target wall time for N = 32 to 256, s. */
const double TARGET_LARGE_S = 60.0;

/**
 * \param n cities \param seed generator seed
 * \return a generated WAN (WanTopologyGenerator's geometric family: each city linked to its
 *         three nearest) of n cities with one island each, 100 Gbps links, 10 Gbps access
 */
WanTopology
Synthetic(uint32_t n, uint32_t seed)
{
    WanTopologyGeneratorParams params;
    params.family = "geometric";
    params.cities = n;
    params.seed = seed;
    return WanTopologyGenerator::Generate(params);
}

} // namespace

int
main(int argc, char** argv)
{
    uint64_t modelBytes = 1000000000;
    uint32_t iterations = 600;
    uint32_t only = 0;
    CommandLine cmd(__FILE__);
    cmd.AddValue("modelBytes", "bytes of one island's update", modelBytes);
    cmd.AddValue("iterations", "local-search moves", iterations);
    cmd.AddValue("only", "run only this island count (9, 32, 64, 128 or 256); 0 for all", only);
    cmd.Parse(argc, argv);

    std::vector<WanTopology> topologies;
    try
    {
        if (only == 0 || only == 9)
        {
            topologies.push_back(WanTopologyJson::LoadFile("data/topologies/doublezero-9.json"));
        }
        if (only == 0 || only == 32)
        {
            topologies.push_back(Synthetic(32, 32));
        }
        for (uint32_t n : {64u, 128u, 256u})
        {
            if (only == 0 || only == n)
            {
                topologies.push_back(Synthetic(n, n));
            }
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }

    std::printf("%-16s %4s %-6s %8s %-28s %4s %12s %10s %10s %8s %8s %s\n",
                "topology",
                "N",
                "caps",
                "compute",
                "best",
                "T",
                "to eps s",
                "rounds",
                "schedules",
                "wall s",
                "cpu s",
                "target");
    bool allMet = true;
    for (const auto& base : topologies)
    {
        for (const char* caps : {"none", "both"})
        {
            for (double compute : {0.0, 60.0})
            {
                WanTopology topology = base;
                topology.SetCapabilities(WanCapabilities::Parse(caps, "bench"));
                uint32_t n = topology.GetIslands().size();
                CliqueScheduleHelper helper;
                helper.SetModelBytes(modelBytes);
                helper.SetComputeTime(Seconds(compute));
                helper.SetLocalSearchIterations(iterations);
                auto start = std::chrono::steady_clock::now();
                std::clock_t cpuStart = std::clock();
                ScheduleSearchResult r = helper.Optimise(WanRouting(topology));
                double cpu = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
                double wall =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                double target = n <= 10 ? TARGET_SMALL_S : TARGET_LARGE_S;
                bool met = wall < target;
                allMet = allMet && met;
                std::printf("%-16s %4u %-6s %8.1f %-28s %4u %12.4f %10llu %10llu %8.3f %8.3f %s\n",
                            topology.GetName().c_str(),
                            n,
                            caps,
                            compute,
                            r.best.schedule.GetName().c_str(),
                            r.best.schedule.GetPeriod(),
                            r.best.timeToEpsilon,
                            static_cast<unsigned long long>(r.partitionsScored),
                            static_cast<unsigned long long>(r.schedulesScored),
                            wall,
                            cpu,
                            met ? "met" : "MISSED");
                std::fflush(stdout);
            }
        }
    }
    std::printf("all targets %s\n", allMet ? "met" : "NOT met");
    return 0;
}
