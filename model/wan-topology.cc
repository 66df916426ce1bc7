/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-topology.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <locale>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTopology");

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

/** Delay units, multipliers to seconds. */
const Unit DELAY_UNITS[] = {{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
/** The delay units as shown in error messages. */
const char DELAY_UNIT_LIST[] = "s|ms|us|ns";

/** \param text any text \return it in double quotes, as error messages quote values */
std::string
Quote(const std::string& text)
{
    return "\"" + text + "\"";
}

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

/** \param value a rate or delay \return it as short text for messages */
std::string
NumberText(double value)
{
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << value;
    return out.str();
}

} // namespace

WanTopologyError::WanTopologyError(const std::string& message)
    : std::runtime_error(message)
{
}

// ---------------------------------------------------------------------------------------------
// WanCapabilities

WanCapabilities
WanCapabilities::Parse(const std::string& text, const std::string& what)
{
    WanCapabilities caps;
    if (text == "none")
    {
        return caps;
    }
    if (text == "multicast")
    {
        caps.multicast = true;
        return caps;
    }
    if (text == "fpga")
    {
        caps.fpga = true;
        return caps;
    }
    if (text == "both")
    {
        caps.multicast = true;
        caps.fpga = true;
        return caps;
    }
    throw WanTopologyError(what + ": " + Quote(text) + ": expected none|multicast|fpga|both");
}

std::string
WanCapabilities::ToString() const
{
    if (multicast && fpga)
    {
        return "both";
    }
    if (multicast)
    {
        return "multicast";
    }
    if (fpga)
    {
        return "fpga";
    }
    return "none";
}

bool
WanCapabilities::operator==(const WanCapabilities& other) const
{
    return multicast == other.multicast && fpga == other.fpga;
}

// ---------------------------------------------------------------------------------------------
// Rates and delays

uint64_t
WanTopology::ParseRate(const std::string& text, const std::string& what)
{
    double value = 0;
    std::string unit;
    if (!SplitNumberAndUnit(text, value, unit))
    {
        throw WanTopologyError(what + ": " + Quote(text) + ": expected a number and a unit " +
                               RATE_UNIT_LIST);
    }
    const Unit* found = nullptr;
    for (const auto& u : RATE_UNITS)
    {
        if (unit == u.name)
        {
            found = &u;
        }
    }
    if (found == nullptr)
    {
        throw WanTopologyError(what + ": " + Quote(text) + ": unknown rate unit " + Quote(unit) +
                               " (expected " + RATE_UNIT_LIST + ")");
    }
    const double bps = std::round(value * found->scale);
    if (bps < 1)
    {
        throw WanTopologyError(what + ": " + Quote(text) + ": must be positive");
    }
    // 2^63: far above any link, and safely representable in uint64_t.
    if (bps >= 9.2e18)
    {
        throw WanTopologyError(what + ": " + Quote(text) + ": too large");
    }
    return static_cast<uint64_t>(bps);
}

double
WanTopology::ParseDelay(const std::string& text, const std::string& what)
{
    double value = 0;
    std::string unit;
    if (!SplitNumberAndUnit(text, value, unit))
    {
        throw WanTopologyError(what + ": " + Quote(text) + ": expected a number and a unit " +
                               DELAY_UNIT_LIST);
    }
    const Unit* found = nullptr;
    for (const auto& u : DELAY_UNITS)
    {
        if (unit == u.name)
        {
            found = &u;
        }
    }
    if (found == nullptr)
    {
        throw WanTopologyError(what + ": " + Quote(text) + ": unknown delay unit " + Quote(unit) +
                               " (expected " + DELAY_UNIT_LIST + ")");
    }
    if (value < 0)
    {
        throw WanTopologyError(what + ": " + Quote(text) + ": must not be negative");
    }
    return value * found->scale;
}

std::string
WanTopology::FormatRate(uint64_t bps)
{
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

// ---------------------------------------------------------------------------------------------
// Building and checking

void
WanTopology::Fail(const std::string& field,
                  const std::string& value,
                  const std::string& problem) const
{
    throw WanTopologyError(m_source + ": " + field + ": " + value + ": " + problem);
}

std::string
WanTopology::CityLabel(uint32_t index) const
{
    return index < m_cities.size() ? m_cities[index].code : std::to_string(index);
}

uint32_t
WanTopology::AddCity(const WanCity& city)
{
    const std::string field = "cities[" + std::to_string(m_cities.size()) + "]";
    if (city.code.empty())
    {
        Fail(field + ".code", Quote(city.code), "must not be empty");
    }
    // ',' ':' and blanks separate entries in --cityCapabilities, so codes cannot hold them.
    for (char c : city.code)
    {
        if (c == ',' || c == ':' || std::isspace(static_cast<unsigned char>(c)))
        {
            Fail(field + ".code", Quote(city.code), "must not contain ',', ':' or blanks");
        }
    }
    for (const auto& other : m_cities)
    {
        if (other.code == city.code)
        {
            Fail(field + ".code", Quote(city.code), "duplicate city code");
        }
    }
    if (!std::isfinite(city.latitude) || std::fabs(city.latitude) > MAX_LATITUDE)
    {
        Fail(field + ".latitude", NumberText(city.latitude), "must be in [-90, 90]");
    }
    if (!std::isfinite(city.longitude) || std::fabs(city.longitude) > MAX_LONGITUDE)
    {
        Fail(field + ".longitude", NumberText(city.longitude), "must be in [-180, 180]");
    }
    m_cities.push_back(city);
    NS_LOG_DEBUG("city " << city.code << " index " << m_cities.size() - 1);
    return m_cities.size() - 1;
}

uint32_t
WanTopology::AddIsland(const WanIsland& island)
{
    const std::string field = "islands[" + std::to_string(m_islands.size()) + "]";
    if (island.name.empty())
    {
        Fail(field + ".name", Quote(island.name), "must not be empty");
    }
    for (const auto& other : m_islands)
    {
        if (other.name == island.name)
        {
            Fail(field + ".name", Quote(island.name), "duplicate island name");
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
    if (!std::isfinite(island.accessDelay) || island.accessDelay < 0)
    {
        Fail(field + ".accessDelay", NumberText(island.accessDelay), "must not be negative");
    }
    m_islands.push_back(island);
    return m_islands.size() - 1;
}

uint32_t
WanTopology::AddLink(const WanLink& link)
{
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
        Fail(field + ".b", Quote(CityLabel(link.b)), "self-link (a and b are the same city)");
    }
    const std::string label = CityLabel(link.a) + "-" + CityLabel(link.b);
    for (std::size_t i = 0; i < m_links.size(); ++i)
    {
        const WanLink& other = m_links[i];
        if ((other.a == link.a && other.b == link.b) || (other.a == link.b && other.b == link.a))
        {
            Fail(field,
                 Quote(label),
                 "duplicate of links[" + std::to_string(i) + "] (" + CityLabel(other.a) + "-" +
                     CityLabel(other.b) + ")");
        }
    }
    if (link.bps == 0)
    {
        Fail(field + ".bandwidth", "0", "must be positive");
    }
    if (!std::isfinite(link.delay) || link.delay < 0)
    {
        Fail(field + ".delay", NumberText(link.delay), "must not be negative");
    }
    m_links.push_back(link);
    return m_links.size() - 1;
}

void
WanTopology::Validate() const
{
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
                 Quote(first.name),
                 "cannot reach island " + Quote(island.name) + " (no path between cities " +
                     CityLabel(first.city) + " and " + CityLabel(island.city) + ")");
        }
    }
}

