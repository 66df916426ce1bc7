/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_COUNTERS_H
#define TRAINING_COUNTERS_H

#include "ns3/fpga-aggregator-net-device.h"
#include "ns3/ptr.h"
#include "ns3/transit-aggregator-net-device.h"
#include "ns3/wan-router-net-device.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief What the FPGAs did during a run, summed over every island's FPGA.
 *
 * In a lossless run whose plan the network can honour, partial, overflows and mismatches are
 * zero: each of them means a slot was flushed early or a chunk reached its island unfolded.
 */
struct TrainingFpgaCounters
{
    uint64_t aggregated{0};   //!< DATA contributions added into slots
    uint64_t duplicates{0};   //!< DATA copies of a sender already in the slot (absorbed)
    uint64_t complete{0};     //!< complete aggregates emitted
    uint64_t partial{0};      //!< partial aggregates emitted (early flushes included)
    uint64_t earlyFlushes{0}; //!< partial aggregates emitted early (every missing sender past)
    uint64_t overflows{0};    //!< DATA passed through for want of a free slot (slots exhausted)
    uint64_t mismatches{0};   //!< DATA passed through: members or sizes differ from the slot's
    uint64_t wraps{0};        //!< int32 element sums that wrapped around (real payloads)
    /** Packets passed through untouched, per FpgaAggregatorNetDevice::PassReason. */
    std::array<uint64_t, FpgaAggregatorNetDevice::PASS_REASON_COUNT> passThroughs{};
    /** Packets transit FPGAs passed on untouched, per TransitAggregatorNetDevice::PassReason
     *  (the totals above count edge and transit FPGAs alike). */
    std::array<uint64_t, TransitAggregatorNetDevice::PASS_REASON_COUNT> transitPassThroughs{};

    /** \param other counters to add to these (another FPGA's, another rank's) */
    void Add(const TrainingFpgaCounters& other);
    /** \param fpga an FPGA \brief add its counters to these */
    void Add(Ptr<const FpgaAggregatorNetDevice> fpga);
    /** \param transit a transit FPGA \brief add its counters to these */
    void AddTransit(Ptr<const TransitAggregatorNetDevice> transit);
};

/**
 * \ingroup wan-training
 * \brief What the WAN routers dropped during a run, summed over every city's router.
 */
struct TrainingRouterCounters
{
    /** Packets dropped, per WanRouterNetDevice::DropReason. */
    std::array<uint64_t, WanRouterNetDevice::DROP_REASON_COUNT> drops{};

    /** \param other counters to add to these */
    void Add(const TrainingRouterCounters& other);
    /** \param router a router \brief add its drops to these */
    void Add(Ptr<const WanRouterNetDevice> router);
    /** \return drops of every reason together */
    uint64_t GetTotal() const;
};

} // namespace ns3

#endif /* TRAINING_COUNTERS_H */
