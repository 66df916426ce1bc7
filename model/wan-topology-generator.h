/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TOPOLOGY_GENERATOR_H
#define WAN_TOPOLOGY_GENERATOR_H

#include "wan-topology-draws.h"
#include "wan-topology-generator-params.h"
#include "wan-topology.h"

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Seeded generator of WAN topologies in named families.
 *
 * Pure data like WanTopology: it builds a WanTopology with AddCity, AddIsland and AddLink
 * (so every element passes the same checks as a file) and validates it. Families:
 *
 * - \c geometric: random cities in six land regions, each linked to its k nearest by great
 *   circle; the k-nearest graph's components are then joined by a minimum spanning tree over
 *   their closest pairs.
 * - \c ring: cities around the globe in longitude order, each linked to the next.
 * - \c hub: hub cities in a full mesh; every other city linked to its nearest hub.
 * - \c grid: a rows x cols lattice (cols = ceil(sqrt(cities)), last row left-aligned and
 *   possibly partial), links between horizontal and vertical neighbours.
 * - \c continents: two geometric clusters (North America, Europe) joined by crossLinks random
 *   long links.
 * - \c backbone: a chain of long-haul backbone cities across the globe, with metro spur cities
 *   near them, spur j hanging off backbone city j mod backboneCities.
 *
 * The output depends only on the parameters: coordinates (whole micro-degrees) and rates come
 * from integer arithmetic on the raw output of std::mt19937_64 engines seeded through
 * std::seed_seq (both fixed bit for bit by the C++ standard; one engine per aspect, so that
 * rates, islands and capabilities do not move the cities), and delays are rounded to whole
 * nanoseconds. See doc/topology.rst, section Generated topologies.
 */
class WanTopologyGenerator
{
  public:
    /** Largest number of cities. */
    static constexpr uint32_t MAX_CITIES = WanTopologyGeneratorParams::MAX_CITIES;
    /** Largest number of islands per city. */
    static constexpr uint32_t MAX_ISLANDS_PER_CITY =
        WanTopologyGeneratorParams::MAX_ISLANDS_PER_CITY;

    /**
     * \brief Generate a topology.
     * \param params the family, size, seed and values
     * \return the validated topology, named "<family>-<cities>-seed<seed>"
     * \throws WanTopologyError naming the parameter and its value if \p params is invalid
     */
    static WanTopology Generate(const WanTopologyGeneratorParams& params);
    /**
     * \brief Check parameters without generating.
     * \param params the parameters
     * \throws WanTopologyError "WanTopologyGenerator: <field>: <value>: <problem>"
     */
    static void CheckParams(const WanTopologyGeneratorParams& params);
    /** \return the family names, in the order documented */
    static std::vector<std::string> Families();
    /**
     * \brief Describe parameters as text, as written into the topology's description.
     * \param params the parameters \return e.g. "family=ring cities=8 seed=1 ..."
     */
    static std::string Describe(const WanTopologyGeneratorParams& params);

  private:
    /** \param params checked parameters */
    explicit WanTopologyGenerator(const WanTopologyGeneratorParams& params);

    /** A family: its name and the member that builds its cities and links. */
    struct Family
    {
        const char* name;                      //!< the family's name
        void (WanTopologyGenerator::*build)(); //!< adds the cities and links
    };

    /** The families, in the documented order: the one list of names. */
    static const std::array<Family, 6> FAMILIES;

    /** The geometric family. */
    void BuildGeometric();
    /** The ring family. */
    void BuildRing();
    /** The hub-and-spoke family. */
    void BuildHub();
    /** The grid family. */
    void BuildGrid();
    /** The two-continent family. */
    void BuildContinents();
    /** The backbone-with-spurs family. */
    void BuildBackbone();
    /** Add each city's islands. */
    void AddIslands();
    /** Draw which cities get each capability: round(fraction x cities) random cities. */
    void AssignCapabilities();

    /**
     * \brief Link every city of a group to its k nearest in the group, then join the
     *        group's components along a minimum spanning tree of great-circle distances.
     * \param group city indices
     */
    void LinkNearest(const std::vector<uint32_t>& group);
    /**
     * \brief Add a city at whole micro-degree coordinates, coded prefix + index.
     * \param prefix one letter naming the city's role
     * \param latMicro latitude, micro-degrees \param lonMicro longitude, micro-degrees
     * \return the city index
     */
    uint32_t AddCity(char prefix, int64_t latMicro, int64_t lonMicro);
    /**
     * \brief Add a city at a random point of one of the six land regions.
     * \param prefix one letter naming the city's role
     * \return the city index
     */
    uint32_t AddLandCity(char prefix);
    /**
     * \brief Add a city at a random point of a box.
     * \param prefix one letter naming the city's role
     * \param latLow, latHigh latitude range, degrees
     * \param lonLow, lonHigh longitude range, degrees
     * \return the city index
     */
    uint32_t AddCityIn(char prefix, int latLow, int latHigh, int lonLow, int lonHigh);
    /**
     * \brief Link two cities (unless linked) with a drawn rate and the physical delay in ns.
     * \param a one city \param b the other
     */
    void Link(uint32_t a, uint32_t b);
    /** \param a one city \param b another \return their great-circle distance, km */
    double Distance(uint32_t a, uint32_t b) const;

    WanTopologyGeneratorParams m_params;              //!< checked parameters
    WanTopologyDraws m_placeRng;                      //!< city positions and link choices
    WanTopologyDraws m_wanRateRng;                    //!< WAN link rates
    WanTopologyDraws m_islandRng;                     //!< island counts and access rates
    WanTopologyDraws m_capabilityRng;                 //!< which cities get multicast and FPGAs
    WanTopology m_topology;                           //!< the topology being built
    std::set<std::pair<uint32_t, uint32_t>> m_linked; //!< links added, as (low, high) cities
    double m_accessDelay;                             //!< access delay in whole nanoseconds
    std::vector<WanCapabilities> m_caps;              //!< capabilities of each city, by index
};

} // namespace ns3

#endif /* WAN_TOPOLOGY_GENERATOR_H */
