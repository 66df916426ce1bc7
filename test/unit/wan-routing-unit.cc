/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest units for WanRouting: shortest paths, the tie-break rule, trees and resource
 * numbering, on small hand-made graphs and on the nine-city DoubleZero-like graph. Every
 * expected value is worked out by hand (in the comments) or by an independent Floyd-Warshall
 * written here.
 */

#include "ns3/wan-routing.h"
#include "ns3/wan-topology.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr double MS = 1e-3;           //!< one millisecond in seconds
constexpr uint64_t GBPS = 1000000000; //!< one gigabit per second

/** Add a city with a code and harmless coordinates. */
uint32_t
City(WanTopology& t, const std::string& code)
{
    WanCity c;
    c.code = code;
    c.name = code;
    return t.AddCity(c);
}

/** Add a link of \p delayMs milliseconds and 10 Gbps. */
uint32_t
Link(WanTopology& t, uint32_t a, uint32_t b, double delayMs, uint64_t bps = 10 * GBPS)
{
    return t.AddLink(WanLink{a, b, bps, delayMs * MS});
}

/** Add an island at \p city. */
uint32_t
Island(WanTopology& t, const std::string& name, uint32_t city, uint64_t bps, double delay)
{
    return t.AddIsland(WanIsland{name, city, bps, delay});
}

/** Integer nanoseconds of a delay in ms, rounded as the routing does. */
int64_t
Ns(double delayMs)
{
    return std::llround(delayMs * 1e6);
}

/**
 * The nine-city graph of the DoubleZero demo with the suggested one-way delays (1.3 x the
 * fibre minimum). City indices: NYC 0, LAX 1, LON 2, AMS 3, FRA 4, TYO 5, SEO 6, SIN 7, BUE 8.
 */
WanTopology
NineCity()
{
    WanTopology t;
    const std::vector<std::pair<std::string, std::pair<double, double>>> cities = {
        {"NYC", {40.7128, -74.0060}},
        {"LAX", {34.0522, -118.2437}},
        {"LON", {51.5074, -0.1278}},
        {"AMS", {52.3676, 4.9041}},
        {"FRA", {50.1109, 8.6821}},
        {"TYO", {35.6762, 139.6503}},
        {"SEO", {37.5665, 126.9780}},
        {"SIN", {1.3521, 103.8198}},
        {"BUE", {-34.6037, -58.3816}},
    };
    for (const auto& c : cities)
    {
        WanCity city;
        city.code = c.first;
        city.name = c.first;
        city.latitude = c.second.first;
        city.longitude = c.second.second;
        t.AddCity(city);
    }
    auto idx = [&t](const char* code) { return t.GetCityIndex(code); };
    Link(t, idx("SEO"), idx("TYO"), 7.3);
    Link(t, idx("TYO"), idx("LAX"), 56.1);
    Link(t, idx("TYO"), idx("SIN"), 33.8);
    Link(t, idx("SIN"), idx("LAX"), 89.9);
    Link(t, idx("SIN"), idx("FRA"), 65.3);
    Link(t, idx("LAX"), idx("NYC"), 25.1);
    Link(t, idx("NYC"), idx("BUE"), 54.3);
    Link(t, idx("NYC"), idx("LON"), 35.5);
    Link(t, idx("LON"), idx("AMS"), 2.3);
    Link(t, idx("LON"), idx("FRA"), 4.1);
    Link(t, idx("AMS"), idx("FRA"), 2.3);
    for (uint32_t c = 0; c < cities.size(); ++c)
    {
        Island(t, cities[c].first + "-0", c, 10 * GBPS, 0.1 * MS);
    }
    return t;
}

/** City codes along a path, e.g. "SEO-TYO-LAX". */
std::string
Codes(const WanTopology& t, const std::vector<uint32_t>& cities)
{
    std::string s;
    for (uint32_t c : cities)
    {
        s += (s.empty() ? "" : "-") + t.GetCities()[c].code;
    }
    return s;
}

