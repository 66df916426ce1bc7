/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-application.h"

#include "wan-training-compat.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingApplication");

NS_OBJECT_ENSURE_REGISTERED(TrainingApplication);

namespace
{

/** Receive buffer of the UDP socket: the app drains it in every callback, so this is slack. */
constexpr uint32_t SOCKET_RCVBUF_BYTES = 1u << 26;
/** NACK packets one check may send to one peer (each carries MAX_NACK_RANGES ranges). */
constexpr uint32_t MAX_NACK_PACKETS = 64;
/** Pacing rate used if a stream has no valid rate (never on the helper's path). */
constexpr double FALLBACK_RATE_BPS = 10e9;
/** Bits per byte. */
constexpr double BITS_PER_BYTE = 8.0;
/** Bits in a bitmap word. */
constexpr uint32_t WORD_BITS = 64;

/** \param n bits \return words holding them */
uint32_t
WordsFor(uint32_t n)
{
    return (n + WORD_BITS - 1) / WORD_BITS;
}

/** \param bits bitmap \param i index \return bit i */
bool
TestBit(const std::vector<uint64_t>& bits, uint32_t i)
{
    return (bits[i / WORD_BITS] >> (i % WORD_BITS)) & 1;
}

/** \param bits bitmap \param i index \brief set bit i */
void
SetBit(std::vector<uint64_t>& bits, uint32_t i)
{
    bits[i / WORD_BITS] |= uint64_t{1} << (i % WORD_BITS);
}

/** \param a int32 \param b int32 \return a + b with two's-complement wrap-around */
int32_t
WrapAdd(int32_t a, int32_t b)
{
    return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

} // namespace

TypeId
TrainingApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TrainingApplication")
            .SetParent<Application>()
            .SetGroupName("WanTraining")
            .AddConstructor<TrainingApplication>()
            .AddAttribute("ModelBytes",
                          "Bytes of one island's update (rounded up to whole int32 elements).",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&TrainingApplication::m_modelBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Rounds",
                          "Training rounds to run.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TrainingApplication::m_rounds),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ComputeTime",
                          "Compute phase of a round (before ComputeMultiplier).",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&TrainingApplication::m_computeTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ComputeMultiplier",
                          "Straggler factor of this island: compute takes ComputeTime x this.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&TrainingApplication::m_computeMultiplier),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("ChunkPayloadBytes",
                          "Payload bytes per packet, a multiple of 4. 0: the largest that fits "
                          "a 9000-byte MTU after IPv4, UDP and the gradient header (the helper "
                          "sets the cost model's value).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TrainingApplication::m_chunkPayload),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Port",
                          "UDP port of gradient traffic (the FPGAs aggregate on this port).",
                          UintegerValue(GradientHeader::DEFAULT_PORT),
                          MakeUintegerAccessor(&TrainingApplication::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("RetransmissionTimeout",
                          "Check interval of the exchange: a missing peer silent for a whole "
                          "interval is asked by NACK, at the earliest this long plus the round "
                          "trip to it after the exchange started or after its last NACK.",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&TrainingApplication::m_retransmissionTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MaxRetries",
                          "Consecutive unanswered NACK rounds after which a peer is lost.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&TrainingApplication::m_maxRetries),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("PayloadMode",
                          "Virtual (sizes only) or real (int32 fixed-point parameters).",
                          EnumValue(VIRTUAL),
                          MakeWanEnumAccessor<PayloadMode>(&TrainingApplication::m_payloadMode),
                          MakeEnumChecker(VIRTUAL, "virtual", REAL, "real"))
            .AddAttribute("Scale",
                          "Fixed-point scale of real payloads: a parameter x travels as "
                          "round(x * Scale) in an int32.",
                          DoubleValue(1 << 16),
                          MakeDoubleAccessor(&TrainingApplication::m_scale),
                          MakeDoubleChecker<double>(1))
            .AddAttribute("JobId",
                          "Job id carried in every header; packets of other jobs are dropped.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TrainingApplication::m_jobId),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RetainedRounds",
                          "Finished rounds whose data is kept to answer late NACKs.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&TrainingApplication::m_retainedRounds),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("RoundStarted",
                            "A round's compute phase started.",
                            MakeTraceSourceAccessor(&TrainingApplication::m_roundStartedTrace),
                            "ns3::TrainingApplication::RoundTracedCallback")
            .AddTraceSource("ComputeFinished",
                            "A round's compute phase ended; the exchange starts.",
                            MakeTraceSourceAccessor(&TrainingApplication::m_computeFinishedTrace),
                            "ns3::TrainingApplication::RoundTracedCallback")
            .AddTraceSource("SyncFinished",
                            "A round ended (all data in, all sent, or peers lost).",
                            MakeTraceSourceAccessor(&TrainingApplication::m_syncFinishedTrace),
                            "ns3::TrainingApplication::SyncTracedCallback")
            .AddTraceSource("Retransmission",
                            "Chunks resent to a peer after its NACK.",
                            MakeTraceSourceAccessor(&TrainingApplication::m_retransmissionTrace),
                            "ns3::TrainingApplication::PeerTracedCallback")
            .AddTraceSource("PeerLost",
                            "A peer was declared lost for a round.",
                            MakeTraceSourceAccessor(&TrainingApplication::m_peerLostTrace),
                            "ns3::TrainingApplication::PeerTracedCallback");
    return tid;
}

TrainingApplication::TrainingApplication()
    : m_modelBytes(1000000),
      m_rounds(1),
      m_computeTime(MilliSeconds(100)),
      m_computeMultiplier(1),
      m_chunkPayload(0),
      m_port(GradientHeader::DEFAULT_PORT),
      m_retransmissionTimeout(MilliSeconds(100)),
      m_maxRetries(5),
      m_payloadMode(VIRTUAL),
      m_scale(1 << 16),
      m_jobId(0),
      m_retainedRounds(8),
      m_island(0),
      m_islandCount(1),
      m_elements(0),
      m_round(0),
      m_running(false),
      m_computing(false),
      m_current(nullptr),
      m_dropped(0),
      m_duplicates(0)
{
}

TrainingApplication::~TrainingApplication() = default;

void
TrainingApplication::DoDispose()
{
    for (auto& entry : m_states)
    {
        for (auto& stream : entry.second->streams)
        {
            stream.timer.Cancel();
        }
        entry.second->check.Cancel();
    }
    m_states.clear();
    for (auto& entry : m_resends)
    {
        entry.second.timer.Cancel();
    }
    m_resends.clear();
    m_current = nullptr;
    m_computeEvent.Cancel();
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket = nullptr;
    }
    m_workload = nullptr;
    Application::DoDispose();
}

// ---------------------------------------------------------------------------------------------
// Configuration

void
TrainingApplication::SetIsland(uint32_t island, uint32_t islandCount)
{
    NS_ABORT_MSG_IF(island >= islandCount || islandCount > IslandBitmap::MAX_ISLANDS,
                    "SetIsland: island " << island << " of " << islandCount);
    m_island = island;
    m_islandCount = islandCount;
}

uint32_t
TrainingApplication::GetIsland() const
{
    return m_island;
}

void
TrainingApplication::SetIslandAddresses(const std::vector<Ipv4Address>& addresses)
{
    m_addresses = addresses;
}

void
TrainingApplication::SetPeerRtt(const std::vector<Time>& rtt)
{
    m_rtt = rtt;
}

void
TrainingApplication::SetAggregationHold(const std::vector<Time>& hold)
{
    m_hold = hold;
}

void
TrainingApplication::SetSyncNotBefore(const std::vector<Time>& notBefore)
{
    m_syncNotBefore = notBefore;
}

void
TrainingApplication::SetRoundConfigs(const std::vector<TrainingRoundConfig>& configs)
{
    m_configs = configs;
}

void
TrainingApplication::SetWorkload(Ptr<TrainingWorkload> workload)
{
    m_workload = workload;
}

const std::vector<TrainingRoundRecord>&
TrainingApplication::GetRecords() const
{
    return m_records;
}

bool
TrainingApplication::IsFinished() const
{
    return m_round >= m_rounds;
}

uint64_t
TrainingApplication::GetDroppedPackets() const
{
    return m_dropped;
}

uint64_t
TrainingApplication::GetDuplicatePackets() const
{
    return m_duplicates;
}

uint32_t
TrainingApplication::GetChunkPayloadBytes() const
{
    return m_chunkPayload != 0 ? m_chunkPayload : DefaultChunkPayload(DEFAULT_MTU, m_islandCount);
}

uint32_t
TrainingApplication::DataHeaderBytes(uint32_t islandCount)
{
    const uint32_t words = std::max<uint32_t>(1, WordsFor(islandCount));
    return GradientHeader::FIXED_SIZE + 2 * sizeof(uint64_t) * words;
}

uint32_t
TrainingApplication::DefaultChunkPayload(uint32_t mtu, uint32_t islandCount)
{
    const uint32_t overhead = IPV4_HEADER_BYTES + UDP_HEADER_BYTES + DataHeaderBytes(islandCount);
    NS_ABORT_MSG_IF(mtu <= overhead + GradientHeader::ELEMENT_SIZE, "MTU " << mtu << " too small");
    const uint32_t room = mtu - overhead;
    return room - room % GradientHeader::ELEMENT_SIZE;
}

// ---------------------------------------------------------------------------------------------
// Life cycle

void
TrainingApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_chunkPayload == 0)
    {
        m_chunkPayload = DefaultChunkPayload(DEFAULT_MTU, m_islandCount);
    }
    NS_ABORT_MSG_IF(m_chunkPayload % GradientHeader::ELEMENT_SIZE != 0,
                    "ChunkPayloadBytes " << m_chunkPayload << " is not a multiple of 4");
    NS_ABORT_MSG_IF(m_configs.empty() && m_rounds > 0, "TrainingApplication: no round configs");
    NS_ABORT_MSG_IF(m_addresses.size() != m_islandCount, "TrainingApplication: no addresses");
    const uint64_t elements =
        (m_modelBytes + GradientHeader::ELEMENT_SIZE - 1) / GradientHeader::ELEMENT_SIZE;
    NS_ABORT_MSG_IF(elements > std::numeric_limits<uint32_t>::max(),
                    "ModelBytes " << m_modelBytes << " too large");
    m_elements = static_cast<uint32_t>(elements);
    if (m_payloadMode == REAL)
    {
        NS_ABORT_MSG_IF(
            !m_workload || !m_workload->IsReal() || m_workload->GetDimension() != m_elements,
            "TrainingApplication: real payloads need a real workload of dimension " << m_elements);
    }

    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_socket->SetAttribute("RcvBufSize", UintegerValue(SOCKET_RCVBUF_BYTES));
    if (m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0)
    {
        NS_FATAL_ERROR("TrainingApplication: cannot bind UDP port " << m_port);
    }
    m_socket->SetRecvCallback(MakeCallback(&TrainingApplication::HandleRead, this));

    m_records.assign(m_rounds, TrainingRoundRecord());
    for (uint32_t r = 0; r < m_rounds; ++r)
    {
        const TrainingRoundConfig& config = m_configs[r % m_configs.size()];
        TrainingRoundRecord& record = m_records[r];
        record.island = m_island;
        record.round = r;
        record.clique = config.clique;
        record.members = config.members;
    }
    m_running = true;
    m_round = 0;
    if (m_rounds > 0)
    {
        StartRound();
    }
}

