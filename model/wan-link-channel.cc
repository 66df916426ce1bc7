/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-link-channel.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanLinkChannel");

NS_OBJECT_ENSURE_REGISTERED(WanLinkChannel);

TypeId
WanLinkChannel::GetTypeId()
{
    // The Delay attribute is the base class's.
    static TypeId tid = TypeId("ns3::WanLinkChannel")
                            .SetParent<PointToPointChannel>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<WanLinkChannel>();
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
    PointToPointChannel::DoDispose();
}

uint32_t
WanLinkChannel::WireOf(Ptr<PointToPointNetDevice> src) const
{
    NS_ABORT_MSG_UNLESS(IsInitialized(),
                        "WanLinkChannel: a packet was sent before both devices were attached");
    if (src == GetSource(0))
    {
        return 0;
    }
    NS_ABORT_MSG_UNLESS(src == GetSource(1),
                        "WanLinkChannel: the sending device is not attached to this channel");
    return 1;
}

bool
WanLinkChannel::TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime)
{
    NS_LOG_FUNCTION(this << p << src << txTime);
    const uint32_t wire = WireOf(src);
    std::deque<InFlight>& inFlight = m_wires[wire];
    inFlight.push_back({Simulator::Now() + txTime + GetDelay(), p->Copy()});
    if (inFlight.size() == 1)
    {
        ScheduleHead(wire);
    }
    return true;
}

void
WanLinkChannel::ScheduleHead(uint32_t wire)
{
    // Cross-node event: in the receiving node's context, as PointToPointChannel does. The
    // event holds a reference, so the channel outlives it even if disposed meanwhile.
    Simulator::ScheduleWithContext(GetDestination(wire)->GetNode()->GetId(),
                                   m_wires[wire].front().arrival - Simulator::Now(),
                                   &WanLinkChannel::Deliver,
                                   Ptr<WanLinkChannel>(this),
                                   wire);
}

void
WanLinkChannel::Deliver(uint32_t wire)
{
    std::deque<InFlight>& inFlight = m_wires[wire];
    if (inFlight.empty())
    {
        return; // disposed while the event was pending
    }
    Ptr<Packet> packet = inFlight.front().packet;
    inFlight.pop_front();
    if (!inFlight.empty())
    {
        ScheduleHead(wire);
    }
    NS_LOG_LOGIC("deliver " << packet << " on wire " << wire);
    GetDestination(wire)->Receive(packet);
}

uint32_t
WanLinkChannel::GetInFlight(Ptr<PointToPointNetDevice> src) const
{
    return static_cast<uint32_t>(m_wires[WireOf(src)].size());
}

} // namespace ns3
