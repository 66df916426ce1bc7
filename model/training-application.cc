/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-application.h"

#include "exchange-factory.h"
#include "exchange-sum.h"
#include "gradient-payload.h"
#include "island-udp-port.h"
#include "link-port.h"
#include "tcp-transport.h"
#include "wan-training-compat.h"
#include "wan-units.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingApplication");

NS_OBJECT_ENSURE_REGISTERED(TrainingApplication);

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
                          "Compute time of one inner step (before ComputeMultiplier).",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&TrainingApplication::m_computeTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("InnerSteps",
                          "Inner steps of local compute in a round, before its synchronisation "
                          "(DiLoCo's H; 1: every step's update is averaged).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TrainingApplication::m_innerSteps),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Fragments",
                          "Fragments the update is synchronised in, each sent after its share "
                          "of the inner steps while later ones compute (Streaming DiLoCo; "
                          "FragmentPlan); 1: the whole update after the compute phase.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TrainingApplication::m_fragments),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ComputeMultiplier",
                          "Straggler factor of this island: compute takes "
                          "InnerSteps x ComputeTime x this.",
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
            .AddAttribute("RetransmissionTimeout",
                          "Silence check interval: a peer whose update is incomplete and that "
                          "sent nothing for a whole interval is asked for everything missing, "
                          "at the earliest this long plus the round trip to it after the "
                          "exchange started or after its last such NACK (gaps are NACKed at "
                          "once, see NackDelay).",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&TrainingApplication::m_retransmissionTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MaxRetries",
                          "Consecutive unanswered silence NACKs after which a peer is lost.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&TrainingApplication::m_maxRetries),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("NackDelay",
                          "From a gap becoming visible (a later chunk, the sender's END, or a "
                          "partial aggregate lacking the sender) to its NACK; gaps seen in the "
                          "meantime share the NACK.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&TrainingApplication::m_nackDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RepairTimeout",
                          "A chunk asked for and still missing is asked again after this "
                          "long. 0: RepairRoundTrips round trips to the sender, at least 1 ms.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&TrainingApplication::m_repairTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RepairRoundTrips",
                          "With RepairTimeout 0, a chunk asked for and still missing is asked "
                          "again after this many round trips to its sender: one for the resend "
                          "to come back, the rest for queueing on the way (a resend asked for "
                          "again before its answer could arrive is not sent twice).",
                          DoubleValue(1.15),
                          MakeDoubleAccessor(&TrainingApplication::m_repairRoundTrips),
                          MakeDoubleChecker<double>(1.0, 16.0))
            .AddAttribute("NackCopies",
                          "Copies sent of each NACK packet asking for gaps (a lost NACK costs "
                          "a whole RepairTimeout).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&TrainingApplication::m_nackCopies),
                          MakeUintegerChecker<uint32_t>(1, 16))
            .AddAttribute("NoticeCopies",
                          "Copies sent of each LATE and START notice to each member. A member "
                          "of a TREE round hears no other member's data before it starts, so "
                          "only a copy of the START frees it from its hold (else AlignmentLimit "
                          "does): with 2 copies, 1% loss and nine members, one round in ten "
                          "lost every copy of some START (with 3, about one in 200).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&TrainingApplication::m_noticeCopies),
                          MakeUintegerChecker<uint32_t>(1, 16))
            .AddAttribute("ReaskCopies",
                          "Copies sent of each NACK packet asking again for chunks still "
                          "missing a RepairTimeout after they were asked for.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&TrainingApplication::m_reaskCopies),
                          MakeUintegerChecker<uint32_t>(1, 16))
            .AddAttribute("RepeatResendCopies",
                          "Copies resent of a chunk asked for again after it was resent (that "
                          "resend was lost); a first resend is one copy.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&TrainingApplication::m_repeatResendCopies),
                          MakeUintegerChecker<uint32_t>(1, 16))
            .AddAttribute("PeerPatience",
                          "A peer that keeps answering \"not yet\" (tcp: sending heartbeats) "
                          "without sending data for longer than this is declared lost.",
                          TimeValue(Seconds(600)),
                          MakeTimeAccessor(&TrainingApplication::m_peerPatience),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Transport",
                          "How exchanges reach the wire: planned (paced at the plan's rates "
                          "over UDP, multicast and FPGAs where the plan uses them), tcp "
                          "(ns-3 TCP connections, unicast only; see TcpTransport) or adaptive "
                          "(as planned, rates from ECN and loss; see AdaptiveTransport).",
                          EnumValue(PLANNED),
                          MakeWanEnumAccessor<Transport>(&TrainingApplication::m_transport),
                          MakeEnumChecker(PLANNED, "planned", TCP, "tcp", ADAPTIVE, "adaptive"))
            .AddAttribute(
                "UdpPath",
                "How the planned and adaptive transports' datagrams reach the wire "
                "(IslandUdpPort): direct (headers written by the port, frames handed "
                "to and taken from the access device) or sockets (an ns-3 UdpSocket "
                "and the node's IPv4 stack). Same bytes, same times.",
                EnumValue(IslandUdpPort::DIRECT),
                MakeWanEnumAccessor<IslandUdpPort::Path>(&TrainingApplication::m_udpPath),
                MakeEnumChecker(IslandUdpPort::DIRECT, "direct", IslandUdpPort::SOCKETS, "sockets"))
            .AddAttribute("PayloadMode",
                          "Virtual (sizes only) or real (int32 fixed-point parameters).",
                          EnumValue(VIRTUAL),
                          MakeWanEnumAccessor<PayloadMode>(&TrainingApplication::m_payloadMode),
                          MakeEnumChecker(VIRTUAL, "virtual", REAL, "real"))
            .AddAttribute("UpdateFormat",
                          "How the update travels: int32, bf16, int8, int4 or topk:FRACTION "
                          "(UpdateFormat: bytes per element, what an FPGA sums). Real payloads "
                          "are int32, int8 or int4 fixed point (Scale), bf16, or top-k changes "
                          "(SparseChange).",
                          UpdateFormatValue(UpdateFormat()),
                          MakeUpdateFormatAccessor(&TrainingApplication::m_updateFormat),
                          MakeUpdateFormatChecker())
            .AddAttribute("Scale",
                          "Fixed-point scale of real payloads: a parameter x travels as "
                          "round(x * Scale) in an int32.",
                          DoubleValue(1 << 16),
                          MakeDoubleAccessor(&TrainingApplication::m_scale),
                          MakeDoubleChecker<double>(1))
            .AddAttribute("ResidualDecay",
                          "Real top-k payloads: what of the part of earlier changes not yet sent "
                          "the next change carries (SparseChange; 1: error feedback, 0: none).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&TrainingApplication::m_residualDecay),
                          MakeDoubleChecker<double>(0, 1))
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
            .AddAttribute("AlignStarts",
                          "Where in-line FPGAs fold a DIRECT or TREE clique's first passes, "
                          "a member that asks for a resend sends LATE for its next round, "
                          "and START once that round's exchange can start; the members hold "
                          "their first pass of it until then, so that the FPGAs' slots meet "
                          "every contribution (RoundAlignment). Lossless runs send neither. "
                          "Off, a member late from its repair finds every slot of its round "
                          "flushed without it (doc/training.rst).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TrainingApplication::m_alignStarts),
                          MakeBooleanChecker())
            .AddAttribute("AlignmentLimit",
                          "Longest hold for the START of a member that sent LATE (it may have "
                          "stopped, or its START may be lost): then the round starts without.",
                          TimeValue(Seconds(2)),
                          MakeTimeAccessor(&TrainingApplication::m_alignmentLimit),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("AlignmentMargin",
                          "A late member's first pass starts at least its farthest member's "
                          "one-way delay plus this after its START leaves (room for queues).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&TrainingApplication::m_alignmentMargin),
                          MakeTimeChecker(Time(0)))
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
                            "One chunk resent after a NACK of the peer (chunks is 1).",
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
      m_innerSteps(1),
      m_fragments(1),
      m_computeMultiplier(1),
      m_chunkPayload(0),
      m_port(WanWire::GetGradientPort()),
      m_retransmissionTimeout(MilliSeconds(100)),
      m_maxRetries(5),
      m_transport(PLANNED),
      m_udpPath(IslandUdpPort::DIRECT),
      m_payloadMode(VIRTUAL),
      m_scale(1 << 16),
      m_residualDecay(1.0),
      m_jobId(0),
      m_retainedRounds(8),
      m_alignStarts(true),
      m_alignmentLimit(Seconds(2)),
      m_alignmentMargin(MilliSeconds(1)),
      m_round(0),
      m_running(false),
      m_fragmentPlan(0, 1, 1, Time(0)),
      m_planGiven(false)
{
    NS_LOG_FUNCTION(this);
}

TrainingApplication::~TrainingApplication() = default;

void
TrainingApplication::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& entry : m_exchanges)
    {
        entry.second->Shutdown();
    }
    m_exchanges.clear();
    m_computeEvent.Cancel();
    m_startGate.Cancel();
    if (m_udp)
    {
        m_udp->Dispose();
        m_udp = nullptr;
    }
    if (m_tcp)
    {
        m_tcp->Dispose();
        m_tcp = nullptr;
    }
    m_context.tcp = nullptr;
    m_context.adaptive = nullptr;
    m_adaptive = nullptr;
    m_workload = nullptr;
    m_numerics.Dispose();
    m_context.on.written = nullptr;
    m_context.on.send = nullptr;
    m_context.on.resent = nullptr;
    m_context.on.peerLost = nullptr;
    m_context.on.complete = nullptr;
    Application::DoDispose();
}

