/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_ROUTER_NET_DEVICE_H
#define WAN_ROUTER_NET_DEVICE_H

#include "wan-port-device.h"
#include "wan-wire.h"

#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Node;
class Packet;
class WanLinkNetDevice;

/**
 * \ingroup wan-training
 * \brief A programmable WAN router: forwards IPv4 packets between its port devices by its own
 *        unicast and (source, group) multicast tables.
 *
 * Shaped after BridgeNetDevice: the router node has no IP stack; this device owns the node's
 * link devices (WanLinkNetDevice, or PointToPointNetDevice with stock links) as ports and
 * takes each port's frames as its receive callback (the node, which runs no stack, has nothing
 * to dispatch them to but this device). Forwarding decrements the TTL (dropping at zero),
 * looks the destination up in a hash table (unicast) or the (source, group) pair (multicast)
 * and sends copies out of the listed ports, never back out of the port the packet came in on.
 * Multicast is replicated only while MulticastEnabled is true; otherwise multicast packets are
 * dropped and counted. The tables are installed by WanTopologyHelper (the WAN controller).
 *
 * A city with a transit FPGA (TransitAggregatorNetDevice) has one more port, the transit port
 * (SetTransitPort): unicast reduction-tree pieces (IPv4 without options, not a fragment, UDP
 * to GradientPort, a gradient header with FLAG_REDUCE and without FLAG_RETRANSMISSION) that
 * arrive on any other port leave by it, unchanged, instead of being forwarded (trace Divert);
 * what comes back from it is forwarded as usual. The test reads a few bytes at fixed offsets.
 */
class WanRouterNetDevice : public WanPortDevice
{
  public:
    /** Why a packet was dropped (the Drop trace's reason and the counters' index). */
    enum DropReason
    {
        DROP_MALFORMED = 0,      //!< not a parseable IPv4 packet
        DROP_TTL_EXPIRED,        //!< TTL reached zero
        DROP_NO_ROUTE,           //!< no unicast route, or no (source, group) entry
        DROP_MULTICAST_DISABLED, //!< multicast arrived while MulticastEnabled is false
        DROP_FANOUT_LIMIT,       //!< the entry lists more ports than MaxFanOut
        DROP_NOT_IPV4,           //!< the port delivered a protocol other than IPv4
        DROP_TOO_BIG,            //!< the IPv4 total length exceeds the router's Mtu
        DROP_REASON_COUNT        //!< number of reasons (not a reason)
    };

    /** Port index reported when a packet did not come in on a port (never on the data path). */
    static constexpr uint32_t NO_PORT = UINT32_MAX;

    /**
     * TracedCallback signature of Forward: one copy leaves the router.
     * \param packet the IPv4 packet sent (TTL already decremented)
     * \param inPort ingress port index \param outPort egress port index
     */
    typedef void (*ForwardTracedCallback)(Ptr<const Packet> packet,
                                          uint32_t inPort,
                                          uint32_t outPort);
    /**
     * TracedCallback signature of Replicate: a multicast packet is copied.
     * \param packet the IPv4 packet (TTL already decremented)
     * \param inPort ingress port index \param copies number of copies sent
     */
    typedef void (*ReplicateTracedCallback)(Ptr<const Packet> packet,
                                            uint32_t inPort,
                                            uint32_t copies);
    /**
     * TracedCallback signature of Drop.
     * \param packet the packet as received \param inPort ingress port index
     * \param reason why it was dropped
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet,
                                       uint32_t inPort,
                                       DropReason reason);

    /** \return the reason's name, e.g. "TtlExpired" \param reason a drop reason */
    static const char* DropReasonName(DropReason reason);

    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    WanRouterNetDevice();
    ~WanRouterNetDevice() override;

    /**
     * \brief Add a port; the router receives every frame on it and forwards out of it.
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
    void AddMulticastRoute(Ipv4Address source,
                           Ipv4Address group,
                           const std::vector<uint32_t>& ports);
    /**
     * \brief Divert reduction-tree pieces arriving on other ports to a transit FPGA.
     * \param port index of the port towards the transit FPGA
     */
    void SetTransitPort(uint32_t port);
    /** \return the transit port, or NO_PORT if there is none */
    uint32_t GetTransitPort() const;
    /** \return packets diverted to the transit port */
    uint64_t GetDivertCount() const;
    /** \param reason a drop reason \return how many packets were dropped for it */
    uint64_t GetDropCount(DropReason reason) const;
    /** \return packets forwarded (each copy sent counts once) */
    uint64_t GetForwardCount() const;
    /** \return packets dropped, all reasons together */
    uint64_t GetTotalDropCount() const;
    /**
     * \brief Look a unicast destination up (control plane and tests; not the data path).
     * \param destination host address \return the port index, or NO_PORT if there is no route
     */
    uint32_t LookupHostRoute(Ipv4Address destination) const;

    // NetDevice interface: the rest is WanPortDevice's
    bool IsBroadcast() const override;
    bool IsMulticast() const override;

  protected:
    void DoDispose() override;

