/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_LINK_CHANNEL_H
#define WAN_LINK_CHANNEL_H

#include "ns3/nstime.h"
#include "ns3/point-to-point-channel.h"

#include <array>
#include <cstdint>
#include <deque>

namespace ns3
{

class Packet;
class PointToPointNetDevice;
class WanParallelRunner;

/**
 * \ingroup wan-training
 * \brief A point-to-point channel that keeps the packets in flight in a FIFO per direction
 *        and has at most one delivery event pending per direction.
 *
 * PointToPointChannel schedules one event per packet in flight, so a long, fast WAN link
 * holds its whole bandwidth-delay product in the simulator's event queue (tens of thousands
 * of packets on a 100 Gbps, 20 ms link), and every other event pays for that depth. On a
 * point-to-point wire the arrival times of one direction never decrease (the sender
 * serialises one packet after another and the propagation delay is a constant), so the
 * packets can wait in a FIFO instead and only the head of each direction needs an event.
 *
 * Timing is exactly PointToPointChannel's: a packet whose transmission starts at t and lasts
 * txTime reaches the other device at t + txTime + Delay, as a copy, through
 * PointToPointNetDevice::Receive, in the receiving node's context. Order among events at the
 * same instant may differ from the stock channel's (its events are created earlier), which
 * leaves every result of a run deterministic. The base class's TxRxPointToPoint trace
 * (NetAnim) is private to it and does not fire; the devices' own traces (PhyTxBegin,
 * PhyRxEnd, MacRx, ...) fire as usual.
 */
class WanLinkChannel : public PointToPointChannel
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    WanLinkChannel();
    ~WanLinkChannel() override;

    /**
     * \brief Start carrying a packet from src to the other device.
     * \param p the packet (the far device receives a copy)
     * \param src the transmitting device, one of the two attached
     * \param txTime serialisation time of the packet at src's rate
     * \return true
     */
    bool TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime) override;

    /** \param src one of the attached devices \return packets in flight away from src */
    uint32_t GetInFlight(Ptr<PointToPointNetDevice> src) const;

    /**
     * \brief Join a parallel run (WanParallelRunner::Fork) or leave it.
     * \param runner the runner, or null: every packet is delivered in this process
     *
     * A direction whose far device another rank simulates hands its packets to the runner.
     */
    void SetParallelRunner(WanParallelRunner* runner);

    /**
     * \brief Carry a packet that another rank transmitted (WanParallelRunner).
     * \param wire the direction (0: device 0 to device 1)
     * \param arrival when it reaches the far device, not before now
     * \param packet the packet
     */
    void ReceiveRemote(uint32_t wire, Time arrival, Ptr<Packet> packet);

  protected:
    void DoDispose() override;

  private:
    /** One packet on the wire. */
    struct InFlight
    {
        Time arrival;       //!< when it reaches the far device
        Ptr<Packet> packet; //!< the copy the far device receives
    };

    /** \param src an attached device \return its direction (wire) index, 0 or 1 */
    uint32_t WireOf(Ptr<PointToPointNetDevice> src) const;
    /** \brief Schedule the delivery of the head of a wire. \param wire direction index */
    void ScheduleHead(uint32_t wire);
    /** \brief Queue a packet on a wire. \param wire direction \param arrival when it
     *  arrives \param packet the packet */
    void Enqueue(uint32_t wire, Time arrival, Ptr<Packet> packet);
    /** \brief Deliver the head of a wire and schedule the next one. \param wire direction */
    void Deliver(uint32_t wire);

    std::array<std::deque<InFlight>, 2> m_wires; //!< packets in flight, per direction
    WanParallelRunner* m_runner{nullptr};        //!< parallel run, or null
    std::array<bool, 2> m_remote{false, false};  //!< per direction: far device on another rank
};

} // namespace ns3

#endif /* WAN_LINK_CHANNEL_H */
