/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the bundles WanLinkChannel hands to ns-3's MPI engine (model/wan-rank-bundle.h):
 * frames come out of a bundle as they went in (arrival times beyond 32 bits of nanoseconds,
 * protocol numbers, bytes, packet and byte tags, a virtual payload that stays virtual), the size
 * follows the format (two head words, four words per frame before ns-3's serialisation of the
 * packet), Take() starts afresh, and anything that is not such a bundle ends the program with a
 * message.
 */

#include "ns3/flow-id-tag.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/wan-ipv4-header-bytes.h"
#include "ns3/wan-rank-bundle.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

/** A frame as the islands send them: a 20-byte header before a virtual (zero-area) payload. */
Ptr<Packet>
MakeFrame(uint8_t first, uint32_t payload)
{
    WanIpv4HeaderBytes header;
    for (uint32_t i = 0; i < WanIpv4HeaderBytes::SIZE; ++i)
    {
        header.m_bytes[i] = static_cast<uint8_t>(first + i);
    }
    Ptr<Packet> frame = Create<Packet>(payload);
    frame->AddHeader(header);
    return frame;
}

/** \return the packet's bytes */
std::vector<uint8_t>
BytesOf(Ptr<const Packet> packet)
{
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    return bytes;
}

TEST(WanRankBundle, FramesComeOutAsTheyWentIn)
{
    Ptr<Packet> a = MakeFrame(1, 8980);
    a->AddPacketTag(FlowIdTag(7));
    Ptr<Packet> b = MakeFrame(100, 0);
    b->AddByteTag(FlowIdTag(9));
    Ptr<Packet> c = MakeFrame(200, 1400);
    // 5 s is beyond 2^32 ns: the arrival's high word matters.
    const std::vector<Time> arrivals{NanoSeconds(33800000), NanoSeconds(33800720), Seconds(5)};

    WanRankBundle bundle;
    EXPECT_TRUE(bundle.IsEmpty());
    bundle.Add(arrivals[0], a, 0x0800);
    bundle.Add(arrivals[1], b, 0x86dd);
    bundle.Add(arrivals[2], c, 0x0800);
    EXPECT_FALSE(bundle.IsEmpty());
    EXPECT_EQ(bundle.GetFrames(), 3u);
    EXPECT_EQ(bundle.GetFirstArrival(), arrivals[0]);
    const uint32_t expected = 8 + (16 + a->GetSerializedSize()) + (16 + b->GetSerializedSize()) +
                              (16 + c->GetSerializedSize());
    EXPECT_EQ(bundle.GetBytes(), expected);
    EXPECT_EQ(WanRankBundle::GetFrameBytes(a), 16 + a->GetSerializedSize());
    // The payload travels as its length: a 9000-byte frame costs its header, not 9000 bytes.
    EXPECT_LT(WanRankBundle::GetFrameBytes(a), 100u);

    // Changes after Add do not travel.
    a->AddPacketTag(FlowIdTag(8));
    const Ptr<Packet> packet = bundle.Take();
    EXPECT_EQ(packet->GetSize(), expected);
    const std::vector<WanRankBundle::Frame> frames = WanRankBundle::Open(packet);
    ASSERT_EQ(frames.size(), 3u);
    const std::vector<uint16_t> protocols{0x0800, 0x86dd, 0x0800};
    const std::vector<Ptr<Packet>> sent{MakeFrame(1, 8980), b, c};
    for (uint32_t f = 0; f < 3; ++f)
    {
        EXPECT_EQ(frames[f].arrival, arrivals[f]) << "frame " << f;
        EXPECT_EQ(frames[f].protocol, protocols[f]) << "frame " << f;
        EXPECT_EQ(BytesOf(frames[f].packet), BytesOf(sent[f])) << "frame " << f;
    }
    EXPECT_EQ(frames[0].packet->GetSize(), 9000u);
    FlowIdTag tag;
    ASSERT_TRUE(frames[0].packet->RemovePacketTag(tag));
    EXPECT_EQ(tag.GetFlowId(), 7u);
    EXPECT_FALSE(frames[0].packet->PeekPacketTag(tag)) << "a tag added after Add travelled";
    EXPECT_FALSE(frames[1].packet->PeekPacketTag(tag));
    ByteTagIterator byteTags = frames[1].packet->GetByteTagIterator();
    ASSERT_TRUE(byteTags.HasNext());
    ByteTagIterator::Item item = byteTags.Next();
    item.GetTag(tag);
    EXPECT_EQ(tag.GetFlowId(), 9u);
    EXPECT_EQ(item.GetStart(), 0u);
    EXPECT_EQ(item.GetEnd(), 20u);
    EXPECT_FALSE(byteTags.HasNext());
}

