/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * nine-city-training: the main experiment. Data-parallel training across the islands of a WAN
 * topology (by default the nine-city DoubleZero-like world), synchronised by a rotating-clique
 * schedule, packet by packet: compute, then exchange within each clique by multicast and
 * in-line FPGA aggregation where the capability set allows, with loss recovery.
 *
 * Writes rounds.csv, links.csv, summary.json (and consensus.csv with --payload=real) into
 * --output, and prints a summary table. See doc/training.rst and the output contract.
 *
 * --crossTraffic=FILE adds flows of ns-3's own applications between extra hosts at cities,
 * sharing the WAN with every WAN experiment (not the colocated reference); their goodput goes
 * to cross-traffic.csv, to each summary.json entry and under each row of the table
 * (doc/cross-traffic.rst):
 *
 *   nine-city-training --crossTraffic=examples/cross-traffic/nyc-lon-bulk.json
 *
 *   nine-city-training --capabilities=both --schedule=moshpit --modelBytes=100000000
 *
 * With --jobs=N the experiments (capability set x schedule, and the colocated reference) run
 * in up to N child processes at once; the outputs are byte for byte those of --jobs=1. Under
 * mpirun with --simulator=granted-time-window|null-message (an ns-3 built with MPI, see
 * tools/build-ns3.sh), each experiment is split over the MPI ranks by city with ns-3's
 * distributed simulator, and rank 0 writes the same outputs as one process:
 *
 *   mpirun -np 2 nine-city-training --simulator=null-message --capabilities=both
 *
 * --jobs spreads many experiments over the cores of one machine, MPI one large experiment
 * over the cores of many.
 *
 * Bounded runs: each experiment stops at --maxSimTime of simulated time (default: 1000 times
 * the plan's estimate of the whole run), and every experiment stops once the program has run
 * for --maxWallTime (default 24 h; one process only, a distributed run has --maxSimTime). A
 * stopped run still writes its results; its unfinished rounds have complete=0 in rounds.csv
 * and count in summary.json's unfinished_rounds.
 *
 * Without --output the results go to a new results/nine-city-training/<UTC time>/ and
 * results/latest links to it; an --output folder that exists must be empty.
 *
 * Exit codes (doc/training.rst):
 *   0  every round of every experiment complete, with every peer
 *   1  bad input (reported before anything runs) or another error
 *   3  results written, but partial: lost peers, unfinished rounds, a guard reached
 */

#include "ns3/chakra-step.h"
#include "ns3/child-process-pool.h"
#include "ns3/chunk-layout.h"
#include "ns3/clique-schedule-file.h"
#include "ns3/clique-schedule-helper.h"
#include "ns3/clique-schedule.h"
#include "ns3/cross-traffic-helper.h"
#include "ns3/double.h"
#include "ns3/exchange-bound.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/tcp-baseline-set.h"
#include "ns3/tcp-transport.h"
#include "ns3/training-experiment.h"
#include "ns3/training-helper.h"
#include "ns3/training-output.h"
#include "ns3/training-planner.h"
#include "ns3/training-support.h"
#include "ns3/training-table.h"
#include "ns3/training-workload.h"
#include "ns3/uinteger.h"
#include "ns3/update-format.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-mpi.h"
#include "ns3/wan-partition.h"
#include "ns3/wan-router-net-device.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-units.h"
#include "ns3/wan-wire.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

/** Largest model real payloads are allowed for (parameters live in memory as doubles). */
constexpr uint64_t MAX_REAL_MODEL_BYTES = 64ULL << 20;
/** Default --maxSimTime: this many times the plan's estimate of the run. */
constexpr double SIM_TIME_GUARD_FACTOR = 1000;
/** Smallest default --maxSimTime, s (an estimate can be tiny: one round, no compute). */
constexpr double MIN_SIM_TIME_GUARD_S = 1;
/** Default --maxWallTime: 24 hours. */
const char DEFAULT_MAX_WALL_TIME[] = "86400s";
/** Default --maxWallTime, s (DEFAULT_MAX_WALL_TIME). */
constexpr double DEFAULT_MAX_WALL_TIME_S = 24 * 3600;
/** Program name: its results folder, results/nine-city-training/. */
const char PROGRAM[] = "nine-city-training";
/** Wall seconds between progress lines. */
constexpr double PROGRESS_SECONDS = 5.0;
/**
 * The capability sets --capabilities=all runs, in order: the four edge sets, then transit
 * FPGAs alone and with every edge capability (the sets where the optimiser can choose
 * reduction trees with unicast or multicast sums).
 */
const std::vector<std::string> ALL_SETS =
    {"none", "multicast", "fpga", "both", "transit", "both+transit"};

/** A transport --transport and --baselineTransports may name. */
struct TransportChoice
{
    std::string name;                         //!< its flag value
    TrainingApplication::Transport transport; //!< what the applications run
    bool unicastOnly;                         //!< ignores multicast and FPGAs (ExchangeBound)
};

/** The TCP transport's flag value: its baselines run as a set (TcpBaselineSet). */
const char TCP_TRANSPORT[] = "tcp";

/** Every transport, in the order the flags list them: one entry each. */
const std::vector<TransportChoice> TRANSPORTS = {
    {"planned", TrainingApplication::PLANNED, false},
    {"adaptive", TrainingApplication::ADAPTIVE, false},
    {"tcp", TrainingApplication::TCP, true},
};

/**
 * \param name a transport's flag value \return its entry
 * \throws std::runtime_error for a name TRANSPORTS does not hold
 */
const TransportChoice&
FindTransport(const std::string& name)
{
    for (const TransportChoice& choice : TRANSPORTS)
    {
        if (choice.name == name)
        {
            return choice;
        }
    }
    throw std::runtime_error("unknown transport \"" + name + "\"");
}

/** Everything one experiment needs besides the topology. */
struct ExperimentConfig
{
    std::string schedule{"global"};      //!< global|ring|moshpit|gossip|exponential|FILE
    uint64_t modelBytes{100000000};      //!< M
    uint32_t rounds{10};                 //!< rounds
    Time computeTime{MilliSeconds(100)}; //!< compute time of one inner step
    uint32_t innerSteps{1};              //!< inner steps per round (H)
    uint32_t fragments{1};               //!< fragments per round (F)
    UpdateFormat updateFormat;           //!< how updates travel (--updateFormat)
    bool real{false};                    //!< real payloads
    bool sharedStart{false};             //!< real payloads: every island starts at one model
    std::string workload;                //!< --workload: Chakra ET prefix ("": none)
    std::vector<FragmentPlan> stepPlans; //!< per island, its rank's step (--workload)
    double residualDecay{1};             //!< real top-k: SparseChange's decay
    double lossRate{0};                  //!< WAN loss
    double epsilon{1e-3};                //!< consensus target
    uint32_t seed{1};                    //!< optimiser's local-search seed
    uint32_t maxPeriod{4};               //!< optimiser's largest period
    uint32_t mtu{WanWire::DEFAULT_MTU};  //!< device MTU; chunks fill it
    std::string partition;               //!< --partition (empty: balanced by load)
    double maxSimTime{0};                //!< --maxSimTime, s (0: from the plan)
    std::string transport{"planned"};    //!< --transport: planned|adaptive|tcp
    TypeId tcp;                          //!< --tcp: the TCP congestion control
    uint32_t tcpBufferBytes{0};          //!< --tcpBufferBytes (0: the path's BDP)
    uint32_t warmupRounds{0}; //!< first rounds left out of the figures (TCP: 1), run in addition
    uint32_t tcpStreams{1};   //!< --tcpStreams: connections per peer
    std::chrono::steady_clock::time_point wallDeadline; //!< start + --maxWallTime
    std::vector<CrossTrafficFlow> crossTraffic;         //!< --crossTraffic's flows (WAN runs)
};

/** Access rate of an island in the colocated reference (one data centre). */
constexpr uint64_t COLOCATED_ACCESS_BPS = 400000000000ULL;
/** Access delay of an island in the colocated reference. */
constexpr double COLOCATED_ACCESS_DELAY_S = 1e-6;

/** One experiment to run. */
struct ExperimentJob
{
    WanTopology topology;      //!< the topology with its capabilities applied
    std::string capabilities;  //!< label of the capability set
    std::string scheduleLabel; //!< "optimal", a baseline name or a schedule file
    uint32_t rounds;           //!< rounds to run
    bool crossTraffic{true};   //!< carry the --crossTraffic flows (not in the colocated run)
    std::string transport;     //!< its transport (TRANSPORTS)
    std::string label;         //!< its schedule label in the outputs (scheduleLabel, or e.g.
                               //!< "tcp-ring (TcpBbr x8)" for a --baselineTransports run)
    std::optional<TcpBaseline> tcpBaseline; //!< a TCP baseline's set-up (none: the flags')
};

/** One experiment's outputs. */
struct ExperimentResult
{
    std::string capabilities;   //!< label of the capability set
    std::string schedule;       //!< schedule label
    std::string scheduleDetail; //!< name and clique sizes
    std::string cliques;        //!< the cliques of every round, with island names
    std::string sync;           //!< how the cliques exchanged, e.g. "direct" or "tree@LAX-0"
    TrainingSummary summary;    //!< figures
    std::string roundsCsv;      //!< rounds.csv rows
    std::string consensusCsv;   //!< consensus.csv rows
    std::string linksCsv;       //!< links.csv rows
    /** Goodput of every cross-traffic flow (empty for a run without them); none: the program
     *  has no --crossTraffic */
    std::optional<std::vector<CrossTrafficResult>> cross;
    std::string crossCsv;        //!< cross-traffic.csv rows
    std::optional<bool> bestTcp; //!< a TCP baseline: whether it is the fastest of its set
};

/**
 * \brief Build the schedule named by --schedule for \p n islands.
 * \param spec the flag value \param n islands \return the schedule
 * \throws std::runtime_error for an unknown name or a bad file
 */
CliqueSchedule
MakeSchedule(const std::string& spec, uint32_t n)
{
    if (spec == "global")
    {
        return CliqueSchedule::GlobalClique(n);
    }
    if (spec == "ring")
    {
        CliqueSchedule schedule = CliqueSchedule::GlobalClique(n);
        schedule.SetAlgorithms(0, {SyncAlgorithm::RING});
        schedule.SetName("ring-allreduce");
        return schedule;
    }
    if (spec == "moshpit")
    {
        return CliqueSchedule::MoshpitGrid(n);
    }
    if (spec == "gossip")
    {
        return CliqueSchedule::GossipPairs(n);
    }
    if (spec == "exponential")
    {
        return CliqueSchedule::OnePeerExponential(n);
    }
    if (spec.empty())
    {
        throw std::runtime_error("--schedule: \"\": expected global|ring|moshpit|gossip|"
                                 "exponential|optimal or a schedule file");
    }
    CliqueSchedule schedule;
    try
    {
        schedule = CliqueScheduleFile::LoadFile(spec);
    }
    catch (const std::exception& e)
    {
        throw std::runtime_error(std::string("--schedule: ") + e.what());
    }
    if (schedule.GetIslandCount() != n)
    {
        throw std::runtime_error("--schedule: \"" + spec +
                                 "\": " + std::to_string(schedule.GetIslandCount()) +
                                 " islands, the topology has " + std::to_string(n));
    }
    return schedule;
}

/** \param topology a topology \return the capability set shared by all cities, or "mixed" */
std::string
CapabilityLabel(const WanTopology& topology)
{
    const auto& cities = topology.GetCities();
    if (cities.empty())
    {
        return "none";
    }
    for (const WanCity& city : cities)
    {
        if (!(city.caps == cities[0].caps))
        {
            return "mixed";
        }
    }
    return cities[0].caps.ToString();
}

/**
 * \brief The optimiser's best schedule for a topology and capability set.
 * \param topology the topology with its capabilities applied
 * \param config the experiment's settings (model bytes, compute, epsilon, seed, period)
 * \return the best schedule, with the algorithm of every clique
 */
CliqueSchedule
OptimalSchedule(const WanTopology& topology, const ExperimentConfig& config)
{
    CliqueScheduleHelper optimiser;
    optimiser.SetModelBytes(config.modelBytes);
    optimiser.SetComputeTime(
        TrainingApplication::ComputePhase(config.computeTime, config.innerSteps));
    if (config.fragments > 1)
    {
        // Score rounds by the sync their compute does not hide.
        optimiser.SetFragmentPlan(config.stepPlans.empty() ? FragmentPlan(config.modelBytes,
                                                                          config.fragments,
                                                                          config.innerSteps,
                                                                          config.computeTime)
                                                           : config.stepPlans.front());
    }
    optimiser.SetEpsilon(config.epsilon);
    optimiser.SetSeed(config.seed);
    optimiser.SetMaxPeriod(config.maxPeriod);
    optimiser.SetCostModelAttribute("Mtu", UintegerValue(config.mtu));
    optimiser.SetCostModelAttribute("UpdateFormat", UpdateFormatValue(config.updateFormat));
    const ScheduleSearchResult search = optimiser.Optimise(WanRouting(
        TrainingPlanner::PlannedTopology(topology, FindTransport(config.transport).unicastOnly)));
    CliqueSchedule best = search.best.schedule;
    best.SetName("optimal:" + best.GetName());
    return best;
}

/**
 * \param schedule a schedule \param topology its topology
 * \return the cliques of every round with island names, e.g. "{NYC-0 LON-0} {...} | ..."
 */
std::string
DescribeCliques(const CliqueSchedule& schedule, const WanTopology& topology)
{
    std::string text;
    for (uint32_t r = 0; r < schedule.GetPeriod(); ++r)
    {
        text += r == 0 ? "" : " | ";
        for (const Clique& clique : schedule.GetPartition(r))
        {
            text += "{";
            for (uint32_t i = 0; i < clique.size(); ++i)
            {
                text += (i == 0 ? "" : " ") + topology.GetIslands()[clique[i]].name;
            }
            text += "}";
        }
    }
    return text;
}

/**
 * \brief The colocated reference: the same islands in one data centre (one router, 400 Gbps
 *        access links, microsecond delays, no WAN).
 * \param topology the WAN topology \return the single-city topology
 */
WanTopology
ColocatedTopology(const WanTopology& topology)
{
    WanTopology dc;
    dc.SetName("colocated");
    WanCity city;
    city.code = "DC";
    city.name = "one data centre";
    const uint32_t index = dc.AddCity(city);
    for (WanIsland island : topology.GetIslands())
    {
        island.city = index;
        island.accessBps = COLOCATED_ACCESS_BPS;
        island.accessDelay = COLOCATED_ACCESS_DELAY_S;
        dc.AddIsland(island);
    }
    dc.Validate();
    return dc;
}

/**
 * \param config the settings \param estimatedSync the plan's mean sync time per round, s
 * \return the simulated-time limit of an experiment, s: --maxSimTime, or SIM_TIME_GUARD_FACTOR
 *         times the plan's estimate of its rounds (at least MIN_SIM_TIME_GUARD_S)
 */
double
SimTimeLimit(const ExperimentConfig& config, double estimatedSync)
{
    if (config.maxSimTime > 0)
    {
        return config.maxSimTime;
    }
    const double compute =
        TrainingApplication::ComputePhase(config.computeTime, config.innerSteps).GetSeconds();
    const double estimate = config.rounds * (compute + estimatedSync);
    return std::min(WanUnits::MAX_TIME_SECONDS,
                    std::max(MIN_SIM_TIME_GUARD_S, SIM_TIME_GUARD_FACTOR * estimate));
}

/** \param r a result \return its exit code: complete, or partial */
int
ResultExitCode(const ExperimentResult& r)
{
    return r.summary.IsComplete() ? WanCommandLine::EXIT_COMPLETE : WanCommandLine::EXIT_PARTIAL;
}

/**
 * \brief Place the cities on MPI ranks (TrainingPlanner::DistributeCities) and say where.
 * \param wan the helper, not installed yet \param topology the topology
 * \param schedule the schedule \param job how messages name the run
 * \param config the experiment's settings
 */
void
PartitionCities(WanTopologyHelper& wan,
                const WanTopology& topology,
                const CliqueSchedule& schedule,
                const std::string& job,
                const ExperimentConfig& config)
{
    const std::vector<uint32_t> cityRanks = TrainingPlanner::DistributeCities(wan,
                                                                              topology,
                                                                              schedule,
                                                                              config.modelBytes,
                                                                              config.rounds,
                                                                              config.partition);
    if (!cityRanks.empty() && WanMpi::GetRank() == 0)
    {
        std::cerr << "partition: " << job << ": " << WanPartition::Describe(topology, cityRanks)
                  << " (" << WanMpi::GetSimulator() << ", " << WanMpi::GetSize() << " ranks)"
                  << std::endl;
    }
}

/**
 * \brief Set the training's model, rounds, transport, workload and loss from the settings.
 * \param helper the helper \param config the experiment's settings
 */
void
ConfigureTraining(TrainingHelper& helper, const ExperimentConfig& config)
{
    helper.SetModelBytes(config.modelBytes);
    helper.SetRounds(config.rounds);
    helper.SetComputeTime(config.computeTime);
    helper.SetInnerSteps(config.innerSteps);
    helper.SetFragments(config.fragments);
    if (!config.stepPlans.empty())
    {
        helper.SetStepPlans(config.stepPlans);
    }
    helper.SetUpdateFormat(config.updateFormat);
    const TransportChoice& transport = FindTransport(config.transport);
    helper.SetTransport(transport.transport);
    if (transport.transport == TrainingApplication::TCP)
    {
        helper.SetTcpAttribute("CongestionControl", TypeIdValue(config.tcp));
        helper.SetTcpAttribute("BufferBytes", UintegerValue(config.tcpBufferBytes));
        helper.SetTcpAttribute("Streams", UintegerValue(config.tcpStreams));
    }
    if (config.real)
    {
        Ptr<QuadraticTrainingWorkload> workload = CreateObject<QuadraticTrainingWorkload>();
        workload->SetAttribute("SharedStart", BooleanValue(config.sharedStart));
        helper.SetAppAttribute("ResidualDecay", DoubleValue(config.residualDecay));
        helper.SetWorkload(workload);
        if (config.updateFormat != UpdateFormat() && config.updateFormat.IsSummable())
        {
            // The shared scale of int8 and int4: the workload's largest parameter travels as
            // the format's largest value (bf16 needs none).
            const double scale = UpdateFormat::MaxValue(config.updateFormat.GetDataEncoding()) /
                                 workload->GetParameterBound();
            helper.SetAppAttribute("Scale", DoubleValue(scale));
        }
    }
    if (config.lossRate > 0)
    {
        helper.SetWanLossRate(config.lossRate);
    }
}

/**
 * \brief Run the simulation within --maxSimTime and --maxWallTime; warn if a limit stopped it.
 * \param experiment the experiment \param helper its installed helper
 * \param capabilities the capability set's label \param job how messages name the run
 * \param config the experiment's settings
 */
void
RunWithinLimits(TrainingExperiment& experiment,
                const TrainingHelper& helper,
                const std::string& capabilities,
                const std::string& job,
                const ExperimentConfig& config)
{
    experiment.SetProgress("capabilities=" + capabilities, PROGRESS_SECONDS);
    const double simLimit = SimTimeLimit(config, helper.GetEstimatedSync());
    experiment.SetMaxSimTime(Seconds(simLimit));
    experiment.SetWallDeadline(config.wallDeadline);
    experiment.SetWarmupRounds(config.warmupRounds);
    experiment.Run();
    if (!experiment.GetStoppedBy().empty() && WanMpi::GetRank() == 0)
    {
        std::cerr << "warning: " << job << ": stopped by --" << experiment.GetStoppedBy() << " at "
                  << Simulator::Now().GetSeconds() << " s of simulated time (limit " << simLimit
                  << " s); unfinished rounds are recorded as such" << std::endl;
    }
}

/**
 * \param helper the installed helper \param topology the topology
 * \return how the cliques exchanged (the algorithms and roots the helper chose): it says why
 *         a row is as fast as it is
 */
std::string
DescribePlannedSync(const TrainingHelper& helper, const WanTopology& topology)
{
    ScheduleCandidate planned;
    planned.schedule = helper.GetSchedule();
    for (const SyncRoundEstimate& plan : helper.GetPlans())
    {
        planned.roots.push_back(plan.cliqueRoot);
    }
    std::vector<std::string> names;
    for (const WanIsland& island : topology.GetIslands())
    {
        names.push_back(island.name);
    }
    return CliqueScheduleHelper::DescribeSync(planned, names);
}

/**
 * \brief Fill a result with the run's summary, its comparison with ExchangeBound and its CSV
 *        outputs (rank 0, which gathered every island's records).
 * \param[in,out] result the result (capabilities and schedule set)
 * \param experiment the finished experiment \param helper its helper
 * \param wan the network \param cross the cross traffic, if any
 * \param config the experiment's settings
 */
void
CollectOutputs(ExperimentResult& result,
               TrainingExperiment& experiment,
               const TrainingHelper& helper,
               const WanTopologyHelper& wan,
               Ptr<CrossTrafficHelper> cross,
               const ExperimentConfig& config)
{
    const std::string& capabilities = result.capabilities;
    const std::string& scheduleLabel = result.schedule;
    result.scheduleDetail =
        helper.GetSchedule().GetName() + " " + helper.GetSchedule().DescribeCliqueSizes();
    result.summary = experiment.Summarise(config.epsilon);
    // The simulated exchanges against a bound that does not use the cost model. In fragments,
    // what follows the compute phase is at least the last fragment's exchange.
    const FragmentPlan fragments = helper.GetFragmentPlan();
    ExchangeBound bound(wan.GetRouting(),
                        fragments.GetBytes(config.fragments - 1),
                        FindTransport(config.transport).unicastOnly);
    bound.SetUpdateFormat(config.updateFormat, helper.GetCostModel()->GetChunkPayloadBytes());
    const ExchangeBound::Comparison comparison =
        bound.Compare(experiment.GetRecords(), helper.GetSchedule(), experiment.GetWarmupRounds());
    // The bound is of one format: none where the schedule's rounds name their own.
    if (comparison.exchanges > 0 && !helper.GetSchedule().HasFormats())
    {
        result.summary.meanExchange = comparison.meanExchange;
        result.summary.exchangeBound = comparison.meanBound;
    }
    std::ostringstream rounds;
    TrainingOutput::WriteRounds(rounds, experiment, capabilities, scheduleLabel);
    result.roundsCsv = rounds.str();
    std::ostringstream consensus;
    TrainingOutput::WriteConsensus(consensus, experiment, capabilities, scheduleLabel);
    result.consensusCsv = consensus.str();
    std::ostringstream links;
    TrainingOutput::WriteLinks(links, experiment, capabilities, scheduleLabel);
    result.linksCsv = links.str();
    if (cross)
    {
        result.cross = cross->GetResults();
        std::ostringstream crossCsv;
        TrainingOutput::WriteCrossTraffic(crossCsv, *result.cross, capabilities, scheduleLabel);
        result.crossCsv = crossCsv.str();
    }
}

/**
 * \brief Run one (topology, capability set, schedule) experiment and return its results.
 *
 * Self-contained: builds the network, runs it and destroys the simulator, so a caller may
 * run several experiments in a loop.
 * \param topology the topology with its capabilities applied
 * \param capabilities the label written in the outputs
 * \param schedule the schedule \param scheduleLabel its label
 * \param config the experiment's settings
 * \return the results
 */
ExperimentResult
RunExperiment(const WanTopology& topology,
              const std::string& capabilities,
              const CliqueSchedule& schedule,
              const std::string& scheduleLabel,
              const ExperimentConfig& config)
{
    const std::string job = capabilities + " / " + scheduleLabel;
    WanMpi::BeginSimulation();
    WanTopologyHelper wan;
    wan.SetMtu(config.mtu);
    PartitionCities(wan, topology, schedule, job, config);
    wan.Install(topology);
    // Cross-traffic hosts first, so that the training's queue sizing sees their links too.
    Ptr<CrossTrafficHelper> cross;
    if (!config.crossTraffic.empty())
    {
        cross = CreateObject<CrossTrafficHelper>();
        cross->Install(wan, config.crossTraffic);
    }
    TrainingHelper helper(wan, schedule);
    ConfigureTraining(helper, config);
    helper.Install();
    TrainingExperiment experiment(helper);
    RunWithinLimits(experiment, helper, capabilities, job, config);

    ExperimentResult result;
    result.sync = DescribePlannedSync(helper, topology);
    if (WanMpi::GetRank() == 0) // rank 0 gathered every island's records and writes the outputs
    {
        result.capabilities = capabilities;
        result.schedule = scheduleLabel;
        CollectOutputs(result, experiment, helper, wan, cross, config);
    }
    Simulator::Destroy();
    WanMpi::EndSimulation();
    return result;
}

/**
 * \brief The gain of each --transport run over the --baselineTransports runs: their time to
 *        epsilon over its own. TCP's is over the fastest of the TCP baselines (marked
 *        bestTcp), for every capability set; another transport's is over its run on the same
 *        capability set. The colocated reference has none.
 * \param jobs the jobs \param results their results, in job order (bestTcp set here)
 * \param transport --transport
 */
void
AddGains(const std::vector<ExperimentJob>& jobs,
         std::vector<ExperimentResult>& results,
         const std::string& transport)
{
    std::vector<size_t> tcp;
    std::vector<TrainingSummary> tcpSummaries;
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        if (jobs[j].tcpBaseline)
        {
            tcp.push_back(j);
            tcpSummaries.push_back(results[j].summary);
        }
    }
    const std::optional<size_t> best = TcpBaselineSet::FindBest(tcpSummaries);
    for (size_t k = 0; k < tcp.size(); ++k)
    {
        results[tcp[k]].bestTcp = best && *best == k;
    }
    for (size_t i = 0; i < results.size(); ++i)
    {
        const std::optional<double> own = results[i].summary.timeToEpsilon;
        if (jobs[i].transport != transport || jobs[i].capabilities == "colocated" || !own ||
            *own <= 0)
        {
            continue;
        }
        if (best)
        {
            const ExperimentResult& fastest = results[tcp[*best]];
            results[i].summary.gainOver[TCP_TRANSPORT] = *fastest.summary.timeToEpsilon / *own;
            results[i].summary.gainOverLabel[TCP_TRANSPORT] = fastest.schedule;
        }
        for (size_t j = 0; j < results.size(); ++j)
        {
            const std::optional<double> other = results[j].summary.timeToEpsilon;
            if (jobs[j].transport != transport && !jobs[j].tcpBaseline &&
                jobs[j].capabilities == jobs[i].capabilities && other)
            {
                results[i].summary.gainOver[jobs[j].transport] = *other / *own;
                results[i].summary.gainOverLabel[jobs[j].transport] = results[j].schedule;
            }
        }
    }
}

