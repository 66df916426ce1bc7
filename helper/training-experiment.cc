/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-experiment.h"

#include "training-helper.h"
#include "training-planner.h"
#include "training-rank-results.h"

#include "ns3/callback.h"
#include "ns3/fpga-aggregator-net-device.h"
#include "ns3/link-port.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/wan-mpi.h"
#include "ns3/wan-partition.h"
#include "ns3/wan-router-net-device.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingExperiment");

namespace
{

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

} // namespace

bool
TrainingSummary::IsComplete() const
{
    return unfinishedRounds == 0 && lostPeers == 0;
}

TrainingExperiment::TrainingExperiment(TrainingHelper& training)
    : m_training(training),
      m_rounds(training.GetRounds()),
      m_schedulerType(DEFAULT_SCHEDULER),
      m_localIslands(0),
      m_roundsDone(0),
      m_queueDrops(0),
      m_lossDrops(0),
      m_simulatedTime(0)
{
    if (!training.IsInstalled())
    {
        throw std::logic_error("TrainingExperiment: the TrainingHelper is not installed");
    }
    WanTopologyHelper& wan = training.GetTopologyHelper();
    const uint32_t n = wan.GetTopology().GetIslands().size();
    for (uint32_t i = 0; i < n; ++i)
    {
        training.GetApplication(i)->TraceConnectWithoutContext(
            "SyncFinished",
            MakeCallback(&TrainingExperiment::OnSyncFinished, this));
        if (TrainingHelper::IsLocal(wan.GetIslandNode(i)))
        {
            ++m_localIslands;
        }
    }
    const Ptr<TrainingWorkload> workload = training.GetWorkload();
    const bool real = workload && workload->IsReal();
    m_finishedPerRound.assign(m_rounds, 0);
    m_roundDoneTime.assign(m_rounds, 0.0);
    m_snapshots.assign(real ? m_rounds : 0, std::vector<std::vector<double>>(n));
    ConnectCounters();
}

TrainingExperiment::~TrainingExperiment() = default;

void
TrainingExperiment::SetSchedulerType(const std::string& type)
{
    m_schedulerType = type;
}

void
TrainingExperiment::SetProgress(const std::string& label, double seconds)
{
    m_progressLabel = label;
    m_progress.SetPeriod(seconds);
}

void
TrainingExperiment::SetMaxSimTime(Time limit)
{
    m_limits.SetMaxSimTime(limit);
}

void
TrainingExperiment::SetLongRoundWarning(Time threshold)
{
    m_longRound = threshold;
}

std::string
TrainingExperiment::GetLongRoundWarning() const
{
    if (!m_longRound.IsStrictlyPositive())
    {
        return "";
    }
    return TrainingPlanner::DescribeLongRound(m_training.GetCostModel()->GetRouting(),
                                              m_training.GetPlans(),
                                              m_longRound,
                                              m_limits.GetMaxSimTime());
}

void
TrainingExperiment::SetWallDeadline(std::chrono::steady_clock::time_point deadline)
{
    m_limits.SetWallDeadline(deadline);
}

const std::string&
TrainingExperiment::GetStoppedBy() const
{
    return m_limits.GetStoppedBy();
}

void
TrainingExperiment::ConnectCounters()
{
    // Queue drops on every point-to-point device of the simulation.
    for (const Ptr<NetDevice>& device : TrainingHelper::GetLinkDevices())
    {
        // MacTxDrop fires once per packet a full queue refuses (the stock device's queue also
        // fires its own Drop for it: counting both would count it twice).
        device->TraceConnectWithoutContext("MacTxDrop",
                                           MakeCallback(&TrainingExperiment::OnQueueDrop, this));
        device->TraceConnectWithoutContext("PhyRxDrop",
                                           MakeCallback(&TrainingExperiment::OnLossDrop, this));
    }
    // Bytes per WAN link direction.
    WanTopologyHelper& wan = m_training.GetTopologyHelper();
    const WanTopology& topology = wan.GetTopology();
    const auto& links = topology.GetLinks();
    const auto& cities = topology.GetCities();
    m_links.clear();
    m_linkFraming.clear();
    m_lastWanFrame = Time(0);
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
            const Ptr<NetDevice> device = wan.GetWanDevice(WanHop{l, from, to});
            m_linkFraming.push_back(LinkPort::GetUntracedFramingBytes(device));
            device->TraceConnectWithoutContext(
                "PhyTxEnd",
                MakeBoundCallback(&TrainingExperiment::OnWanTxStatic, this, index));
        }
    }
}

