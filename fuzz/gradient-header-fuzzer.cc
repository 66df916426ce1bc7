/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness for GradientHeader::Parse: the fuzzer's bytes are a packet starting at the
 * gradient header (IPv4 and UDP removed), as every receiver hands it over. What Parse() must do
 * on any input is checked on every input, not only on the few it accepts:
 *  - Parse() and ParseBytes() (the FPGA's path) agree on accepting the bytes (and then on the
 *    fields and the header's size), and Parse() answers the same for the bytes in one piece
 *    and in two fragments (receivers get chains of fragments);
 *  - Parse() either rejects the bytes or they round-trip exactly: written again with
 *    GradientPayload::CreateVirtual()/CreateReal() they are the input byte for byte, up to the two
 *    freedoms of the format (bitmaps written in the fewest words; a virtual payload's bytes,
 *    written as zeros). The expected bytes are computed here from the input, not by the
 *    module's writer;
 *  - a valid packet built from the input's bytes (by the rules of Parse()'s documentation) is
 *    always accepted and round-trips exactly, so a Parse() that rejected too much would fail
 *    here instead of passing by rejecting everything; then the input names bytes of it to
 *    mutate, and the mutant gets the first two checks.
 * ASan and UBSan catch any read past the packet.
 */

#include "ns3/gradient-header.h"
#include "ns3/gradient-payload.h"
#include "ns3/packet.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

namespace
{

using ns3::GradientHeader;
using ns3::GradientPayload;
using ns3::IslandBitmap;

/** Offsets and sizes of the wire format (model/gradient-header.h), written out again here. */
constexpr std::size_t OFFSET_FLAGS = 4;
constexpr std::size_t OFFSET_WORDS = 34;
constexpr std::size_t OFFSET_RANGES = 35;
constexpr std::size_t FIXED = 36;
constexpr std::size_t WORD = 8;
constexpr std::size_t RANGE = 8;
constexpr uint16_t REAL_FLAG = 0x0004;
constexpr uint16_t KNOWN_FLAGS = 0x003f;
/** Payload elements of a built packet at most (keeps one input fast). */
constexpr uint32_t MAX_BUILT_ELEMENTS = 64;
/** Mutations of the built packet at most. */
constexpr int MAX_MUTATIONS = 4;

/** \param what the check that failed \brief report and abort */
[[noreturn]] void
Fail(const char* what)
{
    std::cerr << "gradient-header-fuzzer: " << what << "\n";
    std::abort();
}

/** \return true if both headers hold the same fields \param a header \param b header */
bool
SameFields(const GradientHeader& a, const GradientHeader& b)
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

/** \param p a packet \return its bytes */
std::vector<uint8_t>
BytesOf(ns3::Ptr<const ns3::Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), p->GetSize());
    return bytes;
}

/**
 * \brief The bytes an accepted packet must be written back as: the input with its bitmaps cut
 *        to the fewest words (at least one) and a virtual payload zeroed.
 * \param in the accepted packet's bytes \return the canonical bytes
 */
std::vector<uint8_t>
Canonical(const std::vector<uint8_t>& in)
{
    const std::size_t words = in[OFFSET_WORDS];
    const std::size_t ranges = in[OFFSET_RANGES];
    const uint8_t* members = in.data() + FIXED;
    const uint8_t* contributors = members + words * WORD;
    std::size_t used = 1;
    for (std::size_t w = 0; w < words; ++w)
    {
        for (std::size_t b = 0; b < WORD; ++b)
        {
            if (members[w * WORD + b] != 0 || contributors[w * WORD + b] != 0)
            {
                used = w + 1;
            }
        }
    }
    std::vector<uint8_t> out(in.begin(), in.begin() + FIXED);
    out[OFFSET_WORDS] = static_cast<uint8_t>(used);
    out.insert(out.end(), members, members + used * WORD);
    out.insert(out.end(), contributors, contributors + used * WORD);
    const uint8_t* rest = contributors + words * WORD;
    out.insert(out.end(), rest, rest + ranges * RANGE);
    const std::size_t headerBytes = FIXED + 2 * words * WORD + ranges * RANGE;
    const auto payload = in.begin() + static_cast<std::ptrdiff_t>(headerBytes);
    const bool real = ((in[OFFSET_FLAGS] << 8 | in[OFFSET_FLAGS + 1]) & REAL_FLAG) != 0;
    if (real)
    {
        out.insert(out.end(), payload, in.end());
    }
    else
    {
        out.insert(out.end(), static_cast<std::size_t>(in.end() - payload), 0);
    }
    return out;
}

