/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-slot-table.h"

#include "gradient-payload.h"
#include "update-format.h"
#include "wan-wire.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iterator>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FpgaSlotTable");

namespace
{

/** Rounds a flow's sender frontiers are kept after a newer round appears. */
constexpr uint32_t FLOW_RETAINED_ROUNDS = 4;

} // namespace

const char*
FpgaSlotTable::AddResultName(AddResult result)
{
    switch (result)
    {
    case OPENED:
        return "opened a slot";
    case ADDED:
        return "added";
    case DUPLICATE:
        return "duplicate";
    case OVERLAP:
        return "overlap";
    case MISMATCH:
        return "mismatch";
    case OVERFLOW:
        return "overflow";
    }
    return "unknown";
}

bool
FpgaSlotTable::FlowKey::operator==(const FlowKey& other) const
{
    return jobId == other.jobId && round == other.round && cliqueId == other.cliqueId;
}

FpgaSlotTable::FlowKey
FpgaSlotTable::FlowKey::Of(const GradientHeader& header)
{
    NS_LOG_FUNCTION_NOARGS();
    return FlowKey{header.GetJobId(), header.GetRound(), header.GetCliqueId()};
}

size_t
FpgaSlotTable::FlowKeyHash::operator()(const FlowKey& key) const
{
    return std::hash<uint64_t>()((uint64_t{key.jobId} << 40) ^ (uint64_t{key.round} << 16) ^
                                 key.cliqueId);
}

FpgaSlotTable::FpgaSlotTable()
    : m_earlyFlush(true),
      m_nextSerial(1),
      m_latestRound(0),
      m_aggregated(0),
      m_duplicates(0),
      m_earlyFlushes(0),
      m_wraps(0)
{
    NS_LOG_FUNCTION(this);
}

void
FpgaSlotTable::SetEmitCallback(EmitCallback emit)
{
    NS_LOG_FUNCTION(this);
    m_emit = emit;
}

void
FpgaSlotTable::SetEarlyFlush(bool earlyFlush)
{
    NS_LOG_FUNCTION(this << earlyFlush);
    m_earlyFlush = earlyFlush;
}

bool
FpgaSlotTable::GetEarlyFlush() const
{
    NS_LOG_FUNCTION(this);
    return m_earlyFlush;
}

void
FpgaSlotTable::SetPipelineLatency(Time latency)
{
    NS_LOG_FUNCTION(this << latency);
    m_pipelineLatency = latency;
}

Time
FpgaSlotTable::GetPipelineLatency() const
{
    NS_LOG_FUNCTION(this);
    return m_pipelineLatency;
}

void
FpgaSlotTable::Clear()
{
    NS_LOG_FUNCTION(this);
    for (Slot& slot : m_slots)
    {
        slot.emission.Cancel();
    }
    m_timerEvent.Cancel();
    m_deadlines.clear();
    m_slots.clear();
    m_freeSlots.clear();
    m_index.Clear();
    m_frontiers.clear();
    m_waitingBySender.clear();
}

bool
FpgaSlotTable::Find(const SlotKey& key, uint32_t& index) const
{
    NS_LOG_FUNCTION(this);
    return m_index.Find(key, index);
}

bool
FpgaSlotTable::AbsorbResend(const GradientHeader& header)
{
    NS_LOG_FUNCTION(this);
    uint32_t index = 0;
    if (!Find(SlotKey::Of(header), index) || !m_slots[index].contributors.Test(header.GetSender()))
    {
        return false;
    }
    ++m_duplicates;
    return true;
}

uint32_t
FpgaSlotTable::Open(const GradientHeader& header,
                    const InputFields& fields,
                    const IslandBitmap& expected,
                    Time deadline)
{
    NS_LOG_FUNCTION(this << expected << deadline);
    uint32_t index;
    if (!m_freeSlots.empty())
    {
        index = m_freeSlots.back();
        m_freeSlots.pop_back();
    }
    else
    {
        index = static_cast<uint32_t>(m_slots.size());
        m_slots.emplace_back();
    }
    const SlotKey key = SlotKey::Of(header);
    m_index.Insert(key, index);
    Slot& slot = m_slots[index];
    slot.key = key;
    slot.header = header;
    slot.expected = expected;
    slot.contributors.Clear();
    slot.sum.assign(header.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD) ? header.GetElementCount()
                                                                      : 0,
                    0);
    slot.sources = UpdateFormat::SumSources(header.GetEncoding(), header.GetContributors().Count());
    slot.fields = fields;
    slot.emitting = false;
    slot.settled = false;
    slot.serial = m_nextSerial++;
    AddDeadline(Deadline{deadline, index, slot.serial});
    NS_LOG_DEBUG("open round " << key.round << " chunk " << key.chunkIndex << " for sender "
                               << header.GetSender() << " until " << deadline.As(Time::S));
    return index;
}

