/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-schedule.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueSchedule");

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
    DenseMatrix a(n, std::vector<double>(n));
    double inv = 1.0 / n;
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            a[i][j] = p[static_cast<size_t>(i) * n + j] - inv;
        }
    }
    return CliqueSchedule::SpectralNorm(a);
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
 * \brief Read a non-negative integer field.
 * \param value the JSON value \param source file name \param field field path
 * \return the value
 */
uint32_t
ReadIndex(const nlohmann::json& value, const std::string& source, const std::string& field)
{
    if (!value.is_number_integer() || value.get<int64_t>() < 0 ||
        value.get<int64_t>() > std::numeric_limits<uint32_t>::max())
    {
        throw std::runtime_error("schedule file " + source + ": field " + field +
                                 ": expected a non-negative integer, got " + value.dump());
    }
    return value.get<uint32_t>();
}

} // namespace

std::string
SyncAlgorithmToString(SyncAlgorithm algorithm)
{
    return algorithm == SyncAlgorithm::RING ? "ring" : "direct";
}

std::ostream&
operator<<(std::ostream& os, SyncAlgorithm algorithm)
{
    return os << SyncAlgorithmToString(algorithm);
}

SyncAlgorithm
SyncAlgorithmFromString(const std::string& text, const std::string& what)
{
    if (text == "direct")
    {
        return SyncAlgorithm::DIRECT;
    }
    if (text == "ring")
    {
        return SyncAlgorithm::RING;
    }
    throw std::runtime_error(what + ": unknown algorithm \"" + text +
                             "\" (expected \"direct\" or \"ring\")");
}

CliqueSchedule::CliqueSchedule()
    : m_islandCount(0)
{
}

CliqueSchedule::CliqueSchedule(uint32_t islandCount,
                               const std::vector<Partition>& rounds,
                               const std::string& name)
    : m_islandCount(islandCount),
      m_name(name)
{
    if (islandCount == 0)
    {
        throw std::runtime_error("schedule \"" + name + "\": no islands");
    }
    if (rounds.empty())
    {
        throw std::runtime_error("schedule \"" + name + "\": no rounds");
    }
    for (size_t r = 0; r < rounds.size(); ++r)
    {
        ValidatePartition(islandCount, rounds[r], "schedule round " + std::to_string(r));
        Partition canonical = Canonical(rounds[r]);
        std::vector<uint32_t> cliqueOf(islandCount);
        for (uint32_t c = 0; c < canonical.size(); ++c)
        {
            for (uint32_t member : canonical[c])
            {
                cliqueOf[member] = c;
            }
        }
        m_algorithms.emplace_back(canonical.size(), SyncAlgorithm::DIRECT);
        m_rounds.push_back(std::move(canonical));
        m_cliqueOf.push_back(std::move(cliqueOf));
    }
}

void
CliqueSchedule::ValidatePartition(uint32_t islandCount,
                                  const Partition& partition,
                                  const std::string& where)
{
    std::vector<int> seen(islandCount, -1);
    for (size_t c = 0; c < partition.size(); ++c)
    {
        if (partition[c].empty())
        {
            throw std::runtime_error(where + ": clique " + std::to_string(c) + " is empty");
        }
        for (uint32_t member : partition[c])
        {
            if (member >= islandCount)
            {
                throw std::runtime_error(where + ": island " + std::to_string(member) +
                                         " out of range (islands 0.." +
                                         std::to_string(islandCount - 1) + ")");
            }
            if (seen[member] >= 0)
            {
                throw std::runtime_error(where + ": island " + std::to_string(member) +
                                         " duplicated (cliques " + std::to_string(seen[member]) +
                                         " and " + std::to_string(c) + ")");
            }
            seen[member] = static_cast<int>(c);
        }
    }
    for (uint32_t i = 0; i < islandCount; ++i)
    {
        if (seen[i] < 0)
        {
            throw std::runtime_error(where + ": island " + std::to_string(i) + " missing");
        }
    }
}

Partition
CliqueSchedule::Canonical(const Partition& partition)
{
    Partition out = partition;
    for (auto& clique : out)
    {
        std::sort(clique.begin(), clique.end());
    }
    std::sort(out.begin(), out.end(), [](const Clique& a, const Clique& b) {
        return a.front() < b.front();
    });
    return out;
}

uint32_t
CliqueSchedule::GetIslandCount() const
{
    return m_islandCount;
}

uint32_t
CliqueSchedule::GetPeriod() const
{
    return static_cast<uint32_t>(m_rounds.size());
}

const std::vector<Partition>&
CliqueSchedule::GetRounds() const
{
    return m_rounds;
}

