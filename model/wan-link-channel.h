/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_LINK_CHANNEL_H
#define WAN_LINK_CHANNEL_H

#include "wan-rank-bundle.h"

#include "ns3/channel.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>
#include <deque>

namespace ns3
{

class Packet;
class WanLinkNetDevice;

/**
 * \ingroup wan-training
 * \brief The channel between two WanLinkNetDevices: a full-duplex wire with a propagation
 *        delay that keeps the packets in flight in a FIFO per direction and has at most one
 *        delivery event pending per direction.
 *
 * ns-3's PointToPointChannel schedules one event per packet in flight, so a long, fast WAN
 * link holds its whole bandwidth-delay product in the simulator's event queue (tens of
 * thousands of packets on a 100 Gbps, 20 ms link), and every other event pays for that
 * depth. On a point-to-point wire the arrival times of one direction never decrease (the
 * sender serialises one frame after another and the propagation delay is a constant), so the
 * packets can wait in a FIFO instead and only the head of each direction needs an event.
 *
 * Timing is PointToPointChannel's: a frame whose transmission starts at t and lasts txTime
 * reaches the other device at t + txTime + Delay, through WanLinkNetDevice::Receive, in the
 * receiving node's context. Order among events at the same instant may differ from the stock
 * channel's (its events are created earlier), which leaves every result of a run
 * deterministic. The receiver gets the sender's packet object itself, not a copy: neither
 * device adds or strips a header, and the layers above copy before they change a packet
 * unless nothing else holds it (WanLinkNetDevice::IsDeliveringSoleCopy).
 *
 * Under ns-3's MPI engine (WanMpi), a direction whose far device's node has another system id
 * than this rank hands its frames to MpiInterface::SendPacket instead, as ns-3's
 * PointToPointRemoteChannel does, to be received by the far device at the same instants. The
 * attribute Delay is the lookahead ns-3's distributed simulators read from the links between
 * ranks. With MaxBundleBytes above 0 (off by default: the first frame of a bundle can meet
 * events of the same instant at the far rank in another order than in one process) the
 * frames travel in bundles (WanRankBundle): a direction holds the frames it
 * transmits until the first of them is one lookahead from its arrival (the smallest Delay of
 * this module's links between the two ranks, which ns-3's lookahead for the pair never
 * exceeds), or until the bundle holds MaxBundleBytes, and sends them as one packet, received
 * at the first frame's arrival; the far channel keeps the others in its FIFO. Neither ns-3
 * distributed simulator lets the far rank pass a time it has not been promised, and every
 * promise made while a bundle waits is at most its send time plus that lookahead (ns-3
 * promises its next event time plus the lookahead, and the bundle's send is such an event), so
 * every frame still arrives at its own time.
 */
class WanLinkChannel : public Channel
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    WanLinkChannel();
    ~WanLinkChannel() override;

    /**
     * \brief Attach a device (WanLinkNetDevice::Attach calls it). At most two.
     * \param device the device
     */
    void Attach(Ptr<WanLinkNetDevice> device);

    /** \return the propagation delay (attribute Delay) */
    Time GetDelay() const;

    /**
     * \brief Start carrying a frame from src to the other device.
     * \param packet the packet
     * \param protocol its protocol number
     * \param src the transmitting device, one of the two attached
     * \param txTime transmission time of the frame at src's rate
     */
    void TransmitStart(Ptr<Packet> packet,
                       uint16_t protocol,
                       Ptr<WanLinkNetDevice> src,
                       Time txTime);

    /**
     * \param src one of the attached devices
     * \return packets in flight away from src: on this rank's wire, or handed to another rank
     *         and not yet due there
     */
    uint32_t GetInFlight(Ptr<const WanLinkNetDevice> src) const;

    // Channel interface
    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    /** One frame on the wire. */
    struct InFlight
    {
        Time arrival;       //!< when it reaches the far device
        Ptr<Packet> packet; //!< the packet
        uint16_t protocol;  //!< its protocol number
    };

    /** \param src an attached device \return its direction (wire) index, 0 or 1 */
    uint32_t WireOf(Ptr<const WanLinkNetDevice> src) const;
    /** \brief Schedule the delivery of the head of a wire. \param wire direction index */
    void ScheduleHead(uint32_t wire);
    /** \brief Queue a frame on a wire. \param wire direction \param frame the frame */
    void Enqueue(uint32_t wire, InFlight frame);
    /** \brief Deliver the head of a wire and schedule the next one. \param wire direction */
    void Deliver(uint32_t wire);
    /**
     * \brief Add a frame to the bundle for the rank that simulates the far device; send the
     *        bundle when full, else make sure it is sent in time (SendBundle).
     * \param wire direction \param arrival receive time \param protocol its protocol number
     * \param packet the packet
     */
    void SendToRank(uint32_t wire, Time arrival, uint16_t protocol, Ptr<const Packet> packet);
    /**
     * \brief Hand a direction's bundle to ns-3's MPI engine (MpiInterface::SendPacket), due at
     *        its first frame's arrival, and cancel its pending send. Nothing if it is empty.
     * \param wire direction
     */
    void SendBundle(uint32_t wire);
    /**
     * \param wire a direction towards another rank
     * \return the smallest Delay of this module's channels between this rank and the far
     *         device's (computed once)
     */
    Time GetRankLookahead(uint32_t wire);
    /**
     * \brief Take a bundle another rank sent to an attached device (ns-3's MPI engine calls it
     *        at the first frame's arrival, see WanMpi::AttachReceiver): deliver that frame now,
     *        the others from the wire's FIFO at their times.
     * \param device index of the receiving device \param packet the bundle
     */
    void ReceiveFromRank(uint32_t device, Ptr<Packet> packet);

    Time m_delay;                                   //!< propagation delay (attribute)
    std::array<Ptr<WanLinkNetDevice>, 2> m_devices; //!< the ends, in attach order
    std::size_t m_nDevices{0};                      //!< devices attached so far
    std::array<std::deque<InFlight>, 2> m_wires;    //!< frames in flight, per direction
    /** Per direction: arrival times of the frames handed to another rank, not yet due. */
    mutable std::array<std::deque<Time>, 2> m_toRank;
    uint32_t m_maxBundleBytes;              //!< send a bundle at this size (attribute)
    std::array<WanRankBundle, 2> m_bundles; //!< per direction: frames for another rank
    std::array<EventId, 2> m_bundleEvents;  //!< per direction: the bundle's send
    std::array<Time, 2> m_rankLookahead{{Time(-1), Time(-1)}}; //!< per direction; -1: unknown
};

} // namespace ns3

#endif /* WAN_LINK_CHANNEL_H */
