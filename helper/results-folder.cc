/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "results-folder.h"

#include "ns3/log.h"
#include "ns3/wan-input-error.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ResultsFolder");

const char ResultsFolder::ROOT[] = "results";
const char ResultsFolder::LATEST[] = "latest";
const char ResultsFolder::ROOT_VARIABLE[] = "RESULTS";

namespace
{

namespace fs = std::filesystem;

/** strftime format of the stamp: ISO 8601 basic, UTC. */
const char STAMP_FORMAT[] = "%Y%m%dT%H%M%SZ";
/** Room for a stamp and its terminating zero. */
constexpr size_t STAMP_SIZE = 32;
/** Most runs of one program within one second (suffixes -2 .. -MAX_RUNS_PER_STAMP). */
constexpr int MAX_RUNS_PER_STAMP = 1000;
/** Suffix of the temporary link that replaces results/latest. */
const char TEMPORARY_SUFFIX[] = ".tmp";
/** Name of the probe file CheckWritable() writes and removes. */
const char WRITE_PROBE[] = ".wan-training-write-test";

/**
 * \param what the source named in the message (--output or results/latest)
 * \param path the path \param problem what is wrong
 * \return the exception to throw
 */
WanInputError
Refusal(const std::string& what, const fs::path& path, const std::string& problem)
{
    return WanInputError(what + ": " + WanInputError::Quote(path.string()) + ": " + problem);
}

/**
 * \brief Point root/latest at target atomically: a link latest.tmp, renamed over latest.
 * \param root the results root \param target the link's content, relative to root
 */
void
ReplaceLatest(const fs::path& root, const fs::path& target)
{
    const fs::path latest = root / ResultsFolder::LATEST;
    const fs::path temporary = root / (std::string(ResultsFolder::LATEST) + TEMPORARY_SUFFIX);
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(temporary, ec)))
    {
        fs::remove(temporary, ec); // left by a run that was killed between the two steps
    }
    fs::create_symlink(target, temporary, ec);
    if (!ec)
    {
        fs::rename(temporary, latest, ec);
    }
    if (ec)
    {
        throw Refusal(latest.string(),
                      latest,
                      "cannot link it to the new run (" + ec.message() + ")");
    }
}

} // namespace

std::string
ResultsFolder::GetRoot()
{
    const char* root = std::getenv(ROOT_VARIABLE);
    return root != nullptr && root[0] != '\0' ? root : ROOT;
}

std::string
ResultsFolder::UtcStamp(std::time_t when)
{
    std::tm utc{};
    gmtime_r(&when, &utc);
    char text[STAMP_SIZE];
    const size_t length = std::strftime(text, sizeof(text), STAMP_FORMAT, &utc);
    return std::string(text, length);
}

std::string
ResultsFolder::CreateRun(const std::string& root,
                         const std::string& program,
                         const std::string& stamp)
{
    const fs::path rootPath(root);
    const fs::path latest = rootPath / LATEST;
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(latest, ec);
    if (fs::exists(status) && !fs::is_symlink(status))
    {
        // Checked before anything is created: a refused run leaves no trace.
        throw Refusal(latest.string(),
                      latest,
                      std::string(fs::is_directory(status) ? "is a folder" : "is a file") +
                          " (the old layout; it is now a link to the newest run): move it "
                          "away, e.g. mv " +
                          latest.string() + " " + (rootPath / "old-latest").string() +
                          ", then run again");
    }
    const fs::path programFolder = rootPath / program;
    fs::create_directories(programFolder, ec);
    if (ec)
    {
        throw Refusal("--output", programFolder, "cannot create folder (" + ec.message() + ")");
    }
    for (int run = 1; run <= MAX_RUNS_PER_STAMP; ++run)
    {
        const std::string name = run == 1 ? stamp : stamp + "-" + std::to_string(run);
        // create_directory is false, without error, if the folder exists: try the next name.
        if (fs::create_directory(programFolder / name, ec))
        {
            ReplaceLatest(rootPath, fs::path(program) / name);
            NS_LOG_INFO("results in " << (programFolder / name).string());
            return (programFolder / name).string();
        }
        if (ec)
        {
            throw Refusal("--output",
                          programFolder / name,
                          "cannot create folder (" + ec.message() + ")");
        }
    }
    throw Refusal("--output", programFolder / stamp, "too many runs within one second");
}

std::string
ResultsFolder::UseFolder(const std::string& folder)
{
    if (folder.empty())
    {
        throw WanInputError("--output: \"\": must not be empty");
    }
    const fs::path path(folder);
    std::error_code ec;
    if (fs::exists(path, ec))
    {
        if (!fs::is_directory(path, ec))
        {
            throw Refusal("--output", path, "exists and is not a folder");
        }
        if (!fs::is_empty(path, ec))
        {
            throw Refusal("--output",
                          path,
                          "exists and is not empty (results of two runs are never mixed: "
                          "remove it, or name a new folder)");
        }
        return folder;
    }
    fs::create_directories(path, ec);
    if (ec)
    {
        throw Refusal("--output", path, "cannot create folder (" + ec.message() + ")");
    }
    return folder;
}

void
ResultsFolder::CheckWritable(const std::string& folder)
{
    // Permission bits do not tell the whole story (read-only mounts, ACLs): try a write.
    const fs::path probe = fs::path(folder) / WRITE_PROBE;
    {
        std::ofstream out(probe);
        out << "probe\n";
        if (!out)
        {
            throw Refusal("--output", folder, "folder is not writable");
        }
    }
    std::error_code ec;
    fs::remove(probe, ec);
}

} // namespace ns3
