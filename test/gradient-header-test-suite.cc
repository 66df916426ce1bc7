/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of GradientHeader: round trips of every type with extreme field values, the exact
 * byte layout, and rejection of truncated, inconsistent and random input by Parse().
 */

// ctest-suite: gradient-header

#include "ns3/gradient-header.h"
#include "ns3/gradient-payload.h"
#include "ns3/packet.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/** \return the bytes of a packet */
std::vector<uint8_t>
ToBytes(Ptr<const Packet> packet)
{
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), packet->GetSize());
    return bytes;
}

/** \return a packet holding the bytes */
Ptr<Packet>
FromBytes(const std::vector<uint8_t>& bytes)
{
    return Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

/** \return a valid DATA header: clique {1, 3, 5}, sender 3, 2 of 4 chunks, 8 elements */
GradientHeader
SmallData()
{
    GradientHeader header;
    header.SetType(GradientHeader::DATA);
    header.SetJobId(7);
    header.SetRound(11);
    header.SetCliqueId(2);
    header.SetSender(3);
    header.SetChunkIndex(2);
    header.SetChunkCount(4);
    header.SetElementCount(8);
    IslandBitmap members;
    members.Set(1);
    members.Set(3);
    members.Set(5);
    header.SetMembers(members);
    IslandBitmap self;
    self.Set(3);
    header.SetContributors(self);
    return header;
}

/** \param a header \param b header \return true if every field matches */
bool
SameFields(const GradientHeader& a, const GradientHeader& b)
{
    if (a.GetNackRanges().size() != b.GetNackRanges().size())
    {
        return false;
    }
    for (size_t i = 0; i < a.GetNackRanges().size(); ++i)
    {
        if (a.GetNackRanges()[i].first != b.GetNackRanges()[i].first ||
            a.GetNackRanges()[i].count != b.GetNackRanges()[i].count)
        {
            return false;
        }
    }
    return a.GetType() == b.GetType() && a.GetFlags() == b.GetFlags() &&
           a.GetJobId() == b.GetJobId() && a.GetRound() == b.GetRound() &&
           a.GetCliqueId() == b.GetCliqueId() && a.GetSender() == b.GetSender() &&
           a.GetChunkIndex() == b.GetChunkIndex() && a.GetChunkCount() == b.GetChunkCount() &&
           a.GetElementCount() == b.GetElementCount() && a.GetRingStep() == b.GetRingStep() &&
           a.GetMembers() == b.GetMembers() && a.GetContributors() == b.GetContributors();
}

} // namespace

/**
 * \ingroup wan-training-tests
 * LATE and START (round alignment): a START carries its time as the packet's last 8 bytes,
 * big-endian nanoseconds (1.234567891 s = 0x499602D3 ns, written out here by hand), and reads
 * back; Parse accepts both only with contributors {sender}, chunk count 1, no real-payload
 * flag, and element count 0 (LATE) or 2 (START).
 */
class GradientHeaderNoticeTestCase : public TestCase
{
  public:
    GradientHeaderNoticeTestCase()
        : TestCase("LATE and START: layout of the start time, and what Parse refuses")
    {
    }

  private:
    /** \param packet a packet \return Parse's verdict */
    static bool Accepts(Ptr<const Packet> packet)
    {
        GradientHeader parsed;
        return GradientHeader::Parse(packet, parsed);
    }

    /** \param type LATE or START \return a valid notice header of sender 3 */
    static GradientHeader Notice(GradientHeader::Type type)
    {
        GradientHeader header = SmallData();
        header.SetType(type);
        header.SetChunkIndex(0);
        header.SetChunkCount(1);
        header.SetElementCount(type == GradientHeader::START ? 2 : 0);
        return header;
    }

