/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-exchange.h"

#include "round-config.h"
#include "wan-wire.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingExchange");

namespace
{
/** Bits of the chunk index in a resend key (the step is above them). */
constexpr uint32_t KEY_STEP_SHIFT = 32;

/** \param step ring step \param chunk chunk of its segment \return the chunk's key */
uint64_t
KeyOf(uint32_t step, uint32_t chunk)
{
    return (uint64_t{step} << KEY_STEP_SHIFT) | chunk;
}

} // namespace

RingExchange::RingExchange(ExchangeContext& context,
                           uint32_t round,
                           const TrainingRoundConfig& config)
    : UdpExchange(context, round, config),
      m_steps(ChunkLayout::RingSteps(m_k)),
      m_predecessor((m_position + m_k - 1) % m_k),
      m_successorIsland(config.members[(m_position + 1) % m_k]),
      m_sendStep(0),
      m_sending(false),
      m_nextChunk(0),
      m_endPending(m_steps)
{
    NS_LOG_FUNCTION(this << round);
    m_successor = context.settings.addresses[m_successorIsland];
    m_in.resize(m_steps);
    m_clocks.resize(m_steps);
    for (uint32_t s = 0; s < m_steps; ++s)
    {
        m_in[s].Init(RingReceiveChunks(s));
    }
    if (context.settings.real)
    {
        m_sums.Init(m_layout.GetElements());
    }
    m_pacer.SetSendFunction([this]() { return SendNext(); });
}

RingExchange::~RingExchange()
{
    NS_LOG_FUNCTION(this);
    if (m_control)
    {
        m_control->Stop();
    }
}

void
RingExchange::Shutdown()
{
    NS_LOG_FUNCTION(this);
    UdpExchange::Shutdown();
    m_pacer.Cancel();
    if (m_control)
    {
        m_control->Stop();
    }
}

void
RingExchange::OnFinished()
{
    NS_LOG_FUNCTION(this);
    UdpExchange::OnFinished();
    if (m_control)
    {
        m_control->Stop(); // resends after the end keep the last rate
    }
}

AdaptiveRateControl*
RingExchange::ControlFor(uint32_t peer)
{
    NS_LOG_FUNCTION(this << peer);
    return peer == m_successorIsland ? PeekPointer(m_control) : nullptr;
}

// ---------------------------------------------------------------------------------------------
// Send side

void
RingExchange::StartSending()
{
    NS_LOG_FUNCTION(this);
    MaybeAdvance();
}

void
RingExchange::MaybeAdvance()
{
    NS_LOG_FUNCTION(this);
    if (!IsStarted() || m_finished || m_abandoned || m_sending || m_sendStep >= m_steps)
    {
        return;
    }
    if (m_sendStep > 0 && !m_in[m_sendStep - 1].IsPassOver())
    {
        return; // its input is still arriving (chunks lost on the way are held back)
    }
    m_sending = true;
    m_nextChunk = 0;
    m_endPending = m_steps;
    const std::vector<double>& rates = m_config.ringRateBps;
    const double rate = m_sendStep < rates.size() ? rates[m_sendStep]
                        : rates.empty()           ? 0.0
                                                  : rates.front();
    if (m_context.adaptive != nullptr && !m_control)
    {
        // One controller for every step: they all go to the successor, one after another.
        // The successor's only sender is this island.
        m_control = StartControl(m_pacer, m_successor, rate, FairGuess(1, {m_successorIsland}, 1));
    }
    NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": step "
                           << m_sendStep << " of " << m_steps << " starts, planned rate " << rate
                           << " bps");
    m_pacer.Restart(m_control ? m_control->GetRate() : rate);
    m_clocks[m_sendStep].Start(FullChunkSlot(m_pacer.GetRate()));
}