/** All-pairs shortest distances in ns by Floyd-Warshall (independent of the code under test). */
std::vector<std::vector<int64_t>>
FloydWarshall(const WanTopology& t)
{
    const int64_t inf = std::numeric_limits<int64_t>::max() / 4;
    const uint32_t n = t.GetCities().size();
    std::vector<std::vector<int64_t>> d(n, std::vector<int64_t>(n, inf));
    for (uint32_t i = 0; i < n; ++i)
    {
        d[i][i] = 0;
    }
    for (const auto& l : t.GetLinks())
    {
        const int64_t w = std::llround(l.delay * 1e9);
        d[l.a][l.b] = std::min(d[l.a][l.b], w);
        d[l.b][l.a] = std::min(d[l.b][l.a], w);
    }
    for (uint32_t k = 0; k < n; ++k)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t j = 0; j < n; ++j)
            {
                d[i][j] = std::min(d[i][j], d[i][k] + d[k][j]);
            }
        }
    }
    return d;
}

/** Checks shared by every graph: paths are walks of next links, shortest and well formed. */
void
CheckAllPairs(const WanTopology& t)
{
    const WanRouting r(t);
    const auto d = FloydWarshall(t);
    const auto& links = t.GetLinks();
    const uint32_t n = t.GetCities().size();
    for (uint32_t src = 0; src < n; ++src)
    {
        for (uint32_t dst = 0; dst < n; ++dst)
        {
            const auto path = r.GetPath(src, dst);
            // The hop-by-hop walk of the next-link tables, as a router sees it.
            uint32_t at = src;
            int64_t sum = 0;
            for (const WanHop& hop : path)
            {
                ASSERT_EQ(hop.from, at);
                ASSERT_EQ(hop.link, r.GetNextLink(at, dst));
                const WanLink& l = links[hop.link];
                ASSERT_TRUE((l.a == hop.from && l.b == hop.to) ||
                            (l.b == hop.from && l.a == hop.to));
                sum += std::llround(l.delay * 1e9);
                at = hop.to;
            }
            EXPECT_EQ(at, dst);
            EXPECT_EQ(r.GetNextLink(dst, dst), WanRouting::NO_LINK);
            EXPECT_EQ(sum, d[src][dst]) << "src " << src << " dst " << dst;
            EXPECT_EQ(r.GetPathDelayNs(src, dst), d[src][dst]);
            EXPECT_DOUBLE_EQ(r.GetPathDelay(src, dst), d[src][dst] * 1e-9);
            EXPECT_EQ(r.GetCityPath(src, dst).size(), path.size() + 1);

            // The tree towards one destination is the source tree's path: shortest as well.
            const WanTree tree = r.GetTree(src, {dst});
            int64_t treeSum = 0;
            for (const WanHop& hop : tree.hops)
            {
                treeSum += std::llround(links[hop.link].delay * 1e9);
            }
            EXPECT_EQ(treeSum, d[src][dst]);
        }
    }
}

} // namespace

// A line 0 - 1 - 2 - 3: the only paths, their delays and next links.
TEST(WanRouting, LinePathsAndDelays)
{
    WanTopology t;
    for (const char* c : {"A", "B", "C", "D"})
    {
        City(t, c);
    }
    Link(t, 0, 1, 1.0); // link 0
    Link(t, 1, 2, 2.0); // link 1
    Link(t, 2, 3, 4.0); // link 2
    const WanRouting r(t);
    EXPECT_EQ(Codes(t, r.GetCityPath(0, 3)), "A-B-C-D");
    EXPECT_EQ(Codes(t, r.GetCityPath(3, 0)), "D-C-B-A");
    EXPECT_EQ(r.GetPathDelayNs(0, 3), 7000000);
    EXPECT_DOUBLE_EQ(r.GetPathDelay(1, 3), 6e-3);
    EXPECT_EQ(r.GetNextLink(0, 3), 0u);
    EXPECT_EQ(r.GetNextLink(1, 3), 1u);
    EXPECT_EQ(r.GetNextLink(3, 0), 2u);
    EXPECT_EQ(r.GetNextLink(2, 2), WanRouting::NO_LINK);
    EXPECT_TRUE(r.GetPath(2, 2).empty());
    const auto path = r.GetPath(3, 1);
    ASSERT_EQ(path.size(), 2u);
    EXPECT_EQ(path[0], (WanHop{2, 3, 2}));
    EXPECT_EQ(path[1], (WanHop{1, 2, 1}));
    CheckAllPairs(t);
}

