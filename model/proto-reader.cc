/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "proto-reader.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProtoReader");

ProtoReader::ProtoReader(const std::string& bytes)
    : ProtoReader(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), 0)
{
    NS_LOG_FUNCTION(this << bytes.size());
}

ProtoReader::ProtoReader(const uint8_t* data, std::size_t size, std::size_t base)
    : m_data(data),
      m_size(size),
      m_base(base)
{
}

bool
ProtoReader::AtEnd() const
{
    return m_at == m_size;
}

std::size_t
ProtoReader::GetOffset() const
{
    return m_base + m_at;
}

ProtoError
ProtoReader::ErrorHere(const std::string& problem) const
{
    NS_LOG_FUNCTION(this << problem);
    return ProtoError("at byte " + std::to_string(GetOffset()) + ": " + problem);
}

void
ProtoReader::Require(std::size_t count, const char* what) const
{
    if (m_size - m_at < count)
    {
        throw ErrorHere(std::string(what) + " cut off: " + std::to_string(count) +
                        " bytes needed, " + std::to_string(m_size - m_at) + " left");
    }
}

uint64_t
ProtoReader::ReadVarint()
{
    // Per byte, the low 7 bits are payload, the high bit says another byte follows. The tenth
    // byte holds bit 63 only.
    const std::size_t start = m_at;
    uint64_t value = 0;
    for (std::size_t i = 0; i < MAX_VARINT_BYTES; ++i)
    {
        if (m_at == m_size)
        {
            m_at = start;
            throw ErrorHere("varint cut off by the end of the data");
        }
        const uint8_t byte = m_data[m_at++];
        if (i == MAX_VARINT_BYTES - 1 && (byte & 0x7f) > 1)
        {
            m_at = start;
            throw ErrorHere("varint overflows 64 bits");
        }
        value |= uint64_t{byte & 0x7fu} << (7 * i);
        if ((byte & 0x80) == 0)
        {
            return value;
        }
    }
    m_at = start;
    throw ErrorHere("varint longer than 10 bytes");
}

uint64_t
ProtoReader::ReadLittleEndian(std::size_t count, const char* what)
{
    Require(count, what);
    uint64_t value = 0;
    for (std::size_t i = 0; i < count; ++i)
    {
        value |= uint64_t{m_data[m_at + i]} << (8 * i);
    }
    m_at += count;
    return value;
}

uint32_t
ProtoReader::ReadFixed32()
{
    return static_cast<uint32_t>(ReadLittleEndian(4, "fixed32"));
}

uint64_t
ProtoReader::ReadFixed64()
{
    return ReadLittleEndian(8, "fixed64");
}

ProtoReader::Key
ProtoReader::ReadKey()
{
    const std::size_t start = m_at;
    const uint64_t key = ReadVarint();
    const uint64_t field = key >> 3;
    const auto wireType = static_cast<uint8_t>(key & 7);
    if (field == 0 || field > MAX_FIELD_NUMBER)
    {
        m_at = start;
        throw ErrorHere("field number " + std::to_string(field) + " is not in 1.." +
                        std::to_string(MAX_FIELD_NUMBER));
    }
    if (wireType > FIXED32)
    {
        m_at = start;
        throw ErrorHere("field " + std::to_string(field) + ": wire type " +
                        std::to_string(wireType) + " is not a protobuf wire type");
    }
    return Key{static_cast<uint32_t>(field), static_cast<WireType>(wireType)};
}

ProtoReader
ProtoReader::ReadLengthDelimited()
{
    NS_LOG_FUNCTION(this);
    const std::size_t start = m_at;
    const uint64_t length = ReadVarint();
    if (length > m_size - m_at)
    {
        const std::size_t left = m_size - m_at;
        m_at = start;
        throw ErrorHere("length " + std::to_string(length) + " goes past the end (" +
                        std::to_string(left) + " bytes left)");
    }
    ProtoReader payload(m_data + m_at, static_cast<std::size_t>(length), GetOffset());
    m_at += static_cast<std::size_t>(length);
    return payload;
}

std::string
ProtoReader::ReadString()
{
    NS_LOG_FUNCTION(this);
    const ProtoReader payload = ReadLengthDelimited();
    return std::string(reinterpret_cast<const char*>(payload.m_data), payload.m_size);
}

void
ProtoReader::Skip(WireType wireType)
{
    NS_LOG_FUNCTION(this << int(wireType));
    switch (wireType)
    {
    case VARINT:
        ReadVarint();
        return;
    case FIXED64:
        ReadFixed64();
        return;
    case LENGTH_DELIMITED:
        ReadLengthDelimited();
        return;
    case FIXED32:
        ReadFixed32();
        return;
    default:
        throw ErrorHere("wire type " + WireTypeName(wireType) + ": groups are not supported");
    }
}

void
ProtoReader::ReadRepeatedVarints(WireType wireType, std::vector<uint64_t>& out)
{
    NS_LOG_FUNCTION(this << int(wireType));
    if (wireType == VARINT)
    {
        out.push_back(ReadVarint());
        return;
    }
    if (wireType != LENGTH_DELIMITED)
    {
        throw ErrorHere("wire type " + WireTypeName(wireType) + ", expected " +
                        WireTypeName(VARINT) + " or " + WireTypeName(LENGTH_DELIMITED));
    }
    ProtoReader packed = ReadLengthDelimited();
    while (!packed.AtEnd())
    {
        out.push_back(packed.ReadVarint());
    }
}

std::string
ProtoReader::WireTypeName(WireType wireType)
{
    static const char* const names[] =
        {"varint", "fixed64", "length-delimited", "start group", "end group", "fixed32"};
    const std::string number = std::to_string(static_cast<int>(wireType));
    return wireType <= FIXED32 ? number + " (" + names[wireType] + ")" : number;
}

int64_t
ProtoReader::DecodeZigZag64(uint64_t value)
{
    // 0, 1, 2, 3, ... stand for 0, -1, 1, -2, ...: the low bit is the sign.
    return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

int32_t
ProtoReader::DecodeZigZag32(uint64_t value)
{
    const auto low = static_cast<uint32_t>(value);
    return static_cast<int32_t>(low >> 1) ^ -static_cast<int32_t>(low & 1);
}

} // namespace ns3
