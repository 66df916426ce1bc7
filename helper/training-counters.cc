/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-counters.h"

#include <numeric>

namespace ns3
{

void
TrainingFpgaCounters::Add(const TrainingFpgaCounters& other)
{
    aggregated += other.aggregated;
    duplicates += other.duplicates;
    complete += other.complete;
    partial += other.partial;
    earlyFlushes += other.earlyFlushes;
    overflows += other.overflows;
    mismatches += other.mismatches;
    wraps += other.wraps;
    for (size_t r = 0; r < passThroughs.size(); ++r)
    {
        passThroughs[r] += other.passThroughs[r];
    }
    for (size_t r = 0; r < transitPassThroughs.size(); ++r)
    {
        transitPassThroughs[r] += other.transitPassThroughs[r];
    }
}

void
TrainingRouterCounters::Add(const TrainingRouterCounters& other)
{
    for (size_t r = 0; r < drops.size(); ++r)
    {
        drops[r] += other.drops[r];
    }
}

uint64_t
TrainingRouterCounters::GetTotal() const
{
    return std::accumulate(drops.begin(), drops.end(), uint64_t(0));
}

void
TrainingFpgaCounters::Add(Ptr<const FpgaAggregatorNetDevice> fpga)
{
    aggregated += fpga->GetAggregatedCount();
    duplicates += fpga->GetDuplicateCount();
    complete += fpga->GetCompleteCount();
    partial += fpga->GetPartialCount();
    earlyFlushes += fpga->GetEarlyFlushCount();
    overflows += fpga->GetPassThroughCount(FpgaAggregatorNetDevice::PASS_OVERFLOW);
    mismatches += fpga->GetPassThroughCount(FpgaAggregatorNetDevice::PASS_MISMATCH);
    wraps += fpga->GetWrapCount();
    for (uint32_t r = 0; r < FpgaAggregatorNetDevice::PASS_REASON_COUNT; ++r)
    {
        passThroughs[r] +=
            fpga->GetPassThroughCount(static_cast<FpgaAggregatorNetDevice::PassReason>(r));
    }
}

void
TrainingFpgaCounters::AddTransit(Ptr<const TransitAggregatorNetDevice> transit)
{
    using Transit = TransitAggregatorNetDevice;
    aggregated += transit->GetAggregatedCount();
    duplicates += transit->GetDuplicateCount();
    complete += transit->GetCompleteCount();
    partial += transit->GetPartialCount();
    earlyFlushes += transit->GetEarlyFlushCount();
    overflows += transit->GetPassThroughCount(Transit::PASS_OVERFLOW);
    mismatches += transit->GetPassThroughCount(Transit::PASS_MISMATCH);
    wraps += transit->GetWrapCount();
    for (uint32_t r = 0; r < Transit::PASS_REASON_COUNT; ++r)
    {
        transitPassThroughs[r] += transit->GetPassThroughCount(static_cast<Transit::PassReason>(r));
    }
}

void
TrainingRouterCounters::Add(Ptr<const WanRouterNetDevice> router)
{
    for (uint32_t r = 0; r < WanRouterNetDevice::DROP_REASON_COUNT; ++r)
    {
        drops[r] += router->GetDropCount(static_cast<WanRouterNetDevice::DropReason>(r));
    }
}

} // namespace ns3
