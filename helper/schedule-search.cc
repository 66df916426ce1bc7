/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "schedule-search.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
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
/** Name of the global clique with its algorithm chosen by the cost model. */
const char CHOSEN_GLOBAL_NAME[] = "global-clique-chosen";

/**
 * \brief Drop the empty cliques of a partition, keeping the others' order.
 * \param p the partition
 */
void
RemoveEmptyCliques(Partition& p)
{
    p.erase(std::remove_if(p.begin(), p.end(), [](const Clique& c) { return c.empty(); }), p.end());
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
    RemoveEmptyCliques(p);
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

/**
 * \brief Keep a candidate as the running best if it is better (ScheduleScorer::Better()).
 * \param c the candidate \param best the running best
 * \return true if \p c replaced \p best
 */
bool
KeepIfBetter(const ScheduleCandidate& c, ScheduleCandidate& best)
{
    if (ScheduleScorer::Better(c, best))
    {
        best = c;
        return true;
    }
    return false;
}

/**
 * \param label a restricted growth string: island i is in clique label[i]
 * \return the partition it encodes, islands in increasing order in each clique
 */
Partition
GroupByLabel(const std::vector<uint32_t>& label)
{
    uint32_t groups = 1 + *std::max_element(label.begin(), label.end());
    Partition p(groups);
    for (uint32_t i = 0; i < label.size(); ++i)
    {
        p[label[i]].push_back(i);
    }
    return p;
}

/**
 * \brief Step to the next restricted growth string: increase the last position that can grow,
 *        reset those after it.
 * \param label the string (label[0] = 0, each label at most one above the largest before it)
 * \param maxBefore per position, the largest label before it
 * \return false if \p label was the last string
 */
bool
NextGrowthString(std::vector<uint32_t>& label, std::vector<uint32_t>& maxBefore)
{
    const uint32_t n = label.size();
    int i = static_cast<int>(n) - 1;
    while (i > 0 && label[i] > maxBefore[i])
    {
        --i;
    }
    if (i == 0)
    {
        return false;
    }
    ++label[i];
    for (uint32_t j = i + 1; j < n; ++j)
    {
        label[j] = 0;
        maxBefore[j] = std::max(maxBefore[j - 1], label[j - 1]);
    }
    return true;
}

/**
 * \param n islands
 * \return every set partition of n islands, in the order of their restricted growth strings
 */
std::vector<Partition>
AllPartitions(uint32_t n)
{
    std::vector<Partition> partitions;
    std::vector<uint32_t> label(n, 0);
    std::vector<uint32_t> maxBefore(n, 0);
    do
    {
        partitions.push_back(GroupByLabel(label));
    } while (NextGrowthString(label, maxBefore));
    return partitions;
}

/**
 * \param partitions every set partition of n islands \param sync their sync times, s
 * \param n islands
 * \return indices of the partitions that are neither the global clique nor all singletons,
 *         in increasing order of sync time (stable)
 */
std::vector<uint32_t>
PairCandidatesBySyncTime(const std::vector<Partition>& partitions,
                         const std::vector<double>& sync,
                         uint32_t n)
{
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
    return idx;
}

/**
 * \param pa a partition \param pb another
 * \return the size of the largest clique of either (at least 1)
 */
size_t
LargestClique(const Partition& pa, const Partition& pb)
{
    size_t k = 1;
    for (const auto& c : pa)
    {
        k = std::max(k, c.size());
    }
    for (const auto& c : pb)
    {
        k = std::max(k, c.size());
    }
    return k;
}

/**
 * \brief A grid round's labels: each position's mixed-radix coordinates with coordinate
 *        \p r removed.
 * \param n positions \param dims the grid's factors \param r the coordinate removed
 * \return per position, its clique label
 */
std::vector<uint32_t>
GridLabels(uint32_t n, const std::vector<uint32_t>& dims, uint32_t r)
{
    std::vector<uint32_t> lab(n);
    for (uint32_t pos = 0; pos < n; ++pos)
    {
        uint32_t rest = pos;
        uint32_t labelValue = 0;
        uint32_t mult = 1;
        for (uint32_t d = 0; d < dims.size(); ++d)
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
    return lab;
}

/**
 * \param dims the grid's factors \param orderName the island order's name
 * \return the grid's name, e.g. grid-3x3-delay
 */
std::string
GridName(const std::vector<uint32_t>& dims, const std::string& orderName)
{
    std::ostringstream name;
    name << "grid-";
    for (size_t d = 0; d < dims.size(); ++d)
    {
        name << (d ? "x" : "") << dims[d];
    }
    name << "-" << orderName;
    return name.str();
}

/**
 * \param n positions \param s block size \param shift the round's shift
 * \return per position, its block on the cyclic order shifted by \p shift
 */
std::vector<uint32_t>
ShiftedLabels(uint32_t n, uint32_t s, uint32_t shift)
{
    std::vector<uint32_t> lab(n);
    for (uint32_t pos = 0; pos < n; ++pos)
    {
        lab[pos] = ((pos + n - shift) % n) / s;
    }
    return lab;
}

/**
 * \param list one period's candidates
 * \return them best first (stable), without repeats of a schedule (different constructions
 *         can coincide)
 */
std::vector<ScheduleCandidate>
DistinctBestFirst(std::vector<ScheduleCandidate> list)
{
    std::stable_sort(list.begin(), list.end(), ScheduleScorer::Better);
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
    return distinct;
}

/**
 * \param rng the search's generator \param bound the range
 * \return a value in [0, bound) (the mapping is ours: identical on every platform)
 */
uint32_t
Pick(std::mt19937& rng, uint32_t bound)
{
    return static_cast<uint32_t>(rng() % bound);
}

/**
 * \brief Local-search move: swap two islands of different cliques.
 * \param schedule the current schedule \param r the round changed \param n islands
 * \param rng the generator \param p the round's partition (changed here)
 * \return false if the move does not apply
 */
bool
SwapIslands(const CliqueSchedule& schedule, uint32_t r, uint32_t n, std::mt19937& rng, Partition& p)
{
    if (p.size() < 2)
    {
        return false;
    }
    uint32_t a = Pick(rng, n);
    uint32_t b = Pick(rng, n);
    uint32_t ca = schedule.GetCliqueIndex(r, a);
    uint32_t cb = schedule.GetCliqueIndex(r, b);
    if (ca == cb)
    {
        return false;
    }
    std::replace(p[ca].begin(), p[ca].end(), a, b);
    std::replace(p[cb].begin(), p[cb].end(), b, a);
    return true;
}

/**
 * \brief Local-search move: move one island to another clique (or alone).
 * \param schedule the current schedule \param r the round changed \param n islands
 * \param rng the generator \param p the round's partition (changed here)
 * \return false if the move does not apply
 */
bool
MoveIsland(const CliqueSchedule& schedule, uint32_t r, uint32_t n, std::mt19937& rng, Partition& p)
{
    uint32_t a = Pick(rng, n);
    uint32_t ca = schedule.GetCliqueIndex(r, a);
    uint32_t target = Pick(rng, p.size() + 1);
    if (target == ca)
    {
        return false;
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
    return true;
}

/**
 * \brief Local-search move: merge two cliques (the second is left empty).
 * \param rng the generator \param p the round's partition (changed here)
 * \return false if the move does not apply
 */
bool
MergeCliques(std::mt19937& rng, Partition& p)
{
    if (p.size() < 2)
    {
        return false;
    }
    uint32_t a = Pick(rng, p.size());
    uint32_t b = Pick(rng, p.size());
    if (a == b)
    {
        return false;
    }
    p[a].insert(p[a].end(), p[b].begin(), p[b].end());
    p[b].clear();
    return true;
}

/**
 * \brief Local-search move: split a clique at a random point of a shuffled order.
 * \param rng the generator \param p the round's partition (changed here)
 * \return false if the move does not apply
 */
bool
SplitClique(std::mt19937& rng, Partition& p)
{
    uint32_t a = Pick(rng, p.size());
    if (p[a].size() < 2)
    {
        return false;
    }
    Clique members = p[a];
    for (size_t k = members.size() - 1; k > 0; --k)
    {
        std::swap(members[k], members[Pick(rng, k + 1)]);
    }
    uint32_t cut = 1 + Pick(rng, members.size() - 1);
    p[a].assign(members.begin(), members.begin() + cut);
    p.push_back(Clique(members.begin() + cut, members.end()));
    return true;
}

/**
 * \brief One random local-search move (swap, move, merge or split) in a random round.
 * \param schedule the current schedule \param n islands \param rng the generator
 * \param rounds the schedule's partitions (changed here)
 * \return false if the move drawn does not apply (nothing to score)
 */
bool
RandomNeighbour(const CliqueSchedule& schedule,
                uint32_t n,
                std::mt19937& rng,
                std::vector<Partition>& rounds)
{
    uint32_t r = Pick(rng, rounds.size());
    Partition& p = rounds[r];
    bool moved = false;
    switch (Pick(rng, 4))
    {
    case 0:
        moved = SwapIslands(schedule, r, n, rng, p);
        break;
    case 1:
        moved = MoveIsland(schedule, r, n, rng, p);
        break;
    case 2:
        moved = MergeCliques(rng, p);
        break;
    default:
        moved = SplitClique(rng, p);
        break;
    }
    if (!moved)
    {
        return false;
    }
    RemoveEmptyCliques(p);
    return true;
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
      m_exhaustivePairLimit(settings.exhaustivePairLimit),
      m_progressLabel(settings.progressLabel),
      m_progressOut(settings.progressOut ? settings.progressOut : &std::cerr),
      m_best(nullptr),
      m_deadline(settings.deadline)
{
    m_progress.SetPeriod(settings.progressSeconds);
}

void
ScheduleSearch::EnterStage(const std::string& stage)
{
    NS_LOG_FUNCTION(this << stage);
    m_stage = stage;
}

void
ScheduleSearch::OnWork()
{
    ReportProgress();
    if (m_best && std::chrono::steady_clock::now() >= m_deadline)
    {
        throw DeadlinePassed();
    }
}

void
ScheduleSearch::ReportProgress()
{
    if (!m_progress.TakeTurn())
    {
        return;
    }
    std::ostringstream line;
    line << "progress: " << (m_progressLabel.empty() ? "" : m_progressLabel + " ") << "optimiser "
         << m_stage << ": " << m_scorer.GetPartitionsScored() << " rounds estimated, "
         << m_scorer.GetSchedulesScored() << " schedules scored";
    if (m_best)
    {
        line << ", best " << std::fixed << std::setprecision(4) << m_best->timeToEpsilon << " s";
    }
    line << std::fixed << std::setprecision(1) << " wall=" << m_progress.GetElapsedSeconds()
         << "s\n";
    *m_progressOut << line.str() << std::flush;
}

ScheduleSearchResult
ScheduleSearch::Run()
{
    m_scorer.ResetSchedulesScored();

    // Progress lines while the search runs; the scorer forgets the callback however Run ends.
    struct WorkCallbackReset
    {
        ScheduleScorer& scorer; //!< the scorer calling back

        ~WorkCallbackReset()
        {
            scorer.SetWorkCallback(nullptr);
        }
    } reset{m_scorer};

    m_progress.Start();
    m_best = nullptr;
    if (m_progress.IsOn() || m_deadline != std::chrono::steady_clock::time_point::max())
    {
        m_scorer.SetWorkCallback([this] { OnWork(); });
    }
    ScheduleSearchResult result;
    uint32_t n = m_islands;
    EnterStage("baselines");

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
        KeepIfBetter(b, best);
    }
    // The global clique with the faster algorithm is always a candidate, and a row of its own:
    // the baseline row keeps DIRECT, so a best named after it would show another schedule.
    CliqueSchedule chosen = global;
    chosen.SetName(CHOSEN_GLOBAL_NAME);
    ScheduleCandidate chosenGlobal;
    if (m_scorer.Score(chosen, std::numeric_limits<double>::infinity(), "structured", chosenGlobal))
    {
        result.table.push_back(chosenGlobal);
        KeepIfBetter(chosenGlobal, best);
    }
    // The baselines are in: progress lines show the running best, and a deadline may stop.
    m_best = &best;

    try
    {
        EnterStage("exhaustive");
        SearchExhaustive(result, best);
        std::vector<ScheduleCandidate> starts;
        EnterStage("structured families");
        SearchStructured(result, best, starts);
        if (best.schedule.GetPeriod() >= 2)
        {
            starts.insert(starts.begin(), best);
        }
        EnterStage("local search");
        SearchLocal(result, best, starts);
    }
    catch (const DeadlinePassed&)
    {
        // The best so far stands; the stage that ran has no row of its own.
        NS_LOG_INFO("deadline passed in " << m_stage);
        result.stoppedIn = m_stage;
    }
    m_best = nullptr;

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

bool
ScheduleSearch::ScoreRounds(const std::vector<Partition>& rounds,
                            const std::string& name,
                            double bound,
                            const std::string& family,
                            ScheduleCandidate& out)
{
    return m_scorer.Score(CliqueSchedule(m_islands, rounds, name), bound, family, out);
}

void
ScheduleSearch::SearchExhaustive(ScheduleSearchResult& result, ScheduleCandidate& best)
{
    NS_LOG_FUNCTION(this);
    uint32_t n = m_islands;
    if (n > m_exhaustiveIslands || n < 2)
    {
        return;
    }
    std::vector<Partition> partitions = AllPartitions(n);
    std::vector<double> sync = SyncTimes(partitions);
    NS_LOG_INFO("exhaustive: " << partitions.size() << " partitions scored");

    // The first partition is the global clique.
    ScoreSinglePartition(partitions[0], result, best);
    if (m_maxPeriod < 2)
    {
        return;
    }
    SearchPairs(partitions, sync, result, best);
}

std::vector<double>
ScheduleSearch::SyncTimes(const std::vector<Partition>& partitions)
{
    NS_LOG_FUNCTION(this << partitions.size());
    std::vector<double> sync(partitions.size());
    for (size_t k = 0; k < partitions.size(); ++k)
    {
        sync[k] = m_scorer.GetSyncTime(partitions[k]);
    }
    return sync;
}

void
ScheduleSearch::ScoreSinglePartition(const Partition& partition,
                                     ScheduleSearchResult& result,
                                     ScheduleCandidate& best)
{
    NS_LOG_FUNCTION(this);
    // T = 1: a single partition mixes only if it is the global clique (W is a projection).
    ScheduleCandidate one;
    if (ScoreRounds({partition},
                    "exhaustive-T1",
                    std::numeric_limits<double>::infinity(),
                    "exhaustive",
                    one))
    {
        result.table.push_back(one);
        KeepIfBetter(one, best);
    }
}

void
ScheduleSearch::SearchPairs(const std::vector<Partition>& partitions,
                            const std::vector<double>& sync,
                            ScheduleSearchResult& result,
                            ScheduleCandidate& best)
{
    NS_LOG_FUNCTION(this << partitions.size());
    // T = 2: ordered pairs in increasing order of the faster partition's time; a pair costs at
    // least 2 compute phases plus both sync times, which bounds the rest of the loop.
    std::vector<uint32_t> order = PairCandidatesBySyncTime(partitions, sync, m_islands);
    PairStage stage;
    stage.best.timeToEpsilon = std::numeric_limits<double>::infinity();
    for (size_t a = 0; a < order.size() && !stage.truncated; ++a)
    {
        double ta = m_compute + sync[order[a]];
        if (2 * ta >= best.timeToEpsilon)
        {
            break;
        }
        ScorePairsFrom(a, order, partitions, sync, best, stage);
    }
    if (std::isfinite(stage.best.timeToEpsilon))
    {
        if (stage.truncated)
        {
            stage.best.family = "pairs (truncated)";
        }
        result.table.push_back(stage.best);
    }
    NS_LOG_INFO("exhaustive T=2: " << stage.evaluated << " pairs"
                                   << (stage.truncated ? " (truncated)" : ""));
}

void
ScheduleSearch::ScorePairsFrom(size_t a,
                               const std::vector<uint32_t>& order,
                               const std::vector<Partition>& partitions,
                               const std::vector<double>& sync,
                               ScheduleCandidate& best,
                               PairStage& stage)
{
    NS_LOG_FUNCTION(this << a);
    double ta = m_compute + sync[order[a]];
    for (size_t b = a + 1; b < order.size(); ++b)
    {
        double tb = m_compute + sync[order[b]];
        if (ta + tb >= best.timeToEpsilon)
        {
            break;
        }
        const Partition& pa = partitions[order[a]];
        const Partition& pb = partitions[order[b]];
        if (IsPairPruned(pa, pb, ta, tb, best.timeToEpsilon))
        {
            continue;
        }
        if (++stage.evaluated > m_exhaustivePairLimit)
        {
            stage.truncated = true;
            break;
        }
        ScorePairOrders(pa, pb, best, stage.best);
    }
}

bool
ScheduleSearch::IsPairPruned(const Partition& pa,
                             const Partition& pb,
                             double ta,
                             double tb,
                             double bound) const
{
    if (!CliqueMixing::IsMixing(m_islands, pa, pb))
    {
        return true;
    }
    size_t k = LargestClique(pa, pb);
    uint64_t rlb = std::max<uint64_t>(2, ScheduleScorer::SpreadLowerBound(m_islands, k, m_epsilon));
    return ((rlb + 1) / 2) * ta + (rlb / 2) * tb >= bound;
}

void
ScheduleSearch::ScorePairOrders(const Partition& pa,
                                const Partition& pb,
                                ScheduleCandidate& best,
                                ScheduleCandidate& pairBest)
{
    for (int order = 0; order < 2; ++order)
    {
        std::vector<Partition> rounds =
            order == 0 ? std::vector<Partition>{pa, pb} : std::vector<Partition>{pb, pa};
        ScheduleCandidate c;
        if (ScoreRounds(rounds, "exhaustive-T2", best.timeToEpsilon, "exhaustive", c) &&
            KeepIfBetter(c, best))
        {
            pairBest = c;
        }
    }
}

void
ScheduleSearch::SearchStructured(ScheduleSearchResult& result,
                                 ScheduleCandidate& best,
                                 std::vector<ScheduleCandidate>& starts)
{
    NS_LOG_FUNCTION(this);
    if (m_islands < 4 || m_maxPeriod < 2)
    {
        return;
    }
    // Candidate schedules as (name, rounds).
    std::vector<NamedRounds> families;
    for (const NamedOrder& order : IslandOrders())
    {
        AddGridFamilies(order, families);
        AddClusterFamilies(order, families);
        AddShiftedFamilies(order, families);
    }
    for (auto& [period, list] : ScoreFamilies(families, best))
    {
        // The period's best in the table, its first few as local-search starts.
        std::vector<ScheduleCandidate> distinct = DistinctBestFirst(std::move(list));
        result.table.push_back(distinct.front());
        for (size_t k = 0; k < distinct.size() && k < STARTS_PER_PERIOD; ++k)
        {
            starts.push_back(distinct[k]);
        }
    }
}

std::vector<ScheduleSearch::NamedOrder>
ScheduleSearch::IslandOrders() const
{
    NS_LOG_FUNCTION(this);
    std::vector<uint32_t> identity(m_islands);
    std::iota(identity.begin(), identity.end(), 0);
    std::vector<NamedOrder> orders{{"index", identity}};
    std::vector<uint32_t> delay = DelayOrder();
    if (delay != identity)
    {
        orders.emplace_back("delay", delay);
    }
    return orders;
}

void
ScheduleSearch::AddGridFamilies(const NamedOrder& order, std::vector<NamedRounds>& families) const
{
    NS_LOG_FUNCTION(this << order.first);
    uint32_t n = m_islands;
    // Every distinct order of the factors is tried (which one is local).
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
                    rounds.push_back(FromLabels(order.second, GridLabels(n, dims, r)));
                }
                families.emplace_back(GridName(dims, order.first), rounds);
            } while (std::next_permutation(dims.begin(), dims.end()));
        }
    }
}