void
TrainingExperiment::OnWanTxStatic(TrainingExperiment* experiment,
                                  uint32_t index,
                                  Ptr<const Packet> packet)
{
    experiment->OnWanTx(index, packet);
}

void
TrainingExperiment::OnWanTx(uint32_t index, Ptr<const Packet> packet)
{
    m_links[index].bytes += packet->GetSize() + m_linkFraming[index];
    m_lastWanFrame = Simulator::Now(); // PhyTxEnd: the frame's last bit left
}

void
TrainingExperiment::OnQueueDrop(Ptr<const Packet> packet)
{
    ++m_queueDrops;
}

void
TrainingExperiment::OnLossDrop(Ptr<const Packet> packet)
{
    ++m_lossDrops;
}

void
TrainingExperiment::OnSyncFinished(uint32_t island, uint32_t round, Time duration)
{
    if (round >= m_finishedPerRound.size())
    {
        return;
    }
    if (!m_snapshots.empty())
    {
        m_snapshots[round][island] = m_training.GetWorkload()->GetParameters(island);
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
    if (m_roundsDone == m_rounds && m_parallel.ranks == 1 && !m_otherTraffic)
    {
        // Every round is done: let the run end by itself rather than at the limit. (Ranks of
        // a distributed run stop at the limit together, whatever their own progress; other
        // traffic may run on for as long as its flows say, so the limit stays.)
        m_limits.Disarm();
    }
    if (!m_snapshots.empty())
    {
        AddConsensusPoint(round);
    }
    PrintProgress(false);
}

void
TrainingExperiment::AddConsensusPoint(uint32_t round)
{
    // Consensus over the parameters each island held right after this round.
    const Ptr<TrainingWorkload> workload = m_training.GetWorkload();
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
        loss += workload->Loss(i, mean) / n;
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

void
TrainingExperiment::PrintProgress(bool force)
{
    if (!force && !m_progress.TakeTurn())
    {
        return;
    }
    const double wall = m_progress.GetElapsedSeconds();
    std::ostringstream os;
    os << "progress: ";
    if (!m_progressLabel.empty())
    {
        os << m_progressLabel << " ";
    }
    // A limit that found nothing left moved the clock to itself: show when the work ended.
    const double sim =
        m_limits.IsClockAtIdleLimit() ? GetLinkCountingTime() : Simulator::Now().GetSeconds();
    os << "round " << m_roundsDone << "/" << m_rounds << std::fixed << std::setprecision(2)
       << " sim=" << sim << "s wall=" << std::setprecision(1) << wall << "s";
    std::cerr << os.str() << std::endl;
}

void
TrainingExperiment::Run()
{
    NS_LOG_FUNCTION(this);
    m_progress.Start();
    PrepareRun();
    m_limits.Arm();
    if (m_parallel.ranks > 1)
    {
        Simulator::Run(); // the ranks stop at one simulated time: no wall-clock watchdog
    }
    else
    {
        m_limits.Run();
    }
    CheckApplications();
    std::vector<std::vector<TrainingRoundRecord>> islandRecords;
    const std::vector<uint32_t> localIslands = CollectLocalRecords(islandRecords);
    AddDeviceCounters(localIslands);
    if (m_parallel.ranks > 1)
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
    FlattenRecords(islandRecords);
    if (m_progress.IsOn())
    {
        PrintProgress(true);
    }
}

void
TrainingExperiment::PrepareRun()
{
    if (!m_schedulerType.empty())
    {
        ObjectFactory scheduler;
        scheduler.SetTypeId(m_schedulerType);
        Simulator::SetScheduler(scheduler);
    }
    WanTopologyHelper& wan = m_training.GetTopologyHelper();
    m_fpga = TrainingFpgaCounters();
    m_parallel = TrainingParallelInfo();
    m_parallel.ranks = WanMpi::IsSimulating() ? WanMpi::GetSize() : 1;
    m_parallel.simulator = WanMpi::GetSimulator();
    const bool distributed = m_parallel.ranks > 1;
    if (distributed)
    {
        const WanTopology& topology = wan.GetTopology();
        m_parallel.cityRanks = wan.GetCitySystemIds();
        m_parallel.cityRanks.resize(topology.GetCities().size(), 0);
        m_parallel.lookahead =
            WanPartition::GetLookahead(topology, m_parallel.cityRanks).GetSeconds();
        NS_LOG_INFO("rank " << WanMpi::GetRank() << " of " << m_parallel.ranks << " ("
                            << m_parallel.simulator << "): " << m_localIslands
                            << " islands, partition "
                            << WanPartition::Describe(topology, m_parallel.cityRanks));
        if (WanMpi::GetRank() != 0)
        {
            m_progress.SetPeriod(0);
        }
    }
    if (distributed && m_parallel.simulator == WanMpi::NULL_MESSAGE)
    {
        Simulator::Schedule(Seconds(TERMINATION_CHECK_SECONDS),
                            &TrainingExperiment::CheckTermination,
                            this);
    }
    const std::string longRound = GetLongRoundWarning();
    if (!longRound.empty() && WanMpi::GetRank() == 0)
    {
        NS_LOG_WARN(longRound);
        std::cerr << "warning: " << (m_progressLabel.empty() ? "" : m_progressLabel + ": ")
                  << longRound << std::endl;
    }
}

void
TrainingExperiment::CheckApplications() const
{
    const uint32_t n = m_training.GetTopologyHelper().GetTopology().GetIslands().size();
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<TrainingApplication> app = m_training.GetApplication(i);
        if (app && !app->GetError().empty())
        {
            throw std::range_error(app->GetError());
        }
    }
}

std::vector<uint32_t>
TrainingExperiment::CollectLocalRecords(
    std::vector<std::vector<TrainingRoundRecord>>& islandRecords) const
{
    WanTopologyHelper& wan = m_training.GetTopologyHelper();
    const uint32_t n = wan.GetTopology().GetIslands().size();
    islandRecords.assign(n, {});
    std::vector<uint32_t> localIslands;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (TrainingHelper::IsLocal(wan.GetIslandNode(i)))
        {
            islandRecords[i] = m_training.GetApplication(i)->GetRecords();
            localIslands.push_back(i);
        }
    }
    return localIslands;
}

