/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-link-channel.h"

#include "wan-link-net-device.h"
#include "wan-mpi.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tag.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanLinkChannel");

NS_OBJECT_ENSURE_REGISTERED(WanLinkChannel);

namespace
{

/**
 * \brief The protocol number of a frame on its way to another rank: the WAN link has no
 *        header that could carry it, and a serialised packet keeps only bytes, tags and
 *        metadata.
 */
class WanLinkProtocolTag : public Tag
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::WanLinkProtocolTag")
                                .SetParent<Tag>()
                                .SetGroupName("WanTraining")
                                .AddConstructor<WanLinkProtocolTag>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 2;
    }

    void Serialize(TagBuffer buffer) const override
    {
        buffer.WriteU16(protocol);
    }

    void Deserialize(TagBuffer buffer) override
    {
        protocol = buffer.ReadU16();
    }

    void Print(std::ostream& os) const override
    {
        os << "protocol=0x" << std::hex << protocol << std::dec;
    }

    uint16_t protocol{0}; //!< the frame's protocol number
};

NS_OBJECT_ENSURE_REGISTERED(WanLinkProtocolTag);

} // namespace

TypeId
WanLinkChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WanLinkChannel")
                            .SetParent<Channel>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<WanLinkChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay from one end to the other",
                                          TimeValue(Seconds(0)),
                                          MakeTimeAccessor(&WanLinkChannel::m_delay),
                                          MakeTimeChecker(Seconds(0)));
    return tid;
}

WanLinkChannel::WanLinkChannel()
{
    NS_LOG_FUNCTION(this);
}

WanLinkChannel::~WanLinkChannel()
{
    NS_LOG_FUNCTION(this);
}

void
WanLinkChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // A pending delivery event holds a reference to the channel and finds its wire empty.
    for (std::deque<InFlight>& inFlight : m_wires)
    {
        inFlight.clear();
    }
    for (std::deque<Time>& toRank : m_toRank)
    {
        toRank.clear();
    }
    m_devices = {nullptr, nullptr};
    m_nDevices = 0;
    Channel::DoDispose();
}

void
WanLinkChannel::Attach(Ptr<WanLinkNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_UNLESS(device, "WanLinkChannel::Attach: null device");
    NS_ABORT_MSG_IF(m_nDevices == m_devices.size(),
                    "WanLinkChannel::Attach: channel " << GetId() << " already has two devices");
    const uint32_t index = static_cast<uint32_t>(m_nDevices);
    m_devices[m_nDevices++] = device;
    // Raw pointer: the receiver is aggregated to the device, which the channel outlives in a
    // simulation; disposing the device disposes the receiver and its callback.
    WanMpi::AttachReceiver(device, Callback<void, Ptr<Packet>>([this, index](Ptr<Packet> p) {
                               ReceiveFromRank(index, p);
                           }));
}

Time
WanLinkChannel::GetDelay() const
{
    NS_LOG_FUNCTION(this);
    return m_delay;
}

std::size_t
WanLinkChannel::GetNDevices() const
{
    NS_LOG_FUNCTION(this);
    return m_nDevices;
}

Ptr<NetDevice>
WanLinkChannel::GetDevice(std::size_t i) const
{
    NS_LOG_FUNCTION(this << i);
    NS_ABORT_MSG_IF(i >= m_nDevices, "WanLinkChannel::GetDevice: no device " << i);
    return m_devices[i];
}

uint32_t
WanLinkChannel::WireOf(Ptr<const WanLinkNetDevice> src) const
{
    NS_LOG_FUNCTION(this << src);
    NS_ABORT_MSG_UNLESS(m_nDevices == m_devices.size(),
                        "WanLinkChannel: a packet was sent before both devices were attached");
    if (src == m_devices[0])
    {
        return 0;
    }
    NS_ABORT_MSG_UNLESS(src == m_devices[1],
                        "WanLinkChannel: the sending device is not attached to this channel");
    return 1;
}

