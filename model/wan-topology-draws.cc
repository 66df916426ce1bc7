/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-topology-draws.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTopologyDraws");

namespace
{

/** Bits per second in one Mbps: drawn rates are whole Mbps when the bounds are. */
constexpr uint64_t MBPS = 1000000;

/**
 * \param seed the user's seed \param stream the stream's number
 * \return an engine seeded from std::seed_seq{seed's low and high 32 bits, stream}
 */
std::mt19937_64
Engine(uint64_t seed, uint32_t stream)
{
    NS_LOG_FUNCTION(seed << stream);
    std::seed_seq sequence{static_cast<uint32_t>(seed & 0xffffffffU),
                           static_cast<uint32_t>(seed >> 32),
                           stream};
    return std::mt19937_64(sequence);
}

} // namespace

WanTopologyDraws::WanTopologyDraws(uint64_t seed, uint32_t stream)
    : m_engine(Engine(seed, stream))
{
    NS_LOG_FUNCTION(this << seed << stream);
}

uint64_t
WanTopologyDraws::Below(uint64_t n)
{
    NS_LOG_FUNCTION(this << n);
    NS_ASSERT(n >= 1);
    if (n == 1)
    {
        return 0;
    }
    // Reject the lowest 2^64 mod n outputs so that the rest is a whole number of [0, n) runs.
    const uint64_t threshold = (0 - n) % n;
    uint64_t x = m_engine();
    while (x < threshold)
    {
        x = m_engine();
    }
    return x % n;
}

int64_t
WanTopologyDraws::Between(int64_t low, int64_t high)
{
    NS_LOG_FUNCTION(this << low << high);
    NS_ASSERT(low <= high);
    const uint64_t width = static_cast<uint64_t>(high - low) + 1;
    return low + static_cast<int64_t>(Below(width));
}

uint64_t
WanTopologyDraws::DrawRate(uint64_t low, uint64_t high)
{
    NS_LOG_FUNCTION(this << low << high);
    if (high == 0 || high == low)
    {
        return low;
    }
    const uint64_t unit = (low % MBPS == 0 && high % MBPS == 0) ? MBPS : 1;
    return low + unit * Below((high - low) / unit + 1);
}

std::vector<uint32_t>
WanTopologyDraws::Sample(uint32_t n, uint32_t m)
{
    NS_LOG_FUNCTION(this << n << m);
    NS_ASSERT(m <= n);
    std::vector<uint32_t> all(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        all[i] = i;
    }
    // The first m steps of a Fisher-Yates shuffle.
    for (uint32_t i = 0; i < m; ++i)
    {
        std::swap(all[i], all[i + Below(n - i)]);
    }
    all.resize(m);
    return all;
}

} // namespace ns3
