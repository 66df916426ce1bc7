/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_CONNECTION_H
#define TCP_CONNECTION_H

#include "gradient-header.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

namespace ns3
{

class Packet;
class Socket;
struct ExchangeContext;

/**
 * \ingroup wan-training
 * \brief One TCP connection of an island to a peer (TcpTransport holds one per peer): gradient
 *        messages written whole from queued sources, the byte stream read back into messages.
 *
 * Writing: exchanges queue sources; the front source is asked for its next message whenever
 * the socket has room for one (a source with nothing yet blocks those behind it, so a round's
 * messages follow the previous round's), and a due heartbeat goes when no message waits.
 * Reading: the bytes are cut at the sizes the headers announce (GradientHeader::FramedSize);
 * each message is parsed, heartbeats (ACK headers without contributors) are kept to itself, the
 * rest handed on. A stream that loses its framing is closed.
 */
class TcpConnection
{
  public:
    /**
     * Pulls a peer's next message from an exchange: null when it has none yet; \p exhausted set
     * once it will never have more (with or without a last message).
     */
    using Source = std::function<Ptr<Packet>(bool& exhausted)>;
    /** A message from the peer: (its header, its real payload or empty, its bytes). */
    using ReceiveCallback =
        Callback<void, const GradientHeader&, const std::vector<int32_t>&, uint32_t>;
    /** Makes a heartbeat (the island's current round). */
    using HeartbeatMaker = std::function<Ptr<Packet>()>;

    /**
     * \param peer the peer \param context the island (outlives the connection; malformed
     *        messages count in its dropped count) \param receive gets every message but
     *        heartbeats \param heartbeat makes heartbeats
     */
    TcpConnection(uint32_t peer,
                  ExchangeContext& context,
                  ReceiveCallback receive,
                  HeartbeatMaker heartbeat);
    ~TcpConnection();
    TcpConnection(const TcpConnection&) = delete;
    TcpConnection& operator=(const TcpConnection&) = delete;

    /** \param socket its socket (connecting, or accepted) \brief take its callbacks */
    void Attach(Ptr<Socket> socket);
    /** \return the socket (null before Attach) */
    Ptr<Socket> GetSocket() const;
    /** \brief The handshake is done: write what waits. */
    void Establish();
    /** \brief Close the socket (after the data handed to it); nothing more is delivered. */
    void Close();
    /** \brief The connection is over (failed, reset, or the peer closed it). */
    void MarkClosed();

    /** \param owner who removes it \param source the source \brief queue it behind the rest */
    void AddSource(const void* owner, Source source);
    /** \param owner an owner \brief drop its sources and its message waiting for room */
    void RemoveSources(const void* owner);
    /** \brief Write what fits: pulled messages, then a due heartbeat. */
    void Pump();
    /** \brief Send a heartbeat at the next chance (if connected). */
    void Announce();
    /** \return true if nothing was written since the last call */
    bool TakeIdle();
    /**
     * \param check before each message, let the socket check whether the connection is
     *        application-limited, as Linux does (TcpTransport's CheckAppLimited)
     */
    void SetCheckAppLimited(bool check);

    /** \return true once the handshake is done */
    bool IsEstablished() const;
    /** \return true if the connection ended or could not be opened */
    bool IsClosed() const;
    /** \return when the peer's last byte came (or the connection was made) */
    Time GetLastHeard() const;
    /** \param time the start of waiting for it \brief reset GetLastHeard */
    void SetLastHeard(Time time);
    /** \return the latest round of any of the peer's messages (0 before any) */
    uint32_t GetPeerRound() const;
    /** \return heartbeats written */
    uint64_t GetHeartbeatsSent() const;

  private:
    /** \param socket the socket \brief read every waiting byte */
    void HandleRead(Ptr<Socket> socket);
    /** \param socket the socket \param available free bytes \brief room to write */
    void HandleSend(Ptr<Socket> socket, uint32_t available);
    /** \param socket the socket \brief handshake done */
    void ConnectionSucceeded(Ptr<Socket> socket);
    /** \param socket the socket \brief handshake failed */
    void ConnectionFailed(Ptr<Socket> socket);
    /** \param socket the socket \brief the peer closed it */
    void NormalClose(Ptr<Socket> socket);
    /** \param socket the socket \brief reset, or given up by TCP */
    void ErrorClose(Ptr<Socket> socket);
    /** \brief Cut the received bytes into messages and deliver them. */
    void Extract();
    /** \param message one whole message \brief parse and deliver it */
    void Deliver(Ptr<Packet> message);

    uint32_t m_peer;                                      //!< the peer
    ExchangeContext& m_context;                           //!< the island
    ReceiveCallback m_receive;                            //!< delivers messages
    HeartbeatMaker m_heartbeat;                           //!< makes heartbeats
    Ptr<Socket> m_socket;                                 //!< the socket
    bool m_established;                                   //!< handshake done
    bool m_closed;                                        //!< ended or failed
    bool m_pumping;                                       //!< Pump() runs
    bool m_again;                                         //!< Pump() was asked again meanwhile
    bool m_heartbeatDue;                                  //!< a heartbeat goes next
    bool m_wrote;                                         //!< written since TakeIdle()
    bool m_checkAppLimited;                               //!< empty write before each message
    Ptr<Packet> m_pending;                                //!< bytes short of a whole message
    Ptr<Packet> m_unsent;                                 //!< pulled, waiting for room
    const void* m_unsentOwner;                            //!< whose (null: a heartbeat)
    std::deque<std::pair<const void*, Source>> m_sources; //!< queued sources, in order
    Time m_lastHeard;                                     //!< last byte from the peer
    uint32_t m_peerRound;                                 //!< latest round it announced
    std::vector<int32_t> m_values;                        //!< parse scratch
    uint64_t m_heartbeatsSent;                            //!< heartbeats written
};

} // namespace ns3

#endif /* TCP_CONNECTION_H */
