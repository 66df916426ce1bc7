/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRADIENT_HEADER_H
#define GRADIENT_HEADER_H

#include "island-bitmap.h"

#include "ns3/header.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup wan-training
 * \brief The header after UDP on every gradient packet: data chunks, FPGA aggregates, NACKs,
 *        ring all-reduce steps and acknowledgements.
 *
 * Wire format (all fields in network byte order; W = bitmap words, R = NACK ranges):
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 2 | magic 0x5754 ("WT") |
 * | 2 | 1 | version (1) |
 * | 3 | 1 | type (GradientHeader::Type) |
 * | 4 | 2 | flags (GradientHeader::Flag); bits 7-9: the payload's Encoding |
 * | 6 | 2 | sender island |
 * | 8 | 4 | job id |
 * | 12 | 4 | round |
 * | 16 | 4 | clique id |
 * | 20 | 4 | chunk index |
 * | 24 | 4 | chunk count (chunks in this sender's update for the round) |
 * | 28 | 4 | element count (int32 values of payload after the header) |
 * | 32 | 2 | ring step (RING only, else 0) |
 * | 34 | 1 | W: bitmap words, 1..16 |
 * | 35 | 1 | R: NACK ranges, 0..MAX_NACK_RANGES (0 unless NACK) |
 * | 36 | 8W | member bitmap (the clique's islands) |
 * | 36+8W | 8W | contributor bitmap |
 * | 36+16W | 8R | NACK ranges: (first chunk, chunk count) pairs of uint32 |
 *
 * The payload that follows is element count elements of the header's Encoding (PayloadBytes:
 * int32 by default, 4 bytes each): values in network byte order when FLAG_REAL_PAYLOAD is set,
 * zero bytes otherwise (virtual mode). A real top-k element is an entry of two 32-bit words: the
 * index in the chunk, then the value's fp32 bits (GradientPayload reads and writes them). An
 * int32 header has encoding bits 0, so its bytes are those of the format before encodings
 * existed.
 *
 * Receiving rule: Header::Deserialize cannot fail, so every receiver calls Parse() on the
 * packet that starts at this header (IPv4 and UDP removed) and drops (and counts) the packet
 * when it returns false. Parse() never reads past the packet.
 */
class GradientHeader : public Header
{
  public:
    /** Packet types. */
    enum Type : uint8_t
    {
        DATA = 1,      //!< one sender's chunk, sent to its clique (multicast or unicast copies)
        AGGREGATE = 2, //!< sum of the chunks of the senders in the contributor bitmap
        NACK = 3,      //!< "send again": ranges of chunks, to the senders in the contributor bitmap
        RING = 4,      //!< one step of ring all-reduce (RingStep); passes FPGAs untouched
        ACK = 5,       //!< the sender has every chunk of the round from the contributor bitmap
        END = 6,       //!< end of a first pass: the sender sent all chunk count chunks once
        LATE = 7,      //!< the sender is repairing the round before this one: hold this round's
                       //!< first pass until its START (RoundAlignment)
        START = 8,     //!< the sender's first pass of this round starts at the time in its
                       //!< payload (8 bytes, ns, unsigned; RoundAlignment)
    };

    /** Flag bits. */
    enum Flag : uint16_t
    {
        FLAG_RETRANSMISSION = 0x0001, //!< a resend after a NACK: FPGAs pass it through
        FLAG_NO_AGGREGATE = 0x0002,   //!< FPGAs must pass it through
        FLAG_REAL_PAYLOAD = 0x0004,   //!< the payload holds int32 values (else zero bytes)
        FLAG_SETTLED = 0x0008,        //!< a partial AGGREGATE whose missing senders all sent later
                                      //!< chunks (or their END) past the FPGA: their contributions
                                      //!< were lost, not late
        FLAG_SILENCE = 0x0010,    //!< a NACK sent after silence, not after a gap: the asker has no
                                  //!< evidence the chunks were lost (an FPGA may still hold them)
        FLAG_CONGESTION = 0x0020, //!< on an ACK: a congestion notification (transport adaptive):
                                  //!< the sender received chunks marked CE from the island in
                                  //!< the contributor bitmap, as many as the chunk count
        FLAG_REDUCE = 0x0040,     //!< DATA or AGGREGATE going up a reduction tree to its root (the
                                  //!< IPv4 destination): edge FPGAs pass it through, transit
                                  //!< FPGAs on the way add it into one aggregate per chunk; or
                                  //!< a member's END behind its pieces, which transit FPGAs read
    };

    /**
     * How the payload's elements are encoded (UpdateFormat chooses; FPGAs write sums wider).
     * Wire code in bits 7-9 of the flags field.
     */
    enum Encoding : uint8_t
    {
        ENCODING_INT32 = 0, //!< 32-bit two's complement (4 bytes)
        ENCODING_INT16 = 1, //!< 16-bit two's complement (2 bytes): sums of int8
        ENCODING_INT8 = 2,  //!< 8-bit two's complement (1 byte)
        ENCODING_INT4 = 3,  //!< 4-bit two's complement, two per byte, high nibble first
        ENCODING_BF16 = 4,  //!< bfloat16 (2 bytes)
        ENCODING_TOPK = 5,  //!< top-k entries: 32-bit index in the chunk, fp32 value (8 bytes)
    };

    /** One NACK range: chunks first .. first + count - 1. */
    struct ChunkRange
    {
        uint32_t first; //!< first chunk index
        uint32_t count; //!< number of chunks (>= 1)
    };

    static constexpr uint16_t MAGIC = 0x5754;       //!< "WT"
    static constexpr uint8_t VERSION = 1;           //!< wire format version
    static constexpr uint32_t FIXED_SIZE = 36;      //!< bytes before the bitmaps
    static constexpr uint32_t MAX_NACK_RANGES = 64; //!< ranges one NACK may carry
    static constexpr uint32_t ELEMENT_SIZE = 4;     //!< bytes per int32 payload element
    static constexpr uint32_t START_ELEMENTS = 2;   //!< payload elements of a START: its time
    /** The largest header: 16 words per bitmap and MAX_NACK_RANGES ranges (804 bytes). */
    static constexpr uint32_t MAX_SERIALIZED_SIZE =
        FIXED_SIZE + 2 * 8 * IslandBitmap::MAX_WORDS + 8 * MAX_NACK_RANGES;

    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    GradientHeader();

    /**
     * \brief Parse a packet that starts with a GradientHeader, checking it first.
     *
     * Checks, in order: enough bytes for the fixed part; magic, version, type; 1 <= W <= 16;
     * R == 0 unless NACK, 1 <= R <= MAX_NACK_RANGES for NACK; enough bytes for bitmaps and
     * ranges; then consistency: chunk count >= 1 and chunk index < chunk count; sender in the
     * member bitmap; contributors a subset of the members; FLAG_REDUCE on DATA, AGGREGATE and
     * END only; DATA's contributors exactly
     * {sender}; END's contributors exactly {sender}, chunk index chunk count - 1 and no
     * payload; LATE's and START's contributors exactly {sender} and chunk count 1, LATE with
     * no payload, START with element count 2 (its 8-byte start time) and FLAG_REAL_PAYLOAD
     * clear; AGGREGATE's contributors non-empty; NACK ranges non-empty and inside the chunk
     * count; an Encoding code that exists, int32 unless DATA, AGGREGATE or RING; and finally
     * that the payload is exactly PayloadBytes(encoding, element count).
     *
     * GradientPayload::Parse() also reads a real payload's values.
     *
     * \param packet the packet, starting at the gradient header (IPv4 and UDP removed)
     * \param header receives the header (unspecified if the packet is rejected)
     * \param headerSize if not null, receives the header's size on the wire
     * \return true if the packet is a valid gradient packet
     */
    static bool Parse(Ptr<const Packet> packet,
                      GradientHeader& header,
                      uint32_t* headerSize = nullptr);

    /**
     * \brief Parse() on bytes already copied out of a packet (the FPGA's per-packet path).
     *
     * Same checks as Parse(); no payload values are read.
     *
     * \param bytes the packet's bytes from the start of the gradient header
     * \param available bytes valid at bytes: at least min(packetSize, MAX_SERIALIZED_SIZE)
     * \param packetSize size of the packet from the gradient header on (header + payload)
     * \param header receives the header (unspecified if rejected)
     * \param headerSize if not null, receives the header's size on the wire
     * \return true if the bytes hold a valid gradient packet
     */
    static bool ParseBytes(const uint8_t* bytes,
                           uint32_t available,
                           uint32_t packetSize,
                           GradientHeader& header,
                           uint32_t* headerSize = nullptr);

    /**
     * \brief The size of the packet a header announces, read from its fixed part alone: how a
     *        byte stream (TcpTransport) finds where each gradient message ends.
     * \param fixed the first FIXED_SIZE bytes of a header
     * \return header plus payload bytes (element count x 4), or 0 if the bytes cannot start a
     *         valid header (magic, version, type, flags, bitmap words or NACK range count)
     */
    static uint64_t FramedSize(const uint8_t* fixed);

    /** Bytes PeekFlags() reads: magic, version, type and flags. */
    static constexpr uint32_t PEEK_SIZE = 6;

    /**
     * \brief The flags of a header, read at fixed offsets from its first bytes alone: how a
     *        router picks reduction-tree packets out without parsing them (WanRouterNetDevice).
     * \param bytes the first PEEK_SIZE bytes of a header
     * \return the flag bits, or 0 if magic or version are not a gradient header's
     */
    static uint16_t PeekFlags(const uint8_t* bytes);

    /**
     * \param encoding an encoding \param elements element count
     * \return the payload bytes of that many elements (int4: rounded up to whole bytes)
     */
    static uint64_t PayloadBytes(Encoding encoding, uint64_t elements);
    /** \param encoding an encoding \return bits of one element (top-k: of one entry) */
    static uint32_t EncodingBits(Encoding encoding);
    /** \param type a type \return its name, e.g. "DATA" (or "UNKNOWN") */
    static const char* TypeName(uint8_t type);

    // Header interface
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /** \param type the packet type */
    void SetType(Type type);
    /** \return the packet type */
    Type GetType() const;
    /** \param flags flag bits (GradientHeader::Flag) */
    void SetFlags(uint16_t flags);
    /** \return flag bits */
    uint16_t GetFlags() const;
    /** \param flag one flag \return true if set */
    bool HasFlag(Flag flag) const;
    /** \param jobId the training job */
    void SetJobId(uint32_t jobId);
    /** \return the training job */
    uint32_t GetJobId() const;
    /** \param round the training round */
    void SetRound(uint32_t round);
    /** \return the training round */
    uint32_t GetRound() const;
    /** \param cliqueId the clique within the round's partition */
    void SetCliqueId(uint32_t cliqueId);
    /** \return the clique within the round's partition */
    uint32_t GetCliqueId() const;
    /** \param island the sending island (< IslandBitmap::MAX_ISLANDS) */
    void SetSender(uint16_t island);
    /** \return the sending island */
    uint16_t GetSender() const;
    /** \param index chunk index within the sender's update */
    void SetChunkIndex(uint32_t index);
    /** \return chunk index */
    uint32_t GetChunkIndex() const;
    /** \param count chunks in the sender's update (>= 1) */
    void SetChunkCount(uint32_t count);
    /** \return chunks in the sender's update */
    uint32_t GetChunkCount() const;
    /** \param count elements in the payload (top-k: entries) */
    void SetElementCount(uint32_t count);
    /** \return elements in the payload (top-k: entries) */
    uint32_t GetElementCount() const;
    /** \param encoding how the payload's elements are encoded */
    void SetEncoding(Encoding encoding);
    /** \return how the payload's elements are encoded */
    Encoding GetEncoding() const;
    /** \param step ring all-reduce step (RING only) */
    void SetRingStep(uint16_t step);
    /** \return ring all-reduce step */
    uint16_t GetRingStep() const;
    /** \param members the clique's islands */
    void SetMembers(const IslandBitmap& members);
    /** \return the clique's islands */
    const IslandBitmap& GetMembers() const;
    /** \param contributors the islands whose data the packet carries (or whom a NACK asks) */
    void SetContributors(const IslandBitmap& contributors);
    /** \return the contributor bitmap */
    const IslandBitmap& GetContributors() const;
    /** \param ranges NACK ranges (at most MAX_NACK_RANGES) */
    void SetNackRanges(const std::vector<ChunkRange>& ranges);
    /** \return NACK ranges */
    const std::vector<ChunkRange>& GetNackRanges() const;
    /** \return bytes of payload the header announces (PayloadBytes of its elements) */
    uint32_t GetPayloadSize() const;

  private:
    /**
     * \param fixed the first FIXED_SIZE bytes of a header
     * \return the header's size on the wire, or 0 if the fixed part is not valid (FramedSize)
     */
    static uint32_t HeaderSizeOf(const uint8_t* fixed);
    /** \param fixed the first FIXED_SIZE bytes of a header \return its payload bytes */
    static uint64_t PayloadSizeOf(const uint8_t* fixed);
    /** \return bitmap words written on the wire (at least 1) */
    uint32_t GetWireWords() const;
    /**
     * \brief Read the fields of the fixed part, all but magic, version, W and R (ParseBytes).
     * \param fixed the first FIXED_SIZE bytes of a header whose fixed part is valid
     */
    void DecodeFixedFields(const uint8_t* fixed);
    /**
     * \brief Read the member and contributor bitmaps and the NACK ranges (ParseBytes).
     * \param bytes a header whose fixed part is valid, all of it within the bytes
     */
    void DecodeBitmapsAndRanges(const uint8_t* bytes);
    /**
     * \brief The consistency checks of Parse() on decoded fields: chunk index and count, sender
     *        and contributors within the members, FLAG_REDUCE, then IsConsistentForType().
     * \return true if the fields are consistent
     */
    bool IsConsistent() const;
    /**
     * \brief The rules of the header's type (DATA, END, LATE, START, AGGREGATE, NACK).
     * \return true if the fields keep them
     */
    bool IsConsistentForType() const;
    /** \return true if the contributor bitmap is exactly {sender} */
    bool IsFromSenderAlone() const;
    /** \return true if every NACK range is non-empty and inside the chunk count */
    bool AreNackRangesInside() const;

    uint8_t m_type;                       //!< Type
    uint16_t m_flags;                     //!< Flag bits
    uint16_t m_sender;                    //!< sending island
    uint32_t m_jobId;                     //!< job
    uint32_t m_round;                     //!< round
    uint32_t m_cliqueId;                  //!< clique
    uint32_t m_chunkIndex;                //!< chunk index
    uint32_t m_chunkCount;                //!< chunk count
    uint32_t m_elementCount;              //!< payload elements
    Encoding m_encoding;                  //!< payload encoding
    uint16_t m_ringStep;                  //!< ring step
    IslandBitmap m_members;               //!< clique members
    IslandBitmap m_contributors;          //!< contributors
    std::vector<ChunkRange> m_nackRanges; //!< NACK ranges
};

} // namespace ns3

#endif /* GRADIENT_HEADER_H */