    void DoRun() override
    {
        const Time at = NanoSeconds(1234567891);
        Ptr<Packet> start = GradientPayload::CreateStart(Notice(GradientHeader::START), at);
        const std::vector<uint8_t> bytes = ToBytes(start);
        const std::vector<uint8_t> tail(bytes.end() - 8, bytes.end());
        const std::vector<uint8_t> expected = {0, 0, 0, 0, 0x49, 0x96, 0x02, 0xD3};
        NS_TEST_EXPECT_MSG_EQ((tail == expected), true, "the time's 8 bytes, big-endian");
        GradientHeader parsed;
        NS_TEST_ASSERT_MSG_EQ(GradientHeader::Parse(start, parsed), true, "a valid START");
        NS_TEST_EXPECT_MSG_EQ(parsed.GetType(), GradientHeader::START, "type");
        NS_TEST_EXPECT_MSG_EQ(parsed.GetElementCount(), 2u, "two elements: the time");
        NS_TEST_EXPECT_MSG_EQ(GradientPayload::ReadStartTime(start), at, "time read back");
        NS_TEST_EXPECT_MSG_EQ(Accepts(GradientPayload::CreateVirtual(Notice(GradientHeader::LATE))),
                              true,
                              "a valid LATE");

        for (GradientHeader::Type type : {GradientHeader::LATE, GradientHeader::START})
        {
            GradientHeader twoChunks = Notice(type);
            twoChunks.SetChunkCount(2);
            GradientHeader others = Notice(type);
            IslandBitmap both;
            both.Set(1);
            both.Set(3);
            others.SetContributors(both);
            GradientHeader sized = Notice(type);
            sized.SetElementCount(type == GradientHeader::START ? 3 : 2);
            for (const GradientHeader& bad : {twoChunks, others, sized})
            {
                NS_TEST_EXPECT_MSG_EQ(Accepts(GradientPayload::CreateVirtual(bad)),
                                      false,
                                      GradientHeader::TypeName(type) << " refused: " << bad);
            }
            const std::vector<int32_t> values(type == GradientHeader::START ? 2 : 0, 0);
            NS_TEST_EXPECT_MSG_EQ(Accepts(GradientPayload::CreateReal(Notice(type), values)),
                                  false,
                                  GradientHeader::TypeName(type) << " with the real flag");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * Every type round-trips through the wire with extreme field values; sizes follow
 * 36 + 16 W + 8 R.
 */
class GradientHeaderRoundTripTestCase : public TestCase
{
  public:
    GradientHeaderRoundTripTestCase()
        : TestCase("round trip of every type with field extremes")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t maxU32 = std::numeric_limits<uint32_t>::max();
        const uint8_t types[] = {GradientHeader::DATA,
                                 GradientHeader::AGGREGATE,
                                 GradientHeader::NACK,
                                 GradientHeader::RING,
                                 GradientHeader::ACK};
        // Small islands (one word) and the largest island (16 words).
        const uint16_t senders[] = {0, 1023};
        for (uint8_t type : types)
        {
            for (uint16_t sender : senders)
            {
                GradientHeader header;
                header.SetType(static_cast<GradientHeader::Type>(type));
                header.SetFlags(GradientHeader::FLAG_RETRANSMISSION |
                                GradientHeader::FLAG_NO_AGGREGATE);
                header.SetJobId(maxU32);
                header.SetRound(maxU32);
                header.SetCliqueId(maxU32);
                header.SetSender(sender);
                header.SetChunkCount(maxU32);
                header.SetChunkIndex(maxU32 - 1);
                header.SetElementCount(type == GradientHeader::DATA ? 3 : 0);
                header.SetRingStep(type == GradientHeader::RING ? 65535 : 0);
                IslandBitmap members;
                members.Set(0);
                members.Set(63);
                members.Set(64);
                members.Set(sender);
                header.SetMembers(members);
                IslandBitmap contributors;
                contributors.Set(sender);
                if (type != GradientHeader::DATA)
                {
                    contributors.Set(63);
                }
                header.SetContributors(contributors);
                std::vector<GradientHeader::ChunkRange> ranges;
                if (type == GradientHeader::NACK)
                {
                    for (uint32_t i = 0; i < GradientHeader::MAX_NACK_RANGES - 1; ++i)
                    {
                        ranges.push_back({i * 10, 5});
                    }
                    ranges.push_back({0, maxU32}); // the whole update
                    header.SetNackRanges(ranges);
                }
                // Island 1023 needs all 16 words; otherwise island 64 needs 2.
                const uint32_t words = sender == 1023 ? 16 : 2;
                const uint32_t expectedSize =
                    36 + 16 * words + 8 * static_cast<uint32_t>(ranges.size());
                NS_TEST_ASSERT_MSG_EQ(header.GetSerializedSize(),
                                      expectedSize,
                                      "size of " << GradientHeader::TypeName(type));

                Ptr<Packet> packet = GradientPayload::CreateVirtual(header);
                NS_TEST_ASSERT_MSG_EQ(packet->GetSize(),
                                      expectedSize + header.GetElementCount() * 4,
                                      "packet size");
                GradientHeader parsed;
                NS_TEST_ASSERT_MSG_EQ(GradientHeader::Parse(packet, parsed),
                                      true,
                                      "valid " << GradientHeader::TypeName(type));
                NS_TEST_ASSERT_MSG_EQ(SameFields(header, parsed),
                                      true,
                                      "fields of " << GradientHeader::TypeName(type));
            }
        }

        // Zero extremes: everything 0, a single-member clique of island 0.
        GradientHeader zero;
        IslandBitmap only0;
        only0.Set(0);
        zero.SetMembers(only0);
        zero.SetContributors(only0);
        zero.SetChunkCount(1);
        GradientHeader parsed;
        NS_TEST_ASSERT_MSG_EQ(GradientHeader::Parse(GradientPayload::CreateVirtual(zero), parsed),
                              true,
                              "all-zero DATA");
        NS_TEST_ASSERT_MSG_EQ(SameFields(zero, parsed), true, "all-zero fields");
        NS_TEST_ASSERT_MSG_EQ(zero.GetSerializedSize(), 52u, "one word each: 36 + 16");
    }
};

/**
 * \ingroup wan-training-tests
 * The bytes on the wire match the documented table, written out by hand.
 */
class GradientHeaderLayoutTestCase : public TestCase
{
  public:
    GradientHeaderLayoutTestCase()
        : TestCase("wire layout matches the documented table")
    {
    }

  private:
    void DoRun() override
    {
        GradientHeader header = SmallData();
        header.SetFlags(GradientHeader::FLAG_RETRANSMISSION);
        std::vector<uint8_t> bytes = ToBytes(GradientPayload::CreateVirtual(header));
        const std::vector<uint8_t> expected = {
            0x57, 0x54,                            // magic "WT"
            0x01,                                  // version
            0x01,                                  // DATA
            0x00, 0x01,                            // flags: retransmission (real-payload cleared)
            0x00, 0x03,                            // sender 3
            0x00, 0x00, 0x00, 0x07,                // job 7
            0x00, 0x00, 0x00, 0x0b,                // round 11
            0x00, 0x00, 0x00, 0x02,                // clique 2
            0x00, 0x00, 0x00, 0x02,                // chunk 2
            0x00, 0x00, 0x00, 0x04,                // of 4
            0x00, 0x00, 0x00, 0x08,                // 8 elements
            0x00, 0x00,                            // ring step
            0x01,                                  // W = 1
            0x00,                                  // R = 0
            0,    0,    0,    0,    0, 0, 0, 0x2a, // members {1, 3, 5} = 0b101010
            0,    0,    0,    0,    0, 0, 0, 0x08, // contributors {3}
        };
        NS_TEST_ASSERT_MSG_EQ(bytes.size(), expected.size() + 8 * 4, "header + payload");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(bytes[i]), unsigned(expected[i]), "byte " << i);
        }
        for (size_t i = expected.size(); i < bytes.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(bytes[i]), 0u, "virtual payload byte " << i);
        }

