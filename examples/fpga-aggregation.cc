/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * fpga-aggregation: the ingress relief of one in-line FPGA.
 *
 * k sender islands each send one stream of gradient chunks (DATA, unicast UDP) to one
 * receiver island through a WAN router:
 *
 *   sender 0..k-1 --(10 Gbps, 1 ms)-- router --[(400 Gbps, 0.5 us)-- FPGA]--(10 Gbps, 1 ms)--
 * receiver
 *
 * The scenario runs twice, without and with the FPGA in front of the receiver, and prints the
 * packets and bytes the receiver's access link carried in each, the time the last chunk was
 * complete at the receiver, and the FPGA's counters. Each sender paces its stream at 1/k of
 * the access link, so without the FPGA the access link is exactly full.
 *
 * With --payload=real every chunk carries int32 values drawn from ns-3's RNG (--seed); the
 * receiver adds what it receives and the program compares every element with a sum it
 * computes itself from the values sent; any mismatch, or a chunk whose contributor bitmaps do
 * not cover all k senders, exits with code 1.
 *
 * Output: <output>/fpga-aggregation.csv, one row per configuration.
 *
 *   fpga-aggregation --k=8 --chunks=200 --payload=real --output=results/fpga
 */

#include "ns3/core-module.h"
#include "ns3/gradient-payload.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/wan-flags.h"
#include "ns3/wan-input-error.h"
#include "ns3/wan-training-module.h"
#include "ns3/wan-wire.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const char* const ACCESS_RATE = "10Gbps"; //!< island access links
const char* const ACCESS_DELAY = "1ms";   //!< island access links
const char* const INBOX_RATE = "400Gbps"; //!< FPGA -- router in-box link
const char* const INBOX_DELAY = "500ns";  //!< FPGA -- router in-box link
const uint32_t MAX_SENDERS = 1000;        //!< islands 0..k; IslandBitmap holds 1024
const uint32_t LINK_MTU = 9000;           //!< IP MTU of every link (jumbo frames)
const uint32_t MAX_CHUNK_ELEMENTS = 2000; //!< one chunk's payload within LINK_MTU
const uint32_t MAX_CHUNKS = 1000000;      //!< chunks per sender (reference sums are in memory)
const double ACCESS_BPS = 10e9;           //!< ACCESS_RATE in bit/s, for pacing
const uint32_t PACKET_OVERHEAD = 20 + 8;  //!< IPv4 + UDP header bytes, for pacing
const double ROUND_TRIP_S = 4e-3;         //!< sender to receiver and back: four access delays
const uint32_t QUEUE_FLOOR_BYTES = 9000;  //!< a resolved queue holds one whole chunk packet
/** Queues without --queue: room for the whole incast, so that only aggregation differs. */
const char* const UNBOUNDED_QUEUE = "100000p";

/** What one configuration measured. */
struct Result
{
    uint64_t accessPackets{0};    //!< packets delivered by the receiver's access link
    uint64_t accessBytes{0};      //!< their bytes (PPP header included)
    uint64_t gradientPackets{0};  //!< gradient packets read by the receiver
    Time lastComplete;            //!< when the last chunk became complete at the receiver
    uint32_t incompleteChunks{0}; //!< chunks whose bitmaps do not cover every sender
    uint64_t mismatches{0};       //!< elements whose sum differs from the reference (real mode)
    uint64_t aggregated{0};       //!< FPGA: contributions absorbed
    uint64_t complete{0};         //!< FPGA: complete aggregates
    uint64_t partial{0};          //!< FPGA: partial aggregates
    uint64_t passed{0};           //!< FPGA: inbound packets passed through
    uint64_t unread{0};           //!< FPGA: of them, not readable as a chunk (fragments)
};

/** One run of the scenario: builds the network, drives the senders, checks the receiver. */
class Scenario
{
  public:
    /**
     * \param k senders \param chunks chunks per sender \param elements int32 per chunk
     * \param real real payloads
     */
    Scenario(uint32_t k, uint32_t chunks, uint32_t elements, bool real, std::string queue)
        : m_k(k),
          m_chunks(chunks),
          m_elements(elements),
          m_real(real),
          m_queue(std::move(queue))
    {
    }