void
TrainingExperiment::FlattenRecords(
    const std::vector<std::vector<TrainingRoundRecord>>& islandRecords)
{
    m_records.clear();
    m_simulatedTime = 0;
    for (uint32_t r = 0; r < m_rounds; ++r)
    {
        for (uint32_t i = 0; i < islandRecords.size(); ++i)
        {
            // An application a limit stopped before it started has no records: unfinished.
            const auto& records = islandRecords[i];
            TrainingRoundRecord record;
            record.island = i;
            record.round = r;
            if (r < records.size())
            {
                record = records[r];
            }
            m_records.push_back(record);
            if (record.finished)
            {
                m_simulatedTime = std::max(m_simulatedTime, record.syncEnd.GetSeconds());
            }
        }
    }
}

bool
TrainingExperiment::IsLocallyQuiet() const
{
    if (!m_finishedPerRound.empty() && m_finishedPerRound.back() < m_localIslands)
    {
        return false;
    }
    if (m_training.HasLocalSlotsInUse())
    {
        return false;
    }
    for (const Ptr<NetDevice>& device : TrainingHelper::GetLinkDevices())
    {
        if (!TrainingHelper::IsLocal(device->GetNode()))
        {
            continue;
        }
        if (!LinkPort::IsIdle(device))
        {
            return false;
        }
    }
    return true;
}

void
TrainingExperiment::CheckTermination()
{
    if (WanMpi::AllTrue(IsLocallyQuiet()))
    {
        NS_LOG_INFO("every rank is quiet: stop at " << Simulator::Now().As(Time::S));
        Simulator::Stop();
        return;
    }
    Simulator::Schedule(Seconds(TERMINATION_CHECK_SECONDS),
                        &TrainingExperiment::CheckTermination,
                        this);
}