        // Real payload: big-endian two's complement.
        std::vector<int32_t> values = {0,
                                       1,
                                       -1,
                                       std::numeric_limits<int32_t>::max(),
                                       std::numeric_limits<int32_t>::min(),
                                       0x01020304};
        bytes = ToBytes(GradientPayload::CreateReal(header, values));
        const uint8_t payload[] = {0,    0,    0,    0,    0,    0, 0, 1, 0xff, 0xff, 0xff, 0xff,
                                   0x7f, 0xff, 0xff, 0xff, 0x80, 0, 0, 0, 1,    2,    3,    4};
        NS_TEST_ASSERT_MSG_EQ(bytes.size(), expected.size() + sizeof(payload), "real size");
        NS_TEST_ASSERT_MSG_EQ(unsigned(bytes[5]), 0x05u, "flags: retransmission | real");
        NS_TEST_ASSERT_MSG_EQ(unsigned(bytes[31]), 6u, "element count from the values");
        for (size_t i = 0; i < sizeof(payload); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(bytes[expected.size() + i]),
                                  unsigned(payload[i]),
                                  "payload byte " << i);
        }
        GradientHeader parsed;
        std::vector<int32_t> read;
        NS_TEST_ASSERT_MSG_EQ(GradientPayload::Parse(FromBytes(bytes), parsed, &read),
                              true,
                              "real packet parses");
        NS_TEST_ASSERT_MSG_EQ(read.size(), values.size(), "values read");
        for (size_t i = 0; i < values.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(read[i], values[i], "value " << i);
        }
        // A virtual packet yields no values.
        NS_TEST_ASSERT_MSG_EQ(
            GradientPayload::Parse(GradientPayload::CreateVirtual(header), parsed, &read),
            true,
            "virtual parses");
        NS_TEST_ASSERT_MSG_EQ(read.size(), 0u, "virtual payload: values cleared");
    }
};