void
WanTopology::SetCapabilities(const WanCapabilities& caps)
{
    for (auto& city : m_cities)
    {
        city.caps = caps;
    }
}

void
WanTopology::ApplyCityCapabilities(const std::string& overrides)
{
    ApplyCityCapabilities(overrides, "city capabilities");
}

void
WanTopology::ApplyCityCapabilities(const std::string& overrides, const std::string& what)
{
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
            throw WanTopologyError(what + ": " + Quote(overrides) +
                                   ": empty entry (expected CODE:set,CODE:set,...)");
        }
        const auto colon = entry.find(':');
        if (colon == std::string::npos)
        {
            throw WanTopologyError(what + ": " + Quote(entry) +
                                   ": expected CODE:none|multicast|fpga|both");
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
            throw WanTopologyError(what + ": " + Quote(code) + ": unknown city code in " +
                                   m_source);
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
    m_name = name;
}

const std::string&
WanTopology::GetDescription() const
{
    return m_description;
}

void
WanTopology::SetDescription(const std::string& description)
{
    m_description = description;
}

const std::string&
WanTopology::GetSource() const
{
    return m_source;
}

void
WanTopology::SetSource(const std::string& source)
{
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
    for (uint32_t i = 0; i < m_cities.size(); ++i)
    {
        if (m_cities[i].code == code)
        {
            return i;
        }
    }
    Fail("city", Quote(code), "unknown city code");
}

