/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-ring-exchange.h"

#include "round-config.h"

#include "ns3/log.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpRingExchange");

TcpRingExchange::TcpRingExchange(ExchangeContext& context,
                                 uint32_t round,
                                 const TrainingRoundConfig& config)
    : TcpExchange(context, round, config),
      m_steps(ChunkLayout::RingSteps(m_k)),
      m_predecessor((m_position + m_k - 1) % m_k),
      m_successor((m_position + 1) % m_k),
      m_sendStep(0),
      m_nextChunk(0),
      m_receiveStep(0)
{
    NS_LOG_FUNCTION(this << round);
    m_received.assign(m_steps, 0);
    if (context.settings.real)
    {
        m_sums.Init(m_layout.GetElements());
    }
}

TcpRingExchange::~TcpRingExchange() = default;

void
TcpRingExchange::StartSending()
{
    NS_LOG_FUNCTION(this);
    AddSource(m_successor, [this](bool& exhausted) { return Next(exhausted); });
}

Ptr<Packet>
TcpRingExchange::Next(bool& exhausted)
{
    NS_LOG_FUNCTION(this);
    if (m_abandoned || m_sendStep == m_steps)
    {
        exhausted = true;
        return nullptr;
    }
    // Chunk c of step s carries on chunk c of the predecessor's step s - 1 (the same segment).
    if (m_sendStep > 0 && m_received[m_sendStep - 1] <= m_nextChunk)
    {
        return nullptr; // not in yet: ReceiveChunk wakes the connection
    }
    Ptr<Packet> packet = BuildRingChunk(static_cast<uint16_t>(m_sendStep), m_nextChunk, 0, m_sums);
    NoteWritten(packet);
    if (++m_nextChunk == RingSendChunks(m_sendStep))
    {
        m_nextChunk = 0;
        if (++m_sendStep == m_steps)
        {
            exhausted = true;
            CheckComplete();
        }
    }
    return packet;
}

void
TcpRingExchange::ReceiveChunk(const GradientHeader& header,
                              const std::vector<int32_t>& values,
                              bool congested)
{
    NS_LOG_FUNCTION(this << congested);
    const uint32_t step = header.GetRingStep();
    const uint32_t chunk = header.GetChunkIndex();
    uint32_t first = 0;
    if (!CheckRingChunk(header, first))
    {
        return;
    }
    if (m_finished || m_abandoned)
    {
        ++m_context.counters.duplicates;
        return;
    }
    if (step != m_receiveStep || chunk != m_received[step])
    {
        ++m_context.counters.dropped; // TCP delivers in order: anything else is not this stream
        return;
    }
    if (m_context.settings.real)
    {
        m_sums.Absorb(m_k, step, first, values);
    }
    if (++m_received[step] == RingReceiveChunks(step))
    {
        ++m_receiveStep;
    }
    NoteData(m_predecessor);
    Wake(m_successor); // a chunk waiting for this input can go
    CheckComplete();
}

bool
TcpRingExchange::IsReceived() const
{
    NS_LOG_FUNCTION(this);
    return m_receiveStep == m_steps;
}

bool
TcpRingExchange::IsDone() const
{
    NS_LOG_FUNCTION(this);
    return m_abandoned || (m_sendStep == m_steps && IsReceived());
}

bool
TcpRingExchange::Awaits(uint32_t slot) const
{
    NS_LOG_FUNCTION(this << slot);
    return slot == m_predecessor && !m_abandoned && !IsReceived();
}

bool
TcpRingExchange::Feeds(uint32_t slot) const
{
    NS_LOG_FUNCTION(this << slot);
    return slot == m_successor && !m_abandoned && m_sendStep < m_steps;
}

void
TcpRingExchange::OnPeerLost(uint32_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    if (slot == m_predecessor || slot == m_successor)
    {
        // A ring cannot close without either: keep the own parameters this round.
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": "
                               << (slot == m_predecessor ? "predecessor " : "successor ")
                               << m_config.members[slot]
                               << " lost: the ring is abandoned, own parameters kept");
        m_abandoned = true;
        Shutdown();
    }
}

void
TcpRingExchange::Average(std::vector<double>& x, double scale) const
{
    NS_LOG_FUNCTION(this << scale);
    m_sums.Average(m_layout, m_k, m_position, m_own, x, scale);
}

} // namespace ns3
