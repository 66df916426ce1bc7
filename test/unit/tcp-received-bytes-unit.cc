/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of a TCP connection's received bytes (model/tcp-received-bytes.h): pieces read
 * back in stream order across their borders, consumed whole and in part.
 */

#include "ns3/packet.h"
#include "ns3/tcp-received-bytes.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <numeric>
#include <vector>

using namespace ns3;

namespace
{

/** \param first value of the first byte \param count bytes \return a packet of first, first+1.. */
Ptr<Packet>
Counting(uint8_t first, uint32_t count)
{
    std::vector<uint8_t> bytes(count);
    std::iota(bytes.begin(), bytes.end(), first);
    return Create<Packet>(bytes.data(), count);
}

} // namespace

TEST(TcpReceivedBytes, PeekAcrossPiecesInStreamOrder)
{
    TcpReceivedBytes received;
    received.Append(Counting(0, 3)); // 0 1 2
    received.Append(Counting(3, 0)); // nothing: not kept
    received.Append(Counting(3, 4)); // 3 4 5 6
    received.Append(Counting(7, 2)); // 7 8
    EXPECT_EQ(received.GetSize(), 9u);
    uint8_t out[9] = {};
    received.Peek(out, 9);
    for (uint8_t i = 0; i < 9; ++i)
    {
        EXPECT_EQ(out[i], i) << "byte " << int(i);
    }
    EXPECT_EQ(received.GetSize(), 9u); // a peek keeps them
}

TEST(TcpReceivedBytes, ConsumeWholeAndPartPieces)
{
    TcpReceivedBytes received;
    received.Append(Counting(0, 3));
    received.Append(Counting(3, 4));
    received.Append(Counting(7, 2));
    received.Consume(5); // the first piece and two bytes of the second
    EXPECT_EQ(received.GetSize(), 4u);
    uint8_t out[4] = {};
    received.Peek(out, 4);
    EXPECT_EQ(out[0], 5);
    EXPECT_EQ(out[1], 6);
    EXPECT_EQ(out[2], 7);
    EXPECT_EQ(out[3], 8);
    received.Consume(2); // exactly the rest of the second piece
    received.Peek(out, 2);
    EXPECT_EQ(out[0], 7);
    EXPECT_EQ(out[1], 8);
    received.Append(Counting(9, 1));
    received.Consume(3);
    EXPECT_EQ(received.GetSize(), 0u);
    received.Append(Counting(20, 2));
    received.Clear();
    EXPECT_EQ(received.GetSize(), 0u);
}

TEST(TcpReceivedBytes, ThousandsOfSegmentsMakeOneMessage)
{
    // A message of 5,000 segments of 1,448 bytes (a 7 MB update): what one growing packet
    // could not hold in ns-3 3.37's metadata; here each byte still reads back in place.
    constexpr uint32_t SEGMENTS = 5000;
    constexpr uint32_t SEGMENT = 1448;
    TcpReceivedBytes received;
    for (uint32_t s = 0; s < SEGMENTS; ++s)
    {
        received.Append(Counting(static_cast<uint8_t>(s * SEGMENT), SEGMENT));
    }
    const uint64_t total = uint64_t{SEGMENTS} * SEGMENT;
    ASSERT_EQ(received.GetSize(), total);
    received.Consume(total - 10);
    uint8_t out[10] = {};
    received.Peek(out, 10);
    for (uint32_t i = 0; i < 10; ++i)
    {
        EXPECT_EQ(out[i], static_cast<uint8_t>(total - 10 + i));
    }
}
