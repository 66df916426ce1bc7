/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adaptive-transport.h"

#include "wan-training-compat.h"
#include "wan-wire.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdaptiveTransport");

NS_OBJECT_ENSURE_REGISTERED(AdaptiveTransport);

TypeId
AdaptiveTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdaptiveTransport")
            .SetParent<Object>()
            .SetGroupName("WanTraining")
            .AddConstructor<AdaptiveTransport>()
            .AddAttribute(
                "InitialRate",
                "Where each stream's rate starts: fair (the end hosts' guess: the sender's "
                "and the receivers' access rates shared by their streams), planned (the WAN "
                "controller's max-min rate) or line (the access rate)",
                EnumValue(FAIR),
                MakeWanEnumAccessor<InitialRate>(&AdaptiveTransport::m_initialRate),
                MakeEnumChecker(FAIR, "fair", PLANNED, "planned", LINE, "line"))
            .AddAttribute("CnpInterval",
                          "Shortest time between two congestion notifications to one sender; "
                          "each carries the marks counted since the one before",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&AdaptiveTransport::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Rate",
                            "A stream's rate changed: (island, round, destination, bit/s)",
                            MakeTraceSourceAccessor(&AdaptiveTransport::m_rateTrace),
                            "ns3::AdaptiveTransport::RateTracedCallback");
    return tid;
}

AdaptiveTransport::AdaptiveTransport()
    : m_initialRate(FAIR),
      m_cnpInterval(MicroSeconds(500))
{
    NS_LOG_FUNCTION(this);
}

AdaptiveTransport::~AdaptiveTransport() = default;

void
AdaptiveTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Object::DoDispose();
}

void
AdaptiveTransport::Start(Ptr<Node> node, uint32_t island, uint32_t islandCount)
{
    NS_LOG_FUNCTION(this << node << island);
    m_island = island;
    m_lastNotice.assign(islandCount, Time(0));
    m_noticed.assign(islandCount, false);
    m_pending.assign(islandCount, 0);
    m_marksFrom.assign(islandCount, 0);
    // The access rate: the fastest link device of the island (it has one).
    m_lineRateBps = 0;
    for (uint32_t d = 0; d < node->GetNDevices(); ++d)
    {
        DataRateValue rate;
        if (node->GetDevice(d)->GetAttributeFailSafe("DataRate", rate))
        {
            m_lineRateBps = std::max(m_lineRateBps, static_cast<double>(rate.Get().GetBitRate()));
        }
    }
    NS_ABORT_MSG_IF(m_lineRateBps <= 0,
                    "AdaptiveTransport: island " << island << " has no device with a DataRate");
}

bool
AdaptiveTransport::IsMarked(uint8_t tos)
{
    NS_LOG_FUNCTION(static_cast<uint32_t>(tos));
    return (tos & WanWire::IPV4_ECN_MASK) == WanWire::IPV4_ECN_CE;
}

Ptr<AdaptiveRateControl>
AdaptiveTransport::CreateControl(uint32_t round,
                                 Ipv4Address destination,
                                 double plannedBps,
                                 double fairBps,
                                 Time rtt)
{
    NS_LOG_FUNCTION(this << round << destination << plannedBps << fairBps << rtt);
    double initial = fairBps;
    if (m_initialRate == PLANNED && plannedBps > 0)
    {
        initial = plannedBps;
    }
    else if (m_initialRate == LINE)
    {
        initial = m_lineRateBps;
    }
    Ptr<AdaptiveRateControl> control = CreateObject<AdaptiveRateControl>();
    control->TraceConnectWithoutContext(
        "Rate",
        MakeBoundCallback(&AdaptiveTransport::RateChanged, this, round, destination));
    control->Start(m_lineRateBps, initial, rtt);
    return control;
}

void
AdaptiveTransport::RateChanged(AdaptiveTransport* transport,
                               uint32_t round,
                               Ipv4Address destination,
                               double /* oldRate */,
                               double newRate)
{
    NS_LOG_FUNCTION(transport << round << destination << newRate);
    transport->m_rateTrace(transport->m_island, round, destination, newRate);
}

uint32_t
AdaptiveTransport::CountMark(uint32_t peer)
{
    NS_LOG_FUNCTION(this << peer);
    if (peer >= m_lastNotice.size())
    {
        return 0;
    }
    ++m_pending[peer];
    ++m_marksFrom[peer];
    const Time now = Simulator::Now();
    if (m_noticed[peer] && now - m_lastNotice[peer] < m_cnpInterval)
    {
        return 0; // told with the next notification
    }
    m_noticed[peer] = true;
    m_lastNotice[peer] = now;
    ++m_notifications;
    const uint32_t marks = m_pending[peer];
    m_pending[peer] = 0;
    return marks;
}

double
AdaptiveTransport::GetLineRate() const
{
    NS_LOG_FUNCTION(this);
    return m_lineRateBps;
}

uint64_t
AdaptiveTransport::GetMarksFrom(uint32_t peer) const
{
    NS_LOG_FUNCTION(this << peer);
    return peer < m_marksFrom.size() ? m_marksFrom[peer] : 0;
}

uint64_t
AdaptiveTransport::GetNotificationsSent() const
{
    NS_LOG_FUNCTION(this);
    return m_notifications;
}

} // namespace ns3