FpgaSlotTable::AddResult
FpgaSlotTable::Offer(const GradientHeader& header,
                     const InputFields& fields,
                     const IslandBitmap& expected,
                     Ptr<const Packet> packet,
                     uint32_t payloadOffset,
                     uint32_t capacity,
                     Time timeout)
{
    NS_LOG_FUNCTION(this << expected << packet << payloadOffset << capacity << timeout);
    uint32_t index;
    bool opened = false;
    if (!Find(SlotKey::Of(header), index))
    {
        if (GetSlotsInUse() >= capacity)
        {
            return OVERFLOW;
        }
        index = Open(header, fields, expected, Simulator::Now() + timeout);
        opened = true;
    }
    if ((fields.tos & WanWire::IPV4_ECN_MASK) == WanWire::IPV4_ECN_CE)
    {
        // The piece's leg was congested; the aggregate carries the mark on (before Add, which
        // may emit the slot).
        MarkCongested(index);
    }
    const AddResult result = Add(index, header, packet, payloadOffset);
    return opened && result == ADDED ? OPENED : result;
}

FpgaSlotTable::AddResult
FpgaSlotTable::Add(uint32_t index,
                   const GradientHeader& header,
                   Ptr<const Packet> packet,
                   uint32_t payloadOffset)
{
    NS_LOG_FUNCTION(this << index << packet << payloadOffset);
    Slot& slot = m_slots[index];
    const bool real = header.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD);
    // A piece is one sender's values or a lower FPGA's sum of several, in a wider encoding:
    // it fits if it can be a sum of what the slot's pieces are sums of.
    const uint32_t sources =
        slot.sources &
        UpdateFormat::SumSources(header.GetEncoding(), header.GetContributors().Count());
    if (header.GetMembers() != slot.header.GetMembers() ||
        header.GetElementCount() != slot.header.GetElementCount() || sources == 0 ||
        real != slot.header.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD))
    {
        return MISMATCH;
    }
    const IslandBitmap& pieces = header.GetContributors();
    if (pieces.IsSubsetOf(slot.contributors))
    {
        ++m_duplicates;
        return DUPLICATE;
    }
    if (pieces.Intersects(slot.contributors))
    {
        // A sum cannot be split: the piece goes on whole, the receiver sorts it out.
        return OVERLAP;
    }
    slot.contributors = slot.contributors.Union(pieces);
    slot.sources = sources;
    if (!slot.emitting)
    {
        const SlotKey& key = slot.key;
        auto& waiting = m_waitingBySender[FlowKey{key.jobId, key.round, key.cliqueId}];
        pieces.ForEach([&](uint32_t sender) { waiting[sender].Insert(key.chunkIndex); });
    }
    ++m_aggregated;
    if (real)
    {
        AddPayload(slot, header.GetEncoding(), packet, payloadOffset);
    }
    MaybeSettle(index);
    return ADDED;
}

void
FpgaSlotTable::AddPayload(Slot& slot,
                          GradientHeader::Encoding encoding,
                          Ptr<const Packet> packet,
                          uint32_t payloadOffset)
{
    NS_LOG_FUNCTION(this << packet << payloadOffset);
    const uint32_t size = packet->GetSize();
    m_scratch.resize(size);
    packet->CopyData(m_scratch.data(), size);
    const uint8_t* p = m_scratch.data() + payloadOffset;
    const size_t count = slot.sum.size();
    for (size_t i = 0; i < count; ++i)
    {
        const auto value = static_cast<uint32_t>(
            GradientPayload::ReadElement(encoding, p, static_cast<uint32_t>(i)));
        // Unsigned addition is the two's-complement sum, without signed-overflow UB.
        const uint32_t before = slot.sum[i];
        const uint32_t after = before + value;
        // Signed overflow: both operands have the same sign and the result another.
        m_wraps += ((~(before ^ value) & (before ^ after)) >> 31);
        slot.sum[i] = after;
    }
}

