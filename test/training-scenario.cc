/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The scenario builder shared by the training-application and loss-recovery suites (see
 * training-scenario.h).
 */

#include "training-scenario.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/fpga-aggregator-net-device.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/ppp-header.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/training-helper.h"
#include "ns3/training-output.h"
#include "ns3/training-planner.h"
#include "ns3/training-workload.h"
#include "ns3/uinteger.h"
#include "ns3/wan-router-net-device.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-wire.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

namespace ns3
{
namespace training_test
{

namespace
{

/**
 * \brief A topology of \p cities cities in a ring (or a line for 2), \p perCity islands each.
 * \param cities number of cities \param perCity islands per city \param caps capabilities
 * \param wanDelay delay of every WAN link, s
 * \param farDelay if positive, the delay of the last city's links instead, s
 * \param wanBps rate of every WAN link, bit/s
 * \return the topology
 */
WanTopology
MakeTopology(uint32_t cities,
             uint32_t perCity,
             const std::string& caps,
             double wanDelay,
             double farDelay = 0,
             uint64_t wanBps = WAN_BPS)
{
    WanTopology t;
    for (uint32_t c = 0; c < cities; ++c)
    {
        WanCity city;
        city.code = "C" + std::to_string(c);
        city.name = city.code;
        t.AddCity(city);
    }
    // With farDelay, both links of the last city have that delay: it is far from all others.
    const double lastDelay = farDelay > 0 ? farDelay : wanDelay;
    for (uint32_t c = 0; c + 1 < cities; ++c)
    {
        t.AddLink(WanLink{c, c + 1, wanBps, c + 2 == cities ? lastDelay : wanDelay});
    }
    if (cities > 2)
    {
        t.AddLink(WanLink{cities - 1, 0, wanBps, lastDelay});
    }
    for (uint32_t c = 0; c < cities; ++c)
    {
        for (uint32_t i = 0; i < perCity; ++i)
        {
            WanIsland island;
            island.name = "C" + std::to_string(c) + "-" + std::to_string(i);
            island.city = c;
            island.accessBps = ACCESS_BPS;
            island.accessDelay = ACCESS_DELAY;
            t.AddIsland(island);
        }
    }
    t.SetCapabilities(WanCapabilities::Parse(caps, "test"));
    return t;
}

/** \param run where to list \param packet an IPv4 packet the traced device received */
void
ListArrival(RunResult* run, Ptr<const Packet> packet)
{
    Ptr<Packet> copy = packet->Copy();
    copy->RemoveAtStart(IP_UDP);
    RunResult::Arrival arrival;
    if (GradientHeader::Parse(copy, arrival.header))
    {
        arrival.uid = packet->GetUid();
        arrival.size = packet->GetSize();
        arrival.at = Simulator::Now();
        run->arrivals.push_back(arrival);
    }
}

/**
 * \param run where to count
 * \param packet a packet island 0's device sends: an IPv4 packet, after a PPP header if the
 *        device is ns-3's PointToPointNetDevice (run->linkHeaderBytes)
 */
void
CountIsland0(RunResult* run, Ptr<const Packet> packet)
{
    ++run->island0Packets;
    const uint32_t ipv4Bytes = packet->GetSize() - run->linkHeaderBytes;
    run->island0Largest = std::max(run->island0Largest, ipv4Bytes);
    std::vector<uint8_t> bytes(run->linkHeaderBytes + WanWire::IPV4_UDP_BYTES);
    if (packet->CopyData(bytes.data(), bytes.size()) == bytes.size())
    {
        const uint8_t* ip = bytes.data() + run->linkHeaderBytes;
        const uint8_t* udp = ip + WanWire::IPV4_HEADER_BYTES;
        if (ip[WanWire::IPV4_PROTOCOL_OFFSET] == WanWire::UDP_PROTOCOL)
        {
            run->island0Ports.insert(WanWire::ReadU16(udp + WanWire::UDP_DESTINATION_PORT_OFFSET));
        }
    }
}

/**
 * \param wan the installed topology \param island an island \param atFpga its FPGA's router port
 * \return the device that receives packets towards the island: its own end of the access link,
 *         or (atFpga) its FPGA's end of the in-box link
 */
Ptr<NetDevice>
ObservedDevice(const WanTopologyHelper& wan, uint32_t island, bool atFpga)
{
    if (!atFpga)
    {
        return wan.GetIslandDevice(island);
    }
    Ptr<FpgaAggregatorNetDevice> fpga = wan.GetFpga(island);
    NS_ABORT_MSG_IF(!fpga, "island " << island << " has no FPGA to observe");
    return fpga->GetRouterPort();
}

} // namespace

uint64_t
Chunks(uint64_t bytes)
{
    return (bytes + CHUNK - 1) / CHUNK;
}

double
PairExchangeTime(uint64_t bytes)
{
    const double wireBits = 8.0 * (bytes + Chunks(bytes) * (HEADER + WIRE_EXTRA));
    return wireBits / ACCESS_BPS + 2 * ACCESS_DELAY + WAN_DELAY;
}

uint64_t
StreamBytes(uint64_t bytes)
{
    return bytes + Chunks(bytes) * HEADER;
}

Time
Serialisation(uint32_t ipBytes, uint64_t bps)
{
    return Seconds((ipBytes + FRAMING) * 8.0 / bps);
}

Time
Hop(uint32_t ipBytes, uint64_t bps, double delay)
{
    return Serialisation(ipBytes, bps) + Seconds(delay);
}

Time
PathTime(uint32_t ipBytes, double wanDelay)
{
    return Hop(ipBytes, ACCESS_BPS, ACCESS_DELAY) + Hop(ipBytes, WAN_BPS, wanDelay) +
           Hop(ipBytes, ACCESS_BPS, ACCESS_DELAY);
}

const RunResult::Arrival*
RunResult::Find(GradientHeader::Type type,
                uint32_t sender,
                uint32_t chunk,
                bool retransmission) const
{
    for (const Arrival& a : arrivals)
    {
        if (a.header.GetType() == type && a.header.GetSender() == sender &&
            a.header.GetChunkIndex() == chunk &&
            a.header.HasFlag(GradientHeader::FLAG_RETRANSMISSION) == retransmission)
        {
            return &a;
        }
    }
    return nullptr;
}

RunResult
Simulate(const Setup& setup)
{
    RngSeedManager::SetSeed(setup.seed);
    RngSeedManager::SetRun(setup.run);
    const WanTopology topology = MakeTopology(setup.cities,
                                              setup.perCity,
                                              setup.caps,
                                              setup.wanDelay,
                                              setup.farDelay,
                                              setup.wanBps);
    const uint32_t n = topology.GetIslands().size();
    WanTopologyHelper wan;
    wan.SetMtu(setup.mtu);
    wan.SetStockLinks(setup.stockLinks);
    wan.SetInBoxLink(DataRate(IN_BOX_BPS), Seconds(IN_BOX_DELAY));
    if (setup.queueBytes > 0)
    {
        wan.SetQueueSize(QueueSize(QueueSizeUnit::BYTES, setup.queueBytes));
    }
    else if (setup.queuePackets > 0)
    {
        wan.SetQueueSize(QueueSize(QueueSizeUnit::PACKETS, setup.queuePackets));
    }
    // The links' framing is an attribute of the devices only: set it while they are built.
    Config::SetDefault("ns3::WanLinkNetDevice::FramingBytes", UintegerValue(setup.framing));
    wan.Install(topology);
    Config::SetDefault("ns3::WanLinkNetDevice::FramingBytes", UintegerValue(FRAMING));
    CliqueSchedule schedule = setup.partitions.empty()
                                  ? CliqueSchedule::GlobalClique(n)
                                  : CliqueSchedule(n, setup.partitions, "test");
    if (setup.ring || setup.tree)
    {
        const SyncAlgorithm algorithm = setup.ring ? SyncAlgorithm::RING : SyncAlgorithm::TREE;
        for (uint32_t t = 0; t < schedule.GetPeriod(); ++t)
        {
            schedule.SetAlgorithms(
                t,
                std::vector<SyncAlgorithm>(schedule.GetPartition(t).size(), algorithm));
        }
    }
    for (uint32_t t = 0; t < setup.roundFormats.size(); ++t)
    {
        if (!setup.roundFormats[t].empty())
        {
            schedule.SetFormat(t, UpdateFormat::FromString(setup.roundFormats[t]));
        }
    }
    TrainingHelper helper(wan, schedule);
    helper.SetModelBytes(setup.modelBytes);
    helper.SetRounds(setup.rounds);
    helper.SetComputeTime(setup.compute);
    helper.SetInnerSteps(setup.innerSteps);
    helper.SetFragments(setup.fragments);
    if (!setup.stepPlans.empty())
    {
        helper.SetStepPlans(setup.stepPlans);
    }
    helper.SetUpdateFormat(UpdateFormat::FromString(setup.format));
    helper.SetAppAttribute("Scale", DoubleValue(setup.scale));
    helper.SetAppAttribute("RetransmissionTimeout", TimeValue(RETRANSMISSION_TIMEOUT));
    helper.SetAppAttribute("MaxRetries", UintegerValue(MAX_RETRIES));
    helper.SetAppAttribute("AlignStarts", BooleanValue(setup.alignStarts));
    Ptr<QuadraticTrainingWorkload> workload;
    if (setup.real)
    {
        workload = CreateObject<QuadraticTrainingWorkload>();
        workload->SetAttribute("LocalSteps", UintegerValue(setup.localSteps));
        workload->SetAttribute("InitialSpread", DoubleValue(setup.initialSpread));
        workload->SetAttribute("SharedStart", BooleanValue(setup.sharedStart));
        helper.SetWorkload(workload);
    }
    if (setup.loss > 0)
    {
        helper.SetWanLossRate(setup.loss);
    }
    if (setup.straggler >= 0)
    {
        helper.SetComputeMultiplier(setup.straggler, 10.0);
    }
    if (setup.fanOutCity >= 0)
    {
        wan.GetRouter(setup.fanOutCity)->SetAttribute("MaxFanOut", UintegerValue(setup.fanOut));
    }
    if (setup.tcp)
    {
        helper.SetTransport(TrainingApplication::TCP);
        if (!setup.congestion.empty())
        {
            helper.SetTcpAttribute("CongestionControl",
                                   TypeIdValue(TypeId::LookupByName(setup.congestion)));
        }
        if (setup.tcpPeerTimeout.IsStrictlyPositive())
        {
            helper.SetTcpAttribute("PeerTimeout", TimeValue(setup.tcpPeerTimeout));
        }
        helper.SetTcpAttribute("Streams", UintegerValue(setup.tcpStreams));
        helper.SetTcpAttribute("BufferBytes", UintegerValue(setup.tcpBuffer));
    }
    if (setup.adaptive)
    {
        helper.SetTransport(TrainingApplication::ADAPTIVE);
        if (!setup.initialRate.empty())
        {
            helper.SetAdaptiveAttribute("InitialRate", StringValue(setup.initialRate));
        }
    }
    helper.SetTuneFpgas(setup.tuneFpgas);
    helper.SetTuneQueues(setup.tuneQueues);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (Ptr<FpgaAggregatorNetDevice> fpga = wan.GetFpga(i))
        {
            if (setup.fpgaSlots > 0)
            {
                fpga->SetAttribute("SlotCount", UintegerValue(setup.fpgaSlots));
            }
            if (setup.fpgaTimeout.IsStrictlyPositive())
            {
                fpga->SetAttribute("Timeout", TimeValue(setup.fpgaTimeout));
            }
            fpga->SetAttribute("PipelineLatency", TimeValue(setup.fpgaLatency));
            fpga->SetAttribute("ProcessingRate", DataRateValue(DataRate(setup.fpgaRateBps)));
        }
    }
    if (setup.multicastOffCity >= 0)
    {
        wan.GetRouter(setup.multicastOffCity)
            ->SetAttribute("MulticastEnabled", BooleanValue(false));
    }
    helper.Install();
    if (setup.stopIsland >= 0)
    {
        helper.GetApplication(setup.stopIsland)->SetStopTime(setup.stopAt);
    }
    if (setup.cut >= 0)
    {
        // Both directions of the island's only link lose every packet.
        for (Ptr<NetDevice> device :
             {wan.GetIslandDevice(setup.cut), wan.GetAccessPeerDevice(setup.cut)})
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
            em->SetAttribute("ErrorRate", DoubleValue(1.0));
            device->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }
    if (setup.dropAtIsland >= 0)
    {
        Ptr<ListErrorModel> em = CreateObject<ListErrorModel>();
        // Packet uids are 32 bits wide in ns-3 3.37 and 64 in 3.48: take the list's type from
        // the model.
        using UidList = decltype(std::declval<ListErrorModel>().GetList());
        em->SetList(UidList(setup.dropUids.begin(), setup.dropUids.end()));
        ObservedDevice(wan, setup.dropAtIsland, setup.atFpga)
            ->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    RunResult run;
    if (setup.traceIsland >= 0)
    {
        ObservedDevice(wan, setup.traceIsland, setup.atFpga)
            ->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&ListArrival, &run));
    }
    run.linkHeaderBytes = setup.stockLinks ? PppHeader().GetSerializedSize() : 0;
    wan.GetIslandDevice(0)->TraceConnectWithoutContext("MacTx",
                                                       MakeBoundCallback(&CountIsland0, &run));
    if (workload)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            run.before.push_back(workload->GetParameters(i));
        }
    }
    if (setup.beforeRun)
    {
        setup.beforeRun(wan, helper);
    }
    TrainingExperiment experiment(helper);
    for (uint32_t i = 0; i < n; ++i)
    {
        Time hold;
        if (Ptr<FpgaAggregatorNetDevice> fpga = wan.GetFpga(i))
        {
            TimeValue timeout;
            TimeValue latency;
            fpga->GetAttribute("Timeout", timeout);
            fpga->GetAttribute("PipelineLatency", latency);
            hold = timeout.Get() + latency.Get();
        }
        run.hold.push_back(hold);
    }
    experiment.Run();
    run.end = Simulator::Now();
    run.records = experiment.GetRecords();
    std::ostringstream csv;
    TrainingOutput::WriteRounds(csv, experiment, setup.caps, "test");
    run.csv = csv.str();
    run.queueDrops = experiment.GetQueueDrops();
    run.lossDrops = experiment.GetLossDrops();
    run.fpga = experiment.GetFpgaCounters();
    run.plannedWireBytes = helper.GetCostModel()->GetWireBytes(setup.modelBytes);
    run.heldStarts = experiment.Summarise(1e-3).heldStarts;
    TrainingPlanner::EstimateLoad(topology,
                                  wan.GetRouting(),
                                  helper.GetPlans(),
                                  setup.rounds,
                                  run.cityLoad,
                                  run.linkPackets);
    run.estimatedSync = helper.GetPlans().at(0).syncTime;
    run.replayedExposed = helper.GetEstimatedSync();
    run.replayedHidden = helper.GetEstimatedHiddenSync();
    run.transportNote = experiment.Summarise(1e-3).transportNote;
    for (uint32_t i = 0; i < n; ++i)
    {
        run.dropped += helper.GetApplication(i)->GetDroppedPackets();
        run.duplicates += helper.GetApplication(i)->GetDuplicatePackets();
    }
    if (setup.tcp)
    {
        run.tcpSegmentSize = helper.GetApplication(0)->GetTcpTransport()->GetSegmentSize();
        run.tcpBufferBytes = helper.GetApplication(0)->GetTcpTransport()->GetBufferBytes(1);
        run.tcpStreamSent.resize(n);
        run.tcpStreamReceived.resize(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<TcpTransport> tcp = helper.GetApplication(i)->GetTcpTransport();
            run.tcpHeartbeats += tcp->GetHeartbeatsSent();
            for (uint32_t peer = 0; peer < n; ++peer)
            {
                run.tcpStreamSent[i].push_back(tcp->GetStreamBytesSent(peer));
                run.tcpStreamReceived[i].push_back(tcp->GetStreamBytesReceived(peer));
            }
        }
    }
    if (workload)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            run.after.push_back(workload->GetParameters(i));
        }
    }
    Simulator::Destroy();
    return run;
}

