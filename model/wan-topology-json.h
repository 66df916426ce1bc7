/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TOPOLOGY_JSON_H
#define WAN_TOPOLOGY_JSON_H

#include "wan-topology.h"

#include <cstdint>
#include <string>

namespace ns3
{

class WanJsonObject;

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
    /**
     * \brief A field naming a city by code (topology files, cross-traffic files).
     * \param object the JSON object holding the field
     * \param key a required field whose value is a city code
     * \param topology the topology the code must name a city of
     * \return the city index \throws WanInputError "unknown city code" otherwise
     */
    static uint32_t CityField(const WanJsonObject& object,
                              const char* key,
                              const WanTopology& topology);
};

} // namespace ns3

#endif /* WAN_TOPOLOGY_JSON_H */
