/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ISLAND_UDP_PORT_H
#define ISLAND_UDP_PORT_H

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_map>

namespace ns3
{

class NetDeviceQueue;
class Node;
class Socket;
class TrafficControlLayer;

/**
 * \ingroup wan-training
 * \brief The island's UDP port for its planned and adaptive transports: every datagram of
 *        the exchanges leaves from it and arrives at it, on the island's one access device.
 *
 * Two paths to the wire, the same bytes on it:
 * - SOCKETS: an ns-3 UdpSocket bound to the port; datagrams cross the node's UDP, IPv4 and
 *   traffic-control layers both ways.
 * - DIRECT: the port writes the IPv4 and UDP headers those layers write for such a socket
 *   (source the island's address, source and destination port the port, TTL the node's
 *   Ipv4L3Protocol DefaultTtl, TOS as given, may-fragment, the identification counted per
 *   source, destination and protocol from 0, checksums when ns-3's ChecksumEnabled is on) and
 *   hands the packet to the access device as the traffic-control layer does without a queue
 *   disc (dropped, and traced, while the device's transmit queue is stopped). On the way in it
 *   takes the device's frames first: a UDP datagram to the port, addressed to the island or to
 *   any multicast group (ns-3's IPv4 accepts every group on a host), reaches the port without
 *   crossing the stack; any other frame goes on to the node's traffic-control layer, as the
 *   node would pass it. The island's other traffic (TCP, ICMP) is untouched.
 *
 * A datagram leaves at the same instant and arrives at the same instant on either path (ns-3's
 * stack adds no delay), so runs give identical results; DIRECT skips the stack's per-packet
 * work (route look-ups, tags, callbacks: about half of a run's instructions) and with it the
 * IPv4 trace sources of the island's node (Tx, Rx, SendOutgoing, LocalDeliver). Pcap traces
 * of the devices are the same on both. A datagram must fit the device's MTU (the chunk layout
 * sizes them so); ns-3 would fragment a larger one, DIRECT aborts with a message.
 */
class IslandUdpPort : public Object
{
  public:
    /** How datagrams reach the wire. */
    enum Path
    {
        DIRECT, //!< headers written here, frames to and from the access device
        SOCKETS //!< an ns-3 UdpSocket and the node's IPv4 stack
    };

    /** Receives a datagram's payload (headers removed) and the TOS byte it arrived with. */
    using ReceiveCallback = Callback<void, Ptr<Packet>, uint8_t>;

    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    IslandUdpPort();
    ~IslandUdpPort() override;

    /**
     * \brief Open the port on an island's node (with ns-3's internet stack and one access
     *        device with an IPv4 address); datagrams to it reach receive from now on.
     * \param node the island's node \param port the UDP port number \param path the path
     * \param receive what takes each datagram
     */
    void Open(Ptr<Node> node, uint16_t port, Path path, ReceiveCallback receive);
    /**
     * \brief Send a datagram from the port to the same port at a destination.
     * \param packet the payload (not changed) \param to a unicast or group address
     * \param tos the IPv4 TOS byte (DSCP and ECN)
     */
    void Send(Ptr<Packet> packet, Ipv4Address to, uint8_t tos);
    /** \brief Deliver nothing more: a stopped island answers nothing. Sending still works. */
    void Close();

  protected:
    void DoDispose() override;

  private:
    /** \param node the island's node \brief bind an ns-3 UDP socket to the port */
    void OpenSocket(Ptr<Node> node);
    /** \param node the island's node \brief find the access device and take its frames */
    void OpenDirect(Ptr<Node> node);
    /** \param socket the bound socket \brief pass every queued datagram on (SOCKETS) */
    void HandleRead(Ptr<Socket> socket);
    /** \param packet payload \param to destination \param tos TOS \brief send (DIRECT) */
    void SendDirect(Ptr<Packet> packet, Ipv4Address to, uint8_t tos);
    /**
     * \brief The access device's receive callback (DIRECT): the port's datagrams here, the
     *        rest to the node's traffic-control layer.
     * \param device the access device \param frame the frame \param protocol its protocol
     * \param from the sender's link address \return true (the frame was taken)
     */
    bool ReceiveFromDevice(Ptr<NetDevice> device,
                           Ptr<const Packet> frame,
                           uint16_t protocol,
                           const Address& from);
    /**
     * \param frame an IPv4 frame \return true if it was a datagram to the port, now passed on
     */
    bool TakeDatagram(Ptr<const Packet> frame);
    /**
     * \param frame a UDP datagram in IPv4 \return true if both checksums are right (as
     *        ns-3's Ipv4L3Protocol and UdpL4Protocol check them, with ChecksumEnabled on)
     */
    static bool AreChecksumsOk(Ptr<const Packet> frame);

    uint16_t m_port{0};                            //!< the port number
    Path m_path{DIRECT};                           //!< the path chosen at Open
    bool m_open{false};                            //!< datagrams are delivered
    ReceiveCallback m_receive;                     //!< the taker of datagrams
    Ptr<Socket> m_socket;                          //!< SOCKETS: the bound socket
    Ptr<NetDevice> m_device;                       //!< DIRECT: the access device
    Ptr<NetDeviceQueue> m_txQueue;                 //!< DIRECT: its flow-controlled queue, or null
    Ptr<TrafficControlLayer> m_trafficControl;     //!< DIRECT: where other frames go
    Ipv4Address m_local;                           //!< DIRECT: the island's address
    uint8_t m_ttl{0};                              //!< DIRECT: the node's IPv4 DefaultTtl
    bool m_checksums{false};                       //!< DIRECT: Node::ChecksumEnabled() at Open
    std::unordered_map<uint32_t, uint16_t> m_ids;  //!< DIRECT: next identification per destination
    TracedCallback<Ptr<const Packet>> m_dropTrace; //!< DIRECT: refused, the device queue stopped
};

} // namespace ns3

#endif /* ISLAND_UDP_PORT_H */
