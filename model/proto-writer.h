/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PROTO_WRITER_H
#define PROTO_WRITER_H

#include "proto-reader.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Writes the protobuf wire format into a byte string: keys, varints, fixed values and
 *        length-delimited fields, as ProtoReader reads them.
 *
 * It writes what it is asked, field by field, with no schema: tests use it to build malformed
 * messages too (a key with the wrong wire type, a length past the end). The per-value writes
 * do not log: they run for every field.
 */
class ProtoWriter
{
  public:
    /** \return the bytes written so far */
    const std::string& GetBytes() const;

    /** \param value appended as a varint (1 to 10 bytes) */
    void WriteVarint(uint64_t value);
    /** \param value appended as 4 bytes, little-endian */
    void WriteFixed32(uint32_t value);
    /** \param value appended as 8 bytes, little-endian */
    void WriteFixed64(uint64_t value);
    /** \param field field number \param wireType wire type: appends the key */
    void WriteKey(uint32_t field, ProtoReader::WireType wireType);
    /** \param field field number \param value appended with its key, as a varint */
    void WriteVarintField(uint32_t field, uint64_t value);
    /** \param field field number \param bytes appended with its key and length */
    void WriteBytesField(uint32_t field, const std::string& bytes);
    /** \param field field number \param values appended as one packed field (none: nothing) */
    void WritePackedVarints(uint32_t field, const std::vector<uint64_t>& values);
    /** \param value a signed 64-bit value \return its zigzag encoding (for sint64 fields) */
    static uint64_t EncodeZigZag64(int64_t value);
    /** \param message a message's bytes \return them behind their length as a varint */
    static std::string Delimited(const std::string& message);

  private:
    /** \param value appended as \p count bytes, little-endian \param count 4 or 8 */
    void WriteLittleEndian(uint64_t value, std::size_t count);

    std::string m_bytes; //!< what has been written
};

} // namespace ns3

#endif /* PROTO_WRITER_H */
