/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-units.h"

#include "wan-input-error.h"

#include "ns3/log.h"

#include <cctype>
#include <cmath>
#include <locale>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanUnits");

namespace
{

/** One unit of a rate or delay and its multiplier. */
struct Unit
{
    const char* name; //!< unit suffix
    double scale;     //!< multiplier to bits/s or seconds
};

/** Rate units, exact multipliers to bits per second. */
const Unit RATE_UNITS[] =
    {{"bps", 1.0}, {"Kbps", 1e3}, {"kbps", 1e3}, {"Mbps", 1e6}, {"Gbps", 1e9}, {"Tbps", 1e12}};
/** The rate units as shown in error messages. */
const char RATE_UNIT_LIST[] = "bps|Kbps|Mbps|Gbps|Tbps";

/** Size units, multipliers to bytes: decimal (KB = 1000 B) and binary (KiB = 1024 B). */
const Unit BYTE_UNITS[] = {{"B", 1.0},
                           {"KB", 1e3},
                           {"MB", 1e6},
                           {"GB", 1e9},
                           {"KiB", 1024.0},
                           {"MiB", 1048576.0},
                           {"GiB", 1073741824.0}};
/** The size units as shown in error messages. */
const char BYTE_UNIT_LIST[] = "B|KB|MB|GB|KiB|MiB|GiB";

/** Packet-count units. */
const Unit PACKET_UNITS[] = {{"p", 1.0}, {"packets", 1.0}};
/** The packet-count units as shown in error messages. */
const char PACKET_UNIT_LIST[] = "p|packets";

/** Delay units, multipliers to seconds. */
const Unit DELAY_UNITS[] = {{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
/** The delay units as shown in error messages. */
const char DELAY_UNIT_LIST[] = "s|ms|us|ns";

/**
 * \brief Split "12.5Gbps" into its number and its unit, strictly.
 *
 * Written by hand rather than with strtod, which would also accept "inf", "nan", hex
 * numbers and leading blanks: a topology file should mean exactly what it looks like.
 * \param text the text
 * \param value the number, on success
 * \param unit the rest after the number and optional blanks, on success
 * \return false if \p text does not start with a decimal number
 */
bool
SplitNumberAndUnit(const std::string& text, double& value, std::string& unit)
{
    NS_LOG_FUNCTION(text);
    std::size_t i = 0;
    const std::size_t n = text.size();
    if (i < n && (text[i] == '+' || text[i] == '-'))
    {
        ++i;
    }
    std::size_t digits = 0;
    while (i < n && std::isdigit(static_cast<unsigned char>(text[i])))
    {
        ++i;
        ++digits;
    }
    if (i < n && text[i] == '.')
    {
        ++i;
        while (i < n && std::isdigit(static_cast<unsigned char>(text[i])))
        {
            ++i;
            ++digits;
        }
    }
    if (digits == 0)
    {
        return false;
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E'))
    {
        std::size_t j = i + 1;
        if (j < n && (text[j] == '+' || text[j] == '-'))
        {
            ++j;
        }
        std::size_t expDigits = 0;
        while (j < n && std::isdigit(static_cast<unsigned char>(text[j])))
        {
            ++j;
            ++expDigits;
        }
        if (expDigits > 0) // otherwise the 'e' belongs to the unit and is rejected there
        {
            i = j;
        }
    }
    // The classic locale keeps '.' the decimal point whatever the user's locale is.
    std::istringstream in(text.substr(0, i));
    in.imbue(std::locale::classic());
    in >> value;
    if (in.fail() || !std::isfinite(value))
    {
        return false;
    }
    while (i < n && text[i] == ' ')
    {
        ++i;
    }
    unit = text.substr(i);
    return true;
}

/**
 * \brief Parse "<number><unit>" strictly against a table of units.
 * \param text the text \param what where it came from, for the error message
 * \param units the units \param list the units as shown in messages
 * \param kind "rate" or "delay", for the message \param value the number, on success
 * \return the unit's multiplier
 * \throws WanInputError naming \p what and \p text if there is no number or unit
 */
template <std::size_t N>
double
ParseWithUnit(const std::string& text,
              const std::string& what,
              const Unit (&units)[N],
              const char* list,
              const char* kind,
              double& value)
{
    NS_LOG_FUNCTION(text << what << list << kind);
    std::string unit;
    if (!SplitNumberAndUnit(text, value, unit))
    {
        throw WanInputError(what + ": " + WanInputError::Quote(text) +
                            ": expected a number and a unit " + list);
    }
    for (const auto& u : units)
    {
        if (unit == u.name)
        {
            return u.scale;
        }
    }
    throw WanInputError(what + ": " + WanInputError::Quote(text) + ": unknown " + kind + " unit " +
                        WanInputError::Quote(unit) + " (expected " + list + ")");
}

/**
 * \brief The rule of byte and packet counts: a positive whole number within uint32_t (the
 *        range of ns-3's QueueSize).
 * \param text the text \param what where it came from \param count the count it gave
 * \return the count \throws WanInputError naming \p what and \p text otherwise
 */
uint64_t
WholeCount(const std::string& text, const std::string& what, double count)
{
    NS_LOG_FUNCTION(text << what << count);
    if (!(count >= 1))
    {
        throw WanInputError(what + ": " + WanInputError::Quote(text) + ": must be at least 1");
    }
    if (count != std::floor(count))
    {
        throw WanInputError(what + ": " + WanInputError::Quote(text) + ": must be a whole number");
    }
    if (count > WanUnits::MAX_COUNT)
    {
        throw WanInputError(what + ": " + WanInputError::Quote(text) +
                            ": too large (at most 4294967295)");
    }
    return static_cast<uint64_t>(count);
}

} // namespace

uint64_t
WanUnits::ParseRate(const std::string& text, const std::string& what)
{
    NS_LOG_FUNCTION(text << what);
    double value = 0;
    const double scale = ParseWithUnit(text, what, RATE_UNITS, RATE_UNIT_LIST, "rate", value);
    const double bps = std::round(value * scale);
    const std::string problem = RateProblem(bps);
    if (!problem.empty())
    {
        throw WanInputError(what + ": " + WanInputError::Quote(text) + ": " + problem);
    }
    return static_cast<uint64_t>(bps);
}

double
WanUnits::ParseDelay(const std::string& text, const std::string& what)
{
    NS_LOG_FUNCTION(text << what);
    double value = 0;
    const double scale = ParseWithUnit(text, what, DELAY_UNITS, DELAY_UNIT_LIST, "delay", value);
    if (value < 0)
    {
        throw WanInputError(what + ": " + WanInputError::Quote(text) + ": must not be negative");
    }
    const double seconds = value * scale;
    if (seconds > MAX_TIME_SECONDS)
    {
        throw WanInputError(what + ": " + WanInputError::Quote(text) + ": " + TOO_LARGE_FOR_TIME);
    }
    return seconds;
}

uint64_t
WanUnits::ParseBytes(const std::string& text, const std::string& what)
{
    NS_LOG_FUNCTION(text << what);
    double value = 0;
    const double scale = ParseWithUnit(text, what, BYTE_UNITS, BYTE_UNIT_LIST, "size", value);
    return WholeCount(text, what, value * scale);
}

uint64_t
WanUnits::ParsePackets(const std::string& text, const std::string& what)
{
    NS_LOG_FUNCTION(text << what);
    double value = 0;
    const double scale =
        ParseWithUnit(text, what, PACKET_UNITS, PACKET_UNIT_LIST, "packet count", value);
    return WholeCount(text, what, value * scale);
}

const char WanUnits::TOO_LARGE_FOR_TIME[] =
    "too large for ns-3's Time (at most 9.2e9 s, 292 years)";

std::string
WanUnits::DurationProblem(double seconds, double max, const std::string& tooLarge)
{
    NS_LOG_FUNCTION(seconds << max << tooLarge);
    if (!std::isfinite(seconds))
    {
        return "must be finite";
    }
    if (seconds < 0)
    {
        return "must not be negative";
    }
    if (seconds > max)
    {
        return tooLarge;
    }
    return "";
}

std::string
WanUnits::FormatRate(uint64_t bps)
{
    NS_LOG_FUNCTION(bps);
    // From the largest unit down; "kbps" is only an accepted spelling, not written.
    const Unit units[] = {{"Tbps", 1e12}, {"Gbps", 1e9}, {"Mbps", 1e6}, {"Kbps", 1e3}};
    for (const auto& u : units)
    {
        const auto scale = static_cast<uint64_t>(u.scale);
        if (bps != 0 && bps % scale == 0)
        {
            return std::to_string(bps / scale) + u.name;
        }
    }
    return std::to_string(bps) + "bps";
}

std::string
WanUnits::RateProblem(double bps)
{
    NS_LOG_FUNCTION(bps);
    if (!(bps >= 1))
    {
        return "must be positive";
    }
    // 2^63: far above any link, and safely representable in uint64_t.
    if (bps >= MAX_RATE_BPS)
    {
        return "too large (must be below 9.2e18 bit/s)";
    }
    return "";
}

bool
WanUnits::ParseNumber(const std::string& text, double& value)
{
    NS_LOG_FUNCTION(text);
    std::string unit;
    return SplitNumberAndUnit(text, value, unit) && unit.empty() && text.back() != ' ';
}

std::string
WanUnits::FormatNumber(double value)
{
    NS_LOG_FUNCTION(value);
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << value;
    return out.str();
}

} // namespace ns3
