/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-schedule.h"

#include "clique-mixing.h"
#include "wan-input-error.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueSchedule");

const char SYNC_ALGORITHM_NAMES[] = "\"direct\", \"ring\" or \"tree\"";

std::string
SyncAlgorithmToString(SyncAlgorithm algorithm)
{
    switch (algorithm)
    {
    case SyncAlgorithm::RING:
        return "ring";
    case SyncAlgorithm::TREE:
        return "tree";
    default:
        return "direct";
    }
}

std::ostream&
operator<<(std::ostream& os, SyncAlgorithm algorithm)
{
    return os << SyncAlgorithmToString(algorithm);
}

SyncAlgorithm
SyncAlgorithmFromString(const std::string& text, const std::string& what)
{
    NS_LOG_FUNCTION(text << what);
    if (text == "direct")
    {
        return SyncAlgorithm::DIRECT;
    }
    if (text == "ring")
    {
        return SyncAlgorithm::RING;
    }
    if (text == "tree")
    {
        return SyncAlgorithm::TREE;
    }
    throw std::runtime_error(what + ": unknown algorithm " + WanInputError::Quote(text) +
                             " (expected " + SYNC_ALGORITHM_NAMES + ")");
}

CliqueSchedule::CliqueSchedule()
    : m_islandCount(0)
{
    NS_LOG_FUNCTION(this);
}

CliqueSchedule::CliqueSchedule(uint32_t islandCount,
                               const std::vector<Partition>& rounds,
                               const std::string& name)
    : m_islandCount(islandCount),
      m_name(name)
{
    NS_LOG_FUNCTION(this << islandCount << name);
    if (islandCount == 0)
    {
        throw std::runtime_error("schedule " + WanInputError::Quote(name) + ": no islands");
    }
    if (rounds.empty())
    {
        throw std::runtime_error("schedule " + WanInputError::Quote(name) + ": no rounds");
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
        m_formats.emplace_back();
        m_rounds.push_back(std::move(canonical));
        m_cliqueOf.push_back(std::move(cliqueOf));
    }
}

void
CliqueSchedule::ValidatePartition(uint32_t islandCount,
                                  const Partition& partition,
                                  const std::string& where)
{
    NS_LOG_FUNCTION(islandCount << where);
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
    NS_LOG_FUNCTION_NOARGS();
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
    NS_LOG_FUNCTION(this);
    return m_islandCount;
}

uint32_t
CliqueSchedule::GetPeriod() const
{
    NS_LOG_FUNCTION(this);
    return static_cast<uint32_t>(m_rounds.size());
}

const std::vector<Partition>&
CliqueSchedule::GetRounds() const
{
    NS_LOG_FUNCTION(this);
    return m_rounds;
}

const Partition&
CliqueSchedule::GetPartition(uint64_t round) const
{
    NS_LOG_FUNCTION(this << round);
    NS_ASSERT_MSG(!m_rounds.empty(), "empty schedule");
    return m_rounds[round % m_rounds.size()];
}

uint32_t
CliqueSchedule::GetCliqueIndex(uint64_t round, uint32_t island) const
{
    NS_LOG_FUNCTION(this << round << island);
    NS_ASSERT_MSG(island < m_islandCount, "island " << island << " out of range");
    return m_cliqueOf[round % m_rounds.size()][island];
}

const Clique&
CliqueSchedule::GetClique(uint64_t round, uint32_t island) const
{
    NS_LOG_FUNCTION(this << round << island);
    return GetPartition(round)[GetCliqueIndex(round, island)];
}

SyncAlgorithm
CliqueSchedule::GetAlgorithm(uint64_t round, uint32_t clique) const
{
    NS_LOG_FUNCTION(this << round << clique);
    const auto& algorithms = GetAlgorithms(round);
    NS_ASSERT_MSG(clique < algorithms.size(), "clique " << clique << " out of range");
    return algorithms[clique];
}

const std::vector<SyncAlgorithm>&
CliqueSchedule::GetAlgorithms(uint64_t round) const
{
    NS_LOG_FUNCTION(this << round);
    NS_ASSERT_MSG(!m_rounds.empty(), "empty schedule");
    return m_algorithms[round % m_rounds.size()];
}

