/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-link-channel.h"

#include "wan-parallel-runner.h"

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
    const Time arrival = Simulator::Now() + txTime + GetDelay();
    if (m_remote[wire])
    {
        m_runner->Send(GetId(), wire, arrival, p);
        return true;
    }
    Enqueue(wire, arrival, p->Copy());
    return true;
}

void
WanLinkChannel::Enqueue(uint32_t wire, Time arrival, Ptr<Packet> packet)
{
    std::deque<InFlight>& inFlight = m_wires[wire];
    inFlight.push_back({arrival, packet});
    if (inFlight.size() == 1)
    {
        ScheduleHead(wire);
    }
}

void
WanLinkChannel::SetParallelRunner(WanParallelRunner* runner)
{
    NS_LOG_FUNCTION(this << runner);
    m_runner = runner;
    for (uint32_t wire = 0; wire < 2; ++wire)
    {
        m_remote[wire] =
            runner != nullptr && !runner->IsLocal(GetDestination(wire)->GetNode()->GetId());
    }
}

void
WanLinkChannel::ReceiveRemote(uint32_t wire, Time arrival, Ptr<Packet> packet)
{
    NS_LOG_FUNCTION(this << wire << arrival << packet);
    NS_ABORT_MSG_IF(wire > 1 || arrival < Simulator::Now(),
                    "WanLinkChannel: remote packet on wire " << wire << " arrives in the past");
    Enqueue(wire, arrival, packet);
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