    /** \param withFpga whether the receiver has an FPGA \return the measurements */
    Result Run(bool withFpga)
    {
        m_result = Result();
        Build(withFpga);
        Simulator::Run();
        CheckReceiver();
        if (m_fpga)
        {
            typedef FpgaAggregatorNetDevice F;
            m_result.aggregated = m_fpga->GetAggregatedCount();
            m_result.complete = m_fpga->GetCompleteCount();
            m_result.partial = m_fpga->GetPartialCount();
            for (int r = F::PASS_NOT_GRADIENT; r < F::PASS_REASON_COUNT; ++r)
            {
                m_result.passed += m_fpga->GetPassThroughCount(static_cast<F::PassReason>(r));
            }
            m_result.unread = m_fpga->GetPassThroughCount(F::PASS_NOT_GRADIENT) +
                              m_fpga->GetPassThroughCount(F::PASS_MALFORMED);
        }
        Simulator::Destroy();
        m_fpga = nullptr;
        m_sockets.clear();
        return m_result;
    }

  private:
    void Build(bool withFpga)
    {
        // Both configurations use the same addresses: forget those of the previous run.
        Ipv4AddressGenerator::Reset();
        NodeContainer senders;
        senders.Create(m_k);
        Ptr<Node> routerNode = CreateObject<Node>();
        Ptr<Node> receiver = CreateObject<Node>();
        InternetStackHelper stack;
        stack.Install(senders);
        stack.Install(receiver);
        Ptr<WanRouterNetDevice> router = CreateObject<WanRouterNetDevice>();
        routerNode->AddDevice(router);

        PointToPointHelper access;
        access.SetDeviceAttribute("DataRate", StringValue(ACCESS_RATE));
        // Not ns-3's default 1500: a larger chunk would leave in IP fragments, which the FPGA
        // passes through unsummed.
        access.SetDeviceAttribute("Mtu", UintegerValue(LINK_MTU));
        access.SetChannelAttribute("Delay", StringValue(ACCESS_DELAY));
        access.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue(m_queue));
        Ipv4AddressHelper addresses;
        Ipv4StaticRoutingHelper routing;
        std::vector<Ipv4Address> senderAddresses;
        for (uint32_t s = 0; s < m_k; ++s)
        {
            NetDeviceContainer link = access.Install(senders.Get(s), routerNode);
            addresses.SetBase(Ipv4Address(0x0a000000 + (s << 8)), "255.255.255.0"); // 10.0.s/24
            NetDeviceContainer hostSide(link.Get(0));
            Ipv4InterfaceContainer interface = addresses.Assign(hostSide);
            senderAddresses.push_back(interface.GetAddress(0));
            // Point-to-point needs no ARP: the gateway only names the link.
            routing.GetStaticRouting(senders.Get(s)->GetObject<Ipv4>())
                ->SetDefaultRoute(addresses.NewAddress(), 1);
            router->AddHostRoute(interface.GetAddress(0), router->AddPort(link.Get(1)));
        }

