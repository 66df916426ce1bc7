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
 *                  [--mtu=9000] [--scheduler=TYPEID] [--baseline]
 *                  [--simulator=default|granted-time-window|null-message] [--partition=...]
 *                  [--transports=planned,tcp,adaptive]
 *
 * Each set runs once per transport of --transports (planned: paced UDP with the set's
 * multicast and FPGAs; tcp: ns-3 TCP, unicast; adaptive: the same UDP protocol at rates set by
 * ECN marks), so their speeds compare in one run: "frames"
 * counts every frame any link device finished sending (data, acknowledgements, control; each
 * hop once), the packets the simulator handled, and frames/wall_s is the packet-level speed.
 *
 * Targets (2 cores): at most 60 s and 1 GiB per set. Under mpirun with a distributed simulator
 * (an ns-3 built with MPI, tools/build-ns3.sh), each set's simulation is split over the ranks
 * by city and the sets run one after the other in the ranks' processes; "crossed" counts the
 * packets handed to ns-3's MPI engine (bundles of frames, see WanRankBundle), CPU time and memory
 * are the sums over the ranks (the memory of a rank is its peak so far). The table shows wall and
 * CPU seconds (on a shared machine the wall time includes other jobs' load). --baseline runs every
 * set first in one process on ns-3's own PointToPointNetDevice, PointToPointChannel, UDP sockets
 * and IPv4 stack at the islands (UdpPath sockets) and default scheduler, in the same process tree,
 * and prints the speed-up over it: a comparison that machine noise affects less than absolute
 * times.
 */

#include "bench-lists.h"

#include "ns3/clique-schedule.h"
#include "ns3/command-line.h"
#include "ns3/enum.h"
#include "ns3/island-udp-port.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/training-experiment.h"
#include "ns3/training-helper.h"
#include "ns3/training-planner.h"
#include "ns3/wan-input-error.h"
#include "ns3/wan-mpi.h"
#include "ns3/wan-partition.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology-json.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-wire.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
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
    uint64_t crossed{0}; //!< packets between ranks
    uint64_t frames{0};  //!< frames every link device sent (PhyTxEnd), every hop
};

/** \param frames a counter \param packet a frame that left a link device \brief count it */
void
CountFrame(uint64_t* frames, Ptr<const Packet> packet)
{
    ++*frames;
}

/** What every set runs. */
struct BenchConfig
{
    std::string topology{"data/topologies/doublezero-9.json"}; //!< topology file
    std::string schedule{"global"};                            //!< global|ring|moshpit
    uint64_t modelBytes{1000000000};                           //!< M
    uint32_t rounds{1};                                        //!< rounds
    uint32_t mtu{WanWire::DEFAULT_MTU};                        //!< IP MTU of every link
    std::string scheduler; //!< scheduler TypeId, "" for the helper's default
    std::string partition; //!< --partition (empty: balanced by load)
};

/** The transports --transports names: one entry each. */
const std::vector<std::pair<std::string, TrainingApplication::Transport>> TRANSPORTS = {
    {"planned", TrainingApplication::PLANNED},
    {"tcp", TrainingApplication::TCP},
    {"adaptive", TrainingApplication::ADAPTIVE},
};

/**
 * \brief Run one capability set in this process.
 * \param config what to run \param set capability set
 * \param stock true: ns-3's own PointToPointNetDevice, PointToPointChannel, the islands' UDP
 * sockets and default scheduler (the baseline) \return the measurement
 */
