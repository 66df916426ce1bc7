/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-ipv4-header-bytes.h"

#include "ns3/log.h"
#include "ns3/packet.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanIpv4HeaderBytes");

NS_OBJECT_ENSURE_REGISTERED(WanIpv4HeaderBytes);

TypeId
WanIpv4HeaderBytes::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WanIpv4HeaderBytes")
                            .SetParent<Header>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<WanIpv4HeaderBytes>();
    return tid;
}

TypeId
WanIpv4HeaderBytes::GetInstanceTypeId() const
{
    NS_LOG_FUNCTION(this);
    return GetTypeId();
}

uint32_t
WanIpv4HeaderBytes::GetSerializedSize() const
{
    NS_LOG_FUNCTION(this);
    return SIZE;
}

void
WanIpv4HeaderBytes::Serialize(Buffer::Iterator start) const
{
    NS_LOG_FUNCTION(this);
    start.Write(m_bytes, SIZE);
}

uint32_t
WanIpv4HeaderBytes::Deserialize(Buffer::Iterator start)
{
    NS_LOG_FUNCTION(this);
    start.Read(m_bytes, SIZE);
    return SIZE;
}

void
WanIpv4HeaderBytes::Print(std::ostream& os) const
{
    NS_LOG_FUNCTION(this << &os);
    os << "ttl " << static_cast<uint32_t>(m_bytes[WanWire::IPV4_TTL_OFFSET]) << " tos "
       << static_cast<uint32_t>(m_bytes[WanWire::IPV4_TOS_OFFSET]);
}

void
WanIpv4HeaderBytes::UpdateChecksum(bool enabled)
{
    NS_LOG_FUNCTION(this << enabled);
    m_bytes[WanWire::IPV4_CHECKSUM_OFFSET] = 0;
    m_bytes[WanWire::IPV4_CHECKSUM_OFFSET + 1] = 0;
    if (enabled)
    {
        const uint16_t checksum = WanWire::InternetChecksum(m_bytes, SIZE);
        m_bytes[WanWire::IPV4_CHECKSUM_OFFSET] = checksum >> 8;
        m_bytes[WanWire::IPV4_CHECKSUM_OFFSET + 1] = checksum & 0xff;
    }
}

Ptr<Packet>
WanIpv4HeaderBytes::Rewrite(Ptr<const Packet> packet, const uint8_t* bytes)
{
    NS_LOG_FUNCTION(packet);
    Ptr<Packet> copy = packet->Copy();
    RewriteInPlace(copy, bytes);
    return copy;
}

void
WanIpv4HeaderBytes::RewriteInPlace(Ptr<Packet> packet, const uint8_t* bytes)
{
    NS_LOG_FUNCTION(packet);
    WanIpv4HeaderBytes header;
    std::copy(bytes, bytes + SIZE, header.m_bytes);
    // The old header goes in two steps: cutting into a header makes ns-3 give the packet its
    // own packet-metadata list (when Packet::EnablePrinting is on), and the second step removes
    // the remaining byte. Removed in one step, the packet would keep sharing the list of the
    // packet it was copied from, and AddHeader would append to that list in place, rewriting a
    // back pointer that copies still in flight elsewhere in a multicast tree depend on; ns-3
    // 3.37's debug checks (PacketMetadata::IsStateOk) abort on that. With metadata off, both
    // steps only move the buffer's start.
    packet->RemoveAtStart(SIZE - 1);
    packet->RemoveAtStart(1);
    packet->AddHeader(header);
}

} // namespace ns3
