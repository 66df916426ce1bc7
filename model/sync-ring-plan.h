/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SYNC_RING_PLAN_H
#define SYNC_RING_PLAN_H

#include "clique-mixing.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class ChunkLayout;

class SyncPathTable;

/**
 * \ingroup wan-training
 * \brief The timing of a RING clique (ring all-reduce) from its streams' rates, as
 *        SyncCostModel estimates it.
 *
 * The steps are not synchronous: as in TrainingApplication, a member starts step s once it has
 * handed its own step s-1 to the socket and has received all of its predecessor's step s-1,
 * and it is done when it has sent every step and received the last. Pacing hands a step's
 * last packet to the socket one packet before the step's fluid end; that packet then crosses
 * every link of the path store-and-forward and propagates.
 */
class SyncRingPlan
{
  public:
    /** When one ring member sends one step, s from the start of the sync phase. */
    struct StepTime
    {
        double start;   //!< first packet leaves
        double arrival; //!< last packet reaches the successor
    };

    /**
     * \brief A RING clique's completion by the application's step recurrence.
     * \param paths the routes' paths \param ring members in ring order
     * \param rates by ring position, bit/s \param layout how the update is cut (segments,
     *        chunks, each step's encoding) \param overhead header bytes per packet
     * \param times if not null, receives [position][step] times
     * \param completion if not null, receives each position's completion, s
     * \return the clique's sync time: the mean of its members' completions, s
     */
    static double Complete(const SyncPathTable& paths,
                           const Clique& ring,
                           const std::vector<double>& rates,
                           const ChunkLayout& layout,
                           uint64_t overhead,
                           std::vector<std::vector<StepTime>>* times,
                           std::vector<double>* completion);
};

} // namespace ns3

#endif /* SYNC_RING_PLAN_H */
