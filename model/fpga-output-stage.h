/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FPGA_OUTPUT_STAGE_H
#define FPGA_OUTPUT_STAGE_H

#include "fpga-slot-table.h"
#include "link-port.h"

#include "ns3/address.h"
#include "ns3/event-id.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup wan-training
 * \brief The FPGA's way out (to its island, or back to its router for a transit FPGA): builds
 *        aggregates, which wait in the FPGA's slot memory, not in the port's transmit queue,
 *        while that queue already holds a few packets.
 *
 * Slots that settle or time out together (e.g. a slot that times out takes its flow's earlier
 * open slots with it, see FpgaSlotTable) would otherwise land in the port's queue at once and
 * overflow it, although the FPGA still holds their sums. The stage asks the port what it holds
 * (its queue, through LinkPort, and the frame on its wire, from its PhyTxBegin and PhyTxEnd
 * traces) and hands it an aggregate only while fewer than PortBacklog packets are waiting or
 * on the wire; when a frame leaves, the held aggregates go next. With an idle port nothing is
 * held, so timing is unchanged; a burst leaves back to back at the port's rate.
 */
class FpgaOutputStage
{
  public:
    FpgaOutputStage();
    ~FpgaOutputStage();

    /**
     * \brief Start following the port (its transmit traces) and remember where aggregates go.
     * \param port the island port \param to the port's destination address
     * \param protocol EtherType of what is sent
     * \param backlog packets the port may hold before aggregates wait here (>= 1)
     */
    void Configure(Ptr<NetDevice> port, const Address& to, uint16_t protocol, uint32_t backlog);
    /**
     * \brief Build the AGGREGATE packet of a slot: the slot's sums (real payloads) or zero bytes
     *        after its first piece's header with the slot's contributors, then UDP and IPv4
     *        headers from the first piece's fields (a contributor's address and port, as on a
     *        DATA packet).
     * \param slot the slot \param flags flags besides FLAG_REAL_PAYLOAD (e.g. FLAG_SETTLED)
     * \param destination IPv4 destination \param port UDP destination port
     * \param out receives the gradient header written
     * \return the IPv4 packet
     */
    Ptr<Packet> MakeAggregate(const FpgaSlotTable::Slot& slot,
                              uint16_t flags,
                              Ipv4Address destination,
                              uint16_t port,
                              GradientHeader& out);
    /** \param packet an aggregate for the port: sent now, or when the port has room */
    void SendAggregate(Ptr<Packet> packet);
    /** \return aggregates waiting in slot memory for the port */
    uint32_t GetHeld() const;
    /** \return the most aggregates that ever waited at once */
    uint32_t GetMaxHeld() const;
    /** \brief Drop what waits, cancel the drain and stop following the port (the device is
     *         disposed). */
    void Clear();

  private:
    /** \return packets the port holds: waiting in its queue or on its wire */
    uint32_t GetPortBacklog() const;
    /** \param packet the frame the port starts sending (its PhyTxBegin trace) */
    void PortTxBegin(Ptr<const Packet> packet);
    /** \param packet the frame the port has sent (its PhyTxEnd trace): held aggregates go
     *         next, once the port has started its next queued frame */
    void PortTxEnd(Ptr<const Packet> packet);
    /** \brief Give the port held aggregates while it has room. */
    void Drain();

    Ptr<NetDevice> m_port;          //!< the island port
    Address m_to;                   //!< its destination address
    uint16_t m_protocol;            //!< EtherType
    uint32_t m_backlog;             //!< packets the port may hold
    LinkPort m_portQueue;           //!< asks the port's queue (kind resolved once)
    bool m_portSending;             //!< a frame is on the port's wire
    std::deque<Ptr<Packet>> m_held; //!< aggregates waiting, oldest first
    uint32_t m_maxHeld;             //!< peak of m_held
    EventId m_drain;                //!< next drain
    std::vector<uint8_t> m_scratch; //!< payload buffer of built aggregates
    uint16_t m_nextIdentification;  //!< IPv4 identification of built aggregates
};

} // namespace ns3

#endif /* FPGA_OUTPUT_STAGE_H */
