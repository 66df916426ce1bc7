/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gradient-pacer.h"

#include "wan-wire.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GradientPacer");

namespace
{
/** Pacing rate used if a stream has no valid rate (never on the helper's path). */
constexpr double FALLBACK_RATE_BPS = 10e9;
} // namespace

GradientPacer::GradientPacer()
    : m_rateBps(FALLBACK_RATE_BPS),
      m_bits(0)
{
    NS_LOG_FUNCTION(this);
}

GradientPacer::~GradientPacer()
{
    NS_LOG_FUNCTION(this);
    m_timer.Cancel();
}

void
GradientPacer::SetSendFunction(SendFunction send)
{
    NS_LOG_FUNCTION(this);
    m_send = std::move(send);
}

void
GradientPacer::SetRateFunction(RateFunction rate)
{
    NS_LOG_FUNCTION(this);
    m_rate = std::move(rate);
}

void
GradientPacer::Restart(double rateBps)
{
    NS_LOG_FUNCTION(this << rateBps);
    m_rateBps = rateBps > 0 && !std::isinf(rateBps) ? rateBps : FALLBACK_RATE_BPS;
    m_origin = Simulator::Now();
    m_bits = 0;
    m_timer.Cancel();
    m_timer = Simulator::ScheduleNow(&GradientPacer::Fire, this);
}

void
GradientPacer::Wake()
{
    NS_LOG_FUNCTION(this);
    if (!m_timer.IsExpired())
    {
        return;
    }
    const Time next = NextSendTime();
    const Time now = Simulator::Now();
    if (next <= now)
    {
        m_origin = now;
        m_bits = 0;
        m_timer = Simulator::ScheduleNow(&GradientPacer::Fire, this);
        return;
    }
    m_timer = Simulator::Schedule(next - now, &GradientPacer::Fire, this);
}

void
GradientPacer::SetResendWeight(double weight)
{
    NS_LOG_FUNCTION(this << weight);
    m_resendWeight = std::max(1.0, weight);
}

uint32_t
GradientPacer::ResendCost(uint32_t wireBytes) const
{
    NS_LOG_FUNCTION(this << wireBytes);
    return m_rate ? wireBytes : static_cast<uint32_t>(std::ceil(wireBytes * m_resendWeight));
}

void
GradientPacer::Charge(uint32_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    if (m_rate)
    {
        return;
    }
    const Time now = Simulator::Now();
    if (NextSendTime() < now)
    {
        // The clock lies in the past (idle): the charge starts now, as a send would.
        m_origin = now;
        m_bits = 0;
    }
    m_bits += bytes * WanWire::BITS_PER_BYTE;
    if (!m_timer.IsExpired())
    {
        // Move the pending pacing instant back by the charge.
        m_timer.Cancel();
        m_timer = Simulator::Schedule(NextSendTime() - now, &GradientPacer::Fire, this);
    }
}

void
GradientPacer::Cancel()
{
    NS_LOG_FUNCTION(this);
    m_timer.Cancel();
}

double
GradientPacer::GetRate() const
{
    NS_LOG_FUNCTION(this);
    return m_rateBps;
}

Time
GradientPacer::NextSendTime() const
{
    NS_LOG_FUNCTION(this);
    return m_origin + Seconds(m_bits / m_rateBps);
}

void
GradientPacer::Fire()
{
    NS_LOG_FUNCTION(this);
    const uint32_t bytes = m_send ? m_send() : 0;
    if (!m_timer.IsExpired())
    {
        return; // the send restarted the clock (a new pass) and scheduled its first packet
    }
    if (bytes == 0)
    {
        return; // idle until woken
    }
    if (m_rate)
    {
        const double rate = m_rate();
        if (rate > 0 && rate != m_rateBps)
        {
            // Re-anchor the clock where this packet was due, then count it at the new rate.
            m_origin = NextSendTime();
            m_bits = 0;
            m_rateBps = rate;
        }
    }
    m_bits += bytes * WanWire::BITS_PER_BYTE;
    const Time next = NextSendTime();
    const Time now = Simulator::Now();
    m_timer = Simulator::Schedule(next > now ? next - now : Time(0), &GradientPacer::Fire, this);
}

} // namespace ns3