/**
 * \param queue --queue \param jobs the jobs
 * \return the line above the table that says what its figures assume: the buffers and, with
 *         TCP baselines, their set-up
 */
std::string
Assumptions(const std::string& queue, const std::vector<ExperimentJob>& jobs)
{
    std::string line =
        "buffers: every link and access queue " +
        (queue.empty() ? "as the topology file says (default " + WanQueueSpec().Describe() + ")"
                       : WanQueueSpec::Parse(queue, "--queue").Describe()) +
        " (--queue)";
    std::string tcp;
    for (const ExperimentJob& job : jobs)
    {
        if (job.tcpBaseline)
        {
            tcp += (tcp.empty() ? "" : ", ") + job.tcpBaseline->GetLabel();
        }
    }
    if (!tcp.empty())
    {
        line += "; TCP baselines: ring all-reduce over " + tcp +
                " (connections per peer), buffers of one bandwidth-delay product per peer, "
                "connections kept open (first round left out); gains are over the fastest";
    }
    return line;
}

/** \param r a result \return its summary.json entry */
nlohmann::json
ResultJson(const ExperimentResult& r)
{
    nlohmann::json entry = TrainingOutput::SummaryToJson(r.summary);
    entry["capabilities"] = r.capabilities;
    entry["schedule"] = r.schedule;
    entry["schedule_detail"] = r.scheduleDetail;
    if (r.bestTcp)
    {
        entry["best_tcp"] = *r.bestTcp;
    }
    if (r.cross)
    {
        entry["cross_traffic"] = TrainingOutput::CrossTrafficToJson(*r.cross);
    }
    return entry;
}

