/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-topology-generator.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <locale>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTopologyGenerator");

namespace
{

/** Source named in error messages and in generated topologies. */
const char SOURCE[] = "WanTopologyGenerator";
/** Micro-degrees per degree: coordinates are drawn as whole micro-degrees. */
constexpr int64_t MICRO = 1000000;
/** Bits per second in one Mbps: drawn rates are whole Mbps when the bounds are. */
constexpr uint64_t MBPS = 1000000;
/** Largest k of the nearest-neighbour families. */
constexpr uint32_t MAX_K = 32;
/** Largest number of hubs (they are fully meshed). */
constexpr uint32_t MAX_HUBS = 64;
/** Largest number of links between the two continents. */
constexpr uint32_t MAX_CROSS_LINKS = 64;

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
    throw WanTopologyError(std::string(SOURCE) + ": " + field + ": " + value + ": " + problem);
}

/**
 * \brief Check that a count lies in a range.
 * \param field the parameter \param value its value \param low, high the allowed range
 */
void
CheckRange(const std::string& field, uint64_t value, uint64_t low, uint64_t high)
{
    if (value < low || value > high)
    {
        Fail(field, Text(value), "must be in " + Text(low) + ".." + Text(high));
    }
}

/** \param field the parameter \param value a fraction that must lie in [0, 1] */
void
CheckFraction(const std::string& field, double value)
{
    if (!(value >= 0 && value <= 1))
    {
        Fail(field, Text(value), "must be in [0, 1]");
    }
}

/** \param field the maximum's name \param low the minimum \param high 0 or the maximum */
void
CheckMaximum(const std::string& field, uint64_t low, uint64_t high)
{
    if (high != 0 && high < low)
    {
        Fail(field, Text(high), "must be 0 (no spread) or at least the minimum " + Text(low));
    }
}

/** \param n a count \return round(sqrt(n)), in integers */
uint32_t
RoundedSqrt(uint32_t n)
{
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
    return std::round(seconds * 1e9) / 1e9;
}

// Random numbers: std::mt19937_64's output, std::seed_seq and the engine's seeding from it are
// fixed by the C++ standard bit for bit; the standard distributions are not (libstdc++, libc++
// and MSVC differ), so the mappings below are our own.

/**
 * \brief One of the generator's independent random streams.
 * \param seed the user's seed \param stream the stream's number
 * \return an engine seeded from std::seed_seq{seed's low and high 32 bits, stream}
 */
std::mt19937_64
Stream(uint64_t seed, uint32_t stream)
{
    std::seed_seq sequence{static_cast<uint32_t>(seed & 0xffffffffU),
                           static_cast<uint32_t>(seed >> 32),
                           stream};
    return std::mt19937_64(sequence);
}

/** \param rng an engine \param n a bound, at least 1 \return a uniform integer in [0, n) */
uint64_t
Below(std::mt19937_64& rng, uint64_t n)
{
    NS_ASSERT(n >= 1);
    if (n == 1)
    {
        return 0;
    }
    // Reject the lowest 2^64 mod n outputs so that the rest is a whole number of [0, n) runs.
    const uint64_t threshold = (0 - n) % n;
    uint64_t x = rng();
    while (x < threshold)
    {
        x = rng();
    }
    return x % n;
}

/** \param rng an engine \param low lower bound \param high upper bound (>= low)
 *  \return a uniform integer in [low, high] */
int64_t
Between(std::mt19937_64& rng, int64_t low, int64_t high)
{
    NS_ASSERT(low <= high);
    const uint64_t width = static_cast<uint64_t>(high - low) + 1;
    return low + static_cast<int64_t>(Below(rng, width));
}

/**
 * \brief Draw a rate: \p low if \p high is 0, else uniform in [low, high], in whole Mbps
 *        when both bounds are whole Mbps (so files read "37215Mbps", not 37215482113bps).
 * \param rng an engine \param low the rate or the minimum \param high 0 or the maximum
 * \return bits per second
 */
uint64_t
DrawRate(std::mt19937_64& rng, uint64_t low, uint64_t high)
{
    if (high == 0 || high == low)
    {
        return low;
    }
    const uint64_t unit = (low % MBPS == 0 && high % MBPS == 0) ? MBPS : 1;
    return low + unit * Below(rng, (high - low) / unit + 1);
}

/** \param rng an engine \param n population \param m sample size (<= n)
 *  \return m distinct indices of [0, n), in the order drawn */