// ---------------------------------------------------------------------------------------------
// Configuration

void
TrainingApplication::SetIsland(uint32_t island, uint32_t islandCount)
{
    NS_LOG_FUNCTION(this << island << islandCount);
    NS_ABORT_MSG_IF(island >= islandCount || islandCount > IslandBitmap::MAX_ISLANDS,
                    "SetIsland: island " << island << " of " << islandCount);
    m_context.settings.island = island;
    m_context.settings.islandCount = islandCount;
}

uint32_t
TrainingApplication::GetIsland() const
{
    NS_LOG_FUNCTION(this);
    return m_context.settings.island;
}

void
TrainingApplication::SetIslandAddresses(const std::vector<Ipv4Address>& addresses)
{
    NS_LOG_FUNCTION(this);
    m_context.settings.addresses = addresses;
}

void
TrainingApplication::SetPeerRtt(const std::vector<Time>& rtt)
{
    NS_LOG_FUNCTION(this);
    m_context.settings.rtt = rtt;
}

void
TrainingApplication::SetAggregationHold(const std::vector<Time>& hold)
{
    NS_LOG_FUNCTION(this);
    m_context.settings.hold = hold;
}

void
TrainingApplication::SetSyncNotBefore(const std::vector<Time>& notBefore)
{
    NS_LOG_FUNCTION(this);
    m_startGate.SetNotBefore(notBefore);
}

