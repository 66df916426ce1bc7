/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROUND_CONFIG_H
#define ROUND_CONFIG_H

#include "clique-schedule.h"

#include "ns3/ipv4-address.h"

#include <cstdint>
#include <optional>
#include <vector>

/**
 * \file
 * \ingroup wan-training
 * What one island does in one round: the plan TrainingHelper makes, TrainingApplication keeps
 * and each round's exchange runs (below both, so that the exchanges need not know the
 * application).
 */

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief One stream an island sends in a DIRECT exchange: to a multicast group or one peer.
 */
struct TrainingStreamConfig
{
    std::vector<uint32_t> receivers; //!< peers the stream reaches, ascending
    Ipv4Address destination;         //!< the group (multicast) or the peer's address
    bool multicast{false};           //!< one multicast stream down the sender's tree
    double rateBps{0};               //!< pacing rate of wire bytes, bit/s (from the cost model)
    double resendWeight{1};          //!< pacing slots of one resend (SyncStream::resendWeight)
};

/**
 * \ingroup wan-training
 * \brief What one island does in one round of the schedule's period (set by TrainingHelper).
 */
struct TrainingRoundConfig
{
    uint32_t clique{0};                             //!< clique index within the round's partition
    std::vector<uint32_t> members;                  //!< the clique's islands, ascending (self too)
    SyncAlgorithm algorithm{SyncAlgorithm::DIRECT}; //!< how the clique exchanges
    uint32_t root{0};                               //!< TREE: the clique's root island
    std::vector<TrainingStreamConfig> streams;      //!< DIRECT: one multicast or k-1 unicast;
                                                    //!< TREE: a member's one stream up to the
                                                    //!< root, the root's down (like DIRECT's)
    std::vector<double> ringRateBps;                //!< RING: pacing rate per step, bit/s
    double estimatedSyncTime{0};                    //!< the cost model's sync time of the round, s
    std::optional<UpdateFormat> format;             //!< how the round's updates travel (none: the
                                                    //!< application's UpdateFormat)
};

} // namespace ns3

#endif /* ROUND_CONFIG_H */
