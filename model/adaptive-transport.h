/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADAPTIVE_TRANSPORT_H
#define ADAPTIVE_TRANSPORT_H

#include "adaptive-rate-control.h"
#include "wan-wire.h"

#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Node;
class Packet;

/**
 * \ingroup wan-training
 * \brief The adaptive transport of one island: the gradient protocol over UDP (multicast and
 *        FPGA aware, the same exchanges and repair as planned) with each outgoing stream's
 *        rate set by an AdaptiveRateControl on ECN marks and loss instead of by the plan.
 *
 * Sender: its packets leave ECT(0) (SENDER_TOS); each stream's controller starts at the InitialRate
 * guess and never exceeds the island's access rate (the DataRate of the node's link device). The
 * fair guess is what an end host knows without a plan: its own access rate shared by its own
 * streams, and each receiver's access rate shared by the clique's senders into it (one
 * aggregate if the receiver's FPGA sums them); the smaller. The exchanges compute it
 * (UdpExchange::FairGuess) and feed the controller its packets, the receivers'
 * congestion notifications and gap NACKs.
 *
 * Receiver: its UDP port reports each packet's TOS; a DATA, AGGREGATE or RING packet that arrives
 * marked CE makes the island send a congestion notification (an ACK with FLAG_CONGESTION) to
 * each of the packet's contributors, at most one per contributor per CnpInterval, carrying
 * the number of its marked chunks counted since the one before (the ACK's chunk count): the
 * sender divides them by its packets. (One notification per mark would flood the sender's own
 * ingress with small packets exactly when it is congested, and queues count packets.) An FPGA that
 * folds a marked contribution into an aggregate marks the aggregate (see FpgaAggregatorNetDevice),
 * so every contributor of it is told: the FPGA cannot say whose leg was congested, and all of them
 * share the island's ingress.
 */
class AdaptiveTransport : public Object
{
  public:
    /** Where a stream's rate starts. */
    enum InitialRate
    {
        FAIR,    //!< what the end hosts know: the access rates shared by the streams (default)
        PLANNED, //!< the WAN controller's max-min rate for the stream (needs the plan)
        LINE,    //!< the access rate (no knowledge at all: DCQCN's start)
    };

    /**
     * TracedCallback signature of Rate.
     * \param island the sender \param round the round \param destination the stream's group
     *        or peer \param rateBps its new rate, bit/s
     */
    typedef void (*RateTracedCallback)(uint32_t island,
                                       uint32_t round,
                                       Ipv4Address destination,
                                       double rateBps);

    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    AdaptiveTransport();
    ~AdaptiveTransport() override;

    /** The TOS byte of the island's datagrams: ECT(0), no DSCP. */
    static constexpr uint8_t SENDER_TOS = WanWire::IPV4_ECN_ECT0;

    /**
     * \brief Find the island's line rate and reset the state of the notices.
     * \param node the island's node \param island the island \param islandCount N
     */
    void Start(Ptr<Node> node, uint32_t island, uint32_t islandCount);
    /** \param tos the TOS byte a datagram arrived with \return true if it was marked CE */
    static bool IsMarked(uint8_t tos);
    /**
     * \brief A stream's controller, started.
     * \param round the round \param destination the stream's group or peer
     * \param plannedBps the plan's rate for it \param fairBps the fair guess for it
     * \param rtt the round trip its period defaults to
     * \return the controller
     */
    Ptr<AdaptiveRateControl> CreateControl(uint32_t round,
                                           Ipv4Address destination,
                                           double plannedBps,
                                           double fairBps,
                                           Time rtt);
    /**
     * \brief Count a chunk of \p peer that arrived marked CE.
     * \param peer a contributor whose packet arrived marked CE
     * \return the marks to report to it now (those counted since the last notification), or 0
     *         while CnpInterval since the last has not passed (they go with the next)
     */
    uint32_t CountMark(uint32_t peer);
    /** \return the island's access rate, bit/s */
    double GetLineRate() const;
    /**
     * \param peer an island
     * \return chunks received marked CE that \p peer contributed to (an aggregate counts for
     *         each of its contributors)
     */
    uint64_t GetMarksFrom(uint32_t peer) const;
    /** \return congestion notifications sent */
    uint64_t GetNotificationsSent() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * \param transport the transport \param round the round \param destination the stream
     * \param oldRate its old rate \param newRate its new rate \brief fire Rate
     */
    static void RateChanged(AdaptiveTransport* transport,
                            uint32_t round,
                            Ipv4Address destination,
                            double oldRate,
                            double newRate);

    InitialRate m_initialRate;         //!< attribute InitialRate
    Time m_cnpInterval;                //!< attribute CnpInterval
    uint32_t m_island{0};              //!< the island
    double m_lineRateBps{0};           //!< its access rate
    std::vector<Time> m_lastNotice;    //!< per peer: last congestion notification sent
    std::vector<bool> m_noticed;       //!< per peer: one was ever sent
    std::vector<uint32_t> m_pending;   //!< per peer: marks not reported yet
    std::vector<uint64_t> m_marksFrom; //!< per peer: marks counted in all
    uint64_t m_notifications{0};       //!< notifications sent
    TracedCallback<uint32_t, uint32_t, Ipv4Address, double> m_rateTrace; //!< Rate
};

} // namespace ns3

#endif /* ADAPTIVE_TRANSPORT_H */
