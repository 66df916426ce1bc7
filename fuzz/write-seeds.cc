/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Writes the packet seeds of the fuzzers (gradient-header, router, fpga) and the trace seeds of
 * the chakra fuzzer into fuzz/corpus/<name>/, built with the module's own writers
 * (GradientPayload::Create*, ns-3's Ipv4Header and UdpHeader, ChakraTrace::ToBytes,
 * ProtoWriter), so that the valid seeds are valid by construction.
 * The seeds are committed; run this again only when the wire format changes:
 *
 *   build-fuzz/write-seeds fuzz/corpus
 */

#include "fuzz-input.h"

#include "ns3/chakra-trace.h"
#include "ns3/gradient-header.h"
#include "ns3/gradient-payload.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/proto-writer.h"
#include "ns3/udp-header.h"
#include "ns3/wan-wire.h"

#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;
using wan_training_fuzz::FuzzInput;

namespace
{

/// UDP protocol number.
constexpr uint8_t UDP = 17;

/** \param packet a packet \return its bytes */
std::vector<uint8_t>
Bytes(Ptr<const Packet> packet)
{
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), packet->GetSize());
    return bytes;
}

/**
 * \param type packet type \param sender sending island \param chunk chunk index
 * \param elements element count \return a gradient header of clique {0, 1, 2, 3}
 */
GradientHeader
MakeGradient(GradientHeader::Type type, uint16_t sender, uint32_t chunk, uint32_t elements)
{
    GradientHeader h;
    h.SetType(type);
    h.SetSender(sender);
    h.SetJobId(1);
    h.SetRound(3);
    h.SetCliqueId(0);
    h.SetChunkIndex(chunk);
    h.SetChunkCount(4);
    h.SetElementCount(elements);
    IslandBitmap members;
    for (uint32_t i = 0; i < 4; ++i)
    {
        members.Set(i);
    }
    h.SetMembers(members);
    IslandBitmap contributors;
    contributors.Set(sender);
    h.SetContributors(contributors);
    return h;
}

/** \param sender island \param n elements \return n real values of that sender */
std::vector<int32_t>
Values(uint16_t sender, uint32_t n)
{
    std::vector<int32_t> values(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        values[i] = static_cast<int32_t>((sender + 1) * 1000 + i) * (i % 2 == 0 ? 1 : -1);
    }
    return values;
}

/**
 * \param gradient a gradient packet \param source IPv4 source \param destination IPv4
 * destination \param ttl TTL \param checksum write a header checksum
 * \return the bytes of the IPv4/UDP packet around it
 */
std::vector<uint8_t>
Ipv4Udp(Ptr<const Packet> gradient,
        Ipv4Address source,
        Ipv4Address destination,
        uint8_t ttl = 64,
        bool checksum = false)
{
    Ptr<Packet> packet = gradient->Copy();
    UdpHeader udp;
    udp.SetSourcePort(WanWire::DEFAULT_GRADIENT_PORT);
    udp.SetDestinationPort(WanWire::DEFAULT_GRADIENT_PORT);
    packet->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(source);
    ip.SetDestination(destination);
    ip.SetProtocol(UDP);
    ip.SetTtl(ttl);
    ip.SetPayloadSize(packet->GetSize());
    if (checksum)
    {
        ip.EnableChecksum();
    }
    packet->AddHeader(ip);
    return Bytes(packet);
}

/** \param sender island \return its address, 10.0.sender.1 */
Ipv4Address
IslandAddress(uint16_t sender)
{
    return Ipv4Address(0x0a000001 + (static_cast<uint32_t>(sender) << 8));
}

/** \param folder where \param name file name \param bytes contents */
void
Write(const std::string& folder, const std::string& name, const std::vector<uint8_t>& bytes)
{
    const std::string path = folder + "/" + name;
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out)
    {
        std::cerr << "write-seeds: cannot write " << path << "\n";
        std::exit(1);
    }
}

/**
 * \brief The chakra seeds: a valid trace of compute and collectives, and near-valid ones (cut
 *        short, a cycle, a wire type that does not match, a collective without comm_size).
 * \param folder where
 */
