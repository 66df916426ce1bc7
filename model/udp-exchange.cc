/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "udp-exchange.h"

#include "adaptive-transport.h"
#include "gradient-pacer.h"
#include "gradient-payload.h"
#include "round-config.h"
#include "wan-wire.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UdpExchange");

namespace
{
/** NACK packets one ask may send to one peer (each carries MAX_NACK_RANGES ranges). */
constexpr uint32_t MAX_NACK_PACKETS = 64;
/** Smallest repair interval derived from the path. */
const Time MIN_REPAIR_INTERVAL = MilliSeconds(1);
} // namespace

UdpExchange::UdpExchange(ExchangeContext& context,
                         uint32_t round,
                         const TrainingRoundConfig& config)
    : RoundExchange(context, round, config)
{
    NS_LOG_FUNCTION(this << round);
    m_peers.resize(m_k);
}

UdpExchange::~UdpExchange()
{
    NS_LOG_FUNCTION(this);
    StopTimers();
}

void
UdpExchange::Shutdown()
{
    NS_LOG_FUNCTION(this);
    StopTimers();
}

void
UdpExchange::ReceiveControl(const GradientHeader& header)
{
    NS_LOG_FUNCTION(this);
    switch (header.GetType())
    {
    case GradientHeader::NACK:
        ReceiveNack(header);
        break;
    case GradientHeader::ACK:
        ReceiveAck(header);
        break;
    case GradientHeader::END:
        ReceiveEnd(header);
        break;
    default:
        NS_ABORT_MSG("UdpExchange: not a control packet: type " << header.GetType());
    }
}

void
UdpExchange::StopTimers()
{
    NS_LOG_FUNCTION(this);
    m_checking = false;
    m_check.Cancel();
    for (PeerState& peer : m_peers)
    {
        peer.nack.Cancel();
        peer.reask.Cancel();
    }
}

void
UdpExchange::OnStart()
{
    NS_LOG_FUNCTION(this);
    if (m_k > 1)
    {
        // A peer is not asked before its data could have arrived: the round trip to it, plus
        // the time this island's FPGA may hold its chunks.
        const Time start = GetStartTime();
        const Time hold = HoldAt(m_context.settings.island);
        for (uint32_t s = 0; s < m_k; ++s)
        {
            m_peers[s].waitUntil = start + RttTo(IslandAt(s)) + hold;
            m_peers[s].lastData = start;
        }
        m_checkOrigin = Simulator::Now();
        m_checking = true;
        ArmCheck();
    }
}

void
UdpExchange::OnFinished()
{
    NS_LOG_FUNCTION(this);
    if (m_checking && m_checkAt > NextCheckPoint())
    {
        // A check skipped ahead (ArmCheck) is removed, not cancelled: the clock would run on
        // to it when the simulator reaches it, and the run would end there.
        Simulator::Remove(m_check);
    }
    StopTimers();
}

Time
UdpExchange::RttTo(uint32_t island) const
{
    NS_LOG_FUNCTION(this << island);
    return island < m_context.settings.rtt.size() ? m_context.settings.rtt[island] : Time(0);
}

Time
UdpExchange::HoldAt(uint32_t /* island */) const
{
    NS_LOG_FUNCTION(this);
    return Time(0);
}

uint32_t
UdpExchange::FullChunkWireBytes() const
{
    NS_LOG_FUNCTION(this);
    return ChunkLayout::DataWireBytes(m_layout.GetChunkElements() * GradientHeader::ELEMENT_SIZE,
                                      m_context.settings.islandCount,
                                      m_context.settings.framingBytes);
}

uint32_t
UdpExchange::WireBytes(Ptr<const Packet> packet) const
{
    NS_LOG_FUNCTION(this << packet);
    return packet->GetSize() + WanWire::IPV4_UDP_HEADER_BYTES + m_context.settings.framingBytes;
}

Time
UdpExchange::FullChunkSlot(double rateBps) const
{
    NS_LOG_FUNCTION(this << rateBps);
    return Seconds(FullChunkWireBytes() * WanWire::BITS_PER_BYTE / rateBps);
}

