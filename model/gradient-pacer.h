/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRADIENT_PACER_H
#define GRADIENT_PACER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Paces one stream of gradient packets at a fixed rate of wire bits.
 *
 * The pacer does not know what it sends: at each pacing instant it calls its send function,
 * which sends the stream's next packet (a resend first, if one is waiting, else the next
 * first-pass chunk) and returns the wire bytes it counts for (its own, or more: a resend that
 * weighs several chunks), or 0 when there is nothing to send. Charge() counts bytes sent
 * beside the stream on its path (control packets).
 * Packet i leaves at origin + (bits of packets 0 .. i-1) / rate, so resends take the place of
 * first-pass chunks inside the stream's own rate share instead of adding load. An idle pacer
 * that is woken keeps the clock of what it sent before (no burst), or restarts it if that
 * clock is already in the past. With a rate function (the adaptive transport), the rate is
 * read again after every packet: a new rate applies from that packet's departure on.
 */
class GradientPacer
{
  public:
    /** Sends the next packet; returns its wire bytes, 0 if there was nothing to send. */
    using SendFunction = std::function<uint32_t()>;
    /** Returns the stream's current rate, bit/s. */
    using RateFunction = std::function<double()>;

    GradientPacer();
    ~GradientPacer();

    /** \param send the function that sends the stream's next packet */
    void SetSendFunction(SendFunction send);
    /** \param rate the function giving the current rate (none: the rate of Restart()) */
    void SetRateFunction(RateFunction rate);
    /**
     * \brief Start a new pass at \p rateBps: the clock restarts now and the first packet
     *        leaves at once.
     * \param rateBps pacing rate of wire bits, bit/s (not positive or infinite: 10 Gbit/s)
     */
    void Restart(double rateBps);
    /** \brief There may be something to send: send at the next pacing instant. */
    void Wake();
    /**
     * \brief Count \p bytes sent on the stream's path outside the pacer (a NACK, an answer)
     *        as if the pacer had sent them: its next packet leaves that much later.
     *
     * Only at a planned rate (no rate function): the plan's budget must hold the stream's
     * control packets too. A rate function (transport adaptive) follows the marks, which the
     * control packets draw like any other packet, so it is not charged.
     * \param bytes wire bytes
     */
    void Charge(uint32_t bytes);
    /**
     * \param weight pacing slots one resend takes at a planned rate (SyncStream::resendWeight,
     *        at least 1)
     */
    void SetResendWeight(double weight);
    /**
     * \brief The bytes of the pacing budget a resend of \p wireBytes uses: its size times the
     *        resend weight at a planned rate (where FPGAs fold the stream, a resend passes them
     *        unsummed), its size under a rate function (the marks count it).
     * \param wireBytes the resend's wire bytes \return the budget it uses
     */
    uint32_t ResendCost(uint32_t wireBytes) const;
    /** \brief Stop: no more sends until Restart() or Wake(). */
    void Cancel();
    /** \return the pacing rate, bit/s */
    double GetRate() const;

  private:
    /** \brief A pacing instant: send one packet and schedule the next. */
    void Fire();
    /** \return the time the next packet may leave by the clock */
    Time NextSendTime() const;

    SendFunction m_send;      //!< sends the next packet
    RateFunction m_rate;      //!< current rate, or none
    double m_rateBps;         //!< pacing rate
    double m_resendWeight{1}; //!< pacing slots of one resend at a planned rate
    Time m_origin;            //!< start of the clock
    double m_bits;            //!< wire bits sent since the origin
    EventId m_timer;          //!< next pacing instant
};

} // namespace ns3

#endif /* GRADIENT_PACER_H */
