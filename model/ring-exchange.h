/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_EXCHANGE_H
#define RING_EXCHANGE_H

#include "exchange-sum.h"
#include "gradient-pacer.h"
#include "udp-exchange.h"

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief A RING exchange: ring all-reduce over the clique's members in ascending order,
 *        reduce-scatter then all-gather, 2(k-1) steps of one segment each (ChunkLayout), all
 *        sent to the successor and received from the predecessor.
 *
 * Step s + 1 starts when step s is sent and its input (what the predecessor sent in step s)
 * has all arrived or is known lost: a chunk whose input is still being repaired is held back
 * (DeferredChunks) and sent, ahead of first-pass chunks, as soon as the repair arrives, so a
 * loss delays that chunk's way round the ring, not the ring. One GradientPacer carries every step
 * at the step's planned rate, with resends of any earlier step ahead of the next first-pass chunk.
 * A step whose successor step cannot start at once ends with an END at its next pacing instant (a
 * next step's first chunk says the same). A lost predecessor breaks the ring: the island keeps its
 * own parameters for the round (abandoned) and stops answering for it.
 */
class RingExchange : public UdpExchange
{
  public:
    /**
     * \param context the island \param round the round \param config the island's part
     */
    RingExchange(ExchangeContext& context, uint32_t round, const TrainingRoundConfig& config);
    ~RingExchange() override;

    void Shutdown() override;
    void ReceiveChunk(const GradientHeader& header,
                      const std::vector<int32_t>& values,
                      bool congested) override;
    void ReceiveEnd(const GradientHeader& header) override;
    void Average(std::vector<double>& x, double scale) const override;

  protected:
    void StartSending() override;
    bool IsDone() const override;
    uint32_t QueueResends(const GradientHeader& nack, bool& notYet) override;
    ChunkTracker* SilentStream(uint32_t slot, uint16_t& step) override;
    ChunkTracker* StreamOf(uint32_t slot, uint16_t step) override;
    void OnPeerLost(uint32_t slot) override;
    GradientPacer* PacerToward(uint32_t island) override;
    void OnFinished() override;
    AdaptiveRateControl* ControlFor(uint32_t peer) override;

  private:
    /** \brief Start the next step if it is due (previous sent, its input complete). */
    void MaybeAdvance();
    /** \return wire bytes of the packet sent, 0 if none */
    uint32_t SendNext();
    /**
     * \param step a step up to which the predecessor has sent everything (exclusive)
     * \brief every earlier step's first pass is over: its missing chunks are lost
     */
    void AdvanceEarlierSteps(uint16_t step);

    uint32_t m_steps;                     //!< 2(k-1)
    uint32_t m_predecessor;               //!< the predecessor's member position
    Ipv4Address m_successor;              //!< where every step goes
    uint32_t m_successorIsland;           //!< the successor
    std::vector<ChunkTracker> m_in;       //!< per step: what came from the predecessor
    uint32_t m_sendStep;                  //!< step being sent (== m_steps: all sent)
    bool m_sending;                       //!< m_sendStep's first pass is running
    uint32_t m_nextChunk;                 //!< next first-pass chunk of m_sendStep
    uint32_t m_endPending;                //!< step whose END goes next, or m_steps for none
    GradientPacer m_pacer;                //!< pacing to the successor
    ResendQueue m_resends;                //!< (step << 32 | chunk) asked for again
    DeferredChunks m_deferred;            //!< chunks whose input is still being repaired
    std::vector<FirstPassClock> m_clocks; //!< per step: when each first-pass chunk left
    RingSum m_sums;                       //!< reduce-scatter and all-gather values (real)
    Ptr<AdaptiveRateControl> m_control;   //!< the rate to the successor (adaptive), else null
};

} // namespace ns3

#endif /* RING_EXCHANGE_H */