Measurement
RunSet(const BenchConfig& config,
       const std::string& set,
       TrainingApplication::Transport transport,
       bool stock)
{
    const auto start = std::chrono::steady_clock::now();
    WanTopology topology = WanTopologyJson::LoadFile(config.topology);
    topology.SetCapabilities(WanCapabilities::Parse(set, "--sets"));
    const uint32_t n = topology.GetIslands().size();
    CliqueSchedule plan = CliqueSchedule::GlobalClique(n);
    const std::string& schedule = config.schedule;
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
        throw std::runtime_error("--schedule: " + WanInputError::Quote(schedule) +
                                 ": expected global|ring|moshpit");
    }
    WanMpi::BeginSimulation();
    WanTopologyHelper wan;
    wan.SetMtu(config.mtu);
    wan.SetStockLinks(stock);
    TrainingPlanner::DistributeCities(wan,
                                      topology,
                                      plan,
                                      config.modelBytes,
                                      config.rounds,
                                      config.partition);
    wan.Install(topology);
    TrainingHelper helper(wan, plan);
    helper.SetModelBytes(config.modelBytes);
    helper.SetRounds(config.rounds);
    helper.SetComputeTime(MilliSeconds(100));
    helper.SetTransport(transport);
    if (stock)
    {
        helper.SetAppAttribute("UdpPath", EnumValue(IslandUdpPort::SOCKETS));
    }
    helper.Install();
    Measurement m;
    for (const Ptr<NetDevice>& device : TrainingHelper::GetLinkDevices())
    {
        device->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(&CountFrame, &m.frames));
    }
    TrainingExperiment experiment(helper);
    if (stock)
    {
        experiment.SetSchedulerType("");
    }
    else if (!config.scheduler.empty())
    {
        experiment.SetSchedulerType(config.scheduler);
    }
    experiment.Run();
    // Rank 0 gathered every island's records; the other ranks hold none.
    if (WanMpi::GetRank() == 0)
    {
        const TrainingSummary s = experiment.Summarise(1e-3);
        m.simulated = experiment.GetSimulatedTime();
        m.meanSync = s.meanSync;
        m.estimated = s.estimatedSync;
        m.drops = s.queueDrops;
        m.resends = s.retransmissions;
        m.crossed = experiment.GetParallelInfo().packetsBetweenRanks;
        for (const TrainingRoundRecord& r : experiment.GetRecords())
        {
            m.packets += r.packetsSent;
        }
    }
    Simulator::Destroy();
    WanMpi::EndSimulation();
    m.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    m.rssMib = usage.ru_maxrss / KIB;
    m.cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6 + usage.ru_stime.tv_sec +
            usage.ru_stime.tv_usec * 1e-6;
    // Distributed: rank 0 reports the sums of the ranks' CPU times and memory peaks.
    const std::vector<std::string> ranks =
        WanMpi::Gather(std::to_string(m.cpu) + " " + std::to_string(m.rssMib));
    if (ranks.size() > 1)
    {
        m.cpu = 0;
        m.rssMib = 0;
        for (const std::string& text : ranks)
        {
            std::istringstream is(text);
            double cpu = 0;
            double rss = 0;
            is >> cpu >> rss;
            m.cpu += cpu;
            m.rssMib += rss;
        }
    }
    return m;
}

/**
 * \brief Run one set in a forked child, so that its peak memory is its own.
 * \param config what to run \param set capability set \param stock baseline or not
 * \param m where the measurement goes \return whether the child succeeded
 */
bool
RunChild(const BenchConfig& config,
         const std::string& set,
         TrainingApplication::Transport transport,
         bool stock,
         Measurement& m)
{
    int fds[2];
    if (pipe(fds) != 0)
    {
        std::cerr << "error: pipe failed" << std::endl;
        return false;
    }
    std::cout.flush();
    const pid_t pid = fork();
    if (pid == 0)
    {
        close(fds[0]);
        Measurement child;
        int code = 0;
        try
        {
            child = RunSet(config, set, transport, stock);
        }
        catch (const std::exception& e)
        {
            std::cerr << "error: " << e.what() << std::endl;
            code = 1;
        }
        if (write(fds[1], &child, sizeof(child)) != sizeof(child))
        {
            code = 1;
        }
        close(fds[1]);
        _exit(code);
    }
    close(fds[1]);
    const bool got = pid > 0 && read(fds[0], &m, sizeof(m)) == sizeof(m);
    close(fds[0]);
    int childStatus = 0;
    if (pid > 0)
    {
        waitpid(pid, &childStatus, 0);
    }
    return got && WIFEXITED(childStatus) && WEXITSTATUS(childStatus) == 0;
}

/**
 * \brief Print one row of the table.
 * \param label row label \param m measurement \param target whether the targets apply
 * \param speedup baseline wall time / this wall time, or 0 for none
 */
void
PrintRow(const std::string& label, const Measurement& m, bool target, double speedup)
{
    // On a shared machine wall time includes other jobs: judge by CPU time as well.
    const bool ok = std::min(m.wall, m.cpu) <= TARGET_WALL_S && m.rssMib <= TARGET_RSS_MIB;
    std::cout << std::left << std::setw(22) << label << std::right << std::fixed
              << std::setprecision(2) << std::setw(10) << m.wall << std::setw(10) << m.cpu
              << std::setw(10) << std::setprecision(1) << m.rssMib << std::setprecision(4)
              << std::setw(10) << m.simulated << std::setw(10) << m.meanSync << std::setw(10)
              << m.estimated << std::setw(12) << m.packets << std::setprecision(0) << std::setw(12)
              << (m.wall > 0 ? m.packets / m.wall : 0) << std::setw(12) << m.frames << std::setw(15)
              << (m.wall > 0 ? m.frames / m.wall : 0) << std::setw(8) << m.drops << std::setw(9)
              << m.resends << std::setw(10) << m.crossed << std::setw(8)
              << (target ? (ok ? "ok" : "MISS") : "-") << std::setw(9) << std::setprecision(2);
    if (speedup > 0)
    {
        std::cout << speedup;
    }
    else
    {
        std::cout << "-";
    }
    std::cout << std::endl;
}

