/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SYNC_TREE_PLAN_H
#define SYNC_TREE_PLAN_H

#include "clique-mixing.h"
#include "max-min-fair-share.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

class SyncPathTable;
class WanRouting;

/**
 * \ingroup wan-training
 * \brief The flow-level shape of a reduction tree (SyncAlgorithm::TREE): which resources the
 *        up streams to a root use with which weights, and when the round ends.
 *
 * Up: every member m other than the root r sends its update along the unicast path to r
 * (SyncPathTable's resources: access up of m, the WAN hops, access down of r). Routes towards
 * one destination follow one next hop per city, so these paths form a tree into r's city. At
 * every city v with WanCapabilities::transit on the tree (m's own city and r's city included)
 * the transit FPGA merges what arrives into one aggregate of the members below v (those whose
 * path passes v). Each of the n members merged into the aggregate that crosses a resource uses
 * it with weight r(n)/n: together they cost one stream of sums of n, r(n) times the bits of
 * one member's (1 in int32; a sum of int8 values travels as int16), as the k-1 streams an edge
 * FPGA folds on an island's ingress do. A resource before any transit city carries the member's own
 * stream (weight 1). A transit FPGA with a finite service rate is one more resource, used by every
 * piece that enters it with the weight of the resource it arrived on; each transit city on a
 * path adds the transit latency to the stream's delay.
 *
 * Down: the root sends the sum to the other members as a DIRECT sender would (SyncCostModel
 * builds those streams with the multicast rule, without FPGA folding).
 *
 * Times (Complete()): up streams start at 0. With W the wire bits of a member's update, c1 its
 * first chunk's, W' and cL' those of the root's sum and its last chunk (the same in int32),
 * and per up stream its rate x_m and delay d_m: the root holds the first chunk of every member
 * at A = max_m (c1 / x_m + d_m) and the last at U = max_m (W / x_m + d_m). A down stream of
 * rate y and delay e (to its farthest receiver) starts at A and its last chunk leaves at
 * E = max(A + W' / y, U + cL' / y): it can neither
 * start before the first chunk is complete nor send the last chunk before the root has it.
 * It arrives at E + e; the clique's time is the latest arrival over the down streams.
 */
class SyncTreePlan
{
  public:
    /** Marker: no transit FPGA resources (unlimited service rate). */
    static constexpr uint32_t NO_RESOURCE = std::numeric_limits<uint32_t>::max();

    /** One member's stream up to the root. */
    struct UpStream
    {
        uint32_t member{0};                         //!< the sending island
        std::vector<MaxMinFairShare::Usage> usages; //!< (resource, weight) it uses
        double delay{0};                            //!< propagation + transit latencies, s
        bool aggregated{false};                     //!< a transit FPGA merges it somewhere
    };

    /** An update as one stream sends it, in wire bits (headers included). */
    struct StreamBits
    {
        double whole{0}; //!< all of it
        double first{0}; //!< its first chunk
        double last{0};  //!< its last chunk
    };

    /** A stream's rate and delay, the inputs of Complete(). */
    struct Leg
    {
        double rate;  //!< bit/s
        double delay; //!< s
    };

    /** The times Complete() derives, s from the start of the sync phase. */
    struct Times
    {
        double downStart{0};          //!< A: the root holds every member's first chunk
        double upEnd{0};              //!< U: the root holds every member's last chunk
        std::vector<double> downSent; //!< per down stream: E, its last chunk leaves the root
    };

    /** \brief An empty plan: no cities. */
    SyncTreePlan();
    /**
     * \brief Precompute the city paths and the transit cities of the routes.
     * \param routing the WAN controller's routes (read only during the call)
     */
    explicit SyncTreePlan(const WanRouting& routing);

    /** \return the number of cities */
    uint32_t GetCityCount() const;
    /** \param city a city \return true if it has a transit FPGA */
    bool IsTransit(uint32_t city) const;

    /**
     * \brief The up streams of a clique's tree.
     * \param paths the routes' paths (of the same routing)
     * \param clique the members \param root the root (a member)
     * \param transitLatency added per transit city on a path, s
     * \param transitBase resource index of city 0's transit FPGA (city v: transitBase + v), or
     *        NO_RESOURCE if transit FPGAs are not resources
     * \param sumRatio [n]: the wire bits of a sum of n members' chunks over one member's
     *        (r(n) above), for n up to the clique's size
     * \param ups receives one stream per member other than the root, in clique order
     */
    void BuildUp(const SyncPathTable& paths,
                 const Clique& clique,
                 uint32_t root,
                 double transitLatency,
                 uint32_t transitBase,
                 const std::vector<double>& sumRatio,
                 std::vector<UpStream>& ups) const;

    /**
     * \brief A tree's completion from its streams' rates (formula in the class description).
     * \param up the up streams \param down the down streams (delay to the farthest receiver)
     * \param upBits a member's update (W and c1) \param downBits the root's sum (W' and cL')
     * \param times if not null, receives A, U and each down stream's E
     * \return the clique's time: max over down streams of E + delay, s (+inf if a rate is 0)
     */
    static double Complete(const std::vector<Leg>& up,
                           const std::vector<Leg>& down,
                           const StreamBits& upBits,
                           const StreamBits& downBits,
                           Times* times);

  private:
    std::vector<uint32_t> m_islandCity; //!< island -> city
    std::vector<bool> m_cityTransit;    //!< city -> transit FPGA beside its router
    /** [src][dst]: the cities of the path, both ends included. */
    std::vector<std::vector<std::vector<uint32_t>>> m_cityPath;
    /** Scratch of BuildUp(): per city, the members below it in the current tree. */
    mutable std::vector<uint32_t> m_below;
};

inline uint32_t
SyncTreePlan::GetCityCount() const
{
    return static_cast<uint32_t>(m_cityTransit.size());
}

inline bool
SyncTreePlan::IsTransit(uint32_t city) const
{
    return m_cityTransit[city];
}

} // namespace ns3

#endif /* SYNC_TREE_PLAN_H */
