/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-exchange.h"

#include "training-application.h"
#include "wan-wire.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectExchange");

namespace
{
/** \param packet a gradient packet \return its bytes on a link */
uint32_t
WireBytes(Ptr<const Packet> packet)
{
    return packet->GetSize() + WanWire::UDP_PACKET_OVERHEAD;
}

} // namespace

DirectExchange::DirectExchange(ExchangeContext& context,
                               uint32_t round,
                               const TrainingRoundConfig& config)
    : GradientExchange(context, round, config),
      m_peersIncomplete(m_k - 1)
{
    const uint32_t chunks = context.layout.GetChunkCount();
    m_in.resize(m_k);
    for (uint32_t s = 0; s < m_k; ++s)
    {
        if (s != m_position)
        {
            m_in[s].Init(chunks);
        }
    }
    if (context.real)
    {
        m_sums.Init(context.layout);
    }
}

DirectExchange::~DirectExchange()
{
    StopControls();
}

void
DirectExchange::Shutdown()
{
    GradientExchange::Shutdown();
    StopControls();
    for (auto& stream : m_streams)
    {
        stream->pacer.Cancel();
    }
}

void
DirectExchange::OnFinished()
{
    GradientExchange::OnFinished();
    StopControls(); // resends after the end keep the last rate
}

void
DirectExchange::StopControls()
{
    for (auto& stream : m_streams)
    {
        if (stream->control)
        {
            stream->control->Stop();
        }
    }
}

uint32_t
DirectExchange::StreamTo(uint32_t peer) const
{
    for (uint32_t i = 0; i < m_config.streams.size() && i < m_streams.size(); ++i)
    {
        const std::vector<uint32_t>& receivers = m_config.streams[i].receivers;
        if (std::find(receivers.begin(), receivers.end(), peer) != receivers.end())
        {
            return i;
        }
    }
    return NO_SLOT;
}

AdaptiveRateControl*
DirectExchange::ControlFor(uint32_t peer)
{
    const uint32_t index = StreamTo(peer);
    return index == NO_SLOT ? nullptr : PeekPointer(m_streams[index]->control);
}

Time
DirectExchange::HoldAt(uint32_t island) const
{
    return island < m_context.hold.size() ? m_context.hold[island] : Time(0);
}

// ---------------------------------------------------------------------------------------------
// Send side

void
DirectExchange::StartSending()
{
    for (const TrainingStreamConfig& config : m_config.streams)
    {
        auto stream = std::make_unique<OutStream>();
        stream->destination = config.destination;
        const uint32_t index = static_cast<uint32_t>(m_streams.size());
        stream->pacer.SetSendFunction([this, index]() { return SendNext(index); });
        m_streams.push_back(std::move(stream));
    }
    for (uint32_t i = 0; i < m_streams.size(); ++i)
    {
        const TrainingStreamConfig& config = m_config.streams[i];
        m_streams[i]->control = StartControl(
            m_streams[i]->pacer,
            config.destination,
            config.rateBps,
            FairGuess(static_cast<uint32_t>(m_streams.size()), config.receivers, m_k - 1));
        m_streams[i]->pacer.Restart(m_streams[i]->control ? m_streams[i]->control->GetRate()
                                                          : config.rateBps);
        m_streams[i]->clock.Start(FullChunkSlot(m_streams[i]->pacer.GetRate()));
    }
}

uint32_t
DirectExchange::SendNext(uint32_t index)
{
    OutStream& stream = *m_streams[index];
    uint64_t key = 0;
    uint32_t asker = 0;
    Ptr<Packet> packet;
    if (stream.resends.Pop(key, asker))
    {
        packet = BuildDataChunk(static_cast<uint32_t>(key), GradientHeader::FLAG_RETRANSMISSION);
        stream.resends.Sent(key, Simulator::Now());
        m_context.send(m_round, packet, stream.destination, false);
        m_context.resent(m_round, asker);
        // Where FPGAs fold the stream, the resend passes them unsummed and weighs more at the
        // plan's rates. An adaptive stream's rate follows the marks instead, which count it.
        const double weight = stream.control ? 1.0 : m_config.streams[index].resendWeight;
        return static_cast<uint32_t>(std::ceil(WireBytes(packet) * weight));
    }
    const uint32_t chunks = m_context.layout.GetChunkCount();
    if (stream.nextChunk < chunks)
    {
        packet = BuildDataChunk(stream.nextChunk, 0);
        m_context.send(m_round, packet, stream.destination, false);
        stream.clock.Note(stream.nextChunk, Simulator::Now());
        if (++stream.nextChunk == chunks)
        {
            stream.done = true;
            stream.endPending = true;
            CheckComplete();
            // The END waits a full chunk's slot: a short last chunk and its END never take
            // more queue room than one full chunk per stream.
            return FullChunkWireBytes();
        }
        return WireBytes(packet);
    }
    if (stream.endPending)
    {
        stream.endPending = false;
        return SendEnd(stream.destination, chunks, 0);
    }
    return 0;
}

GradientPacer*
DirectExchange::PacerToward(uint32_t island)
{
    const uint32_t index = StreamTo(island);
    return index == NO_SLOT ? nullptr : &m_streams[index]->pacer;
}

