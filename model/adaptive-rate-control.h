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
 * Every period T (Period, or the round trip given to Start(): the clique's longest, the same
 * clock for every stream of the clique) the controller takes the marked fraction F: the marks
 * its receivers reported in the period over the packets it sent (the larger of this period's
 * and the last one's: marks echo packets up to a round trip old), averaged over the receivers
 * that reported marks (a multicast stream slows for its congested receivers, not diluted by
 * the others). Then, F' being the period before's,
 *
 *     R = R x (1 - beta x (F + gamma x (F - F'))) + 8 x IncreaseBytes / T
 *
 * with the cut within [-0.5, 0.5] and R within [MinRate, the line rate]; a period with a gap
 * NACK (loss) instead cuts R by LossDecrease, and ignores the next period's gap NACKs (the same
 * loss). beta is MarkDecrease, gamma MarkTrend. HyperAfter (off by default) doubles the
 * increase for each unmarked period after that many in a row.
 *
 * Fair: all streams through one queue see the same marking probability p, so each settles
 * where its own decrease equals the common increase, R* = (8 x IncreaseBytes / T) / (beta x p),
 * whatever it started from; a stream above the others loses more per period (the cut is
 * proportional to its rate, the increase is not). gamma answers the queue's trend: without it
 * the loop (rates following the marks' level, the queue integrating the rates) oscillates.
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
