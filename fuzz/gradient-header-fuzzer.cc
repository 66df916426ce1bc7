/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness for GradientHeader::Parse: the fuzzer's bytes are a packet starting at the
 * gradient header (IPv4 and UDP removed), as every receiver hands it over. Checks:
 *  - Parse() and ParseBytes() (the FPGA's path) agree on accepting the bytes, and on the
 *    header's size;
 *  - an accepted header, written again with CreateVirtualPacket()/CreateRealPacket(), parses
 *    to the same fields (and the same payload values when real).
 * ASan and UBSan catch any read past the packet.
 */

#include "ns3/gradient-header.h"
#include "ns3/packet.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

namespace
{

/** \param what the check that failed \brief report and abort */
[[noreturn]] void
Fail(const char* what)
{
    std::cerr << "gradient-header-fuzzer: " << what << "\n";
    std::abort();
}

/** \return true if both headers hold the same fields \param a header \param b header */
bool
SameFields(const ns3::GradientHeader& a, const ns3::GradientHeader& b)
{
    if (a.GetNackRanges().size() != b.GetNackRanges().size())
    {
        return false;
    }
    for (std::size_t i = 0; i < a.GetNackRanges().size(); ++i)
    {
        if (a.GetNackRanges()[i].first != b.GetNackRanges()[i].first ||
            a.GetNackRanges()[i].count != b.GetNackRanges()[i].count)
        {
            return false;
        }
    }
    return a.GetType() == b.GetType() && a.GetFlags() == b.GetFlags() &&
           a.GetSender() == b.GetSender() && a.GetJobId() == b.GetJobId() &&
           a.GetRound() == b.GetRound() && a.GetCliqueId() == b.GetCliqueId() &&
           a.GetChunkIndex() == b.GetChunkIndex() && a.GetChunkCount() == b.GetChunkCount() &&
           a.GetElementCount() == b.GetElementCount() && a.GetRingStep() == b.GetRingStep() &&
           a.GetMembers() == b.GetMembers() && a.GetContributors() == b.GetContributors();
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    // Packets are at most 64 KiB (an IPv4 datagram); the Packet API counts in uint32_t.
    if (size > 65535)
    {
        return 0;
    }
    const auto packetSize = static_cast<uint32_t>(size);
    ns3::Ptr<ns3::Packet> packet = ns3::Create<ns3::Packet>(data, packetSize);

    ns3::GradientHeader header;
    std::vector<int32_t> values;
    const bool accepted = ns3::GradientHeader::Parse(packet, header, &values);

    // The FPGA's path: the same decision from a copy of the first bytes.
    ns3::GradientHeader fromBytes;
    uint32_t headerSize = 0;
    const bool acceptedBytes =
        ns3::GradientHeader::ParseBytes(data, packetSize, packetSize, fromBytes, &headerSize);
    if (accepted != acceptedBytes)
    {
        Fail("Parse() and ParseBytes() disagree");
    }
    if (!accepted)
    {
        return 0;
    }
    if (!SameFields(header, fromBytes))
    {
        Fail("Parse() and ParseBytes() read different fields");
    }
    if (headerSize + header.GetPayloadSize() != packetSize)
    {
        Fail("accepted, but header and payload do not fill the packet");
    }

    // Written again and parsed again: the same header (and values).
    const bool real = header.HasFlag(ns3::GradientHeader::FLAG_REAL_PAYLOAD);
    if (real && values.size() != header.GetElementCount())
    {
        Fail("real payload: values and element count differ");
    }
    ns3::Ptr<ns3::Packet> again = real ? ns3::GradientHeader::CreateRealPacket(header, values)
                                       : ns3::GradientHeader::CreateVirtualPacket(header);
    ns3::GradientHeader reparsed;
    std::vector<int32_t> reparsedValues;
    if (!ns3::GradientHeader::Parse(again, reparsed, &reparsedValues))
    {
        Fail("a header Parse() accepted, written again, is rejected");
    }
    if (!SameFields(header, reparsed) || (real && reparsedValues != values))
    {
        Fail("a header Parse() accepted, written again, reads back different");
    }
    return 0;
}