/**
 * \brief The checks every packet gets (see the file comment).
 * \param bytes the packet's bytes, from the gradient header on
 * \param split where to cut the packet into two fragments (taken modulo its size + 1)
 * \return whether Parse() accepted it
 */
bool
CheckAnyPacket(const std::vector<uint8_t>& bytes, std::size_t split)
{
    const auto size = static_cast<uint32_t>(bytes.size());
    ns3::Ptr<ns3::Packet> packet = ns3::Create<ns3::Packet>(bytes.data(), size);
    GradientHeader header;
    std::vector<int32_t> values;
    const bool accepted = GradientPayload::Parse(packet, header, &values);

    // The FPGA's path: the same decision from a copy of the first bytes.
    GradientHeader fromBytes;
    uint32_t headerSize = 0;
    if (GradientHeader::ParseBytes(bytes.data(), size, size, fromBytes, &headerSize) != accepted)
    {
        Fail("Parse() and ParseBytes() disagree");
    }
    // The same bytes as two fragments.
    const auto cut = static_cast<uint32_t>(split % (bytes.size() + 1));
    ns3::Ptr<ns3::Packet> chained = ns3::Create<ns3::Packet>(bytes.data(), cut);
    chained->AddAtEnd(ns3::Create<ns3::Packet>(bytes.data() + cut, size - cut));
    GradientHeader fromChain;
    std::vector<int32_t> chainValues;
    if (GradientPayload::Parse(chained, fromChain, &chainValues) != accepted)
    {
        Fail("Parse() answers differently for the same bytes in two fragments");
    }
    if (!accepted)
    {
        return false;
    }
    if (!SameFields(header, fromBytes) || !SameFields(header, fromChain) || values != chainValues)
    {
        Fail("Parse(), ParseBytes() or the fragmented packet read different fields");
    }
    if (headerSize + header.GetPayloadSize() != size)
    {
        Fail("accepted, but header and payload do not fill the packet");
    }
    const bool real = header.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD);
    if (real && values.size() != header.GetElementCount())
    {
        Fail("real payload: values and element count differ");
    }
    ns3::Ptr<ns3::Packet> again =
        real ? GradientPayload::CreateReal(header, values) : GradientPayload::CreateVirtual(header);
    if (BytesOf(again) != Canonical(bytes))
    {
        Fail("an accepted packet, written again, is not the same bytes");
    }
    return true;
}

/** Reads the fuzzer's bytes as numbers, from the start again when they run out (0 if none). */
class Reader
{
  public:
    /** \param data bytes \param size their number */
    Reader(const uint8_t* data, std::size_t size)
        : m_data(data),
          m_size(size)
    {
    }

    /** \return the next byte */
    uint8_t Byte()
    {
        return m_size == 0 ? 0 : m_data[m_at++ % m_size];
    }

    /** \return the next bytes as a big-endian uint32 */
    uint32_t U32()
    {
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i)
        {
            v = v << 8 | Byte();
        }
        return v;
    }

    /** \return the next bytes as a big-endian uint64 */
    uint64_t U64()
    {
        return uint64_t{U32()} << 32 | U32();
    }

  private:
    const uint8_t* m_data; //!< the bytes
    std::size_t m_size;    //!< their number
    std::size_t m_at{0};   //!< bytes read so far
};

/**
 * \brief A valid header and payload from the reader's bytes, by Parse()'s documented rules.
 * \param in the reader \param values receives the real payload (empty if virtual)
 * \return the header
 */
