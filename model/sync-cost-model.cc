/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sync-cost-model.h"

#include "chunk-layout.h"
#include "gradient-header.h"
#include "sync-algorithm-choice.h"
#include "wan-link-net-device.h"
#include "wan-wire.h"

#include "ns3/assert.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SyncCostModel");

NS_OBJECT_ENSURE_REGISTERED(SyncCostModel);

namespace
{

/**
 * \brief Summarise a round from its clique and island times: the sync time is the slowest
 *        clique's, and the mean island time their mean.
 * \param est the estimate, with its clique and island times
 */
void
SummariseRound(SyncRoundEstimate& est)
{
    NS_LOG_FUNCTION_NOARGS();
    for (double t : est.cliqueTime)
    {
        est.syncTime = std::max(est.syncTime, t);
    }
    for (double t : est.islandTime)
    {
        est.meanIslandTime += t / est.islandTime.size();
    }
}

} // namespace

TypeId
SyncCostModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SyncCostModel")
            .SetParent<Object>()
            .SetGroupName("WanTraining")
            .AddConstructor<SyncCostModel>()
            .AddAttribute("Mtu",
                          "IP MTU in bytes; sets the default chunk payload.",
                          UintegerValue(WanWire::DEFAULT_MTU),
                          MakeUintegerAccessor(&SyncCostModel::m_mtu),
                          MakeUintegerChecker<uint32_t>(576, 65535))
            .AddAttribute("ChunkPayloadBytes",
                          "Gradient payload bytes per packet; 0 means the largest multiple of "
                          "4 bytes that fits the MTU after the IPv4, UDP and gradient headers.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SyncCostModel::m_chunkPayloadBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("UpdateFormat",
                          "How updates travel (UpdateFormat): int32, bf16, int8, int4 or "
                          "topk:FRACTION. Sets the bytes of every stream; FPGAs fold only "
                          "summable formats, and their sums are wider.",
                          UpdateFormatValue(UpdateFormat()),
                          MakeUpdateFormatAccessor(&SyncCostModel::m_format),
                          MakeUpdateFormatChecker())
            .AddAttribute("Ipv4HeaderBytes",
                          "IPv4 header bytes per packet.",
                          UintegerValue(WanWire::IPV4_HEADER_BYTES),
                          MakeUintegerAccessor(&SyncCostModel::m_ipv4HeaderBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("UdpHeaderBytes",
                          "UDP header bytes per packet.",
                          UintegerValue(WanWire::UDP_HEADER_BYTES),
                          MakeUintegerAccessor(&SyncCostModel::m_udpHeaderBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("GradientHeaderBytes",
                          "Gradient header bytes per packet; 0 means the size of a DATA "
                          "GradientHeader for the routing's island count (36 + 16 per 64 "
                          "islands).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SyncCostModel::m_gradientHeaderBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FramingBytes",
                          "Link framing bytes per packet on every link, as the link devices "
                          "report it (LinkPort::GetFramingBytes): WanLinkNetDevice's "
                          "FramingBytes, or the stock PointToPointNetDevice's PPP header.",
                          UintegerValue(WanLinkNetDevice::DEFAULT_FRAMING_BYTES),
                          MakeUintegerAccessor(&SyncCostModel::m_framingBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FpgaLatency",
                          "Pipeline latency an FPGA adds to the streams it aggregates.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&SyncCostModel::m_fpgaLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TransitProcessingRate",
                          "Service rate of a transit FPGA (WanCapabilities::transit): the "
                          "pieces of reduction-tree traffic entering it share it; 0 means "
                          "unlimited.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&SyncCostModel::m_transitRate),
                          MakeDataRateChecker())
            .AddAttribute("TransitLatency",
                          "Latency a transit FPGA adds to the reduction-tree traffic it "
                          "aggregates, per transit city on a member's path to the root.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&SyncCostModel::m_transitLatency),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("RoundEstimated",
                            "A round was estimated: its sync time (s) and its stream count.",
                            MakeTraceSourceAccessor(&SyncCostModel::m_roundEstimated),
                            "ns3::SyncCostModel::RoundEstimatedCallback");
    return tid;
}

SyncCostModel::SyncCostModel()
    : m_mtu(WanWire::DEFAULT_MTU),
      m_chunkPayloadBytes(0),
      m_ipv4HeaderBytes(WanWire::IPV4_HEADER_BYTES),
      m_udpHeaderBytes(WanWire::UDP_HEADER_BYTES),
      m_gradientHeaderBytes(0),
      m_framingBytes(WanLinkNetDevice::DEFAULT_FRAMING_BYTES),
      m_fpgaLatency(MicroSeconds(1)),
      m_transitRate(0),
      m_transitLatency(MicroSeconds(1))
{
    NS_LOG_FUNCTION(this);
}

SyncCostModel::~SyncCostModel()
{
    NS_LOG_FUNCTION(this);
}

void
SyncCostModel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_routing.reset();
    m_paths = SyncPathTable();
    m_tree = SyncTreePlan();
    Object::DoDispose();
}

void
SyncCostModel::SetRouting(const WanRouting& routing)
{
    NS_LOG_FUNCTION(this);
    m_routing = std::make_unique<WanRouting>(routing);
    // Computed once: the optimiser estimates many rounds on the same routes.
    m_paths = SyncPathTable(*m_routing);
    m_tree = SyncTreePlan(*m_routing);
}

const WanRouting&
SyncCostModel::GetRouting() const
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(m_routing, "SyncCostModel::SetRouting() was not called");
    return *m_routing;
}

uint32_t
SyncCostModel::GetGradientHeaderBytes() const
{
    NS_LOG_FUNCTION(this);
    if (m_gradientHeaderBytes > 0)
    {
        return m_gradientHeaderBytes;
    }
    return ChunkLayout::DataHeaderBytes(std::max<uint32_t>(1, m_paths.GetIslandCount()));
}

uint32_t
SyncCostModel::GetChunkPayloadBytes() const
{
    NS_LOG_FUNCTION(this);
    if (m_chunkPayloadBytes > 0)
    {
        return m_chunkPayloadBytes;
    }
    return ChunkLayout::FitPayload(m_mtu - m_ipv4HeaderBytes - m_udpHeaderBytes -
                                   GetGradientHeaderBytes());
}

uint32_t
SyncCostModel::GetPacketOverheadBytes() const
{
    NS_LOG_FUNCTION(this);
    return m_ipv4HeaderBytes + m_udpHeaderBytes + GetGradientHeaderBytes() + m_framingBytes;
}

const UpdateFormat&
SyncCostModel::GetUpdateFormat() const
{
    NS_LOG_FUNCTION(this);
    return m_format;
}

uint64_t
SyncCostModel::GetChunkCount(uint64_t payloadBytes) const
{
    NS_LOG_FUNCTION(this << payloadBytes);
    if (m_format == UpdateFormat())
    {
        return ChunkLayout::ChunksOf(payloadBytes, GetChunkPayloadBytes());
    }
    return payloadBytes == 0 ? 0 : LayoutOf(payloadBytes).GetChunkCount();
}

uint64_t
SyncCostModel::GetWireBytes(uint64_t payloadBytes) const
{
    NS_LOG_FUNCTION(this << payloadBytes);
    if (m_format == UpdateFormat() || payloadBytes == 0)
    {
        return payloadBytes + GetChunkCount(payloadBytes) * GetPacketOverheadBytes();
    }
    const ChunkLayout layout = LayoutOf(payloadBytes);
    return layout.GetPayloadBytes() + uint64_t{layout.GetChunkCount()} * GetPacketOverheadBytes();
}

ChunkLayout
SyncCostModel::LayoutOf(uint64_t payloadBytes) const
{
    NS_LOG_FUNCTION(this << payloadBytes);
    return ChunkLayout(payloadBytes,
                       GetChunkPayloadBytes(),
                       m_format,
                       std::max<uint32_t>(1, m_paths.GetIslandCount()));
}

double
SyncCostModel::GetFoldedSumRatio(uint32_t k) const
{
    NS_LOG_FUNCTION(this << k);
    return GetSumWireRatio(k - 1);
}

double
SyncCostModel::GetSumWireRatio(uint32_t contributors) const
{
    NS_LOG_FUNCTION(this << contributors);
    if (m_format == UpdateFormat())
    {
        return 1.0;
    }
    const uint32_t chunkElements =
        m_format.GetChunkElements(GetChunkPayloadBytes(),
                                  std::max<uint32_t>(1, m_paths.GetIslandCount()));
    const double overhead = GetPacketOverheadBytes();
    return (m_format.GetSumPayloadBytes(chunkElements, contributors) + overhead) /
           (m_format.GetPayloadBytes(chunkElements) + overhead);
}

SyncTreePlan::StreamBits
SyncCostModel::GetStreamBits(uint64_t modelBytes, uint32_t contributors) const
{
    NS_LOG_FUNCTION(this << modelBytes << contributors);
    const double overhead = GetPacketOverheadBytes();
    SyncTreePlan::StreamBits bits;
    if (m_format == UpdateFormat())
    {
        // int32: the update's bytes, its chunks of ChunkPayloadBytes.
        const uint64_t cap = GetChunkPayloadBytes();
        const uint64_t chunks = ChunkLayout::ChunksOf(modelBytes, cap);
        const uint64_t lastPayload = modelBytes - std::min(modelBytes, (chunks - 1) * cap);
        bits.whole = WanWire::BITS_PER_BYTE * (modelBytes + chunks * overhead);
        bits.first = WanWire::BITS_PER_BYTE * (std::min(modelBytes, cap) + overhead);
        bits.last = WanWire::BITS_PER_BYTE * (lastPayload + overhead);
        return bits;
    }
    // Other formats: the layout's chunks, each the sum of the contributors' values (one
    // member's values in the format itself: UpdateFormat::SumEncoding).
    const ChunkLayout layout = LayoutOf(modelBytes);
    const uint32_t chunks = layout.GetChunkCount();
    const auto payload = [&](uint32_t chunk) {
        uint32_t first = 0;
        const uint32_t elements = layout.GetChunkSpan(chunk, first);
        return double(m_format.GetSumPayloadBytes(elements, contributors));
    };
    bits.whole =
        WanWire::BITS_PER_BYTE * (layout.GetSumPayloadBytes(contributors) + chunks * overhead);
    bits.first = WanWire::BITS_PER_BYTE * (payload(0) + overhead);
    bits.last = WanWire::BITS_PER_BYTE * (payload(chunks - 1) + overhead);
    return bits;
}

double
SyncCostModel::GetFoldedShare(uint32_t k) const
{
    NS_LOG_FUNCTION(this << k);
    return GetFoldedSumRatio(k) / (k - 1);
}

bool
SyncCostModel::FpgasFold() const
{
    NS_LOG_FUNCTION(this);
    return m_format.IsSummable();
}

void
SyncCostModel::BuildAndSolve(const Partition& partition,
                             const std::vector<SyncAlgorithm>& algorithms,
                             uint64_t modelBytes,
                             const std::vector<uint32_t>& roots,
                             std::vector<Draft>& drafts,
                             std::vector<uint32_t>& receivers,
                             std::vector<std::vector<MaxMinFairShare::Usage>>* usages,
                             std::vector<double>& rates) const
{
    NS_LOG_FUNCTION(this << modelBytes);
    NS_ASSERT_MSG(m_routing, "SyncCostModel::SetRouting() was not called");
    NS_ASSERT_MSG(algorithms.size() == partition.size(), "one algorithm per clique");
    drafts.clear();
    receivers.clear();
    MaxMinFairShare mm;
    const uint32_t transitBase = AddRoundResources(algorithms, mm);
    RoundStreams streams{modelBytes, mm, drafts, receivers, usages};
    for (uint32_t c = 0; c < partition.size(); ++c)
    {
        const Clique& clique = partition[c];
        if (clique.size() < 2)
        {
            continue;
        }
        if (algorithms[c] == SyncAlgorithm::RING)
        {
            AddRingStreams(c, clique, streams);
        }
        else if (algorithms[c] == SyncAlgorithm::TREE)
        {
            AddTreeStreams(c, clique, roots.at(c), transitBase, streams);
        }
        else
        {
            AddDirectStreams(c, clique, streams);
        }
    }
    rates = mm.Solve();
}

uint32_t
SyncCostModel::AddRoundResources(const std::vector<SyncAlgorithm>& algorithms,
                                 MaxMinFairShare& mm) const
{
    NS_LOG_FUNCTION(this);
    for (double capacity : m_paths.GetCapacities())
    {
        mm.AddResource(capacity);
    }
    // Transit FPGAs with a finite service rate: one resource per city, after the routing's.
    uint32_t transitBase = SyncTreePlan::NO_RESOURCE;
    if (m_transitRate.GetBitRate() > 0 &&
        std::find(algorithms.begin(), algorithms.end(), SyncAlgorithm::TREE) != algorithms.end())
    {
        transitBase = mm.GetResourceCount();
        for (uint32_t v = 0; v < m_tree.GetCityCount(); ++v)
        {
            mm.AddResource(m_transitRate.GetBitRate());
        }
    }
    return transitBase;
}

void
SyncCostModel::AddRingStreams(uint32_t c, const Clique& clique, RoundStreams& streams) const
{
    NS_LOG_FUNCTION(this << c << streams.modelBytes);
    // Ring order: ascending island index. One step's k streams stand for every step: each
    // member always sends to the same successor, so the rates are the same.
    const uint32_t k = clique.size();
    Clique ring = clique;
    std::sort(ring.begin(), ring.end());
    // The largest step's segment (an all-gather step: the widest sums).
    uint64_t chunks = 0;
    uint32_t lastPayload = 0;
    const uint64_t segment =
        LayoutOf(streams.modelBytes)
            .GetRingStepPayload(k, 0, ChunkLayout::RingSteps(k) - 1, chunks, lastPayload);
    std::vector<MaxMinFairShare::Usage> usage;
    for (uint32_t p = 0; p < k; ++p)
    {
        uint32_t s = ring[p];
        uint32_t d = ring[(p + 1) % k];
        usage.clear();
        for (uint32_t res : m_paths.GetPathResources(s, d))
        {
            usage.emplace_back(res, 1.0);
        }
        streams.drafts.push_back(Draft{c,
                                       s,
                                       static_cast<uint32_t>(streams.receivers.size()),
                                       1,
                                       false,
                                       false,
                                       SyncAlgorithm::RING,
                                       false,
                                       segment,
                                       m_paths.GetPathDelay(s, d)});
        streams.receivers.push_back(d);
        streams.AddFlow(usage);
    }
}

void
SyncCostModel::AddTreeStreams(uint32_t c,
                              const Clique& clique,
                              uint32_t root,
                              uint32_t transitBase,
                              RoundStreams& streams) const
{
    NS_LOG_FUNCTION(this << c << root << transitBase << streams.modelBytes);
    std::vector<SyncTreePlan::UpStream> ups;
    std::vector<double> sumRatio(clique.size() + 1, 1.0);
    for (uint32_t n = 1; n <= clique.size(); ++n)
    {
        sumRatio[n] = GetSumWireRatio(n);
    }
    m_tree
        .BuildUp(m_paths, clique, root, m_transitLatency.GetSeconds(), transitBase, sumRatio, ups);
    for (const auto& up : ups)
    {
        streams.drafts.push_back(Draft{c,
                                       up.member,
                                       static_cast<uint32_t>(streams.receivers.size()),
                                       1,
                                       false,
                                       up.aggregated,
                                       SyncAlgorithm::TREE,
                                       true,
                                       streams.modelBytes,
                                       up.delay});
        streams.receivers.push_back(root);
        streams.AddFlow(up.usages);
    }
    AddSenderStreams(c, root, clique, SyncAlgorithm::TREE, streams);
}

void
SyncCostModel::AddDirectStreams(uint32_t c, const Clique& clique, RoundStreams& streams) const
{
    NS_LOG_FUNCTION(this << c << streams.modelBytes);
    for (uint32_t s : clique)
    {
        AddSenderStreams(c, s, clique, SyncAlgorithm::DIRECT, streams);
    }
}

void
SyncCostModel::AddSenderStreams(uint32_t c,
                                uint32_t s,
                                const Clique& clique,
                                SyncAlgorithm algorithm,
                                RoundStreams& streams) const
{
    NS_LOG_FUNCTION(this << c << s << algorithm << streams.modelBytes);
    // DIRECT: an FPGA in front of a receiver folds the k-1 incoming streams into one. A TREE
    // root's sum is not folded.
    const uint32_t k = clique.size();
    const bool fold = algorithm == SyncAlgorithm::DIRECT && FpgasFold();
    const double downWeightFpga = GetFoldedShare(k);
    const double fpgaLatency = m_fpgaLatency.GetSeconds();
    std::vector<MaxMinFairShare::Usage> usage;
    usage.emplace_back(m_routing->GetAccessUpResource(s), 1.0);
    if (m_paths.WalkTree(s, clique, &usage))
    {
        uint32_t first = streams.receivers.size();
        double delay = 0;
        bool aggregated = false;
        for (uint32_t j : clique)
        {
            if (j == s)
            {
                continue;
            }
            bool fpga = fold && m_paths.HasFpga(j);
            aggregated = aggregated || fpga;
            usage.emplace_back(m_routing->GetAccessDownResource(j), fpga ? downWeightFpga : 1.0);
            delay = std::max(delay, m_paths.GetPathDelay(s, j) + (fpga ? fpgaLatency : 0.0));
            streams.receivers.push_back(j);
        }
        streams.drafts.push_back(Draft{c,
                                       s,
                                       first,
                                       k - 1,
                                       true,
                                       aggregated,
                                       algorithm,
                                       false,
                                       streams.modelBytes,
                                       delay});
        streams.AddFlow(usage);
        return;
    }
    for (uint32_t j : clique)
    {
        if (j == s)
        {
            continue;
        }
        bool fpga = fold && m_paths.HasFpga(j);
        usage.clear();
        const auto& path = m_paths.GetPathResources(s, j);
        for (size_t h = 0; h + 1 < path.size(); ++h)
        {
            usage.emplace_back(path[h], 1.0);
        }
        usage.emplace_back(path.back(), fpga ? downWeightFpga : 1.0);
        streams.drafts.push_back(Draft{c,
                                       s,
                                       static_cast<uint32_t>(streams.receivers.size()),
                                       1,
                                       false,
                                       fpga,
                                       algorithm,
                                       false,
                                       streams.modelBytes,
                                       m_paths.GetPathDelay(s, j) + (fpga ? fpgaLatency : 0.0)});
        streams.receivers.push_back(j);
        streams.AddFlow(usage);
    }
}

double
SyncCostModel::StreamDuration(const Draft& draft, double rate) const
{
    NS_LOG_FUNCTION(this << rate);
    if (rate <= 0)
    {
        return std::numeric_limits<double>::infinity();
    }
    return GetWireBytes(draft.payloadBytes) * WanWire::BITS_PER_BYTE / rate + draft.delay;
}

SyncRoundEstimate
SyncCostModel::EstimateRound(const Partition& partition,
                             const std::vector<SyncAlgorithm>& algorithms,
                             uint64_t modelBytes) const
{
    NS_LOG_FUNCTION(this << modelBytes);
    RoundSolution sol;
    const std::vector<uint32_t> roots =
        SyncAlgorithmChoice::ChooseRoots(*this, partition, algorithms, modelBytes);
    BuildAndSolve(partition,
                  algorithms,
                  modelBytes,
                  roots,
                  sol.drafts,
                  sol.receivers,
                  &sol.usages,
                  sol.rates);

    SyncRoundEstimate est;
    est.cliqueRoot = roots;
    est.cliqueTime.assign(partition.size(), 0.0);
    est.islandTime.assign(m_paths.GetIslandCount(), 0.0);
    RoundTiming timing = LocateCliqueDrafts(partition.size(), sol.drafts);
    TimeDirectStreams(sol, est, timing);
    for (uint32_t c = 0; c < partition.size(); ++c)
    {
        if (timing.first[c] == sol.drafts.size())
        {
            continue;
        }
        if (algorithms[c] == SyncAlgorithm::TREE)
        {
            TimeTreeClique(c, partition[c].size(), modelBytes, sol, est, timing);
        }
        else
        {
            TimeRingClique(c, partition[c], modelBytes, sol, est, timing);
        }
    }
    TimeSendersAndReceivers(sol, timing, est);
    AddPlanStreams(partition, modelBytes, sol, timing, est);
    SummariseRound(est);
    m_roundEstimated(est.syncTime, static_cast<uint32_t>(est.streams.size()));
    return est;
}

SyncCostModel::RoundTiming
SyncCostModel::LocateCliqueDrafts(size_t cliques, const std::vector<Draft>& drafts) const
{
    NS_LOG_FUNCTION(this << cliques);
    RoundTiming timing;
    // RING and TREE cliques: their drafts are consecutive (RING: in ring position order).
    timing.first.assign(cliques, drafts.size());
    timing.end.assign(cliques, drafts.size());
    timing.ringTimes.resize(cliques);
    timing.downStart.assign(cliques, 0.0);
    timing.sent.assign(drafts.size(), 0.0);
    for (size_t f = 0; f < drafts.size(); ++f)
    {
        const uint32_t c = drafts[f].clique;
        if (drafts[f].algorithm == SyncAlgorithm::DIRECT)
        {
            continue;
        }
        if (timing.first[c] == drafts.size())
        {
            timing.first[c] = f;
        }
        timing.end[c] = f + 1;
    }
    return timing;
}

void
SyncCostModel::TimeDirectStreams(const RoundSolution& sol,
                                 SyncRoundEstimate& est,
                                 RoundTiming& timing) const
{
    NS_LOG_FUNCTION(this);
    for (size_t f = 0; f < sol.drafts.size(); ++f)
    {
        const Draft& d = sol.drafts[f];
        if (d.algorithm != SyncAlgorithm::DIRECT)
        {
            continue;
        }
        const uint32_t c = d.clique;
        est.cliqueTime[c] = std::max(est.cliqueTime[c], StreamDuration(d, sol.rates[f]));
        timing.sent[f] = StreamDuration(d, sol.rates[f]) - d.delay;
    }
}

void
SyncCostModel::TimeTreeClique(uint32_t c,
                              size_t cliqueSize,
                              uint64_t modelBytes,
                              const RoundSolution& sol,
                              SyncRoundEstimate& est,
                              RoundTiming& timing) const
{
    NS_LOG_FUNCTION(this << c << cliqueSize << modelBytes);
    SyncTreePlan::Times times;
    est.cliqueTime[c] =
        TreeCompletion(sol.drafts, sol.rates, timing.first[c], timing.end[c], modelBytes, &times);
    timing.downStart[c] = times.downStart;
    // The up drafts come first, then the root's down drafts.
    std::copy(times.downSent.begin(),
              times.downSent.end(),
              timing.sent.begin() + timing.first[c] + (cliqueSize - 1));
}

void
SyncCostModel::TimeRingClique(uint32_t c,
                              const Clique& clique,
                              uint64_t modelBytes,
                              const RoundSolution& sol,
                              SyncRoundEstimate& est,
                              RoundTiming& timing) const
{
    NS_LOG_FUNCTION(this << c << modelBytes);
    Clique ring = clique;
    std::sort(ring.begin(), ring.end());
    std::vector<double> ringRates(sol.rates.begin() + timing.first[c],
                                  sol.rates.begin() + timing.first[c] + ring.size());
    std::vector<double> completion;
    est.cliqueTime[c] = SyncRingPlan::Complete(m_paths,
                                               ring,
                                               ringRates,
                                               LayoutOf(modelBytes),
                                               GetPacketOverheadBytes(),
                                               &timing.ringTimes[c],
                                               &completion);
    for (uint32_t p = 0; p < ring.size(); ++p)
    {
        est.islandTime[ring[p]] = completion[p];
    }
}

void
SyncCostModel::TimeSendersAndReceivers(const RoundSolution& sol,
                                       const RoundTiming& timing,
                                       SyncRoundEstimate& est) const
{
    NS_LOG_FUNCTION(this);
    for (size_t f = 0; f < sol.drafts.size(); ++f)
    {
        const Draft& d = sol.drafts[f];
        if (d.algorithm == SyncAlgorithm::RING || d.reduce)
        {
            continue;
        }
        const double sent = timing.sent[f];
        est.islandTime[d.sender] = std::max(est.islandTime[d.sender], sent);
        for (uint32_t r = 0; r < d.receiverCount; ++r)
        {
            const uint32_t j = sol.receivers[d.firstReceiver + r];
            const double arrival =
                sent + m_paths.GetPathDelay(d.sender, j) +
                (m_paths.HasFpga(j) && d.aggregated ? m_fpgaLatency.GetSeconds() : 0.0);
            est.islandTime[j] = std::max(est.islandTime[j], arrival);
        }
    }
}

std::vector<double>
SyncCostModel::PlannedLoad(const RoundSolution& sol) const
{
    NS_LOG_FUNCTION(this);
    const std::vector<double>& capacity = m_paths.GetCapacities();
    std::vector<double> load(capacity.size(), 0.0);
    for (size_t f = 0; f < sol.drafts.size(); ++f)
    {
        for (const auto& [resource, weight] : sol.usages[f])
        {
            if (resource < capacity.size())
            {
                load[resource] += weight * sol.rates[f];
            }
        }
    }
    return load;
}

SyncStream
SyncCostModel::DraftStream(const RoundSolution& sol,
                           size_t f,
                           const std::vector<double>& load) const
{
    NS_LOG_FUNCTION(this << f);
    const std::vector<double>& capacity = m_paths.GetCapacities();
    const Draft& d = sol.drafts[f];
    SyncStream stream;
    for (const auto& [resource, weight] : sol.usages[f])
    {
        if (resource >= capacity.size())
        {
            continue; // a transit FPGA's service: not a WanRouting resource
        }
        stream.resources.emplace_back(resource, weight);
        if (d.algorithm == SyncAlgorithm::DIRECT && weight < 1.0 && capacity[resource] > 0)
        {
            stream.resendWeight =
                std::max(stream.resendWeight, load[resource] / (weight * capacity[resource]));
        }
    }
    stream.clique = d.clique;
    stream.sender = d.sender;
    stream.receivers.assign(sol.receivers.begin() + d.firstReceiver,
                            sol.receivers.begin() + d.firstReceiver + d.receiverCount);
    std::sort(stream.receivers.begin(), stream.receivers.end());
    stream.algorithm = d.algorithm;
    stream.multicast = d.multicast;
    stream.aggregated = d.aggregated;
    stream.reduce = d.reduce;
    stream.rateBps = sol.rates[f];
    stream.delay = d.delay;
    return stream;
}

void
SyncCostModel::AddPlanStreams(const Partition& partition,
                              uint64_t modelBytes,
                              const RoundSolution& sol,
                              const RoundTiming& timing,
                              SyncRoundEstimate& est) const
{
    NS_LOG_FUNCTION(this << modelBytes);
    // Planned load of each resource, for the resend weights of folded streams.
    const std::vector<double> load = PlannedLoad(sol);
    for (size_t f = 0; f < sol.drafts.size(); ++f)
    {
        const Draft& d = sol.drafts[f];
        SyncStream stream = DraftStream(sol, f, load);
        if (d.algorithm == SyncAlgorithm::RING)
        {
            AddRingStepStreams(stream,
                               partition[d.clique].size(),
                               static_cast<uint32_t>(f - timing.first[d.clique]),
                               timing.ringTimes[d.clique],
                               modelBytes,
                               est.streams);
            continue;
        }
        stream.payloadBytes = d.payloadBytes;
        stream.chunks = GetChunkCount(d.payloadBytes);
        stream.wireBytes = GetWireBytes(d.payloadBytes);
        stream.finishTime = StreamDuration(d, sol.rates[f]);
        if (d.algorithm == SyncAlgorithm::TREE && !d.reduce)
        {
            // The root's down stream: from A until its last chunk reaches the farthest.
            stream.startTime = timing.downStart[d.clique];
            stream.finishTime = timing.sent[f] + d.delay;
        }
        est.streams.push_back(std::move(stream));
    }
}

void
SyncCostModel::AddRingStepStreams(SyncStream& stream,
                                  uint32_t k,
                                  uint32_t position,
                                  const std::vector<std::vector<SyncRingPlan::StepTime>>& times,
                                  uint64_t modelBytes,
                                  std::vector<SyncStream>& streams) const
{
    NS_LOG_FUNCTION(this << k << position << modelBytes);
    const ChunkLayout layout = LayoutOf(modelBytes);
    for (uint32_t step = 0; step < ChunkLayout::RingSteps(k); ++step)
    {
        stream.ringStep = step;
        uint32_t lastPayload = 0;
        stream.payloadBytes =
            layout.GetRingStepPayload(k,
                                      ChunkLayout::RingSendSegment(k, position, step),
                                      step,
                                      stream.chunks,
                                      lastPayload);
        stream.wireBytes = stream.payloadBytes + stream.chunks * GetPacketOverheadBytes();
        if (position < times.size())
        {
            stream.startTime = times[position][step].start;
            stream.finishTime = times[position][step].arrival;
        }
        streams.push_back(stream);
    }
}

SyncRoundEstimate
SyncCostModel::GetRoundPlan(const CliqueSchedule& schedule,
                            uint64_t round,
                            uint64_t modelBytes) const
{
    NS_LOG_FUNCTION(this << round << modelBytes);
    return EstimateRound(schedule.GetPartition(round), schedule.GetAlgorithms(round), modelBytes);
}

double
SyncCostModel::EstimateSyncTime(const Partition& partition,
                                const std::vector<SyncAlgorithm>& algorithms,
                                uint64_t modelBytes) const
{
    NS_LOG_FUNCTION(this << modelBytes);
    std::vector<Draft> drafts;
    std::vector<uint32_t> receivers;
    std::vector<double> rates;
    BuildAndSolve(partition,
                  algorithms,
                  modelBytes,
                  SyncAlgorithmChoice::ChooseRoots(*this, partition, algorithms, modelBytes),
                  drafts,
                  receivers,
                  nullptr,
                  rates);
    double sync = 0;
    for (size_t f = 0; f < drafts.size();)
    {
        const uint32_t c = drafts[f].clique;
        if (drafts[f].algorithm == SyncAlgorithm::DIRECT)
        {
            sync = std::max(sync, StreamDuration(drafts[f], rates[f]));
            ++f;
            continue;
        }
        // The first draft of a RING or TREE clique: the rest of its drafts follow.
        size_t end = f;
        while (end < drafts.size() && drafts[end].clique == c)
        {
            ++end;
        }
        if (drafts[f].algorithm == SyncAlgorithm::TREE)
        {
            sync = std::max(sync, TreeCompletion(drafts, rates, f, end, modelBytes, nullptr));
        }
        else
        {
            Clique ring = partition[c];
            std::sort(ring.begin(), ring.end());
            std::vector<double> ringRates(rates.begin() + f, rates.begin() + end);
            sync = std::max(sync,
                            SyncRingPlan::Complete(m_paths,
                                                   ring,
                                                   ringRates,
                                                   LayoutOf(modelBytes),
                                                   GetPacketOverheadBytes(),
                                                   nullptr,
                                                   nullptr));
        }
        f = end;
    }
    return sync;
}

double
SyncCostModel::TreeCompletion(const std::vector<Draft>& drafts,
                              const std::vector<double>& rates,
                              size_t first,
                              size_t end,
                              uint64_t modelBytes,
                              SyncTreePlan::Times* times) const
{
    NS_LOG_FUNCTION(this << first << end << modelBytes);
    std::vector<SyncTreePlan::Leg> up;
    std::vector<SyncTreePlan::Leg> down;
    for (size_t f = first; f < end; ++f)
    {
        (drafts[f].reduce ? up : down).push_back(SyncTreePlan::Leg{rates[f], drafts[f].delay});
    }
    // The members send their updates; the root sends the sum of all k = ups + 1.
    const auto k = static_cast<uint32_t>(up.size() + 1);
    return SyncTreePlan::Complete(up,
                                  down,
                                  GetStreamBits(modelBytes, 1),
                                  GetStreamBits(modelBytes, k),
                                  times);
}

double
SyncCostModel::EstimateTreeTime(const Clique& clique, uint32_t root, uint64_t modelBytes) const
{
    NS_LOG_FUNCTION(this << root << modelBytes);
    std::vector<Draft> drafts;
    std::vector<uint32_t> receivers;
    std::vector<double> rates;
    BuildAndSolve(Partition{clique},
                  {SyncAlgorithm::TREE},
                  modelBytes,
                  {root},
                  drafts,
                  receivers,
                  nullptr,
                  rates);
    return TreeCompletion(drafts, rates, 0, drafts.size(), modelBytes, nullptr);
}

uint32_t
SyncCostModel::ChooseRoot(const Clique& clique, uint64_t modelBytes) const
{
    NS_LOG_FUNCTION(this << modelBytes);
    return SyncAlgorithmChoice::ChooseRoot(*this, clique, modelBytes, nullptr);
}

SyncAlgorithm
SyncCostModel::ChooseAlgorithm(const Clique& clique, uint64_t modelBytes) const
{
    NS_LOG_FUNCTION(this << modelBytes);
    return SyncAlgorithmChoice::ChooseAlgorithm(*this, clique, modelBytes);
}

const SyncPathTable&
SyncCostModel::GetPathTable() const
{
    NS_LOG_FUNCTION(this);
    return m_paths;
}

} // namespace ns3