double
WanTopology::GreatCircleKm(double lat1, double lon1, double lat2, double lon2)
{
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
    NS_ASSERT_MSG(a < m_cities.size() && b < m_cities.size(), "city index out of range");
    const WanCity& ca = m_cities[a];
    const WanCity& cb = m_cities[b];
    return GreatCircleKm(ca.latitude, ca.longitude, cb.latitude, cb.longitude) / FIBRE_KM_PER_S *
           routeFactor;
}

// ---------------------------------------------------------------------------------------------
// JSON

namespace
{

using Json = nlohmann::json;

/** Longest value quoted in an error message; longer values are cut. */
constexpr std::size_t MAX_QUOTED_VALUE = 60;

/** Built-in defaults, overridden by the file's "defaults" object. */
struct JsonDefaults
{
    uint64_t wanBps{100000000000ULL};   //!< WAN link rate: 100 Gbps
    uint64_t accessBps{10000000000ULL}; //!< island access rate: 10 Gbps
    double accessDelay{50e-6};          //!< island access delay: 50 us
    double routeFactor{1.3};            //!< fibre route length over great-circle distance
    WanCapabilities caps{true, true};   //!< every city multicast-capable with an FPGA
};

/** \param value a JSON value \return it as compact JSON text, cut if long */
std::string
Show(const Json& value)
{
    std::string text = value.dump();
    if (text.size() > MAX_QUOTED_VALUE)
    {
        text = text.substr(0, MAX_QUOTED_VALUE) + "...";
    }
    return text;
}

/**
 * \brief The fields of one JSON object, read with type checks and rejected when unknown.
 *
 * Every error names the source, the field path (e.g. "links[3].bandwidth") and the value.
 */
class JsonObject
{
  public:
    /**
     * \param value the JSON value that must be an object
     * \param source the file name for messages
     * \param path the object's own path, e.g. "cities[2]" ("" for the document)
     * \param allowed the field names this object may hold
     */
    JsonObject(const Json& value,
               const std::string& source,
               const std::string& path,
               std::initializer_list<const char*> allowed)
        : m_value(value),
          m_source(source),
          m_path(path)
    {
        if (!value.is_object())
        {
            throw WanTopologyError(source + ": " + (path.empty() ? "document" : path) + ": " +
                                   Show(value) + ": expected an object");
        }
        for (auto it = value.begin(); it != value.end(); ++it)
        {
            bool known = false;
            std::string list;
            for (const char* name : allowed)
            {
                known = known || it.key() == name;
                list += (list.empty() ? "" : ", ") + std::string(name);
            }
            if (!known)
            {
                Fail(it.key(), it.value(), "unknown field (expected one of " + list + ")");
            }
        }
    }

    /** \param key a field name \return the field's path for messages */
    std::string Field(const std::string& key) const
    {
        return m_path.empty() ? key : m_path + "." + key;
    }

    /** \param key a field name \return "source: path.key", the prefix of messages */
    std::string Where(const std::string& key) const
    {
        return m_source + ": " + Field(key);
    }

