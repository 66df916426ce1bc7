/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_EXCHANGE_H
#define DIRECT_EXCHANGE_H

#include "exchange-sum.h"
#include "gradient-exchange.h"
#include "gradient-pacer.h"

#include <memory>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief A DIRECT exchange: the island sends its whole update to every peer (one multicast
 *        stream, or one unicast stream per peer) and receives every peer's update, one DATA
 *        chunk at a time or summed by its FPGA into AGGREGATE chunks.
 *
 * Each outgoing stream has its own GradientPacer at the plan's rate; resends asked for by any
 * receiver of a stream go out on that stream (to its multicast group, or to the peer) ahead of
 * its next first-pass chunk, so recovery never adds load to the stream's path. After its last
 * chunk a stream sends an END at its next pacing instant. Receiving: a packet counts only if none
 * of its contributors is already in for its chunk (real sums cannot be split); the contributors of
 * a partial aggregate that are missing are known lost at once (the FPGA flushes a slot early only
 * when every missing sender has gone past it, see FpgaAggregatorNetDevice).
 */
class DirectExchange : public GradientExchange
{
  public:
    /**
     * \param context the island \param round the round \param config the island's part
     */
    DirectExchange(ExchangeContext& context, uint32_t round, const TrainingRoundConfig& config);
    ~DirectExchange() override;

    void Shutdown() override;
    void ReceiveChunk(const GradientHeader& header, const std::vector<int32_t>& values) override;
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
    Time HoldAt(uint32_t island) const override;
    void OnFinished() override;
    AdaptiveRateControl* ControlFor(uint32_t peer) override;

  private:
    /** One outgoing stream. */
    struct OutStream
    {
        Ipv4Address destination;          //!< group or peer
        uint32_t nextChunk{0};            //!< next first-pass chunk
        bool done{false};                 //!< first pass sent
        bool endPending{false};           //!< its END goes at the next pacing instant
        GradientPacer pacer;              //!< its pacing
        ResendQueue resends;              //!< chunks asked for again
        FirstPassClock clock;             //!< when each first-pass chunk left
        Ptr<AdaptiveRateControl> control; //!< its rate (transport adaptive), else null
    };

    /** \param peer a receiver \return the index of the stream reaching it, or NO_SLOT */
    uint32_t StreamTo(uint32_t peer) const;
    /** \brief Stop the streams' rate controllers. */
    void StopControls();

    /** \param index stream index \return wire bytes of the packet sent, 0 if none */
    uint32_t SendNext(uint32_t index);
    /** \param slot peer position \brief a contributor's chunk is known lost: NACK it */
    void NoteLost(uint32_t slot, uint32_t chunk);

    std::vector<std::unique_ptr<OutStream>> m_streams; //!< outgoing streams
    std::vector<ChunkTracker> m_in;                    //!< per member position: its update
    uint32_t m_peersIncomplete;                        //!< peers neither complete nor lost
    DirectSum m_sums;                                  //!< peers' sums (real payloads)
};

} // namespace ns3

#endif /* DIRECT_EXCHANGE_H */