bool
UdpExchange::MayBeOnItsWay(Time leftBy, const GradientHeader& nack) const
{
    NS_LOG_FUNCTION(this << leftBy);
    // After a gap, not the asker's FPGA hold: it asks for a chunk its FPGA gave up on (a
    // settled partial aggregate), or one a later chunk overtook, and a resend passes the FPGA
    // untouched. After silence, its FPGA may still hold the chunk in a slot that waits for a
    // late sender.
    const uint32_t asker = nack.GetSender();
    const Time hold = nack.HasFlag(GradientHeader::FLAG_SILENCE) ? HoldAt(asker) : Time(0);
    return leftBy > Simulator::Now() - RttTo(asker) - hold;
}

Time
UdpExchange::ResendSpacing(uint32_t island) const
{
    NS_LOG_FUNCTION(this << island);
    return RttTo(island);
}

Time
UdpExchange::RepairInterval(uint32_t slot) const
{
    NS_LOG_FUNCTION(this << slot);
    if (m_context.settings.repairTimeout.IsStrictlyPositive())
    {
        return m_context.settings.repairTimeout;
    }
    // Resends pass FPGAs untouched: no hold on their way.
    const Time derived = RttTo(IslandAt(slot)) * m_context.settings.repairRoundTrips;
    return std::max(derived, MIN_REPAIR_INTERVAL);
}

uint32_t
UdpExchange::SendEnd(Ipv4Address to, uint32_t chunkCount, uint16_t step, uint16_t flags)
{
    NS_LOG_FUNCTION(this << to << chunkCount << step << flags);
    GradientHeader header = MakeHeader(GradientHeader::END, chunkCount, step);
    header.SetChunkIndex(chunkCount - 1);
    header.SetFlags(flags);
    IslandBitmap self;
    self.Set(m_context.settings.island);
    header.SetContributors(self);
    Ptr<Packet> packet = GradientPayload::CreateVirtual(header);
    m_context.on.send(m_round, packet, to, true);
    return WireBytes(packet);
}

void
UdpExchange::NoteProgress(uint32_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    PeerState& peer = m_peers[slot];
    ++peer.progress;
    peer.lastData = Simulator::Now();
    const Time next = NextCheckPoint();
    if (m_checking && (m_check.IsExpired() || m_checkAt > next))
    {
        // The check skipped ahead while the peers were quiet: the next grid point's check
        // restarts this peer's wait.
        m_check.Cancel();
        ScheduleCheck(next);
    }
}

// ---------------------------------------------------------------------------------------------
// Gap NACKs

void
UdpExchange::ScheduleNack(uint32_t slot, uint16_t step)
{
    NS_LOG_FUNCTION(this << slot << step);
    PeerState& peer = m_peers[slot];
    if (m_lost[slot] || m_finished)
    {
        return;
    }
    if (std::find(peer.gapSteps.begin(), peer.gapSteps.end(), step) == peer.gapSteps.end())
    {
        peer.gapSteps.push_back(step);
    }
    if (peer.nack.IsExpired())
    {
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": gap from "
                               << m_config.members[slot] << " step " << step << ": NACK in "
                               << m_context.settings.nackDelay.As(Time::MS));
        peer.nack =
            Simulator::Schedule(m_context.settings.nackDelay, &UdpExchange::FlushNacks, this, slot);
    }
}

void
UdpExchange::FlushNacks(uint32_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    PeerState& peer = m_peers[slot];
    std::vector<uint16_t> steps;
    steps.swap(peer.gapSteps);
    if (m_finished || m_lost[slot])
    {
        return;
    }
    for (uint16_t step : steps)
    {
        if (ChunkTracker* tracker = StreamOf(slot, step))
        {
            SendNack(slot, step, *tracker, false, m_context.settings.nackCopies);
            ArmReask(slot, *tracker);
        }
    }
}

void
UdpExchange::ArmReask(uint32_t slot, ChunkTracker& tracker)
{
    NS_LOG_FUNCTION(this << slot);
    PeerState& peer = m_peers[slot];
    const Time due = tracker.NextDue(RepairInterval(slot));
    if (due == Time::Max() || !peer.reask.IsExpired())
    {
        return;
    }
    const Time now = Simulator::Now();
    peer.reask =
        Simulator::Schedule(due > now ? due - now : Time(0), &UdpExchange::Reask, this, slot);
}