// Fewer hops lose to a lower total delay: A-C direct is 3 ms, A-B-C is 2 ms.
TEST(WanRouting, LowerDelayBeatsFewerHops)
{
    WanTopology t;
    City(t, "A");
    City(t, "B");
    City(t, "C");
    Link(t, 0, 2, 3.0);
    Link(t, 0, 1, 1.0);
    Link(t, 1, 2, 1.0);
    const WanRouting r(t);
    EXPECT_EQ(Codes(t, r.GetCityPath(0, 2)), "A-B-C");
    EXPECT_EQ(r.GetPathDelayNs(0, 2), 2000000);
    CheckAllPairs(t);
}

// A diamond S(0) with two equal routes to D(3) through X and Y. The links through the
// higher-index middle city are added first, so only the city-index rule can pick X.
TEST(WanRouting, TieBreakLowestCityIndex)
{
    WanTopology t;
    City(t, "S"); // 0
    City(t, "X"); // 1
    City(t, "Y"); // 2
    City(t, "D"); // 3
    Link(t, 0, 2, 5.0);
    Link(t, 2, 3, 5.0);
    Link(t, 0, 1, 4.0);
    Link(t, 1, 3, 6.0);
    const WanRouting r(t);
    // Both ways: S-X-D and S-Y-D are 10 ms; the lowest-index middle city X wins.
    EXPECT_EQ(Codes(t, r.GetCityPath(0, 3)), "S-X-D");
    EXPECT_EQ(Codes(t, r.GetCityPath(3, 0)), "D-X-S");
    const WanTree tree = r.GetTree(0, {3});
    EXPECT_EQ(tree.routers, (std::vector<uint32_t>{0, 1, 3}));
    CheckAllPairs(t);
}

// Delays that differ by less than half a nanosecond are equal after rounding: a tie.
TEST(WanRouting, TieAfterRoundingToNanoseconds)
{
    WanTopology t;
    City(t, "S"); // 0
    City(t, "X"); // 1
    City(t, "Y"); // 2
    City(t, "D"); // 3
    Link(t, 0, 2, 5.0);
    Link(t, 2, 3, 5.0);
    Link(t, 0, 1, 5.0);
    Link(t, 1, 3, 5.0 + 2e-10); // 5 ms + 0.2 ns: rounds to 5 ms
    const WanRouting r(t);
    EXPECT_EQ(Codes(t, r.GetCityPath(0, 3)), "S-X-D");
    EXPECT_EQ(r.GetPathDelayNs(0, 3), 10000000);
}

// Unicast is destination-based (next hop: lowest-index neighbour on a shortest path), trees
// use the source's tree (parent: lowest-index predecessor). On a tie the two may pick
// different shortest paths, as here from A to C.
TEST(WanRouting, UnicastWalkAndTreeMayDifferOnTies)
{
    WanTopology t;
    City(t, "A");       // 0
    City(t, "B");       // 1
    City(t, "C");       // 2
    Link(t, 0, 2, 4.0); // A-C direct, 4 ms
    Link(t, 0, 1, 1.0); // A-B 1 ms
    Link(t, 1, 2, 3.0); // B-C 3 ms: A-B-C is also 4 ms
    const WanRouting r(t);
    // Unicast A to C: at A, the neighbours on a shortest path to C are B (1) and C (2): B wins.
    EXPECT_EQ(Codes(t, r.GetCityPath(0, 2)), "A-B-C");
    // Tree rooted at A: C's predecessors with dist + w == 4 ms are A (0) and B (1): A wins.
    const WanTree tree = r.GetTree(0, {2});
    ASSERT_EQ(tree.hops.size(), 1u);
    EXPECT_EQ(tree.hops[0], (WanHop{0, 0, 2}));
    CheckAllPairs(t);
}

