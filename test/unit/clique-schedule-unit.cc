/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of CliqueSchedule: validation messages, canonical form, mixing matrices, the
 * spectral norm, rounds to epsilon, JSON round trip and the baseline factories.
 */

#include "ns3/clique-schedule-file.h"
#include "ns3/clique-schedule.h"

#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr double TOL = 1e-9;

/** \return the message of the runtime_error \p f throws, or "" */
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const std::runtime_error& e)
    {
        return e.what();
    }
    return "";
}

/** Independent dense product a x b. */
DenseMatrix
Multiply(const DenseMatrix& a, const DenseMatrix& b)
{
    size_t n = a.size();
    DenseMatrix c(n, std::vector<double>(n, 0.0));
    for (size_t i = 0; i < n; ++i)
    {
        for (size_t k = 0; k < n; ++k)
        {
            for (size_t j = 0; j < n; ++j)
            {
                c[i][j] += a[i][k] * b[k][j];
            }
        }
    }
    return c;
}

/** \return max |a_ij - 1/n| */
double
MaxDeviationFromAverage(const DenseMatrix& a)
{
    double m = 0;
    for (const auto& row : a)
    {
        for (double x : row)
        {
            m = std::max(m, std::fabs(x - 1.0 / a.size()));
        }
    }
    return m;
}

} // namespace

TEST(CliqueSchedule, ValidationNamesRoundAndIsland)
{
    std::string missing = ErrorOf([] { CliqueSchedule(4, {{{0, 1}, {2, 3}}, {{0, 1}, {3}}}); });
    EXPECT_NE(missing.find("round 1"), std::string::npos) << missing;
    EXPECT_NE(missing.find("island 2 missing"), std::string::npos) << missing;

    std::string dup = ErrorOf([] { CliqueSchedule(3, {{{0, 1}, {1, 2}}}); });
    EXPECT_NE(dup.find("round 0"), std::string::npos) << dup;
    EXPECT_NE(dup.find("island 1 duplicated"), std::string::npos) << dup;

    std::string range = ErrorOf([] { CliqueSchedule(3, {{{0, 1, 2}}, {{0, 1, 7}, {2}}}); });
    EXPECT_NE(range.find("round 1"), std::string::npos) << range;
    EXPECT_NE(range.find("island 7 out of range"), std::string::npos) << range;

    EXPECT_NE(ErrorOf([] { CliqueSchedule(3, {}); }), "");
    EXPECT_NE(ErrorOf([] { CliqueSchedule(2, {{{0, 1}, {}}}); }).find("empty"), std::string::npos);
}

TEST(CliqueSchedule, CanonicalFormAndLookups)
{
    CliqueSchedule s(5, {{{4, 2}, {3, 0, 1}}, {{1}, {0, 2, 3, 4}}}, "x");
    EXPECT_EQ(s.GetPeriod(), 2u);
    EXPECT_EQ(s.GetRounds()[0], (Partition{{0, 1, 3}, {2, 4}}));
    EXPECT_EQ(s.GetCliqueIndex(0, 4), 1u);
    EXPECT_EQ(s.GetCliqueIndex(2, 4), 1u); // round 2 uses partition 0
    EXPECT_EQ(s.GetClique(3, 3), (Clique{0, 2, 3, 4}));
    EXPECT_EQ(s.GetCliqueIndex(3, 1), 1u);
    EXPECT_EQ(s.DescribeCliqueSizes(), "1x3+1x2 | 1x4+1x1");
}

TEST(CliqueSchedule, MixingMatrixIsBlockAverage)
{
    CliqueSchedule s(4, {{{0, 2}, {1}, {3}}});
    DenseMatrix w = s.GetMixingMatrix(0);
    DenseMatrix expected = {{0.5, 0, 0.5, 0}, {0, 1, 0, 0}, {0.5, 0, 0.5, 0}, {0, 0, 0, 1}};
    EXPECT_EQ(w, expected);
}

TEST(CliqueSchedule, SpectralNormKnownMatrices)
{
    // [[1,1],[0,1]]: largest singular value is the golden ratio.
    EXPECT_NEAR(CliqueMixing::SpectralNorm({{1, 1}, {0, 1}}), (1 + std::sqrt(5.0)) / 2, TOL);
    // A diagonal matrix: the largest |entry|.
    EXPECT_NEAR(CliqueMixing::SpectralNorm({{0.3, 0, 0}, {0, -2, 0}, {0, 0, 1}}), 2, TOL);
    // A rank-one matrix u v^T: |u| |v|.
    EXPECT_NEAR(CliqueMixing::SpectralNorm({{1, 2}, {2, 4}, {3, 6}}),
                std::sqrt(14.0) * std::sqrt(5.0),
                TOL);
}

