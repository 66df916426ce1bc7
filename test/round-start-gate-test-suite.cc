/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of RoundStartGate (model/round-start-gate.h): when an island's exchange of a round
 * starts (at once, at the schedule's earliest send time, after the START of every late
 * member, at the alignment limit) and the LATE and START notices it sends. Every expected
 * time is worked out by hand in the comments from the times the test sets.
 */

// ctest-suite: round-start-gate

#include "exchange-unit-harness.h"

#include "ns3/direct-exchange.h"
#include "ns3/gradient-header.h"
#include "ns3/gradient-payload.h"
#include "ns3/packet.h"
#include "ns3/round-start-gate.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <memory>
#include <utility>
#include <vector>

namespace ns3
{
namespace
{

/// AlignmentLimit of the gates under test.
const Time LIMIT = MilliSeconds(20);
/// AlignmentMargin of the gates under test.
const Time MARGIN = MilliSeconds(1);
/// NoticeCopies of the gates under test.
constexpr uint32_t COPIES = 2;

/**
 * \ingroup wan-training-tests
 * \brief One gate on island 0 of four (every round trip 1 ms): the rounds it started and
 *        when, and notices of other members built as they travel.
 */
class GateTestCase : public ExchangeUnitTestCase
{
  protected:
    /** \param name the case's name */
    explicit GateTestCase(const std::string& name)
        : ExchangeUnitTestCase(name)
    {
    }

    /** \brief A fresh context and gate; every round is pending until m_stopped is set. */
    void MakeGate()
    {
        MakeContext(0);
        const auto capture = m_context.on.send;
        m_context.on.send =
            [this, capture](uint32_t round, Ptr<Packet> packet, Ipv4Address to, bool control) {
                GradientHeader header;
                if (GradientHeader::Parse(packet, header) &&
                    header.GetType() == GradientHeader::START)
                {
                    m_startTimes.push_back(GradientPayload::ReadStartTime(packet));
                }
                capture(round, packet, to, control);
            };
        m_startTimes.clear();
        m_starts.clear();
        m_stopped = false;
        m_gate = std::make_unique<RoundStartGate>();
        m_gate->Setup(
            m_context.settings,
            LIMIT,
            MARGIN,
            COPIES,
            [this](uint32_t) { return !m_stopped; },
            [this](uint32_t round) {
                m_gate->Cancel(); // as TrainingApplication::StartExchange does
                m_starts.emplace_back(round, Simulator::Now());
            });
    }

    /**
     * \param type LATE or START \param sender the member \param round its round
     * \param at a START's time
     * \brief the gate notes the notice as it arrives (parsed from its packet)
     */
    void Notice(GradientHeader::Type type, uint32_t sender, uint32_t round, Time at = Time(0))
    {
        GradientHeader header = Header(type, sender, 0, {sender}, 0);
        header.SetRound(round);
        header.SetChunkCount(1);
        header.SetElementCount(0); // a START's count and flags: GradientPayload::CreateStart
        Ptr<Packet> packet = type == GradientHeader::START
                                 ? GradientPayload::CreateStart(header, at)
                                 : GradientPayload::CreateVirtual(header);
        GradientHeader parsed;
        NS_TEST_ASSERT_MSG_EQ(GradientHeader::Parse(packet, parsed), true, "the notice parses");
        m_gate->NoteNotice(parsed, packet);
    }

    /**
     * \param round the round \param contributors a DATA chunk's contributors
     * \return what NoteContributors said of the chunk's round
     */
    bool Contribution(uint32_t round, const std::vector<uint32_t>& contributors)
    {
        GradientHeader header =
            Header(GradientHeader::DATA, contributors.front(), 0, contributors, 0);
        header.SetRound(round);
        return m_gate->NoteContributors(header);
    }

    /** \param round a round \param at when \brief the gate is asked to start it then */
    void RequestAt(uint32_t round, Time at)
    {
        Simulator::Schedule(at, [this, round]() { m_gate->Request(round); });
    }

    /** \param expected the (round, time) starts expected \param what for the messages */
    void CheckStarts(const std::vector<std::pair<uint32_t, Time>>& expected,
                     const std::string& what)
    {
        NS_TEST_ASSERT_MSG_EQ(m_starts.size(), expected.size(), what << ": number of starts");
        for (std::size_t i = 0; i < expected.size() && i < m_starts.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_starts[i].first, expected[i].first, what << ": round");
            NS_TEST_EXPECT_MSG_EQ(m_starts[i].second, expected[i].second, what << ": time");
        }
    }