// Trees: the union of source-tree paths, parents before children, sorted routers.
TEST(WanRouting, TreeIsUnionOfPaths)
{
    // A star-ish graph: R(0) - M(1) - {L1(2), L2(3)}, R - F(4), plus a longer M-F link.
    WanTopology t;
    City(t, "R");
    City(t, "M");
    City(t, "L1");
    City(t, "L2");
    City(t, "F");
    Link(t, 0, 1, 10.0); // 0
    Link(t, 1, 2, 1.0);  // 1
    Link(t, 1, 3, 2.0);  // 2
    Link(t, 0, 4, 3.0);  // 3
    Link(t, 1, 4, 20.0); // 4, never used from R
    const WanRouting r(t);
    const WanTree tree = r.GetTree(0, {3, 2, 2, 0, 4});
    EXPECT_EQ(tree.root, 0u);
    EXPECT_EQ(tree.routers, (std::vector<uint32_t>{0, 1, 2, 3, 4}));
    // Depth 1: M (via link 0) and F (link 3), by index; depth 2: L1, L2.
    const std::vector<WanHop> expected = {{0, 0, 1}, {3, 0, 4}, {1, 1, 2}, {2, 1, 3}};
    EXPECT_EQ(tree.hops, expected);
    // A tree to the root only is the root alone.
    const WanTree lone = r.GetTree(2, {2});
    EXPECT_EQ(lone.routers, (std::vector<uint32_t>{2}));
    EXPECT_TRUE(lone.hops.empty());
}

// The multicast rule: every router on the tree must be capable, transit routers included.
TEST(WanRouting, MulticastCapableNeedsEveryRouter)
{
    WanTopology t;
    City(t, "A");
    City(t, "B");
    City(t, "C");
    City(t, "D");
    Link(t, 0, 1, 1.0);
    Link(t, 1, 2, 1.0);
    Link(t, 0, 3, 1.0);
    t.SetCapabilities(WanCapabilities::Parse("multicast", "test"));
    t.ApplyCityCapabilities("B:none");
    const WanRouting r(t);
    EXPECT_FALSE(r.IsMulticastCapable(r.GetTree(0, {2}))); // through B
    EXPECT_FALSE(r.IsMulticastCapable(r.GetTree(0, {1}))); // ends at B
    EXPECT_TRUE(r.IsMulticastCapable(r.GetTree(0, {3})));  // A, D
    EXPECT_TRUE(r.IsMulticastCapable(r.GetTree(0, {0, 3})));
}

// Resource numbering: 2l and 2l+1 for WAN links, then 2L+2i and 2L+2i+1 for access links.
TEST(WanRouting, ResourceNumbering)
{
    WanTopology t;
    City(t, "A");
    City(t, "B");
    City(t, "C");
    Link(t, 0, 1, 1.0, 10 * GBPS);  // link 0
    Link(t, 2, 1, 1.0, 100 * GBPS); // link 1, stored as a = C, b = B
    Island(t, "A-0", 0, 25 * GBPS, 0.0);
    Island(t, "C-0", 2, 40 * GBPS, 0.0);
    const WanRouting r(t);
    EXPECT_EQ(r.GetResourceCount(), 2u * 2 + 2u * 2);
    EXPECT_EQ(r.GetHopResource({0, 0, 1}), 0u);
    EXPECT_EQ(r.GetHopResource({0, 1, 0}), 1u);
    EXPECT_EQ(r.GetHopResource({1, 2, 1}), 2u); // a to b
    EXPECT_EQ(r.GetHopResource({1, 1, 2}), 3u); // b to a
    EXPECT_EQ(r.GetAccessUpResource(0), 4u);
    EXPECT_EQ(r.GetAccessDownResource(0), 5u);
    EXPECT_EQ(r.GetAccessUpResource(1), 6u);
    EXPECT_EQ(r.GetAccessDownResource(1), 7u);
    EXPECT_DOUBLE_EQ(r.GetResourceCapacity(1), 10e9);
    EXPECT_DOUBLE_EQ(r.GetResourceCapacity(3), 100e9);
    EXPECT_DOUBLE_EQ(r.GetResourceCapacity(5), 25e9);
    EXPECT_DOUBLE_EQ(r.GetResourceCapacity(6), 40e9);
    // Island delay: both (zero) access links plus the WAN path A-B-C.
    EXPECT_DOUBLE_EQ(r.GetIslandDelay(0, 1), 2e-3);
}

