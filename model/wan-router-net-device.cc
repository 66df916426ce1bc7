/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-router-net-device.h"

#include "gradient-header.h"
#include "wan-ipv4-header-bytes.h"
#include "wan-link-net-device.h"
#include "wan-wire.h"

#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanRouterNetDevice");

NS_OBJECT_ENSURE_REGISTERED(WanRouterNetDevice);

namespace
{

/// 224.0.0.0/4: the IPv4 multicast range (host byte order).
constexpr uint32_t MULTICAST_MASK = 0xf0000000;
constexpr uint32_t MULTICAST_PREFIX = 0xe0000000; //!< see MULTICAST_MASK
/// Largest IPv4 total length, the default Mtu (no limit).
constexpr uint16_t IPV4_MAX_TOTAL_LENGTH = std::numeric_limits<uint16_t>::max();

} // namespace

TypeId
WanRouterNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanRouterNetDevice")
            .SetParent<WanPortDevice>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanRouterNetDevice>()
            .AddAttribute(
                "Mtu",
                "Largest IPv4 total length (bytes) the router forwards; larger "
                "packets are dropped (DROP_TOO_BIG): the router does not fragment",
                UintegerValue(IPV4_MAX_TOTAL_LENGTH),
                MakeUintegerAccessor(&WanRouterNetDevice::SetMtu, &WanRouterNetDevice::GetMtu),
                MakeUintegerChecker<uint16_t>())
            .AddAttribute("MulticastEnabled",
                          "Replicate multicast packets by the (source, group) table; when "
                          "false, multicast packets are dropped (DROP_MULTICAST_DISABLED)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&WanRouterNetDevice::m_multicastEnabled),
                          MakeBooleanChecker())
            .AddAttribute("ForwardingDelay",
                          "Processing delay between receiving a packet and handing each copy "
                          "to its egress port (0: immediately, in the same event)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&WanRouterNetDevice::m_forwardingDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("MaxFanOut",
                          "Largest number of ports a multicast entry may list; packets of a "
                          "larger entry are dropped (DROP_FANOUT_LIMIT)",
                          UintegerValue(std::numeric_limits<uint32_t>::max()),
                          MakeUintegerAccessor(&WanRouterNetDevice::m_maxFanOut),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Forward",
                            "A copy of a packet leaves by an egress port",
                            MakeTraceSourceAccessor(&WanRouterNetDevice::m_forwardTrace),
                            "ns3::WanRouterNetDevice::ForwardTracedCallback")
            .AddTraceSource("Replicate",
                            "A multicast packet is replicated to its entry's ports",
                            MakeTraceSourceAccessor(&WanRouterNetDevice::m_replicateTrace),
                            "ns3::WanRouterNetDevice::ReplicateTracedCallback")
            .AddTraceSource("Drop",
                            "A received packet is dropped, with the reason",
                            MakeTraceSourceAccessor(&WanRouterNetDevice::m_dropTrace),
                            "ns3::WanRouterNetDevice::DropTracedCallback")
            .AddTraceSource("Divert",
                            "A reduction-tree piece leaves by the transit port, unchanged",
                            MakeTraceSourceAccessor(&WanRouterNetDevice::m_divertTrace),
                            "ns3::WanRouterNetDevice::ForwardTracedCallback");
    return tid;
}

const char*
WanRouterNetDevice::DropReasonName(DropReason reason)
{
    switch (reason)
    {
    case DROP_MALFORMED:
        return "Malformed";
    case DROP_TTL_EXPIRED:
        return "TtlExpired";
    case DROP_NO_ROUTE:
        return "NoRoute";
    case DROP_MULTICAST_DISABLED:
        return "MulticastDisabled";
    case DROP_FANOUT_LIMIT:
        return "FanOutLimit";
    case DROP_NOT_IPV4:
        return "NotIpv4";
    case DROP_TOO_BIG:
        return "TooBig";
    case DROP_REASON_COUNT:
        break;
    }
    return "Unknown";
}

