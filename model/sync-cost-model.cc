/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sync-cost-model.h"

#include "gradient-header.h"

#include "ns3/assert.h"
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
/** Bits per byte. */
constexpr double BITS_PER_BYTE = 8.0;
/** Bytes of each of the two bitmaps per bitmap word of the gradient header. */
constexpr uint32_t BITMAP_WORD_BYTES = 8;
/** Islands per bitmap word. */
constexpr uint32_t ISLANDS_PER_WORD = 64;
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
                          UintegerValue(9000),
                          MakeUintegerAccessor(&SyncCostModel::m_mtu),
                          MakeUintegerChecker<uint32_t>(576, 65535))
            .AddAttribute("ChunkPayloadBytes",
                          "Gradient payload bytes per packet; 0 means the largest multiple of "
                          "4 bytes that fits the MTU after the IPv4, UDP and gradient headers.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SyncCostModel::m_chunkPayloadBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Ipv4HeaderBytes",
                          "IPv4 header bytes per packet.",
                          UintegerValue(20),
                          MakeUintegerAccessor(&SyncCostModel::m_ipv4HeaderBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("UdpHeaderBytes",
                          "UDP header bytes per packet.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&SyncCostModel::m_udpHeaderBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("GradientHeaderBytes",
                          "Gradient header bytes per packet; 0 means the size of a DATA "
                          "GradientHeader for the routing's island count (36 + 16 per 64 "
                          "islands).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SyncCostModel::m_gradientHeaderBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PppHeaderBytes",
                          "Point-to-point (PPP) header bytes per packet on every link.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&SyncCostModel::m_pppHeaderBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FpgaLatency",
                          "Pipeline latency an FPGA adds to the streams it aggregates.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&SyncCostModel::m_fpgaLatency),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("RoundEstimated",
                            "A round was estimated: its sync time (s) and its stream count.",
                            MakeTraceSourceAccessor(&SyncCostModel::m_roundEstimated),
                            "ns3::SyncCostModel::RoundEstimatedCallback");
    return tid;
}

SyncCostModel::SyncCostModel()
    : m_mtu(9000),
      m_chunkPayloadBytes(0),
      m_ipv4HeaderBytes(20),
      m_udpHeaderBytes(8),
      m_gradientHeaderBytes(0),
      m_pppHeaderBytes(2),
      m_fpgaLatency(MicroSeconds(1))
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
    m_pathResources.clear();
    m_pathDelay.clear();
    Object::DoDispose();
}

void
SyncCostModel::SetRouting(const WanRouting& routing)
{
    NS_LOG_FUNCTION(this);
    m_routing = std::make_unique<WanRouting>(routing);
    const auto& islands = m_routing->GetTopology().GetIslands();
    const auto& cities = m_routing->GetTopology().GetCities();
    uint32_t n = islands.size();
    m_islandCity.assign(n, 0);
    m_islandFpga.assign(n, false);
    for (uint32_t i = 0; i < n; ++i)
    {
        m_islandCity[i] = islands[i].city;
        m_islandFpga[i] = cities[islands[i].city].caps.fpga;
    }
    // Unicast resources between every pair of islands, computed once: the optimiser estimates
    // many rounds on the same routes.
    m_pathResources.assign(n, std::vector<std::vector<uint32_t>>(n));
    m_pathDelay.assign(n, std::vector<double>(n, 0.0));
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            if (s == d)
            {
                continue;
            }
            auto& res = m_pathResources[s][d];
            res.push_back(m_routing->GetAccessUpResource(s));
            for (const auto& hop : m_routing->GetPath(m_islandCity[s], m_islandCity[d]))
            {
                res.push_back(m_routing->GetHopResource(hop));
            }
            res.push_back(m_routing->GetAccessDownResource(d));
            m_pathDelay[s][d] = m_routing->GetIslandDelay(s, d);
        }
    }
}