const Partition&
CliqueSchedule::GetPartition(uint64_t round) const
{
    NS_ASSERT_MSG(!m_rounds.empty(), "empty schedule");
    return m_rounds[round % m_rounds.size()];
}

uint32_t
CliqueSchedule::GetCliqueIndex(uint64_t round, uint32_t island) const
{
    NS_ASSERT_MSG(island < m_islandCount, "island " << island << " out of range");
    return m_cliqueOf[round % m_rounds.size()][island];
}

const Clique&
CliqueSchedule::GetClique(uint64_t round, uint32_t island) const
{
    return GetPartition(round)[GetCliqueIndex(round, island)];
}

SyncAlgorithm
CliqueSchedule::GetAlgorithm(uint64_t round, uint32_t clique) const
{
    const auto& algorithms = GetAlgorithms(round);
    NS_ASSERT_MSG(clique < algorithms.size(), "clique " << clique << " out of range");
    return algorithms[clique];
}

const std::vector<SyncAlgorithm>&
CliqueSchedule::GetAlgorithms(uint64_t round) const
{
    NS_ASSERT_MSG(!m_rounds.empty(), "empty schedule");
    return m_algorithms[round % m_rounds.size()];
}

void
CliqueSchedule::SetAlgorithms(uint32_t periodRound, const std::vector<SyncAlgorithm>& algorithms)
{
    if (periodRound >= m_rounds.size())
    {
        throw std::runtime_error("schedule \"" + m_name + "\": round " +
                                 std::to_string(periodRound) + " out of range (period " +
                                 std::to_string(m_rounds.size()) + ")");
    }
    if (algorithms.size() != m_rounds[periodRound].size())
    {
        throw std::runtime_error("schedule \"" + m_name + "\": round " +
                                 std::to_string(periodRound) + " has " +
                                 std::to_string(m_rounds[periodRound].size()) + " cliques but " +
                                 std::to_string(algorithms.size()) + " algorithms were given");
    }
    m_algorithms[periodRound] = algorithms;
}

const std::string&
CliqueSchedule::GetName() const
{
    return m_name;
}

void
CliqueSchedule::SetName(const std::string& name)
{
    m_name = name;
}

std::string
CliqueSchedule::DescribeCliqueSizes() const
{
    std::ostringstream os;
    for (size_t r = 0; r < m_rounds.size(); ++r)
    {
        if (r > 0)
        {
            os << " | ";
        }
        // Count cliques per size, largest size first: "3x3" is three cliques of 3.
        std::map<size_t, uint32_t, std::greater<size_t>> count;
        for (const auto& clique : m_rounds[r])
        {
            ++count[clique.size()];
        }
        bool first = true;
        for (const auto& [size, n] : count)
        {
            os << (first ? "" : "+") << n << "x" << size;
            first = false;
        }
    }
    return os.str();
}

