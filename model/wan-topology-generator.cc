/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-topology-generator.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTopologyGenerator");

namespace
{

/** Source named in error messages and in generated topologies. */
const char SOURCE[] = "WanTopologyGenerator";
/** Micro-degrees per degree: coordinates are drawn as whole micro-degrees. */
constexpr int64_t MICRO = 1000000;

// Independent random streams, so that changing one aspect (say the FPGA fraction) leaves the
// others (the cities and links) as they were for the same seed.
/** Stream of city positions and of the choice of links. */
constexpr uint32_t PLACE_STREAM = 0;
/** Stream of WAN link rates. */
constexpr uint32_t WAN_RATE_STREAM = 1;
/** Stream of island counts and access rates. */
constexpr uint32_t ISLAND_STREAM = 2;
/** Stream of capability choices. */
constexpr uint32_t CAPABILITY_STREAM = 3;

/** A latitude/longitude box, whole degrees. */
struct Region
{
    int latLow;  //!< southern edge
    int latHigh; //!< northern edge
    int lonLow;  //!< western edge
    int lonHigh; //!< eastern edge
};

/** Rough boxes over inhabited land, so that generated cities sit where fibre does. */
const Region LAND[] = {
    {25, 50, -125, -70}, // North America
    {-35, 5, -75, -40},  // South America
    {36, 60, -10, 30},   // Europe
    {-30, 15, -10, 40},  // Africa
    {10, 50, 70, 140},   // Asia
    {-38, -15, 115, 153} // Australia
};
/** The continents family's western cluster: North America. */
const Region& WEST = LAND[0];
/** The continents family's eastern cluster: Europe. */
const Region& EAST = LAND[2];

/** Ring: the band of latitudes around the globe. */
const Region RING = {-40, 60, -180, 180};
/** Backbone: the band of latitudes and the span of longitudes of the chain. */
const Region BACKBONE = {25, 55, -120, 140};
/** Grid: latitude of the first row, degrees. */
constexpr int64_t GRID_TOP = 50;
/** Grid: longitude of the first column, degrees. */
constexpr int64_t GRID_LEFT = -20;
/** Grid: largest spacing between rows and columns, degrees. */
constexpr int64_t GRID_MAX_SPACING = 5;
/** Grid: the widest dimension spans at most this many degrees. */
constexpr int64_t GRID_SPAN = 60;
/** Backbone: a metro spur lies within this many degrees of its backbone city. */
constexpr int64_t SPUR_RADIUS = 2;

/** \param n a count \return round(sqrt(n)), in integers */
uint32_t
RoundedSqrt(uint32_t n)
{
    NS_LOG_FUNCTION(n);
    uint64_t r = 0;
    while ((r + 1) * (r + 1) <= n)
    {
        ++r;
    }
    // r + 1/2 <= sqrt(n)  <=>  (2r + 1)^2 <= 4n
    return static_cast<uint32_t>((2 * r + 1) * (2 * r + 1) <= 4ULL * n ? r + 1 : r);
}

/** \param params checked parameters \return the backbone family's chain length */
uint32_t
BackboneSize(const WanTopologyGeneratorParams& params)
{
    NS_LOG_FUNCTION_NOARGS();
    if (params.backboneCities != 0)
    {
        return params.backboneCities;
    }
    return std::min(params.cities, std::max(2U, RoundedSqrt(params.cities)));
}

/** \param fraction in [0, 1] \param n a count \return round(fraction x n), halves up */
uint32_t
RoundedShare(double fraction, uint32_t n)
{
    NS_LOG_FUNCTION(fraction << n);
    const double product = fraction * n;
    return static_cast<uint32_t>(std::llround(product));
}

/**
 * \brief Round a delay to whole nanoseconds, ns-3's default time resolution. The written
 *        value then hides last-bit differences between math libraries' sin and cos, and
 *        "50us" and 50e-6 give the same number.
 * \param seconds a delay \return it rounded, in seconds
 */
double
WholeNanoseconds(double seconds)
{
    NS_LOG_FUNCTION(seconds);
    return std::round(seconds * 1e9) / 1e9;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Public API

const std::array<WanTopologyGenerator::Family, 6> WanTopologyGenerator::FAMILIES = {{
    {"geometric", &WanTopologyGenerator::BuildGeometric},
    {"ring", &WanTopologyGenerator::BuildRing},
    {"hub", &WanTopologyGenerator::BuildHub},
    {"grid", &WanTopologyGenerator::BuildGrid},
    {"continents", &WanTopologyGenerator::BuildContinents},
    {"backbone", &WanTopologyGenerator::BuildBackbone},
}};

std::vector<std::string>
WanTopologyGenerator::Families()
{
    NS_LOG_FUNCTION_NOARGS();
    std::vector<std::string> names;
    for (const auto& family : FAMILIES)
    {
        names.emplace_back(family.name);
    }
    return names;
}

void
WanTopologyGenerator::CheckParams(const WanTopologyGeneratorParams& params)
{
    NS_LOG_FUNCTION_NOARGS();
    params.Check(Families());
}

std::string
WanTopologyGenerator::Describe(const WanTopologyGeneratorParams& params)
{
    return params.Describe();
}

WanTopology
WanTopologyGenerator::Generate(const WanTopologyGeneratorParams& params)
{
    NS_LOG_FUNCTION(Describe(params));
    CheckParams(params);
    WanTopologyGenerator generator(params);
    generator.AssignCapabilities();
    for (const auto& family : FAMILIES)
    {
        if (params.family == family.name)
        {
            (generator.*family.build)();
        }
    }
    generator.AddIslands();
    generator.m_topology.Validate();
    NS_LOG_DEBUG(params.family << ": " << generator.m_topology.GetCities().size() << " cities, "
                               << generator.m_topology.GetIslands().size() << " islands, "
                               << generator.m_topology.GetLinks().size() << " links");
    return generator.m_topology;
}

// ---------------------------------------------------------------------------------------------
// Families

WanTopologyGenerator::WanTopologyGenerator(const WanTopologyGeneratorParams& params)
    : m_params(params),
      m_placeRng(params.seed, PLACE_STREAM),
      m_wanRateRng(params.seed, WAN_RATE_STREAM),
      m_islandRng(params.seed, ISLAND_STREAM),
      m_capabilityRng(params.seed, CAPABILITY_STREAM),
      m_accessDelay(WholeNanoseconds(params.accessDelay))
{
    NS_LOG_FUNCTION(this);
    m_topology.SetSource(SOURCE);
    m_topology.SetName(params.family + "-" + std::to_string(params.cities) + "-seed" +
                       std::to_string(params.seed));
    m_topology.SetDescription("generated by WanTopologyGenerator: " + Describe(params));
}

void
WanTopologyGenerator::BuildGeometric()
{
    NS_LOG_FUNCTION(this);
    std::vector<uint32_t> all;
    for (uint32_t i = 0; i < m_params.cities; ++i)
    {
        all.push_back(AddLandCity('G'));
    }
    LinkNearest(all);
}

void
WanTopologyGenerator::BuildRing()
{
    NS_LOG_FUNCTION(this);
    // Evenly spaced longitudes, each shifted east by up to half a slot, so that consecutive
    // cities stay in order while the links' lengths differ.
    const int64_t n = m_params.cities;
    const int64_t slot = 360 * MICRO / n;
    for (int64_t i = 0; i < n; ++i)
    {
        const int64_t lat = m_placeRng.Between(RING.latLow * MICRO, RING.latHigh * MICRO);
        const int64_t lon = -180 * MICRO + 360 * MICRO * i / n + m_placeRng.Between(0, slot / 2);
        AddCity('R', lat, lon);
    }
    for (uint32_t i = 0; i + 1 < m_params.cities; ++i)
    {
        Link(i, i + 1);
    }
    if (m_params.cities >= 3) // two cities have one link, not two
    {
        Link(m_params.cities - 1, 0);
    }
}

void
WanTopologyGenerator::BuildHub()
{
    NS_LOG_FUNCTION(this);
    const uint32_t hubs = m_params.hubs;
    for (uint32_t i = 0; i < m_params.cities; ++i)
    {
        AddLandCity(i < hubs ? 'H' : 'S');
    }
    for (uint32_t a = 0; a < hubs; ++a)
    {
        for (uint32_t b = a + 1; b < hubs; ++b)
        {
            Link(a, b);
        }
    }
    for (uint32_t spoke = hubs; spoke < m_params.cities; ++spoke)
    {
        uint32_t nearest = 0;
        for (uint32_t hub = 1; hub < hubs; ++hub)
        {
            if (Distance(spoke, hub) < Distance(spoke, nearest))
            {
                nearest = hub;
            }
        }
        Link(nearest, spoke);
    }
}

void
WanTopologyGenerator::BuildGrid()
{
    NS_LOG_FUNCTION(this);
    uint32_t cols = 1;
    while (cols * cols < m_params.cities)
    {
        ++cols;
    }
    const int64_t spacing = std::min(GRID_MAX_SPACING * MICRO, GRID_SPAN * MICRO / cols);
    for (uint32_t i = 0; i < m_params.cities; ++i)
    {
        const int64_t row = i / cols;
        const int64_t col = i % cols;
        AddCity('L', GRID_TOP * MICRO - row * spacing, GRID_LEFT * MICRO + col * spacing);
    }
    for (uint32_t i = 0; i < m_params.cities; ++i)
    {
        if (i % cols + 1 < cols && i + 1 < m_params.cities)
        {
            Link(i, i + 1);
        }
        if (i + cols < m_params.cities)
        {
            Link(i, i + cols);
        }
    }
}

void
WanTopologyGenerator::BuildContinents()
{
    NS_LOG_FUNCTION(this);
    const uint32_t westCount = (m_params.cities + 1) / 2;
    std::vector<uint32_t> west;
    std::vector<uint32_t> east;
    for (uint32_t i = 0; i < m_params.cities; ++i)
    {
        const bool isWest = i < westCount;
        const Region& r = isWest ? WEST : EAST;
        const uint32_t city =
            AddCityIn(isWest ? 'W' : 'E', r.latLow, r.latHigh, r.lonLow, r.lonHigh);
        (isWest ? west : east).push_back(city);
    }
    LinkNearest(west);
    LinkNearest(east);
    const uint32_t pairs = west.size() * east.size();
    for (uint32_t pair : m_placeRng.Sample(pairs, std::min(m_params.crossLinks, pairs)))
    {
        Link(west[pair / east.size()], east[pair % east.size()]);
    }
}

void
WanTopologyGenerator::BuildBackbone()
{
    NS_LOG_FUNCTION(this);
    const uint32_t backbone = BackboneSize(m_params);
    const int64_t span = int64_t{BACKBONE.lonHigh - BACKBONE.lonLow} * MICRO;
    for (uint32_t i = 0; i < backbone; ++i)
    {
        const int64_t lon =
            BACKBONE.lonLow * MICRO + (backbone > 1 ? span * i / (backbone - 1) : 0);
        AddCity('B', m_placeRng.Between(BACKBONE.latLow * MICRO, BACKBONE.latHigh * MICRO), lon);
    }
    for (uint32_t i = 0; i + 1 < backbone; ++i)
    {
        Link(i, i + 1);
    }
    for (uint32_t spur = 0; spur + backbone < m_params.cities; ++spur)
    {
        const WanCity& anchor = m_topology.GetCities()[spur % backbone];
        const int64_t lat = std::llround(anchor.latitude * MICRO) +
                            m_placeRng.Between(-SPUR_RADIUS * MICRO, SPUR_RADIUS * MICRO);
        const int64_t lon = std::llround(anchor.longitude * MICRO) +
                            m_placeRng.Between(-SPUR_RADIUS * MICRO, SPUR_RADIUS * MICRO);
        const uint32_t city = AddCity('M', lat, std::max(-180 * MICRO, std::min(180 * MICRO, lon)));
        Link(spur % backbone, city);
    }
}

// ---------------------------------------------------------------------------------------------
// Islands and capabilities

void
WanTopologyGenerator::AddIslands()
{
    NS_LOG_FUNCTION(this);
    const auto& cities = m_topology.GetCities();
    for (uint32_t c = 0; c < cities.size(); ++c)
    {
        const uint32_t count =
            m_params.maxIslandsPerCity == 0
                ? m_params.islandsPerCity
                : static_cast<uint32_t>(
                      m_islandRng.Between(m_params.islandsPerCity, m_params.maxIslandsPerCity));
        for (uint32_t i = 0; i < count; ++i)
        {
            WanIsland island;
            island.name = cities[c].code + "-" + std::to_string(i);
            island.city = c;
            island.accessBps = m_islandRng.DrawRate(m_params.accessBps, m_params.accessBpsMax);
            island.accessDelay = m_accessDelay;
            m_topology.AddIsland(island);
        }
    }
}

void
WanTopologyGenerator::AssignCapabilities()
{
    NS_LOG_FUNCTION(this);
    const uint32_t n = m_params.cities;
    m_caps.assign(n, WanCapabilities());
    for (uint32_t c : m_capabilityRng.Sample(n, RoundedShare(m_params.multicastFraction, n)))
    {
        m_caps[c].multicast = true;
    }
    for (uint32_t c : m_capabilityRng.Sample(n, RoundedShare(m_params.fpgaFraction, n)))
    {
        m_caps[c].fpga = true;
    }
    for (uint32_t c : m_capabilityRng.Sample(n, RoundedShare(m_params.transitFraction, n)))
    {
        m_caps[c].transit = true;
    }
}

// ---------------------------------------------------------------------------------------------
// Building blocks

void
WanTopologyGenerator::LinkNearest(const std::vector<uint32_t>& group)
{
    NS_LOG_FUNCTION(this);
    const std::size_t n = group.size();
    const std::size_t k = std::min<std::size_t>(m_params.k, n - 1);
    for (uint32_t city : group)
    {
        std::vector<std::pair<double, uint32_t>> others; // (distance, city): ties by index
        for (uint32_t other : group)
        {
            if (other != city)
            {
                others.emplace_back(Distance(city, other), other);
            }
        }
        std::partial_sort(others.begin(), others.begin() + k, others.end());
        for (std::size_t i = 0; i < k; ++i)
        {
            Link(city, others[i].second);
        }
    }
    // Prim's algorithm with existing links at weight -1: the new links it takes join the
    // components of the k-nearest graph along their minimum spanning tree, each step adding
    // the shortest link from the connected part to a city outside it.
    const double linked = -1;
    const double infinity = std::numeric_limits<double>::infinity();
    std::vector<bool> inTree(n, false);
    std::vector<double> best(n, infinity);
    std::vector<std::size_t> from(n, 0);
    best[0] = linked;
    for (std::size_t step = 0; step < n; ++step)
    {
        std::size_t next = n;
        for (std::size_t i = 0; i < n; ++i)
        {
            if (!inTree[i] && (next == n || best[i] < best[next]))
            {
                next = i;
            }
        }
        inTree[next] = true;
        if (best[next] != linked)
        {
            NS_LOG_DEBUG("joining components with "
                         << m_topology.GetCities()[group[from[next]]].code << "-"
                         << m_topology.GetCities()[group[next]].code);
            Link(group[from[next]], group[next]);
        }
        for (std::size_t i = 0; i < n; ++i)
        {
            if (inTree[i])
            {
                continue;
            }
            const uint32_t a = std::min(group[next], group[i]);
            const uint32_t b = std::max(group[next], group[i]);
            const double weight = m_linked.count({a, b}) ? linked : Distance(a, b);
            if (weight < best[i])
            {
                best[i] = weight;
                from[i] = next;
            }
        }
    }
}

uint32_t
WanTopologyGenerator::AddCity(char prefix, int64_t latMicro, int64_t lonMicro)
{
    NS_LOG_FUNCTION(this << prefix << latMicro << lonMicro);
    const uint32_t index = m_topology.GetCities().size();
    std::string number = std::to_string(index);
    const std::size_t width = std::max<std::size_t>(2, std::to_string(m_params.cities - 1).size());
    number.insert(0, width - number.size(), '0');
    WanCity city;
    city.code = prefix + number;
    city.name = city.code;
    city.caps = m_caps[index];
    // Integer micro-degrees divided once: the same double on every IEEE platform.
    city.latitude = static_cast<double>(latMicro) / MICRO;
    city.longitude = static_cast<double>(lonMicro) / MICRO;
    return m_topology.AddCity(city);
}

uint32_t
WanTopologyGenerator::AddLandCity(char prefix)
{
    NS_LOG_FUNCTION(this << prefix);
    const Region& r = LAND[m_placeRng.Below(sizeof(LAND) / sizeof(LAND[0]))];
    return AddCityIn(prefix, r.latLow, r.latHigh, r.lonLow, r.lonHigh);
}

uint32_t
WanTopologyGenerator::AddCityIn(char prefix, int latLow, int latHigh, int lonLow, int lonHigh)
{
    NS_LOG_FUNCTION(this << prefix << latLow << latHigh << lonLow << lonHigh);
    const int64_t lat = m_placeRng.Between(latLow * MICRO, latHigh * MICRO);
    const int64_t lon = m_placeRng.Between(lonLow * MICRO, lonHigh * MICRO);
    return AddCity(prefix, lat, lon);
}

void
WanTopologyGenerator::Link(uint32_t a, uint32_t b)
{
    NS_LOG_FUNCTION(this << a << b);
    if (!m_linked.insert({std::min(a, b), std::max(a, b)}).second)
    {
        return; // already linked: k-nearest is often mutual
    }
    WanLink link;
    link.a = a;
    link.b = b;
    link.bps = m_wanRateRng.DrawRate(m_params.wanBps, m_params.wanBpsMax);
    link.delay = WholeNanoseconds(m_topology.DefaultLinkDelay(a, b, m_params.routeFactor));
    m_topology.AddLink(link);
}

double
WanTopologyGenerator::Distance(uint32_t a, uint32_t b) const
{
    NS_LOG_FUNCTION(this << a << b);
    const WanCity& ca = m_topology.GetCities()[a];
    const WanCity& cb = m_topology.GetCities()[b];
    return WanTopology::GreatCircleKm(ca.latitude, ca.longitude, cb.latitude, cb.longitude);
}

} // namespace ns3
