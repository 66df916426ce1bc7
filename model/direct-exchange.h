/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_EXCHANGE_H
#define DIRECT_EXCHANGE_H

#include "stream-exchange.h"

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
 * chunk a stream sends an END at its next pacing instant (StreamExchange). Receiving: a packet
 * counts only if none of its contributors is already in for its chunk (real sums cannot be
 * split); the contributors of a partial aggregate that are missing are known lost at once (the
 * FPGA flushes a slot early only when every missing sender has gone past it, see
 * FpgaAggregatorNetDevice).
 */
class DirectExchange : public StreamExchange
{
  public:
    /**
     * \param context the island \param round the round \param config the island's part
     */
    DirectExchange(ExchangeContext& context, uint32_t round, const TrainingRoundConfig& config);

    void ReceiveChunk(const GradientHeader& header,
                      const std::vector<int32_t>& values,
                      bool congested) override;
    void Average(std::vector<double>& x, double scale) const override;

  protected:
    void StartSending() override;
    bool IsDone() const override;
    Ptr<Packet> BuildChunk(uint32_t chunk, uint16_t flags) override;
    /** \return true behind an FPGA: aggregates may still bring what a resend carries */
    bool SetsAsideResends() const override;
};

} // namespace ns3

#endif /* DIRECT_EXCHANGE_H */
