/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-helper.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/fpga-aggregator-net-device.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/wan-link-net-device.h"
#include "ns3/wan-mpi.h"
#include "ns3/wan-partition.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingHelper");

namespace
{

/** Default compute phase of a round. */
const Time DEFAULT_COMPUTE_TIME = MilliSeconds(100);
/** Default model size, bytes. */
constexpr uint64_t DEFAULT_MODEL_BYTES = 1000000;
/** Percentile reported as p99. */
constexpr double P99 = 0.99;
/** Median. */
constexpr double P50 = 0.5;
/**
 * Event scheduler Run() installs. WanLinkChannel keeps packets in flight out of the event
 * queue, so it holds a few hundred events (one per busy device, wire, stream and timer). On a
 * 3 MB global-clique round without multicast (callgrind, instructions executed by the whole
 * program): PriorityQueue 2.11 G, Map (ns-3's default) 2.16 G, Calendar 2.22 G, Heap 2.33 G.
 */
const char* const DEFAULT_SCHEDULER = "ns3::PriorityQueueScheduler";
/** FPGA slots provisioned per slot the delay spread needs (bursts, stragglers). */
constexpr double FPGA_SLOT_HEADROOM = 2.0;
/** Transmit queue packets provisioned per planned stream that shares a link direction. */
constexpr uint32_t QUEUE_HEADROOM = 2;
/** Extra FPGA slot hold time beyond the senders' delay spread. */
const Time DEFAULT_FPGA_TIMEOUT_MARGIN = MilliSeconds(20);
/**
 * Work of a packet through the stock IPv4/UDP stack of an island (sent or received), in units
 * of one end of a link hop (callgrind on a 5 MB global-clique round without multicast: about
 * 3.4 k instructions per end of a hop, with its event and the router's forwarding; 12.4 k per
 * packet sent by a host, 14.2 k per packet received).
 */
constexpr double HOST_PACKET_WORK = 4.0;
/**
 * Work of a packet through an in-line FPGA (the extra hop: received, then sent or folded into
 * an aggregate), in the same units.
 */
constexpr double FPGA_PACKET_WORK = 2.0;
/** Digits after the point of times in CSV (nanosecond resolution). */
constexpr int TIME_DIGITS = 9;

/** \param values sorted values \param q quantile in [0, 1] \return nearest-rank quantile */
double
Quantile(const std::vector<double>& values, double q)
{
    if (values.empty())
    {
        return 0;
    }
    const auto rank = static_cast<size_t>(std::ceil(q * values.size()));
    return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

/** \param t a time \return seconds with nanosecond digits */
std::string
FormatSeconds(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(TIME_DIGITS) << t.GetSeconds();
    return os.str();
}

/** \param v a double \return it with enough digits to read back */
std::string
FormatDouble(double v)
{
    std::ostringstream os;
    os << std::setprecision(12) << v;
    return os.str();
}

/**
 * \param node a node \return true if this process simulates it: always, except in a
 *         distributed run, where only its own system id's nodes
 */
bool
IsLocal(Ptr<Node> node)
{
    return !WanMpi::IsSimulating() || node->GetSystemId() == WanMpi::GetRank();
}

} // namespace

TrainingHelper::TrainingHelper(WanTopologyHelper& topology, const CliqueSchedule& schedule)
    : m_topology(topology),
      m_schedule(schedule),
      m_modelBytes(DEFAULT_MODEL_BYTES),
      m_rounds(1),
      m_computeTime(DEFAULT_COMPUTE_TIME),
      m_chooseAlgorithms(false),
      m_lossRate(0),
      m_lossStream(0),
      m_progressSeconds(0),
      m_tuneFpgas(true),
      m_tuneQueues(true),
      m_fpgaTimeoutMargin(DEFAULT_FPGA_TIMEOUT_MARGIN),
      m_schedulerType(DEFAULT_SCHEDULER),
      m_localIslands(0),
      m_installed(false),
      m_roundsDone(0),
      m_queueDrops(0),
      m_lossDrops(0),
      m_heldStarts(0),
      m_simulatedTime(0)
{
    m_appFactory.SetTypeId(TrainingApplication::GetTypeId());
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

void
TrainingHelper::SetSchedulerType(const std::string& type)
{
    m_schedulerType = type;
}

void
TrainingHelper::SetProgress(const std::string& label, double seconds)
{
    m_progressLabel = label;
    m_progressSeconds = seconds;
}

const TrainingParallelInfo&
TrainingHelper::GetParallelInfo() const
{
    return m_parallel;
}

void
TrainingHelper::EstimateLoad(const WanTopology& topology,
                             const WanRouting& routing,
                             const std::vector<SyncRoundEstimate>& plans,
                             uint32_t rounds,
                             std::vector<double>& cityLoad,
                             std::vector<double>& linkPackets)
{
    // Where each resource's packets are handled: a WAN hop by the routers at both ends, an
    // access link by the island's stack and its router at the other end, plus the FPGA in
    // between if there is one. Into an island with an FPGA, every sender's packet crosses the
    // in-box link before the FPGA folds it (the access link then carries the aggregates).
    const auto hasFpga = [&topology](uint32_t island) {
        return topology.GetCities()[topology.GetIslands()[island].city].caps.fpga;
    };
    std::vector<std::vector<std::pair<uint32_t, double>>> work(routing.GetResourceCount());
    std::vector<uint32_t> linkOf(routing.GetResourceCount(), WanRouting::NO_LINK);
    const auto& links = topology.GetLinks();
    for (uint32_t l = 0; l < links.size(); ++l)
    {
        for (const WanHop& hop :
             {WanHop{l, links[l].a, links[l].b}, WanHop{l, links[l].b, links[l].a}})
        {
            work[routing.GetHopResource(hop)] = {{hop.from, 1.0}, {hop.to, 1.0}};
            linkOf[routing.GetHopResource(hop)] = l;
        }
    }
    for (uint32_t i = 0; i < topology.GetIslands().size(); ++i)
    {
        const uint32_t city = topology.GetIslands()[i].city;
        const double fpga = hasFpga(i) ? FPGA_PACKET_WORK : 0.0;
        work[routing.GetAccessUpResource(i)] = {{city, HOST_PACKET_WORK + 1.0 + fpga}};
        work[routing.GetAccessDownResource(i)] = {{city, HOST_PACKET_WORK + 1.0}};
    }
    cityLoad.assign(topology.GetCities().size(), 0.0);
    linkPackets.assign(links.size(), 0.0);
    for (uint32_t t = 0; t < plans.size(); ++t)
    {
        // Rounds t, t + T, ... of the run use plan t.
        const uint32_t uses = rounds / plans.size() + (t < rounds % plans.size() ? 1 : 0);
        for (const SyncStream& stream : plans[t].streams)
        {
            for (const auto& [resource, weight] : stream.resources)
            {
                const double packets = double(uses) * stream.chunks * weight;
                for (const auto& [city, units] : work[resource])
                {
                    cityLoad[city] += packets * units;
                }
                if (linkOf[resource] != WanRouting::NO_LINK)
                {
                    linkPackets[linkOf[resource]] += packets;
                }
            }
            for (uint32_t receiver : stream.receivers)
            {
                if (hasFpga(receiver))
                {
                    cityLoad[topology.GetIslands()[receiver].city] +=
                        double(uses) * stream.chunks * FPGA_PACKET_WORK;
                }
            }
        }
    }
}

void
TrainingHelper::ChooseAlgorithms(const SyncCostModel& costModel,
                                 CliqueSchedule& schedule,
                                 uint64_t modelBytes)
{
    for (uint32_t t = 0; t < schedule.GetPeriod(); ++t)
    {
        std::vector<SyncAlgorithm> algorithms;
        for (const Clique& clique : schedule.GetPartition(t))
        {
            algorithms.push_back(costModel.ChooseAlgorithm(clique, modelBytes));
        }
        schedule.SetAlgorithms(t, algorithms);
    }
}

std::vector<uint32_t>
TrainingHelper::PartitionCities(const WanTopology& topology,
                                const CliqueSchedule& schedule,
                                uint64_t modelBytes,
                                uint32_t rounds,
                                uint16_t mtu,
                                bool chooseAlgorithms,
                                uint32_t ranks)
{
    WanPartition::CheckRanks(ranks, topology.GetCities().size()); // before planning
    const WanRouting routing(topology);
    Ptr<SyncCostModel> costModel = CreateObject<SyncCostModel>();
    costModel->SetAttribute("Mtu", UintegerValue(mtu));
    costModel->SetRouting(routing);
    CliqueSchedule resolved = schedule;
    if (chooseAlgorithms)
    {
        ChooseAlgorithms(*costModel, resolved, modelBytes);
    }
    std::vector<SyncRoundEstimate> plans;
    for (uint32_t t = 0; t < resolved.GetPeriod(); ++t)
    {
        plans.push_back(costModel->GetRoundPlan(resolved, t, modelBytes));
    }
    std::vector<double> cityLoad;
    std::vector<double> linkPackets;
    EstimateLoad(topology, routing, plans, rounds, cityLoad, linkPackets);
    const std::vector<uint32_t> cityRanks =
        WanPartition::Balance(topology, cityLoad, linkPackets, ranks);
    for (uint32_t c = 0; c < cityRanks.size(); ++c)
    {
        NS_LOG_INFO("city " << topology.GetCities()[c].code << ": estimated load " << cityLoad[c]
                            << ", rank " << cityRanks[c]);
    }
    return cityRanks;
}

std::vector<uint32_t>
TrainingHelper::DistributeCities(WanTopologyHelper& wan,
                                 const WanTopology& topology,
                                 const CliqueSchedule& schedule,
                                 uint64_t modelBytes,
                                 uint32_t rounds,
                                 const std::string& partition)
{
    if (!WanMpi::IsSimulating() || WanMpi::GetSize() == 1)
    {
        return {};
    }
    const uint32_t ranks = WanMpi::GetSize();
    std::vector<uint32_t> cityRanks(topology.GetCities().size(), 0);
    if (cityRanks.size() > 1)
    {
        cityRanks = partition.empty() ? PartitionCities(topology,
                                                        schedule,
                                                        modelBytes,
                                                        rounds,
                                                        wan.GetMtu(),
                                                        false,
                                                        ranks)
                                      : WanPartition::Parse(partition, topology, ranks);
    }
    wan.SetCitySystemIds(cityRanks);
    NS_LOG_INFO("topology '" << topology.GetName() << "' over " << ranks
                             << " ranks: " << WanPartition::Describe(topology, cityRanks));
    return cityRanks;
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

    // Algorithms: the schedule's, or the cost model's choice per clique.
    if (m_chooseAlgorithms)
    {
        ChooseAlgorithms(*m_costModel, m_schedule, m_modelBytes);
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
        for (uint32_t c = 0; c < partition.size(); ++c)
        {
            const Clique& clique = partition[c];
            if (clique.size() < 2 || algorithms[c] != SyncAlgorithm::DIRECT)
            {
                continue;
            }
            const Ipv4Address group = m_topology.AllocateGroup();
            for (uint32_t sender : clique)
            {
                multicastOk[sender] =
                    m_topology.InstallMulticastTree(sender, group, clique, &refusal[sender]);
                groupOf[sender] = group;
            }
        }
        SyncRoundEstimate plan = m_costModel->GetRoundPlan(m_schedule, t, m_modelBytes);
        for (uint32_t c = 0; c < partition.size(); ++c)
        {
            for (uint32_t island : partition[c])
            {
                TrainingRoundConfig& config = configs[island][t];
                config.clique = c;
                config.members = partition[c];
                std::sort(config.members.begin(), config.members.end());
                config.algorithm = algorithms[c];
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
        app->SetIsland(i, n);
        app->SetIslandAddresses(addresses);
        app->SetPeerRtt(rtt[i]);
        app->SetRoundConfigs(configs[i]);
        app->SetWorkload(m_workload);
        app->TraceConnectWithoutContext("SyncFinished",
                                        MakeCallback(&TrainingHelper::OnSyncFinished, this));
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
    m_finishedPerRound.assign(m_rounds, 0);
    m_localIslands = apps.GetN();
    m_roundDoneTime.assign(m_rounds, 0.0);
    m_snapshots.assign(real ? m_rounds : 0, std::vector<std::vector<double>>(n));
    SizeFpgas();
    SizeQueues();
    // How long each island's FPGA may hold a chunk: its apps wait that much longer for peers.
    std::vector<Time> hold(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (Ptr<FpgaAggregatorNetDevice> fpga = m_topology.GetFpga(i))
        {
            TimeValue timeout;
            TimeValue latency;
            fpga->GetAttribute("Timeout", timeout);
            fpga->GetAttribute("PipelineLatency", latency);
            hold[i] = timeout.Get() + latency.Get();
        }
    }
    for (const Ptr<TrainingApplication>& app : m_apps)
    {
        app->SetAggregationHold(hold);
    }
    // Rounds overlap where cliques run at different paces: hold a round's sending until the
    // clique's receivers are done with their previous round (ReplayRounds).
    std::vector<std::vector<double>> notBefore;
    ReplayRounds(&notBefore);
    m_heldStarts = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        std::vector<Time> times(m_rounds);
        for (uint32_t r = 0; r < m_rounds; ++r)
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
    ConnectCounters();
    return apps;
}

void
TrainingHelper::SizeFpgas()
{
    // A slot for chunk c at island j stays open from the first to the last sender's copy of c:
    // the spread of the senders' path delays to j, plus the spread of the senders' start
    // times (islands start syncing when their own previous round ends, which differ by at most
    // a round's sync time). Its FPGA must hold a slot that long (else it flushes partial
    // aggregates) and hold as many slots as chunks arrive meanwhile, but never more than two
    // rounds of chunks (else it passes packets through); either failure overloads j's ingress,
    // which the plan's rates assume folded.
    const WanRouting& routing = m_topology.GetRouting();
    const uint32_t n = m_topology.GetTopology().GetIslands().size();
    const double packetBits =
        8.0 * (m_costModel->GetChunkPayloadBytes() + m_costModel->GetPacketOverheadBytes());
    for (uint32_t j = 0; j < n; ++j)
    {
        Ptr<FpgaAggregatorNetDevice> fpga = m_topology.GetFpga(j);
        if (!fpga)
        {
            continue;
        }
        double spread = 0;
        double rate = 0;
        for (uint32_t t = 0; t < m_plans.size(); ++t)
        {
            double nearest = std::numeric_limits<double>::infinity();
            double farthest = 0;
            for (const SyncStream& stream : m_plans[t].streams)
            {
                if (stream.algorithm != SyncAlgorithm::DIRECT ||
                    !std::binary_search(stream.receivers.begin(), stream.receivers.end(), j))
                {
                    continue;
                }
                const double d = routing.GetIslandDelay(stream.sender, j);
                nearest = std::min(nearest, d);
                farthest = std::max(farthest, d);
                rate = std::max(rate, stream.rateBps);
            }
            if (farthest > 0)
            {
                spread = std::max(spread, farthest - nearest);
            }
        }
        if (rate <= 0)
        {
            continue;
        }
        double stagger = 0;
        for (const SyncRoundEstimate& plan : m_plans)
        {
            stagger = std::max(stagger, plan.syncTime);
        }
        // Tuned: the need plus the margin. Untuned: the attributes must cover the need itself,
        // or the run would flush partial aggregates (or pass chunks through) that the plan
        // assumed folded: say so now, not as resends and queue drops later.
        const Time hold = Seconds(spread + stagger) + (m_tuneFpgas ? m_fpgaTimeoutMargin : Time(0));
        const std::string name = m_topology.GetTopology().GetIslands()[j].name;
        TimeValue timeout;
        fpga->GetAttribute("Timeout", timeout);
        if (timeout.Get() < hold)
        {
            if (!m_tuneFpgas)
            {
                std::ostringstream os;
                os << "TrainingHelper: the FPGA of island " << name << " has Timeout "
                   << timeout.Get().As(Time::MS) << ", but the plan holds its slots up to "
                   << hold.As(Time::MS)
                   << " (the spread of its senders' delays and start times): raise Timeout or "
                      "let SetTuneFpgas size it";
                throw std::runtime_error(os.str());
            }
            fpga->SetAttribute("Timeout", TimeValue(hold));
        }
        const double needed =
            std::ceil(std::min(FPGA_SLOT_HEADROOM * hold.GetSeconds() * rate / packetBits,
                               2.0 * m_costModel->GetChunkCount(m_modelBytes)));
        UintegerValue slots;
        fpga->GetAttribute("SlotCount", slots);
        if (needed > slots.Get())
        {
            if (!m_tuneFpgas)
            {
                std::ostringstream os;
                os << "TrainingHelper: the FPGA of island " << name << " has SlotCount "
                   << slots.Get() << ", but the plan may keep up to " << needed
                   << " slots open at once: raise SlotCount or let SetTuneFpgas size it";
                throw std::runtime_error(os.str());
            }
            fpga->SetAttribute("SlotCount", UintegerValue(static_cast<uint32_t>(needed)));
        }
        NS_LOG_INFO("FPGA of island " << name << ": timeout " << hold.As(Time::MS) << ", slots "
                                      << std::max<double>(needed, slots.Get()));
    }
}

void
TrainingHelper::SizeQueues()
{
    // Streams paced at fixed rates leave at most one packet each in a queue they share, however
    // their phases fall (per window of time each brings at most one packet more than its rate
    // carries, and the rates fit the link); in-phase streams reach that bound. So a link
    // direction crossed by S planned streams needs room for S packets: with many islands,
    // more than a default queue holds (unicast copies across a continent's few long links).
    const WanRouting& routing = m_topology.GetRouting();
    std::vector<uint32_t> most(routing.GetResourceCount(), 0);
    for (const SyncRoundEstimate& plan : m_plans)
    {
        std::vector<uint32_t> streams(most.size(), 0);
        for (const SyncStream& stream : plan.streams)
        {
            for (const MaxMinFairShare::Usage& usage : stream.resources)
            {
                ++streams[usage.first];
            }
        }
        for (uint32_t r = 0; r < most.size(); ++r)
        {
            most[r] = std::max(most[r], streams[r]);
        }
    }
    const auto busiest = std::max_element(most.begin(), most.end());
    if (busiest == most.end())
    {
        return;
    }
    const uint32_t needed = QUEUE_HEADROOM * *busiest;
    const std::string where =
        routing.GetResourceName(static_cast<uint32_t>(busiest - most.begin()));
    for (const Ptr<NetDevice>& device : LinkDevices())
    {
        Ptr<PointToPointNetDevice> stock = DynamicCast<PointToPointNetDevice>(device);
        QueueSizeValue size;
        if (stock)
        {
            size.Set(stock->GetQueue()->GetMaxSize());
        }
        else
        {
            device->GetAttribute("TxQueueMaxSize", size);
        }
        if (size.Get().GetUnit() == QueueSizeUnit::PACKETS && size.Get().GetValue() >= needed)
        {
            continue;
        }
        if (!m_tuneQueues)
        {
            std::ostringstream os;
            os << "TrainingHelper: a transmit queue holds " << size.Get() << ", but up to "
               << *busiest << " planned streams share one link direction (" << where
               << "): in phase they queue one packet each; make queues hold at least " << needed
               << " packets (WanTopologyHelper::SetQueueSize) or let SetTuneQueues size them";
            throw std::runtime_error(os.str());
        }
        const QueueSize bigger(QueueSizeUnit::PACKETS, needed);
        if (stock)
        {
            stock->GetQueue()->SetMaxSize(bigger);
        }
        else
        {
            device->SetAttribute("TxQueueMaxSize", QueueSizeValue(bigger));
        }
    }
    NS_LOG_INFO("transmit queues hold at least " << needed << " packets: up to " << *busiest
                                                 << " streams share " << where);
}

std::vector<Ptr<NetDevice>>
TrainingHelper::LinkDevices()
{
    // Every point-to-point device of the simulation: hosts, FPGAs and routers.
    std::vector<Ptr<NetDevice>> devices;
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        Ptr<Node> node = NodeList::GetNode(n);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<NetDevice> device = node->GetDevice(d);
            if (DynamicCast<WanLinkNetDevice>(device) || DynamicCast<PointToPointNetDevice>(device))
            {
                devices.push_back(device);
            }
        }
    }
    return devices;
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

void
TrainingHelper::ConnectCounters()
{
    // Queue drops on every point-to-point device of the simulation.
    for (const Ptr<NetDevice>& device : LinkDevices())
    {
        // MacTxDrop fires once per packet a full queue refuses (the stock device's queue also
        // fires its own Drop for it: counting both would count it twice).
        device->TraceConnectWithoutContext("MacTxDrop",
                                           MakeCallback(&TrainingHelper::OnQueueDrop, this));
        device->TraceConnectWithoutContext("PhyRxDrop",
                                           MakeCallback(&TrainingHelper::OnLossDrop, this));
    }
    // Bytes per WAN link direction.
    const WanTopology& topology = m_topology.GetTopology();
    const auto& links = topology.GetLinks();
    const auto& cities = topology.GetCities();
    m_links.clear();
    m_linkFraming.clear();
    for (uint32_t l = 0; l < links.size(); ++l)
    {
        for (uint32_t end = 0; end < 2; ++end)
        {
            const uint32_t from = end == 0 ? links[l].a : links[l].b;
            const uint32_t to = end == 0 ? links[l].b : links[l].a;
            TrainingLinkUsage usage;
            usage.link = cities[links[l].a].code + "-" + cities[links[l].b].code;
            usage.from = cities[from].code;
            usage.to = cities[to].code;
            usage.rateBps = static_cast<double>(links[l].bps);
            const uint32_t index = m_links.size();
            m_links.push_back(usage);
            const Ptr<NetDevice> device = m_topology.GetWanDevice(WanHop{l, from, to});
            // A stock device's packets carry their PPP header; a WanLinkNetDevice only counts
            // its framing in the transmission time.
            UintegerValue framing(0);
            if (DynamicCast<WanLinkNetDevice>(device))
            {
                device->GetAttribute("FramingBytes", framing);
            }
            m_linkFraming.push_back(static_cast<uint32_t>(framing.Get()));
            device->TraceConnectWithoutContext(
                "PhyTxEnd",
                MakeBoundCallback(&TrainingHelper::OnWanTxStatic, this, index));
        }
    }
}

void
TrainingHelper::OnWanTxStatic(TrainingHelper* helper, uint32_t index, Ptr<const Packet> packet)
{
    helper->OnWanTx(index, packet);
}

void
TrainingHelper::OnWanTx(uint32_t index, Ptr<const Packet> packet)
{
    m_links[index].bytes += packet->GetSize() + m_linkFraming[index];
}

void
TrainingHelper::OnQueueDrop(Ptr<const Packet> packet)
{
    ++m_queueDrops;
}

void
TrainingHelper::OnLossDrop(Ptr<const Packet> packet)
{
    ++m_lossDrops;
}

void
TrainingHelper::OnSyncFinished(uint32_t island, uint32_t round, Time duration)
{
    if (round >= m_finishedPerRound.size())
    {
        return;
    }
    if (!m_snapshots.empty())
    {
        m_snapshots[round][island] = m_workload->GetParameters(island);
    }
    if (++m_finishedPerRound[round] < m_localIslands)
    {
        return;
    }
    m_roundDoneTime[round] = Simulator::Now().GetSeconds();
    while (m_roundsDone < m_finishedPerRound.size() &&
           m_finishedPerRound[m_roundsDone] == m_localIslands)
    {
        ++m_roundsDone;
    }
    if (!m_snapshots.empty())
    {
        // Consensus over the parameters each island held right after this round.
        const auto& snap = m_snapshots[round];
        const uint32_t n = snap.size();
        const size_t dim = snap.empty() ? 0 : snap[0].size();
        std::vector<double> mean(dim, 0.0);
        for (const auto& x : snap)
        {
            for (size_t d = 0; d < dim; ++d)
            {
                mean[d] += x[d] / n;
            }
        }
        double spread = 0;
        double loss = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            for (size_t d = 0; d < dim; ++d)
            {
                const double e = snap[i][d] - mean[d];
                spread += e * e;
            }
            loss += m_workload->Loss(i, mean) / n;
        }
        TrainingConsensusPoint point;
        point.round = round;
        point.time = m_roundDoneTime[round];
        point.consensusDistance = dim == 0 ? 0 : std::sqrt(spread / (double(n) * dim));
        point.loss = loss;
        m_consensus.push_back(point);
        m_snapshots[round].clear();
        m_snapshots[round].shrink_to_fit();
    }
    PrintProgress(false);
}

void
TrainingHelper::PrintProgress(bool force)
{
    if (m_progressSeconds <= 0 && !force)
    {
        return;
    }
    const auto now = std::chrono::steady_clock::now();
    const double sinceLast = std::chrono::duration<double>(now - m_lastProgress).count();
    if (!force && sinceLast < m_progressSeconds)
    {
        return;
    }
    m_lastProgress = now;
    const double wall = std::chrono::duration<double>(now - m_wallStart).count();
    std::ostringstream os;
    os << "progress: ";
    if (!m_progressLabel.empty())
    {
        os << m_progressLabel << " ";
    }
    os << "round " << m_roundsDone << "/" << m_rounds << std::fixed << std::setprecision(2)
       << " sim=" << Simulator::Now().GetSeconds() << "s wall=" << std::setprecision(1) << wall
       << "s";
    std::cerr << os.str() << std::endl;
}

void
TrainingHelper::Run()
{
    NS_ABORT_MSG_IF(!m_installed, "TrainingHelper::Run before Install");
    m_wallStart = std::chrono::steady_clock::now();
    m_lastProgress = m_wallStart;
    if (!m_schedulerType.empty())
    {
        ObjectFactory scheduler;
        scheduler.SetTypeId(m_schedulerType);
        Simulator::SetScheduler(scheduler);
    }
    std::vector<std::vector<TrainingRoundRecord>> islandRecords(m_apps.size());
    m_fpga = TrainingFpgaCounters();
    m_parallel = TrainingParallelInfo();
    m_parallel.ranks = WanMpi::IsSimulating() ? WanMpi::GetSize() : 1;
    m_parallel.simulator = WanMpi::GetSimulator();
    const bool distributed = m_parallel.ranks > 1;
    if (distributed)
    {
        const WanTopology& topology = m_topology.GetTopology();
        m_parallel.cityRanks = m_topology.GetCitySystemIds();
        m_parallel.cityRanks.resize(topology.GetCities().size(), 0);
        m_parallel.lookahead =
            WanPartition::GetLookahead(topology, m_parallel.cityRanks).GetSeconds();
        NS_LOG_INFO("rank " << WanMpi::GetRank() << " of " << m_parallel.ranks << " ("
                            << m_parallel.simulator << "): " << m_localIslands
                            << " islands, partition "
                            << WanPartition::Describe(topology, m_parallel.cityRanks));
        if (WanMpi::GetRank() != 0)
        {
            m_progressSeconds = 0;
        }
    }
    if (distributed && m_parallel.simulator == WanMpi::NULL_MESSAGE)
    {
        Simulator::Schedule(Seconds(TERMINATION_CHECK_SECONDS),
                            &TrainingHelper::CheckTermination,
                            this);
    }
    Simulator::Run();
    std::vector<uint32_t> localIslands;
    for (uint32_t i = 0; i < m_apps.size(); ++i)
    {
        if (IsLocal(m_topology.GetIslandNode(i)))
        {
            islandRecords[i] = m_apps[i]->GetRecords();
            localIslands.push_back(i);
        }
    }
    AddFpgaCounters(localIslands);
    if (distributed)
    {
        GatherRanks(localIslands, islandRecords);
        if (WanMpi::GetRank() != 0)
        {
            // Rank 0 holds the results; here they stay empty.
            m_records.clear();
            m_simulatedTime = 0;
            return;
        }
    }
    if (m_progressSeconds > 0)
    {
        PrintProgress(true);
    }
    m_records.clear();
    m_simulatedTime = 0;
    for (uint32_t r = 0; r < m_rounds; ++r)
    {
        for (const auto& records : islandRecords)
        {
            const TrainingRoundRecord& record = records.at(r);
            m_records.push_back(record);
            if (record.finished)
            {
                m_simulatedTime = std::max(m_simulatedTime, record.syncEnd.GetSeconds());
            }
        }
    }
}

bool
TrainingHelper::IsLocallyQuiet() const
{
    if (!m_finishedPerRound.empty() && m_finishedPerRound.back() < m_localIslands)
    {
        return false;
    }
    for (uint32_t i = 0; i < m_apps.size(); ++i)
    {
        const Ptr<FpgaAggregatorNetDevice> fpga = m_topology.GetFpga(i);
        if (fpga && IsLocal(fpga->GetNode()) && fpga->GetSlotsInUse() > 0)
        {
            return false;
        }
    }
    for (const Ptr<NetDevice>& device : LinkDevices())
    {
        if (!IsLocal(device->GetNode()))
        {
            continue;
        }
        if (const Ptr<WanLinkNetDevice> wan = DynamicCast<WanLinkNetDevice>(device))
        {
            if (!wan->IsIdle())
            {
                return false;
            }
        }
        else if (const Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(device))
        {
            if (!p2p->GetQueue()->IsEmpty())
            {
                return false;
            }
        }
    }
    return true;
}

void
TrainingHelper::CheckTermination()
{
    if (WanMpi::AllTrue(IsLocallyQuiet()))
    {
        NS_LOG_INFO("every rank is quiet: stop at " << Simulator::Now().As(Time::S));
        Simulator::Stop();
        return;
    }
    Simulator::Schedule(Seconds(TERMINATION_CHECK_SECONDS),
                        &TrainingHelper::CheckTermination,
                        this);
}

void
TrainingHelper::AddFpgaCounters(const std::vector<uint32_t>& islands)
{
    for (uint32_t i : islands)
    {
        const Ptr<FpgaAggregatorNetDevice> fpga = m_topology.GetFpga(i);
        if (!fpga)
        {
            continue;
        }
        m_fpga.aggregated += fpga->GetAggregatedCount();
        m_fpga.duplicates += fpga->GetDuplicateCount();
        m_fpga.complete += fpga->GetCompleteCount();
        m_fpga.partial += fpga->GetPartialCount();
        m_fpga.overflows += fpga->GetPassThroughCount(FpgaAggregatorNetDevice::PASS_OVERFLOW);
        m_fpga.mismatches += fpga->GetPassThroughCount(FpgaAggregatorNetDevice::PASS_MISMATCH);
        m_fpga.wraps += fpga->GetWrapCount();
    }
}

void
TrainingHelper::GatherRanks(const std::vector<uint32_t>& localIslands,
                            std::vector<std::vector<TrainingRoundRecord>>& islandRecords)
{
    const std::vector<std::string> results =
        WanMpi::Gather(EncodeRankResults(localIslands, WanMpi::GetPacketsSent()));
    m_parallel.packetsBetweenRanks += WanMpi::GetPacketsSent();
    for (uint32_t r = 1; r < results.size(); ++r)
    {
        DecodeRankResults(results[r], islandRecords);
    }
    if (WanMpi::GetRank() == 0)
    {
        m_localIslands = m_apps.size();
    }
}

std::string
TrainingHelper::EncodeRankResults(const std::vector<uint32_t>& islands, uint64_t packetsSent) const
{
    std::ostringstream os;
    os << packetsSent << " " << m_queueDrops << " " << m_lossDrops << " " << m_fpga.aggregated
       << " " << m_fpga.duplicates << " " << m_fpga.complete << " " << m_fpga.partial << " "
       << m_fpga.overflows << " " << m_fpga.mismatches << " " << m_fpga.wraps << " "
       << m_links.size();
    for (const TrainingLinkUsage& usage : m_links)
    {
        os << " " << usage.bytes;
    }
    const auto writeList = [&os](const std::vector<uint32_t>& list) {
        os << " " << list.size();
        for (uint32_t value : list)
        {
            os << " " << value;
        }
    };
    os << " " << islands.size();
    for (uint32_t island : islands)
    {
        const std::vector<TrainingRoundRecord>& records = m_apps[island]->GetRecords();
        os << " " << island << " " << records.size();
        for (const TrainingRoundRecord& r : records)
        {
            os << " " << r.island << " " << r.round << " " << r.clique;
            writeList(r.members);
            os << " " << r.computeStart.GetTimeStep() << " " << r.syncStart.GetTimeStep() << " "
               << r.syncEnd.GetTimeStep() << " " << r.bytesSent << " " << r.bytesReceived << " "
               << r.packetsSent << " " << r.packetsReceived << " " << r.retransmissions << " "
               << r.controlPacketsSent << " " << r.controlPacketsReceived;
            writeList(r.lostPeers);
            os << " " << (r.finished ? 1 : 0);
        }
    }
    return os.str();
}

void
TrainingHelper::DecodeRankResults(const std::string& text,
                                  std::vector<std::vector<TrainingRoundRecord>>& islandRecords)
{
    std::istringstream is(text);
    const auto next = [&is]() {
        uint64_t value = 0;
        if (!(is >> value))
        {
            throw std::runtime_error("parallel run: malformed results from another rank");
        }
        return value;
    };
    const auto nextTime = [&is]() {
        int64_t step = 0;
        if (!(is >> step))
        {
            throw std::runtime_error("parallel run: malformed results from another rank");
        }
        return TimeStep(step);
    };
    const auto nextList = [&next](std::vector<uint32_t>& list) {
        list.resize(next());
        for (uint32_t& value : list)
        {
            value = static_cast<uint32_t>(next());
        }
    };
    m_parallel.packetsBetweenRanks += next();
    m_queueDrops += next();
    m_lossDrops += next();
    for (uint64_t* counter : {&m_fpga.aggregated,
                              &m_fpga.duplicates,
                              &m_fpga.complete,
                              &m_fpga.partial,
                              &m_fpga.overflows,
                              &m_fpga.mismatches,
                              &m_fpga.wraps})
    {
        *counter += next();
    }
    if (next() != m_links.size())
    {
        throw std::runtime_error("parallel run: another rank has a different link list");
    }
    for (TrainingLinkUsage& usage : m_links)
    {
        usage.bytes += next();
    }
    const uint64_t islands = next();
    for (uint64_t k = 0; k < islands; ++k)
    {
        const uint64_t island = next();
        if (island >= islandRecords.size())
        {
            throw std::runtime_error("parallel run: results of an unknown island");
        }
        std::vector<TrainingRoundRecord> records(next());
        for (TrainingRoundRecord& r : records)
        {
            r.island = next();
            r.round = next();
            r.clique = next();
            nextList(r.members);
            r.computeStart = nextTime();
            r.syncStart = nextTime();
            r.syncEnd = nextTime();
            r.bytesSent = next();
            r.bytesReceived = next();
            r.packetsSent = next();
            r.packetsReceived = next();
            r.retransmissions = next();
            r.controlPacketsSent = next();
            r.controlPacketsReceived = next();
            nextList(r.lostPeers);
            r.finished = next() == 1;
        }
        islandRecords[island] = std::move(records);
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

const std::vector<TrainingRoundRecord>&
TrainingHelper::GetRecords() const
{
    return m_records;
}

const std::vector<TrainingConsensusPoint>&
TrainingHelper::GetConsensus() const
{
    return m_consensus;
}

const std::vector<TrainingLinkUsage>&
TrainingHelper::GetLinkUsage() const
{
    return m_links;
}

uint64_t
TrainingHelper::GetQueueDrops() const
{
    return m_queueDrops;
}

uint64_t
TrainingHelper::GetLossDrops() const
{
    return m_lossDrops;
}

const TrainingFpgaCounters&
TrainingHelper::GetFpgaCounters() const
{
    return m_fpga;
}

double
TrainingHelper::GetSimulatedTime() const
{
    return m_simulatedTime;
}

double
TrainingHelper::ReplayRounds(std::vector<std::vector<double>>* notBefore) const
{
    // Like for like with the simulated mean sync: replay the rounds with the cost model's
    // plans. Islands start syncing when their own compute ends, so from the second round on
    // they start at different times; an island's sync ends when its own streams are sent and
    // every peer's stream has arrived (sender's start + transfer + path delay), or, in a ring
    // clique, when its own chain of steps ends.
    //
    // A round's rates assume its receivers' ingress carries that round only. A receiver still
    // receiving its previous round from another sender (a partner of an earlier clique, or a
    // slower peer) would carry both, so an island holds its sending until its first packet
    // would arrive after the last of those (its own earlier stream is no conflict: it sends
    // one round after the other).
    const WanRouting& routing = m_topology.GetRouting();
    const uint32_t n = m_topology.GetTopology().GetIslands().size();
    /** One stream's last arrival at a receiver: (sender, time). */
    using Arrival = std::pair<uint32_t, double>;
    std::vector<std::vector<Arrival>> previous(n);
    std::vector<std::vector<Arrival>> arrivals(n);
    std::vector<double> end(n, 0.0);
    std::vector<double> start(n);
    std::vector<double> go(n);
    std::vector<double> finish(n);
    if (notBefore != nullptr)
    {
        notBefore->assign(m_rounds, std::vector<double>(n, 0.0));
    }
    double sum = 0;
    uint64_t count = 0;
    for (uint32_t r = 0; r < m_rounds; ++r)
    {
        const SyncRoundEstimate& plan = m_plans.at(r % m_plans.size());
        for (uint32_t i = 0; i < n; ++i)
        {
            start[i] = end[i] + m_computeTime.GetSeconds() * m_multipliers[i];
            go[i] = start[i];
        }
        for (const SyncStream& stream : plan.streams)
        {
            const uint32_t i = stream.sender;
            for (uint32_t j : stream.receivers)
            {
                for (const Arrival& other : previous[j])
                {
                    if (other.first != i)
                    {
                        go[i] = std::max(go[i], other.second - routing.GetIslandDelay(i, j));
                    }
                }
            }
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            if (notBefore != nullptr && go[i] > start[i])
            {
                (*notBefore)[r][i] = go[i];
            }
            finish[i] = go[i];
            arrivals[i].clear();
        }
        for (const SyncStream& stream : plan.streams)
        {
            const uint32_t i = stream.sender;
            if (stream.algorithm == SyncAlgorithm::RING)
            {
                // A member's chain of ring steps, as the cost model times it (over the ring the
                // members' start differences cancel in the mean); its successor's chain ends
                // with the last step from it.
                finish[i] = std::max(finish[i], go[i] + plan.islandTime.at(i));
                continue;
            }
            const double sent = go[i] + stream.finishTime - stream.startTime - stream.delay;
            finish[i] = std::max(finish[i], sent);
            for (uint32_t j : stream.receivers)
            {
                const double arrival = sent + routing.GetIslandDelay(i, j);
                finish[j] = std::max(finish[j], arrival);
                arrivals[j].emplace_back(i, arrival);
            }
        }
        for (const SyncStream& stream : plan.streams)
        {
            if (stream.algorithm == SyncAlgorithm::RING)
            {
                for (uint32_t j : stream.receivers)
                {
                    arrivals[j].emplace_back(stream.sender, finish[j]);
                }
            }
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            sum += finish[i] - start[i];
            ++count;
        }
        end = finish;
        previous.swap(arrivals);
    }
    return count > 0 ? sum / count : 0;
}

TrainingSummary
TrainingHelper::Summarise(double epsilon) const
{
    TrainingSummary s;
    s.period = m_schedule.GetPeriod();
    s.rounds = m_rounds;
    const uint32_t n = m_apps.size();
    // Round time: how far the slowest island's end of round advanced.
    std::vector<double> roundTimes;
    double previousEnd = 0;
    double syncSum = 0;
    double computeSum = 0;
    uint64_t finished = 0;
    for (uint32_t r = 0; r < m_rounds; ++r)
    {
        double end = 0;
        bool all = true;
        for (uint32_t i = 0; i < n; ++i)
        {
            const TrainingRoundRecord& record = m_records.at(r * n + i);
            all = all && record.finished;
            if (record.finished)
            {
                end = std::max(end, record.syncEnd.GetSeconds());
                syncSum += (record.syncEnd - record.syncStart).GetSeconds();
                computeSum += (record.syncStart - record.computeStart).GetSeconds();
                ++finished;
            }
            s.retransmissions += record.retransmissions;
            s.lostPeers += record.lostPeers.size();
        }
        if (all)
        {
            roundTimes.push_back(end - previousEnd);
            previousEnd = end;
        }
    }
    if (!roundTimes.empty())
    {
        double sum = 0;
        for (double t : roundTimes)
        {
            sum += t;
        }
        s.meanRound = sum / roundTimes.size();
        std::vector<double> sorted = roundTimes;
        std::sort(sorted.begin(), sorted.end());
        s.p50Round = Quantile(sorted, P50);
        s.p99Round = Quantile(sorted, P99);
    }
    if (finished > 0)
    {
        s.meanSync = syncSum / finished;
        s.meanCompute = computeSum / finished;
    }
    s.estimatedSync = ReplayRounds(nullptr);
    s.totalTime = m_simulatedTime;
    const uint64_t rounds = m_schedule.GetRoundsToEpsilon(epsilon);
    if (rounds != CliqueSchedule::UNREACHABLE)
    {
        s.roundsToEpsilon = rounds;
        s.timeToEpsilon = rounds * s.meanRound;
    }
    s.queueDrops = m_queueDrops;
    s.lossDrops = m_lossDrops;
    s.fpga = m_fpga;
    s.heldStarts = m_heldStarts;
    return s;
}

void
TrainingHelper::WriteRoundsHeader(std::ostream& os)
{
    os << "capabilities,schedule,island,round,clique,members,compute_start_s,sync_start_s,"
          "sync_end_s,bytes_sent,bytes_received,packets_sent,packets_received,retransmissions,"
          "lost_peers,control_packets_sent,control_packets_received\n";
}

void
TrainingHelper::WriteRounds(std::ostream& os,
                            const std::string& capabilities,
                            const std::string& schedule) const
{
    const auto& islands = m_topology.GetTopology().GetIslands();
    for (const TrainingRoundRecord& record : m_records)
    {
        std::string members;
        for (uint32_t m : record.members)
        {
            members += (members.empty() ? "" : " ") + islands[m].name;
        }
        std::string lost;
        for (uint32_t m : record.lostPeers)
        {
            lost += (lost.empty() ? "" : " ") + islands[m].name;
        }
        os << capabilities << "," << schedule << "," << islands[record.island].name << ","
           << record.round << "," << record.clique << "," << members << ",";
        if (record.finished)
        {
            os << FormatSeconds(record.computeStart) << "," << FormatSeconds(record.syncStart)
               << "," << FormatSeconds(record.syncEnd);
        }
        else
        {
            os << ",,";
        }
        os << "," << record.bytesSent << "," << record.bytesReceived << "," << record.packetsSent
           << "," << record.packetsReceived << "," << record.retransmissions << "," << lost << ","
           << record.controlPacketsSent << "," << record.controlPacketsReceived << "\n";
    }
}

void
TrainingHelper::WriteConsensusHeader(std::ostream& os)
{
    os << "capabilities,schedule,round,time_s,consensus_distance,loss\n";
}

void
TrainingHelper::WriteConsensus(std::ostream& os,
                               const std::string& capabilities,
                               const std::string& schedule) const
{
    for (const TrainingConsensusPoint& p : m_consensus)
    {
        os << capabilities << "," << schedule << "," << p.round << ","
           << FormatSeconds(Seconds(p.time)) << "," << FormatDouble(p.consensusDistance) << ","
           << FormatDouble(p.loss) << "\n";
    }
}

void
TrainingHelper::WriteLinksHeader(std::ostream& os)
{
    os << "capabilities,schedule,link,from,to,bytes,utilisation\n";
}

void
TrainingHelper::WriteLinks(std::ostream& os,
                           const std::string& capabilities,
                           const std::string& schedule) const
{
    for (const TrainingLinkUsage& link : m_links)
    {
        const double utilisation = m_simulatedTime > 0 && link.rateBps > 0
                                       ? link.bytes * 8.0 / (link.rateBps * m_simulatedTime)
                                       : 0.0;
        os << capabilities << "," << schedule << "," << link.link << "," << link.from << ","
           << link.to << "," << link.bytes << "," << FormatDouble(utilisation) << "\n";
    }
}

} // namespace ns3
