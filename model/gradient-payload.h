/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRADIENT_PAYLOAD_H
#define GRADIENT_PAYLOAD_H

#include "gradient-header.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup wan-training
 * \brief What follows a GradientHeader: its elements in the header's Encoding, and the
 *        gradient packets (header and payload) the islands and FPGAs build and read.
 *
 * GradientHeader owns the wire header and the payload's size (PayloadBytes); this class owns
 * the elements' bytes: how a value is written and read in each Encoding (int4: two per byte,
 * high nibble first; bf16: the value's 16 bits; top-k: an entry of two 32-bit words, the
 * index in the chunk and the value's fp32 bits), a virtual payload's zero bytes, and a START's
 * 8-byte start time.
 */
class GradientPayload
{
  public:
    /** The header's element encodings. */
    using Encoding = GradientHeader::Encoding;

    /**
     * \brief GradientHeader::Parse(), then a real payload's element values.
     * \param packet the packet, starting at the gradient header (IPv4 and UDP removed)
     * \param header receives the header (unspecified if the packet is rejected)
     * \param values if not null and the payload is real, receives the element values
     *        (ValueWords per element; cleared for virtual payloads)
     * \return true if the packet is a valid gradient packet
     */
    static bool Parse(Ptr<const Packet> packet,
                      GradientHeader& header,
                      std::vector<int32_t>* values);
    /**
     * \brief Read a real payload's element values (what Parse() does for its values).
     * \param header a header GradientHeader::ParseBytes() accepted, with FLAG_REAL_PAYLOAD
     * \param payload its payload's bytes \param values receives them (ValueWords per element)
     */
    static void ReadValues(const GradientHeader& header,
                           const uint8_t* payload,
                           std::vector<int32_t>& values);

    /**
     * \brief Build a packet with a virtual payload: header + PayloadBytes zero bytes.
     * \param header the header (FLAG_REAL_PAYLOAD is cleared on the copy written)
     * \return the packet
     */
    static Ptr<Packet> CreateVirtual(const GradientHeader& header);
    /**
     * \brief Build a packet with a real payload: header + values in the header's encoding,
     *        network order.
     * \param header the header (element count and FLAG_REAL_PAYLOAD are set on the copy
     *        written from values: their size / ValueWords)
     * \param values the element values (ValueWords per element)
     * \return the packet
     */
    static Ptr<Packet> CreateReal(const GradientHeader& header, const std::vector<int32_t>& values);
    /**
     * \brief A START packet: \p header (type START) followed by the start time, 8 bytes.
     * \param header the header \param at when the sender's first pass starts
     * \return the packet
     */
    static Ptr<Packet> CreateStart(const GradientHeader& header, Time at);
    /**
     * \param packet a START packet that Parse() accepted (from the gradient header on)
     * \return the start time it carries
     */
    static Time ReadStartTime(Ptr<const Packet> packet);

    /**
     * \param encoding an encoding
     * \return true for the integer encodings (int32, int16, int8, int4): what real payloads
     *         and FPGA sums use
     */
    static bool IsFixedPoint(Encoding encoding);
    /**
     * \param encoding an encoding
     * \return the int32 words one element of a real payload takes in a values vector: 2 for
     *         a top-k entry (index, fp32 bits), 1 otherwise
     */
    static uint32_t ValueWords(Encoding encoding);
    /**
     * \param encoding an encoding \param payload a payload
     * \param i value index (top-k: word i of the entries, ValueWords)
     * \return value i, sign-extended (bf16: its 16 bits, 0 to 65535; top-k: the word's bits)
     */
    static int32_t ReadElement(Encoding encoding, const uint8_t* payload, uint32_t i);
    /**
     * \brief Write value i (its low bits: the value must fit the encoding).
     * \param encoding an encoding (bf16: the value's low 16 bits; top-k: word i)
     * \param payload a payload \param i element index
     * \param value the value
     */
    static void WriteElement(Encoding encoding, uint8_t* payload, uint32_t i, int32_t value);
};

} // namespace ns3

#endif /* GRADIENT_PAYLOAD_H */
