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
#include "ns3/link-port.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/sync-path-table.h"
#include "ns3/uinteger.h"
#include "ns3/wan-frame-error-model.h"
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
      m_innerSteps(1),
      m_fragments(1),
      m_transport(TrainingApplication::PLANNED),
      m_chooseAlgorithms(false),
      m_lossRate(0),
      m_lossModel(RATE_LOSS),
      m_lossStream(DEFAULT_LOSS_STREAM),
      m_tuneFpgas(true),
      m_tuneQueues(true),
      m_fpgaTimeoutMargin(DEFAULT_FPGA_TIMEOUT_MARGIN),
      m_installed(false),
      m_heldStarts(0),
      m_estimatedSync()
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
    // Every packet carries the links' framing, as the islands' access devices report it.
    m_costModel->SetAttribute(
        "FramingBytes",
        UintegerValue(LinkPort::GetFramingBytes(topology.GetIslandDevice(0))));
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
    // Time::IsNegative() is true for zero as well; no compute phase at all is allowed.
    if (time.IsStrictlyNegative())
    {
        throw std::runtime_error("TrainingHelper: negative compute time");
    }
    m_computeTime = time;
}

void
TrainingHelper::SetInnerSteps(uint32_t innerSteps)
{
    if (innerSteps == 0)
    {
        throw std::runtime_error("TrainingHelper: a round needs at least one inner step");
    }
    m_innerSteps = innerSteps;
}

void
TrainingHelper::SetFragments(uint32_t fragments)
{
    NS_LOG_FUNCTION(this << fragments);
    if (fragments == 0)
    {
        throw std::runtime_error("TrainingHelper: a round is synchronised in at least one "
                                 "fragment");
    }
    m_fragments = fragments;
}

void
TrainingHelper::SetUpdateFormat(const UpdateFormat& format)
{
    NS_LOG_FUNCTION(this << format.ToString());
    m_format = format;
    m_costModel->SetAttribute("UpdateFormat", UpdateFormatValue(format));
    m_appFactory.Set("UpdateFormat", UpdateFormatValue(format));
}

UpdateFormat
TrainingHelper::FormatOf(uint32_t periodRound) const
{
    return m_schedule.GetFormat(periodRound).value_or(m_format);
}

void
TrainingHelper::ForEachRoundInItsFormat(const std::function<void(uint32_t)>& visit)
{
    NS_LOG_FUNCTION(this);
    for (uint32_t t = 0; t < m_schedule.GetPeriod(); ++t)
    {
        m_costModel->SetAttribute("UpdateFormat", UpdateFormatValue(FormatOf(t)));
        visit(t);
    }
    m_costModel->SetAttribute("UpdateFormat", UpdateFormatValue(m_format));
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

uint32_t
TrainingHelper::GetFragments() const
{
    return m_fragments;
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
TrainingHelper::SetWanLossModel(LossModel model)
{
    m_lossModel = model;
}

const std::vector<std::string>&
TrainingHelper::LossModelNames()
{
    static const std::vector<std::string> names{"rate", "frame"}; // RATE_LOSS, FRAME_LOSS
    return names;
}

TrainingHelper::LossModel
TrainingHelper::ParseLossModel(const std::string& name)
{
    const std::vector<std::string>& names = LossModelNames();
    const auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end())
    {
        std::string choices;
        for (const std::string& known : names)
        {
            choices += (choices.empty() ? "" : ", ") + known;
        }
        throw std::runtime_error("TrainingHelper: loss model '" + name + "' is not one of " +
                                 choices);
    }
    return static_cast<LossModel>(found - names.begin());
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
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_installed, "TrainingHelper::Install called twice");
    m_installed = true;
    InitialiseWorkload(); // before the checks: whether the islands start together
    PlanAlgorithms();
    CheckSupported();
    const IslandPaths paths = GetIslandPaths();
    const std::vector<std::vector<TrainingRoundConfig>> configs = PlanRounds(paths.addresses);
    ApplicationContainer apps = CreateApplications(configs, paths);
    if (m_transport != TrainingApplication::TCP) // TCP passes FPGAs untouched
    {
        SizeFpgas();
    }
    SetHolds();
    TrainingLinkQueues::Size(m_topology.GetRouting(),
                             m_plans,
                             m_tuneQueues,
                             m_transport == TrainingApplication::ADAPTIVE,
                             m_transport == TrainingApplication::TCP ? 0 : ControlBurst());
    HoldStarts();
    if (m_lossRate > 0)
    {
        InstallLoss();
    }
    if (m_transport == TrainingApplication::ADAPTIVE)
    {
        AssignEcnStreams();
    }
    return apps;
}

