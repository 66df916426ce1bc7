/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FPGA_INPUT_STAGE_H
#define FPGA_INPUT_STAGE_H

#include "fpga-slot-table.h"
#include "gradient-header.h"
#include "wan-wire.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <array>
#include <cstdint>
#include <deque>

namespace ns3
{

class Packet;

/**
 * \ingroup wan-training
 * \brief The FPGA's way in: picks gradient traffic out of what arrives, queues it for the
 *        aggregation engine, and parses it in place. Shared by the edge FPGA
 *        (FpgaAggregatorNetDevice) and the transit FPGA (TransitAggregatorNetDevice).
 *
 * The engine serves gradient packets in FIFO order, each for its size at the processing rate
 * (0: line rate, served at once in the receiving event). Parse() reads one copy of a packet's
 * first bytes, checks the IPv4 and UDP lengths and the GradientHeader, and extracts the IPv4
 * and UDP fields an aggregate reuses: no header objects, no packet copies.
 */
class FpgaInputStage
{
  public:
    /** Serves one gradient packet (the device's processing). */
    typedef Callback<void, Ptr<const Packet>> ServeCallback;

    FpgaInputStage();
    ~FpgaInputStage();

    /** \param serve called for each gradient packet when the engine has served it */
    void SetServeCallback(ServeCallback serve);
    /** \param rate the engine's rate; 0: line rate, no delay */
    void SetProcessingRate(DataRate rate);
    /** \return the engine's rate */
    DataRate GetProcessingRate() const;
    /** \return UDP destination port of gradient traffic (WanWire::GetGradientPort()) */
    uint16_t GetGradientPort() const;

    /**
     * \brief Quick test on the first bytes: IPv4, not a fragment, UDP, to the gradient port.
     * \param packet an IPv4 packet \return true if it is gradient traffic
     */
    bool IsGradientTraffic(Ptr<const Packet> packet) const;
    /**
     * \brief Hand a gradient packet to the engine: served now (rate 0) or in FIFO order.
     * \param packet an IPv4 packet IsGradientTraffic() accepted
     */
    void Receive(Ptr<const Packet> packet);
    /**
     * \brief Parse a gradient packet in place.
     * \param packet an IPv4 packet IsGradientTraffic() accepted
     * \param header receives its gradient header \param fields receives its IPv4/UDP fields
     * \param payloadOffset receives the byte offset of its payload
     * \return false if the IPv4 or UDP length or the gradient header is wrong (malformed)
     */
    bool Parse(Ptr<const Packet> packet,
               GradientHeader& header,
               FpgaSlotTable::InputFields& fields,
               uint32_t& payloadOffset);
    /** \brief Forget what waits and cancel the engine (the device is disposed). */
    void Clear();

  private:
    /** A gradient packet waiting for the engine. */
    struct Pending
    {
        Ptr<const Packet> packet; //!< the received IPv4 packet
        Time finish;              //!< when the engine finishes serving it
    };

    /** \brief The engine finished serving the oldest pending packet. */
    void ServiceComplete();

    ServeCallback m_serve;         //!< the device's processing
    DataRate m_rate;               //!< engine rate (0: line rate)
    uint16_t m_gradientPort;       //!< UDP port of gradient traffic
    std::deque<Pending> m_pending; //!< packets in service order
    EventId m_serviceEvent;        //!< completion of the oldest pending packet
    Time m_busyUntil;              //!< when the engine finishes its last accepted packet
    /** IPv4 + UDP + the largest gradient header: what Parse() copies out of a packet. */
    std::array<uint8_t, WanWire::IPV4_UDP_BYTES + GradientHeader::MAX_SERIALIZED_SIZE>
        m_headerBytes;
};

} // namespace ns3

#endif /* FPGA_INPUT_STAGE_H */
