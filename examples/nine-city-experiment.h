/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One nine-city-training experiment: its settings, its job, its results, and how it runs.
 */

#ifndef NINE_CITY_EXPERIMENT_H
#define NINE_CITY_EXPERIMENT_H

#include "ns3/clique-schedule.h"
#include "ns3/cross-traffic-file.h"
#include "ns3/cross-traffic-helper.h"
#include "ns3/fragment-plan.h"
#include "ns3/nstime.h"
#include "ns3/tcp-baseline-set.h"
#include "ns3/training-application.h"
#include "ns3/training-experiment.h"
#include "ns3/type-id.h"
#include "ns3/update-format.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-wire.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
/**
 * \brief The parts of the nine-city-training example: one experiment
 *        (nine-city-experiment.h), its flags (nine-city-flags.h) and the runner of many
 *        (nine-city-jobs.h).
 */
namespace ninecity
{

/** A transport --transport and --baselineTransports may name. */
struct TransportChoice
{
    std::string name;                         //!< its flag value
    TrainingApplication::Transport transport; //!< what the applications run
    bool unicastOnly;                         //!< ignores multicast and FPGAs (ExchangeBound)
};

/** The TCP transport's flag value: its baselines run as a set (TcpBaselineSet). */
inline const char TCP_TRANSPORT[] = "tcp";

/** Every transport, in the order the flags list them: one entry each. */
inline const std::vector<TransportChoice> TRANSPORTS = {
    {"planned", TrainingApplication::PLANNED, false},
    {"adaptive", TrainingApplication::ADAPTIVE, false},
    {"tcp", TrainingApplication::TCP, true},
};

/**
 * \param name a transport's flag value \return its entry
 * \throws std::runtime_error for a name TRANSPORTS does not hold
 */
const TransportChoice& FindTransport(const std::string& name);

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
    std::string lossModel{"rate"};       //!< WAN loss's error model (--lossModel)
    double epsilon{1e-3};                //!< consensus target
    uint32_t seed{1};                    //!< optimiser's local-search seed
    uint32_t maxPeriod{4};               //!< optimiser's largest period
    uint32_t mtu{WanWire::DEFAULT_MTU};  //!< device MTU; chunks fill it
    uint32_t tcpBaselineMtu{0};          //!< --tcpBaselineMtu: the TCP baselines' (0: mtu)
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
CliqueSchedule MakeSchedule(const std::string& spec, uint32_t n);

/** \param topology a topology \return the capability set shared by all cities, or "mixed" */
std::string CapabilityLabel(const WanTopology& topology);

/**
 * \brief The colocated reference: the same islands in one data centre (one router, 400 Gbps
 *        access links, microsecond delays, no WAN).
 * \param topology the WAN topology \return the single-city topology
 */
WanTopology ColocatedTopology(const WanTopology& topology);

/** \param r a result \return its exit code: complete, or partial */
int ResultExitCode(const ExperimentResult& r);

/** \param job a job \return how messages name it, e.g. "fpga / optimal" */
std::string JobName(const ExperimentJob& job);

/**
 * \brief Build a job's schedule, then run it (RunExperiment).
 * \param job the job \param config the settings \return the results
 */
ExperimentResult RunJob(const ExperimentJob& job, const ExperimentConfig& config);

} // namespace ninecity
} // namespace ns3

#endif /* NINE_CITY_EXPERIMENT_H */