void
TrainingApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    m_computeEvent.Cancel();
    m_heldSyncEvent.Cancel();
    for (auto& entry : m_states)
    {
        for (auto& stream : entry.second->streams)
        {
            stream.timer.Cancel();
        }
        entry.second->check.Cancel();
    }
    for (auto& entry : m_resends)
    {
        entry.second.timer.Cancel();
    }
    m_resends.clear();
}

TrainingApplication::RoundState*
TrainingApplication::GetState(uint32_t round)
{
    if (m_current != nullptr && m_current->round == round)
    {
        return m_current;
    }
    auto it = m_states.find(round);
    if (it != m_states.end())
    {
        return it->second.get();
    }
    if (round < m_round || round >= m_rounds || m_configs.empty())
    {
        return nullptr; // stale (purged) or beyond the run
    }
    auto state = std::make_unique<RoundState>();
    state->round = round;
    InitState(*state);
    RoundState* raw = state.get();
    m_states.emplace(round, std::move(state));
    return raw;
}

void
TrainingApplication::InitState(RoundState& state)
{
    const TrainingRoundConfig& config = m_configs[state.round % m_configs.size()];
    state.config = &config;
    state.k = static_cast<uint32_t>(config.members.size());
    state.slotOf.assign(m_islandCount, NO_SLOT);
    state.position = NO_SLOT;
    for (uint32_t s = 0; s < state.k; ++s)
    {
        state.slotOf[config.members[s]] = s;
        state.members.Set(config.members[s]);
        if (config.members[s] == m_island)
        {
            state.position = s;
        }
    }
    NS_ABORT_MSG_IF(state.position == NO_SLOT,
                    "island " << m_island << " not in its clique of round " << state.round);
    const uint32_t chunkElements = m_chunkPayload / GradientHeader::ELEMENT_SIZE;
    state.chunks = std::max<uint32_t>(1, (m_elements + chunkElements - 1) / chunkElements);
    const uint32_t k = state.k;
    state.progress.assign(k, 0);
    state.progressAtCheck.assign(k, 0);
    state.retries.assign(k, 0);
    state.nacked.assign(k, false);
    state.answered.assign(k, false);
    state.lost.assign(k, false);
    const bool real = m_payloadMode == REAL;
    if (config.algorithm == SyncAlgorithm::DIRECT || k == 1)
    {
        state.rxBits.assign(k, std::vector<uint64_t>());
        state.rxMissing.assign(k, 0);
        for (uint32_t s = 0; s < k; ++s)
        {
            if (s != state.position)
            {
                state.rxBits[s].assign(WordsFor(state.chunks), 0);
                state.rxMissing[s] = state.chunks;
            }
        }
        state.peersIncomplete = k - 1;
        if (real)
        {
            state.sum.assign(m_elements, 0);
            state.count.assign(state.chunks, 0);
        }
    }
    else
    {
        const uint32_t steps = 2 * (k - 1);
        state.stepBits.resize(steps);
        state.stepChunks.resize(steps);
        state.stepMissing.resize(steps);
        for (uint32_t s = 0; s < steps; ++s)
        {
            uint32_t first = 0;
            const uint32_t length = SegmentElements(state, RingReceiveSegment(state, s), first);
            const uint32_t chunks =
                std::max<uint32_t>(1, (length + chunkElements - 1) / chunkElements);
            state.stepChunks[s] = chunks;
            state.stepMissing[s] = chunks;
            state.stepBits[s].assign(WordsFor(chunks), 0);
        }
        state.ringStepStart.assign(steps, Time::Max());
        state.ringStepRate.assign(steps, 0);
        if (real)
        {
            state.sum.assign(m_elements, 0);
            state.full.assign(m_elements, 0);
        }
    }
}