void
TrainingExperiment::AddDeviceCounters(const std::vector<uint32_t>& islands)
{
    m_routers = TrainingRouterCounters();
    WanTopologyHelper& wan = m_training.GetTopologyHelper();
    for (uint32_t i : islands)
    {
        if (const Ptr<FpgaAggregatorNetDevice> fpga = wan.GetFpga(i))
        {
            m_fpga.Add(fpga);
        }
    }
    for (uint32_t c = 0; c < wan.GetTopology().GetCities().size(); ++c)
    {
        const Ptr<WanRouterNetDevice> router = wan.GetRouter(c);
        if (router && TrainingHelper::IsLocal(router->GetNode()))
        {
            m_routers.Add(router);
        }
        const Ptr<TransitAggregatorNetDevice> transit = wan.GetTransit(c);
        if (transit && TrainingHelper::IsLocal(transit->GetNode()))
        {
            m_fpga.AddTransit(transit);
        }
    }
}

void
TrainingExperiment::GatherRanks(const std::vector<uint32_t>& localIslands,
                                std::vector<std::vector<TrainingRoundRecord>>& islandRecords)
{
    TrainingRankResults mine;
    mine.packetsSent = WanMpi::GetPacketsSent();
    mine.queueDrops = m_queueDrops;
    mine.lossDrops = m_lossDrops;
    mine.fpga = m_fpga;
    mine.routers = m_routers;
    for (const TrainingLinkUsage& usage : m_links)
    {
        mine.linkBytes.push_back(usage.bytes);
    }
    mine.lastLinkFrame = m_lastWanFrame;
    for (uint32_t island : localIslands)
    {
        mine.islands.emplace_back(island, islandRecords[island]);
    }
    const std::vector<std::string> results = WanMpi::Gather(mine.Encode());
    m_parallel.packetsBetweenRanks += mine.packetsSent;
    for (uint32_t r = 1; r < results.size(); ++r)
    {
        const TrainingRankResults other = TrainingRankResults::Decode(results[r]);
        m_parallel.packetsBetweenRanks += other.packetsSent;
        m_queueDrops += other.queueDrops;
        m_lossDrops += other.lossDrops;
        m_fpga.Add(other.fpga);
        m_routers.Add(other.routers);
        if (other.linkBytes.size() != m_links.size())
        {
            throw std::runtime_error("parallel run: another rank has a different link list");
        }
        for (uint32_t l = 0; l < m_links.size(); ++l)
        {
            m_links[l].bytes += other.linkBytes[l];
        }
        m_lastWanFrame = std::max(m_lastWanFrame, other.lastLinkFrame);
        for (const auto& [island, records] : other.islands)
        {
            if (island >= islandRecords.size())
            {
                throw std::runtime_error("parallel run: results of an unknown island");
            }
            islandRecords[island] = records;
        }
    }
    if (WanMpi::GetRank() == 0)
    {
        m_localIslands = islandRecords.size();
    }
}

const TrainingParallelInfo&
TrainingExperiment::GetParallelInfo() const
{
    return m_parallel;
}

const std::vector<TrainingRoundRecord>&
TrainingExperiment::GetRecords() const
{
    return m_records;
}

const std::vector<TrainingConsensusPoint>&
TrainingExperiment::GetConsensus() const
{
    return m_consensus;
}

const std::vector<TrainingLinkUsage>&
TrainingExperiment::GetLinkUsage() const
{
    return m_links;
}

uint64_t
TrainingExperiment::GetQueueDrops() const
{
    return m_queueDrops;
}

uint64_t
TrainingExperiment::GetLossDrops() const
{
    return m_lossDrops;
}

const TrainingFpgaCounters&
TrainingExperiment::GetFpgaCounters() const
{
    return m_fpga;
}

const TrainingRouterCounters&
TrainingExperiment::GetRouterCounters() const
{
    return m_routers;
}

double
TrainingExperiment::GetSimulatedTime() const
{
    return m_simulatedTime;
}

double
TrainingExperiment::GetLinkCountingTime() const
{
    return std::max(m_simulatedTime, m_lastWanFrame.GetSeconds());
}

const WanTopology&
TrainingExperiment::GetTopology() const
{
    return m_training.GetTopologyHelper().GetTopology();
}

uint32_t
TrainingExperiment::GetFragments() const
{
    return m_training.GetFragments();
}

void
TrainingExperiment::SetOtherTraffic(bool present)
{
    m_otherTraffic = present;
}

bool
TrainingExperiment::AreRoundsDone() const
{
    return m_roundsDone == m_rounds;
}

