/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FPGA_AGGREGATOR_NET_DEVICE_H
#define FPGA_AGGREGATOR_NET_DEVICE_H

#include "fpga-aggregator-base.h"
#include "fpga-slot-table.h"
#include "gradient-header.h"
#include "wan-wire.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

class Node;
class Packet;

/**
 * \ingroup wan-training
 * \brief An in-line FPGA between an island and its city router that aggregates the gradient
 *        chunks flowing into the island (ingress relief).
 *
 * A two-port bump in the wire, shaped after BridgeNetDevice: the FPGA node has no IP stack;
 * this device registers a protocol handler on its island port (the access link)
 * and its router port (the in-box link) and moves IPv4 packets between them itself.
 *
 * Outbound (island to router) everything passes through untouched. Inbound (router to
 * island), a packet is aggregated when it is IPv4/UDP to GradientPort with a valid
 * GradientHeader of type DATA, none of FLAG_RETRANSMISSION, FLAG_NO_AGGREGATE and FLAG_REDUCE
 * set (reduction-tree traffic is the transit FPGAs', TransitAggregatorNetDevice), whose
 * member bitmap holds IslandIndex and whose sender is not IslandIndex. Everything that reaches
 * the router port is for this island (unicast to it, or multicast it subscribed to), so the
 * member bitmap is the only destination test.
 *
 * Aggregation keeps one slot per (job, round, clique, chunk). The expected contributors come
 * from the packets themselves: the member bitmap minus IslandIndex. Real payloads are summed
 * element-wise as int32 with two's-complement wrap-around; virtual payloads only by bitmap. A
 * second copy from a sender already in the slot is absorbed and counted. A complete slot
 * becomes one AGGREGATE packet towards the island after PipelineLatency; a slot still
 * incomplete after Timeout is flushed as a partial AGGREGATE carrying its bitmap. With no free
 * slot (SlotCount in use), a packet passes through untouched.
 *
 * Early flush of lost contributions: a sender's first-pass chunks reach the FPGA in chunk
 * order (one path, FIFO queues), so the FPGA keeps each sender's frontier per (job, round,
 * clique): one past the highest chunk index seen from it, or the chunk count once its END
 * passed. A slot whose every missing sender has gone past its chunk can never complete: it is
 * emitted as a partial AGGREGATE at once (after PipelineLatency, like a complete one), so the
 * island asks the missing senders for exactly that chunk about one packet time after the loss
 * instead of after Timeout (attribute EarlyFlush). Retransmissions pass through and are
 * summed by the island.
 *
 * The device moves packets and decides what is aggregated; the slots, their deadlines and the
 * frontiers are its FpgaSlotTable, which tells the device when to emit a slot; the table, the
 * way in and out, the common attributes, counters and traces are FpgaAggregatorBase's.
 */
class FpgaAggregatorNetDevice : public FpgaAggregatorBase
{
  public:
    /** Why a packet passed through without aggregation (trace argument, counter index). */
    enum PassReason
    {
        PASS_OUTBOUND = 0,   //!< island to router: never touched
        PASS_NOT_GRADIENT,   //!< not IPv4/UDP to GradientPort (or a fragment)
        PASS_MALFORMED,      //!< to GradientPort, but GradientHeader::Parse rejected it
        PASS_NOT_DATA,       //!< AGGREGATE, NACK, RING or ACK
        PASS_RETRANSMISSION, //!< FLAG_RETRANSMISSION set
        PASS_NO_AGGREGATE,   //!< FLAG_NO_AGGREGATE set
        PASS_NOT_MEMBER,     //!< IslandIndex not a member, or the island is the sender
        PASS_MISMATCH, //!< element count, members, encoding or payload kind differ from the slot
        PASS_OVERFLOW, //!< no free slot
        PASS_REDUCE,   //!< FLAG_REDUCE set: reduction-tree traffic, for transit FPGAs
        PASS_NOT_SUMMABLE, //!< an encoding the FPGA cannot add up (bf16, top-k)
        PASS_REASON_COUNT  //!< number of reasons (not a reason)
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
    FpgaAggregatorNetDevice();
    ~FpgaAggregatorNetDevice() override;

    /** \param port the device towards the island (access link), on the FPGA's node */
    void SetIslandPort(Ptr<NetDevice> port);
    // Attribute "IslandIndex" (uint32_t): the island this FPGA serves.

    /** \return the island port (or nullptr) */
    Ptr<NetDevice> GetIslandPort() const;

    /** \param reason a reason \return packets passed through for it */
    uint64_t GetPassThroughCount(PassReason reason) const;

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Handler of the island port: forwards out of the router port.
     * \param device receiving port \param packet packet \param protocol EtherType
     * \param source source address \return true (the frame was taken)
     */
    bool ReceiveFromIsland(Ptr<NetDevice> device,
                           Ptr<const Packet> packet,
                           uint16_t protocol,
                           const Address& source);
    /**
     * \brief Handler of the router port: aggregates or passes through.
     * \param device receiving port \param packet packet \param protocol EtherType
     * \param source source address \return true (the frame was taken)
     */
    bool ReceiveFromRouter(Ptr<NetDevice> device,
                           Ptr<const Packet> packet,
                           uint16_t protocol,
                           const Address& source) override;
    /**
     * \brief Parse and, if eligible, aggregate one inbound gradient packet (the input stage
     *        served it).
     * \param packet the IPv4 packet
     */
    void Process(Ptr<const Packet> packet);

    /**
     * \brief Add one DATA contribution to its slot (opening the slot if needed).
     * \param packet the IPv4 packet \param fields its IPv4/UDP fields
     * \param header its gradient header \param payloadOffset byte offset of the payload
     */
    void Aggregate(Ptr<const Packet> packet,
                   const FpgaSlotTable::InputFields& fields,
                   const GradientHeader& header,
                   uint32_t payloadOffset);
    /** \param earlyFlush attribute EarlyFlush (kept by the slot table) */
    void SetEarlyFlush(bool earlyFlush);
    /** \return attribute EarlyFlush */
    bool GetEarlyFlush() const;
    /**
     * \brief Build the AGGREGATE packet of a slot, send it to the island, free the slot
     *        (the slot table's emit callback).
     * \param index slot index \param complete whether the bitmap is full
     */
    void Emit(uint32_t index, bool complete);
    /**
     * \brief Forward a packet out of a port untouched, counting and tracing the reason.
     * \param port output port \param packet the packet \param protocol its EtherType
     * \param reason why it passes
     */
    void PassThrough(Ptr<NetDevice> port,
                     Ptr<const Packet> packet,
                     uint16_t protocol,
                     PassReason reason);

    Ptr<NetDevice> m_islandPort; //!< towards the island

    // Attributes
    uint32_t m_islandIndex;      //!< the island served
    Ipv4Address m_islandAddress; //!< destination of aggregates; 0.0.0.0 = learn

    Address m_islandBroadcast; //!< island port's broadcast address (cached)

    // Counters
    uint64_t m_passCount[PASS_REASON_COUNT]; //!< per pass-through reason

    TracedCallback<Ptr<const Packet>, PassReason> m_passThroughTrace; //!< PassThrough
};

} // namespace ns3

#endif /* FPGA_AGGREGATOR_NET_DEVICE_H */
