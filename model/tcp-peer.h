/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_PEER_H
#define TCP_PEER_H

#include "tcp-connection.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

class Packet;
class Socket;
struct ExchangeContext;

/**
 * \ingroup wan-training
 * \brief An island's N TCP connections to one peer (TcpTransport's Streams), used as one
 *        ordered stream of gradient messages: striped on writing, merged back on reading.
 *
 * Striping: the unit is one whole message (a chunk: a GradientHeader and its payload, at most
 * one MTU's worth), dealt round-robin: the i-th message to the peer goes on connection i mod N,
 * written when that connection's socket has room for it (the next message waits for it, even if
 * other connections have room). Both ends number the connections alike, in the order of the
 * connecting side's port, so the reader takes message i from connection i mod N and hands the
 * messages on in the order they were written, whatever the order of their arrival across the
 * connections (each connection still delivers its own in order). Every message travels once,
 * on one connection; heartbeats are per connection and outside the count.
 *
 * Liveness, over the connections: the peer was last heard at the latest byte on any of them;
 * its round is the lowest any of them announced (a connection delivers in order, so when every
 * one has shown round r + 1, everything of round r is in); it is closed when one connection
 * failed (could not open, reset, given up by TCP, or lost its framing: the order of the stream
 * is lost for good), the island closed it, or the connection the next message is due on was
 * closed by the peer with nothing left to read. On a failure the island closes the others, so
 * that the peer sees it too.
 */
class TcpPeer
{
  public:
    /** Pulls the peer's next message from an exchange: null when it has none yet; \p exhausted
     *  set once it will never have more (with or without a last message). */
    using Source = std::function<Ptr<Packet>(bool& exhausted)>;
    /** A message from the peer: (its header, its real payload or empty, its bytes). */
    using ReceiveCallback =
        Callback<void, const GradientHeader&, const std::vector<int32_t>&, uint32_t>;
    /** Makes a heartbeat (the island's current round). */
    using HeartbeatMaker = std::function<Ptr<Packet>()>;

    /**
     * \param peer the peer \param streams its connections, N >= 1
     * \param context the island (outlives this) \param receive gets every message but
     *        heartbeats, in the order the peer wrote them \param heartbeat makes heartbeats
     */
    TcpPeer(uint32_t peer,
            uint32_t streams,
            ExchangeContext& context,
            ReceiveCallback receive,
            HeartbeatMaker heartbeat);
    ~TcpPeer();
    TcpPeer(const TcpPeer&) = delete;
    TcpPeer& operator=(const TcpPeer&) = delete;

    /** \return the peer */
    uint32_t GetPeer() const;
    /**
     * \param socket a connecting socket (bound) or an accepted one
     * \param key the connecting side's port \param accepted true if the listener accepted it
     * \brief Take it as one of the streams; with the last, number them by key.
     */
    void AddConnection(Ptr<Socket> socket, uint16_t key, bool accepted);
    /**
     * \param check an empty write before each message on every connection, so that the
     *        socket sees an application-limited connection (TcpTransport's CheckAppLimited)
     */
    void SetCheckAppLimited(bool check);
    /** \return true once all its connections are there */
    bool IsComplete() const;
    /** \brief The island stops: close every connection (after the data handed to it). */
    void Close();

    /** \param owner who removes it \param source the source \brief queue it behind the rest */
    void AddSource(const void* owner, Source source);
    /** \param owner an owner \brief drop its sources and its message waiting for room */
    void RemoveSources(const void* owner);
    /** \brief Write what fits: pulled messages on their connections, then due heartbeats. */
    void Pump();
    /** \brief A heartbeat on every connection at the next chance. */
    void Announce();
    /** \brief A heartbeat on every connection that wrote nothing since the last call. */
    void AnnounceIdle();

    /** \return true if it is lost for good (see the class) */
    bool IsClosed() const;
    /** \return when its last byte arrived, on any connection (or this was made) */
    Time GetLastHeard() const;
    /** \return the lowest of its connections' latest rounds (0 before all are there) */
    uint32_t GetPeerRound() const;
    /** \return heartbeats written */
    uint64_t GetHeartbeatsSent() const;
    /** \return per connection, in stream order, the message bytes written */
    std::vector<uint64_t> GetStreamBytesSent() const;
    /** \return per connection, in stream order, the message bytes read */
    std::vector<uint64_t> GetStreamBytesReceived() const;

    // Called by its connections
    /** \brief A connection can write (it opened, or its socket has room). */
    void Wake();
    /** \brief A connection read a message: hand on what is in order. */
    void Arrived();
    /** \param failed it failed (else the peer closed it) \brief a connection is over */
    void Ended(bool failed);

  private:
    /** \brief Write pulled messages on their connections while they have room. */
    void WriteMessages();
    /** \brief Write due heartbeats, except where a message waits for room. */
    void WriteHeartbeats();
    /** \return true if a message waits to be written (pulled from the front source) */
    bool PullMessage();
    /** \return the connection the next message goes on */
    TcpConnection& NextToWrite() const;
    /** \return the connection the next message comes from */
    TcpConnection& NextToRead() const;
    /** \brief Nothing more is written: drop the sources and the unsent message. */
    void StopWriting();
    /** \param count a counter of TcpConnection \return its value per connection, in order */
    std::vector<uint64_t> PerStream(uint64_t (TcpConnection::*count)() const) const;

    uint32_t m_peer;                                      //!< the peer
    uint32_t m_streams;                                   //!< connections wanted
    ExchangeContext& m_context;                           //!< the island
    ReceiveCallback m_receive;                            //!< delivers messages
    HeartbeatMaker m_heartbeat;                           //!< makes heartbeats
    std::vector<std::unique_ptr<TcpConnection>> m_links;  //!< in stream order once complete
    bool m_checkAppLimited{false};                        //!< SetCheckAppLimited
    bool m_failed;                                        //!< a connection failed, or closed
    bool m_writing;                                       //!< messages may still be written
    bool m_pumping;                                       //!< Pump() runs
    bool m_again;                                         //!< Pump() was asked again meanwhile
    Ptr<Packet> m_unsent;                                 //!< pulled, waiting for room
    const void* m_unsentOwner;                            //!< whose
    std::deque<std::pair<const void*, Source>> m_sources; //!< queued sources, in order
    uint64_t m_written;                                   //!< messages written
    uint64_t m_read;                                      //!< messages handed on
    Time m_created;                                       //!< when this was made
};

} // namespace ns3

#endif /* TCP_PEER_H */
