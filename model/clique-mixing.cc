/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-mixing.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueMixing");

namespace
{

/** Cyclic Jacobi stops when the off-diagonal mass is below this fraction of the total. */
constexpr double JACOBI_RELATIVE_TOLERANCE = 1e-30;
/** Cyclic Jacobi gives up after this many sweeps (it converges quadratically in ~10). */
constexpr int JACOBI_MAX_SWEEPS = 100;
/** Power-iteration steps per round when bounding ||P_R - J||_2 from below. */
constexpr int POWER_ITERATIONS = 4;

/** Union-find root with path halving. \param parent forest \param x element \return root */
uint32_t
FindRoot(std::vector<uint32_t>& parent, uint32_t x)
{
    while (parent[x] != x)
    {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/**
 * \brief y = A x with A = P - J, for a row-stochastic P stored row-major.
 * \param p P \param n size \param x input \param y output
 */
void
MultiplyDeviation(const std::vector<double>& p,
                  uint32_t n,
                  const std::vector<double>& x,
                  std::vector<double>& y)
{
    NS_LOG_FUNCTION(n);
    double mean = std::accumulate(x.begin(), x.end(), 0.0) / n;
    for (uint32_t i = 0; i < n; ++i)
    {
        const double* row = &p[static_cast<size_t>(i) * n];
        double s = 0;
        for (uint32_t j = 0; j < n; ++j)
        {
            s += row[j] * x[j];
        }
        y[i] = s - mean;
    }
}

/**
 * \brief y = A^T x with A = P - J.
 * \param p P \param n size \param x input \param y output
 */
void
MultiplyDeviationTransposed(const std::vector<double>& p,
                            uint32_t n,
                            const std::vector<double>& x,
                            std::vector<double>& y)
{
    NS_LOG_FUNCTION(n);
    double mean = std::accumulate(x.begin(), x.end(), 0.0) / n;
    std::fill(y.begin(), y.end(), -mean);
    for (uint32_t i = 0; i < n; ++i)
    {
        const double* row = &p[static_cast<size_t>(i) * n];
        for (uint32_t j = 0; j < n; ++j)
        {
            y[j] += row[j] * x[i];
        }
    }
}

/** \param v a vector \return its Euclidean norm */
double
Norm(const std::vector<double>& v)
{
    NS_LOG_FUNCTION_NOARGS();
    double s = 0;
    for (double x : v)
    {
        s += x * x;
    }
    return std::sqrt(s);
}

/**
 * \brief ||P - J||_2 exactly (Jacobi), P row-major n x n.
 * \param p P \param n size \return the spectral norm
 */
double
DeviationNorm(const std::vector<double>& p, uint32_t n)
{
    NS_LOG_FUNCTION(n);
    DenseMatrix a(n, std::vector<double>(n));
    double inv = 1.0 / n;
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            a[i][j] = p[static_cast<size_t>(i) * n + j] - inv;
        }
    }
    return CliqueMixing::SpectralNorm(a);
}

/**
 * \brief Left-multiply P by the mixing matrix of a partition: average the rows of each clique.
 * \param p P, row-major n x n \param n size \param partition the partition
 * \param scratch a buffer of n doubles
 */
void
ApplyPartition(std::vector<double>& p,
               uint32_t n,
               const Partition& partition,
               std::vector<double>& scratch)
{
    NS_LOG_FUNCTION(n);
    for (const auto& clique : partition)
    {
        if (clique.size() < 2)
        {
            continue;
        }
        std::fill(scratch.begin(), scratch.end(), 0.0);
        for (uint32_t member : clique)
        {
            const double* row = &p[static_cast<size_t>(member) * n];
            for (uint32_t j = 0; j < n; ++j)
            {
                scratch[j] += row[j];
            }
        }
        double inv = 1.0 / clique.size();
        for (uint32_t j = 0; j < n; ++j)
        {
            scratch[j] *= inv;
        }
        for (uint32_t member : clique)
        {
            std::copy(scratch.begin(), scratch.end(), p.begin() + static_cast<size_t>(member) * n);
        }
    }
}

/**
 * \brief True if the union of the cliques of some partitions connects all islands.
 * \param n islands \param rounds the partitions
 * \return whether one component remains (union-find)
 */
bool
ConnectsAll(uint32_t n, const std::vector<const Partition*>& rounds)
{
    NS_LOG_FUNCTION(n);
    std::vector<uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    uint32_t components = n;
    for (const Partition* partition : rounds)
    {
        for (const auto& clique : *partition)
        {
            for (size_t k = 1; k < clique.size(); ++k)
            {
                uint32_t a = FindRoot(parent, clique[0]);
                uint32_t b = FindRoot(parent, clique[k]);
                if (a != b)
                {
                    parent[b] = a;
                    --components;
                }
            }
        }
    }
    return components <= 1;
}

} // namespace

