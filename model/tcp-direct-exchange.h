/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_DIRECT_EXCHANGE_H
#define TCP_DIRECT_EXCHANGE_H

#include "exchange-sum.h"
#include "tcp-exchange.h"

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief A DIRECT exchange over the tcp transport: the island writes its whole update, chunk by
 *        chunk, to the connection of each of its k-1 peers, and reads each peer's update from
 *        that peer's connection.
 *
 * No multicast and no FPGA: every copy is a unicast byte stream, and the clique's routers and
 * FPGAs only forward it. A peer's chunks arrive in order, each exactly once; real payloads add
 * into a DirectSum as in DirectExchange, so the average is the same to the bit. The exchange
 * ends when every peer's update is in and the own update is written to every connection (TCP
 * delivers it from there), or the peers missing are lost (TcpExchange).
 */
class TcpDirectExchange : public TcpExchange
{
  public:
    /**
     * \param context the island \param round the round \param config the island's part
     */
    TcpDirectExchange(ExchangeContext& context, uint32_t round, const TrainingRoundConfig& config);
    ~TcpDirectExchange() override;

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
    /**
     * \param slot the peer's position \param exhausted set with the last chunk
     * \return its next chunk
     */
    Ptr<Packet> Next(uint32_t slot, bool& exhausted);

    uint32_t m_chunks;                //!< chunks of an update
    std::vector<uint32_t> m_sent;     //!< per member position: chunks written to it
    std::vector<uint32_t> m_received; //!< per member position: chunks from it, in order
    DirectSum m_sums;                 //!< peers' sums (real payloads)
};

} // namespace ns3

#endif /* TCP_DIRECT_EXCHANGE_H */
