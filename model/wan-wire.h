/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_WIRE_H
#define WAN_WIRE_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The wire facts every part of the module shares: IPv4, UDP and TCP sizes and the
 *        IPv4/UDP field offsets the router and the FPGA read in place.
 *
 * One place for them: the router, the FPGA, the application's pacing and the cost model all
 * read these, so a packet's size is computed the same way everywhere. Link framing is not
 * here: each link device owns its own, and senders ask it through LinkPort.
 */
struct WanWire
{
    static constexpr uint32_t IPV4_HEADER_BYTES = 20; //!< IPv4 header without options
    static constexpr uint32_t UDP_HEADER_BYTES = 8;   //!< UDP header
    static constexpr uint32_t TCP_HEADER_BYTES = 20;  //!< TCP header without options
    /** Most option bytes a TCP header carries (its data offset field allows 60 bytes). */
    static constexpr uint32_t TCP_MAX_OPTION_BYTES = 40;
    /** IPv4 and UDP header bytes in front of a datagram's payload. */
    static constexpr uint32_t IPV4_UDP_HEADER_BYTES = IPV4_HEADER_BYTES + UDP_HEADER_BYTES;
    /** Default UDP port of gradient traffic (GetGradientPort() says the one in use). */
    static constexpr uint16_t DEFAULT_GRADIENT_PORT = 47000;
    /** The IP MTU the module uses by default (jumbo frames). */
    static constexpr uint32_t DEFAULT_MTU = 9000;

    static constexpr uint16_t IPV4_ETHERTYPE = 0x0800; //!< EtherType (and PPP protocol) of IPv4
    static constexpr uint8_t IPV4_VERSION = 4;         //!< the IP version forwarded
    static constexpr uint8_t IPV4_PLAIN_IHL = 5;       //!< IHL of a header without options
    static constexpr uint8_t UDP_PROTOCOL = 17;        //!< IPv4 protocol number of UDP

    static constexpr uint32_t IPV4_TOS_OFFSET = 1;          //!< IPv4: TOS byte
    static constexpr uint32_t IPV4_TOTAL_LENGTH_OFFSET = 2; //!< IPv4: total length
    static constexpr uint32_t IPV4_FRAGMENT_OFFSET = 6;     //!< IPv4: flags and fragment offset
    static constexpr uint32_t IPV4_TTL_OFFSET = 8;          //!< IPv4: TTL
    static constexpr uint32_t IPV4_PROTOCOL_OFFSET = 9;     //!< IPv4: protocol
    static constexpr uint32_t IPV4_CHECKSUM_OFFSET = 10;    //!< IPv4: header checksum
    static constexpr uint32_t IPV4_SOURCE_OFFSET = 12;      //!< IPv4: source address
    static constexpr uint32_t IPV4_DESTINATION_OFFSET = 16; //!< IPv4: destination address
    static constexpr uint16_t IPV4_FRAGMENT_MASK = 0x3fff;  //!< more-fragments bit and offset
    /** The ECN field: the two low bits of the TOS byte (RFC 3168). */
    static constexpr uint8_t IPV4_ECN_MASK = 0x03;
    static constexpr uint8_t IPV4_ECN_ECT1 = 0x01; //!< ECN-capable transport, ECT(1)
    static constexpr uint8_t IPV4_ECN_ECT0 = 0x02; //!< ECN-capable transport, ECT(0)
    static constexpr uint8_t IPV4_ECN_CE = 0x03;   //!< congestion experienced

    static constexpr uint32_t UDP_SOURCE_PORT_OFFSET = 0;      //!< UDP: source port
    static constexpr uint32_t UDP_DESTINATION_PORT_OFFSET = 2; //!< UDP: destination port
    static constexpr uint32_t UDP_LENGTH_OFFSET = 4;           //!< UDP: length
    static constexpr uint32_t UDP_CHECKSUM_OFFSET = 6;         //!< UDP: checksum

    static constexpr double BITS_PER_BYTE = 8.0; //!< bits per byte

    /**
     * \brief The UDP destination port of gradient traffic, the one value the applications
     *        send to and bind, the routers divert reduction-tree pieces on and the FPGAs
     *        aggregate on.
     *
     * It is the ns-3 global value \c WanGradientPort (default DEFAULT_GRADIENT_PORT,
     * 47000): set it with \c --WanGradientPort=N on any program's command line, or with
     * GlobalValue::Bind("WanGradientPort", UintegerValue(N)), before the module's devices and
     * applications are created (each reads it once, when it is made).
     * \return the port
     */
    static uint16_t GetGradientPort();

    /** \param bytes two bytes in network order \return their value */
    static uint16_t ReadU16(const uint8_t* bytes)
    {
        return static_cast<uint16_t>((bytes[0] << 8) | bytes[1]);
    }

    /** \param bytes four bytes in network order \return their value */
    static uint32_t ReadU32(const uint8_t* bytes)
    {
        return (uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) | (uint32_t{bytes[2]} << 8) |
               uint32_t{bytes[3]};
    }

    /** \param bytes eight bytes in network order \return their value */
    static uint64_t ReadU64(const uint8_t* bytes)
    {
        return (uint64_t{ReadU32(bytes)} << 32) | ReadU32(bytes + 4);
    }

    /** Bytes IsPlainUdpTo() reads: the IPv4 header without options and the UDP header. */
    static constexpr uint32_t IPV4_UDP_BYTES = IPV4_HEADER_BYTES + UDP_HEADER_BYTES;

    /**
     * \brief The per-packet test of the router and the FPGAs, on bytes copied from the start of
     *        an IPv4 packet: no header object, a few compares at fixed offsets.
     * \param bytes the first IPV4_UDP_BYTES bytes of the packet \param port a UDP port
     * \return true for IPv4 without options, not a fragment, UDP to \p port
     */
    static bool IsPlainUdpTo(const uint8_t* bytes, uint16_t port)
    {
        const uint8_t versionIhl = bytes[0];
        const uint16_t fragment = ReadU16(bytes + IPV4_FRAGMENT_OFFSET);
        const uint8_t* udp = bytes + IPV4_HEADER_BYTES;
        const uint16_t destination = ReadU16(udp + UDP_DESTINATION_PORT_OFFSET);
        return (versionIhl >> 4) == IPV4_VERSION && (versionIhl & 0x0f) == IPV4_PLAIN_IHL &&
               (fragment & IPV4_FRAGMENT_MASK) == 0 &&
               bytes[IPV4_PROTOCOL_OFFSET] == UDP_PROTOCOL && destination == port;
    }

    /**
     * \param bytes a header \param length its length in bytes (even)
     * \return the one's complement of the one's complement sum of its 16-bit words: zero for a
     *         header whose checksum field is right, the checksum to write for one whose field
     *         is zero
     */
    static uint16_t InternetChecksum(const uint8_t* bytes, uint32_t length)
    {
        uint32_t sum = 0;
        for (uint32_t i = 0; i + 1 < length; i += 2)
        {
            sum += (static_cast<uint32_t>(bytes[i]) << 8) | bytes[i + 1];
        }
        while (sum >> 16)
        {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        return static_cast<uint16_t>(~sum);
    }
};

} // namespace ns3

#endif /* WAN_WIRE_H */