  private:
    /** A validated IPv4 header: its bytes and the fields the forwarding decision needs. */
    struct Ipv4Fields
    {
        uint8_t bytes[WanWire::IPV4_HEADER_BYTES]; //!< the header as received
        uint32_t source;                           //!< source address (host order)
        uint32_t destination;                      //!< destination address (host order)
        uint8_t ttl;                               //!< time to live as received
    };

    /**
     * \brief Receive callback of one port (the port index is bound): every frame the port
     *        receives comes here straight from the device.
     * \param inPort index of the port the packet came in on
     * \param device the port device \param packet the packet, link header removed
     * \param protocol Ethernet protocol number \param from link source
     * \return true (the frame was taken)
     */
    bool ReceiveFromPort(uint32_t inPort,
                         Ptr<NetDevice> device,
                         Ptr<const Packet> packet,
                         uint16_t protocol,
                         const Address& from);
    /**
     * \brief Check that a packet carries a well-formed IPv4 header and read its fields.
     * \param packet the packet \param fields filled on success
     * \return DROP_REASON_COUNT if well-formed, otherwise the reason to drop it
     */
    DropReason ParseIpv4(Ptr<const Packet> packet, Ipv4Fields& fields) const;
    /**
     * \brief The packet to send on, its TTL decremented (checksum rewritten if enabled): the
     *        received packet itself when its port hands over the only reference to it
     *        (WanLinkNetDevice::IsDeliveringSoleCopy), otherwise a copy.
     * \param packet a packet ParseIpv4 accepted \param inPort its ingress port
     * \param fields its header
     * \return the packet to send
     */
    Ptr<Packet> WithDecrementedTtl(Ptr<const Packet> packet,
                                   uint32_t inPort,
                                   const Ipv4Fields& fields) const;
    /**
     * \param packet a well-formed IPv4 packet
     * \return true if it is a reduction-tree piece for the transit FPGA
     */
    bool IsReducePiece(Ptr<const Packet> packet) const;
    /**
     * \brief Forward a unicast packet by the host route table.
     * \param packet the packet \param inPort ingress port \param fields its IPv4 fields
     */
    void ForwardUnicast(Ptr<const Packet> packet, uint32_t inPort, const Ipv4Fields& fields);
    /**
     * \brief Replicate a multicast packet by its (source, group) entry.
     * \param packet the packet \param inPort ingress port \param fields its IPv4 fields
     */
    void ForwardMulticast(Ptr<const Packet> packet, uint32_t inPort, const Ipv4Fields& fields);
    /**
     * \brief Hand one copy to an egress port, now or after ForwardingDelay.
     * \param packet the copy \param inPort ingress port \param outPort egress port
     */
    void Transmit(Ptr<Packet> packet, uint32_t inPort, uint32_t outPort);
    /**
     * \brief Send one copy out of a port (the scheduled end of Transmit).
     * \param packet the copy \param inPort ingress port \param outPort egress port
     */
    void SendOut(Ptr<Packet> packet, uint32_t inPort, uint32_t outPort);
    /**
     * \brief Count and trace a dropped packet.
     * \param packet the packet \param inPort ingress port \param reason why
     */
    void Drop(Ptr<const Packet> packet, uint32_t inPort, DropReason reason);
    /**
     * \param source sender address \param group group address
     * \return the multicast table key of the pair
     */
    static uint64_t MulticastKey(Ipv4Address source, Ipv4Address group);

    bool m_multicastEnabled; //!< replicate multicast (else drop it)
    Time m_forwardingDelay;  //!< processing delay per forwarded packet
    uint32_t m_maxFanOut;    //!< largest multicast entry served
    bool m_checksumEnabled;  //!< verify and rewrite IPv4 header checksums
    uint16_t m_gradientPort; //!< WanWire::GetGradientPort(), read once
    uint32_t m_transitPort;  //!< port towards the transit FPGA, or NO_PORT
    uint64_t m_divertCount;  //!< pieces sent to the transit port
    /// Link destination of every Send: point-to-point ports ignore it, and building it once
    /// saves a string parse per packet (Mac48Address::GetBroadcast parses "ff:ff:...").
    Address m_linkDestination;
    std::vector<Ptr<NetDevice>> m_ports; //!< port devices, by port index
    /// The ports that are WanLinkNetDevices, by port index (null for other devices): those that
    /// can hand over a received packet to be edited in place.
    std::vector<Ptr<WanLinkNetDevice>> m_linkPorts;
    /** Unicast table: destination address (host order) to port index. */
    std::unordered_map<uint32_t, uint32_t> m_hostRoutes;
    /** Multicast table: MulticastKey(source, group) to egress port indices. */
    std::unordered_map<uint64_t, std::vector<uint32_t>> m_multicastRoutes;
    std::array<uint64_t, DROP_REASON_COUNT> m_dropCount; //!< drops per reason
    uint64_t m_forwardCount;                             //!< copies sent

    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_forwardTrace;   //!< Forward
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_replicateTrace; //!< Replicate
    TracedCallback<Ptr<const Packet>, uint32_t, DropReason> m_dropTrace;    //!< Drop
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_divertTrace;    //!< Divert
};

} // namespace ns3

#endif /* WAN_ROUTER_NET_DEVICE_H */