/**
 * \ingroup wan-training-tests
 * Parse() rejects every truncation, trailing bytes, and each inconsistency it documents.
 */
class GradientHeaderRejectTestCase : public TestCase
{
  public:
    GradientHeaderRejectTestCase()
        : TestCase("truncated and inconsistent headers are rejected")
    {
    }

  private:
    /** \param bytes packet bytes \return Parse's verdict */
    static bool Accepts(const std::vector<uint8_t>& bytes)
    {
        GradientHeader parsed;
        std::vector<int32_t> values;
        return GradientPayload::Parse(FromBytes(bytes), parsed, &values);
    }

    void DoRun() override
    {
        GradientHeader nack = SmallData();
        nack.SetType(GradientHeader::NACK);
        nack.SetElementCount(0);
        nack.SetNackRanges({{0, 2}, {3, 1}});
        const std::vector<int32_t> values = {1, 2, 3, 4, 5, 6, 7, 8};
        const std::vector<std::vector<uint8_t>> valid = {
            ToBytes(GradientPayload::CreateReal(SmallData(), values)),
            ToBytes(GradientPayload::CreateVirtual(nack))};
        for (const std::vector<uint8_t>& bytes : valid)
        {
            NS_TEST_ASSERT_MSG_EQ(Accepts(bytes), true, "the untouched packet is valid");
            for (size_t length = 0; length < bytes.size(); ++length)
            {
                std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + length);
                NS_TEST_ASSERT_MSG_EQ(Accepts(cut), false, "truncated to " << length);
            }
            std::vector<uint8_t> longer = bytes;
            longer.push_back(0);
            NS_TEST_ASSERT_MSG_EQ(Accepts(longer), false, "one trailing byte");
        }

        // One patched byte per inconsistency, on the DATA packet (offsets from the table).
        const std::vector<uint8_t>& data = valid[0];

        struct Patch
        {
            size_t offset;
            uint8_t value;
            const char* what;
        };

        const Patch patches[] = {
            {0, 0x58, "magic"},
            {2, 0x02, "version"},
            {3, 0x00, "type 0"},
            {3, 0x06, "type 6"},
            {3, GradientHeader::NACK, "NACK without ranges"},
            {4, 0x80, "unknown flag"},
            {7, 0x02, "sender 2 not a member"},
            {7, 0x40, "sender 64 beyond W = 1"},
            {23, 0x04, "chunk index = chunk count"},
            {27, 0x00, "chunk count 0"},
            {31, 0x09, "element count larger than the payload"},
            {31, 0x07, "element count smaller than the payload"},
            {34, 0x00, "W = 0"},
            {34, 0x11, "W = 17"},
            {34, 0x02, "W = 2 beyond the packet"},
            {35, 0x01, "ranges on DATA"},
            {43, 0x22, "members {1, 5}: the sender is not a member"},
            {51, 0x80, "contributors {7}: not a subset of the members"},
            {51, 0x0a, "DATA contributors {1, 3} instead of {3}"},
            {51, 0x00, "DATA without contributors"},
        };
        for (const Patch& patch : patches)
        {
            std::vector<uint8_t> bad = data;
            bad[patch.offset] = patch.value;
            NS_TEST_ASSERT_MSG_EQ(Accepts(bad), false, patch.what);
        }

