/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SYNC_PATH_TABLE_H
#define SYNC_PATH_TABLE_H

#include "clique-mixing.h"
#include "max-min-fair-share.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class WanRouting;

/**
 * \ingroup wan-training
 * \brief The routes of a WanRouting in the form SyncCostModel reads them many times: every
 *        island pair's unicast resources and delay, each resource's capacity, and the
 *        multicast tree of every island city, computed once.
 *
 * The optimiser estimates many rounds on the same routes, so nothing here is recomputed per
 * estimate: a round's streams look their paths up, and a multicast stream walks its sender's
 * stored shortest-path tree (WalkTree()) instead of asking WanRouting for a tree per stream.
 */
class SyncPathTable
{
  public:
    /** \brief An empty table: no islands. */
    SyncPathTable();
    /**
     * \brief Precompute the paths and trees of the routes.
     * \param routing the WAN controller's routes (read only during the call)
     */
    explicit SyncPathTable(const WanRouting& routing);

    /** \return the number of islands */
    uint32_t GetIslandCount() const;
    /** \param island an island \return true if its city has an FPGA */
    bool HasFpga(uint32_t island) const;
    /**
     * \param src sending island \param dst receiving island (not src)
     * \return the unicast path's resources: access up, the WAN hops, access down
     */
    const std::vector<uint32_t>& GetPathResources(uint32_t src, uint32_t dst) const;
    /** \param src sending island \param dst receiving island \return the path's delay, s */
    double GetPathDelay(uint32_t src, uint32_t dst) const;
    /**
     * \param src sending island \param dst receiving island (not src)
     * \return the capacity of the narrowest link on the path, bit/s
     */
    double GetPathRate(uint32_t src, uint32_t dst) const;
    /** \param src an island \return GetPathRate() to every island (0 to itself) */
    std::vector<double> GetPathRates(uint32_t src) const;
    /** \return every resource's capacity, bit/s, by WanRouting resource index */
    const std::vector<double>& GetCapacities() const;
    /** \param resource a WanRouting resource \return its capacity, bit/s */
    double GetCapacity(uint32_t resource) const;
    /**
     * \brief The time from handing one packet to the first link until it reaches \p dst: it
     *        crosses every link of the path store-and-forward, then propagates.
     * \param src sending island \param dst receiving island \param wireBytes the packet's size
     * \return the transit time, s
     */
    double GetPacketTransit(uint32_t src, uint32_t dst, uint64_t wireBytes) const;
    /**
     * \brief Walk the sender's multicast tree to the other members of its clique.
     * \param sender the sending island \param clique the members (the sender included)
     * \param hops if not null, receives each tree hop's resource with weight 1
     * \return true if every router on the tree is multicast-capable
     */
    bool WalkTree(uint32_t sender,
                  const Clique& clique,
                  std::vector<MaxMinFairShare::Usage>* hops) const;

  private:
    std::vector<uint32_t> m_islandCity;                              //!< island -> city
    std::vector<bool> m_islandFpga;                                  //!< island -> FPGA in front
    std::vector<std::vector<std::vector<uint32_t>>> m_pathResources; //!< [src][dst] WAN hops
    std::vector<std::vector<double>> m_pathDelay;                    //!< [src][dst] island delay, s
    std::vector<double> m_capacity;                                  //!< resource capacity, bit/s
    /**
     * [root][city]: the city's parent on the shortest-path tree rooted at the root city
     * (WanRouting::GetTree()), or the root itself for the root and unreachable cities.
     */
    std::vector<std::vector<uint32_t>> m_treeParent;
    std::vector<std::vector<uint32_t>> m_treeHop; //!< [root][city]: resource of parent -> city
    std::vector<bool> m_cityMulticast;            //!< city -> multicast-capable router
    /** Scratch of WalkTree(): the last tree walk (stamp) that reached each city. */
    mutable std::vector<uint64_t> m_cityStamp;
    mutable uint64_t m_stamp; //!< the current tree walk's stamp
};

// The lookups below sit on the optimiser's inner loops: inline.

inline uint32_t
SyncPathTable::GetIslandCount() const
{
    return static_cast<uint32_t>(m_islandCity.size());
}

inline bool
SyncPathTable::HasFpga(uint32_t island) const
{
    return m_islandFpga[island];
}

inline const std::vector<uint32_t>&
SyncPathTable::GetPathResources(uint32_t src, uint32_t dst) const
{
    return m_pathResources[src][dst];
}

inline double
SyncPathTable::GetPathDelay(uint32_t src, uint32_t dst) const
{
    return m_pathDelay[src][dst];
}

inline const std::vector<double>&
SyncPathTable::GetCapacities() const
{
    return m_capacity;
}

inline double
SyncPathTable::GetCapacity(uint32_t resource) const
{
    return m_capacity[resource];
}

} // namespace ns3

#endif /* SYNC_PATH_TABLE_H */
