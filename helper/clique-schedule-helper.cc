/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-schedule-helper.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueScheduleHelper");

namespace
{

/** Default consensus target. */
constexpr double DEFAULT_EPSILON = 1e-3;
/** Default largest period. */
constexpr uint32_t DEFAULT_MAX_PERIOD = 4;
/** Default local-search moves. */
constexpr uint32_t DEFAULT_LOCAL_ITERATIONS = 600;
/** Default largest N scored exhaustively (Bell(10) = 115,975 partitions). */
constexpr uint32_t DEFAULT_EXHAUSTIVE_ISLANDS = 10;
/**
 * Default most unordered pairs of partitions scored in the T = 2 stage (after pruning): all
 * 20,100 pairs of N = 6 fit, so the stage is exhaustive up to N = 6; each pair costs about
 * 10-20 us at N = 9.
 */
constexpr uint64_t DEFAULT_PAIR_LIMIT = 25000;
/** Default model size: 100 MB. */
constexpr uint64_t DEFAULT_MODEL_BYTES = 100000000;
/**
 * Structured candidates within this factor of the best so far are scored exactly (and may
 * start a local search); slower ones are cut off early.
 */
constexpr double START_SLACK = 3.0;
/** Local-search starting points per period. */
constexpr uint32_t STARTS_PER_PERIOD = 2;
/** Relative difference below which two objectives count as equal (then ties are broken). */
constexpr double TIE_TOLERANCE = 1e-12;
/** Widest clique-size text in the table. */
constexpr size_t SIZES_WIDTH = 34;

/** Union-find root. \param p forest \param x element \return root */
uint32_t
Root(std::vector<uint32_t>& p, uint32_t x)
{
    while (p[x] != x)
    {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

/** \param a partition \param b partition \param n islands \return true if a and b connect all */
bool
PairConnects(const Partition& a, const Partition& b, uint32_t n)
{
    std::vector<uint32_t> p(n);
    std::iota(p.begin(), p.end(), 0);
    uint32_t comps = n;
    for (const Partition* part : {&a, &b})
    {
        for (const auto& c : *part)
        {
            for (size_t k = 1; k < c.size(); ++k)
            {
                uint32_t x = Root(p, c[0]);
                uint32_t y = Root(p, c[k]);
                if (x != y)
                {
                    p[y] = x;
                    --comps;
                }
            }
        }
    }
    return comps == 1;
}

/** \param s schedule \return the largest clique of any round */
size_t
LargestClique(const CliqueSchedule& s)
{
    size_t k = 1;
    for (const auto& part : s.GetRounds())
    {
        for (const auto& c : part)
        {
            k = std::max(k, c.size());
        }
    }
    return k;
}

/**
 * \brief Lower bound on R from information spread: after R rounds with cliques of at most k,
 *        an island has heard from at most k^R islands, and any missing entry of the product
 *        leaves ||P - J||_2 >= 1/N.
 * \param n islands \param k largest clique \param epsilon target
 * \return the bound (1 if it does not apply)
 */
uint64_t
SpreadLowerBound(uint32_t n, size_t k, double epsilon)
{
    if (n <= 1 || k <= 1 || epsilon >= 1.0 / n)
    {
        return 1;
    }
    uint64_t r = 0;
    double reach = 1;
    while (reach < n)
    {
        reach *= k;
        ++r;
    }
    return r;
}

/**
 * \brief Build a partition from an order of positions and a clique label per position.
 * \param order islands by position \param label clique label of each position
 * \return the canonical partition
 */
Partition
FromLabels(const std::vector<uint32_t>& order, const std::vector<uint32_t>& label)
{
    uint32_t groups = 1 + *std::max_element(label.begin(), label.end());
    Partition p(groups);
    for (size_t pos = 0; pos < order.size(); ++pos)
    {
        p[label[pos]].push_back(order[pos]);
    }
    p.erase(std::remove_if(p.begin(), p.end(), [](const Clique& c) { return c.empty(); }), p.end());
    return CliqueSchedule::Canonical(p);
}

/**
 * \param n the number to factor \param parts the factor count \param minFactor smallest factor
 * \param current factors so far \param out receives every non-increasing factor list
 */
void
Factorisations(uint32_t n,
               uint32_t parts,
               uint32_t maxFactor,
               std::vector<uint32_t>& current,
               std::vector<std::vector<uint32_t>>& out)
{
    if (parts == 0)
    {
        if (n == 1)
        {
            out.push_back(current);
        }
        return;
    }
    for (uint32_t f = std::min(n, maxFactor); f >= 2; --f)
    {
        if (n % f == 0)
        {
            current.push_back(f);
            Factorisations(n / f, parts - 1, f, current, out);
            current.pop_back();
        }
    }
}

/** \param v seconds \return text in milliseconds with 3 decimals */
std::string
Ms(double v)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << v * 1e3;
    return os.str();
}

} // namespace

CliqueScheduleHelper::CliqueScheduleHelper()
    : m_hasRouting(false),
      m_islands(0),
      m_modelBytes(DEFAULT_MODEL_BYTES),
      m_compute(0),
      m_epsilon(DEFAULT_EPSILON),
      m_maxPeriod(DEFAULT_MAX_PERIOD),
      m_seed(1),
      m_localIterations(DEFAULT_LOCAL_ITERATIONS),
      m_exhaustiveIslands(DEFAULT_EXHAUSTIVE_ISLANDS),
      m_exhaustivePairLimit(DEFAULT_PAIR_LIMIT),
      m_maxRounds(CliqueSchedule::DEFAULT_MAX_ROUNDS),
      m_schedulesScored(0)
{
    m_model = CreateObject<SyncCostModel>();
}

void
CliqueScheduleHelper::SetModelBytes(uint64_t bytes)
{
    m_modelBytes = bytes;
    m_syncCache.clear();
    m_algorithmCache.clear();
}

void
CliqueScheduleHelper::SetComputeTime(Time compute)
{
    m_compute = compute.GetSeconds();
}

void
CliqueScheduleHelper::SetEpsilon(double epsilon)
{
    m_epsilon = epsilon;
}

void
CliqueScheduleHelper::SetMaxPeriod(uint32_t period)
{
    m_maxPeriod = period;
}

void
CliqueScheduleHelper::SetSeed(uint32_t seed)
{
    m_seed = seed;
}

void
CliqueScheduleHelper::SetLocalSearchIterations(uint32_t iterations)
{
    m_localIterations = iterations;
}

void
CliqueScheduleHelper::SetExhaustiveIslands(uint32_t islands)
{
    m_exhaustiveIslands = islands;
}

void
CliqueScheduleHelper::SetExhaustivePairLimit(uint64_t pairs)
{
    m_exhaustivePairLimit = pairs;
}

void
CliqueScheduleHelper::SetMaxRounds(uint64_t rounds)
{
    m_maxRounds = rounds;
}

void
CliqueScheduleHelper::SetCostModelAttribute(const std::string& name, const AttributeValue& value)
{
    m_model->SetAttribute(name, value);
    m_syncCache.clear();
    m_algorithmCache.clear();
}

Ptr<SyncCostModel>
CliqueScheduleHelper::GetCostModel() const
{
    return m_model;
}

void
CliqueScheduleHelper::SetRouting(const WanRouting& routing)
{
    m_model->SetRouting(routing);
    m_islands = routing.GetTopology().GetIslands().size();
    m_hasRouting = true;
    m_syncCache.clear();
    m_algorithmCache.clear();
}

void
CliqueScheduleHelper::CheckSettings() const
{
    if (!m_hasRouting)
    {
        throw std::runtime_error("CliqueScheduleHelper: SetRouting() was not called");
    }
    if (m_modelBytes == 0)
    {
        throw std::runtime_error("CliqueScheduleHelper: model bytes must be > 0");
    }
    if (!(m_epsilon > 0 && m_epsilon < 1))
    {
        throw std::runtime_error("CliqueScheduleHelper: epsilon " + std::to_string(m_epsilon) +
                                 " must be in (0, 1)");
    }
    if (m_maxPeriod == 0)
    {
        throw std::runtime_error("CliqueScheduleHelper: max period must be >= 1");
    }
    if (!(m_compute >= 0))
    {
        throw std::runtime_error("CliqueScheduleHelper: compute time must be >= 0");
    }
}

std::vector<SyncAlgorithm>
CliqueScheduleHelper::ChooseAlgorithms(const Partition& partition)
{
    std::vector<SyncAlgorithm> algorithms;
    algorithms.reserve(partition.size());
    for (const auto& clique : partition)
    {
        if (clique.size() <= 2)
        {
            algorithms.push_back(SyncAlgorithm::DIRECT);
            continue;
        }
        auto it = m_algorithmCache.find(clique);
        if (it == m_algorithmCache.end())
        {
            it = m_algorithmCache.emplace(clique, m_model->ChooseAlgorithm(clique, m_modelBytes))
                     .first;
        }
        algorithms.push_back(it->second);
    }
    return algorithms;
}

double
CliqueScheduleHelper::GetSyncTime(const Partition& partition)
{
    auto it = m_syncCache.find(partition);
    if (it != m_syncCache.end())
    {
        return it->second;
    }
    double t = m_model->EstimateSyncTime(partition, ChooseAlgorithms(partition), m_modelBytes);
    m_syncCache.emplace(partition, t);
    return t;
}

double
CliqueScheduleHelper::TimeToEpsilon(uint64_t rounds, const std::vector<double>& syncTimes) const
{
    if (rounds == CliqueSchedule::UNREACHABLE)
    {
        return std::numeric_limits<double>::infinity();
    }
    uint64_t t = syncTimes.size();
    double period = 0;
    for (double s : syncTimes)
    {
        period += m_compute + s;
    }
    double total = (rounds / t) * period;
    for (uint64_t r = 0; r < rounds % t; ++r)
    {
        total += m_compute + syncTimes[r];
    }
    return total;
}

bool
CliqueScheduleHelper::Better(const ScheduleCandidate& a, const ScheduleCandidate& b)
{
    double ta = a.timeToEpsilon;
    double tb = b.timeToEpsilon;
    if (std::isfinite(ta) && std::isfinite(tb) &&
        std::fabs(ta - tb) > TIE_TOLERANCE * std::max(ta, tb))
    {
        return ta < tb;
    }
    if (std::isfinite(ta) != std::isfinite(tb))
    {
        return std::isfinite(ta);
    }
    if (a.schedule.GetPeriod() != b.schedule.GetPeriod())
    {
        return a.schedule.GetPeriod() < b.schedule.GetPeriod();
    }
    return a.schedule.GetRounds() < b.schedule.GetRounds();
}

bool
CliqueScheduleHelper::Score(CliqueSchedule schedule,
                            double bound,
                            const std::string& family,
                            ScheduleCandidate& out)
{
    uint32_t period = schedule.GetPeriod();
    std::vector<double> sync(period);
    for (uint32_t r = 0; r < period; ++r)
    {
        const Partition& p = schedule.GetRounds()[r];
        schedule.SetAlgorithms(r, ChooseAlgorithms(p));
        sync[r] = GetSyncTime(p);
    }
    if (!schedule.IsMixing())
    {
        return false;
    }
    // The most rounds that can still beat the bound.
    uint64_t cap = m_maxRounds;
    if (std::isfinite(bound))
    {
        double periodTime = 0;
        for (double s : sync)
        {
            periodTime += m_compute + s;
        }
        if (periodTime > 0)
        {
            double full = std::floor(bound / periodTime);
            if (full * period < static_cast<double>(m_maxRounds))
            {
                uint64_t r = static_cast<uint64_t>(full) * period;
                double cum = full * periodTime;
                while (r > 0 && cum >= bound)
                {
                    --r;
                    cum -= m_compute + sync[r % period];
                }
                while (r < m_maxRounds && cum + m_compute + sync[r % period] < bound)
                {
                    cum += m_compute + sync[r % period];
                    ++r;
                }
                cap = r;
            }
        }
    }
    if (SpreadLowerBound(m_islands, LargestClique(schedule), m_epsilon) > cap)
    {
        return false;
    }
    ++m_schedulesScored;
    uint64_t rounds = schedule.GetRoundsToEpsilon(m_epsilon, cap);
    if (rounds == CliqueSchedule::UNREACHABLE && std::isfinite(bound))
    {
        return false;
    }
    out.schedule = schedule;
    out.family = family;
    out.roundsToEpsilon = rounds;
    out.syncTimes = sync;
    out.roundTimes.clear();
    for (double s : sync)
    {
        out.roundTimes.push_back(m_compute + s);
    }
    out.timeToEpsilon = TimeToEpsilon(rounds, sync);
    // rho is reported, never compared: it is filled in for the rows that are returned only
    // (a dense eigenvalue problem per scored schedule would dominate the search at large N).
    out.rho = std::numeric_limits<double>::quiet_NaN();
    return !std::isfinite(bound) || out.timeToEpsilon < bound;
}

ScheduleCandidate
CliqueScheduleHelper::Evaluate(const CliqueSchedule& schedule,
                               bool chooseAlgorithms,
                               const std::string& family)
{
    CheckSettings();
    if (schedule.GetIslandCount() != m_islands)
    {
        throw std::runtime_error("schedule \"" + schedule.GetName() + "\" has " +
                                 std::to_string(schedule.GetIslandCount()) +
                                 " islands but the topology has " + std::to_string(m_islands));
    }
    ScheduleCandidate c;
    if (chooseAlgorithms)
    {
        Score(schedule, std::numeric_limits<double>::infinity(), family, c);
        c.rho = schedule.GetContraction();
        if (!schedule.IsMixing())
        {
            // Score() stops early for schedules that never mix; fill in the row anyway.
            c.schedule = schedule;
            c.family = family;
            c.roundsToEpsilon = CliqueSchedule::UNREACHABLE;
            c.syncTimes.clear();
            c.roundTimes.clear();
            for (uint32_t r = 0; r < schedule.GetPeriod(); ++r)
            {
                c.schedule.SetAlgorithms(r, ChooseAlgorithms(schedule.GetRounds()[r]));
                c.syncTimes.push_back(GetSyncTime(schedule.GetRounds()[r]));
                c.roundTimes.push_back(m_compute + c.syncTimes.back());
            }
            c.timeToEpsilon = std::numeric_limits<double>::infinity();
        }
        return c;
    }
    c.schedule = schedule;
    c.family = family;
    for (uint32_t r = 0; r < schedule.GetPeriod(); ++r)
    {
        c.syncTimes.push_back(m_model->EstimateSyncTime(schedule.GetRounds()[r],
                                                        schedule.GetAlgorithms(r),
                                                        m_modelBytes));
        c.roundTimes.push_back(m_compute + c.syncTimes.back());
    }
    c.roundsToEpsilon = schedule.GetRoundsToEpsilon(m_epsilon, m_maxRounds);
    c.rho = schedule.GetContraction();
    c.timeToEpsilon = TimeToEpsilon(c.roundsToEpsilon, c.syncTimes);
    ++m_schedulesScored;
    return c;
}

std::vector<uint32_t>
CliqueScheduleHelper::DelayOrder() const
{
    const WanRouting& routing = m_model->GetRouting();
    std::vector<uint32_t> order{0};
    std::vector<bool> used(m_islands, false);
    used[0] = true;
    for (uint32_t k = 1; k < m_islands; ++k)
    {
        uint32_t last = order.back();
        uint32_t next = 0;
        double bestDelay = std::numeric_limits<double>::infinity();
        for (uint32_t i = 0; i < m_islands; ++i)
        {
            if (!used[i] && routing.GetIslandDelay(last, i) < bestDelay)
            {
                bestDelay = routing.GetIslandDelay(last, i);
                next = i;
            }
        }
        used[next] = true;
        order.push_back(next);
    }
    return order;
}

void
CliqueScheduleHelper::SearchExhaustive(ScheduleSearchResult& result, ScheduleCandidate& best)
{
    uint32_t n = m_islands;
    if (n > m_exhaustiveIslands || n < 2)
    {
        return;
    }
    // Every set partition, as a restricted growth string: label[0] = 0 and each label at most
    // one above the largest before it.
    std::vector<Partition> partitions;
    std::vector<uint32_t> label(n, 0);
    std::vector<uint32_t> maxBefore(n, 0);
    while (true)
    {
        uint32_t groups = 1 + *std::max_element(label.begin(), label.end());
        Partition p(groups);
        for (uint32_t i = 0; i < n; ++i)
        {
            p[label[i]].push_back(i);
        }
        partitions.push_back(std::move(p));
        // Next string: increase the last position that can grow, reset those after it.
        int i = static_cast<int>(n) - 1;
        while (i > 0 && label[i] > maxBefore[i])
        {
            --i;
        }
        if (i == 0)
        {
            break;
        }
        ++label[i];
        for (uint32_t j = i + 1; j < n; ++j)
        {
            label[j] = 0;
            maxBefore[j] = std::max(maxBefore[j - 1], label[j - 1]);
        }
    }
    std::vector<double> sync(partitions.size());
    for (size_t k = 0; k < partitions.size(); ++k)
    {
        sync[k] = GetSyncTime(partitions[k]);
    }
    NS_LOG_INFO("exhaustive: " << partitions.size() << " partitions scored");

    // T = 1: a single partition mixes only if it is the global clique (W is a projection).
    ScheduleCandidate one;
    if (Score(CliqueSchedule(n, {partitions[0]}, "exhaustive-T1"),
              std::numeric_limits<double>::infinity(),
              "exhaustive",
              one))
    {
        result.table.push_back(one);
        if (Better(one, best))
        {
            best = one;
        }
    }
    if (m_maxPeriod < 2)
    {
        return;
    }
    // T = 2: ordered pairs in increasing order of the faster partition's time; a pair costs at
    // least 2 compute phases plus both sync times, which bounds the rest of the loop.
    std::vector<uint32_t> idx;
    for (uint32_t k = 0; k < partitions.size(); ++k)
    {
        if (partitions[k].size() > 1 && partitions[k].size() < n)
        {
            idx.push_back(k);
        }
    }
    std::stable_sort(idx.begin(), idx.end(), [&sync](uint32_t a, uint32_t b) {
        return sync[a] < sync[b];
    });
    uint64_t evaluated = 0;
    bool truncated = false;
    ScheduleCandidate pairBest;
    pairBest.timeToEpsilon = std::numeric_limits<double>::infinity();
    for (size_t a = 0; a < idx.size() && !truncated; ++a)
    {
        double ta = m_compute + sync[idx[a]];
        if (2 * ta >= best.timeToEpsilon)
        {
            break;
        }
        for (size_t b = a + 1; b < idx.size(); ++b)
        {
            double tb = m_compute + sync[idx[b]];
            if (ta + tb >= best.timeToEpsilon)
            {
                break;
            }
            const Partition& pa = partitions[idx[a]];
            const Partition& pb = partitions[idx[b]];
            if (!PairConnects(pa, pb, n))
            {
                continue;
            }
            size_t k = 1;
            for (const auto& c : pa)
            {
                k = std::max(k, c.size());
            }
            for (const auto& c : pb)
            {
                k = std::max(k, c.size());
            }
            uint64_t rlb = std::max<uint64_t>(2, SpreadLowerBound(n, k, m_epsilon));
            if (((rlb + 1) / 2) * ta + (rlb / 2) * tb >= best.timeToEpsilon)
            {
                continue;
            }
            if (++evaluated > m_exhaustivePairLimit)
            {
                truncated = true;
                break;
            }
            for (int order = 0; order < 2; ++order)
            {
                std::vector<Partition> rounds =
                    order == 0 ? std::vector<Partition>{pa, pb} : std::vector<Partition>{pb, pa};
                ScheduleCandidate c;
                if (Score(CliqueSchedule(n, rounds, "exhaustive-T2"),
                          best.timeToEpsilon,
                          "exhaustive",
                          c) &&
                    Better(c, best))
                {
                    best = c;
                    pairBest = c;
                }
            }
        }
    }
    if (std::isfinite(pairBest.timeToEpsilon))
    {
        if (truncated)
        {
            pairBest.family = "pairs (truncated)";
        }
        result.table.push_back(pairBest);
    }
    NS_LOG_INFO("exhaustive T=2: " << evaluated << " pairs" << (truncated ? " (truncated)" : ""));
}

void
CliqueScheduleHelper::SearchStructured(ScheduleSearchResult& result,
                                       ScheduleCandidate& best,
                                       std::vector<ScheduleCandidate>& starts)
{
    uint32_t n = m_islands;
    if (n < 4 || m_maxPeriod < 2)
    {
        return;
    }
    std::vector<uint32_t> identity(n);
    std::iota(identity.begin(), identity.end(), 0);
    std::vector<std::pair<std::string, std::vector<uint32_t>>> orders{{"index", identity}};
    std::vector<uint32_t> delay = DelayOrder();
    if (delay != identity)
    {
        orders.emplace_back("delay", delay);
    }

    // Candidate schedules as (name, rounds).
    std::vector<std::pair<std::string, std::vector<Partition>>> families;
    for (const auto& [orderName, order] : orders)
    {
        // Exact grids: N = d_0 x ... x d_{T-1}; round t groups positions differing only in
        // coordinate t. Every distinct order of the factors is tried (which one is local).
        for (uint32_t t = 2; t <= m_maxPeriod; ++t)
        {
            std::vector<std::vector<uint32_t>> facts;
            std::vector<uint32_t> cur;
            Factorisations(n, t, n, cur, facts);
            for (auto dims : facts)
            {
                std::sort(dims.begin(), dims.end());
                do
                {
                    std::vector<Partition> rounds;
                    for (uint32_t r = 0; r < t; ++r)
                    {
                        std::vector<uint32_t> lab(n);
                        for (uint32_t pos = 0; pos < n; ++pos)
                        {
                            // Label = the position with coordinate r removed (mixed radix).
                            uint32_t rest = pos;
                            uint32_t labelValue = 0;
                            uint32_t mult = 1;
                            for (uint32_t d = 0; d < t; ++d)
                            {
                                uint32_t coord = rest % dims[d];
                                rest /= dims[d];
                                if (d != r)
                                {
                                    labelValue += coord * mult;
                                    mult *= dims[d];
                                }
                            }
                            lab[pos] = labelValue;
                        }
                        rounds.push_back(FromLabels(order, lab));
                    }
                    std::ostringstream name;
                    name << "grid-";
                    for (size_t d = 0; d < dims.size(); ++d)
                    {
                        name << (d ? "x" : "") << dims[d];
                    }
                    name << "-" << orderName;
                    families.emplace_back(name.str(), rounds);
                } while (std::next_permutation(dims.begin(), dims.end()));
            }
        }
        // Delay clusters: blocks of s consecutive positions, then the transversal (the j-th
        // member of every block); a grid when s divides N, a partial grid otherwise.
        for (uint32_t s = 2; s <= n / 2; ++s)
        {
            std::vector<uint32_t> block(n);
            std::vector<uint32_t> across(n);
            for (uint32_t pos = 0; pos < n; ++pos)
            {
                block[pos] = pos / s;
                across[pos] = pos % s;
            }
            families.emplace_back(
                "clusters-" + std::to_string(s) + "-" + orderName,
                std::vector<Partition>{FromLabels(order, block), FromLabels(order, across)});
        }
        // Shifted blocks: blocks of s on the cyclic order, shifted by s/T each round.
        for (uint32_t t = 2; t <= m_maxPeriod; ++t)
        {
            for (uint32_t s = 2; s < n; ++s)
            {
                std::vector<Partition> rounds;
                for (uint32_t r = 0; r < t; ++r)
                {
                    uint32_t shift = (r * s) / t;
                    std::vector<uint32_t> lab(n);
                    for (uint32_t pos = 0; pos < n; ++pos)
                    {
                        lab[pos] = ((pos + n - shift) % n) / s;
                    }
                    rounds.push_back(FromLabels(order, lab));
                }
                families.emplace_back("shifted-" + std::to_string(s) + "-T" + std::to_string(t) +
                                          "-" + orderName,
                                      rounds);
            }
        }
    }

    std::map<uint32_t, std::vector<ScheduleCandidate>> byPeriod;
    for (const auto& [name, rounds] : families)
    {
        ScheduleCandidate c;
        double bound = std::isfinite(best.timeToEpsilon) ? START_SLACK * best.timeToEpsilon
                                                         : std::numeric_limits<double>::infinity();
        if (!Score(CliqueSchedule(n, rounds, name), bound, "structured", c) ||
            !std::isfinite(c.timeToEpsilon))
        {
            continue;
        }
        byPeriod[c.schedule.GetPeriod()].push_back(c);
        if (Better(c, best))
        {
            best = c;
        }
    }
    for (auto& [period, list] : byPeriod)
    {
        std::stable_sort(list.begin(), list.end(), Better);
        // Distinct schedules only (different constructions can coincide).
        std::vector<ScheduleCandidate> distinct;
        for (const auto& c : list)
        {
            bool seen = false;
            for (const auto& d : distinct)
            {
                seen = seen || d.schedule.GetRounds() == c.schedule.GetRounds();
            }
            if (!seen)
            {
                distinct.push_back(c);
            }
        }
        result.table.push_back(distinct.front());
        for (size_t k = 0; k < distinct.size() && k < STARTS_PER_PERIOD; ++k)
        {
            starts.push_back(distinct[k]);
        }
    }
}

void
CliqueScheduleHelper::SearchLocal(ScheduleSearchResult& result,
                                  ScheduleCandidate& best,
                                  const std::vector<ScheduleCandidate>& starts)
{
    if (starts.empty() || m_localIterations == 0)
    {
        return;
    }
    uint32_t n = m_islands;
    // std::mt19937's output sequence is fixed by the standard; the mapping to ranges below is
    // ours, so results are identical on every platform.
    std::mt19937 rng(m_seed);
    auto pick = [&rng](uint32_t bound) { return static_cast<uint32_t>(rng() % bound); };
    uint32_t perStart = std::max<uint32_t>(1, m_localIterations / starts.size());
    bool improvedAny = false;
    ScheduleCandidate localBest;
    for (const auto& start : starts)
    {
        ScheduleCandidate current = start;
        for (uint32_t it = 0; it < perStart; ++it)
        {
            std::vector<Partition> rounds = current.schedule.GetRounds();
            uint32_t r = pick(rounds.size());
            Partition& p = rounds[r];
            switch (pick(4))
            {
            case 0: { // swap two islands of different cliques
                if (p.size() < 2)
                {
                    continue;
                }
                uint32_t a = pick(n);
                uint32_t b = pick(n);
                uint32_t ca = current.schedule.GetCliqueIndex(r, a);
                uint32_t cb = current.schedule.GetCliqueIndex(r, b);
                if (ca == cb)
                {
                    continue;
                }
                std::replace(p[ca].begin(), p[ca].end(), a, b);
                std::replace(p[cb].begin(), p[cb].end(), b, a);
                break;
            }
            case 1: { // move one island to another clique (or alone)
                uint32_t a = pick(n);
                uint32_t ca = current.schedule.GetCliqueIndex(r, a);
                uint32_t target = pick(p.size() + 1);
                if (target == ca)
                {
                    continue;
                }
                p[ca].erase(std::find(p[ca].begin(), p[ca].end(), a));
                if (target == p.size())
                {
                    p.push_back({a});
                }
                else
                {
                    p[target].push_back(a);
                }
                break;
            }
            case 2: { // merge two cliques
                if (p.size() < 2)
                {
                    continue;
                }
                uint32_t a = pick(p.size());
                uint32_t b = pick(p.size());
                if (a == b)
                {
                    continue;
                }
                p[a].insert(p[a].end(), p[b].begin(), p[b].end());
                p[b].clear();
                break;
            }
            default: { // split a clique at a random point of a shuffled order
                uint32_t a = pick(p.size());
                if (p[a].size() < 2)
                {
                    continue;
                }
                Clique members = p[a];
                for (size_t k = members.size() - 1; k > 0; --k)
                {
                    std::swap(members[k], members[pick(k + 1)]);
                }
                uint32_t cut = 1 + pick(members.size() - 1);
                p[a].assign(members.begin(), members.begin() + cut);
                p.push_back(Clique(members.begin() + cut, members.end()));
                break;
            }
            }
            p.erase(std::remove_if(p.begin(), p.end(), [](const Clique& c) { return c.empty(); }),
                    p.end());
            ScheduleCandidate c;
            if (Score(CliqueSchedule(n, rounds, "local-search"),
                      current.timeToEpsilon,
                      "local-search",
                      c))
            {
                current = c;
                if (Better(c, best))
                {
                    best = c;
                    localBest = c;
                    improvedAny = true;
                }
            }
        }
    }
    if (improvedAny)
    {
        result.table.push_back(localBest);
    }
}

ScheduleSearchResult
CliqueScheduleHelper::Optimise(const WanRouting& routing)
{
    SetRouting(routing);
    return Optimise();
}

ScheduleSearchResult
CliqueScheduleHelper::Optimise()
{
    CheckSettings();
    m_schedulesScored = 0;
    ScheduleSearchResult result;
    uint32_t n = m_islands;

    // Baselines, with the same model. The two global ones keep their algorithm.
    CliqueSchedule global = CliqueSchedule::GlobalClique(n);
    result.baselines.push_back(Evaluate(global, false, "baseline"));
    CliqueSchedule ring = CliqueSchedule::GlobalClique(n);
    ring.SetName("ring-allreduce");
    ring.SetAlgorithms(0, {SyncAlgorithm::RING});
    result.baselines.push_back(Evaluate(ring, false, "baseline"));
    result.baselines.push_back(Evaluate(CliqueSchedule::MoshpitGrid(n), true, "baseline"));
    result.baselines.push_back(Evaluate(CliqueSchedule::GossipPairs(n), true, "baseline"));
    result.baselines.push_back(Evaluate(CliqueSchedule::OnePeerExponential(n), true, "baseline"));
    result.table = result.baselines;

    ScheduleCandidate best = result.baselines.front();
    for (const auto& b : result.baselines)
    {
        if (Better(b, best))
        {
            best = b;
        }
    }
    // The global clique with the faster algorithm is always a candidate.
    ScheduleCandidate chosenGlobal;
    if (Score(global, std::numeric_limits<double>::infinity(), "baseline", chosenGlobal) &&
        Better(chosenGlobal, best))
    {
        best = chosenGlobal;
    }

    SearchExhaustive(result, best);
    std::vector<ScheduleCandidate> starts;
    SearchStructured(result, best, starts);
    if (best.schedule.GetPeriod() >= 2)
    {
        starts.insert(starts.begin(), best);
    }
    SearchLocal(result, best, starts);

    for (auto& row : result.table)
    {
        if (std::isnan(row.rho))
        {
            row.rho = row.schedule.GetContraction();
        }
    }
    if (std::isnan(best.rho))
    {
        best.rho = best.schedule.GetContraction();
    }
    result.best = best;
    result.partitionsScored = m_syncCache.size();
    result.schedulesScored = m_schedulesScored;
    // Rows after the baselines, best first.
    std::stable_sort(result.table.begin() + result.baselines.size(), result.table.end(), Better);
    return result;
}

std::string
CliqueScheduleHelper::FormatTable(const std::vector<ScheduleCandidate>& candidates)
{
    std::ostringstream os;
    os << std::left << std::setw(28) << "schedule" << std::setw(18) << "family" << std::setw(4)
       << "T" << std::setw(SIZES_WIDTH + 2) << "clique sizes" << std::right << std::setw(10)
       << "rho" << std::setw(9) << "R" << std::setw(14) << "round ms" << std::setw(14) << "to eps s"
       << "\n";
    for (const auto& c : candidates)
    {
        std::string sizes = c.schedule.DescribeCliqueSizes();
        if (sizes.size() > SIZES_WIDTH)
        {
            sizes = sizes.substr(0, SIZES_WIDTH - 3) + "...";
        }
        double mean = 0;
        for (double t : c.roundTimes)
        {
            mean += t;
        }
        mean = c.roundTimes.empty() ? 0 : mean / c.roundTimes.size();
        std::string name = c.schedule.GetName();
        bool ring = false;
        for (uint32_t r = 0; r < c.schedule.GetPeriod(); ++r)
        {
            for (auto a : c.schedule.GetAlgorithms(r))
            {
                ring = ring || a == SyncAlgorithm::RING;
            }
        }
        if (ring && name != "ring-allreduce")
        {
            name += " (ring)";
        }
        os << std::left << std::setw(28) << name << std::setw(18) << c.family << std::setw(4)
           << c.schedule.GetPeriod() << std::setw(SIZES_WIDTH + 2) << sizes << std::right
           << std::setw(10) << std::fixed << std::setprecision(4) << c.rho << std::setw(9);
        if (c.roundsToEpsilon == CliqueSchedule::UNREACHABLE)
        {
            os << "inf";
        }
        else
        {
            os << c.roundsToEpsilon;
        }
        os << std::setw(14) << Ms(mean) << std::setw(14);
        if (std::isfinite(c.timeToEpsilon))
        {
            os << std::fixed << std::setprecision(4) << c.timeToEpsilon;
        }
        else
        {
            os << "inf";
        }
        os << "\n";
    }
    return os.str();
}

void
CliqueScheduleHelper::WriteCsv(const std::vector<ScheduleCandidate>& candidates,
                               const std::string& path)
{
    std::ofstream out(path);
    if (!out)
    {
        throw std::runtime_error("candidate table " + path + ": cannot be written");
    }
    out << "name,family,period,clique_sizes,rho,rounds_to_epsilon,round_times_s,"
           "time_to_epsilon_s\n";
    for (const auto& c : candidates)
    {
        out << c.schedule.GetName() << "," << c.family << "," << c.schedule.GetPeriod() << ","
            << c.schedule.DescribeCliqueSizes() << "," << std::setprecision(9) << c.rho << ",";
        if (c.roundsToEpsilon == CliqueSchedule::UNREACHABLE)
        {
            out << "inf";
        }
        else
        {
            out << c.roundsToEpsilon;
        }
        out << ",";
        for (size_t k = 0; k < c.roundTimes.size(); ++k)
        {
            out << (k ? ";" : "") << c.roundTimes[k];
        }
        out << "," << c.timeToEpsilon << "\n";
    }
    if (!out)
    {
        throw std::runtime_error("candidate table " + path + ": write failed");
    }
}

} // namespace ns3
