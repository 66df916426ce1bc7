/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TOPOLOGY_GENERATOR_PARAMS_H
#define WAN_TOPOLOGY_GENERATOR_PARAMS_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief What WanTopologyGenerator builds: a family, a size, a seed and the values it draws.
 *
 * Field names double as the names in error messages and, where a flag exists, as the
 * topology-generator example's flag names. Family-specific fields are ignored by the other
 * families.
 */
struct WanTopologyGeneratorParams
{
    /** Largest number of cities. */
    static constexpr uint32_t MAX_CITIES = 1024;
    /** Largest number of islands per city. */
    static constexpr uint32_t MAX_ISLANDS_PER_CITY = 16;

    std::string family{"geometric"}; //!< one of WanTopologyGenerator::Families()
    uint32_t cities{16};             //!< number of cities, 2..MAX_CITIES
    uint64_t seed{1};                //!< seed of the generator's own engines (any value)

    uint32_t islandsPerCity{1};    //!< islands per city (the minimum when a maximum is set)
    uint32_t maxIslandsPerCity{0}; //!< 0: every city gets islandsPerCity; else a random count
                                   //!< in [islandsPerCity, maxIslandsPerCity] per city

    uint64_t wanBps{100000000000ULL};   //!< WAN link rate, bits/s (the minimum with wanBpsMax)
    uint64_t wanBpsMax{0};              //!< 0: every link at wanBps; else a random rate per
                                        //!< link in [wanBps, wanBpsMax]
    uint64_t accessBps{10000000000ULL}; //!< island access rate, bits/s (minimum with a max)
    uint64_t accessBpsMax{0};           //!< 0: every island at accessBps; else a random rate
                                        //!< per island in [accessBps, accessBpsMax]
    double accessDelay{50e-6};          //!< island access delay, seconds (>= 0; whole ns)
    double routeFactor{1.3}; //!< WAN delay = great circle / (c/1.468) x routeFactor (>= 1)

    double multicastFraction{1.0}; //!< round(fraction x cities) multicast-capable cities
    double fpgaFraction{1.0};      //!< round(fraction x cities) cities with an FPGA
    double transitFraction{0.0};   //!< round(fraction x cities) cities with a transit FPGA

    uint32_t k{3};              //!< geometric, continents: nearest neighbours linked (1..32)
    uint32_t hubs{1};           //!< hub: hub cities, fully meshed (1..min(cities-1, 64))
    uint32_t crossLinks{2};     //!< continents: links between the two clusters (1..64)
    uint32_t backboneCities{0}; //!< backbone: cities on the chain (0: round(sqrt(cities)),
                                //!< at least 2; else 1..cities)

    /**
     * \brief Check every parameter's range, before anything is built.
     * \param families the known family names (WanTopologyGenerator::Families())
     * \throws WanTopologyError "WanTopologyGenerator: <field>: <value>: <problem>"
     */
    void Check(const std::vector<std::string>& families) const;
    /** \return the parameters as text, e.g. "family=ring cities=8 seed=1 ..." */
    std::string Describe() const;
};

} // namespace ns3

#endif /* WAN_TOPOLOGY_GENERATOR_PARAMS_H */
