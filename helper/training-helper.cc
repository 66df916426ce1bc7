/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-helper.h"

#include "training-fpgas.h"
#include "training-link-queues.h"
#include "training-planner.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/fpga-aggregator-net-device.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/sync-path-table.h"
#include "ns3/uinteger.h"
#include "ns3/wan-link-net-device.h"
#include "ns3/wan-mpi.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingHelper");

namespace
{

/** Default compute phase of a round. */
const Time DEFAULT_COMPUTE_TIME = MilliSeconds(100);
/** Default model size, bytes. */
constexpr uint64_t DEFAULT_MODEL_BYTES = 1000000;
/** Extra FPGA slot hold time beyond the senders' delay spread. */
const Time DEFAULT_FPGA_TIMEOUT_MARGIN = MilliSeconds(20);
} // namespace

TrainingHelper::TrainingHelper(WanTopologyHelper& topology, const CliqueSchedule& schedule)
    : m_topology(topology),
      m_schedule(schedule),
      m_modelBytes(DEFAULT_MODEL_BYTES),
      m_rounds(1),
      m_computeTime(DEFAULT_COMPUTE_TIME),
      m_transport(TrainingApplication::PLANNED),
      m_chooseAlgorithms(false),
      m_lossRate(0),
      m_lossStream(0),
      m_tuneFpgas(true),
      m_tuneQueues(true),
      m_fpgaTimeoutMargin(DEFAULT_FPGA_TIMEOUT_MARGIN),
      m_installed(false),
      m_heldStarts(0),
      m_estimatedSync(0)
{
    m_appFactory.SetTypeId(TrainingApplication::GetTypeId());
    m_tcpFactory.SetTypeId(TcpTransport::GetTypeId());
    m_adaptiveFactory.SetTypeId(AdaptiveTransport::GetTypeId());
    const uint32_t n = topology.GetTopology().GetIslands().size();
    if (schedule.GetIslandCount() != n)
    {
        throw std::runtime_error("TrainingHelper: schedule '" + schedule.GetName() + "' has " +
                                 std::to_string(schedule.GetIslandCount()) +
                                 " islands, the topology " + std::to_string(n));
    }
    m_multipliers.assign(n, 1.0);
    m_costModel = CreateObject<SyncCostModel>();
    // Chunks fill the devices' MTU, whatever the topology helper set it to.
    m_costModel->SetAttribute("Mtu", UintegerValue(topology.GetMtu()));
    m_costModel->SetRouting(topology.GetRouting());
}

TrainingHelper::~TrainingHelper() = default;

void
TrainingHelper::SetModelBytes(uint64_t bytes)
{
    if (bytes == 0)
    {
        throw std::runtime_error("TrainingHelper: model bytes must be positive");
    }
    m_modelBytes = bytes;
}

void
TrainingHelper::SetRounds(uint32_t rounds)
{
    m_rounds = rounds;
}

void
TrainingHelper::SetComputeTime(Time time)
{
    if (time.IsNegative())
    {
        throw std::runtime_error("TrainingHelper: negative compute time");
    }
    m_computeTime = time;
}

void
TrainingHelper::SetAppAttribute(const std::string& name, const AttributeValue& value)
{
    m_appFactory.Set(name, value);
}

void
TrainingHelper::SetTransport(TrainingApplication::Transport transport)
{
    m_transport = transport;
}

TrainingApplication::Transport
TrainingHelper::GetTransport() const
{
    return m_transport;
}

void
TrainingHelper::SetTcpAttribute(const std::string& name, const AttributeValue& value)
{
    m_tcpFactory.Set(name, value);
}

void
TrainingHelper::SetAdaptiveAttribute(const std::string& name, const AttributeValue& value)
{
    m_adaptiveFactory.Set(name, value);
}

std::string
TrainingHelper::GetTransportNote() const
{
    return TrainingPlanner::TransportNote(m_topology.GetTopology(),
                                          m_transport == TrainingApplication::TCP);
}

void
TrainingHelper::SetComputeMultiplier(uint32_t island, double multiplier)
{
    if (island >= m_multipliers.size() || !(multiplier >= 0))
    {
        throw std::runtime_error("TrainingHelper: bad compute multiplier for island " +
                                 std::to_string(island));
    }
    m_multipliers[island] = multiplier;
}

void
TrainingHelper::SetChooseAlgorithms(bool choose)
{
    m_chooseAlgorithms = choose;
}

void
TrainingHelper::SetWorkload(Ptr<TrainingWorkload> workload)
{
    m_workload = workload;
}

void
TrainingHelper::SetWanLossRate(double rate, int64_t stream)
{
    if (!(rate >= 0 && rate <= 1))
    {
        std::ostringstream os;
        os << "TrainingHelper: loss rate " << rate << " is not in [0, 1]";
        throw std::runtime_error(os.str());
    }
    m_lossRate = rate;
    m_lossStream = stream;
}