DenseMatrix
CliqueSchedule::GetMixingMatrix(uint32_t periodRound) const
{
    NS_ASSERT_MSG(periodRound < m_rounds.size(), "round " << periodRound << " out of range");
    DenseMatrix w(m_islandCount, std::vector<double>(m_islandCount, 0.0));
    for (const auto& clique : m_rounds[periodRound])
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
CliqueSchedule::GetPeriodProduct() const
{
    uint32_t n = m_islandCount;
    std::vector<double> p(static_cast<size_t>(n) * n, 0.0);
    for (uint32_t i = 0; i < n; ++i)
    {
        p[static_cast<size_t>(i) * n + i] = 1.0;
    }
    std::vector<double> scratch(n);
    for (const auto& partition : m_rounds)
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
CliqueSchedule::GetContraction() const
{
    DenseMatrix a = GetPeriodProduct();
    double inv = 1.0 / m_islandCount;
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
CliqueSchedule::IsMixing() const
{
    std::vector<uint32_t> parent(m_islandCount);
    std::iota(parent.begin(), parent.end(), 0);
    uint32_t components = m_islandCount;
    for (const auto& partition : m_rounds)
    {
        for (const auto& clique : partition)
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

uint64_t
CliqueSchedule::GetRoundsToEpsilon(double epsilon, uint64_t maxRounds) const
{
    NS_ASSERT_MSG(epsilon > 0, "epsilon must be positive");
    uint32_t n = m_islandCount;
    if (n <= 1 || epsilon >= 1.0)
    {
        return 0; // ||I - J||_2 is 0 for one island and 1 otherwise
    }
    if (!IsMixing())
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
        ApplyPartition(p, n, m_rounds[(r - 1) % m_rounds.size()], scratch);
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
CliqueSchedule::SymmetricEigenvalues(const DenseMatrix& input)
{
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
CliqueSchedule::SpectralNorm(const DenseMatrix& a)
{
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
CliqueSchedule::SpectralGap(const DenseMatrix& w)
{
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
CliqueSchedule::RoundsToEpsilon(const DenseMatrix& w, double epsilon, uint64_t maxRounds)
{
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

std::string
CliqueSchedule::ToJson() const
{
    nlohmann::json doc;
    doc["name"] = m_name;
    doc["islands"] = m_islandCount;
    nlohmann::json rounds = nlohmann::json::array();
    for (size_t r = 0; r < m_rounds.size(); ++r)
    {
        nlohmann::json round;
        round["cliques"] = m_rounds[r];
        nlohmann::json algorithms = nlohmann::json::array();
        for (SyncAlgorithm a : m_algorithms[r])
        {
            algorithms.push_back(SyncAlgorithmToString(a));
        }
        round["algorithms"] = algorithms;
        rounds.push_back(round);
    }
    doc["rounds"] = rounds;
    return doc.dump(2) + "\n";
}

CliqueSchedule
CliqueSchedule::Parse(const std::string& text, const std::string& source)
{
    nlohmann::json doc;
    try
    {
        doc = nlohmann::json::parse(text);
    }
    catch (const nlohmann::json::parse_error& e)
    {
        throw std::runtime_error("schedule file " + source + ": not valid JSON: " + e.what());
    }
    if (!doc.is_object())
    {
        throw std::runtime_error("schedule file " + source + ": expected a JSON object");
    }
    std::string name;
    if (doc.contains("name"))
    {
        if (!doc["name"].is_string())
        {
            throw std::runtime_error("schedule file " + source +
                                     ": field name: expected a string, got " + doc["name"].dump());
        }
        name = doc["name"].get<std::string>();
    }
    if (!doc.contains("islands"))
    {
        throw std::runtime_error("schedule file " + source + ": field islands is missing");
    }
    uint32_t islands = ReadIndex(doc["islands"], source, "islands");
    if (islands == 0)
    {
        throw std::runtime_error("schedule file " + source + ": field islands: must be >= 1");
    }
    if (!doc.contains("rounds") || !doc["rounds"].is_array() || doc["rounds"].empty())
    {
        throw std::runtime_error("schedule file " + source +
                                 ": field rounds: expected a non-empty array");
    }
    std::vector<Partition> rounds;
    std::vector<std::vector<SyncAlgorithm>> algorithms;
    const auto& jr = doc["rounds"];
    for (size_t r = 0; r < jr.size(); ++r)
    {
        std::string field = "rounds[" + std::to_string(r) + "]";
        if (!jr[r].is_object() || !jr[r].contains("cliques") || !jr[r]["cliques"].is_array())
        {
            throw std::runtime_error("schedule file " + source + ": field " + field +
                                     ".cliques: expected an array of cliques");
        }
        const auto& jc = jr[r]["cliques"];
        Partition partition;
        for (size_t c = 0; c < jc.size(); ++c)
        {
            std::string cf = field + ".cliques[" + std::to_string(c) + "]";
            if (!jc[c].is_array())
            {
                throw std::runtime_error("schedule file " + source + ": field " + cf +
                                         ": expected an array of island indices, got " +
                                         jc[c].dump());
            }
            Clique clique;
            for (size_t m = 0; m < jc[c].size(); ++m)
            {
                clique.push_back(ReadIndex(jc[c][m], source, cf + "[" + std::to_string(m) + "]"));
            }
            partition.push_back(clique);
        }
        ValidatePartition(islands, partition, "schedule file " + source + ": " + field);
        std::vector<SyncAlgorithm> algs(partition.size(), SyncAlgorithm::DIRECT);
        if (jr[r].contains("algorithms"))
        {
            const auto& ja = jr[r]["algorithms"];
            if (!ja.is_array() || ja.size() != partition.size())
            {
                throw std::runtime_error("schedule file " + source + ": field " + field +
                                         ".algorithms: expected an array of " +
                                         std::to_string(partition.size()) + " names");
            }
            for (size_t c = 0; c < ja.size(); ++c)
            {
                std::string af = "schedule file " + source + ": field " + field + ".algorithms[" +
                                 std::to_string(c) + "]";
                if (!ja[c].is_string())
                {
                    throw std::runtime_error(af + ": expected \"direct\" or \"ring\", got " +
                                             ja[c].dump());
                }
                algs[c] = SyncAlgorithmFromString(ja[c].get<std::string>(), af);
            }
        }
        // Algorithms follow the cliques into canonical order.
        std::vector<std::pair<Clique, SyncAlgorithm>> pairs;
        for (size_t c = 0; c < partition.size(); ++c)
        {
            Clique sorted = partition[c];
            std::sort(sorted.begin(), sorted.end());
            pairs.emplace_back(sorted, algs[c]);
        }
        std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
            return a.first.front() < b.first.front();
        });
        Partition canonical;
        std::vector<SyncAlgorithm> canonicalAlgs;
        for (auto& [clique, alg] : pairs)
        {
            canonical.push_back(clique);
            canonicalAlgs.push_back(alg);
        }
        rounds.push_back(canonical);
        algorithms.push_back(canonicalAlgs);
    }
    CliqueSchedule schedule(islands, rounds, name);
    for (uint32_t r = 0; r < rounds.size(); ++r)
    {
        schedule.SetAlgorithms(r, algorithms[r]);
    }
    return schedule;
}

CliqueSchedule
CliqueSchedule::LoadFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw std::runtime_error("schedule file " + path + ": cannot be opened");
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    return Parse(buffer.str(), path);
}

void
CliqueSchedule::SaveFile(const std::string& path) const
{
    std::ofstream out(path);
    if (!out)
    {
        throw std::runtime_error("schedule file " + path + ": cannot be written");
    }
    out << ToJson();
    if (!out)
    {
        throw std::runtime_error("schedule file " + path + ": write failed");
    }
}

bool
CliqueSchedule::operator==(const CliqueSchedule& other) const
{
    return m_islandCount == other.m_islandCount && m_rounds == other.m_rounds &&
           m_algorithms == other.m_algorithms;
}

CliqueSchedule
CliqueSchedule::GlobalClique(uint32_t n)
{
    Clique all(n);
    std::iota(all.begin(), all.end(), 0);
    return CliqueSchedule(n, {Partition{all}}, "global-clique");
}

CliqueSchedule
CliqueSchedule::MoshpitGrid(uint32_t n)
{
    if (n <= 3)
    {
        CliqueSchedule s = GlobalClique(n);
        s.SetName("moshpit-grid");
        return s;
    }
    uint32_t rows = 1;
    for (uint32_t d = 2; d * d <= n; ++d)
    {
        if (n % d == 0)
        {
            rows = d;
        }
    }
    uint32_t cols;
    if (rows > 1)
    {
        cols = n / rows;
    }
    else
    {
        // Prime N: near-square grid with a shorter last row.
        cols = static_cast<uint32_t>(std::ceil(std::sqrt(static_cast<double>(n))));
        rows = (n + cols - 1) / cols;
    }
    Partition byRow(rows);
    Partition byColumn(cols);
    for (uint32_t i = 0; i < n; ++i)
    {
        byRow[i / cols].push_back(i);
        byColumn[i % cols].push_back(i);
    }
    return CliqueSchedule(n, {byRow, byColumn}, "moshpit-grid");
}

CliqueSchedule
CliqueSchedule::GossipPairs(uint32_t n)
{
    if (n <= 2)
    {
        CliqueSchedule s = GlobalClique(n);
        s.SetName("gossip-pairs");
        return s;
    }
    // Circle method on an even number of seats; seat n (odd N) is the dummy.
    uint32_t seats = (n % 2 == 0) ? n : n + 1;
    std::vector<Partition> rounds;
    for (uint32_t t = 0; t + 1 < seats; ++t)
    {
        Partition partition;
        auto addPair = [&partition, n](uint32_t a, uint32_t b) {
            if (a >= n)
            {
                partition.push_back({b});
            }
            else if (b >= n)
            {
                partition.push_back({a});
            }
            else
            {
                partition.push_back({a, b});
            }
        };
        uint32_t m = seats - 1;
        addPair(seats - 1, t);
        for (uint32_t k = 1; k < seats / 2; ++k)
        {
            addPair((t + k) % m, (t + m - k) % m);
        }
        rounds.push_back(partition);
    }
    return CliqueSchedule(n, rounds, "gossip-pairs");
}

CliqueSchedule
CliqueSchedule::OnePeerExponential(uint32_t n)
{
    if (n <= 2)
    {
        CliqueSchedule s = GlobalClique(n);
        s.SetName("one-peer-exponential");
        return s;
    }
    uint32_t period = 0;
    while ((1u << period) < n)
    {
        ++period;
    }
    std::vector<Partition> rounds;
    for (uint32_t t = 0; t < period; ++t)
    {
        Partition partition;
        for (uint32_t i = 0; i < n; ++i)
        {
            uint32_t peer = i ^ (1u << t);
            if (peer >= n)
            {
                partition.push_back({i});
            }
            else if (i < peer)
            {
                partition.push_back({i, peer});
            }
        }
        rounds.push_back(partition);
    }
    return CliqueSchedule(n, rounds, "one-peer-exponential");
}

} // namespace ns3