void
TrainingApplication::StartRound()
{
    NS_LOG_FUNCTION(this << m_round);
    // Forget rounds too old to be asked about again.
    while (!m_states.empty() && m_states.begin()->first + m_retainedRounds < m_round &&
           m_states.begin()->second->finished)
    {
        m_states.erase(m_states.begin());
    }
    m_current = GetState(m_round);
    NS_ASSERT(m_current != nullptr);
    m_records[m_round].computeStart = Simulator::Now();
    m_computing = true;
    m_roundStartedTrace(m_island, m_round);
    m_computeEvent = Simulator::Schedule(m_computeTime * m_computeMultiplier,
                                         &TrainingApplication::FinishCompute,
                                         this);
}

void
TrainingApplication::FinishCompute()
{
    NS_LOG_FUNCTION(this << m_round);
    m_computing = false;
    RoundState& state = *m_current;
    if (m_workload)
    {
        m_workload->LocalUpdate(m_island, m_round);
    }
    if (m_payloadMode == REAL)
    {
        const std::vector<double>& x = m_workload->GetParameters(m_island);
        state.own.resize(m_elements);
        for (uint32_t e = 0; e < m_elements; ++e)
        {
            state.own[e] = static_cast<int32_t>(std::llround(x[e] * m_scale));
        }
    }
    m_computeFinishedTrace(m_island, m_round);
    m_records[m_round].syncStart = Simulator::Now();
    if (m_round < m_syncNotBefore.size() && m_syncNotBefore[m_round] > Simulator::Now())
    {
        // Held: until then the island answers as if still computing (nothing sent yet).
        m_heldSyncEvent = Simulator::Schedule(m_syncNotBefore[m_round] - Simulator::Now(),
                                              &TrainingApplication::StartHeldSync,
                                              this,
                                              m_round);
        return;
    }
    state.syncing = true;
    StartSync(state);
}

void
TrainingApplication::StartHeldSync(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    if (m_running && m_current != nullptr && m_current->round == round)
    {
        m_current->syncing = true;
        StartSync(*m_current);
    }
}

void
TrainingApplication::StartSync(RoundState& state)
{
    if (state.k == 1)
    {
        state.sendDone = true;
        CheckRoundComplete(state);
        return;
    }
    // A peer is not asked before its data could have arrived: RetransmissionTimeout plus the
    // round trip to it (its delay, and time for a "not yet" answer).
    // Behind an FPGA, a peer's data may wait in its slot for the clique's slowest contributor.
    const Time hold = AggregationHold(state, m_island);
    state.waitUntil.assign(state.k, Simulator::Now());
    for (uint32_t slot = 0; slot < state.k; ++slot)
    {
        state.waitUntil[slot] +=
            m_retransmissionTimeout + PeerRtt(state.config->members[slot]) + hold;
    }
    state.check = Simulator::Schedule(m_retransmissionTimeout,
                                      &TrainingApplication::CheckProgress,
                                      this,
                                      state.round);
    if (state.config->algorithm == SyncAlgorithm::DIRECT)
    {
        state.streams.clear();
        for (const TrainingStreamConfig& config : state.config->streams)
        {
            StreamState stream;
            stream.destination = config.destination;
            stream.rateBps = config.rateBps;
            stream.chunkCount = state.chunks;
            stream.start = Simulator::Now();
            state.streams.push_back(stream);
        }
        if (state.streams.empty())
        {
            state.sendDone = true;
        }
        const uint32_t round = state.round;
        for (uint32_t i = 0; i < state.streams.size(); ++i)
        {
            state.streams[i].timer =
                Simulator::ScheduleNow(&TrainingApplication::SendNextChunk, this, round, i);
        }
        CheckRoundComplete(state);
    }
    else
    {
        MaybeAdvanceRing(state);
    }
}

