/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-direct-exchange.h"

#include "round-config.h"

#include "ns3/log.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpDirectExchange");

TcpDirectExchange::TcpDirectExchange(ExchangeContext& context,
                                     uint32_t round,
                                     const TrainingRoundConfig& config)
    : TcpExchange(context, round, config),
      m_chunks(m_layout.GetChunkCount())
{
    NS_LOG_FUNCTION(this << round);
    m_sent.assign(m_k, 0);
    m_received.assign(m_k, 0);
    if (context.settings.real)
    {
        m_sums.Init(m_layout);
    }
}

TcpDirectExchange::~TcpDirectExchange() = default;

void
TcpDirectExchange::StartSending()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t s = 0; s < m_k; ++s)
    {
        if (s != m_position && !m_lost[s])
        {
            AddSource(s, [this, s](bool& exhausted) { return Next(s, exhausted); });
        }
    }
}

Ptr<Packet>
TcpDirectExchange::Next(uint32_t slot, bool& exhausted)
{
    NS_LOG_FUNCTION(this << slot);
    if (m_lost[slot] || m_sent[slot] == m_chunks)
    {
        exhausted = true;
        return nullptr;
    }
    Ptr<Packet> packet = BuildDataChunk(m_sent[slot], 0);
    NoteWritten(packet);
    if (++m_sent[slot] == m_chunks)
    {
        exhausted = true;
        CheckComplete();
    }
    return packet;
}

void
TcpDirectExchange::ReceiveChunk(const GradientHeader& header,
                                const std::vector<int32_t>& values,
                                bool congested)
{
    NS_LOG_FUNCTION(this << congested);
    const uint32_t slot = SlotOf(header.GetSender());
    const uint32_t chunk = header.GetChunkIndex();
    uint32_t first = 0;
    if (header.GetType() != GradientHeader::DATA || slot == NO_SLOT || slot == m_position)
    {
        ++m_context.counters.dropped;
        return;
    }
    if (!CheckDirectChunk(header, values, first))
    {
        return;
    }
    if (m_finished || m_lost[slot])
    {
        ++m_context.counters.duplicates; // a peer given up on: its data no longer counts
        return;
    }
    if (chunk != m_received[slot])
    {
        ++m_context.counters.dropped; // TCP delivers in order: anything else is not this stream
        return;
    }
    if (m_context.settings.real)
    {
        m_sums.Add(chunk, first, values, 1);
    }
    if (++m_received[slot] == m_chunks)
    {
        NS_LOG_DEBUG("island " << m_context.settings.island << " round " << m_round
                               << ": update of " << header.GetSender() << " complete");
    }
    NoteData(slot);
    CheckComplete();
}

bool
TcpDirectExchange::IsDone() const
{
    NS_LOG_FUNCTION(this);
    for (uint32_t s = 0; s < m_k; ++s)
    {
        if (Awaits(s) || Feeds(s))
        {
            return false;
        }
    }
    return true;
}

bool
TcpDirectExchange::Awaits(uint32_t slot) const
{
    NS_LOG_FUNCTION(this << slot);
    return slot != m_position && !m_lost[slot] && m_received[slot] < m_chunks;
}

bool
TcpDirectExchange::Feeds(uint32_t slot) const
{
    NS_LOG_FUNCTION(this << slot);
    return slot != m_position && !m_lost[slot] && m_sent[slot] < m_chunks;
}

void
TcpDirectExchange::OnPeerLost(uint32_t /* slot */)
{
    NS_LOG_FUNCTION(this);
    // Its chunks already in stay counted, chunk by chunk (DirectSum).
}

void
TcpDirectExchange::Average(std::vector<double>& x, double scale) const
{
    NS_LOG_FUNCTION(this << scale);
    m_sums.Average(m_layout, m_own, x, scale);
}

} // namespace ns3