void
TrainingApplication::SetRoundConfigs(const std::vector<TrainingRoundConfig>& configs)
{
    NS_LOG_FUNCTION(this);
    m_configs = configs;
}

void
TrainingApplication::SetTcpTransport(Ptr<TcpTransport> transport)
{
    NS_LOG_FUNCTION(this << transport);
    m_tcp = transport;
}

Ptr<TcpTransport>
TrainingApplication::GetTcpTransport() const
{
    NS_LOG_FUNCTION(this);
    return m_tcp;
}

void
TrainingApplication::SetFragmentPlan(const FragmentPlan& plan)
{
    NS_LOG_FUNCTION(this << plan.GetFragments());
    m_fragmentPlan = plan;
    m_fragments = plan.GetFragments();
    m_planGiven = true;
}

void
TrainingApplication::SetWorkload(Ptr<TrainingWorkload> workload)
{
    NS_LOG_FUNCTION(this << workload);
    m_workload = workload;
}

const std::vector<TrainingRoundRecord>&
TrainingApplication::GetRecords() const
{
    NS_LOG_FUNCTION(this);
    return m_records;
}

bool
TrainingApplication::IsFinished() const
{
    NS_LOG_FUNCTION(this);
    return m_round >= m_rounds;
}

uint32_t
TrainingApplication::GetChunkPayloadBytes() const
{
    NS_LOG_FUNCTION(this);
    return m_chunkPayload != 0 ? m_chunkPayload
                               : ChunkLayout::DefaultChunkPayload(WanWire::DEFAULT_MTU,
                                                                  m_context.settings.islandCount);
}

uint32_t
TrainingApplication::GetAccessFramingBytes() const
{
    NS_LOG_FUNCTION(this);
    // The island's node has one link device, its access port; other devices (loopback)
    // report no framing.
    uint32_t framing = 0;
    for (uint32_t i = 0; i < GetNode()->GetNDevices(); ++i)
    {
        framing = std::max(framing, LinkPort::GetFramingBytes(GetNode()->GetDevice(i)));
    }
    return framing;
}