void
FpgaSlotTable::MaybeSettle(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    Slot& slot = m_slots[index];
    if (slot.emitting)
    {
        return;
    }
    const bool complete = slot.contributors == slot.expected;
    if (!complete && !m_earlyFlush)
    {
        return;
    }
    if (!complete)
    {
        bool settled = true;
        slot.expected.Minus(slot.contributors).ForEach([&](uint32_t sender) {
            settled = settled && HasPassed(slot.key, sender);
        });
        if (!settled)
        {
            return;
        }
        ++m_earlyFlushes;
        slot.settled = true;
        NS_LOG_INFO("early flush round " << slot.key.round << " chunk " << slot.key.chunkIndex
                                         << " holds " << slot.contributors << " of "
                                         << slot.expected);
    }
    slot.emitting = true;
    Unlist(slot);
    if (m_pipelineLatency.IsZero())
    {
        m_emit(index, complete);
    }
    else
    {
        slot.emission = Simulator::Schedule(m_pipelineLatency,
                                            &FpgaSlotTable::EmitLater,
                                            this,
                                            index,
                                            complete);
    }
}

void
FpgaSlotTable::EmitLater(uint32_t index, bool complete)
{
    NS_LOG_FUNCTION(this << index << complete);
    m_emit(index, complete);
}

void
FpgaSlotTable::AdvanceFrontier(const GradientHeader& header, uint32_t next)
{
    NS_LOG_FUNCTION(this << next);
    Advance(FlowKey::Of(header), FrontierOf(header), header.GetSender(), next);
}

void
FpgaSlotTable::AdvanceFrontiers(const GradientHeader& header,
                                const IslandBitmap& senders,
                                uint32_t next)
{
    NS_LOG_FUNCTION(this << senders << next);
    const FlowKey flow = FlowKey::Of(header);
    std::vector<uint32_t>& frontier = FrontierOf(header);
    senders.ForEach([&](uint32_t sender) { Advance(flow, frontier, sender, next); });
}

std::vector<uint32_t>&
FpgaSlotTable::FrontierOf(const GradientHeader& header)
{
    NS_LOG_FUNCTION(this);
    const FlowKey flow = FlowKey::Of(header);
    auto it = m_frontiers.find(flow);
    if (it == m_frontiers.end())
    {
        if (header.GetRound() > m_latestRound)
        {
            // Forget flows of rounds long over: their slots are gone.
            m_latestRound = header.GetRound();
            for (auto old = m_frontiers.begin(); old != m_frontiers.end();)
            {
                old = old->first.round + FLOW_RETAINED_ROUNDS < m_latestRound
                          ? m_frontiers.erase(old)
                          : std::next(old);
            }
        }
        it = m_frontiers.emplace(flow, std::vector<uint32_t>()).first;
    }
    return it->second;
}

void
FpgaSlotTable::Advance(const FlowKey& flow,
                       std::vector<uint32_t>& frontier,
                       uint32_t sender,
                       uint32_t next)
{
    NS_LOG_FUNCTION(this << sender << next);
    if (frontier.size() <= sender)
    {
        frontier.resize(sender + 1, 0);
    }
    const uint32_t before = frontier[sender];
    if (next <= before)
    {
        return;
    }
    frontier[sender] = next;
    // Chunks the sender skipped, ascending: their open slots may now be settled. A wide jump
    // (a malformed or far-ahead packet) visits the open slots instead of every skipped index,
    // and sorts what it finds into the same order.
    std::vector<std::pair<uint32_t, uint32_t>> skipped; // (chunk, pool index)
    if (uint64_t{next} - before > m_index.GetSize())
    {
        m_index.ForEach([&](const SlotKey& key, uint32_t index) {
            if (key.jobId == flow.jobId && key.round == flow.round &&
                key.cliqueId == flow.cliqueId && key.chunkIndex >= before && key.chunkIndex < next)
            {
                skipped.emplace_back(key.chunkIndex, index);
            }
        });
        std::sort(skipped.begin(), skipped.end());
    }
    else
    {
        uint32_t index;
        for (uint32_t chunk = before; chunk < next; ++chunk)
        {
            if (m_index.Find(SlotKey{flow.jobId, flow.round, flow.cliqueId, chunk}, index))
            {
                skipped.emplace_back(chunk, index);
            }
        }
    }
    for (const auto& [chunk, index] : skipped)
    {
        if (!m_slots[index].contributors.Test(sender))
        {
            MaybeSettle(index);
        }
    }
}

