/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "round-exchange.h"

#include "exchange-sum.h"
#include "gradient-payload.h"
#include "round-config.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoundExchange");

const ChunkLayout&
ExchangeSettings::LayoutOf(uint32_t sync) const
{
    NS_LOG_FUNCTION(this << sync);
    if (layouts.empty())
    {
        return layout;
    }
    const uint32_t period = static_cast<uint32_t>(layouts.size()) / fragments;
    return layouts[((sync / fragments) % period) * fragments + sync % fragments];
}

RoundExchange::RoundExchange(ExchangeContext& context,
                             uint32_t round,
                             const TrainingRoundConfig& config)
    : m_context(context),
      m_layout(context.settings.LayoutOf(round)),
      m_config(config),
      m_round(round),
      m_k(static_cast<uint32_t>(config.members.size())),
      m_position(NO_SLOT),
      m_abandoned(false),
      m_finished(false),
      m_started(false)
{
    NS_LOG_FUNCTION(this << round);
    m_slotOf.assign(context.settings.islandCount, NO_SLOT);
    for (uint32_t s = 0; s < m_k; ++s)
    {
        m_slotOf[config.members[s]] = s;
        m_members.Set(config.members[s]);
        if (config.members[s] == context.settings.island)
        {
            m_position = s;
        }
    }
    NS_ABORT_MSG_IF(m_position == NO_SLOT,
                    "island " << context.settings.island << " not in its clique of round "
                              << round);
    m_lost.assign(m_k, false);
}

RoundExchange::~RoundExchange() = default;

void
RoundExchange::Start(std::vector<int32_t> own)
{
    NS_LOG_FUNCTION(this);
    m_own = std::move(own);
    m_started = true;
    m_startTime = Simulator::Now();
    OnStart();
    StartSending();
    CheckComplete();
}

void
RoundExchange::OnStart()
{
    NS_LOG_FUNCTION(this);
}

void
RoundExchange::OnFinished()
{
    NS_LOG_FUNCTION(this);
}

bool
RoundExchange::IsFinished() const
{
    NS_LOG_FUNCTION(this);
    return m_finished;
}

bool
RoundExchange::IsStarted() const
{
    NS_LOG_FUNCTION(this);
    return m_started;
}

uint32_t
RoundExchange::GetRound() const
{
    NS_LOG_FUNCTION(this);
    return m_round;
}

const IslandBitmap&
RoundExchange::GetMembers() const
{
    NS_LOG_FUNCTION(this);
    return m_members;
}

uint32_t
RoundExchange::GetClique() const
{
    NS_LOG_FUNCTION(this);
    return m_config.clique;
}

bool
RoundExchange::IsAbandoned() const
{
    return m_abandoned;
}

Time
RoundExchange::GetStartTime() const
{
    NS_LOG_FUNCTION(this);
    return m_startTime;
}

uint32_t
RoundExchange::IslandAt(uint32_t slot) const
{
    return m_config.members[slot];
}

uint32_t
RoundExchange::SlotOf(uint32_t island) const
{
    NS_LOG_FUNCTION(this << island);
    return island < m_slotOf.size() ? m_slotOf[island] : NO_SLOT;
}

void
RoundExchange::CheckComplete()
{
    NS_LOG_FUNCTION(this);
    if (m_started && !m_finished && IsDone())
    {
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round
                               << ": exchange finished" << (m_abandoned ? " (abandoned)" : ""));
        m_finished = true;
        OnFinished();
        m_context.on.complete(m_round);
    }
}

void
RoundExchange::SendNotice(GradientHeader::Type type, Time at, uint32_t copies)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(type) << at << copies);
    NS_ASSERT(type == GradientHeader::LATE || type == GradientHeader::START);
    GradientHeader header = MakeHeader(type, 1, 0);
    IslandBitmap self;
    self.Set(m_context.settings.island);
    header.SetContributors(self);
    for (uint32_t member : m_config.members)
    {
        for (uint32_t copy = 0; member != m_context.settings.island && copy < copies; ++copy)
        {
            m_context.on.send(m_round,
                              type == GradientHeader::START
                                  ? GradientPayload::CreateStart(header, at)
                                  : GradientPayload::CreateVirtual(header),
                              m_context.settings.addresses[member],
                              true);
        }
    }
}

GradientHeader
RoundExchange::MakeHeader(GradientHeader::Type type, uint32_t chunkCount, uint16_t step) const
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(type) << chunkCount << step);
    GradientHeader header;
    header.SetType(type);
    header.SetSender(static_cast<uint16_t>(m_context.settings.island));
    header.SetJobId(m_context.settings.jobId);
    header.SetRound(m_round);
    header.SetCliqueId(m_config.clique);
    header.SetChunkCount(chunkCount);
    header.SetRingStep(step);
    header.SetMembers(m_members);
    return header;
}

Ptr<Packet>
RoundExchange::BuildDataChunk(uint32_t chunk, uint16_t flags)
{
    NS_LOG_FUNCTION(this << chunk << flags);
    IslandBitmap self;
    self.Set(m_context.settings.island);
    return BuildDirectChunk(GradientHeader::DATA, chunk, self, flags, nullptr);
}