WanRouterNetDevice::WanRouterNetDevice()
    : WanPortDevice(Mac48Address(), IPV4_MAX_TOTAL_LENGTH),
      m_multicastEnabled(true),
      m_forwardingDelay(Seconds(0)),
      m_maxFanOut(std::numeric_limits<uint32_t>::max()),
      m_checksumEnabled(Node::ChecksumEnabled()),
      m_gradientPort(WanWire::GetGradientPort()),
      m_transitPort(NO_PORT),
      m_divertCount(0),
      m_linkDestination(Mac48Address::GetBroadcast()),
      m_forwardCount(0)
{
    NS_LOG_FUNCTION(this);
    m_dropCount.fill(0);
}

WanRouterNetDevice::~WanRouterNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
WanRouterNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    m_linkPorts.clear();
    m_hostRoutes.clear();
    m_multicastRoutes.clear();
    WanPortDevice::DoDispose();
}

uint32_t
WanRouterNetDevice::AddPort(Ptr<NetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(!m_node,
                    "WanRouterNetDevice::AddPort: add the router to its node (Node::AddDevice) "
                    "before adding ports");
    NS_ABORT_MSG_IF(!port || port == this || port->GetNode() != m_node,
                    "WanRouterNetDevice::AddPort: a port must be another device of node "
                        << m_node->GetId());
    const uint32_t index = static_cast<uint32_t>(m_ports.size());
    if (m_address == Mac48Address() && Mac48Address::IsMatchingType(port->GetAddress()))
    {
        m_address = Mac48Address::ConvertFrom(port->GetAddress());
    }
    // The port hands its frames straight to the router: the router's node runs no protocol
    // stack, so the node's protocol dispatch (Node::ReceiveFromDevice) would only pass every
    // frame on to this one handler. Binding the port index saves a device-to-index lookup.
    port->SetReceiveCallback(MakeCallback(&WanRouterNetDevice::ReceiveFromPort, this, index));
    m_ports.push_back(port);
    m_linkPorts.push_back(DynamicCast<WanLinkNetDevice>(port));
    return index;
}

uint32_t
WanRouterNetDevice::GetNPorts() const
{
    NS_LOG_FUNCTION(this);
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<NetDevice>
WanRouterNetDevice::GetPort(uint32_t index) const
{
    NS_LOG_FUNCTION(this << index);
    NS_ABORT_MSG_IF(index >= m_ports.size(),
                    "WanRouterNetDevice::GetPort: port " << index << " of " << m_ports.size());
    return m_ports[index];
}

void
WanRouterNetDevice::AddHostRoute(Ipv4Address destination, uint32_t port)
{
    NS_LOG_FUNCTION(this << destination << port);
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "WanRouterNetDevice::AddHostRoute: route to "
                        << destination << " names port " << port << " of " << m_ports.size());
    m_hostRoutes[destination.Get()] = port;
}

void
WanRouterNetDevice::AddMulticastRoute(Ipv4Address source,
                                      Ipv4Address group,
                                      const std::vector<uint32_t>& ports)
{
    NS_LOG_FUNCTION(this << source << group << ports.size());
    NS_ABORT_MSG_IF(!group.IsMulticast(),
                    "WanRouterNetDevice::AddMulticastRoute: " << group
                                                              << " is not a multicast group");
    for (std::size_t i = 0; i < ports.size(); ++i)
    {
        NS_ABORT_MSG_IF(ports[i] >= m_ports.size(),
                        "WanRouterNetDevice::AddMulticastRoute: ("
                            << source << ", " << group << ") names port " << ports[i] << " of "
                            << m_ports.size());
        NS_ABORT_MSG_IF(std::find(ports.begin(), ports.begin() + i, ports[i]) != ports.begin() + i,
                        "WanRouterNetDevice::AddMulticastRoute: ("
                            << source << ", " << group << ") lists port " << ports[i] << " twice");
    }
    m_multicastRoutes[MulticastKey(source, group)] = ports;
}

