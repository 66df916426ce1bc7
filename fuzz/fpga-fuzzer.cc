/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness for the FPGA's packet parsing and aggregation: the fuzzer's packets
 * (fuzz-input.h) arrive as IPv4 frames at either port of a real FpgaAggregatorNetDevice in a
 * minimal simulation, built anew for each input:
 *
 *   router side --in-box link-- FPGA node (FpgaAggregatorNetDevice) --access link-- island
 *
 * Links are the module's WanLinkNetDevice/WanLinkChannel; neither end has an IP stack: they
 * inject and record frames. The FPGA serves island 0 (10.0.0.1) on GradientPort 47000.
 *
 * Configuration byte: bit 0 IslandAddress 10.0.0.1 (else learnt); bit 1 SlotCount 2 (else
 * 8192); bit 2 Timeout 20 us (else 50 ms); bit 3 ProcessingRate 10 Gbps (else line rate);
 * bit 4 PipelineLatency 0 (else 500 ns); bit 5 ns-3's ChecksumEnabled.
 * Record port byte: bit 0 sends from the island side (outbound), else from the router side
 * (inbound); bit 7 sends the frame as IPv6 instead of IPv4.
 *
 * Checks (besides ASan, UBSan and the module's NS_ASSERTs): every AGGREGATE the FPGA emits is
 * a valid gradient packet behind IPv4 and UDP that GradientHeader::Parse accepts, of type
 * AGGREGATE, with the header the trace reports; frames leaving towards the router are only
 * the ones the island sent.
 */

#include "fuzz-input.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/fpga-aggregator-net-device.h"
#include "ns3/global-value.h"
#include "ns3/gradient-header.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/wan-link-channel.h"
#include "ns3/wan-link-net-device.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

using namespace ns3;
using wan_training_fuzz::FuzzInput;

namespace
{

/// Ethernet protocol numbers of IPv4 and IPv6.
constexpr uint16_t IPV4 = 0x0800;
constexpr uint16_t IPV6 = 0x86DD; //!< see IPV4
/// Bytes of IPv4 (no options) and UDP headers before the gradient header.
constexpr uint32_t IPV4_UDP_BYTES = 20 + 8;

/** \brief report a failed check and abort \param what the check */
[[noreturn]] void
Fail(const char* what)
{
    std::cerr << "fpga-fuzzer: " << what << "\n";
    std::abort();
}

/** What the two ends see. */
struct Observer
{
    uint64_t outbound{0}; //!< frames the island side sent
    uint64_t atRouter{0}; //!< frames arriving at the router side
    uint64_t emitted{0};  //!< AGGREGATEs emitted

    /**
     * \brief Protocol handler of the router side: count.
     * \param device device \param packet frame \param protocol its protocol
     * \param from source \param to destination \param type packet type
     */
    void ReceiveAtRouter(Ptr<NetDevice> device,
                         Ptr<const Packet> packet,
                         uint16_t protocol,
                         const Address& from,
                         const Address& to,
                         NetDevice::PacketType type)
    {
        ++atRouter;
    }

    /**
     * \brief Trace sink of AggregateEmitted: the aggregate must parse.
     * \param packet the AGGREGATE with its IPv4 header \param header its gradient header
     * \param complete whether every contributor is in
     */
    void Emitted(Ptr<const Packet> packet, const GradientHeader& header, bool complete)
    {
        ++emitted;
        if (packet->GetSize() < IPV4_UDP_BYTES)
        {
            Fail("an emitted aggregate is shorter than IPv4 and UDP headers");
        }
        Ptr<Packet> gradient =
            packet->CreateFragment(IPV4_UDP_BYTES, packet->GetSize() - IPV4_UDP_BYTES);
        GradientHeader parsed;
        if (!GradientHeader::Parse(gradient, parsed))
        {
            Fail("an emitted aggregate does not parse");
        }
        if (parsed.GetType() != GradientHeader::AGGREGATE ||
            parsed.GetRound() != header.GetRound() ||
            parsed.GetChunkIndex() != header.GetChunkIndex() ||
            parsed.GetContributors() != header.GetContributors() ||
            parsed.GetMembers() != header.GetMembers())
        {
            Fail("an emitted aggregate differs from the traced header");
        }
    }
};

/**
 * \brief Send one frame from an end (scheduled in that end's context).
 * \param device the end's device \param bytes the frame \param protocol its protocol
 */
void
Inject(Ptr<NetDevice> device, std::vector<uint8_t> bytes, uint16_t protocol)
{
    Ptr<Packet> packet = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
    device->Send(packet, device->GetBroadcast(), protocol);
}

/** \brief no-op protocol handler of the island side (frames arriving there end) */
void
Discard(Ptr<NetDevice>,
        Ptr<const Packet>,
        uint16_t,
        const Address&,
        const Address&,
        NetDevice::PacketType)
{
}

/**
 * \brief A WanLink between two nodes.
 * \param a one node \param b the other \param rate the link's rate
 * \return the devices, a's first
 */
std::array<Ptr<WanLinkNetDevice>, 2>
Connect(Ptr<Node> a, Ptr<Node> b, const char* rate)
{
    Ptr<WanLinkChannel> channel =
        CreateObjectWithAttributes<WanLinkChannel>("Delay", TimeValue(MicroSeconds(1)));
    std::array<Ptr<WanLinkNetDevice>, 2> devices;
    const std::array<Ptr<Node>, 2> nodes{a, b};
    for (uint32_t end = 0; end < 2; ++end)
    {
        devices[end] = CreateObjectWithAttributes<WanLinkNetDevice>("DataRate",
                                                                    DataRateValue(DataRate(rate)),
                                                                    "Mtu",
                                                                    UintegerValue(65535));
        devices[end]->SetAddress(Mac48Address::Allocate());
        nodes[end]->AddDevice(devices[end]);
        devices[end]->Attach(channel);
    }
    return devices;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const FuzzInput input(data, size);
    const uint8_t config = input.GetConfig();
    GlobalValue::Bind("ChecksumEnabled", BooleanValue((config & 0x20) != 0));

    Ptr<Node> routerSide = CreateObject<Node>();
    Ptr<Node> fpgaNode = CreateObject<Node>();
    Ptr<Node> island = CreateObject<Node>();
    const auto inBox = Connect(routerSide, fpgaNode, "400Gbps");
    const auto access = Connect(fpgaNode, island, "100Gbps");

    Ptr<FpgaAggregatorNetDevice> fpga = CreateObjectWithAttributes<FpgaAggregatorNetDevice>(
        "IslandIndex",
        UintegerValue(0),
        "IslandAddress",
        Ipv4AddressValue((config & 0x01) != 0 ? Ipv4Address("10.0.0.1") : Ipv4Address::GetAny()),
        "SlotCount",
        UintegerValue((config & 0x02) != 0 ? 2 : 8192),
        "Timeout",
        TimeValue((config & 0x04) != 0 ? MicroSeconds(20) : MilliSeconds(50)),
        "ProcessingRate",
        DataRateValue(DataRate((config & 0x08) != 0 ? 10000000000ULL : 0)),
        "PipelineLatency",
        TimeValue((config & 0x10) != 0 ? Time(0) : NanoSeconds(500)));
    fpgaNode->AddDevice(fpga);
    fpga->SetIslandPort(access[0]);
    fpga->SetRouterPort(inBox[1]);

    Observer observer;
    fpga->TraceConnectWithoutContext("AggregateEmitted",
                                     MakeCallback(&Observer::Emitted, &observer));
    routerSide->RegisterProtocolHandler(MakeCallback(&Observer::ReceiveAtRouter, &observer),
                                        0,
                                        inBox[0],
                                        false);
    island->RegisterProtocolHandler(MakeCallback(&Discard), 0, access[1], false);

    Time when = MicroSeconds(1);
    for (const auto& record : input.GetPackets())
    {
        const bool outbound = (record.port & 0x01) != 0;
        const uint16_t protocol = (record.port & 0x80) != 0 ? IPV6 : IPV4;
        Ptr<Node> node = outbound ? island : routerSide;
        Ptr<NetDevice> device = outbound ? access[1] : inBox[0];
        observer.outbound += outbound ? 1 : 0;
        Simulator::ScheduleWithContext(node->GetId(),
                                       when,
                                       &Inject,
                                       device,
                                       record.bytes,
                                       protocol);
        when += MicroSeconds(1);
    }
    Simulator::Run();
    if (observer.atRouter > observer.outbound)
    {
        Fail("the router side received more frames than the island sent");
    }
    Simulator::Destroy();
    return 0;
}
