/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_CONNECTION_H
#define TCP_CONNECTION_H

#include "gradient-header.h"
#include "tcp-received-bytes.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/sequence-number.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

namespace ns3
{

class Packet;
class Socket;
class TcpPeer;
struct ExchangeContext;

/**
 * \ingroup wan-training
 * \brief A gradient message read from a TCP connection: its header, its real payload (empty
 *        when virtual) and its bytes.
 */
struct TcpMessage
{
    GradientHeader header;       //!< its header
    std::vector<int32_t> values; //!< its real payload, or empty
    uint32_t bytes{0};           //!< header and payload bytes
};

/**
 * \ingroup wan-training
 * \brief One TCP connection of an island to a peer, one of the TcpPeer's streams: whole
 *        messages written on the TcpPeer's word, the byte stream read back into messages.
 *
 * Writing: the TcpPeer decides which message goes on which connection; the connection writes a
 * message only whole, when its socket has room for it, and keeps its own heartbeats (due when
 * announced, written when the TcpPeer has no data waiting for this connection).
 * Reading: the bytes are cut at the sizes the headers announce (GradientHeader::FramedSize);
 * heartbeats (ACK headers without contributors) are consumed here, every other message is
 * queued for the TcpPeer, which takes them across its connections in the order they were
 * written. A stream that loses its framing, or carries anything but the peer's gradient
 * messages, is closed as failed.
 */
class TcpConnection
{
  public:
    /**
     * \param owner the TcpPeer (outlives the connection): told of room, messages and the end
     * \param context the island (outlives the connection; malformed messages count in its
     *        dropped count)
     */
    TcpConnection(TcpPeer& owner, ExchangeContext& context);
    ~TcpConnection();
    TcpConnection(const TcpConnection&) = delete;
    TcpConnection& operator=(const TcpConnection&) = delete;

    /**
     * \param socket its socket (connecting, or accepted)
     * \param key the connecting side's port: both ends order a peer's connections by it
     * \param accepted true for a socket the listener accepted
     * \brief Take its callbacks.
     *
     * A connecting socket is established when its handshake succeeds, and then writes a
     * heartbeat at once (the hello). An accepted socket is established only when its socket
     * has heard the peer acknowledge in ESTABLISHED, which the hello brings: ns-3 (3.37 to
     * 3.48) moves its HighestRxAck only then, and a socket that fills the peer's whole window
     * before trips a debug-build assert in TcpSocketBase::SendDataPacket that measures the
     * window from HighestRxAck (see doc/training.rst, "Known ns-3 defects").
     */
    void Attach(Ptr<Socket> socket, uint16_t key, bool accepted);
    /** \return the connecting side's port given to Attach */
    uint16_t GetKey() const;
    /** \brief Close the socket (after the data handed to it); nothing more is read. */
    void Close();

    /** \param bytes a message's size \return true if it can be written now */
    bool HasRoom(uint32_t bytes) const;
    /**
     * \param message a gradient message that HasRoom() for
     * \return true if written; false if the socket refused it (the connection is then over
     *         and the TcpPeer told)
     */
    bool Write(Ptr<Packet> message);
    /**
     * \param check before each message, let the socket check whether the connection is
     *        application-limited, as Linux does (TcpTransport's CheckAppLimited)
     */
    void SetCheckAppLimited(bool check);
    /** \brief A heartbeat is due (if connected): WriteDueHeartbeat makes it. */
    void Announce();
    /**
     * \param heartbeat makes it
     * \brief Make a due heartbeat (it then counts as sent) and write it when the socket has room.
     */
    void WriteDueHeartbeat(const std::function<Ptr<Packet>()>& heartbeat);
    /** \return true unless a heartbeat made earlier still waits for room (data goes after it) */
    bool FlushHeartbeat();
    /** \return true if nothing was written since the last call */
    bool TakeIdle();

    /** \return true if a message waits for the TcpPeer */
    bool HasMessage() const;
    /** \return the oldest waiting message, removed */
    TcpMessage TakeMessage();