        Ptr<NetDevice> receiverPort;
        Ptr<NetDevice> routerPort;
        if (withFpga)
        {
            Ptr<Node> fpgaNode = CreateObject<Node>();
            PointToPointHelper inBox;
            inBox.SetDeviceAttribute("DataRate", StringValue(INBOX_RATE));
            inBox.SetDeviceAttribute("Mtu", UintegerValue(LINK_MTU));
            inBox.SetChannelAttribute("Delay", StringValue(INBOX_DELAY));
            inBox.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue(m_queue));
            NetDeviceContainer box = inBox.Install(routerNode, fpgaNode);
            NetDeviceContainer link = access.Install(fpgaNode, receiver);
            m_fpga = CreateObject<FpgaAggregatorNetDevice>();
            m_fpga->SetAttribute("IslandIndex", UintegerValue(m_k));
            fpgaNode->AddDevice(m_fpga);
            m_fpga->SetIslandPort(link.Get(0));
            m_fpga->SetRouterPort(box.Get(1));
            routerPort = box.Get(0);
            receiverPort = link.Get(1);
        }
        else
        {
            NetDeviceContainer link = access.Install(routerNode, receiver);
            routerPort = link.Get(0);
            receiverPort = link.Get(1);
        }
        addresses.SetBase("10.255.0.0", "255.255.255.0");
        Ipv4InterfaceContainer receiverInterface =
            addresses.Assign(NetDeviceContainer(receiverPort));
        routing.GetStaticRouting(receiver->GetObject<Ipv4>())
            ->SetDefaultRoute(addresses.NewAddress(), 1);
        const Ipv4Address receiverAddress = receiverInterface.GetAddress(0);
        router->AddHostRoute(receiverAddress, router->AddPort(routerPort));
        receiverPort->TraceConnectWithoutContext("PhyRxEnd",
                                                 MakeCallback(&Scenario::AccessRx, this));

        // Receiver: one UDP socket on the gradient port.
        m_members = IslandBitmap();
        for (uint32_t i = 0; i <= m_k; ++i)
        {
            m_members.Set(i);
        }
        m_covered.assign(m_chunks, IslandBitmap());
        m_received.assign(m_real ? size_t(m_chunks) * m_elements : 0, 0);
        m_reference.assign(m_real ? size_t(m_chunks) * m_elements : 0, 0);
        Ptr<Socket> sink = Socket::CreateSocket(receiver, UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), WanWire::GetGradientPort()));
        sink->SetRecvCallback(MakeCallback(&Scenario::Receive, this));
        m_sockets.push_back(sink);

        // Senders: one paced stream each, 1/k of the access link.
        GradientHeader probe;
        probe.SetMembers(m_members);
        probe.SetContributors(m_members);
        const uint32_t packetBytes =
            PACKET_OVERHEAD + probe.GetSerializedSize() + m_elements * GradientHeader::ELEMENT_SIZE;
        NS_ABORT_MSG_IF(packetBytes > LINK_MTU,
                        "fpga-aggregation: a " << packetBytes << "-byte chunk packet exceeds the "
                                               << LINK_MTU << "-byte MTU");
        m_gap = Seconds(packetBytes * 8.0 * m_k / ACCESS_BPS);
        m_random = CreateObject<UniformRandomVariable>();
        m_random->SetStream(1);
        m_senderSockets.clear();
        for (uint32_t s = 0; s < m_k; ++s)
        {
            Ptr<Socket> socket =
                Socket::CreateSocket(senders.Get(s), UdpSocketFactory::GetTypeId());
            socket->Bind();
            socket->Connect(InetSocketAddress(receiverAddress, WanWire::GetGradientPort()));
            m_senderSockets.push_back(socket);
            m_sockets.push_back(socket);
            Simulator::Schedule(NanoSeconds(s), &Scenario::SendChunk, this, s, 0u);
        }
    }

    void SendChunk(uint32_t sender, uint32_t chunk)
    {
        GradientHeader header;
        header.SetType(GradientHeader::DATA);
        header.SetJobId(1);
        header.SetRound(0);
        header.SetCliqueId(0);
        header.SetSender(static_cast<uint16_t>(sender));
        header.SetChunkIndex(chunk);
        header.SetChunkCount(m_chunks);
        header.SetElementCount(m_elements);
        header.SetMembers(m_members);
        IslandBitmap self;
        self.Set(sender);
        header.SetContributors(self);
        Ptr<Packet> packet;
        if (m_real)
        {
            std::vector<int32_t> values(m_elements);
            for (uint32_t e = 0; e < m_elements; ++e)
            {
                // Full int32 range, so sums wrap around as on the FPGA.
                values[e] = static_cast<int32_t>(m_random->GetInteger(0, UINT32_MAX));
                uint32_t& reference = m_reference[size_t(chunk) * m_elements + e];
                reference += static_cast<uint32_t>(values[e]);
            }
            packet = GradientPayload::CreateReal(header, values);
        }
        else
        {
            packet = GradientPayload::CreateVirtual(header);
        }
        m_senderSockets[sender]->Send(packet);
        if (chunk + 1 < m_chunks)
        {
            Simulator::Schedule(m_gap, &Scenario::SendChunk, this, sender, chunk + 1);
        }
    }

    void Receive(Ptr<Socket> socket)
    {
        Ptr<Packet> packet;
        while ((packet = socket->Recv()))
        {
            GradientHeader header;
            if (!GradientPayload::Parse(packet, header, m_real ? &m_values : nullptr) ||
                header.GetChunkIndex() >= m_chunks)
            {
                continue; // the receiving rule: drop what does not parse
            }
            ++m_result.gradientPackets;
            const uint32_t c = header.GetChunkIndex();
            const bool wasComplete = m_covered[c].Count() == m_k;
            m_covered[c] = m_covered[c].Union(header.GetContributors());
            for (uint32_t e = 0; e < m_values.size() && e < m_elements; ++e)
            {
                m_received[size_t(c) * m_elements + e] += static_cast<uint32_t>(m_values[e]);
            }
            if (!wasComplete && m_covered[c].Count() == m_k)
            {
                m_result.lastComplete = Simulator::Now();
            }
        }
    }

    void AccessRx(Ptr<const Packet> packet)
    {
        ++m_result.accessPackets;
        m_result.accessBytes += packet->GetSize();
    }

    void CheckReceiver()
    {
        for (uint32_t c = 0; c < m_chunks; ++c)
        {
            m_result.incompleteChunks += m_covered[c].Count() == m_k ? 0 : 1;
        }
        for (size_t i = 0; i < m_received.size(); ++i)
        {
            m_result.mismatches += m_received[i] == m_reference[i] ? 0 : 1;
        }
    }

    uint32_t m_k;                             //!< senders
    uint32_t m_chunks;                        //!< chunks per sender
    uint32_t m_elements;                      //!< elements per chunk
    bool m_real;                              //!< real payloads
    std::string m_queue;                      //!< every transmit queue's MaxSize
    Result m_result;                          //!< measurements of the current run
    Ptr<FpgaAggregatorNetDevice> m_fpga;      //!< the FPGA, if any
    IslandBitmap m_members;                   //!< islands 0..k (k is the receiver)
    std::vector<IslandBitmap> m_covered;      //!< per chunk: contributors received
    std::vector<uint32_t> m_received;         //!< per chunk and element: sum received (mod 2^32)
    std::vector<uint32_t> m_reference;        //!< per chunk and element: sum sent (mod 2^32)
    std::vector<int32_t> m_values;            //!< parse buffer
    std::vector<Ptr<Socket>> m_sockets;       //!< every socket (kept alive)
    std::vector<Ptr<Socket>> m_senderSockets; //!< per sender
    Ptr<UniformRandomVariable> m_random;      //!< payload values
    Time m_gap;                               //!< pacing interval of each sender
};