bool
FpgaSlotTable::HasPassed(const SlotKey& key, uint32_t sender) const
{
    auto it = m_frontiers.find(FlowKey{key.jobId, key.round, key.cliqueId});
    return it != m_frontiers.end() && sender < it->second.size() &&
           it->second[sender] > key.chunkIndex;
}

bool
FpgaSlotTable::IsOpen(uint32_t index, uint64_t serial) const
{
    // Free() sets a freed slot's serial to FREE_SERIAL; reuse gives it a new one.
    const Slot& slot = m_slots[index];
    return slot.serial == serial && !slot.emitting;
}

void
FpgaSlotTable::AddDeadline(const Deadline& d)
{
    NS_LOG_FUNCTION(this);
    if (m_deadlines.empty() || m_deadlines.back().at <= d.at)
    {
        m_deadlines.push_back(d);
    }
    else
    {
        // Only after Timeout was shortened at run time: keep the FIFO ascending.
        auto later = std::upper_bound(m_deadlines.begin(),
                                      m_deadlines.end(),
                                      d.at,
                                      [](const Time& at, const Deadline& x) { return at < x.at; });
        m_deadlines.insert(later, d);
    }
    if (m_deadlines.front().index == d.index && m_deadlines.front().serial == d.serial)
    {
        m_timerEvent.Cancel();
        ArmTimer();
    }
}

void
FpgaSlotTable::ArmTimer()
{
    NS_LOG_FUNCTION(this);
    while (!m_deadlines.empty() && !IsOpen(m_deadlines.front().index, m_deadlines.front().serial))
    {
        m_deadlines.pop_front();
    }
    if (!m_deadlines.empty() && m_timerEvent.IsExpired())
    {
        m_timerEvent = Simulator::Schedule(m_deadlines.front().at - Simulator::Now(),
                                           &FpgaSlotTable::ExpireSlots,
                                           this);
    }
}

void
FpgaSlotTable::ExpireSlots()
{
    NS_LOG_FUNCTION(this);
    const Time now = Simulator::Now();
    while (!m_deadlines.empty() && m_deadlines.front().at <= now)
    {
        const Deadline d = m_deadlines.front();
        m_deadlines.pop_front();
        if (IsOpen(d.index, d.serial))
        {
            const Slot& slot = m_slots[d.index];
            NS_LOG_INFO("timeout round " << slot.key.round << " chunk " << slot.key.chunkIndex
                                         << " holds " << slot.contributors << " of "
                                         << slot.expected);
            EmitEarlierSlots(slot.key);
            m_emit(d.index, false);
        }
    }
    ArmTimer();
}

void
FpgaSlotTable::EmitEarlierSlots(const SlotKey& key)
{
    NS_LOG_FUNCTION(this);
    // A receiver takes a sender's later chunk in an aggregate as proof that its earlier chunks
    // were sent, so an earlier slot still open (its first contribution came later, e.g. after
    // a loss) that holds one of this slot's senders must not leave after it: it goes first,
    // partial, before its own deadline, and so do the earlier slots holding one of its senders
    // (found scanning down). Earlier slots of other senders only (late senders' chunks) wait.
    auto flow = m_waitingBySender.find(FlowKey{key.jobId, key.round, key.cliqueId});
    uint32_t index;
    if (flow == m_waitingBySender.end() || !Find(key, index))
    {
        return;
    }
    IslandBitmap senders = m_slots[index].contributors;
    std::vector<uint32_t> earlier;
    uint32_t below = key.chunkIndex;
    while (true)
    {
        // The highest chunk below the last one taken whose waiting slot holds one of the
        // senders: one look-up per sender instead of a visit to every slot in between.
        bool found = false;
        uint32_t next = 0;
        senders.ForEach([&](uint32_t sender) {
            auto chunks = flow->second.find(sender);
            if (chunks == flow->second.end())
            {
                return;
            }
            uint32_t chunk;
            if (chunks->second.FindBelow(below, chunk) && (!found || chunk > next))
            {
                next = chunk;
                found = true;
            }
        });
        if (!found)
        {
            break;
        }
        if (!Find(SlotKey{key.jobId, key.round, key.cliqueId, next}, index))
        {
            break; // cannot happen: listed slots are open
        }
        senders = senders.Union(m_slots[index].contributors);
        earlier.push_back(index);
        below = next;
    }
    NS_LOG_INFO("chunk " << key.chunkIndex << " times out: " << earlier.size()
                         << " earlier slots sharing a sender go first");
    for (auto it = earlier.rbegin(); it != earlier.rend(); ++it)
    {
        m_emit(*it, false);
    }
}

