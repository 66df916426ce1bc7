/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest units for WanTopologyGenerator. Every property is checked independently of the
 * generator's code: connectivity by a breadth-first search written here, k-nearest links by
 * sorting great-circle distances here, the joins between components by Kruskal's algorithm
 * (the generator uses Prim's), degree counts and link counts from formulas worked out by hand
 * in the comments, and random draws from std::mt19937_64 run here.
 */

#include "ns3/wan-routing.h"
#include "ns3/wan-topology-generator.h"
#include "ns3/wan-topology-json.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/** City counts every family is run at: the smallest, odd and even, squares, and 256. */
const uint32_t SIZES[] = {2, 3, 4, 5, 7, 12, 16, 33, 64, 256};
/** Seeds every family is run with. */
const uint64_t SEEDS[] = {1, 2, 12345};
/** One Gbps in bits per second. */
constexpr uint64_t GBPS = 1000000000;
/** One Mbps in bits per second. */
constexpr uint64_t MBPS = 1000000;

/** \param family a family \param cities a size \param seed a seed \return parameters */
WanTopologyGeneratorParams
Params(const std::string& family, uint32_t cities, uint64_t seed = 1)
{
    WanTopologyGeneratorParams p;
    p.family = family;
    p.cities = cities;
    p.seed = seed;
    return p;
}

/** \param t a topology \return each city's neighbours */
std::vector<std::set<uint32_t>>
Neighbours(const WanTopology& t)
{
    std::vector<std::set<uint32_t>> adj(t.GetCities().size());
    for (const auto& l : t.GetLinks())
    {
        adj[l.a].insert(l.b);
        adj[l.b].insert(l.a);
    }
    return adj;
}

/**
 * \brief Breadth-first search over links between cities of a group.
 * \param t a topology \param group the cities considered (all others are ignored)
 * \return true if every city of the group is reached from the first
 */
bool
Connected(const WanTopology& t, const std::vector<uint32_t>& group)
{
    const std::set<uint32_t> members(group.begin(), group.end());
    const auto adj = Neighbours(t);
    std::set<uint32_t> seen{group.front()};
    std::vector<uint32_t> queue{group.front()};
    for (std::size_t head = 0; head < queue.size(); ++head)
    {
        for (uint32_t next : adj[queue[head]])
        {
            if (members.count(next) && seen.insert(next).second)
            {
                queue.push_back(next);
            }
        }
    }
    return seen.size() == members.size();
}

/** \param t a topology \return every city index */
std::vector<uint32_t>
AllCities(const WanTopology& t)
{
    std::vector<uint32_t> all(t.GetCities().size());
    for (uint32_t i = 0; i < all.size(); ++i)
    {
        all[i] = i;
    }
    return all;
}

/** \param t a topology \param prefix a code's first letter \return the cities coded so */
std::vector<uint32_t>
CitiesWithPrefix(const WanTopology& t, char prefix)
{
    std::vector<uint32_t> found;
    for (uint32_t i = 0; i < t.GetCities().size(); ++i)
    {
        if (t.GetCities()[i].code[0] == prefix)
        {
            found.push_back(i);
        }
    }
    return found;
}

/** \param t a topology \param a a city \param b a city \return great-circle distance, km */
double
Km(const WanTopology& t, uint32_t a, uint32_t b)
{
    const auto& ca = t.GetCities()[a];
    const auto& cb = t.GetCities()[b];
    return WanTopology::GreatCircleKm(ca.latitude, ca.longitude, cb.latitude, cb.longitude);
}

/** \param t a topology \return degree -> number of cities with that degree */
std::map<std::size_t, uint32_t>
DegreeHistogram(const WanTopology& t)
{
    std::map<std::size_t, uint32_t> histogram;
    for (const auto& n : Neighbours(t))
    {
        ++histogram[n.size()];
    }
    return histogram;
}

/**
 * \brief The k-nearest edges of a group, computed here: each city with the min(k, n-1)
 *        others nearest by great circle (ties by index).
 * \param t a topology \param group cities \param k neighbours \return edges as (low, high)
 */
std::set<std::pair<uint32_t, uint32_t>>
NearestEdges(const WanTopology& t, const std::vector<uint32_t>& group, uint32_t k)
{
    std::set<std::pair<uint32_t, uint32_t>> edges;
    for (uint32_t city : group)
    {
        std::vector<std::pair<double, uint32_t>> others;
        for (uint32_t other : group)
        {
            if (other != city)
            {
                others.emplace_back(Km(t, city, other), other);
            }
        }
        std::sort(others.begin(), others.end());
        for (std::size_t i = 0; i < std::min<std::size_t>(k, others.size()); ++i)
        {
            edges.insert({std::min(city, others[i].second), std::max(city, others[i].second)});
        }
    }
    return edges;
}

/**
 * \brief The links that join the components of the k-nearest graph, by Kruskal's algorithm:
 *        all pairs by distance, take a pair when it joins two components.
 * \param t a topology \param group cities \param nearest the group's k-nearest edges
 * \return the joining edges as (low, high)
 */
std::set<std::pair<uint32_t, uint32_t>>
KruskalJoins(const WanTopology& t,
             const std::vector<uint32_t>& group,
             const std::set<std::pair<uint32_t, uint32_t>>& nearest)
{
    std::map<uint32_t, uint32_t> parent;
    for (uint32_t c : group)
    {
        parent[c] = c;
    }
    auto find = [&parent](uint32_t x) {
        while (parent[x] != x)
        {
            x = parent[x];
        }
        return x;
    };
    for (const auto& e : nearest)
    {
        parent[find(e.first)] = find(e.second);
    }
    std::vector<std::pair<double, std::pair<uint32_t, uint32_t>>> pairs;
    for (std::size_t i = 0; i < group.size(); ++i)
    {
        for (std::size_t j = i + 1; j < group.size(); ++j)
        {
            const uint32_t a = std::min(group[i], group[j]);
            const uint32_t b = std::max(group[i], group[j]);
            pairs.push_back({Km(t, a, b), {a, b}});
        }
    }
    std::sort(pairs.begin(), pairs.end());
    std::set<std::pair<uint32_t, uint32_t>> joins;
    for (const auto& p : pairs)
    {
        const uint32_t ra = find(p.second.first);
        const uint32_t rb = find(p.second.second);
        if (ra != rb)
        {
            parent[ra] = rb;
            joins.insert(p.second);
        }
    }
    return joins;
}

/** \param t a topology \param group cities \return the links inside the group as (low, high) */
std::set<std::pair<uint32_t, uint32_t>>
LinksWithin(const WanTopology& t, const std::vector<uint32_t>& group)
{
    const std::set<uint32_t> members(group.begin(), group.end());
    std::set<std::pair<uint32_t, uint32_t>> links;
    for (const auto& l : t.GetLinks())
    {
        if (members.count(l.a) && members.count(l.b))
        {
            links.insert({std::min(l.a, l.b), std::max(l.a, l.b)});
        }
    }
    return links;
}

/**
 * \brief Check the geometric rule on a group: exactly its k-nearest links plus the Kruskal
 *        joins of their components.
 * \param t a topology \param group cities \param k neighbours
 */
void
ExpectNearestPlusJoins(const WanTopology& t, const std::vector<uint32_t>& group, uint32_t k)
{
    const auto nearest = NearestEdges(t, group, k);
    const auto joins = KruskalJoins(t, group, nearest);
    auto expected = nearest;
    expected.insert(joins.begin(), joins.end());
    EXPECT_EQ(LinksWithin(t, group), expected) << group.size() << " cities, k " << k;
    EXPECT_TRUE(Connected(t, group));
}

/**
 * \brief Run a check on every family, size and seed.
 * \param check called with the family, the size, the seed and the topology
 * \param tune optional change to the parameters before generating
 */
template <typename Check>
void
ForEachTopology(Check check, void (*tune)(WanTopologyGeneratorParams&) = nullptr)
{
    for (const auto& family : WanTopologyGenerator::Families())
    {
        for (uint32_t n : SIZES)
        {
            for (uint64_t seed : SEEDS)
            {
                auto p = Params(family, n, seed);
                if (tune != nullptr)
                {
                    tune(p);
                }
                SCOPED_TRACE(family + " " + std::to_string(n) + " cities, seed " +
                             std::to_string(seed));
                check(family, n, seed, WanTopologyGenerator::Generate(p));
            }
        }
    }
}

/**
 * \brief Expect a WanTopologyError whose message names the field and the value.
 * \param p parameters \param field the parameter's name \param value its value as printed
 */
void
ExpectRejected(const WanTopologyGeneratorParams& p,
               const std::string& field,
               const std::string& value)
{
    try
    {
        WanTopologyGenerator::Generate(p);
        ADD_FAILURE() << "no error for " << field << " = " << value;
    }
    catch (const WanTopologyError& e)
    {
        const std::string message = e.what();
        EXPECT_NE(message.find("WanTopologyGenerator: " + field + ": " + value + ": "),
                  std::string::npos)
            << message;
    }
}

} // namespace