GradientHeader
BuildValid(Reader& in, std::vector<int32_t>& values)
{
    static const GradientHeader::Type types[] = {GradientHeader::DATA,
                                                 GradientHeader::AGGREGATE,
                                                 GradientHeader::NACK,
                                                 GradientHeader::RING,
                                                 GradientHeader::ACK,
                                                 GradientHeader::END};
    const GradientHeader::Type type = types[in.Byte() % 6];
    GradientHeader h;
    h.SetType(type);
    h.SetFlags(static_cast<uint16_t>(in.Byte() & KNOWN_FLAGS));
    h.SetJobId(in.U32());
    h.SetRound(in.U32());
    h.SetCliqueId(in.U32());
    const auto sender =
        static_cast<uint16_t>((in.Byte() << 8 | in.Byte()) % IslandBitmap::MAX_ISLANDS);
    h.SetSender(sender);
    IslandBitmap members;
    IslandBitmap random;
    const uint32_t words = 1 + in.Byte() % IslandBitmap::MAX_WORDS;
    for (uint32_t w = 0; w < words; ++w)
    {
        members.SetWord(w, in.U64());
        random.SetWord(w, in.U64());
    }
    members.Set(sender);
    h.SetMembers(members);
    IslandBitmap self;
    self.Set(sender);
    IslandBitmap contributors = members.Minus(members.Minus(random)); // members & random
    if (type == GradientHeader::DATA || type == GradientHeader::END ||
        (type == GradientHeader::AGGREGATE && contributors.IsEmpty()))
    {
        contributors = self;
    }
    h.SetContributors(contributors);
    const uint32_t count = std::max<uint32_t>(1, in.U32());
    h.SetChunkCount(count);
    h.SetChunkIndex(type == GradientHeader::END ? count - 1 : in.U32() % count);
    if (type == GradientHeader::RING)
    {
        h.SetRingStep(static_cast<uint16_t>(in.Byte() << 8 | in.Byte()));
    }
    if (type == GradientHeader::NACK)
    {
        const uint32_t rangeCount = 1 + in.Byte() % GradientHeader::MAX_NACK_RANGES;
        std::vector<GradientHeader::ChunkRange> ranges(rangeCount);
        for (auto& range : ranges)
        {
            range.first = in.U32() % count;
            range.count = 1 + in.U32() % (count - range.first);
        }
        h.SetNackRanges(ranges);
    }
    const uint32_t elements = type == GradientHeader::END ? 0 : in.Byte() % MAX_BUILT_ELEMENTS;
    h.SetElementCount(elements);
    values.clear();
    if (h.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD))
    {
        for (uint32_t i = 0; i < elements; ++i)
        {
            values.push_back(static_cast<int32_t>(in.U32()));
        }
    }
    return h;
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
    const std::vector<uint8_t> input(data, data + size);
    Reader in(data, size);
    CheckAnyPacket(input, in.U32());

    // A valid packet from the input: always accepted, and read back as built.
    std::vector<int32_t> values;
    const GradientHeader built = BuildValid(in, values);
    const bool real = built.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD);
    ns3::Ptr<ns3::Packet> packet =
        real ? GradientPayload::CreateReal(built, values) : GradientPayload::CreateVirtual(built);
    const std::vector<uint8_t> bytes = BytesOf(packet);
    if (!CheckAnyPacket(bytes, in.U32()))
    {
        Fail("a valid packet is rejected");
    }
    GradientHeader parsed;
    std::vector<int32_t> parsedValues;
    GradientPayload::Parse(packet, parsed, &parsedValues);
    if (!SameFields(built, parsed) || parsedValues != values)
    {
        Fail("a valid packet reads back different fields or values");
    }

    // Mutants of it: whatever Parse() makes of them, it rejects them or they round-trip.
    std::vector<uint8_t> mutant = bytes;
    const int mutations = 1 + in.Byte() % MAX_MUTATIONS;
    for (int m = 0; m < mutations; ++m)
    {
        const std::size_t at = (in.Byte() << 8 | in.Byte()) % mutant.size();
        mutant[at] = in.Byte();
    }
    CheckAnyPacket(mutant, in.U32());
    return 0;
}
