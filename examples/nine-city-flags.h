/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * nine-city-training's flags: the table, and the checks that refuse what cannot run before anything
 * is built.
 */

#ifndef NINE_CITY_FLAGS_H
#define NINE_CITY_FLAGS_H

#include "nine-city-experiment.h"

#include "ns3/wan-command-line.h"
#include "ns3/wan-mpi.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace ninecity
{

/** Default --maxWallTime: 24 hours. */
inline const char DEFAULT_MAX_WALL_TIME[] = "86400s";
/** Default --maxWallTime, s (DEFAULT_MAX_WALL_TIME). */
inline constexpr double DEFAULT_MAX_WALL_TIME_S = 24 * 3600;

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

/**
 * \param config the experiment \param main the other flags (extraTransports read)
 * \return true if the run includes today's TCP baselines: --schedule=optimal with its
 *         baselines, and --baselineTransports naming tcp
 */
bool RunsTcpBaselines(const ExperimentConfig& config, const MainFlags& main);

/**
 * \brief The program's flag table, in the order --help lists it.
 * \param cmd the command line \param config receives the experiment's flags
 * \param main receives the others
 */
void AddFlags(WanCommandLine& cmd, ExperimentConfig& config, MainFlags& main);

/**
 * \brief Derive the flags' values and refuse what cannot run, before anything is built.
 * \param cmd the parsed command line \param config completed \param main completed
 * \param start when the program started (--maxWallTime counts from it)
 * \throws std::runtime_error naming the flag
 */
void CheckFlags(const WanCommandLine& cmd,
                ExperimentConfig& config,
                MainFlags& main,
                std::chrono::steady_clock::time_point start);

/**
 * \brief Read --workload: island i runs the step of rank i's trace (ChakraStep); the model
 *        is the buckets' bytes and the compute phase the step's.
 * \param config the settings (stepPlans, modelBytes, computeTime, innerSteps set)
 * \param islands the topology's islands
 * \throws std::runtime_error naming --workload, the file and (ChakraTraceError) the node
 */
void LoadWorkload(ExperimentConfig& config, uint32_t islands);

/**
 * \brief Refuse a distributed run the topology or the cross traffic cannot have.
 * \param config the experiment (its cross traffic loaded) \param loaded the topology
 */
void CheckDistribution(const ExperimentConfig& config, const WanTopology& loaded);

/**
 * \brief Refuse cross traffic the hosts cannot carry (CrossTrafficHelper::Check) at the
 *        smallest MTU of the run's links, before any folder is made.
 * \param config the experiment (its cross traffic loaded) \param main the other flags
 * \param path --crossTraffic, for the message
 * \throws std::runtime_error naming --crossTraffic, the file and the flow
 */
void CheckCrossTraffic(const ExperimentConfig& config,
                       const MainFlags& main,
                       const std::string& path);

/**
 * \param config the experiment \param main the other flags \param n islands
 * \return the schedules each capability set runs: --schedule's, or the optimiser's choice plus
 *         the global-clique and ring baselines; each checked before anything runs
 */
std::vector<std::string> ScheduleSpecs(const ExperimentConfig& config,
                                       const MainFlags& main,
                                       uint32_t n);

} // namespace ninecity
} // namespace ns3

#endif /* NINE_CITY_FLAGS_H */
