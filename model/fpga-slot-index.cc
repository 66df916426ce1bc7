/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-slot-index.h"

#include "ns3/assert.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FpgaSlotIndex");

bool
FpgaSlotKey::operator==(const FpgaSlotKey& other) const
{
    return jobId == other.jobId && round == other.round && cliqueId == other.cliqueId &&
           chunkIndex == other.chunkIndex;
}

FpgaSlotKey
FpgaSlotKey::Of(const GradientHeader& header)
{
    NS_LOG_FUNCTION_NOARGS();
    return FpgaSlotKey{header.GetJobId(),
                       header.GetRound(),
                       header.GetCliqueId(),
                       header.GetChunkIndex()};
}

FpgaSlotIndex::FpgaSlotIndex()
{
    NS_LOG_FUNCTION(this);
    Clear();
}

uint32_t
FpgaSlotIndex::HomeOf(const FpgaSlotKey& key) const
{
    // The fields mixed with an odd multiplier; the high half of the product indexes the table.
    uint64_t h = key.jobId;
    h = h * 0x9E3779B97F4A7C15ULL + key.round;
    h = h * 0x9E3779B97F4A7C15ULL + key.cliqueId;
    h = h * 0x9E3779B97F4A7C15ULL + key.chunkIndex;
    h *= 0x9E3779B97F4A7C15ULL;
    return static_cast<uint32_t>(h >> 32) & m_mask;
}

uint32_t
FpgaSlotIndex::PositionOf(const FpgaSlotKey& key) const
{
    for (uint32_t p = HomeOf(key);; p = (p + 1) & m_mask)
    {
        const Entry& entry = m_entries[p];
        if (entry.value == EMPTY)
        {
            return EMPTY;
        }
        if (entry.key == key)
        {
            return p;
        }
    }
}

bool
FpgaSlotIndex::Find(const FpgaSlotKey& key, uint32_t& value) const
{
    NS_LOG_FUNCTION(this);
    const uint32_t p = PositionOf(key);
    if (p == EMPTY)
    {
        return false;
    }
    value = m_entries[p].value;
    return true;
}

void
FpgaSlotIndex::Insert(const FpgaSlotKey& key, uint32_t value)
{
    NS_LOG_FUNCTION(this << value);
    NS_ASSERT_MSG(value != EMPTY, "FpgaSlotIndex: value reserved for empty entries");
    NS_ASSERT_MSG(PositionOf(key) == EMPTY, "FpgaSlotIndex: key inserted twice");
    if (2 * (uint64_t{m_size} + 1) > m_entries.size())
    {
        Grow();
    }
    uint32_t p = HomeOf(key);
    while (m_entries[p].value != EMPTY)
    {
        p = (p + 1) & m_mask;
    }
    m_entries[p] = Entry{key, value};
    ++m_size;
}

void
FpgaSlotIndex::Erase(const FpgaSlotKey& key)
{
    NS_LOG_FUNCTION(this);
    uint32_t hole = PositionOf(key);
    if (hole == EMPTY)
    {
        return;
    }
    // Shift back every following entry of the run that the hole would cut off from its home:
    // an entry at j with home h may move to the hole unless h lies cyclically in (hole, j].
    for (uint32_t j = (hole + 1) & m_mask; m_entries[j].value != EMPTY; j = (j + 1) & m_mask)
    {
        const uint32_t home = HomeOf(m_entries[j].key);
        const bool reachable = ((j - home) & m_mask) >= ((j - hole) & m_mask);
        if (reachable)
        {
            m_entries[hole] = m_entries[j];
            hole = j;
        }
    }
    m_entries[hole].value = EMPTY;
    --m_size;
}

uint32_t
FpgaSlotIndex::GetSize() const
{
    NS_LOG_FUNCTION(this);
    return m_size;
}

void
FpgaSlotIndex::Clear()
{
    NS_LOG_FUNCTION(this);
    m_entries.assign(INITIAL_SIZE, Entry{FpgaSlotKey{0, 0, 0, 0}, EMPTY});
    m_mask = INITIAL_SIZE - 1;
    m_size = 0;
}

void
FpgaSlotIndex::Grow()
{
    NS_LOG_FUNCTION(this << m_entries.size());
    std::vector<Entry> old(2 * m_entries.size(), Entry{FpgaSlotKey{0, 0, 0, 0}, EMPTY});
    old.swap(m_entries);
    m_mask = static_cast<uint32_t>(m_entries.size() - 1);
    m_size = 0;
    for (const Entry& entry : old)
    {
        if (entry.value != EMPTY)
        {
            Insert(entry.key, entry.value);
        }
    }
}

} // namespace ns3
