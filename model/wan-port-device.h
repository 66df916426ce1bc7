/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PORT_DEVICE_H
#define WAN_PORT_DEVICE_H

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"

#include <cstdint>

namespace ns3
{

class Node;

/**
 * \ingroup wan-training
 * \brief Common base of the bump-in-the-wire devices (WanRouterNetDevice,
 *        FpgaAggregatorNetDevice): a NetDevice on a node with no IP stack that moves packets
 *        between the node's port devices and originates or delivers nothing itself.
 *
 * Holds the NetDevice boilerplate shared by such devices, shaped after BridgeNetDevice: the
 * device has no channel of its own (its ports have theirs), Send and SendFrom refuse, the
 * receive callbacks are stored but never called, the link is always up, and the address and
 * MTU are plain stored values. IsBroadcast and IsMulticast return false; a derived device
 * that wants to advertise otherwise overrides them. This class registers no attributes:
 * each derived device keeps its own (e.g. WanRouterNetDevice's Mtu) with its own default.
 */
class WanPortDevice : public NetDevice
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    ~WanPortDevice() override;

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
    /**
     * \brief Construct with the derived device's initial address and MTU.
     * \param address initial address (Mac48Address() if the device learns it later)
     * \param mtu initial MTU
     */
    WanPortDevice(Mac48Address address, uint16_t mtu);

    /** Clears the node pointer and the stored callbacks; derived devices call it last. */
    void DoDispose() override;

    Ptr<Node> m_node;       //!< node this device is installed on
    uint32_t m_ifIndex;     //!< interface index on the node
    Mac48Address m_address; //!< this device's address
    uint16_t m_mtu;         //!< MTU (its meaning is the derived device's)

  private:
    NetDevice::ReceiveCallback m_rxCallback;               //!< stored, never called
    NetDevice::PromiscReceiveCallback m_promiscRxCallback; //!< stored, never called
};

} // namespace ns3

#endif /* WAN_PORT_DEVICE_H */
