/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * UpdateFormat: names, bytes on the wire and the widths of sums, against figures worked out
 * by hand from the format table (doc/training.rst, "Update formats").
 */

#include "ns3/gradient-header.h"
#include "ns3/gradient-payload.h"
#include "ns3/island-bitmap.h"
#include "ns3/packet.h"
#include "ns3/update-format.h"

#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using ns3::UpdateFormat;

TEST(UpdateFormat, NamesReadBack)
{
    for (const std::string name : {"int32", "bf16", "int8", "int4", "topk:0.01", "topk:1"})
    {
        EXPECT_EQ(UpdateFormat::FromString(name).ToString(), name);
    }
    EXPECT_EQ(UpdateFormat().GetEncoding(), UpdateFormat::INT32);
    EXPECT_EQ(UpdateFormat::FromString("topk:0.25").GetEncoding(), UpdateFormat::TOPK);
    EXPECT_DOUBLE_EQ(UpdateFormat::FromString("topk:0.000001").GetTopkFraction(), 1e-6);
    EXPECT_EQ(UpdateFormat::FromString("int8"), UpdateFormat::FromString("int8"));
    EXPECT_NE(UpdateFormat::FromString("topk:0.01"), UpdateFormat::FromString("topk:0.02"));
}

TEST(UpdateFormat, BadNamesAreRefusedByName)
{
    for (const std::string bad : {"",
                                  "int16",
                                  "INT8",
                                  "fp8",
                                  "topk",
                                  "topk:",
                                  "topk:0",
                                  "topk:-0.1",
                                  "topk:1.5",
                                  "topk:abc",
                                  "topk:0.1 ",
                                  "topk: 0.1",
                                  "topk:nan",
                                  "topk:0.0000001",
                                  "topk:0.0123456"})
    {
        try
        {
            UpdateFormat::FromString(bad);
            ADD_FAILURE() << "accepted \"" << bad << "\"";
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_NE(std::string(e.what()).find("\"" + bad + "\""), std::string::npos) << e.what();
        }
    }
}

TEST(UpdateFormat, PayloadBytesOfAChunk)
{
    // 2230 elements fill 8920 bytes of int32 (a 9000-byte MTU's chunk).
    EXPECT_EQ(UpdateFormat::FromString("int32").GetPayloadBytes(2230), 8920u);
    EXPECT_EQ(UpdateFormat::FromString("bf16").GetPayloadBytes(2230), 4460u);
    EXPECT_EQ(UpdateFormat::FromString("int8").GetPayloadBytes(2230), 2230u);
    // Two int4 elements per byte; an odd count leaves half a byte unused.
    EXPECT_EQ(UpdateFormat::FromString("int4").GetPayloadBytes(2230), 1115u);
    EXPECT_EQ(UpdateFormat::FromString("int4").GetPayloadBytes(2231), 1116u);
    // topk:0.01 keeps ceil(C / 100) entries of 8 bytes.
    EXPECT_EQ(UpdateFormat::FromString("topk:0.01").GetPayloadBytes(1000), 80u);
    EXPECT_EQ(UpdateFormat::FromString("topk:0.01").GetPayloadBytes(1001), 88u);
    EXPECT_EQ(UpdateFormat::FromString("topk:0.01").GetPayloadBytes(1), 8u);
}

TEST(UpdateFormat, SumsNeedWiderElements)
{
    const UpdateFormat int8 = UpdateFormat::FromString("int8");
    const UpdateFormat int4 = UpdateFormat::FromString("int4");
    // One int8 value fits 8 bits; two may reach 254 > 127; 258 x 127 = 32766 fits 16 bits,
    // 259 x 127 = 32893 does not.
    EXPECT_EQ(int8.GetSumBits(1), 8u);
    EXPECT_EQ(int8.GetSumBits(2), 16u);
    EXPECT_EQ(int8.GetSumBits(258), 16u);
    EXPECT_EQ(int8.GetSumBits(259), 32u);
    // int4: 18 x 7 = 126 fits 8 bits, 19 x 7 = 133 does not.
    EXPECT_EQ(int4.GetSumBits(18), 8u);
    EXPECT_EQ(int4.GetSumBits(19), 16u);
    EXPECT_EQ(UpdateFormat::FromString("int32").GetSumBits(64), 32u);
    EXPECT_FALSE(UpdateFormat::FromString("bf16").IsSummable());
    EXPECT_FALSE(UpdateFormat::FromString("topk:0.1").IsSummable());
    EXPECT_EQ(UpdateFormat::FromString("bf16").GetSumBits(2), 0u);
    // The aggregate of 9 int8 chunks of 4460 elements: 16 bits each.
    EXPECT_EQ(int8.GetSumPayloadBytes(4460, 9), 8920u);
}