/** \brief Print the title and the table's header. \param config what every set runs */
void
PrintHeader(const BenchConfig& config)
{
    std::cout << "training-bench: " << config.topology << ", model " << config.modelBytes
              << " bytes, " << config.rounds << " round(s), schedule " << config.schedule
              << ", MTU " << config.mtu << ", " << WanMpi::GetSize() << " rank(s) per set ("
              << WanMpi::GetSimulator() << " simulator)\n";
    std::cout << std::left << std::setw(22) << "set" << std::right << std::setw(10) << "wall_s"
              << std::setw(10) << "cpu_s" << std::setw(10) << "rss_MiB" << std::setw(10) << "sim_s"
              << std::setw(10) << "sync_s" << std::setw(10) << "est_s" << std::setw(12) << "packets"
              << std::setw(12) << "pkts/wall_s" << std::setw(12) << "frames" << std::setw(15)
              << "frames/wall_s" << std::setw(8) << "drops" << std::setw(9) << "resends"
              << std::setw(10) << "crossed" << std::setw(8) << "target" << std::setw(9) << "speedup"
              << std::endl;
}

} // namespace

int
main(int argc, char** argv)
{
    BenchConfig config;
    std::string sets = "none,multicast,fpga,both";
    bool baseline = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "topology file", config.topology);
    cmd.AddValue("modelBytes", "bytes of each island's update", config.modelBytes);
    cmd.AddValue("rounds", "rounds to simulate", config.rounds);
    cmd.AddValue("sets", "capability sets, comma-separated", sets);
    std::string transports = "planned";
    cmd.AddValue("transports", "transports, comma-separated: planned, tcp, adaptive", transports);
    cmd.AddValue("schedule", "global|ring|moshpit", config.schedule);
    cmd.AddValue("mtu", "IP MTU of every link, bytes (chunks fill it)", config.mtu);
    cmd.AddValue("scheduler",
                 "event scheduler TypeId (empty: the helper's default)",
                 config.scheduler);
    std::string simulator = WanMpi::DEFAULT_SIMULATOR;
    cmd.AddValue("simulator",
                 "default, or under mpirun granted-time-window|null-message (ns-3's "
                 "distributed simulators; each set split over the ranks by city)",
                 simulator);
    cmd.AddValue("partition",
                 "with a distributed simulator: the rank of every city, e.g. NYC:0,LAX:1,... "
                 "(empty: balanced by estimated load)",
                 config.partition);
    cmd.AddValue("baseline",
                 "also run each set on ns-3's point-to-point devices and channels and default "
                 "scheduler, and "
                 "print the speed-up over it",
                 baseline);
    cmd.Parse(argc, argv);
    try
    {
        WanTopologyHelper::CheckMtu(config.mtu);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: --mtu: " << e.what() << std::endl;
        return 1;
    }
    try
    {
        WanMpi::Init(simulator);
        if (WanMpi::IsDistributed() && baseline)
        {
            throw std::invalid_argument("--baseline: runs in one process; not with --simulator=" +
                                        simulator);
        }
        const WanTopology topology = WanTopologyJson::LoadFile(config.topology);
        WanPartition::Check(config.partition, topology, WanMpi::GetSize());
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl; // a flag or the topology file
        WanMpi::Abort(1);
    }
    const bool writer = WanMpi::GetRank() == 0;
    if (writer)
    {
        PrintHeader(config);
    }
    int status = 0;
    std::vector<std::pair<std::string, TrainingApplication::Transport>> runs;
    for (const std::string& name : SplitBenchList(transports))
    {
        const auto it = std::find_if(TRANSPORTS.begin(), TRANSPORTS.end(), [&name](const auto& t) {
            return t.first == name;
        });
        if (it == TRANSPORTS.end() ||
            (it->second != TrainingApplication::PLANNED && WanMpi::IsDistributed()))
        {
            std::cerr << "error: --transports: " << WanInputError::Quote(name)
                      << ": expected planned, tcp or adaptive (tcp and adaptive in one process "
                         "only)"
                      << std::endl;
            WanMpi::Abort(1);
        }
        runs.push_back(*it);
    }
    for (const std::string& set : SplitBenchList(sets))
    {
        for (const auto& [name, transport] : runs)
        {
            // One transport: the rows keep the set's name, as before --transports.
            const std::string label = runs.size() == 1 ? set : set + " " + name;
            Measurement stock;
            if (baseline)
            {
                if (!RunChild(config, set, transport, true, stock))
                {
                    std::cout << label << " (stock) failed" << std::endl;
                    status = 1;
                    continue;
                }
                PrintRow(label + " (stock)", stock, false, 0);
            }
            Measurement m;
            // Distributed: every rank runs the set in its own process (MPI forbids forking).
            if (WanMpi::IsDistributed())
            {
                m = RunSet(config, set, transport, false);
            }
            else if (!RunChild(config, set, transport, false, m))
            {
                std::cout << label << " failed" << std::endl;
                status = 1;
                continue;
            }
            if (writer)
            {
                PrintRow(label, m, true, baseline && m.wall > 0 ? stock.wall / m.wall : 0);
            }
        }
    }
    WanMpi::Finalize();
    return status;
}
