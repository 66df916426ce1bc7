/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * fpga-bench: aggregation throughput of one FpgaAggregatorNetDevice, in input packets per
 * wall-clock second of Simulator::Run (and per second of process CPU time, which is steadier on
 * a shared machine).
 *
 *   router side --(in-box link)-- FPGA --(access link)-- island
 *
 * No IP stacks: a generator on the router side sends pre-built IPv4/UDP/GradientHeader frames
 * of 8 senders into the in-box link, one per serialisation time, chunk-major (chunk c of
 * senders 0..7, then chunk c + 1), so each slot opens and completes within 8 packets. Chunk
 * indices cycle over a window of pre-built frames, so building packets is not measured.
 *
 * Configurations:
 *   aggregate-real     DATA with real int32 payloads: parse, slot lookup, element-wise sums
 *   aggregate-virtual  DATA with virtual payloads: parse, slot lookup, bitmaps only
 *   bypass-virtual     the same frames flagged NO_AGGREGATE: parse, then pass through
 *                      (the cost of the device without aggregation, for reference)
 *
 *   fpga-bench [--packets=400000] [--elements=256] [--window=1024]
 */

#include "ns3/core-module.h"
#include "ns3/gradient-payload.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/wan-training-module.h"
#include "ns3/wan-wire.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

const uint32_t SENDERS = 8;              //!< senders, as in the brief
const uint32_t ISLAND = SENDERS;         //!< the island behind the FPGA
const char* const LINK_RATE = "400Gbps"; //!< both links: never the bottleneck here
const char* const LINK_DELAY = "500ns";  //!< both links

/** One benchmark configuration. */
struct BenchConfig
{
    const char* name; //!< printed name
    bool real;        //!< real payloads
    bool bypass;      //!< flag NO_AGGREGATE
};

/** Drives one configuration. */
class Bench
{
  public:
    Bench(uint64_t packets, uint32_t elements, uint32_t window)
        : m_packets(packets),
          m_elements(elements),
          m_window(window)
    {
    }

    /**
     * \param config what to run \param aggregates receives aggregates emitted
     * \param delivered receives packets that reached the island
     * \param cpuRate receives input packets per second of process CPU time (robust on a
     *        shared machine)
     * \return input packets per wall-clock second
     */
    double Run(const BenchConfig& config,
               uint64_t& aggregates,
               uint64_t& delivered,
               double& cpuRate)
    {
        Ptr<Node> routerNode = CreateObject<Node>();
        Ptr<Node> fpgaNode = CreateObject<Node>();
        Ptr<Node> islandNode = CreateObject<Node>();
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue(LINK_RATE));
        p2p.SetChannelAttribute("Delay", StringValue(LINK_DELAY));
        NetDeviceContainer inBox = p2p.Install(routerNode, fpgaNode);
        NetDeviceContainer access = p2p.Install(fpgaNode, islandNode);
        Ptr<FpgaAggregatorNetDevice> fpga = CreateObject<FpgaAggregatorNetDevice>();
        fpga->SetAttribute("IslandIndex", UintegerValue(ISLAND));
        fpgaNode->AddDevice(fpga);
        fpga->SetIslandPort(access.Get(0));
        fpga->SetRouterPort(inBox.Get(1));
        m_source = inBox.Get(0);
        m_delivered = 0;
        islandNode->RegisterProtocolHandler(MakeCallback(&Bench::Sink, this),
                                            0,
                                            access.Get(1),
                                            true);

        BuildFrames(config);
        m_sent = 0;
        m_gap = DataRate(LINK_RATE).CalculateBytesTxTime(m_frames[0]->GetSize() + 2);
        Simulator::ScheduleWithContext(routerNode->GetId(), Seconds(0), &Bench::Next, this);

