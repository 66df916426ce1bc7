/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "stream-exchange.h"

#include "round-config.h"
#include "wan-wire.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StreamExchange");

StreamExchange::StreamExchange(ExchangeContext& context,
                               uint32_t round,
                               const TrainingRoundConfig& config)
    : UdpExchange(context, round, config),
      m_incomplete(0)
{
    NS_LOG_FUNCTION(this << round);
    m_in.resize(m_k);
    if (context.settings.real)
    {
        m_sums.Init(m_layout);
    }
}

StreamExchange::~StreamExchange()
{
    NS_LOG_FUNCTION(this);
    StopControls();
}

void
StreamExchange::Shutdown()
{
    NS_LOG_FUNCTION(this);
    UdpExchange::Shutdown();
    StopControls();
    for (auto& stream : m_streams)
    {
        stream->pacer.Cancel();
    }
}

void
StreamExchange::OnFinished()
{
    NS_LOG_FUNCTION(this);
    UdpExchange::OnFinished();
    StopControls(); // resends after the end keep the last rate
}

void
StreamExchange::StopControls()
{
    NS_LOG_FUNCTION(this);
    for (auto& stream : m_streams)
    {
        if (stream->control)
        {
            stream->control->Stop();
        }
    }
}

uint32_t
StreamExchange::StreamTo(uint32_t peer) const
{
    NS_LOG_FUNCTION(this << peer);
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
StreamExchange::ControlFor(uint32_t peer)
{
    NS_LOG_FUNCTION(this << peer);
    const uint32_t index = StreamTo(peer);
    return index == NO_SLOT ? nullptr : PeekPointer(m_streams[index]->control);
}

Time
StreamExchange::HoldAt(uint32_t island) const
{
    NS_LOG_FUNCTION(this << island);
    return island < m_context.settings.hold.size() ? m_context.settings.hold[island] : Time(0);
}

GradientPacer*
StreamExchange::PacerToward(uint32_t island)
{
    NS_LOG_FUNCTION(this << island);
    const uint32_t index = StreamTo(island);
    return index == NO_SLOT ? nullptr : &m_streams[index]->pacer;
}

// ---------------------------------------------------------------------------------------------
// Send side

void
StreamExchange::OpenStreams(uint32_t senders)
{
    NS_LOG_FUNCTION(this << senders);
    for (const TrainingStreamConfig& config : m_config.streams)
    {
        auto stream = std::make_unique<OutStream>();
        stream->destination = config.destination;
        const uint32_t index = static_cast<uint32_t>(m_streams.size());
        stream->pacer.SetSendFunction([this, index]() { return SendNext(index); });
        stream->pacer.SetResendWeight(config.resendWeight);
        m_streams.push_back(std::move(stream));
    }
    for (uint32_t i = 0; i < m_streams.size(); ++i)
    {
        const TrainingStreamConfig& config = m_config.streams[i];
        OutStream& stream = *m_streams[i];
        stream.control = StartControl(
            stream.pacer,
            config.destination,
            config.rateBps,
            FairGuess(static_cast<uint32_t>(m_streams.size()), config.receivers, senders));
        stream.pacer.Restart(stream.control ? stream.control->GetRate() : config.rateBps);
        stream.clock.Start(FullChunkSlot(stream.pacer.GetRate()));
    }
}

bool
StreamExchange::FirstPassChunk(uint32_t position, uint32_t& chunk) const
{
    NS_LOG_FUNCTION(this << position);
    chunk = position;
    return position < m_layout.GetChunkCount();
}

uint32_t
StreamExchange::FirstPassPosition(uint32_t chunk) const
{
    NS_LOG_FUNCTION(this << chunk);
    return chunk;
}

uint16_t
StreamExchange::EndFlags() const
{
    NS_LOG_FUNCTION(this);
    return 0;
}

void
StreamExchange::WakeStreams()
{
    NS_LOG_FUNCTION(this);
    for (auto& stream : m_streams)
    {
        stream->pacer.Wake();
    }
}

bool
StreamExchange::StreamsSent() const
{
    NS_LOG_FUNCTION(this);
    for (const auto& stream : m_streams)
    {
        if (!stream->done)
        {
            return false;
        }
    }
    return true;
}

uint32_t
StreamExchange::SendNext(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    OutStream& stream = *m_streams[index];
    uint64_t key = 0;
    uint32_t asker = 0;
    Ptr<Packet> packet;
    if (stream.resends.Pop(key, asker))
    {
        packet = BuildChunk(static_cast<uint32_t>(key), GradientHeader::FLAG_RETRANSMISSION);
        stream.resends.Sent(key, Simulator::Now());
        m_context.on.send(m_round, packet, stream.destination, false);
        m_context.on.resent(m_round, asker);
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": chunk "
                               << key << " resent (asked by " << asker << ")");
        return stream.pacer.ResendCost(WireBytes(packet));
    }
    const uint32_t chunks = m_layout.GetChunkCount();
    uint32_t chunk = 0;
    if (!stream.done && FirstPassChunk(stream.next, chunk))
    {
        packet = BuildChunk(chunk, 0);
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": chunk "
                               << chunk << " (packet " << packet->GetUid() << ") out to "
                               << stream.destination);
        m_context.on.send(m_round, packet, stream.destination, false);
        stream.clock.Note(stream.next, Simulator::Now());
        if (++stream.next == chunks)
        {
            NS_LOG_INFO("island " << m_context.settings.island << " round " << m_round
                                  << ": first pass to " << stream.destination << " sent");
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
        return SendEnd(stream.destination, chunks, 0, EndFlags());
    }
    return 0;
}