TEST(WanTopologyGenerator, FamiliesAreTheDocumentedSix)
{
    const std::vector<std::string> expected{"geometric",
                                            "ring",
                                            "hub",
                                            "grid",
                                            "continents",
                                            "backbone"};
    EXPECT_EQ(WanTopologyGenerator::Families(), expected);
}

TEST(WanTopologyGenerator, EveryTopologyIsConnectedValidAndExact)
{
    ForEachTopology(
        [](const std::string& family, uint32_t n, uint64_t seed, const WanTopology& t) {
            ASSERT_EQ(t.GetCities().size(), n);
            EXPECT_TRUE(Connected(t, AllCities(t)));
            EXPECT_NO_THROW(t.Validate());
            EXPECT_EQ(t.GetName(),
                      family + "-" + std::to_string(n) + "-seed" + std::to_string(seed));
            // Codes: a role letter and the index, zero-padded to at least two digits.
            const std::size_t width = n > 100 ? 3 : 2;
            std::set<std::string> codes;
            for (uint32_t i = 0; i < n; ++i)
            {
                const std::string& code = t.GetCities()[i].code;
                EXPECT_EQ(code.size(), 1 + width) << code;
                EXPECT_EQ(std::stoul(code.substr(1)), i) << code;
                codes.insert(code);
            }
            EXPECT_EQ(codes.size(), n);
            // Two islands per city (tuned below), named <code>-0 and <code>-1.
            ASSERT_EQ(t.GetIslands().size(), 2 * n);
            for (uint32_t i = 0; i < 2 * n; ++i)
            {
                const auto& island = t.GetIslands()[i];
                EXPECT_EQ(island.city, i / 2);
                EXPECT_EQ(island.name, t.GetCities()[i / 2].code + "-" + std::to_string(i % 2));
                EXPECT_EQ(island.accessBps, 10 * GBPS);
                EXPECT_EQ(island.accessDelay, 50e-6);
            }
            // Delays: great circle over the speed of light in fibre, times 1.3, in whole ns.
            for (const auto& l : t.GetLinks())
            {
                const double physical = Km(t, l.a, l.b) / (299792.458 / 1.468) * 1.3;
                EXPECT_NEAR(l.delay, physical, 0.5e-9);
                EXPECT_NEAR(l.delay * 1e9, std::round(l.delay * 1e9), 1e-6); // whole ns
                EXPECT_EQ(l.bps, 100 * GBPS);
            }
        },
        [](WanTopologyGeneratorParams& p) { p.islandsPerCity = 2; });
}