TEST(CliqueSchedule, SpectralNormOfLargeSymmetricMatrix)
{
    // The 64 x 64 path-graph Laplacian has eigenvalues 2 - 2 cos(pi k / 64), k = 0..63.
    const int n = 64;
    DenseMatrix l(n, std::vector<double>(n, 0.0));
    for (int i = 0; i < n; ++i)
    {
        l[i][i] = (i == 0 || i == n - 1) ? 1 : 2;
        if (i + 1 < n)
        {
            l[i][i + 1] = -1;
            l[i + 1][i] = -1;
        }
    }
    auto eig = CliqueMixing::SymmetricEigenvalues(l);
    const double pi = std::acos(-1.0);
    for (int k = 0; k < n; ++k)
    {
        EXPECT_NEAR(eig[k], 2 - 2 * std::cos(pi * (n - 1 - k) / n), 1e-9);
    }
    EXPECT_NEAR(CliqueMixing::SpectralNorm(l), 2 - 2 * std::cos(pi * (n - 1) / n), 1e-9);
}

TEST(CliqueSchedule, RingOfNineSpectralGap)
{
    // Ring of 9, weight 1/3 on self and both neighbours: eigenvalues (1 + 2 cos(2 pi k / 9)) / 3.
    const int n = 9;
    DenseMatrix w(n, std::vector<double>(n, 0.0));
    for (int i = 0; i < n; ++i)
    {
        w[i][i] = 1.0 / 3;
        w[i][(i + 1) % n] = 1.0 / 3;
        w[i][(i + n - 1) % n] = 1.0 / 3;
    }
    const double pi = std::acos(-1.0);
    double lambda2 = (1 + 2 * std::cos(2 * pi / n)) / 3;
    EXPECT_NEAR(CliqueMixing::SpectralGap(w), 1 - lambda2, 1e-9);
    EXPECT_NEAR(CliqueMixing::SpectralGap(w), 0.156, 5e-4);
    uint64_t expectedRounds = static_cast<uint64_t>(std::ceil(std::log(1e-3) / std::log(lambda2)));
    EXPECT_EQ(expectedRounds, 41u);
    EXPECT_EQ(CliqueMixing::RoundsToEpsilon(w, 1e-3, 1000), expectedRounds);
}

TEST(CliqueSchedule, GlobalCliqueIsExactInOneRound)
{
    CliqueSchedule g = CliqueSchedule::GlobalClique(7);
    EXPECT_EQ(g.GetPeriod(), 1u);
    EXPECT_NEAR(g.GetContraction(), 0, TOL);
    EXPECT_EQ(g.GetRoundsToEpsilon(1e-3), 1u);
    EXPECT_TRUE(g.IsMixing());
}

TEST(CliqueSchedule, MoshpitThreeByThreeIsExactInTwoRounds)
{
    CliqueSchedule m = CliqueSchedule::MoshpitGrid(9);
    ASSERT_EQ(m.GetPeriod(), 2u);
    EXPECT_EQ(m.GetRounds()[0], (Partition{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}));
    EXPECT_EQ(m.GetRounds()[1], (Partition{{0, 3, 6}, {1, 4, 7}, {2, 5, 8}}));
    DenseMatrix p = Multiply(m.GetMixingMatrix(1), m.GetMixingMatrix(0));
    EXPECT_LT(MaxDeviationFromAverage(p), TOL);
    EXPECT_NEAR(m.GetContraction(), 0, TOL);
    EXPECT_EQ(m.GetRoundsToEpsilon(1e-3), 2u);
}

TEST(CliqueSchedule, MoshpitNonSquareAndPrime)
{
    CliqueSchedule m10 = CliqueSchedule::MoshpitGrid(10); // 2 x 5: exact
    EXPECT_EQ(m10.DescribeCliqueSizes(), "2x5 | 5x2");
    EXPECT_EQ(m10.GetRoundsToEpsilon(1e-3), 2u);
    CliqueSchedule m7 = CliqueSchedule::MoshpitGrid(7); // 3 columns, rows 3+3+1: not exact
    EXPECT_EQ(m7.DescribeCliqueSizes(), "2x3+1x1 | 1x3+2x2");
    EXPECT_GT(m7.GetContraction(), 0.01);
    EXPECT_TRUE(m7.IsMixing());
}

