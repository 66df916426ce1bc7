/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_ROUTER_NET_DEVICE_H
#define WAN_ROUTER_NET_DEVICE_H

#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Node;
class Packet;

/**
 * \ingroup wan-training
 * \brief A programmable WAN router: forwards IPv4 packets between its port devices by its own
 *        unicast and (source, group) multicast tables.
 *
 * Shaped after BridgeNetDevice: the router node has no IP stack; this device owns the node's
 * PointToPointNetDevice ports and registers a promiscuous protocol handler on each. Forwarding
 * decrements the TTL (dropping at zero), looks the destination up in a hash table (unicast) or
 * the (source, group) pair (multicast) and sends copies out of the listed ports, never back
 * out of the port the packet came in on. Multicast is replicated only while MulticastEnabled
 * is true; otherwise multicast packets are dropped and counted. The tables are installed by
 * WanTopologyHelper (the WAN controller).
 */
class WanRouterNetDevice : public NetDevice
{
  public:
    /** Why a packet was dropped (the Drop trace's reason and the counters' index). */
    enum DropReason
    {
        DROP_MALFORMED = 0,          //!< not a parseable IPv4 packet
        DROP_TTL_EXPIRED,            //!< TTL reached zero
        DROP_NO_ROUTE,               //!< no unicast route, or no (source, group) entry
        DROP_MULTICAST_DISABLED,     //!< multicast arrived while MulticastEnabled is false
        DROP_FANOUT_LIMIT,           //!< the entry lists more ports than MaxFanOut
        DROP_REASON_COUNT            //!< number of reasons (not a reason)
    };

    /** \return the reason's name, e.g. "TtlExpired" \param reason a drop reason */
    static const char* DropReasonName(DropReason reason);

    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    WanRouterNetDevice();
    ~WanRouterNetDevice() override;

    /**
     * \brief Add a port; the router receives on it promiscuously and forwards out of it.
     * \param port a point-to-point device installed on the same node
     * \return the port index used by the route tables
     */
    uint32_t AddPort(Ptr<NetDevice> port);
    /** \return the number of ports */
    uint32_t GetNPorts() const;
    /** \param index a port index \return the port device */
    Ptr<NetDevice> GetPort(uint32_t index) const;

    /**
     * \brief Route packets for one destination address out of one port.
     * \param destination host address \param port port index
     */
    void AddHostRoute(Ipv4Address destination, uint32_t port);
    /**
     * \brief Install a (source, group) entry: copies leave by every listed port except the
     *        ingress port.
     * \param source the sender's address \param group the 239/8 group \param ports port indices
     */
    void AddMulticastRoute(Ipv4Address source, Ipv4Address group, const std::vector<uint32_t>& ports);
    /** \param reason a drop reason \return how many packets were dropped for it */
    uint64_t GetDropCount(DropReason reason) const;
    /** \return packets forwarded (each copy sent counts once) */
    uint64_t GetForwardCount() const;

    // NetDevice interface
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    // The implementation adds the receive path, tables and members it needs here.
};

} // namespace ns3

#endif /* WAN_ROUTER_NET_DEVICE_H */
