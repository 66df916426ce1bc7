/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-topology-generator-params.h"

#include "wan-input-error.h"
#include "wan-topology.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <locale>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTopologyGeneratorParams");

namespace
{

/** Source named in error messages. */
const char SOURCE[] = "WanTopologyGenerator";
/** Largest k of the nearest-neighbour families. */
constexpr uint32_t MAX_K = 32;
/** Largest number of hubs (they are fully meshed). */
constexpr uint32_t MAX_HUBS = 64;
/** Largest number of links between the two continents. */
constexpr uint32_t MAX_CROSS_LINKS = 64;

/** \param value a number \return it as text, independent of the user's locale */
template <typename T>
std::string
Text(T value)
{
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << value;
    return out.str();
}

/**
 * \brief Throw "WanTopologyGenerator: field: value: problem".
 * \param field the parameter \param value its value as text \param problem what is wrong
 */
[[noreturn]] void
Fail(const std::string& field, const std::string& value, const std::string& problem)
{
    NS_LOG_FUNCTION(field << value << problem);
    throw WanTopologyError(std::string(SOURCE) + ": " + field + ": " + value + ": " + problem);
}

/**
 * \brief Check that a count lies in a range.
 * \param field the parameter \param value its value \param low, high the allowed range
 */
void
CheckRange(const std::string& field, uint64_t value, uint64_t low, uint64_t high)
{
    NS_LOG_FUNCTION(field << value << low << high);
    if (value < low || value > high)
    {
        Fail(field, Text(value), "must be in " + Text(low) + ".." + Text(high));
    }
}

/** \param field the parameter \param value a fraction that must lie in [0, 1] */
void
CheckFraction(const std::string& field, double value)
{
    NS_LOG_FUNCTION(field << value);
    if (!(value >= 0 && value <= 1))
    {
        Fail(field, Text(value), "must be in [0, 1]");
    }
}

/** \param field the maximum's name \param low the minimum \param high 0 or the maximum */
void
CheckMaximum(const std::string& field, uint64_t low, uint64_t high)
{
    NS_LOG_FUNCTION(field << low << high);
    if (high != 0 && high < low)
    {
        Fail(field, Text(high), "must be 0 (no spread) or at least the minimum " + Text(low));
    }
}

} // namespace

void
WanTopologyGeneratorParams::Check(const std::vector<std::string>& families) const
{
    NS_LOG_FUNCTION(this);
    const WanTopologyGeneratorParams& p = *this;
    if (std::find(families.begin(), families.end(), p.family) == families.end())
    {
        std::string list;
        for (const auto& f : families)
        {
            list += (list.empty() ? "" : "|") + f;
        }
        Fail("family", WanInputError::Quote(p.family), "unknown family (expected " + list + ")");
    }
    CheckRange("cities", p.cities, 2, MAX_CITIES);
    CheckRange("islandsPerCity", p.islandsPerCity, 1, MAX_ISLANDS_PER_CITY);
    const uint64_t fewestIslands = static_cast<uint64_t>(p.cities) * p.islandsPerCity;
    if (fewestIslands > WanTopology::MAX_ISLANDS)
    {
        Fail("islandsPerCity",
             Text(p.islandsPerCity),
             "cities x islandsPerCity = " + Text(fewestIslands) + " islands, more than " +
                 Text(WanTopology::MAX_ISLANDS) + " (WanTopology::MAX_ISLANDS)");
    }
    if (p.maxIslandsPerCity != 0)
    {
        CheckRange("maxIslandsPerCity",
                   p.maxIslandsPerCity,
                   p.islandsPerCity,
                   MAX_ISLANDS_PER_CITY);
    }
    CheckRange("wanBps", p.wanBps, 1, std::numeric_limits<int64_t>::max());
    CheckMaximum("wanBpsMax", p.wanBps, p.wanBpsMax);
    CheckRange("accessBps", p.accessBps, 1, std::numeric_limits<int64_t>::max());
    CheckMaximum("accessBpsMax", p.accessBps, p.accessBpsMax);
    const std::string delayProblem = WanTopology::DelayProblem(p.accessDelay);
    if (!delayProblem.empty())
    {
        Fail("accessDelay", Text(p.accessDelay), delayProblem);
    }
    if (!(std::isfinite(p.routeFactor) && p.routeFactor >= 1))
    {
        Fail("routeFactor",
             Text(p.routeFactor),
             "must be at least 1 (a fibre route is never shorter than the great circle)");
    }
    if (p.routeFactor > WanTopology::MAX_ROUTE_FACTOR)
    {
        Fail("routeFactor",
             Text(p.routeFactor),
             "must be at most 100 (WanTopology::MAX_ROUTE_FACTOR)");
    }
    CheckFraction("multicastFraction", p.multicastFraction);
    CheckFraction("fpgaFraction", p.fpgaFraction);
    CheckFraction("transitFraction", p.transitFraction);
    CheckRange("k", p.k, 1, MAX_K);
    CheckRange("crossLinks", p.crossLinks, 1, MAX_CROSS_LINKS);
    // Bounds that depend on the number of cities matter to their own family only.
    if (p.family == "hub")
    {
        CheckRange("hubs", p.hubs, 1, std::min(p.cities - 1, MAX_HUBS));
    }
    if (p.family == "backbone" && p.backboneCities != 0)
    {
        CheckRange("backboneCities", p.backboneCities, 1, p.cities);
    }
}

std::string
WanTopologyGeneratorParams::Describe() const
{
    const WanTopologyGeneratorParams& p = *this;
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << "family=" << p.family << " cities=" << p.cities << " seed=" << p.seed
        << " islandsPerCity=" << p.islandsPerCity << " maxIslandsPerCity=" << p.maxIslandsPerCity
        << " wanBps=" << p.wanBps << " wanBpsMax=" << p.wanBpsMax << " accessBps=" << p.accessBps
        << " accessBpsMax=" << p.accessBpsMax << " accessDelay=" << p.accessDelay
        << " routeFactor=" << p.routeFactor << " multicastFraction=" << p.multicastFraction
        << " fpgaFraction=" << p.fpgaFraction << " transitFraction=" << p.transitFraction
        << " k=" << p.k << " hubs=" << p.hubs << " crossLinks=" << p.crossLinks
        << " backboneCities=" << p.backboneCities;
    return out.str();
}

} // namespace ns3