/**
 * \brief Write a file.
 * \param path the file \param text its content
 * \throws std::runtime_error naming the file on failure
 */
void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out)
    {
        throw std::runtime_error("--output: cannot write \"" + path + "\"");
    }
}

/**
 * \brief Build a job's schedule, then run it (RunExperiment).
 * \param job the job \param config the settings \return the results
 */
ExperimentResult
RunJob(const ExperimentJob& job, const ExperimentConfig& config)
{
    const uint32_t n = job.topology.GetIslands().size();
    ExperimentConfig jobConfig = config;
    jobConfig.transport = job.transport;
    // TCP's first round opens connections and leaves slow start: run it in addition and leave
    // it out of the figures, as training keeps its connections for thousands of rounds.
    jobConfig.warmupRounds =
        FindTransport(job.transport).transport == TrainingApplication::TCP ? 1 : 0;
    jobConfig.rounds = job.rounds + jobConfig.warmupRounds;
    if (job.tcpBaseline)
    {
        TcpTransport::LookupCongestionControl(job.tcpBaseline->congestion, jobConfig.tcp);
        jobConfig.tcpStreams = job.tcpBaseline->streams;
    }
    const CliqueSchedule schedule = job.scheduleLabel == "optimal"
                                        ? OptimalSchedule(job.topology, jobConfig)
                                        : MakeSchedule(job.scheduleLabel, n);
    if (!job.crossTraffic)
    {
        jobConfig.crossTraffic.clear();
    }
    ExperimentResult result =
        RunExperiment(job.topology, job.capabilities, schedule, job.label, jobConfig);
    if (!config.crossTraffic.empty() && !result.cross)
    {
        result.cross.emplace(); // a run without the flows: none to report
    }
    result.cliques = schedule.GetName() + ": " + DescribeCliques(schedule, job.topology) + " (" +
                     result.sync + ")";
    return result;
}

