/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FPGA_AGGREGATOR_BASE_H
#define FPGA_AGGREGATOR_BASE_H

#include "fpga-input-stage.h"
#include "fpga-output-stage.h"
#include "fpga-slot-table.h"
#include "gradient-header.h"
#include "wan-port-device.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

class Packet;

/**
 * \ingroup wan-training
 * \brief What every FPGA aggregator has, at the edge (FpgaAggregatorNetDevice) or beside a
 *        transit router (TransitAggregatorNetDevice): its way in (FpgaInputStage), its slots
 *        (FpgaSlotTable), its way out (FpgaOutputStage), the attributes that size and time
 *        them, and the counters and traces of aggregation.
 *
 * A device decides which pieces to add up and what each slot waits for; it hands a piece to
 * Offer(), passes on what Offer() did not take, and sends each slot the table emits with
 * EmitAggregate().
 */
class FpgaAggregatorBase : public WanPortDevice
{
  public:
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
    ~FpgaAggregatorBase() override;

    /** \return pieces added to a slot (duplicates excluded) */
    uint64_t GetAggregatedCount() const;
    /** \return pieces whose contributors were all in their slot already (absorbed) */
    uint64_t GetDuplicateCount() const;
    /** \return complete aggregates emitted */
    uint64_t GetCompleteCount() const;
    /** \return partial aggregates emitted (timeout, or early flush) */
    uint64_t GetPartialCount() const;
    /** \return partial aggregates emitted early: every missing sender had gone past */
    uint64_t GetEarlyFlushCount() const;
    /** \return element additions that wrapped around (int32 overflow) */
    uint64_t GetWrapCount() const;
    /** \return slots in use now */
    uint32_t GetSlotsInUse() const;

    /**
     * \brief Attach the port towards the router (in-box link), on the FPGA's node: what it
     *        receives goes to ReceiveFromRouter().
     * \param port the device
     */
    void SetRouterPort(Ptr<NetDevice> port);
    /** \return the router port (or nullptr) */
    Ptr<NetDevice> GetRouterPort() const;

  protected:
    /** \param address the device's address \param mtu its informational MTU */
    FpgaAggregatorBase(Mac48Address address, uint16_t mtu);
    void DoDispose() override;
    /**
     * \brief Attach one port: check it, keep it and its broadcast address, and hand what it
     *        receives to \p handler.
     * \param port the device, on the FPGA's node \param role "router" or "island", for the
     *        abort messages \param slot where the port is kept (must be empty)
     * \param broadcast where its broadcast address is kept \param handler its receive handler
     */
    void AttachPort(Ptr<NetDevice> port,
                    const char* role,
                    Ptr<NetDevice>& slot,
                    Address& broadcast,
                    NetDevice::ReceiveCallback handler);
    /**
     * \brief Handler of the router port.
     * \param device receiving port \param packet packet \param protocol EtherType
     * \param source source address \return true (the frame was taken)
     */
    virtual bool ReceiveFromRouter(Ptr<NetDevice> device,
                                   Ptr<const Packet> packet,
                                   uint16_t protocol,
                                   const Address& source) = 0;

    /**
     * \brief Add a piece to its chunk's slot (FpgaSlotTable::Offer with SlotCount and
     *        Timeout), firing SlotAllocated, Duplicate or Overflow.
     * \param packet the IPv4 packet \param fields its IPv4/UDP fields
     * \param header its gradient header \param expected what a new slot waits for
     * \param payloadOffset byte offset of its payload
     * \return what the table did; OVERFLOW, OVERLAP and MISMATCH leave the piece to the device
     */
    FpgaSlotTable::AddResult Offer(Ptr<const Packet> packet,
                                   const FpgaSlotTable::InputFields& fields,
                                   const GradientHeader& header,
                                   const IslandBitmap& expected,
                                   uint32_t payloadOffset);
    /**
     * \brief Build a slot's AGGREGATE, free the slot, count and trace it, and send it out of
     *        \p port (through the output stage).
     * \param index slot index \param complete whether the bitmap is full
     * \param flags flags besides FLAG_REAL_PAYLOAD \param destination IPv4 destination
     * \param port the output port \param to its link destination address
     */
    void EmitAggregate(uint32_t index,
                       bool complete,
                       uint16_t flags,
                       Ipv4Address destination,
                       Ptr<NetDevice> port,
                       const Address& to);

    /**
     * \brief Pass a packet on unchanged, for either FPGA: a copy out of \p port.
     * \param port the port \param to its link destination address \param packet the packet
     * \param protocol its protocol number
     */
    void SendCopy(Ptr<NetDevice> port,
                  const Address& to,
                  Ptr<const Packet> packet,
                  uint16_t protocol);

    Ptr<NetDevice> m_routerPort; //!< towards the router
    Address m_routerBroadcast;   //!< router port's broadcast address (cached)
    FpgaInputStage m_input;      //!< engine queue and parsing (ProcessingRate, the gradient port)
    FpgaSlotTable m_table;       //!< slots and deadlines (PipelineLatency)
    FpgaOutputStage m_output;    //!< aggregates on their way out (PortBacklog)
    GradientHeader m_parsed;     //!< the header a device parses into (reused: no per-packet init)
    /** Duplicate: also the edge's absorbed resends (FpgaSlotTable::AbsorbResend) */
    TracedCallback<Ptr<const Packet>, const GradientHeader&> m_duplicateTrace;

  private:
    /** \param latency attribute PipelineLatency (kept by the slot table) */
    void SetPipelineLatency(Time latency);
    /** \return attribute PipelineLatency */
    Time GetPipelineLatency() const;
    /** \param rate attribute ProcessingRate (kept by the input stage) */
    void SetProcessingRate(DataRate rate);
    /** \return attribute ProcessingRate */
    DataRate GetProcessingRate() const;

    uint32_t m_slotCount;           //!< slot capacity
    Time m_timeout;                 //!< partial flush after this long
    uint32_t m_portBacklog;         //!< packets the output port may hold before aggregates wait
    bool m_outputConfigured{false}; //!< m_output knows the port
    uint64_t m_complete;            //!< complete aggregates
    uint64_t m_partial;             //!< partial aggregates

    TracedCallback<const GradientHeader&> m_slotAllocatedTrace; //!< SlotAllocated
    TracedCallback<Ptr<const Packet>, const GradientHeader&, bool>
        m_aggregateEmittedTrace;                           //!< AggregateEmitted
    TracedCallback<const GradientHeader&> m_overflowTrace; //!< Overflow
};

} // namespace ns3

#endif /* FPGA_AGGREGATOR_BASE_H */
