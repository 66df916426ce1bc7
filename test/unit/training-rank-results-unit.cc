/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of what a rank of a distributed run sends rank 0 (helper/training-rank-results.h):
 * every field of every round record comes back from Encode() and Decode() as it went in, times
 * to the nanosecond beyond 32 bits; text that is cut short is refused.
 */

#include "ns3/nstime.h"
#include "ns3/training-rank-results.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

/** \param base a number to derive every field from \return a record with no field at its default */
TrainingRoundRecord
MakeRecord(uint32_t base)
{
    TrainingRoundRecord r;
    r.island = base + 1;
    r.round = base + 2;
    r.clique = base + 3;
    r.members = {base, base + 4, base + 5};
    r.computeStart = NanoSeconds(5000000001LL + base);
    r.syncStart = NanoSeconds(6000000002LL + base);
    r.syncEnd = NanoSeconds(7000000003LL + base);
    r.hiddenSync = NanoSeconds(117042832LL + base);
    r.bytesSent = 8000000000ULL + base;
    r.bytesReceived = 9000000000ULL + base;
    r.packetsSent = 10 + base;
    r.packetsReceived = 11 + base;
    r.controlPacketsSent = 12 + base;
    r.controlPacketsReceived = 13 + base;
    r.retransmissions = 14 + base;
    r.lostPeers = {base + 6};
    r.finished = (base % 2) == 0;
    return r;
}

} // namespace

TEST(TrainingRankResults, EveryRecordFieldComesBack)
{
    TrainingRankResults sent;
    sent.packetsSent = 21;
    sent.queueDrops = 22;
    sent.lossDrops = 23;
    sent.fpga.aggregated = 24;
    sent.fpga.wraps = 25;
    sent.routers.drops[0] = 26;
    sent.linkBytes = {27, 28000000000ULL};
    sent.lastLinkFrame = NanoSeconds(9100000000LL);
    sent.islands = {{3, {MakeRecord(0), MakeRecord(1)}}, {7, {MakeRecord(10)}}};

    const TrainingRankResults got = TrainingRankResults::Decode(sent.Encode());
    EXPECT_EQ(got.packetsSent, 21u);
    EXPECT_EQ(got.queueDrops, 22u);
    EXPECT_EQ(got.lossDrops, 23u);
    EXPECT_EQ(got.fpga.aggregated, 24u);
    EXPECT_EQ(got.fpga.wraps, 25u);
    EXPECT_EQ(got.routers.drops[0], 26u);
    EXPECT_EQ(got.linkBytes, sent.linkBytes);
    EXPECT_EQ(got.lastLinkFrame, NanoSeconds(9100000000LL));
    ASSERT_EQ(got.islands.size(), 2u);
    for (std::size_t i = 0; i < got.islands.size(); ++i)
    {
        EXPECT_EQ(got.islands[i].first, sent.islands[i].first);
        ASSERT_EQ(got.islands[i].second.size(), sent.islands[i].second.size());
        for (std::size_t k = 0; k < got.islands[i].second.size(); ++k)
        {
            const TrainingRoundRecord& a = got.islands[i].second[k];
            const TrainingRoundRecord& b = sent.islands[i].second[k];
            EXPECT_EQ(a.island, b.island);
            EXPECT_EQ(a.round, b.round);
            EXPECT_EQ(a.clique, b.clique);
            EXPECT_EQ(a.members, b.members);
            EXPECT_EQ(a.computeStart, b.computeStart);
            EXPECT_EQ(a.syncStart, b.syncStart);
            EXPECT_EQ(a.syncEnd, b.syncEnd);
            EXPECT_EQ(a.hiddenSync, b.hiddenSync) << "island " << a.island;
            EXPECT_EQ(a.bytesSent, b.bytesSent);
            EXPECT_EQ(a.bytesReceived, b.bytesReceived);
            EXPECT_EQ(a.packetsSent, b.packetsSent);
            EXPECT_EQ(a.packetsReceived, b.packetsReceived);
            EXPECT_EQ(a.controlPacketsSent, b.controlPacketsSent);
            EXPECT_EQ(a.controlPacketsReceived, b.controlPacketsReceived);
            EXPECT_EQ(a.retransmissions, b.retransmissions);
            EXPECT_EQ(a.lostPeers, b.lostPeers);
            EXPECT_EQ(a.finished, b.finished);
        }
    }
}

TEST(TrainingRankResults, TextCutShortIsRefused)
{
    TrainingRankResults sent;
    sent.islands = {{0, {MakeRecord(0)}}};
    const std::string text = sent.Encode();
    EXPECT_THROW(TrainingRankResults::Decode(text.substr(0, text.rfind(' '))), std::runtime_error);
}