        const auto start = std::chrono::steady_clock::now();
        const std::clock_t cpuStart = std::clock();
        Simulator::Run();
        const std::clock_t cpuStop = std::clock();
        const auto stop = std::chrono::steady_clock::now();
        cpuRate =
            double(m_sent) * CLOCKS_PER_SEC / double(std::max<std::clock_t>(1, cpuStop - cpuStart));
        aggregates = fpga->GetCompleteCount() + fpga->GetPartialCount();
        delivered = m_delivered;
        Simulator::Destroy();
        m_frames.clear();
        m_source = nullptr;
        return double(m_sent) / std::chrono::duration<double>(stop - start).count();
    }

  private:
    void BuildFrames(const BenchConfig& config)
    {
        IslandBitmap members;
        for (uint32_t i = 0; i <= SENDERS; ++i)
        {
            members.Set(i);
        }
        std::vector<int32_t> values(m_elements);
        m_frames.clear();
        for (uint32_t c = 0; c < m_window; ++c)
        {
            for (uint32_t s = 0; s < SENDERS; ++s)
            {
                GradientHeader header;
                header.SetType(GradientHeader::DATA);
                header.SetSender(static_cast<uint16_t>(s));
                header.SetChunkIndex(c);
                header.SetChunkCount(m_window);
                header.SetElementCount(m_elements);
                header.SetMembers(members);
                IslandBitmap self;
                self.Set(s);
                header.SetContributors(self);
                header.SetFlags(config.bypass ? GradientHeader::FLAG_NO_AGGREGATE : 0);
                for (uint32_t e = 0; e < m_elements; ++e)
                {
                    values[e] = static_cast<int32_t>(s * 7919 + c * 104729 + e);
                }
                Ptr<Packet> packet = config.real ? GradientPayload::CreateReal(header, values)
                                                 : GradientPayload::CreateVirtual(header);
                UdpHeader udp;
                udp.SetSourcePort(49152);
                udp.SetDestinationPort(WanWire::DEFAULT_GRADIENT_PORT);
                packet->AddHeader(udp);
                Ipv4Header ip;
                ip.SetSource(Ipv4Address(0x0a000000 + s + 1));
                ip.SetDestination(Ipv4Address("10.255.0.1"));
                ip.SetProtocol(17);
                ip.SetPayloadSize(packet->GetSize());
                ip.SetTtl(64);
                packet->AddHeader(ip);
                m_frames.push_back(packet);
            }
        }
    }

    void Next()
    {
        // Frames are shared copy-on-write: Copy() is what a sender's stack would hand down.
        m_source->Send(m_frames[m_sent % m_frames.size()]->Copy(),
                       m_source->GetBroadcast(),
                       0x0800);
        ++m_sent;
        if (m_sent < m_packets)
        {
            Simulator::Schedule(m_gap, &Bench::Next, this);
        }
    }

    void Sink(Ptr<NetDevice> device,
              Ptr<const Packet> packet,
              uint16_t protocol,
              const Address& from,
              const Address& to,
              NetDevice::PacketType type)
    {
        ++m_delivered;
    }

    uint64_t m_packets;                //!< input packets per configuration
    uint32_t m_elements;               //!< elements per chunk
    uint32_t m_window;                 //!< distinct chunk indices pre-built
    std::vector<Ptr<Packet>> m_frames; //!< pre-built frames, chunk-major
    Ptr<NetDevice> m_source;           //!< router end of the in-box link
    uint64_t m_sent{0};                //!< frames sent
    uint64_t m_delivered{0};           //!< packets that reached the island
    Time m_gap;                        //!< one frame's serialisation time
};

} // namespace

int
main(int argc, char** argv)
{
    uint64_t packets = 400000;
    uint32_t elements = 256;
    uint32_t window = 1024;
    CommandLine cmd(__FILE__);
    cmd.Usage("Input packets per wall-clock second through one FPGA with 8 senders.");
    cmd.AddValue("packets", "input packets per configuration (at least 8)", packets);
    cmd.AddValue("elements", "int32 elements per chunk (1..2000)", elements);
    cmd.AddValue("window", "distinct chunk indices pre-built (at least 1)", window);
    cmd.Parse(argc, argv);
    if (packets < SENDERS || elements < 1 || elements > 2000 || window < 1)
    {
        std::cerr << "error: --packets must be >= 8, --elements in 1..2000, --window >= 1\n";
        return 1;
    }

    const BenchConfig configs[] = {{"aggregate-real", true, false},
                                   {"aggregate-virtual", false, false},
                                   {"bypass-virtual", false, true}};
    std::printf("fpga-bench: %u senders, %u elements per chunk, %llu input packets per run\n",
                SENDERS,
                elements,
                static_cast<unsigned long long>(packets));
    std::printf("%-18s %16s %16s %12s %12s\n",
                "config",
                "input-pkts/s",
                "input-pkts/cpu-s",
                "aggregates",
                "delivered");
    Bench bench(packets, elements, window);
    for (const BenchConfig& config : configs)
    {
        uint64_t aggregates = 0;
        uint64_t delivered = 0;
        double cpuRate = 0;
        const double rate = bench.Run(config, aggregates, delivered, cpuRate);
        std::printf("%-18s %16.0f %16.0f %12llu %12llu\n",
                    config.name,
                    rate,
                    cpuRate,
                    static_cast<unsigned long long>(aggregates),
                    static_cast<unsigned long long>(delivered));
    }
    return 0;
}