    /** \param key a field \param value its value \param problem what is wrong */
    [[noreturn]] void Fail(const std::string& key,
                           const Json& value,
                           const std::string& problem) const
    {
        throw WanTopologyError(Where(key) + ": " + Show(value) + ": " + problem);
    }

    /** \param key a field name \return true if present */
    bool Has(const char* key) const
    {
        return m_value.contains(key);
    }

    /** \param key a required field \return its value \throws if missing */
    const Json& Require(const char* key) const
    {
        if (!Has(key))
        {
            throw WanTopologyError(Where(key) + ": missing required field");
        }
        return m_value.at(key);
    }

    /** \param key a field \param required throw if missing \param fallback used if missing
     *  \return the string */
    std::string String(const char* key, bool required, const std::string& fallback = "") const
    {
        if (!required && !Has(key))
        {
            return fallback;
        }
        const Json& value = Require(key);
        if (!value.is_string())
        {
            Fail(key, value, "expected a string");
        }
        return value.get<std::string>();
    }

    /** \param key a required numeric field \return its value */
    double Number(const char* key) const
    {
        const Json& value = Require(key);
        if (!value.is_number())
        {
            Fail(key, value, "expected a number");
        }
        return value.get<double>();
    }

    /** \param key an optional numeric field \param fallback used if missing \return value */
    double Number(const char* key, double fallback) const
    {
        return Has(key) ? Number(key) : fallback;
    }

    /** \param key an optional boolean field \param fallback used if missing \return value */
    bool Bool(const char* key, bool fallback) const
    {
        if (!Has(key))
        {
            return fallback;
        }
        const Json& value = m_value.at(key);
        if (!value.is_boolean())
        {
            Fail(key, value, "expected true or false");
        }
        return value.get<bool>();
    }

    /** \param key an optional rate field \param fallback used if missing \return bits/s */
    uint64_t Rate(const char* key, uint64_t fallback) const
    {
        if (!Has(key))
        {
            return fallback;
        }
        const Json& value = m_value.at(key);
        if (value.is_string())
        {
            return WanTopology::ParseRate(value.get<std::string>(), Where(key));
        }
        if (!value.is_number())
        {
            Fail(key, value, "expected a rate such as \"100Gbps\" or a number of bits/s");
        }
        // A bare number is bits per second.
        const double bps = std::round(value.get<double>());
        if (!(bps >= 1))
        {
            Fail(key, value, "must be positive");
        }
        if (bps >= 9.2e18)
        {
            Fail(key, value, "too large");
        }
        return static_cast<uint64_t>(bps);
    }

    /** \param key an optional delay field \param fallback used if missing \return seconds */
    double Delay(const char* key, double fallback) const
    {
        if (!Has(key))
        {
            return fallback;
        }
        const Json& value = m_value.at(key);
        if (value.is_string())
        {
            return WanTopology::ParseDelay(value.get<std::string>(), Where(key));
        }
        if (!value.is_number())
        {
            Fail(key, value, "expected a delay such as \"7.3ms\" or a number of seconds");
        }
        // A bare number is seconds.
        const double seconds = value.get<double>();
        if (seconds < 0)
        {
            Fail(key, value, "must not be negative");
        }
        return seconds;
    }

    /** \param key an array field \param required throw if missing \return the array, or an
     *  empty array if missing and not required */
    const Json& Array(const char* key, bool required) const
    {
        static const Json empty = Json::array();
        if (!required && !Has(key))
        {
            return empty;
        }
        const Json& value = Require(key);
        if (!value.is_array())
        {
            Fail(key, value, "expected an array");
        }
        return value;
    }

