/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TOPOLOGY_DRAWS_H
#define WAN_TOPOLOGY_DRAWS_H

#include <cstdint>
#include <random>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief One of WanTopologyGenerator's random streams, with draws that are the same on every
 *        platform.
 *
 * std::mt19937_64's output, std::seed_seq and the engine's seeding from it are fixed by the
 * C++ standard bit for bit; the standard distributions are not (libstdc++, libc++ and MSVC
 * differ), so the mappings of the engine's output to integers here are our own.
 */
class WanTopologyDraws
{
  public:
    /**
     * \param seed the user's seed \param stream the stream's number; the engine is seeded
     *        from std::seed_seq{seed's low and high 32 bits, stream}
     */
    WanTopologyDraws(uint64_t seed, uint32_t stream);

    /** \param n a bound, at least 1 \return a uniform integer in [0, n) */
    uint64_t Below(uint64_t n);
    /** \param low lower bound \param high upper bound (>= low)
     *  \return a uniform integer in [low, high] */
    int64_t Between(int64_t low, int64_t high);
    /**
     * \brief Draw a rate: \p low if \p high is 0, else uniform in [low, high], in whole Mbps
     *        when both bounds are whole Mbps (so files read "37215Mbps", not 37215482113bps).
     * \param low the rate or the minimum \param high 0 or the maximum
     * \return bits per second
     */
    uint64_t DrawRate(uint64_t low, uint64_t high);
    /** \param n population \param m sample size (<= n)
     *  \return m distinct indices of [0, n), in the order drawn */
    std::vector<uint32_t> Sample(uint32_t n, uint32_t m);

  private:
    std::mt19937_64 m_engine; //!< the stream's engine
};

} // namespace ns3

#endif /* WAN_TOPOLOGY_DRAWS_H */