void
TrainingApplication::MaybeAdvanceRing(RoundState& state)
{
    const uint32_t steps = 2 * (state.k - 1);
    if (!state.syncing || state.finished || state.abandoned || state.ringSent >= steps)
    {
        return;
    }
    const uint32_t step = state.ringSent;
    if (!state.streams.empty() && !state.streams.back().done)
    {
        return; // the previous step is still being sent
    }
    if (step > 0 && state.stepMissing[step - 1] > 0)
    {
        return; // its input has not arrived yet
    }
    const uint32_t successor = state.config->members[(state.position + 1) % state.k];
    uint32_t first = 0;
    const uint32_t length = SegmentElements(state, RingSendSegment(state, step), first);
    const uint32_t chunkElements = m_chunkPayload / GradientHeader::ELEMENT_SIZE;
    StreamState stream;
    stream.destination = m_addresses[successor];
    stream.rateBps = RateTo(state, successor, step, true);
    stream.chunkCount = std::max<uint32_t>(1, (length + chunkElements - 1) / chunkElements);
    stream.ringStep = static_cast<uint16_t>(step);
    stream.start = Simulator::Now();
    state.ringStepStart[step] = stream.start;
    state.ringStepRate[step] = stream.rateBps;
    state.streams.clear();
    state.streams.push_back(stream);
    state.streams[0].timer =
        Simulator::ScheduleNow(&TrainingApplication::SendNextChunk, this, state.round, 0);
}

void
TrainingApplication::SendNextChunk(uint32_t round, uint32_t index)
{
    RoundState* state = m_current;
    if (!m_running || state == nullptr || state->round != round || index >= state->streams.size())
    {
        return;
    }
    StreamState& stream = state->streams[index];
    const bool ring = state->config->algorithm == SyncAlgorithm::RING;
    Ptr<Packet> packet = BuildChunk(*state,
                                    ring ? GradientHeader::RING : GradientHeader::DATA,
                                    stream.ringStep,
                                    stream.nextChunk,
                                    stream.chunkCount,
                                    0);
    stream.wireBits += WireBits(packet);
    SendPacket(*state, packet, stream.destination);
    ++stream.nextChunk;
    if (stream.nextChunk < stream.chunkCount)
    {
        stream.timer =
            Simulator::Schedule(PacedDelay(stream.start, stream.wireBits, stream.rateBps),
                                &TrainingApplication::SendNextChunk,
                                this,
                                round,
                                index);
        return;
    }
    stream.done = true;
    if (ring)
    {
        ++state->ringSent;
        MaybeAdvanceRing(*state);
    }
    else
    {
        bool all = true;
        for (const StreamState& s : state->streams)
        {
            all = all && s.done;
        }
        state->sendDone = all;
    }
    CheckRoundComplete(*state);
}

void
TrainingApplication::CheckRoundComplete(RoundState& state)
{
    if (!state.syncing || state.finished)
    {
        return;
    }
    bool complete = false;
    if (state.k == 1)
    {
        complete = true;
    }
    else if (state.config->algorithm == SyncAlgorithm::DIRECT)
    {
        complete = state.peersIncomplete == 0 && state.sendDone;
    }
    else
    {
        const uint32_t steps = 2 * (state.k - 1);
        complete =
            state.abandoned || (state.ringSent == steps && state.stepMissing[steps - 1] == 0);
    }
    if (complete)
    {
        FinishRound(state);
    }
}

void
TrainingApplication::FinishRound(RoundState& state)
{
    NS_LOG_FUNCTION(this << state.round);
    NS_LOG_DEBUG("island " << m_island << " round " << state.round << " finished"
                           << (state.abandoned ? " (abandoned)" : ""));
    state.finished = true;
    state.syncing = false;
    state.check.Cancel();
    TrainingRoundRecord& record = m_records[state.round];
    record.syncEnd = Simulator::Now();
    record.finished = true;

    if (m_payloadMode == REAL && state.k > 1 && !state.abandoned)
    {
        std::vector<double> x = m_workload->GetParameters(m_island);
        const uint32_t chunkElements = m_chunkPayload / GradientHeader::ELEMENT_SIZE;
        if (state.config->algorithm == SyncAlgorithm::DIRECT)
        {
            // Divide each chunk by the members it holds: lost peers are excluded, and a lost
            // peer whose data reached some chunks anyway is counted exactly there.
            for (uint32_t c = 0; c < state.chunks; ++c)
            {
                const double divisor = m_scale * (1.0 + state.count[c]);
                const uint32_t end = std::min(m_elements, (c + 1) * chunkElements);
                for (uint32_t e = c * chunkElements; e < end; ++e)
                {
                    x[e] = WrapAdd(state.own[e], state.sum[e]) / divisor;
                }
            }
        }
        else
        {
            // Own reduced segment: own + reduce-scatter sum; the others came in all-gather.
            uint32_t first = 0;
            const uint32_t mine = (state.position + 1) % state.k;
            const uint32_t length = SegmentElements(state, mine, first);
            for (uint32_t e = first; e < first + length; ++e)
            {
                state.full[e] = WrapAdd(state.own[e], state.sum[e]);
            }
            const double divisor = m_scale * state.k;
            for (uint32_t e = 0; e < m_elements; ++e)
            {
                x[e] = state.full[e] / divisor;
            }
        }
        m_workload->SetParameters(m_island, x);
    }

    m_syncFinishedTrace(m_island, state.round, record.syncEnd - record.syncStart);
    if (state.round != m_round)
    {
        return;
    }
    ++m_round;
    if (m_round < m_rounds && m_running)
    {
        StartRound();
    }
    else
    {
        m_current = nullptr;
    }
}

// ---------------------------------------------------------------------------------------------
// Loss recovery

void
TrainingApplication::CheckProgress(uint32_t round)
{
    RoundState* state = m_current;
    if (!m_running || state == nullptr || state->round != round || state->finished)
    {
        return;
    }
    const bool ring = state->config->algorithm == SyncAlgorithm::RING;
    const uint32_t predecessor = (state->position + state->k - 1) % state->k;
    // Behind an FPGA, a peer's chunks may wait in their slots for slower peers.
    const Time hold = AggregationHold(*state, m_island);
    for (uint32_t s = 0; s < state->k && !state->finished; ++s)
    {
        if (s == state->position || state->lost[s])
        {
            continue;
        }
        if (ring)
        {
            // Steps can complete out of order (a resent chunk of an early step), so look at
            // every step, not only the last.
            bool missing = false;
            for (uint32_t m : state->stepMissing)
            {
                missing = missing || m > 0;
            }
            if (s != predecessor || !missing)
            {
                continue;
            }
        }
        else if (state->rxMissing[s] == 0)
        {
            continue;
        }
        const Time now = Simulator::Now();
        if (state->progress[s] != state->progressAtCheck[s])
        {
            // Data is flowing: the peer is sending; ask only after a silent check interval
            // (and after the FPGA's hold).
            state->progressAtCheck[s] = state->progress[s];
            state->retries[s] = 0;
            state->nacked[s] = false;
            state->answered[s] = false;
            state->waitUntil[s] = now + hold;
            continue;
        }
        if (now < state->waitUntil[s])
        {
            continue; // its data or its answer may still be on the way
        }
        if (state->answered[s])
        {
            // The peer said "not yet": it is alive, only slow.
            state->answered[s] = false;
            state->retries[s] = 0;
        }
        else if (state->nacked[s])
        {
            ++state->retries[s];
            if (state->retries[s] >= m_maxRetries)
            {
                DeclareLost(*state, s);
                continue;
            }
        }
        SendNack(*state, s);
        state->nacked[s] = true;
        state->waitUntil[s] =
            now + m_retransmissionTimeout + PeerRtt(state->config->members[s]) + hold;
    }
    if (!state->finished)
    {
        state->check = Simulator::Schedule(m_retransmissionTimeout,
                                           &TrainingApplication::CheckProgress,
                                           this,
                                           round);
    }
}

