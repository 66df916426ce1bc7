/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the transit FPGA's END gate (model/transit-end-gate.h): a member's END leaves
 * only once no slot here holds a piece of it, behind the last one.
 */

#include "ns3/gradient-header.h"
#include "ns3/packet.h"
#include "ns3/transit-end-gate.h"

#include <gtest/gtest.h>
#include <initializer_list>

using namespace ns3;

namespace
{

/** \param round round \param contributors the piece's members \return a header of clique 0 */
GradientHeader
Piece(uint32_t round, std::initializer_list<uint32_t> contributors)
{
    GradientHeader header;
    header.SetRound(round);
    IslandBitmap bitmap;
    for (uint32_t member : contributors)
    {
        bitmap.Set(member);
        header.SetSender(member);
    }
    header.SetContributors(bitmap);
    return header;
}

/** \param round round \param member sender \return its END's header */
GradientHeader
End(uint32_t round, uint32_t member)
{
    GradientHeader header = Piece(round, {member});
    header.SetType(GradientHeader::END);
    return header;
}

} // namespace

TEST(TransitEndGate, AnEndWithNothingHeldPassesAtOnce)
{
    TransitEndGate gate;
    EXPECT_TRUE(gate.Admit(End(0, 2), Create<Packet>(40)));
    gate.Hold(Piece(0, {3}));
    EXPECT_TRUE(gate.Admit(End(0, 2), Create<Packet>(40))); // 3's slot does not hold 2
    EXPECT_TRUE(gate.Admit(End(1, 3), Create<Packet>(40))); // another round
    EXPECT_EQ(gate.GetKept(), 0u);
}

TEST(TransitEndGate, AnEndWaitsForTheLastSlotHoldingItsMember)
{
    TransitEndGate gate;
    gate.Hold(Piece(0, {2}));    // chunk c: 2's own piece
    gate.Hold(Piece(0, {2, 5})); // chunk c + 1: an aggregate from below holding 2 and 5
    const Ptr<const Packet> end = Create<Packet>(40);
    EXPECT_FALSE(gate.Admit(End(0, 2), end));
    EXPECT_EQ(gate.GetKept(), 1u);
    EXPECT_TRUE(gate.Release(Piece(0, {2}), Piece(0, {2}).GetContributors()).empty());
    const std::vector<Ptr<const Packet>> released =
        gate.Release(Piece(0, {2, 5}), Piece(0, {2, 5, 7}).GetContributors());
    ASSERT_EQ(released.size(), 1u);
    EXPECT_EQ(released[0], end);
    EXPECT_EQ(gate.GetKept(), 0u);
    EXPECT_TRUE(gate.Admit(End(0, 5), Create<Packet>(40))); // 5's slot left too
}

TEST(TransitEndGate, EndsLeaveInTheOrderTheyCame)
{
    TransitEndGate gate;
    gate.Hold(Piece(0, {1, 4}));
    const Ptr<const Packet> first = Create<Packet>(40);
    const Ptr<const Packet> second = Create<Packet>(41);
    EXPECT_FALSE(gate.Admit(End(0, 4), first));
    EXPECT_FALSE(gate.Admit(End(0, 1), second));
    const std::vector<Ptr<const Packet>> released =
        gate.Release(Piece(0, {1}), Piece(0, {1, 4}).GetContributors());
    ASSERT_EQ(released.size(), 2u);
    EXPECT_EQ(released[0], first);
    EXPECT_EQ(released[1], second);
}
