/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ISLAND_NUMERICS_H
#define ISLAND_NUMERICS_H

#include "chunk-layout.h"
#include "sparse-change.h"
#include "training-workload.h"
#include "update-format.h"

#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class RoundExchange;

/**
 * \ingroup wan-training
 * \brief One island's parameters on their way to the wire and back: its inner steps, its own
 *        real payload of an exchange (the parameters in fixed point or bf16, or its top-k change:
 *        SparseChange) and the average an exchange brings back.
 *
 * TrainingApplication drives the round and asks this for the numbers; with virtual payloads it
 * only runs the workload's inner steps (if a workload is set).
 */
class IslandNumerics
{
  public:
    /**
     * \brief Set up for a run, checking that a real run has a real workload of the update's size.
     * \param workload the numerics (shared by all islands; null: none)
     * \param island this island \param islandCount N
     * \param real real payloads \param elements the update's elements (ChunkLayout)
     * \param scale the fixed-point Scale \param residualDecay SparseChange's decay
     */
    void Configure(Ptr<TrainingWorkload> workload,
                   uint32_t island,
                   uint32_t islandCount,
                   bool real,
                   uint64_t elements,
                   double scale,
                   double residualDecay);
    /** \brief Let go of the workload. */
    void Dispose();
    /**
     * \brief The compute phase's numerics: the island's inner steps of a round (a real top-k
     *        change starts here).
     * \param round the round \param innerSteps its inner steps \param format its update format
     */
    void TakeInnerSteps(uint32_t round, uint32_t innerSteps, const UpdateFormat& format);
    /**
     * \brief The island's own real payload of an exchange.
     * \param round the round (for messages) \param format its update format
     * \param members the clique's members \param layout how the update is cut
     * \param own receives the values
     * \return why they cannot travel (the run's error), or empty
     */
    std::string Encode(uint32_t round,
                       const UpdateFormat& format,
                       uint32_t members,
                       const ChunkLayout& layout,
                       std::vector<int32_t>& own);
    /**
     * \brief Take the average an ended exchange brings (top-k: the mean change, added to where
     *        the island's change started).
     * \param exchange the exchange \param format its update format
     */
    void Average(const RoundExchange& exchange, const UpdateFormat& format);

  private:
    Ptr<TrainingWorkload> m_workload; //!< the numerics (null: none)
    uint32_t m_island{0};             //!< this island
    uint32_t m_islandCount{0};        //!< N
    bool m_real{false};               //!< real payloads
    double m_scale{1};                //!< fixed-point Scale
    SparseChange m_change;            //!< real top-k: the change since the round's start
    std::vector<double> m_parameters; //!< averaging scratch
};

} // namespace ns3

#endif /* ISLAND_NUMERICS_H */