/** \param r a result \return everything in it, for a child process to hand to its parent */
nlohmann::json
PartJson(const ExperimentResult& r)
{
    nlohmann::json part = ResultJson(r);
    part["cliques"] = r.cliques;
    part["rounds_csv"] = r.roundsCsv;
    part["consensus_csv"] = r.consensusCsv;
    part["links_csv"] = r.linksCsv;
    part["cross_csv"] = r.crossCsv;
    return part;
}

/** \param part what PartJson wrote \return the result it holds (the inverse of PartJson) */
ExperimentResult
PartResult(const nlohmann::json& part)
{
    ExperimentResult r;
    r.capabilities = part.at("capabilities").get<std::string>();
    r.schedule = part.at("schedule").get<std::string>();
    r.scheduleDetail = part.at("schedule_detail").get<std::string>();
    r.cliques = part.at("cliques").get<std::string>();
    r.roundsCsv = part.at("rounds_csv").get<std::string>();
    r.consensusCsv = part.at("consensus_csv").get<std::string>();
    r.linksCsv = part.at("links_csv").get<std::string>();
    r.summary = TrainingOutput::SummaryFromJson(part);
    r.crossCsv = part.at("cross_csv").get<std::string>();
    if (part.contains("cross_traffic"))
    {
        r.cross = TrainingOutput::CrossTrafficFromJson(part.at("cross_traffic"));
    }
    return r;
}

/**
 * \param job a TCP baseline's job \param signal what ended its process
 * \return its result: no round finished, and a note that says why
 */
ExperimentResult
CrashedResult(const ExperimentJob& job, int signal)
{
    ExperimentResult r;
    r.capabilities = job.capabilities;
    r.schedule = job.label;
    r.scheduleDetail = job.scheduleLabel;
    r.cliques = job.scheduleLabel + ": (ns-3 crashed)";
    r.summary.transport = job.transport;
    r.summary.unfinishedRounds = job.rounds + 1;
    r.summary.transportNote = "ns-3 crashed in this run (signal " + std::to_string(signal) +
                              "): no round is counted; see \"Known ns-3 defects\" in "
                              "doc/training.rst";
    return r;
}

/** \param job a job \return how messages name it, e.g. "fpga / optimal" */
std::string
JobName(const ExperimentJob& job)
{
    return job.capabilities + " / " + job.label;
}

/** How the children of RunJobsInChildren ended, beyond a complete or partial result. */
struct JobEndings
{
    std::vector<std::string> failed; //!< jobs that failed, by name, in the order they ended
    std::map<size_t, int> crashed;   //!< TCP baselines that ns-3 crashed in: their signals
};

/**
 * \brief The folder of the children's results, \p output/.parts, created here.
 * \param output the output folder \return the folder's path
 * \throws std::runtime_error when it cannot be created
 */
std::string
MakePartsFolder(const std::string& output)
{
    const std::string parts = output + "/.parts";
    if (mkdir(parts.c_str(), 0755) != 0 && errno != EEXIST)
    {
        throw std::runtime_error("--output: cannot create \"" + parts +
                                 "\": " + std::strerror(errno));
    }
    return parts;
}

/** \param parts the parts folder \param index a job \return the file of its result */
std::string
PartPath(const std::string& parts, size_t index)
{
    return parts + "/" + std::to_string(index) + ".json";
}

/**
 * \brief Run the jobs one after the other in this process.
 * \param jobs the jobs \param config the settings
 * \param[in,out] exitCode combined with each job's code \return their results, in order
 */
std::vector<ExperimentResult>
RunJobsHere(const std::vector<ExperimentJob>& jobs, const ExperimentConfig& config, int& exitCode)
{
    std::vector<ExperimentResult> results;
    for (const ExperimentJob& job : jobs)
    {
        results.push_back(RunJob(job, config));
        exitCode = WanCommandLine::CombineExitCodes(exitCode, ResultExitCode(results.back()));
    }
    return results;
}

/**
 * \brief Run the jobs in child processes (ChildProcessPool), each writing its result into
 *        the parts folder; tell apart partial results, TCP baselines that ns-3 crashed in (a
 *        baseline that did not finish) and failures.
 * \param jobs the jobs \param config the settings \param workers processes at once
 * \param parts the parts folder \param[in,out] exitCode combined with each child's code
 * \return the crashes and the failures
 */
JobEndings
RunJobsInChildren(const std::vector<ExperimentJob>& jobs,
                  const ExperimentConfig& config,
                  uint32_t workers,
                  const std::string& parts,
                  int& exitCode)
{
    JobEndings endings;
    auto task = [&](size_t index) {
        try
        {
            const ExperimentResult result = RunJob(jobs[index], config);
            WriteFile(PartPath(parts, index), PartJson(result).dump());
            return ResultExitCode(result);
        }
        catch (const std::exception& e)
        {
            std::cerr << "error: " << JobName(jobs[index]) << ": " << e.what() << std::endl;
        }
        return WanCommandLine::EXIT_BAD_INPUT;
    };
    auto ended = [&](size_t index, const ChildProcessPool::Ending& ending) {
        int code = ending.signalled ? WanCommandLine::EXIT_BAD_INPUT : ending.code;
        if (ending.signalled && jobs[index].tcpBaseline)
        {
            endings.crashed[index] = ending.signal;
            code = WanCommandLine::EXIT_PARTIAL;
            std::cerr << "warning: " << JobName(jobs[index]) << ": ns-3 crashed (signal "
                      << ending.signal << "); recorded as not finished" << std::endl;
        }
        if (code != WanCommandLine::EXIT_COMPLETE && code != WanCommandLine::EXIT_PARTIAL)
        {
            endings.failed.push_back(JobName(jobs[index]));
        }
        exitCode = WanCommandLine::CombineExitCodes(exitCode, code);
    };
    ChildProcessPool::Run(jobs.size(), workers, task, ended);
    return endings;
}