    std::unique_ptr<RoundStartGate> m_gate;          //!< the gate under test
    std::vector<std::pair<uint32_t, Time>> m_starts; //!< rounds started, when
    std::vector<Time> m_startTimes;                  //!< times of the STARTs sent
    bool m_stopped{false};                           //!< the island stopped
};

/**
 * \ingroup wan-training-tests
 * \brief No notice: a round starts when asked, or at its earliest send time if later.
 */
class GateNotBeforeTestCase : public GateTestCase
{
  public:
    GateNotBeforeTestCase()
        : GateTestCase("no notices: at once, or at the round's earliest send time")
    {
    }

  private:
    void DoRun() override
    {
        MakeGate();
        // Round 0 has no constraint, round 1 may not send before 5 ms, round 2 not before
        // 2 ms (past when asked), round 3 has no entry.
        m_gate->SetNotBefore({Time(0), MilliSeconds(5), MilliSeconds(2)});
        RequestAt(0, MilliSeconds(1));
        RequestAt(1, MilliSeconds(3));
        RequestAt(2, MilliSeconds(6));
        RequestAt(3, MilliSeconds(7));
        Simulator::Run();
        Simulator::Destroy();
        CheckStarts({{0, MilliSeconds(1)},
                     {1, MilliSeconds(5)},
                     {2, MilliSeconds(6)},
                     {3, MilliSeconds(7)}},
                    "not-before");
        NS_TEST_EXPECT_MSG_EQ(m_sent.size(), 0, "no notices sent");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A member's LATE holds the round until its START, then until the announced time;
 *        the latest of several announced times wins.
 */
class GateHeldForStartTestCase : public GateTestCase
{
  public:
    GateHeldForStartTestCase()
        : GateTestCase("LATE holds the round until every late member's START and its time")
    {
    }

  private:
    void DoRun() override
    {
        MakeGate();
        Simulator::Schedule(MilliSeconds(1), [this]() {
            Notice(GradientHeader::LATE, 2, 1);
            Notice(GradientHeader::LATE, 3, 1);
        });
        RequestAt(1, MilliSeconds(2)); // compute over: held
        Simulator::Schedule(MilliSeconds(4), [this]() {
            Notice(GradientHeader::START, 3, 1, MilliSeconds(9));
            m_gate->Resume(1); // still waits for 2
        });
        Simulator::Schedule(MilliSeconds(6), [this]() {
            Notice(GradientHeader::START, 2, 1, MilliSeconds(8));
            m_gate->Resume(1); // both in: the later time, 9 ms
        });
        Simulator::Run();
        Simulator::Destroy();
        CheckStarts({{1, MilliSeconds(9)}}, "held for two STARTs");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Without the START, the round starts at the alignment limit; a stopped island does
 *        not start it; a contribution of the late member stands in for its START.
 */
class GateLimitTestCase : public GateTestCase
{
  public:
    /** \param how "limit", "stopped" or "contribution" */
    explicit GateLimitTestCase(std::string how)
        : GateTestCase("LATE without START: " + how),
          m_how(std::move(how))
    {
    }

  private:
    void DoRun() override
    {
        MakeGate();
        Simulator::Schedule(MilliSeconds(1), [this]() { Notice(GradientHeader::LATE, 2, 1); });
        RequestAt(1, MilliSeconds(2)); // held; the limit ends at 2 + 20 ms
        if (m_how == "stopped")
        {
            Simulator::Schedule(MilliSeconds(10), [this]() { m_stopped = true; });
        }
        if (m_how == "contribution")
        {
            Simulator::Schedule(MilliSeconds(5), [this]() {
                NS_TEST_EXPECT_MSG_EQ(Contribution(1, {3}), true, "round 1 waits");
                m_gate->Resume(1); // 3 was not late: still waiting for 2
            });
            Simulator::Schedule(MilliSeconds(7), [this]() {
                NS_TEST_EXPECT_MSG_EQ(Contribution(1, {1, 2}), true, "round 1 waits");
                m_gate->Resume(1); // 2 has started: no more waiting
            });
        }
        Simulator::Run();
        Simulator::Destroy();
        if (m_how == "limit")
        {
            CheckStarts({{1, MilliSeconds(22)}}, m_how);
        }
        else if (m_how == "stopped")
        {
            CheckStarts({}, m_how);
        }
        else
        {
            CheckStarts({{1, MilliSeconds(7)}}, m_how);
            NS_TEST_EXPECT_MSG_EQ(Contribution(1, {2}), false, "round 1 waits no more");
        }
    }

    std::string m_how; //!< what ends the wait
};

/**
 * \ingroup wan-training-tests
 * \brief The island's own LATE (once per round, NoticeCopies to every other member) and
 *        START (late enough for the farthest member, not before the launch), and its own
 *        START's time holding its own start.
 */
class GateAnnounceTestCase : public GateTestCase
{
  public:
    GateAnnounceTestCase()
        : GateTestCase("own LATE once, own START at the farthest member's delay plus margin")
    {
    }

  private:
    void DoRun() override
    {
        MakeGate();
        m_context.settings.rtt = {Time(0), MilliSeconds(1), MilliSeconds(4), MilliSeconds(10)};
        TrainingRoundConfig config;
        config.members = {0, 1, 2, 3};
        DirectExchange next(m_context, 1, config);
        DirectExchange after(m_context, 2, config);
        Simulator::Schedule(MilliSeconds(1), [&]() {
            m_gate->AnnounceLate(1, next);
            m_gate->AnnounceLate(1, next);                            // once per round
            m_gate->AnnounceStart(2, after, config.members, Time(0)); // no LATE for 2: nothing
        });
        // Round 0 ends at 3 ms; round 1 launches 2 ms later. The farthest member (3) is 5 ms
        // away one way: START at 3 + max(2, 5 + 1) = 9 ms.
        Simulator::Schedule(MilliSeconds(3), [&]() {
            m_gate->AnnounceStart(1, next, config.members, MilliSeconds(2));
        });
        RequestAt(1, MilliSeconds(5)); // its own START holds it until 9 ms
        Simulator::Run();
        Simulator::Destroy();

        std::vector<Sent> late;
        std::vector<Sent> start;
        for (const Sent& s : m_sent)
        {
            (s.header.GetType() == GradientHeader::LATE ? late : start).push_back(s);
        }
        NS_TEST_ASSERT_MSG_EQ(late.size(), 3 * COPIES, "LATE: copies to three members, once");
        NS_TEST_ASSERT_MSG_EQ(start.size(), 3 * COPIES, "START: copies to three members");
        for (uint32_t member = 1; member < 4; ++member)
        {
            const Ipv4Address to = m_context.settings.addresses[member];
            uint32_t lateTo = 0;
            uint32_t startTo = 0;
            for (const Sent& s : m_sent)
            {
                NS_TEST_EXPECT_MSG_EQ(s.header.GetRound(), 1, "notices are of round 1");
                lateTo += s.to == to && s.header.GetType() == GradientHeader::LATE ? 1 : 0;
                startTo += s.to == to && s.header.GetType() == GradientHeader::START ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(lateTo, COPIES, "LATE copies to member " << member);
            NS_TEST_EXPECT_MSG_EQ(startTo, COPIES, "START copies to member " << member);
        }
        for (const Sent& s : late)
        {
            NS_TEST_EXPECT_MSG_EQ(s.at, MilliSeconds(1), "LATE sent at 1 ms");
        }
        for (const Sent& s : start)
        {
            NS_TEST_EXPECT_MSG_EQ(s.at, MilliSeconds(3), "START sent when round 0 ended");
        }
        NS_TEST_ASSERT_MSG_EQ(m_startTimes.size(), 3 * COPIES, "START times read");
        for (Time at : m_startTimes)
        {
            NS_TEST_EXPECT_MSG_EQ(at, MilliSeconds(9), "START's time");
        }
        CheckStarts({{1, MilliSeconds(9)}}, "own START");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The suite.
 */
class RoundStartGateTestSuite : public TestSuite
{
  public:
    RoundStartGateTestSuite()
        : TestSuite("round-start-gate")
    {
        AddTestCase(new GateNotBeforeTestCase);
        AddTestCase(new GateHeldForStartTestCase);
        AddTestCase(new GateLimitTestCase("limit"));
        AddTestCase(new GateLimitTestCase("stopped"));
        AddTestCase(new GateLimitTestCase("contribution"));
        AddTestCase(new GateAnnounceTestCase);
    }
};

/// The suite's static instance.
RoundStartGateTestSuite g_roundStartGateTestSuite;

} // namespace
} // namespace ns3
