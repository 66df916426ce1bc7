/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EXCHANGE_BOUND_H
#define EXCHANGE_BOUND_H

#include "ns3/chunk-layout.h"
#include "ns3/clique-schedule.h"
#include "ns3/training-application.h"
#include "ns3/wan-routing.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief A lower bound on a clique's exchange time that does not use the cost model: the
 *        bytes every link direction must carry, at its capacity, plus propagation.
 *
 * The exchange of one clique in one round lasts from its first member's sync start to its
 * last member's sync end; every byte the exchange needs crosses the network inside that
 * window. For each directed resource r of WanRouting (a WAN link direction, an island's
 * access link up or down) the bound counts the payload bytes B_r the exchange must put on it
 * (headers, resends and acknowledgements only add), and the exchange lasts at least
 *
 *   B_r * 8 / C_r + min over flows f crossing r of up_f(r) + min over f of down_f(r)
 *
 * where up_f(r) is the propagation from f's source island to r and down_f(r) from r (its own
 * delay included) to f's destination island: nothing reaches r before the earliest flow's
 * data could, and the last byte r sends still has to travel on. Each flow alone also needs
 * its own path's propagation plus its own bytes at its path's narrowest capacity (whatever is
 * shared, a flow's M bytes, or the aggregates holding them, all cross every resource of its
 * path). The bound is the largest of these terms over the resources and the flows, so at
 * least the longest path between two members that exchange. (The plain sum "largest B_r/C_r
 * plus the longest path delay" is not a bound: the busiest link may carry only short paths,
 * whose bytes cross while the long path's propagate.)
 *
 * B_r per algorithm (M the model's bytes):
 *  - ring all-reduce: each member sends its ring segments (ChunkLayout's, 2(k-1) steps) to
 *    its successor in the clique's member order, along the shortest path. A ring's longest
 *    path is the chain of 2(k-1) successive member-to-member paths a segment travels (reduced
 *    on the way, then gathered); one starts at every member, so the bound takes the longest;
 *  - direct, unicast (a unicast-only transport such as TCP, or no city with multicast): every
 *    member sends M to every other member along its path, so B_r is M times the (source,
 *    destination) pairs whose path crosses r;
 *  - direct, multicast (some city's router replicates): a source's update crosses each
 *    resource of its tree once, so B_r is M times the sources whose paths cross r;
 *  - and on the access link down to an island whose city has an FPGA (in-line in front of its
 *    islands, it sums what arrives for them), unless the transport is unicast-only: M, one
 *    aggregate, whatever the number of sources. WAN links and the links up carry what the
 *    senders send: FPGAs aggregate only on the way into their islands.
 *
 * A reduction tree (SyncAlgorithm::TREE) with root r has its own bound, GetTreeBound(): every
 * member m != r sends M up its unicast path to r; a city with a transit FPGA (capability
 * transit) merges what passes it, so a resource on the way up carries M once per piece that
 * crosses it, a piece being a member's own update until its first transit city and, after
 * transit city v, the one aggregate of everything below v. The root sends the sum down: M once
 * per resource of its tree if some city replicates multicast, else once per (resource,
 * destination). The bound is the busiest resource direction, B_r * 8 / C_r, plus the tree's
 * up-and-down delay: the longest member-to-root path delay plus the longest root-to-member
 * path delay (the root starts a chunk down only once every member's piece of it is in, and the
 * last member must still receive it). With a TREE algorithm and no root, GetCliqueBound() takes
 * the least bound over the members as roots. A unicast-only transport uses no transit FPGA and
 * no multicast.
 */
class ExchangeBound
{
  public:
    /**
     * \param routing the routes (kept by reference: must outlive this); the capabilities of
     *        its topology's cities decide what may be shared
     * \param modelBytes M, bytes of each island's update
     * \param unicastOnly the transport sends unicast copies whatever the capabilities (TCP)
     */
    ExchangeBound(const WanRouting& routing, uint64_t modelBytes, bool unicastOnly);
    /**
     * \brief Count the bytes of an update format other than int32 (default int32: the model
     *        bytes as they are): a DIRECT flow carries the format's payload, an FPGA's sum the
     *        payload of its wider sums, and FPGAs fold only summable formats.
     * \param format the update format \param chunkPayloadBytes the most payload per packet
     */
    void SetUpdateFormat(const UpdateFormat& format, uint32_t chunkPayloadBytes);

    /**
     * \param members the clique's islands, in ring order
     * \param algorithm how the clique exchanges
     * \return the lower bound on its exchange time, s (0 for a clique of one)
     */
    double GetCliqueBound(const std::vector<uint32_t>& members, SyncAlgorithm algorithm) const;
    /**
     * \param members the clique's islands \param root the tree's root (a member)
     * \return the bound of a reduction tree to \p root (see the class description), s
     */
    double GetTreeBound(const std::vector<uint32_t>& members, uint32_t root) const;

    /** Simulated exchange times beside their bounds, over the clique-rounds of a run. */
    struct Comparison
    {
        uint32_t exchanges{0};  //!< clique-rounds compared (every member finished, k >= 2)
        double meanExchange{0}; //!< mean of last sync end - first sync start, s
        double meanBound{0};    //!< mean of GetCliqueBound over the same, s
        double minRatio{0};     //!< smallest exchange / bound of one clique-round
    };

    /**
     * \param records every island's round records
     * \param schedule the schedule that ran (algorithms per clique)
     * \param firstRound rounds before it are left out (warm-up rounds)
     * \return the comparison over every clique-round from \p firstRound on that every member
     *         finished
     */
    Comparison Compare(const std::vector<TrainingRoundRecord>& records,
                       const CliqueSchedule& schedule,
                       uint32_t firstRound = 0) const;

  private:
    /** \return the payload bytes of one island's update on the wire (a DIRECT flow) */
    uint64_t DirectBytes() const;
    /**
     * \param k clique size \return the payload bytes of an FPGA's sums of the k-1 peers'
     *        updates
     */
    uint64_t DirectSumBytes(uint32_t k) const;
    /**
     * \param k ring members \param segment a segment \param step the ring step carrying it
     * \return its payload bytes in the step's encoding (ChunkLayout::GetRingStepPayload)
     */
    uint64_t RingStepBytes(uint32_t k, uint32_t segment, uint32_t step) const;

    /** One flow: bytes from a source island to a destination island. */
    struct Flow
    {
        uint32_t src;   //!< source island
        uint32_t dst;   //!< destination island
        uint64_t bytes; //!< payload bytes
        uint64_t sum;   //!< payload bytes into the destination where its FPGA folds the flows
    };

    /**
     * \param flows the exchange's flows
     * \param shared flows of a direct exchange (multicast and FPGAs may share their bytes);
     *        false: every flow's bytes count on every resource of its path (ring)
     * \return the bound of those flows, s
     */
    double Bound(const std::vector<Flow>& flows, bool shared) const;

    const WanRouting& m_routing;         //!< the routes
    uint64_t m_modelBytes;               //!< M
    std::optional<ChunkLayout> m_layout; //!< the update's chunks in its format (not int32)
    bool m_multicast;                    //!< a source's bytes count once per resource
    std::vector<bool> m_aggregate;       //!< per island: its access link down carries one update
    std::vector<bool> m_transit;         //!< per city: a transit FPGA merges reduction-tree pieces
};

} // namespace ns3

#endif /* EXCHANGE_BOUND_H */