  private:
    const Json& m_value;  //!< the object
    std::string m_source; //!< file name
    std::string m_path;   //!< path of the object
};

/**
 * \brief Turn a parse error's byte offset into "line L, column C".
 * \param text the document \param byte nlohmann's 1-based count of bytes read
 * \return the position text
 */
std::string
LineAndColumn(const std::string& text, std::size_t byte)
{
    const std::size_t offset = std::min(byte > 0 ? byte - 1 : 0, text.size());
    std::size_t line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < offset; ++i)
    {
        if (text[i] == '\n')
        {
            ++line;
            lineStart = i + 1;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(offset - lineStart + 1);
}

/** \param index an array index \param name the array \return e.g. "links[3]" */
std::string
Element(const char* name, std::size_t index)
{
    return std::string(name) + "[" + std::to_string(index) + "]";
}

/**
 * \brief Look up a city code named by a field.
 * \param topology the topology \param object the object holding the field
 * \param key the field, whose value must be a known city code
 * \return the city index
 */
uint32_t
CityField(const WanTopology& topology, const JsonObject& object, const char* key)
{
    const std::string code = object.String(key, true);
    const auto& cities = topology.GetCities();
    for (uint32_t i = 0; i < cities.size(); ++i)
    {
        if (cities[i].code == code)
        {
            return i;
        }
    }
    object.Fail(key, Json(code), "unknown city code");
}

} // namespace

WanTopology
WanTopology::LoadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw WanTopologyError(path + ": cannot open topology file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        throw WanTopologyError(path + ": cannot read topology file");
    }
    return Parse(text.str(), path);
}

WanTopology
WanTopology::Parse(const std::string& text, const std::string& source)
{
    NS_LOG_FUNCTION(source);
    // nlohmann keeps the last of two equal keys; a repeated key is rejected instead, as a
    // typo or a copy-paste slip that would otherwise go unnoticed.
    std::vector<std::set<std::string>> keysSeen;
    auto rejectDuplicateKeys = [&keysSeen,
                                &source](int depth, Json::parse_event_t event, Json& parsed) {
        if (event == Json::parse_event_t::object_start)
        {
            keysSeen.emplace_back();
        }
        else if (event == Json::parse_event_t::object_end && !keysSeen.empty())
        {
            keysSeen.pop_back();
        }
        else if (event == Json::parse_event_t::key && !keysSeen.empty())
        {
            const std::string key = parsed.get<std::string>();
            if (!keysSeen.back().insert(key).second)
            {
                throw WanTopologyError(source + ": " + Show(parsed) +
                                       ": duplicate key in one object");
            }
        }
        return true;
    };
    Json doc;
    try
    {
        doc = Json::parse(text, rejectDuplicateKeys);
    }
    catch (const Json::parse_error& e)
    {
        // e.what() reads "[json.exception.parse_error.101] parse error at line 1, column 2:
        // syntax error ..."; keep the explanation, give our own position.
        std::string reason = e.what();
        const auto at = reason.find("parse error");
        const auto colon = reason.find(": ", at == std::string::npos ? 0 : at);
        if (colon != std::string::npos)
        {
            reason = reason.substr(colon + 2);
        }
        throw WanTopologyError(source + ": " + LineAndColumn(text, e.byte) +
                               ": invalid JSON: " + reason);
    }

    const JsonObject root(doc,
                          source,
                          "",
                          {"name", "description", "defaults", "cities", "islands", "links"});
    WanTopology topology;
    topology.SetSource(source);
    topology.SetName(root.String("name", false));
    topology.SetDescription(root.String("description", false));

    JsonDefaults defaults;
    if (root.Has("defaults"))
    {
        const JsonObject d(
            doc.at("defaults"),
            source,
            "defaults",
            {"wanBandwidth", "accessBandwidth", "accessDelay", "routeFactor", "multicast", "fpga"});
        defaults.wanBps = d.Rate("wanBandwidth", defaults.wanBps);
        defaults.accessBps = d.Rate("accessBandwidth", defaults.accessBps);
        defaults.accessDelay = d.Delay("accessDelay", defaults.accessDelay);
        defaults.routeFactor = d.Number("routeFactor", defaults.routeFactor);
        if (!(defaults.routeFactor >= 1))
        {
            d.Fail("routeFactor",
                   doc.at("defaults").at("routeFactor"),
                   "must be at least 1 (a fibre route is never shorter than the great circle)");
        }
        defaults.caps.multicast = d.Bool("multicast", defaults.caps.multicast);
        defaults.caps.fpga = d.Bool("fpga", defaults.caps.fpga);
    }

    const Json& cities = root.Array("cities", true);
    for (std::size_t i = 0; i < cities.size(); ++i)
    {
        const JsonObject c(cities[i],
                           source,
                           Element("cities", i),
                           {"code", "name", "latitude", "longitude", "multicast", "fpga"});
        WanCity city;
        city.code = c.String("code", true);
        city.name = c.String("name", false, city.code);
        city.latitude = c.Number("latitude");
        city.longitude = c.Number("longitude");
        city.caps.multicast = c.Bool("multicast", defaults.caps.multicast);
        city.caps.fpga = c.Bool("fpga", defaults.caps.fpga);
        topology.AddCity(city);
    }

    if (root.Has("islands"))
    {
        const Json& islands = root.Array("islands", true);
        for (std::size_t i = 0; i < islands.size(); ++i)
        {
            const JsonObject is(islands[i],
                                source,
                                Element("islands", i),
                                {"name", "city", "accessBandwidth", "accessDelay"});
            WanIsland island;
            island.name = is.String("name", true);
            island.city = CityField(topology, is, "city");
            island.accessBps = is.Rate("accessBandwidth", defaults.accessBps);
            island.accessDelay = is.Delay("accessDelay", defaults.accessDelay);
            topology.AddIsland(island);
        }
    }
    else
    {
        // One island per city, named "<CODE>-0", with the default access link.
        for (uint32_t c = 0; c < topology.GetCities().size(); ++c)
        {
            WanIsland island;
            island.name = topology.GetCities()[c].code + "-0";
            island.city = c;
            island.accessBps = defaults.accessBps;
            island.accessDelay = defaults.accessDelay;
            topology.AddIsland(island);
        }
    }

    const Json& links = root.Array("links", false);
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        const JsonObject l(links[i], source, Element("links", i), {"a", "b", "bandwidth", "delay"});
        WanLink link;
        link.a = CityField(topology, l, "a");
        link.b = CityField(topology, l, "b");
        link.bps = l.Rate("bandwidth", defaults.wanBps);
        // The physical default needs both ends; a self-link is rejected by AddLink below.
        link.delay = l.Has("delay")
                         ? l.Delay("delay", 0)
                         : topology.DefaultLinkDelay(link.a, link.b, defaults.routeFactor);
        topology.AddLink(link);
    }

    topology.Validate();
    return topology;
}

