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
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdaptiveRateControl");

NS_OBJECT_ENSURE_REGISTERED(AdaptiveRateControl);

namespace
{
/** The hyper increase stops doubling after this many doublings (2^20 x the increase). */
constexpr uint32_t MAX_DOUBLINGS = 20;
/** A period's cut for marks is at most this fraction of the rate. */
constexpr double MAX_CUT = 0.5;
} // namespace

TypeId
AdaptiveRateControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdaptiveRateControl")
            .SetParent<Object>()
            .SetGroupName("WanTraining")
            .AddConstructor<AdaptiveRateControl>()
            .AddAttribute("Period",
                          "The control period: marks counted and the rate updated once per "
                          "period (0: the round trip given at the start, the clique's longest)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&AdaptiveRateControl::m_period),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MinPeriod",
                          "Floor of the control period",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&AdaptiveRateControl::m_minPeriod),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MarkDecrease",
                          "beta: a period whose marked fraction is F cuts the rate by beta x F",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&AdaptiveRateControl::m_markDecrease),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MarkTrend",
                          "gamma: the cut also answers the change of the marked fraction since "
                          "the period before, beta x (F + gamma x (F - F')): the queue's trend, "
                          "which damps the loop (a rising queue is cut before it overshoots, a "
                          "falling one released before it empties)",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&AdaptiveRateControl::m_markTrend),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("LossDecrease",
                          "A period with a gap NACK (loss) cuts the rate by this fraction; the "
                          "gap NACKs of the next period belong to the same loss and are ignored",
                          DoubleValue(0.3),
                          MakeDoubleAccessor(&AdaptiveRateControl::m_lossDecrease),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("IncreaseBytes",
                          "The additive increase, as the bytes it adds to a queue in one period: "
                          "each period adds 8 x IncreaseBytes / period to the rate, the same "
                          "for every stream of a clique (they share the period)",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&AdaptiveRateControl::m_increaseBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HyperAfter",
                          "After this many periods in a row without a mark, each further "
                          "unmarked period doubles the increase (climbing back after a cut or "
                          "from a low guess); 0: never",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AdaptiveRateControl::m_hyperAfter),
                          MakeUintegerChecker<uint32_t>())
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
    : m_markDecrease(0.1),
      m_markTrend(4.0),
      m_lossDecrease(0.3),
      m_increaseBytes(1000),
      m_hyperAfter(0),
      m_rate(0)
{
    NS_LOG_FUNCTION(this);
}

AdaptiveRateControl::~AdaptiveRateControl() = default;

void
AdaptiveRateControl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Stop();
    Object::DoDispose();
}

double
AdaptiveRateControl::Clamp(double rate) const
{
    NS_LOG_FUNCTION(this << rate);
    return std::min(std::max(rate, static_cast<double>(m_minRate.GetBitRate())), m_lineRateBps);
}

void
AdaptiveRateControl::Start(double lineRateBps, double initialRateBps, Time rtt)
{
    NS_LOG_FUNCTION(this << lineRateBps << initialRateBps << rtt);
    m_lineRateBps = std::max(lineRateBps, static_cast<double>(m_minRate.GetBitRate()));
    m_interval = std::max(m_period.IsStrictlyPositive() ? m_period : rtt, m_minPeriod);
    m_rate = Clamp(initialRateBps);
    m_sent = 0;
    m_sentBefore = 0;
    m_marks.clear();
    m_lost = false;
    m_lossCut = false;
    m_unmarked = 0;
    m_lastFraction = 0;
    Stop();
    m_timer = Simulator::Schedule(m_interval, &AdaptiveRateControl::Update, this);
}

void
AdaptiveRateControl::Stop()
{
    NS_LOG_FUNCTION(this);
    m_timer.Cancel();
}

void
AdaptiveRateControl::OnSent()
{
    NS_LOG_FUNCTION(this);
    ++m_sent;
}

void
AdaptiveRateControl::OnCongestion(uint32_t receiver, uint32_t marks)
{
    NS_LOG_FUNCTION(this << receiver << marks);
    m_marks[receiver] += marks;
}

void
AdaptiveRateControl::OnLoss()
{
    NS_LOG_FUNCTION(this);
    m_lost = true;
}

double
AdaptiveRateControl::MarkedFraction() const
{
    NS_LOG_FUNCTION(this);
    // Over the receivers that echoed marks: a multicast stream slows for its congested
    // receivers (not diluted by the others), and several congested receivers average out the
    // sampling noise of each. The marks echo packets of up to a round trip (a period) earlier:
    // after a cut, as many as the period before sent.
    uint64_t marks = 0;
    for (const auto& receiver : m_marks)
    {
        marks += receiver.second;
    }
    const double packets =
        static_cast<double>(std::max<uint64_t>(std::max(m_sent, m_sentBefore), 1));
    return m_marks.empty() ? 0.0 : std::min(1.0, marks / (packets * m_marks.size()));
}

void
AdaptiveRateControl::Update()
{
    NS_LOG_FUNCTION(this);
    const double fraction = MarkedFraction();
    const double increase = 8.0 * m_increaseBytes / m_interval.GetSeconds();
    m_unmarked = m_marks.empty() ? m_unmarked + 1 : 0;
    double rate = m_rate;
    if (m_lost && !m_lossCut)
    {
        rate *= 1 - m_lossDecrease;
        m_lossCut = true;
    }
    else
    {
        m_lossCut = false;
        const uint32_t doublings =
            m_hyperAfter > 0 && m_unmarked > m_hyperAfter ? m_unmarked - m_hyperAfter : 0;
        // A falling fraction releases (a negative cut): the queue is draining, the last cuts
        // went below what it needs.
        const double cut = std::min(
            std::max(m_markDecrease * (fraction + m_markTrend * (fraction - m_lastFraction)),
                     -MAX_CUT),
            MAX_CUT);
        rate = rate * (1 - cut) +
               increase * std::pow(2.0, std::min<uint32_t>(doublings, MAX_DOUBLINGS));
    }
    m_rate = Clamp(rate);
    NS_LOG_DEBUG("sent " << m_sent << ", marked " << fraction << (m_lost ? ", loss" : "")
                         << ": rate " << m_rate << " bit/s");
    m_lastFraction = fraction;
    m_sentBefore = m_sent;
    m_sent = 0;
    m_marks.clear();
    m_lost = false;
    m_timer = Simulator::Schedule(m_interval, &AdaptiveRateControl::Update, this);
}

double
AdaptiveRateControl::GetRate() const
{
    NS_LOG_FUNCTION(this);
    return m_rate;
}

Time
AdaptiveRateControl::GetPeriod() const
{
    NS_LOG_FUNCTION(this);
    return m_interval;
}

} // namespace ns3
