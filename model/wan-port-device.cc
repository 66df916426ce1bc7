/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-port-device.h"

#include "ns3/channel.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanPortDevice");

NS_OBJECT_ENSURE_REGISTERED(WanPortDevice);

TypeId
WanPortDevice::GetTypeId()
{
    // No constructor: the class is a base only. No attributes: the derived devices keep theirs.
    static TypeId tid =
        TypeId("ns3::WanPortDevice").SetParent<NetDevice>().SetGroupName("WanTraining");
    return tid;
}

WanPortDevice::WanPortDevice(Mac48Address address, uint16_t mtu)
    : m_node(nullptr),
      m_ifIndex(0),
      m_address(address),
      m_mtu(mtu)
{
    NS_LOG_FUNCTION(this << address << mtu);
}

WanPortDevice::~WanPortDevice()
{
    NS_LOG_FUNCTION(this);
}

void
WanPortDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_rxCallback =
        MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    m_promiscRxCallback = MakeNullCallback<bool,
                                           Ptr<NetDevice>,
                                           Ptr<const Packet>,
                                           uint16_t,
                                           const Address&,
                                           const Address&,
                                           NetDevice::PacketType>();
    NetDevice::DoDispose();
}

// NetDevice interface: the device originates and delivers nothing, like a bridge's ports.

void
WanPortDevice::SetIfIndex(const uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    m_ifIndex = index;
}

uint32_t
WanPortDevice::GetIfIndex() const
{
    NS_LOG_FUNCTION(this);
    return m_ifIndex;
}

Ptr<Channel>
WanPortDevice::GetChannel() const
{
    NS_LOG_FUNCTION(this);
    // The ports have their own channels; this device has none of its own.
    return nullptr;
}

void
WanPortDevice::SetAddress(Address address)
{
    NS_LOG_FUNCTION(this << address);
    m_address = Mac48Address::ConvertFrom(address);
}

Address
WanPortDevice::GetAddress() const
{
    NS_LOG_FUNCTION(this);
    return m_address;
}

bool
WanPortDevice::SetMtu(const uint16_t mtu)
{
    NS_LOG_FUNCTION(this << mtu);
    m_mtu = mtu;
    return true;
}

uint16_t
WanPortDevice::GetMtu() const
{
    NS_LOG_FUNCTION(this);
    return m_mtu;
}

bool
WanPortDevice::IsLinkUp() const
{
    NS_LOG_FUNCTION(this);
    return true;
}

void
WanPortDevice::AddLinkChangeCallback(Callback<void> callback)
{
    NS_LOG_FUNCTION(this);
    // The link never changes state: nothing to notify.
}

bool
WanPortDevice::IsBroadcast() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

Address
WanPortDevice::GetBroadcast() const
{
    NS_LOG_FUNCTION(this);
    return Mac48Address::GetBroadcast();
}

bool
WanPortDevice::IsMulticast() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

Address
WanPortDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    NS_LOG_FUNCTION(this << multicastGroup);
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
WanPortDevice::GetMulticast(Ipv6Address addr) const
{
    NS_LOG_FUNCTION(this << addr);
    return Mac48Address::GetMulticast(addr);
}

bool
WanPortDevice::IsPointToPoint() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

bool
WanPortDevice::IsBridge() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

bool
WanPortDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    return false; // nothing on a port-device node originates traffic
}

bool
WanPortDevice::SendFrom(Ptr<Packet> packet,
                        const Address& source,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    return false; // nothing on a port-device node originates traffic
}

Ptr<Node>
WanPortDevice::GetNode() const
{
    NS_LOG_FUNCTION(this);
    return m_node;
}

void
WanPortDevice::SetNode(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_node = node;
}

bool
WanPortDevice::NeedsArp() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

void
WanPortDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    NS_LOG_FUNCTION(this);
    m_rxCallback = cb;
}

void
WanPortDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    NS_LOG_FUNCTION(this);
    m_promiscRxCallback = cb;
}

bool
WanPortDevice::SupportsSendFrom() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

} // namespace ns3
