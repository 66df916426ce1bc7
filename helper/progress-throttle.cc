/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "progress-throttle.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProgressThrottle");

void
ProgressThrottle::SetPeriod(double seconds)
{
    NS_LOG_FUNCTION(this << seconds);
    m_periodSeconds = seconds;
}

bool
ProgressThrottle::IsOn() const
{
    return m_periodSeconds > 0;
}

void
ProgressThrottle::Start()
{
    NS_LOG_FUNCTION(this);
    m_start = std::chrono::steady_clock::now();
    m_lastLine = m_start;
}

bool
ProgressThrottle::TakeTurn()
{
    if (!IsOn())
    {
        return false;
    }
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - m_lastLine).count() < m_periodSeconds)
    {
        return false;
    }
    m_lastLine = now;
    return true;
}

double
ProgressThrottle::GetElapsedSeconds() const
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

} // namespace ns3