/**
 * \param r a configuration's result \param name its name \param k the senders
 * \return 0 if the receiver got every chunk from all \p k senders, summed right, and the FPGA
 *         read every packet as a chunk; else 1, each problem reported on stderr
 */
int
CheckResult(const Result& r, const std::string& name, uint32_t k)
{
    int status = 0;
    if (r.incompleteChunks != 0)
    {
        std::cerr << "error: " << name << ": " << r.incompleteChunks
                  << " chunks not covered by all " << k << " senders\n";
        status = 1;
    }
    if (r.unread != 0)
    {
        // Every packet the senders send is one whole chunk the FPGA can read.
        std::cerr << "error: " << name << ": the FPGA could not read " << r.unread
                  << " packets as chunks (IP fragments?)\n";
        status = 1;
    }
    if (r.mismatches != 0)
    {
        std::cerr << "error: " << name << ": " << r.mismatches
                  << " summed elements differ from the reference\n";
        status = 1;
    }
    return status;
}

/** What one run of the example compares: the flags that shape the traffic. */
struct Settings
{
    uint32_t k{8};                  //!< sender islands
    uint32_t chunks{200};           //!< chunks each sender sends
    uint32_t elements{256};         //!< int32 elements per chunk
    std::string payload{"virtual"}; //!< virtual|real
};

/** The two configurations' names, without and with the FPGA. */
const char* const CONFIG_NAMES[2] = {"no-fpga", "fpga"};

/**
 * \param flag --queue as given ("": none) \return the access queue as Scenario takes it: at the
 *        access rate, with this network's round trip for "bdp"
 */
std::string
ResolveQueue(const std::string& flag)
{
    if (flag.empty())
    {
        return UNBOUNDED_QUEUE;
    }
    const WanQueueSpec spec = WanQueueSpec::Parse(flag, "--queue");
    return std::to_string(spec.Resolve(ACCESS_BPS, ROUND_TRIP_S, QUEUE_FLOOR_BYTES)) +
           (spec.GetKind() == WanQueueSpec::PACKETS ? "p" : "B");
}

/**
 * \brief Print the table of both configurations and write it to fpga-aggregation.csv. Without
 *        every chunk whole there is no last chunk: "-" in the table, an empty CSV field.
 * \param settings the run \param results without and with the FPGA \param output the folder
 * \throws std::runtime_error naming --output if the CSV cannot be written
 */
