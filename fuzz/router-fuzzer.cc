/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness for the router's packet parsing and forwarding: the fuzzer's packets
 * (fuzz-input.h) arrive as IPv4 frames at the ports of a real WanRouterNetDevice in a minimal
 * simulation, built anew for each input:
 *
 *   neighbour 0 (10.0.0.1) --+
 *   neighbour 1 (10.0.1.1) --+-- router node: WanRouterNetDevice, ports 0, 1, 2
 *   neighbour 2 (10.0.2.1) --+
 *
 * Links are the module's WanLinkNetDevice/WanLinkChannel; the neighbours have no IP stack
 * and only inject and record frames. Routes: a host route to each neighbour's address, and
 * the (10.0.0.1, 239.0.0.1) and (10.0.1.1, 239.0.0.1) multicast entries (the second lists its
 * own ingress port, which the router must skip).
 *
 * Configuration byte: bit 0 MulticastEnabled; bit 1 ns-3's ChecksumEnabled; bits 2-3 Mtu
 * (65535, 1500, 600, 68); bit 4 ForwardingDelay 1 us (else 0); bit 5 MaxFanOut 1.
 * Record port byte: sender = port % 3; bit 7 sends the frame as IPv6 instead of IPv4.
 *
 * Checks (besides ASan and UBSan): every frame leaving the router is a well-formed IPv4 packet
 * (version 4, no options, total length = size, TTL >= 1, a right checksum when checksums are
 * on, within the Mtu); no more drops than frames sent, no more frames out than the router
 * counted as forwarded.
 */

#include "fuzz-input.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/global-value.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/wan-link-channel.h"
#include "ns3/wan-link-net-device.h"
#include "ns3/wan-router-net-device.h"

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

/// Neighbours (and router ports).
constexpr uint32_t NEIGHBOURS = 3;
/// Ethernet protocol numbers of IPv4 and IPv6.
constexpr uint16_t IPV4 = 0x0800;
constexpr uint16_t IPV6 = 0x86DD; //!< see IPV4
/// Router Mtu per configuration bits 2-3.
constexpr std::array<uint16_t, 4> MTUS{65535, 1500, 600, 68};

/** \brief report a failed check and abort \param what the check */
[[noreturn]] void
Fail(const char* what)
{
    std::cerr << "router-fuzzer: " << what << "\n";
    std::abort();
}

/** \param b a header \return the one's complement sum check of its 20 bytes (0 if right) */
uint16_t
HeaderChecksum(const uint8_t* b)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < 20; i += 2)
    {
        sum += (static_cast<uint32_t>(b[i]) << 8) | b[i + 1];
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}

/** What the neighbours see of the router's output. */
struct Observer
{
    bool checksums{false}; //!< ChecksumEnabled for this input
    uint16_t mtu{0};       //!< the router's Mtu for this input
    uint64_t received{0};  //!< frames out of the router

    /**
     * \brief Protocol handler of a neighbour: check one frame from the router.
     * \param device neighbour device \param packet frame \param protocol its protocol
     * \param from source \param to destination \param type packet type
     */
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type)
    {
        ++received;
        if (protocol != IPV4)
        {
            Fail("the router sent a frame that is not IPv4");
        }
        const uint32_t size = packet->GetSize();
        if (size < 20)
        {
            Fail("the router sent a frame shorter than an IPv4 header");
        }
        uint8_t b[20];
        packet->CopyData(b, 20);
        const uint32_t totalLength = (static_cast<uint32_t>(b[2]) << 8) | b[3];
        if (b[0] != 0x45 || totalLength != size || b[8] == 0 || size > mtu)
        {
            Fail("the router sent a malformed IPv4 packet");
        }
        if (checksums && HeaderChecksum(b) != 0)
        {
            Fail("the router sent an IPv4 header with a wrong checksum");
        }
    }
};

/**
 * \brief Send one frame from a neighbour (scheduled in the neighbour's context).
 * \param device the neighbour's device \param bytes the frame \param protocol its protocol
 */
void
Inject(Ptr<NetDevice> device, std::vector<uint8_t> bytes, uint16_t protocol)
{
    Ptr<Packet> packet = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
    device->Send(packet, device->GetBroadcast(), protocol);
}

/**
 * \brief A WanLink between two nodes.
 * \param a one node \param b the other \return the devices, a's first
 */
std::array<Ptr<WanLinkNetDevice>, 2>
Connect(Ptr<Node> a, Ptr<Node> b)
{
    Ptr<WanLinkChannel> channel =
        CreateObjectWithAttributes<WanLinkChannel>("Delay", TimeValue(MicroSeconds(1)));
    std::array<Ptr<WanLinkNetDevice>, 2> devices;
    const std::array<Ptr<Node>, 2> nodes{a, b};
    for (uint32_t end = 0; end < 2; ++end)
    {
        devices[end] =
            CreateObjectWithAttributes<WanLinkNetDevice>("DataRate",
                                                         DataRateValue(DataRate("100Gbps")),
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
    Observer observer;
    observer.checksums = (config & 0x02) != 0;
    observer.mtu = MTUS[(config >> 2) & 0x03];
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(observer.checksums));

    Ptr<Node> routerNode = CreateObject<Node>();
    Ptr<WanRouterNetDevice> router = CreateObjectWithAttributes<WanRouterNetDevice>(
        "MulticastEnabled",
        BooleanValue((config & 0x01) != 0),
        "Mtu",
        UintegerValue(observer.mtu),
        "ForwardingDelay",
        TimeValue((config & 0x10) != 0 ? MicroSeconds(1) : Time(0)),
        "MaxFanOut",
        UintegerValue((config & 0x20) != 0 ? 1 : UINT32_MAX));
    routerNode->AddDevice(router);
    std::array<Ptr<Node>, NEIGHBOURS> neighbours;
    std::array<Ptr<NetDevice>, NEIGHBOURS> neighbourDevices;
    for (uint32_t i = 0; i < NEIGHBOURS; ++i)
    {
        neighbours[i] = CreateObject<Node>();
        const auto devices = Connect(neighbours[i], routerNode);
        neighbourDevices[i] = devices[0];
        router->AddPort(devices[1]);
        router->AddHostRoute(Ipv4Address(0x0a000001 + (i << 8)), i);
        neighbours[i]->RegisterProtocolHandler(MakeCallback(&Observer::Receive, &observer),
                                               0,
                                               devices[0],
                                               false);
    }
    router->AddMulticastRoute(Ipv4Address("10.0.0.1"), Ipv4Address("239.0.0.1"), {1, 2});
    router->AddMulticastRoute(Ipv4Address("10.0.1.1"), Ipv4Address("239.0.0.1"), {0, 1, 2});

    Time when = MicroSeconds(1);
    for (const auto& record : input.GetPackets())
    {
        const uint32_t sender = record.port % NEIGHBOURS;
        const uint16_t protocol = (record.port & 0x80) != 0 ? IPV6 : IPV4;
        Simulator::ScheduleWithContext(neighbours[sender]->GetId(),
                                       when,
                                       &Inject,
                                       neighbourDevices[sender],
                                       record.bytes,
                                       protocol);
        when += MicroSeconds(1);
    }
    Simulator::Run();
    if (router->GetTotalDropCount() > input.GetPackets().size())
    {
        Fail("more drops than frames sent");
    }
    if (observer.received > router->GetForwardCount())
    {
        Fail("the neighbours received more frames than the router forwarded");
    }
    Simulator::Destroy();
    return 0;
}
