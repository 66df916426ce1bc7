/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-queue-spec.h"

#include "wan-input-error.h"
#include "wan-units.h"

#include "ns3/log.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <initializer_list>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanQueueSpec");

namespace
{

/** \param text a spec's text \return its unit: the letters it ends with */
std::string
UnitOf(const std::string& text)
{
    NS_LOG_FUNCTION(text);
    std::size_t start = text.size();
    while (start > 0 && std::isalpha(static_cast<unsigned char>(text[start - 1])))
    {
        --start;
    }
    return text.substr(start);
}

/** \param unit a unit \param units the units of one kind \return true if among them */
bool
IsOneOf(const std::string& unit, std::initializer_list<const char*> units)
{
    NS_LOG_FUNCTION(unit);
    for (const char* u : units)
    {
        if (unit == u)
        {
            return true;
        }
    }
    return false;
}

/** The spec text of one bandwidth-delay product. */
const char BDP_TEXT[] = "bdp";

} // namespace

const char WanQueueSpec::DEFAULT[] = "50ms";

WanQueueSpec::WanQueueSpec()
    : WanQueueSpec(Parse(DEFAULT, "WanQueueSpec::DEFAULT"))
{
    NS_LOG_FUNCTION(this);
}

WanQueueSpec::WanQueueSpec(Kind kind, double value, std::string text)
    : m_kind(kind),
      m_value(value),
      m_text(std::move(text))
{
    NS_LOG_FUNCTION(this << kind << value << m_text);
}

WanQueueSpec
WanQueueSpec::Parse(const std::string& text, const std::string& what)
{
    NS_LOG_FUNCTION(text << what);
    if (text == BDP_TEXT)
    {
        return WanQueueSpec(BDP, 1, text);
    }
    // The unit says the kind; the number is then read by that kind's parser.
    const std::string unit = UnitOf(text);
    if (IsOneOf(unit, {"p", "packets"}))
    {
        return WanQueueSpec(PACKETS, WanUnits::ParsePackets(text, what), text);
    }
    if (IsOneOf(unit, {"B", "KB", "MB", "GB", "KiB", "MiB", "GiB"}))
    {
        return WanQueueSpec(BYTES, WanUnits::ParseBytes(text, what), text);
    }
    if (IsOneOf(unit, {"s", "ms", "us", "ns"}))
    {
        const double seconds = WanUnits::ParseDelay(text, what);
        if (!(seconds > 0))
        {
            throw WanInputError(what + ": " + WanInputError::Quote(text) +
                                ": a queue of no time holds nothing");
        }
        return WanQueueSpec(TIME, seconds, text);
    }
    throw WanInputError(what + ": " + WanInputError::Quote(text) +
                        ": expected packets (100p), bytes (125MB), a time at the link's rate "
                        "(50ms) or bdp (one bandwidth-delay product)");
}

WanQueueSpec
WanQueueSpec::Packets(uint32_t packets)
{
    NS_LOG_FUNCTION(packets);
    return Parse(std::to_string(packets) + "p", "WanQueueSpec::Packets");
}

WanQueueSpec
WanQueueSpec::Bytes(uint32_t bytes)
{
    NS_LOG_FUNCTION(bytes);
    return Parse(std::to_string(bytes) + "B", "WanQueueSpec::Bytes");
}

WanQueueSpec::Kind
WanQueueSpec::GetKind() const
{
    NS_LOG_FUNCTION(this);
    return m_kind;
}

double
WanQueueSpec::GetValue() const
{
    NS_LOG_FUNCTION(this);
    return m_value;
}

const std::string&
WanQueueSpec::ToString() const
{
    return m_text;
}

std::string
WanQueueSpec::Describe() const
{
    NS_LOG_FUNCTION(this);
    switch (m_kind)
    {
    case TIME:
        return m_text + " at the link's rate";
    case BDP:
        return "one bandwidth-delay product (the link's rate times the longest round trip "
               "routed over it)";
    default:
        return m_text;
    }
}

uint64_t
WanQueueSpec::Resolve(double bps, double roundTrip, uint32_t mtu) const
{
    NS_LOG_FUNCTION(this << bps << roundTrip << mtu);
    double bytes = m_value;
    switch (m_kind)
    {
    case PACKETS:
        return static_cast<uint64_t>(m_value);
    case BYTES:
        break;
    case TIME:
        bytes = std::ceil(bps * m_value / 8);
        break;
    case BDP:
        bytes = std::ceil(bps * roundTrip / 8);
        break;
    }
    return static_cast<uint64_t>(std::min(std::max(bytes, double(mtu)), WanUnits::MAX_COUNT));
}

bool
WanQueueSpec::operator==(const WanQueueSpec& other) const
{
    return m_kind == other.m_kind && m_value == other.m_value;
}

bool
WanQueueSpec::operator!=(const WanQueueSpec& other) const
{
    return !(*this == other);
}

} // namespace ns3