TEST(UpdateFormat, ChunksFitAPacketAndTheirSum)
{
    // 8920 payload bytes, up to 9 contributors.
    EXPECT_EQ(UpdateFormat::FromString("int32").GetChunkElements(8920, 9), 2230u);
    EXPECT_EQ(UpdateFormat::FromString("bf16").GetChunkElements(8920, 9), 4460u);
    // int8: the 16-bit sum binds, so DATA chunks are half full (4460 of 8920 bytes).
    EXPECT_EQ(UpdateFormat::FromString("int8").GetChunkElements(8920, 9), 4460u);
    // A lone island never sums: a full byte per element.
    EXPECT_EQ(UpdateFormat::FromString("int8").GetChunkElements(8920, 1), 8920u);
    // int4 with 9 contributors sums in 8 bits (63 <= 127): the sum binds at 8920 elements.
    EXPECT_EQ(UpdateFormat::FromString("int4").GetChunkElements(8920, 9), 8920u);
    EXPECT_EQ(UpdateFormat::FromString("int4").GetChunkElements(8920, 19), 4460u);
    // topk:0.01: ceil(C / 100) x 8 <= 8920 up to C = 111500.
    EXPECT_EQ(UpdateFormat::FromString("topk:0.01").GetChunkElements(8920, 9), 111500u);
    EXPECT_EQ(UpdateFormat::FromString("int32").GetChunkElements(3, 9), 0u);
}