TEST(WanRankBundle, TakeStartsAfresh)
{
    WanRankBundle bundle;
    EXPECT_EQ(bundle.GetBytes(), 8u);
    EXPECT_EQ(WanRankBundle::Open(bundle.Take()).size(), 0u);
    bundle.Add(MilliSeconds(40), MakeFrame(1, 100), 1);
    bundle.Take();
    EXPECT_TRUE(bundle.IsEmpty());
    EXPECT_EQ(bundle.GetFrames(), 0u);
    EXPECT_EQ(bundle.GetBytes(), 8u);
    // A new bundle may start before the last one's frames: only order within one counts.
    bundle.Add(MilliSeconds(30), MakeFrame(50, 0), 2);
    EXPECT_EQ(bundle.GetFirstArrival(), MilliSeconds(30));
    const std::vector<WanRankBundle::Frame> frames = WanRankBundle::Open(bundle.Take());
    ASSERT_EQ(frames.size(), 1u);
    EXPECT_EQ(frames[0].arrival, MilliSeconds(30));
    EXPECT_EQ(frames[0].protocol, 2);
    EXPECT_EQ(BytesOf(frames[0].packet), BytesOf(MakeFrame(50, 0)));
}

TEST(WanRankBundle, MaxBytesLeavesRoomForNs3Envelope)
{
    // ns-3's MPI interfaces receive at most 2000 bytes: 24 of envelope, then the bundle packet
    // serialised (its bytes plus ns-3's words for nix vector, tags, metadata and buffer).
    WanRankBundle bundle;
    while (bundle.GetBytes() + WanRankBundle::GetFrameBytes(MakeFrame(0, 8980)) <=
           WanRankBundle::MAX_BYTES)
    {
        bundle.Add(Seconds(1), MakeFrame(0, 8980), 0x0800);
    }
    EXPECT_GT(bundle.GetFrames(), 1u);
    const Ptr<Packet> packet = bundle.Take();
    EXPECT_LE(24 + packet->GetSerializedSize(), 2000u);
    const Ptr<Packet> largest = Create<Packet>(WanRankBundle::MAX_BYTES);
    EXPECT_LE(24 + largest->GetSerializedSize(), 2000u);
}

using WanRankBundleDeathTest = ::testing::Test;

TEST_F(WanRankBundleDeathTest, WhatIsNoBundleEndsTheProgram)
{
    WanRankBundle bundle;
    bundle.Add(MilliSeconds(30), MakeFrame(1, 100), 1);
    bundle.Add(MilliSeconds(31), MakeFrame(2, 100), 1);
    const Ptr<Packet> good = bundle.Take();
    const std::vector<uint8_t> bytes = BytesOf(good);

    const Ptr<Packet> cut = Create<Packet>(bytes.data(), bytes.size() - 4);
    EXPECT_DEATH(WanRankBundle::Open(cut), "frame 1 of 2 claims");
    std::vector<uint8_t> longer = bytes;
    longer.insert(longer.end(), 4, 0);
    EXPECT_DEATH(WanRankBundle::Open(Create<Packet>(longer.data(), longer.size())),
                 "4 bytes after the last of 2 frames");
    std::vector<uint8_t> magic = bytes;
    magic[0] ^= 1;
    EXPECT_DEATH(WanRankBundle::Open(Create<Packet>(magic.data(), magic.size())),
                 "without the bundle's magic");
    EXPECT_DEATH(WanRankBundle::Open(Create<Packet>(6)), "6 bytes is no bundle");
    std::vector<uint8_t> more = bytes;
    more[4] = 3; // three frames claimed, two present
    EXPECT_DEATH(WanRankBundle::Open(Create<Packet>(more.data(), more.size())),
                 "frame 2 of 3 cut short");

    WanRankBundle backwards;
    backwards.Add(MilliSeconds(31), MakeFrame(1, 100), 1);
    EXPECT_DEATH(backwards.Add(MilliSeconds(30), MakeFrame(1, 100), 1), "after one at");
}

} // namespace
