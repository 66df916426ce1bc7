/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "link-port.h"

#include "wan-link-net-device.h"

#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ppp-header.h"
#include "ns3/queue.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkPort");

uint32_t
LinkPort::GetFramingBytes(Ptr<const NetDevice> device)
{
    NS_LOG_FUNCTION(device);
    if (DynamicCast<const PointToPointNetDevice>(device))
    {
        return PppHeader().GetSerializedSize();
    }
    return GetUntracedFramingBytes(device);
}

uint32_t
LinkPort::GetUntracedFramingBytes(Ptr<const NetDevice> device)
{
    NS_LOG_FUNCTION(device);
    const Ptr<const WanLinkNetDevice> link = DynamicCast<const WanLinkNetDevice>(device);
    return link ? link->GetFramingBytes() : 0;
}

uint32_t
LinkPort::GetQueuedPackets(Ptr<const NetDevice> device)
{
    NS_LOG_FUNCTION(device);
    if (const Ptr<const WanLinkNetDevice> link = DynamicCast<const WanLinkNetDevice>(device))
    {
        return link->GetQueuePackets();
    }
    if (const Ptr<const PointToPointNetDevice> p2p =
            DynamicCast<const PointToPointNetDevice>(device))
    {
        return p2p->GetQueue()->GetNPackets();
    }
    return 0;
}

bool
LinkPort::IsIdle(Ptr<const NetDevice> device)
{
    NS_LOG_FUNCTION(device);
    if (const Ptr<const WanLinkNetDevice> link = DynamicCast<const WanLinkNetDevice>(device))
    {
        return link->IsIdle();
    }
    return GetQueuedPackets(device) == 0;
}

} // namespace ns3