uint32_t
RingExchange::SendNext()
{
    NS_LOG_FUNCTION(this);
    uint64_t key = 0;
    uint32_t asker = 0;
    Ptr<Packet> packet;
    if (m_resends.Pop(key, asker))
    {
        packet = BuildRingChunk(static_cast<uint16_t>(key >> KEY_STEP_SHIFT),
                                static_cast<uint32_t>(key),
                                GradientHeader::FLAG_RETRANSMISSION,
                                m_sums);
        m_resends.Sent(key, Simulator::Now());
        m_context.on.send(m_round, packet, m_successor, false);
        m_context.on.resent(m_round, asker);
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": step "
                               << (key >> KEY_STEP_SHIFT) << " chunk " << uint32_t(key)
                               << " resent (asked by " << asker << ")");
        return WireBytes(packet);
    }
    if (m_deferred.PopReady(key))
    {
        // A held-back chunk whose input came: it is late, so it goes first.
        packet = BuildRingChunk(static_cast<uint16_t>(key >> KEY_STEP_SHIFT),
                                static_cast<uint32_t>(key),
                                0,
                                m_sums);
        m_deferred.Sent(key, Simulator::Now());
        NS_LOG_DEBUG("island " << m_context.settings.island << " round " << m_round
                               << ": late step " << (key >> KEY_STEP_SHIFT) << " chunk "
                               << uint32_t(key));
        m_context.on.send(m_round, packet, m_successor, false);
        CheckComplete();
        return WireBytes(packet);
    }
    if (m_sending)
    {
        const uint16_t step = static_cast<uint16_t>(m_sendStep);
        const uint32_t chunks = RingSendChunks(step);
        // A chunk whose input is still being repaired is held back; the pass goes on.
        while (m_nextChunk < chunks && step > 0 && !m_in[step - 1].Has(m_nextChunk))
        {
            NS_LOG_DEBUG("island " << m_context.settings.island << " round " << m_round
                                   << ": hold step " << step << " chunk " << m_nextChunk);
            m_deferred.Defer(KeyOf(step, m_nextChunk++));
        }
        uint32_t bytes = 0;
        if (m_nextChunk < chunks)
        {
            packet = BuildRingChunk(step, m_nextChunk, 0, m_sums);
            m_context.on.send(m_round, packet, m_successor, false);
            m_clocks[step].Note(m_nextChunk, Simulator::Now());
            bytes = WireBytes(packet);
            ++m_nextChunk;
        }
        if (m_nextChunk < chunks)
        {
            return bytes;
        }
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": step "
                               << step << " pass sent");
        m_sending = false;
        ++m_sendStep;
        m_endPending = step;
        MaybeAdvance(); // the next step's first chunk, if it can go, marks the end instead
        CheckComplete();
        if (bytes > 0 || m_sending)
        {
            // Otherwise the END waits a full chunk's slot (see DirectExchange::SendNext).
            return FullChunkWireBytes();
        }
        // The step's last chunks were all held back: its END goes now.
    }
    if (m_endPending < m_steps)
    {
        const uint16_t step = static_cast<uint16_t>(m_endPending);
        m_endPending = m_steps;
        return SendEnd(m_successor, RingSendChunks(step), step);
    }
    return 0;
}

uint32_t
RingExchange::QueueResends(const GradientHeader& nack, bool& notYet)
{
    NS_LOG_FUNCTION(this);
    const uint32_t peer = nack.GetSender();
    const uint16_t step = nack.GetRingStep();
    const std::vector<GradientHeader::ChunkRange>& ranges = nack.GetNackRanges();
    if (peer != m_successorIsland || step >= m_steps || ranges.empty() ||
        ranges.front().first + ranges.front().count > RingSendChunks(step))
    {
        ++m_context.counters.dropped;
        return 0;
    }
    if (m_abandoned)
    {
        return 0;
    }
    const Time now = Simulator::Now();
    const Time spacing = ResendSpacing(peer);
    uint32_t queued = 0;
    for (const GradientHeader::ChunkRange& range : ranges)
    {
        for (uint32_t c = range.first; c < range.first + range.count; ++c)
        {
            const uint64_t key = KeyOf(step, c);
            Time sentAt;
            const bool late = m_deferred.SentAt(key, sentAt);
            if (step > m_sendStep || (step == m_sendStep && (!m_sending || c >= m_nextChunk)) ||
                m_deferred.IsDeferred(key) ||
                MayBeOnItsWay(m_clocks[step].LeftBy(late ? sentAt : m_clocks[step].SentAt(c)),
                              nack))
            {
                notYet = true; // not sent yet, or the asker cannot know it is missing
                continue;
            }
            queued +=
                m_resends.Request(key, peer, now, spacing, m_context.settings.repeatResendCopies);
        }
    }
    if (queued > 0)
    {
        m_pacer.Wake();
    }
    return queued;
}