void
TrainingApplication::DeclareLost(RoundState& state, uint32_t slot)
{
    const uint32_t peer = state.config->members[slot];
    NS_LOG_INFO("island " << m_island << " round " << state.round << ": peer " << peer << " lost");
    state.lost[slot] = true;
    m_records[state.round].lostPeers.push_back(peer);
    m_peerLostTrace(m_island, state.round, peer, 0);
    if (state.config->algorithm == SyncAlgorithm::DIRECT)
    {
        if (state.rxMissing[slot] > 0)
        {
            --state.peersIncomplete;
        }
    }
    else
    {
        // A ring cannot close without its predecessor: keep the own parameters this round.
        state.abandoned = true;
    }
    CheckRoundComplete(state);
}

void
TrainingApplication::SendNack(RoundState& state, uint32_t slot)
{
    const uint32_t peer = state.config->members[slot];
    NS_LOG_DEBUG("island " << m_island << " round " << state.round << ": NACK to " << peer
                           << " retries " << state.retries[slot]);
    const std::vector<uint64_t>* bits = nullptr;
    uint32_t chunkCount = 0;
    uint16_t step = 0;
    if (state.config->algorithm == SyncAlgorithm::DIRECT)
    {
        bits = &state.rxBits[slot];
        chunkCount = state.chunks;
    }
    else
    {
        const uint32_t steps = 2 * (state.k - 1);
        while (step < steps && state.stepMissing[step] == 0)
        {
            ++step;
        }
        NS_ASSERT(step < steps);
        NS_LOG_DEBUG("  ring step " << step << " missing " << state.stepMissing[step]
                                    << " ringSent " << state.ringSent);
        bits = &state.stepBits[step];
        chunkCount = state.stepChunks[step];
    }

    GradientHeader header;
    header.SetType(GradientHeader::NACK);
    header.SetSender(static_cast<uint16_t>(m_island));
    header.SetJobId(m_jobId);
    header.SetRound(state.round);
    header.SetCliqueId(state.config->clique);
    header.SetChunkCount(chunkCount);
    header.SetRingStep(step);
    header.SetMembers(state.members);
    IslandBitmap asked;
    asked.Set(peer);
    header.SetContributors(asked);

    std::vector<GradientHeader::ChunkRange> ranges;
    uint32_t packets = 0;
    uint32_t c = 0;
    while (c < chunkCount && packets < MAX_NACK_PACKETS)
    {
        // Skip whole words of received chunks quickly.
        if (c % WORD_BITS == 0 && c + WORD_BITS <= chunkCount && (*bits)[c / WORD_BITS] == ~0ULL)
        {
            c += WORD_BITS;
            continue;
        }
        if (TestBit(*bits, c))
        {
            ++c;
            continue;
        }
        uint32_t end = c;
        while (end < chunkCount && !TestBit(*bits, end))
        {
            ++end;
        }
        ranges.push_back({c, end - c});
        c = end;
        if (ranges.size() == GradientHeader::MAX_NACK_RANGES)
        {
            header.SetNackRanges(ranges);
            SendPacket(state, GradientHeader::CreateVirtualPacket(header), m_addresses[peer], true);
            ranges.clear();
            ++packets;
        }
    }
    if (!ranges.empty())
    {
        header.SetNackRanges(ranges);
        SendPacket(state, GradientHeader::CreateVirtualPacket(header), m_addresses[peer], true);
    }
}

void
TrainingApplication::SendNotYet(uint32_t round,
                                uint32_t clique,
                                const IslandBitmap& members,
                                uint32_t peer)
{
    NS_LOG_DEBUG("island " << m_island << " round " << round << ": not yet to " << peer);
    GradientHeader header;
    header.SetType(GradientHeader::ACK);
    header.SetSender(static_cast<uint16_t>(m_island));
    header.SetJobId(m_jobId);
    header.SetRound(round);
    header.SetCliqueId(clique);
    header.SetChunkCount(1);
    header.SetMembers(members);
    // An empty contributor bitmap: "I hold nothing of this round for you yet".
    Ptr<Packet> packet = GradientHeader::CreateVirtualPacket(header);
    CountSent(round, packet, true);
    m_socket->SendTo(packet, 0, InetSocketAddress(m_addresses[peer], m_port));
}