void
TrainingExperiment::SetWarmupRounds(uint32_t rounds)
{
    m_warmupRounds = rounds;
}

uint32_t
TrainingExperiment::GetWarmupRounds() const
{
    const uint32_t n = m_training.GetTopologyHelper().GetTopology().GetIslands().size();
    const uint32_t ran = n == 0 ? 0 : m_records.size() / n;
    return m_warmupRounds < ran ? m_warmupRounds : 0;
}

TrainingSummary
TrainingExperiment::Summarise(double epsilon) const
{
    TrainingSummary s;
    const CliqueSchedule& schedule = m_training.GetSchedule();
    s.period = schedule.GetPeriod();
    const TrainingApplication::Transport transport = m_training.GetTransport();
    s.transport = transport == TrainingApplication::TCP        ? "tcp"
                  : transport == TrainingApplication::ADAPTIVE ? "adaptive"
                                                               : "planned";
    s.transportNote = m_training.GetTransportNote();
    const uint32_t n = m_training.GetTopologyHelper().GetTopology().GetIslands().size();
    if (m_records.empty() || n == 0)
    {
        return s; // nothing run here: zero rounds
    }
    // Run() collects every island's record of every round.
    s.rounds = m_records.size() / n;
    const auto& islands = m_training.GetTopologyHelper().GetTopology().GetIslands();
    for (uint32_t i = 0; i < n; ++i)
    {
        s.lostPeersByIsland.emplace_back(islands[i].name, 0);
    }
    AddRoundFigures(s, n);
    s.estimatedSync = m_training.GetEstimatedSync();
    s.estimatedHiddenSync = m_training.GetEstimatedHiddenSync();
    s.totalTime = m_simulatedTime;
    const uint64_t rounds = schedule.GetRoundsToEpsilon(epsilon);
    if (rounds != CliqueSchedule::UNREACHABLE)
    {
        s.roundsToEpsilon = rounds; // the schedule's, whether or not a round finished
    }
    if (rounds != CliqueSchedule::UNREACHABLE && s.meanRound > 0)
    {
        s.timeToEpsilon = rounds * s.meanRound; // no round timed (a limit): unknown
    }
    s.queueDrops = m_queueDrops;
    s.lossDrops = m_lossDrops;
    s.fpga = m_fpga;
    s.routers = m_routers;
    // A limit that stopped a run whose rounds were all done changed nothing.
    s.stoppedBy = s.unfinishedRounds > 0 ? m_limits.GetStoppedBy() : "";
    s.heldStarts = m_training.GetHeldStarts();
    return s;
}

void
TrainingExperiment::AddRoundFigures(TrainingSummary& s, uint32_t n) const
{
    // Round time: how far the slowest island's end of round advanced; the warm-up rounds'
    // time is reported apart.
    s.warmupRounds = GetWarmupRounds();
    std::vector<double> roundTimes;
    double previousEnd = 0;
    double syncSum = 0;
    double computeSum = 0;
    double hiddenSum = 0;
    uint64_t finished = 0;
    for (uint32_t r = 0; r < s.rounds; ++r)
    {
        const bool warmup = r < s.warmupRounds;
        double end = 0;
        bool all = true;
        for (uint32_t i = 0; i < n; ++i)
        {
            const TrainingRoundRecord& record = m_records.at(r * n + i);
            all = all && record.finished;
            if (record.finished)
            {
                end = std::max(end, record.syncEnd.GetSeconds());
            }
            if (record.finished && !warmup)
            {
                syncSum += (record.syncEnd - record.syncStart).GetSeconds();
                computeSum += (record.syncStart - record.computeStart).GetSeconds();
                hiddenSum += record.hiddenSync.GetSeconds();
                ++finished;
            }
            s.retransmissions += record.retransmissions;
            s.lostPeers += record.lostPeers.size();
            s.lostPeersByIsland[i].second += record.lostPeers.size();
        }
        s.unfinishedRounds += all ? 0 : 1;
        if (!all)
        {
            continue;
        }
        if (warmup)
        {
            s.firstRound = end;
        }
        else
        {
            roundTimes.push_back(end - previousEnd);
        }
        previousEnd = end;
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
        s.meanHiddenSync = hiddenSum / finished;
    }
}

} // namespace ns3
