/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PROTO_READER_H
#define PROTO_READER_H

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief A malformed protobuf encoding: the problem and the byte offset where it is, e.g.
 *        "at byte 37: varint longer than 10 bytes". Readers of a format built on ProtoReader
 *        catch it and add what they know (file, message, field).
 */
class ProtoError : public std::runtime_error
{
  public:
    /** \param message the problem, with its byte offset */
    explicit ProtoError(const std::string& message)
        : std::runtime_error(message)
    {
    }
};

/**
 * \ingroup wan-training
 * \brief Reads the protobuf wire format from a byte range that it never reads past: varints,
 *        fixed 32- and 64-bit values, length-delimited fields and the keys in front of them.
 *
 * A reader covers one message (or a whole file of length-delimited messages);
 * ReadLengthDelimited() returns a reader over a field's payload and moves past it, so nested
 * messages are read without copies. Offsets in error messages count from the start of the
 * outermost buffer. Every read costs time proportional to the bytes it consumes, so a decoder
 * that reads each field once is linear in its input. Groups (wire types 3 and 4, deprecated
 * since proto2) are refused. The per-value reads (varints, fixed values, keys) do not log:
 * they run for every field of every node.
 */
class ProtoReader
{
  public:
    /** Wire types of the protobuf encoding. */
    enum WireType : uint8_t
    {
        VARINT = 0,           //!< int32, int64, uint32, uint64, sint32, sint64, bool, enum
        FIXED64 = 1,          //!< fixed64, sfixed64, double
        LENGTH_DELIMITED = 2, //!< string, bytes, messages, packed repeated scalars
        START_GROUP = 3,      //!< deprecated groups: refused
        END_GROUP = 4,        //!< deprecated groups: refused
        FIXED32 = 5,          //!< fixed32, sfixed32, float
    };

    /** A field's key: its number and wire type. */
    struct Key
    {
        uint32_t field;    //!< field number, 1 to 2^29 - 1
        WireType wireType; //!< wire type, 0 to 5
    };

    /** The most bytes of a varint (64 bits, 7 per byte). */
    static constexpr std::size_t MAX_VARINT_BYTES = 10;
    /** The largest field number the format allows. */
    static constexpr uint32_t MAX_FIELD_NUMBER = (1u << 29) - 1;

    /** \param bytes the buffer to read; it must outlive the reader and its sub-readers */
    explicit ProtoReader(const std::string& bytes);
    /** A reader keeps a pointer to its bytes: never of a temporary string. */
    explicit ProtoReader(std::string&&) = delete;

    /** \return true when every byte has been read */
    bool AtEnd() const;
    /** \return the offset of the next byte, counted from the start of the outermost buffer */
    std::size_t GetOffset() const;

    /**
     * \return the next varint
     * \throws ProtoError if it is longer than 10 bytes, overflows 64 bits or is cut off
     */
    uint64_t ReadVarint();
    /** \return the next 4 bytes, little-endian \throws ProtoError if fewer are left */
    uint32_t ReadFixed32();
    /** \return the next 8 bytes, little-endian \throws ProtoError if fewer are left */
    uint64_t ReadFixed64();
    /**
     * \return the next key
     * \throws ProtoError for field number 0 or above MAX_FIELD_NUMBER and wire types 6 and 7
     */
    Key ReadKey();
    /**
     * \brief Read a length and return a reader over that many bytes, moving past them.
     * \return the payload's reader
     * \throws ProtoError if the length goes past the end
     */
    ProtoReader ReadLengthDelimited();
    /** \return a length-delimited payload's bytes \throws ProtoError as ReadLengthDelimited */
    std::string ReadString();
    /**
     * \brief Skip a field's value (a field this reader's user does not know).
     * \param wireType the wire type of its key
     * \throws ProtoError for groups and if the value is cut off
     */
    void Skip(WireType wireType);
    /**
     * \brief Read a repeated varint field's value: one varint (unpacked) or a packed run.
     * \param wireType VARINT or LENGTH_DELIMITED (packed)
     * \param out receives the values, appended
     * \throws ProtoError for another wire type or a malformed value
     */
    void ReadRepeatedVarints(WireType wireType, std::vector<uint64_t>& out);

    /** \param wireType a wire type \return e.g. "0 (varint)" */
    static std::string WireTypeName(WireType wireType);
    /** \param value a zigzag-encoded sint64 \return the signed value */
    static int64_t DecodeZigZag64(uint64_t value);
    /** \param value a zigzag-encoded sint32 (only the low 32 bits count) \return its value */
    static int32_t DecodeZigZag32(uint64_t value);

  private:
    /**
     * \param data first byte \param size bytes \param base offset of \p data in the outermost
     * buffer
     */
    ProtoReader(const uint8_t* data, std::size_t size, std::size_t base);
    /**
     * \param count bytes wanted \param what what they are, for the message
     * \throws ProtoError if fewer than \p count bytes are left
     */
    void Require(std::size_t count, const char* what) const;
    /**
     * \param count bytes (4 or 8) \param what their type, for the message
     * \return them as a little-endian number \throws ProtoError if fewer are left
     */
    uint64_t ReadLittleEndian(std::size_t count, const char* what);
    /** \param problem what is wrong \return a ProtoError at the current offset */
    ProtoError ErrorHere(const std::string& problem) const;

    const uint8_t* m_data; //!< the bytes of this range
    std::size_t m_size;    //!< their number
    std::size_t m_at{0};   //!< bytes read so far
    std::size_t m_base;    //!< offset of m_data[0] in the outermost buffer
};

} // namespace ns3

#endif /* PROTO_READER_H */