// ---------------------------------------------------------------------------------------------
// Life cycle

void
TrainingApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_chunkPayload = GetChunkPayloadBytes();
    NS_ABORT_MSG_IF(m_chunkPayload == 0 || m_chunkPayload % GradientHeader::ELEMENT_SIZE != 0,
                    "ChunkPayloadBytes " << m_chunkPayload << " is not a positive multiple of 4");
    NS_ABORT_MSG_IF(m_configs.empty() && m_rounds > 0, "TrainingApplication: no round configs");
    NS_ABORT_MSG_IF(m_context.settings.addresses.size() != m_context.settings.islandCount,
                    "TrainingApplication: no addresses");
    NS_ABORT_MSG_IF(m_modelBytes > ChunkLayout::MAX_MODEL_BYTES,
                    "ModelBytes " << m_modelBytes << " beyond "
                                  << ChunkLayout::MAX_MODEL_BYTES_REASON);
    LayOutFragments();
    m_context.settings.framingBytes = GetAccessFramingBytes();
    m_context.settings.jobId = m_jobId;
    m_context.settings.real = m_payloadMode == REAL;
    m_context.settings.checkInterval = m_retransmissionTimeout;
    m_context.settings.maxRetries = m_maxRetries;
    m_context.settings.nackDelay = m_nackDelay;
    m_context.settings.repairTimeout = m_repairTimeout;
    m_context.settings.repairRoundTrips = m_repairRoundTrips;
    m_context.settings.nackCopies = m_nackCopies;
    m_context.settings.reaskCopies = m_reaskCopies;
    m_context.settings.repeatResendCopies = m_repeatResendCopies;
    m_context.settings.peerPatience = m_peerPatience;
    m_context.on.send = [this](uint32_t round, Ptr<Packet> packet, Ipv4Address to, bool control) {
        Send(round, packet, to, control);
    };
    m_context.on.resent = [this](uint32_t sync, uint32_t peer) {
        ++RecordOf(sync).retransmissions;
        m_retransmissionTrace(m_context.settings.island, RoundOf(sync), peer, 1);
    };
    m_context.on.peerLost = [this](uint32_t sync, uint32_t peer) {
        // Each fragment's exchange declares a dead peer lost: the round records it once.
        std::vector<uint32_t>& lost = RecordOf(sync).lostPeers;
        if (std::find(lost.begin(), lost.end(), peer) == lost.end())
        {
            lost.push_back(peer);
        }
        m_peerLostTrace(m_context.settings.island, RoundOf(sync), peer, 0);
    };
    m_context.on.complete = [this](uint32_t sync) { FinishSync(sync); };
    m_context.on.repairing = [this](uint32_t round) { AnnounceLate(round); };
    m_startGate.Setup(
        m_context.settings,
        m_alignmentLimit,
        m_alignmentMargin,
        m_noticeCopies,
        [this](uint32_t round) { return IsAwaitingStart(round); },
        [this](uint32_t round) { StartExchange(round); });
    m_numerics.Configure(m_workload,
                         m_context.settings.island,
                         m_context.settings.islandCount,
                         m_context.settings.real,
                         m_context.settings.layout.GetElements(),
                         m_scale,
                         m_residualDecay);

    if (m_transport == TCP)
    {
        StartTcp();
    }
    else
    {
        m_udp = CreateObject<IslandUdpPort>();
        m_udp->Open(GetNode(),
                    m_port,
                    m_udpPath,
                    MakeCallback(&TrainingApplication::Receive, this));
    }
    if (m_transport == ADAPTIVE)
    {
        m_adaptive = m_adaptive ? m_adaptive : CreateObject<AdaptiveTransport>();
        m_adaptive->Start(GetNode(), m_context.settings.island, m_context.settings.islandCount);
        m_context.adaptive = PeekPointer(m_adaptive);
    }

    m_records.assign(m_rounds, TrainingRoundRecord());
    for (uint32_t r = 0; r < m_rounds; ++r)
    {
        const TrainingRoundConfig& config = m_configs[r % m_configs.size()];
        TrainingRoundRecord& record = m_records[r];
        record.island = m_context.settings.island;
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
    m_startGate.Cancel();
    for (auto& entry : m_exchanges)
    {
        entry.second->Shutdown();
    }
    if (m_udp)
    {
        m_udp->Close(); // a stopped island answers nothing: its peers declare it lost
    }
    if (m_tcp)
    {
        m_tcp->Stop(); // its peers see the connections close
    }
}