void
WanRouterNetDevice::SetTransitPort(uint32_t port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "WanRouterNetDevice::SetTransitPort: port " << port << " of "
                                                                << m_ports.size());
    m_transitPort = port;
}

uint32_t
WanRouterNetDevice::GetTransitPort() const
{
    return m_transitPort;
}

uint64_t
WanRouterNetDevice::GetDivertCount() const
{
    NS_LOG_FUNCTION(this);
    return m_divertCount;
}

uint64_t
WanRouterNetDevice::GetDropCount(DropReason reason) const
{
    NS_LOG_FUNCTION(this << reason);
    NS_ABORT_MSG_IF(reason >= DROP_REASON_COUNT,
                    "WanRouterNetDevice::GetDropCount: no drop reason " << reason);
    return m_dropCount[reason];
}

uint64_t
WanRouterNetDevice::GetForwardCount() const
{
    NS_LOG_FUNCTION(this);
    return m_forwardCount;
}

uint64_t
WanRouterNetDevice::GetTotalDropCount() const
{
    NS_LOG_FUNCTION(this);
    uint64_t total = 0;
    for (uint64_t count : m_dropCount)
    {
        total += count;
    }
    return total;
}

uint32_t
WanRouterNetDevice::LookupHostRoute(Ipv4Address destination) const
{
    NS_LOG_FUNCTION(this << destination);
    auto it = m_hostRoutes.find(destination.Get());
    return it == m_hostRoutes.end() ? NO_PORT : it->second;
}

uint64_t
WanRouterNetDevice::MulticastKey(Ipv4Address source, Ipv4Address group)
{
    NS_LOG_FUNCTION(source << group);
    return (static_cast<uint64_t>(source.Get()) << 32) | group.Get();
}

// The receive path: validate, TTL, then unicast or multicast by the destination.

bool
WanRouterNetDevice::ReceiveFromPort(uint32_t inPort,
                                    Ptr<NetDevice> device,
                                    Ptr<const Packet> packet,
                                    uint16_t protocol,
                                    const Address& from)
{
    NS_LOG_FUNCTION(this << inPort << packet << protocol);
    if (protocol != WanWire::IPV4_ETHERTYPE)
    {
        Drop(packet, inPort, DROP_NOT_IPV4);
        return true;
    }
    Ipv4Fields fields;
    const DropReason malformed = ParseIpv4(packet, fields);
    if (malformed != DROP_REASON_COUNT)
    {
        Drop(packet, inPort, malformed);
        return true;
    }
    // A router may not send a packet on with TTL 0: one arriving with TTL <= 1 ends here.
    if (fields.ttl <= 1)
    {
        Drop(packet, inPort, DROP_TTL_EXPIRED);
        return true;
    }
    if ((fields.destination & MULTICAST_MASK) == MULTICAST_PREFIX)
    {
        ForwardMulticast(packet, inPort, fields);
    }
    else if (m_transitPort != NO_PORT && inPort != m_transitPort && IsReducePiece(packet))
    {
        // To the transit FPGA as it came (it is forwarded, TTL and all, when it comes back).
        NS_LOG_LOGIC("packet " << packet->GetUid() << " from port " << inPort
                               << " diverted to the transit FPGA on port " << m_transitPort);
        ++m_divertCount;
        m_divertTrace(packet, inPort, m_transitPort);
        m_ports[m_transitPort]->Send(packet->Copy(), m_linkDestination, WanWire::IPV4_ETHERTYPE);
    }
    else
    {
        ForwardUnicast(packet, inPort, fields);
    }
    return true;
}

bool
WanRouterNetDevice::IsReducePiece(Ptr<const Packet> packet) const
{
    NS_LOG_FUNCTION(this << packet);
    constexpr uint32_t PROBE_SIZE = WanWire::IPV4_UDP_BYTES + GradientHeader::PEEK_SIZE;
    if (packet->GetSize() < PROBE_SIZE)
    {
        return false;
    }
    uint8_t probe[PROBE_SIZE];
    packet->CopyData(probe, PROBE_SIZE);
    if (!WanWire::IsPlainUdpTo(probe, m_gradientPort))
    {
        return false;
    }
    const uint16_t flags = GradientHeader::PeekFlags(probe + WanWire::IPV4_UDP_BYTES);
    return (flags & GradientHeader::FLAG_REDUCE) != 0 &&
           (flags & GradientHeader::FLAG_RETRANSMISSION) == 0;
}

