/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TOPOLOGY_JSON_H
#define WAN_TOPOLOGY_JSON_H

#include "wan-topology.h"

#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The JSON topology file format: reading with validation, and writing.
 *
 * Reading follows the input rules shared with schedule files (WanJsonInput: no repeated or
 * unknown keys, names that outputs carry as they are) and the topology's own ranges; it builds
 * the topology with WanTopology::AddCity, AddIsland and AddLink, so a file passes the same
 * checks as code, and ends with WanTopology::Validate. Everything is checked at load, before a
 * simulation or an optimisation starts. Format and rules: doc/topology.rst and
 * doc/input-rules.rst.
 */
class WanTopologyJson
{
  public:
    /**
     * \brief Read and validate a JSON topology file.
     * \param path the file
     * \return the topology
     * \throws WanTopologyError naming the file, the field and the value
     */
    static WanTopology LoadFile(const std::string& path);
    /**
     * \brief Parse and validate JSON text.
     * \param text the JSON document
     * \param source the name used in error messages (usually the file path)
     * \return the topology
     * \throws WanTopologyError naming \p source, the field and the value
     */
    static WanTopology Parse(const std::string& text, const std::string& source);
    /**
     * \param topology a topology
     * \return it as a JSON document that Parse() reads back to an equal topology
     */
    static std::string ToJson(const WanTopology& topology);
};

} // namespace ns3

#endif /* WAN_TOPOLOGY_JSON_H */
