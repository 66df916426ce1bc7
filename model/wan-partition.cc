/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-partition.h"

#include "wan-routing.h"
#include "wan-topology.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanPartition");

namespace
{

/** Partition search state: cities' loads and the links. */
struct PartitionProblem
{
    const std::vector<double>& load;        //!< per city
    const std::vector<double>& linkPackets; //!< per link
    const std::vector<WanLink>& links;      //!< the WAN links
    uint32_t ranks;                         //!< R
    /** Second pass: loads up to this count as balanced and lookahead decides; first pass:
     *  infinity (load decides). */
    double balanced;
};

/** Quality of an assignment: smaller max load, then larger lookahead. */
struct PartitionScore
{
    double maxLoad{std::numeric_limits<double>::infinity()}; //!< largest rank load
    double lookahead{0};                                     //!< smallest crossing delay, s
    bool valid{false};                                       //!< every rank used, no 0-delay cut
};

/** \param p the problem \param rank city to rank \return its score */
PartitionScore
Score(const PartitionProblem& p, const std::vector<uint32_t>& rank)
{
    PartitionScore score;
    std::vector<double> load(p.ranks, 0.0);
    for (uint32_t c = 0; c < rank.size(); ++c)
    {
        load[rank[c]] += p.load[c];
    }
    for (uint32_t r = 0; r < p.ranks; ++r)
    {
        if (std::find(rank.begin(), rank.end(), r) == rank.end())
        {
            return score; // a rank without cities
        }
    }
    score.lookahead = std::numeric_limits<double>::infinity();
    for (uint32_t l = 0; l < p.links.size(); ++l)
    {
        const WanLink& link = p.links[l];
        if (rank[link.a] != rank[link.b])
        {
            if (link.delay <= 0)
            {
                return score; // no lookahead across this link
            }
            score.lookahead = std::min(score.lookahead, link.delay);
            load[rank[link.a]] += p.linkPackets[l] * WanPartition::CROSS_PACKET_WORK;
            load[rank[link.b]] += p.linkPackets[l] * WanPartition::CROSS_PACKET_WORK;
        }
    }
    score.maxLoad = *std::max_element(load.begin(), load.end());
    score.valid = true;
    return score;
}

/**
 * \param p the problem (its balanced bound) \param a a score \param b another
 * \return whether a is strictly better: in the first pass a smaller largest load, then a
 *         larger lookahead; in the second, among loads within the bound, a larger lookahead,
 *         then a smaller largest load
 */
bool
Better(const PartitionProblem& p, const PartitionScore& a, const PartitionScore& b)
{
    const bool aIn = a.valid && a.maxLoad <= p.balanced;
    const bool bIn = b.valid && b.maxLoad <= p.balanced;
    if (aIn != bIn)
    {
        return aIn;
    }
    if (!std::isinf(p.balanced) && a.lookahead != b.lookahead)
    {
        return a.lookahead > b.lookahead;
    }
    if (a.maxLoad != b.maxLoad)
    {
        return a.maxLoad < b.maxLoad;
    }
    return a.lookahead > b.lookahead;
}

/**
 * \brief Try every assignment whose ranks appear in first-use order (each set of cities
 *        once), from city c on.
 * \param p the problem \param c next city \param used ranks used so far
 * \param rank the assignment being built \param best best so far \param bestScore its score
 */
void
Search(const PartitionProblem& p,
       uint32_t c,
       uint32_t used,
       std::vector<uint32_t>& rank,
       std::vector<uint32_t>& best,
       PartitionScore& bestScore)
{
    if (c == rank.size())
    {
        const PartitionScore score = Score(p, rank);
        if (Better(p, score, bestScore))
        {
            bestScore = score;
            best = rank;
        }
        return;
    }
    // Enough cities must remain to use every rank.
    const uint32_t remaining = rank.size() - c;
    for (uint32_t r = 0; r <= std::min(used, p.ranks - 1); ++r)
    {
        const uint32_t nowUsed = std::max(used, r + 1);
        if (p.ranks - nowUsed > remaining - 1)
        {
            continue;
        }
        rank[c] = r;
        Search(p, c + 1, nowUsed, rank, best, bestScore);
    }
}

} // namespace

void
WanPartition::CheckRanks(uint32_t ranks, uint32_t cities)
{
    NS_LOG_FUNCTION(ranks << cities);
    if (ranks < 1 || ranks > cities)
    {
        throw std::invalid_argument("ranks: " + std::to_string(ranks) + ": expected 1 to " +
                                    std::to_string(cities) + " (the number of cities)");
    }
}

