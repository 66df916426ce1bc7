/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_COMMAND_LINE_H
#define WAN_COMMAND_LINE_H

#include "ns3/command-line.h"
#include "ns3/wan-topology.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The command-line contract shared by every wan-training example.
 *
 * Registers --topology, --capabilities, --cityCapabilities, --seed and --output on an ns-3
 * CommandLine (which already rejects unknown flags and ill-typed values with exit code 1), then
 * validates the values: LoadTopology() reads the file and applies the capability set and the
 * per-city overrides, and PrepareOutput() creates the output folder. Every failure throws
 * WanTopologyError (or std::runtime_error) naming the flag and the value; RunMain() turns that
 * into a message on stderr and exit code 1.
 */
class WanCommandLine
{
  public:
    /** \param usage one-paragraph description printed by --help */
    explicit WanCommandLine(const std::string& usage);

    /** \return the underlying CommandLine, to add the example's own flags before Parse() */
    CommandLine& Get();
    /**
     * \brief Parse argv; sets the ns-3 RNG seed from --seed.
     * \param argc argument count \param argv arguments
     */
    void Parse(int argc, char** argv);

    /**
     * \brief Load --topology, then apply --capabilities (if given) and --cityCapabilities.
     * \return the validated topology
     * \throws WanTopologyError naming the flag, file, field and value
     */
    WanTopology LoadTopology() const;
    /**
     * \brief Create the --output folder (and parents) if needed.
     * \return the folder path
     * \throws std::runtime_error naming --output and the path if it cannot be created or written
     */
    std::string PrepareOutput() const;

    /** \return --topology (default: data/topologies/doublezero-9.json, found relative to the
     *          working directory or the module's source folder) */
    const std::string& GetTopologyPath() const;
    /** \return --capabilities ("" when not given: the file's own capabilities stand) */
    const std::string& GetCapabilities() const;
    /** \return --cityCapabilities ("" when not given) */
    const std::string& GetCityCapabilities() const;
    /** \return --seed */
    uint32_t GetSeed() const;
    /** \return --output */
    const std::string& GetOutput() const;

    /**
     * \brief Find a relative data path from the working directory, else from the module's
     *        source folder (so examples and tests find data/ from any working directory,
     *        in-tree and standalone).
     * \param path the path as given
     * \return an existing path, or \p path unchanged so an error names what the user typed
     */
    static std::string ResolveDataPath(const std::string& path);

    /**
     * \brief Run an example's body, turning exceptions into a message and exit code 1.
     * \param body the example's main work \return the process exit code
     */
    static int RunMain(int (*body)(int, char**), int argc, char** argv);

  private:
    CommandLine m_cmd;              //!< the ns-3 command line
    std::string m_topology;         //!< --topology
    std::string m_capabilities;     //!< --capabilities
    std::string m_cityCapabilities; //!< --cityCapabilities
    uint32_t m_seed;                //!< --seed
    std::string m_output;           //!< --output
};

} // namespace ns3

#endif /* WAN_COMMAND_LINE_H */
