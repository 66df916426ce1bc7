/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RESULTS_FOLDER_H
#define RESULTS_FOLDER_H

#include <ctime>
#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The one rule for where a run's results go (doc/training.rst, "Results folders").
 *
 * Without --output, a run writes into a new folder results/<program>/<UTC stamp>/ (results/
 * in the working directory, or the folder the environment variable RESULTS names; stamp
 * %Y%m%dT%H%M%SZ, then -2, -3, ... if that folder exists) and results/latest becomes a
 * relative symbolic link to <program>/<stamp>, replaced atomically (a link results/latest.tmp,
 * then rename()), so it always names the newest run of any program. A results/latest that is
 * a real folder (the old layout) is left alone and the run refused, before anything runs.
 *
 * With --output=DIR, DIR is created if missing and used if empty; an existing, non-empty DIR
 * is refused, so the files of two runs are never mixed. results/latest is not touched.
 *
 * Every failure throws WanInputError naming --output (or results/latest) and the path.
 */
class ResultsFolder
{
  public:
    /** Folder under which default runs go, relative to the working directory. */
    static const char ROOT[];
    /** Environment variable naming another results root (as the Python tools read it). */
    static const char ROOT_VARIABLE[];
    /** Name of the link to the newest run, inside ROOT. */
    static const char LATEST[];

    /** \return the results root: $RESULTS if set and not empty, else ROOT */
    static std::string GetRoot();
    /** \param when a time \return it as a UTC stamp, e.g. "20250101T120000Z" */
    static std::string UtcStamp(std::time_t when);

    /**
     * \brief Create root/program/stamp (or stamp-2, -3, ...) and point root/latest at it.
     * \param root the results root \param program the program's name \param stamp a stamp
     * \return the created folder, e.g. "results/nine-city-training/20250101T120000Z"
     * \throws WanInputError if root/latest is a real folder or anything cannot be created
     */
    static std::string CreateRun(const std::string& root,
                                 const std::string& program,
                                 const std::string& stamp);
    /**
     * \brief Use an explicit output folder: create it if missing, accept it if empty.
     * \param folder the folder as given
     * \return \p folder
     * \throws WanInputError naming --output and \p folder if it exists and is not an empty
     *         folder, or cannot be created
     */
    static std::string UseFolder(const std::string& folder);
    /**
     * \brief Prove a folder writable by writing and removing a probe file.
     * \param folder the folder
     * \throws WanInputError naming --output and \p folder otherwise
     */
    static void CheckWritable(const std::string& folder);
};

} // namespace ns3

#endif /* RESULTS_FOLDER_H */