std::string
WanTopology::ToJson() const
{
    // Every value explicit, so the document does not depend on built-in defaults. Delays are
    // bare numbers of seconds and coordinates plain numbers: nlohmann writes doubles with
    // round-trip precision, so Parse(ToJson()) gives back the same values.
    Json doc = Json::object();
    doc["name"] = m_name;
    doc["description"] = m_description;
    Json cities = Json::array();
    for (const auto& city : m_cities)
    {
        cities.push_back({{"code", city.code},
                          {"name", city.name},
                          {"latitude", city.latitude},
                          {"longitude", city.longitude},
                          {"multicast", city.caps.multicast},
                          {"fpga", city.caps.fpga}});
    }
    doc["cities"] = cities;
    Json islands = Json::array();
    for (const auto& island : m_islands)
    {
        islands.push_back({{"name", island.name},
                           {"city", CityLabel(island.city)},
                           {"accessBandwidth", FormatRate(island.accessBps)},
                           {"accessDelay", island.accessDelay}});
    }
    doc["islands"] = islands;
    Json links = Json::array();
    for (const auto& link : m_links)
    {
        links.push_back({{"a", CityLabel(link.a)},
                         {"b", CityLabel(link.b)},
                         {"bandwidth", FormatRate(link.bps)},
                         {"delay", link.delay}});
    }
    doc["links"] = links;
    return doc.dump(2) + "\n";
}

} // namespace ns3
