/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_EXCHANGE_H
#define TCP_EXCHANGE_H

#include "round-exchange.h"

#include "ns3/event-id.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief One island's exchange in one round over the tcp transport: the common part of
 *        TcpDirectExchange and TcpRingExchange, which is knowing when a peer is lost.
 *
 * TCP delivers every message once and in order, so nothing is tracked per chunk and nothing is
 * asked again. What TCP cannot tell is whether a peer will ever send: every HeartbeatInterval
 * (TcpTransport) the exchange checks each peer it still waits for or still writes to, and
 * declares it lost when
 *
 * - its connection ended (a stopped application closes its connections; TCP gives up after
 *   its retries, or the peer reset it),
 * - it has announced a later round (a heartbeat or message of round > this one): TCP delivers in
 *   order, so whatever it sent for this round is in, and the rest will never come,
 * - no byte came from it for PeerTimeout since the exchange started or its last byte (a cut
 *   link, or a crashed host: an idle live peer sends heartbeats),
 * - no data came from it for PeerPatience while it keeps sending heartbeats (alive, but never
 *   sends, as the planned transport's "not yet").
 *
 * So a peer that stops sending is declared lost at most max(start, its last byte) + PeerTimeout
 * + HeartbeatInterval, one that closes or moves on within HeartbeatInterval of that.
 */
class TcpExchange : public RoundExchange
{
  public:
    /**
     * \param context the island (its tcp transport set)
     * \param round the round \param config the island's part
     */
    TcpExchange(ExchangeContext& context, uint32_t round, const TrainingRoundConfig& config);
    ~TcpExchange() override;

    void Shutdown() override;
    /** \param header a control packet: never sent over TCP, counted as dropped */
    void ReceiveControl(const GradientHeader& header) override;

  protected:
    /** \brief Arm the liveness checks. */
    void OnStart() override;
    /** \brief Stop the liveness checks. */
    void OnFinished() override;
    /** \param slot a member position \return true if data from it is still due */
    virtual bool Awaits(uint32_t slot) const = 0;
    /** \param slot a member position \return true if messages to it are still to be written */
    virtual bool Feeds(uint32_t slot) const = 0;
    /** \param slot a peer's position \brief it is lost (its sources are removed already) */
    virtual void OnPeerLost(uint32_t slot) = 0;

    /** \param slot a peer's position \brief a data message came from it */
    void NoteData(uint32_t slot);
    /** \param slot the peer \param source its messages \brief queue them on its connection */
    void AddSource(uint32_t slot, std::function<Ptr<Packet>(bool&)> source);
    /** \param slot a member position \brief its connection may take a message now */
    void Wake(uint32_t slot);
    /** \param packet a message just pulled by the transport \brief count it in the record */
    void NoteWritten(Ptr<const Packet> packet);

  private:
    /** \brief Periodic liveness check of the peers still needed. */
    void CheckPeers();
    /** \param slot the peer \param why the reason, for the log \brief give up on it */
    void DeclareLost(uint32_t slot, const char* why);
    /** \brief Remove every source of this exchange from the connections. */
    void RemoveSources();

    EventId m_check;              //!< liveness check timer
    std::vector<Time> m_lastData; //!< per member position: last data message from it
};

} // namespace ns3

#endif /* TCP_EXCHANGE_H */
