/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-link-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/wan-link-channel.h"
#include "ns3/wan-link-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanLinkHelper");

WanLinkHelper::WanLinkHelper()
{
    NS_LOG_FUNCTION(this);
    m_deviceFactory.SetTypeId(WanLinkNetDevice::GetTypeId());
    m_channelFactory.SetTypeId(WanLinkChannel::GetTypeId());
}

void
WanLinkHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_deviceFactory.Set(name, value);
}

void
WanLinkHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_channelFactory.Set(name, value);
}

NetDeviceContainer
WanLinkHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    NS_LOG_FUNCTION(this << a << b);
    NS_ABORT_MSG_UNLESS(a && b, "WanLinkHelper::Install: a null node");
    NS_ABORT_MSG_IF(a == b, "WanLinkHelper::Install: node " << a->GetId() << " linked to itself");
    Ptr<WanLinkChannel> channel = m_channelFactory.Create<WanLinkChannel>();
    NetDeviceContainer devices;
    for (const Ptr<Node>& node : {a, b})
    {
        Ptr<WanLinkNetDevice> device = m_deviceFactory.Create<WanLinkNetDevice>();
        device->SetAddress(Mac48Address::Allocate());
        node->AddDevice(device);
        device->Attach(channel);
        devices.Add(device);
    }
    return devices;
}

} // namespace ns3
