/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_LINK_NET_DEVICE_H
#define WAN_LINK_NET_DEVICE_H

#include "ns3/data-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>

namespace ns3
{

class ErrorModel;
class UniformRandomVariable;
class WanLinkChannel;

/**
 * \ingroup wan-training
 * \brief One end of a WanLinkChannel: a full-duplex point-to-point port with a drop-tail
 *        transmit FIFO, the module's lean counterpart of PointToPointNetDevice.
 *
 * Timing is PointToPointNetDevice's: a frame's transmission lasts
 * DataRate::CalculateBytesTxTime(packet size + FramingBytes) and starts when the previous one
 * ends; the far device gets it Delay (the channel's) after the end of its transmission. With
 * the default FramingBytes of 2 (the PPP header PointToPointNetDevice adds) every packet
 * arrives at exactly the instant it would between two PointToPointNetDevices.
 *
 * What it leaves out, because each costs time on every frame of a run and the module uses
 * none of it: no link header is added to the packet (the protocol number travels beside it
 * on the channel, and the framing is only counted in the transmission time), no ns-3 Queue
 * object (an internal FIFO bounded by TxQueueMaxSize, whose overflow fires MacTxDrop), no
 * NetDeviceQueueInterface flow control, and no interframe gap. Trace sources keep
 * PointToPointNetDevice's names and meanings; their packets carry no link header, so pcap
 * files of these devices are raw IPv4 (DLT_RAW).
 *
 * ECN marking (EcnMarking, off by default), RED-style as DCQCN's switches do it: an IPv4
 * packet whose ECN field is ECT(0) or ECT(1) and that finds q packets or bytes (the unit of
 * EcnMinThreshold) waiting in the FIFO when it is accepted is marked CE with probability 0
 * for q <= EcnMinThreshold, 1 for q >= EcnMaxThreshold, and EcnMaxProbability x (q - Kmin) /
 * (Kmax - Kmin) in between. The mark rewrites the packet's IPv4 header (the checksum as
 * ns-3's Ipv4Header writes it) and fires EcnMark. Packets that are not ECN-capable are never
 * marked, and marking never drops.
 */
class WanLinkNetDevice : public NetDevice
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    WanLinkNetDevice();
    ~WanLinkNetDevice() override;

    /**
     * \brief Attach the device to a channel; the link is up from then on.
     * \param channel the channel (at most two devices)
     */
    void Attach(Ptr<WanLinkChannel> channel);

    /**
     * \brief Take a frame from the channel (its transmission has ended and Delay passed).
     * \param packet the packet, without link header; the caller holds no other reference to
     *        it and drops this one after the call (see IsDeliveringSoleCopy())
     * \param protocol its protocol number (e.g. 0x0800 for IPv4)
     */
    void Receive(const Ptr<Packet>& packet, uint16_t protocol);

    /**
     * \brief Whether the frame being handed to the receive callback is held by nothing else.
     *
     * True only during the receive callback, and only when the delivered packet has no
     * reference but the channel's: no trace sink, promiscuous callback or error model kept
     * it. The receiver (a router port) may then edit that packet in place instead of copying
     * it, since nobody can see the change; ns-3's copy-on-write still protects the packets
     * that share its bytes.
     * \return true while the callback holds the delivered packet's only lasting reference
     */
    bool IsDeliveringSoleCopy() const;

    /**
     * \return true if nothing is being transmitted, queued, or on the wire away from this
     *         device (to this rank's devices or to another rank's)
     */
    bool IsIdle() const;
    /** \return packets waiting in the transmit FIFO (not counting the one on the wire) */
    uint32_t GetQueuePackets() const;
    /** \return bytes of framing counted in each frame's transmission time (FramingBytes) */
    uint32_t GetFramingBytes() const;
    /** \return bytes of the packets waiting in the transmit FIFO */
    uint64_t GetQueueBytes() const;
    /**
     * \brief Use fixed random variable streams for the ECN marking decisions.
     * \param stream first stream index \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    // NetDevice interface
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

    /** Smallest MTU the device accepts (IPv4's minimum datagram). */
    static constexpr uint16_t MIN_MTU = 68;
    /** Default FramingBytes: the PPP header PointToPointNetDevice adds to each packet. */
    static constexpr uint32_t DEFAULT_FRAMING_BYTES = 2;

