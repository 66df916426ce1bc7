/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-topology-json.h"

#include "wan-json-input.h"
#include "wan-units.h"

#include "ns3/log.h"

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
    WanQueueSpec queue;                 //!< every transmit queue: WanQueueSpec::DEFAULT
};

/**
 * \brief Read and check the "routeFactor" of the "defaults" object.
 * \param d the "defaults" object
 * \param value its JSON value (for messages)
 * \param fallback the factor if the field is missing
 * \return the factor
 * \throws WanInputError if it is below 1 or above WanTopology::MAX_ROUTE_FACTOR
 */
double
ReadRouteFactor(const WanJsonObject& d, const Json& value, double fallback)
{
    NS_LOG_FUNCTION(fallback);
    const double routeFactor = d.Number("routeFactor", fallback);
    if (!(routeFactor >= 1))
    {
        d.Fail("routeFactor",
               value.at("routeFactor"),
               "must be at least 1 (a fibre route is never shorter than the great circle)");
    }
    if (routeFactor > WanTopology::MAX_ROUTE_FACTOR)
    {
        d.Fail("routeFactor",
               value.at("routeFactor"),
               "must be at most 100 (WanTopology::MAX_ROUTE_FACTOR)");
    }
    return routeFactor;
}

/**
 * \brief Read the document's "defaults" object over the built-in defaults.
 * \param doc the document \param root its top-level object \param source the file name
 * \return the defaults (the built-in ones if the document has no "defaults")
 */
JsonDefaults
ReadDefaults(const Json& doc, const WanJsonObject& root, const std::string& source)
{
    NS_LOG_FUNCTION(source);
    JsonDefaults defaults;
    if (!root.Has("defaults"))
    {
        return defaults;
    }
    const WanJsonObject d(doc.at("defaults"),
                          source,
                          "defaults",
                          {"wanBandwidth",
                           "accessBandwidth",
                           "accessDelay",
                           "routeFactor",
                           "multicast",
                           "fpga",
                           "transit",
                           "queue"});
    defaults.wanBps = d.Rate("wanBandwidth", defaults.wanBps);
    defaults.accessBps = d.Rate("accessBandwidth", defaults.accessBps);
    defaults.accessDelay =
        d.Seconds("accessDelay", defaults.accessDelay, &WanTopology::DelayProblem);
    defaults.routeFactor = ReadRouteFactor(d, doc.at("defaults"), defaults.routeFactor);
    defaults.caps.multicast = d.Bool("multicast", defaults.caps.multicast);
    defaults.caps.fpga = d.Bool("fpga", defaults.caps.fpga);
    defaults.caps.transit = d.Bool("transit", defaults.caps.transit);
    defaults.queue = d.Queue("queue", defaults.queue);
    return defaults;
}

/**
 * \brief Add the cities of the document's "cities" array to the topology.
 * \param root the document's top-level object \param source the file name
 * \param defaults the capabilities of a city that does not list them
 * \param topology receives the cities
 */
void
ReadCities(const WanJsonObject& root,
           const std::string& source,
           const JsonDefaults& defaults,
           WanTopology& topology)
{
    NS_LOG_FUNCTION(source);
    const Json& cities = root.Array("cities", true);
    for (std::size_t i = 0; i < cities.size(); ++i)
    {
        const WanJsonObject c(
            cities[i],
            source,
            WanJsonInput::Element("cities", i),
            {"code", "name", "latitude", "longitude", "multicast", "fpga", "transit"});
        WanCity city;
        city.code = c.String("code", true);
        city.name = c.String("name", false, city.code);
        city.latitude = c.Number("latitude");
        city.longitude = c.Number("longitude");
        city.caps.multicast = c.Bool("multicast", defaults.caps.multicast);
        city.caps.fpga = c.Bool("fpga", defaults.caps.fpga);
        city.caps.transit = c.Bool("transit", defaults.caps.transit);
        topology.AddCity(city);
    }
}

/**
 * \brief Add the islands of the document's "islands" array to the topology.
 * \param root the document's top-level object (it has "islands") \param source the file name
 * \param defaults the access link and queue of an island that does not set them
 * \param topology holds the cities; receives the islands
 */
void
ReadIslands(const WanJsonObject& root,
            const std::string& source,
            const JsonDefaults& defaults,
            WanTopology& topology)
{
    NS_LOG_FUNCTION(source);
    const Json& islands = root.Array("islands", true);
    for (std::size_t i = 0; i < islands.size(); ++i)
    {
        const WanJsonObject is(islands[i],
                               source,
                               WanJsonInput::Element("islands", i),
                               {"name", "city", "accessBandwidth", "accessDelay", "queue"});
        WanIsland island;
        island.name = is.String("name", true);
        island.city = WanTopologyJson::CityField(is, "city", topology);
        island.accessBps = is.Rate("accessBandwidth", defaults.accessBps);
        island.accessDelay =
            is.Seconds("accessDelay", defaults.accessDelay, &WanTopology::DelayProblem);
        const uint32_t index = topology.AddIsland(island);
        topology.SetIslandQueue(index, is.Queue("queue", defaults.queue));
    }
}