void
TrainingApplication::ReceiveNack(const GradientHeader& header)
{
    const uint32_t round = header.GetRound();
    const uint32_t peer = header.GetSender();
    if (!header.GetContributors().Test(m_island) || peer >= m_islandCount || peer == m_island)
    {
        ++m_dropped;
        return;
    }
    if (round > m_round || (round == m_round && (m_computing || !m_running)))
    {
        SendNotYet(round, header.GetCliqueId(), header.GetMembers(), peer);
        return;
    }
    auto it = m_states.find(round);
    if (it == m_states.end())
    {
        return; // purged: the peer will give up on us
    }
    RoundState& state = *it->second;
    if (state.members != header.GetMembers() || state.slotOf[peer] == NO_SLOT)
    {
        ++m_dropped;
        return;
    }
    const bool ring = state.config->algorithm == SyncAlgorithm::RING;
    const uint16_t step = ring ? header.GetRingStep() : 0;
    uint32_t chunkCount = state.chunks;
    if (ring)
    {
        const uint32_t steps = 2 * (state.k - 1);
        if (step >= steps)
        {
            ++m_dropped;
            return;
        }
        if (state.ringSent <= step)
        {
            NS_LOG_DEBUG("  asked step " << step << " ringSent " << state.ringSent << " missing "
                                         << (step > 0 ? state.stepMissing[step - 1] : 0)
                                         << " syncing " << state.syncing);
            if (!state.finished && !state.abandoned)
            {
                SendNotYet(round, header.GetCliqueId(), header.GetMembers(), peer);
            }
            return;
        }
        uint32_t first = 0;
        const uint32_t length = SegmentElements(state, RingSendSegment(state, step), first);
        const uint32_t chunkElements = m_chunkPayload / GradientHeader::ELEMENT_SIZE;
        chunkCount = std::max<uint32_t>(1, (length + chunkElements - 1) / chunkElements);
    }
    else if (!state.sendDone)
    {
        SendNotYet(round, header.GetCliqueId(), header.GetMembers(), peer);
        return;
    }
    if (header.GetChunkCount() != chunkCount)
    {
        ++m_dropped;
        return;
    }
    std::vector<GradientHeader::ChunkRange> ranges = header.GetNackRanges();
    TrimRecentChunks(state, peer, step, ring, ranges);
    if (ranges.empty())
    {
        // Everything asked for is still legitimately on the way: keep the requester patient.
        SendNotYet(round, header.GetCliqueId(), header.GetMembers(), peer);
        return;
    }
    const auto key = std::make_tuple(round, peer, step);
    auto job = m_resends.find(key);
    if (job != m_resends.end())
    {
        // The newer NACK is the requester's latest view: serve it instead.
        job->second.ranges = ranges;
        job->second.rangeIndex = 0;
        job->second.offset = 0;
        return;
    }
    ResendJob& fresh = m_resends[key];
    fresh.round = round;
    fresh.peer = peer;
    fresh.ringStep = step;
    fresh.ring = ring;
    fresh.ranges = ranges;
    fresh.rateBps = RateTo(state, peer, step, ring);
    fresh.start = Simulator::Now();
    fresh.timer = Simulator::ScheduleNow(&TrainingApplication::SendResend, this, round, peer, step);
}

void
TrainingApplication::TrimRecentChunks(const RoundState& state,
                                      uint32_t peer,
                                      uint16_t step,
                                      bool ring,
                                      std::vector<GradientHeader::ChunkRange>& ranges) const
{
    // First pass of the stream that carried these chunks to the peer: chunk c left at
    // start + c x (full chunk wire bits) / rate (the pacing clock of SendNextChunk).
    Time start = Time::Max();
    double rate = 0;
    if (ring)
    {
        if (step < state.ringStepStart.size())
        {
            start = state.ringStepStart[step];
            rate = state.ringStepRate[step];
        }
    }
    else
    {
        for (uint32_t i = 0; i < state.config->streams.size() && i < state.streams.size(); ++i)
        {
            const std::vector<uint32_t>& receivers = state.config->streams[i].receivers;
            if (std::find(receivers.begin(), receivers.end(), peer) != receivers.end())
            {
                start = state.streams[i].start;
                rate = state.streams[i].rateBps;
                break;
            }
        }
    }
    if (start == Time::Max())
    {
        return; // no first pass known (the caller already answered "not yet" if unsent)
    }
    if (!(rate > 0) || std::isinf(rate))
    {
        rate = FALLBACK_RATE_BPS;
    }
    const Time cutoff =
        Simulator::Now() - PeerRtt(peer) - m_retransmissionTimeout - AggregationHold(state, peer);
    if (cutoff < start)
    {
        ranges.clear();
        return;
    }
    const double chunkBits = (DataHeaderBytes(m_islandCount) + m_chunkPayload + IPV4_HEADER_BYTES +
                              UDP_HEADER_BYTES + PPP_HEADER_BYTES) *
                             BITS_PER_BYTE;
    // Chunks [0, oldEnough) were first sent at or before the cutoff.
    const double sentBefore = std::floor((cutoff - start).GetSeconds() * rate / chunkBits) + 1;
    const uint64_t oldEnough = sentBefore >= std::numeric_limits<uint32_t>::max()
                                   ? std::numeric_limits<uint32_t>::max()
                                   : static_cast<uint64_t>(sentBefore);
    std::vector<GradientHeader::ChunkRange> kept;
    for (const GradientHeader::ChunkRange& range : ranges)
    {
        if (range.first >= oldEnough)
        {
            continue;
        }
        const uint64_t end = std::min<uint64_t>(uint64_t{range.first} + range.count, oldEnough);
        kept.push_back({range.first, static_cast<uint32_t>(end - range.first)});
    }
    ranges.swap(kept);
}

void
TrainingApplication::SendResend(uint32_t round, uint32_t peer, uint16_t step)
{
    const auto key = std::make_tuple(round, peer, step);
    auto it = m_resends.find(key);
    if (it == m_resends.end())
    {
        return;
    }
    ResendJob& job = it->second;
    auto stateIt = m_states.find(round);
    if (!m_running || stateIt == m_states.end() || job.rangeIndex >= job.ranges.size())
    {
        m_resends.erase(it);
        return;
    }
    RoundState& state = *stateIt->second;
    const GradientHeader::ChunkRange& range = job.ranges[job.rangeIndex];
    const uint32_t chunk = range.first + job.offset;
    uint32_t chunkCount = state.chunks;
    if (job.ring)
    {
        uint32_t first = 0;
        const uint32_t length = SegmentElements(state, RingSendSegment(state, step), first);
        const uint32_t chunkElements = m_chunkPayload / GradientHeader::ELEMENT_SIZE;
        chunkCount = std::max<uint32_t>(1, (length + chunkElements - 1) / chunkElements);
    }
    Ptr<Packet> packet = BuildChunk(state,
                                    job.ring ? GradientHeader::RING : GradientHeader::DATA,
                                    step,
                                    chunk,
                                    chunkCount,
                                    GradientHeader::FLAG_RETRANSMISSION);
    job.wireBits += WireBits(packet);
    SendPacket(state, packet, m_addresses[peer]);
    ++m_records[round].retransmissions;
    m_retransmissionTrace(m_island, round, peer, 1);
    if (++job.offset >= range.count)
    {
        job.offset = 0;
        ++job.rangeIndex;
    }
    if (job.rangeIndex >= job.ranges.size())
    {
        m_resends.erase(it);
        return;
    }
    job.timer = Simulator::Schedule(PacedDelay(job.start, job.wireBits, job.rateBps),
                                    &TrainingApplication::SendResend,
                                    this,
                                    round,
                                    peer,
                                    step);
}