/**
 * \brief Read the children's results back in job order and remove the parts folder.
 * \param jobs the jobs \param parts the parts folder \param endings how the children ended
 * \return one result per job, in order
 * \throws std::runtime_error naming every job that failed or left no result
 */
std::vector<ExperimentResult>
ReadParts(const std::vector<ExperimentJob>& jobs, const std::string& parts, JobEndings& endings)
{
    std::vector<ExperimentResult> results;
    for (size_t i = 0; i < jobs.size(); ++i)
    {
        std::ifstream in(PartPath(parts, i), std::ios::binary);
        if (endings.failed.empty() && endings.crashed.count(i) > 0)
        {
            results.push_back(CrashedResult(jobs[i], endings.crashed[i]));
        }
        else if (endings.failed.empty())
        {
            if (!in)
            {
                endings.failed.push_back(JobName(jobs[i]) + " (no result file)");
                continue;
            }
            results.push_back(PartResult(nlohmann::json::parse(in)));
        }
        in.close();
        std::remove(PartPath(parts, i).c_str());
    }
    rmdir(parts.c_str());
    if (!endings.failed.empty())
    {
        std::string names;
        for (const std::string& name : endings.failed)
        {
            names += (names.empty() ? "" : ", ") + name;
        }
        throw std::runtime_error("experiments failed: " + names);
    }
    return results;
}

/**
 * \brief Run the jobs, up to \p workers at a time in child processes (in this process when
 *        workers is 1 and no job is a TCP baseline), and return their results in job order.
 *
 * A TCP baseline always runs in a child, even with one worker: ns-3's TCP can crash (see
 * "Known ns-3 defects" in doc/training.rst), and the crash must end that baseline, recorded
 * as not finished, not the whole run.
 *
 * Each child runs one job and writes its result as JSON into \p output/.parts; the parent
 * reads them back in order, so the outputs do not depend on the number of workers. A child
 * exits with its result's code (ResultExitCode); the parent combines them.
 * \param jobs the jobs \param config the settings \param workers processes at once
 * \param output the output folder \param exitCode receives the jobs' combined exit code
 * \return one result per job, in order
 * \throws std::runtime_error naming every job that failed
 */
std::vector<ExperimentResult>
RunJobs(const std::vector<ExperimentJob>& jobs,
        const ExperimentConfig& config,
        uint32_t workers,
        const std::string& output,
        int& exitCode)
{
    exitCode = WanCommandLine::EXIT_COMPLETE;
    const bool tcpBaselines = std::any_of(jobs.begin(), jobs.end(), [](const ExperimentJob& job) {
        return job.tcpBaseline;
    });
    if ((workers <= 1 || jobs.size() <= 1) && !tcpBaselines)
    {
        return RunJobsHere(jobs, config, exitCode);
    }
    const std::string parts = MakePartsFolder(output);
    JobEndings endings = RunJobsInChildren(jobs, config, workers, parts, exitCode);
    return ReadParts(jobs, parts, endings);
}

/**
 * \brief The example's body (RunMain turns exceptions into "error: ..." and exit code 1).
 * \param argc argument count \param argv arguments \return exit code
 */
/** The flags Main reads besides ExperimentConfig's, and what it derives from them. */
struct MainFlags
{
    double computeSeconds{0};                         //!< --computeTime, s
    std::string payload{"virtual"};                   //!< --payload
    uint64_t wanBps{0};                               //!< --wanBandwidth (0: the file's)
    uint64_t accessBps{0};                            //!< --accessBandwidth (0: the file's)
    bool baselines{true};                             //!< --baselines
    bool colocated{true};                             //!< --colocated
    uint32_t baselineRounds{0};                       //!< --baselineRounds (0: --rounds)
    uint32_t workers{1};                              //!< --jobs
    double maxWallSeconds{DEFAULT_MAX_WALL_TIME_S};   //!< --maxWallTime, s
    std::string simulator{WanMpi::DEFAULT_SIMULATOR}; //!< --simulator
    std::string baselineTransports;                   //!< --baselineTransports as given
    std::vector<std::string> extraTransports;         //!< its transports, checked
};

/** \return the flag values of TRANSPORTS, in order */
std::vector<std::string>
TransportNames()
{
    std::vector<std::string> names;
    for (const TransportChoice& choice : TRANSPORTS)
    {
        names.push_back(choice.name);
    }
    return names;
}

/**
 * \brief Flags of the workload and the WAN: schedule, model, rounds, compute, payload, loss, rates,
 * epsilon. \param cmd the command line \param config receives the experiment's flags \param main
 * receives the others
 */
void
AddWorkloadFlags(WanCommandLine& cmd, ExperimentConfig& config, MainFlags& main)
{
    WanFlags& flags = cmd.Flags();
    const WanFlagRange anyDuration{0, WanUnits::MAX_TIME_SECONDS, false, false};
    cmd.Get().AddValue("schedule",
                       "global|ring|moshpit|gossip|exponential|optimal or a schedule file",
                       config.schedule);
    flags.AddUnsigned("modelBytes",
                      "bytes of each island's update",
                      config.modelBytes,
                      1,
                      ChunkLayout::MAX_MODEL_BYTES,
                      ChunkLayout::MAX_MODEL_BYTES_REASON);
    flags.AddUnsigned("rounds", "training rounds", config.rounds, 1, WanCommandLine::MAX_ROUNDS);
    flags.AddDuration("computeTime",
                      "compute time of one inner step, e.g. 100ms (DiLoCo's step time)",
                      main.computeSeconds,
                      "100ms",
                      anyDuration);
    flags.AddUpdateFormat("updateFormat",
                          "how each island's update travels: bytes per element, and whether "
                          "FPGAs sum it (other formats than int32: DIRECT cliques, planned or "
                          "adaptive transport; real topk: --sharedStart and --schedule=global)",
                          config.updateFormat);
    flags.AddUnsigned("innerSteps",
                      "inner steps of local compute per round before it synchronises (DiLoCo's "
                      "H; real payloads take them on each island's own objective)",
                      config.innerSteps,
                      1,
                      TrainingApplication::MAX_INNER_STEPS);
    flags.AddUnsigned("fragments",
                      "fragments each round's update is synchronised in, fragment f after "
                      "floor(H (f+1) / F) inner steps while later ones compute (Streaming "
                      "DiLoCo; at most --innerSteps; virtual payloads, planned or adaptive "
                      "transport)",
                      config.fragments,
                      1,
                      TrainingApplication::MAX_INNER_STEPS);
    cmd.Get().AddValue("payload", "virtual|real", main.payload);
    cmd.Get().AddValue("workload",
                       "Chakra execution traces PREFIX.<rank>.et: island i runs rank i's step "
                       "as each round (its compute, its gradient buckets sent as they are "
                       "ready); replaces --modelBytes, --computeTime, --innerSteps and "
                       "--fragments (virtual payloads, planned or adaptive transport)",
                       config.workload);
    cmd.Get().AddValue("sharedStart",
                       "with --payload=real, every island starts from one model (island 0's "
                       "draw) as DiLoCo's replicas do; real topk needs it",
                       config.sharedStart);
    flags.AddReal("residualDecay",
                  "with --payload=real and topk, what of the part of earlier changes not yet sent "
                  "each change carries (1: error feedback, 0: none)",
                  config.residualDecay,
                  WanFlagRange{0, 1, false, false});
    flags.AddReal("lossRate",
                  "per-packet loss on every WAN link",
                  config.lossRate,
                  WanFlagRange{0, 1, false, true});
    flags.AddRate("wanBandwidth",
                  "rate of every WAN link, e.g. 100Gbps (empty: file's)",
                  main.wanBps);
    flags.AddRate("accessBandwidth",
                  "rate of every access link, e.g. 10Gbps (empty: file's)",
                  main.accessBps);
    flags.AddReal("epsilon",
                  "consensus target for rounds to epsilon",
                  config.epsilon,
                  WanFlagRange{0, 1, true, true});
}

/**
 * \brief Flags of what the run is compared with: baselines, colocated reference, optimiser.
 * \param cmd the command line \param config receives the experiment's flags
 * \param main receives the others
 */
