/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "link-port.h"

#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ppp-header.h"
#include "ns3/queue.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkPort");

LinkPort::LinkPort(Ptr<const NetDevice> device)
    : m_link(DynamicCast<const WanLinkNetDevice>(device))
{
    NS_LOG_FUNCTION(this << device);
    if (const Ptr<const PointToPointNetDevice> p2p =
            DynamicCast<const PointToPointNetDevice>(device))
    {
        m_stockQueue = p2p->GetQueue();
    }
}

uint32_t
LinkPort::GetQueuedPackets() const
{
    NS_LOG_FUNCTION(this);
    if (m_link)
    {
        return m_link->GetQueuePackets();
    }
    return m_stockQueue ? m_stockQueue->GetNPackets() : 0;
}

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
    return LinkPort(device).GetQueuedPackets();
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
