/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "island-udp-port.h"

#include "wan-wire.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/socket.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-header.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IslandUdpPort");

NS_OBJECT_ENSURE_REGISTERED(IslandUdpPort);

namespace
{
/** Receive buffer of the SOCKETS path: every callback drains it, so this is slack. */
constexpr uint32_t SOCKET_RCVBUF_BYTES = 1u << 26;
} // namespace

TypeId
IslandUdpPort::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IslandUdpPort")
            .SetParent<Object>()
            .SetGroupName("WanTraining")
            .AddConstructor<IslandUdpPort>()
            .AddTraceSource("Drop",
                            "DIRECT: a datagram not handed to the access device, its transmit "
                            "queue stopped by flow control (the traffic-control layer's Drop).",
                            MakeTraceSourceAccessor(&IslandUdpPort::m_dropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

IslandUdpPort::IslandUdpPort()
{
    NS_LOG_FUNCTION(this);
}

IslandUdpPort::~IslandUdpPort() = default;

void
IslandUdpPort::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Close();
    m_socket = nullptr;
    m_device = nullptr;
    m_txQueue = nullptr;
    m_trafficControl = nullptr;
    m_receive = MakeNullCallback<void, Ptr<Packet>, uint8_t>();
    Object::DoDispose();
}

void
IslandUdpPort::Open(Ptr<Node> node, uint16_t port, Path path, ReceiveCallback receive)
{
    NS_LOG_FUNCTION(this << node << port << path);
    NS_ABORT_MSG_IF(m_socket || m_device, "IslandUdpPort: opened twice");
    m_port = port;
    m_path = path;
    m_receive = receive;
    if (path == SOCKETS)
    {
        OpenSocket(node);
    }
    else
    {
        OpenDirect(node);
    }
    m_open = true;
}

void
IslandUdpPort::Close()
{
    NS_LOG_FUNCTION(this);
    m_open = false;
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    }
}

void
IslandUdpPort::Send(Ptr<Packet> packet, Ipv4Address to, uint8_t tos)
{
    NS_LOG_FUNCTION(this << packet << to << static_cast<uint32_t>(tos));
    if (m_path == DIRECT)
    {
        SendDirect(packet, to, tos);
        return;
    }
    NS_ABORT_MSG_IF(!m_socket, "IslandUdpPort: Send before Open");
    if (tos != 0)
    {
        // Per packet: the socket's own TOS (SetIpTos) does not reach datagrams in every ns-3.
        SocketIpTosTag tag;
        tag.SetTos(tos);
        packet->ReplacePacketTag(tag);
    }
    m_socket->SendTo(packet, 0, InetSocketAddress(to, m_port));
}

// ---------------------------------------------------------------------------------------------
// SOCKETS

void
IslandUdpPort::OpenSocket(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    m_socket->SetAttribute("RcvBufSize", UintegerValue(SOCKET_RCVBUF_BYTES));
    if (m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0)
    {
        NS_FATAL_ERROR("IslandUdpPort: cannot bind UDP port " << m_port << " on node "
                                                              << node->GetId());
    }
    m_socket->SetIpRecvTos(true);
    m_socket->SetRecvCallback(MakeCallback(&IslandUdpPort::HandleRead, this));
}

