/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sync-cost-model.h"

#include "chunk-layout.h"
#include "gradient-header.h"
#include "wan-wire.h"

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
/**
 * Relative margin by which DirectLowerBound() must exceed the RING time to settle a clique's
 * algorithm without the DIRECT estimate: far above the rounding of progressive filling.
 */
constexpr double LOWER_BOUND_MARGIN = 1e-9;
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
            .AddAttribute("PppHeaderBytes",
                          "Link framing bytes per packet on every link: WanLinkNetDevice's "
                          "FramingBytes, or the stock PointToPointNetDevice's PPP header.",
                          UintegerValue(WanWire::PPP_HEADER_BYTES),
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
    : m_mtu(WanWire::DEFAULT_MTU),
      m_chunkPayloadBytes(0),
      m_ipv4HeaderBytes(WanWire::IPV4_HEADER_BYTES),
      m_udpHeaderBytes(WanWire::UDP_HEADER_BYTES),
      m_gradientHeaderBytes(0),
      m_pppHeaderBytes(WanWire::PPP_HEADER_BYTES),
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
    m_paths = SyncPathTable();
    Object::DoDispose();
}

void
SyncCostModel::SetRouting(const WanRouting& routing)
{
    NS_LOG_FUNCTION(this);
    m_routing = std::make_unique<WanRouting>(routing);
    // Computed once: the optimiser estimates many rounds on the same routes.
    m_paths = SyncPathTable(*m_routing);
}

const WanRouting&
SyncCostModel::GetRouting() const
{
    NS_ASSERT_MSG(m_routing, "SyncCostModel::SetRouting() was not called");
    return *m_routing;
}

uint32_t
SyncCostModel::GetGradientHeaderBytes() const
{
    if (m_gradientHeaderBytes > 0)
    {
        return m_gradientHeaderBytes;
    }
    return ChunkLayout::DataHeaderBytes(std::max<uint32_t>(1, m_paths.GetIslandCount()));
}

uint32_t
SyncCostModel::GetChunkPayloadBytes() const
{
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
    return m_ipv4HeaderBytes + m_udpHeaderBytes + GetGradientHeaderBytes() + m_pppHeaderBytes;
}

uint64_t
SyncCostModel::GetChunkCount(uint64_t payloadBytes) const
{
    return ChunkLayout::ChunksOf(payloadBytes, GetChunkPayloadBytes());
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
    for (double capacity : m_paths.GetCapacities())
    {
        mm.AddResource(capacity);
    }
    double fpgaLatency = m_fpgaLatency.GetSeconds();
    std::vector<MaxMinFairShare::Usage> usage;

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
            // Ring order: ascending island index. One step's k streams stand for every step:
            // each member always sends to the same successor, so the rates are the same.
            Clique ring = clique;
            std::sort(ring.begin(), ring.end());
            uint64_t segment = ChunkLayout::RingSegmentBytes(modelBytes, k, 0);
            for (uint32_t p = 0; p < k; ++p)
            {
                uint32_t s = ring[p];
                uint32_t d = ring[(p + 1) % k];
                usage.clear();
                for (uint32_t res : m_paths.GetPathResources(s, d))
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
                                       m_paths.GetPathDelay(s, d)});
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
            usage.clear();
            usage.emplace_back(m_routing->GetAccessUpResource(s), 1.0);
            const bool multicast = m_paths.WalkTree(s, clique, &usage);
            if (multicast)
            {
                uint32_t first = receivers.size();
                double delay = 0;
                bool aggregated = false;
                for (uint32_t j : clique)
                {
                    if (j == s)
                    {
                        continue;
                    }
                    bool fpga = m_paths.HasFpga(j);
                    aggregated = aggregated || fpga;
                    usage.emplace_back(m_routing->GetAccessDownResource(j),
                                       fpga ? downWeightFpga : 1.0);
                    delay =
                        std::max(delay, m_paths.GetPathDelay(s, j) + (fpga ? fpgaLatency : 0.0));
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
                bool fpga = m_paths.HasFpga(j);
                usage.clear();
                const auto& path = m_paths.GetPathResources(s, j);
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
                                       m_paths.GetPathDelay(s, j) + (fpga ? fpgaLatency : 0.0)});
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
    return GetWireBytes(draft.payloadBytes) * WanWire::BITS_PER_BYTE / rate + draft.delay;
}