TEST(CliqueSchedule, DisconnectedScheduleNeverMixes)
{
    CliqueSchedule s(4, {{{0, 1}, {2, 3}}, {{0}, {1}, {2, 3}}});
    EXPECT_FALSE(s.IsMixing());
    EXPECT_NEAR(s.GetContraction(), 1, TOL);
    EXPECT_EQ(s.GetRoundsToEpsilon(1e-3), CliqueSchedule::UNREACHABLE);
    // A single non-global partition is a projection: rho = 1.
    CliqueSchedule one(4, {{{0, 1}, {2, 3}}});
    EXPECT_NEAR(one.GetContraction(), 1, TOL);
}

TEST(CliqueSchedule, RoundsToEpsilonMatchesDenseWalk)
{
    // An alternating path schedule on 5 islands: compare against an independent dense walk.
    CliqueSchedule s(5, {{{0, 1}, {2, 3}, {4}}, {{0}, {1, 2}, {3, 4}}});
    const double eps = 1e-3;
    DenseMatrix p(5, std::vector<double>(5, 0.0));
    for (int i = 0; i < 5; ++i)
    {
        p[i][i] = 1;
    }
    uint64_t expected = 0;
    for (uint64_t r = 1; r < 10000; ++r)
    {
        p = Multiply(s.GetMixingMatrix((r - 1) % 2), p);
        DenseMatrix a = p;
        for (auto& row : a)
        {
            for (double& x : row)
            {
                x -= 0.2;
            }
        }
        if (CliqueMixing::SpectralNorm(a) <= eps)
        {
            expected = r;
            break;
        }
    }
    ASSERT_GT(expected, 4u);
    EXPECT_EQ(s.GetRoundsToEpsilon(eps), expected);
    EXPECT_EQ(s.GetRoundsToEpsilon(eps, expected - 1), CliqueSchedule::UNREACHABLE);
}

TEST(CliqueSchedule, GossipPairsIsARoundRobin)
{
    for (uint32_t n : {6u, 7u})
    {
        CliqueSchedule g = CliqueSchedule::GossipPairs(n);
        EXPECT_EQ(g.GetPeriod(), n % 2 == 0 ? n - 1 : n);
        std::set<std::pair<uint32_t, uint32_t>> met;
        for (const auto& partition : g.GetRounds())
        {
            uint32_t singletons = 0;
            for (const auto& clique : partition)
            {
                ASSERT_LE(clique.size(), 2u);
                if (clique.size() == 1)
                {
                    ++singletons;
                }
                else
                {
                    EXPECT_TRUE(met.insert({clique[0], clique[1]}).second);
                }
            }
            EXPECT_EQ(singletons, n % 2);
        }
        EXPECT_EQ(met.size(), n * (n - 1) / 2); // every pair exactly once per period
    }
    // N = 4: matchings {01,23} then {02,13} average exactly after two rounds.
    EXPECT_EQ(CliqueSchedule::GossipPairs(4).GetRoundsToEpsilon(1e-3), 2u);
}