void
UdpExchange::Reask(uint32_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    if (m_finished || m_lost[slot])
    {
        return;
    }
    // Every stream of the peer with chunks asked for and still missing.
    uint16_t step = 0;
    ChunkTracker* next = nullptr;
    Time earliest = Time::Max();
    for (uint16_t s = 0; ChunkTracker* tracker = StreamOf(slot, s); ++s)
    {
        SendNack(slot, s, *tracker, false, m_context.settings.reaskCopies);
        const Time due = tracker->NextDue(RepairInterval(slot));
        if (due < earliest)
        {
            earliest = due;
            next = tracker;
            step = s;
        }
    }
    if (next != nullptr)
    {
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round
                               << " re-ask step " << step << " of " << IslandAt(slot));
        ArmReask(slot, *next);
    }
}

uint32_t
UdpExchange::SendNack(uint32_t slot,
                      uint16_t step,
                      ChunkTracker& tracker,
                      bool all,
                      uint32_t copies)
{
    NS_LOG_FUNCTION(this << slot << step << all << copies);
    const uint32_t peer = IslandAt(slot);
    GradientHeader header = MakeHeader(GradientHeader::NACK, tracker.GetChunkCount(), step);
    IslandBitmap asked;
    asked.Set(peer);
    header.SetContributors(asked);
    header.SetFlags(all ? GradientHeader::FLAG_SILENCE : 0);
    uint32_t packets = 0;
    const Time now = Simulator::Now();
    uint32_t from = 0;
    while (packets < MAX_NACK_PACKETS)
    {
        std::vector<GradientHeader::ChunkRange> ranges =
            tracker.CollectDue(now,
                               RepairInterval(slot),
                               all,
                               GradientHeader::MAX_NACK_RANGES,
                               from);
        if (ranges.empty())
        {
            break;
        }
        if (packets == 0 && !all && m_context.on.repairing)
        {
            m_context.on.repairing(m_round); // a gap: this island's round may end late
        }
        from = ranges.back().first + ranges.back().count;
        NS_LOG_DEBUG("island " << m_context.settings.island << " round " << m_round << ": NACK to "
                               << peer << " step " << step << " first " << ranges.front().first
                               << " ranges " << ranges.size());
        header.SetNackRanges(ranges);
        for (uint32_t copy = 0; copy < copies; ++copy)
        {
            SendControl(GradientPayload::CreateVirtual(header), peer);
        }
        ++packets;
    }
    return packets;
}

// ---------------------------------------------------------------------------------------------
// Serving NACKs

void
UdpExchange::ReceiveNack(const GradientHeader& header)
{
    NS_LOG_FUNCTION(this);
    const uint32_t peer = header.GetSender();
    if (SlotOf(peer) == NO_SLOT || peer == m_context.settings.island)
    {
        ++m_context.counters.dropped;
        return;
    }
    if (!IsStarted())
    {
        SendNotYet(peer);
        return;
    }
    bool notYet = false;
    const uint32_t queued = QueueResends(header, notYet);
    NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": NACK from "
                           << peer << ": " << queued << " resends queued"
                           << (notYet ? ", some chunks not sent yet" : ""));
    if (queued == 0 && (notYet || !m_finished))
    {
        SendNotYet(peer);
    }
    AdaptiveRateControl* control = ControlFor(peer);
    if (queued > 0 && control != nullptr && !header.HasFlag(GradientHeader::FLAG_SILENCE))
    {
        control->OnLoss(); // a gap: a chunk was lost on the way to the asker
    }
}

void
UdpExchange::SendNotYet(uint32_t peer)
{
    NS_LOG_FUNCTION(this << peer);
    NS_LOG_DEBUG("island " << m_context.settings.island << " round " << m_round << ": not yet to "
                           << peer);
    GradientHeader header = MakeHeader(GradientHeader::ACK, 1, 0);
    // An empty contributor bitmap: "I hold nothing of this round for you yet".
    SendControl(GradientPayload::CreateVirtual(header), peer);
}

