/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TRANSIT_FPGAS_H
#define WAN_TRANSIT_FPGAS_H

#include "ns3/attribute.h"
#include "ns3/ipv4-address.h"
#include "ns3/island-bitmap.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/transit-aggregator-net-device.h"
#include "ns3/wan-router-net-device.h"
#include "ns3/wan-routing.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The transit FPGAs of an installed WAN (WanTopologyHelper): one beside the router of
 *        every city with the transit capability, and what each expects below it.
 *
 * Each is a TransitAggregatorNetDevice on its own node (the city's system id), joined to the
 * router by an in-box link; the router's port on that link, added after its WAN and access
 * ports, becomes its transit port. Each root island's address is given the island's
 * below-set at the city (BelowSets).
 */
class WanTransitFpgas
{
  public:
    /** Makes the in-box link between an FPGA node and a router node: the devices, FPGA first. */
    typedef std::function<std::array<Ptr<NetDevice>, 2>(Ptr<Node>, Ptr<Node>)> InBoxLink;

    WanTransitFpgas();

    /**
     * \brief Set an attribute of every TransitAggregatorNetDevice created by Install().
     * \param name attribute name \param value attribute value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Build the transit FPGA of every transit city and name every root to it.
     * \param routing the installed routes (and topology) \param routers router per city
     * \param islandAddresses address per island \param systemIds system id per city (empty:
     *        all 0) \param inBoxLink makes an in-box link
     */
    void Install(const WanRouting& routing,
                 const std::vector<Ptr<WanRouterNetDevice>>& routers,
                 const std::vector<Ipv4Address>& islandAddresses,
                 const std::vector<uint32_t>& systemIds,
                 const InBoxLink& inBoxLink);
    /** \param city city index \return its transit FPGA, or nullptr */
    Ptr<TransitAggregatorNetDevice> Get(uint32_t city) const;
    /** \return both ends of every transit FPGA's in-box link, by city */
    std::vector<Ptr<NetDevice>> GetInBoxDevices() const;

    /**
     * \brief Below-sets at one city: for each root island r, the islands i != r whose city path
     *        city(i) -> city(r) (WanRouting) includes the city, both ends included. Islands
     *        past IslandBitmap::MAX_ISLANDS are left out (no clique can hold them).
     * \param routing the routes \param city the city
     * \return one bitmap per island (as root), by island index
     */
    static std::vector<IslandBitmap> BelowSets(const WanRouting& routing, uint32_t city);

  private:
    ObjectFactory m_factory;                                //!< creates the devices
    std::vector<Ptr<TransitAggregatorNetDevice>> m_devices; //!< per city, null without transit
    std::vector<Ptr<NetDevice>> m_inBoxDevices;             //!< FPGA and router ends, by city
};

} // namespace ns3

#endif /* WAN_TRANSIT_FPGAS_H */