const WanRouting&
SyncCostModel::GetRouting() const
{
    NS_ASSERT_MSG(m_routing, "SyncCostModel::SetRouting() was not called");
    return *m_routing;
}

bool
SyncCostModel::HasFpga(uint32_t island) const
{
    return m_islandFpga[island];
}

uint32_t
SyncCostModel::GetGradientHeaderBytes() const
{
    if (m_gradientHeaderBytes > 0)
    {
        return m_gradientHeaderBytes;
    }
    uint32_t n = m_islandCity.empty() ? 1 : m_islandCity.size();
    uint32_t words = (n + ISLANDS_PER_WORD - 1) / ISLANDS_PER_WORD;
    // A DATA header carries the member and the contributor bitmaps.
    return GradientHeader::FIXED_SIZE + 2 * BITMAP_WORD_BYTES * words;
}

uint32_t
SyncCostModel::GetChunkPayloadBytes() const
{
    if (m_chunkPayloadBytes > 0)
    {
        return m_chunkPayloadBytes;
    }
    uint32_t room = m_mtu - m_ipv4HeaderBytes - m_udpHeaderBytes - GetGradientHeaderBytes();
    return room / GradientHeader::ELEMENT_SIZE * GradientHeader::ELEMENT_SIZE;
}

uint32_t
SyncCostModel::GetPacketOverheadBytes() const
{
    return m_ipv4HeaderBytes + m_udpHeaderBytes + GetGradientHeaderBytes() + m_pppHeaderBytes;
}

uint64_t
SyncCostModel::GetChunkCount(uint64_t payloadBytes) const
{
    uint64_t chunk = GetChunkPayloadBytes();
    return (payloadBytes + chunk - 1) / chunk;
}

uint64_t
SyncCostModel::GetWireBytes(uint64_t payloadBytes) const
{
    return payloadBytes + GetChunkCount(payloadBytes) * GetPacketOverheadBytes();
}