void
WriteChakraSeeds(const std::string& folder)
{
    const auto bytes = [](const std::string& text) {
        return std::vector<uint8_t>(text.begin(), text.end());
    };
    ChakraNode forward;
    forward.id = 1;
    forward.name = "fwd";
    forward.type = ChakraNodeType::COMP_NODE;
    forward.durationMicros = 250;
    ChakraNode backward = forward;
    backward.id = 2;
    backward.name = "bwd";
    backward.durationMicros = 500;
    backward.dataDeps = {1};
    ChakraNode allReduce;
    allReduce.id = 3;
    allReduce.name = "all_reduce";
    allReduce.type = ChakraNodeType::COMM_COLL_NODE;
    allReduce.commType = ChakraCollective::ALL_REDUCE;
    allReduce.commSize = 1 << 20;
    allReduce.dataDeps = {2};
    ChakraAttribute gpu;
    gpu.name = "is_cpu_op";
    gpu.kind = ChakraAttribute::BOOL;
    allReduce.attributes = {gpu};
    const std::string valid =
        ChakraTrace("seed", "0.0.4", {forward, backward, allReduce}).ToBytes();
    Write(folder, "three-nodes", bytes(valid));
    Write(folder, "cut", bytes(valid.substr(0, valid.size() - 7)));

    // Node messages written field by field: a cycle (1 needs 2, 2 needs 1), a name sent as a
    // varint, a collective without comm_size.
    ProtoWriter metadata;
    metadata.WriteBytesField(1, "0.0.4");
    const std::string head = ProtoWriter::Delimited(metadata.GetBytes());
    ProtoWriter one;
    one.WriteVarintField(1, 1);
    one.WriteVarintField(3, 4);
    one.WriteVarintField(5, 2);
    one.WriteVarintField(7, 10);
    ProtoWriter two;
    two.WriteVarintField(1, 2);
    two.WriteVarintField(3, 4);
    two.WritePackedVarints(4, {1});
    two.WriteVarintField(7, 10);
    Write(folder,
          "cycle",
          bytes(head + ProtoWriter::Delimited(one.GetBytes()) +
                ProtoWriter::Delimited(two.GetBytes())));
    ProtoWriter badName;
    badName.WriteVarintField(1, 1);
    badName.WriteVarintField(2, 5);
    Write(folder, "wire-type", bytes(head + ProtoWriter::Delimited(badName.GetBytes())));
    ProtoWriter noSize;
    noSize.WriteVarintField(1, 1);
    noSize.WriteVarintField(3, 7);
    ProtoWriter commType;
    commType.WriteBytesField(1, "comm_type");
    commType.WriteVarintField(9, 2);
    noSize.WriteBytesField(10, commType.GetBytes());
    Write(folder, "no-comm-size", bytes(head + ProtoWriter::Delimited(noSize.GetBytes())));
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc != 2)
    {
        std::cerr << "usage: write-seeds CORPUS_FOLDER (the folders gradient-header, router, "
                     "fpga and chakra in it must exist)\n";
        return 2;
    }
    const std::string corpus = argv[1];

    // gradient-header: packets starting at the gradient header.
    const std::string gh = corpus + "/gradient-header";
    Write(gh,
          "data-virtual",
          Bytes(GradientPayload::CreateVirtual(MakeGradient(GradientHeader::DATA, 1, 0, 8))));
    Write(gh,
          "data-real",
          Bytes(GradientPayload::CreateReal(MakeGradient(GradientHeader::DATA, 2, 1, 6),
                                            Values(2, 6))));
    GradientHeader aggregate = MakeGradient(GradientHeader::AGGREGATE, 1, 2, 4);
    IslandBitmap some;
    some.Set(1);
    some.Set(2);
    aggregate.SetContributors(some);
    Write(gh, "aggregate-real", Bytes(GradientPayload::CreateReal(aggregate, Values(1, 4))));
    GradientHeader nack = MakeGradient(GradientHeader::NACK, 0, 0, 0);
    nack.SetContributors(some);
    nack.SetNackRanges({{0, 2}, {3, 1}});
    Write(gh, "nack", Bytes(GradientPayload::CreateVirtual(nack)));
    GradientHeader ring = MakeGradient(GradientHeader::RING, 3, 1, 2);
    ring.SetRingStep(2);
    Write(gh, "ring", Bytes(GradientPayload::CreateReal(ring, Values(3, 2))));
    Write(gh,
          "ack",
          Bytes(GradientPayload::CreateVirtual(MakeGradient(GradientHeader::ACK, 2, 0, 0))));
    GradientHeader wide = MakeGradient(GradientHeader::DATA, 700, 0, 1);
    IslandBitmap many;
    many.Set(0);
    many.Set(700);
    many.Set(1023);
    wide.SetMembers(many);
    Write(gh, "data-wide-bitmap", Bytes(GradientPayload::CreateVirtual(wide)));
    // Near-valid: payload one element short; bad magic.
    std::vector<uint8_t> shortPayload = Bytes(
        GradientPayload::CreateReal(MakeGradient(GradientHeader::DATA, 2, 1, 6), Values(2, 6)));
    shortPayload.resize(shortPayload.size() - 4);
    Write(gh, "data-short-payload", shortPayload);
    std::vector<uint8_t> badMagic =
        Bytes(GradientPayload::CreateVirtual(MakeGradient(GradientHeader::DATA, 1, 0, 2)));
    badMagic[0] ^= 0xff;
    Write(gh, "data-bad-magic", badMagic);

    // router: configuration byte, then records (port, length, IPv4 packet).
    const std::string router = corpus + "/router";
    const auto data1 = GradientPayload::CreateVirtual(MakeGradient(GradientHeader::DATA, 0, 0, 16));
    {
        // Unicast 0 -> 1 and 1 -> 2, checksums on, multicast on.
        std::vector<uint8_t> in{0x03};
        FuzzInput::AppendRecord(in,
                                0,
                                Ipv4Udp(data1, IslandAddress(0), IslandAddress(1), 64, true));
        FuzzInput::AppendRecord(in,
                                1,
                                Ipv4Udp(data1, IslandAddress(1), IslandAddress(2), 64, true));
        Write(router, "unicast-checksums", in);
    }
    {
        // Multicast from 10.0.0.1 and from 10.0.1.1 (whose entry lists its ingress port).
        std::vector<uint8_t> in{0x01};
        FuzzInput::AppendRecord(in, 0, Ipv4Udp(data1, IslandAddress(0), Ipv4Address("239.0.0.1")));
        FuzzInput::AppendRecord(in, 1, Ipv4Udp(data1, IslandAddress(1), Ipv4Address("239.0.0.1")));
        Write(router, "multicast", in);
    }
    {
        // Multicast disabled, fan-out 1, forwarding delay; no route; TTL 1; IPv6 framing.
        std::vector<uint8_t> in{0x30};
        FuzzInput::AppendRecord(in, 0, Ipv4Udp(data1, IslandAddress(0), Ipv4Address("239.0.0.1")));
        FuzzInput::AppendRecord(in, 2, Ipv4Udp(data1, IslandAddress(2), Ipv4Address("10.9.9.9")));
        FuzzInput::AppendRecord(in, 2, Ipv4Udp(data1, IslandAddress(2), IslandAddress(0), 1));
        FuzzInput::AppendRecord(in, 0x80, Ipv4Udp(data1, IslandAddress(0), IslandAddress(1)));
        Write(router, "drops", in);
    }
    {
        // Mtu 600: one packet above, one below; a truncated and a wrong-checksum packet.
        const auto big =
            GradientPayload::CreateVirtual(MakeGradient(GradientHeader::DATA, 0, 0, 200));
        std::vector<uint8_t> in{0x08 | 0x02};
        FuzzInput::AppendRecord(in, 0, Ipv4Udp(big, IslandAddress(0), IslandAddress(1), 64, true));
        FuzzInput::AppendRecord(in,
                                0,
                                Ipv4Udp(data1, IslandAddress(0), IslandAddress(1), 64, true));
        std::vector<uint8_t> truncated =
            Ipv4Udp(data1, IslandAddress(0), IslandAddress(1), 64, true);
        truncated.resize(30);
        FuzzInput::AppendRecord(in, 0, truncated);
        std::vector<uint8_t> wrongSum =
            Ipv4Udp(data1, IslandAddress(0), IslandAddress(1), 64, true);
        wrongSum[10] ^= 0x55;
        FuzzInput::AppendRecord(in, 0, wrongSum);
        Write(router, "mtu-and-malformed", in);
    }

    // fpga: configuration byte, then records (port bit 0: from the island side).
    const std::string fpga = corpus + "/fpga";
    {
        // Senders 1, 2, 3 to island 0, real payloads, multicast: one complete aggregate.
        std::vector<uint8_t> in{0x01};
        for (uint16_t s = 1; s <= 3; ++s)
        {
            GradientHeader h = MakeGradient(GradientHeader::DATA, s, 0, 4);
            FuzzInput::AppendRecord(in,
                                    0,
                                    Ipv4Udp(GradientPayload::CreateReal(h, Values(s, 4)),
                                            IslandAddress(s),
                                            Ipv4Address("239.0.0.1")));
        }
        Write(fpga, "complete-real", in);
    }
    {
        // Virtual payloads, unicast, one sender missing (partial after 20 us), a duplicate,
        // two slots only, a second chunk overflowing them.
        std::vector<uint8_t> in{0x02 | 0x04};
        for (uint16_t s : {uint16_t(1), uint16_t(2), uint16_t(2)})
        {
            FuzzInput::AppendRecord(
                in,
                0,
                Ipv4Udp(GradientPayload::CreateVirtual(MakeGradient(GradientHeader::DATA, s, 0, 8)),
                        IslandAddress(s),
                        IslandAddress(0)));
        }
        for (uint32_t chunk : {1u, 2u})
        {
            FuzzInput::AppendRecord(in,
                                    0,
                                    Ipv4Udp(GradientPayload::CreateVirtual(
                                                MakeGradient(GradientHeader::DATA, 1, chunk, 8)),
                                            IslandAddress(1),
                                            IslandAddress(0)));
        }
        Write(fpga, "partial-duplicate-overflow", in);
    }
    {
        // Outbound DATA from the island; inbound NACK, retransmission, and a mismatching
        // element count; processing rate and checksums on.
        std::vector<uint8_t> in{0x08 | 0x20};
        FuzzInput::AppendRecord(
            in,
            1,
            Ipv4Udp(data1, IslandAddress(0), Ipv4Address("239.0.0.1"), 64, true));
        FuzzInput::AppendRecord(in,
                                0,
                                Ipv4Udp(GradientPayload::CreateVirtual(nack),
                                        IslandAddress(1),
                                        IslandAddress(0),
                                        64,
                                        true));
        GradientHeader resent = MakeGradient(GradientHeader::DATA, 1, 0, 8);
        resent.SetFlags(GradientHeader::FLAG_RETRANSMISSION);
        FuzzInput::AppendRecord(in,
                                0,
                                Ipv4Udp(GradientPayload::CreateVirtual(resent),
                                        IslandAddress(1),
                                        IslandAddress(0),
                                        64,
                                        true));
        FuzzInput::AppendRecord(
            in,
            0,
            Ipv4Udp(GradientPayload::CreateVirtual(MakeGradient(GradientHeader::DATA, 2, 0, 8)),
                    IslandAddress(2),
                    IslandAddress(0),
                    64,
                    true));
        FuzzInput::AppendRecord(
            in,
            0,
            Ipv4Udp(GradientPayload::CreateVirtual(MakeGradient(GradientHeader::DATA, 3, 0, 9)),
                    IslandAddress(3),
                    IslandAddress(0),
                    64,
                    true));
        Write(fpga, "mixed", in);
    }
    {
        // Not gradient traffic: IPv6 framing, a short frame, a bad gradient header.
        std::vector<uint8_t> in{0x00};
        FuzzInput::AppendRecord(in, 0x80, Ipv4Udp(data1, IslandAddress(1), IslandAddress(0)));
        FuzzInput::AppendRecord(in, 0, {0x45, 0x00, 0x00});
        std::vector<uint8_t> bad =
            Ipv4Udp(GradientPayload::CreateVirtual(MakeGradient(GradientHeader::DATA, 1, 0, 2)),
                    IslandAddress(1),
                    IslandAddress(0));
        bad[28] ^= 0xff;
        FuzzInput::AppendRecord(in, 0, bad);
        Write(fpga, "not-gradient", in);
    }
    WriteChakraSeeds(corpus + "/chakra");
    return 0;
}
