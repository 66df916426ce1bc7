/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SYNC_ALGORITHM_CHOICE_H
#define SYNC_ALGORITHM_CHOICE_H

#include "clique-mixing.h"
#include "clique-schedule.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class SyncCostModel;

/**
 * \ingroup wan-training
 * \brief The per-clique decisions the optimiser takes from SyncCostModel's estimates: the
 *        algorithm of a clique and the root of a TREE clique, each for the clique alone on
 *        the WAN. SyncCostModel::ChooseAlgorithm() and ChooseRoot() call these.
 */
class SyncAlgorithmChoice
{
  public:
    /**
     * \brief The fastest algorithm: DIRECT on ties and for k <= 2, RING if strictly faster
     *        than DIRECT, TREE (with its best root) only if strictly faster than both and only
     *        on a WAN with at least one transit city.
     * \param model the cost model (routing set) \param clique the members \param modelBytes M
     * \return DIRECT, RING or TREE
     */
    static SyncAlgorithm ChooseAlgorithm(const SyncCostModel& model,
                                         const Clique& clique,
                                         uint64_t modelBytes);
    /**
     * \brief The member whose tree has the lowest estimate (SyncCostModel::EstimateTreeTime());
     *        ties, within a relative 1e-12, to the lowest island index.
     * \param model the cost model \param clique the members (k >= 1) \param modelBytes M
     * \param time if not null, receives the root's tree time, s
     * \return the root island
     */
    static uint32_t ChooseRoot(const SyncCostModel& model,
                               const Clique& clique,
                               uint64_t modelBytes,
                               double* time);
    /**
     * \param model the cost model \param partition a partition \param algorithms per clique
     * \param modelBytes M
     * \return per clique: ChooseRoot() for TREE cliques, else SyncRoundEstimate::NO_ROOT
     */
    static std::vector<uint32_t> ChooseRoots(const SyncCostModel& model,
                                             const Partition& partition,
                                             const std::vector<SyncAlgorithm>& algorithms,
                                             uint64_t modelBytes);
    /**
     * \brief A lower bound on the DIRECT estimate of a clique alone on the WAN, from the
     *        access links: the streams through one share its capacity.
     * \param model the cost model \param clique the members \param modelBytes M
     * \return the bound, s
     */
    static double DirectLowerBound(const SyncCostModel& model,
                                   const Clique& clique,
                                   uint64_t modelBytes);
};

} // namespace ns3

#endif /* SYNC_ALGORITHM_CHOICE_H */
