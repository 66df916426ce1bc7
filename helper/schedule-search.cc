/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "schedule-search.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduleSearch");

namespace
{

/**
 * Structured candidates within this factor of the best so far are scored exactly (and may
 * start a local search); slower ones are cut off early.
 */
constexpr double START_SLACK = 3.0;
/** Local-search starting points per period. */
constexpr uint32_t STARTS_PER_PERIOD = 2;

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

} // namespace

ScheduleSearch::ScheduleSearch(ScheduleScorer& scorer, const ScheduleSearchSettings& settings)
    : m_scorer(scorer),
      m_islands(scorer.GetIslandCount()),
      m_compute(scorer.GetComputeTime()),
      m_epsilon(scorer.GetEpsilon()),
      m_maxPeriod(settings.maxPeriod),
      m_seed(settings.seed),
      m_localIterations(settings.localIterations),
      m_exhaustiveIslands(settings.exhaustiveIslands),
      m_exhaustivePairLimit(settings.exhaustivePairLimit)
{
}

ScheduleSearchResult
ScheduleSearch::Run()
{
    m_scorer.ResetSchedulesScored();
    ScheduleSearchResult result;
    uint32_t n = m_islands;

    // Baselines, with the same model. The two global ones keep their algorithm.
    CliqueSchedule global = CliqueSchedule::GlobalClique(n);
    result.baselines.push_back(m_scorer.Evaluate(global, false, "baseline"));
    CliqueSchedule ring = CliqueSchedule::GlobalClique(n);
    ring.SetName("ring-allreduce");
    ring.SetAlgorithms(0, {SyncAlgorithm::RING});
    result.baselines.push_back(m_scorer.Evaluate(ring, false, "baseline"));
    result.baselines.push_back(m_scorer.Evaluate(CliqueSchedule::MoshpitGrid(n), true, "baseline"));
    result.baselines.push_back(m_scorer.Evaluate(CliqueSchedule::GossipPairs(n), true, "baseline"));
    result.baselines.push_back(
        m_scorer.Evaluate(CliqueSchedule::OnePeerExponential(n), true, "baseline"));
    result.table = result.baselines;

    ScheduleCandidate best = result.baselines.front();
    for (const auto& b : result.baselines)
    {
        if (ScheduleScorer::Better(b, best))
        {
            best = b;
        }
    }
    // The global clique with the faster algorithm is always a candidate.
    ScheduleCandidate chosenGlobal;
    if (m_scorer.Score(global, std::numeric_limits<double>::infinity(), "baseline", chosenGlobal) &&
        ScheduleScorer::Better(chosenGlobal, best))
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
    result.partitionsScored = m_scorer.GetPartitionsScored();
    result.schedulesScored = m_scorer.GetSchedulesScored();
    // Rows after the baselines, best first.
    std::stable_sort(result.table.begin() + result.baselines.size(),
                     result.table.end(),
                     ScheduleScorer::Better);
    return result;
}

std::vector<uint32_t>
ScheduleSearch::DelayOrder() const
{
    const WanRouting& routing = m_scorer.GetCostModel()->GetRouting();
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
ScheduleSearch::SearchExhaustive(ScheduleSearchResult& result, ScheduleCandidate& best)
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
        sync[k] = m_scorer.GetSyncTime(partitions[k]);
    }
    NS_LOG_INFO("exhaustive: " << partitions.size() << " partitions scored");

    // T = 1: a single partition mixes only if it is the global clique (W is a projection).
    ScheduleCandidate one;
    if (m_scorer.Score(CliqueSchedule(n, {partitions[0]}, "exhaustive-T1"),
                       std::numeric_limits<double>::infinity(),
                       "exhaustive",
                       one))
    {
        result.table.push_back(one);
        if (ScheduleScorer::Better(one, best))
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
            if (!CliqueMixing::IsMixing(n, pa, pb))
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
            uint64_t rlb = std::max<uint64_t>(2, ScheduleScorer::SpreadLowerBound(n, k, m_epsilon));
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
                if (m_scorer.Score(CliqueSchedule(n, rounds, "exhaustive-T2"),
                                   best.timeToEpsilon,
                                   "exhaustive",
                                   c) &&
                    ScheduleScorer::Better(c, best))
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
ScheduleSearch::SearchStructured(ScheduleSearchResult& result,
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
        if (!m_scorer.Score(CliqueSchedule(n, rounds, name), bound, "structured", c) ||
            !std::isfinite(c.timeToEpsilon))
        {
            continue;
        }
        byPeriod[c.schedule.GetPeriod()].push_back(c);
        if (ScheduleScorer::Better(c, best))
        {
            best = c;
        }
    }
    for (auto& [period, list] : byPeriod)
    {
        std::stable_sort(list.begin(), list.end(), ScheduleScorer::Better);
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
ScheduleSearch::SearchLocal(ScheduleSearchResult& result,
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
            if (m_scorer.Score(CliqueSchedule(n, rounds, "local-search"),
                               current.timeToEpsilon,
                               "local-search",
                               c))
            {
                current = c;
                if (ScheduleScorer::Better(c, best))
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

} // namespace ns3
