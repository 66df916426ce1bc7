/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of CliqueScheduleHelper, the schedule optimiser: it matches a brute force over all
 * schedules of period <= 2 on small topologies, picks the global clique when multicast and
 * FPGAs make it cheap, avoids it when they are missing, scores baselines by hand, is
 * deterministic, rejects bad settings and quotes names in its CSV table (RFC 4180).
 */

// ctest-suite: clique-schedule-helper

#include "ns3/clique-schedule-file.h"
#include "ns3/clique-schedule-helper.h"
#include "ns3/clique-schedule.h"
#include "ns3/nstime.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-routing.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** 1 Gbps. */
constexpr double GBPS = 1e9;
/** Test chunk payload. */
constexpr uint32_t CHUNK = 1000;
/** Test gradient header. */
constexpr uint32_t GRADIENT_HEADER = 48;
/** Per-packet overhead with the test header: 20 + 8 + 48 + 2. */
constexpr uint32_t OVERHEAD = 78;

/** \return a city with capabilities \p caps at a distinct position */
WanCity
City(uint32_t index, const std::string& caps)
{
    WanCity c;
    c.code = "C" + std::to_string(index);
    c.name = c.code;
    c.latitude = index;
    c.caps = WanCapabilities::Parse(caps, "test");
    return c;
}

/** \return an island */
WanIsland
Island(uint32_t index, uint32_t city, double bps, double delay)
{
    return WanIsland{"i" + std::to_string(index), city, static_cast<uint64_t>(bps), delay};
}

/** \return a link */
WanLink
Link(uint32_t a, uint32_t b, double bps, double delay)
{
    return WanLink{a, b, static_cast<uint64_t>(bps), delay};
}

/** Full mesh of n cities, one island each: access 1 Gbps / 0.5 ms, links 10 Gbps / 5 ms. */
WanTopology
FullMesh(uint32_t n, const std::string& caps)
{
    WanTopology t;
    for (uint32_t c = 0; c < n; ++c)
    {
        t.AddCity(City(c, caps));
        t.AddIsland(Island(c, c, GBPS, 0.5e-3));
    }
    for (uint32_t a = 0; a < n; ++a)
    {
        for (uint32_t b = a + 1; b < n; ++b)
        {
            t.AddLink(Link(a, b, 10 * GBPS, 5e-3));
        }
    }
    return t;
}

/** An irregular WAN: three cities on a line (slow second link), two islands per city (the
 *  last city holds n - 4). */
WanTopology
Irregular(uint32_t n, const std::string& caps)
{
    WanTopology t;
    for (uint32_t c = 0; c < 3; ++c)
    {
        t.AddCity(City(c, caps));
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        t.AddIsland(Island(i, std::min<uint32_t>(i / 2, 2), GBPS, 0.2e-3));
    }
    t.AddLink(Link(0, 1, 2 * GBPS, 4e-3));
    t.AddLink(Link(1, 2, 0.5 * GBPS, 30e-3));
    return t;
}

/** \return a helper with the tests' packet sizes */
CliqueScheduleHelper
MakeHelper(uint64_t modelBytes, double compute, uint32_t maxPeriod)
{
    CliqueScheduleHelper h;
    h.SetCostModelAttribute("ChunkPayloadBytes", UintegerValue(CHUNK));
    h.SetCostModelAttribute("GradientHeaderBytes", UintegerValue(GRADIENT_HEADER));
    h.SetModelBytes(modelBytes);
    h.SetComputeTime(Seconds(compute));
    h.SetMaxPeriod(maxPeriod);
    h.SetEpsilon(1e-3);
    h.SetSeed(7);
    h.SetLocalSearchIterations(200);
    return h;
}

/** Every set partition of n islands (recursive: island i joins a clique or opens one). */
void
AllPartitions(uint32_t n, uint32_t i, Partition& current, std::vector<Partition>& out)
{
    if (i == n)
    {
        out.push_back(CliqueSchedule::Canonical(current));
        return;
    }
    for (size_t c = 0; c < current.size(); ++c)
    {
        current[c].push_back(i);
        AllPartitions(n, i + 1, current, out);
        current[c].pop_back();
    }
    current.push_back({i});
    AllPartitions(n, i + 1, current, out);
    current.pop_back();
}

