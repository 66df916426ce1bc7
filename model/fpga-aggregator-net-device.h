/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FPGA_AGGREGATOR_NET_DEVICE_H
#define FPGA_AGGREGATOR_NET_DEVICE_H

#include "ns3/net-device.h"

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief An in-line FPGA between an island and its city router that aggregates the gradient
 *        chunks flowing into the island (ingress relief).
 *
 * (The FPGA issue completes this class; the helper relies only on the members below.)
 */
class FpgaAggregatorNetDevice : public NetDevice
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();

    /** \param port the device towards the island (access link) */
    void SetIslandPort(Ptr<NetDevice> port);
    /** \param port the device towards the router (in-box link) */
    void SetRouterPort(Ptr<NetDevice> port);
    // Attribute "IslandIndex" (uint32_t): the island this FPGA serves.
};

} // namespace ns3

#endif /* FPGA_AGGREGATOR_NET_DEVICE_H */
