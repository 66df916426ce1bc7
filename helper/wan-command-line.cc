/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-command-line.h"

#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/wan-mpi.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <system_error>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanCommandLine");

namespace
{

/** Topology used when --topology is not given, relative to the repository root. */
const char DEFAULT_TOPOLOGY[] = "data/topologies/doublezero-9.json";
/** Output folder used when --output is not given. */
const char DEFAULT_OUTPUT[] = "results/latest";
/** Seed used when --seed is not given. */
constexpr uint32_t DEFAULT_SEED = 1;
/** Name of the probe file PrepareOutput() writes and removes to prove the folder writable. */
const char WRITE_PROBE[] = ".wan-training-write-test";
/** The --capabilities value that asks a sweeping example for every capability set. */
const char ALL_CAPABILITIES[] = "all";

/** \param text any text \return it in double quotes */
std::string
Quote(const std::string& text)
{
    return "\"" + text + "\"";
}

} // namespace

WanCommandLine::WanCommandLine(const std::string& usage)
    : m_topology(DEFAULT_TOPOLOGY),
      m_capabilities(""),
      m_cityCapabilities(""),
      m_seed(DEFAULT_SEED),
      m_output(DEFAULT_OUTPUT)
{
    m_cmd.Usage(usage);
    m_cmd.AddValue("topology",
                   "topology file (JSON); a relative path is tried from the working directory, "
                   "then from the module's source folder",
                   m_topology);
    m_cmd.AddValue("capabilities",
                   "capabilities of every city: none|multicast|fpga|both (empty: the file's own; "
                   "all: every set, in examples that sweep them)",
                   m_capabilities);
    m_cmd.AddValue("cityCapabilities",
                   "per-city overrides applied after --capabilities, e.g. NYC:none,SIN:multicast",
                   m_cityCapabilities);
    m_cmd.AddValue("seed", "seed of ns-3's random number generators (at least 1)", m_seed);
    m_cmd.AddValue("output", "folder for the result files (created if missing)", m_output);
}

CommandLine&
WanCommandLine::Get()
{
    return m_cmd;
}

void
WanCommandLine::Parse(int argc, char** argv)
{
    m_cmd.Parse(argc, argv);
    // MRG32k3a seeds every component with this value; all zeros would be a degenerate stream.
    if (m_seed == 0)
    {
        throw std::runtime_error("--seed: 0: must be at least 1");
    }
    RngSeedManager::SetSeed(m_seed);
    m_topology = ResolveDataPath(m_topology);
    NS_LOG_INFO("topology " << m_topology << " capabilities '" << m_capabilities << "' seed "
                            << m_seed << " output " << m_output);
}

WanTopology
WanCommandLine::LoadTopology() const
{
    WanTopology topology;
    try
    {
        topology = WanTopology::LoadFile(m_topology);
    }
    catch (const WanTopologyError& e)
    {
        throw WanTopologyError(std::string("--topology: ") + e.what());
    }
    // "all" is a sweep over every set, run by the example itself: the file's capabilities
    // stand here and the example calls SetCapabilities() per set.
    if (!m_capabilities.empty() && m_capabilities != ALL_CAPABILITIES)
    {
        if (m_capabilities != "none" && m_capabilities != "multicast" && m_capabilities != "fpga" &&
            m_capabilities != "both")
        {
            throw WanTopologyError("--capabilities: " + Quote(m_capabilities) +
                                   ": expected none|multicast|fpga|both (or all in examples "
                                   "that sweep them)");
        }
        topology.SetCapabilities(WanCapabilities::Parse(m_capabilities, "--capabilities"));
    }
    topology.ApplyCityCapabilities(m_cityCapabilities, "--cityCapabilities");
    return topology;
}

std::string
WanCommandLine::PrepareOutput() const
{
    namespace fs = std::filesystem;
    if (m_output.empty())
    {
        throw std::runtime_error("--output: \"\": must not be empty");
    }
    std::error_code ec;
    const fs::path folder(m_output);
    if (fs::exists(folder, ec) && !fs::is_directory(folder, ec))
    {
        throw std::runtime_error("--output: " + Quote(m_output) + ": exists and is not a folder");
    }
    fs::create_directories(folder, ec);
    if (ec)
    {
        throw std::runtime_error("--output: " + Quote(m_output) + ": cannot create folder (" +
                                 ec.message() + ")");
    }
    // Permission bits do not tell the whole story (read-only mounts, ACLs): try a write.
    const fs::path probe = folder / WRITE_PROBE;
    {
        std::ofstream out(probe);
        out << "probe\n";
        if (!out)
        {
            throw std::runtime_error("--output: " + Quote(m_output) + ": folder is not writable");
        }
    }
    fs::remove(probe, ec);
    return m_output;
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

int
WanCommandLine::RunMain(int (*body)(int, char**), int argc, char** argv)
{
    int code = 1;
    try
    {
        code = body(argc, argv);
    }
    catch (const std::exception& e)
    {
        if (WanMpi::GetSize() > 1)
        {
            // The other ranks may be waiting for this one: end them all (MPI_Abort).
            std::cerr << "error: rank " << WanMpi::GetRank() << ": " << e.what() << std::endl;
            WanMpi::Abort(1);
        }
        std::cerr << "error: " << e.what() << std::endl;
    }
    WanMpi::Finalize();
    return code;
}

} // namespace ns3
