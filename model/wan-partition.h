/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PARTITION_H
#define WAN_PARTITION_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class WanTopology;

/**
 * \ingroup wan-training
 * \brief Which rank of a distributed run (ns-3's MPI engine, WanMpi) simulates which city.
 *
 * A city's nodes (router, FPGAs, islands) share a rank, so only WAN links join ranks, and
 * their smallest delay is the run's lookahead. WanTopologyHelper::SetCitySystemIds gives the
 * nodes these ranks as their system ids; TrainingHelper::PartitionCities estimates the loads.
 */
class WanPartition
{
  public:
    /**
     * \brief Assign cities to ranks: among the assignments whose largest rank load is within
     *        LOAD_TOLERANCE of the smallest possible, the one with the largest lookahead
     *        (smallest delay of a link between ranks), then the smallest largest load, then
     *        the first in lexicographic order.
     * \param topology the WAN (cities, links and their delays)
     * \param cityLoad estimated work of each city, in handlings of one packet by a device
     * \param linkPackets packets each link carries; where a link joins two ranks, each of them
     *        also pays CROSS_PACKET_WORK per packet (serialisation, MPI messages)
     * \param ranks number of ranks, 1 .. number of cities
     * \return the rank of every city; every rank gets at least one city
     *
     * Exhaustive up to MAX_EXHAUSTIVE assignments, else the longest-load-first greedy. Links
     * of zero delay never cross ranks; std::invalid_argument when that makes it impossible.
     */
    static std::vector<uint32_t> Balance(const WanTopology& topology,
                                         const std::vector<double>& cityLoad,
                                         const std::vector<double>& linkPackets,
                                         uint32_t ranks);

    /**
     * \brief Read an explicit assignment, e.g. "NYC:0,LAX:1,LON:1" (--partition).
     * \param spec comma-separated CITY:RANK, every city once \param topology the WAN
     * \param ranks number of ranks \return the rank of every city
     *
     * std::invalid_argument naming the item when a city is unknown, missing or repeated, a
     * rank is out of range or unused, or a link without delay would join two ranks.
     */
    static std::vector<uint32_t> Parse(const std::string& spec,
                                       const WanTopology& topology,
                                       uint32_t ranks);

    /**
     * \param topology the WAN \param cityRanks rank of every city
     * \return the smallest delay of a link between two ranks (0 if none joins two ranks)
     */
    static Time GetLookahead(const WanTopology& topology, const std::vector<uint32_t>& cityRanks);

    /**
     * \param topology the WAN \param cityRanks rank of every city
     * \return the assignment as Parse() reads it
     */
    static std::string Format(const WanTopology& topology, const std::vector<uint32_t>& cityRanks);

    /**
     * \param topology the WAN \param cityRanks rank of every city
     * \return Format() and the lookahead, e.g. "A:0,B:1, lookahead +2ms", for logs
     */
    static std::string Describe(const WanTopology& topology,
                                const std::vector<uint32_t>& cityRanks);

    /**
     * \brief Check what a distributed run was asked for before anything runs: the number of
     *        ranks (CheckRanks) and, if given, the explicit assignment (Parse).
     * \param spec --partition, or "" \param topology the WAN \param ranks number of ranks
     */
    static void Check(const std::string& spec, const WanTopology& topology, uint32_t ranks);

    /**
     * \brief Check a number of ranks against a topology: 1 to its number of cities.
     * \param ranks the number asked for \param cities the topology's cities
     *
     * Throws std::invalid_argument naming the value and the range otherwise.
     */
    static void CheckRanks(uint32_t ranks, uint32_t cities);

    /**
     * Work of one packet crossing ranks, at each end, in handlings of one packet by a device
     * (ns-3's MPI interface sends every packet as its own MPI message: serialisation, buffers,
     * MPI progress and deserialisation). Measured with training-bench (doublezero-9, 200 MB,
     * MTU 9000, none, null-message): 2 ranks spent 4.2 CPU seconds more than one process for
     * 0.9 million crossings, about 4.6 us each, where one process spends about 0.45 us per
     * device handling. Values from 5 to 14 choose the same split there; 0.65 (sockets with
     * batched frames) cut twice as many packets and ran 1.4 times slower.
     */
    static constexpr double CROSS_PACKET_WORK = 5;

    /**
     * Loads are estimates: assignments within this fraction of the best balance count as
     * balanced, and the lookahead chooses among them (fewer synchronisations).
     */
    static constexpr double LOAD_TOLERANCE = 0.03;

    /** Largest number of assignments Balance tries one by one. */
    static constexpr uint64_t MAX_EXHAUSTIVE = 2000000;
};

} // namespace ns3

#endif /* WAN_PARTITION_H */