/**
 * Brute force over every schedule of period 1 and 2: objective = sum over the first R rounds of
 * (compute + sync time), R from the schedule's mixing.
 */
double
BruteForce(CliqueScheduleHelper& h, uint32_t n, double compute)
{
    std::vector<Partition> parts;
    Partition cur;
    AllPartitions(n, 0, cur, parts);
    std::vector<double> sync;
    for (const auto& p : parts)
    {
        sync.push_back(h.GetSyncTime(p));
    }
    double best = std::numeric_limits<double>::infinity();
    for (size_t a = 0; a < parts.size(); ++a)
    {
        for (size_t b = 0; b <= parts.size(); ++b)
        {
            std::vector<Partition> rounds{parts[a]};
            std::vector<double> times{compute + sync[a]};
            if (b < parts.size())
            {
                rounds.push_back(parts[b]);
                times.push_back(compute + sync[b]);
            }
            CliqueSchedule s(n, rounds);
            uint64_t r = s.GetRoundsToEpsilon(1e-3, 100000);
            if (r == CliqueSchedule::UNREACHABLE)
            {
                continue;
            }
            double total = 0;
            for (uint64_t k = 0; k < r; ++k)
            {
                total += times[k % times.size()];
            }
            best = std::min(best, total);
        }
    }
    return best;
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief With a fragment plan, a round's sync is the part the compute does not hide: three
 *        buckets of 1, 3 and 2 MB ready at 0.1 s, 0.2 s and (the compute phase) 0.3 s; each
 *        exchange estimated alone by the cost model at its bytes (the algorithms chosen for
 *        the whole update), then overlapped by hand (each starts at the later of its launch and the
 * end of the one before; exposed = the last end - 0.3 s). The global clique and pairs, five
 * islands.
 */
class ScheduleHelperOverlapTestCase : public TestCase
{
  public:
    ScheduleHelperOverlapTestCase()
        : TestCase("with buckets, the optimiser scores the sync the compute does not hide")
    {
    }

  private:
    void DoRun() override
    {
        const WanTopology topology = Irregular(5, "both");
        const std::vector<uint64_t> bytes = {1000000, 3000000, 2000000};
        const std::vector<double> ready = {0.1, 0.2, 0.3};
        CliqueScheduleHelper h = MakeHelper(6000000, 0.3, 2);
        h.SetRouting(WanRouting(topology));
        h.SetFragmentPlan(FragmentPlan(bytes,
                                       {Seconds(ready[0]), Seconds(ready[1]), Seconds(ready[2])},
                                       Seconds(ready[2])));
        for (const Partition& p : {Partition{{0, 1, 2, 3, 4}}, Partition{{0, 3}, {1, 4}, {2}}})
        {
            // The round's cliques keep the algorithms chosen for the whole update.
            const std::vector<SyncAlgorithm> algorithms = h.ChooseAlgorithms(p);
            double end = 0;
            for (size_t b = 0; b < bytes.size(); ++b)
            {
                end = std::max(end, ready[b]) +
                      h.GetCostModel()->EstimateSyncTime(p, algorithms, bytes[b]);
            }
            const double exposed = end - ready.back();
            NS_TEST_ASSERT_MSG_EQ_TOL(h.GetSyncTime(p),
                                      exposed,
                                      1e-12,
                                      "exposed sync of " << p.size() << " cliques");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief For N <= 6 the search finds the brute-force optimum over all schedules with T <= 2.
 */
class ScheduleHelperBruteForceTestCase : public TestCase
{
  public:
    ScheduleHelperBruteForceTestCase()
        : TestCase("search matches brute force over T <= 2 for N <= 6")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            uint32_t n;
            const char* caps;
            uint64_t bytes;
            double compute;
        };

        const Case cases[] = {
            {5, "none", 20000000, 0.01},
            {6, "none", 50000000, 0.0},
            {6, "both", 50000000, 0.05},
            {6, "multicast", 1000000, 0.0},
        };
        for (const auto& c : cases)
        {
            CliqueScheduleHelper h = MakeHelper(c.bytes, c.compute, 2);
            h.SetRouting(WanRouting(Irregular(c.n, c.caps)));
            ScheduleSearchResult r = h.Optimise();
            double brute = BruteForce(h, c.n, c.compute);
            std::string what = std::to_string(c.n) + " islands, " + c.caps;
            NS_TEST_ASSERT_MSG_EQ(std::isfinite(brute), true, what);
            NS_TEST_ASSERT_MSG_LT_OR_EQ(r.best.timeToEpsilon, brute * (1 + 1e-9), what);
            if (r.best.schedule.GetPeriod() <= 2)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(r.best.timeToEpsilon, brute, brute * 1e-9, what);
            }
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Uniform full mesh: with both capabilities the global clique wins; with none and a
 *        bandwidth-bound setting the direct global clique does not.
 */
class ScheduleHelperCapabilitiesTestCase : public TestCase
{
  public:
    ScheduleHelperCapabilitiesTestCase()
        : TestCase("full mesh: both -> global clique; none -> not direct global")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 6;
        const uint64_t bytes = 100000000;
        const double compute = 0.1;
        const double wire = 8.0 * (bytes + (bytes / CHUNK) * OVERHEAD);
        const double delay = 0.5e-3 + 5e-3 + 0.5e-3;

        CliqueScheduleHelper both = MakeHelper(bytes, compute, 4);
        ScheduleSearchResult rb = both.Optimise(WanRouting(FullMesh(n, "both")));
        NS_TEST_ASSERT_MSG_EQ(rb.best.schedule.GetPeriod(), 1u, "one round");
        NS_TEST_ASSERT_MSG_EQ(rb.best.schedule.GetRounds()[0].size(), 1u, "one clique");
        NS_TEST_ASSERT_MSG_EQ(rb.best.schedule.GetAlgorithm(0, 0), SyncAlgorithm::DIRECT, "direct");
        // Multicast out, FPGA in: each stream at the full 1 Gbps, one round.
        NS_TEST_ASSERT_MSG_EQ_TOL(rb.best.timeToEpsilon,
                                  compute + wire / GBPS + delay + 1e-6,
                                  1e-9,
                                  "hand value (FPGA latency 1 us)");

        CliqueScheduleHelper none = MakeHelper(bytes, compute, 4);
        ScheduleSearchResult rn = none.Optimise(WanRouting(FullMesh(n, "none")));
        // Baseline row 0 is the direct global clique: 5 unicast copies share each egress.
        const ScheduleCandidate& g = rn.baselines[0];
        NS_TEST_ASSERT_MSG_EQ(g.schedule.GetName(), "global-clique", "baseline order");
        NS_TEST_ASSERT_MSG_EQ_TOL(g.timeToEpsilon,
                                  compute + wire / (GBPS / 5) + delay,
                                  1e-9,
                                  "global clique by hand");
        bool directGlobal = rn.best.schedule.GetPeriod() == 1 &&
                            rn.best.schedule.GetRounds()[0].size() == 1 &&
                            rn.best.schedule.GetAlgorithm(0, 0) == SyncAlgorithm::DIRECT;
        NS_TEST_ASSERT_MSG_EQ(directGlobal, false, "direct global clique is not optimal");
        NS_TEST_ASSERT_MSG_LT(rn.best.timeToEpsilon, g.timeToEpsilon, "strictly better");

        // Ring all-reduce over all six: 2(k-1) = 10 steps. Segments are cut by int32 elements:
        // five of ceil(M/4/6) elements and one of the rest. Each member's finish is a chain of
        // 10 ring edges that all carry the same segment (at step t, member j sends segment
        // (j - t) mod k), so the mean finish over members is the mean over segments of
        // 10 x (segment wire time + the last packet forwarded over access, WAN (10x faster)
        // and access links beyond the first, i.e. 1.1 x its bits at 1 Gbps + delay).
        const uint64_t elements = bytes / 4;
        const uint64_t bigSeg = 4 * ((elements + n - 1) / n);
        const uint64_t lastSeg = bytes - (n - 1) * bigSeg;
        auto chain = [&](uint64_t seg) {
            const uint64_t chunks = (seg + CHUNK - 1) / CHUNK;
            const double segWire = 8.0 * (seg + chunks * OVERHEAD);
            const double lastBits = 8.0 * (seg - (chunks - 1) * CHUNK + OVERHEAD);
            return 10 * (segWire / GBPS + 1.1 * lastBits / GBPS + delay);
        };
        const double ringMean = ((n - 1) * chain(bigSeg) + chain(lastSeg)) / n;
        const ScheduleCandidate& ring = rn.baselines[1];
        NS_TEST_ASSERT_MSG_EQ_TOL(ring.timeToEpsilon, compute + ringMean, 1e-9, "ring by hand");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Same seed, same result; bad settings are rejected.
 */
class ScheduleHelperDeterminismTestCase : public TestCase
{
  public:
    ScheduleHelperDeterminismTestCase()
        : TestCase("deterministic for a seed; invalid settings rejected")
    {
    }

  private:
    void DoRun() override
    {
        WanRouting routing(Irregular(12, "multicast"));
        std::string first;
        for (int run = 0; run < 2; ++run)
        {
            CliqueScheduleHelper h = MakeHelper(20000000, 0.01, 3);
            ScheduleSearchResult r = h.Optimise(routing);
            std::string json = CliqueScheduleFile::ToJson(r.best.schedule) +
                               CliqueScheduleHelper::FormatTable(r.table);
            if (run == 0)
            {
                first = json;
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(json, first, "identical output for the same seed");
            }
            NS_TEST_ASSERT_MSG_EQ(r.baselines.size(), 5u, "five baselines");
            NS_TEST_ASSERT_MSG_EQ(std::isfinite(r.best.timeToEpsilon), true, "finite");
            // The search leaves rho out while it scores; every returned row has it filled in.
            for (const auto& row : r.table)
            {
                NS_TEST_ASSERT_MSG_EQ(row.rho,
                                      row.schedule.GetContraction(),
                                      "rho of " << row.schedule.GetName());
            }
            NS_TEST_ASSERT_MSG_EQ(r.best.rho, r.best.schedule.GetContraction(), "rho of the best");
        }

        CliqueScheduleHelper h = MakeHelper(1000, 0, 2);
        h.SetRouting(routing);
        bool threw = false;
        try
        {
            h.Evaluate(CliqueSchedule::GlobalClique(5));
        }
        catch (const std::runtime_error&)
        {
            threw = true;
        }
        NS_TEST_ASSERT_MSG_EQ(threw, true, "island count mismatch");
        h.SetEpsilon(1.5);
        threw = false;
        try
        {
            h.Optimise();
        }
        catch (const std::runtime_error& e)
        {
            threw = std::string(e.what()).find("epsilon") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(threw, true, "epsilon out of range");
        // A schedule that never mixes is reported with an infinite time, not an error.
        h.SetEpsilon(1e-3);
        Partition halves{{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}};
        ScheduleCandidate c = h.Evaluate(CliqueSchedule(12, {halves}, "halves"));
        NS_TEST_ASSERT_MSG_EQ(std::isinf(c.timeToEpsilon), true, "unreachable");
        NS_TEST_ASSERT_MSG_EQ(c.roundsToEpsilon, CliqueSchedule::UNREACHABLE, "no R");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief SetProgress: lines name each stage in order, count the work done, and change nothing
 *        in the search's result; none without it. SetDeadline: none reached, nothing changes;
 *        one passed, the best after the baselines.
 */
class ScheduleHelperProgressTestCase : public TestCase
{
  public:
    ScheduleHelperProgressTestCase()
        : TestCase("progress lines and a deadline: stages in order, counts, the same result")
    {
    }

  private:
    /** \param r a search's result \return its best schedule and table, as text */
    static std::string Describe(const ScheduleSearchResult& r)
    {
        return CliqueScheduleFile::ToJson(r.best.schedule) +
               CliqueScheduleHelper::FormatTable(r.table);
    }

    void DoRun() override
    {
        // 8 islands: every stage runs (exhaustive up to 10 islands), in well under a second.
        WanRouting routing(Irregular(8, "multicast"));
        CliqueScheduleHelper quiet = MakeHelper(20000000, 0.01, 3);
        std::ostringstream none;
        quiet.SetProgress("label", 0, none);
        const ScheduleSearchResult plain = quiet.Optimise(routing);
        NS_TEST_ASSERT_MSG_EQ(none.str(), "", "a period of 0 prints nothing");

        // A period far below a unit of work (microseconds): a line after every unit.
        CliqueScheduleHelper loud = MakeHelper(20000000, 0.01, 3);
        std::ostringstream lines;
        loud.SetProgress("capabilities=multicast", 1e-12, lines);
        const ScheduleSearchResult traced = loud.Optimise(routing);
        NS_TEST_ASSERT_MSG_EQ(Describe(traced), Describe(plain), "the same search either way");

        const std::vector<std::string> stages{"baselines",
                                              "exhaustive",
                                              "structured families",
                                              "local search"};
        std::vector<std::string> seen;
        uint64_t lastRounds = 0;
        uint64_t lastSchedules = 0;
        bool bestShown = false;
        std::istringstream in(lines.str());
        std::string line;
        const std::string prefix = "progress: capabilities=multicast optimiser ";
        while (std::getline(in, line))
        {
            NS_TEST_ASSERT_MSG_EQ(line.rfind(prefix, 0), 0u, "line " << line);
            const std::string rest = line.substr(prefix.size());
            const std::string stage = rest.substr(0, rest.find(':'));
            if (seen.empty() || seen.back() != stage)
            {
                seen.push_back(stage);
            }
            unsigned long long rounds = 0;
            unsigned long long schedules = 0;
            NS_TEST_ASSERT_MSG_EQ(std::sscanf(rest.c_str() + stage.size(),
                                              ": %llu rounds estimated, %llu schedules scored",
                                              &rounds,
                                              &schedules),
                                  2,
                                  "counts in " << line);
            NS_TEST_ASSERT_MSG_EQ((rounds >= lastRounds && schedules >= lastSchedules),
                                  true,
                                  "counts never fall: " << line);
            // No best before the baselines are in; once there is one, every line shows it.
            const bool hasBest = line.find(" best ") != std::string::npos;
            NS_TEST_ASSERT_MSG_EQ((hasBest || !bestShown), true, "best gone: " << line);
            NS_TEST_ASSERT_MSG_EQ((hasBest && lastSchedules == 0), false, "early best: " << line);
            bestShown = bestShown || hasBest;
            lastRounds = rounds;
            lastSchedules = schedules;
        }
        NS_TEST_ASSERT_MSG_EQ(bestShown, true, "the running best");
        NS_TEST_ASSERT_MSG_EQ(seen.size(), stages.size(), "stages seen");
        for (size_t i = 0; i < stages.size() && i < seen.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(seen[i], stages[i], "stage " << i);
        }
        // The last unit of work is the local search's last schedule scored.
        NS_TEST_ASSERT_MSG_EQ(lastRounds, traced.partitionsScored, "rounds estimated, final");
        NS_TEST_ASSERT_MSG_EQ(lastSchedules, traced.schedulesScored, "schedules scored, final");
        NS_TEST_ASSERT_MSG_EQ(traced.stoppedIn, "", "no deadline, no stop");

        // A deadline an hour away changes nothing; one already past stops the first stage
        // after the baselines, whose best (the global clique with the chosen algorithm or
        // a baseline) stands.
        CliqueScheduleHelper late = MakeHelper(20000000, 0.01, 3);
        late.SetDeadline(std::chrono::steady_clock::now() + std::chrono::hours(1));
        const ScheduleSearchResult unhurried = late.Optimise(routing);
        NS_TEST_ASSERT_MSG_EQ(Describe(unhurried), Describe(plain), "a deadline not reached");
        NS_TEST_ASSERT_MSG_EQ(unhurried.stoppedIn, "", "not stopped");
        CliqueScheduleHelper past = MakeHelper(20000000, 0.01, 3);
        past.SetDeadline(std::chrono::steady_clock::now());
        const ScheduleSearchResult cut = past.Optimise(routing);
        NS_TEST_ASSERT_MSG_EQ(cut.stoppedIn, "exhaustive", "stopped in the first stage");
        NS_TEST_ASSERT_MSG_EQ(cut.table.size(), 6u, "five baselines and the chosen global");
        double fastest = std::numeric_limits<double>::infinity();
        for (const auto& row : cut.table)
        {
            fastest = std::min(fastest, row.timeToEpsilon);
        }
        NS_TEST_ASSERT_MSG_EQ(cut.best.timeToEpsilon, fastest, "the best of those rows");
        NS_TEST_ASSERT_MSG_EQ((cut.best.timeToEpsilon >= plain.best.timeToEpsilon),
                              true,
                              "no better than the whole search");
        NS_TEST_ASSERT_MSG_EQ(cut.best.rho, cut.best.schedule.GetContraction(), "rho filled in");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief WriteCsv quotes names per RFC 4180: a comma or a quote in a schedule's name or family
 *        keeps the row as wide as the header.
 */
class ScheduleHelperCsvQuotingTestCase : public TestCase
{
  public:
    ScheduleHelperCsvQuotingTestCase()
        : TestCase("candidate CSV quotes names with commas and quotes")
    {
    }

  private:
    /**
     * \brief Split one CSV line into fields per RFC 4180 (quoted fields, "" for a quote).
     * \param line the line \return its fields
     */
    static std::vector<std::string> SplitCsv(const std::string& line)
    {
        std::vector<std::string> fields(1);
        bool quoted = false;
        for (size_t i = 0; i < line.size(); ++i)
        {
            const char c = line[i];
            if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
            {
                fields.back() += '"';
                ++i;
            }
            else if (c == '"')
            {
                quoted = !quoted;
            }
            else if (c == ',' && !quoted)
            {
                fields.emplace_back();
            }
            else
            {
                fields.back() += c;
            }
        }
        return fields;
    }

    void DoRun() override
    {
        ScheduleCandidate quoted;
        quoted.schedule = CliqueSchedule::GlobalClique(3);
        quoted.schedule.SetName("cities \"east, west\"");
        quoted.family = "given,file";
        quoted.rho = 0.5;
        quoted.roundsToEpsilon = 10;
        quoted.roundTimes = {0.25};
        quoted.timeToEpsilon = 2.5;
        ScheduleCandidate plain = quoted;
        plain.schedule.SetName("plain");
        plain.family = "baseline";

        const std::string path = CreateTempDirFilename("candidates.csv");
        CliqueScheduleHelper::WriteCsv({quoted, plain}, path);
        std::ifstream in(path);
        std::string header;
        std::string first;
        std::string second;
        std::getline(in, header);
        std::getline(in, first);
        std::getline(in, second);
        // Written by hand from RFC 4180: quotes around, every quote doubled; plain names bare.
        NS_TEST_ASSERT_MSG_EQ(first.rfind("\"cities \"\"east, west\"\"\",\"given,file\",1,", 0),
                              0u,
                              "quoted row: " << first);
        NS_TEST_ASSERT_MSG_EQ(second.rfind("plain,baseline,1,", 0), 0u, "plain row: " << second);
        const size_t columns = SplitCsv(header).size();
        NS_TEST_ASSERT_MSG_EQ(columns, 9u, "header: " << header);
        NS_TEST_ASSERT_MSG_EQ(SplitCsv(header)[4], "sync", "the algorithms' column");
        NS_TEST_ASSERT_MSG_EQ(SplitCsv(first)[4], "direct", "a global clique, DIRECT");
        NS_TEST_ASSERT_MSG_EQ(SplitCsv(first).size(), columns, "quoted row width: " << first);
        NS_TEST_ASSERT_MSG_EQ(SplitCsv(first)[0], "cities \"east, west\"", "name read back");
        NS_TEST_ASSERT_MSG_EQ(SplitCsv(first)[1], "given,file", "family read back");
        NS_TEST_ASSERT_MSG_EQ(SplitCsv(second).size(), columns, "plain row width: " << second);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The suite.
 */
class CliqueScheduleHelperTestSuite : public TestSuite
{
  public:
    CliqueScheduleHelperTestSuite()
        : TestSuite("clique-schedule-helper")
    {
        AddTestCase(new ScheduleHelperBruteForceTestCase);
        AddTestCase(new ScheduleHelperOverlapTestCase);
        AddTestCase(new ScheduleHelperCapabilitiesTestCase);
        AddTestCase(new ScheduleHelperDeterminismTestCase);
        AddTestCase(new ScheduleHelperProgressTestCase);
        AddTestCase(new ScheduleHelperCsvQuotingTestCase);
    }
};

/** Static instance. */
static CliqueScheduleHelperTestSuite g_cliqueScheduleHelperTestSuite;