        // NACK ranges outside the chunk count (4 chunks).
        GradientHeader badNack = nack;
        badNack.SetNackRanges({{3, 2}});
        NS_TEST_ASSERT_MSG_EQ(Accepts(ToBytes(GradientPayload::CreateVirtual(badNack))),
                              false,
                              "range past the last chunk");
        badNack.SetNackRanges({{4, 1}});
        NS_TEST_ASSERT_MSG_EQ(Accepts(ToBytes(GradientPayload::CreateVirtual(badNack))),
                              false,
                              "range starting after the last chunk");
        badNack.SetNackRanges({{1, 0}});
        NS_TEST_ASSERT_MSG_EQ(Accepts(ToBytes(GradientPayload::CreateVirtual(badNack))),
                              false,
                              "empty range");
        badNack.SetNackRanges({{0, 4}});
        NS_TEST_ASSERT_MSG_EQ(Accepts(ToBytes(GradientPayload::CreateVirtual(badNack))),
                              true,
                              "the whole update is a valid range");

        // An AGGREGATE must name at least one contributor.
        GradientHeader aggregate = SmallData();
        aggregate.SetType(GradientHeader::AGGREGATE);
        aggregate.SetContributors(IslandBitmap());
        NS_TEST_ASSERT_MSG_EQ(Accepts(ToBytes(GradientPayload::CreateVirtual(aggregate))),
                              false,
                              "AGGREGATE without contributors");

        // FLAG_REDUCE: data going up a reduction tree and its END, on DATA, AGGREGATE and END
        // only; PeekFlags reads it without a parse.
        aggregate.SetContributors(SmallData().GetContributors());
        GradientHeader ring = SmallData();
        ring.SetType(GradientHeader::RING);
        GradientHeader ack = nack;
        ack.SetType(GradientHeader::ACK);
        ack.SetNackRanges({});
        GradientHeader end = SmallData();
        end.SetType(GradientHeader::END);
        end.SetChunkIndex(end.GetChunkCount() - 1);
        end.SetElementCount(0);
        const std::pair<GradientHeader, bool> reduce[] = {{SmallData(), true},
                                                          {aggregate, true},
                                                          {end, true},
                                                          {nack, false},
                                                          {ring, false},
                                                          {ack, false}};
        for (const auto& [header, valid] : reduce)
        {
            GradientHeader flagged = header;
            flagged.SetFlags(GradientHeader::FLAG_REDUCE | GradientHeader::FLAG_RETRANSMISSION);
            const std::vector<uint8_t> bytes = ToBytes(GradientPayload::CreateVirtual(flagged));
            NS_TEST_ASSERT_MSG_EQ(Accepts(ToBytes(GradientPayload::CreateVirtual(header))),
                                  true,
                                  GradientHeader::TypeName(header.GetType()) << " unflagged");
            NS_TEST_ASSERT_MSG_EQ(Accepts(bytes),
                                  valid,
                                  "FLAG_REDUCE on " << GradientHeader::TypeName(header.GetType()));
            NS_TEST_ASSERT_MSG_EQ(GradientHeader::PeekFlags(bytes.data()),
                                  0x0041,
                                  "PeekFlags: REDUCE | RETRANSMISSION at bytes 4-5");
            std::vector<uint8_t> badMagic = bytes;
            badMagic[0] = 0x58;
            NS_TEST_ASSERT_MSG_EQ(GradientHeader::PeekFlags(badMagic.data()), 0, "bad magic");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * FramedSize reads a packet's whole size from the first FIXED_SIZE bytes (how TcpTransport cuts
 * its byte stream into messages), and refuses bytes that cannot start a header.
 */
class GradientHeaderFramedSizeTestCase : public TestCase
{
  public:
    GradientHeaderFramedSizeTestCase()
        : TestCase("FramedSize from the fixed part alone")
    {
    }

