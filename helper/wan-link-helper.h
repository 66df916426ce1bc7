/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_LINK_HELPER_H
#define WAN_LINK_HELPER_H

#include "ns3/attribute.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Builds WanLinkNetDevice pairs on WanLinkChannels, as PointToPointHelper builds
 *        PointToPointNetDevice pairs: a link between two nodes, each end with its own
 *        Mac48Address, added to its node and attached to the channel.
 *
 * Device attributes (DataRate, Mtu, TxQueueMaxSize, ...) and channel attributes (Delay) apply
 * to every link the helper installs from then on. WanTopologyHelper builds its links with it;
 * a program of its own can connect any two nodes the same way:
 *
 * \code
 *   WanLinkHelper link;
 *   link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
 *   link.SetChannelAttribute("Delay", TimeValue(MilliSeconds(20)));
 *   NetDeviceContainer devices = link.Install(a, b);
 * \endcode
 */
class WanLinkHelper
{
  public:
    WanLinkHelper();

    /**
     * \brief Set an attribute of the WanLinkNetDevices installed from now on.
     * \param name attribute name \param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of the WanLinkChannels installed from now on.
     * \param name attribute name \param value its value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Connect two nodes by a new link.
     * \param a first node \param b second node (not a itself)
     * \return the two devices, a's first
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

  private:
    ObjectFactory m_deviceFactory;  //!< makes the WanLinkNetDevices
    ObjectFactory m_channelFactory; //!< makes the WanLinkChannels
};

} // namespace ns3

#endif /* WAN_LINK_HELPER_H */