void
ScheduleSearch::AddClusterFamilies(const NamedOrder& order,
                                   std::vector<NamedRounds>& families) const
{
    NS_LOG_FUNCTION(this << order.first);
    uint32_t n = m_islands;
    for (uint32_t s = 2; s <= n / 2; ++s)
    {
        std::vector<uint32_t> block(n);
        std::vector<uint32_t> across(n);
        for (uint32_t pos = 0; pos < n; ++pos)
        {
            block[pos] = pos / s;
            across[pos] = pos % s;
        }
        families.emplace_back("clusters-" + std::to_string(s) + "-" + order.first,
                              std::vector<Partition>{FromLabels(order.second, block),
                                                     FromLabels(order.second, across)});
    }
}

void
ScheduleSearch::AddShiftedFamilies(const NamedOrder& order,
                                   std::vector<NamedRounds>& families) const
{
    NS_LOG_FUNCTION(this << order.first);
    uint32_t n = m_islands;
    for (uint32_t t = 2; t <= m_maxPeriod; ++t)
    {
        for (uint32_t s = 2; s < n; ++s)
        {
            std::vector<Partition> rounds;
            for (uint32_t r = 0; r < t; ++r)
            {
                uint32_t shift = (r * s) / t;
                rounds.push_back(FromLabels(order.second, ShiftedLabels(n, s, shift)));
            }
            families.emplace_back("shifted-" + std::to_string(s) + "-T" + std::to_string(t) + "-" +
                                      order.first,
                                  rounds);
        }
    }
}

