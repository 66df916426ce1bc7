/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "update-format.h"

#include "gradient-payload.h"
#include "wan-input-error.h"
#include "wan-units.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <istream>
#include <limits>
#include <ostream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UpdateFormat");

namespace
{

/** The prefix of a top-k format's text. */
constexpr const char* TOPK_PREFIX = "topk:";

/** One format's name and the encoding of its chunks on the wire. */
struct FormatRow
{
    const char* name;                //!< as FromString reads it
    UpdateFormat::Encoding encoding; //!< the format
    GradientHeader::Encoding onWire; //!< its chunks' encoding
};

/** Every format. */
constexpr FormatRow FORMATS[] = {
    {"int32", UpdateFormat::INT32, GradientHeader::ENCODING_INT32},
    {"bf16", UpdateFormat::BF16, GradientHeader::ENCODING_BF16},
    {"int8", UpdateFormat::INT8, GradientHeader::ENCODING_INT8},
    {"int4", UpdateFormat::INT4, GradientHeader::ENCODING_INT4},
    {"topk", UpdateFormat::TOPK, GradientHeader::ENCODING_TOPK},
};

/** \param encoding an encoding \return its row */
const FormatRow&
RowOf(UpdateFormat::Encoding encoding)
{
    for (const FormatRow& row : FORMATS)
    {
        if (row.encoding == encoding)
        {
            return row;
        }
    }
    throw std::logic_error("UpdateFormat: unknown encoding");
}

} // namespace

UpdateFormat::UpdateFormat()
    : UpdateFormat(INT32, TOPK_PARTS)
{
}

UpdateFormat::UpdateFormat(Encoding encoding, uint32_t parts)
    : m_encoding(encoding),
      m_parts(parts)
{
    NS_LOG_FUNCTION(this << int(encoding) << parts);
}

UpdateFormat
UpdateFormat::FromString(const std::string& text)
{
    NS_LOG_FUNCTION(text);
    const std::string topk = TOPK_PREFIX;
    if (text.compare(0, topk.size(), topk) == 0)
    {
        double fraction = 0;
        const bool number = WanUnits::ParseNumber(text.substr(topk.size()), fraction);
        const double parts = fraction * TOPK_PARTS;
        if (!number || !(fraction > 0) || fraction > 1 ||
            std::abs(parts - std::round(parts)) > 1e-6 * parts)
        {
            throw std::invalid_argument(
                WanInputError::Quote(text) +
                ": topk needs a fraction in (0, 1] in steps of 1e-6, e.g. topk:0.01");
        }
        return UpdateFormat(TOPK, static_cast<uint32_t>(std::round(parts)));
    }
    for (const FormatRow& row : FORMATS)
    {
        if (row.encoding != TOPK && text == row.name)
        {
            return UpdateFormat(row.encoding, TOPK_PARTS);
        }
    }
    throw std::invalid_argument(WanInputError::Quote(text) + ": expected " + EXPECTED);
}

std::string
UpdateFormat::ToString() const
{
    NS_LOG_FUNCTION(this);
    if (m_encoding == TOPK)
    {
        return TOPK_PREFIX + WanUnits::FormatNumber(GetTopkFraction());
    }
    return RowOf(m_encoding).name;
}

UpdateFormat::Encoding
UpdateFormat::GetEncoding() const
{
    NS_LOG_FUNCTION(this);
    return m_encoding;
}

double
UpdateFormat::GetTopkFraction() const
{
    NS_LOG_FUNCTION(this);
    return double(m_parts) / TOPK_PARTS;
}

bool
UpdateFormat::operator==(const UpdateFormat& other) const
{
    return m_encoding == other.m_encoding && m_parts == other.m_parts;
}

bool
UpdateFormat::operator!=(const UpdateFormat& other) const
{
    return !(*this == other);
}

GradientHeader::Encoding
UpdateFormat::GetDataEncoding() const
{
    NS_LOG_FUNCTION(this);
    return RowOf(m_encoding).onWire;
}

uint32_t
UpdateFormat::GetElementBits() const
{
    NS_LOG_FUNCTION(this);
    return GradientHeader::EncodingBits(GetDataEncoding());
}

uint32_t
UpdateFormat::GetWireElements(uint32_t elements) const
{
    NS_LOG_FUNCTION(this << elements);
    return m_encoding == TOPK ? static_cast<uint32_t>(KeptEntries(elements)) : elements;
}

uint64_t
UpdateFormat::GetPayloadBytes(uint32_t elements) const
{
    NS_LOG_FUNCTION(this << elements);
    return GradientHeader::PayloadBytes(GetDataEncoding(), GetWireElements(elements));
}

bool
UpdateFormat::IsSummable() const
{
    NS_LOG_FUNCTION(this);
    return GradientPayload::IsFixedPoint(GetDataEncoding());
}

bool
UpdateFormat::IsSparse() const
{
    return m_encoding == TOPK;
}

uint32_t
UpdateFormat::GetSumBits(uint32_t contributors) const
{
    NS_LOG_FUNCTION(this << contributors);
    if (!IsSummable())
    {
        return 0;
    }
    return GradientHeader::EncodingBits(SumEncoding(GetDataEncoding(), contributors));
}