void
SyncCostModel::BuildAndSolve(const Partition& partition,
                             const std::vector<SyncAlgorithm>& algorithms,
                             uint64_t modelBytes,
                             std::vector<Draft>& drafts,
                             std::vector<uint32_t>& receivers,
                             std::vector<std::vector<MaxMinFairShare::Usage>>* usages,
                             std::vector<double>& rates) const
{
    NS_ASSERT_MSG(m_routing, "SyncCostModel::SetRouting() was not called");
    NS_ASSERT_MSG(algorithms.size() == partition.size(), "one algorithm per clique");
    drafts.clear();
    receivers.clear();
    MaxMinFairShare mm;
    uint32_t nResources = m_routing->GetResourceCount();
    for (uint32_t r = 0; r < nResources; ++r)
    {
        mm.AddResource(m_routing->GetResourceCapacity(r));
    }
    double fpgaLatency = m_fpgaLatency.GetSeconds();
    std::vector<MaxMinFairShare::Usage> usage;
    std::vector<uint32_t> peerCities;

    for (uint32_t c = 0; c < partition.size(); ++c)
    {
        const Clique& clique = partition[c];
        uint32_t k = clique.size();
        if (k < 2)
        {
            continue;
        }
        if (algorithms[c] == SyncAlgorithm::RING)
        {
            // Ring order: ascending island index. One step's k streams stand for every step.
            Clique ring = clique;
            std::sort(ring.begin(), ring.end());
            uint64_t segment = (modelBytes + k - 1) / k;
            for (uint32_t p = 0; p < k; ++p)
            {
                uint32_t s = ring[p];
                uint32_t d = ring[(p + 1) % k];
                usage.clear();
                for (uint32_t res : m_pathResources[s][d])
                {
                    usage.emplace_back(res, 1.0);
                }
                drafts.push_back(Draft{c,
                                       s,
                                       static_cast<uint32_t>(receivers.size()),
                                       1,
                                       false,
                                       false,
                                       true,
                                       segment,
                                       m_pathDelay[s][d]});
                receivers.push_back(d);
                mm.AddFlow(usage);
                if (usages)
                {
                    usages->push_back(usage);
                }
            }
            continue;
        }
        // DIRECT: an FPGA in front of a receiver folds the k-1 incoming streams into one.
        double downWeightFpga = 1.0 / (k - 1);
        for (uint32_t s : clique)
        {
            peerCities.clear();
            for (uint32_t j : clique)
            {
                if (j != s)
                {
                    peerCities.push_back(m_islandCity[j]);
                }
            }
            WanTree tree = m_routing->GetTree(m_islandCity[s], peerCities);
            if (m_routing->IsMulticastCapable(tree))
            {
                usage.clear();
                usage.emplace_back(m_routing->GetAccessUpResource(s), 1.0);
                for (const auto& hop : tree.hops)
                {
                    usage.emplace_back(m_routing->GetHopResource(hop), 1.0);
                }
                uint32_t first = receivers.size();
                double delay = 0;
                bool aggregated = false;
                for (uint32_t j : clique)
                {
                    if (j == s)
                    {
                        continue;
                    }
                    bool fpga = HasFpga(j);
                    aggregated = aggregated || fpga;
                    usage.emplace_back(m_routing->GetAccessDownResource(j),
                                       fpga ? downWeightFpga : 1.0);
                    delay = std::max(delay, m_pathDelay[s][j] + (fpga ? fpgaLatency : 0.0));
                    receivers.push_back(j);
                }
                drafts.push_back(
                    Draft{c, s, first, k - 1, true, aggregated, false, modelBytes, delay});
                mm.AddFlow(usage);
                if (usages)
                {
                    usages->push_back(usage);
                }
                continue;
            }
            for (uint32_t j : clique)
            {
                if (j == s)
                {
                    continue;
                }
                bool fpga = HasFpga(j);
                usage.clear();
                const auto& path = m_pathResources[s][j];
                for (size_t h = 0; h + 1 < path.size(); ++h)
                {
                    usage.emplace_back(path[h], 1.0);
                }
                usage.emplace_back(path.back(), fpga ? downWeightFpga : 1.0);
                drafts.push_back(Draft{c,
                                       s,
                                       static_cast<uint32_t>(receivers.size()),
                                       1,
                                       false,
                                       fpga,
                                       false,
                                       modelBytes,
                                       m_pathDelay[s][j] + (fpga ? fpgaLatency : 0.0)});
                receivers.push_back(j);
                mm.AddFlow(usage);
                if (usages)
                {
                    usages->push_back(usage);
                }
            }
        }
    }
    rates = mm.Solve();
}

double
SyncCostModel::StreamDuration(const Draft& draft, double rate) const
{
    if (rate <= 0)
    {
        return std::numeric_limits<double>::infinity();
    }
    return GetWireBytes(draft.payloadBytes) * BITS_PER_BYTE / rate + draft.delay;
}