void
ReportTable(const Settings& settings, const Result* const results[2], const std::string& output)
{
    TextTable table;
    table.AddColumn("config", 12, TextTable::LEFT);
    table.AddColumn("access-packets", 16, TextTable::RIGHT);
    table.AddColumn("access-bytes", 16, TextTable::RIGHT);
    table.AddColumn("last-chunk-ms", 16, TextTable::RIGHT);
    std::ofstream csv(output + "/fpga-aggregation.csv");
    csv << "config,k,chunks,elements,payload,access_packets,access_bytes,last_chunk_s,"
           "fpga_aggregated,fpga_complete,fpga_partial,fpga_passed\n";
    for (int i = 0; i < 2; ++i)
    {
        const Result& r = *results[i];
        const bool whole = r.incompleteChunks == 0;
        table.AddRow({CONFIG_NAMES[i],
                      std::to_string(r.accessPackets),
                      std::to_string(r.accessBytes),
                      whole ? TextTable::Fixed(r.lastComplete.GetSeconds() * 1e3, 3) : "-"});
        std::ostringstream last;
        last << std::setprecision(9) << r.lastComplete.GetSeconds();
        csv << TrainingCsv::Field(CONFIG_NAMES[i]) << "," << settings.k << "," << settings.chunks
            << "," << settings.elements << "," << TrainingCsv::Field(settings.payload) << ","
            << r.accessPackets << "," << r.accessBytes << "," << (whole ? last.str() : "") << ","
            << r.aggregated << "," << r.complete << "," << r.partial << "," << r.passed << "\n";
    }
    if (!csv)
    {
        throw std::runtime_error("--output: cannot write " +
                                 WanInputError::Quote(output + "/fpga-aggregation.csv"));
    }
    std::cout << table.FormatHeader() << "\n"
              << table.FormatRow(0) << "\n"
              << table.FormatRow(1) << "\n";
}

/**
 * \brief Print the access link's relief, only if both configurations delivered every chunk
 *        whole, and what the FPGA did.
 * \param without the run without the FPGA \param with the run with it
 */
void
ReportRelief(const Result& without, const Result& with)
{
    std::cout << "access link relief: ";
    if (without.incompleteChunks == 0 && with.incompleteChunks == 0)
    {
        std::cout << std::fixed << std::setprecision(3)
                  << double(without.accessBytes) / double(std::max<uint64_t>(1, with.accessBytes))
                  << "x fewer bytes";
    }
    else
    {
        std::cout << "not measured (chunks incomplete)";
    }
    std::cout << "; FPGA absorbed " << with.aggregated << ", emitted " << with.complete
              << " complete + " << with.partial << " partial, passed " << with.passed << "\n";
}

int
Body(int argc, char** argv)
{
    // Its own star network: no topology file, so no topology flags to ignore.
    WanCommandLine cmd("fpga-aggregation",
                       "Ingress relief of one in-line FPGA: k senders stream gradient chunks to "
                       "one receiver, without and with an FPGA in front of it.",
                       WanCommandLine::WITHOUT_TOPOLOGY);
    Settings settings;
    cmd.Flags().AddUnsigned("k", "number of sender islands", settings.k, 1, MAX_SENDERS);
    cmd.Flags().AddUnsigned("chunks", "chunks each sender sends", settings.chunks, 1, MAX_CHUNKS);
    cmd.Flags().AddUnsigned("elements",
                            "int32 elements per chunk",
                            settings.elements,
                            1,
                            MAX_CHUNK_ELEMENTS,
                            "one packet within a 9000-byte MTU");
    WanFlags::AddText(cmd.Get(), "payload", "virtual|real", settings.payload);
    cmd.Parse(argc, argv);
    if (settings.payload != "virtual" && settings.payload != "real")
    {
        throw std::runtime_error("--payload: " + WanInputError::Quote(settings.payload) +
                                 ": expected virtual|real");
    }
    const bool real = settings.payload == "real";
    if (!real && cmd.IsGiven("seed"))
    {
        throw std::runtime_error(
            WanFlags::ChangesNothing("seed",
                                     "it draws the values of real payloads only (--payload=real)"));
    }
    const std::string output = cmd.PrepareOutput();

    Scenario scenario(settings.k,
                      settings.chunks,
                      settings.elements,
                      real,
                      ResolveQueue(cmd.GetQueue()));
    const Result without = scenario.Run(false);
    const Result with = scenario.Run(true);
    std::cout << "fpga-aggregation: k=" << settings.k << " chunks=" << settings.chunks
              << " elements=" << settings.elements << " payload=" << settings.payload << "\n";
    const Result* const results[2] = {&without, &with};
    ReportTable(settings, results, output);
    ReportRelief(without, with);

    const int status = std::max(CheckResult(without, CONFIG_NAMES[0], settings.k),
                                CheckResult(with, CONFIG_NAMES[1], settings.k));
    if (real && status == 0)
    {
        std::cout << "real payloads: all " << uint64_t(settings.chunks) * settings.elements
                  << " summed elements match the reference in both configurations\n";
    }
    return status;
}

} // namespace

int
main(int argc, char** argv)
{
    return WanCommandLine::RunMain(Body, argc, argv);
}