WanRouterNetDevice::DropReason
WanRouterNetDevice::ParseIpv4(Ptr<const Packet> packet, Ipv4Fields& fields) const
{
    NS_LOG_FUNCTION(this << packet);
    // Every field is checked from a copy of the header before anything else reads the
    // packet: ns-3's Ipv4Header::Deserialize trusts its input and reads past short packets.
    const uint32_t size = packet->GetSize();
    if (size < WanWire::IPV4_HEADER_BYTES)
    {
        return DROP_MALFORMED;
    }
    uint8_t* bytes = fields.bytes;
    packet->CopyData(bytes, WanWire::IPV4_HEADER_BYTES);
    const uint8_t version = bytes[0] >> 4;
    const uint8_t ihl = bytes[0] & 0x0f;
    // IHL below 5 is invalid; above 5 (options) is valid IPv4 but unsupported (ns-3 hosts
    // never send options): such packets are dropped rather than forwarded half-understood.
    if (version != WanWire::IPV4_VERSION || ihl != WanWire::IPV4_PLAIN_IHL)
    {
        return DROP_MALFORMED;
    }
    // Point-to-point framing has no padding: the total length must be the packet's size.
    const uint32_t totalLength = WanWire::ReadU16(bytes + WanWire::IPV4_TOTAL_LENGTH_OFFSET);
    if (totalLength != size)
    {
        return DROP_MALFORMED;
    }
    if (m_checksumEnabled && WanWire::InternetChecksum(bytes, WanWire::IPV4_HEADER_BYTES) != 0)
    {
        return DROP_MALFORMED;
    }
    if (totalLength > m_mtu)
    {
        return DROP_TOO_BIG;
    }
    fields.ttl = bytes[WanWire::IPV4_TTL_OFFSET];
    fields.source = WanWire::ReadU32(bytes + WanWire::IPV4_SOURCE_OFFSET);
    fields.destination = WanWire::ReadU32(bytes + WanWire::IPV4_DESTINATION_OFFSET);
    return DROP_REASON_COUNT;
}

Ptr<Packet>
WanRouterNetDevice::WithDecrementedTtl(Ptr<const Packet> packet,
                                       uint32_t inPort,
                                       const Ipv4Fields& fields) const
{
    NS_LOG_FUNCTION(this << packet << inPort);
    WanIpv4HeaderBytes header;
    std::copy(fields.bytes, fields.bytes + WanWire::IPV4_HEADER_BYTES, header.m_bytes);
    header.m_bytes[WanWire::IPV4_TTL_OFFSET] = fields.ttl - 1;
    header.UpdateChecksum(m_checksumEnabled);
    const Ptr<WanLinkNetDevice>& link = m_linkPorts[inPort];
    if (link && link->IsDeliveringSoleCopy())
    {
        // Nobody else holds this packet object: editing it saves a Packet and a buffer copy
        // per hop, and nobody can tell the difference.
        Ptr<Packet> own = ConstCast<Packet>(packet);
        WanIpv4HeaderBytes::RewriteInPlace(own, header.m_bytes);
        return own;
    }
    return WanIpv4HeaderBytes::Rewrite(packet, header.m_bytes);
}

void
WanRouterNetDevice::ForwardUnicast(Ptr<const Packet> packet,
                                   uint32_t inPort,
                                   const Ipv4Fields& fields)
{
    NS_LOG_FUNCTION(this << packet << inPort);
    auto route = m_hostRoutes.find(fields.destination);
    if (route == m_hostRoutes.end())
    {
        Drop(packet, inPort, DROP_NO_ROUTE);
        return;
    }
    NS_LOG_LOGIC("packet " << packet->GetUid() << " to " << Ipv4Address(fields.destination)
                           << ": port " << inPort << " -> port " << route->second);
    Transmit(WithDecrementedTtl(packet, inPort, fields), inPort, route->second);
}

