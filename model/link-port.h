/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LINK_PORT_H
#define LINK_PORT_H

#include "wan-link-net-device.h"

#include "ns3/net-device.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/queue.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief What a sender asks a point-to-point port, whichever device it is: the module's
 *        WanLinkNetDevice or ns-3's PointToPointNetDevice.
 *
 * The link device is the only owner of its framing and its queue; the island's pacing, the
 * FPGA's output stage and the run's link accounting ask it here instead of modelling it.
 * Another kind of device answers 0 (no framing known, nothing queued). A sender that asks one
 * port on every packet (the FPGA's output stage) keeps a LinkPort of it, which tells the
 * device's kind apart once.
 */
class LinkPort
{
  public:
    /** A view of no port: nothing queued. */
    LinkPort() = default;
    /** \param device the port to ask from now on */
    explicit LinkPort(Ptr<const NetDevice> device);
    /** \return packets waiting in the port's transmit queue, besides the one on the wire */
    uint32_t GetQueuedPackets() const;

    /**
     * \param device a port
     * \return bytes each packet takes on the port's wire beyond the IP packet it is given:
     *         a WanLinkNetDevice's FramingBytes, the PPP header of a PointToPointNetDevice
     */
    static uint32_t GetFramingBytes(Ptr<const NetDevice> device);
    /**
     * \param device a port
     * \return framing bytes the port's PhyTxEnd trace does not show in the packet: a
     *         WanLinkNetDevice's FramingBytes (it only counts them), 0 for a
     *         PointToPointNetDevice (its PPP header is in the packet)
     */
    static uint32_t GetUntracedFramingBytes(Ptr<const NetDevice> device);
    /**
     * \param device a port
     * \return packets waiting in its transmit queue, besides the one on the wire
     */
    static uint32_t GetQueuedPackets(Ptr<const NetDevice> device);
    /**
     * \param device a port
     * \return true if it has nothing left to send: a WanLinkNetDevice with nothing queued, on
     *         its wire or in flight on its channel; a PointToPointNetDevice with an empty queue
     *         (ns-3's device shows no more)
     */
    static bool IsIdle(Ptr<const NetDevice> device);

  private:
    Ptr<const WanLinkNetDevice> m_link; //!< the port, if it is the module's device
    Ptr<Queue<Packet>> m_stockQueue;    //!< the port's queue, if it is ns-3's device
};

} // namespace ns3

#endif /* LINK_PORT_H */