void
WanLinkChannel::TransmitStart(Ptr<Packet> packet,
                              uint16_t protocol,
                              Ptr<WanLinkNetDevice> src,
                              Time txTime)
{
    NS_LOG_FUNCTION(this << packet << protocol << src << txTime);
    const uint32_t wire = WireOf(src);
    const Time arrival = Simulator::Now() + txTime + m_delay;
    if (WanMpi::IsSimulating())
    {
        const Ptr<Node> far = m_devices[1 - wire]->GetNode();
        if (far->GetSystemId() != WanMpi::GetRank())
        {
            SendToRank(wire, arrival, protocol, packet);
            return;
        }
    }
    Enqueue(wire, {arrival, packet, protocol});
}

void
WanLinkChannel::Enqueue(uint32_t wire, InFlight frame)
{
    NS_LOG_FUNCTION(this << wire);
    std::deque<InFlight>& inFlight = m_wires[wire];
    inFlight.push_back(std::move(frame));
    if (inFlight.size() == 1)
    {
        ScheduleHead(wire);
    }
}

void
WanLinkChannel::SendToRank(uint32_t wire, Time arrival, uint16_t protocol, Ptr<const Packet> packet)
{
    NS_LOG_FUNCTION(this << wire << arrival << protocol << packet);
    const Ptr<WanLinkNetDevice> far = m_devices[1 - wire];
    Ptr<Packet> copy = packet->Copy();
    WanLinkProtocolTag tag;
    tag.protocol = protocol;
    copy->AddPacketTag(tag);
    m_toRank[wire].push_back(arrival);
    WanMpi::SendPacket(copy, arrival, far->GetNode()->GetId(), far->GetIfIndex());
}

void
WanLinkChannel::ReceiveFromRank(uint32_t device, Ptr<Packet> packet)
{
    NS_LOG_FUNCTION(this << device << packet);
    WanLinkProtocolTag tag;
    NS_ABORT_MSG_UNLESS(packet->RemovePacketTag(tag),
                        "WanLinkChannel " << GetId() << ": a packet from another rank without "
                                          << "its protocol tag");
    m_devices[device]->Receive(packet, tag.protocol);
}

void
WanLinkChannel::ScheduleHead(uint32_t wire)
{
    NS_LOG_FUNCTION(this << wire);
    // Cross-node event: in the receiving node's context, as PointToPointChannel does. The
    // event holds a reference, so the channel outlives it even if disposed meanwhile.
    Simulator::ScheduleWithContext(m_devices[1 - wire]->GetNode()->GetId(),
                                   m_wires[wire].front().arrival - Simulator::Now(),
                                   &WanLinkChannel::Deliver,
                                   Ptr<WanLinkChannel>(this),
                                   wire);
}

void
WanLinkChannel::Deliver(uint32_t wire)
{
    NS_LOG_FUNCTION(this << wire);
    std::deque<InFlight>& inFlight = m_wires[wire];
    if (inFlight.empty())
    {
        return; // disposed while the event was pending
    }
    const InFlight frame = std::move(inFlight.front());
    inFlight.pop_front();
    if (!inFlight.empty())
    {
        ScheduleHead(wire);
    }
    NS_LOG_LOGIC("deliver " << frame.packet << " on wire " << wire);
    m_devices[1 - wire]->Receive(frame.packet, frame.protocol);
}

uint32_t
WanLinkChannel::GetInFlight(Ptr<const WanLinkNetDevice> src) const
{
    NS_LOG_FUNCTION(this << src);
    const uint32_t wire = WireOf(src);
    std::deque<Time>& toRank = m_toRank[wire];
    while (!toRank.empty() && toRank.front() <= Simulator::Now())
    {
        toRank.pop_front();
    }
    return static_cast<uint32_t>(m_wires[wire].size() + toRank.size());
}

} // namespace ns3