TEST(WanTopologyGenerator, JsonRoundTripsAndRoutes)
{
    ForEachTopology([](const std::string& family, uint32_t n, uint64_t, const WanTopology& t) {
        const std::string json = WanTopologyJson::ToJson(t);
        const WanTopology back = WanTopologyJson::Parse(json, family);
        EXPECT_EQ(WanTopologyJson::ToJson(back), json);
        EXPECT_EQ(back.GetLinks().size(), t.GetLinks().size());
        // The routing the simulator uses finds a path between the first and the last city
        // (up to 64 cities: its all-pairs tables make 256 cities slow in a unit test).
        if (n <= 64)
        {
            const WanRouting routing(t);
            EXPECT_GE(routing.GetCityPath(0, n - 1).size(), 2U);
        }
    });
}

TEST(WanTopologyGenerator, SameSeedSameTopologyOtherSeedOtherTopology)
{
    // Compared without the name and description, which name the seed themselves.
    auto withoutName = [](const WanTopologyGeneratorParams& p) {
        WanTopology t = WanTopologyGenerator::Generate(p);
        t.SetName("");
        t.SetDescription("");
        return WanTopologyJson::ToJson(t);
    };
    for (const auto& family : WanTopologyGenerator::Families())
    {
        for (uint32_t n : {2U, 5U, 64U})
        {
            SCOPED_TRACE(family + " " + std::to_string(n));
            auto p = Params(family, n, 7);
            p.wanBpsMax = 200 * GBPS; // gives the grid, whose lattice is fixed, a random part
            const std::string first = WanTopologyJson::ToJson(WanTopologyGenerator::Generate(p));
            EXPECT_EQ(WanTopologyJson::ToJson(WanTopologyGenerator::Generate(p)), first);
            const std::string anonymous = withoutName(p);
            for (uint64_t other : {uint64_t{8}, uint64_t{7} + (uint64_t{1} << 32)})
            {
                p.seed = other;
                EXPECT_NE(withoutName(p), anonymous) << other;
            }
        }
    }
    // Without spreads or partial capabilities the grid's seed changes nothing but the name.
    auto grid = Params("grid", 9, 1);
    WanTopology first = WanTopologyGenerator::Generate(grid);
    grid.seed = 2;
    WanTopology second = WanTopologyGenerator::Generate(grid);
    EXPECT_NE(WanTopologyJson::ToJson(first), WanTopologyJson::ToJson(second));
    for (WanTopology* t : {&first, &second})
    {
        t->SetName("");
        t->SetDescription("");
    }
    EXPECT_EQ(WanTopologyJson::ToJson(first), WanTopologyJson::ToJson(second));
}