  private:
    void DoRun() override
    {
        GradientHeader nack = SmallData();
        nack.SetType(GradientHeader::NACK);
        nack.SetElementCount(0);
        nack.SetNackRanges({{0, 2}, {3, 1}});
        GradientHeader wide = SmallData();
        IslandBitmap members = wide.GetMembers();
        members.Set(200); // four bitmap words
        wide.SetMembers(members);
        const std::vector<int32_t> values = {1, 2, 3, 4, 5, 6, 7, 8};
        // Sizes by the table in gradient-header.h: 36 + 16 W + 8 R + 4 x elements.
        const std::vector<std::pair<Ptr<Packet>, uint64_t>> packets = {
            {GradientPayload::CreateReal(SmallData(), values), 36 + 16 + 32},
            {GradientPayload::CreateVirtual(nack), 36 + 16 + 16},
            {GradientPayload::CreateVirtual(wide), 36 + 64 + 32}};
        for (const auto& [packet, expected] : packets)
        {
            const std::vector<uint8_t> bytes = ToBytes(packet);
            NS_TEST_ASSERT_MSG_EQ(GradientHeader::FramedSize(bytes.data()),
                                  expected,
                                  "framed size of a valid packet");
            NS_TEST_ASSERT_MSG_EQ(bytes.size(), expected, "the packet is that long");
        }
        std::vector<uint8_t> bad = ToBytes(packets[0].first);
        bad[0] = 0x58; // magic
        NS_TEST_ASSERT_MSG_EQ(GradientHeader::FramedSize(bad.data()), 0, "bad magic");
        bad = ToBytes(packets[0].first);
        bad[34] = 0; // W = 0
        NS_TEST_ASSERT_MSG_EQ(GradientHeader::FramedSize(bad.data()), 0, "no bitmap words");
    }
};

/**
 * \ingroup wan-training-tests
 * Random bytes and random mutations of valid packets never crash Parse(); a mutant is either
 * rejected or re-serialises byte for byte into itself, and both outcomes occur.
 */
class GradientHeaderFuzzTestCase : public TestCase
{
  public:
    GradientHeaderFuzzTestCase()
        : TestCase("random and mutated input")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(12345);
        std::uniform_int_distribution<int> byte(0, 255);
        uint32_t accepted = 0;
        for (int trial = 0; trial < 2000; ++trial)
        {
            std::vector<uint8_t> bytes(std::uniform_int_distribution<size_t>(0, 400)(rng));
            for (uint8_t& b : bytes)
            {
                b = static_cast<uint8_t>(byte(rng));
            }
            GradientHeader parsed;
            std::vector<int32_t> values;
            accepted += GradientPayload::Parse(FromBytes(bytes), parsed, &values);
        }
        // A random packet would need magic, version, type, flags, W, R and size all right.
        NS_TEST_ASSERT_MSG_EQ(accepted, 0u, "random bytes are not gradient packets");