TEST(CliqueSchedule, OnePeerExponential)
{
    CliqueSchedule e8 = CliqueSchedule::OnePeerExponential(8);
    EXPECT_EQ(e8.GetPeriod(), 3u);
    EXPECT_EQ(e8.GetRounds()[2], (Partition{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
    EXPECT_NEAR(e8.GetContraction(), 0, TOL);
    EXPECT_EQ(e8.GetRoundsToEpsilon(1e-3), 3u);
    CliqueSchedule e6 = CliqueSchedule::OnePeerExponential(6);
    EXPECT_EQ(e6.GetPeriod(), 3u);
    EXPECT_EQ(e6.GetRounds()[2], (Partition{{0, 4}, {1, 5}, {2}, {3}}));
    EXPECT_GT(e6.GetContraction(), 0.01);
    EXPECT_GT(e6.GetRoundsToEpsilon(1e-3), 3u);
}

TEST(CliqueSchedule, JsonRoundTripAndErrors)
{
    CliqueSchedule s = CliqueSchedule::MoshpitGrid(6);
    s.SetAlgorithms(0, {SyncAlgorithm::RING, SyncAlgorithm::DIRECT});
    CliqueSchedule back = CliqueScheduleFile::Parse(CliqueScheduleFile::ToJson(s), "mem");
    EXPECT_TRUE(back == s);
    EXPECT_EQ(back.GetName(), "moshpit-grid");
    EXPECT_EQ(back.GetAlgorithm(0, 0), SyncAlgorithm::RING);

    std::string path = "/tmp/clique-schedule-unit.json";
    CliqueScheduleFile::SaveFile(s, path);
    EXPECT_TRUE(CliqueScheduleFile::LoadFile(path) == s);
    std::remove(path.c_str());

    std::string e1 = ErrorOf([] {
        CliqueScheduleFile::Parse(R"({"islands": 3, "rounds": [{"cliques": [[0, 1], [2, -1]]}]})",
                                  "f.json");
    });
    EXPECT_NE(e1.find("f.json"), std::string::npos) << e1;
    EXPECT_NE(e1.find("rounds[0].cliques[1][1]"), std::string::npos) << e1;
    std::string e2 = ErrorOf([] {
        CliqueScheduleFile::Parse(R"({"islands": 3, "rounds": [{"cliques": [[0, 1]]}]})", "g.json");
    });
    EXPECT_NE(e2.find("g.json"), std::string::npos) << e2;
    EXPECT_NE(e2.find("island 2 missing"), std::string::npos) << e2;
    std::string e3 = ErrorOf([] {
        CliqueScheduleFile::Parse(
            R"({"islands": 2, "rounds": [{"cliques": [[0, 1]], "algorithms": ["star"]}]})",
            "h.json");
    });
    EXPECT_NE(e3.find("algorithms[0]"), std::string::npos) << e3;
    EXPECT_NE(e3.find("star"), std::string::npos) << e3;
    // An index past the islands names the range (4294967304 once read as "not a non-negative
    // integer", which it is).
    for (const char* index : {"2", "4294967304"})
    {
        const std::string e = ErrorOf([index] {
            CliqueScheduleFile::Parse(
                std::string(R"({"islands": 2, "rounds": [{"cliques": [[0, )") + index + "]]}]}",
                "h.json");
        });
        EXPECT_NE(e.find(std::string("h.json: rounds[0].cliques[0][1]: ") + index +
                         ": island index out of range (the schedule has 2 islands: 0..1)"),
                  std::string::npos)
            << e;
    }
    // A name of the wrong type lists every algorithm, tree too (it once listed two).
    const std::string e4 = ErrorOf([] {
        CliqueScheduleFile::Parse(
            R"({"islands": 2, "rounds": [{"cliques": [[0, 1]], "algorithms": [1]}]})",
            "h.json");
    });
    EXPECT_NE(e4.find("h.json: rounds[0].algorithms[0]: 1: expected \"direct\", \"ring\" or "
                      "\"tree\""),
              std::string::npos)
        << e4;
    EXPECT_NE(ErrorOf([] { CliqueScheduleFile::Parse("{", "i.json"); }).find("i.json"),
              std::string::npos);
    EXPECT_NE(ErrorOf([] {
                  CliqueScheduleFile::LoadFile("/nonexistent/s.json");
              }).find("/nonexistent/s.json"),
              std::string::npos);
}

// Input rules of schedule files (doc/input-rules.rst): each error names the file, the field and
// the value.

namespace
{

/** \param text a schedule document \return the error Parse() throws for it, from "s.json" */
std::string
ScheduleError(const std::string& text)
{
    return ErrorOf([&text] { CliqueScheduleFile::Parse(text, "s.json"); });
}

/** \param message an error \param parts substrings it must hold \return a gtest result */
::testing::AssertionResult
Names(const std::string& message, const std::vector<std::string>& parts)
{
    if (message.rfind("s.json: ", 0) != 0)
    {
        return ::testing::AssertionFailure() << "does not start with the file: " << message;
    }
    for (const auto& part : parts)
    {
        if (message.find(part) == std::string::npos)
        {
            return ::testing::AssertionFailure() << "'" << message << "' lacks '" << part << "'";
        }
    }
    return ::testing::AssertionSuccess();
}

} // namespace

TEST(CliqueScheduleFile, RejectsUnknownKeyInRound)
{
    // The issue's example: a misspelt "algorithms" silently meant "direct".
    EXPECT_TRUE(Names(ScheduleError(R"({"islands": 3, "rounds": [{"cliques": [[0, 1, 2]],
                                        "algoritms": ["ring"]}]})"),
                      {"rounds[0].algoritms", "[\"ring\"]", "unknown field"}));
}

TEST(CliqueScheduleFile, RejectsUnknownTopLevelKey)
{
    EXPECT_TRUE(Names(ScheduleError(R"({"islands": 2, "nmae": "x",
                                        "rounds": [{"cliques": [[0, 1]]}]})"),
                      {"nmae", "\"x\"", "unknown field"}));
}

