/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHUNK_LAYOUT_H
#define CHUNK_LAYOUT_H

#include "update-format.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief How an update is cut into packets: int32 elements, chunks, ring segments and the
 *        bytes each packet carries on the wire.
 *
 * The one place of this arithmetic: the application cuts its streams with it and the cost
 * model counts packets and bytes with it, so both always agree.
 *
 * An update of M bytes is E = ceil(M / 4) int32 elements. DIRECT exchanges send all of it as
 * chunks of C = ChunkPayloadBytes / 4 elements: ceil(E / C) chunks (at least one), the last
 * one shorter. Ring all-reduce over k members cuts the elements into k segments of ceil(E / k)
 * elements (the last ones shorter, possibly empty), each sent as its own chunks. Member p
 * (position in ascending island order) sends segment (p - s) mod k in reduce-scatter step
 * s < k - 1 and segment (p + 1 - t) mod k in all-gather step k - 1 + t, always to member
 * p + 1; it receives segment (p - 1 - s) mod k, respectively (p - t) mod k.
 *
 * A ring step carries sums: reduce-scatter step s the sum of s + 1 members' values, every
 * all-gather step the sum of all k. In int32 they stay int32; in int8 and int4 they travel in
 * the narrowest encoding that holds them (UpdateFormat::SumEncoding, as an FPGA's sums), so
 * step 0 carries the format itself and later steps a wider encoding (GetRingEncoding).
 */
class ChunkLayout
{
  public:
    /**
     * Most int32 elements of an update: element positions (a chunk's first element, a ring
     * segment's start) travel and are kept as 32-bit numbers.
     */
    static constexpr uint64_t MAX_ELEMENTS = UINT32_MAX;
    /**
     * Largest update, bytes: MAX_ELEMENTS int32 elements, 17,179,869,180 bytes (about 17.2 GB).
     * The one limit of model sizes: flags (--modelBytes) and the application check against it.
     */
    static constexpr uint64_t MAX_MODEL_BYTES = MAX_ELEMENTS * sizeof(int32_t);
    /** Why MAX_MODEL_BYTES is the limit, as error messages state it. */
    static constexpr const char* MAX_MODEL_BYTES_REASON =
        "the most a 32-bit element index covers: 2^32 - 1 int32 elements, "
        "ChunkLayout::MAX_MODEL_BYTES";

    /** An empty layout (no elements); Init() gives it a size. */
    ChunkLayout();
    /**
     * \brief An int32 layout: chunkPayloadBytes / 4 elements per chunk.
     * \param modelBytes M, bytes of one island's update
     * \param chunkPayloadBytes payload bytes per packet, a positive multiple of 4
     */
    ChunkLayout(uint64_t modelBytes, uint32_t chunkPayloadBytes);
    /**
     * \brief A layout in any format: as many elements per chunk as fit chunkPayloadBytes,
     *        and, for a summable format, as an FPGA's sum of islandCount chunks still fits
     *        (UpdateFormat::GetChunkElements).
     * \param modelBytes M (its elements are M / 4, the fp32 size) \param chunkPayloadBytes
     *        the most payload per packet \param format the update's format
     * \param islandCount N, the most contributors a sum may hold
     */
    ChunkLayout(uint64_t modelBytes,
                uint32_t chunkPayloadBytes,
                const UpdateFormat& format,
                uint32_t islandCount);

    /** \return the update's format */
    const UpdateFormat& GetFormat() const;
    /** \return the payload bytes of a whole update's DATA chunks in the format */
    uint64_t GetPayloadBytes() const;
    /**
     * \param contributors k, senders an FPGA's sums hold
     * \return the payload bytes of the sums of every chunk (UpdateFormat::GetSumPayloadBytes;
     *         a format FPGAs do not sum: GetPayloadBytes())
     */
    uint64_t GetSumPayloadBytes(uint32_t contributors) const;

    /** \return E, int32 elements of the update */
    uint64_t GetElements() const;
    /** \return C, elements per full chunk */
    uint32_t GetChunkElements() const;
    /** \return chunks of a whole update (DIRECT), at least 1 */
    uint32_t GetChunkCount() const;
    /**
     * \param chunk chunk index of a whole update \param first receives its first element
     * \return its element count (0 beyond the update)
     */
    uint32_t GetChunkSpan(uint32_t chunk, uint32_t& first) const;
    /**
     * \brief Where a chunk's real payload sits in the values of the whole update: its wire
     *        elements (UpdateFormat::GetWireElements) of GradientPayload::ValueWords each, after
     *        those of the chunks before it (the same as GetChunkSpan but for top-k's entries).
     * \param chunk chunk index of a whole update \param first receives its first value
     * \return its value count (0 beyond the update)
     */
    uint32_t GetValueSpan(uint32_t chunk, uint64_t& first) const;

    /**
     * \param k ring members \param segment segment index < k \param first receives its first
     *        element \return its element count (0 for an empty trailing segment)
     */
    uint32_t GetSegmentSpan(uint32_t k, uint32_t segment, uint32_t& first) const;
    /** \param k ring members \param segment segment index \return its chunks, at least 1 */
    uint32_t GetSegmentChunkCount(uint32_t k, uint32_t segment) const;
    /**
     * \param k ring members \param segment segment index \param chunk chunk of the segment
     * \param first receives the chunk's first element (of the whole update)
     * \return the chunk's element count
     */
    uint32_t GetSegmentChunkSpan(uint32_t k,
                                 uint32_t segment,
                                 uint32_t chunk,
                                 uint32_t& first) const;

    /**
     * \param k ring members (>= 2) \param position own position \param step 0 .. 2(k-1)-1
     * \return the segment member \p position sends in \p step
     */
    static uint32_t RingSendSegment(uint32_t k, uint32_t position, uint32_t step);
    /**
     * \param k ring members (>= 2) \param position own position \param step 0 .. 2(k-1)-1
     * \return the segment member \p position receives in \p step
     */
    static uint32_t RingReceiveSegment(uint32_t k, uint32_t position, uint32_t step);
    /** \param k ring members \return steps of ring all-reduce: 2(k-1) */
    static uint32_t RingSteps(uint32_t k);
    /**
     * \param k ring members (>= 2) \param step 0 .. 2(k-1)-1
     * \return members whose values a packet of the step sums: step + 1 in reduce-scatter,
     *         k in all-gather
     */
    static uint32_t RingContributors(uint32_t k, uint32_t step);
    /**
     * \param k ring members (>= 2) \param step 0 .. 2(k-1)-1
     * \return the encoding of the step's payload: the sum of RingContributors in the update
     *         format (UpdateFormat::SumEncoding)
     */
    GradientHeader::Encoding GetRingEncoding(uint32_t k, uint32_t step) const;
    /**
     * \param k ring members \param segment segment index \param step the ring step carrying it
     * \param chunks receives its packets (at least 1) \param lastPayload receives the payload
     *        bytes of its last packet
     * \return the payload bytes of the segment in the step's encoding
     */
    uint64_t GetRingStepPayload(uint32_t k,
                                uint32_t segment,
                                uint32_t step,
                                uint64_t& chunks,
                                uint32_t& lastPayload) const;
    /**
     * \return the largest payload of one packet of this layout: a full chunk in the format or
     *         in the widest sum of up to the islands' count of them
     */
    uint32_t GetLargestChunkPayload() const;

    /** \param bytes a size in bytes \return int32 elements holding it: ceil(bytes / 4) */
    static uint64_t ElementsOf(uint64_t bytes);
    /**
     * \param modelBytes M \param k ring members \param segment segment index
     * \return the segment's payload bytes
     */
    static uint64_t RingSegmentBytes(uint64_t modelBytes, uint32_t k, uint32_t segment);
    /**
     * \param payloadBytes bytes to send \param chunkPayloadBytes payload per packet
     * \return packets: ceil(payloadBytes / chunkPayloadBytes)
     */
    static uint64_t ChunksOf(uint64_t payloadBytes, uint32_t chunkPayloadBytes);
    /** \param islandCount N \return GradientHeader bytes of a DATA packet (two bitmaps) */
    static uint32_t DataHeaderBytes(uint32_t islandCount);
    /**
     * \param room bytes left for payload in a packet
     * \return the largest multiple of 4 not above it
     */
    static uint32_t FitPayload(uint32_t room);
    /**
     * \brief The chunk payload that fills an MTU after IPv4, UDP and the gradient header.
     * \param mtu IP MTU \param islandCount N (sets the header's bitmap words)
     * \return the largest multiple of 4 bytes that fits (0 if none)
     */
    static uint32_t DefaultChunkPayload(uint32_t mtu, uint32_t islandCount);
    /**
     * \param payloadBytes a gradient packet's payload \param islandCount N
     * \param framingBytes the link device's framing per packet (LinkPort::GetFramingBytes)
     * \return its bytes on a link: payload, DATA header, UDP, IPv4 and framing
     */
    static uint32_t DataWireBytes(uint32_t payloadBytes,
                                  uint32_t islandCount,
                                  uint32_t framingBytes);

  private:
    /**
     * \brief Count the chunks of m_chunkElements elements (both constructors).
     * \param modelBytes M, for messages
     */
    void CountChunks(uint64_t modelBytes);
    /**
     * \param elements E \param k ring members \param segment segment index
     * \param start receives its first element \return its element count
     */
    static uint64_t SegmentOf(uint64_t elements, uint32_t k, uint32_t segment, uint64_t& start);

    UpdateFormat m_format;         //!< the update's format
    uint64_t m_elements;           //!< E
    uint32_t m_chunkElements;      //!< C
    uint32_t m_chunkCount;         //!< chunks of a whole update
    uint32_t m_maxContributors{1}; //!< N, the most values a sum of this layout holds
};

} // namespace ns3

#endif /* CHUNK_LAYOUT_H */