        const std::vector<uint8_t> valid =
            ToBytes(GradientPayload::CreateReal(SmallData(), {1, -2, 3, -4, 5, -6, 7, -8}));
        uint32_t mutantsAccepted = 0;
        uint32_t mutantsRejected = 0;
        for (int trial = 0; trial < 2000; ++trial)
        {
            std::vector<uint8_t> bytes = valid;
            const int flips = std::uniform_int_distribution<int>(1, 3)(rng);
            for (int f = 0; f < flips; ++f)
            {
                bytes[std::uniform_int_distribution<size_t>(0, bytes.size() - 1)(rng)] =
                    static_cast<uint8_t>(byte(rng));
            }
            GradientHeader parsed;
            std::vector<int32_t> values;
            const bool ok = GradientPayload::Parse(FromBytes(bytes), parsed, &values);
            mutantsAccepted += ok;
            mutantsRejected += !ok;
            // Either rejected, or the packet it describes is exactly the bytes it came from (a
            // virtual payload is never read: only its size is, so a flip that clears
            // FLAG_REAL_PAYLOAD keeps the payload's bytes, which the rebuilt packet zeroes).
            const bool virtualPayload = ok && !parsed.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD);
            std::vector<uint8_t> again = !ok ? bytes
                                         : virtualPayload
                                             ? ToBytes(GradientPayload::CreateVirtual(parsed))
                                             : ToBytes(GradientPayload::CreateReal(parsed, values));
            if (virtualPayload && again.size() == bytes.size())
            {
                const uint32_t header = parsed.GetSerializedSize();
                std::copy(bytes.begin() + header, bytes.end(), again.begin() + header);
            }
            NS_TEST_ASSERT_MSG_EQ((again == bytes),
                                  true,
                                  "mutant " << trial
                                            << ": accepted, but re-serialised differently");
        }
        // Flips in the payload keep a packet valid, flips in the magic or sizes do not: both
        // outcomes must occur, or the loop above checked one side only.
        NS_TEST_ASSERT_MSG_GT(mutantsAccepted, 0u, "some mutants are valid packets");
        NS_TEST_ASSERT_MSG_GT(mutantsRejected, 0u, "some mutants are rejected");
    }
};

/**
 * \ingroup wan-training-tests
 * IslandBitmap set algebra.
 */
class IslandBitmapTestCase : public TestCase
{
  public:
    IslandBitmapTestCase()
        : TestCase("island bitmap")
    {
    }

  private:
    void DoRun() override
    {
        IslandBitmap a;
        NS_TEST_ASSERT_MSG_EQ(a.IsEmpty(), true, "empty");
        NS_TEST_ASSERT_MSG_EQ(a.GetUsedWords(), 0u, "no words");
        a.Set(0);
        a.Set(64);
        a.Set(1023);
        NS_TEST_ASSERT_MSG_EQ(a.Count(), 3u, "three members");
        NS_TEST_ASSERT_MSG_EQ(a.GetUsedWords(), 16u, "island 1023 needs 16 words");
        NS_TEST_ASSERT_MSG_EQ(a.Test(1024), false, "out of range is not a member");
        IslandBitmap b;
        b.Set(64);
        NS_TEST_ASSERT_MSG_EQ(b.IsSubsetOf(a), true, "subset");
        NS_TEST_ASSERT_MSG_EQ(a.IsSubsetOf(b), false, "not a subset");
        NS_TEST_ASSERT_MSG_EQ(a.Intersects(b), true, "intersects");
        IslandBitmap c = a.Minus(b);
        NS_TEST_ASSERT_MSG_EQ(c.Count(), 2u, "minus");
        NS_TEST_ASSERT_MSG_EQ(c.Test(64), false, "64 removed");
        NS_TEST_ASSERT_MSG_EQ((c.Union(b) == a), true, "union restores");
        const std::vector<uint32_t> members = a.ToVector();
        NS_TEST_ASSERT_MSG_EQ(members.size(), 3u, "vector");
        NS_TEST_ASSERT_MSG_EQ(members[2], 1023u, "increasing order");
        a.Reset(1023);
        NS_TEST_ASSERT_MSG_EQ(a.GetUsedWords(), 2u, "two words after reset");
    }
};

/**
 * \ingroup wan-training-tests
 * The gradient-header test suite.
 */
class GradientHeaderTestSuite : public TestSuite
{
  public:
    GradientHeaderTestSuite()
        : TestSuite("gradient-header")
    {
        AddTestCase(new IslandBitmapTestCase);
        AddTestCase(new GradientHeaderRoundTripTestCase);
        AddTestCase(new GradientHeaderLayoutTestCase);
        AddTestCase(new GradientHeaderRejectTestCase);
        AddTestCase(new GradientHeaderFramedSizeTestCase);
        AddTestCase(new GradientHeaderFuzzTestCase);
        AddTestCase(new GradientHeaderNoticeTestCase);
    }
};

/// Static instance registering the suite.
static GradientHeaderTestSuite g_gradientHeaderTestSuite;