GradientHeader::Encoding
UpdateFormat::SumEncoding(GradientHeader::Encoding data, uint32_t contributors)
{
    NS_LOG_FUNCTION(int(data) << contributors);
    if (data != GradientHeader::ENCODING_INT8 && data != GradientHeader::ENCODING_INT4)
    {
        return data;
    }
    const int64_t largest = int64_t{contributors} * MaxValue(data);
    for (GradientHeader::Encoding wider :
         {data, GradientHeader::ENCODING_INT8, GradientHeader::ENCODING_INT16})
    {
        if (largest <= MaxValue(wider))
        {
            return wider;
        }
    }
    return GradientHeader::ENCODING_INT32;
}

uint64_t
UpdateFormat::GetSumPayloadBytes(uint32_t elements, uint32_t contributors) const
{
    NS_LOG_FUNCTION(this << elements << contributors);
    if (!IsSummable())
    {
        return GetPayloadBytes(elements);
    }
    return GradientHeader::PayloadBytes(SumEncoding(GetDataEncoding(), contributors), elements);
}

uint32_t
UpdateFormat::GetChunkElements(uint32_t payloadBytes, uint32_t maxContributors) const
{
    NS_LOG_FUNCTION(this << payloadBytes << maxContributors);
    // Bits an element costs in the wider of a chunk and an aggregate (topk: the kept share of
    // an entry); the largest C whose payloads fit, found from that and then checked.
    double bitsPerElement = GetElementBits();
    if (m_encoding == TOPK)
    {
        bitsPerElement *= GetTopkFraction();
    }
    else if (IsSummable())
    {
        bitsPerElement = std::max<double>(bitsPerElement, GetSumBits(maxContributors));
    }
    const double estimate = std::floor(8.0 * payloadBytes / bitsPerElement);
    uint64_t elements =
        static_cast<uint64_t>(std::min<double>(estimate, std::numeric_limits<uint32_t>::max()));
    auto fits = [&](uint64_t c) {
        return GetPayloadBytes(c) <= payloadBytes &&
               (!IsSummable() || GetSumPayloadBytes(c, maxContributors) <= payloadBytes);
    };
    while (elements > 0 && !fits(elements))
    {
        --elements;
    }
    return static_cast<uint32_t>(elements);
}

uint64_t
UpdateFormat::KeptEntries(uint32_t elements) const
{
    NS_LOG_FUNCTION(this << elements);
    return (uint64_t{elements} * m_parts + TOPK_PARTS - 1) / TOPK_PARTS;
}

uint32_t
UpdateFormat::SumSources(GradientHeader::Encoding encoding, uint32_t contributors)
{
    NS_LOG_FUNCTION(int(encoding) << contributors);
    uint32_t sources = 0;
    for (GradientHeader::Encoding data : {GradientHeader::ENCODING_INT4,
                                          GradientHeader::ENCODING_INT8,
                                          GradientHeader::ENCODING_INT32})
    {
        if (SumEncoding(data, contributors) == encoding)
        {
            sources |= 1U << data;
        }
    }
    return sources;
}

GradientHeader::Encoding
UpdateFormat::NarrowestSource(uint32_t sources)
{
    NS_LOG_FUNCTION(sources);
    for (GradientHeader::Encoding data : {GradientHeader::ENCODING_INT4,
                                          GradientHeader::ENCODING_INT8,
                                          GradientHeader::ENCODING_INT32})
    {
        if ((sources & (1U << data)) != 0)
        {
            return data;
        }
    }
    NS_ABORT_MSG("UpdateFormat::NarrowestSource: no data encoding in " << sources);
    return GradientHeader::ENCODING_INT32;
}

uint16_t
UpdateFormat::ToBf16(double x)
{
    NS_LOG_FUNCTION(x);
    const auto f = static_cast<float>(x);
    uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof(bits));
    if (std::isnan(f))
    {
        return static_cast<uint16_t>((bits >> 16) | 0x0040); // a quiet NaN stays NaN
    }
    // Round the 16 bits dropped to nearest, ties to the even result.
    bits += 0x7fff + ((bits >> 16) & 1);
    return static_cast<uint16_t>(bits >> 16);
}

double
UpdateFormat::FromBf16(uint16_t bits)
{
    NS_LOG_FUNCTION(bits);
    const uint32_t wide = uint32_t{bits} << 16;
    float f = 0;
    std::memcpy(&f, &wide, sizeof(f));
    return f;
}

int32_t
UpdateFormat::ToFloatBits(double x)
{
    const auto f = static_cast<float>(x);
    int32_t bits = 0;
    std::memcpy(&bits, &f, sizeof(bits));
    return bits;
}

double
UpdateFormat::FromFloatBits(int32_t bits)
{
    float f = 0;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
}

int32_t
UpdateFormat::MaxValue(GradientHeader::Encoding encoding)
{
    NS_LOG_FUNCTION(int(encoding));
    switch (encoding)
    {
    case GradientHeader::ENCODING_INT4:
        return 7;
    case GradientHeader::ENCODING_INT8:
        return 127;
    case GradientHeader::ENCODING_INT16:
        return 32767;
    case GradientHeader::ENCODING_INT32:
        return std::numeric_limits<int32_t>::max();
    default:
        return 0;
    }
}

std::ostream&
operator<<(std::ostream& os, const UpdateFormat& format)
{
    return os << format.ToString();
}

std::istream&
operator>>(std::istream& is, UpdateFormat& format)
{
    std::string name;
    is >> name;
    try
    {
        format = UpdateFormat::FromString(name);
    }
    catch (const std::invalid_argument& e)
    {
        NS_LOG_ERROR("UpdateFormat: " << e.what());
        is.setstate(std::ios::failbit);
    }
    return is;
}

ATTRIBUTE_HELPER_CPP(UpdateFormat);

} // namespace ns3
