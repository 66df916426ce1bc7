/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_RECEIVED_BYTES_H
#define TCP_RECEIVED_BYTES_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The bytes a TCP connection has read and not yet cut into messages, kept as the
 *        packets the socket returned.
 *
 * Not one growing Packet: appending every segment to one packet (Packet::AddAtEnd) grows its
 * packet-metadata list by each segment's items, and ns-3 3.37 counts that list's bytes in 16
 * bits, so a message of a few thousand segments overflows it (with metadata on, as in ns-3's
 * own test runner, whose ns3-tcp-state suite enables it, a debug build aborts in
 * PacketMetadata::AddAtEnd). Kept as pieces, no list
 * grows, and no byte is copied until a message is read out.
 */
class TcpReceivedBytes
{
  public:
    /** \param packet bytes read from the socket, appended after the others */
    void Append(Ptr<Packet> packet);
    /** \return bytes held */
    uint64_t GetSize() const;
    /**
     * \brief Copy the first bytes held (they stay held).
     * \param out where to \param count how many, at most GetSize()
     */
    void Peek(uint8_t* out, uint32_t count) const;
    /** \param count bytes to drop from the front, at most GetSize() */
    void Consume(uint64_t count);
    /** \brief Drop everything. */
    void Clear();

  private:
    std::deque<Ptr<Packet>> m_pieces; //!< in stream order
    uint64_t m_size{0};               //!< their bytes
};

} // namespace ns3

#endif /* TCP_RECEIVED_BYTES_H */