std::vector<uint32_t>
Sample(std::mt19937_64& rng, uint32_t n, uint32_t m)
{
    NS_ASSERT(m <= n);
    std::vector<uint32_t> all(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        all[i] = i;
    }
    // The first m steps of a Fisher-Yates shuffle.
    for (uint32_t i = 0; i < m; ++i)
    {
        std::swap(all[i], all[i + Below(rng, n - i)]);
    }
    all.resize(m);
    return all;
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
    std::vector<std::string> names;
    for (const auto& family : FAMILIES)
    {
        names.emplace_back(family.name);
    }
    return names;
}

void
WanTopologyGenerator::CheckParams(const WanTopologyGeneratorParams& p)
{
    const auto families = Families();
    if (std::find(families.begin(), families.end(), p.family) == families.end())
    {
        std::string list;
        for (const auto& f : families)
        {
            list += (list.empty() ? "" : "|") + f;
        }
        Fail("family", "\"" + p.family + "\"", "unknown family (expected " + list + ")");
    }
    CheckRange("cities", p.cities, 2, MAX_CITIES);
    CheckRange("islandsPerCity", p.islandsPerCity, 1, MAX_ISLANDS_PER_CITY);
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
    if (!(std::isfinite(p.accessDelay) && p.accessDelay >= 0))
    {
        Fail("accessDelay", Text(p.accessDelay), "must be a finite number of seconds >= 0");
    }
    if (!(std::isfinite(p.routeFactor) && p.routeFactor >= 1))
    {
        Fail("routeFactor",
             Text(p.routeFactor),
             "must be at least 1 (a fibre route is never shorter than the great circle)");
    }
    CheckFraction("multicastFraction", p.multicastFraction);
    CheckFraction("fpgaFraction", p.fpgaFraction);
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
WanTopologyGenerator::Describe(const WanTopologyGeneratorParams& p)
{
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << "family=" << p.family << " cities=" << p.cities << " seed=" << p.seed
        << " islandsPerCity=" << p.islandsPerCity << " maxIslandsPerCity=" << p.maxIslandsPerCity
        << " wanBps=" << p.wanBps << " wanBpsMax=" << p.wanBpsMax << " accessBps=" << p.accessBps
        << " accessBpsMax=" << p.accessBpsMax << " accessDelay=" << p.accessDelay
        << " routeFactor=" << p.routeFactor << " multicastFraction=" << p.multicastFraction
        << " fpgaFraction=" << p.fpgaFraction << " k=" << p.k << " hubs=" << p.hubs
        << " crossLinks=" << p.crossLinks << " backboneCities=" << p.backboneCities;
    return out.str();
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
      m_placeRng(Stream(params.seed, PLACE_STREAM)),
      m_wanRateRng(Stream(params.seed, WAN_RATE_STREAM)),
      m_islandRng(Stream(params.seed, ISLAND_STREAM)),
      m_capabilityRng(Stream(params.seed, CAPABILITY_STREAM)),
      m_accessDelay(WholeNanoseconds(params.accessDelay))
{
    m_topology.SetSource(SOURCE);
    m_topology.SetName(params.family + "-" + Text(params.cities) + "-seed" + Text(params.seed));
    m_topology.SetDescription("generated by WanTopologyGenerator: " + Describe(params));
}

void
WanTopologyGenerator::BuildGeometric()
{
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
    // Evenly spaced longitudes, each shifted east by up to half a slot, so that consecutive
    // cities stay in order while the links' lengths differ.
    const int64_t n = m_params.cities;
    const int64_t slot = 360 * MICRO / n;
    for (int64_t i = 0; i < n; ++i)
    {
        const int64_t lat = Between(m_placeRng, RING.latLow * MICRO, RING.latHigh * MICRO);
        const int64_t lon = -180 * MICRO + 360 * MICRO * i / n + Between(m_placeRng, 0, slot / 2);
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
    for (uint32_t pair : Sample(m_placeRng, pairs, std::min(m_params.crossLinks, pairs)))
    {
        Link(west[pair / east.size()], east[pair % east.size()]);
    }
}

void
WanTopologyGenerator::BuildBackbone()
{
    const uint32_t backbone = BackboneSize(m_params);
    const int64_t span = int64_t{BACKBONE.lonHigh - BACKBONE.lonLow} * MICRO;
    for (uint32_t i = 0; i < backbone; ++i)
    {
        const int64_t lon =
            BACKBONE.lonLow * MICRO + (backbone > 1 ? span * i / (backbone - 1) : 0);
        AddCity('B', Between(m_placeRng, BACKBONE.latLow * MICRO, BACKBONE.latHigh * MICRO), lon);
    }
    for (uint32_t i = 0; i + 1 < backbone; ++i)
    {
        Link(i, i + 1);
    }
    for (uint32_t spur = 0; spur + backbone < m_params.cities; ++spur)
    {
        const WanCity& anchor = m_topology.GetCities()[spur % backbone];
        const int64_t lat = std::llround(anchor.latitude * MICRO) +
                            Between(m_placeRng, -SPUR_RADIUS * MICRO, SPUR_RADIUS * MICRO);
        const int64_t lon = std::llround(anchor.longitude * MICRO) +
                            Between(m_placeRng, -SPUR_RADIUS * MICRO, SPUR_RADIUS * MICRO);
        const uint32_t city = AddCity('M', lat, std::max(-180 * MICRO, std::min(180 * MICRO, lon)));
        Link(spur % backbone, city);
    }
}

// ---------------------------------------------------------------------------------------------
// Islands and capabilities

void
WanTopologyGenerator::AddIslands()
{
    const auto& cities = m_topology.GetCities();
    for (uint32_t c = 0; c < cities.size(); ++c)
    {
        const uint32_t count =
            m_params.maxIslandsPerCity == 0
                ? m_params.islandsPerCity
                : static_cast<uint32_t>(
                      Between(m_islandRng, m_params.islandsPerCity, m_params.maxIslandsPerCity));
        for (uint32_t i = 0; i < count; ++i)
        {
            WanIsland island;
            island.name = cities[c].code + "-" + Text(i);
            island.city = c;
            island.accessBps = DrawRate(m_islandRng, m_params.accessBps, m_params.accessBpsMax);
            island.accessDelay = m_accessDelay;
            m_topology.AddIsland(island);
        }
    }
}

void
WanTopologyGenerator::AssignCapabilities()
{
    const uint32_t n = m_params.cities;
    m_caps.assign(n, WanCapabilities());
    for (uint32_t c : Sample(m_capabilityRng, n, RoundedShare(m_params.multicastFraction, n)))
    {
        m_caps[c].multicast = true;
    }
    for (uint32_t c : Sample(m_capabilityRng, n, RoundedShare(m_params.fpgaFraction, n)))
    {
        m_caps[c].fpga = true;
    }
}

// ---------------------------------------------------------------------------------------------
// Building blocks

void
WanTopologyGenerator::LinkNearest(const std::vector<uint32_t>& group)
{
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
    const uint32_t index = m_topology.GetCities().size();
    std::string number = Text(index);
    const std::size_t width = std::max<std::size_t>(2, Text(m_params.cities - 1).size());
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
    const Region& r = LAND[Below(m_placeRng, sizeof(LAND) / sizeof(LAND[0]))];
    return AddCityIn(prefix, r.latLow, r.latHigh, r.lonLow, r.lonHigh);
}

uint32_t
WanTopologyGenerator::AddCityIn(char prefix, int latLow, int latHigh, int lonLow, int lonHigh)
{
    const int64_t lat = Between(m_placeRng, latLow * MICRO, latHigh * MICRO);
    const int64_t lon = Between(m_placeRng, lonLow * MICRO, lonHigh * MICRO);
    return AddCity(prefix, lat, lon);
}

void
WanTopologyGenerator::Link(uint32_t a, uint32_t b)
{
    if (!m_linked.insert({std::min(a, b), std::max(a, b)}).second)
    {
        return; // already linked: k-nearest is often mutual
    }
    WanLink link;
    link.a = a;
    link.b = b;
    link.bps = DrawRate(m_wanRateRng, m_params.wanBps, m_params.wanBpsMax);
    link.delay = WholeNanoseconds(m_topology.DefaultLinkDelay(a, b, m_params.routeFactor));
    m_topology.AddLink(link);
}

double
WanTopologyGenerator::Distance(uint32_t a, uint32_t b) const
{
    const WanCity& ca = m_topology.GetCities()[a];
    const WanCity& cb = m_topology.GetCities()[b];
    return WanTopology::GreatCircleKm(ca.latitude, ca.longitude, cb.latitude, cb.longitude);
}

} // namespace ns3
