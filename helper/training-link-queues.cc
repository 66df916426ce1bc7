/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-link-queues.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/wan-link-net-device.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingLinkQueues");

namespace
{
/** Transmit queue packets provisioned per planned stream that shares a link direction. */
constexpr uint32_t QUEUE_HEADROOM = 2;
/** Transport adaptive: EcnMaxThreshold at least this many times EcnMinThreshold. */
constexpr uint32_t ECN_MAX_OVER_MIN = 3;
/** Transport adaptive: the transmit queue holds at least this many times EcnMaxThreshold. */
constexpr uint32_t QUEUE_OVER_ECN_MAX = 2;
} // namespace

void
TrainingLinkQueues::Size(const WanRouting& routing,
                         const std::vector<SyncRoundEstimate>& plans,
                         bool tune,
                         bool ecn,
                         uint32_t controlBurst)
{
    // Streams paced at fixed rates leave at most one packet each in a queue they share, however
    // their phases fall (per window of time each brings at most one packet more than its rate
    // carries, and the rates fit the link); in-phase streams reach that bound. So a link
    // direction crossed by S planned streams needs room for S packets: with many islands,
    // more than a default queue holds (unicast copies across a continent's few long links).
    std::vector<uint32_t> most(routing.GetResourceCount(), 0);
    for (const SyncRoundEstimate& plan : plans)
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
        if (ecn)
        {
            EnableEcn(0);
        }
        return;
    }
    const uint32_t streamsNeed = QUEUE_HEADROOM * *busiest;
    const uint32_t needed = streamsNeed + controlBurst;
    const std::string where =
        routing.GetResourceName(static_cast<uint32_t>(busiest - most.begin()));
    for (const Ptr<NetDevice>& device : GetLinkDevices())
    {
        const QueueSize size = GetQueueSize(device);
        const QueueSize bigger = AtLeast(size, needed, device->GetMtu());
        if (bigger == size)
        {
            continue;
        }
        if (!tune)
        {
            std::ostringstream os;
            os << "TrainingHelper: a transmit queue holds " << size << ", but up to " << *busiest
               << " planned streams share one link direction (" << where
               << "): in phase they queue one packet each, and control packets come in bursts of "
               << controlBurst << "; make queues hold at least " << needed
               << " packets (WanTopologyHelper::SetQueue, --queue) or let SetTuneQueues size "
                  "them";
            throw std::runtime_error(os.str());
        }
        SetQueueSize(device, bigger);
    }
    if (ecn)
    {
        EnableEcn(streamsNeed);
    }
    NS_LOG_INFO("transmit queues hold at least " << needed << " packets: up to " << *busiest
                                                 << " streams share " << where << ", and "
                                                 << controlBurst << " control packets");
}

QueueSize
TrainingLinkQueues::AtLeast(QueueSize size, uint32_t packets, uint32_t mtu)
{
    if (size.GetUnit() == QueueSizeUnit::PACKETS)
    {
        return QueueSize(QueueSizeUnit::PACKETS, std::max(size.GetValue(), packets));
    }
    // A queue in bytes holds that many packets of the largest size.
    const uint64_t bytes = std::max<uint64_t>(size.GetValue(), uint64_t(packets) * mtu);
    return QueueSize(QueueSizeUnit::BYTES,
                     static_cast<uint32_t>(std::min<uint64_t>(bytes, UINT32_MAX)));
}

QueueSize
TrainingLinkQueues::GetQueueSize(Ptr<NetDevice> device)
{
    Ptr<PointToPointNetDevice> stock = DynamicCast<PointToPointNetDevice>(device);
    if (stock)
    {
        return stock->GetQueue()->GetMaxSize();
    }
    QueueSizeValue size;
    device->GetAttribute("TxQueueMaxSize", size);
    return size.Get();
}

void
TrainingLinkQueues::SetQueueSize(Ptr<NetDevice> device, QueueSize size)
{
    Ptr<PointToPointNetDevice> stock = DynamicCast<PointToPointNetDevice>(device);
    if (stock)
    {
        stock->GetQueue()->SetMaxSize(size);
    }
    else
    {
        device->SetAttribute("TxQueueMaxSize", QueueSizeValue(size));
    }
}

std::vector<Ptr<NetDevice>>
TrainingLinkQueues::GetLinkDevices()
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
TrainingLinkQueues::EnableEcn(uint32_t burst)
{
    for (const Ptr<NetDevice>& device : GetLinkDevices())
    {
        if (!DynamicCast<WanLinkNetDevice>(device))
        {
            continue; // ns-3's stock device does not mark
        }
        device->SetAttribute("EcnMarking", BooleanValue(true));
        QueueSizeValue kmin;
        QueueSizeValue kmax;
        device->GetAttribute("EcnMinThreshold", kmin);
        device->GetAttribute("EcnMaxThreshold", kmax);
        if (kmin.Get().GetUnit() != QueueSizeUnit::PACKETS ||
            kmax.Get().GetUnit() != QueueSizeUnit::PACKETS)
        {
            continue; // the user's byte thresholds stand
        }
        // Streams in phase queue one packet each without any overload: no mark for that.
        const uint32_t low = std::max(kmin.Get().GetValue(), burst);
        const uint32_t high = std::max(kmax.Get().GetValue(), ECN_MAX_OVER_MIN * low);
        const QueueSize room =
            AtLeast(GetQueueSize(device), QUEUE_OVER_ECN_MAX * high, device->GetMtu());
        device->SetAttribute("EcnMinThreshold",
                             QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, low)));
        device->SetAttribute("EcnMaxThreshold",
                             QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, high)));
        SetQueueSize(device, room);
    }
}

} // namespace ns3