void
IslandUdpPort::HandleRead(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    Ptr<Packet> packet;
    while ((packet = socket->Recv()))
    {
        SocketIpTosTag tos;
        packet->RemovePacketTag(tos);
        if (m_open)
        {
            m_receive(packet, tos.GetTos());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// DIRECT

void
IslandUdpPort::OpenDirect(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    m_trafficControl = node->GetObject<TrafficControlLayer>();
    NS_ABORT_MSG_IF(!ipv4 || !m_trafficControl,
                    "IslandUdpPort: node " << node->GetId() << " has no internet stack");
    for (uint32_t i = 0; i < ipv4->GetNInterfaces(); ++i)
    {
        Ptr<NetDevice> device = ipv4->GetNetDevice(i);
        if (DynamicCast<LoopbackNetDevice>(device) || ipv4->GetNAddresses(i) == 0)
        {
            continue;
        }
        NS_ABORT_MSG_IF(m_device,
                        "IslandUdpPort: node " << node->GetId()
                                               << " has more than one access device; use "
                                                  "the SOCKETS path");
        m_device = device;
        m_local = ipv4->GetAddress(i, 0).GetLocal();
    }
    NS_ABORT_MSG_IF(!m_device,
                    "IslandUdpPort: node " << node->GetId() << " has no device with an address");
    UintegerValue ttl;
    ipv4->GetAttribute("DefaultTtl", ttl);
    m_ttl = static_cast<uint8_t>(ttl.Get());
    Ptr<NetDeviceQueueInterface> queues = m_device->GetObject<NetDeviceQueueInterface>();
    m_txQueue = queues ? queues->GetTxQueue(0) : nullptr;
    m_checksums = Node::ChecksumEnabled(); // a global value: reading it costs a look-up
    m_ids.clear();
    // Ahead of the node: its other frames go on to the traffic-control layer, as the node
    // passes IPv4 frames of a host.
    m_device->SetReceiveCallback(MakeCallback(&IslandUdpPort::ReceiveFromDevice, this));
}

void
IslandUdpPort::SendDirect(Ptr<Packet> payload, Ipv4Address to, uint8_t tos)
{
    NS_LOG_FUNCTION(this << payload << to);
    NS_ABORT_MSG_IF(!m_device, "IslandUdpPort: Send before Open");
    Ptr<Packet> packet = payload->Copy(); // the caller's packet stays as it was
    UdpHeader udp;
    if (m_checksums)
    {
        udp.EnableChecksums();
        udp.InitializeChecksum(m_local, to, WanWire::UDP_PROTOCOL);
    }
    udp.SetSourcePort(m_port);
    udp.SetDestinationPort(m_port);
    packet->AddHeader(udp);

    Ipv4Header ip;
    ip.SetSource(m_local);
    ip.SetDestination(to);
    ip.SetProtocol(WanWire::UDP_PROTOCOL);
    ip.SetPayloadSize(packet->GetSize());
    ip.SetTtl(m_ttl);
    ip.SetTos(tos);
    ip.SetMayFragment();
    ip.SetIdentification(m_ids[to.Get()]++);
    if (m_checksums)
    {
        ip.EnableChecksum();
    }
    NS_ABORT_MSG_IF(packet->GetSize() + ip.GetSerializedSize() > m_device->GetMtu(),
                    "IslandUdpPort: a " << packet->GetSize() + ip.GetSerializedSize()
                                        << "-byte datagram to " << to << " exceeds the MTU "
                                        << m_device->GetMtu() << " of its access device");
    packet->AddHeader(ip);
    if (m_txQueue && m_txQueue->IsStopped())
    {
        m_dropTrace(packet);
        return;
    }
    m_device->Send(packet, m_device->GetBroadcast(), WanWire::IPV4_ETHERTYPE);
}

bool
IslandUdpPort::ReceiveFromDevice(Ptr<NetDevice> device,
                                 Ptr<const Packet> frame,
                                 uint16_t protocol,
                                 const Address& from)
{
    NS_LOG_FUNCTION(this << device << frame << protocol);
    if (protocol != WanWire::IPV4_ETHERTYPE || !TakeDatagram(frame))
    {
        m_trafficControl
            ->Receive(device, frame, protocol, from, device->GetAddress(), NetDevice::PACKET_HOST);
    }
    return true;
}

bool
IslandUdpPort::TakeDatagram(Ptr<const Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    uint8_t head[WanWire::IPV4_UDP_BYTES];
    if (frame->CopyData(head, sizeof(head)) < sizeof(head) || !WanWire::IsPlainUdpTo(head, m_port))
    {
        return false; // the stack decides (and drops what it must)
    }
    const uint32_t totalLength = WanWire::ReadU16(head + WanWire::IPV4_TOTAL_LENGTH_OFFSET);
    const Ipv4Address destination(WanWire::ReadU32(head + WanWire::IPV4_DESTINATION_OFFSET));
    if ((destination != m_local && !destination.IsMulticast()) || totalLength < sizeof(head) ||
        totalLength > frame->GetSize() || (m_checksums && !AreChecksumsOk(frame)))
    {
        return false;
    }
    // The payload, without the headers and any frame padding after the datagram.
    Ptr<Packet> packet = frame->CreateFragment(sizeof(head), totalLength - sizeof(head));
    if (m_open)
    {
        m_receive(packet, head[WanWire::IPV4_TOS_OFFSET]);
    }
    return true;
}

bool
IslandUdpPort::AreChecksumsOk(Ptr<const Packet> frame)
{
    NS_LOG_FUNCTION(frame);
    Ipv4Header ip;
    ip.EnableChecksum();
    Ptr<Packet> packet = frame->Copy();
    packet->RemoveHeader(ip);
    UdpHeader udp;
    udp.EnableChecksums();
    udp.InitializeChecksum(ip.GetSource(), ip.GetDestination(), WanWire::UDP_PROTOCOL);
    packet->PeekHeader(udp);
    return ip.IsChecksumOk() && udp.IsChecksumOk();
}

} // namespace ns3
