/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-command-line.h"

#include "results-folder.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/wan-flags.h"
#include "ns3/wan-input-error.h"
#include "ns3/wan-mpi.h"
#include "ns3/wan-topology-json.h"

#include <ctime>
#include <filesystem>
#include <iostream>
#include <system_error>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanCommandLine");

namespace
{

/** Topology used when --topology is not given, relative to the repository root. */
const char DEFAULT_TOPOLOGY[] = "data/topologies/doublezero-9.json";
/** Seed used when --seed is not given. */
constexpr uint32_t DEFAULT_SEED = 1;
/** Smallest seed: MRG32k3a seeds every component with it; all zeros is a degenerate stream. */
constexpr uint32_t MIN_SEED = 1;
/**
 * Largest seed: RngSeedManager::SetSeed gives all six MRG32k3a components the seed, and the
 * second recurrence's components must stay below its modulus m2 = 4294944443 (ns-3 aborts
 * with "invalid Seed" otherwise).
 */
constexpr uint32_t MAX_SEED = 4294944442;
/** The --capabilities value that asks a sweeping example for every capability set. */
const char ALL_CAPABILITIES[] = "all";

} // namespace

int
WanCommandLine::CombineExitCodes(int a, int b)
{
    if (a == EXIT_BAD_INPUT || b == EXIT_BAD_INPUT)
    {
        return EXIT_BAD_INPUT;
    }
    if (a == EXIT_PARTIAL || b == EXIT_PARTIAL)
    {
        return EXIT_PARTIAL;
    }
    // Any other non-zero code (a signal, an unknown failure) counts as a failure.
    return a == EXIT_COMPLETE && b == EXIT_COMPLETE ? EXIT_COMPLETE : EXIT_BAD_INPUT;
}

WanCommandLine::WanCommandLine(const std::string& program,
                               const std::string& usage,
                               TopologyFlags topology)
    : m_program(program),
      m_cmd(program), // the name --help prints first
      m_flags(m_cmd),
      m_topology(DEFAULT_TOPOLOGY),
      m_capabilities(""),
      m_cityCapabilities(""),
      m_seed(DEFAULT_SEED),
      m_output(""),
      m_topologyFlags(topology)
{
    m_cmd.Usage(usage);
    if (topology == WITH_TOPOLOGY)
    {
        AddTopologyFlags();
    }
    WanFlags::AddText(m_cmd,
                      "queue",
                      "transmit queue of every link and access link: packets (100p), bytes "
                      "(125MB), a time at the link's rate (50ms) or bdp (the rate times the "
                      "longest round trip routed over the link) (empty: the topology file's "
                      "queue keys; default " +
                          std::string(WanQueueSpec::DEFAULT) + ")",
                      m_queue);
    m_flags.AddUnsigned("seed",
                        "seed of ns-3's random number generators",
                        m_seed,
                        MIN_SEED,
                        MAX_SEED);
    WanFlags::AddText(m_cmd,
                      "output",
                      "folder for the result files: created if missing, refused if not empty "
                      "(empty: a new results/" +
                          program + "/<UTC time>/, and results/latest links to it)",
                      m_output);
}

void
WanCommandLine::AddTopologyFlags()
{
    WanFlags::AddText(m_cmd,
                      "topology",
                      "topology file (JSON); a relative path is tried from the working directory, "
                      "then from the module's source folder",
                      m_topology);
    WanFlags::AddText(m_cmd,
                      "capabilities",
                      "capabilities of every city: none|multicast|fpga|both, each but none "
                      "optionally with +transit, or transit (empty: the file's own; all: every "
                      "set, in examples that sweep them)",
                      m_capabilities);
    WanFlags::AddText(
        m_cmd,
        "cityCapabilities",
        "per-city overrides applied after --capabilities, e.g. NYC:none,SIN:multicast",
        m_cityCapabilities);
}

CommandLine&
WanCommandLine::Get()
{
    return m_cmd;
}

WanFlags&
WanCommandLine::Flags()
{
    return m_flags;
}

void
WanCommandLine::Parse(int argc, char** argv)
{
    m_given = WanFlags::NamesGiven(argc, argv);
    m_cmd.Parse(argc, argv);
    m_flags.Check();
    if (!m_queue.empty())
    {
        m_queueSpec = WanQueueSpec::Parse(m_queue, "--queue");
    }
    RngSeedManager::SetSeed(m_seed);
    m_topology = ResolveDataPath(m_topology);
    m_crossTraffic = ResolveDataPath(m_crossTraffic);
    NS_LOG_INFO("topology " << m_topology << " capabilities '" << m_capabilities << "' seed "
                            << m_seed << " output " << m_output);
}

bool
WanCommandLine::IsGiven(const std::string& name) const
{
    return m_given.count(name) > 0;
}

