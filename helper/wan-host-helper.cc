/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-host-helper.h"

#include "wan-topology-helper.h"

#include "ns3/log.h"
#include "ns3/node.h"

#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanHostHelper");

namespace
{

/** The hosts' block, 172.16.0.0/12 (host order). */
constexpr uint32_t HOST_NET_BASE = 0xAC100000;

} // namespace

WanHostHelper::WanHostHelper(WanTopologyHelper& wan)
    : m_wan(wan)
{
}

uint32_t
WanHostHelper::Add(uint32_t city, DataRate rate, Time delay, QueueSize queue)
{
    NS_LOG_FUNCTION(this << city << rate << delay << queue);
    const uint32_t host = m_devices.size();
    if (host >= MAX_HOSTS)
    {
        throw WanTopologyError("WanHostHelper::Add: more than " + std::to_string(MAX_HOSTS) +
                               " hosts (172.16.0.0/12 is full)");
    }
    const Ipv4Address address = WanTopologyHelper::GetSubnetHostAddress(HOST_NET_BASE, host);
    const auto access = m_wan.AttachHost(city, address, rate, delay, queue);
    m_devices.push_back(access[0]);
    m_cities.push_back(city);
    m_addresses.push_back(address);
    NS_LOG_INFO("host " << host << ": " << address);
    return host;
}

uint32_t
WanHostHelper::GetN() const
{
    return m_devices.size();
}

Ptr<Node>
WanHostHelper::GetNode(uint32_t host) const
{
    CheckHost(host, "GetNode");
    return m_devices[host]->GetNode();
}

Ipv4Address
WanHostHelper::GetAddress(uint32_t host) const
{
    CheckHost(host, "GetAddress");
    return m_addresses[host];
}

uint32_t
WanHostHelper::GetCity(uint32_t host) const
{
    CheckHost(host, "GetCity");
    return m_cities[host];
}

Ptr<NetDevice>
WanHostHelper::GetDevice(uint32_t host) const
{
    CheckHost(host, "GetDevice");
    return m_devices[host];
}

void
WanHostHelper::CheckHost(uint32_t host, const char* what) const
{
    if (host >= m_devices.size())
    {
        throw WanTopologyError(std::string("WanHostHelper::") + what + ": host index " +
                               std::to_string(host) + " out of range (" +
                               std::to_string(m_devices.size()) + " hosts)");
    }
}

} // namespace ns3
