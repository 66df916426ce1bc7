/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * nine-city-training: the experiments' runner and the parts files of its children.
 */

#include "nine-city-jobs.h"

#include "ns3/child-process-pool.h"
#include "ns3/training-output.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-input-error.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{
namespace ninecity
{

namespace
{

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
        throw std::runtime_error("--output: cannot create " + WanInputError::Quote(parts) + ": " +
                                 std::strerror(errno));
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
            std::cerr << "error: " << JobName(jobs[index]) << ": "
                      << WanInputError::Escape(e.what()) << std::endl;
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

} // namespace

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

void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out)
    {
        throw std::runtime_error("--output: cannot write " + WanInputError::Quote(path));
    }
}

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

} // namespace ninecity
} // namespace ns3