Ptr<Packet>
RoundExchange::BuildDirectChunk(GradientHeader::Type type,
                                uint32_t chunk,
                                const IslandBitmap& contributors,
                                uint16_t flags,
                                const DirectSum* sums)
{
    NS_LOG_FUNCTION(this << static_cast<uint32_t>(type) << chunk << contributors << flags);
    GradientHeader header = MakeHeader(type, m_layout.GetChunkCount(), 0);
    header.SetChunkIndex(chunk);
    header.SetContributors(contributors);
    header.SetFlags(flags);
    uint32_t first = 0;
    const ChunkLayout& layout = m_layout;
    const uint32_t count = layout.GetChunkSpan(chunk, first);
    // A sum (a TREE root's total) travels in the encoding that holds it.
    const GradientHeader::Encoding data = layout.GetFormat().GetDataEncoding();
    header.SetEncoding(type == GradientHeader::AGGREGATE
                           ? UpdateFormat::SumEncoding(data, contributors.Count())
                           : data);
    header.SetElementCount(
        type == GradientHeader::AGGREGATE ? count : layout.GetFormat().GetWireElements(count));
    if (!m_context.settings.real)
    {
        return GradientPayload::CreateVirtual(header);
    }
    if (sums != nullptr)
    {
        sums->Total(first, count, m_own, m_scratch);
    }
    else
    {
        uint64_t from = 0;
        const uint32_t words = layout.GetValueSpan(chunk, from);
        m_scratch.assign(m_own.begin() + from, m_own.begin() + from + words);
    }
    return GradientPayload::CreateReal(header, m_scratch);
}

Ptr<Packet>
RoundExchange::BuildRingChunk(uint16_t step, uint32_t chunk, uint16_t flags, const RingSum& sums)
{
    NS_LOG_FUNCTION(this << step << chunk << flags);
    const uint32_t segment = ChunkLayout::RingSendSegment(m_k, m_position, step);
    GradientHeader header =
        MakeHeader(GradientHeader::RING, m_layout.GetSegmentChunkCount(m_k, segment), step);
    header.SetChunkIndex(chunk);
    IslandBitmap self;
    self.Set(m_context.settings.island);
    header.SetContributors(self);
    header.SetFlags(flags | GradientHeader::FLAG_NO_AGGREGATE);
    uint32_t first = 0;
    const uint32_t count = m_layout.GetSegmentChunkSpan(m_k, segment, chunk, first);
    header.SetEncoding(m_layout.GetRingEncoding(m_k, step));
    header.SetElementCount(count);
    if (!m_context.settings.real)
    {
        return GradientPayload::CreateVirtual(header);
    }
    sums.Fill(m_k, step, first, count, m_own, m_scratch);
    return GradientPayload::CreateReal(header, m_scratch);
}

bool
RoundExchange::CheckDirectChunk(const GradientHeader& header,
                                const std::vector<int32_t>& values,
                                uint32_t& first) const
{
    NS_LOG_FUNCTION(this);
    const ChunkLayout& layout = m_layout;
    const uint32_t count = layout.GetChunkSpan(header.GetChunkIndex(), first);
    const bool fits =
        m_config.algorithm != SyncAlgorithm::RING && header.GetType() != GradientHeader::RING &&
        header.GetChunkCount() == layout.GetChunkCount() && IsLaidOut(header, count) &&
        (header.GetEncoding() != GradientHeader::ENCODING_TOPK ||
         DirectSum::AreEntriesInside(values, count));
    m_context.counters.dropped += fits ? 0 : 1;
    return fits;
}

bool
RoundExchange::IsLaidOut(const GradientHeader& header, uint32_t elements) const
{
    NS_LOG_FUNCTION(this << elements);
    const UpdateFormat& format = m_layout.GetFormat();
    if (header.GetType() == GradientHeader::AGGREGATE)
    {
        return header.GetElementCount() == elements &&
               header.GetEncoding() == UpdateFormat::SumEncoding(format.GetDataEncoding(),
                                                                 header.GetContributors().Count());
    }
    return header.GetElementCount() == format.GetWireElements(elements) &&
           header.GetEncoding() == format.GetDataEncoding();
}

bool
RoundExchange::CheckRingChunk(const GradientHeader& header, uint32_t& first) const
{
    NS_LOG_FUNCTION(this);
    const uint32_t step = header.GetRingStep();
    const uint32_t segment = ChunkLayout::RingReceiveSegment(m_k, m_position, step);
    const bool fits = m_config.algorithm == SyncAlgorithm::RING &&
                      header.GetType() == GradientHeader::RING &&
                      step < ChunkLayout::RingSteps(m_k) &&
                      header.GetSender() == IslandAt((m_position + m_k - 1) % m_k) &&
                      header.GetChunkCount() == RingReceiveChunks(step) &&
                      header.GetEncoding() == m_layout.GetRingEncoding(m_k, step) &&
                      header.GetElementCount() ==
                          m_layout.GetSegmentChunkSpan(m_k, segment, header.GetChunkIndex(), first);
    m_context.counters.dropped += fits ? 0 : 1;
    return fits;
}

uint32_t
RoundExchange::RingSendChunks(uint32_t step) const
{
    NS_LOG_FUNCTION(this << step);
    return m_layout.GetSegmentChunkCount(m_k, ChunkLayout::RingSendSegment(m_k, m_position, step));
}

uint32_t
RoundExchange::RingReceiveChunks(uint32_t step) const
{
    NS_LOG_FUNCTION(this << step);
    return m_layout.GetSegmentChunkCount(m_k,
                                         ChunkLayout::RingReceiveSegment(m_k, m_position, step));
}

} // namespace ns3