const std::optional<UpdateFormat>&
CliqueSchedule::GetFormat(uint64_t round) const
{
    NS_LOG_FUNCTION(this << round);
    NS_ASSERT_MSG(!m_rounds.empty(), "empty schedule");
    return m_formats[round % m_rounds.size()];
}

void
CliqueSchedule::SetFormat(uint32_t periodRound, const UpdateFormat& format)
{
    NS_LOG_FUNCTION(this << periodRound << format.ToString());
    if (periodRound >= m_rounds.size())
    {
        throw std::runtime_error("schedule " + WanInputError::Quote(m_name) + ": round " +
                                 std::to_string(periodRound) + " out of range (period " +
                                 std::to_string(m_rounds.size()) + ")");
    }
    m_formats[periodRound] = format;
}

bool
CliqueSchedule::HasFormats() const
{
    NS_LOG_FUNCTION(this);
    return std::any_of(m_formats.begin(), m_formats.end(), [](const auto& f) {
        return f.has_value();
    });
}

void
CliqueSchedule::SetAlgorithms(uint32_t periodRound, const std::vector<SyncAlgorithm>& algorithms)
{
    NS_LOG_FUNCTION(this << periodRound);
    if (periodRound >= m_rounds.size())
    {
        throw std::runtime_error("schedule " + WanInputError::Quote(m_name) + ": round " +
                                 std::to_string(periodRound) + " out of range (period " +
                                 std::to_string(m_rounds.size()) + ")");
    }
    if (algorithms.size() != m_rounds[periodRound].size())
    {
        throw std::runtime_error("schedule " + WanInputError::Quote(m_name) + ": round " +
                                 std::to_string(periodRound) + " has " +
                                 std::to_string(m_rounds[periodRound].size()) + " cliques but " +
                                 std::to_string(algorithms.size()) + " algorithms were given");
    }
    m_algorithms[periodRound] = algorithms;
}

const std::string&
CliqueSchedule::GetName() const
{
    NS_LOG_FUNCTION(this);
    return m_name;
}

void
CliqueSchedule::SetName(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    m_name = name;
}

std::string
CliqueSchedule::DescribeCliqueSizes() const
{
    NS_LOG_FUNCTION(this);
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
    NS_LOG_FUNCTION(this << periodRound);
    NS_ASSERT_MSG(periodRound < m_rounds.size(), "round " << periodRound << " out of range");
    return CliqueMixing::MixingMatrix(m_islandCount, m_rounds[periodRound]);
}

DenseMatrix
CliqueSchedule::GetPeriodProduct() const
{
    NS_LOG_FUNCTION(this);
    return CliqueMixing::PeriodProduct(m_islandCount, m_rounds);
}

double
CliqueSchedule::GetContraction() const
{
    NS_LOG_FUNCTION(this);
    return CliqueMixing::Contraction(m_islandCount, m_rounds);
}

bool
CliqueSchedule::IsMixing() const
{
    NS_LOG_FUNCTION(this);
    return CliqueMixing::IsMixing(m_islandCount, m_rounds);
}

uint64_t
CliqueSchedule::GetRoundsToEpsilon(double epsilon, uint64_t maxRounds) const
{
    NS_LOG_FUNCTION(this << epsilon << maxRounds);
    return CliqueMixing::PeriodicRoundsToEpsilon(m_islandCount, m_rounds, epsilon, maxRounds);
}

bool
CliqueSchedule::operator==(const CliqueSchedule& other) const
{
    return m_islandCount == other.m_islandCount && m_rounds == other.m_rounds &&
           m_algorithms == other.m_algorithms && m_formats == other.m_formats;
}

CliqueSchedule
CliqueSchedule::GlobalClique(uint32_t n)
{
    NS_LOG_FUNCTION(n);
    Clique all(n);
    std::iota(all.begin(), all.end(), 0);
    return CliqueSchedule(n, {Partition{all}}, "global-clique");
}

CliqueSchedule
CliqueSchedule::MoshpitGrid(uint32_t n)
{
    NS_LOG_FUNCTION(n);
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
    NS_LOG_FUNCTION(n);
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
    NS_LOG_FUNCTION(n);
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
