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
 * This file plans the experiments, compares them and writes the outputs; its parts are one
 * experiment (nine-city-experiment.h), the flags and their checks (nine-city-flags.h) and the
 * runner of many experiments in child processes (nine-city-jobs.h).
 *
 * Exit codes (doc/training.rst):
 *   0  every round of every experiment complete, with every peer
 *   1  bad input (reported before anything runs) or another error
 *   3  results written, but partial: lost peers, unfinished rounds, a guard reached
 */

#include "nine-city-experiment.h"
#include "nine-city-flags.h"
#include "nine-city-jobs.h"

#include "ns3/training-output.h"
#include "ns3/training-table.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-mpi.h"

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::ninecity;

namespace
{

/** Program name: its results folder, results/nine-city-training/. */
const char PROGRAM[] = "nine-city-training";
/**
 * The capability sets --capabilities=all runs, in order: the four edge sets, then transit
 * FPGAs alone and with every edge capability (the sets where the optimiser can choose
 * reduction trees with unicast or multicast sums).
 */
const std::vector<std::string> ALL_SETS =
    {"none", "multicast", "fpga", "both", "transit", "both+transit"};

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
    if (RunsTcpBaselines(config, main))
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
 * \param queue --queue \param jobs the jobs \param config the experiment
 * \return the line above the table that says what its figures assume: the buffers and, with
 *         TCP baselines, their set-up
 */
std::string
Assumptions(const std::string& queue,
            const std::vector<ExperimentJob>& jobs,
            const ExperimentConfig& config)
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
                "connections kept open (first round left out)";
        if (config.tcpBaselineMtu != 0 && config.tcpBaselineMtu != config.mtu)
        {
            line += ", links of MTU " + std::to_string(config.tcpBaselineMtu) +
                    " (--tcpBaselineMtu; the other runs " + std::to_string(config.mtu) + ")";
        }
        line += "; gains are over the fastest";
    }
    return line;
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
        {"lossModel", config.lossModel},
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
        {"tcpBaselineMtu", config.tcpBaselineMtu},
        {"baselineTransports", main.baselineTransports},
        {"queue", cmd.GetQueue().empty() ? loaded.GetDefaultQueue().ToString() : cmd.GetQueue()}};
    summary["results"] = resultList;
    summary["exit_code"] = exitCode;
    WriteFile(output + "/summary.json", summary.dump(2) + "\n");
}

/**
 * \brief The example's body (RunMain turns exceptions into "error: ..." and exit code 1).
 * \param argc argument count \param argv arguments \return exit code
 */
int
Main(int argc, char** argv)
{
    WanCommandLine cmd(PROGRAM,
                       "Data-parallel training across the islands of a WAN under a "
                       "rotating-clique schedule, packet by packet. Exit codes: 0 every round "
                       "complete with every peer; 1 bad input (before anything runs) or another "
                       "error; 3 results written but partial (lost peers, or unfinished "
                       "rounds: --maxSimTime or --maxWallTime reached before the last round).");
    ExperimentConfig config;
    MainFlags main;
    AddFlags(cmd, config, main);
    const auto start = std::chrono::steady_clock::now();
    cmd.AllowCapabilitySweep(); // --capabilities=all: PlanJobs runs every set
    cmd.Parse(argc, argv);
    WanMpi::Init(main.simulator);
    CheckFlags(cmd, config, main, start);

    const WanTopology loaded = cmd.LoadTopology().WithRates(main.wanBps, main.accessBps);
    LoadWorkload(config, loaded.GetIslands().size());
    config.crossTraffic = cmd.LoadCrossTraffic(loaded);
    CheckDistribution(config, loaded);
    CheckCrossTraffic(config, main, cmd.GetCrossTrafficPath());
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
    TrainingTable::Print(std::cout, table, Assumptions(cmd.GetQueue(), jobs, config));
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