  protected:
    void DoDispose() override;

  private:
    /** A frame waiting for, or on, the wire. */
    struct Frame
    {
        Ptr<Packet> packet; //!< the packet, without link header
        uint16_t protocol;  //!< its protocol number
    };

    /** \param frame the frame to put on the wire now (the transmitter is idle) */
    void TransmitStart(const Frame& frame);
    /** \brief The frame on the wire has been sent: start the next waiting one, if any. */
    void TransmitComplete();
    /** \param bytes packet bytes \return transmission time of a frame of that packet */
    Time TxTime(uint32_t bytes);
    /** \return the address of the device at the other end of the channel */
    Address GetRemote() const;
    /** \param frame a frame \return true if the FIFO has room for it */
    bool HasRoom(const Frame& frame) const;
    /**
     * \param frame a frame about to join the FIFO \brief mark it CE if ECN marking says so
     *        (EcnMarking; see the class description)
     */
    void MaybeMark(Frame& frame);
    /** \return the probability that a packet arriving now is marked */
    double MarkProbability() const;

    Ptr<Node> m_node;                               //!< node this device is installed on
    Ptr<WanLinkChannel> m_channel;                  //!< attached channel, or null (link down)
    uint32_t m_ifIndex{0};                          //!< interface index on the node
    Mac48Address m_address;                         //!< this device's address
    uint16_t m_mtu{1500};                           //!< MTU (attribute Mtu)
    DataRate m_rate;                                //!< transmission rate (attribute DataRate)
    uint32_t m_framingBytes{DEFAULT_FRAMING_BYTES}; //!< bytes counted in each frame's time
    QueueSize m_queueMaxSize;                       //!< FIFO bound (attribute TxQueueMaxSize)
    Ptr<ErrorModel> m_receiveErrorModel;            //!< receive error model, or null
    std::deque<Frame> m_queue;                      //!< frames waiting for the wire
    uint64_t m_queuedBytes{0};                      //!< bytes of the packets in m_queue
    bool m_busy{false};                             //!< a frame is on the wire
    Frame m_current;                                //!< the frame on the wire, while m_busy
    uint32_t m_lastTxBytes{0};                      //!< frame bytes of the last TxTime() computed
    uint64_t m_lastTxBps{0};                        //!< the rate it was computed at
    Time m_lastTxTime;                              //!< its result (most frames have the same size)
    mutable Address m_remote;               //!< cached GetRemote() (the far end never changes)
    bool m_ecnMarking{false};               //!< attribute EcnMarking
    QueueSize m_ecnMin;                     //!< attribute EcnMinThreshold (Kmin)
    QueueSize m_ecnMax;                     //!< attribute EcnMaxThreshold (Kmax)
    double m_ecnMaxProbability{1};          //!< attribute EcnMaxProbability (Pmax)
    Ptr<UniformRandomVariable> m_ecnRandom; //!< marking decisions between Kmin and Kmax

    bool m_deliveringSoleCopy{false};                    //!< IsDeliveringSoleCopy()
    NetDevice::ReceiveCallback m_rxCallback;             //!< the node's receive callback
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< promiscuous receive, or null
    TracedCallback<> m_linkChangeCallbacks;              //!< link change notifications

    TracedCallback<Ptr<const Packet>> m_macTxTrace;          //!< accepted for transmission
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;      //!< refused: FIFO full, link down
    TracedCallback<Ptr<const Packet>> m_macRxTrace;          //!< delivered up the stack
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;     //!< transmission started
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;       //!< transmission ended
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;       //!< frame received
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;      //!< lost to the error model
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace; //!< every frame sent or received
    TracedCallback<Ptr<const Packet>> m_ecnMarkTrace;        //!< a packet marked CE
};

} // namespace ns3

#endif /* WAN_LINK_NET_DEVICE_H */