uint32_t
DirectExchange::QueueResends(const GradientHeader& nack, bool& notYet)
{
    const uint32_t peer = nack.GetSender();
    const uint32_t index = StreamTo(peer);
    OutStream* stream = index == NO_SLOT ? nullptr : m_streams[index].get();
    if (stream == nullptr || nack.GetRingStep() != 0)
    {
        ++m_context.dropped;
        return 0;
    }
    const Time now = Simulator::Now();
    const Time spacing = ResendSpacing(peer);
    uint32_t queued = 0;
    for (const GradientHeader::ChunkRange& range : nack.GetNackRanges())
    {
        for (uint32_t c = range.first; c < range.first + range.count; ++c)
        {
            if (c >= stream->nextChunk || MayBeOnItsWay(stream->clock.SentAt(c), nack))
            {
                notYet = true; // not sent yet, or the asker cannot know it is missing
                continue;
            }
            const bool fresh =
                stream->resends.Request(c, peer, now, spacing, m_context.repeatResendCopies);
            NS_LOG_DEBUG("island " << m_context.island << " round " << m_round << ": chunk " << c
                                   << " asked by " << peer
                                   << (fresh ? ", resend queued" : ", resend already due"));
            queued += fresh;
        }
    }
    if (queued > 0)
    {
        stream->pacer.Wake();
    }
    return queued;
}

// ---------------------------------------------------------------------------------------------
// Receive side

void
DirectExchange::ReceiveChunk(const GradientHeader& header, const std::vector<int32_t>& values)
{
    const uint32_t chunk = header.GetChunkIndex();
    uint32_t first = 0;
    if (!CheckDirectChunk(header, first))
    {
        return;
    }
    EchoCongestion(header.GetContributors());
    if (m_finished)
    {
        ++m_context.duplicates;
        return;
    }
    const IslandBitmap& contributors = header.GetContributors();
    bool overlap = false;
    uint32_t fresh = 0;
    contributors.ForEach([&](uint32_t island) {
        const uint32_t slot = SlotOf(island);
        overlap = overlap || island == m_context.island || slot == NO_SLOT || m_in[slot].Has(chunk);
        ++fresh;
    });
    if (overlap)
    {
        // Real sums cannot be split: drop it, and ask its fresh contributors again.
        NS_LOG_DEBUG(
            "island " << m_context.island << " round " << m_round << ": chunk " << chunk << " from "
                      << header.GetSender() << " already in"
                      << (header.HasFlag(GradientHeader::FLAG_RETRANSMISSION) ? " (resend)" : ""));
        ++m_context.duplicates;
        contributors.ForEach([&](uint32_t island) {
            const uint32_t slot = SlotOf(island);
            if (slot != NO_SLOT && slot != m_position && !m_in[slot].Has(chunk))
            {
                NoteLost(slot, chunk);
            }
        });
        return;
    }
    const bool firstPass = !header.HasFlag(GradientHeader::FLAG_RETRANSMISSION);
    contributors.ForEach([&](uint32_t island) {
        const uint32_t slot = SlotOf(island);
        m_in[slot].Mark(chunk);
        NoteProgress(slot);
        if (m_in[slot].IsComplete() && !m_lost[slot])
        {
            --m_peersIncomplete;
        }
        // First passes arrive in chunk order: anything below this chunk still missing is lost.
        if (firstPass && m_in[slot].Advance(chunk + 1))
        {
            ScheduleNack(slot, 0);
        }
    });
    if (m_context.real)
    {
        m_sums.Add(chunk, first, values, fresh);
    }
    if (firstPass && header.HasFlag(GradientHeader::FLAG_SETTLED) && fresh + 1 < m_k)
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

void
DirectExchange::NoteLost(uint32_t slot, uint32_t chunk)
{
    if (m_in[slot].MarkLost(chunk))
    {
        ScheduleNack(slot, 0);
    }
}

void
DirectExchange::ReceiveEnd(const GradientHeader& header)
{
    const uint32_t slot = SlotOf(header.GetSender());
    if (m_config.algorithm != SyncAlgorithm::DIRECT || slot == NO_SLOT || slot == m_position ||
        header.GetChunkCount() != m_context.layout.GetChunkCount())
    {
        ++m_context.dropped;
        return;
    }
    if (HoldAt(m_context.island).IsStrictlyPositive())
    {
        // Behind an FPGA the END overtakes the sender's chunks still waiting in their slots:
        // the FPGA itself uses it to flush them, and partial aggregates tell what is lost.
        return;
    }
    if (!m_finished && m_in[slot].Advance(header.GetChunkCount()))
    {
        ScheduleNack(slot, 0);
    }
}

bool
DirectExchange::IsDone() const
{
    if (m_peersIncomplete > 0)
    {
        return false;
    }
    for (const auto& stream : m_streams)
    {
        if (!stream->done)
        {
            return false;
        }
    }
    return true;
}

ChunkTracker*
DirectExchange::SilentStream(uint32_t slot, uint16_t& step)
{
    step = 0;
    return slot != m_position && !m_in[slot].IsComplete() ? &m_in[slot] : nullptr;
}

ChunkTracker*
DirectExchange::StreamOf(uint32_t slot, uint16_t step)
{
    return step == 0 && slot != m_position ? &m_in[slot] : nullptr;
}

void
DirectExchange::OnPeerLost(uint32_t slot)
{
    if (!m_in[slot].IsComplete())
    {
        --m_peersIncomplete;
    }
}

void
DirectExchange::Average(std::vector<double>& x, double scale) const
{
    m_sums.Average(m_context.layout, m_own, x, scale);
}

} // namespace ns3
