/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "proto-writer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProtoWriter");

const std::string&
ProtoWriter::GetBytes() const
{
    NS_LOG_FUNCTION(this);
    return m_bytes;
}

void
ProtoWriter::WriteVarint(uint64_t value)
{
    while (value >= 0x80)
    {
        m_bytes.push_back(static_cast<char>((value & 0x7f) | 0x80));
        value >>= 7;
    }
    m_bytes.push_back(static_cast<char>(value));
}

void
ProtoWriter::WriteLittleEndian(uint64_t value, std::size_t count)
{
    for (std::size_t i = 0; i < count; ++i)
    {
        m_bytes.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
    }
}

void
ProtoWriter::WriteFixed32(uint32_t value)
{
    WriteLittleEndian(value, 4);
}

void
ProtoWriter::WriteFixed64(uint64_t value)
{
    WriteLittleEndian(value, 8);
}

void
ProtoWriter::WriteKey(uint32_t field, ProtoReader::WireType wireType)
{
    WriteVarint(uint64_t{field} << 3 | wireType);
}

void
ProtoWriter::WriteVarintField(uint32_t field, uint64_t value)
{
    WriteKey(field, ProtoReader::VARINT);
    WriteVarint(value);
}

void
ProtoWriter::WriteBytesField(uint32_t field, const std::string& bytes)
{
    NS_LOG_FUNCTION(this << field << bytes.size());
    WriteKey(field, ProtoReader::LENGTH_DELIMITED);
    WriteVarint(bytes.size());
    m_bytes += bytes;
}

void
ProtoWriter::WritePackedVarints(uint32_t field, const std::vector<uint64_t>& values)
{
    NS_LOG_FUNCTION(this << field << values.size());
    if (values.empty())
    {
        return;
    }
    ProtoWriter packed;
    for (uint64_t value : values)
    {
        packed.WriteVarint(value);
    }
    WriteBytesField(field, packed.m_bytes);
}

uint64_t
ProtoWriter::EncodeZigZag64(int64_t value)
{
    return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

std::string
ProtoWriter::Delimited(const std::string& message)
{
    NS_LOG_FUNCTION(message.size());
    ProtoWriter out;
    out.WriteVarint(message.size());
    return out.m_bytes + message;
}

} // namespace ns3
