/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef UPDATE_FORMAT_H
#define UPDATE_FORMAT_H

#include "gradient-header.h"

#include "ns3/attribute-helper.h"

#include <cstdint>
#include <iosfwd>
#include <string>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief How an island's update is encoded on the wire: the one owner of what a format costs
 *        in bytes and whether an in-line FPGA can add it up.
 *
 * An update has E elements (the model's parameters; ``ModelBytes`` counts them at 4 bytes
 * each, the fp32 size). A chunk covers C consecutive elements; its payload depends on the
 * format:
 *
 * | format | payload of a chunk of C elements | an FPGA sums it |
 * |---|---|---|
 * | int32 | 4C bytes (today's fixed point) | yes, in 32 bits (wrap-around) |
 * | bf16 | 2C bytes | no: passes it through |
 * | int8 | C bytes | yes, in wider accumulators (GetSumBits) |
 * | int4 | ceil(C / 2) bytes, two elements per byte | yes, in wider accumulators |
 * | topk:F | ceil(F C) entries of 8 bytes (32-bit index in the chunk, fp32 value) | no |
 *
 * F is kept in millionths, so ceil(F C) is integer arithmetic and exact.
 *
 * A sum of k int8 (or int4) values needs more bits than one value: an FPGA's aggregate carries
 * GetSumBits(k) bits per element (8, 16 or 32), so on the way down it is wider than the DATA
 * chunks it replaces. GetChunkElements sizes chunks so that both fit a packet.
 */
class UpdateFormat
{
  public:
    /** Element encodings. */
    enum Encoding : uint8_t
    {
        INT32 = 0, //!< int32 fixed point (the default)
        BF16 = 1,  //!< bfloat16
        INT8 = 2,  //!< int8 with a shared scale
        INT4 = 3,  //!< int4 with a shared scale, two per byte
        TOPK = 4,  //!< the largest fraction of a chunk's entries, with their indices
    };

    /** Bytes of one top-k entry: a 32-bit index within the chunk and an fp32 value. */
    static constexpr uint32_t TOPK_ENTRY_BYTES = 8;
    /** Top-k fractions are whole multiples of 1 / TOPK_PARTS. */
    static constexpr uint32_t TOPK_PARTS = 1000000;
    /** The formats FromString accepts, as its error messages state them. */
    static constexpr const char* EXPECTED = "int32|bf16|int8|int4|topk:FRACTION";

    /** The default: int32. */
    UpdateFormat();
    /**
     * \param text "int32", "bf16", "int8", "int4" or "topk:F" with F in (0, 1], a whole
     *        number of millionths
     * \return the format
     * \throws std::invalid_argument naming the text and what was expected
     */
    static UpdateFormat FromString(const std::string& text);
    /** \return the text FromString reads back (topk with its fraction as given) */
    std::string ToString() const;

    /** \return the encoding */
    Encoding GetEncoding() const;
    /** \return topk's fraction F (1 for the dense formats) */
    double GetTopkFraction() const;
    /** \param other a format \return true if both encode alike */
    bool operator==(const UpdateFormat& other) const;
    /** \param other a format \return true if they differ */
    bool operator!=(const UpdateFormat& other) const;

    /** \return the encoding of a sender's chunks (DATA, and resends) */
    GradientHeader::Encoding GetDataEncoding() const;
    /** \return bits of one element of a DATA chunk (topk: of one entry) */
    uint32_t GetElementBits() const;
    /**
     * \param elements C, the elements a chunk covers
     * \return the header's element count for such a chunk: C, or topk's ceil(F C) entries
     */
    uint32_t GetWireElements(uint32_t elements) const;
    /**
     * \param elements C, the elements a chunk covers
     * \return the payload bytes of one sender's chunk (DATA, and a resent one)
     */
    uint64_t GetPayloadBytes(uint32_t elements) const;
    /**
     * \return true if an FPGA adds chunks of this format up (int32, int8, int4: its chunks'
     *         encoding is an integer one, GradientPayload::IsFixedPoint)
     */
    bool IsSummable() const;
    /** \return true for top-k (entries of a sparse vector: SparseChange) */
    bool IsSparse() const;
    /**
     * \param contributors k, senders whose values a sum holds (>= 1)
     * \return bits per element of their sum on the wire (SumEncoding); 0 if not summable
     */
    uint32_t GetSumBits(uint32_t contributors) const;
    /**
     * \brief The encoding an FPGA writes a sum in: the narrowest of the chunks' own, int8,
     *        int16 and int32 that holds k x the largest value (int8 chunks: up to 258
     *        contributors in int16; int4 chunks: up to 18 in int8); int32 stays int32 (sums
     *        wrap around, as they always did). Encodings that are not summed come back as
     *        they are.
     * \param data the chunks' encoding \param contributors k (>= 1)
     * \return the sum's encoding
     */
    static GradientHeader::Encoding SumEncoding(GradientHeader::Encoding data,
                                                uint32_t contributors);
    /**
     * \param elements C \param contributors k
     * \return the payload bytes of an aggregate of k senders' chunks of C elements
     */
    uint64_t GetSumPayloadBytes(uint32_t elements, uint32_t contributors) const;
    /**
     * \param payloadBytes the most payload one packet may carry
     * \param maxContributors the most senders an aggregate may hold (the islands)
     * \return C, the most elements per chunk such that a chunk, and (summable formats) an
     *         aggregate of maxContributors chunks, fit payloadBytes; 0 if not even one does
     */
    uint32_t GetChunkElements(uint32_t payloadBytes, uint32_t maxContributors) const;
    /**
     * \param encoding an integer encoding
     * \return the largest magnitude of a value: int4 7, int8 127, int16 32767 (symmetric, so
     *         k values sum to at most k times it), int32 INT32_MAX; 0 for bf16 and top-k
     */
    static int32_t MaxValue(GradientHeader::Encoding encoding);
    /**
     * \brief Which data encodings a sum could be of: the bit (1 << d) for every integer data
     *        encoding d (int32, int8, int4) whose sum of \p contributors values travels in
     *        \p encoding (SumEncoding). A transit FPGA adds pieces whose sets meet, and writes
     *        the total in SumEncoding of any encoding of the meet: for up to 258 contributors
     *        they all give the same (an int16 sum of 19 or more could be int8's or int4's,
     *        and stays int16 for either).
     * \param encoding a piece's encoding \param contributors its contributors (>= 1)
     * \return the bit set (0: no integer data encoding sums to it)
     */
    static uint32_t SumSources(GradientHeader::Encoding encoding, uint32_t contributors);
    /**
     * \param sources a non-empty SumSources set
     * \return its narrowest data encoding
     */
    static GradientHeader::Encoding NarrowestSource(uint32_t sources);
    /**
     * \param x a real
     * \return the bits of its bf16: x rounded to a float, then to the nearest bf16 (ties to
     *         even), as real bf16 payloads carry it
     */
    static uint16_t ToBf16(double x);
    /** \param bits a bf16's bits \return its value */
    static double FromBf16(uint16_t bits);
    /**
     * \param x a real \return the bits of x rounded to the nearest float (a real top-k entry's
     *         value word)
     */
    static int32_t ToFloatBits(double x);
    /** \param bits a float's bits \return its value */
    static double FromFloatBits(int32_t bits);
    /** The largest finite bf16, (2 - 2^-7) x 2^127. */
    static constexpr double BF16_MAX = 3.3895313892515355e38;

  private:
    /**
     * \param encoding the encoding \param parts topk's F in millionths (TOPK_PARTS otherwise)
     */
    UpdateFormat(Encoding encoding, uint32_t parts);
    /** \param elements C \return topk's kept entries of a chunk: ceil(F C) */
    uint64_t KeptEntries(uint32_t elements) const;

    Encoding m_encoding; //!< the encoding
    uint32_t m_parts;    //!< topk's F in millionths (TOPK_PARTS otherwise)
};

/**
 * \param os a stream \param format a format
 * \return the stream, with the format's name (UpdateFormat::ToString)
 */
std::ostream& operator<<(std::ostream& os, const UpdateFormat& format);
/**
 * \param is a stream \param format receives the format named by the next word
 * \return the stream, failed if the word is not a format (UpdateFormat::FromString)
 */
std::istream& operator>>(std::istream& is, UpdateFormat& format);

ATTRIBUTE_HELPER_HEADER(UpdateFormat);

} // namespace ns3

#endif /* UPDATE_FORMAT_H */