TEST(WanTopologyGenerator, RatesIslandsAndCapabilitiesLeaveThePlacesAlone)
{
    // Each aspect draws from its own stream: the same seed with other rate spreads, island
    // counts or capability shares gives the same cities (positions) and the same links.
    for (const auto& family : WanTopologyGenerator::Families())
    {
        const auto plain = WanTopologyGenerator::Generate(Params(family, 40, 21));
        auto p = Params(family, 40, 21);
        p.wanBpsMax = 400 * GBPS;
        p.maxIslandsPerCity = 5;
        p.accessBpsMax = 100 * GBPS;
        p.multicastFraction = 0.3;
        p.fpgaFraction = 0.6;
        const auto varied = WanTopologyGenerator::Generate(p);
        ASSERT_EQ(varied.GetCities().size(), plain.GetCities().size());
        for (std::size_t i = 0; i < plain.GetCities().size(); ++i)
        {
            EXPECT_EQ(varied.GetCities()[i].latitude, plain.GetCities()[i].latitude) << family;
            EXPECT_EQ(varied.GetCities()[i].longitude, plain.GetCities()[i].longitude) << family;
        }
        ASSERT_EQ(varied.GetLinks().size(), plain.GetLinks().size()) << family;
        for (std::size_t i = 0; i < plain.GetLinks().size(); ++i)
        {
            EXPECT_EQ(varied.GetLinks()[i].a, plain.GetLinks()[i].a) << family;
            EXPECT_EQ(varied.GetLinks()[i].b, plain.GetLinks()[i].b) << family;
            EXPECT_EQ(varied.GetLinks()[i].delay, plain.GetLinks()[i].delay) << family;
        }
    }
}

TEST(WanTopologyGenerator, DrawsAreIntegerMappingsOfMt19937_64)
{
    // The ring's first draw is city 0's latitude from the placement stream (stream 0, seeded
    // from std::seed_seq{low 32 bits of the seed, high 32 bits, 0}): -40 degrees plus a whole
    // number of micro-degrees below 100 000 001, from the engine's first output that is not
    // among the rejected lowest 2^64 mod 100 000 001 values.
    for (uint64_t seed : {uint64_t{1}, uint64_t{2}, uint64_t{0x123456789abcdefULL}})
    {
        std::seed_seq sequence{static_cast<uint32_t>(seed & 0xffffffffU),
                               static_cast<uint32_t>(seed >> 32),
                               0U};
        std::mt19937_64 engine(sequence);
        const uint64_t range = 100000001;
        const uint64_t rejected = (0 - range) % range;
        uint64_t x = engine();
        while (x < rejected)
        {
            x = engine();
        }
        const int64_t micro = -40000000 + static_cast<int64_t>(x % range);
        const auto t = WanTopologyGenerator::Generate(Params("ring", 5, seed));
        EXPECT_EQ(t.GetCities()[0].latitude, static_cast<double>(micro) / 1e6) << seed;
    }
}

TEST(WanTopologyGenerator, GeometricLinksEachCityToItsKNearest)
{
    for (uint32_t n : {2U, 3U, 5U, 16U, 64U, 256U})
    {
        for (uint32_t k : {1U, 2U, 3U, 5U})
        {
            for (uint64_t seed : SEEDS)
            {
                auto p = Params("geometric", n, seed);
                p.k = k;
                const auto t = WanTopologyGenerator::Generate(p);
                SCOPED_TRACE(std::to_string(n) + " cities, k " + std::to_string(k) + ", seed " +
                             std::to_string(seed));
                ExpectNearestPlusJoins(t, AllCities(t), k);
                for (const auto& c : t.GetCities())
                {
                    EXPECT_EQ(c.code[0], 'G');
                }
            }
        }
    }
}

TEST(WanTopologyGenerator, GeometricJoinsComponents)
{
    // With k = 1 and 256 cities in six land regions the nearest-neighbour graph falls apart
    // (at least one component per region), so the joins are exercised: count them.
    auto p = Params("geometric", 256, 3);
    p.k = 1;
    const auto t = WanTopologyGenerator::Generate(p);
    const auto nearest = NearestEdges(t, AllCities(t), 1);
    const auto joins = KruskalJoins(t, AllCities(t), nearest);
    EXPECT_GE(joins.size(), 5U);
    EXPECT_EQ(t.GetLinks().size(), nearest.size() + joins.size());
}

TEST(WanTopologyGenerator, RingHasDegreeTwo)
{
    for (uint32_t n : SIZES)
    {
        const auto t = WanTopologyGenerator::Generate(Params("ring", n, 4));
        SCOPED_TRACE(n);
        const auto adj = Neighbours(t);
        if (n == 2)
        {
            EXPECT_EQ(t.GetLinks().size(), 1U); // a ring of two is one link
            continue;
        }
        EXPECT_EQ(t.GetLinks().size(), n);
        for (uint32_t i = 0; i < n; ++i)
        {
            EXPECT_EQ(adj[i], (std::set<uint32_t>{(i + 1) % n, (i + n - 1) % n})) << i;
            if (i > 0)
            {
                EXPECT_GT(t.GetCities()[i].longitude, t.GetCities()[i - 1].longitude);
            }
        }
    }
}

