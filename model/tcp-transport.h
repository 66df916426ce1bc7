/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_TRANSPORT_H
#define TCP_TRANSPORT_H

#include "tcp-peer.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class Address;
class Node;
class Packet;
class Socket;
struct ExchangeContext;
struct TrainingRoundConfig;

/**
 * \ingroup wan-training
 * \brief The tcp transport of one island: Streams ns-3 TCP connections to every peer it ever
 *        shares a clique with (a TcpPeer), kept for the whole run, carrying gradient messages
 *        both ways.
 *
 * Connections: the island with the lower index connects, the other listens on the gradient
 * port; both start when the application starts, so the handshake overlaps the first compute
 * phase. The congestion control is the node's TcpL4Protocol SocketType (CongestionControl).
 * Buffers: a peer's buffer is BufferBytes, or BdpFactor times the path's bandwidth-delay product
 * (the narrowest link on the path times the round trip); each of its Streams connections gets
 * an equal share, never below TcpSocket's default SndBufSize (with BufferBytes 0) nor two
 * messages. Segments fill the access link's MTU after IPv4 and the largest TCP header (never
 * fragmented). Three of ns-3's TCP defaults are replaced per connection (doc/training.rst, "The
 * tcp transport"): MaxPacingRate caps pacing at the island's access rate instead of ns-3's
 * 4 Gbit/s, DelAckCount 1 acknowledges every segment (as Linux does in slow start and after
 * idle time), and CheckAppLimited lets the socket see an application-limited connection before
 * each message, as Linux does.
 *
 * Messages: each is a GradientHeader and its payload (virtual or real int32), written whole,
 * dealt round-robin over the peer's connections (TcpPeer); the receiver cuts each byte stream
 * at the sizes the headers announce (GradientHeader::FramedSize) and hands the messages to the
 * application in the order they were written. Exchanges register per-peer sources, pulled in
 * order whenever the next connection has room for the next message: a round writes only after
 * the previous round's messages to that peer, so every message reaches the peer after
 * everything the sender wrote before it.
 *
 * Liveness: an idle connection carries a heartbeat every HeartbeatInterval (an ACK header with
 * no contributors whose round is the sender's current round; consumed here). GetLastHeard()
 * tells when the peer's last byte came on any connection, GetPeerRound() the latest round all
 * of its connections announced, IsClosed() whether its stream ended (one connection failed, or
 * the peer closed them); TcpExchange declares peers lost from these (PeerTimeout). The
 * transport of a stopped application closes every connection; one that finished its last round
 * announces that and stops its heartbeats, but keeps reading (discarding) so that its peers'
 * sockets never stall.
 */
class TcpTransport : public Object
{
  public:
    /** Pulls a peer's next message from an exchange (TcpPeer::Source). */
    using Source = TcpPeer::Source;
    /** A message from a peer (TcpPeer::ReceiveCallback). */
    using ReceiveCallback = TcpPeer::ReceiveCallback;

    /** The most connections per peer (Streams). */
    static constexpr uint32_t MAX_STREAMS = 256;

    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    TcpTransport();
    ~TcpTransport() override;

    /**
     * \param bps per island, the rate of the narrowest link on the path to it (for the
     *        bandwidth-delay product; empty: buffers at their floor)
     */
    void SetPathRates(const std::vector<double>& bps);
    /**
     * \brief Open the connections: listen, and connect to the partners of higher index.
     * \param node the island's node (with the internet stack)
     * \param context the island's context (kept; outlives the transport): identity, addresses,
     *        round trips, job id and chunk layout; received messages that fail to parse are
     *        counted in its dropped count
     * \param port the gradient port
     * \param partners the islands it ever exchanges with, ascending
     * \param receive called with every message but heartbeats
     */
    void Start(Ptr<Node> node,
               ExchangeContext& context,
               uint16_t port,
               const std::vector<uint32_t>& partners,
               ReceiveCallback receive);
    /** \brief The application stopped: close every connection (after the data handed to TCP). */
    void Stop();
    /**
     * \brief A round ended; heartbeats announce the next one from now on.
     * \param next the island's next round (its round count after the last)
     * \param members the round's clique \param last it was the island's last round: announce
     *        that on every connection and stop the heartbeats
     * \param incomplete it ended without some member: announce the next round to the clique
     *        at once, so that members still waiting in it need not time out
     */
    void EndRound(uint32_t next, const std::vector<uint32_t>& members, bool last, bool incomplete);
    /** \param peer a partner \brief send it a heartbeat now (the current round) */
    void Announce(uint32_t peer);

    /**
     * \brief Queue a source of messages to a peer, behind the sources queued before it.
     * \param peer the peer \param owner who removes it (RemoveSources) \param source the source
     */
    void AddSource(uint32_t peer, const void* owner, Source source);
    /** \param peer the peer \param owner the owner \brief drop its sources and unsent message */
    void RemoveSources(uint32_t peer, const void* owner);
    /** \param peer the peer \brief a source of it may have a message now: pull */
    void Wake(uint32_t peer);