// Access delays count in the island delay, each rounded to ns.
TEST(WanRouting, IslandDelayAddsAccessLinks)
{
    WanTopology t;
    City(t, "A");
    City(t, "B");
    Link(t, 0, 1, 3.0);
    Island(t, "A-0", 0, 10 * GBPS, 0.25 * MS);
    Island(t, "B-0", 1, 10 * GBPS, 0.5 * MS);
    Island(t, "B-1", 1, 10 * GBPS, 0.125 * MS);
    const WanRouting r(t);
    EXPECT_EQ(std::llround(r.GetIslandDelay(0, 1) * 1e9), Ns(0.25 + 3.0 + 0.5));
    EXPECT_EQ(std::llround(r.GetIslandDelay(1, 2) * 1e9), Ns(0.5 + 0.125));
}

// The nine-city graph, routes checked by hand from the link table.
TEST(WanRouting, NineCityRoutesByHand)
{
    const WanTopology t = NineCity();
    const WanRouting r(t);
    auto c = [&t](const char* code) { return t.GetCityIndex(code); };
    // SEO-TYO-LAX-NYC-BUE = 7.3 + 56.1 + 25.1 + 54.3 = 142.8 ms (the only route to BUE is via
    // NYC; via SIN-FRA-LON it would be 200.3 ms).
    EXPECT_EQ(Codes(t, r.GetCityPath(c("SEO"), c("BUE"))), "SEO-TYO-LAX-NYC-BUE");
    EXPECT_EQ(r.GetPathDelayNs(c("SEO"), c("BUE")), Ns(142.8));
    EXPECT_EQ(Codes(t, r.GetCityPath(c("BUE"), c("SEO"))), "BUE-NYC-LAX-TYO-SEO");
    // LON to TYO: via FRA-SIN 4.1 + 65.3 + 33.8 = 103.2 ms beats via NYC-LAX 116.7 ms.
    EXPECT_EQ(Codes(t, r.GetCityPath(c("LON"), c("TYO"))), "LON-FRA-SIN-TYO");
    EXPECT_EQ(r.GetPathDelayNs(c("LON"), c("TYO")), Ns(103.2));
    // NYC to SIN: via LON-FRA 35.5 + 4.1 + 65.3 = 104.9 ms beats via LAX 115.0 ms.
    EXPECT_EQ(Codes(t, r.GetCityPath(c("NYC"), c("SIN"))), "NYC-LON-FRA-SIN");
    // AMS to LON: direct 2.3 ms beats via FRA 6.4 ms.
    EXPECT_EQ(Codes(t, r.GetCityPath(c("AMS"), c("LON"))), "AMS-LON");
    // LAX to SIN: direct 89.9 ms ties with LAX-TYO-SIN 56.1 + 33.8 = 89.9 ms. Unicast: at LAX
    // the neighbours on a shortest path are TYO (5) and SIN (7): TYO wins.
    EXPECT_EQ(Codes(t, r.GetCityPath(c("LAX"), c("SIN"))), "LAX-TYO-SIN");
    EXPECT_EQ(r.GetPathDelayNs(c("LAX"), c("SIN")), Ns(89.9));
    // On LAX's tree, SIN's predecessors are LAX (1) and TYO (5): LAX wins, the direct link.
    const WanTree fromLax = r.GetTree(c("LAX"), {c("SIN"), c("SEO")});
    EXPECT_EQ(fromLax.routers, (std::vector<uint32_t>{c("LAX"), c("TYO"), c("SEO"), c("SIN")}));
    ASSERT_EQ(fromLax.hops.size(), 3u);
    EXPECT_EQ(fromLax.hops[0].from, c("LAX"));
    EXPECT_EQ(fromLax.hops[0].to, c("TYO"));
    EXPECT_EQ(fromLax.hops[1].from, c("LAX"));
    EXPECT_EQ(fromLax.hops[1].to, c("SIN"));
    EXPECT_EQ(fromLax.hops[2].from, c("TYO"));
    EXPECT_EQ(fromLax.hops[2].to, c("SEO"));
    // The tree from SEO to every city: 8 edges spanning all 9 cities.
    std::vector<uint32_t> all;
    for (uint32_t i = 0; i < 9; ++i)
    {
        all.push_back(i);
    }
    const WanTree fromSeo = r.GetTree(c("SEO"), all);
    EXPECT_EQ(fromSeo.routers.size(), 9u);
    EXPECT_EQ(fromSeo.hops.size(), 8u);
    CheckAllPairs(t);
}