std::map<uint32_t, std::vector<ScheduleCandidate>>
ScheduleSearch::ScoreFamilies(const std::vector<NamedRounds>& families, ScheduleCandidate& best)
{
    NS_LOG_FUNCTION(this << families.size());
    std::map<uint32_t, std::vector<ScheduleCandidate>> byPeriod;
    for (const auto& [name, rounds] : families)
    {
        ScheduleCandidate c;
        double bound = std::isfinite(best.timeToEpsilon) ? START_SLACK * best.timeToEpsilon
                                                         : std::numeric_limits<double>::infinity();
        if (!ScoreRounds(rounds, name, bound, "structured", c) || !std::isfinite(c.timeToEpsilon))
        {
            continue;
        }
        byPeriod[c.schedule.GetPeriod()].push_back(c);
        KeepIfBetter(c, best);
    }
    return byPeriod;
}

void
ScheduleSearch::SearchLocal(ScheduleSearchResult& result,
                            ScheduleCandidate& best,
                            const std::vector<ScheduleCandidate>& starts)
{
    NS_LOG_FUNCTION(this << starts.size());
    if (starts.empty() || m_localIterations == 0)
    {
        return;
    }
    // std::mt19937's output sequence is fixed by the standard; the mapping to ranges (Pick())
    // is ours, so results are identical on every platform.
    std::mt19937 rng(m_seed);
    uint32_t perStart = std::max<uint32_t>(1, m_localIterations / starts.size());
    bool improvedAny = false;
    ScheduleCandidate localBest;
    for (const auto& start : starts)
    {
        if (ClimbFrom(start, perStart, rng, best, localBest))
        {
            improvedAny = true;
        }
    }
    if (improvedAny)
    {
        result.table.push_back(localBest);
    }
}

bool
ScheduleSearch::ClimbFrom(const ScheduleCandidate& start,
                          uint32_t moves,
                          std::mt19937& rng,
                          ScheduleCandidate& best,
                          ScheduleCandidate& localBest)
{
    NS_LOG_FUNCTION(this << moves);
    bool improved = false;
    ScheduleCandidate current = start;
    for (uint32_t it = 0; it < moves; ++it)
    {
        std::vector<Partition> rounds = current.schedule.GetRounds();
        if (!RandomNeighbour(current.schedule, m_islands, rng, rounds))
        {
            continue;
        }
        ScheduleCandidate c;
        if (ScoreRounds(rounds, "local-search", current.timeToEpsilon, "local-search", c))
        {
            current = c;
            if (KeepIfBetter(c, best))
            {
                localBest = c;
                improved = true;
            }
        }
    }
    return improved;
}

} // namespace ns3
