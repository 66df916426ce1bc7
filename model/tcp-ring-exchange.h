/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_RING_EXCHANGE_H
#define TCP_RING_EXCHANGE_H

#include "exchange-sum.h"
#include "tcp-exchange.h"

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief A RING exchange over the tcp transport: ring all-reduce over the clique's members in
 *        ascending order, 2(k-1) steps of one segment each (ChunkLayout), written to the
 *        successor's connection and read from the predecessor's.
 *
 * The steps are pipelined chunk by chunk: chunk c of step s + 1 is written as soon as step s is
 * written and chunk c of the predecessor's step s is in (it is what chunk c carries on), so a
 * step's chunks follow its input as it streams in. The predecessor's messages arrive in order,
 * each once; real payloads go through a RingSum as in RingExchange. A lost predecessor or
 * successor breaks the ring: the island keeps its own parameters for the round (abandoned).
 */
class TcpRingExchange : public TcpExchange
{
  public:
    /**
     * \param context the island \param round the round \param config the island's part
     */
    TcpRingExchange(ExchangeContext& context, uint32_t round, const TrainingRoundConfig& config);
    ~TcpRingExchange() override;

    void ReceiveChunk(const GradientHeader& header,
                      const std::vector<int32_t>& values,
                      bool congested) override;
    void Average(std::vector<double>& x, double scale) const override;

  protected:
    void StartSending() override;
    bool IsDone() const override;
    bool Awaits(uint32_t slot) const override;
    bool Feeds(uint32_t slot) const override;
    void OnPeerLost(uint32_t slot) override;

  private:
    /** \param exhausted set with the last chunk \return the next chunk, null if not ready */
    Ptr<Packet> Next(bool& exhausted);
    /** \return true if every step's chunks came from the predecessor */
    bool IsReceived() const;

    uint32_t m_steps;                 //!< 2(k-1)
    uint32_t m_predecessor;           //!< the predecessor's member position
    uint32_t m_successor;             //!< the successor's member position
    uint32_t m_sendStep;              //!< step being written (== m_steps: all written)
    uint32_t m_nextChunk;             //!< next chunk of m_sendStep
    uint32_t m_receiveStep;           //!< step being read (== m_steps: all read)
    std::vector<uint32_t> m_received; //!< per step: chunks from the predecessor, in order
    RingSum m_sums;                   //!< reduce-scatter and all-gather values (real)
};

} // namespace ns3

#endif /* TCP_RING_EXCHANGE_H */