uint32_t
StreamExchange::QueueResends(const GradientHeader& nack, bool& notYet)
{
    NS_LOG_FUNCTION(this);
    const uint32_t peer = nack.GetSender();
    const uint32_t index = StreamTo(peer);
    OutStream* stream = index == NO_SLOT ? nullptr : m_streams[index].get();
    if (stream == nullptr || nack.GetRingStep() != 0)
    {
        ++m_context.counters.dropped;
        return 0;
    }
    const Time now = Simulator::Now();
    const Time spacing = ResendSpacing(peer);
    uint32_t queued = 0;
    for (const GradientHeader::ChunkRange& range : nack.GetNackRanges())
    {
        for (uint32_t c = range.first; c < range.first + range.count; ++c)
        {
            const uint32_t position = FirstPassPosition(c);
            if (position == NO_SLOT || position >= stream->next ||
                MayBeOnItsWay(stream->clock.LeftBy(stream->clock.SentAt(position)), nack))
            {
                notYet = true; // not sent yet, or the asker cannot know it is missing
                continue;
            }
            const bool fresh = stream->resends.Request(c,
                                                       peer,
                                                       now,
                                                       spacing,
                                                       m_context.settings.repeatResendCopies);
            NS_LOG_DEBUG("island " << m_context.settings.island << " round " << m_round
                                   << ": chunk " << c << " asked by " << peer
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
StreamExchange::ExpectFrom(uint32_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    m_in[slot].Init(m_layout.GetChunkCount());
    ++m_incomplete;
}

ChunkTracker*
StreamExchange::Expected(uint32_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    return slot < m_k && m_in[slot].GetChunkCount() > 0 ? &m_in[slot] : nullptr;
}

bool
StreamExchange::AcceptPiece(const GradientHeader& header,
                            uint32_t first,
                            const std::vector<int32_t>& values,
                            uint32_t& fresh)
{
    NS_LOG_FUNCTION(this);
    fresh = 0;
    if (SetAside(header, first, values))
    {
        return false;
    }
    const uint32_t chunk = header.GetChunkIndex();
    const IslandBitmap& contributors = header.GetContributors();
    bool overlap = false;
    contributors.ForEach([&](uint32_t island) {
        const ChunkTracker* tracker = Expected(SlotOf(island));
        overlap = overlap || tracker == nullptr || tracker->Has(chunk);
        ++fresh;
    });
    if (overlap)
    {
        // Real sums cannot be split: drop it, and ask its fresh contributors again.
        NS_LOG_DEBUG(
            "island " << m_context.settings.island << " round " << m_round << ": chunk " << chunk
                      << " from " << header.GetSender() << " already in"
                      << (header.HasFlag(GradientHeader::FLAG_RETRANSMISSION) ? " (resend)" : ""));
        ++m_context.counters.duplicates;
        contributors.ForEach([&](uint32_t island) {
            const uint32_t slot = SlotOf(island);
            const ChunkTracker* tracker = Expected(slot);
            if (tracker != nullptr && !tracker->Has(chunk))
            {
                NoteLost(slot, chunk);
            }
        });
        return false;
    }
    const bool firstPass = !header.HasFlag(GradientHeader::FLAG_RETRANSMISSION);
    NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": chunk "
                           << chunk << " in from " << contributors
                           << (firstPass ? "" : " (resend)"));
    contributors.ForEach([&](uint32_t island) { MarkIn(SlotOf(island), chunk, firstPass); });
    if (m_context.settings.real)
    {
        m_sums.Add(chunk, first, values, fresh);
    }
    return true;
}

void
StreamExchange::MarkIn(uint32_t slot, uint32_t chunk, bool firstPass)
{
    NS_LOG_FUNCTION(this << slot << chunk << firstPass);
    m_in[slot].Mark(chunk);
    m_aside.Forget(slot, chunk);
    NoteProgress(slot);
    if (m_in[slot].IsComplete() && !m_lost[slot])
    {
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round
                               << ": every chunk from " << m_config.members[slot] << " in, "
                               << m_incomplete - 1 << " members still incomplete");
        --m_incomplete;
    }
    // First passes arrive in chunk order: anything below this chunk still missing is lost.
    if (firstPass && m_in[slot].Advance(chunk + 1))
    {
        for (uint32_t gap : m_aside.KnownMissing(slot, m_in[slot]))
        {
            TakeAside(slot, gap);
        }
        ScheduleNack(slot, 0); // for the gaps no piece set aside filled, if any
    }
}

void
StreamExchange::NoteLost(uint32_t slot, uint32_t chunk)
{
    NS_LOG_FUNCTION(this << slot << chunk);
    if (TakeAside(slot, chunk))
    {
        return;
    }
    if (m_in[slot].MarkLost(chunk))
    {
        ScheduleNack(slot, 0);
    }
}

bool
StreamExchange::SetsAsideResends() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

bool
StreamExchange::SetAside(const GradientHeader& header,
                         uint32_t first,
                         const std::vector<int32_t>& values)
{
    NS_LOG_FUNCTION(this << first);
    const IslandBitmap& contributors = header.GetContributors();
    if (!header.HasFlag(GradientHeader::FLAG_RETRANSMISSION) || contributors.Count() != 1 ||
        !SetsAsideResends())
    {
        return false;
    }
    const uint32_t chunk = header.GetChunkIndex();
    const uint32_t slot = SlotOf(header.GetSender());
    const ChunkTracker* tracker = Expected(slot);
    if (tracker == nullptr || !contributors.Test(header.GetSender()) || tracker->Has(chunk) ||
        tracker->IsKnownMissing(chunk))
    {
        return false;
    }
    NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": chunk "
                           << chunk << " from " << header.GetSender()
                           << " resent for another member: set aside");
    m_aside.Put(slot, chunk, AsidePieces::Piece{first, values});
    return true;
}

bool
StreamExchange::TakeAside(uint32_t slot, uint32_t chunk)
{
    NS_LOG_FUNCTION(this << slot << chunk);
    AsidePieces::Piece piece;
    if (m_in[slot].Has(chunk) || !m_aside.Take(slot, chunk, piece))
    {
        return false;
    }
    NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": chunk "
                           << chunk << " of " << m_config.members[slot]
                           << " missing: its resend set aside taken in");
    MarkIn(slot, chunk, false);
    if (m_context.settings.real)
    {
        m_sums.Add(chunk, piece.first, piece.values, 1);
    }
    return true;
}

