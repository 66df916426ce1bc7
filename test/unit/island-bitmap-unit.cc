/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of IslandBitmap (model/island-bitmap.h): Count() against a second method (a
 * count by Test() over every island index) on hand-picked and random sets, members in every
 * word included, since Count skips zero words.
 */

#include "ns3/island-bitmap.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <random>

using namespace ns3;

namespace
{

/** \param bitmap a set \return its members counted one index at a time */
uint32_t
CountByTest(const IslandBitmap& bitmap)
{
    uint32_t count = 0;
    for (uint32_t island = 0; island < IslandBitmap::MAX_ISLANDS; ++island)
    {
        count += bitmap.Test(island) ? 1 : 0;
    }
    return count;
}

TEST(IslandBitmapCount, HandPickedSets)
{
    IslandBitmap bitmap;
    EXPECT_EQ(bitmap.Count(), 0u);
    // The first and last bit of the first, second and last words, and one in a middle word.
    for (uint32_t island : {0u, 63u, 64u, 127u, 700u, 960u, 1023u})
    {
        bitmap.Set(island);
    }
    EXPECT_EQ(bitmap.Count(), 7u);
    bitmap.Reset(0);
    bitmap.Reset(1023);
    EXPECT_EQ(bitmap.Count(), 5u);

    IslandBitmap onlyLast;
    onlyLast.Set(IslandBitmap::MAX_ISLANDS - 1);
    EXPECT_EQ(onlyLast.Count(), 1u);

    IslandBitmap full;
    for (uint32_t word = 0; word < IslandBitmap::MAX_WORDS; ++word)
    {
        full.SetWord(word, ~uint64_t{0});
    }
    EXPECT_EQ(full.Count(), IslandBitmap::MAX_ISLANDS);
}

TEST(IslandBitmapCount, RandomSetsMatchACountByTest)
{
    std::mt19937_64 rng(20261207);
    std::uniform_int_distribution<uint32_t> wordCount(0, IslandBitmap::MAX_WORDS);
    for (int trial = 0; trial < 500; ++trial)
    {
        // Random words in a random number of random positions; the rest stay zero.
        IslandBitmap bitmap;
        const uint32_t words = wordCount(rng);
        for (uint32_t k = 0; k < words; ++k)
        {
            bitmap.SetWord(static_cast<uint32_t>(rng() % IslandBitmap::MAX_WORDS), rng() & rng());
        }
        ASSERT_EQ(bitmap.Count(), CountByTest(bitmap)) << "trial " << trial << ": " << bitmap;
    }
}

} // namespace
