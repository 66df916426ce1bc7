/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLIQUE_SCHEDULE_FILE_H
#define CLIQUE_SCHEDULE_FILE_H

#include "clique-schedule.h"

#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The JSON schedule file format: reading with validation, and writing.
 *
 * \code
 * { "name": "moshpit-grid", "islands": 9,
 *   "rounds": [ { "cliques": [[0,1,2],[3,4,5],[6,7,8]],
 *                 "algorithms": ["direct","direct","ring"] } ] }
 * \endcode
 *
 * Reading follows the input rules shared with topology files (WanJsonInput): no repeated or
 * unknown keys, a name that outputs carry as it is, 1..WanTopology::MAX_ISLANDS islands, and
 * every round a partition of them. Errors name the file, the field and the value (see
 * doc/input-rules.rst). CliqueSchedule's ToJson, Parse, LoadFile and SaveFile call these.
 */
class CliqueScheduleFile
{
  public:
    /**
     * \param schedule a schedule
     * \return it as a JSON document that Parse() reads back to an equal schedule
     */
    static std::string ToJson(const CliqueSchedule& schedule);
    /**
     * \brief Parse and validate a JSON schedule.
     * \param text the document \param source the name used in error messages (file path)
     * \return the schedule \throws WanInputError naming \p source, the field and the value
     */
    static CliqueSchedule Parse(const std::string& text, const std::string& source);
    /**
     * \param path a JSON schedule file \return the schedule
     * \throws WanInputError naming the file, the field and the value
     */
    static CliqueSchedule LoadFile(const std::string& path);
    /**
     * \param schedule a schedule \param path the file to write
     * \throws std::runtime_error naming the file on failure
     */
    static void SaveFile(const CliqueSchedule& schedule, const std::string& path);
};

} // namespace ns3

#endif /* CLIQUE_SCHEDULE_FILE_H */
