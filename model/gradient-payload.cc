/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gradient-payload.h"

#include "wan-wire.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/packet.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GradientPayload");

bool
GradientPayload::Parse(Ptr<const Packet> packet,
                       GradientHeader& header,
                       std::vector<int32_t>* values)
{
    NS_LOG_FUNCTION(packet);
    uint32_t headerSize = 0;
    if (!GradientHeader::Parse(packet, header, &headerSize))
    {
        return false;
    }
    if (values != nullptr)
    {
        values->clear();
        if (header.HasFlag(GradientHeader::FLAG_REAL_PAYLOAD) && header.GetElementCount() > 0)
        {
            std::vector<uint8_t> all(packet->GetSize());
            packet->CopyData(all.data(), all.size());
            ReadValues(header, all.data() + headerSize, *values);
        }
    }
    return true;
}

void
GradientPayload::ReadValues(const GradientHeader& header,
                            const uint8_t* payload,
                            std::vector<int32_t>& values)
{
    NS_LOG_FUNCTION(header.GetElementCount());
    const uint32_t words = header.GetElementCount() * ValueWords(header.GetEncoding());
    values.resize(words);
    for (uint32_t i = 0; i < words; ++i)
    {
        values[i] = ReadElement(header.GetEncoding(), payload, i);
    }
}

int32_t
GradientPayload::ReadElement(Encoding encoding, const uint8_t* payload, uint32_t i)
{
    // Two's-complement reinterpretation of the wire bits, sign-extended.
    switch (encoding)
    {
    case GradientHeader::ENCODING_BF16:
        return WanWire::ReadU16(payload + 2 * i);
    case GradientHeader::ENCODING_INT16:
        return static_cast<int16_t>(WanWire::ReadU16(payload + 2 * i));
    case GradientHeader::ENCODING_INT8:
        return static_cast<int8_t>(payload[i]);
    case GradientHeader::ENCODING_INT4: {
        const uint8_t nibble = (i % 2 == 0 ? payload[i / 2] >> 4 : payload[i / 2]) & 0x0f;
        return nibble >= 8 ? int32_t(nibble) - 16 : int32_t(nibble);
    }
    default:
        NS_ASSERT_MSG(encoding == GradientHeader::ENCODING_INT32 ||
                          encoding == GradientHeader::ENCODING_TOPK,
                      "no such encoding: " << int(encoding));
        return static_cast<int32_t>(WanWire::ReadU32(payload + GradientHeader::ELEMENT_SIZE * i));
    }
}

void
GradientPayload::WriteElement(Encoding encoding, uint8_t* payload, uint32_t i, int32_t value)
{
    const auto bits = static_cast<uint32_t>(value);
    switch (encoding)
    {
    case GradientHeader::ENCODING_BF16:
    case GradientHeader::ENCODING_INT16:
        payload[2 * i] = static_cast<uint8_t>(bits >> 8);
        payload[2 * i + 1] = static_cast<uint8_t>(bits);
        return;
    case GradientHeader::ENCODING_INT8:
        payload[i] = static_cast<uint8_t>(bits);
        return;
    case GradientHeader::ENCODING_INT4: {
        const uint8_t nibble = bits & 0x0f;
        uint8_t& byte = payload[i / 2];
        byte = i % 2 == 0 ? static_cast<uint8_t>((byte & 0x0f) | (nibble << 4))
                          : static_cast<uint8_t>((byte & 0xf0) | nibble);
        return;
    }
    default:
        NS_ASSERT_MSG(encoding == GradientHeader::ENCODING_INT32 ||
                          encoding == GradientHeader::ENCODING_TOPK,
                      "no such encoding: " << int(encoding));
        for (uint32_t b = 0; b < GradientHeader::ELEMENT_SIZE; ++b)
        {
            payload[GradientHeader::ELEMENT_SIZE * i + b] =
                static_cast<uint8_t>(bits >> (8 * (3 - b)));
        }
    }
}

bool
GradientPayload::IsFixedPoint(Encoding encoding)
{
    return encoding != GradientHeader::ENCODING_BF16 && encoding != GradientHeader::ENCODING_TOPK;
}

uint32_t
GradientPayload::ValueWords(Encoding encoding)
{
    return encoding == GradientHeader::ENCODING_TOPK ? 2 : 1;
}

Ptr<Packet>
GradientPayload::CreateVirtual(const GradientHeader& header)
{
    NS_LOG_FUNCTION_NOARGS();
    GradientHeader written = header;
    written.SetFlags(written.GetFlags() & ~GradientHeader::FLAG_REAL_PAYLOAD);
    Ptr<Packet> packet = Create<Packet>(written.GetPayloadSize());
    packet->AddHeader(written);
    return packet;
}

Ptr<Packet>
GradientPayload::CreateReal(const GradientHeader& header, const std::vector<int32_t>& values)
{
    NS_LOG_FUNCTION_NOARGS();
    const uint32_t words = ValueWords(header.GetEncoding());
    NS_ABORT_MSG_IF(values.size() % words != 0,
                    "a top-k payload is whole entries: " << values.size() << " words");
    GradientHeader written = header;
    written.SetFlags(written.GetFlags() | GradientHeader::FLAG_REAL_PAYLOAD);
    written.SetElementCount(static_cast<uint32_t>(values.size() / words));
    std::vector<uint8_t> bytes(written.GetPayloadSize(), 0);
    for (size_t i = 0; i < values.size(); ++i)
    {
        WriteElement(written.GetEncoding(), bytes.data(), static_cast<uint32_t>(i), values[i]);
    }
    Ptr<Packet> packet = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
    packet->AddHeader(written);
    return packet;
}

Ptr<Packet>
GradientPayload::CreateStart(const GradientHeader& header, Time at)
{
    NS_LOG_FUNCTION(at);
    GradientHeader written = header;
    written.SetType(GradientHeader::START);
    written.SetFlags(written.GetFlags() & ~GradientHeader::FLAG_REAL_PAYLOAD);
    written.SetElementCount(GradientHeader::START_ELEMENTS);
    const auto ns = static_cast<uint64_t>(std::max<int64_t>(0, at.GetNanoSeconds()));
    uint8_t bytes[GradientHeader::START_ELEMENTS * GradientHeader::ELEMENT_SIZE];
    for (uint32_t i = 0; i < sizeof(bytes); ++i)
    {
        bytes[i] = static_cast<uint8_t>(ns >> (8 * (sizeof(bytes) - 1 - i)));
    }
    Ptr<Packet> packet = Create<Packet>(bytes, sizeof(bytes));
    packet->AddHeader(written);
    return packet;
}

Time
GradientPayload::ReadStartTime(Ptr<const Packet> packet)
{
    NS_LOG_FUNCTION(packet);
    // The time is the packet's last 8 bytes (Parse() checked the payload's size).
    constexpr uint32_t timeBytes = GradientHeader::START_ELEMENTS * GradientHeader::ELEMENT_SIZE;
    const uint32_t size = packet->GetSize();
    NS_ASSERT(size >= timeBytes);
    uint8_t bytes[timeBytes];
    packet->CreateFragment(size - timeBytes, timeBytes)->CopyData(bytes, timeBytes);
    return NanoSeconds(static_cast<int64_t>(WanWire::ReadU64(bytes)));
}

} // namespace ns3
