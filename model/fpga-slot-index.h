/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FPGA_SLOT_INDEX_H
#define FPGA_SLOT_INDEX_H

#include "gradient-header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The key of an FPGA aggregation slot: one chunk of one clique's round of one job.
 */
struct FpgaSlotKey
{
    uint32_t jobId;      //!< job
    uint32_t round;      //!< round
    uint32_t cliqueId;   //!< clique
    uint32_t chunkIndex; //!< chunk
    /** \param other key \return equality */
    bool operator==(const FpgaSlotKey& other) const;
    /** \param header a gradient header \return the key of its chunk */
    static FpgaSlotKey Of(const GradientHeader& header);
};

/**
 * \ingroup wan-training
 * \brief Which pool entry holds the open slot of a key (FpgaSlotTable's index), as a flat
 *        hash table.
 *
 * Every piece an FPGA takes looks its chunk up here, so the look-up is on the per-packet
 * path, and an FPGA holds thousands of open slots (a round trip's worth of chunks). A
 * node-based map (std::unordered_map) pays a cache miss for the bucket and another for the
 * node on most look-ups, and a division for every node it visits. This table is one array of
 * (key, value) entries with linear probing, a power-of-two size kept at most half full, and
 * deletion by shifting the following entries back (no tombstones): a look-up reads one entry,
 * or a few neighbours.
 */
class FpgaSlotIndex
{
  public:
    FpgaSlotIndex();

    /**
     * \param key a key \param value receives its value when found
     * \return true if the key is in the index
     */
    bool Find(const FpgaSlotKey& key, uint32_t& value) const;
    /**
     * \brief Add a key that is not in the index.
     * \param key the key \param value its value
     */
    void Insert(const FpgaSlotKey& key, uint32_t value);
    /** \param key a key in the index \brief remove it (nothing if absent) */
    void Erase(const FpgaSlotKey& key);
    /** \return the number of keys */
    uint32_t GetSize() const;
    /** \brief Remove every key. */
    void Clear();

    /**
     * \brief Call \p f(key, value) for every key, in the table's order (which depends on the
     *        keys and the order they came and went, not on anything else).
     * \param f called with each key and its value
     */
    template <typename F>
    void ForEach(F f) const
    {
        for (const Entry& entry : m_entries)
        {
            if (entry.value != EMPTY)
            {
                f(entry.key, entry.value);
            }
        }
    }

  private:
    /** One entry of the table. */
    struct Entry
    {
        FpgaSlotKey key; //!< the key, when used
        uint32_t value;  //!< its value, or EMPTY
    };

    /** Value of an unused entry. */
    static constexpr uint32_t EMPTY = UINT32_MAX;
    /** Entries of a new or cleared table (a power of two). */
    static constexpr uint32_t INITIAL_SIZE = 64;

    /** \param key a key \return its home entry */
    uint32_t HomeOf(const FpgaSlotKey& key) const;
    /** \param key a key \return the entry holding it, or EMPTY */
    uint32_t PositionOf(const FpgaSlotKey& key) const;
    /** \brief Double the table and place every key again. */
    void Grow();

    std::vector<Entry> m_entries; //!< the table (size a power of two)
    uint32_t m_mask;              //!< table size - 1
    uint32_t m_size;              //!< keys held
};

} // namespace ns3

#endif /* FPGA_SLOT_INDEX_H */