// ---------------------------------------------------------------------------------------------
// Receive path

void
TrainingApplication::HandleRead(Ptr<Socket> socket)
{
    Ptr<Packet> packet;
    while ((packet = socket->Recv()))
    {
        Receive(packet);
    }
}

void
TrainingApplication::Receive(Ptr<Packet> packet)
{
    GradientHeader header;
    const bool real = m_payloadMode == REAL;
    if (!GradientHeader::Parse(packet, header, real ? &m_values : nullptr) ||
        header.GetJobId() != m_jobId || header.GetRound() >= m_rounds)
    {
        ++m_dropped;
        return;
    }
    const uint32_t round = header.GetRound();
    TrainingRoundRecord& record = m_records[round];
    const GradientHeader::Type type = header.GetType();
    if (type == GradientHeader::NACK || type == GradientHeader::ACK)
    {
        ++record.controlPacketsReceived;
    }
    else
    {
        record.bytesReceived += packet->GetSize();
        ++record.packetsReceived;
    }
    if (type == GradientHeader::NACK)
    {
        ReceiveNack(header);
        return;
    }
    RoundState* state = GetState(round);
    if (state == nullptr)
    {
        ++m_duplicates; // a round already forgotten
        return;
    }
    if (type == GradientHeader::ACK)
    {
        const uint32_t sender = header.GetSender();
        if (header.GetContributors().IsEmpty() && sender < m_islandCount &&
            state->slotOf[sender] != NO_SLOT)
        {
            state->answered[state->slotOf[sender]] = true;
        }
        return;
    }
    if (state->members != header.GetMembers() || state->config->clique != header.GetCliqueId() ||
        header.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD) != real)
    {
        ++m_dropped;
        return;
    }
    if (type == GradientHeader::RING)
    {
        if (state->config->algorithm != SyncAlgorithm::RING)
        {
            ++m_dropped;
            return;
        }
        ReceiveRing(*state, header, m_values);
    }
    else
    {
        if (state->config->algorithm != SyncAlgorithm::DIRECT)
        {
            ++m_dropped;
            return;
        }
        ReceiveData(*state, header, m_values);
    }
}

void
TrainingApplication::ReceiveData(RoundState& state,
                                 const GradientHeader& header,
                                 const std::vector<int32_t>& values)
{
    const uint32_t chunk = header.GetChunkIndex();
    uint32_t first = 0;
    if (header.GetChunkCount() != state.chunks ||
        header.GetElementCount() != ChunkElements(chunk, first))
    {
        ++m_dropped;
        return;
    }
    if (state.finished)
    {
        ++m_duplicates;
        return;
    }
    // A packet counts only if none of its contributors is already in for this chunk: real
    // sums cannot be split, so an overlapping aggregate is dropped and the gap NACKed.
    const IslandBitmap& contributors = header.GetContributors();
    const uint32_t words = contributors.GetUsedWords();
    const uint64_t mask = uint64_t{1} << (chunk % WORD_BITS);
    const uint32_t word = chunk / WORD_BITS;
    uint32_t fresh = 0;
    for (uint32_t w = 0; w < words; ++w)
    {
        uint64_t bits = contributors.GetWord(w);
        while (bits != 0)
        {
            const uint32_t island = w * WORD_BITS + __builtin_ctzll(bits);
            bits &= bits - 1;
            const uint32_t slot = state.slotOf[island];
            if (island == m_island || slot == NO_SLOT || (state.rxBits[slot][word] & mask) != 0)
            {
                ++m_duplicates;
                return;
            }
            ++fresh;
        }
    }
    for (uint32_t w = 0; w < words; ++w)
    {
        uint64_t bits = contributors.GetWord(w);
        while (bits != 0)
        {
            const uint32_t slot = state.slotOf[w * WORD_BITS + __builtin_ctzll(bits)];
            bits &= bits - 1;
            state.rxBits[slot][word] |= mask;
            ++state.progress[slot];
            if (--state.rxMissing[slot] == 0 && !state.lost[slot])
            {
                --state.peersIncomplete;
            }
        }
    }
    if (m_payloadMode == REAL)
    {
        for (uint32_t e = 0; e < values.size(); ++e)
        {
            state.sum[first + e] = WrapAdd(state.sum[first + e], values[e]);
        }
        state.count[chunk] += fresh;
    }
    CheckRoundComplete(state);
}

void
TrainingApplication::ReceiveRing(RoundState& state,
                                 const GradientHeader& header,
                                 const std::vector<int32_t>& values)
{
    const uint32_t steps = 2 * (state.k - 1);
    const uint32_t step = header.GetRingStep();
    const uint32_t predecessor = state.config->members[(state.position + state.k - 1) % state.k];
    if (step >= steps || header.GetSender() != predecessor ||
        header.GetChunkCount() != state.stepChunks[step])
    {
        ++m_dropped;
        return;
    }
    const uint32_t chunk = header.GetChunkIndex();
    uint32_t segmentFirst = 0;
    const uint32_t length = SegmentElements(state, RingReceiveSegment(state, step), segmentFirst);
    const uint32_t chunkElements = m_chunkPayload / GradientHeader::ELEMENT_SIZE;
    const uint32_t offset = chunk * chunkElements;
    const uint32_t expected = offset < length ? std::min(chunkElements, length - offset) : 0;
    if (header.GetElementCount() != expected)
    {
        ++m_dropped;
        return;
    }
    if (state.finished || TestBit(state.stepBits[step], chunk))
    {
        ++m_duplicates;
        return;
    }
    SetBit(state.stepBits[step], chunk);
    ++state.progress[state.slotOf[predecessor]];
    if (m_payloadMode == REAL)
    {
        const uint32_t first = segmentFirst + offset;
        if (step < state.k - 1)
        {
            for (uint32_t e = 0; e < values.size(); ++e)
            {
                state.sum[first + e] = WrapAdd(state.sum[first + e], values[e]);
            }
        }
        else
        {
            std::copy(values.begin(), values.end(), state.full.begin() + first);
        }
    }
    if (--state.stepMissing[step] == 0)
    {
        MaybeAdvanceRing(state);
    }
    CheckRoundComplete(state);
}

// ---------------------------------------------------------------------------------------------
// Send path

