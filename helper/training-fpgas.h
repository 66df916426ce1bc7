/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_FPGAS_H
#define TRAINING_FPGAS_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/sync-cost-model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class WanTopologyHelper;

/**
 * \ingroup wan-training
 * \brief The FPGAs of a training run, edge and transit, sized for the plans' streams
 *        (TrainingHelper::SetTuneFpgas), and how long they may hold each island's chunks.
 *
 * A slot stays open from the first to the last piece of its chunk: the spread of the
 * contributors' delays to the FPGA, plus the spread of their start times (islands start
 * syncing when their own previous round ends, which differ by at most a round's sync time).
 * An FPGA must hold a slot that long (else it flushes partial aggregates) and hold as many
 * slots as chunks arrive meanwhile, never more than two rounds of chunks (else it passes
 * packets through). Either failure sends unsummed packets over links the plan assumed
 * folded. An edge FPGA's contributors are the DIRECT senders to its island; a transit FPGA's
 * are the TREE members whose route to their root passes its city.
 */
class TrainingFpgas
{
  public:
    /** How to size. */
    struct Settings
    {
        bool tune{true};        //!< raise Timeout and SlotCount where short, else refuse to run
        Time margin;            //!< hold beyond the need (tuned only)
        double packetBits{0};   //!< bits of a full packet on the wire
        uint64_t chunkCount{0}; //!< chunks of one update
    };

    /**
     * \brief Size every edge and transit FPGA for the plans.
     * \param topology the built network \param plans the period's round plans
     * \param settings how \throws std::runtime_error when untuned attributes are too small
     */
    static void Size(const WanTopologyHelper& topology,
                     const std::vector<SyncRoundEstimate>& plans,
                     const Settings& settings);

    /**
     * \brief Per island, the longest an FPGA may keep a chunk on its way to it: its edge FPGA's
     *        Timeout + PipelineLatency, plus, where it is a TREE root, the largest sum of the
     *        transit FPGAs' on a member's route to it.
     * \param topology the built network \param plans the period's round plans
     * \return one hold per island
     */
    static std::vector<Time> Holds(const WanTopologyHelper& topology,
                                   const std::vector<SyncRoundEstimate>& plans);

  private:
    /** Arrival spread and rate of one FPGA's contributors. */
    struct Need
    {
        double spread{0}; //!< largest spread of the contributors' delays, s
        double rate{0};   //!< fastest contributor's rate, bit/s
    };

    /**
     * \brief Raise (or check) one FPGA's Timeout and SlotCount.
     * \param fpga the device \param name how messages name it \param need its contributors
     * \param stagger spread of start times, s \param settings how
     */
    static void Tune(Ptr<Object> fpga,
                     const std::string& name,
                     const Need& need,
                     double stagger,
                     const Settings& settings);
    /**
     * \param topology the network \param city a transit city \param plans the plans
     * \return the arrival spread and rate of the TREE pieces passing the city's transit FPGA
     */
    static Need TransitNeed(const WanTopologyHelper& topology,
                            uint32_t city,
                            const std::vector<SyncRoundEstimate>& plans);
    /** \param fpga an FPGA device \return its Timeout + PipelineLatency */
    static Time HoldOf(Ptr<Object> fpga);
};

} // namespace ns3

#endif /* TRAINING_FPGAS_H */
