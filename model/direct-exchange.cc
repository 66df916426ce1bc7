/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-exchange.h"

#include "round-config.h"

#include "ns3/log.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectExchange");

DirectExchange::DirectExchange(ExchangeContext& context,
                               uint32_t round,
                               const TrainingRoundConfig& config)
    : StreamExchange(context, round, config)
{
    NS_LOG_FUNCTION(this << round);
    for (uint32_t s = 0; s < m_k; ++s)
    {
        if (s != m_position)
        {
            ExpectFrom(s);
        }
    }
}

void
DirectExchange::StartSending()
{
    NS_LOG_FUNCTION(this);
    OpenStreams(m_k - 1);
}

Ptr<Packet>
DirectExchange::BuildChunk(uint32_t chunk, uint16_t flags)
{
    NS_LOG_FUNCTION(this << chunk << flags);
    return BuildDataChunk(chunk, flags);
}

void
DirectExchange::ReceiveChunk(const GradientHeader& header,
                             const std::vector<int32_t>& values,
                             bool congested)
{
    NS_LOG_FUNCTION(this << congested);
    const uint32_t chunk = header.GetChunkIndex();
    uint32_t first = 0;
    if (!CheckDirectChunk(header, values, first))
    {
        return;
    }
    EchoCongestion(header.GetContributors(), congested);
    if (m_finished)
    {
        ++m_context.counters.duplicates;
        return;
    }
    uint32_t fresh = 0;
    if (!AcceptPiece(header, first, values, fresh))
    {
        CheckComplete(); // an overlap's lost contributors may have been set aside
        return;
    }
    const IslandBitmap& contributors = header.GetContributors();
    if (!header.HasFlag(GradientHeader::FLAG_RETRANSMISSION) &&
        header.HasFlag(GradientHeader::FLAG_SETTLED) && fresh + 1 < m_k)
    {
        // A settled partial aggregate: the members it lacks went past the chunk, so their
        // contributions were lost. (A partial aggregate flushed by the FPGA's Timeout may
        // lack late senders only: their chunks still come, and real losses among them show
        // as gaps behind their later chunks.)
        for (uint32_t s = 0; s < m_k; ++s)
        {
            if (s != m_position && !m_lost[s] && !contributors.Test(IslandAt(s)))
            {
                NoteLost(s, chunk);
            }
        }
    }
    CheckComplete();
}

bool
DirectExchange::SetsAsideResends() const
{
    NS_LOG_FUNCTION(this);
    return HoldAt(m_context.settings.island).IsStrictlyPositive();
}

bool
DirectExchange::IsDone() const
{
    NS_LOG_FUNCTION(this);
    return m_incomplete == 0 && StreamsSent();
}

void
DirectExchange::Average(std::vector<double>& x, double scale) const
{
    NS_LOG_FUNCTION(this << scale);
    m_sums.Average(m_layout, m_own, x, scale);
}

} // namespace ns3