void
TrainingApplication::LayOutFragments()
{
    NS_LOG_FUNCTION(this);
    const std::string problem = FragmentPlan::Problem(m_fragments, m_innerSteps, m_modelBytes);
    NS_ABORT_MSG_IF(!m_planGiven && !problem.empty(),
                    "TrainingApplication: Fragments: " << problem);
    NS_ABORT_MSG_IF(m_planGiven && (m_fragmentPlan.GetModelBytes() != m_modelBytes ||
                                    m_payloadMode == REAL || m_transport == TCP),
                    "TrainingApplication: a fragment plan of "
                        << m_fragmentPlan.GetModelBytes() << " bytes with ModelBytes "
                        << m_modelBytes << ": virtual payloads, planned or adaptive transport");
    NS_ABORT_MSG_IF(uint64_t(m_rounds) * m_fragments > UINT32_MAX,
                    "TrainingApplication: " << m_rounds << " rounds of " << m_fragments
                                            << " fragments: more exchanges than headers number");
    NS_ABORT_MSG_IF(m_fragments > 1 && (m_payloadMode == REAL || m_transport == TCP),
                    "TrainingApplication: Fragments " << m_fragments
                                                      << " with real payloads or transport tcp");
    if (!m_planGiven)
    {
        m_fragmentPlan = FragmentPlan(m_modelBytes, m_fragments, m_innerSteps, m_computeTime);
    }
    const uint32_t n = m_context.settings.islandCount;
    m_context.settings.layout = ChunkLayout(m_modelBytes, m_chunkPayload, m_updateFormat, n);
    m_context.settings.layouts.clear();
    m_context.settings.fragments = m_fragments;
    const bool ownFormats =
        std::any_of(m_configs.begin(), m_configs.end(), [this](const TrainingRoundConfig& c) {
            return c.format && *c.format != m_updateFormat;
        });
    if (m_fragments == 1 && !ownFormats)
    {
        return; // every exchange is the whole update in the run's format
    }
    // Per round of the period (its format) and fragment (its bytes).
    for (const TrainingRoundConfig& config : m_configs)
    {
        for (uint32_t f = 0; f < m_fragments; ++f)
        {
            m_context.settings.layouts.emplace_back(m_fragmentPlan.GetBytes(f),
                                                    m_chunkPayload,
                                                    config.format.value_or(m_updateFormat),
                                                    n);
        }
    }
}

void
TrainingApplication::StartTcp()
{
    NS_LOG_FUNCTION(this);
    if (!m_tcp)
    {
        m_tcp = CreateObject<TcpTransport>();
    }
    m_context.tcp = PeekPointer(m_tcp);
    m_context.on.written = [this](uint32_t round, uint32_t bytes) {
        RecordOf(round).CountSent(bytes, false);
    };
    m_tcp->Start(GetNode(),
                 m_context,
                 m_port,
                 TcpTransport::Partners(m_context.settings.island, m_configs, m_rounds),
                 MakeCallback(&TrainingApplication::ReceiveMessage, this));
}

RoundExchange*
TrainingApplication::GetExchange(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    auto it = m_exchanges.find(round);
    if (it != m_exchanges.end())
    {
        return it->second.get();
    }
    if (RoundOf(round) < m_round || round >= GetSyncCount() || m_configs.empty())
    {
        return nullptr; // stale (purged) or beyond the run
    }
    const TrainingRoundConfig& config = ConfigOf(round);
    std::unique_ptr<RoundExchange> exchange =
        CreateRoundExchange(m_context, round, config, m_transport == TCP);
    RoundExchange* raw = exchange.get();
    m_exchanges.emplace(round, std::move(exchange));
    return raw;
}

Time
TrainingApplication::ComputePhase(Time stepTime, uint32_t innerSteps)
{
    NS_LOG_FUNCTION(stepTime << innerSteps);
    return FragmentPlan::StepsTime(stepTime, innerSteps);
}

