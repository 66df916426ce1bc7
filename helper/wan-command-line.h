/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_COMMAND_LINE_H
#define WAN_COMMAND_LINE_H

#include "ns3/command-line.h"
#include "ns3/cross-traffic-file.h"
#include "ns3/wan-flags.h"
#include "ns3/wan-topology.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The command-line contract shared by every wan-training example.
 *
 * Registers --topology, --capabilities, --cityCapabilities, --seed and --output on an ns-3
 * CommandLine (which already rejects unknown flags with exit code 1), then validates the
 * values: numeric flags registered through Flags() (WanFlags) are parsed strictly and
 * range-checked by Parse(), LoadTopology() reads the file and applies the capability set and
 * the per-city overrides, and PrepareOutput() creates the output folder by the results-folder
 * rule (ResultsFolder). Every failure throws WanInputError (or std::runtime_error) naming the
 * flag and the value; RunMain() turns that into a message on stderr and exit code 1.
 *
 * Exit codes of every example: EXIT_COMPLETE (0), EXIT_BAD_INPUT (1, also any other error)
 * and, for runs that can end partially, EXIT_PARTIAL (3).
 */
class WanCommandLine
{
  public:
    /** Exit code: the run is complete (every round, every peer). */
    static constexpr int EXIT_COMPLETE = 0;
    /** Exit code: bad input (or another error), reported on stderr before anything ran. */
    static constexpr int EXIT_BAD_INPUT = 1;
    /** Exit code: results written, but partial (lost peers, unfinished rounds, a guard hit). */
    static constexpr int EXIT_PARTIAL = 3;
    /**
     * \param a an exit code \param b another
     * \return the code of both together: EXIT_BAD_INPUT if either is, else EXIT_PARTIAL if
     *         either is, else EXIT_COMPLETE
     */
    static int CombineExitCodes(int a, int b);

    /** Most training rounds a flag accepts (records are kept per island and round). */
    static constexpr uint32_t MAX_ROUNDS = 1000000;
    /** Largest schedule period the optimiser's flags accept. */
    static constexpr uint32_t MAX_PERIOD = 16;
    /** Most child processes --jobs starts at once. */
    static constexpr uint32_t MAX_JOBS = 1024;

    /** Whether the program runs on a topology file. */
    enum TopologyFlags
    {
        WITH_TOPOLOGY,   //!< --topology, --capabilities and --cityCapabilities
        WITHOUT_TOPOLOGY //!< none of them: a program that builds its own network
    };

    /**
     * \param program the program's name (its folder under results/, ResultsFolder)
     * \param usage one-paragraph description printed by --help
     * \param topology whether to register the topology flags (LoadTopology needs them)
     */
    WanCommandLine(const std::string& program,
                   const std::string& usage,
                   TopologyFlags topology = WITH_TOPOLOGY);

    /** \return the underlying CommandLine, to add the example's own flags before Parse() */
    CommandLine& Get();
    /** \return the numeric flags, to add the example's own before Parse() */
    WanFlags& Flags();
    /**
     * \brief Parse argv and check every numeric flag (WanFlags::Check); sets the ns-3 RNG
     *        seed from --seed.
     * \param argc argument count \param argv arguments
     * \throws WanInputError "--flag=VALUE: problem" for a bad numeric flag
     */
    void Parse(int argc, char** argv);
    /**
     * \param name a flag's name, without dashes
     * \return true if the command line named it (--name=value, or --name for a boolean), even
     *         with its default value: for refusing a flag where it does not apply
     */
    bool IsGiven(const std::string& name) const;

    /**
     * \brief Load --topology, then apply --capabilities (if given) and --cityCapabilities.
     * \return the validated topology
     * \throws WanTopologyError naming the flag, file, field and value
     */
    WanTopology LoadTopology() const;
    /**
     * \brief Create the output folder: --output if given (missing or empty), else a new
     *        results/<program>/<UTC stamp>/ linked from results/latest (ResultsFolder).
     * \return the folder path
     * \throws WanInputError naming --output (or results/latest) and the path if it is not
     *         empty, cannot be created or written
     */
    std::string PrepareOutput() const;

    /** \return --topology (default: data/topologies/doublezero-9.json, found relative to the
     *          working directory or the module's source folder) */
    const std::string& GetTopologyPath() const;
    /** \return --capabilities ("" when not given: the file's own capabilities stand) */
    const std::string& GetCapabilities() const;
    /** \return --queue as given ("" when the topology file's queues stand) */
    const std::string& GetQueue() const;
    /** \return --cityCapabilities ("" when not given) */
    const std::string& GetCityCapabilities() const;
    /** \return --seed */
    uint32_t GetSeed() const;
    /** \return --output as given ("": the default results folder, see PrepareOutput) */
    const std::string& GetOutput() const;
    /** \return the program's name */
    const std::string& GetProgram() const;

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

    /**
     * \brief Accept --capabilities=all, for examples that run every capability set themselves
     *        (before LoadTopology()); elsewhere "all" is refused.
     */
    void AllowCapabilitySweep();
    /**
     * \brief Register --crossTraffic=FILE, for examples that run training (before Parse()).
     *        A relative path is found like --topology's (ResolveDataPath).
     */
    void AddCrossTrafficFlag();
    /**
     * \brief Load --crossTraffic (CrossTrafficFile) against the topology its flows run on.
     * \param topology the topology (city codes)
     * \return the flows; empty when the flag is not given
     * \throws WanInputError "--crossTraffic: FILE: field: value: problem"
     */
    std::vector<CrossTrafficFlow> LoadCrossTraffic(const WanTopology& topology) const;
    /** \return --crossTraffic, resolved ("" when not given) */
    const std::string& GetCrossTrafficPath() const;

  private:
    /** \brief Register --topology, --capabilities and --cityCapabilities. */
    void AddTopologyFlags();

    std::string m_program;                   //!< the program's name
    CommandLine m_cmd;                       //!< the ns-3 command line
    WanFlags m_flags;                        //!< numeric flags over m_cmd
    std::set<std::string> m_given;           //!< names of the flags argv holds
    std::string m_topology;                  //!< --topology
    std::string m_capabilities;              //!< --capabilities
    std::string m_cityCapabilities;          //!< --cityCapabilities
    std::string m_queue;                     //!< --queue
    std::optional<WanQueueSpec> m_queueSpec; //!< --queue, read (none: the file's)
    uint32_t m_seed;                         //!< --seed
    std::string m_output;                    //!< --output
    std::string m_crossTraffic;              //!< --crossTraffic (AddCrossTrafficFlag)
    bool m_sweep{false};                     //!< --capabilities=all allowed
    TopologyFlags m_topologyFlags;           //!< whether the topology flags exist
};

} // namespace ns3

#endif /* WAN_COMMAND_LINE_H */
