/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * optimiser-bench: wall time of CliqueScheduleHelper::Optimise() (the schedule optimiser).
 *
 * Topologies: doublezero-9 (data/topologies/doublezero-9.json, run from the repository root)
 * and synthetic WANs of 32, 64, 128 and 256 cities with one island each: cities at deterministic
 * pseudo-random coordinates, each linked to its three nearest neighbours and to the next city
 * of a ring (so the WAN is connected), fibre delays from great-circle distance x 1.3, 100 Gbps
 * links and 10 Gbps access. Each topology runs with capabilities none and both, and with a
 * compute time of 0 s (sync-bound, the hardest search) and 60 s. Targets: under 2 s for N = 9,
 * under 60 s for N = 32 to 256. Prints one line per run (wall and CPU time, best schedule and
 * its time to epsilon) and whether the target was met.
 *
 *   optimiser-bench [--modelBytes=1000000000] [--iterations=600] [--only=9|32|64|128|256]
 */

#include "ns3/clique-schedule-helper.h"
#include "ns3/command-line.h"
#include "ns3/nstime.h"
#include "ns3/wan-routing.h"
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
/** Synthetic WAN link rate. */
const uint64_t SYNTHETIC_LINK_BPS = 100000000000ULL;
/** Synthetic access rate. */
const uint64_t SYNTHETIC_ACCESS_BPS = 10000000000ULL;
/** Synthetic access delay, s. */
const double SYNTHETIC_ACCESS_DELAY = 50e-6;
/** Route factor of synthetic link delays. */
const double ROUTE_FACTOR = 1.3;
/** Nearest neighbours each synthetic city links to. */
const uint32_t NEIGHBOURS = 3;

/**
 * \param n cities \param seed generator seed
 * \return a synthetic WAN of n cities with one island each
 */
WanTopology
Synthetic(uint32_t n, uint32_t seed)
{
    WanTopology t;
    t.SetName("synthetic-" + std::to_string(n));
    uint64_t state = seed;
    auto next = [&state]() {
        // 64-bit LCG (Knuth's MMIX constants): deterministic on every platform.
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / static_cast<double>(1ULL << 53);
    };
    for (uint32_t c = 0; c < n; ++c)
    {
        WanCity city;
        city.code = "S" + std::to_string(c);
        city.name = city.code;
        city.latitude = -60 + 120 * next();
        city.longitude = -180 + 360 * next();
        t.AddCity(city);
        WanIsland island;
        island.name = city.code + "-0";
        island.city = c;
        island.accessBps = SYNTHETIC_ACCESS_BPS;
        island.accessDelay = SYNTHETIC_ACCESS_DELAY;
        t.AddIsland(island);
    }
    std::vector<std::vector<bool>> linked(n, std::vector<bool>(n, false));
    auto add = [&t, &linked](uint32_t a, uint32_t b) {
        if (a == b || linked[a][b])
        {
            return;
        }
        linked[a][b] = linked[b][a] = true;
        WanLink l;
        l.a = a;
        l.b = b;
        l.bps = SYNTHETIC_LINK_BPS;
        l.delay = t.DefaultLinkDelay(a, b, ROUTE_FACTOR);
        t.AddLink(l);
    };
    const auto& cities = t.GetCities();
    for (uint32_t a = 0; a < n; ++a)
    {
        add(a, (a + 1) % n);
        std::vector<std::pair<double, uint32_t>> byDistance;
        for (uint32_t b = 0; b < n; ++b)
        {
            if (b != a)
            {
                byDistance.emplace_back(WanTopology::GreatCircleKm(cities[a].latitude,
                                                                   cities[a].longitude,
                                                                   cities[b].latitude,
                                                                   cities[b].longitude),
                                        b);
            }
        }
        std::sort(byDistance.begin(), byDistance.end());
        for (uint32_t k = 0; k < NEIGHBOURS && k < byDistance.size(); ++k)
        {
            add(a, byDistance[k].second);
        }
    }
    t.Validate();
    return t;
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
            topologies.push_back(WanTopology::LoadFile("data/topologies/doublezero-9.json"));
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
