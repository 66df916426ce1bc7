/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLIQUE_MIXING_H
#define CLIQUE_MIXING_H

#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

/** \ingroup wan-training \brief One clique: the island indices that average together. */
using Clique = std::vector<uint32_t>;
/** \ingroup wan-training \brief One round: a partition of all islands into cliques. */
using Partition = std::vector<Clique>;
/** \ingroup wan-training \brief A dense square matrix, row-major: m[row][column]. */
using DenseMatrix = std::vector<std::vector<double>>;

/**
 * \ingroup wan-training
 * \brief The mixing math of rotating cliques: how fast a periodic list of partitions of N
 *        islands averages their values, and the dense linear algebra it needs (no LAPACK).
 *
 * Averaging within a clique of k islands is the block J_k/k of the round's mixing matrix W_t;
 * one period contracts disagreement by rho = ||W_T...W_1 - J||_2 (J = 11^T/N). The rounds are
 * valid partitions (CliqueSchedule checks them); CliqueSchedule's mixing members call these.
 */
class CliqueMixing
{
  public:
    /** Returned by the rounds-to-epsilon functions when epsilon is never reached. */
    static constexpr uint64_t UNREACHABLE = std::numeric_limits<uint64_t>::max();

    /**
     * \param n islands \param partition a partition of them
     * \return W, block diagonal with J_k/k for each clique of k members
     */
    static DenseMatrix MixingMatrix(uint32_t n, const Partition& partition);
    /** \param n islands \param rounds one period \return the product W_T ... W_1 */
    static DenseMatrix PeriodProduct(uint32_t n, const std::vector<Partition>& rounds);
    /** \param n islands \param rounds one period \return rho = ||W_T ... W_1 - J||_2 */
    static double Contraction(uint32_t n, const std::vector<Partition>& rounds);
    /**
     * \brief True if the union of all cliques of one period connects all islands: exactly the
     *        condition for rho < 1.
     * \param n islands \param rounds one period \return whether the rounds mix
     */
    static bool IsMixing(uint32_t n, const std::vector<Partition>& rounds);
    /**
     * \brief IsMixing() of the two-round period {a, b}, without copying the partitions (the
     *        optimiser asks this of many pairs).
     * \param n islands \param a first round \param b second round \return whether they mix
     */
    static bool IsMixing(uint32_t n, const Partition& a, const Partition& b);
    /**
     * \brief The smallest R with ||W_R ... W_1 - J||_2 <= epsilon, walking the periodic rounds
     *        from round 0. Exact; the exact norm is computed only when the Frobenius bounds
     *        and a power-iteration lower bound do not decide.
     * \param n islands \param rounds one period \param epsilon the target, > 0
     * \param maxRounds give up after this many rounds
     * \return R, or UNREACHABLE if the rounds do not mix or need more than \p maxRounds
     */
    static uint64_t PeriodicRoundsToEpsilon(uint32_t n,
                                            const std::vector<Partition>& rounds,
                                            double epsilon,
                                            uint64_t maxRounds);

    /// \name Dense linear algebra
    /// @{
    /**
     * \param a any real matrix (rows of equal length)
     * \return its largest singular value, from the Jacobi eigenvalues of a^T a
     */
    static double SpectralNorm(const DenseMatrix& a);
    /**
     * \param a a real symmetric matrix \return its eigenvalues, descending (cyclic Jacobi)
     */
    static std::vector<double> SymmetricEigenvalues(const DenseMatrix& a);
    /**
     * \brief Spectral gap 1 - ||W - J||_2 of a doubly-stochastic matrix (for a symmetric W
     *        this is 1 - max |lambda_i| over the eigenvalues other than the one for 1).
     * \param w the mixing matrix \return the gap
     */
    static double SpectralGap(const DenseMatrix& w);
    /**
     * \brief Smallest R with ||W^R - J||_2 <= epsilon for one fixed mixing matrix (dense).
     * \param w the mixing matrix \param epsilon the target \param maxRounds cap
     * \return R, or UNREACHABLE
     */
    static uint64_t RoundsToEpsilon(const DenseMatrix& w, double epsilon, uint64_t maxRounds);
    /// @}
};

} // namespace ns3

#endif /* CLIQUE_MIXING_H */