void
TrainingHelper::PlanAlgorithms()
{
    NS_LOG_FUNCTION(this);
    const bool tcp = m_transport == TrainingApplication::TCP;
    TrainingSupport::Check(GetRunRequest(false));
    const std::string fragments =
        m_stepPlans.empty() ? FragmentPlan::Problem(m_fragments, m_innerSteps, m_modelBytes) : "";
    if (!fragments.empty())
    {
        throw std::runtime_error("TrainingHelper: " + fragments);
    }
    // TCP uses no multicast tree and no FPGA: plan (and estimate) as the network without.
    m_costModel->SetRouting(
        WanRouting(TrainingPlanner::PlannedTopology(m_topology.GetTopology(), tcp)));
    // Algorithms: the schedule's, or the cost model's choice per clique.
    if (m_chooseAlgorithms)
    {
        ForEachRoundInItsFormat([this](uint32_t t) {
            TrainingPlanner::ChooseRoundAlgorithms(*m_costModel, m_schedule, t, GetSyncBytes());
        });
    }
}

TrainingRunRequest
TrainingHelper::GetRunRequest(bool withAlgorithms) const
{
    TrainingRunRequest run;
    run.processes = WanMpi::IsSimulating() ? WanMpi::GetSize() : 1;
    run.tcp = m_transport == TrainingApplication::TCP;
    run.realPayloads = m_workload && m_workload->IsReal();
    run.sharedStart = m_workload && m_workload->AreIslandsTogether();
    TrainingSupport::NoteFormat(m_format, run);
    TrainingSupport::NoteFormats(m_schedule, m_format, run);
    run.fragments = m_fragments > 1;
    if (withAlgorithms)
    {
        TrainingSupport::NoteAlgorithms(m_schedule, run);
    }
    return run;
}

void
TrainingHelper::CheckSupported() const
{
    TrainingSupport::Check(GetRunRequest(true));
}

TrainingHelper::IslandPaths
TrainingHelper::GetIslandPaths() const
{
    const uint32_t n = m_topology.GetTopology().GetIslands().size();
    IslandPaths paths;
    paths.addresses.resize(n);
    paths.rtt.assign(n, std::vector<Time>(n));
    for (uint32_t i = 0; i < n; ++i)
    {
        paths.addresses[i] = m_topology.GetIslandAddress(i);
        for (uint32_t j = 0; j < n; ++j)
        {
            paths.rtt[i][j] =
                i == j ? Time(0) : Seconds(2 * m_topology.GetRouting().GetIslandDelay(i, j));
        }
    }
    return paths;
}

std::vector<std::vector<TrainingRoundConfig>>
TrainingHelper::PlanRounds(const std::vector<Ipv4Address>& addresses)
{
    NS_LOG_FUNCTION(this);
    const WanTopology& topology = m_topology.GetTopology();
    const uint32_t n = topology.GetIslands().size();
    const uint32_t period = m_schedule.GetPeriod();
    std::vector<std::string> names;
    for (const WanIsland& island : topology.GetIslands())
    {
        names.push_back(island.name);
    }
    std::vector<std::vector<TrainingRoundConfig>> configs(n,
                                                          std::vector<TrainingRoundConfig>(period));
    m_plans.clear();
    m_fragmentPlans.clear();
    ForEachRoundInItsFormat([&](uint32_t t) {
        SyncRoundEstimate plan = m_costModel->GetRoundPlan(m_schedule, t, GetSyncBytes());
        m_fragmentPlans.push_back(PlanFragments(t, plan));
        const TrainingRoundGroups groups = InstallGroups(t, plan);
        const std::vector<TrainingRoundConfig> round =
            TrainingPlanner::PlanRound(m_schedule.GetPartition(t),
                                       m_schedule.GetAlgorithms(t),
                                       plan,
                                       groups,
                                       addresses,
                                       names,
                                       t);
        for (uint32_t i = 0; i < n; ++i)
        {
            configs[i][t] = round[i];
            configs[i][t].format = m_schedule.GetFormat(t);
        }
        m_plans.push_back(std::move(plan));
    });
    return configs;
}