namespace
{

/** \param packet a packet \return its bytes */
std::vector<uint8_t>
BytesOf(ns3::Ptr<const ns3::Packet> packet)
{
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/** \param bytes a gradient packet's bytes \return whether GradientHeader::Parse accepts them */
bool
Accepts(const std::vector<uint8_t>& bytes)
{
    ns3::GradientHeader parsed;
    return ns3::GradientHeader::Parse(
        ns3::Create<ns3::Packet>(bytes.data(), static_cast<uint32_t>(bytes.size())),
        parsed);
}

} // namespace

TEST(UpdateFormat, TheHeaderCarriesTheEncoding)
{
    using ns3::GradientHeader;
    using ns3::GradientPayload;
    GradientHeader h;
    h.SetType(GradientHeader::DATA);
    ns3::IslandBitmap members;
    members.Set(0);
    members.Set(1);
    ns3::IslandBitmap self;
    self.Set(0);
    h.SetMembers(members);
    h.SetContributors(self);
    h.SetEncoding(GradientHeader::ENCODING_INT4);
    h.SetElementCount(11);
    const std::vector<uint8_t> bytes = BytesOf(GradientPayload::CreateVirtual(h));
    // 36 fixed + 2 x 8 bitmap bytes, then 11 int4 elements in 6 bytes.
    ASSERT_EQ(bytes.size(), 52u + 6u);
    // Flags field at offset 4: the encoding code 3 in bits 7-9.
    EXPECT_EQ((bytes[4] << 8 | bytes[5]) & 0x0380, 3 << 7);
    EXPECT_EQ(GradientHeader::FramedSize(bytes.data()), 58u);
    GradientHeader parsed;
    ASSERT_TRUE(GradientHeader::Parse(
        ns3::Create<ns3::Packet>(bytes.data(), static_cast<uint32_t>(bytes.size())),
        parsed));
    EXPECT_EQ(parsed.GetEncoding(), GradientHeader::ENCODING_INT4);
    EXPECT_EQ(parsed.GetFlags(), 0u);
    // Codes 6 and 7 are no encoding.
    std::vector<uint8_t> unknown = bytes;
    unknown[4] |= 0x03; // code 3 | 6 = 7
    EXPECT_FALSE(Accepts(unknown));
    // Only DATA, AGGREGATE and RING carry elements of another encoding than int32: the same
    // bytes as an ACK are refused.
    std::vector<uint8_t> ack = bytes;
    ack[3] = GradientHeader::ACK;
    EXPECT_FALSE(Accepts(ack));
    // Real payloads carry values: int4, bf16 and top-k's entries (two words each).
    std::vector<uint8_t> real = bytes;
    real[5] |= GradientHeader::FLAG_REAL_PAYLOAD;
    EXPECT_TRUE(Accepts(real));
    h.SetEncoding(GradientHeader::ENCODING_BF16);
    std::vector<uint8_t> bf16 = BytesOf(GradientPayload::CreateVirtual(h));
    ASSERT_EQ(bf16.size(), 52u + 22u);
    EXPECT_TRUE(Accepts(bf16));
    bf16[5] |= GradientHeader::FLAG_REAL_PAYLOAD;
    EXPECT_TRUE(Accepts(bf16));
    h.SetEncoding(GradientHeader::ENCODING_TOPK);
    h.SetElementCount(1);
    std::vector<uint8_t> topk = BytesOf(GradientPayload::CreateVirtual(h));
    ASSERT_EQ(topk.size(), 52u + 8u);
    EXPECT_TRUE(Accepts(topk));
    topk[5] |= GradientHeader::FLAG_REAL_PAYLOAD;
    EXPECT_TRUE(Accepts(topk));
    // A real entry: index 3, value -1.5f (0xbfc00000), in network order after the header.
    const std::vector<int32_t> entry = {3, static_cast<int32_t>(0xbfc00000U)};
    const std::vector<uint8_t> written = BytesOf(GradientPayload::CreateReal(h, entry));
    ASSERT_EQ(written.size(), 52u + 8u);
    EXPECT_EQ(std::vector<uint8_t>(written.begin() + 52, written.end()),
              (std::vector<uint8_t>{0, 0, 0, 3, 0xbf, 0xc0, 0, 0}));
    GradientHeader read;
    std::vector<int32_t> values;
    ASSERT_TRUE(GradientPayload::Parse(
        ns3::Create<ns3::Packet>(written.data(), static_cast<uint32_t>(written.size())),
        read,
        &values));
    EXPECT_EQ(read.GetElementCount(), 1u);
    EXPECT_EQ(values, entry);
    EXPECT_EQ(UpdateFormat::FromFloatBits(values[1]), -1.5);
    // Half an entry is no top-k payload.
    EXPECT_FALSE(Accepts(std::vector<uint8_t>(written.begin(), written.end() - 4)));
}

TEST(UpdateFormat, SumsKnowWhatTheySum)
{
    using ns3::GradientHeader;
    using ns3::UpdateFormat;
    const uint32_t int4 = 1U << GradientHeader::ENCODING_INT4;
    const uint32_t int8 = 1U << GradientHeader::ENCODING_INT8;
    const uint32_t int32 = 1U << GradientHeader::ENCODING_INT32;
    // One value is its own encoding; a sum of 2 to 18 int4 values is int8 (at most 126), of
    // 2 to 258 int8 values int16; from 19 an int16 sum can be either.
    EXPECT_EQ(UpdateFormat::SumSources(GradientHeader::ENCODING_INT8, 1), int8);
    EXPECT_EQ(UpdateFormat::SumSources(GradientHeader::ENCODING_INT8, 2), int4);
    EXPECT_EQ(UpdateFormat::SumSources(GradientHeader::ENCODING_INT16, 5), int8);
    EXPECT_EQ(UpdateFormat::SumSources(GradientHeader::ENCODING_INT16, 19), int4 | int8);
    EXPECT_EQ(UpdateFormat::SumSources(GradientHeader::ENCODING_INT32, 7), int32);
    EXPECT_EQ(UpdateFormat::SumSources(GradientHeader::ENCODING_INT4, 2), 0u);
    EXPECT_EQ(UpdateFormat::SumSources(GradientHeader::ENCODING_BF16, 1), 0u);
    EXPECT_EQ(UpdateFormat::NarrowestSource(int4 | int8), GradientHeader::ENCODING_INT4);
    EXPECT_EQ(UpdateFormat::NarrowestSource(int8 | int32), GradientHeader::ENCODING_INT8);
}

TEST(UpdateFormat, Bf16RoundsToNearestEven)
{
    using ns3::UpdateFormat;
    // 1 is 0x3f80; 1 + 2^-8 lies half way to the next bf16 (1 + 2^-7) and goes to the even
    // 0x3f80; 1 + 3 x 2^-8 half way between 1 + 2^-7 (0x3f81, odd) and 1 + 2^-6 (0x3f82).
    EXPECT_EQ(UpdateFormat::ToBf16(1.0), 0x3f80);
    EXPECT_EQ(UpdateFormat::ToBf16(1.0 + std::ldexp(1.0, -8)), 0x3f80);
    EXPECT_EQ(UpdateFormat::ToBf16(1.0 + 3 * std::ldexp(1.0, -8)), 0x3f82);
    EXPECT_EQ(UpdateFormat::ToBf16(-2.0), 0xc000);
    // pi: 0x40490fdb as a float; its top 16 bits 0x4049 (3.140625), the rest below half.
    EXPECT_EQ(UpdateFormat::ToBf16(3.14159265358979), 0x4049);
    EXPECT_EQ(UpdateFormat::FromBf16(0x4049), 3.140625);
    EXPECT_EQ(UpdateFormat::FromBf16(0x7f7f), UpdateFormat::BF16_MAX);
}