void
FpgaSlotTable::Unlist(const Slot& slot)
{
    NS_LOG_FUNCTION(this);
    auto flow = m_waitingBySender.find(FlowKey{slot.key.jobId, slot.key.round, slot.key.cliqueId});
    if (flow == m_waitingBySender.end())
    {
        return;
    }
    slot.contributors.ForEach([&](uint32_t sender) {
        auto chunks = flow->second.find(sender);
        if (chunks != flow->second.end())
        {
            chunks->second.Erase(slot.key.chunkIndex);
            if (chunks->second.IsEmpty())
            {
                flow->second.erase(chunks);
            }
        }
    });
    if (flow->second.empty())
    {
        m_waitingBySender.erase(flow);
    }
}

const FpgaSlotTable::Slot&
FpgaSlotTable::GetSlot(uint32_t index) const
{
    NS_LOG_FUNCTION(this << index);
    NS_ASSERT(index < m_slots.size());
    return m_slots[index];
}

void
FpgaSlotTable::MarkCongested(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    NS_ASSERT(index < m_slots.size());
    m_slots[index].fields.tos |= WanWire::IPV4_ECN_CE;
}

void
FpgaSlotTable::Free(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    Slot& slot = m_slots[index];
    slot.emission.Cancel();
    slot.serial = FREE_SERIAL;
    m_index.Erase(slot.key);
    Unlist(slot);
    m_freeSlots.push_back(index);
}

uint32_t
FpgaSlotTable::GetSlotsInUse() const
{
    NS_LOG_FUNCTION(this);
    return m_index.GetSize();
}

uint64_t
FpgaSlotTable::GetAggregatedCount() const
{
    NS_LOG_FUNCTION(this);
    return m_aggregated;
}

uint64_t
FpgaSlotTable::GetDuplicateCount() const
{
    NS_LOG_FUNCTION(this);
    return m_duplicates;
}

uint64_t
FpgaSlotTable::GetEarlyFlushCount() const
{
    NS_LOG_FUNCTION(this);
    return m_earlyFlushes;
}

uint64_t
FpgaSlotTable::GetWrapCount() const
{
    NS_LOG_FUNCTION(this);
    return m_wraps;
}

void
FpgaSlotTable::ChunkList::Insert(uint32_t chunk)
{
    if (m_chunks.empty() || m_chunks.back() < chunk)
    {
        m_chunks.push_back(chunk);
        return;
    }
    auto it = std::lower_bound(m_chunks.begin(), m_chunks.end(), chunk);
    if (*it != chunk)
    {
        m_chunks.insert(it, chunk);
    }
}

void
FpgaSlotTable::ChunkList::Erase(uint32_t chunk)
{
    if (!m_chunks.empty() && m_chunks.front() == chunk)
    {
        m_chunks.pop_front();
        return;
    }
    auto it = std::lower_bound(m_chunks.begin(), m_chunks.end(), chunk);
    if (it != m_chunks.end() && *it == chunk)
    {
        m_chunks.erase(it);
    }
}

bool
FpgaSlotTable::ChunkList::IsEmpty() const
{
    return m_chunks.empty();
}

bool
FpgaSlotTable::ChunkList::FindBelow(uint32_t chunk, uint32_t& below) const
{
    auto it = std::lower_bound(m_chunks.begin(), m_chunks.end(), chunk);
    if (it == m_chunks.begin())
    {
        return false;
    }
    below = *std::prev(it);
    return true;
}

} // namespace ns3
