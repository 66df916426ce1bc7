/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * SparseChange and DirectSum's top-k mode, by hand: which entries a chunk sends, what stays
 * behind, and the mean change an island adds to its reference.
 */

#include "ns3/chunk-layout.h"
#include "ns3/exchange-sum.h"
#include "ns3/sparse-change.h"
#include "ns3/update-format.h"

#include <gtest/gtest.h>
#include <vector>

namespace
{

using ns3::ChunkLayout;
using ns3::UpdateFormat;

/** Ten parameters in chunks of 4, 4 and 2; topk:0.5 keeps 2, 2 and 1 entries. */
ChunkLayout
TenInChunksOfFour()
{
    // 16 payload bytes hold two 8-byte entries, which is half of four elements.
    const ChunkLayout layout(40, 16, UpdateFormat::FromString("topk:0.5"), 3);
    EXPECT_EQ(layout.GetChunkElements(), 4u);
    EXPECT_EQ(layout.GetChunkCount(), 3u);
    return layout;
}

/** \param x a real \return its fp32 bits as an entry's value word */
int32_t
Bits(double x)
{
    return UpdateFormat::ToFloatBits(x);
}

TEST(SparseChange, ChunksSendTheirLargestChangesAndKeepTheRest)
{
    const ChunkLayout layout = TenInChunksOfFour();
    ns3::SparseChange change;
    // Dyadic changes, so x - reference is d exactly; the last chunk starts from 0.
    const std::vector<double> reference = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0};
    change.Rebase(reference);
    const std::vector<double> d = {0.5, -2, 0.25, 2, 3, 0.125, -0.125, -3, 0.7, -0.7};
    std::vector<double> x(10);
    for (size_t e = 0; e < x.size(); ++e)
    {
        x[e] = reference[e] + d[e];
    }
    std::vector<int32_t> entries;
    ASSERT_EQ(change.Encode(x, layout, entries), 10u);
    // Chunk 0: |-2| and |2|; chunk 1: 3 and -3; chunk 2: 0.7 and -0.7 tie, the lower index.
    EXPECT_EQ(
        entries,
        (std::vector<int32_t>{1, Bits(-2), 3, Bits(2), 0, Bits(3), 3, Bits(-3), 0, Bits(0.7)}));
    // What stays: the rest, and 0.7's fp32 rounding error.
    const std::vector<double> residual =
        {0.5, 0, 0.25, 0, 0, 0.125, -0.125, 0, 0.7 - static_cast<double>(0.7F), -0.7};
    for (size_t e = 0; e < residual.size(); ++e)
    {
        EXPECT_DOUBLE_EQ(change.GetResidual()[e], residual[e]) << "element " << e;
    }
    EXPECT_NE(change.GetResidual()[8], 0.0);

    // The next round's change carries the residual: +0.25 on element 0 makes it 0.75.
    change.Rebase(x);
    x[0] += 0.25;
    ASSERT_EQ(change.Encode(x, layout, entries), 10u);
    EXPECT_EQ(entries,
              (std::vector<int32_t>{0,
                                    Bits(0.75),
                                    2,
                                    Bits(0.25),
                                    1,
                                    Bits(0.125),
                                    2,
                                    Bits(-0.125),
                                    1,
                                    Bits(-0.7)}));
}

TEST(SparseChange, TheResidualDecays)
{
    const ChunkLayout layout = TenInChunksOfFour();
    ns3::SparseChange change;
    change.SetDecay(0.5);
    const std::vector<double> x = {0.5, -2, 0.25, 2, 3, 0.125, -0.125, -3, 0.75, -0.5};
    change.Rebase(std::vector<double>(10, 0.0));
    std::vector<int32_t> entries;
    ASSERT_EQ(change.Encode(x, layout, entries), 10u);
    // No change since: the next carries half of what stayed (0.5, 0.25; 0.125, -0.125; -0.5),
    // two, two and one of which it sends; the other half is forgotten.
    change.Rebase(x);
    ASSERT_EQ(change.Encode(x, layout, entries), 10u);
    EXPECT_EQ(entries,
              (std::vector<int32_t>{0,
                                    Bits(0.25),
                                    2,
                                    Bits(0.125),
                                    1,
                                    Bits(0.0625),
                                    2,
                                    Bits(-0.0625),
                                    1,
                                    Bits(-0.25)}));
    const std::vector<double> residual = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(change.GetResidual(), residual);
}

TEST(SparseChange, AChangeBeyondFloatIsNamed)
{
    const ChunkLayout layout = TenInChunksOfFour();
    ns3::SparseChange change;
    change.Rebase(std::vector<double>(10, 0.0));
    std::vector<double> x(10, 0.0);
    x[6] = 1e39;
    std::vector<int32_t> entries;
    EXPECT_EQ(change.Encode(x, layout, entries), 6u);
}

TEST(SparseChange, IslandsAddTheMeanChangeToTheirReference)
{
    const ChunkLayout layout = TenInChunksOfFour();
    ns3::DirectSum sums;
    sums.Init(layout);
    // Own: chunk 0 (1, -2) (3, 2), chunk 1 (0, 3) (3, -3), chunk 2 (0, 1).
    const std::vector<int32_t> own = {1, Bits(-2), 3, Bits(2), 0, Bits(3), 3, Bits(-3), 0, Bits(1)};
    // Two peers in chunk 0, one in chunk 1 (the other lost), two in chunk 2.
    sums.Add(0, 0, {0, Bits(4), 1, Bits(1)}, 1);
    sums.Add(0, 0, {1, Bits(0.5), 2, Bits(-1)}, 1);
    sums.Add(1, 4, {0, Bits(1), 1, Bits(6)}, 1);
    sums.Add(2, 8, {1, Bits(3)}, 1);
    sums.Add(2, 8, {1, Bits(-6)}, 1);
    std::vector<double> x(10, 10.0); // the reference
    sums.Average(layout, own, x, 1.0);
    const std::vector<double> expected = {10 + 4.0 / 3,
                                          10 + (-2 + 1 + 0.5) / 3,
                                          10 - 1.0 / 3,
                                          10 + 2.0 / 3,
                                          10 + (3 + 1) / 2.0,
                                          10 + 6 / 2.0,
                                          10,
                                          10 - 3 / 2.0,
                                          10 + 1.0 / 3,
                                          10 + (3 - 6) / 3.0};
    for (size_t e = 0; e < expected.size(); ++e)
    {
        EXPECT_DOUBLE_EQ(x[e], expected[e]) << "element " << e;
    }
    // An entry's index must lie inside its chunk: the short last chunk has two elements.
    EXPECT_TRUE(ns3::DirectSum::AreEntriesInside({1, Bits(1)}, 2));
    EXPECT_FALSE(ns3::DirectSum::AreEntriesInside({0, Bits(1), 2, Bits(1)}, 2));
    EXPECT_FALSE(ns3::DirectSum::AreEntriesInside({-1, Bits(1)}, 4));
}

} // namespace