TEST(WanTopologyGenerator, HubsAreMeshedAndSpokesJoinTheNearestHub)
{
    for (uint32_t n : SIZES)
    {
        for (uint32_t hubs : {1U, 2U, 4U})
        {
            if (hubs >= n)
            {
                continue;
            }
            auto p = Params("hub", n, 5);
            p.hubs = hubs;
            const auto t = WanTopologyGenerator::Generate(p);
            SCOPED_TRACE(std::to_string(n) + " cities, " + std::to_string(hubs) + " hubs");
            const auto hubCities = CitiesWithPrefix(t, 'H');
            const auto spokes = CitiesWithPrefix(t, 'S');
            ASSERT_EQ(hubCities.size(), hubs);
            ASSERT_EQ(spokes.size(), n - hubs);
            EXPECT_EQ(t.GetLinks().size(), hubs * (hubs - 1) / 2 + (n - hubs));
            EXPECT_EQ(LinksWithin(t, hubCities).size(), hubs * (hubs - 1) / 2);
            const auto adj = Neighbours(t);
            for (uint32_t s : spokes)
            {
                uint32_t nearest = hubCities.front();
                for (uint32_t h : hubCities)
                {
                    nearest = Km(t, s, h) < Km(t, s, nearest) ? h : nearest;
                }
                EXPECT_EQ(adj[s], std::set<uint32_t>{nearest}) << s;
            }
        }
    }
}

TEST(WanTopologyGenerator, GridDegreesAndLattice)
{
    // n -> (links, degree histogram), worked out by hand:
    //  2: 1 row of 2: one link, both degree 1.
    //  3: cols 2, rows 0-1 / 2: links 0-1, 0-2; degrees 2, 1, 1.
    //  7: cols 3, rows 0 1 2 / 3 4 5 / 6: horizontal 0-1 1-2 3-4 4-5, vertical 0-3 1-4 2-5
    //     3-6: 8 links; degrees 0:2 1:3 2:2 3:3 4:3 5:2 6:1.
    // 12: 3 x 4: 3*3 + 4*2 = 17 links; 4 corners of degree 2, 6 border cities of degree 3,
    //     2 inner of degree 4.
    // 16: 4 x 4: 2*4*3 = 24 links; 4 x 2, 8 x 3, 4 x 4.
    // 256: 16 x 16: 2*16*15 = 480 links; 4 x 2, 4*14 = 56 x 3, 14*14 = 196 x 4.
    struct Case
    {
        uint32_t n;
        std::size_t links;
        std::map<std::size_t, uint32_t> degrees;
    };

    const Case cases[] = {{2, 1, {{1, 2}}},
                          {3, 2, {{1, 2}, {2, 1}}},
                          {7, 8, {{1, 1}, {2, 3}, {3, 3}}},
                          {12, 17, {{2, 4}, {3, 6}, {4, 2}}},
                          {16, 24, {{2, 4}, {3, 8}, {4, 4}}},
                          {256, 480, {{2, 4}, {3, 56}, {4, 196}}}};
    for (const auto& c : cases)
    {
        const auto t = WanTopologyGenerator::Generate(Params("grid", c.n, 6));
        SCOPED_TRACE(c.n);
        EXPECT_EQ(t.GetLinks().size(), c.links);
        EXPECT_EQ(DegreeHistogram(t), c.degrees);
        // Lattice: cols = ceil(sqrt(n)); one latitude per row, one longitude per column.
        const uint32_t cols = static_cast<uint32_t>(std::ceil(std::sqrt(c.n)));
        const auto& cities = t.GetCities();
        for (uint32_t i = 0; i < c.n; ++i)
        {
            EXPECT_EQ(cities[i].latitude, cities[i / cols * cols].latitude);
            EXPECT_EQ(cities[i].longitude, cities[i % cols].longitude);
            EXPECT_EQ(cities[i].code[0], 'L');
        }
    }
}

