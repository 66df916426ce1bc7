/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRANSIT_AGGREGATOR_NET_DEVICE_H
#define TRANSIT_AGGREGATOR_NET_DEVICE_H

#include "fpga-aggregator-base.h"
#include "fpga-slot-table.h"
#include "gradient-header.h"
#include "island-bitmap.h"
#include "transit-end-gate.h"

#include "ns3/ipv4-address.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup wan-training
 * \brief A transit FPGA beside a city's router: adds up the reduction-tree traffic that passes
 *        through the city on its way to a root island.
 *
 * A one-port device on a node without an IP stack, joined to the router by an in-box link.
 * The router (WanRouterNetDevice::SetTransitPort) hands it every gradient packet with
 * FLAG_REDUCE and without FLAG_RETRANSMISSION that arrives on another port; everything the
 * device sends goes back to the router, which forwards it by its tables.
 *
 * A piece (DATA or AGGREGATE with FLAG_REDUCE) is on its way to the root island whose address
 * is its IPv4 destination (AddRoot). The device expects, per chunk, the clique's members that
 * lie below it: the members other than the root whose route to the root passes this city
 * (the root's below-set here). A piece that alone covers them goes straight back; the others
 * are added, per (job, round, clique, chunk), in an FpgaSlotTable slot until the slot holds
 * every expected contributor, and then leave as one AGGREGATE with FLAG_REDUCE towards the
 * root (contributors = the expected set; real payloads summed exactly as int32 with
 * two's-complement wrap-around, as at the edge). Each member's pieces come up the one path
 * from it to the root in chunk order (its own DATA, or inside a lower FPGA's aggregate), so the
 * device keeps every member's frontier (FpgaSlotTable): a slot whose missing members have all
 * gone past its chunk lost their pieces below, and leaves at once as a partial AGGREGATE (an
 * early flush), without waiting for the Timeout that covers members merely late; a member's
 * END (FLAG_REDUCE, behind its pieces) moves its frontier past its last chunk, and leaves
 * behind the member's pieces still in slots here (TransitEndGate). A slot still
 * incomplete after Timeout leaves as a partial AGGREGATE carrying its bitmap. With no free slot, a
 * piece passes through; one that shares some but not all of its contributors with its slot passes
 * through untouched (a sum cannot be split); one whose contributors are all in the slot already is
 * a duplicate, absorbed and counted. The attributes (SlotCount, Timeout, PipelineLatency,
 * ProcessingRate, PortBacklog, GradientPort), counters and traces common to both FPGAs are
 * FpgaAggregatorBase's.
 */
class TransitAggregatorNetDevice : public FpgaAggregatorBase
{
  public:
    /** Why a packet went back to the router without aggregation (trace argument, counter). */
    enum PassReason
    {
        PASS_NOT_GRADIENT = 0, //!< not IPv4/UDP to GradientPort (or a fragment)
        PASS_MALFORMED,        //!< to GradientPort, but GradientHeader::Parse rejected it
        PASS_NOT_REDUCE,       //!< FLAG_REDUCE not set
        PASS_RETRANSMISSION,   //!< FLAG_RETRANSMISSION set
        PASS_UNKNOWN_ROOT,     //!< the IPv4 destination is no root AddRoot named
        PASS_COVERED,          //!< the piece alone covers every member expected here
        PASS_NOT_BELOW,        //!< a contributor is not expected here (not below this city)
        PASS_OVERLAP,          //!< shares some, not all, of its contributors with its slot
        PASS_MISMATCH,         //!< element count, members or payload kind differ from the slot
        PASS_OVERFLOW,         //!< no free slot
        PASS_END,              //!< a member's END, read for its frontier
        PASS_REASON_COUNT      //!< number of reasons (not a reason)
    };

    /** \param reason a reason \return its name, e.g. "Overflow" */
    static const char* PassReasonName(PassReason reason);

    /**
     * TracedCallback signature for PassThrough.
     * \param packet the packet (IPv4 header included) \param reason why it passed
     */
    typedef void (*PassThroughTracedCallback)(Ptr<const Packet> packet, PassReason reason);
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    TransitAggregatorNetDevice();
    ~TransitAggregatorNetDevice() override;

    /**
     * \brief Name a root: pieces to \p address go up to island \p island, and this city
     *        expects the members in \p below (islands other than the root whose route to it
     *        passes this city, this city's own islands included).
     * \param address the root island's address \param island its index \param below its
     *        below-set here
     */
    void AddRoot(Ipv4Address address, uint32_t island, const IslandBitmap& below);
    /**
     * \param address an island address
     * \return the below-set AddRoot gave it (empty for an unknown address)
     */
    IslandBitmap GetBelow(Ipv4Address address) const;

    /** \param reason a reason \return packets passed through for it */
    uint64_t GetPassThroughCount(PassReason reason) const;

  protected:
    void DoDispose() override;

  private:
    /** A root island, by its address. */
    struct Root
    {
        uint32_t island;    //!< the root's index
        IslandBitmap below; //!< members expected here on their way to it
    };

    /**
     * \brief Handler of the router port.
     * \param device receiving port \param packet packet \param protocol EtherType
     * \param source source address \return true (the frame was taken)
     */
    bool ReceiveFromRouter(Ptr<NetDevice> device,
                           Ptr<const Packet> packet,
                           uint16_t protocol,
                           const Address& source) override;
    /**
     * \brief Parse one reduction-tree piece and add it up or send it back (the input stage
     *        served it).
     * \param packet the IPv4 packet
     */
    void Process(Ptr<const Packet> packet);
    /**
     * \brief Add a piece to its chunk's slot, or pass it through.
     * \param packet the IPv4 packet \param fields its IPv4/UDP fields
     * \param header its gradient header \param expected the contributors expected here
     * \param payloadOffset byte offset of its payload
     */
    void Aggregate(Ptr<const Packet> packet,
                   const FpgaSlotTable::InputFields& fields,
                   const GradientHeader& header,
                   const IslandBitmap& expected,
                   uint32_t payloadOffset);
    /**
     * \brief Build a slot's AGGREGATE towards its root, send it, free the slot (the slot
     *        table's emit callback).
     * \param index slot index \param complete whether the bitmap is full
     */
    void Emit(uint32_t index, bool complete);
    /**
     * \brief Send a packet back to the router untouched, counting and tracing the reason.
     * \param packet the packet \param protocol its EtherType \param reason why it passes
     */
    void PassThrough(Ptr<const Packet> packet, uint16_t protocol, PassReason reason);
    /** \param ends members' ENDs the gate let go \brief send them on (reason End) */
    void PassEnds(const std::vector<Ptr<const Packet>>& ends);
    /** Roots by address (host order). */
    std::unordered_map<uint32_t, Root> m_roots;
    TransitEndGate m_endGate; //!< members' ENDs kept behind their pieces in slots here
    uint64_t m_passCount[PASS_REASON_COUNT];                          //!< per pass-through reason
    TracedCallback<Ptr<const Packet>, PassReason> m_passThroughTrace; //!< PassThrough
};

} // namespace ns3

#endif /* TRANSIT_AGGREGATOR_NET_DEVICE_H */
