/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MAX_MIN_FAIR_SHARE_H
#define MAX_MIN_FAIR_SHARE_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Max-min fair rates of flows over shared capacities, by exact progressive filling.
 *
 * Each flow lists the resources it uses with a weight: one unit of the flow's rate consumes
 * \c weight units of the resource's capacity (1 normally; 1/(k-1) for each of the k-1 streams
 * an FPGA folds into one stream on an island's ingress). Progressive filling raises the rates
 * of all unfrozen flows together, freezes every flow that crosses the first resource to
 * saturate, and repeats until every flow is frozen. The result is the unique max-min fair
 * allocation: every flow crosses a saturated resource on which no other flow has a higher
 * rate.
 *
 * Plain data, no simulator objects. The WAN controller of the training application and
 * SyncCostModel share this one implementation.
 */
class MaxMinFairShare
{
  public:
    /** One use of a resource by a flow: (resource index, weight). */
    using Usage = std::pair<uint32_t, double>;

    MaxMinFairShare() = default;

    /**
     * \param capacity the resource's capacity (same unit as the rates, e.g. bit/s), >= 0
     * \return the resource's index
     */
    uint32_t AddResource(double capacity);
    /**
     * \brief Add a flow. Repeated resources are merged (their weights add); zero weights are
     *        ignored. A flow that uses no resource is unconstrained: its rate is +infinity.
     * \param usages the resources it uses, with weights > 0
     * \return the flow's index
     */
    uint32_t AddFlow(const std::vector<Usage>& usages);
    /** \return the number of resources */
    uint32_t GetResourceCount() const;
    /** \return the number of flows */
    uint32_t GetFlowCount() const;
    /** \param flow a flow index \return its merged usages, in order of first use */
    std::vector<Usage> GetFlowUsages(uint32_t flow) const;
    /** \param resource a resource index \return its capacity */
    double GetCapacity(uint32_t resource) const;
    /** \brief Remove all resources and flows. */
    void Clear();

    /** \return each flow's max-min fair rate, by flow index */
    std::vector<double> Solve() const;

  private:
    /** The state of one progressive filling (Solve()): rates, residuals and active flows. */
    struct FillState;

    std::vector<double> m_capacity; //!< by resource
    /** \param flow a flow index \return the index of its first usage in m_usages */
    std::size_t Begin(uint32_t flow) const;

    /**
     * \brief Index the flows by resource: size st.onStart and st.flowsOn for them.
     * \param st the filling state
     */
    void IndexResources(FillState& st) const;
    /**
     * \brief Start every flow: a flow without usages gets rate +infinity and is frozen at
     *        once; the others add their weights to their resources and are listed on them.
     * \param st the filling state
     */
    void StartFlows(FillState& st) const;
    /**
     * \brief List the resources some unfrozen flow uses, ascending, in st.active.
     * \param st the filling state
     */
    void ListActiveResources(FillState& st) const;
    /**
     * \param st the filling state
     * \return the smallest increment of the common rate that saturates an active resource
     */
    double SaturatingStep(const FillState& st) const;
    /**
     * \brief Raise the common rate of the unfrozen flows by \p step and consume capacity.
     * \param st the filling state \param step the increment
     */
    void Fill(FillState& st, double step) const;
    /**
     * \brief Freeze every unfrozen flow that crosses a saturated resource.
     * \param st the filling state
     */
    void FreezeSaturated(FillState& st) const;
    /**
     * \brief Freeze one flow at the current level and release its weights.
     * \param st the filling state \param flow an unfrozen flow
     */
    void FreezeFlow(FillState& st, uint32_t flow) const;
    /**
     * \brief Drop the resources no unfrozen flow uses any more from st.active.
     * \param st the filling state
     */
    void DropIdleResources(FillState& st) const;

    std::vector<Usage> m_usages;        //!< merged usages of every flow, flow after flow
    std::vector<std::size_t> m_flowEnd; //!< by flow: one past its last usage in m_usages
    /** Scratch of AddFlow(): position + 1 of each resource in the flow being merged, else 0. */
    std::vector<uint32_t> m_slot;
};

} // namespace ns3

#endif /* MAX_MIN_FAIR_SHARE_H */
