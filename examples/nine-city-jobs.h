/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Running nine-city-training's experiments: here, or in child processes that hand their results
 * back.
 */

#ifndef NINE_CITY_JOBS_H
#define NINE_CITY_JOBS_H

#include "nine-city-experiment.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{
namespace ninecity
{

/** \param r a result \return its summary.json entry */
nlohmann::json ResultJson(const ExperimentResult& r);

/**
 * \brief Write a file.
 * \param path the file \param text its content
 * \throws std::runtime_error naming the file on failure
 */
void WriteFile(const std::string& path, const std::string& text);

/**
 * \brief Run the jobs, up to \p workers at a time in child processes (in this process when
 *        workers is 1 and no job is a TCP baseline), and return their results in job order.
 *
 * A TCP baseline always runs in a child, even with one worker: ns-3's TCP can crash (see
 * "Known ns-3 defects" in doc/training.rst), and the crash must end that baseline, recorded
 * as not finished, not the whole run.
 *
 * Each child runs one job and writes its result as JSON into \p output/.parts; the parent
 * reads them back in order, so the outputs do not depend on the number of workers. A child
 * exits with its result's code (ResultExitCode); the parent combines them.
 * \param jobs the jobs \param config the settings \param workers processes at once
 * \param output the output folder \param exitCode receives the jobs' combined exit code
 * \return one result per job, in order
 * \throws std::runtime_error naming every job that failed
 */
std::vector<ExperimentResult> RunJobs(const std::vector<ExperimentJob>& jobs,
                                      const ExperimentConfig& config,
                                      uint32_t workers,
                                      const std::string& output,
                                      int& exitCode);

} // namespace ninecity
} // namespace ns3

#endif /* NINE_CITY_JOBS_H */