void
WanRouterNetDevice::ForwardMulticast(Ptr<const Packet> packet,
                                     uint32_t inPort,
                                     const Ipv4Fields& fields)
{
    NS_LOG_FUNCTION(this << packet << inPort);
    if (!m_multicastEnabled)
    {
        Drop(packet, inPort, DROP_MULTICAST_DISABLED);
        return;
    }
    auto entry = m_multicastRoutes.find(
        MulticastKey(Ipv4Address(fields.source), Ipv4Address(fields.destination)));
    if (entry == m_multicastRoutes.end())
    {
        Drop(packet, inPort, DROP_NO_ROUTE);
        return;
    }
    const std::vector<uint32_t>& ports = entry->second;
    if (ports.size() > m_maxFanOut)
    {
        Drop(packet, inPort, DROP_FANOUT_LIMIT);
        return;
    }
    // Never back out of the ingress port, even if the entry lists it.
    const uint32_t copies =
        static_cast<uint32_t>(ports.size() - std::count(ports.begin(), ports.end(), inPort));
    if (copies == 0)
    {
        Drop(packet, inPort, DROP_NO_ROUTE);
        return;
    }
    NS_LOG_LOGIC("packet " << packet->GetUid() << " to group " << Ipv4Address(fields.destination)
                           << ": port " << inPort << " -> " << copies << " ports");
    Ptr<Packet> original = WithDecrementedTtl(packet, inPort, fields);
    m_replicateTrace(original, inPort, copies);
    uint32_t remaining = copies;
    for (uint32_t outPort : ports)
    {
        if (outPort == inPort)
        {
            continue;
        }
        // Each port adds its own link header, so each needs its own packet; the last one
        // takes the original and saves a copy.
        --remaining;
        Transmit(remaining == 0 ? original : original->Copy(), inPort, outPort);
    }
}

void
WanRouterNetDevice::Transmit(Ptr<Packet> packet, uint32_t inPort, uint32_t outPort)
{
    NS_LOG_FUNCTION(this << packet << inPort << outPort);
    if (m_forwardingDelay.IsZero())
    {
        SendOut(packet, inPort, outPort);
        return;
    }
    Simulator::ScheduleWithContext(m_node->GetId(),
                                   m_forwardingDelay,
                                   &WanRouterNetDevice::SendOut,
                                   this,
                                   packet,
                                   inPort,
                                   outPort);
}

void
WanRouterNetDevice::SendOut(Ptr<Packet> packet, uint32_t inPort, uint32_t outPort)
{
    NS_LOG_FUNCTION(this << packet << inPort << outPort);
    if (outPort >= m_ports.size())
    {
        return; // disposed while the copy waited out ForwardingDelay
    }
    ++m_forwardCount;
    m_forwardTrace(packet, inPort, outPort);
    m_ports[outPort]->Send(packet, m_linkDestination, WanWire::IPV4_ETHERTYPE);
}

void
WanRouterNetDevice::Drop(Ptr<const Packet> packet, uint32_t inPort, DropReason reason)
{
    NS_LOG_FUNCTION(this << packet << inPort << reason);
    NS_LOG_LOGIC("drop " << DropReasonName(reason) << " from port " << inPort);
    ++m_dropCount[reason];
    m_dropTrace(packet, inPort, reason);
}

// NetDevice interface: WanPortDevice holds the rest; the router advertises broadcast and
// multicast support as it always has.

bool
WanRouterNetDevice::IsBroadcast() const
{
    NS_LOG_FUNCTION(this);
    return true;
}

bool
WanRouterNetDevice::IsMulticast() const
{
    NS_LOG_FUNCTION(this);
    return true;
}

} // namespace ns3