void
AddComparisonFlags(WanCommandLine& cmd, ExperimentConfig& config, MainFlags& main)
{
    WanFlags& flags = cmd.Flags();
    cmd.Get().AddValue("baselines",
                       "with --schedule=optimal, also run the global-clique and ring baselines",
                       main.baselines);
    cmd.Get().AddValue("colocated",
                       "also simulate the colocated reference (one data centre, ring "
                       "all-reduce) and report the gap to it",
                       main.colocated);
    flags.AddUnsigned("maxPeriod",
                      "largest period the optimiser considers",
                      config.maxPeriod,
                      1,
                      WanCommandLine::MAX_PERIOD);
    flags.AddUnsigned("baselineRounds",
                      "rounds of the baselines and the colocated reference (0: --rounds); "
                      "their period is 1 and one round reaches exact consensus",
                      main.baselineRounds,
                      0,
                      WanCommandLine::MAX_ROUNDS);
}

/**
 * \brief Flags of how the run runs: jobs, MTU, time limits, cross traffic, MPI.
 * \param cmd the command line \param config receives the experiment's flags
 * \param main receives the others
 */
void
AddRunFlags(WanCommandLine& cmd, ExperimentConfig& config, MainFlags& main)
{
    WanFlags& flags = cmd.Flags();
    const WanFlagRange positiveDuration{0, WanUnits::MAX_TIME_SECONDS, true, false};
    flags.AddUnsigned("jobs",
                      "experiments run at once, in child processes (outputs do not depend on "
                      "it)",
                      main.workers,
                      1,
                      WanCommandLine::MAX_JOBS);
    flags.AddUnsigned("mtu",
                      "MTU of every link, bytes; gradient chunks fill it, so a larger MTU means "
                      "fewer, larger packets",
                      config.mtu,
                      WanTopologyHelper::MIN_MTU,
                      WanTopologyHelper::MAX_MTU);
    flags.AddDuration("maxSimTime",
                      "simulated time after which each experiment stops, its unfinished rounds "
                      "recorded, e.g. 60s (empty: 1000 times the plan's estimate of the run)",
                      config.maxSimTime,
                      "",
                      positiveDuration);
    flags.AddDuration("maxWallTime",
                      "wall-clock time after which every experiment stops, its unfinished "
                      "rounds recorded (one process; under MPI only --maxSimTime applies)",
                      main.maxWallSeconds,
                      DEFAULT_MAX_WALL_TIME,
                      positiveDuration);
    cmd.AddCrossTrafficFlag();
    cmd.Get().AddValue("simulator",
                       "default (one process) or, under mpirun with an ns-3 built with MPI, "
                       "granted-time-window|null-message: ns-3's distributed simulators, each "
                       "experiment split over the ranks by city (results do not depend on the "
                       "number of ranks)",
                       main.simulator);
    cmd.Get().AddValue("partition",
                       "with a distributed simulator: the rank of every city, e.g. "
                       "NYC:0,LAX:1,... (empty: balanced by the plan's estimated load)",
                       config.partition);
}

/**
 * \brief Flags of the transports: --transport, the baselines' transports, TCP.
 * \param cmd the command line \param config receives the experiment's flags
 * \param main receives the others
 */
void
AddTransportFlags(WanCommandLine& cmd, ExperimentConfig& config, MainFlags& main)
{
    WanFlags& flags = cmd.Flags();
    flags.AddChoice("transport",
                    "how exchanges reach the wire: planned (paced at the plan's rates over UDP, "
                    "with multicast and FPGA aggregation where the capabilities allow), "
                    "adaptive (the same, each stream's rate from ECN marks and loss) or tcp "
                    "(ns-3 TCP connections, unicast, without multicast and FPGAs)",
                    config.transport,
                    TransportNames());
    cmd.Get().AddValue("baselineTransports",
                       "with --schedule=optimal and --baselines: comma-separated transports "
                       "each capability set also runs ring all-reduce over, as a baseline "
                       "labelled e.g. tcp-ring, e.g. tcp (empty: none)",
                       main.baselineTransports);
    TypeIdValue congestion;
    CreateObject<TcpTransport>()->GetAttribute("CongestionControl", congestion);
    config.tcp = congestion.Get();
    flags.AddCongestionControl("tcp",
                               "with --transport=tcp: the TCP congestion control of ns-3, e.g. "
                               "TcpCubic, TcpBbr, TcpNewReno",
                               config.tcp);
    flags.AddUnsigned("tcpBufferBytes",
                      "with --transport=tcp: send and receive buffer per peer, bytes, shared by "
                      "its --tcpStreams connections (0: the path's bandwidth-delay product)",
                      config.tcpBufferBytes,
                      0,
                      std::numeric_limits<uint32_t>::max());
    flags.AddUnsigned("tcpStreams",
                      "with --transport=tcp: TCP connections per peer, each message dealt to one "
                      "of them in turn",
                      config.tcpStreams,
                      1,
                      TcpTransport::MAX_STREAMS);
}

/**
 * \brief The program's flag table, in the order --help lists it.
 * \param cmd the command line \param config receives the experiment's flags
 * \param main receives the others
 */
void
AddFlags(WanCommandLine& cmd, ExperimentConfig& config, MainFlags& main)
{
    AddWorkloadFlags(cmd, config, main);
    AddComparisonFlags(cmd, config, main);
    AddRunFlags(cmd, config, main);
    AddTransportFlags(cmd, config, main);
}

/**
 * \brief Refuse an --updateFormat other than int32 where the run would need what it does not
 *        support (TrainingSupport): bf16 and top-k with real payloads, or in the ring
 *        all-reduce of the colocated reference and the ring baselines.
 * \param config the experiment \param main the other flags \param run the run's request
 * \throws std::runtime_error naming --updateFormat and the flag to change
 */
void
CheckUpdateFormat(const ExperimentConfig& config,
                  const MainFlags& main,
                  const TrainingRunRequest& run)
{
    if (!run.compressed)
    {
        return;
    }
    TrainingRunRequest ring = run;
    ring.ringAllReduce = true;
    std::string refusal = TrainingSupport::Refusal(run);
    const std::string ringRefusal = TrainingSupport::Refusal(ring);
    if (refusal.empty() && !ringRefusal.empty() && main.colocated)
    {
        refusal = "the colocated reference is ring all-reduce, and " + ringRefusal +
                  "; add --colocated=false";
    }
    else if (refusal.empty() && !ringRefusal.empty() &&
             (config.schedule == "ring" || (config.schedule == "optimal" && main.baselines)))
    {
        refusal = "the ring schedule is ring all-reduce, and " + ringRefusal +
                  (config.schedule == "ring" ? "" : "; add --baselines=false");
    }
    if (!refusal.empty())
    {
        throw std::runtime_error(
            WanFlags::Rejection("updateFormat", config.updateFormat.ToString(), refusal));
    }
}

/**
 * \brief Refuse --fragments that cannot run: more fragments than inner steps or elements,
 *        with real payloads or the tcp transport, or with today's TCP baselines (whole rounds).
 * \param config the settings \param main the other flags
 * \throws std::runtime_error naming --fragments
 */
void
CheckFragments(const ExperimentConfig& config, const MainFlags& main)
{
    // What TrainingSupport says of fragments alone with this transport and payload.
    TrainingRunRequest run;
    run.fragments = config.fragments > 1;
    run.tcp = FindTransport(config.transport).transport == TrainingApplication::TCP;
    run.realPayloads = config.real;
    std::string refusal =
        FragmentPlan::Problem(config.fragments, config.innerSteps, config.modelBytes);
    if (refusal.empty())
    {
        refusal = TrainingSupport::Refusal(run);
    }
    if (refusal.empty() && run.fragments && config.schedule == "optimal" && main.baselines)
    {
        refusal = "the baselines run today's ring all-reduce over TCP in whole rounds; add "
                  "--baselines=false";
    }
    if (!refusal.empty())
    {
        throw std::runtime_error(
            WanFlags::Rejection("fragments", std::to_string(config.fragments), refusal));
    }
}

/**
 * \brief Refuse --workload where its rounds cannot run: real payloads, the tcp transport,
 *        fragments of its own, today's TCP baselines (whole rounds).
 * \param config the settings \param main the other flags
 * \throws std::runtime_error naming --workload
 */
void
CheckWorkload(const ExperimentConfig& config, const MainFlags& main)
{
    std::string refusal;
    if (config.real || FindTransport(config.transport).transport == TrainingApplication::TCP ||
        config.fragments > 1)
    {
        refusal = "a trace's rounds run with virtual payloads over the planned or adaptive "
                  "transport, in the trace's own buckets (drop --payload=real, --transport=tcp "
                  "and --fragments)";
    }
    else if (config.schedule == "optimal" && main.baselines)
    {
        refusal = "the baselines run today's ring all-reduce over TCP in whole rounds; add "
                  "--baselines=false";
    }
    if (!config.workload.empty() && !refusal.empty())
    {
        throw std::runtime_error(WanFlags::Rejection("workload", config.workload, refusal));
    }
}