TEST(CliqueScheduleFile, RejectsDuplicateKey)
{
    EXPECT_TRUE(Names(ScheduleError(R"({"islands": 2, "islands": 3,
                                        "rounds": [{"cliques": [[0, 1]]}]})"),
                      {"islands", "duplicate key"}));
}

TEST(CliqueScheduleFile, RejectsDuplicateKeyInRound)
{
    EXPECT_TRUE(Names(ScheduleError(R"({"islands": 2, "rounds": [{"cliques": [[0, 1]],
                                        "cliques": [[0], [1]]}]})"),
                      {"rounds[0].cliques", "duplicate key"}));
}

TEST(CliqueScheduleFile, RejectsIslandCountBeyondBitmap)
{
    EXPECT_TRUE(Names(ScheduleError(R"({"islands": 4000000000, "rounds": [{"cliques": [[0]]}]})"),
                      {"islands", "4000000000", "must be in 1..1024"}));
}

TEST(CliqueScheduleFile, RejectsZeroIslands)
{
    EXPECT_TRUE(Names(ScheduleError(R"({"islands": 0, "rounds": [{"cliques": [[0]]}]})"),
                      {"islands", ": 0: ", "must be in 1..1024"}));
}

TEST(CliqueScheduleFile, RejectsNameWithComma)
{
    EXPECT_TRUE(Names(ScheduleError(R"({"name": "a,b", "islands": 1,
                                        "rounds": [{"cliques": [[0]]}]})"),
                      {"name", "\"a,b\"", "must not contain"}));
}

TEST(CliqueScheduleFile, RejectsNameWithControlCharacter)
{
    EXPECT_TRUE(Names(ScheduleError(R"({"name": "a\nb", "islands": 1,
                                        "rounds": [{"cliques": [[0]]}]})"),
                      {"name", "\"a\\nb\"", "control character"}));
}

TEST(CliqueScheduleFile, RejectsNumberTooLargeForADouble)
{
    EXPECT_TRUE(Names(ScheduleError(R"({"islands": 1e400, "rounds": [{"cliques": [[0]]}]})"),
                      {"invalid JSON", "1e400"}));
}

TEST(CliqueScheduleFile, NamesSyntaxErrorPosition)
{
    EXPECT_TRUE(
        Names(ScheduleError("{\n  \"islands\": 1,\n  ]\n}"), {"line 3, column 3", "invalid JSON"}));
}

TEST(CliqueScheduleFile, RejectsEmptyRounds)
{
    EXPECT_TRUE(Names(ScheduleError(R"({"islands": 2, "rounds": []})"),
                      {"rounds", "[]", "expected a non-empty array of rounds"}));
}

TEST(CliqueScheduleFile, RejectsAlgorithmCountMismatch)
{
    EXPECT_TRUE(Names(ScheduleError(R"({"islands": 2, "rounds": [{"cliques": [[0, 1]],
                                        "algorithms": ["ring", "direct"]}]})"),
                      {"rounds[0].algorithms", "[\"ring\",\"direct\"]", "one name per clique"}));
}

TEST(CliqueScheduleFile, RoundsNameTheirUpdateFormat)
{
    const CliqueSchedule s = CliqueScheduleFile::Parse(
        R"({"islands": 3, "rounds": [{"cliques": [[0, 1, 2]], "format": "int8"},
                                     {"cliques": [[0, 1, 2]]}]})",
        "f.json");
    ASSERT_TRUE(s.GetFormat(0).has_value());
    EXPECT_EQ(s.GetFormat(0)->ToString(), "int8");
    EXPECT_FALSE(s.GetFormat(1).has_value());
    EXPECT_EQ(s.GetFormat(2)->ToString(), "int8"); // round 2 is period round 0
    EXPECT_TRUE(s.HasFormats());
    EXPECT_EQ(CliqueScheduleFile::Parse(CliqueScheduleFile::ToJson(s), "back"), s);
    EXPECT_FALSE(CliqueSchedule::GlobalClique(3).HasFormats());
    EXPECT_TRUE(Names(ScheduleError(R"({"islands": 3, "rounds": [{"cliques": [[0, 1, 2]],
                                        "format": "int9"}]})"),
                      {"rounds[0].format", "int9", "expected int32|bf16|int8|int4|topk"}));
    EXPECT_TRUE(Names(ScheduleError(R"({"islands": 3, "rounds": [{"cliques": [[0, 1, 2]],
                                        "format": 8}]})"),
                      {"rounds[0].format", "8", "expected int32"}));
}
