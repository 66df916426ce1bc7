/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-link-channel.h"

#include "wan-link-net-device.h"
#include "wan-mpi.h"

#include "ns3/abort.h"
#include "ns3/channel-list.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanLinkChannel");

NS_OBJECT_ENSURE_REGISTERED(WanLinkChannel);

TypeId
WanLinkChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanLinkChannel")
            .SetParent<Channel>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanLinkChannel>()
            .AddAttribute("Delay",
                          "Propagation delay from one end to the other",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&WanLinkChannel::m_delay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("MaxBundleBytes",
                          "Under ns-3's MPI engine: the most bytes a bundle of "
                          "frames for another rank holds (a larger frame travels "
                          "alone; 0, the default: every frame on its own). At most "
                          "1856: ns-3's MPI interfaces take messages of up to 2000 "
                          "bytes. Bundles are faster, but a bundle's first frame may "
                          "meet events of the same nanosecond at the far rank in "
                          "another order than in one process, so results can differ "
                          "slightly (seen on a generated topology with loss).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&WanLinkChannel::m_maxBundleBytes),
                          MakeUintegerChecker<uint32_t>(0, WanRankBundle::MAX_BYTES));
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
    for (uint32_t wire = 0; wire < m_bundles.size(); ++wire)
    {
        Simulator::Cancel(m_bundleEvents[wire]);
        m_bundles[wire].Take();
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
    m_toRank[wire].push_back(arrival);
    WanRankBundle& bundle = m_bundles[wire];
    if (!bundle.Add(arrival, packet, protocol, m_maxBundleBytes))
    {
        SendBundle(wire); // full for this frame: it starts the next bundle
        bundle.Add(arrival, packet, protocol, m_maxBundleBytes);
    }
    if (bundle.GetBytes() >= m_maxBundleBytes)
    {
        SendBundle(wire);
    }
    else if (bundle.GetFrames() == 1)
    {
        // arrival - lookahead >= now: arrival is now + txTime + Delay, Delay >= the lookahead.
        m_bundleEvents[wire] =
            Simulator::Schedule(arrival - GetRankLookahead(wire) - Simulator::Now(),
                                &WanLinkChannel::SendBundle,
                                Ptr<WanLinkChannel>(this),
                                wire);
    }
}

void
WanLinkChannel::SendBundle(uint32_t wire)
{
    NS_LOG_FUNCTION(this << wire);
    Simulator::Cancel(m_bundleEvents[wire]); // when sent early, full
    WanRankBundle& bundle = m_bundles[wire];
    if (bundle.IsEmpty())
    {
        return;
    }
    const Time arrival = bundle.GetFirstArrival();
    NS_LOG_LOGIC("bundle of " << bundle.GetFrames() << " frames on wire " << wire << ", due "
                              << arrival);
    const Ptr<WanLinkNetDevice> far = m_devices[1 - wire];
    WanMpi::SendPacket(bundle.Take(), arrival, far->GetNode()->GetId(), far->GetIfIndex());
}

Time
WanLinkChannel::GetRankLookahead(uint32_t wire)
{
    NS_LOG_FUNCTION(this << wire);
    if (m_rankLookahead[wire].IsStrictlyNegative()) // not computed yet (a zero delay is one)
    {
        const uint32_t here = WanMpi::GetRank();
        const uint32_t there = m_devices[1 - wire]->GetNode()->GetSystemId();
        Time lookahead = m_delay;
        for (auto channel = ChannelList::Begin(); channel != ChannelList::End(); ++channel)
        {
            const Ptr<WanLinkChannel> link = DynamicCast<WanLinkChannel>(*channel);
            if (!link || link->m_nDevices != link->m_devices.size())
            {
                continue;
            }
            const uint32_t a = link->m_devices[0]->GetNode()->GetSystemId();
            const uint32_t b = link->m_devices[1]->GetNode()->GetSystemId();
            if ((a == here && b == there) || (a == there && b == here))
            {
                lookahead = std::min(lookahead, link->m_delay);
            }
        }
        m_rankLookahead[wire] = lookahead;
        NS_LOG_INFO("channel " << GetId() << ", wire " << wire << ": rank " << here << " to "
                               << there << ", lookahead " << lookahead);
    }
    return m_rankLookahead[wire];
}

void
WanLinkChannel::ReceiveFromRank(uint32_t device, Ptr<Packet> packet)
{
    NS_LOG_FUNCTION(this << device << packet);
    const uint32_t wire = 1 - device;
    std::deque<InFlight>& inFlight = m_wires[wire];
    NS_ABORT_MSG_UNLESS(inFlight.empty(),
                        "WanLinkChannel " << GetId() << ": a bundle from another rank while "
                                          << inFlight.size() << " frames are still on the wire");
    for (WanRankBundle::Frame& frame : WanRankBundle::Open(packet))
    {
        inFlight.push_back({frame.arrival, std::move(frame.packet), frame.protocol});
    }
    NS_ABORT_MSG_UNLESS(!inFlight.empty() && inFlight.front().arrival == Simulator::Now(),
                        "WanLinkChannel " << GetId() << ": a bundle from another rank is not due "
                                          << "now");
    Deliver(wire);
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
