/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cross-traffic-helper.h"

#include "training-support.h"
#include "wan-topology-helper.h"

#include "ns3/bulk-send-helper.h"
#include "ns3/cross-traffic-socket-factory.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/on-off-helper.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-option-ts.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"
#include "ns3/wan-mpi.h"
#include "ns3/wan-units.h"
#include "ns3/wan-wire.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CrossTrafficHelper");

NS_OBJECT_ENSURE_REGISTERED(CrossTrafficHelper);

namespace
{

/** Default TCP send and receive buffers of a host's sockets: 64 MiB, a window of 7.5 Gbit/s
 *  over a 70 ms round trip (ns-3's own default, 128 KiB, carries 15 Mbit/s there). */
constexpr uint32_t DEFAULT_TCP_BUFFER_BYTES = 64u << 20;
/** Default sink port of flow 0 (iperf's): hosts run nothing else, any port would do. */
constexpr uint16_t DEFAULT_FIRST_PORT = 5001;

} // namespace

TypeId
CrossTrafficHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CrossTrafficHelper")
            .SetParent<Object>()
            .SetGroupName("WanTraining")
            .AddConstructor<CrossTrafficHelper>()
            .AddAttribute("HostAccessRate",
                          "Rate of each cross-traffic host's access link to its city's router "
                          "(fast, so that the WAN links are what the flows share)",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&CrossTrafficHelper::m_hostAccessRate),
                          MakeDataRateChecker())
            .AddAttribute("HostAccessDelay",
                          "Propagation delay of each host's access link",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&CrossTrafficHelper::m_hostAccessDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("FirstPort",
                          "Sink port of flow 0; flow f listens on FirstPort + f",
                          UintegerValue(DEFAULT_FIRST_PORT),
                          MakeUintegerAccessor(&CrossTrafficHelper::m_firstPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("PacketSize",
                          "Bytes of each application write: OnOff's PacketSize, BulkSend's "
                          "SendSize (0: the payload of one packet of the WAN's MTU: a UDP "
                          "datagram, or one TCP segment)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CrossTrafficHelper::m_packetSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TcpSegmentSize",
                          "SegmentSize of the hosts' TCP sockets (0: fill the WAN's MTU after "
                          "the IPv4 and TCP headers and the timestamp option)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CrossTrafficHelper::m_tcpSegmentSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HostQueuePackets",
                          "Bound of each host's own transmit queue, packets (0: room for a full "
                          "TCP buffer of segments, TcpBufferSize / TcpSegmentSize rounded up: "
                          "a TCP sender puts its whole window into it at once, and the host's "
                          "device has no flow control to hold it back)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CrossTrafficHelper::m_hostQueuePackets),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TcpBufferSize",
                          "SndBufSize and RcvBufSize of the hosts' TCP sockets, bytes: the "
                          "largest window a TCP flow can use",
                          UintegerValue(DEFAULT_TCP_BUFFER_BYTES),
                          MakeUintegerAccessor(&CrossTrafficHelper::m_tcpBufferSize),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

CrossTrafficHelper::CrossTrafficHelper()
{
    NS_LOG_FUNCTION(this);
}

CrossTrafficHelper::~CrossTrafficHelper()
{
    NS_LOG_FUNCTION(this);
}

void
CrossTrafficHelper::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_installed.clear();
    m_hosts.reset();
    m_wan = nullptr;
    Object::DoDispose();
}

uint32_t
CrossTrafficHelper::GetTcpSegmentSize() const
{
    NS_ABORT_MSG_IF(!m_wan, "CrossTrafficHelper: call Install() first");
    return TcpSegmentSizeAt(m_wan->GetMtu());
}

uint32_t
CrossTrafficHelper::TcpSegmentSizeAt(uint32_t mtu) const
{
    return m_tcpSegmentSize > 0 ? m_tcpSegmentSize : GetMtuTcpSegmentSize(mtu);
}

uint32_t
CrossTrafficHelper::GetMtuTcpSegmentSize(uint32_t mtu)
{
    // The TCP header as ns-3's TCP sends it on every data segment: with its timestamp option
    // (10 bytes, padded to a multiple of 4).
    TcpHeader header;
    header.AppendOption(CreateObject<TcpOptionTS>());
    return mtu - WanWire::IPV4_HEADER_BYTES - header.GetSerializedSize();
}

uint32_t
CrossTrafficHelper::GetMtuUdpPayload(uint32_t mtu)
{
    return mtu - WanWire::IPV4_UDP_HEADER_BYTES;
}

void
CrossTrafficHelper::Check(const std::vector<CrossTrafficFlow>& flows, uint32_t mtu) const
{
    NS_LOG_FUNCTION(this << flows.size() << mtu);
    const std::string prefix = "CrossTrafficHelper: ";
    const uint64_t lastPort = uint64_t{m_firstPort} + flows.size() - (flows.empty() ? 0 : 1);
    if (lastPort > std::numeric_limits<uint16_t>::max())
    {
        throw std::runtime_error(prefix + std::to_string(flows.size()) +
                                 " flows need sink ports beyond 65535 from FirstPort " +
                                 std::to_string(m_firstPort) + " (one port per flow)");
    }
    if (m_hostAccessRate.GetBitRate() == 0)
    {
        throw std::runtime_error(prefix + "HostAccessRate 0 bit/s: must be above 0");
    }
    const uint32_t mtuSegment = GetMtuTcpSegmentSize(mtu);
    if (m_tcpSegmentSize > mtuSegment)
    {
        throw std::runtime_error(prefix + "TcpSegmentSize " + std::to_string(m_tcpSegmentSize) +
                                 ": more than the " + std::to_string(mtuSegment) +
                                 " bytes a segment carries at the WAN's MTU of " +
                                 std::to_string(mtu));
    }
    const uint32_t udpPayload = GetMtuUdpPayload(mtu);
    for (uint32_t f = 0; f < flows.size(); ++f)
    {
        const CrossTrafficFlow& flow = flows[f];
        const uint32_t packetSize = PacketSizeAt(flow.protocol, mtu);
        if (flow.protocol == CrossTrafficFlow::UDP && packetSize > udpPayload)
        {
            throw std::runtime_error(
                prefix + "PacketSize " + std::to_string(packetSize) + ": flow " +
                std::to_string(f) + " is UDP, and a datagram carries at most " +
                std::to_string(udpPayload) + " bytes at the WAN's MTU of " + std::to_string(mtu));
        }
        if (!flow.bulk && flow.rateBps > m_hostAccessRate.GetBitRate())
        {
            // OnOff would still make every write, and the host's own queue drop the excess
            // one by one: a 50 Tbit/s flow is 700 million writes per simulated second.
            throw std::runtime_error(
                prefix + "flow " + std::to_string(f) + ": " + std::to_string(flow.rateBps) +
                " bit/s is above HostAccessRate " + std::to_string(m_hostAccessRate.GetBitRate()) +
                " bit/s, the most a host can send: lower the rate (or use bulk over TCP for as "
                "fast as the path allows), or raise HostAccessRate");
        }
        if (!flow.bulk && DataRate(flow.rateBps).CalculateBytesTxTime(packetSize).IsZero())
        {
            throw std::runtime_error(prefix + "flow " + std::to_string(f) + ": at " +
                                     std::to_string(flow.rateBps) + " bit/s a " +
                                     std::to_string(packetSize) +
                                     "-byte write takes less than the simulator's time step (" +
                                     WanUnits::FormatNumber(Time::From(1).GetSeconds()) +
                                     " s): lower the rate or raise PacketSize");
        }
    }
}

uint32_t
CrossTrafficHelper::GetPacketSize(CrossTrafficFlow::Protocol protocol) const
{
    NS_ABORT_MSG_IF(!m_wan, "CrossTrafficHelper: call Install() first");
    return PacketSizeAt(protocol, m_wan->GetMtu());
}

uint32_t
CrossTrafficHelper::PacketSizeAt(CrossTrafficFlow::Protocol protocol, uint32_t mtu) const
{
    if (m_packetSize > 0)
    {
        return m_packetSize;
    }
    return protocol == CrossTrafficFlow::TCP ? TcpSegmentSizeAt(mtu) : GetMtuUdpPayload(mtu);
}

uint32_t
CrossTrafficHelper::HostAt(uint32_t city)
{
    const auto it = m_hostByCity.find(city);
    if (it != m_hostByCity.end())
    {
        return it->second;
    }
    const uint32_t segment = GetTcpSegmentSize();
    const uint32_t queue =
        m_hostQueuePackets > 0 ? m_hostQueuePackets : (m_tcpBufferSize + segment - 1) / segment;
    const uint32_t host = m_hosts->Add(city,
                                       m_hostAccessRate,
                                       m_hostAccessDelay,
                                       QueueSize(QueueSizeUnit::PACKETS, queue));
    // The hosts' TCP sockets come from this factory (the applications' Protocol).
    const Ptr<CrossTrafficSocketFactory> tcp = CreateObject<CrossTrafficSocketFactory>();
    tcp->SetSocketAttribute("SegmentSize", UintegerValue(segment));
    tcp->SetSocketAttribute("SndBufSize", UintegerValue(m_tcpBufferSize));
    tcp->SetSocketAttribute("RcvBufSize", UintegerValue(m_tcpBufferSize));
    // No TIME_WAIT (2 x 120 s by default): a host never reuses a port, and a run then ends when
    // its flows are done rather than four simulated minutes later.
    tcp->SetSocketAttribute("MaxSegLifetime", DoubleValue(0));
    m_hosts->GetNode(host)->AggregateObject(tcp);
    m_hostByCity[city] = host;
    return host;
}

void
CrossTrafficHelper::Install(WanTopologyHelper& wan, const std::vector<CrossTrafficFlow>& flows)
{
    NS_LOG_FUNCTION(this << flows.size());
    NS_ABORT_MSG_IF(m_wan, "CrossTrafficHelper::Install: call it once");
    TrainingRunRequest run;
    run.processes = WanMpi::GetSize();
    run.crossTraffic = true;
    TrainingSupport::Check(run);
    Check(flows, wan.GetMtu());
    m_wan = &wan;
    m_hosts = std::make_unique<WanHostHelper>(wan);
    m_flows = flows;
    const auto& cities = wan.GetTopology().GetCities();
    for (uint32_t f = 0; f < flows.size(); ++f)
    {
        const CrossTrafficFlow& flow = flows[f];
        NS_ABORT_MSG_IF(flow.from >= cities.size() || flow.to >= cities.size(),
                        "CrossTrafficHelper::Install: flow " << f << " names a city out of range");
        const uint32_t sender = HostAt(flow.from);
        const uint32_t receiver = HostAt(flow.to);
        const std::string protocol = flow.protocol == CrossTrafficFlow::TCP
                                         ? CrossTrafficSocketFactory::GetTypeId().GetName()
                                         : UdpSocketFactory::GetTypeId().GetName();
        const uint16_t port = m_firstPort + f;
        const uint32_t packetSize = GetPacketSize(flow.protocol);

        PacketSinkHelper sinkHelper(protocol, InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sinks = sinkHelper.Install(m_hosts->GetNode(receiver));
        sinks.Start(Seconds(0)); // listening before the sender starts

        const InetSocketAddress remote(m_hosts->GetAddress(receiver), port);
        ApplicationContainer senders;
        if (flow.bulk)
        {
            BulkSendHelper bulk(protocol, remote);
            bulk.SetAttribute("SendSize", UintegerValue(packetSize));
            bulk.SetAttribute("MaxBytes", UintegerValue(0));
            senders = bulk.Install(m_hosts->GetNode(sender));
        }
        else
        {
            // Always on between start and stop: one on period as long as the flow, no off time.
            OnOffHelper onOff(protocol, remote);
            onOff.SetConstantRate(DataRate(flow.rateBps), packetSize);
            onOff.SetAttribute("OnTime",
                               PointerValue(CreateObjectWithAttributes<ConstantRandomVariable>(
                                   "Constant",
                                   DoubleValue(flow.stop - flow.start))));
            senders = onOff.Install(m_hosts->GetNode(sender));
        }
        senders.Start(Seconds(flow.start));
        senders.Stop(Seconds(flow.stop));

        Installed installed;
        installed.sender = senders.Get(0);
        installed.sink = DynamicCast<PacketSink>(sinks.Get(0));
        // The bytes sent by the stop reach the sink one propagation delay later.
        installed.propagation = 2 * m_hostAccessDelay +
                                NanoSeconds(wan.GetRouting().GetPathDelayNs(flow.from, flow.to));
        m_installed.push_back(installed);
        Simulator::ScheduleWithContext(m_hosts->GetNode(receiver)->GetId(),
                                       Seconds(flow.stop) + installed.propagation,
                                       &CrossTrafficHelper::RecordStop,
                                       Ptr<CrossTrafficHelper>(this),
                                       f);
        NS_LOG_INFO(
            "flow " << f << ": " << cities[flow.from].code << " -> " << cities[flow.to].code << " "
                    << CrossTrafficFlow::ProtocolName(flow.protocol) << " "
                    << (flow.bulk ? std::string("bulk") : std::to_string(flow.rateBps) + " bit/s")
                    << " from " << flow.start << " s to " << flow.stop << " s, port " << port
                    << ", " << packetSize << "-byte writes");
    }
}

void
CrossTrafficHelper::RecordStop(uint32_t flow)
{
    Installed& installed = m_installed.at(flow);
    installed.stopped = true;
    installed.bytesAtStop = installed.sink->GetTotalRx();
}

const std::vector<CrossTrafficFlow>&
CrossTrafficHelper::GetFlows() const
{
    return m_flows;
}

Ptr<PacketSink>
CrossTrafficHelper::GetSink(uint32_t flow) const
{
    return m_installed.at(flow).sink;
}

Ptr<Application>
CrossTrafficHelper::GetSender(uint32_t flow) const
{
    return m_installed.at(flow).sender;
}

uint32_t
CrossTrafficHelper::GetHost(uint32_t city) const
{
    return m_hostByCity.at(city);
}

const WanHostHelper&
CrossTrafficHelper::GetHosts() const
{
    NS_ABORT_MSG_IF(!m_hosts, "CrossTrafficHelper::GetHosts: call Install() first");
    return *m_hosts;
}

std::vector<CrossTrafficResult>
CrossTrafficHelper::GetResults() const
{
    std::vector<CrossTrafficResult> results;
    const double now = Simulator::Now().GetSeconds();
    for (uint32_t f = 0; f < m_flows.size(); ++f)
    {
        const CrossTrafficFlow& flow = m_flows[f];
        const Installed& installed = m_installed[f];
        const auto& cities = m_wan->GetTopology().GetCities();
        CrossTrafficResult r;
        r.flow = f;
        r.from = cities[flow.from].code;
        r.to = cities[flow.to].code;
        r.protocol = CrossTrafficFlow::ProtocolName(flow.protocol);
        r.bulk = flow.bulk;
        r.offeredBps = flow.rateBps;
        r.start = flow.start;
        r.stop = flow.stop;
        // A run that ended (a limit) before the stop reached the sink ends the active time
        // where the last bytes the sink got were sent.
        const double sent = now - installed.propagation.GetSeconds();
        r.active = installed.stopped ? flow.stop - flow.start : std::max(0.0, sent - flow.start);
        r.bytes = installed.stopped ? installed.bytesAtStop : installed.sink->GetTotalRx();
        r.goodputBps = r.active > 0 ? r.bytes * WanWire::BITS_PER_BYTE / r.active : 0;
        results.push_back(r);
    }
    return results;
}

} // namespace ns3