Ptr<Packet>
TrainingApplication::BuildChunk(RoundState& state,
                                GradientHeader::Type type,
                                uint16_t ringStep,
                                uint32_t chunk,
                                uint32_t chunkCount,
                                uint16_t flags)
{
    GradientHeader header;
    header.SetType(type);
    header.SetSender(static_cast<uint16_t>(m_island));
    header.SetJobId(m_jobId);
    header.SetRound(state.round);
    header.SetCliqueId(state.config->clique);
    header.SetChunkIndex(chunk);
    header.SetChunkCount(chunkCount);
    header.SetMembers(state.members);
    IslandBitmap self;
    self.Set(m_island);
    header.SetContributors(self);

    uint32_t first = 0;
    uint32_t count = 0;
    uint32_t segment = 0;
    if (type == GradientHeader::RING)
    {
        flags |= GradientHeader::FLAG_NO_AGGREGATE;
        header.SetRingStep(ringStep);
        segment = RingSendSegment(state, ringStep);
        uint32_t segmentFirst = 0;
        const uint32_t length = SegmentElements(state, segment, segmentFirst);
        const uint32_t chunkElements = m_chunkPayload / GradientHeader::ELEMENT_SIZE;
        const uint32_t offset = chunk * chunkElements;
        first = segmentFirst + offset;
        count = offset < length ? std::min(chunkElements, length - offset) : 0;
    }
    else
    {
        count = ChunkElements(chunk, first);
    }
    header.SetFlags(flags);
    header.SetElementCount(count);
    if (m_payloadMode != REAL)
    {
        return GradientHeader::CreateVirtualPacket(header);
    }
    m_sendValues.resize(count);
    if (type == GradientHeader::DATA)
    {
        std::copy(state.own.begin() + first,
                  state.own.begin() + first + count,
                  m_sendValues.begin());
    }
    else if (ringStep < state.k)
    {
        // Reduce-scatter steps and the first all-gather step carry own + what came in.
        for (uint32_t e = 0; e < count; ++e)
        {
            m_sendValues[e] = WrapAdd(state.own[first + e], state.sum[first + e]);
        }
    }
    else
    {
        std::copy(state.full.begin() + first,
                  state.full.begin() + first + count,
                  m_sendValues.begin());
    }
    return GradientHeader::CreateRealPacket(header, m_sendValues);
}

void
TrainingApplication::SendPacket(RoundState& state, Ptr<Packet> packet, Ipv4Address to, bool control)
{
    CountSent(state.round, packet, control);
    m_socket->SendTo(packet, 0, InetSocketAddress(to, m_port));
}

void
TrainingApplication::CountSent(uint32_t round, Ptr<const Packet> packet, bool control)
{
    if (round >= m_records.size())
    {
        return;
    }
    TrainingRoundRecord& record = m_records[round];
    if (control)
    {
        ++record.controlPacketsSent;
        return;
    }
    record.bytesSent += packet->GetSize();
    ++record.packetsSent;
}

uint32_t
TrainingApplication::ChunkElements(uint32_t chunk, uint32_t& first) const
{
    const uint32_t chunkElements = m_chunkPayload / GradientHeader::ELEMENT_SIZE;
    const uint64_t start = uint64_t{chunk} * chunkElements;
    if (start >= m_elements)
    {
        first = m_elements;
        return 0;
    }
    first = static_cast<uint32_t>(start);
    return std::min<uint32_t>(chunkElements, m_elements - first);
}

uint32_t
TrainingApplication::SegmentElements(const RoundState& state,
                                     uint32_t segment,
                                     uint32_t& first) const
{
    const uint64_t size = (uint64_t{m_elements} + state.k - 1) / state.k;
    const uint64_t start = std::min<uint64_t>(m_elements, size * segment);
    const uint64_t end = std::min<uint64_t>(m_elements, start + size);
    first = static_cast<uint32_t>(start);
    return static_cast<uint32_t>(end - start);
}

uint32_t
TrainingApplication::RingSendSegment(const RoundState& state, uint32_t step) const
{
    const uint32_t k = state.k;
    const uint32_t p = state.position;
    if (step < k - 1)
    {
        return (p + k - step % k) % k; // reduce-scatter: own index minus the step
    }
    const uint32_t t = step - (k - 1);
    return (p + 1 + k - t % k) % k; // all-gather: start from the segment reduced here
}

uint32_t
TrainingApplication::RingReceiveSegment(const RoundState& state, uint32_t step) const
{
    const uint32_t k = state.k;
    const uint32_t p = state.position;
    if (step < k - 1)
    {
        return (p + 2 * k - step - 1) % k;
    }
    const uint32_t t = step - (k - 1);
    return (p + k - t % k) % k;
}

double
TrainingApplication::RateTo(const RoundState& state,
                            uint32_t peer,
                            uint16_t ringStep,
                            bool ring) const
{
    double rate = 0;
    if (ring)
    {
        const auto& rates = state.config->ringRateBps;
        if (ringStep < rates.size())
        {
            rate = rates[ringStep];
        }
        else if (!rates.empty())
        {
            rate = rates.front();
        }
    }
    else
    {
        for (const TrainingStreamConfig& stream : state.config->streams)
        {
            if (std::find(stream.receivers.begin(), stream.receivers.end(), peer) !=
                stream.receivers.end())
            {
                rate = stream.rateBps;
                break;
            }
        }
    }
    if (!(rate > 0) || std::isinf(rate))
    {
        rate = FALLBACK_RATE_BPS;
    }
    return rate;
}

Time
TrainingApplication::PeerRtt(uint32_t peer) const
{
    return peer < m_rtt.size() ? m_rtt[peer] : Time(0);
}

Time
TrainingApplication::AggregationHold(const RoundState& state, uint32_t island) const
{
    if (state.config->algorithm != SyncAlgorithm::DIRECT || island >= m_hold.size())
    {
        return Time(0);
    }
    return m_hold[island];
}

Time
TrainingApplication::PacedDelay(Time start, double wireBits, double rateBps)
{
    if (!(rateBps > 0) || std::isinf(rateBps))
    {
        rateBps = FALLBACK_RATE_BPS;
    }
    const Time next = start + Seconds(wireBits / rateBps);
    const Time now = Simulator::Now();
    return next > now ? next - now : Time(0);
}

double
TrainingApplication::WireBits(Ptr<const Packet> packet)
{
    return (packet->GetSize() + IPV4_HEADER_BYTES + UDP_HEADER_BYTES + PPP_HEADER_BYTES) *
           BITS_PER_BYTE;
}

} // namespace ns3