WanTopology
WanCommandLine::LoadTopology() const
{
    NS_ABORT_MSG_IF(m_topologyFlags == WITHOUT_TOPOLOGY,
                    "WanCommandLine: LoadTopology in a program made WITHOUT_TOPOLOGY");
    WanTopology topology;
    try
    {
        topology = WanTopologyJson::LoadFile(m_topology);
    }
    catch (const WanTopologyError& e)
    {
        throw WanTopologyError(std::string("--topology: ") + e.what());
    }
    // "all" is a sweep over every set, run by the example itself: the file's capabilities
    // stand here and the example calls SetCapabilities() per set.
    if (m_capabilities == ALL_CAPABILITIES && !m_sweep)
    {
        throw WanTopologyError("--capabilities: \"all\": this program runs one capability set "
                               "(expected none|multicast|fpga|both, each but none optionally "
                               "with +transit, or transit)");
    }
    if (m_capabilities == ALL_CAPABILITIES && !m_cityCapabilities.empty())
    {
        // The sweep sets every city's capabilities for each set: the overrides would be
        // overwritten, and summary.json would still record them.
        throw WanTopologyError("--cityCapabilities: " + WanInputError::Quote(m_cityCapabilities) +
                               ": not with --capabilities=all, whose every set overwrites each "
                               "city's capabilities (run one set with its overrides)");
    }
    if (!m_capabilities.empty() && m_capabilities != ALL_CAPABILITIES)
    {
        try
        {
            topology.SetCapabilities(WanCapabilities::Parse(m_capabilities, "--capabilities"));
        }
        catch (const WanInputError& e)
        {
            throw WanTopologyError(std::string(e.what()) + " (or all in examples that sweep them)");
        }
    }
    topology.ApplyCityCapabilities(m_cityCapabilities, "--cityCapabilities");
    if (m_queueSpec)
    {
        topology.SetQueue(*m_queueSpec);
    }
    return topology;
}

const std::string&
WanCommandLine::GetQueue() const
{
    return m_queue;
}

std::string
WanCommandLine::PrepareOutput() const
{
    const std::string folder =
        m_output.empty() ? ResultsFolder::CreateRun(ResultsFolder::GetRoot(),
                                                    m_program,
                                                    ResultsFolder::UtcStamp(std::time(nullptr)))
                         : ResultsFolder::UseFolder(m_output);
    ResultsFolder::CheckWritable(folder);
    return folder;
}

const std::string&
WanCommandLine::GetTopologyPath() const
{
    return m_topology;
}

const std::string&
WanCommandLine::GetCapabilities() const
{
    return m_capabilities;
}

std::string
WanCommandLine::ResolveDataPath(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path given(path);
    if (path.empty() || given.is_absolute() || fs::exists(given, ec))
    {
        return path;
    }
    const fs::path moduleRoot = fs::path(__FILE__).parent_path().parent_path();
    const fs::path candidate = moduleRoot / given;
    if (moduleRoot.is_absolute() && fs::exists(candidate, ec))
    {
        NS_LOG_INFO("using " << candidate.string() << " for " << path);
        return candidate.string();
    }
    return path;
}

const std::string&
WanCommandLine::GetCityCapabilities() const
{
    return m_cityCapabilities;
}

uint32_t
WanCommandLine::GetSeed() const
{
    return m_seed;
}

const std::string&
WanCommandLine::GetOutput() const
{
    return m_output;
}

const std::string&
WanCommandLine::GetProgram() const
{
    return m_program;
}

int
WanCommandLine::RunMain(int (*body)(int, char**), int argc, char** argv)
{
    int code = EXIT_BAD_INPUT;
    try
    {
        code = body(argc, argv);
    }
    catch (const std::exception& e)
    {
        // Every message goes out with its control characters escaped, whatever part of it
        // (a path, a trace's name) carried them.
        // One write per line, so that the lines of several ranks do not interleave.
        const bool distributed = WanMpi::GetSize() > 1;
        const std::string rank =
            distributed ? "rank " + std::to_string(WanMpi::GetRank()) + ": " : "";
        const std::string line = "error: " + rank + WanInputError::Escape(e.what()) + "\n";
        std::cerr.write(line.data(), static_cast<std::streamsize>(line.size()));
        std::cerr.flush();
        if (distributed)
        {
            WanMpi::Abort(EXIT_BAD_INPUT); // the other ranks may be waiting for this one
        }
    }
    WanMpi::Finalize();
    return code;
}

void
WanCommandLine::AllowCapabilitySweep()
{
    m_sweep = true;
}

void
WanCommandLine::AddCrossTrafficFlag()
{
    WanFlags::AddText(m_cmd,
                      "crossTraffic",
                      "cross-traffic file (JSON: flows between extra hosts at cities, sharing the "
                      "WAN with training; doc/cross-traffic.rst); empty: none",
                      m_crossTraffic);
}

std::vector<CrossTrafficFlow>
WanCommandLine::LoadCrossTraffic(const WanTopology& topology) const
{
    if (m_crossTraffic.empty())
    {
        return {};
    }
    try
    {
        return CrossTrafficFile::LoadFile(m_crossTraffic, topology);
    }
    catch (const WanInputError& e)
    {
        throw WanInputError(std::string("--crossTraffic: ") + e.what());
    }
}

const std::string&
WanCommandLine::GetCrossTrafficPath() const
{
    return m_crossTraffic;
}

} // namespace ns3
