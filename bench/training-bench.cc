/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * training-bench: wall time and peak memory of simulating training rounds of a large model on
 * a WAN topology (default: one round of a 1 GB model on doublezero-9 with the global clique),
 * once per capability set. Each set runs in a forked child process, so each peak resident set
 * size (getrusage ru_maxrss) is that set's own.
 *
 *   training-bench [--topology=PATH] [--modelBytes=1000000000] [--rounds=1]
 *                  [--sets=none,multicast,fpga,both] [--schedule=global|ring|moshpit]
 *
 * Targets (2 cores): at most 60 s and 1 GiB per set. The table shows wall and CPU seconds (on a
 * shared machine the wall time includes other jobs' load).
 */

#include "ns3/clique-schedule.h"
#include "ns3/command-line.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/training-helper.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

/** Bytes per KiB (ru_maxrss is in KiB on Linux). */
constexpr double KIB = 1024.0;
/** Target wall time per set, s. */
constexpr double TARGET_WALL_S = 60.0;
/** Target peak memory per set, MiB. */
constexpr double TARGET_RSS_MIB = 1024.0;

/** What one child reports through its pipe. */
struct Measurement
{
    double wall{0};      //!< wall seconds of build + run
    double cpu{0};       //!< user + system CPU seconds of build + run
    double rssMib{0};    //!< peak resident set, MiB
    double simulated{0}; //!< simulated seconds
    double meanSync{0};  //!< mean sync time, s
    double estimated{0}; //!< cost model's sync time, s
    uint64_t packets{0}; //!< gradient packets sent by all islands
    uint64_t drops{0};   //!< queue drops
    uint64_t resends{0}; //!< retransmissions
};

/**
 * \brief Run one capability set in this process.
 * \param path topology file \param set capability set \param schedule schedule name
 * \param modelBytes M \param rounds rounds \param scheduler scheduler TypeId or ""
 * \return the measurement
 */
Measurement
RunSet(const std::string& path,
       const std::string& set,
       const std::string& schedule,
       uint64_t modelBytes,
       uint32_t rounds,
       const std::string& scheduler)
{
    const auto start = std::chrono::steady_clock::now();
    WanTopology topology = WanTopology::LoadFile(path);
    topology.SetCapabilities(WanCapabilities::Parse(set, "--sets"));
    const uint32_t n = topology.GetIslands().size();
    CliqueSchedule plan = CliqueSchedule::GlobalClique(n);
    if (schedule == "ring")
    {
        plan.SetAlgorithms(0, {SyncAlgorithm::RING});
    }
    else if (schedule == "moshpit")
    {
        plan = CliqueSchedule::MoshpitGrid(n);
    }
    else if (schedule != "global")
    {
        throw std::runtime_error("--schedule: \"" + schedule + "\": expected global|ring|moshpit");
    }
    WanTopologyHelper wan;
    wan.Install(topology);
    TrainingHelper helper(wan, plan);
    helper.SetModelBytes(modelBytes);
    helper.SetRounds(rounds);
    helper.SetComputeTime(MilliSeconds(100));
    if (!scheduler.empty())
    {
        helper.SetSchedulerType(scheduler);
    }
    helper.Install();
    helper.Run();
    Measurement m;
    const TrainingSummary s = helper.Summarise(1e-3);
    m.simulated = helper.GetSimulatedTime();
    m.meanSync = s.meanSync;
    m.estimated = s.estimatedSync;
    m.drops = s.queueDrops;
    m.resends = s.retransmissions;
    for (const TrainingRoundRecord& r : helper.GetRecords())
    {
        m.packets += r.packetsSent;
    }
    Simulator::Destroy();
    m.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    m.rssMib = usage.ru_maxrss / KIB;
    m.cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6 + usage.ru_stime.tv_sec +
            usage.ru_stime.tv_usec * 1e-6;
    return m;
}

/** \param text comma-separated list \return its items */
std::vector<std::string>
Split(const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        if (!item.empty())
        {
            items.push_back(item);
        }
    }
    return items;
}

} // namespace

int
main(int argc, char** argv)
{
    std::string topology = "data/topologies/doublezero-9.json";
    uint64_t modelBytes = 1000000000;
    uint32_t rounds = 1;
    std::string sets = "none,multicast,fpga,both";
    std::string schedule = "global";
    std::string scheduler;
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "topology file", topology);
    cmd.AddValue("modelBytes", "bytes of each island's update", modelBytes);
    cmd.AddValue("rounds", "rounds to simulate", rounds);
    cmd.AddValue("sets", "capability sets, comma-separated", sets);
    cmd.AddValue("schedule", "global|ring|moshpit", schedule);
    cmd.AddValue("scheduler", "event scheduler TypeId (empty: the helper's default)", scheduler);
    cmd.Parse(argc, argv);

    std::cout << "training-bench: " << topology << ", model " << modelBytes << " bytes, " << rounds
              << " round(s), schedule " << schedule << "\n";
    std::cout << std::left << std::setw(11) << "set" << std::right << std::setw(10) << "wall_s"
              << std::setw(10) << "cpu_s" << std::setw(10) << "rss_MiB" << std::setw(10) << "sim_s"
              << std::setw(10) << "sync_s" << std::setw(10) << "est_s" << std::setw(12) << "packets"
              << std::setw(12) << "pkts/wall_s" << std::setw(8) << "drops" << std::setw(9)
              << "resends" << std::setw(8) << "target" << std::endl;
    int status = 0;
    for (const std::string& set : Split(sets))
    {
        int fds[2];
        if (pipe(fds) != 0)
        {
            std::cerr << "error: pipe failed" << std::endl;
            return 1;
        }
        const pid_t pid = fork();
        if (pid == 0)
        {
            close(fds[0]);
            Measurement m;
            int code = 0;
            try
            {
                m = RunSet(topology, set, schedule, modelBytes, rounds, scheduler);
            }
            catch (const std::exception& e)
            {
                std::cerr << "error: " << e.what() << std::endl;
                code = 1;
            }
            if (write(fds[1], &m, sizeof(m)) != sizeof(m))
            {
                code = 1;
            }
            close(fds[1]);
            _exit(code);
        }
        close(fds[1]);
        Measurement m;
        const bool got = read(fds[0], &m, sizeof(m)) == sizeof(m);
        close(fds[0]);
        int childStatus = 0;
        waitpid(pid, &childStatus, 0);
        if (!got || !WIFEXITED(childStatus) || WEXITSTATUS(childStatus) != 0)
        {
            std::cout << std::left << std::setw(11) << set << " failed" << std::endl;
            status = 1;
            continue;
        }
        // On a shared machine wall time includes other jobs: judge by CPU time as well.
        const bool ok = std::min(m.wall, m.cpu) <= TARGET_WALL_S && m.rssMib <= TARGET_RSS_MIB;
        std::cout << std::left << std::setw(11) << set << std::right << std::fixed
                  << std::setprecision(2) << std::setw(10) << m.wall << std::setw(10) << m.cpu
                  << std::setw(10) << std::setprecision(1) << m.rssMib << std::setprecision(4)
                  << std::setw(10) << m.simulated << std::setw(10) << m.meanSync << std::setw(10)
                  << m.estimated << std::setw(12) << m.packets << std::setprecision(0)
                  << std::setw(12) << (m.wall > 0 ? m.packets / m.wall : 0) << std::setw(8)
                  << m.drops << std::setw(9) << m.resends << std::setw(8) << (ok ? "ok" : "MISS")
                  << std::endl;
    }
    return status;
}
