/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_RANK_RESULTS_H
#define TRAINING_RANK_RESULTS_H

#include "ns3/training-application.h"
#include "ns3/training-counters.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief One rank's share of a distributed run's results, as TrainingExperiment::Run gathers
 *        them on rank 0 (WanMpi::Gather carries text).
 */
struct TrainingRankResults
{
    uint64_t packetsSent{0};         //!< packets this rank's links handed to other ranks
    uint64_t queueDrops{0};          //!< device queue drops on this rank
    uint64_t lossDrops{0};           //!< error model drops on this rank
    TrainingFpgaCounters fpga;       //!< counters of this rank's FPGAs
    TrainingRouterCounters routers;  //!< drops of this rank's routers
    std::vector<uint64_t> linkBytes; //!< bytes this rank sent per WAN link direction
    Time lastLinkFrame;              //!< end of the last frame this rank's WAN links sent
    /** This rank's islands and their records. */
    std::vector<std::pair<uint32_t, std::vector<TrainingRoundRecord>>> islands;

    /** \return the results as text (numbers separated by spaces) */
    std::string Encode() const;
    /**
     * \param text what Encode() wrote \return the results
     * \throws std::runtime_error if the text is malformed
     */
    static TrainingRankResults Decode(const std::string& text);
};

} // namespace ns3

#endif /* TRAINING_RANK_RESULTS_H */
