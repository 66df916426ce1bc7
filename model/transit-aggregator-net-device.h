/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRANSIT_AGGREGATOR_NET_DEVICE_H
#define TRANSIT_AGGREGATOR_NET_DEVICE_H

#include "fpga-input-stage.h"
#include "fpga-output-stage.h"
#include "fpga-slot-table.h"
#include "gradient-header.h"
#include "island-bitmap.h"
#include "wan-port-device.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_map>

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
 * two's-complement wrap-around, as at the edge). A slot still incomplete after Timeout leaves
 * as a partial AGGREGATE carrying its bitmap. With no free slot, a piece passes through; one
 * that shares some but not all of its contributors with its slot passes through untouched (a
 * sum cannot be split); one whose contributors are all in the slot already is a duplicate,
 * absorbed and counted.
 */
class TransitAggregatorNetDevice : public WanPortDevice
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
        PASS_REASON_COUNT      //!< number of reasons (not a reason)
    };

    /** \param reason a reason \return its name, e.g. "Overflow" */
    static const char* PassReasonName(PassReason reason);

    /**
     * TracedCallback signature for AggregateEmitted.
     * \param packet the AGGREGATE packet (IPv4 header included)
     * \param header its gradient header
     * \param complete true if every expected contributor is in the bitmap
     */
    typedef void (*AggregateTracedCallback)(Ptr<const Packet> packet,
                                            const GradientHeader& header,
                                            bool complete);
    /**
     * TracedCallback signature for PassThrough.
     * \param packet the packet (IPv4 header included) \param reason why it passed
     */
    typedef void (*PassThroughTracedCallback)(Ptr<const Packet> packet, PassReason reason);
    /**
     * TracedCallback signature for SlotAllocated and Overflow.
     * \param header the gradient header of the piece that opened (or could not open) a slot
     */
    typedef void (*HeaderTracedCallback)(const GradientHeader& header);
    /**
     * TracedCallback signature for Duplicate.
     * \param packet the absorbed piece (IPv4 header included) \param header its gradient header
     */
    typedef void (*DuplicateTracedCallback)(Ptr<const Packet> packet, const GradientHeader& header);

    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    TransitAggregatorNetDevice();
    ~TransitAggregatorNetDevice() override;

    /** \param port the device towards the router (in-box link), on the FPGA's node */
    void SetRouterPort(Ptr<NetDevice> port);
    /** \return the router port (or nullptr) */
    Ptr<NetDevice> GetRouterPort() const;
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
    /** \return pieces added to a slot (duplicates excluded) */
    uint64_t GetAggregatedCount() const;
    /** \return pieces whose contributors were all in their slot already (absorbed) */
    uint64_t GetDuplicateCount() const;
    /** \return complete aggregates emitted */
    uint64_t GetCompleteCount() const;
    /** \return partial aggregates emitted after a timeout */
    uint64_t GetPartialCount() const;
    /** \return element additions that wrapped around (int32 overflow) */
    uint64_t GetWrapCount() const;
    /** \return slots in use now */
    uint32_t GetSlotsInUse() const;

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
     * \param source source address \param destination destination address
     * \param packetType packet type
     */
    void ReceiveFromRouter(Ptr<NetDevice> device,
                           Ptr<const Packet> packet,
                           uint16_t protocol,
                           const Address& source,
                           const Address& destination,
                           NetDevice::PacketType packetType);
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
    /** \param latency attribute PipelineLatency (kept by the slot table) */
    void SetPipelineLatency(Time latency);
    /** \return attribute PipelineLatency */
    Time GetPipelineLatency() const;
    /** \param rate attribute ProcessingRate (kept by the input stage) */
    void SetProcessingRate(DataRate rate);
    /** \return attribute ProcessingRate */
    DataRate GetProcessingRate() const;
    /** \param port attribute GradientPort (kept by the input stage) */
    void SetGradientPort(uint16_t port);
    /** \return attribute GradientPort */
    uint16_t GetGradientPort() const;

    Ptr<NetDevice> m_routerPort;    //!< towards the router
    Address m_routerBroadcast;      //!< router port's broadcast address (cached)
    FpgaInputStage m_input;         //!< engine queue and parsing
    FpgaSlotTable m_table;          //!< slots and deadlines
    FpgaOutputStage m_output;       //!< aggregates on their way to the router port
    bool m_outputConfigured{false}; //!< m_output knows the port
    GradientHeader m_parsed;        //!< the header Process() parses into (reused)
    /** Roots by address (host order). */
    std::unordered_map<uint32_t, Root> m_roots;

    // Attributes
    uint32_t m_slotCount;   //!< slot capacity
    Time m_timeout;         //!< partial flush after this long
    uint32_t m_portBacklog; //!< packets the router port may hold before aggregates wait

    // Counters
    uint64_t m_passCount[PASS_REASON_COUNT]; //!< per pass-through reason
    uint64_t m_complete;                     //!< complete aggregates
    uint64_t m_partial;                      //!< partial aggregates

    // Trace sources
    TracedCallback<const GradientHeader&> m_slotAllocatedTrace; //!< SlotAllocated
    TracedCallback<Ptr<const Packet>, const GradientHeader&, bool>
        m_aggregateEmittedTrace;                                               //!< AggregateEmitted
    TracedCallback<Ptr<const Packet>, PassReason> m_passThroughTrace;          //!< PassThrough
    TracedCallback<const GradientHeader&> m_overflowTrace;                     //!< Overflow
    TracedCallback<Ptr<const Packet>, const GradientHeader&> m_duplicateTrace; //!< Duplicate
};

} // namespace ns3

#endif /* TRANSIT_AGGREGATOR_NET_DEVICE_H */