std::string
TrainingApplication::ComputePhaseProblem(double stepSeconds, uint32_t innerSteps)
{
    NS_LOG_FUNCTION(stepSeconds << innerSteps);
    if (stepSeconds * innerSteps <= WanUnits::MAX_TIME_SECONDS)
    {
        return "";
    }
    return std::to_string(innerSteps) + " inner steps of " + WanUnits::FormatNumber(stepSeconds) +
           " s make a compute phase " + WanUnits::TOO_LARGE_FOR_TIME;
}

Time
TrainingApplication::GetComputePhase() const
{
    NS_LOG_FUNCTION(this);
    return (m_planGiven ? m_fragmentPlan.GetComputePhase()
                        : ComputePhase(m_computeTime, m_innerSteps)) *
           m_computeMultiplier;
}

void
TrainingApplication::StartRound()
{
    NS_LOG_FUNCTION(this << m_round);
    // Forget rounds too old to be asked about again.
    while (!m_exchanges.empty() &&
           RoundOf(m_exchanges.begin()->first) + m_retainedRounds < m_round &&
           m_exchanges.begin()->second->IsFinished())
    {
        m_exchanges.erase(m_exchanges.begin());
    }
    m_progress.Reset(m_fragments);
    GetExchange(CurrentSync());
    m_records[m_round].computeStart = Simulator::Now();
    m_roundStartedTrace(m_context.settings.island, m_round);
    m_computeEvent =
        Simulator::Schedule(GetLaunchOffset(0), &TrainingApplication::LaunchFragment, this);
}

uint32_t
TrainingApplication::GetSyncCount() const
{
    // Per packet (Dispatch, Send): no logging.
    return m_rounds * m_fragments;
}

uint32_t
TrainingApplication::RoundOf(uint32_t sync) const
{
    // Per packet (Dispatch, Send): no logging.
    return sync / m_fragments;
}

uint32_t
TrainingApplication::CurrentSync() const
{
    NS_LOG_FUNCTION(this);
    return m_round * m_fragments + m_progress.GetCurrent();
}

const TrainingRoundConfig&
TrainingApplication::ConfigOf(uint32_t sync) const
{
    NS_LOG_FUNCTION(this << sync);
    return m_configs[RoundOf(sync) % m_configs.size()];
}

TrainingRoundRecord&
TrainingApplication::RecordOf(uint32_t sync)
{
    // Per packet (Dispatch, Send): no logging.
    return m_records[RoundOf(sync)];
}

Time
TrainingApplication::GetLaunchDelay(uint32_t sync) const
{
    NS_LOG_FUNCTION(this << sync);
    const uint32_t fragment = sync % m_fragments;
    if (fragment == 0)
    {
        return GetLaunchOffset(0); // a new round's first fragment
    }
    const Time at = m_records[RoundOf(sync)].computeStart + GetLaunchOffset(fragment);
    return std::max(Time(0), at - Simulator::Now());
}

Time
TrainingApplication::GetLaunchOffset(uint32_t fragment) const
{
    NS_LOG_FUNCTION(this << fragment);
    return m_fragmentPlan.GetLaunch(fragment) * m_computeMultiplier;
}

void
TrainingApplication::LaunchFragment()
{
    NS_LOG_FUNCTION(this << m_round << m_progress.GetLaunched());
    if (m_progress.Launch())
    {
        // The compute phase is over.
        m_numerics.TakeInnerSteps(m_round,
                                  m_innerSteps,
                                  m_context.settings.LayoutOf(CurrentSync()).GetFormat());
        m_computeFinishedTrace(m_context.settings.island, m_round);
        m_records[m_round].syncStart = Simulator::Now();
    }
    else
    {
        const Time at = m_records[m_round].computeStart + GetLaunchOffset(m_progress.GetLaunched());
        m_computeEvent =
            Simulator::Schedule(at - Simulator::Now(), &TrainingApplication::LaunchFragment, this);
    }
    StartFragmentIfReady();
}

void
TrainingApplication::StartFragmentIfReady()
{
    NS_LOG_FUNCTION(this);
    if (m_progress.CanStart())
    {
        m_progress.Start(Simulator::Now());
        m_startGate.Request(CurrentSync());
    }
}

bool
TrainingApplication::IsAwaitingStart(uint32_t round) const
{
    NS_LOG_FUNCTION(this << round);
    return m_running && round == CurrentSync();
}

