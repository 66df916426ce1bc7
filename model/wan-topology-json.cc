/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-topology-json.h"

#include "wan-json-input.h"
#include "wan-units.h"

#include "ns3/log.h"

#include <cmath>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTopologyJson");

namespace
{

using Json = WanJsonInput::Json;

/** Built-in defaults, overridden by the file's "defaults" object. */
struct JsonDefaults
{
    uint64_t wanBps{100000000000ULL};   //!< WAN link rate: 100 Gbps
    uint64_t accessBps{10000000000ULL}; //!< island access rate: 10 Gbps
    double accessDelay{50e-6};          //!< island access delay: 50 us
    double routeFactor{1.3};            //!< fibre route length over great-circle distance
    WanCapabilities caps{true, true};   //!< every city multicast-capable with an FPGA
};

/**
 * \brief Read an optional rate field: a string with a unit, or a bare number of bits/s.
 * \param object the object \param key the field \param fallback used if missing
 * \return bits per second
 */
uint64_t
Rate(const WanJsonObject& object, const char* key, uint64_t fallback)
{
    if (!object.Has(key))
    {
        return fallback;
    }
    const Json& value = object.Require(key);
    if (value.is_string())
    {
        return WanUnits::ParseRate(value.get<std::string>(), object.Where(key));
    }
    if (!value.is_number())
    {
        object.Fail(key, value, "expected a rate such as \"100Gbps\" or a number of bits/s");
    }
    // A bare number is bits per second.
    const double bps = std::round(value.get<double>());
    const std::string problem = WanUnits::RateProblem(bps);
    if (!problem.empty())
    {
        object.Fail(key, value, problem);
    }
    return static_cast<uint64_t>(bps);
}

/**
 * \brief Read an optional link or access delay field: a string with a unit, or a bare number
 *        of seconds; either must follow WanTopology::DelayProblem's rule.
 * \param object the object \param key the field \param fallback used if missing
 * \return seconds
 */
double
Delay(const WanJsonObject& object, const char* key, double fallback)
{
    if (!object.Has(key))
    {
        return fallback;
    }
    const Json& value = object.Require(key);
    double seconds = 0;
    if (value.is_string())
    {
        seconds = WanUnits::ParseDelay(value.get<std::string>(), object.Where(key));
    }
    else if (value.is_number())
    {
        seconds = value.get<double>(); // a bare number is seconds
    }
    else
    {
        object.Fail(key, value, "expected a delay such as \"7.3ms\" or a number of seconds");
    }
    const std::string problem = WanTopology::DelayProblem(seconds);
    if (!problem.empty())
    {
        object.Fail(key, value, problem);
    }
    return seconds;
}

/**
 * \brief Look up a city code named by a field.
 * \param topology the topology \param object the object holding the field
 * \param key the field, whose value must be a known city code
 * \return the city index
 */
uint32_t
CityField(const WanTopology& topology, const WanJsonObject& object, const char* key)
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
WanTopologyJson::LoadFile(const std::string& path)
{
    return Parse(WanJsonInput::ReadFile(path, "topology file"), path);
}

WanTopology
WanTopologyJson::Parse(const std::string& text, const std::string& source)
{
    NS_LOG_FUNCTION(source);
    const Json doc = WanJsonInput::Parse(text, source);

    const WanJsonObject root(doc,
                             source,
                             "",
                             {"name", "description", "defaults", "cities", "islands", "links"});
    WanTopology topology;
    topology.SetSource(source);
    topology.SetName(root.Name("name", false));
    topology.SetDescription(root.String("description", false));

    JsonDefaults defaults;
    if (root.Has("defaults"))
    {
        const WanJsonObject d(
            doc.at("defaults"),
            source,
            "defaults",
            {"wanBandwidth", "accessBandwidth", "accessDelay", "routeFactor", "multicast", "fpga"});
        defaults.wanBps = Rate(d, "wanBandwidth", defaults.wanBps);
        defaults.accessBps = Rate(d, "accessBandwidth", defaults.accessBps);
        defaults.accessDelay = Delay(d, "accessDelay", defaults.accessDelay);
        defaults.routeFactor = d.Number("routeFactor", defaults.routeFactor);
        if (!(defaults.routeFactor >= 1))
        {
            d.Fail("routeFactor",
                   doc.at("defaults").at("routeFactor"),
                   "must be at least 1 (a fibre route is never shorter than the great circle)");
        }
        if (defaults.routeFactor > WanTopology::MAX_ROUTE_FACTOR)
        {
            d.Fail("routeFactor",
                   doc.at("defaults").at("routeFactor"),
                   "must be at most 100 (WanTopology::MAX_ROUTE_FACTOR)");
        }
        defaults.caps.multicast = d.Bool("multicast", defaults.caps.multicast);
        defaults.caps.fpga = d.Bool("fpga", defaults.caps.fpga);
    }

    const Json& cities = root.Array("cities", true);
    for (std::size_t i = 0; i < cities.size(); ++i)
    {
        const WanJsonObject c(cities[i],
                              source,
                              WanJsonInput::Element("cities", i),
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
            const WanJsonObject is(islands[i],
                                   source,
                                   WanJsonInput::Element("islands", i),
                                   {"name", "city", "accessBandwidth", "accessDelay"});
            WanIsland island;
            island.name = is.String("name", true);
            island.city = CityField(topology, is, "city");
            island.accessBps = Rate(is, "accessBandwidth", defaults.accessBps);
            island.accessDelay = Delay(is, "accessDelay", defaults.accessDelay);
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
        const WanJsonObject l(links[i],
                              source,
                              WanJsonInput::Element("links", i),
                              {"a", "b", "bandwidth", "delay"});
        WanLink link;
        link.a = CityField(topology, l, "a");
        link.b = CityField(topology, l, "b");
        link.bps = Rate(l, "bandwidth", defaults.wanBps);
        // The physical default needs both ends; a self-link is rejected by AddLink below.
        link.delay = l.Has("delay")
                         ? Delay(l, "delay", 0)
                         : topology.DefaultLinkDelay(link.a, link.b, defaults.routeFactor);
        topology.AddLink(link);
    }

    topology.Validate();
    return topology;
}

std::string
WanTopologyJson::ToJson(const WanTopology& topology)
{
    // Every value explicit, so the document does not depend on built-in defaults. Delays are
    // bare numbers of seconds and coordinates plain numbers: nlohmann writes doubles with
    // round-trip precision, so Parse(ToJson()) gives back the same values.
    std::vector<std::string> codes;
    for (const auto& city : topology.GetCities())
    {
        codes.push_back(city.code);
    }
    Json doc = Json::object();
    doc["name"] = topology.GetName();
    doc["description"] = topology.GetDescription();
    Json cities = Json::array();
    for (const auto& city : topology.GetCities())
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
    for (const auto& island : topology.GetIslands())
    {
        islands.push_back({{"name", island.name},
                           {"city", codes[island.city]},
                           {"accessBandwidth", WanUnits::FormatRate(island.accessBps)},
                           {"accessDelay", island.accessDelay}});
    }
    doc["islands"] = islands;
    Json links = Json::array();
    for (const auto& link : topology.GetLinks())
    {
        links.push_back({{"a", codes[link.a]},
                         {"b", codes[link.b]},
                         {"bandwidth", WanUnits::FormatRate(link.bps)},
                         {"delay", link.delay}});
    }
    doc["links"] = links;
    return doc.dump(2) + "\n";
}

} // namespace ns3
