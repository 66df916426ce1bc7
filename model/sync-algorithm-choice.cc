/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sync-algorithm-choice.h"

#include "sync-cost-model.h"
#include "sync-path-table.h"
#include "wan-routing.h"
#include "wan-wire.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SyncAlgorithmChoice");

namespace
{
/**
 * Relative margin by which DirectLowerBound() must exceed the faster of RING and TREE to
 * settle a clique's algorithm without the DIRECT estimate: far above the rounding of
 * progressive filling.
 */
constexpr double LOWER_BOUND_MARGIN = 1e-9;
/**
 * Relative margin by which a root's tree must beat the best so far to be chosen: below it the
 * two count as a tie (rounding of symmetric topologies) and the lower island index keeps it.
 */
constexpr double ROOT_TIE_MARGIN = 1e-12;
} // namespace

uint32_t
SyncAlgorithmChoice::ChooseRoot(const SyncCostModel& model,
                                const Clique& clique,
                                uint64_t modelBytes,
                                double* time)
{
    NS_LOG_FUNCTION(modelBytes);
    NS_ASSERT_MSG(!clique.empty(), "a clique has members");
    Clique members = clique;
    std::sort(members.begin(), members.end());
    uint32_t best = members.front();
    double bestTime = std::numeric_limits<double>::infinity();
    for (uint32_t r : members)
    {
        // Ascending order and a strict improvement beyond rounding: ties keep the lowest.
        const double t = model.EstimateTreeTime(clique, r, modelBytes);
        if (t < bestTime * (1 - ROOT_TIE_MARGIN))
        {
            best = r;
            bestTime = t;
        }
    }
    if (time)
    {
        *time = bestTime;
    }
    return best;
}

std::vector<uint32_t>
SyncAlgorithmChoice::ChooseRoots(const SyncCostModel& model,
                                 const Partition& partition,
                                 const std::vector<SyncAlgorithm>& algorithms,
                                 uint64_t modelBytes)
{
    NS_LOG_FUNCTION(modelBytes);
    std::vector<uint32_t> roots(partition.size(), SyncRoundEstimate::NO_ROOT);
    for (uint32_t c = 0; c < partition.size(); ++c)
    {
        if (algorithms.at(c) == SyncAlgorithm::TREE && partition[c].size() >= 2)
        {
            roots[c] = ChooseRoot(model, partition[c], modelBytes, nullptr);
        }
    }
    return roots;
}

double
SyncAlgorithmChoice::DirectLowerBound(const SyncCostModel& model,
                                      const Clique& clique,
                                      uint64_t modelBytes)
{
    NS_LOG_FUNCTION(modelBytes);
    // Rates are fair shares of capacities: the streams through an access link share its
    // capacity, so the slowest of them has at most capacity / streams (with the FPGA's weight
    // 1/(k-1) on an ingress, that is the whole capacity), and its stream time is at least its
    // wire bits over that rate (delays only add).
    const SyncPathTable& paths = model.GetPathTable();
    const WanRouting& routing = model.GetRouting();
    const uint32_t k = clique.size();
    const double wireBits = WanWire::BITS_PER_BYTE * model.GetWireBytes(modelBytes);
    double bound = 0;
    for (uint32_t s : clique)
    {
        const double streams = paths.WalkTree(s, clique, nullptr) ? 1.0 : k - 1.0;
        bound =
            std::max(bound, streams * wireBits / paths.GetCapacity(routing.GetAccessUpResource(s)));
        const double ingress =
            paths.HasFpga(s) && model.FpgasFold() ? model.GetFoldedSumRatio(k) : k - 1.0;
        bound = std::max(bound,
                         ingress * wireBits / paths.GetCapacity(routing.GetAccessDownResource(s)));
    }
    return bound;
}

SyncAlgorithm
SyncAlgorithmChoice::ChooseAlgorithm(const SyncCostModel& model,
                                     const Clique& clique,
                                     uint64_t modelBytes)
{
    NS_LOG_FUNCTION(modelBytes);
    // bf16 and top-k are exchanged DIRECT (TrainingSupport).
    const UpdateFormat& format = model.GetUpdateFormat();
    if (clique.size() <= 2 || !format.IsSummable())
    {
        return SyncAlgorithm::DIRECT;
    }
    const Partition alone{clique};
    const double ring = model.EstimateSyncTime(alone, {SyncAlgorithm::RING}, modelBytes);
    // TREE is the exchange of transit aggregation: on a WAN without any transit FPGA it is not
    // considered, so the choices there stay what they were before it existed.
    const auto& cities = model.GetRouting().GetTopology().GetCities();
    double tree = std::numeric_limits<double>::infinity();
    if (std::any_of(cities.begin(), cities.end(), [](const WanCity& c) { return c.caps.transit; }))
    {
        ChooseRoot(model, clique, modelBytes, &tree);
    }
    // TREE only where it is strictly faster than RING (and than DIRECT, below).
    const SyncAlgorithm other = tree < ring ? SyncAlgorithm::TREE : SyncAlgorithm::RING;
    const double otherTime = std::min(ring, tree);
    // DIRECT of a large clique without multicast is k(k-1) streams, and its estimate the
    // costliest of the optimiser; a lower bound that already loses settles it. The margin
    // covers the rounding of the fair-share sums.
    if (DirectLowerBound(model, clique, modelBytes) * (1 - LOWER_BOUND_MARGIN) > otherTime)
    {
        return other;
    }
    const double direct = model.EstimateSyncTime(alone, {SyncAlgorithm::DIRECT}, modelBytes);
    return otherTime < direct ? other : SyncAlgorithm::DIRECT;
}

} // namespace ns3
