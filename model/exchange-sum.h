/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EXCHANGE_SUM_H
#define EXCHANGE_SUM_H

#include "chunk-layout.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Real parameters in the int32 fixed point that payloads carry: round(x x Scale), in a
 *        range where a clique's sum of k of them still fits an int32 (so its mean is exact).
 */
struct FixedPoint
{
    /**
     * \param members k \param format the update format (int32, int8 or int4)
     * \return the largest |round(x x Scale)| that may travel: int32 INT32_MAX / k (a clique's
     *         int32 sum must not wrap); int8 127 and int4 7 (their sums are wider:
     *         UpdateFormat::SumEncoding)
     */
    static double ValueLimit(uint32_t members, const UpdateFormat& format);
    /**
     * \param scale Scale \param members k \param format the update format
     * \return the largest |x| that may be encoded: ValueLimit / Scale
     */
    static double Limit(double scale, uint32_t members, const UpdateFormat& format);
    /**
     * \param x the parameters \param scale Scale \param members k
     * \param format the update format
     * \param out receives the fixed-point values (up to the first one out of range)
     * \return the index of the first parameter beyond Limit(), or the size of \p x if none is
     */
    static size_t Encode(const std::vector<double>& x,
                         double scale,
                         uint32_t members,
                         const UpdateFormat& format,
                         std::vector<int32_t>& out);
};

/**
 * \ingroup wan-training
 * \brief The int32 sums of a DIRECT or TREE exchange's real payloads: the chunks received added
 *        up, and how many members each chunk holds; bf16 payloads and top-k entries (DIRECT
 *        only) are decoded and added as reals, which the island does since FPGAs pass them
 *        through (top-k: SparseChange's entries, each added at its index).
 *
 * Shared by the planned transport's DirectExchange and TreeExchange and the tcp transport's
 * TcpDirectExchange, so all average exactly alike: values add with two's-complement wrap-around
 * (WrapAdd), and each chunk is divided by the members it holds (lost peers are excluded; a lost
 * peer whose data reached some chunks anyway is counted exactly there). A TREE root adds its own
 * values to the members' sums (Total) and sends the result down; its members hold that total,
 * own values included, and average it without adding theirs again (Average with no own values).
 */
class DirectSum
{
  public:
    /** \param layout how the update is cut \brief size the sums (all zero) */
    void Init(const ChunkLayout& layout);
    /**
     * \brief Add a chunk's values.
     * \param chunk chunk index \param first its first element
     * \param values the values (top-k: entries whose indices AreEntriesInside the chunk)
     * \param contributors the members whose sum the values are
     */
    void Add(uint32_t chunk,
             uint32_t first,
             const std::vector<int32_t>& values,
             uint32_t contributors);
    /**
     * \brief x = (own + sum) / (Scale x members held), per chunk; top-k: x += (own + sum) /
     *        members held, the mean change added to the reference x holds (SparseChange).
     * \param layout how the update is cut
     * \param own own values in fixed point, counted as one member more; empty: the sums hold
     *        the own values already (a TREE member's totals from its root)
     * \param x receives the parameters \param scale fixed-point scale
     */
    void Average(const ChunkLayout& layout,
                 const std::vector<int32_t>& own,
                 std::vector<double>& x,
                 double scale) const;
    /**
     * \brief The values of own + sum over some elements (what a TREE root sends down).
     * \param first first element \param count elements \param own own values in fixed point
     * \param out receives them
     */
    void Total(uint32_t first,
               uint32_t count,
               const std::vector<int32_t>& own,
               std::vector<int32_t>& out) const;

    /**
     * \param values a real top-k payload's words \param count elements of its chunk
     * \return true if every entry's index is inside the chunk (what Add may take)
     */
    static bool AreEntriesInside(const std::vector<int32_t>& values, uint32_t count);

    /**
     * \param a int32 \param b int32
     * \return a + b with two's-complement wrap-around (how fixed-point sums add everywhere)
     */
    static int32_t WrapAdd(int32_t a, int32_t b)
    {
        return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
    }

  private:
    /**
     * \brief Add top-k entries as reals at their indices.
     * \param first the chunk's first element \param values the entries' words
     */
    void AddEntries(uint32_t first, const std::vector<int32_t>& values);
    /**
     * \brief x += (own + sum) / members over one chunk of top-k entries.
     * \param layout how the update is cut \param chunk the chunk
     * \param own own entries of the whole update, in increasing index per chunk (or empty)
     * \param x the reference, receives the parameters \param members members held
     */
    void AverageChange(const ChunkLayout& layout,
                       uint32_t chunk,
                       const std::vector<int32_t>& own,
                       std::vector<double>& x,
                       double members) const;

    bool m_bf16{false};             //!< bf16 values, summed as reals (not fixed point)
    bool m_sparse{false};           //!< top-k entries, summed as reals at their indices
    std::vector<int32_t> m_sum;     //!< peers' sum, per element (fixed point)
    std::vector<double> m_floatSum; //!< peers' sum, per element (bf16, top-k)
    std::vector<uint16_t> m_count;  //!< contributions per chunk
};

/**
 * \ingroup wan-training
 * \brief The int32 state of a ring all-reduce's real payloads: what reduce-scatter has summed
 *        and what all-gather has brought (ChunkLayout's ring segments).
 *
 * Shared by RingExchange and TcpRingExchange. Member p of k sends, in steps s < k, its own
 * values plus what came in for that segment (reduce-scatter, and in step k - 1 the reduced
 * segment itself), and from step k on what all-gather brought.
 */
class RingSum
{
  public:
    /** \param elements E \brief size the sums (all zero) */
    void Init(uint64_t elements);
    /**
     * \brief Take in what the predecessor sent in a step.
     * \param k ring members \param step the step \param first the chunk's first element
     * \param values its values
     */
    void Absorb(uint32_t k, uint32_t step, uint32_t first, const std::vector<int32_t>& values);
    /**
     * \brief The values of one outgoing chunk.
     * \param k ring members \param step the step \param first the chunk's first element
     * \param count its elements \param own own values in fixed point \param out receives them
     */
    void Fill(uint32_t k,
              uint32_t step,
              uint32_t first,
              uint32_t count,
              const std::vector<int32_t>& own,
              std::vector<int32_t>& out) const;
    /**
     * \brief x = the all-reduced sum / (k x Scale).
     * \param layout how the update is cut \param k ring members \param position own position
     * \param own own values in fixed point \param x receives the parameters
     * \param scale fixed-point scale
     */
    void Average(const ChunkLayout& layout,
                 uint32_t k,
                 uint32_t position,
                 const std::vector<int32_t>& own,
                 std::vector<double>& x,
                 double scale) const;

  private:
    std::vector<int32_t> m_sum;  //!< reduce-scatter sums
    std::vector<int32_t> m_full; //!< all-gather result
};

} // namespace ns3

#endif /* EXCHANGE_SUM_H */