    /**
     * \param peer a partner
     * \return true if its stream ended: a connection failed or could not be opened, or the
     *         next message would have to come on a connection the peer closed
     */
    bool IsClosed(uint32_t peer) const;
    /** \param peer a partner \return when its last byte arrived (or the transport started) */
    Time GetLastHeard(uint32_t peer) const;
    /**
     * \param peer a partner
     * \return the latest round every one of its connections announced (0 before any)
     */
    uint32_t GetPeerRound(uint32_t peer) const;
    /** \return the heartbeat and liveness check interval */
    Time GetHeartbeatInterval() const;
    /** \return the longest silence of a peer before it is declared lost */
    Time GetPeerTimeout() const;
    /** \param peer a partner \return each of its connections' send and receive buffer, bytes */
    uint32_t GetBufferBytes(uint32_t peer) const;
    /** \return the connections per peer (Streams) */
    uint32_t GetStreams() const;
    /**
     * \param peer a partner
     * \return per connection to it, in stream order, the bytes of messages written (heartbeats
     *         not counted); empty if it is not a partner
     */
    std::vector<uint64_t> GetStreamBytesSent(uint32_t peer) const;
    /**
     * \param peer a partner
     * \return per connection from it, in stream order, the bytes of messages read (heartbeats
     *         not counted); empty if it is not a partner
     */
    std::vector<uint64_t> GetStreamBytesReceived(uint32_t peer) const;
    /** \return the TCP segment size used, bytes */
    uint32_t GetSegmentSize() const;
    /** \return the pacing cap of every connection (MaxPacingRate, or the access rate) */
    DataRate GetMaxPacingRate() const;
    /** \return heartbeats written */
    uint64_t GetHeartbeatsSent() const;

    /**
     * \param name a TCP congestion control's class name, e.g. "TcpCubic" or "ns3::TcpCubic"
     * \param tid receives its TypeId
     * \return true if this ns-3 has it (a constructible subclass of TcpCongestionOps)
     */
    static bool LookupCongestionControl(const std::string& name, TypeId& tid);
    /** \return the names of this ns-3's TCP congestion controls, without "ns3::", sorted */
    static std::vector<std::string> GetCongestionControls();
    /**
     * \param island an island \param configs its part of each round of the period
     * \param rounds the rounds it runs
     * \return the islands it ever exchanges with, ascending: its cliques' members (RING: its
     *         ring neighbours)
     */
    static std::vector<uint32_t> Partners(uint32_t island,
                                          const std::vector<TrainingRoundConfig>& configs,
                                          uint32_t rounds);

  protected:
    void DoDispose() override;

  private:
    /** \param congestion a TypeId \brief set CongestionControl, checking it */
    void SetCongestionControl(TypeId congestion);
    /** \return CongestionControl */
    TypeId GetCongestionControl() const;
    /**
     * \param peer a partner \param floor the smallest buffer \param message the largest message
     * \return the buffer of each of its connections: its share of BufferBytes or of the path's
     *         BDP, at least \p floor (BDP only) and two messages
     */
    uint32_t BufferFor(uint32_t peer, uint32_t floor, uint32_t message) const;
    /**
     * \param peer a partner (higher index) \param port its gradient port
     * \brief open its Streams connections
     */
    void Connect(uint32_t peer, uint16_t port);
    /**
     * \param buffer bytes
     * \return a TCP socket with the segment size, buffers and pacing cap set
     */
    Ptr<Socket> CreateSocket(uint32_t buffer);
    /**
     * \param socket a new connection \param from the peer's address
     * \brief attach it if it comes from a partner that connects to this island
     */
    void Accepted(Ptr<Socket> socket, const Address& from);
    /** \brief Heartbeats on idle connections, every HeartbeatInterval. */
    void Tick();
    /** \return a heartbeat message for the current round */
    Ptr<Packet> MakeHeartbeat() const;
    /** \param peer an island \return its connections, or null if it is not a partner */
    TcpPeer* Find(uint32_t peer) const;

    // Attributes
    TypeId m_congestion;      //!< congestion control
    uint32_t m_bufferBytes;   //!< 0: from the path
    double m_bdpFactor;       //!< buffer / bandwidth-delay product
    uint32_t m_segmentSize;   //!< 0: from the MTU
    uint32_t m_streams;       //!< connections per peer
    Time m_heartbeatInterval; //!< idle heartbeat and check period
    Time m_peerTimeout;       //!< silence before lost
    DataRate m_maxPacingRate; //!< 0: the access rate
    uint32_t m_delAckCount;   //!< 0: TcpSocket's default
    bool m_checkAppLimited;   //!< empty write before each message

    // State
    Ptr<Node> m_node;                              //!< the island's node
    ExchangeContext* m_context;                    //!< the island
    uint32_t m_round;                              //!< the island's current round
    std::vector<double> m_rates;                   //!< per island, narrowest link
    std::vector<std::unique_ptr<TcpPeer>> m_peers; //!< per island (null: no partner)
    std::vector<uint32_t> m_buffers;               //!< per island, per connection bytes
    Ptr<Socket> m_listener;                        //!< accepts lower-index partners
    uint32_t m_usedSegmentSize;                    //!< segment size set on sockets
    DataRate m_usedMaxPacingRate;                  //!< pacing cap set on sockets
    EventId m_tick;                                //!< next heartbeat tick
};

} // namespace ns3

#endif /* TCP_TRANSPORT_H */
