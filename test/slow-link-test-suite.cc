/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A link mistyped as 1 bit/s (issue #30, item 6): the warning before the run, the printed
 * table's columns for numbers of any width, and the silence checks that no longer tick while
 * nothing can arrive.
 */

// ctest-suite: slow-link

#include "ns3/clique-schedule.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/text-table.h"
#include "ns3/training-experiment.h"
#include "ns3/training-helper.h"
#include "ns3/training-table.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-topology-helper.h"
#include "ns3/wan-topology-json.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** Index of NYC-LON in doublezero-9's links. */
constexpr uint32_t NYC_LON = 7;
/** The model of the runs: 1 MB. */
constexpr uint64_t MODEL_BYTES = 1000000;

/**
 * \param linkBps the rate of NYC-LON (0: as in the file)
 * \return doublezero-9, with NYC-LON at \p linkBps
 */
WanTopology
DoubleZero(uint64_t linkBps)
{
    const WanTopology t = WanTopologyJson::LoadFile(
        WanCommandLine::ResolveDataPath("data/topologies/doublezero-9.json"));
    WanTopology out;
    out.SetName(t.GetName());
    for (const WanCity& city : t.GetCities())
    {
        out.AddCity(city);
    }
    for (const WanIsland& island : t.GetIslands())
    {
        out.AddIsland(island);
    }
    for (WanLink link : t.GetLinks())
    {
        if (linkBps > 0 && out.GetLinks().size() == NYC_LON)
        {
            link.bps = linkBps;
        }
        out.AddLink(link);
    }
    return out;
}

/**
 * \param linkBps the rate of NYC-LON (0: as in the file) \param maxSimTime the run's limit
 * \return the warning a run of one 1 MB round of the global clique would print
 */
std::string
LongRoundWarning(uint64_t linkBps, Time maxSimTime)
{
    WanTopologyHelper wan;
    wan.Install(DoubleZero(linkBps));
    TrainingHelper helper(wan, CliqueSchedule::GlobalClique(9));
    helper.SetModelBytes(MODEL_BYTES);
    helper.SetRounds(1);
    helper.Install();
    TrainingExperiment experiment(helper);
    experiment.SetMaxSimTime(maxSimTime);
    const std::string warning = experiment.GetLongRoundWarning();
    Simulator::Destroy();
    return warning;
}

/**
 * \ingroup wan-training-tests
 * \brief A link of 1 bit/s makes the plan's round last months: the run warns before it
 *        starts, names the link and its rate, and says --maxSimTime stops it; the file's
 *        100 Gbit/s link gets no warning.
 */
class LongRoundWarningTestCase : public TestCase
{
  public:
    LongRoundWarningTestCase()
        : TestCase("1 bit per second: warning naming the link, its rate and --maxSimTime")
    {
    }

  private:
    void DoRun() override
    {
        const std::string slow = LongRoundWarning(1, Seconds(1e9));
        NS_TEST_EXPECT_MSG_NE(slow.find("the plan's round 0 syncs in "),
                              std::string::npos,
                              "the planned round time: " << slow);
        NS_TEST_EXPECT_MSG_NE(slow.find("above 3600 s"), std::string::npos, "the threshold");
        const bool link = slow.find("limited by link NYC to LON at 1bps") != std::string::npos ||
                          slow.find("limited by link LON to NYC at 1bps") != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(link, true, "the link that limits it: " << slow);
        NS_TEST_EXPECT_MSG_NE(slow.find("--maxSimTime=DURATION stops the run"),
                              std::string::npos,
                              "how to stop it");
        NS_TEST_EXPECT_MSG_NE(slow.find("(this run stops at 1e+09 s)"),
                              std::string::npos,
                              "the run's limit");
        NS_TEST_EXPECT_MSG_EQ(LongRoundWarning(0, Seconds(0)), "", "the file's rates: no warning");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The printed table keeps its columns apart and aligned for a number wider than its
 *        column (the 1 bit/s run's round of 12920704 s ran into the next column), and prints
 *        as before where the numbers fit.
 */
class TableAlignmentTestCase : public TestCase
{
  public:
    TableAlignmentTestCase()
        : TestCase("summary table: a huge number keeps its columns apart and aligned")
    {
    }

  private:
    /** \param text lines \return them, one per line */
    static std::vector<std::string> Lines(const std::string& text)
    {
        std::vector<std::string> lines;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
        {
            lines.push_back(line);
        }
        return lines;
    }

    /** \param line a line \return the end column of each of its words */
    static std::vector<size_t> WordEnds(const std::string& line)
    {
        std::vector<size_t> ends;
        for (size_t k = 0; k < line.size(); ++k)
        {
            if (line[k] != ' ' && (k + 1 == line.size() || line[k + 1] == ' '))
            {
                ends.push_back(k + 1);
            }
        }
        return ends;
    }

    void DoRun() override
    {
        TrainingTableRow normal{"both", "optimal", TrainingSummary(), std::nullopt};
        normal.summary.meanRound = 1.5;
        normal.summary.meanSync = 0.5;
        normal.summary.estimatedSync = 0.4;
        TrainingTableRow huge = normal;
        huge.capabilities = "none";
        huge.summary.meanRound = 12920704.107412702;
        huge.summary.meanSync = 12920704.0;
        huge.summary.estimatedSync = 8000000.5;

        std::ostringstream before;
        TrainingTable::Print(before, {normal});
        const std::vector<std::string> fit = Lines(before.str());
        NS_TEST_ASSERT_MSG_EQ(fit.size(), 2u, "header and one row");
        NS_TEST_EXPECT_MSG_EQ(
            fit[1].substr(0, 73),
            "both         optimal                       1.5000      0.5000      0.4000",
            "numbers that fit print as before");

        std::ostringstream os;
        TrainingTable::Print(os, {normal, huge});
        const std::vector<std::string> lines = Lines(os.str());
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 3u, "header and two rows");
        NS_TEST_EXPECT_MSG_NE(lines[2].find(" 12920704.1074 12920704.0000 8000000.5000 "),
                              std::string::npos,
                              "the huge figures stay apart: " << lines[2]);
        // Right-aligned figures end where their header ends, in every line.
        const std::vector<size_t> header = WordEnds(lines[0]);
        for (uint32_t row = 1; row <= 2; ++row)
        {
            const std::vector<size_t> ends = WordEnds(lines[row]);
            NS_TEST_ASSERT_MSG_EQ(ends.size(),
                                  header.size(),
                                  "one word per column: " << lines[row]);
            for (size_t c = 2; c < std::min(header.size(), ends.size()); ++c)
            {
                NS_TEST_EXPECT_MSG_EQ(ends[c], header[c], "column " << c << " of row " << row);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(lines[1].size(), lines[2].size(), "both rows as wide");

        TextTable table;
        table.AddColumn("a", 3, TextTable::LEFT);
        table.AddColumn("b", 3, TextTable::RIGHT);
        table.AddRow({"abcd", "123456"});
        NS_TEST_EXPECT_MSG_EQ(table.FormatHeader(), "a          b", "widths from the content");
        NS_TEST_EXPECT_MSG_EQ(table.FormatRow(0), "abcd  123456", "a space between cells");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief While the updates trickle over a 1 bit/s link, the islands behind it wait for months
 *        with nothing to ask (their FPGAs hold the chunks that long): their silence checks
 *        skip ahead instead of firing every RetransmissionTimeout. SIM_TIME of the run would
 *        take SIM_TIME / RetransmissionTimeout checks of one waiting island alone; the whole
 *        run, every event of nine islands, takes fewer.
 */
class IdleChecksTestCase : public TestCase
{
  public:
    IdleChecksTestCase()
        : TestCase("1 bit per second: no silence check every interval while nothing can arrive")
    {
    }

  private:
    /** Simulated time of the run. */
    static constexpr double SIM_TIME = 20000;
    /** The applications' RetransmissionTimeout (their default), s. */
    static constexpr double CHECK_INTERVAL = 0.1;

    void DoRun() override
    {
        WanTopologyHelper wan;
        wan.Install(DoubleZero(1));
        TrainingHelper helper(wan, CliqueSchedule::GlobalClique(9));
        helper.SetModelBytes(MODEL_BYTES);
        helper.SetRounds(1);
        helper.SetAppAttribute("RetransmissionTimeout", TimeValue(Seconds(CHECK_INTERVAL)));
        helper.Install();
        TrainingExperiment experiment(helper);
        experiment.SetMaxSimTime(Seconds(SIM_TIME));
        experiment.Run();
        const uint64_t events = Simulator::GetEventCount();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(experiment.GetStoppedBy(), "maxSimTime", "the round takes months");
        NS_TEST_EXPECT_MSG_LT(events,
                              static_cast<uint64_t>(SIM_TIME / CHECK_INTERVAL),
                              "events of the whole run");
    }
};

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief The slow-link suite.
 */
class SlowLinkTestSuite : public TestSuite
{
  public:
    SlowLinkTestSuite()
        : TestSuite("slow-link")
    {
        AddTestCase(new LongRoundWarningTestCase());
        AddTestCase(new TableAlignmentTestCase());
        AddTestCase(new IdleChecksTestCase());
    }
};

/** The suite's instance. */
static SlowLinkTestSuite g_slowLinkTestSuite;