void
StreamExchange::ReceiveEnd(const GradientHeader& header)
{
    NS_LOG_FUNCTION(this);
    const uint32_t slot = SlotOf(header.GetSender());
    ChunkTracker* tracker = slot == m_position ? nullptr : Expected(slot);
    if (tracker == nullptr || header.GetChunkCount() != m_layout.GetChunkCount())
    {
        ++m_context.counters.dropped;
        return;
    }
    if (HoldAt(m_context.settings.island).IsStrictlyPositive())
    {
        // Behind an FPGA the END overtakes the sender's chunks still waiting in their slots:
        // the FPGA itself uses it to flush them, and partial aggregates tell what is lost.
        return;
    }
    if (!m_finished && tracker->Advance(header.GetChunkCount()))
    {
        ScheduleNack(slot, 0);
    }
}

ChunkTracker*
StreamExchange::SilentStream(uint32_t slot, uint16_t& step)
{
    NS_LOG_FUNCTION(this << slot);
    step = 0;
    ChunkTracker* tracker = slot == m_position ? nullptr : Expected(slot);
    return tracker != nullptr && !tracker->IsComplete() ? tracker : nullptr;
}

ChunkTracker*
StreamExchange::StreamOf(uint32_t slot, uint16_t step)
{
    NS_LOG_FUNCTION(this << slot << step);
    return step == 0 && slot != m_position ? Expected(slot) : nullptr;
}

void
StreamExchange::OnPeerLost(uint32_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    const ChunkTracker* tracker = Expected(slot);
    if (tracker != nullptr && !tracker->IsComplete())
    {
        --m_incomplete;
    }
}

} // namespace ns3