double
SyncCostModel::RingCompletion(const Clique& ring,
                              const std::vector<double>& rates,
                              uint64_t modelBytes,
                              std::vector<std::vector<RingStepTime>>* times,
                              std::vector<double>* completion) const
{
    const uint32_t k = ring.size();
    NS_ASSERT_MSG(k >= 2 && rates.size() == k, "one rate per ring member");
    const uint32_t steps = 2 * (k - 1);
    const uint64_t chunkPayload = GetChunkPayloadBytes();
    const uint64_t overhead = GetPacketOverheadBytes();
    if (times)
    {
        times->assign(k, std::vector<RingStepTime>(steps, RingStepTime{0, 0}));
    }
    // handed[p]: member p handed its previous step's last packet to the socket.
    // input[p]: the last packet of the predecessor's previous step reached p.
    std::vector<double> handed(k, 0.0);
    std::vector<double> input(k, 0.0);
    std::vector<double> nextInput(k, 0.0);
    // Per segment: its packets, the wire bits of its last packet and of the whole segment.
    std::vector<uint64_t> segmentLastWire(k);
    std::vector<double> segmentWireBits(k);
    for (uint32_t g = 0; g < k; ++g)
    {
        const uint64_t bytes = ChunkLayout::RingSegmentBytes(modelBytes, k, g);
        // An empty segment still sends one header-only packet.
        const uint64_t chunks = std::max<uint64_t>(1, GetChunkCount(bytes));
        segmentLastWire[g] = bytes - (chunks - 1) * chunkPayload + overhead;
        segmentWireBits[g] = WanWire::BITS_PER_BYTE * (bytes + chunks * overhead);
    }
    // Per member: the last-packet size whose transit to the successor is in transitTime.
    std::vector<uint64_t> transitWire(k, std::numeric_limits<uint64_t>::max());
    std::vector<double> transitTime(k, 0.0);
    for (uint32_t step = 0; step < steps; ++step)
    {
        for (uint32_t p = 0; p < k; ++p)
        {
            if (!(rates[p] > 0))
            {
                return std::numeric_limits<double>::infinity();
            }
            const uint32_t q = (p + 1) % k;
            const double start = std::max(handed[p], input[p]);
            const uint32_t segment = ChunkLayout::RingSendSegment(k, p, step);
            const uint64_t lastWire = segmentLastWire[segment];
            const double wireBits = segmentWireBits[segment];
            // Pacing hands packet n to the socket when the bits before it are paid for at the
            // stream's rate: the step is handed off one packet before its fluid end.
            handed[p] = start + (wireBits - WanWire::BITS_PER_BYTE * lastWire) / rates[p];
            // The last packet then crosses every link store-and-forward, then propagates.
            // Segments share a few sizes, so the transit is recomputed only when the size of
            // this member's last packet changes.
            if (lastWire != transitWire[p])
            {
                transitWire[p] = lastWire;
                transitTime[p] = m_paths.GetPacketTransit(ring[p], ring[q], lastWire);
            }
            nextInput[q] = handed[p] + transitTime[p];
            if (times)
            {
                (*times)[p][step] = RingStepTime{start, nextInput[q]};
            }
        }
        input.swap(nextInput);
    }
    // A member is done when it has sent its last step and received its predecessor's.
    double sum = 0;
    if (completion)
    {
        completion->assign(k, 0.0);
    }
    for (uint32_t p = 0; p < k; ++p)
    {
        const double done = std::max(handed[p], input[p]);
        sum += done;
        if (completion)
        {
            (*completion)[p] = done;
        }
    }
    return sum / k;
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
    est.islandTime.assign(m_paths.GetIslandCount(), 0.0);
    // RING cliques: their drafts are consecutive, in ring position order.
    std::vector<size_t> ringFirst(partition.size(), drafts.size());
    std::vector<std::vector<std::vector<RingStepTime>>> ringTimes(partition.size());
    for (size_t f = 0; f < drafts.size(); ++f)
    {
        uint32_t c = drafts[f].clique;
        if (!drafts[f].ring)
        {
            const Draft& d = drafts[f];
            est.cliqueTime[c] = std::max(est.cliqueTime[c], StreamDuration(d, rates[f]));
            // A DIRECT island is done when its own streams are sent and every peer's arrived.
            const double sending = StreamDuration(d, rates[f]) - d.delay;
            est.islandTime[d.sender] = std::max(est.islandTime[d.sender], sending);
            for (uint32_t r = 0; r < d.receiverCount; ++r)
            {
                const uint32_t j = receivers[d.firstReceiver + r];
                const double arrival =
                    sending + m_paths.GetPathDelay(d.sender, j) +
                    (m_paths.HasFpga(j) && d.aggregated ? m_fpgaLatency.GetSeconds() : 0.0);
                est.islandTime[j] = std::max(est.islandTime[j], arrival);
            }
        }
        else if (ringFirst[c] == drafts.size())
        {
            ringFirst[c] = f;
        }
    }
    for (uint32_t c = 0; c < partition.size(); ++c)
    {
        if (ringFirst[c] == drafts.size())
        {
            continue;
        }
        Clique ring = partition[c];
        std::sort(ring.begin(), ring.end());
        std::vector<double> ringRates(rates.begin() + ringFirst[c],
                                      rates.begin() + ringFirst[c] + ring.size());
        std::vector<double> completion;
        est.cliqueTime[c] = RingCompletion(ring, ringRates, modelBytes, &ringTimes[c], &completion);
        for (uint32_t p = 0; p < ring.size(); ++p)
        {
            est.islandTime[ring[p]] = completion[p];
        }
    }
    // Planned load of each resource, for the resend weights of folded streams.
    const std::vector<double>& capacity = m_paths.GetCapacities();
    std::vector<double> load(capacity.size(), 0.0);
    for (size_t f = 0; f < drafts.size(); ++f)
    {
        for (const auto& [resource, weight] : usages[f])
        {
            load[resource] += weight * rates[f];
        }
    }
    for (size_t f = 0; f < drafts.size(); ++f)
    {
        const Draft& d = drafts[f];
        SyncStream stream;
        for (const auto& [resource, weight] : usages[f])
        {
            if (weight < 1.0 && capacity[resource] > 0)
            {
                stream.resendWeight =
                    std::max(stream.resendWeight, load[resource] / (weight * capacity[resource]));
            }
        }
        stream.clique = d.clique;
        stream.sender = d.sender;
        stream.receivers.assign(receivers.begin() + d.firstReceiver,
                                receivers.begin() + d.firstReceiver + d.receiverCount);
        std::sort(stream.receivers.begin(), stream.receivers.end());
        stream.algorithm = d.ring ? SyncAlgorithm::RING : SyncAlgorithm::DIRECT;
        stream.multicast = d.multicast;
        stream.aggregated = d.aggregated;
        stream.rateBps = rates[f];
        stream.delay = d.delay;
        stream.resources = usages[f];
        if (!d.ring)
        {
            stream.payloadBytes = d.payloadBytes;
            stream.chunks = GetChunkCount(d.payloadBytes);
            stream.wireBytes = GetWireBytes(d.payloadBytes);
            stream.finishTime = StreamDuration(d, rates[f]);
            est.streams.push_back(stream);
            continue;
        }
        const uint32_t k = partition[d.clique].size();
        const uint32_t position = static_cast<uint32_t>(f - ringFirst[d.clique]);
        const auto& times = ringTimes[d.clique];
        for (uint32_t step = 0; step < 2 * (k - 1); ++step)
        {
            stream.ringStep = step;
            stream.payloadBytes =
                ChunkLayout::RingSegmentBytes(modelBytes,
                                              k,
                                              ChunkLayout::RingSendSegment(k, position, step));
            stream.chunks = std::max<uint64_t>(1, GetChunkCount(stream.payloadBytes));
            stream.wireBytes = stream.payloadBytes + stream.chunks * GetPacketOverheadBytes();
            if (position < times.size())
            {
                stream.startTime = times[position][step].start;
                stream.finishTime = times[position][step].arrival;
            }
            est.streams.push_back(stream);
        }
    }
    for (double t : est.cliqueTime)
    {
        est.syncTime = std::max(est.syncTime, t);
    }
    for (double t : est.islandTime)
    {
        est.meanIslandTime += t / est.islandTime.size();
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
    double sync = 0;
    std::vector<bool> ringDone(partition.size(), false);
    for (size_t f = 0; f < drafts.size(); ++f)
    {
        const uint32_t c = drafts[f].clique;
        if (!drafts[f].ring)
        {
            sync = std::max(sync, StreamDuration(drafts[f], rates[f]));
            continue;
        }
        if (ringDone[c])
        {
            continue;
        }
        // The first draft of a RING clique: its k drafts follow in ring position order.
        ringDone[c] = true;
        Clique ring = partition[c];
        std::sort(ring.begin(), ring.end());
        std::vector<double> ringRates(rates.begin() + f, rates.begin() + f + ring.size());
        sync = std::max(sync, RingCompletion(ring, ringRates, modelBytes, nullptr, nullptr));
    }
    return sync;
}

double
SyncCostModel::DirectLowerBound(const Clique& clique, uint64_t modelBytes) const
{
    // Rates are fair shares of capacities: the streams through an access link share its
    // capacity, so the slowest of them has at most capacity / streams (with the FPGA's weight
    // 1/(k-1) on an ingress, that is the whole capacity), and its stream time is at least its
    // wire bits over that rate (delays only add).
    const uint32_t k = clique.size();
    const double wireBits = WanWire::BITS_PER_BYTE * GetWireBytes(modelBytes);
    double bound = 0;
    for (uint32_t s : clique)
    {
        const double streams = m_paths.WalkTree(s, clique, nullptr) ? 1.0 : k - 1.0;
        bound =
            std::max(bound,
                     streams * wireBits / m_paths.GetCapacity(m_routing->GetAccessUpResource(s)));
        const double ingress = m_paths.HasFpga(s) ? 1.0 : k - 1.0;
        bound =
            std::max(bound,
                     ingress * wireBits / m_paths.GetCapacity(m_routing->GetAccessDownResource(s)));
    }
    return bound;
}

SyncAlgorithm
SyncCostModel::ChooseAlgorithm(const Clique& clique, uint64_t modelBytes) const
{
    if (clique.size() <= 2)
    {
        return SyncAlgorithm::DIRECT;
    }
    Partition alone{clique};
    double ring = EstimateSyncTime(alone, {SyncAlgorithm::RING}, modelBytes);
    // DIRECT of a large clique without multicast is k(k-1) streams, and its estimate the
    // costliest of the optimiser; a lower bound that already loses to RING settles it. The
    // margin covers the rounding of the fair-share sums.
    if (DirectLowerBound(clique, modelBytes) * (1 - LOWER_BOUND_MARGIN) > ring)
    {
        return SyncAlgorithm::RING;
    }
    double direct = EstimateSyncTime(alone, {SyncAlgorithm::DIRECT}, modelBytes);
    return ring < direct ? SyncAlgorithm::RING : SyncAlgorithm::DIRECT;
}

} // namespace ns3
