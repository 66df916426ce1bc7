/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SPARSE_CHANGE_H
#define SPARSE_CHANGE_H

#include "chunk-layout.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief One island's top-k update with error feedback: what real top-k payloads carry.
 *
 * Averaging sparse parameter vectors is no recipe; the sparse recipes (top-k, DeMo, SparseLoCo)
 * send a sparse part of each island's change and keep the rest for later. A round's change is
 * d = x - r + beta e: the parameters x after the inner steps, less the reference r they started
 * the round from, plus the residual e of earlier rounds, decayed by beta (1: error feedback as
 * Stich et al. define it, every change is sent in the end; 0: none, what is not sent is lost). Each
 * chunk of ChunkLayout sends its ceil(F C) entries of largest |d| (ties: the lower index), in
 * increasing index order, each value rounded to fp32; e becomes d less what was sent (the rounding
 * error included). The clique's islands add the entries they receive to their own and divide per
 * chunk by the members held, like DirectSum; an island's new parameters are r + that mean.
 *
 * Islands that start a round from the same r end it with the same parameters (when no peer is
 * lost): with every island in every round's clique and one starting point, consensus holds
 * after every round, as in SparseLoCo. Islands whose references differ would keep their
 * differences, which is why TrainingSupport refuses real top-k otherwise.
 */
class SparseChange
{
  public:
    /** \param decay beta in [0, 1]: what of the residual the next change carries (default 1) */
    void SetDecay(double decay);
    /** \param x the parameters the island's next change starts from (its reference r) */
    void Rebase(const std::vector<double>& x);
    /**
     * \brief The entries of this round's change, chunk by chunk, as real top-k payloads carry
     *        them (ChunkLayout::GetValueSpan): index in the chunk, then the fp32 bits; the
     *        residual keeps what was not sent.
     * \param x the parameters after the inner steps (size of the reference)
     * \param layout how the update is cut (a top-k format)
     * \param entries receives the entries' words
     * \return the index of the first element whose change is no finite float (entries and
     *         residual unspecified then), or the size of \p x if none is
     */
    size_t Encode(const std::vector<double>& x,
                  const ChunkLayout& layout,
                  std::vector<int32_t>& entries);
    /** \return the reference r (what Rebase was given last) */
    const std::vector<double>& GetReference() const;
    /** \return the residual e kept for later rounds (zero before the first Encode) */
    const std::vector<double>& GetResidual() const;

  private:
    double m_decay{1.0};             //!< beta
    std::vector<double> m_reference; //!< r: where the round's change starts
    std::vector<double> m_residual;  //!< e: what earlier rounds did not send
    std::vector<double> m_change;    //!< d, per element (scratch)
    std::vector<uint32_t> m_order;   //!< a chunk's elements by |d| (scratch)
};

} // namespace ns3

#endif /* SPARSE_CHANGE_H */
