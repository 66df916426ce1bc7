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
#include <map>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The rate of one outgoing gradient stream under the adaptive transport: a rate-based
 *        controller on the fraction of its packets marked CE (DCTCP's estimate, applied to a
 *        paced rate as DCQCN and Swift do), updated once per control period.
 *
 * Every period (Period, or the round trip given to Start()) the controller takes, for each
 * receiver that echoed marks in it, the marked fraction F_r = marks from r / packets sent in
 * the period, and F = the largest (a multicast stream has one controller: its most congested
 * receiver sets the pace). Then
 *
 *     R = R x (1 - MarkDecrease x F) + AdditiveIncrease
 *
 * within [MinRate, the line rate], and on a gap NACK (loss) in the period R = R x (1 -
 * LossDecrease) instead, once per period. Why it is fair: all streams through one queue see
 * the same marking probability p, so each settles where its own decrease equals the common
 * increase, R* = AdditiveIncrease / (MarkDecrease x p): the same rate for every stream of the
 * queue, whatever it started from; a stream above the others loses more per period than they
 * do (the decrease is proportional to its rate, the increase is not), so the differences
 * shrink by MarkDecrease x p per period. The period is the clique's longest round trip, the
 * same clock for every stream of the clique (a stream updated more often would out-climb the
 * others), and the increase is an absolute rate, the same for every stream.
 */
class AdaptiveRateControl : public Object
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    AdaptiveRateControl();
    ~AdaptiveRateControl() override;

    /**
     * \brief Start the period timer.
     * \param lineRateBps the sender's access rate, bit/s: the highest rate
     * \param initialRateBps the first rate, bit/s (clamped to [MinRate, line rate])
     * \param rtt the round trip the period defaults to
     */
    void Start(double lineRateBps, double initialRateBps, Time rtt);
    /** \brief Stop the timer (the rate stays). */
    void Stop();
    /** \brief The stream sent one packet (counted for the marked fraction). */
    void OnSent();
    /**
     * \brief A receiver reported marked packets.
     * \param receiver the island that reported \param marks how many of its packets were marked
     */
    void OnCongestion(uint32_t receiver, uint32_t marks);
    /** \brief A receiver reported loss (a gap NACK). */
    void OnLoss();
    /** \return the current rate, bit/s */
    double GetRate() const;
    /** \return the control period in use */
    Time GetPeriod() const;

  protected:
    void DoDispose() override;

  private:
    /** \return this period's marked fraction F (see the class description) */
    double MarkedFraction() const;
    /** \brief The period timer fired: apply the rule and start the next period. */
    void Update();
    /** \param rate a rate \return it within [MinRate, line rate] */
    double Clamp(double rate) const;

    // Attributes
    Time m_period;            //!< Period (0: the round trip)
    Time m_minPeriod;         //!< MinPeriod
    double m_markDecrease;    //!< MarkDecrease
    double m_markTrend;       //!< MarkTrend
    double m_lossDecrease;    //!< LossDecrease
    uint32_t m_increaseBytes; //!< IncreaseBytes
    uint32_t m_hyperAfter;    //!< HyperAfter
    DataRate m_minRate;       //!< MinRate

    // State
    double m_lineRateBps{0};              //!< highest rate
    Time m_interval;                      //!< the period in use
    uint64_t m_sent{0};                   //!< packets sent in this period
    uint64_t m_sentBefore{0};             //!< packets sent in the period before
    bool m_lossCut{false};                //!< the last period cut for a loss
    uint32_t m_unmarked{0};               //!< periods in a row without a mark
    double m_lastFraction{0};             //!< the period before's marked fraction
    std::map<uint32_t, uint64_t> m_marks; //!< per receiver: marks echoed in this period
    bool m_lost{false};                   //!< a gap NACK came in this period
    EventId m_timer;                      //!< end of this period
    TracedValue<double> m_rate;           //!< the rate, bit/s (trace source Rate)
};

} // namespace ns3

#endif /* ADAPTIVE_RATE_CONTROL_H */