DenseMatrix
CliqueMixing::MixingMatrix(uint32_t n, const Partition& partition)
{
    NS_LOG_FUNCTION(n);
    DenseMatrix w(n, std::vector<double>(n, 0.0));
    for (const auto& clique : partition)
    {
        double weight = 1.0 / clique.size();
        for (uint32_t i : clique)
        {
            for (uint32_t j : clique)
            {
                w[i][j] = weight;
            }
        }
    }
    return w;
}

DenseMatrix
CliqueMixing::PeriodProduct(uint32_t n, const std::vector<Partition>& rounds)
{
    NS_LOG_FUNCTION(n);
    std::vector<double> p(static_cast<size_t>(n) * n, 0.0);
    for (uint32_t i = 0; i < n; ++i)
    {
        p[static_cast<size_t>(i) * n + i] = 1.0;
    }
    std::vector<double> scratch(n);
    for (const auto& partition : rounds)
    {
        ApplyPartition(p, n, partition, scratch);
    }
    DenseMatrix out(n, std::vector<double>(n));
    for (uint32_t i = 0; i < n; ++i)
    {
        std::copy(p.begin() + static_cast<size_t>(i) * n,
                  p.begin() + static_cast<size_t>(i + 1) * n,
                  out[i].begin());
    }
    return out;
}

double
CliqueMixing::Contraction(uint32_t n, const std::vector<Partition>& rounds)
{
    NS_LOG_FUNCTION(n);
    DenseMatrix a = PeriodProduct(n, rounds);
    double inv = 1.0 / n;
    for (auto& row : a)
    {
        for (double& x : row)
        {
            x -= inv;
        }
    }
    return SpectralNorm(a);
}

bool
CliqueMixing::IsMixing(uint32_t n, const std::vector<Partition>& rounds)
{
    NS_LOG_FUNCTION(n);
    std::vector<const Partition*> period;
    for (const auto& partition : rounds)
    {
        period.push_back(&partition);
    }
    return ConnectsAll(n, period);
}

bool
CliqueMixing::IsMixing(uint32_t n, const Partition& a, const Partition& b)
{
    NS_LOG_FUNCTION(n);
    return ConnectsAll(n, {&a, &b});
}

uint64_t
CliqueMixing::PeriodicRoundsToEpsilon(uint32_t n,
                                      const std::vector<Partition>& rounds,
                                      double epsilon,
                                      uint64_t maxRounds)
{
    NS_LOG_FUNCTION(n << epsilon << maxRounds);
    NS_ASSERT_MSG(epsilon > 0, "epsilon must be positive");
    if (n <= 1 || epsilon >= 1.0)
    {
        return 0; // ||I - J||_2 is 0 for one island and 1 otherwise
    }
    if (!IsMixing(n, rounds))
    {
        return UNREACHABLE;
    }
    std::vector<double> p(static_cast<size_t>(n) * n, 0.0);
    for (uint32_t i = 0; i < n; ++i)
    {
        p[static_cast<size_t>(i) * n + i] = 1.0;
    }
    std::vector<double> scratch(n);
    std::vector<double> x(n);
    std::vector<double> y(n);
    // A deterministic start vector with a component along every direction orthogonal to 1.
    for (uint32_t i = 0; i < n; ++i)
    {
        x[i] = std::sin(1.0 + i);
    }
    double eps2 = epsilon * epsilon;
    double invN = 1.0 / n;
    for (uint64_t r = 1; r <= maxRounds; ++r)
    {
        ApplyPartition(p, n, rounds[(r - 1) % rounds.size()], scratch);
        // ||A||_F / sqrt(rank) <= ||A||_2 <= ||A||_F, and rank(A) <= n - 1 since A1 = 0.
        double frob2 = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t j = 0; j < n; ++j)
            {
                double d = p[static_cast<size_t>(i) * n + j] - invN;
                frob2 += d * d;
            }
        }
        if (frob2 <= eps2)
        {
            return r;
        }
        if (frob2 > eps2 * (n - 1))
        {
            continue;
        }
        // Power iteration gives a lower bound ||A x|| / ||x||; only if it does not already
        // exceed epsilon is the exact norm computed.
        bool above = false;
        for (int k = 0; k < POWER_ITERATIONS && !above; ++k)
        {
            double nx = Norm(x);
            if (nx == 0)
            {
                break;
            }
            for (double& v : x)
            {
                v /= nx;
            }
            MultiplyDeviation(p, n, x, y);
            if (Norm(y) > epsilon)
            {
                above = true;
                break;
            }
            MultiplyDeviationTransposed(p, n, y, x);
        }
        if (above)
        {
            continue;
        }
        if (DeviationNorm(p, n) <= epsilon)
        {
            return r;
        }
    }
    return UNREACHABLE;
}