void
UdpExchange::SendControl(Ptr<Packet> packet, uint32_t peer)
{
    NS_LOG_FUNCTION(this << packet << peer);
    // The stream's budget holds its control packets (GradientPacer::Charge says when).
    if (GradientPacer* pacer = PacerToward(peer))
    {
        pacer->Charge(WireBytes(packet));
    }
    m_context.on.send(m_round, packet, m_context.settings.addresses[peer], true);
}

void
UdpExchange::ReceiveAck(const GradientHeader& header)
{
    NS_LOG_FUNCTION(this);
    const uint32_t slot = SlotOf(header.GetSender());
    if (slot == NO_SLOT)
    {
        return;
    }
    if (header.HasFlag(GradientHeader::FLAG_CONGESTION) &&
        header.GetContributors().Test(m_context.settings.island))
    {
        if (AdaptiveRateControl* control = ControlFor(header.GetSender()))
        {
            control->OnCongestion(header.GetSender(), header.GetChunkCount());
        }
        return;
    }
    if (header.GetContributors().IsEmpty())
    {
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": "
                               << m_config.members[slot] << " answered not yet");
        m_peers[slot].answered = true;
    }
}

// ---------------------------------------------------------------------------------------------
// Transport adaptive

Ptr<AdaptiveRateControl>
UdpExchange::StartControl(GradientPacer& pacer,
                          Ipv4Address destination,
                          double plannedBps,
                          double fairBps)
{
    NS_LOG_FUNCTION(this << destination << plannedBps << fairBps);
    if (m_context.adaptive == nullptr)
    {
        return nullptr;
    }
    // Every stream of the clique climbs on the same clock, the clique's longest round trip
    // from here: no faster than feedback returns from the farthest receiver.
    Time rtt(0);
    for (uint32_t s = 0; s < m_k; ++s)
    {
        rtt = std::max(rtt, RttTo(IslandAt(s)));
    }
    Ptr<AdaptiveRateControl> control =
        m_context.adaptive->CreateControl(m_round, destination, plannedBps, fairBps, rtt);
    AdaptiveRateControl* raw = PeekPointer(control);
    // The pacer asks for the rate after each packet it sent: count the packet there.
    pacer.SetRateFunction([raw]() {
        raw->OnSent();
        return raw->GetRate();
    });
    return control;
}

double
UdpExchange::FairGuess(uint32_t ownStreams,
                       const std::vector<uint32_t>& receivers,
                       uint32_t senders) const
{
    NS_LOG_FUNCTION(this << ownStreams << senders);
    const double line = m_context.adaptive ? m_context.adaptive->GetLineRate() : 0;
    uint32_t sharing = std::max<uint32_t>(ownStreams, 1);
    for (uint32_t receiver : receivers)
    {
        sharing = std::max<uint32_t>(sharing, HoldAt(receiver).IsStrictlyPositive() ? 1 : senders);
    }
    return line / sharing;
}

void
UdpExchange::EchoCongestion(const IslandBitmap& contributors, bool congested)
{
    NS_LOG_FUNCTION(this << contributors << congested);
    if (!congested || m_context.adaptive == nullptr)
    {
        return;
    }
    contributors.ForEach([this](uint32_t island) {
        if (island == m_context.settings.island || SlotOf(island) == NO_SLOT)
        {
            return;
        }
        const uint32_t marks = m_context.adaptive->CountMark(island);
        if (marks == 0)
        {
            return;
        }
        // The chunk count carries the marks reported.
        GradientHeader header = MakeHeader(GradientHeader::ACK, marks, 0);
        IslandBitmap to;
        to.Set(island);
        header.SetContributors(to);
        header.SetFlags(GradientHeader::FLAG_CONGESTION);
        SendControl(GradientPayload::CreateVirtual(header), island);
    });
}

// ---------------------------------------------------------------------------------------------
// Silence and lost peers