TEST(WanTopologyGenerator, ContinentsAreTwoGeometricClustersJoinedByCrossLinks)
{
    for (uint32_t n : {2U, 3U, 10U, 64U, 256U})
    {
        for (uint32_t cross : {1U, 2U, 5U})
        {
            auto p = Params("continents", n, 9);
            p.crossLinks = cross;
            const auto t = WanTopologyGenerator::Generate(p);
            SCOPED_TRACE(std::to_string(n) + " cities, " + std::to_string(cross) + " links");
            const auto west = CitiesWithPrefix(t, 'W');
            const auto east = CitiesWithPrefix(t, 'E');
            ASSERT_EQ(west.size(), (n + 1) / 2);
            ASSERT_EQ(east.size(), n / 2);
            // Within the boxes: North America and Europe.
            for (uint32_t w : west)
            {
                EXPECT_LT(t.GetCities()[w].longitude, -70);
            }
            for (uint32_t e : east)
            {
                EXPECT_GT(t.GetCities()[e].longitude, -10);
            }
            ExpectNearestPlusJoins(t, west, p.k);
            ExpectNearestPlusJoins(t, east, p.k);
            const std::size_t inside = LinksWithin(t, west).size() + LinksWithin(t, east).size();
            const std::size_t expectedCross =
                std::min<std::size_t>(cross, west.size() * east.size());
            EXPECT_EQ(t.GetLinks().size() - inside, expectedCross);
            for (const auto& l : t.GetLinks())
            {
                const bool crossing =
                    (t.GetCities()[l.a].code[0] == 'W') != (t.GetCities()[l.b].code[0] == 'W');
                if (crossing)
                {
                    EXPECT_GT(Km(t, l.a, l.b), 2000); // transatlantic: long
                }
            }
        }
    }
}

TEST(WanTopologyGenerator, BackboneChainWithSpurs)
{
    // n -> backbone cities when backboneCities is 0: max(2, round(sqrt(n))), by hand:
    // sqrt(2) 1.41 -> 2, sqrt(3) 1.73 -> 2, sqrt(7) 2.65 -> 3, sqrt(12) 3.46 -> 3,
    // sqrt(13) 3.61 -> 4, sqrt(40) 6.32 -> 6, sqrt(256) = 16.
    const std::pair<uint32_t, uint32_t> automatic[] =
        {{2, 2}, {3, 2}, {7, 3}, {12, 3}, {13, 4}, {40, 6}, {256, 16}};
    std::vector<std::pair<uint32_t, WanTopologyGeneratorParams>> cases;
    for (const auto& a : automatic)
    {
        cases.push_back({a.second, Params("backbone", a.first, 10)});
    }
    for (uint32_t b : {1U, 5U, 64U})
    {
        auto p = Params("backbone", 64, 11);
        p.backboneCities = b;
        cases.push_back({b, p});
    }
    for (const auto& c : cases)
    {
        const uint32_t b = c.first;
        const uint32_t n = c.second.cities;
        const auto t = WanTopologyGenerator::Generate(c.second);
        SCOPED_TRACE(std::to_string(n) + " cities, " + std::to_string(b) + " on the backbone");
        const auto backbone = CitiesWithPrefix(t, 'B');
        const auto spurs = CitiesWithPrefix(t, 'M');
        ASSERT_EQ(backbone.size(), b);
        ASSERT_EQ(spurs.size(), n - b);
        EXPECT_EQ(t.GetLinks().size(), n - 1); // a tree: b - 1 chain links, n - b spur links
        const auto adj = Neighbours(t);
        for (uint32_t i = 0; i < b; ++i)
        {
            // Spur j hangs off backbone city j mod b: (n - b) / b each, one more for the first
            // (n - b) mod b.
            const uint32_t spursHere = (n - b) / b + (i < (n - b) % b ? 1 : 0);
            const uint32_t chain = (i > 0 ? 1 : 0) + (i + 1 < b ? 1 : 0);
            EXPECT_EQ(adj[i].size(), chain + spursHere) << i;
            if (i + 1 < b)
            {
                EXPECT_TRUE(adj[i].count(i + 1)) << i;
                EXPECT_LT(t.GetCities()[i].longitude, t.GetCities()[i + 1].longitude);
            }
        }
        for (uint32_t j = 0; j < spurs.size(); ++j)
        {
            const uint32_t anchor = j % b;
            EXPECT_EQ(adj[spurs[j]], std::set<uint32_t>{anchor}) << j;
            const auto& spur = t.GetCities()[spurs[j]];
            EXPECT_LE(std::fabs(spur.latitude - t.GetCities()[anchor].latitude), 2 + 1e-9);
            EXPECT_LE(std::fabs(spur.longitude - t.GetCities()[anchor].longitude), 2 + 1e-9);
        }
    }
}

