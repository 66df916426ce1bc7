/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-input-stage.h"

#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FpgaInputStage");

FpgaInputStage::FpgaInputStage()
    : m_rate(0),
      m_gradientPort(WanWire::GetGradientPort()),
      m_busyUntil(0)
{
    NS_LOG_FUNCTION(this);
}

FpgaInputStage::~FpgaInputStage()
{
    NS_LOG_FUNCTION(this);
    Clear();
}

void
FpgaInputStage::SetServeCallback(ServeCallback serve)
{
    NS_LOG_FUNCTION(this);
    m_serve = serve;
}

void
FpgaInputStage::SetProcessingRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    m_rate = rate;
}

DataRate
FpgaInputStage::GetProcessingRate() const
{
    NS_LOG_FUNCTION(this);
    return m_rate;
}

uint16_t
FpgaInputStage::GetGradientPort() const
{
    NS_LOG_FUNCTION(this);
    return m_gradientPort;
}

bool
FpgaInputStage::IsGradientTraffic(Ptr<const Packet> packet) const
{
    NS_LOG_FUNCTION(this << packet);
    // A fixed-size peek at the IPv4 and UDP headers: non-gradient traffic costs one copy of
    // 28 bytes and a few compares, never a header object.
    if (packet->GetSize() < WanWire::IPV4_UDP_BYTES)
    {
        return false;
    }
    uint8_t probe[WanWire::IPV4_UDP_BYTES];
    packet->CopyData(probe, WanWire::IPV4_UDP_BYTES);
    return WanWire::IsPlainUdpTo(probe, m_gradientPort);
}

void
FpgaInputStage::Receive(Ptr<const Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
    if (m_rate.GetBitRate() == 0)
    {
        m_serve(packet);
        return;
    }
    const Time now = Simulator::Now();
    const Time start = std::max(now, m_busyUntil);
    m_busyUntil = start + m_rate.CalculateBytesTxTime(packet->GetSize());
    m_pending.push_back(Pending{packet, m_busyUntil});
    if (m_pending.size() == 1)
    {
        m_serviceEvent =
            Simulator::Schedule(m_busyUntil - now, &FpgaInputStage::ServiceComplete, this);
    }
}

void
FpgaInputStage::ServiceComplete()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT(!m_pending.empty());
    Ptr<const Packet> packet = m_pending.front().packet;
    m_pending.pop_front();
    if (!m_pending.empty())
    {
        m_serviceEvent = Simulator::Schedule(m_pending.front().finish - Simulator::Now(),
                                             &FpgaInputStage::ServiceComplete,
                                             this);
    }
    m_serve(packet);
}

bool
FpgaInputStage::Parse(Ptr<const Packet> packet,
                      GradientHeader& header,
                      FpgaSlotTable::InputFields& fields,
                      uint32_t& payloadOffset)
{
    NS_LOG_FUNCTION(this << packet);
    const uint32_t size = packet->GetSize();
    const uint32_t copied =
        packet->CopyData(m_headerBytes.data(),
                         std::min<uint32_t>(size, static_cast<uint32_t>(m_headerBytes.size())));
    const uint8_t* b = m_headerBytes.data();
    // IsGradientTraffic() checked version, IHL, fragment, protocol and port on these bytes.
    if (copied < WanWire::IPV4_UDP_BYTES ||
        WanWire::ReadU16(b + WanWire::IPV4_TOTAL_LENGTH_OFFSET) != size ||
        WanWire::ReadU16(b + WanWire::IPV4_HEADER_BYTES + WanWire::UDP_LENGTH_OFFSET) !=
            size - WanWire::IPV4_HEADER_BYTES)
    {
        return false;
    }
    if (!GradientHeader::ParseBytes(b + WanWire::IPV4_UDP_BYTES,
                                    copied - WanWire::IPV4_UDP_BYTES,
                                    size - WanWire::IPV4_UDP_BYTES,
                                    header))
    {
        return false;
    }
    fields.source = Ipv4Address::Deserialize(b + WanWire::IPV4_SOURCE_OFFSET);
    fields.destination = Ipv4Address::Deserialize(b + WanWire::IPV4_DESTINATION_OFFSET);
    fields.sourcePort =
        WanWire::ReadU16(b + WanWire::IPV4_HEADER_BYTES + WanWire::UDP_SOURCE_PORT_OFFSET);
    fields.ttl = b[WanWire::IPV4_TTL_OFFSET];
    fields.tos = b[WanWire::IPV4_TOS_OFFSET];
    payloadOffset = size - header.GetPayloadSize();
    return true;
}

void
FpgaInputStage::Clear()
{
    NS_LOG_FUNCTION(this);
    m_serviceEvent.Cancel();
    m_pending.clear();
}

} // namespace ns3
