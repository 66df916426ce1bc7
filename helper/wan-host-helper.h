/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_HOST_HELPER_H
#define WAN_HOST_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class WanTopologyHelper;

/**
 * \ingroup wan-training
 * \brief Extra hosts (not islands) at cities, for cross traffic: numbers them, gives each an
 *        address from 172.16.0.0/12 and attaches it with WanTopologyHelper::AttachHost.
 *
 * Host h is 172.16.(h / 256).(h % 256) + 1, the .1 of its own /24, apart from the islands'
 * 10.0.0.0/8 (the same rule, WanTopologyHelper::GetSubnetHostAddress). A host reaches the WAN on
 * its own access link to its city's router, never behind an FPGA, and joins no group.
 */
class WanHostHelper
{
  public:
    /** Most hosts one WanHostHelper attaches: the /24 subnets of 172.16.0.0/12. */
    static constexpr uint32_t MAX_HOSTS = 1u << 12;

    /** \param wan the installed WAN the hosts attach to (it must outlive this helper) */
    explicit WanHostHelper(WanTopologyHelper& wan);

    /**
     * \brief Attach the next host to a city's router.
     * \param city city index \param rate access link rate \param delay access link delay
     * \param queue the bound of the host's own transmit queue
     * \return the host index (0, 1, ... in the order of the calls)
     * \throws WanTopologyError for a city out of range or more than MAX_HOSTS hosts
     */
    uint32_t Add(uint32_t city, DataRate rate, Time delay, QueueSize queue);
    /** \return the number of hosts Add() attached */
    uint32_t GetN() const;
    /** \param host host index \return its node \throws WanTopologyError when out of range */
    Ptr<Node> GetNode(uint32_t host) const;
    /** \param host host index \return its IPv4 address \throws WanTopologyError (range) */
    Ipv4Address GetAddress(uint32_t host) const;
    /** \param host host index \return its city index \throws WanTopologyError (range) */
    uint32_t GetCity(uint32_t host) const;
    /** \param host host index \return its own end of its access link \throws (range) */
    Ptr<NetDevice> GetDevice(uint32_t host) const;

  private:
    /** \param host a host index \param what the caller, for the message \throws */
    void CheckHost(uint32_t host, const char* what) const;

    WanTopologyHelper& m_wan;              //!< the WAN
    std::vector<Ptr<NetDevice>> m_devices; //!< per host: its end of the access link
    std::vector<uint32_t> m_cities;        //!< per host: its city
    std::vector<Ipv4Address> m_addresses;  //!< per host: its address
};

} // namespace ns3

#endif /* WAN_HOST_HELPER_H */