std::vector<uint32_t>
WanPartition::Balance(const WanTopology& topology,
                      const std::vector<double>& cityLoad,
                      const std::vector<double>& linkPackets,
                      uint32_t ranks)
{
    NS_LOG_FUNCTION(ranks);
    const uint32_t n = topology.GetCities().size();
    CheckRanks(ranks, n);
    if (cityLoad.size() != n)
    {
        throw std::invalid_argument("city loads: " + std::to_string(cityLoad.size()) +
                                    " values for " + std::to_string(n) + " cities");
    }
    if (linkPackets.size() != topology.GetLinks().size())
    {
        throw std::invalid_argument("link loads: " + std::to_string(linkPackets.size()) +
                                    " values for " + std::to_string(topology.GetLinks().size()) +
                                    " links");
    }
    PartitionProblem problem{cityLoad,
                             linkPackets,
                             topology.GetLinks(),
                             ranks,
                             std::numeric_limits<double>::infinity()};
    std::vector<uint32_t> best(n, 0);
    PartitionScore bestScore;
    if (std::pow(double(ranks), double(n - 1)) <= double(MAX_EXHAUSTIVE))
    {
        // First the best balance, then the largest lookahead among the nearly as balanced.
        std::vector<uint32_t> rank(n, 0);
        Search(problem, 0, 0, rank, best, bestScore);
        if (bestScore.valid)
        {
            problem.balanced = bestScore.maxLoad * (1 + LOAD_TOLERANCE);
            bestScore = PartitionScore();
            Search(problem, 0, 0, rank, best, bestScore);
        }
    }
    else
    {
        // Longest load first onto the least loaded rank.
        std::vector<uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&cityLoad](uint32_t a, uint32_t b) {
            return cityLoad[a] > cityLoad[b];
        });
        std::vector<double> load(ranks, 0.0);
        for (uint32_t c : order)
        {
            const auto r =
                static_cast<uint32_t>(std::min_element(load.begin(), load.end()) - load.begin());
            best[c] = r;
            load[r] += cityLoad[c];
        }
        bestScore = Score(problem, best);
    }
    if (!bestScore.valid)
    {
        throw std::invalid_argument("ranks: " + std::to_string(ranks) +
                                    ": no assignment of the cities of '" + topology.GetName() +
                                    "' puts only links with a positive delay between ranks");
    }
    return best;
}

std::vector<uint32_t>
WanPartition::Parse(const std::string& spec, const WanTopology& topology, uint32_t ranks)
{
    NS_LOG_FUNCTION(spec << ranks);
    const std::vector<WanCity>& cities = topology.GetCities();
    CheckRanks(ranks, cities.size());
    const uint32_t unset = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> rank(cities.size(), unset);
    std::istringstream items(spec);
    std::string item;
    while (std::getline(items, item, ','))
    {
        const size_t colon = item.find(':');
        const std::string code = item.substr(0, colon);
        const std::string value = colon == std::string::npos ? "" : item.substr(colon + 1);
        const auto city = std::find_if(cities.begin(), cities.end(), [&code](const WanCity& c) {
            return c.code == code;
        });
        if (city == cities.end())
        {
            throw std::invalid_argument("--partition: '" + item + "': no city '" + code +
                                        "' in topology '" + topology.GetName() + "'");
        }
        const uint32_t c = static_cast<uint32_t>(city - cities.begin());
        if (rank[c] != unset)
        {
            throw std::invalid_argument("--partition: city '" + code + "' given twice");
        }
        if (value.empty() || value.size() > 9 ||
            value.find_first_not_of("0123456789") != std::string::npos ||
            std::stoul(value) >= ranks)
        {
            throw std::invalid_argument("--partition: '" + item + "': expected CITY:RANK with " +
                                        "RANK from 0 to " + std::to_string(ranks - 1));
        }
        rank[c] = static_cast<uint32_t>(std::stoul(value));
    }
    for (uint32_t c = 0; c < cities.size(); ++c)
    {
        if (rank[c] == unset)
        {
            throw std::invalid_argument("--partition: city '" + cities[c].code +
                                        "' has no rank (every city needs one)");
        }
    }
    for (uint32_t r = 0; r < ranks; ++r)
    {
        if (std::find(rank.begin(), rank.end(), r) == rank.end())
        {
            throw std::invalid_argument("--partition: rank " + std::to_string(r) +
                                        " has no city (every rank needs one)");
        }
    }
    for (const WanLink& link : topology.GetLinks())
    {
        if (rank[link.a] != rank[link.b] && link.delay <= 0)
        {
            throw std::invalid_argument("--partition: the link " + cities[link.a].code + "-" +
                                        cities[link.b].code +
                                        " has no delay and cannot join two ranks");
        }
    }
    return rank;
}

Time
WanPartition::GetLookahead(const WanTopology& topology, const std::vector<uint32_t>& cityRanks)
{
    int64_t smallest = std::numeric_limits<int64_t>::max();
    for (const WanLink& link : topology.GetLinks())
    {
        if (cityRanks.at(link.a) != cityRanks.at(link.b))
        {
            smallest = std::min(smallest, WanRouting::ToNanoSeconds(link.delay));
        }
    }
    return smallest == std::numeric_limits<int64_t>::max() ? Time(0) : NanoSeconds(smallest);
}

std::string
WanPartition::Format(const WanTopology& topology, const std::vector<uint32_t>& cityRanks)
{
    std::ostringstream os;
    for (uint32_t c = 0; c < cityRanks.size(); ++c)
    {
        os << (c == 0 ? "" : ",") << topology.GetCities().at(c).code << ":" << cityRanks[c];
    }
    return os.str();
}

std::string
WanPartition::Describe(const WanTopology& topology, const std::vector<uint32_t>& cityRanks)
{
    std::ostringstream os;
    os << Format(topology, cityRanks) << ", lookahead "
       << GetLookahead(topology, cityRanks).As(Time::MS);
    return os.str();
}

void
WanPartition::Check(const std::string& spec, const WanTopology& topology, uint32_t ranks)
{
    NS_LOG_FUNCTION(spec << ranks);
    CheckRanks(ranks, topology.GetCities().size());
    if (!spec.empty())
    {
        Parse(spec, topology, ranks);
    }
}

} // namespace ns3