void
UdpExchange::CheckProgress()
{
    NS_LOG_FUNCTION(this);
    if (m_finished)
    {
        return;
    }
    const Time now = Simulator::Now();
    const Time hold = HoldAt(m_context.settings.island);
    for (uint32_t s = 0; s < m_k && !m_finished; ++s)
    {
        if (s == m_position || m_lost[s])
        {
            continue;
        }
        uint16_t step = 0;
        ChunkTracker* tracker = SilentStream(s, step);
        if (tracker == nullptr)
        {
            continue; // nothing missing from it
        }
        PeerState& peer = m_peers[s];
        if (peer.progress != peer.progressAtCheck)
        {
            // Data is flowing: ask only after a silent check interval (and the FPGA's hold).
            peer.progressAtCheck = peer.progress;
            peer.retries = 0;
            peer.nacked = false;
            peer.answered = false;
            peer.waitUntil = now + hold;
            continue;
        }
        if (now < peer.waitUntil)
        {
            continue; // its data or its answer may still be on the way
        }
        if (peer.answered)
        {
            // "Not yet": alive, only slow, unless it has kept us waiting too long.
            peer.answered = false;
            peer.retries = 0;
            if (now - peer.lastData > m_context.settings.peerPatience)
            {
                DeclareLost(s);
                continue;
            }
        }
        else if (peer.nacked && ++peer.retries >= m_context.settings.maxRetries)
        {
            DeclareLost(s);
            continue;
        }
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round << ": "
                               << m_config.members[s]
                               << " silent: NACK every missing chunk of step " << step << " (retry "
                               << peer.retries << ")");
        SendNack(s, step, *tracker, true);
        ArmReask(s, *tracker); // the known gaps it asked for are re-asked like any other
        peer.nacked = true;
        // Its answer can be back one round trip (and the FPGA's hold) later; the next check on
        // the RetransmissionTimeout grid after that asks again, so retries are at most
        // RetransmissionTimeout + RTT + hold apart (the documented lost-peer bound).
        peer.waitUntil = now + RttTo(IslandAt(s)) + hold;
    }
    if (!m_finished)
    {
        ArmCheck();
    }
}

void
UdpExchange::ArmCheck()
{
    NS_LOG_FUNCTION(this);
    // A check acts on a peer only if the peer made progress since the last check (data that
    // came before the exchange started, or since: NoteProgress brings the check back) or once
    // its waitUntil has passed.
    Time at = NextCheckPoint();
    Time due = Time::Max();
    for (uint32_t s = 0; s < m_k; ++s)
    {
        uint16_t step = 0;
        if (s != m_position && !m_lost[s] && SilentStream(s, step) != nullptr)
        {
            const PeerState& peer = m_peers[s];
            due = std::min(due, peer.progress != peer.progressAtCheck ? at : peer.waitUntil);
        }
    }
    if (due == Time::Max())
    {
        return; // every peer complete or lost: nothing left to check
    }
    if (due > at)
    {
        const int64_t interval = m_context.settings.checkInterval.GetTimeStep();
        const int64_t ahead = (due - m_checkOrigin).GetTimeStep();
        at = m_checkOrigin + TimeStep((ahead + interval - 1) / interval * interval);
        NS_LOG_LOGIC("island " << m_context.settings.island << " round " << m_round
                               << ": no peer can be asked before " << due.As(Time::S)
                               << ": next silence check at " << at.As(Time::S));
    }
    ScheduleCheck(at);
}

Time
UdpExchange::NextCheckPoint() const
{
    NS_LOG_FUNCTION(this);
    const int64_t interval = m_context.settings.checkInterval.GetTimeStep();
    const int64_t elapsed = (Simulator::Now() - m_checkOrigin).GetTimeStep();
    return m_checkOrigin + TimeStep((elapsed / interval + 1) * interval);
}

void
UdpExchange::ScheduleCheck(Time at)
{
    NS_LOG_FUNCTION(this << at);
    m_checkAt = at;
    m_check = Simulator::Schedule(at - Simulator::Now(), &UdpExchange::CheckProgress, this);
}

void
UdpExchange::DeclareLost(uint32_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    const uint32_t peer = IslandAt(slot);
    NS_LOG_INFO("island " << m_context.settings.island << " round " << m_round << ": peer " << peer
                          << " lost");
    m_lost[slot] = true;
    m_peers[slot].nack.Cancel();
    m_peers[slot].reask.Cancel();
    m_context.on.peerLost(m_round, peer);
    OnPeerLost(slot);
    CheckComplete();
}

} // namespace ns3
