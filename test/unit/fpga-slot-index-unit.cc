/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the FPGA's slot index (model/fpga-slot-index.h): look-ups, insertions and
 * deletions checked against std::map (a second method) through growth, long probe runs,
 * wrap-around at the table's end and the backward shift of deletions; and of the slot table's
 * lists of a sender's waiting chunks (FpgaSlotTable::ChunkList) against std::set.
 */

#include "ns3/fpga-slot-index.h"
#include "ns3/fpga-slot-table.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <set>
#include <tuple>

using namespace ns3;

namespace
{

/** std::map's order for the reference. */
struct KeyLess
{
    bool operator()(const FpgaSlotKey& a, const FpgaSlotKey& b) const
    {
        return std::tie(a.jobId, a.round, a.cliqueId, a.chunkIndex) <
               std::tie(b.jobId, b.round, b.cliqueId, b.chunkIndex);
    }
};

using Reference = std::map<FpgaSlotKey, uint32_t, KeyLess>;

/** Every key of the reference is found with its value, and nothing else is in the index. */
void
ExpectSame(const FpgaSlotIndex& index, const Reference& reference)
{
    ASSERT_EQ(index.GetSize(), reference.size());
    for (const auto& [key, value] : reference)
    {
        uint32_t found = UINT32_MAX;
        ASSERT_TRUE(index.Find(key, found)) << "chunk " << key.chunkIndex;
        EXPECT_EQ(found, value);
    }
    Reference visited;
    index.ForEach([&](const FpgaSlotKey& key, uint32_t value) {
        EXPECT_TRUE(visited.emplace(key, value).second) << "visited twice";
    });
    EXPECT_EQ(visited, reference);
}

} // namespace

TEST(FpgaSlotIndex, EmptyFindsNothing)
{
    FpgaSlotIndex index;
    uint32_t value = 7;
    EXPECT_FALSE(index.Find(FpgaSlotKey{0, 0, 0, 0}, value));
    EXPECT_EQ(value, 7u);
    EXPECT_EQ(index.GetSize(), 0u);
}

TEST(FpgaSlotIndex, KeysDifferingInOneFieldAreDistinct)
{
    FpgaSlotIndex index;
    const FpgaSlotKey base{1, 2, 3, 4};
    index.Insert(base, 10);
    index.Insert(FpgaSlotKey{9, 2, 3, 4}, 11);
    index.Insert(FpgaSlotKey{1, 9, 3, 4}, 12);
    index.Insert(FpgaSlotKey{1, 2, 9, 4}, 13);
    index.Insert(FpgaSlotKey{1, 2, 3, 9}, 14);
    uint32_t value = 0;
    ASSERT_TRUE(index.Find(base, value));
    EXPECT_EQ(value, 10u);
    ASSERT_TRUE(index.Find(FpgaSlotKey{1, 2, 9, 4}, value));
    EXPECT_EQ(value, 13u);
    index.Erase(FpgaSlotKey{1, 9, 3, 4});
    EXPECT_FALSE(index.Find(FpgaSlotKey{1, 9, 3, 4}, value));
    EXPECT_EQ(index.GetSize(), 4u);
    index.Erase(FpgaSlotKey{1, 9, 3, 4}); // absent: nothing happens
    EXPECT_EQ(index.GetSize(), 4u);
}

// The FPGA's pattern: a window of a flow's chunks open, opened at the front and freed mostly
// at the back, some out of order, with a second flow interleaved; thousands of keys, so the
// table grows many times and deletions shift long runs back.
TEST(FpgaSlotIndex, SlidingWindowOfTwoFlowsMatchesAMap)
{
    FpgaSlotIndex index;
    Reference reference;
    std::mt19937 random(1);
    uint32_t nextValue = 0;
    for (uint32_t chunk = 0; chunk < 20000; ++chunk)
    {
        for (uint32_t round : {5u, 6u})
        {
            const FpgaSlotKey key{0, round, 0, chunk};
            index.Insert(key, nextValue);
            reference.emplace(key, nextValue++);
        }
        // Keep about 3000 open per flow; free a random one of the oldest 64 each time.
        while (reference.size() > 6000)
        {
            auto it = reference.begin();
            std::advance(it, random() % 64);
            index.Erase(it->first);
            reference.erase(it);
        }
        if (chunk % 997 == 0)
        {
            ExpectSame(index, reference);
        }
    }
    ExpectSame(index, reference);
    while (!reference.empty())
    {
        index.Erase(reference.begin()->first);
        reference.erase(reference.begin());
    }
    ExpectSame(index, reference);
}

// Random keys from a small space, so that keys collide on home entries, runs wrap around the
// table's end and every insertion and deletion order occurs.
TEST(FpgaSlotIndex, RandomOperationsMatchAMap)
{
    for (uint32_t seed = 1; seed <= 20; ++seed)
    {
        FpgaSlotIndex index;
        Reference reference;
        std::mt19937 random(seed);
        auto draw = [&random](uint32_t n) { return static_cast<uint32_t>(random() % n); };
        for (uint32_t op = 0; op < 5000; ++op)
        {
            const FpgaSlotKey key{draw(2), draw(3), draw(2), draw(40)};
            uint32_t value = 0;
            const bool present = reference.count(key) > 0;
            ASSERT_EQ(index.Find(key, value), present) << "seed " << seed << " op " << op;
            if (present)
            {
                EXPECT_EQ(value, reference[key]);
                index.Erase(key);
                reference.erase(key);
            }
            else
            {
                index.Insert(key, op);
                reference.emplace(key, op);
            }
        }
        ExpectSame(index, reference);
        index.Clear();
        ExpectSame(index, Reference());
    }
}

// A sender's waiting chunks: FpgaSlotTable::ChunkList against std::set (a second method),
// with chunks mostly in order and freed mostly from the oldest, as the FPGA sees them, and
// out of order now and then.
TEST(FpgaSlotTableChunkList, MatchesASet)
{
    std::mt19937 random(3);
    FpgaSlotTable::ChunkList list;
    std::set<uint32_t> reference;
    uint32_t next = 0;
    for (uint32_t op = 0; op < 20000; ++op)
    {
        const uint32_t draw = random() % 10;
        uint32_t chunk;
        if (draw < 5 || reference.empty())
        {
            // Next in order, or now and then one already listed or a gap filled late.
            chunk = draw == 0 && next > 8 ? next - 1 - random() % 8 : next++;
            list.Insert(chunk);
            reference.insert(chunk);
        }
        else
        {
            // The oldest mostly; sometimes one further in, or one not listed.
            auto it = reference.begin();
            std::advance(it, draw < 8 ? 0 : random() % reference.size());
            chunk = draw == 9 ? next + 5 : *it;
            list.Erase(chunk);
            reference.erase(chunk);
        }
        ASSERT_EQ(list.IsEmpty(), reference.empty()) << "op " << op;
        // The highest chunk below a probe, for probes around the listed range.
        const uint32_t probe = static_cast<uint32_t>(random() % (next + 2));
        auto above = reference.lower_bound(probe);
        uint32_t below = UINT32_MAX;
        const bool found = list.FindBelow(probe, below);
        ASSERT_EQ(found, above != reference.begin()) << "op " << op << " probe " << probe;
        if (found)
        {
            EXPECT_EQ(below, *std::prev(above)) << "op " << op << " probe " << probe;
        }
    }
}
