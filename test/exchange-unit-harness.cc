/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "exchange-unit-harness.h"

#include "training-scenario.h"

#include "ns3/chunk-layout.h"
#include "ns3/gradient-payload.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

ExchangeUnitTestCase::ExchangeUnitTestCase(const std::string& name)
    : TestCase(name)
{
}

void
ExchangeUnitTestCase::MakeContext(uint32_t island, Time hold)
{
    m_context = ExchangeContext();
    m_context.settings.island = island;
    m_context.settings.islandCount = 4;
    for (uint32_t i = 0; i < 4; ++i)
    {
        m_context.settings.addresses.push_back(Ipv4Address(0x0a000001 + (i << 8)));
    }
    m_context.settings.rtt.assign(4, MilliSeconds(1));
    m_context.settings.hold.assign(4, hold);
    m_context.settings.layout = ChunkLayout(6 * GradientHeader::ELEMENT_SIZE, 2 * 4);
    m_context.settings.framingBytes = training_test::FRAMING; // what an access device reports
    m_context.settings.real = true;
    m_context.settings.checkInterval = MilliSeconds(100);
    m_context.settings.repairTimeout = MilliSeconds(10);
    m_context.settings.peerPatience = Seconds(10);
    m_context.on.send = [this](uint32_t, Ptr<Packet> packet, Ipv4Address to, bool control) {
        Sent s;
        s.at = Simulator::Now();
        s.to = to;
        s.control = control;
        GradientPayload::Parse(packet, s.header, &s.values);
        m_sent.push_back(s);
    };
    m_context.on.resent = [this](uint32_t, uint32_t) { ++m_resent; };
    m_context.on.peerLost = [](uint32_t, uint32_t) {};
    m_context.on.complete = [this](uint32_t) { ++m_completed; };
    m_sent.clear();
    m_resent = 0;
    m_completed = 0;
}

GradientHeader
ExchangeUnitTestCase::Header(GradientHeader::Type type,
                             uint32_t sender,
                             uint32_t chunk,
                             const std::vector<uint32_t>& contributors,
                             uint16_t flags)
{
    GradientHeader h;
    h.SetType(type);
    h.SetSender(sender);
    h.SetChunkCount(3);
    h.SetChunkIndex(chunk);
    h.SetElementCount(type == GradientHeader::NACK ? 0 : 2);
    IslandBitmap members;
    for (uint32_t i = 0; i < 4; ++i)
    {
        members.Set(i);
    }
    h.SetMembers(members);
    IslandBitmap set;
    for (uint32_t c : contributors)
    {
        set.Set(c);
    }
    h.SetContributors(set);
    h.SetFlags(flags);
    if (type == GradientHeader::NACK)
    {
        h.SetNackRanges({{chunk, 1}});
    }
    return h;
}

void
ExchangeUnitTestCase::Deliver(RoundExchange* exchange,
                              Time at,
                              const GradientHeader& header,
                              std::vector<int32_t> values)
{
    Simulator::Schedule(at, [exchange, header, values]() {
        if (header.GetType() == GradientHeader::NACK)
        {
            exchange->ReceiveControl(header);
        }
        else
        {
            exchange->ReceiveChunk(header, values, false);
        }
    });
}

std::vector<ExchangeUnitTestCase::Sent>
ExchangeUnitTestCase::SentTo(bool control, Ipv4Address to) const
{
    std::vector<Sent> out;
    for (const Sent& s : m_sent)
    {
        if (s.control == control && s.to == to)
        {
            out.push_back(s);
        }
    }
    return out;
}

void
ExchangeUnitTestCase::MakeOwn(int32_t scale, int32_t step, int32_t offset)
{
    m_own.assign(4, {});
    for (int32_t i = 0; i < 4; ++i)
    {
        for (int32_t e = 0; e < 6; ++e)
        {
            m_own[i].push_back(scale * i + step * e + offset);
        }
    }
}

std::vector<int32_t>
ExchangeUnitTestCase::Slice(const std::vector<uint32_t>& islands, uint32_t chunk) const
{
    std::vector<int32_t> sum(2, 0);
    for (uint32_t i : islands)
    {
        sum[0] += m_own[i][2 * chunk];
        sum[1] += m_own[i][2 * chunk + 1];
    }
    return sum;
}

void
ExchangeUnitTestCase::CheckExactMean(const RoundExchange& exchange, const std::string& what)
{
    std::vector<double> x(6, 0.0);
    exchange.Average(x, training_test::SCALE);
    for (uint32_t e = 0; e < 6; ++e)
    {
        const int32_t sum = m_own[0][e] + m_own[1][e] + m_own[2][e] + m_own[3][e];
        NS_TEST_EXPECT_MSG_EQ(x[e], sum / (training_test::SCALE * 4), what << ", element " << e);
    }
}

} // namespace ns3