/**
 * \brief Read --workload: island i runs the step of rank i's trace (ChakraStep); the model
 *        is the buckets' bytes and the compute phase the step's.
 * \param config the settings (stepPlans, modelBytes, computeTime, innerSteps set)
 * \param islands the topology's islands
 * \throws std::runtime_error naming --workload, the file and (ChakraTraceError) the node
 */
void
LoadWorkload(ExperimentConfig& config, uint32_t islands)
{
    if (config.workload.empty())
    {
        return;
    }
    const std::string flag = "--workload=" + config.workload + ": ";
    for (uint32_t i = 0; i < islands; ++i)
    {
        const std::string file = config.workload + "." + std::to_string(i) + ".et";
        try
        {
            const ChakraStep step(ChakraTrace::Read(WanCommandLine::ResolveDataPath(file)));
            config.stepPlans.push_back(step.MakePlan());
        }
        catch (const ChakraTraceError& e)
        {
            throw std::runtime_error(flag + e.what() + " (island " + std::to_string(i) +
                                     " runs rank " + std::to_string(i) + ")");
        }
        if (!config.stepPlans.back().HasSameFragments(config.stepPlans.front()))
        {
            throw std::runtime_error(flag + file +
                                     ": its buckets differ from rank 0's: "
                                     "data-parallel ranks synchronise the same buckets");
        }
    }
    config.modelBytes = config.stepPlans.front().GetModelBytes();
    config.computeTime = config.stepPlans.front().GetComputePhase();
    config.innerSteps = 1;
    config.fragments = config.stepPlans.front().GetFragments(); // its buckets
}

/**
 * \brief Derive the flags' values and refuse what cannot run, before anything is built.
 * \param cmd the parsed command line \param config completed \param main completed
 * \param start when the program started (--maxWallTime counts from it)
 * \throws std::runtime_error naming the flag
 */
void
CheckFlags(const WanCommandLine& cmd,
           ExperimentConfig& config,
           MainFlags& main,
           std::chrono::steady_clock::time_point start)
{
    config.seed = cmd.GetSeed();
    config.computeTime = Seconds(main.computeSeconds);
    const std::string phaseProblem =
        TrainingApplication::ComputePhaseProblem(main.computeSeconds, config.innerSteps);
    if (!phaseProblem.empty())
    {
        throw std::runtime_error("--innerSteps: " + phaseProblem);
    }
    config.wallDeadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>(main.maxWallSeconds));
    main.baselineRounds = main.baselineRounds == 0 ? config.rounds : main.baselineRounds;
    if (main.payload != "virtual" && main.payload != "real")
    {
        throw std::runtime_error("--payload: \"" + main.payload + "\": expected virtual|real");
    }
    config.real = main.payload == "real";
    if (config.real && config.modelBytes > MAX_REAL_MODEL_BYTES)
    {
        throw std::runtime_error(WanFlags::Rejection("modelBytes",
                                                     std::to_string(config.modelBytes),
                                                     "--payload=real allows at most " +
                                                         std::to_string(MAX_REAL_MODEL_BYTES)));
    }
    TrainingRunRequest run;
    run.processes = WanMpi::GetSize();
    run.realPayloads = config.real;
    run.sharedStart = config.sharedStart;
    TrainingSupport::NoteFormat(config.updateFormat, run);
    CheckUpdateFormat(config, main, run);
    CheckFragments(config, main);
    CheckWorkload(config, main);
    TrainingSupport::Check(run); // before any rank builds the network
    // The transports of the --baselineTransports runs, each known and other than --transport.
    const std::vector<std::string> transportNames = TransportNames();
    std::istringstream transportList(main.baselineTransports);
    for (std::string name; std::getline(transportList, name, ',');)
    {
        std::string expected;
        for (const std::string& known : transportNames)
        {
            expected += (expected.empty() ? "" : "|") + known;
        }
        std::string problem;
        if (std::find(transportNames.begin(), transportNames.end(), name) == transportNames.end())
        {
            problem = "\"" + name + "\": expected " + expected;
        }
        else if (name == config.transport)
        {
            problem = "\"" + name + "\" is --transport's own";
        }
        else if (std::find(main.extraTransports.begin(), main.extraTransports.end(), name) !=
                 main.extraTransports.end())
        {
            problem = "\"" + name + "\" named twice";
        }
        if (!problem.empty())
        {
            throw std::runtime_error(
                WanFlags::Rejection("baselineTransports", main.baselineTransports, problem));
        }
        main.extraTransports.push_back(name);
    }
    std::vector<std::string> allTransports = main.extraTransports;
    allTransports.push_back(config.transport);
    for (const std::string& name : allTransports)
    {
        TrainingRunRequest transportRun = run;
        transportRun.tcp = FindTransport(name).transport == TrainingApplication::TCP;
        const std::string refusal = TrainingSupport::Refusal(transportRun);
        if (!refusal.empty())
        {
            throw std::runtime_error(
                WanFlags::Rejection(name == config.transport ? "transport" : "baselineTransports",
                                    name,
                                    refusal));
        }
    }
    if (main.workers > 1 && WanMpi::GetSize() > 1)
    {
        throw std::runtime_error("--jobs: " + std::to_string(main.workers) +
                                 ": experiments run one after the other under MPI (each is "
                                 "split over the ranks); use --jobs=1");
    }
    if (!config.partition.empty() && WanMpi::GetSize() == 1)
    {
        throw std::runtime_error("--partition: needs a distributed run (mpirun -np R with "
                                 "--simulator=granted-time-window|null-message)");
    }
}

/**
 * \brief Refuse a distributed run the topology or the cross traffic cannot have.
 * \param config the experiment (its cross traffic loaded) \param loaded the topology
 */
void
CheckDistribution(const ExperimentConfig& config, const WanTopology& loaded)
{
    TrainingRunRequest run;
    run.processes = WanMpi::GetSize();
    run.crossTraffic = !config.crossTraffic.empty();
    const std::string refusal = TrainingSupport::Refusal(run);
    if (!refusal.empty())
    {
        throw std::runtime_error("--crossTraffic: " + refusal);
    }
    if (WanMpi::GetSize() > 1)
    {
        try
        {
            WanPartition::Check(config.partition, loaded, WanMpi::GetSize());
        }
        catch (const std::invalid_argument& e)
        {
            throw std::runtime_error(std::string("mpirun -np ") +
                                     std::to_string(WanMpi::GetSize()) + ": " + e.what());
        }
    }
}

/**
 * \param config the experiment \param main the other flags \param n islands
 * \return the schedules each capability set runs: --schedule's, or the optimiser's choice plus
 *         the global-clique and ring baselines; each checked before anything runs
 */
std::vector<std::string>
ScheduleSpecs(const ExperimentConfig& config, const MainFlags& main, uint32_t n)
{
    std::vector<std::string> specs = {config.schedule};
    if (config.schedule == "optimal" && main.baselines)
    {
        specs = {"optimal", "global", "ring"};
    }
    for (const std::string& spec : specs)
    {
        // Reject a bad name or file, or cliques the update format cannot run, before
        // anything runs.
        TrainingRunRequest run;
        run.realPayloads = config.real;
        run.sharedStart = config.sharedStart;
        TrainingSupport::NoteFormat(config.updateFormat, run);
        if (spec == "optimal")
        {
            run.partialCliques = n > 1; // the optimiser may split the islands
        }
        else
        {
            const CliqueSchedule schedule = MakeSchedule(spec, n);
            TrainingSupport::NoteFormats(schedule, config.updateFormat, run);
            TrainingSupport::NoteAlgorithms(schedule, run);
        }
        const std::string refusal = TrainingSupport::Refusal(run);
        if (!refusal.empty())
        {
            throw std::runtime_error(WanFlags::Rejection("schedule", spec, refusal));
        }
    }
    return specs;
}

/**
 * \brief The experiments of the run: per capability set each schedule, the baselines over other
 *        transports, today's TCP set-ups once, and the colocated reference last.
 * \param loaded the topology \param capabilities --capabilities ("all": the four sets)
 * \param specs the schedules (ScheduleSpecs) \param config the experiment
 * \param main the other flags \return the jobs, in output order
 */