TEST(WanTopologyGenerator, CapabilityCountsAreExact)
{
    // (fraction, cities, cities with the capability = round(fraction x cities), halves up)
    struct Case
    {
        double fraction;
        uint32_t n;
        std::size_t expected;
    };

    const Case cases[] = {{0, 16, 0},
                          {1, 16, 16},
                          {0.5, 16, 8},
                          {0.5, 7, 4},  // 3.5 -> 4
                          {0.25, 7, 2}, // 1.75 -> 2
                          {0.2, 7, 1},  // 1.4 -> 1
                          {0.1, 5, 1},  // 0.5 -> 1
                          {0.3, 10, 3},
                          {0.75, 256, 192},
                          {0.01, 64, 1}}; // 0.64 -> 1
    for (const auto& family : WanTopologyGenerator::Families())
    {
        for (const auto& c : cases)
        {
            auto p = Params(family, c.n, 12);
            p.multicastFraction = c.fraction;
            p.fpgaFraction = 1 - c.fraction;
            p.transitFraction = c.fraction;
            const auto t = WanTopologyGenerator::Generate(p);
            std::size_t multicast = 0;
            std::size_t fpga = 0;
            std::size_t transit = 0;
            for (const auto& city : t.GetCities())
            {
                multicast += city.caps.multicast ? 1 : 0;
                fpga += city.caps.fpga ? 1 : 0;
                transit += city.caps.transit ? 1 : 0;
            }
            EXPECT_EQ(multicast, c.expected) << family << " " << c.fraction << " x " << c.n;
            EXPECT_EQ(transit, c.expected) << family << " " << c.fraction << " x " << c.n;
            // round((1 - f) n): the complement, except where f n is a half (then both round up)
            const double fpgaShare = (1 - c.fraction) * c.n;
            EXPECT_EQ(fpga, static_cast<std::size_t>(std::floor(fpgaShare + 0.5)))
                << family << " " << c.fraction << " x " << c.n;
        }
    }
    // The chosen cities depend on the seed.
    std::set<std::string> choices;
    for (uint64_t seed = 1; seed <= 5; ++seed)
    {
        auto p = Params("ring", 16, seed);
        p.fpgaFraction = 0.5;
        std::string chosen;
        const WanTopology topology = WanTopologyGenerator::Generate(p);
        for (const auto& city : topology.GetCities())
        {
            chosen += city.caps.fpga ? '1' : '0';
        }
        choices.insert(chosen);
    }
    EXPECT_GT(choices.size(), 1U);
}

TEST(WanTopologyGenerator, RateSpreadsAndIslandCounts)
{
    auto p = Params("geometric", 64, 13);
    p.wanBps = 10 * GBPS;
    p.wanBpsMax = 100 * GBPS;
    p.accessBps = 1 * GBPS;
    p.accessBpsMax = 1 * GBPS + 999; // not whole Mbps: drawn in bits per second
    p.islandsPerCity = 2;
    p.maxIslandsPerCity = 4;
    const auto t = WanTopologyGenerator::Generate(p);
    std::set<uint64_t> wanRates;
    for (const auto& l : t.GetLinks())
    {
        EXPECT_GE(l.bps, 10 * GBPS);
        EXPECT_LE(l.bps, 100 * GBPS);
        EXPECT_EQ(l.bps % MBPS, 0U);
        wanRates.insert(l.bps);
    }
    // About 100 links over 90 001 possible rates: all but certainly several distinct rates.
    EXPECT_GT(wanRates.size(), t.GetLinks().size() / 2);
    std::set<uint64_t> accessRates;
    std::map<uint32_t, uint32_t> perCity;
    for (const auto& island : t.GetIslands())
    {
        EXPECT_GE(island.accessBps, 1 * GBPS);
        EXPECT_LE(island.accessBps, 1 * GBPS + 999);
        accessRates.insert(island.accessBps);
        EXPECT_EQ(island.name,
                  t.GetCities()[island.city].code + "-" + std::to_string(perCity[island.city]++));
    }
    EXPECT_GT(accessRates.size(), 1U);
    std::set<uint32_t> counts;
    uint32_t total = 0;
    for (const auto& entry : perCity)
    {
        EXPECT_GE(entry.second, 2U);
        EXPECT_LE(entry.second, 4U);
        counts.insert(entry.second);
        total += entry.second;
    }
    EXPECT_EQ(perCity.size(), 64U);
    EXPECT_EQ(total, t.GetIslands().size());
    // 64 cities, three equally likely counts: each occurs, but for a 2 x (2/3)^64 chance.
    EXPECT_EQ(counts, (std::set<uint32_t>{2, 3, 4}));
}

TEST(WanTopologyGenerator, ExplicitValuesReachTheTopology)
{
    auto p = Params("backbone", 12, 14);
    p.wanBps = 40 * GBPS;
    p.accessBps = 25 * GBPS;
    p.accessDelay = 7e-6;
    p.routeFactor = 2;
    p.islandsPerCity = 3;
    const auto t = WanTopologyGenerator::Generate(p);
    EXPECT_EQ(t.GetIslands().size(), 36U);
    for (const auto& island : t.GetIslands())
    {
        EXPECT_EQ(island.accessBps, 25 * GBPS);
        EXPECT_EQ(island.accessDelay, 7e-6);
    }
    for (const auto& l : t.GetLinks())
    {
        EXPECT_EQ(l.bps, 40 * GBPS);
        EXPECT_NEAR(l.delay, Km(t, l.a, l.b) / (299792.458 / 1.468) * 2, 0.5e-9);
    }
    EXPECT_NE(t.GetDescription().find("family=backbone cities=12 seed=14"), std::string::npos);
}