SyncRoundEstimate
SyncCostModel::EstimateRound(const Partition& partition,
                             const std::vector<SyncAlgorithm>& algorithms,
                             uint64_t modelBytes) const
{
    NS_LOG_FUNCTION(this << modelBytes);
    std::vector<Draft> drafts;
    std::vector<uint32_t> receivers;
    std::vector<std::vector<MaxMinFairShare::Usage>> usages;
    std::vector<double> rates;
    BuildAndSolve(partition, algorithms, modelBytes, drafts, receivers, &usages, rates);

    SyncRoundEstimate est;
    est.cliqueTime.assign(partition.size(), 0.0);
    std::vector<double> duration(drafts.size());
    for (size_t f = 0; f < drafts.size(); ++f)
    {
        duration[f] = StreamDuration(drafts[f], rates[f]);
        uint32_t c = drafts[f].clique;
        est.cliqueTime[c] = std::max(est.cliqueTime[c], duration[f]);
    }
    // A RING clique's step time is its slowest stream; its steps run one after the other.
    std::vector<double> stepTime(partition.size(), 0.0);
    for (uint32_t c = 0; c < partition.size(); ++c)
    {
        if (algorithms[c] == SyncAlgorithm::RING && partition[c].size() >= 2)
        {
            stepTime[c] = est.cliqueTime[c];
            est.cliqueTime[c] = 2.0 * (partition[c].size() - 1) * stepTime[c];
        }
    }
    for (size_t f = 0; f < drafts.size(); ++f)
    {
        const Draft& d = drafts[f];
        SyncStream stream;
        stream.clique = d.clique;
        stream.sender = d.sender;
        stream.receivers.assign(receivers.begin() + d.firstReceiver,
                                receivers.begin() + d.firstReceiver + d.receiverCount);
        std::sort(stream.receivers.begin(), stream.receivers.end());
        stream.algorithm = d.ring ? SyncAlgorithm::RING : SyncAlgorithm::DIRECT;
        stream.multicast = d.multicast;
        stream.aggregated = d.aggregated;
        stream.payloadBytes = d.payloadBytes;
        stream.chunks = GetChunkCount(d.payloadBytes);
        stream.wireBytes = GetWireBytes(d.payloadBytes);
        stream.rateBps = rates[f];
        stream.delay = d.delay;
        stream.resources = usages[f];
        if (!d.ring)
        {
            stream.finishTime = duration[f];
            est.streams.push_back(stream);
            continue;
        }
        uint32_t steps = 2 * (partition[d.clique].size() - 1);
        for (uint32_t step = 0; step < steps; ++step)
        {
            stream.ringStep = step;
            stream.startTime = step * stepTime[d.clique];
            stream.finishTime = stream.startTime + duration[f];
            est.streams.push_back(stream);
        }
    }
    for (double t : est.cliqueTime)
    {
        est.syncTime = std::max(est.syncTime, t);
    }
    m_roundEstimated(est.syncTime, static_cast<uint32_t>(est.streams.size()));
    return est;
}

SyncRoundEstimate
SyncCostModel::GetRoundPlan(const CliqueSchedule& schedule,
                            uint64_t round,
                            uint64_t modelBytes) const
{
    return EstimateRound(schedule.GetPartition(round), schedule.GetAlgorithms(round), modelBytes);
}

double
SyncCostModel::EstimateSyncTime(const Partition& partition,
                                const std::vector<SyncAlgorithm>& algorithms,
                                uint64_t modelBytes) const
{
    std::vector<Draft> drafts;
    std::vector<uint32_t> receivers;
    std::vector<double> rates;
    BuildAndSolve(partition, algorithms, modelBytes, drafts, receivers, nullptr, rates);
    std::vector<double> cliqueTime(partition.size(), 0.0);
    for (size_t f = 0; f < drafts.size(); ++f)
    {
        uint32_t c = drafts[f].clique;
        cliqueTime[c] = std::max(cliqueTime[c], StreamDuration(drafts[f], rates[f]));
    }
    double sync = 0;
    for (uint32_t c = 0; c < partition.size(); ++c)
    {
        double t = cliqueTime[c];
        if (algorithms[c] == SyncAlgorithm::RING)
        {
            t *= 2.0 * (partition[c].size() - 1);
        }
        sync = std::max(sync, t);
    }
    return sync;
}

SyncAlgorithm
SyncCostModel::ChooseAlgorithm(const Clique& clique, uint64_t modelBytes) const
{
    if (clique.size() <= 2)
    {
        return SyncAlgorithm::DIRECT;
    }
    Partition alone{clique};
    double direct = EstimateSyncTime(alone, {SyncAlgorithm::DIRECT}, modelBytes);
    double ring = EstimateSyncTime(alone, {SyncAlgorithm::RING}, modelBytes);
    return ring < direct ? SyncAlgorithm::RING : SyncAlgorithm::DIRECT;
}

} // namespace ns3