TrainingRoundGroups
TrainingHelper::InstallGroups(uint32_t t, const SyncRoundEstimate& plan)
{
    NS_LOG_FUNCTION(this << t);
    const uint32_t n = m_topology.GetTopology().GetIslands().size();
    const Partition& partition = m_schedule.GetPartition(t);
    const std::vector<SyncAlgorithm>& algorithms = m_schedule.GetAlgorithms(t);
    TrainingRoundGroups groups;
    groups.group.resize(n);
    groups.capable.assign(n, false);
    groups.refusal.resize(n);
    for (uint32_t c = 0; c < partition.size(); ++c)
    {
        const Clique& clique = partition[c];
        if (m_transport == TrainingApplication::TCP || clique.size() < 2 ||
            algorithms[c] == SyncAlgorithm::RING)
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
            groups.capable[sender] =
                m_topology.InstallMulticastTree(sender, group, clique, &groups.refusal[sender]);
            groups.group[sender] = group;
        }
    }
    return groups;
}

void
TrainingHelper::InitialiseWorkload()
{
    if (m_workload)
    {
        const uint64_t elements =
            (m_modelBytes + GradientHeader::ELEMENT_SIZE - 1) / GradientHeader::ELEMENT_SIZE;
        m_workload->Initialise(m_topology.GetTopology().GetIslands().size(),
                               static_cast<uint32_t>(elements));
    }
}

ApplicationContainer
TrainingHelper::CreateApplications(const std::vector<std::vector<TrainingRoundConfig>>& configs,
                                   const IslandPaths& paths)
{
    NS_LOG_FUNCTION(this);
    const uint32_t n = configs.size();
    const bool real = m_workload && m_workload->IsReal();
    ApplicationContainer apps;
    m_apps.clear();
    const SyncPathTable pathTable(m_topology.GetRouting());
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<TrainingApplication> app = m_appFactory.Create<TrainingApplication>();
        app->SetAttribute("ModelBytes", UintegerValue(m_modelBytes));
        app->SetAttribute("Rounds", UintegerValue(m_rounds));
        app->SetAttribute("ComputeTime", TimeValue(m_computeTime));
        app->SetAttribute("InnerSteps", UintegerValue(m_innerSteps));
        app->SetAttribute("Fragments", UintegerValue(m_fragments));
        app->SetAttribute("ComputeMultiplier", DoubleValue(m_multipliers[i]));
        if (!m_stepPlans.empty())
        {
            app->SetFragmentPlan(m_stepPlans.at(i));
        }
        app->SetAttribute("ChunkPayloadBytes", UintegerValue(m_costModel->GetChunkPayloadBytes()));
        app->SetAttribute(
            "PayloadMode",
            EnumValue(real ? TrainingApplication::REAL : TrainingApplication::VIRTUAL));
        app->SetAttribute("Transport", EnumValue(m_transport));
        if (m_transport == TrainingApplication::TCP)
        {
            Ptr<TcpTransport> transport = m_tcpFactory.Create<TcpTransport>();
            transport->SetPathRates(pathTable.GetPathRates(i));
            app->SetTcpTransport(transport);
        }
        if (m_transport == TrainingApplication::ADAPTIVE)
        {
            app->SetAdaptiveTransport(m_adaptiveFactory.Create<AdaptiveTransport>());
        }
        app->SetIsland(i, n);
        app->SetIslandAddresses(paths.addresses);
        app->SetPeerRtt(paths.rtt[i]);
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
    return apps;
}

void
TrainingHelper::SizeFpgas()
{
    TrainingFpgas::Settings settings;
    settings.tune = m_tuneFpgas;
    settings.margin = m_fpgaTimeoutMargin;
    settings.packetBits =
        8.0 * (m_costModel->GetChunkPayloadBytes() + m_costModel->GetPacketOverheadBytes());
    // Slots for the most chunks a round's update has in its format.
    settings.chunkCount = 0;
    ForEachRoundInItsFormat([&](uint32_t) {
        settings.chunkCount =
            std::max(settings.chunkCount, m_costModel->GetChunkCount(GetSyncBytes()));
    });
    TrainingFpgas::Size(m_topology, m_plans, settings);
}

void
TrainingHelper::SetHolds()
{
    // How long FPGAs may hold a chunk on its way to each island: its apps wait that much
    // longer for peers (and align their starts where FPGAs fold their cliques).
    const std::vector<Time> hold = TrainingFpgas::Holds(m_topology, m_plans);
    for (const Ptr<TrainingApplication>& app : m_apps)
    {
        app->SetAggregationHold(hold);
    }
}

