/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRANSIT_END_GATE_H
#define TRANSIT_END_GATE_H

#include "fpga-slot-table.h"
#include "gradient-header.h"
#include "island-bitmap.h"

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Keeps a reduction-tree member's END behind its pieces at a transit FPGA.
 *
 * A member's END follows its last piece up the tree, and FPGAs above read it to learn that the
 * member has gone past every chunk (FpgaSlotTable frontiers). But a piece waits in this FPGA's
 * slot until the slot settles, while an END would pass at once: above, the member would then
 * seem past a chunk whose piece is still here, and a slot there would leave without it. So the
 * gate counts, per (job, round, clique) and member, the slots here holding a piece of the
 * member (from the piece's add to the slot's emission) and keeps the member's END until that
 * count is zero: it then leaves right behind the slot's aggregate, in order.
 */
class TransitEndGate
{
  public:
    /**
     * \brief A piece was summed into a slot (opened or added).
     * \param header the piece's header: its flow and contributors
     */
    void Hold(const GradientHeader& header);
    /**
     * \brief A slot was emitted: its contributors' pieces have left.
     * \param header a header of the slot's flow (job, round, clique)
     * \param contributors the slot's contributors
     * \return the ENDs that may leave now, in the order they came
     */
    std::vector<Ptr<const Packet>> Release(const GradientHeader& header,
                                           const IslandBitmap& contributors);
    /**
     * \brief A member's END came.
     * \param header its header \param packet the END packet (IPv4 header included)
     * \return true if it may leave now; false: kept until Release() frees it
     */
    bool Admit(const GradientHeader& header, Ptr<const Packet> packet);
    /** \return ENDs kept now */
    uint32_t GetKept() const;

  private:
    /** One flow's counts and kept ENDs. */
    struct Flow
    {
        std::vector<uint32_t> holding; //!< per member: slots here holding a piece of it
        uint32_t held{0};              //!< the sum of holding
        std::vector<std::pair<uint32_t, Ptr<const Packet>>> kept; //!< (member, END) in order
    };

    /** Flows with a slot held or an END kept, by (job, round, clique). */
    std::unordered_map<FpgaSlotTable::FlowKey, Flow, FpgaSlotTable::FlowKeyHash> m_flows;
};

} // namespace ns3

#endif /* TRANSIT_END_GATE_H */