bool
TrainingApplication::NeedsAlignment(uint32_t round) const
{
    NS_LOG_FUNCTION(this << round);
    return NeedsAlignment(ConfigOf(round));
}

bool
TrainingApplication::NeedsAlignment(const TrainingRoundConfig& config) const
{
    NS_LOG_FUNCTION(this);
    if (!m_alignStarts || m_transport == TCP || config.algorithm == SyncAlgorithm::RING)
    {
        return false;
    }
    return std::any_of(config.members.begin(), config.members.end(), [this](uint32_t member) {
        return member < m_context.settings.hold.size() &&
               m_context.settings.hold[member].IsStrictlyPositive();
    });
}

void
TrainingApplication::AnnounceLate(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    const uint32_t next = round + 1;
    if (round != CurrentSync() || next >= GetSyncCount() || !NeedsAlignment(next))
    {
        return;
    }
    if (RoundExchange* exchange = GetExchange(next))
    {
        m_startGate.AnnounceLate(next, *exchange);
    }
}

void
TrainingApplication::AnnounceStart(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    const uint32_t next = round + 1;
    if (RoundExchange* exchange = next < GetSyncCount() ? GetExchange(next) : nullptr)
    {
        m_startGate.AnnounceStart(next, *exchange, ConfigOf(next).members, GetLaunchDelay(next));
    }
}

void
TrainingApplication::ResumeIfHeld(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    RoundExchange* exchange = GetExchange(round);
    const bool held = m_running && round == CurrentSync() && m_progress.IsRunning() &&
                      exchange != nullptr && !exchange->IsStarted() && !exchange->IsFinished();
    if (held)
    {
        m_startGate.Resume(round);
    }
}

const std::string&
TrainingApplication::GetError() const
{
    NS_LOG_FUNCTION(this);
    return m_error;
}

void
TrainingApplication::StartExchange(uint32_t round)
{
    NS_LOG_FUNCTION(this << round);
    m_startGate.Cancel();
    std::vector<int32_t> own;
    if (m_context.settings.real)
    {
        m_error = m_numerics.Encode(RoundOf(round),
                                    m_context.settings.LayoutOf(round).GetFormat(),
                                    static_cast<uint32_t>(ConfigOf(round).members.size()),
                                    m_context.settings.LayoutOf(round),
                                    own);
        if (!m_error.empty())
        {
            // Not thrown from inside an event (the simulator would leak it): the run stops
            // here, and TrainingExperiment::Run reports the error.
            NS_LOG_ERROR(m_error);
            Simulator::Stop();
            return;
        }
    }
    GetExchange(round)->Start(std::move(own));
}

void
TrainingApplication::FinishSync(uint32_t sync)
{
    NS_LOG_FUNCTION(this << sync);
    RoundExchange& exchange = *m_exchanges.at(sync);
    const uint32_t round = RoundOf(sync);
    const bool last = sync % m_fragments == m_fragments - 1;
    NS_LOG_DEBUG("island " << m_context.settings.island << " round " << round << " exchange "
                           << sync << " finished"
                           << (exchange.IsAbandoned() ? " (abandoned)" : ""));
    TrainingRoundRecord& record = m_records[round];
    if (last)
    {
        record.syncEnd = Simulator::Now();
        record.finished = true;
    }
    if (m_context.settings.real && record.members.size() > 1 && !exchange.IsAbandoned())
    {
        m_numerics.Average(exchange, m_context.settings.LayoutOf(sync).GetFormat());
    }
    if (last)
    {
        m_syncFinishedTrace(m_context.settings.island, round, record.syncEnd - record.syncStart);
    }
    if (sync != CurrentSync())
    {
        return;
    }
    AnnounceStart(sync);
    m_startGate.ForgetBefore(sync);
    if (!m_progress.Finish(Simulator::Now()))
    {
        StartFragmentIfReady(); // the next fragment, if its inner steps are computed
        return;
    }
    // Every fragment's exchange that did not run after the compute phase ran during it.
    record.hiddenSync = m_progress.GetBusy() - (record.syncEnd - record.syncStart);
    ++m_round;
    if (m_tcp)
    {
        m_tcp->EndRound(m_round,
                        record.members,
                        m_round == m_rounds,
                        exchange.IsAbandoned() || !record.lostPeers.empty());
    }
    if (m_round < m_rounds && m_running)
    {
        StartRound();
    }
}

