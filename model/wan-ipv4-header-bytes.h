/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_IPV4_HEADER_BYTES_H
#define WAN_IPV4_HEADER_BYTES_H

#include "wan-wire.h"

#include "ns3/header.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class Packet;

/**
 * \ingroup wan-training
 * \brief An IPv4 header without options carried as its 20 bytes: how the router (TTL) and the
 *        link device (ECN mark) edit a packet's IPv4 header in place.
 *
 * Cheaper than a round trip through Ipv4Header, whose other fields neither needs, and safe
 * for packets whose first header was written by someone else (see Rewrite()).
 */
class WanIpv4HeaderBytes : public Header
{
  public:
    /** Size of the header. */
    static constexpr uint32_t SIZE = WanWire::IPV4_HEADER_BYTES;

    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /**
     * \brief Write the header checksum as ns-3's Ipv4Header does: computed when \p enabled
     *        (Node::ChecksumEnabled()), else zero.
     * \param enabled checksums are enabled
     */
    void UpdateChecksum(bool enabled);

    /**
     * \param packet an IPv4 packet (header without options first)
     * \param bytes the 20 header bytes to put in place of its header
     * \return a copy of \p packet with \p bytes as its IPv4 header
     */
    static Ptr<Packet> Rewrite(Ptr<const Packet> packet, const uint8_t* bytes);

    /**
     * \brief Put \p bytes in place of the IPv4 header of \p packet itself, for a caller that
     *        holds the packet's only reference. Other packets sharing its bytes keep theirs
     *        (ns-3's copy-on-write).
     * \param packet an IPv4 packet (header without options first)
     * \param bytes the 20 header bytes to put in place of its header
     */
    static void RewriteInPlace(Ptr<Packet> packet, const uint8_t* bytes);

    uint8_t m_bytes[SIZE]{}; //!< the header in network order
};

} // namespace ns3

#endif /* WAN_IPV4_HEADER_BYTES_H */
