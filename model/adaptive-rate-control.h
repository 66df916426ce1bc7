/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ADAPTIVE_RATE_CONTROL_H
#define ADAPTIVE_RATE_CONTROL_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The rate of one outgoing gradient stream under the adaptive transport: DCQCN's
 *        reaction point, with its timers scaled to a WAN round trip.
 *
 * State: the current rate Rc (the pacer's), the target rate Rt and the congestion estimate
 * alpha (InitialAlpha at Start()).
 *
 * - Congestion (a congestion notification from any receiver of the stream, or a gap NACK:
 *   loss): at most once per decrease interval, Rt = Rc, Rc = Rc x (1 - alpha / 2), and the
 *   increase stages start over. A multicast stream has one controller for all its
 *   receivers, so its rate follows the most congested one.
 * - Every alpha interval: alpha = (1 - Gain) x alpha + Gain if congestion was signalled in
 *   it, else (1 - Gain) x alpha.
 * - Every increase interval without a decrease in it, stage i (from 1): fast recovery for
 *   i <= FastRecoverySteps (Rc = (Rt + Rc) / 2); then additive increase (Rt += AdditiveIncrease,
 *   Rc = (Rt + Rc) / 2) for FastRecoverySteps more; then hyper increase (Rt += j x
 *   HyperIncrease at the j-th such step). Rt and Rc stay within [MinRate, the line rate].
 *
 * The three intervals are attributes; zero (the default) means the round trip given to
 * Start() (never below MinInterval): a decrease needs a round trip to show in the queues it
 * relieved, and a WAN stream that climbed every 55 us (DCQCN's data-centre timer) would climb
 * thousands of times before the first mark came back.
 */
class AdaptiveRateControl : public Object
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    AdaptiveRateControl();
    ~AdaptiveRateControl() override;

    /**
     * \brief Start the timers.
     * \param lineRateBps the sender's access rate, bit/s: the highest rate
     * \param initialRateBps the first rate, bit/s (clamped to [MinRate, line rate])
     * \param rtt the round trip the timers scale with (see the class description)
     */
    void Start(double lineRateBps, double initialRateBps, Time rtt);
    /** \brief Stop the timers (the rate stays). */
    void Stop();
    /** \brief A receiver of the stream signalled congestion (ECN marks echoed). */
    void OnCongestion();
    /** \brief A receiver reported loss (a gap NACK): handled as congestion. */
    void OnLoss();
    /** \return the current rate Rc, bit/s */
    double GetRate() const;
    /** \return the target rate Rt, bit/s */
    double GetTargetRate() const;
    /** \return the congestion estimate alpha */
    double GetAlpha() const;

  protected:
    void DoDispose() override;

  private:
    /** \brief Cut the rate if the decrease interval allows (congestion or loss). */
    void Decrease();
    /** \brief The increase timer fired. */
    void Increase();
    /** \brief The alpha timer fired. */
    void UpdateAlpha();
    /** \param configured an interval attribute \return it, or the round trip if zero */
    Time IntervalOf(Time configured) const;
    /** \param rate a rate \return it within [MinRate, line rate] */
    double Clamp(double rate) const;

    // Attributes
    double m_gain;           //!< Gain (g)
    double m_initialAlpha;   //!< InitialAlpha
    Time m_decreaseInterval; //!< DecreaseInterval (0: rtt)
    Time m_increaseInterval; //!< IncreaseInterval (0: rtt)
    Time m_alphaInterval;    //!< AlphaInterval (0: rtt)
    Time m_minInterval;      //!< MinInterval
    uint32_t m_fastRecovery; //!< FastRecoverySteps (F)
    DataRate m_additive;     //!< AdditiveIncrease (Rai)
    DataRate m_hyper;        //!< HyperIncrease (Rhai)
    DataRate m_minRate;      //!< MinRate

    // State
    double m_lineRateBps{0};    //!< highest rate
    Time m_rtt;                 //!< round trip for zero intervals
    double m_target{0};         //!< Rt
    double m_alpha{1};          //!< alpha
    uint32_t m_stage{0};        //!< increase steps since the last decrease
    bool m_signalled{false};    //!< congestion signalled in this alpha interval
    Time m_lastDecrease;        //!< when the rate was last cut
    bool m_decreased{false};    //!< it was ever cut
    EventId m_increaseTimer;    //!< next increase step
    EventId m_alphaTimer;       //!< next alpha update
    TracedValue<double> m_rate; //!< Rc, bit/s (trace source Rate)
};

} // namespace ns3

#endif /* ADAPTIVE_RATE_CONTROL_H */
