/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ISLAND_BITMAP_H
#define ISLAND_BITMAP_H

#include <array>
#include <cstdint>
#include <ostream>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief A set of island indices (0 .. IslandBitmap::MAX_ISLANDS - 1) stored as 64-bit words.
 *
 * Fixed capacity, so copying and testing never allocate: the per-packet paths of the FPGA and
 * the training application use it directly.
 */
class IslandBitmap
{
  public:
    /** Words of capacity (the largest bitmap a GradientHeader carries). */
    static constexpr uint32_t MAX_WORDS = 16;
    /** Islands per word. */
    static constexpr uint32_t BITS_PER_WORD = 64;
    /** Islands representable: 64 * MAX_WORDS = 1024. */
    static constexpr uint32_t MAX_ISLANDS = BITS_PER_WORD * MAX_WORDS;

    /** \param island index (< MAX_ISLANDS) \brief add the island */
    void Set(uint32_t island);
    /** \param island index (< MAX_ISLANDS) \brief remove the island */
    void Reset(uint32_t island);
    /** \param island index \return true if the island is in the set (false if out of range) */
    bool Test(uint32_t island) const;
    /** \brief remove every island */
    void Clear();
    /** \return the number of islands in the set */
    uint32_t Count() const;
    /** \return true if the set is empty */
    bool IsEmpty() const;
    /** \return the fewest words that hold every member (0 for the empty set) */
    uint32_t GetUsedWords() const;
    /** \param index word index (< MAX_WORDS) \return the word; bit b is island 64*index+b */
    uint64_t GetWord(uint32_t index) const;
    /** \param index word index (< MAX_WORDS) \param word the new word */
    void SetWord(uint32_t index, uint64_t word);
    /** \param other another set \return true if every member of this set is in other */
    bool IsSubsetOf(const IslandBitmap& other) const;
    /** \param other another set \return true if the sets share a member */
    bool Intersects(const IslandBitmap& other) const;
    /** \param other another set \return the members of this set that are not in other */
    IslandBitmap Minus(const IslandBitmap& other) const;
    /** \param other another set \return the union */
    IslandBitmap Union(const IslandBitmap& other) const;

    /**
     * \brief Call \p f for every island of the set, in increasing order, without allocating.
     * \param f called with each island index
     */
    template <typename F>
    void ForEach(F f) const
    {
        for (uint32_t w = 0; w < MAX_WORDS; ++w)
        {
            uint64_t bits = m_words[w];
            while (bits != 0)
            {
                f(w * BITS_PER_WORD + static_cast<uint32_t>(__builtin_ctzll(bits)));
                bits &= bits - 1;
            }
        }
    }

    /** \return the members in increasing order (allocates: not for per-packet paths) */
    std::vector<uint32_t> ToVector() const;
    /** \param other another set \return true if both hold the same islands */
    bool operator==(const IslandBitmap& other) const;
    /** \param other another set \return true if the sets differ */
    bool operator!=(const IslandBitmap& other) const;

  private:
    std::array<uint64_t, MAX_WORDS> m_words{}; //!< bit b of word w is island 64*w+b
};

/**
 * \brief Print the members, e.g. "{1,3,5}".
 * \param os stream \param bitmap the set \return the stream
 */
std::ostream& operator<<(std::ostream& os, const IslandBitmap& bitmap);

} // namespace ns3

#endif /* ISLAND_BITMAP_H */