std::vector<double>
CliqueMixing::SymmetricEigenvalues(const DenseMatrix& input)
{
    NS_LOG_FUNCTION_NOARGS();
    size_t n = input.size();
    std::vector<double> a(n * n);
    for (size_t i = 0; i < n; ++i)
    {
        NS_ASSERT_MSG(input[i].size() == n, "matrix is not square");
        for (size_t j = 0; j < n; ++j)
        {
            a[i * n + j] = input[i][j];
        }
    }
    double total = 0;
    for (double v : a)
    {
        total += v * v;
    }
    for (int sweep = 0; sweep < JACOBI_MAX_SWEEPS; ++sweep)
    {
        double off = 0;
        for (size_t i = 0; i < n; ++i)
        {
            for (size_t j = i + 1; j < n; ++j)
            {
                off += 2 * a[i * n + j] * a[i * n + j];
            }
        }
        if (off <= JACOBI_RELATIVE_TOLERANCE * total || off == 0)
        {
            break;
        }
        for (size_t pi = 0; pi < n; ++pi)
        {
            for (size_t q = pi + 1; q < n; ++q)
            {
                double apq = a[pi * n + q];
                if (apq == 0)
                {
                    continue;
                }
                double app = a[pi * n + pi];
                double aqq = a[q * n + q];
                // Rotation angle that zeroes a[p][q] (numerically stable form).
                double theta = (aqq - app) / (2 * apq);
                double t =
                    (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
                double c = 1.0 / std::sqrt(t * t + 1.0);
                double s = t * c;
                for (size_t k = 0; k < n; ++k)
                {
                    double akp = a[k * n + pi];
                    double akq = a[k * n + q];
                    a[k * n + pi] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for (size_t k = 0; k < n; ++k)
                {
                    double apk = a[pi * n + k];
                    double aqk = a[q * n + k];
                    a[pi * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
            }
        }
    }
    std::vector<double> eig(n);
    for (size_t i = 0; i < n; ++i)
    {
        eig[i] = a[i * n + i];
    }
    std::sort(eig.begin(), eig.end(), std::greater<double>());
    return eig;
}

double
CliqueMixing::SpectralNorm(const DenseMatrix& a)
{
    NS_LOG_FUNCTION_NOARGS();
    if (a.empty())
    {
        return 0;
    }
    size_t rows = a.size();
    size_t cols = a[0].size();
    DenseMatrix ata(cols, std::vector<double>(cols, 0.0));
    for (size_t i = 0; i < cols; ++i)
    {
        for (size_t j = i; j < cols; ++j)
        {
            double s = 0;
            for (size_t k = 0; k < rows; ++k)
            {
                s += a[k][i] * a[k][j];
            }
            ata[i][j] = s;
            ata[j][i] = s;
        }
    }
    std::vector<double> eig = SymmetricEigenvalues(ata);
    return std::sqrt(std::max(0.0, eig.front()));
}

double
CliqueMixing::SpectralGap(const DenseMatrix& w)
{
    NS_LOG_FUNCTION_NOARGS();
    size_t n = w.size();
    DenseMatrix a = w;
    for (auto& row : a)
    {
        for (double& x : row)
        {
            x -= 1.0 / n;
        }
    }
    return 1.0 - SpectralNorm(a);
}

uint64_t
CliqueMixing::RoundsToEpsilon(const DenseMatrix& w, double epsilon, uint64_t maxRounds)
{
    NS_LOG_FUNCTION(epsilon << maxRounds);
    size_t n = w.size();
    DenseMatrix p(n, std::vector<double>(n, 0.0));
    for (size_t i = 0; i < n; ++i)
    {
        p[i][i] = 1.0;
    }
    for (uint64_t r = 1; r <= maxRounds; ++r)
    {
        DenseMatrix next(n, std::vector<double>(n, 0.0));
        for (size_t i = 0; i < n; ++i)
        {
            for (size_t k = 0; k < n; ++k)
            {
                if (w[i][k] == 0)
                {
                    continue;
                }
                for (size_t j = 0; j < n; ++j)
                {
                    next[i][j] += w[i][k] * p[k][j];
                }
            }
        }
        p = std::move(next);
        DenseMatrix a = p;
        for (auto& row : a)
        {
            for (double& x : row)
            {
                x -= 1.0 / n;
            }
        }
        if (SpectralNorm(a) <= epsilon)
        {
            return r;
        }
    }
    return UNREACHABLE;
}

} // namespace ns3
