/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * nine-city-training: its flags and their checks.
 */

#include "nine-city-flags.h"

#include "ns3/chakra-step.h"
#include "ns3/chunk-layout.h"
#include "ns3/cross-traffic-helper.h"
#include "ns3/tcp-transport.h"
#include "ns3/training-helper.h"
#include "ns3/training-support.h"
#include "ns3/wan-flags.h"
#include "ns3/wan-input-error.h"
#include "ns3/wan-partition.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-units.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace ninecity
{

namespace
{

/** Largest model real payloads are allowed for (parameters live in memory as doubles). */
constexpr uint64_t MAX_REAL_MODEL_BYTES = 64ULL << 20;

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
 * \brief Flags of the workload and the WAN: schedule, model, rounds, compute, payload, loss,
 *        rates, epsilon.
 * \param cmd the command line \param config receives the experiment's flags
 * \param main receives the others
 */
void
AddWorkloadFlags(WanCommandLine& cmd, ExperimentConfig& config, MainFlags& main)
{
    WanFlags& flags = cmd.Flags();
    const WanFlagRange anyDuration{0, WanUnits::MAX_TIME_SECONDS, false, false};
    WanFlags::AddText(cmd.Get(),
                      "schedule",
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
                          "FPGAs sum it (every transport carries every format; bf16 and topk "
                          "only in DIRECT cliques; real topk: --sharedStart and "
                          "--schedule=global)",
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
    WanFlags::AddText(cmd.Get(), "payload", "virtual|real", main.payload);
    WanFlags::AddText(cmd.Get(),
                      "workload",
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
    flags.AddChoice("lossModel",
                    "how --lossRate picks the lost frames: rate (ns-3's RateErrorModel, one "
                    "draw per frame in the order a link's frames arrive) or frame (each frame's "
                    "fate from its bytes, the seed and the link, whatever the order)",
                    config.lossModel,
                    TrainingHelper::LossModelNames());
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
                      "rounds recorded, and the optimiser's search with its best so far (one "
                      "process; under MPI only --maxSimTime applies)",
                      main.maxWallSeconds,
                      DEFAULT_MAX_WALL_TIME,
                      positiveDuration);
    cmd.AddCrossTrafficFlag();
    WanFlags::AddText(cmd.Get(),
                      "simulator",
                      "default (one process) or, under mpirun with an ns-3 built with MPI, "
                      "granted-time-window|null-message: ns-3's distributed simulators, each "
                      "experiment split over the ranks by city (results do not depend on the "
                      "number of ranks)",
                      main.simulator);
    WanFlags::AddText(cmd.Get(),
                      "partition",
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
    WanFlags::AddText(cmd.Get(),
                      "baselineTransports",
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
    flags.AddUnsigned("tcpBaselineMtu",
                      "MTU of the links in the TCP baselines' runs (--baselineTransports=tcp), "
                      "bytes (0: --mtu); ns-3's TCP costs each segment sent a walk of every "
                      "segment in flight, so a baseline at 9000 bytes takes many times as long "
                      "as at 64000",
                      config.tcpBaselineMtu,
                      0,
                      WanTopologyHelper::MAX_MTU);
    flags.AddUnsigned("tcpStreams",
                      "with --transport=tcp: TCP connections per peer, each message dealt to one "
                      "of them in turn",
                      config.tcpStreams,
                      1,
                      TcpTransport::MAX_STREAMS);
}

/**
 * \brief Read --baselineTransports into MainFlags::extraTransports (each known, other than
 *        --transport, named once); refuse a transport the run cannot have, and a
 *        --tcpBaselineMtu without TCP baselines or outside the MTU range.
 * \param config the experiment \param[in,out] main the other flags
 * \param run what the run asks of the module (TrainingSupport)
 * \throws std::runtime_error naming --transport or --baselineTransports
 */
void
CheckTransports(const ExperimentConfig& config, MainFlags& main, const TrainingRunRequest& run)
{
    const std::vector<std::string> transportNames = TransportNames();
    if (!main.baselineTransports.empty() && main.baselineTransports.back() == ',')
    {
        // getline stops before it: the empty last entry would pass unseen.
        throw std::runtime_error(WanFlags::Rejection("baselineTransports",
                                                     main.baselineTransports,
                                                     "an empty entry after the last comma"));
    }
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
            problem = WanInputError::Quote(name) + ": expected " + expected;
        }
        else if (name == config.transport)
        {
            problem = WanInputError::Quote(name) + " is --transport's own";
        }
        else if (std::find(main.extraTransports.begin(), main.extraTransports.end(), name) !=
                 main.extraTransports.end())
        {
            problem = WanInputError::Quote(name) + " named twice";
        }
        if (!problem.empty())
        {
            throw std::runtime_error(
                WanFlags::Rejection("baselineTransports", main.baselineTransports, problem));
        }
        main.extraTransports.push_back(name);
    }
    if (config.tcpBaselineMtu != 0 && config.tcpBaselineMtu < WanTopologyHelper::MIN_MTU)
    {
        throw std::runtime_error(WanFlags::Rejection(
            "tcpBaselineMtu",
            std::to_string(config.tcpBaselineMtu),
            "expected 0 (--mtu) or " + std::to_string(WanTopologyHelper::MIN_MTU) + " to " +
                std::to_string(WanTopologyHelper::MAX_MTU)));
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
 * \brief Refuse a flag the user gave where it changes nothing: a TCP setting without TCP, a
 *        setting a workload trace replaces, a real-payload setting with virtual payloads.
 *        Silence would suggest it took effect. The optimiser's and baselines' flags and
 *        --lossModel are left alone: sweeps fix them across schedules and loss rates.
 * \param cmd the parsed command line \param config the settings \param main the other flags
 * \throws std::runtime_error naming the first such flag and where it applies
 */
void
CheckFlagsApply(const WanCommandLine& cmd, const ExperimentConfig& config, const MainFlags& main)
{
    const bool tcp = FindTransport(config.transport).transport == TrainingApplication::TCP;
    const bool trace = !config.workload.empty();
    const char* const tcpOnly = "--transport=tcp (today's TCP baselines, --baselineTransports="
                                "tcp, run their own congestion controls and streams)";
    const char* const notTrace = "no --workload (a Chakra trace's step sets it)";
    const bool tcpBaselines = RunsTcpBaselines(config, main);
    const std::string tcpBaselinesNeed =
        "today's TCP baselines (--schedule=optimal, --baselines and --baselineTransports=tcp)";

    struct Rule
    {
        const char* flag; //!< the flag's name
        bool applies;     //!< whether it changes anything in this run
        std::string when; //!< where it applies
    };

    const Rule rules[] = {
        {"tcp", tcp, tcpOnly},
        {"tcpStreams", tcp, tcpOnly},
        {"tcpBufferBytes", tcp || tcpBaselines, "--transport=tcp or " + tcpBaselinesNeed},
        {"tcpBaselineMtu", tcpBaselines, tcpBaselinesNeed},
        {"modelBytes", !trace, notTrace},
        {"computeTime", !trace, notTrace},
        {"innerSteps", !trace, notTrace},
        {"fragments", !trace, "no --workload (a Chakra trace's buckets are its fragments)"},
        {"sharedStart", config.real, "--payload=real"},
        {"residualDecay",
         config.real && config.updateFormat.IsSparse(),
         "--payload=real and --updateFormat=topk:F"},
    };
    for (const Rule& rule : rules)
    {
        if (!rule.applies && cmd.IsGiven(rule.flag))
        {
            throw std::runtime_error(
                WanFlags::ChangesNothing(rule.flag, "it applies only with " + rule.when));
        }
    }
}

} // namespace

bool
RunsTcpBaselines(const ExperimentConfig& config, const MainFlags& main)
{
    return config.schedule == "optimal" && main.baselines &&
           std::find(main.extraTransports.begin(), main.extraTransports.end(), TCP_TRANSPORT) !=
               main.extraTransports.end();
}

void
AddFlags(WanCommandLine& cmd, ExperimentConfig& config, MainFlags& main)
{
    AddWorkloadFlags(cmd, config, main);
    AddComparisonFlags(cmd, config, main);
    AddRunFlags(cmd, config, main);
    AddTransportFlags(cmd, config, main);
}

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
        throw std::runtime_error("--payload: " + WanInputError::Quote(main.payload) +
                                 ": expected virtual|real");
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
    CheckWorkload(config, main); // first: a trace replaces --fragments
    CheckFragments(config, main);
    TrainingSupport::Check(run); // before any rank builds the network
    CheckTransports(config, main, run);
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
    CheckFlagsApply(cmd, config, main);
}

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

void
CheckCrossTraffic(const ExperimentConfig& config, const MainFlags& main, const std::string& path)
{
    if (config.crossTraffic.empty())
    {
        return;
    }
    // A smaller MTU means smaller writes: more of them, each with less room.
    uint32_t mtu = config.mtu;
    if (RunsTcpBaselines(config, main) && config.tcpBaselineMtu > 0)
    {
        mtu = std::min(mtu, config.tcpBaselineMtu);
    }
    try
    {
        CreateObject<CrossTrafficHelper>()->Check(config.crossTraffic, mtu);
    }
    catch (const std::runtime_error& e)
    {
        throw std::runtime_error("--crossTraffic: " + path + ": " + e.what());
    }
}

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

} // namespace ninecity
} // namespace ns3
