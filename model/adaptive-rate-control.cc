/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adaptive-rate-control.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdaptiveRateControl");

NS_OBJECT_ENSURE_REGISTERED(AdaptiveRateControl);

TypeId
AdaptiveRateControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdaptiveRateControl")
            .SetParent<Object>()
            .SetGroupName("WanTraining")
            .AddConstructor<AdaptiveRateControl>()
            .AddAttribute("Gain",
                          "g: weight of the newest alpha interval in the congestion estimate",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&AdaptiveRateControl::m_gain),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("InitialAlpha",
                          "The congestion estimate at the start: the first cut is by half of it",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&AdaptiveRateControl::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("DecreaseInterval",
                          "Shortest time between two rate cuts (0: the stream's round trip)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&AdaptiveRateControl::m_decreaseInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("IncreaseInterval",
                          "Period of the rate increase steps (0: the stream's round trip)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&AdaptiveRateControl::m_increaseInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("AlphaInterval",
                          "Period of the congestion estimate's update (0: the stream's round "
                          "trip)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&AdaptiveRateControl::m_alphaInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MinInterval",
                          "Floor of every interval (DCQCN's 50 us data-centre timer)",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&AdaptiveRateControl::m_minInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("FastRecoverySteps",
                          "F: increase steps that only halve the distance to the target rate, "
                          "then F steps of additive increase, then hyper increase",
                          UintegerValue(5),
                          MakeUintegerAccessor(&AdaptiveRateControl::m_fastRecovery),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AdditiveIncrease",
                          "Rai: what an additive increase step adds to the target rate",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&AdaptiveRateControl::m_additive),
                          MakeDataRateChecker())
            .AddAttribute("HyperIncrease",
                          "Rhai: the j-th hyper increase step adds j times this to the target",
                          DataRateValue(DataRate("200Mbps")),
                          MakeDataRateAccessor(&AdaptiveRateControl::m_hyper),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "The lowest rate a stream is cut to",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&AdaptiveRateControl::m_minRate),
                          MakeDataRateChecker())
            .AddTraceSource("Rate",
                            "The stream's current rate, bit/s",
                            MakeTraceSourceAccessor(&AdaptiveRateControl::m_rate),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

AdaptiveRateControl::AdaptiveRateControl()
    : m_gain(1.0 / 16),
      m_initialAlpha(0.5),
      m_fastRecovery(5),
      m_rate(0)
{
}

AdaptiveRateControl::~AdaptiveRateControl() = default;

void
AdaptiveRateControl::DoDispose()
{
    Stop();
    Object::DoDispose();
}

Time
AdaptiveRateControl::IntervalOf(Time configured) const
{
    return std::max(configured.IsStrictlyPositive() ? configured : m_rtt, m_minInterval);
}

double
AdaptiveRateControl::Clamp(double rate) const
{
    return std::min(std::max(rate, static_cast<double>(m_minRate.GetBitRate())), m_lineRateBps);
}

void
AdaptiveRateControl::Start(double lineRateBps, double initialRateBps, Time rtt)
{
    NS_LOG_FUNCTION(this << lineRateBps << initialRateBps << rtt);
    m_lineRateBps = std::max(lineRateBps, static_cast<double>(m_minRate.GetBitRate()));
    m_rtt = rtt;
    m_alpha = m_initialAlpha;
    m_rate = Clamp(initialRateBps);
    m_target = m_rate;
    m_stage = 0;
    m_signalled = false;
    m_decreased = false;
    Stop();
    m_increaseTimer =
        Simulator::Schedule(IntervalOf(m_increaseInterval), &AdaptiveRateControl::Increase, this);
    m_alphaTimer =
        Simulator::Schedule(IntervalOf(m_alphaInterval), &AdaptiveRateControl::UpdateAlpha, this);
}

void
AdaptiveRateControl::Stop()
{
    m_increaseTimer.Cancel();
    m_alphaTimer.Cancel();
}

void
AdaptiveRateControl::OnCongestion()
{
    Decrease();
}

void
AdaptiveRateControl::OnLoss()
{
    Decrease();
}

void
AdaptiveRateControl::Decrease()
{
    m_signalled = true;
    const Time now = Simulator::Now();
    if (m_decreased && now - m_lastDecrease < IntervalOf(m_decreaseInterval))
    {
        return; // the last cut has not had a round trip to show yet
    }
    m_decreased = true;
    m_lastDecrease = now;
    m_target = m_rate;
    m_rate = Clamp(m_rate * (1 - m_alpha / 2));
    m_stage = 0;
    NS_LOG_DEBUG("cut to " << m_rate << " bit/s, alpha " << m_alpha);
    // The increase steps count from the cut.
    m_increaseTimer.Cancel();
    m_increaseTimer =
        Simulator::Schedule(IntervalOf(m_increaseInterval), &AdaptiveRateControl::Increase, this);
}

void
AdaptiveRateControl::Increase()
{
    ++m_stage;
    if (m_stage > m_fastRecovery)
    {
        const uint32_t beyond = m_stage - m_fastRecovery;
        m_target += beyond <= m_fastRecovery
                        ? m_additive.GetBitRate()
                        : (beyond - m_fastRecovery) * static_cast<double>(m_hyper.GetBitRate());
        m_target = Clamp(m_target);
    }
    m_rate = Clamp((m_target + m_rate) / 2);
    m_increaseTimer =
        Simulator::Schedule(IntervalOf(m_increaseInterval), &AdaptiveRateControl::Increase, this);
}

void
AdaptiveRateControl::UpdateAlpha()
{
    m_alpha = (1 - m_gain) * m_alpha + (m_signalled ? m_gain : 0);
    m_signalled = false;
    m_alphaTimer =
        Simulator::Schedule(IntervalOf(m_alphaInterval), &AdaptiveRateControl::UpdateAlpha, this);
}

double
AdaptiveRateControl::GetRate() const
{
    return m_rate;
}

double
AdaptiveRateControl::GetTargetRate() const
{
    return m_target;
}

double
AdaptiveRateControl::GetAlpha() const
{
    return m_alpha;
}

} // namespace ns3
