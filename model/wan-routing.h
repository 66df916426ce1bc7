/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_ROUTING_H
#define WAN_ROUTING_H

#include "wan-topology.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief One directed WAN hop: link \c link traversed from city \c from to city \c to.
 */
struct WanHop
{
    uint32_t link{0}; //!< index into WanTopology::GetLinks()
    uint32_t from{0}; //!< city the hop leaves
    uint32_t to{0};   //!< city the hop enters

    /** \param o other hop \return true if equal */
    bool operator==(const WanHop& o) const;
};

/**
 * \ingroup wan-training
 * \brief A (source, group) multicast distribution tree over the WAN routers.
 */
struct WanTree
{
    uint32_t root{0};              //!< the sender's city
    std::vector<WanHop> hops;      //!< directed tree edges, parents before children
    std::vector<uint32_t> routers; //!< every city on the tree (root, transit, leaves), sorted
};

/**
 * \ingroup wan-training
 * \brief The WAN controller's routes: shortest paths by propagation delay, trees, and the
 *        directed capacities ("resources") that flows consume.
 *
 * Computed once from a WanTopology with Boost.Graph (Dijkstra on integer nanoseconds). Ties
 * between equal-delay paths are broken deterministically: the predecessor with the lowest
 * city index wins. WanTopologyHelper installs these routes in the routers and SyncCostModel
 * charges flows along them, so packets and estimates follow the same paths.
 *
 * Resources are the directed capacities a flow can consume, numbered as follows (L links,
 * I islands): WAN link l from its end a to b is 2l, from b to a is 2l+1; island i's access
 * link towards its router (egress) is 2L+2i, from its router (ingress) is 2L+2i+1.
 */
class WanRouting
{
  public:
    /** Marker for "no link" (a city's route to itself). */
    static constexpr uint32_t NO_LINK = std::numeric_limits<uint32_t>::max();

    /**
     * \brief Compute all shortest paths. \param topology the topology (copied)
     */
    explicit WanRouting(const WanTopology& topology);

    /** \return the topology the routes were computed on */
    const WanTopology& GetTopology() const;

    /**
     * \param at the current city \param dst the destination city
     * \return the link to leave \p at by towards \p dst, or NO_LINK if at == dst
     */
    uint32_t GetNextLink(uint32_t at, uint32_t dst) const;
    /**
     * \param src source city \param dst destination city
     * \return the cities on the path, both ends included
     */
    std::vector<uint32_t> GetCityPath(uint32_t src, uint32_t dst) const;
    /** \param src source city \param dst destination city \return the directed hops of the path */
    std::vector<WanHop> GetPath(uint32_t src, uint32_t dst) const;
    /** \param src source city \param dst destination city \return WAN propagation delay, seconds */
    double GetPathDelay(uint32_t src, uint32_t dst) const;
    /**
     * \param src source city \param dst destination city
     * \return WAN propagation delay in nanoseconds (the sum of the links' rounded delays)
     */
    int64_t GetPathDelayNs(uint32_t src, uint32_t dst) const;
    /**
     * \param srcIsland sending island \param dstIsland receiving island
     * \return one-way propagation delay between the islands: both access links plus the WAN
     *         path (in-box FPGA links excluded)
     */
    double GetIslandDelay(uint32_t srcIsland, uint32_t dstIsland) const;

    /**
     * \brief The shortest-path tree from \p srcCity to every city in \p dstCities.
     * \param srcCity the root
     * \param dstCities the receivers' cities (duplicates and the root itself allowed)
     * \return the union of the shortest paths (a tree, since all paths come from one
     *         shortest-path tree rooted at \p srcCity)
     */
    WanTree GetTree(uint32_t srcCity, const std::vector<uint32_t>& dstCities) const;
    /**
     * \param tree a tree from GetTree()
     * \return true if every router on the tree is multicast-capable (the multicast rule shared
     *         by packets and the cost model)
     */
    bool IsMulticastCapable(const WanTree& tree) const;

    /**
     * \brief The longest round trip of any pair of distinct islands whose route crosses each
     *        link: what a queue of one bandwidth-delay product holds (WanQueueSpec "bdp").
     * \param linkRoundTrips receives, per WAN link (by index), the longest round trip of the
     *        pairs routed over it in either direction (0 if none), seconds
     * \param accessRoundTrips receives, per island, the longest round trip to another island
     *        (0 if it is the only one), seconds
     */
    void GetLongestRoundTrips(std::vector<double>& linkRoundTrips,
                              std::vector<double>& accessRoundTrips) const;

    /** \return the number of resources (2L + 2I) */
    uint32_t GetResourceCount() const;
    /** \param hop a directed WAN hop \return its resource index */
    uint32_t GetHopResource(const WanHop& hop) const;
    /** \param island island index \return the resource of its egress (island to router) */
    uint32_t GetAccessUpResource(uint32_t island) const;
    /** \param island island index \return the resource of its ingress (router to island) */
    uint32_t GetAccessDownResource(uint32_t island) const;
    /** \param resource a resource index \return its capacity, bits per second */
    double GetResourceCapacity(uint32_t resource) const;
    /**
     * \param resource a resource index
     * \return what it is, e.g. "link NYC to LON" or "ingress of NYC-0"
     */
    std::string GetResourceName(uint32_t resource) const;

    /**
     * \brief The rounding every delay goes through (link and access delays are compared, and
     *        installed in the simulator, as integer nanoseconds).
     * \param seconds a delay in seconds \return the nearest whole number of nanoseconds
     */
    static int64_t ToNanoSeconds(double seconds);

  private:
    /**
     * \brief Fill the shortest-path tree rooted at \p root from Dijkstra's distances, with the
     *        deterministic tie-break. \param root the root city \param dist distances, ns
     */
    void BuildTree(uint32_t root, const std::vector<int64_t>& dist);
    /** \param city a city index \param what its role, for the message \throws WanTopologyError */
    void CheckCity(uint32_t city, const char* what) const;
    /** \param src source \param dst destination \throws WanTopologyError if no route */
    void CheckReachable(uint32_t src, uint32_t dst) const;

    WanTopology m_topology;                          //!< the topology
    std::vector<std::vector<uint32_t>> m_nextLink;   //!< [at][dst] -> link index or NO_LINK
    std::vector<std::vector<uint32_t>> m_parent;     //!< [root][city] -> parent on root's tree
    std::vector<std::vector<double>> m_delay;        //!< [src][dst] -> WAN path delay, seconds
    std::vector<std::vector<uint32_t>> m_parentLink; //!< [root][city] -> link to the parent
    std::vector<std::vector<int64_t>> m_delayNs;     //!< [src][dst] -> WAN path delay, ns
    std::vector<std::vector<uint32_t>> m_depth;      //!< [root][city] -> hops from the root
};

} // namespace ns3

#endif /* WAN_ROUTING_H */