double
FixedPointMean(const std::vector<std::vector<double>>& before, size_t e)
{
    uint32_t sum = 0; // two's-complement int32 arithmetic
    for (const std::vector<double>& x : before)
    {
        sum += static_cast<uint32_t>(static_cast<int32_t>(std::round(x[e] * SCALE)));
    }
    return static_cast<int32_t>(sum) / (SCALE * before.size());
}

std::vector<double>
Mean(const std::vector<std::vector<double>>& vectors, const std::vector<uint32_t>& members)
{
    std::vector<double> mean(vectors.at(members.at(0)).size(), 0.0);
    for (uint32_t m : members)
    {
        for (size_t d = 0; d < mean.size(); ++d)
        {
            mean[d] += vectors[m][d];
        }
    }
    for (double& v : mean)
    {
        v /= members.size();
    }
    return mean;
}

double
MaxError(const std::vector<double>& a, const std::vector<double>& b)
{
    double error = 0;
    for (size_t d = 0; d < a.size(); ++d)
    {
        error = std::max(error, std::fabs(a[d] - b[d]));
    }
    return error;
}

std::vector<uint32_t>
AllIslands(uint32_t n)
{
    std::vector<uint32_t> all;
    for (uint32_t i = 0; i < n; ++i)
    {
        all.push_back(i);
    }
    return all;
}

Setup
CongestedAdaptive()
{
    Setup setup;
    setup.cities = 3;
    setup.perCity = 2;
    setup.adaptive = true;
    setup.initialRate = "line";
    setup.modelBytes = 200 * CHUNK;
    return setup;
}

/** \param run a run \param island an island \param round a round \return its record */
uint32_t
RecordCount(const Setup& setup)
{
    return setup.cities * setup.perCity * setup.rounds;
}

const TrainingRoundRecord&
RecordOf(const RunResult& run, uint32_t island, uint32_t round)
{
    for (const TrainingRoundRecord& r : run.records)
    {
        if (r.island == island && r.round == round)
        {
            return r;
        }
    }
    NS_ABORT_MSG("no record of island " << island << ", round " << round);
}

} // namespace training_test
} // namespace ns3
