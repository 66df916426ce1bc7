/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of WanPartition: which cities go to which rank (Balance, Parse) and the lookahead. Every
 * expected assignment is worked out by hand in the comments, over all assignments of four cities on
 * a line A - B - C - D. The runs themselves (packets crossing ranks, identical results) are tested
 * by tools/check-mpi.sh (mpirun, ns-3's distributed simulators).
 */

// ctest-suite: wan-partition

#include "ns3/test.h"
#include "ns3/wan-partition.h"
#include "ns3/wan-topology.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \param delays one-way delay of the links A-B, B-C, C-D (s)
 * \return cities A, B, C, D on a line
 */
WanTopology
Line(const std::vector<double>& delays)
{
    WanTopology t;
    t.SetName("line");
    for (const char* code : {"A", "B", "C", "D"})
    {
        WanCity city;
        city.code = code;
        city.name = code;
        t.AddCity(city);
    }
    for (uint32_t l = 0; l < delays.size(); ++l)
    {
        WanLink link;
        link.a = l;
        link.b = l + 1;
        link.bps = 10000000000ULL;
        link.delay = delays[l];
        t.AddLink(link);
    }
    return t;
}

/** \param v an assignment \return it as text, e.g. "0 0 1 1" */
std::string
Text(const std::vector<uint32_t>& v)
{
    std::string s;
    for (uint32_t x : v)
    {
        s += (s.empty() ? "" : " ") + std::to_string(x);
    }
    return s;
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief Load balance first, then the cost of packets crossing ranks, then the lookahead.
 */
class PartitionCitiesTestCase : public TestCase
{
  public:
    PartitionCitiesTestCase()
        : TestCase("Balance: balance, crossing cost, lookahead")
    {
    }

  private:
    void DoRun() override
    {
        const WanTopology t = Line({1e-3, 5e-3, 2e-3});
        // Loads 4 1 1 4: {A,B}|{C,D} and {A,C}|{B,D} both give 5|5; the first cuts only
        // B-C (5 ms of lookahead), the second all three links (1 ms). Every other split has
        // a rank of 6 or more.
        NS_TEST_EXPECT_MSG_EQ(Text(WanPartition::Balance(t, {4, 1, 1, 4}, {0, 0, 0}, 2)),
                              "0 0 1 1",
                              "balanced, largest lookahead");
        // One rank: everything on rank 0. Four ranks: one city each.
        NS_TEST_EXPECT_MSG_EQ(Text(WanPartition::Balance(t, {4, 1, 1, 4}, {0, 0, 0}, 1)),
                              "0 0 0 0",
                              "one rank");
        NS_TEST_EXPECT_MSG_EQ(Text(WanPartition::Balance(t, {4, 1, 1, 4}, {0, 0, 0}, 4)),
                              "0 1 2 3",
                              "four ranks");

        // Loads 1 3 3 1, packets A-B 4, B-C 40, C-D 4, each crossing packet costs 5 at both
        // ends. {A,B}|{C,D}: 4|4 + 200 = 204. {A,C}|{B,D}: 4|4 + 240 = 244. {A,D}|{B,C}:
        // 2|6 + 40 = 42|46. {A,B,C}|{D}: 7|1 + 20 = 27|21. {A}|{B,C,D}: 1|7 + 20 = 21|27.
        // {A,B,D}|{C} and {A,C,D}|{B}: 3|5 + 220 = 225 at most. Two splits reach 27 (46 is
        // beyond 3% of it); their lookaheads are 2 ms (C-D cut) and 3 ms (A-B cut):
        // {A}|{B,C,D}.
        const WanTopology u = Line({3e-3, 1e-3, 2e-3});
        NS_TEST_EXPECT_MSG_EQ(Text(WanPartition::Balance(u, {1, 3, 3, 1}, {4, 40, 4}, 2)),
                              "0 1 1 1",
                              "crossing packets cost work");
        NS_TEST_EXPECT_MSG_EQ(WanPartition::CROSS_PACKET_WORK, 5.0, "the cost used above");

        // Loads 1, 1.04, 0.98, 1: {A,D}|{B,C} is best balanced (2|2.02) but cuts A-B and C-D
        // (1 ms); {A,B}|{C,D} (2.04|1.98) is within 3% of 2.02 and cuts only B-C (8 ms).
        const WanTopology w = Line({1e-3, 8e-3, 1e-3});
        NS_TEST_EXPECT_MSG_EQ(Text(WanPartition::Balance(w, {1, 1.04, 0.98, 1}, {0, 0, 0}, 2)),
                              "0 0 1 1",
                              "nearly balanced, larger lookahead");
        NS_TEST_EXPECT_MSG_EQ(WanPartition::LOAD_TOLERANCE, 0.03, "the tolerance used above");
        NS_TEST_EXPECT_MSG_EQ(Text(WanPartition::Balance(w, {1, 1.1, 0.8, 1}, {0, 0, 0}, 2)),
                              "0 1 1 0",
                              "past the tolerance, balance wins");

        // A link without delay never crosses ranks: with A-B at 0 s, loads 4 1 1 4, the 5|5
        // split {A,B}|{C,D} is still allowed; {A,C}|{B,D} is not.
        const WanTopology z = Line({0, 5e-3, 2e-3});
        NS_TEST_EXPECT_MSG_EQ(Text(WanPartition::Balance(z, {4, 1, 1, 4}, {0, 0, 0}, 2)),
                              "0 0 1 1",
                              "zero-delay link kept inside a rank");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Impossible requests are refused with the reason.
 */
class PartitionCitiesErrorsTestCase : public TestCase
{
  public:
    PartitionCitiesErrorsTestCase()
        : TestCase("Balance: bad rank counts, loads and zero-delay cuts are refused")
    {
    }

  private:
    /** \param t topology \param loads per city \param packets per link \param ranks R
     *  \return the std::invalid_argument message, "" if none */
    static std::string Error(const WanTopology& t,
                             const std::vector<double>& loads,
                             const std::vector<double>& packets,
                             uint32_t ranks)
    {
        try
        {
            WanPartition::Balance(t, loads, packets, ranks);
        }
        catch (const std::invalid_argument& e)
        {
            return e.what();
        }
        return "";
    }

    void DoRun() override
    {
        const WanTopology t = Line({1e-3, 1e-3, 1e-3});
        NS_TEST_EXPECT_MSG_EQ(Error(t, {1, 1, 1, 1}, {0, 0, 0}, 0),
                              "ranks: 0: expected 1 to 4 (the number of cities)",
                              "no rank");
        NS_TEST_EXPECT_MSG_EQ(Error(t, {1, 1, 1, 1}, {0, 0, 0}, 5),
                              "ranks: 5: expected 1 to 4 (the number of cities)",
                              "more ranks than cities");
        NS_TEST_EXPECT_MSG_EQ(Error(t, {1, 1}, {0, 0, 0}, 2),
                              "city loads: 2 values for 4 cities",
                              "loads");
        NS_TEST_EXPECT_MSG_EQ(Error(t, {1, 1, 1, 1}, {0}, 2),
                              "link loads: 1 values for 3 links",
                              "link packets");
        // Every split of a line cuts a link; here none may be cut.
        const WanTopology z = Line({0, 0, 0});
        NS_TEST_EXPECT_MSG_EQ(Error(z, {1, 1, 1, 1}, {0, 0, 0}, 2),
                              "ranks: 2: no assignment of the cities of 'line' puts only links "
                              "with a positive delay between ranks",
                              "zero-delay links everywhere");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Past MAX_EXHAUSTIVE assignments the longest-load-first greedy runs.
 */
class PartitionCitiesGreedyTestCase : public TestCase
{
  public:
    PartitionCitiesGreedyTestCase()
        : TestCase("Balance: greedy on 22 cities")
    {
    }

  private:
    void DoRun() override
    {
        // 22 cities on a line (2^21 > MAX_EXHAUSTIVE assignments to two ranks): one of load
        // 10, then 21 of load 1. Greedy: 10 to rank 0, the next ten ones to rank 1 (10|10),
        // then the remaining eleven alternate from rank 0: 16|15, the optimum for 31 units.
        WanTopology t;
        t.SetName("long");
        std::vector<double> loads;
        for (uint32_t c = 0; c < 22; ++c)
        {
            WanCity city;
            city.code = "C" + std::to_string(c);
            city.name = city.code;
            t.AddCity(city);
            loads.push_back(c == 0 ? 10 : 1);
            if (c > 0)
            {
                WanLink link;
                link.a = c - 1;
                link.b = c;
                link.bps = 1000000000ULL;
                link.delay = 1e-3;
                t.AddLink(link);
            }
        }
        NS_TEST_ASSERT_MSG_GT(std::pow(2.0, 21.0),
                              double(WanPartition::MAX_EXHAUSTIVE),
                              "past the exhaustive limit");
        const std::vector<uint32_t> rank =
            WanPartition::Balance(t, loads, std::vector<double>(21, 0.0), 2);
        std::vector<double> load(2, 0.0);
        for (uint32_t c = 0; c < rank.size(); ++c)
        {
            load[rank[c]] += loads[c];
        }
        NS_TEST_EXPECT_MSG_EQ(rank[0], 0u, "the heaviest city first, on rank 0");
        NS_TEST_EXPECT_MSG_EQ(load[0], 16.0, "rank 0: 10 + 6 ones");
        NS_TEST_EXPECT_MSG_EQ(load[1], 15.0, "rank 1: 15 ones");
        for (uint32_t c = 1; c <= 10; ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(rank[c], 1u, "ones 1 to 10 fill rank 1 up to 10");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief --partition: explicit assignments, each error naming its item; the lookahead.
 */
class PartitionParseTestCase : public TestCase
{
  public:
    PartitionParseTestCase()
        : TestCase("Parse and GetLookahead: CITY:RANK lists, their errors, the smallest cut delay")
    {
    }

  private:
    /** \param t topology \param spec the list \param ranks R \return the error, "" if none */
    static std::string Error(const WanTopology& t, const std::string& spec, uint32_t ranks)
    {
        try
        {
            WanPartition::Parse(spec, t, ranks);
        }
        catch (const std::invalid_argument& e)
        {
            return e.what();
        }
        return "";
    }

    void DoRun() override
    {
        // A - B - C - D with delays 1, 2 and 3 ms.
        const WanTopology t = Line({1e-3, 2e-3, 3e-3});
        NS_TEST_EXPECT_MSG_EQ(Text(WanPartition::Parse("A:0,B:0,C:1,D:1", t, 2)),
                              "0 0 1 1",
                              "in order");
        NS_TEST_EXPECT_MSG_EQ(Text(WanPartition::Parse("D:0,C:1,B:2,A:0", t, 3)),
                              "0 2 1 0",
                              "any order");
        NS_TEST_EXPECT_MSG_EQ(WanPartition::Format(t, {0, 2, 1, 0}), "A:0,B:2,C:1,D:0", "Format");
        // Cuts: 0 0 | 1 1 cuts B-C only (2 ms); 0 2 1 0 cuts all three (smallest 1 ms); one
        // rank cuts nothing.
        NS_TEST_EXPECT_MSG_EQ(WanPartition::GetLookahead(t, {0, 0, 1, 1}),
                              MilliSeconds(2),
                              "one cut");
        NS_TEST_EXPECT_MSG_EQ(WanPartition::GetLookahead(t, {0, 2, 1, 0}),
                              MilliSeconds(1),
                              "three cuts");
        NS_TEST_EXPECT_MSG_EQ(WanPartition::GetLookahead(t, {0, 0, 0, 0}), Time(0), "no cut");
        NS_TEST_EXPECT_MSG_EQ(Error(t, "A:0,B:0,C:1,X:1", 2),
                              "--partition: 'X:1': no city 'X' in topology 'line'",
                              "unknown city");
        NS_TEST_EXPECT_MSG_EQ(Error(t, "A:0,B:0,C:1", 2),
                              "--partition: city 'D' has no rank (every city needs one)",
                              "missing city");
        NS_TEST_EXPECT_MSG_EQ(Error(t, "A:0,A:1,B:0,C:1,D:1", 2),
                              "--partition: city 'A' given twice",
                              "repeated city");
        NS_TEST_EXPECT_MSG_EQ(Error(t, "A:0,B:0,C:2,D:1", 2),
                              "--partition: 'C:2': expected CITY:RANK with RANK from 0 to 1",
                              "rank out of range");
        NS_TEST_EXPECT_MSG_EQ(Error(t, "A:0,B:-1,C:1,D:1", 2),
                              "--partition: 'B:-1': expected CITY:RANK with RANK from 0 to 1",
                              "negative rank");
        NS_TEST_EXPECT_MSG_EQ(Error(t, "A:0,B,C:1,D:1", 2),
                              "--partition: 'B': expected CITY:RANK with RANK from 0 to 1",
                              "no rank");
        NS_TEST_EXPECT_MSG_EQ(Error(t, "A:0,B:0,C:0,D:0", 2),
                              "--partition: rank 1 has no city (every rank needs one)",
                              "unused rank");
        NS_TEST_EXPECT_MSG_EQ(Error(t, "A:0,B:0,C:1,D:1", 5),
                              "ranks: 5: expected 1 to 4 (the number of cities)",
                              "more ranks than cities");
        const WanTopology z = Line({1e-3, 0, 1e-3});
        NS_TEST_EXPECT_MSG_EQ(Error(z, "A:0,B:0,C:1,D:1", 2),
                              "--partition: the link B-C has no delay and cannot join two ranks",
                              "zero-delay cut");
        NS_TEST_EXPECT_MSG_EQ(Error(z, "A:0,B:1,C:1,D:1", 2), "", "a cut with delay is fine");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief WanPartition suite.
 */
class WanPartitionTestSuite : public TestSuite
{
  public:
    WanPartitionTestSuite()
        : TestSuite("wan-partition")
    {
        AddTestCase(new PartitionCitiesTestCase());
        AddTestCase(new PartitionCitiesErrorsTestCase());
        AddTestCase(new PartitionCitiesGreedyTestCase());
        AddTestCase(new PartitionParseTestCase());
    }
};

/** Static instance. */
static WanPartitionTestSuite g_wanPartitionTestSuite;