// ---------------------------------------------------------------------------------------------
// Receive side

void
RingExchange::ReceiveChunk(const GradientHeader& header,
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
    IslandBitmap sender; // only the predecessor sends to this island
    sender.Set(header.GetSender());
    EchoCongestion(sender, congested);
    if (m_finished || m_in[step].Has(chunk))
    {
        ++m_context.counters.duplicates;
        return;
    }
    m_in[step].Mark(chunk);
    NoteProgress(m_predecessor);
    if (step + 1 < m_steps && m_deferred.Release(KeyOf(step + 1, chunk)))
    {
        m_pacer.Wake(); // the chunk it held back can go
    }
    if (m_context.settings.real)
    {
        m_sums.Absorb(m_k, step, first, values);
    }
    if (!header.HasFlag(GradientHeader::FLAG_RETRANSMISSION))
    {
        // First passes arrive in order: missing chunks below this one, and of earlier steps,
        // are lost.
        if (m_in[step].Advance(chunk + 1))
        {
            ScheduleNack(m_predecessor, static_cast<uint16_t>(step));
        }
        AdvanceEarlierSteps(static_cast<uint16_t>(step));
    }
    MaybeAdvance();
    CheckComplete();
}

void
RingExchange::AdvanceEarlierSteps(uint16_t step)
{
    NS_LOG_FUNCTION(this << step);
    for (uint16_t s = 0; s < step; ++s)
    {
        if (m_in[s].Advance(m_in[s].GetChunkCount()))
        {
            ScheduleNack(m_predecessor, s);
        }
    }
}

void
RingExchange::ReceiveEnd(const GradientHeader& header)
{
    NS_LOG_FUNCTION(this);
    const uint32_t step = header.GetRingStep();
    if (m_config.algorithm != SyncAlgorithm::RING || step >= m_steps ||
        header.GetSender() != IslandAt(m_predecessor) ||
        header.GetChunkCount() != m_in[step].GetChunkCount())
    {
        ++m_context.counters.dropped;
        return;
    }
    if (m_finished)
    {
        return;
    }
    AdvanceEarlierSteps(static_cast<uint16_t>(step + 1));
}

bool
RingExchange::IsDone() const
{
    NS_LOG_FUNCTION(this);
    return m_abandoned ||
           (m_sendStep == m_steps && m_deferred.IsEmpty() && m_in[m_steps - 1].IsComplete());
}

ChunkTracker*
RingExchange::SilentStream(uint32_t slot, uint16_t& step)
{
    NS_LOG_FUNCTION(this << slot);
    if (slot != m_predecessor)
    {
        return nullptr;
    }
    // Steps can complete out of order (a resent chunk of an early step): the first missing.
    for (uint16_t s = 0; s < m_steps; ++s)
    {
        if (!m_in[s].IsComplete())
        {
            step = s;
            return &m_in[s];
        }
    }
    return nullptr;
}

ChunkTracker*
RingExchange::StreamOf(uint32_t slot, uint16_t step)
{
    NS_LOG_FUNCTION(this << slot << step);
    return slot == m_predecessor && step < m_steps ? &m_in[step] : nullptr;
}

void
RingExchange::OnPeerLost(uint32_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    if (slot == m_predecessor)
    {
        // A ring cannot close without its predecessor: keep the own parameters this round.
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round
                               << ": predecessor " << m_config.members[slot]
                               << " lost: the ring is abandoned, own parameters kept");
        m_abandoned = true;
        m_sending = false;
        m_pacer.Cancel();
        m_resends.Clear();
        m_deferred.Clear();
    }
}

void
RingExchange::Average(std::vector<double>& x, double scale) const
{
    NS_LOG_FUNCTION(this << scale);
    m_sums.Average(m_layout, m_k, m_position, m_own, x, scale);
}

GradientPacer*
RingExchange::PacerToward(uint32_t /* island */)
{
    NS_LOG_FUNCTION(this);
    // The ring sends one stream at a time, to its successor, on the same access link.
    return &m_pacer;
}

} // namespace ns3