void
TrainingHelper::HoldStarts()
{
    NS_LOG_FUNCTION(this);
    // Rounds overlap where cliques run at different paces: hold a round's sending until the
    // clique's receivers are done with their previous round (TrainingPlanner::ReplayRounds).
    std::vector<std::vector<double>> notBefore;
    std::vector<std::vector<Time>> launches;
    for (const FragmentPlan& plan :
         m_stepPlans.empty() ? std::vector<FragmentPlan>{GetFragmentPlan()} : m_stepPlans)
    {
        launches.push_back(plan.GetLaunches());
    }
    m_estimatedSync = TrainingPlanner::ReplayRounds(m_topology.GetRouting(),
                                                    m_fragmentPlans,
                                                    m_rounds,
                                                    launches,
                                                    m_multipliers,
                                                    &notBefore);
    m_heldStarts = 0;
    const auto syncs = static_cast<uint32_t>(notBefore.size());
    for (uint32_t i = 0; i < m_apps.size(); ++i)
    {
        std::vector<Time> times(syncs);
        // TCP and the adaptive transport pace themselves: no plan to protect.
        for (uint32_t s = 0; s < syncs && m_transport == TrainingApplication::PLANNED; ++s)
        {
            if (notBefore[s][i] > 0)
            {
                times[s] = Seconds(notBefore[s][i]);
                ++m_heldStarts;
                NS_LOG_INFO("exchange " << s << ": island " << i << " sends from "
                                        << notBefore[s][i]
                                        << " s, when its clique's receivers are done with the "
                                           "one before");
            }
        }
        m_apps[i]->SetSyncNotBefore(times);
    }
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
            Ptr<ErrorModel> em;
            if (m_lossModel == FRAME_LOSS)
            {
                Ptr<WanFrameErrorModel> frame = CreateObject<WanFrameErrorModel>();
                stream += frame->AssignStreams(stream);
                em = frame;
            }
            else
            {
                Ptr<RateErrorModel> rate = CreateObject<RateErrorModel>();
                rate->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
                stream += rate->AssignStreams(stream);
                em = rate;
            }
            em->SetAttribute("ErrorRate", DoubleValue(m_lossRate)); // both models' attribute
            receiver->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }
}

void
TrainingHelper::AssignEcnStreams()
{
    int64_t stream = m_lossStream + 2 * m_topology.GetTopology().GetLinks().size();
    for (const Ptr<NetDevice>& device : GetLinkDevices())
    {
        if (Ptr<WanLinkNetDevice> link = DynamicCast<WanLinkNetDevice>(device))
        {
            stream += link->AssignStreams(stream);
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
    return m_estimatedSync.exposed;
}

double
TrainingHelper::GetEstimatedHiddenSync() const
{
    return m_estimatedSync.hidden;
}

FragmentPlan
TrainingHelper::GetFragmentPlan() const
{
    return SelectFragmentPlan(m_stepPlans, m_modelBytes, m_fragments, m_innerSteps, m_computeTime);
}

FragmentPlan
TrainingHelper::SelectFragmentPlan(const std::vector<FragmentPlan>& stepPlans,
                                   uint64_t modelBytes,
                                   uint32_t fragments,
                                   uint32_t innerSteps,
                                   Time computeTime)
{
    return stepPlans.empty() ? FragmentPlan(modelBytes, fragments, innerSteps, computeTime)
                             : stepPlans.front();
}

void
TrainingHelper::SetStepPlans(const std::vector<FragmentPlan>& plans)
{
    NS_LOG_FUNCTION(this << plans.size());
    for (size_t i = 1; i < plans.size(); ++i)
    {
        if (!plans[i].HasSameFragments(plans[0]))
        {
            throw std::invalid_argument("TrainingHelper::SetStepPlans: island " +
                                        std::to_string(i) +
                                        "'s buckets differ from island 0's: data-parallel "
                                        "islands synchronise the same buckets");
        }
    }
    m_stepPlans = plans;
    if (!plans.empty())
    {
        m_fragments = plans[0].GetFragments();
        m_modelBytes = plans[0].GetModelBytes();
    }
}

std::vector<SyncRoundEstimate>
TrainingHelper::PlanFragments(uint32_t periodRound, const SyncRoundEstimate& largest) const
{
    NS_LOG_FUNCTION(this << periodRound);
    // Streaming fragments differ by an element at most: the largest one's plan stands for all.
    if (m_stepPlans.empty())
    {
        return {largest};
    }
    std::vector<SyncRoundEstimate> plans;
    const FragmentPlan& step = m_stepPlans.front();
    for (uint32_t f = 0; f < step.GetFragments(); ++f)
    {
        plans.push_back(m_costModel->GetRoundPlan(m_schedule, periodRound, step.GetBytes(f)));
    }
    return plans;
}

uint64_t
TrainingHelper::GetSyncBytes() const
{
    return GetFragmentPlan().GetLargestBytes();
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
