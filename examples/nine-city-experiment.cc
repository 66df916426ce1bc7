/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * nine-city-training: one experiment, from its job to its results.
 */

#include "nine-city-experiment.h"

#include "ns3/boolean.h"
#include "ns3/clique-schedule-file.h"
#include "ns3/clique-schedule-helper.h"
#include "ns3/double.h"
#include "ns3/exchange-bound.h"
#include "ns3/simulator.h"
#include "ns3/tcp-transport.h"
#include "ns3/training-helper.h"
#include "ns3/training-output.h"
#include "ns3/training-planner.h"
#include "ns3/training-workload.h"
#include "ns3/uinteger.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-input-error.h"
#include "ns3/wan-mpi.h"
#include "ns3/wan-partition.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-units.h"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace ninecity
{

namespace
{

/** Default --maxSimTime: this many times the plan's estimate of the run. */
constexpr double SIM_TIME_GUARD_FACTOR = 1000;
/** Smallest default --maxSimTime, s (an estimate can be tiny: one round, no compute). */
constexpr double MIN_SIM_TIME_GUARD_S = 1;
/** Wall seconds between progress lines. */
constexpr double PROGRESS_SECONDS = 5.0;

/** Access rate of an island in the colocated reference (one data centre). */
constexpr uint64_t COLOCATED_ACCESS_BPS = 400000000000ULL;
/** Access delay of an island in the colocated reference. */
constexpr double COLOCATED_ACCESS_DELAY_S = 1e-6;

/**
 * \brief The optimiser's best schedule for a topology and capability set.
 * \param topology the topology with its capabilities applied
 * \param capabilities the capability set's label, for the progress lines of a long search
 * \param config the experiment's settings (model bytes, compute, epsilon, seed, period)
 * \return the best schedule, with the algorithm of every clique
 */
CliqueSchedule
OptimalSchedule(const WanTopology& topology,
                const std::string& capabilities,
                const ExperimentConfig& config)
{
    CliqueScheduleHelper optimiser;
    if (WanMpi::GetRank() == 0)
    {
        optimiser.SetProgress("capabilities=" + capabilities, PROGRESS_SECONDS);
    }
    if (WanMpi::GetSize() <= 1)
    {
        // Ranks must agree on the schedule, so a wall-clock cut is for one process only.
        optimiser.SetDeadline(config.wallDeadline);
    }
    optimiser.SetModelBytes(config.modelBytes);
    optimiser.SetComputeTime(
        TrainingApplication::ComputePhase(config.computeTime, config.innerSteps));
    if (config.fragments > 1)
    {
        // Score rounds by the sync their compute does not hide.
        optimiser.SetFragmentPlan(TrainingHelper::SelectFragmentPlan(config.stepPlans,
                                                                     config.modelBytes,
                                                                     config.fragments,
                                                                     config.innerSteps,
                                                                     config.computeTime));
    }
    optimiser.SetEpsilon(config.epsilon);
    optimiser.SetSeed(config.seed);
    optimiser.SetMaxPeriod(config.maxPeriod);
    optimiser.SetCostModelAttribute("Mtu", UintegerValue(config.mtu));
    optimiser.SetCostModelAttribute("UpdateFormat", UpdateFormatValue(config.updateFormat));
    const ScheduleSearchResult search = optimiser.Optimise(WanRouting(
        TrainingPlanner::PlannedTopology(topology, FindTransport(config.transport).unicastOnly)));
    if (!search.stoppedIn.empty())
    {
        std::cerr << "warning: capabilities=" << capabilities
                  << ": --maxWallTime passed in the optimiser's " << search.stoppedIn
                  << " stage; the schedule is the best found by then" << std::endl;
    }
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
        helper.SetWanLossModel(TrainingHelper::ParseLossModel(config.lossModel));
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
    if (experiment.GetStoppedBy().empty() || WanMpi::GetRank() != 0)
    {
        return;
    }
    if (experiment.AreRoundsDone())
    {
        if (experiment.GetParallelInfo().ranks > 1)
        {
            // Granted-time windows step on to the limit after the work (the ranks keep it so
            // that they stop together); nothing ran there to cut: cross traffic is one process.
            return;
        }
        // Only what ran after the last round (cross traffic) was cut: the results are whole.
        std::cerr << "note: " << job << ": every round was done; --" << experiment.GetStoppedBy()
                  << " stopped the traffic after them at " << Simulator::Now().GetSeconds()
                  << " s of simulated time (limit " << simLimit << " s)" << std::endl;
        return;
    }
    std::cerr << "warning: " << job << ": stopped by --" << experiment.GetStoppedBy() << " at "
              << Simulator::Now().GetSeconds() << " s of simulated time (limit " << simLimit
              << " s); unfinished rounds are recorded as such" << std::endl;
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
    experiment.SetOtherTraffic(cross != nullptr);
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

} // namespace

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
    throw std::runtime_error("unknown transport " + WanInputError::Quote(name));
}

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
        throw std::runtime_error("--schedule: " + WanInputError::Quote(spec) + ": " +
                                 std::to_string(schedule.GetIslandCount()) +
                                 " islands, the topology has " + std::to_string(n));
    }
    return schedule;
}

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

int
ResultExitCode(const ExperimentResult& r)
{
    return r.summary.IsComplete() ? WanCommandLine::EXIT_COMPLETE : WanCommandLine::EXIT_PARTIAL;
}

std::string
JobName(const ExperimentJob& job)
{
    return job.capabilities + " / " + job.label;
}

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
        jobConfig.mtu = config.tcpBaselineMtu > 0 ? config.tcpBaselineMtu : config.mtu;
    }
    const CliqueSchedule schedule = job.scheduleLabel == "optimal"
                                        ? OptimalSchedule(job.topology, job.capabilities, jobConfig)
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

} // namespace ninecity
} // namespace ns3