// Building the routes twice gives the same tables and trees.
TEST(WanRouting, Deterministic)
{
    const WanTopology t = NineCity();
    const WanRouting a(t);
    const WanRouting b(t);
    for (uint32_t s = 0; s < 9; ++s)
    {
        std::vector<uint32_t> all;
        for (uint32_t d = 0; d < 9; ++d)
        {
            EXPECT_EQ(a.GetNextLink(s, d), b.GetNextLink(s, d));
            all.push_back(d);
        }
        EXPECT_EQ(a.GetTree(s, all).hops, b.GetTree(s, all).hops);
    }
}

// A 4 x 4 grid of equal links: many ties; every pair still walks a shortest path.
TEST(WanRouting, GridAllPairsConsistent)
{
    WanTopology t;
    const uint32_t side = 4;
    for (uint32_t i = 0; i < side * side; ++i)
    {
        City(t, "G" + std::to_string(i));
    }
    for (uint32_t row = 0; row < side; ++row)
    {
        for (uint32_t col = 0; col < side; ++col)
        {
            const uint32_t v = row * side + col;
            if (col + 1 < side)
            {
                Link(t, v, v + 1, 1.0);
            }
            if (row + 1 < side)
            {
                Link(t, v, v + side, 1.0);
            }
        }
    }
    CheckAllPairs(t);
    const WanRouting r(t);
    // Corner 0 to corner 15: at each city the lowest-index neighbour closer to 15 is the one
    // to the right (v + 1) until the last column, so the walk goes along row 0 then down.
    EXPECT_EQ(Codes(t, r.GetCityPath(0, 15)), "G0-G1-G2-G3-G7-G11-G15");
}

// Out-of-range indices and unreachable cities throw instead of crashing.
TEST(WanRouting, BadIndicesThrow)
{
    WanTopology t;
    City(t, "A");
    City(t, "B");
    City(t, "C");
    Link(t, 0, 1, 1.0);
    const WanRouting r(t);
    EXPECT_THROW(r.GetPath(0, 2), WanTopologyError);
    EXPECT_THROW(r.GetNextLink(0, 7), WanTopologyError);
    EXPECT_THROW(r.GetTree(5, {0}), WanTopologyError);
}

// Zero-delay links: cities at the same distance still get an acyclic tree (a parent must
// already be settled), so every walk ends.
TEST(WanRouting, ZeroDelayLinksStayAcyclic)
{
    WanTopology t;
    City(t, "R"); // 0
    City(t, "X"); // 1
    City(t, "Y"); // 2
    Link(t, 0, 2, 0.0);
    Link(t, 2, 1, 0.0);
    const WanRouting r(t);
    EXPECT_EQ(Codes(t, r.GetCityPath(0, 1)), "R-Y-X");
    EXPECT_EQ(Codes(t, r.GetCityPath(1, 0)), "X-Y-R");
    const WanTree tree = r.GetTree(0, {1});
    ASSERT_EQ(tree.hops.size(), 2u);
    EXPECT_EQ(tree.hops[0], (WanHop{0, 0, 2}));
    EXPECT_EQ(tree.hops[1], (WanHop{1, 2, 1}));
    CheckAllPairs(t);
}