TEST(WanTopologyGenerator, BadParametersAreRejectedByName)
{
    const auto base = Params("geometric", 8);
    auto p = base;
    p.family = "mesh";
    ExpectRejected(p, "family", "\"mesh\"");
    for (uint32_t n : {0U, 1U, 1025U})
    {
        p = base;
        p.cities = n;
        ExpectRejected(p, "cities", std::to_string(n));
    }
    for (uint32_t n : {0U, 17U})
    {
        p = base;
        p.islandsPerCity = n;
        ExpectRejected(p, "islandsPerCity", std::to_string(n));
    }
    p = base;
    p.islandsPerCity = 3;
    p.maxIslandsPerCity = 2;
    ExpectRejected(p, "maxIslandsPerCity", "2");
    p.maxIslandsPerCity = 17;
    ExpectRejected(p, "maxIslandsPerCity", "17");
    p = base;
    p.wanBps = 0;
    ExpectRejected(p, "wanBps", "0");
    p = base;
    p.wanBpsMax = 5;
    ExpectRejected(p, "wanBpsMax", "5");
    p = base;
    p.accessBps = 0;
    ExpectRejected(p, "accessBps", "0");
    p = base;
    p.accessBpsMax = 5;
    ExpectRejected(p, "accessBpsMax", "5");
    p = base;
    p.accessDelay = -1e-6;
    ExpectRejected(p, "accessDelay", "-1e-06");
    p.accessDelay = std::numeric_limits<double>::quiet_NaN();
    ExpectRejected(p, "accessDelay", "nan");
    p = base;
    p.routeFactor = 0.9;
    ExpectRejected(p, "routeFactor", "0.9");
    for (double f : {-0.1, 1.5})
    {
        p = base;
        p.multicastFraction = f;
        ExpectRejected(p, "multicastFraction", f < 0 ? "-0.1" : "1.5");
        p = base;
        p.fpgaFraction = f;
        ExpectRejected(p, "fpgaFraction", f < 0 ? "-0.1" : "1.5");
        p.fpgaFraction = 0.5;
        p.transitFraction = f;
        ExpectRejected(p, "transitFraction", f < 0 ? "-0.1" : "1.5");
        p.transitFraction = 0;
    }
    p = base;
    p.fpgaFraction = std::numeric_limits<double>::quiet_NaN();
    ExpectRejected(p, "fpgaFraction", "nan");
    for (uint32_t k : {0U, 33U})
    {
        p = base;
        p.k = k;
        ExpectRejected(p, "k", std::to_string(k));
    }
    for (uint32_t cross : {0U, 65U})
    {
        p = base;
        p.crossLinks = cross;
        ExpectRejected(p, "crossLinks", std::to_string(cross));
    }
    // Bounds relative to the number of cities apply to their own family only.
    p = Params("hub", 8);
    for (uint32_t hubs : {0U, 8U})
    {
        p.hubs = hubs;
        ExpectRejected(p, "hubs", std::to_string(hubs));
        p.family = "ring";
        EXPECT_NO_THROW(WanTopologyGenerator::Generate(p));
        p.family = "hub";
    }
    p = Params("backbone", 8);
    p.backboneCities = 9;
    ExpectRejected(p, "backboneCities", "9");
    p.family = "grid";
    EXPECT_NO_THROW(WanTopologyGenerator::Generate(p));
}

TEST(WanTopologyGenerator, LargeTopologiesAreFast)
{
    // 256 cities of every family, with two islands each: well under a second in all (a
    // release build takes milliseconds; the bound leaves room for slow machines).
    const auto start = std::chrono::steady_clock::now();
    for (const auto& family : WanTopologyGenerator::Families())
    {
        auto p = Params(family, 256);
        p.islandsPerCity = 2;
        WanTopologyGenerator::Generate(p);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 2.0);
    RecordProperty("seconds", std::to_string(seconds));
}

TEST(WanTopologyGenerator, RejectsMoreIslandsThanTheBitmapHolds)
{
    // 100 cities x 16 islands: more islands than a gradient header's contributor bitmap holds.
    auto p = Params("ring", 100);
    p.islandsPerCity = 16;
    ExpectRejected(p, "islandsPerCity", "16");
    // Random counts are checked as the islands are added: 100 x [10, 16] > 1024.
    p.islandsPerCity = 11;
    p.maxIslandsPerCity = 16;
    ExpectRejected(p, "islandsPerCity", "11");
    p.islandsPerCity = 10;
    try
    {
        WanTopologyGenerator::Generate(p);
        ADD_FAILURE() << "no error for 100 cities with 10..16 islands";
    }
    catch (const WanTopologyError& e)
    {
        EXPECT_NE(std::string(e.what()).find("more than 1024 islands"), std::string::npos)
            << e.what();
    }
}
