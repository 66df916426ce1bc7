/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-topology.h"

#include "gradient-header.h"
#include "wan-input-error.h"
#include "wan-json-input.h"
#include "wan-units.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTopology");

static_assert(WanTopology::MAX_ISLANDS == IslandBitmap::MAX_ISLANDS,
              "a topology holds no more islands than a gradient header's bitmap");

namespace
{

/** Mean Earth radius used by the haversine formula, km. */
constexpr double EARTH_RADIUS_KM = 6371.0;
/** Degrees to radians. */
constexpr double DEG_TO_RAD = 3.14159265358979323846 / 180.0;
/** Latitude bound, degrees. */
constexpr double MAX_LATITUDE = 90.0;
/** Longitude bound, degrees. */
constexpr double MAX_LONGITUDE = 180.0;

/**
 * The Unicode space separators other than ASCII's, as UTF-8: no-break space, ogham space mark,
 * en quad .. hair space, line and paragraph separators, narrow no-break space, medium
 * mathematical space, ideographic space. They look like blanks, so codes hold none of them.
 */
const char* const UNICODE_BLANKS[] = {
    "\xc2\xa0",
    "\xe1\x9a\x80",
    "\xe2\x80\x80",
    "\xe2\x80\x81",
    "\xe2\x80\x82",
    "\xe2\x80\x83",
    "\xe2\x80\x84",
    "\xe2\x80\x85",
    "\xe2\x80\x86",
    "\xe2\x80\x87",
    "\xe2\x80\x88",
    "\xe2\x80\x89",
    "\xe2\x80\x8a",
    "\xe2\x80\xa8",
    "\xe2\x80\xa9",
    "\xe2\x80\xaf",
    "\xe2\x81\x9f",
    "\xe3\x80\x80",
};

/** \param code a city code \return true if it holds a blank, ASCII or Unicode */
bool
HasBlank(const std::string& code)
{
    for (char c : code)
    {
        if (std::isspace(static_cast<unsigned char>(c)))
        {
            return true;
        }
    }
    for (const char* blank : UNICODE_BLANKS)
    {
        if (code.find(blank) != std::string::npos)
        {
            return true;
        }
    }
    return false;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Building and checking

void
WanTopology::Fail(const std::string& field,
                  const std::string& value,
                  const std::string& problem) const
{
    NS_LOG_FUNCTION(this << field << value << problem);
    throw WanTopologyError(m_source + ": " + field + ": " + value + ": " + problem);
}

void
WanTopology::CheckName(const std::string& field, const std::string& name) const
{
    NS_LOG_FUNCTION(this << field << name);
    const std::string problem = WanJsonInput::NameProblem(name);
    if (!problem.empty())
    {
        Fail(field, WanJsonInput::Show(WanJsonInput::Json(name)), problem);
    }
}

void
WanTopology::CheckDelay(const std::string& field, double seconds) const
{
    NS_LOG_FUNCTION(this << field << seconds);
    const std::string problem = DelayProblem(seconds);
    if (!problem.empty())
    {
        Fail(field, WanUnits::FormatNumber(seconds), problem);
    }
}

std::string
WanTopology::CityLabel(uint32_t index) const
{
    NS_LOG_FUNCTION(this << index);
    return index < m_cities.size() ? m_cities[index].code : std::to_string(index);
}

uint32_t
WanTopology::AddCity(const WanCity& city)
{
    NS_LOG_FUNCTION(this);
    const std::string field = "cities[" + std::to_string(m_cities.size()) + "]";
    if (city.code.empty())
    {
        Fail(field + ".code", WanInputError::Quote(city.code), "must not be empty");
    }
    // ',' ':' and blanks separate entries in --cityCapabilities, so codes cannot hold them.
    if (city.code.find_first_of(",:") != std::string::npos || HasBlank(city.code))
    {
        Fail(field + ".code",
             WanInputError::Quote(city.code),
             "must not contain ',', ':' or blanks (Unicode spaces included)");
    }
    CheckName(field + ".code", city.code);
    CheckName(field + ".name", city.name);
    for (const auto& other : m_cities)
    {
        if (other.code == city.code)
        {
            Fail(field + ".code", WanInputError::Quote(city.code), "duplicate city code");
        }
    }
    if (!std::isfinite(city.latitude) || std::fabs(city.latitude) > MAX_LATITUDE)
    {
        Fail(field + ".latitude", WanUnits::FormatNumber(city.latitude), "must be in [-90, 90]");
    }
    if (!std::isfinite(city.longitude) || std::fabs(city.longitude) > MAX_LONGITUDE)
    {
        Fail(field + ".longitude",
             WanUnits::FormatNumber(city.longitude),
             "must be in [-180, 180]");
    }
    m_cities.push_back(city);
    NS_LOG_DEBUG("city " << city.code << " index " << m_cities.size() - 1);
    return m_cities.size() - 1;
}

uint32_t
WanTopology::AddIsland(const WanIsland& island)
{
    NS_LOG_FUNCTION(this);
    const std::string field = "islands[" + std::to_string(m_islands.size()) + "]";
    if (island.name.empty())
    {
        Fail(field + ".name", WanInputError::Quote(island.name), "must not be empty");
    }
    CheckName(field + ".name", island.name);
    if (m_islands.size() >= MAX_ISLANDS)
    {
        Fail(field,
             WanInputError::Quote(island.name),
             "more than " + std::to_string(MAX_ISLANDS) +
                 " islands (the most a gradient header's contributor bitmap holds)");
    }
    for (const auto& other : m_islands)
    {
        if (other.name == island.name)
        {
            Fail(field + ".name", WanInputError::Quote(island.name), "duplicate island name");
        }
    }
    if (island.city >= m_cities.size())
    {
        Fail(field + ".city", std::to_string(island.city), "unknown city index");
    }
    if (island.accessBps == 0)
    {
        Fail(field + ".accessBandwidth", "0", "must be positive");
    }
    CheckDelay(field + ".accessDelay", island.accessDelay);
    m_islands.push_back(island);
    m_islandQueues.push_back(m_defaultQueue);
    return m_islands.size() - 1;
}

uint32_t
WanTopology::AddLink(const WanLink& link)
{
    NS_LOG_FUNCTION(this);
    const std::string field = "links[" + std::to_string(m_links.size()) + "]";
    if (link.a >= m_cities.size())
    {
        Fail(field + ".a", std::to_string(link.a), "unknown city index");
    }
    if (link.b >= m_cities.size())
    {
        Fail(field + ".b", std::to_string(link.b), "unknown city index");
    }
    if (link.a == link.b)
    {
        Fail(field + ".b",
             WanInputError::Quote(CityLabel(link.b)),
             "self-link (a and b are the same city)");
    }
    const std::string label = CityLabel(link.a) + "-" + CityLabel(link.b);
    for (std::size_t i = 0; i < m_links.size(); ++i)
    {
        const WanLink& other = m_links[i];
        if ((other.a == link.a && other.b == link.b) || (other.a == link.b && other.b == link.a))
        {
            Fail(field,
                 WanInputError::Quote(label),
                 "duplicate of links[" + std::to_string(i) + "] (" + CityLabel(other.a) + "-" +
                     CityLabel(other.b) + ")");
        }
    }
    if (link.bps == 0)
    {
        Fail(field + ".bandwidth", "0", "must be positive");
    }
    CheckDelay(field + ".delay", link.delay);
    m_links.push_back(link);
    m_linkQueues.push_back(m_defaultQueue);
    return m_links.size() - 1;
}

void
WanTopology::Validate() const
{
    NS_LOG_FUNCTION(this);
    if (m_islands.empty())
    {
        Fail("islands", "[]", "at least one island is required");
    }
    // Union-find over cities: every island's city must share the first island's component.
    std::vector<uint32_t> parent(m_cities.size());
    for (uint32_t i = 0; i < parent.size(); ++i)
    {
        parent[i] = i;
    }
    auto find = [&parent](uint32_t x) {
        while (parent[x] != x)
        {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    };
    for (const auto& link : m_links)
    {
        parent[find(link.a)] = find(link.b);
    }
    const WanIsland& first = m_islands.front();
    for (const auto& island : m_islands)
    {
        if (find(island.city) != find(first.city))
        {
            Fail("islands",
                 WanInputError::Quote(first.name),
                 "cannot reach island " + WanInputError::Quote(island.name) +
                     " (no path between cities " + CityLabel(first.city) + " and " +
                     CityLabel(island.city) + ")");
        }
    }
}

WanTopology
WanTopology::WithRates(uint64_t wanBps, uint64_t accessBps) const
{
    NS_LOG_FUNCTION(this << wanBps << accessBps);
    WanTopology copy;
    copy.SetName(GetName());
    copy.SetDescription(GetDescription());
    copy.SetSource(GetSource());
    copy.SetDefaultQueue(GetDefaultQueue());
    for (const WanCity& city : GetCities())
    {
        copy.AddCity(city);
    }
    for (uint32_t i = 0; i < GetIslands().size(); ++i)
    {
        WanIsland island = GetIslands()[i];
        island.accessBps = accessBps > 0 ? accessBps : island.accessBps;
        copy.SetIslandQueue(copy.AddIsland(island), GetIslandQueue(i));
    }
    for (uint32_t l = 0; l < GetLinks().size(); ++l)
    {
        WanLink link = GetLinks()[l];
        link.bps = wanBps > 0 ? wanBps : link.bps;
        copy.SetLinkQueue(copy.AddLink(link), GetLinkQueue(l));
    }
    return copy;
}

void
WanTopology::SetCapabilities(const WanCapabilities& caps)
{
    NS_LOG_FUNCTION(this);
    for (auto& city : m_cities)
    {
        city.caps = caps;
    }
}

void
WanTopology::SetQueue(const WanQueueSpec& queue)
{
    NS_LOG_FUNCTION(this);
    m_defaultQueue = queue;
    m_linkQueues.assign(m_links.size(), queue);
    m_islandQueues.assign(m_islands.size(), queue);
}

void
WanTopology::SetDefaultQueue(const WanQueueSpec& queue)
{
    NS_LOG_FUNCTION(this);
    m_defaultQueue = queue;
}

const WanQueueSpec&
WanTopology::GetDefaultQueue() const
{
    NS_LOG_FUNCTION(this);
    return m_defaultQueue;
}

bool
WanTopology::HasChosenQueues() const
{
    NS_LOG_FUNCTION(this);
    const WanQueueSpec builtIn;
    auto chosen = [&builtIn](const WanQueueSpec& queue) { return queue != builtIn; };
    return chosen(m_defaultQueue) ||
           std::any_of(m_linkQueues.begin(), m_linkQueues.end(), chosen) ||
           std::any_of(m_islandQueues.begin(), m_islandQueues.end(), chosen);
}

void
WanTopology::SetLinkQueue(uint32_t link, const WanQueueSpec& queue)
{
    NS_LOG_FUNCTION(this << link);
    if (link >= m_linkQueues.size())
    {
        Fail("links", std::to_string(link), "no such link for a queue");
    }
    m_linkQueues[link] = queue;
}

void
WanTopology::SetIslandQueue(uint32_t island, const WanQueueSpec& queue)
{
    NS_LOG_FUNCTION(this << island);
    if (island >= m_islandQueues.size())
    {
        Fail("islands", std::to_string(island), "no such island for a queue");
    }
    m_islandQueues[island] = queue;
}

const WanQueueSpec&
WanTopology::GetLinkQueue(uint32_t link) const
{
    return m_linkQueues.at(link);
}

const WanQueueSpec&
WanTopology::GetIslandQueue(uint32_t island) const
{
    return m_islandQueues.at(island);
}

void
WanTopology::ApplyCityCapabilities(const std::string& overrides)
{
    NS_LOG_FUNCTION(this << overrides);
    ApplyCityCapabilities(overrides, "city capabilities");
}

void
WanTopology::ApplyCityCapabilities(const std::string& overrides, const std::string& what)
{
    NS_LOG_FUNCTION(this << overrides << what);
    // Parse everything before changing anything, so a bad entry leaves the topology intact.
    std::vector<std::pair<uint32_t, WanCapabilities>> changes;
    std::istringstream in(overrides);
    std::string entry;
    while (std::getline(in, entry, ','))
    {
        const auto first = entry.find_first_not_of(' ');
        const auto last = entry.find_last_not_of(' ');
        entry = first == std::string::npos ? "" : entry.substr(first, last - first + 1);
        if (entry.empty())
        {
            if (overrides.find_first_not_of(' ') == std::string::npos)
            {
                continue; // a wholly empty override list changes nothing
            }
            throw WanTopologyError(what + ": " + WanInputError::Quote(overrides) +
                                   ": empty entry (expected CODE:set,CODE:set,...)");
        }
        const auto colon = entry.find(':');
        if (colon == std::string::npos)
        {
            throw WanTopologyError(what + ": " + WanInputError::Quote(entry) +
                                   ": expected CODE:none|multicast|fpga|both|transit|SET+transit");
        }
        const std::string code = entry.substr(0, colon);
        const std::string set = entry.substr(colon + 1);
        uint32_t index = 0;
        bool known = false;
        for (uint32_t i = 0; i < m_cities.size(); ++i)
        {
            if (m_cities[i].code == code)
            {
                index = i;
                known = true;
            }
        }
        if (!known)
        {
            throw WanTopologyError(what + ": " + WanInputError::Quote(code) +
                                   ": unknown city code in " + m_source);
        }
        if (std::any_of(changes.begin(), changes.end(), [index](const auto& c) {
                return c.first == index;
            }))
        {
            // Which one was meant? The last would win silently.
            throw WanTopologyError(what + ": " + WanInputError::Quote(code) + ": named twice");
        }
        changes.emplace_back(index, WanCapabilities::Parse(set, what + ": " + code));
    }
    for (const auto& change : changes)
    {
        m_cities[change.first].caps = change.second;
    }
}

// ---------------------------------------------------------------------------------------------
// Getters

const std::string&
WanTopology::GetName() const
{
    return m_name;
}

void
WanTopology::SetName(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    m_name = name;
}

const std::string&
WanTopology::GetDescription() const
{
    NS_LOG_FUNCTION(this);
    return m_description;
}

void
WanTopology::SetDescription(const std::string& description)
{
    NS_LOG_FUNCTION(this << description);
    m_description = description;
}

const std::string&
WanTopology::GetSource() const
{
    NS_LOG_FUNCTION(this);
    return m_source;
}

void
WanTopology::SetSource(const std::string& source)
{
    NS_LOG_FUNCTION(this << source);
    m_source = source;
}

const std::vector<WanCity>&
WanTopology::GetCities() const
{
    return m_cities;
}

const std::vector<WanIsland>&
WanTopology::GetIslands() const
{
    return m_islands;
}

const std::vector<WanLink>&
WanTopology::GetLinks() const
{
    return m_links;
}

uint32_t
WanTopology::GetCityIndex(const std::string& code) const
{
    NS_LOG_FUNCTION(this << code);
    for (uint32_t i = 0; i < m_cities.size(); ++i)
    {
        if (m_cities[i].code == code)
        {
            return i;
        }
    }
    Fail("city", WanInputError::Quote(code), "unknown city code");
}

double
WanTopology::GreatCircleKm(double lat1, double lon1, double lat2, double lon2)
{
    NS_LOG_FUNCTION(lat1 << lon1 << lat2 << lon2);
    const double phi1 = lat1 * DEG_TO_RAD;
    const double phi2 = lat2 * DEG_TO_RAD;
    const double dPhi = (lat2 - lat1) * DEG_TO_RAD;
    const double dLambda = (lon2 - lon1) * DEG_TO_RAD;
    const double h = std::sin(dPhi / 2) * std::sin(dPhi / 2) + std::cos(phi1) * std::cos(phi2) *
                                                                   std::sin(dLambda / 2) *
                                                                   std::sin(dLambda / 2);
    // min() guards asin against rounding just above 1 for antipodal points.
    return 2 * EARTH_RADIUS_KM * std::asin(std::min(1.0, std::sqrt(h)));
}

double
WanTopology::DefaultLinkDelay(uint32_t a, uint32_t b, double routeFactor) const
{
    NS_LOG_FUNCTION(this << a << b << routeFactor);
    NS_ASSERT_MSG(a < m_cities.size() && b < m_cities.size(), "city index out of range");
    const WanCity& ca = m_cities[a];
    const WanCity& cb = m_cities[b];
    return GreatCircleKm(ca.latitude, ca.longitude, cb.latitude, cb.longitude) / FIBRE_KM_PER_S *
           routeFactor;
}

std::string
WanTopology::DelayProblem(double seconds)
{
    NS_LOG_FUNCTION(seconds);
    return WanUnits::DurationProblem(seconds,
                                     MAX_DELAY,
                                     "must be at most 1000 s (WanTopology::MAX_DELAY)");
}

uint64_t
WanTopology::ParseRate(const std::string& text, const std::string& what)
{
    NS_LOG_FUNCTION(text << what);
    return WanUnits::ParseRate(text, what);
}

double
WanTopology::ParseDelay(const std::string& text, const std::string& what)
{
    NS_LOG_FUNCTION(text << what);
    return WanUnits::ParseDelay(text, what);
}

std::string
WanTopology::FormatRate(uint64_t bps)
{
    NS_LOG_FUNCTION(bps);
    return WanUnits::FormatRate(bps);
}

} // namespace ns3