// ---------------------------------------------------------------------------------------------
// Packets

void
TrainingApplication::Receive(Ptr<Packet> packet, uint8_t tos)
{
    NS_LOG_FUNCTION(this << packet << static_cast<uint32_t>(tos));
    GradientHeader header;
    const bool congested = m_adaptive && AdaptiveTransport::IsMarked(tos);
    if (!GradientPayload::Parse(packet, header, m_context.settings.real ? &m_values : nullptr))
    {
        ++m_context.counters.dropped;
        return;
    }
    if (header.GetType() == GradientHeader::LATE || header.GetType() == GradientHeader::START)
    {
        if (!IsThisJob(header) || !IsFromMember(header))
        {
            ++m_context.counters.dropped;
            return;
        }
        RecordOf(header.GetRound()).CountReceived(packet->GetSize(), true);
        m_startGate.NoteNotice(header, packet);
        ResumeIfHeld(header.GetRound());
        return;
    }
    Dispatch(header, m_values, packet->GetSize(), congested);
}

bool
TrainingApplication::IsThisJob(const GradientHeader& header) const
{
    NS_LOG_FUNCTION(this);
    return header.GetJobId() == m_jobId && header.GetRound() < GetSyncCount();
}

void
TrainingApplication::ReceiveMessage(const GradientHeader& header,
                                    const std::vector<int32_t>& values,
                                    uint32_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    Dispatch(header, values, bytes, false);
}

void
TrainingApplication::Dispatch(const GradientHeader& header,
                              const std::vector<int32_t>& values,
                              uint32_t bytes,
                              bool congested)
{
    NS_LOG_FUNCTION(this << bytes << congested);
    if (!IsThisJob(header))
    {
        ++m_context.counters.dropped;
        return;
    }
    const uint32_t round = header.GetRound();
    const GradientHeader::Type type = header.GetType();
    const bool control =
        type == GradientHeader::NACK || type == GradientHeader::ACK || type == GradientHeader::END;
    RecordOf(round).CountReceived(bytes, control);
    if (type == GradientHeader::NACK && !header.GetContributors().Test(m_context.settings.island))
    {
        ++m_context.counters.dropped;
        return;
    }
    RoundExchange* exchange = GetExchange(round);
    if (exchange == nullptr)
    {
        m_context.counters.duplicates += control ? 0 : 1; // a round already forgotten
        return;
    }
    if (!IsFromMember(header))
    {
        ++m_context.counters.dropped;
        return;
    }
    if (control)
    {
        exchange->ReceiveControl(header);
        return;
    }
    if (header.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD) != m_context.settings.real)
    {
        ++m_context.counters.dropped;
        return;
    }
    exchange->ReceiveChunk(header, values, congested);
    if (!exchange->IsStarted() && m_startGate.NoteContributors(header))
    {
        ResumeIfHeld(round); // held, perhaps for a START that was lost
    }
}

uint32_t
TrainingApplication::GetControlBurst() const
{
    NS_LOG_FUNCTION(this);
    size_t largest = 1; // of the cliques that LATE and START go to
    for (uint32_t t = 0; t < m_configs.size(); ++t)
    {
        if (NeedsAlignment(m_configs[t]))
        {
            largest = std::max(largest, m_configs[t].members.size());
        }
    }
    return std::max(m_noticeCopies * static_cast<uint32_t>(largest - 1), m_reaskCopies);
}

bool
TrainingApplication::IsFromMember(const GradientHeader& header)
{
    NS_LOG_FUNCTION(this);
    const RoundExchange* exchange = GetExchange(header.GetRound());
    return exchange != nullptr && exchange->GetMembers() == header.GetMembers() &&
           exchange->GetClique() == header.GetCliqueId() &&
           header.GetSender() != m_context.settings.island;
}

void
TrainingApplication::Send(uint32_t round, Ptr<Packet> packet, Ipv4Address to, bool control)
{
    NS_LOG_FUNCTION(this << round << packet << to << control);
    if (round < GetSyncCount())
    {
        RecordOf(round).CountSent(packet->GetSize(), control);
    }
    m_udp->Send(packet, to, m_adaptive ? AdaptiveTransport::SENDER_TOS : 0);
}

} // namespace ns3