    /** \return true once the handshake is done */
    bool IsEstablished() const;
    /** \return true if the connection ended (the peer closed it, it failed, or it was closed) */
    bool IsClosed() const;
    /** \return when the peer's last byte came (or the connection was made) */
    Time GetLastHeard() const;
    /** \return the latest round of any of the peer's messages on it (0 before any) */
    uint32_t GetPeerRound() const;
    /** \return heartbeats written */
    uint64_t GetHeartbeatsSent() const;
    /** \return bytes of gradient messages (not heartbeats) written */
    uint64_t GetDataBytesSent() const;
    /** \return bytes of gradient messages (not heartbeats) read */
    uint64_t GetDataBytesReceived() const;

  private:
    /** \param socket the socket \brief read every waiting byte */
    void HandleRead(Ptr<Socket> socket);
    /** \param socket the socket \param available free bytes \brief room to write */
    void HandleSend(Ptr<Socket> socket, uint32_t available);
    /** \param socket the socket \brief handshake done: write the hello */
    void ConnectionSucceeded(Ptr<Socket> socket);
    /** \brief The connection is ready: the TcpPeer may write. */
    void Establish();
    /** \brief An accepted connection is ready once its socket has heard the peer's ACK. */
    void EstablishIfHeard();
    /**
     * \param previous the socket's HighestRxAck before \param now after
     * \brief The socket heard the peer acknowledge in ESTABLISHED.
     */
    void PeerAckMoved(SequenceNumber32 previous, SequenceNumber32 now);
    /** \param socket the socket \brief handshake failed */
    void ConnectionFailed(Ptr<Socket> socket);
    /** \param socket the socket \brief the peer closed it */
    void NormalClose(Ptr<Socket> socket);
    /** \param socket the socket \brief reset, or given up by TCP */
    void ErrorClose(Ptr<Socket> socket);
    /** \param why for the log \brief the stream cannot be trusted: close it, a failure */
    void Abandon(const char* why);
    /** \param failed whether it failed \brief over: nothing more is read or written */
    void MarkClosed(bool failed);
    /** \brief Cut the received bytes into messages and queue them. */
    void Extract();
    /**
     * \brief Parse one whole message: consume a heartbeat, queue the rest.
     * \param bytes its first bytes: all of them with real payloads, else at least its header
     * \param available bytes at \p bytes \param size the message's size
     */
    void Accept(const uint8_t* bytes, uint32_t available, uint32_t size);
    /** \param message a gradient message or heartbeat \return true if written */
    bool Send(Ptr<Packet> message);

    TcpPeer& m_owner;               //!< the peer's connections
    ExchangeContext& m_context;     //!< the island
    Ptr<Socket> m_socket;           //!< the socket
    uint16_t m_key;                 //!< the connecting side's port
    bool m_established;             //!< ready to write (see Attach)
    bool m_awaitingPeer;            //!< accepted, not yet established
    bool m_peerAckHeard;            //!< the socket's HighestRxAck moved
    bool m_closed;                  //!< ended or failed
    bool m_heartbeatDue;            //!< a heartbeat is to be made
    Ptr<Packet> m_heartbeat;        //!< made, waiting for room
    bool m_checkAppLimited;         //!< an empty write before each message
    bool m_wrote;                   //!< written since TakeIdle()
    TcpReceivedBytes m_received;    //!< bytes short of a whole message
    std::vector<uint8_t> m_message; //!< a message's bytes, read out of m_received
    std::deque<TcpMessage> m_inbox; //!< read, not yet taken by the TcpPeer
    Time m_lastHeard;               //!< last byte from the peer
    uint32_t m_peerRound;           //!< latest round it announced
    uint64_t m_heartbeatsSent;      //!< heartbeats written
    uint64_t m_dataBytesSent;       //!< message bytes written
    uint64_t m_dataBytesReceived;   //!< message bytes read
};

} // namespace ns3

#endif /* TCP_CONNECTION_H */