void
TrainingHelper::SetTuneQueues(bool tune)
{
    m_tuneQueues = tune;
}

void
TrainingHelper::SetTuneFpgas(bool tune, Time margin)
{
    m_tuneFpgas = tune;
    m_fpgaTimeoutMargin = margin;
}

ApplicationContainer
TrainingHelper::Install()
{
    NS_ABORT_MSG_IF(m_installed, "TrainingHelper::Install called twice");
    m_installed = true;
    const WanTopology& topology = m_topology.GetTopology();
    const WanRouting& routing = m_topology.GetRouting();
    const uint32_t n = topology.GetIslands().size();
    const uint32_t period = m_schedule.GetPeriod();
    const bool tcp = m_transport == TrainingApplication::TCP;
    if (tcp && WanMpi::IsSimulating() && WanMpi::GetSize() > 1)
    {
        throw std::invalid_argument("the tcp transport needs one process: TCP segments carry "
                                    "their bytes, and packets crossing MPI ranks must be virtual");
    }
    // TCP uses no multicast tree and no FPGA: plan (and estimate) as the network without.
    m_costModel->SetRouting(WanRouting(TrainingPlanner::PlannedTopology(topology, tcp)));

    // Algorithms: the schedule's, or the cost model's choice per clique.
    if (m_chooseAlgorithms)
    {
        TrainingPlanner::ChooseAlgorithms(*m_costModel, m_schedule, m_modelBytes);
    }
    for (uint32_t t = 0; t < period && tcp; ++t)
    {
        const std::vector<SyncAlgorithm>& algorithms = m_schedule.GetAlgorithms(t);
        if (std::find(algorithms.begin(), algorithms.end(), SyncAlgorithm::TREE) !=
            algorithms.end())
        {
            throw std::invalid_argument(
                "the tcp transport has no reduction trees (TREE): TCP's streams cannot be "
                "summed on the way; use the planned or adaptive transport");
        }
    }

    std::vector<Ipv4Address> addresses(n);
    std::vector<std::vector<Time>> rtt(n, std::vector<Time>(n));
    for (uint32_t i = 0; i < n; ++i)
    {
        addresses[i] = m_topology.GetIslandAddress(i);
        for (uint32_t j = 0; j < n; ++j)
        {
            rtt[i][j] = i == j ? Time(0) : Seconds(2 * routing.GetIslandDelay(i, j));
        }
    }

    // Per period round: groups and trees, the cost model's plan, each island's config.
    std::vector<std::vector<TrainingRoundConfig>> configs(n,
                                                          std::vector<TrainingRoundConfig>(period));
    m_plans.clear();
    for (uint32_t t = 0; t < period; ++t)
    {
        const Partition& partition = m_schedule.GetPartition(t);
        const std::vector<SyncAlgorithm>& algorithms = m_schedule.GetAlgorithms(t);
        // multicastOk[i]: island i's tree in round t is multicast-capable.
        std::vector<bool> multicastOk(n, false);
        std::vector<std::string> refusal(n);
        std::vector<Ipv4Address> groupOf(n);
        SyncRoundEstimate plan = m_costModel->GetRoundPlan(m_schedule, t, m_modelBytes);
        for (uint32_t c = 0; c < partition.size(); ++c)
        {
            const Clique& clique = partition[c];
            if (tcp || clique.size() < 2 || algorithms[c] == SyncAlgorithm::RING)
            {
                continue;
            }
            // DIRECT: every member multicasts to the clique; TREE: only the root, the sum.
            const std::vector<uint32_t> senders = algorithms[c] == SyncAlgorithm::TREE
                                                      ? std::vector<uint32_t>{plan.cliqueRoot.at(c)}
                                                      : clique;
            const Ipv4Address group = m_topology.AllocateGroup();
            for (uint32_t sender : senders)
            {
                multicastOk[sender] =
                    m_topology.InstallMulticastTree(sender, group, clique, &refusal[sender]);
                groupOf[sender] = group;
            }
        }
        for (uint32_t c = 0; c < partition.size(); ++c)
        {
            for (uint32_t island : partition[c])
            {
                TrainingRoundConfig& config = configs[island][t];
                config.clique = c;
                config.members = partition[c];
                std::sort(config.members.begin(), config.members.end());
                config.algorithm = algorithms[c];
                if (algorithms[c] == SyncAlgorithm::TREE)
                {
                    config.root = plan.cliqueRoot.at(c);
                }
                config.estimatedSyncTime = plan.syncTime;
            }
        }
        for (const SyncStream& stream : plan.streams)
        {
            TrainingRoundConfig& config = configs[stream.sender][t];
            if (stream.algorithm == SyncAlgorithm::RING)
            {
                if (config.ringRateBps.size() <= stream.ringStep)
                {
                    config.ringRateBps.resize(stream.ringStep + 1, 0.0);
                }
                config.ringRateBps[stream.ringStep] = stream.rateBps;
                continue;
            }
            if (stream.multicast && multicastOk[stream.sender])
            {
                TrainingStreamConfig s;
                s.receivers = stream.receivers;
                s.destination = groupOf[stream.sender];
                s.multicast = true;
                s.rateBps = stream.rateBps;
                s.resendWeight = stream.resendWeight;
                config.streams.push_back(s);
                continue;
            }
            if (stream.multicast)
            {
                // The plan's rates assume one copy per tree edge; unicast copies would
                // overload the sender's access link. Say so now, not as resends later.
                std::ostringstream os;
                os << "TrainingHelper: round " << t << ": the plan multicasts island "
                   << topology.GetIslands()[stream.sender].name
                   << "'s update, but the routers refuse its tree: " << refusal[stream.sender];
                throw std::runtime_error(os.str());
            }
            for (uint32_t receiver : stream.receivers)
            {
                TrainingStreamConfig s;
                s.receivers = {receiver};
                s.destination = addresses[receiver];
                s.multicast = false;
                s.rateBps = stream.rateBps;
                s.resendWeight = stream.resendWeight;
                config.streams.push_back(s);
            }
        }
        m_plans.push_back(std::move(plan));
    }

    const bool real = m_workload && m_workload->IsReal();
    if (real && WanMpi::IsSimulating() && WanMpi::GetSize() > 1)
    {
        throw std::invalid_argument(
            "real payloads need one process: the consensus of every round is computed over "
            "all islands' parameters as the round ends, and a distributed run (" +
            std::to_string(WanMpi::GetSize()) +
            " ranks) holds each island's parameters on its own rank only");
    }
    const uint64_t elements =
        (m_modelBytes + GradientHeader::ELEMENT_SIZE - 1) / GradientHeader::ELEMENT_SIZE;
    if (m_workload)
    {
        m_workload->Initialise(n, static_cast<uint32_t>(elements));
    }

    ApplicationContainer apps;
    m_apps.clear();
    const SyncPathTable paths(routing);
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<TrainingApplication> app = m_appFactory.Create<TrainingApplication>();
        app->SetAttribute("ModelBytes", UintegerValue(m_modelBytes));
        app->SetAttribute("Rounds", UintegerValue(m_rounds));
        app->SetAttribute("ComputeTime", TimeValue(m_computeTime));
        app->SetAttribute("ComputeMultiplier", DoubleValue(m_multipliers[i]));
        app->SetAttribute("ChunkPayloadBytes", UintegerValue(m_costModel->GetChunkPayloadBytes()));
        app->SetAttribute(
            "PayloadMode",
            EnumValue(real ? TrainingApplication::REAL : TrainingApplication::VIRTUAL));
        app->SetAttribute("Transport", EnumValue(m_transport));
        if (tcp)
        {
            Ptr<TcpTransport> transport = m_tcpFactory.Create<TcpTransport>();
            transport->SetPathRates(paths.GetPathRates(i));
            app->SetTcpTransport(transport);
        }
        if (m_transport == TrainingApplication::ADAPTIVE)
        {
            app->SetAdaptiveTransport(m_adaptiveFactory.Create<AdaptiveTransport>());
        }
        app->SetIsland(i, n);
        app->SetIslandAddresses(addresses);
        app->SetPeerRtt(rtt[i]);
        app->SetRoundConfigs(configs[i]);
        app->SetWorkload(m_workload);
        m_apps.push_back(app);
        // In a distributed run, the rank that simulates the island's node runs its application;
        // elsewhere it is configured but never started.
        if (IsLocal(m_topology.GetIslandNode(i)))
        {
            m_topology.GetIslandNode(i)->AddApplication(app);
            app->SetStartTime(Seconds(0));
            apps.Add(app);
        }
    }
    if (!tcp)
    {
        // TCP passes them untouched.
        TrainingFpgas::Settings settings;
        settings.tune = m_tuneFpgas;
        settings.margin = m_fpgaTimeoutMargin;
        settings.packetBits =
            8.0 * (m_costModel->GetChunkPayloadBytes() + m_costModel->GetPacketOverheadBytes());
        settings.chunkCount = m_costModel->GetChunkCount(m_modelBytes);
        TrainingFpgas::Size(m_topology, m_plans, settings);
    }
    // How long FPGAs may hold a chunk on its way to each island: its apps wait that much
    // longer for peers (and align their starts where FPGAs fold their cliques).
    const std::vector<Time> hold = TrainingFpgas::Holds(m_topology, m_plans);
    for (const Ptr<TrainingApplication>& app : m_apps)
    {
        app->SetAggregationHold(hold);
    }
    TrainingLinkQueues::Size(routing,
                             m_plans,
                             m_tuneQueues,
                             m_transport == TrainingApplication::ADAPTIVE,
                             tcp ? 0 : ControlBurst());
    // Rounds overlap where cliques run at different paces: hold a round's sending until the
    // clique's receivers are done with their previous round (TrainingPlanner::ReplayRounds).
    std::vector<std::vector<double>> notBefore;
    m_estimatedSync = TrainingPlanner::ReplayRounds(routing,
                                                    m_plans,
                                                    m_rounds,
                                                    m_computeTime,
                                                    m_multipliers,
                                                    &notBefore);
    m_heldStarts = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        std::vector<Time> times(m_rounds);
        // TCP and the adaptive transport pace themselves: no plan to protect.
        for (uint32_t r = 0; r < m_rounds && m_transport == TrainingApplication::PLANNED; ++r)
        {
            if (notBefore[r][i] > 0)
            {
                times[r] = Seconds(notBefore[r][i]);
                ++m_heldStarts;
                NS_LOG_INFO("round " << r << ": island " << i << " sends from " << notBefore[r][i]
                                     << " s, when its clique's receivers are done with round "
                                     << r - 1);
            }
        }
        m_apps[i]->SetSyncNotBefore(times);
    }
    if (m_lossRate > 0)
    {
        InstallLoss();
    }
    return apps;
}