/**
 * \brief Add one island per city, named "<CODE>-0", with the default access link (a document
 *        without "islands").
 * \param defaults the access link \param topology holds the cities; receives the islands
 */
void
AddDefaultIslands(const JsonDefaults& defaults, WanTopology& topology)
{
    NS_LOG_FUNCTION_NOARGS();
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

/**
 * \brief Add the links of the document's "links" array (if any) to the topology.
 * \param root the document's top-level object \param source the file name
 * \param defaults the rate, route factor and queue of a link that does not set them
 * \param topology holds the cities; receives the links
 */
void
ReadLinks(const WanJsonObject& root,
          const std::string& source,
          const JsonDefaults& defaults,
          WanTopology& topology)
{
    NS_LOG_FUNCTION(source);
    const Json& links = root.Array("links", false);
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        const WanJsonObject l(links[i],
                              source,
                              WanJsonInput::Element("links", i),
                              {"a", "b", "bandwidth", "delay", "queue"});
        WanLink link;
        link.a = WanTopologyJson::CityField(l, "a", topology);
        link.b = WanTopologyJson::CityField(l, "b", topology);
        link.bps = l.Rate("bandwidth", defaults.wanBps);
        // The physical default needs both ends; a self-link is rejected by AddLink below.
        link.delay = l.Has("delay")
                         ? l.Seconds("delay", 0, &WanTopology::DelayProblem)
                         : topology.DefaultLinkDelay(link.a, link.b, defaults.routeFactor);
        topology.SetLinkQueue(topology.AddLink(link), l.Queue("queue", defaults.queue));
    }
}

} // namespace

WanTopology
WanTopologyJson::LoadFile(const std::string& path)
{
    NS_LOG_FUNCTION(path);
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

    const JsonDefaults defaults = ReadDefaults(doc, root, source);
    topology.SetDefaultQueue(defaults.queue);
    ReadCities(root, source, defaults, topology);
    if (root.Has("islands"))
    {
        ReadIslands(root, source, defaults, topology);
    }
    else
    {
        AddDefaultIslands(defaults, topology);
    }
    ReadLinks(root, source, defaults, topology);

    topology.Validate();
    return topology;
}

std::string
WanTopologyJson::ToJson(const WanTopology& topology)
{
    NS_LOG_FUNCTION_NOARGS();
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
    doc["defaults"] = {{"queue", topology.GetDefaultQueue().ToString()}};
    Json cities = Json::array();
    for (const auto& city : topology.GetCities())
    {
        cities.push_back({{"code", city.code},
                          {"name", city.name},
                          {"latitude", city.latitude},
                          {"longitude", city.longitude},
                          {"multicast", city.caps.multicast},
                          {"fpga", city.caps.fpga},
                          {"transit", city.caps.transit}});
    }
    doc["cities"] = cities;
    Json islands = Json::array();
    for (uint32_t i = 0; i < topology.GetIslands().size(); ++i)
    {
        const WanIsland& island = topology.GetIslands()[i];
        islands.push_back({{"name", island.name},
                           {"city", codes[island.city]},
                           {"accessBandwidth", WanUnits::FormatRate(island.accessBps)},
                           {"accessDelay", island.accessDelay},
                           {"queue", topology.GetIslandQueue(i).ToString()}});
    }
    doc["islands"] = islands;
    Json links = Json::array();
    for (uint32_t l = 0; l < topology.GetLinks().size(); ++l)
    {
        const WanLink& link = topology.GetLinks()[l];
        links.push_back({{"a", codes[link.a]},
                         {"b", codes[link.b]},
                         {"bandwidth", WanUnits::FormatRate(link.bps)},
                         {"delay", link.delay},
                         {"queue", topology.GetLinkQueue(l).ToString()}});
    }
    doc["links"] = links;
    return doc.dump(2) + "\n";
}

uint32_t
WanTopologyJson::CityField(const WanJsonObject& object,
                           const char* key,
                           const WanTopology& topology)
{
    NS_LOG_FUNCTION(key);
    const std::string code = object.String(key, true);
    const auto& cities = topology.GetCities();
    for (uint32_t i = 0; i < cities.size(); ++i)
    {
        if (cities[i].code == code)
        {
            return i;
        }
    }
    object.Fail(key, WanJsonInput::Json(code), "unknown city code");
}

} // namespace ns3