std::vector<ExperimentJob>
PlanJobs(const WanTopology& loaded,
         const std::string& capabilities,
         const std::vector<std::string>& specs,
         const ExperimentConfig& config,
         const MainFlags& main)
{
    // One experiment per capability set: the file's (or --capabilities), or all four.
    std::vector<std::pair<std::string, WanTopology>> runs;
    if (capabilities == "all")
    {
        for (const std::string& set : ALL_SETS)
        {
            WanTopology topology = loaded;
            topology.SetCapabilities(WanCapabilities::Parse(set, "--capabilities"));
            runs.emplace_back(set, topology);
        }
    }
    else
    {
        runs.emplace_back(CapabilityLabel(loaded), loaded);
    }

    std::vector<ExperimentJob> jobs;
    for (const auto& run : runs)
    {
        for (const std::string& spec : specs)
        {
            // The baselines --schedule=optimal adds may run fewer rounds (--baselineRounds).
            const bool added = spec != config.schedule;
            jobs.push_back({run.second,
                            run.first,
                            spec,
                            added ? main.baselineRounds : config.rounds,
                            true,
                            config.transport,
                            spec,
                            std::nullopt});
        }
        if (config.schedule != "optimal" || !main.baselines)
        {
            continue;
        }
        for (const std::string& name : main.extraTransports)
        {
            // What today's software runs on the same WAN: ring all-reduce over the transport
            // (TCP's below, once).
            if (name != TCP_TRANSPORT)
            {
                jobs.push_back({run.second,
                                run.first,
                                "ring",
                                main.baselineRounds,
                                true,
                                name,
                                name + "-ring",
                                std::nullopt});
            }
        }
    }
    if (config.schedule == "optimal" && main.baselines &&
        std::find(main.extraTransports.begin(), main.extraTransports.end(), TCP_TRANSPORT) !=
            main.extraTransports.end())
    {
        // Today's passive WAN at its best: ring all-reduce over TCP in each set-up of the set,
        // once (TCP uses neither multicast nor FPGAs); the fastest is the baseline.
        WanTopology passive = loaded;
        passive.SetCapabilities(WanCapabilities());
        for (const TcpBaseline& tcp : TcpBaselineSet::GetDefault())
        {
            jobs.push_back({passive,
                            "none",
                            "ring",
                            main.baselineRounds,
                            true,
                            TCP_TRANSPORT,
                            std::string(TCP_TRANSPORT) + "-ring (" + tcp.GetLabel() + ")",
                            tcp});
        }
    }
    if (main.colocated)
    {
        // The same workload in one data centre with ring all-reduce: the gap is the ratio of
        // times to epsilon-consensus.
        jobs.push_back({ColocatedTopology(loaded),
                        "colocated",
                        "ring",
                        main.baselineRounds,
                        false,
                        config.transport,
                        "ring",
                        std::nullopt});
    }
    return jobs;
}

/**
 * \brief Compare every result with the colocated reference, the last one.
 * \param results the results, the colocated reference last
 */
void
CompareToColocated(std::vector<ExperimentResult>& results)
{
    const std::optional<double> referenceTime = results.back().summary.timeToEpsilon;
    for (ExperimentResult& r : results)
    {
        r.summary.colocatedTimeToEpsilon = referenceTime;
        if (referenceTime && *referenceTime > 0 && r.summary.timeToEpsilon)
        {
            r.summary.gapToColocated = *r.summary.timeToEpsilon / *referenceTime;
        }
    }
}

/**
 * \brief Write rounds.csv, links.csv, consensus.csv (real payloads), cross-traffic.csv (with
 *        cross traffic) and summary.json (the flags, every result, the exit code).
 * \param cmd the command line \param config the experiment \param main the other flags
 * \param loaded the topology \param results the results \param exitCode the run's exit code
 * \param output the results folder
 */
void
WriteOutputs(WanCommandLine& cmd,
             const ExperimentConfig& config,
             const MainFlags& main,
             const WanTopology& loaded,
             const std::vector<ExperimentResult>& results,
             int exitCode,
             const std::string& output)
{
    WanFlags& flags = cmd.Flags();
    std::ostringstream rounds;
    std::ostringstream links;
    std::ostringstream consensus;
    std::ostringstream crossTraffic;
    TrainingOutput::WriteRoundsHeader(rounds, config.fragments > 1);
    TrainingOutput::WriteCrossTrafficHeader(crossTraffic);
    TrainingOutput::WriteLinksHeader(links);
    TrainingOutput::WriteConsensusHeader(consensus);
    nlohmann::json resultList = nlohmann::json::array();
    for (const ExperimentResult& r : results)
    {
        rounds << r.roundsCsv;
        links << r.linksCsv;
        consensus << r.consensusCsv;
        crossTraffic << r.crossCsv;
        resultList.push_back(ResultJson(r));
    }
    WriteFile(output + "/rounds.csv", rounds.str());
    WriteFile(output + "/links.csv", links.str());
    if (config.real)
    {
        WriteFile(output + "/consensus.csv", consensus.str());
    }
    if (!config.crossTraffic.empty())
    {
        WriteFile(output + "/cross-traffic.csv", crossTraffic.str());
    }
    nlohmann::json summary;
    summary["config"] = {
        {"topology", cmd.GetTopologyPath()},
        {"capabilities", cmd.GetCapabilities()},
        {"seed", cmd.GetSeed()},
        {"output", output},
        {"schedule", config.schedule},
        {"modelBytes", config.modelBytes},
        {"rounds", config.rounds},
        {"computeTime", flags.GetText("computeTime")},
        {"innerSteps", config.innerSteps},
        {"fragments", config.fragments},
        {"updateFormat", config.updateFormat.ToString()},
        {"payload", main.payload},
        {"sharedStart", config.sharedStart},
        {"workload", config.workload},
        {"residualDecay", config.residualDecay},
        {"lossRate", config.lossRate},
        {"wanBandwidth", flags.GetText("wanBandwidth")},
        {"accessBandwidth", flags.GetText("accessBandwidth")},
        {"epsilon", config.epsilon},
        {"cityCapabilities", cmd.GetCityCapabilities()},
        {"crossTraffic", cmd.GetCrossTrafficPath()},
        {"baselines", main.baselines},
        {"colocated", main.colocated},
        {"maxPeriod", config.maxPeriod},
        {"mtu", config.mtu},
        {"baselineRounds", main.baselineRounds},
        {"maxSimTime", flags.GetText("maxSimTime")},
        {"maxWallTime", flags.GetText("maxWallTime")},
        {"transport", config.transport},
        {"tcp", flags.GetText("tcp")},
        {"tcpBufferBytes", config.tcpBufferBytes},
        {"tcpStreams", config.tcpStreams},
        {"baselineTransports", main.baselineTransports},
        {"queue", cmd.GetQueue().empty() ? loaded.GetDefaultQueue().ToString() : cmd.GetQueue()}};
    summary["results"] = resultList;
    summary["exit_code"] = exitCode;
    WriteFile(output + "/summary.json", summary.dump(2) + "\n");
}

int
Main(int argc, char** argv)
{
    WanCommandLine cmd(PROGRAM,
                       "Data-parallel training across the islands of a WAN under a "
                       "rotating-clique schedule, packet by packet. Exit codes: 0 every round "
                       "complete with every peer; 1 bad input (before anything runs) or another "
                       "error; 3 results written but partial (lost peers, unfinished rounds, "
                       "--maxSimTime or --maxWallTime reached).");
    ExperimentConfig config;
    MainFlags main;
    AddFlags(cmd, config, main);
    const auto start = std::chrono::steady_clock::now();
    cmd.Parse(argc, argv);
    WanMpi::Init(main.simulator);
    CheckFlags(cmd, config, main, start);

    const WanTopology loaded = cmd.LoadTopology().WithRates(main.wanBps, main.accessBps);
    LoadWorkload(config, loaded.GetIslands().size());
    config.crossTraffic = cmd.LoadCrossTraffic(loaded);
    CheckDistribution(config, loaded);
    const std::vector<std::string> specs = ScheduleSpecs(config, main, loaded.GetIslands().size());
    // Rank 0 writes the outputs; the other ranks only simulate.
    const bool writer = WanMpi::GetRank() == 0;
    const std::string output = writer ? cmd.PrepareOutput() : "";
    const std::vector<ExperimentJob> jobs =
        PlanJobs(loaded, cmd.GetCapabilities(), specs, config, main);

    int exitCode = WanCommandLine::EXIT_COMPLETE;
    std::vector<ExperimentResult> results = RunJobs(jobs, config, main.workers, output, exitCode);
    if (!writer)
    {
        return exitCode;
    }
    for (const ExperimentResult& r : results)
    {
        std::cout << r.capabilities << " / " << r.schedule << ": " << r.cliques << std::endl;
    }
    if (main.colocated)
    {
        CompareToColocated(results);
    }
    AddGains(jobs, results, config.transport);
    WriteOutputs(cmd, config, main, loaded, results, exitCode, output);
    std::vector<TrainingTableRow> table;
    for (const ExperimentResult& r : results)
    {
        table.push_back({r.capabilities, r.schedule, r.summary, r.cross});
    }
    TrainingTable::Print(std::cout, table, Assumptions(cmd.GetQueue(), jobs));
    if (exitCode != WanCommandLine::EXIT_COMPLETE)
    {
        std::cerr << "partial results (exit code " << exitCode
                  << "): see complete, unfinished_rounds and lost_peers in " << output
                  << "/summary.json" << std::endl;
    }
    return exitCode;
}

} // namespace

int
main(int argc, char** argv)
{
    return WanCommandLine::RunMain(Main, argc, argv);
}