bool
TrainingHelper::HasLocalSlotsInUse() const
{
    std::vector<Ptr<FpgaAggregatorBase>> fpgas;
    for (uint32_t i = 0; i < m_topology.GetTopology().GetIslands().size(); ++i)
    {
        fpgas.push_back(m_topology.GetFpga(i));
    }
    for (uint32_t c = 0; c < m_topology.GetTopology().GetCities().size(); ++c)
    {
        fpgas.push_back(m_topology.GetTransit(c));
    }
    return std::any_of(fpgas.begin(), fpgas.end(), [](const Ptr<FpgaAggregatorBase>& fpga) {
        return fpga && IsLocal(fpga->GetNode()) && fpga->GetSlotsInUse() > 0;
    });
}

std::vector<Ptr<NetDevice>>
TrainingHelper::GetLinkDevices()
{
    return TrainingLinkQueues::GetLinkDevices();
}

void
TrainingHelper::InstallLoss()
{
    const auto& links = m_topology.GetTopology().GetLinks();
    int64_t stream = m_lossStream;
    for (uint32_t l = 0; l < links.size(); ++l)
    {
        for (uint32_t end = 0; end < 2; ++end)
        {
            const WanHop hop{l,
                             end == 0 ? links[l].a : links[l].b,
                             end == 0 ? links[l].b : links[l].a};
            // The error model sits on the receiving device of each direction.
            const WanHop reverse{l, hop.to, hop.from};
            Ptr<NetDevice> receiver = m_topology.GetWanDevice(reverse);
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
            em->SetAttribute("ErrorRate", DoubleValue(m_lossRate));
            stream += em->AssignStreams(stream);
            receiver->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }
}

const CliqueSchedule&
TrainingHelper::GetSchedule() const
{
    return m_schedule;
}

Ptr<SyncCostModel>
TrainingHelper::GetCostModel() const
{
    return m_costModel;
}

Ptr<TrainingApplication>
TrainingHelper::GetApplication(uint32_t island) const
{
    return m_apps.at(island);
}

const std::vector<SyncRoundEstimate>&
TrainingHelper::GetPlans() const
{
    return m_plans;
}

WanTopologyHelper&
TrainingHelper::GetTopologyHelper() const
{
    return m_topology;
}

uint32_t
TrainingHelper::GetRounds() const
{
    return m_rounds;
}

Ptr<TrainingWorkload>
TrainingHelper::GetWorkload() const
{
    return m_workload;
}

bool
TrainingHelper::IsInstalled() const
{
    return m_installed;
}

uint64_t
TrainingHelper::GetHeldStarts() const
{
    return m_heldStarts;
}

double
TrainingHelper::GetEstimatedSync() const
{
    return m_estimatedSync;
}

uint32_t
TrainingHelper::ControlBurst() const
{
    uint32_t most = 0;
    for (const Ptr<TrainingApplication>& app : m_apps)
    {
        most = std::max(most, app->GetControlBurst());
    }
    return most;
}

bool
TrainingHelper::IsLocal(Ptr<Node> node)
{
    return !WanMpi::IsSimulating() || node->GetSystemId() == WanMpi::GetRank();
}

} // namespace ns3
