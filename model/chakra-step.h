/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_STEP_H
#define CHAKRA_STEP_H

#include "chakra-trace.h"
#include "fragment-plan.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief One rank's training step read from its Chakra trace: the compute it runs and the
 *        gradient synchronisations it issues, timed as a data-parallel step runs them.
 *
 * Compute nodes (COMP_NODE) run one at a time on the device, in the trace's dependency order
 * (ChakraTrace::GetTopologicalOrder), each when the device is free and its dependencies have
 * ended, for its duration_micros. A synchronisation is ready when the nodes it depends on have
 * ended; what its exchange takes is the network's business, so a dependency between two
 * collectives only orders them.
 *
 * What the nodes mean:
 *
 * | node | here |
 * |---|---|
 * | COMP_NODE | compute on the device, duration_micros |
 * | COMM_COLL_NODE ALL_REDUCE | a synchronisation of comm_size bytes (a gradient bucket) |
 * | COMM_COLL_NODE REDUCE_SCATTER | a synchronisation of comm_size bytes (sharded data
 * parallelism's gradient reduction; the exchange averages the whole bucket, which the all-gather
 * after it would bring back) | | COMM_COLL_NODE ALL_GATHER | no time of its own: its parameters are
 * the average the synchronisation already delivered | | METADATA_NODE | no time | | anything else |
 * refused: memory, point-to-point, storage, batch and checkpoint nodes are no part of a
 * data-parallel step here |
 *
 * Refused too, naming the node: a compute node that depends on a synchronisation (compute
 * after the exchange is not modelled: a round's compute comes before its exchanges end), a
 * synchronisation of 0 bytes, buckets that sum to more than ChunkLayout::MAX_MODEL_BYTES (the
 * largest update a round carries), compute that would end beyond ns-3's Time
 * (WanUnits::MAX_TIME_SECONDS), other collectives, and a step without any synchronisation.
 */
class ChakraStep
{
  public:
    /** A synchronisation of the step (a gradient bucket). */
    struct Sync
    {
        uint64_t nodeId{0}; //!< its node's id
        std::string name;   //!< its node's name
        uint64_t bytes{0};  //!< comm_size
        Time ready;         //!< when its dependencies have ended, from the step's start
    };

    /**
     * \param trace one rank's trace
     * \throws ChakraTraceError naming the node that cannot be part of a step (above)
     */
    explicit ChakraStep(const ChakraTrace& trace);

    /** \return when the last compute node ends, from the step's start (0 without compute) */
    Time GetComputeTime() const;
    /** \return the synchronisations in the order they are issued: by ready time, then by
     *          their place in the dependency order */
    const std::vector<Sync>& GetSyncs() const;
    /** \return the bytes of all synchronisations */
    uint64_t GetSyncBytes() const;
    /**
     * \return the step as rounds run it: its synchronisations as fragments, each sent when
     *         ready, the last when compute ends (FragmentPlan's plan of buckets)
     */
    FragmentPlan MakePlan() const;

  private:
    /** \brief Refuse the node types a step cannot hold (the table above). */
    void CheckTypes(const ChakraTrace& trace) const;
    /**
     * \brief Time the nodes in dependency order: compute on the device, synchronisations
     *        ready when their dependencies end.
     */
    void RunNodes(const ChakraTrace& trace);
    /**
     * \param trace the trace \param index a node (its dependencies timed already)
     * \return when its dependencies have ended (a collective's dependency counts as ended at
     *         its ready time: only compute takes time here); notes whether it comes after a
     *         synchronisation
     * \throws ChakraTraceError if a compute node comes after a synchronisation, directly or
     *         through other nodes
     */
    Time DependenciesEnd(const ChakraTrace& trace, std::size_t index);
    /**
     * \param node a node \return true if it is a synchronisation (ALL_REDUCE or
     *         REDUCE_SCATTER)
     */
    static bool IsSync(const ChakraNode& node);

    Time m_computeTime;            //!< GetComputeTime
    std::vector<Sync> m_syncs;     //!< GetSyncs
    std::vector<Time> m_end;       //!< per node index: when it ends (collectives: when ready)
    std::vector<bool> m_afterSync; //!< per node index: it depends on a synchronisation
};

} // namespace ns3

#endif /* CHAKRA_STEP_H */
