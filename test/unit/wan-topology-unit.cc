/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest units for WanTopology's pure functions: great-circle distances, default link
 * delays, rate and delay parsing, rate formatting and capability sets.
 */

#include "ns3/wan-input-error.h"
#include "ns3/wan-topology.h"

#include <gtest/gtest.h>
#include <limits>
#include <string>

using ns3::WanCapabilities;
using ns3::WanCity;
using ns3::WanTopology;
using ns3::WanTopologyError;

namespace
{

/** A city's coordinates as FACTS.md section 2 gives them. */
struct Coordinates
{
    const char* code; //!< city code
    double lat;       //!< latitude, degrees
    double lon;       //!< longitude, degrees
};

const Coordinates NYC{"NYC", 40.7128, -74.0060};
const Coordinates LAX{"LAX", 34.0522, -118.2437};
const Coordinates LON{"LON", 51.5074, -0.1278};
const Coordinates AMS{"AMS", 52.3676, 4.9041};
const Coordinates FRA{"FRA", 50.1109, 8.6821};
const Coordinates TYO{"TYO", 35.6762, 139.6503};
const Coordinates SEO{"SEO", 37.5665, 126.9780};
const Coordinates SIN{"SIN", 1.3521, 103.8198};
const Coordinates BUE{"BUE", -34.6037, -58.3816};

/** One row of FACTS.md's link table: great-circle km and the suggested 1.3 x delay. */
struct FactsLink
{
    Coordinates a;  //!< one end
    Coordinates b;  //!< other end
    double km;      //!< great-circle distance, km
    double delayMs; //!< suggested one-way delay, ms
};

/** The 11 links of the nine-city set, typed from FACTS.md section 2. */
const FactsLink FACTS_LINKS[] = {
    {SEO, TYO, 1149, 7.3},
    {TYO, LAX, 8819, 56.1},
    {TYO, SIN, 5311, 33.8},
    {SIN, LAX, 14121, 89.9},
    {SIN, FRA, 10258, 65.3},
    {LAX, NYC, 3936, 25.1},
    {NYC, BUE, 8526, 54.3},
    {NYC, LON, 5570, 35.5},
    {LON, AMS, 358, 2.3},
    {LON, FRA, 638, 4.1},
    {AMS, FRA, 363, 2.3},
};

/** Runs \p f and returns the WanTopologyError message, or "" if nothing was thrown. */
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const WanTopologyError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(WanTopologyGeometry, GreatCircleMatchesFactsTable)
{
    for (const auto& link : FACTS_LINKS)
    {
        const double km =
            WanTopology::GreatCircleKm(link.a.lat, link.a.lon, link.b.lat, link.b.lon);
        // FACTS rounds to whole km, so 1 km is the tolerance.
        EXPECT_NEAR(km, link.km, 1.0) << link.a.code << "-" << link.b.code;
    }
}

TEST(WanTopologyGeometry, GreatCircleBasics)
{
    EXPECT_DOUBLE_EQ(WanTopology::GreatCircleKm(10, 20, 10, 20), 0.0);
    // A quarter of the equator: pi/2 x 6371 km.
    EXPECT_NEAR(WanTopology::GreatCircleKm(0, 0, 0, 90), 6371.0 * 3.14159265358979 / 2, 1e-6);
    // Antipodes: half the circumference, no NaN from rounding.
    EXPECT_NEAR(WanTopology::GreatCircleKm(0, 0, 0, 180), 6371.0 * 3.14159265358979, 1e-6);
    // Symmetric.
    EXPECT_DOUBLE_EQ(WanTopology::GreatCircleKm(NYC.lat, NYC.lon, LON.lat, LON.lon),
                     WanTopology::GreatCircleKm(LON.lat, LON.lon, NYC.lat, NYC.lon));
}

TEST(WanTopologyGeometry, DefaultLinkDelayMatchesFactsTable)
{
    for (const auto& link : FACTS_LINKS)
    {
        WanTopology topology;
        WanCity a;
        a.code = link.a.code;
        a.latitude = link.a.lat;
        a.longitude = link.a.lon;
        WanCity b;
        b.code = link.b.code;
        b.latitude = link.b.lat;
        b.longitude = link.b.lon;
        const uint32_t ia = topology.AddCity(a);
        const uint32_t ib = topology.AddCity(b);
        const double ms = topology.DefaultLinkDelay(ia, ib, 1.3) * 1e3;
        // FACTS gives the delay to 0.1 ms.
        EXPECT_NEAR(ms, link.delayMs, 0.1) << link.a.code << "-" << link.b.code;
    }
}

TEST(WanTopologyGeometry, FibreSpeed)
{
    // c / 1.468 in km/s, written independently.
    EXPECT_NEAR(WanTopology::FIBRE_KM_PER_S, 204218.295640327, 1e-6);
}

TEST(WanTopologyRate, Units)
{
    EXPECT_EQ(WanTopology::ParseRate("7bps", "f"), 7u);
    EXPECT_EQ(WanTopology::ParseRate("10Kbps", "f"), 10000u);
    EXPECT_EQ(WanTopology::ParseRate("10kbps", "f"), 10000u);
    EXPECT_EQ(WanTopology::ParseRate("2.5Mbps", "f"), 2500000u);
    EXPECT_EQ(WanTopology::ParseRate("100Gbps", "f"), 100000000000u);
    EXPECT_EQ(WanTopology::ParseRate("1.6Tbps", "f"), 1600000000000u);
    EXPECT_EQ(WanTopology::ParseRate("100 Gbps", "f"), 100000000000u);
    EXPECT_EQ(WanTopology::ParseRate("1e3Mbps", "f"), 1000000000u);
    EXPECT_EQ(WanTopology::ParseRate("+10Gbps", "f"), 10000000000u);
    EXPECT_EQ(WanTopology::ParseRate(".5Gbps", "f"), 500000000u);
}

TEST(WanTopologyRate, Errors)
{
    struct Case
    {
        const char* text;    //!< input
        const char* problem; //!< expected part of the message
    };

    const Case cases[] = {
        {"", "expected a number and a unit"},
        {"Gbps", "expected a number and a unit"},
        {"inf Gbps", "expected a number and a unit"},
        {"nanGbps", "expected a number and a unit"},
        {"100", "unknown rate unit"},
        {"100gbps", "unknown rate unit"},
        {"100Gbit", "unknown rate unit"},
        {"100Gbps ", "unknown rate unit"},
        {"10Gbps5", "unknown rate unit"},
        {"-5Gbps", "must be positive"},
        {"0Gbps", "must be positive"},
        {"0.4bps", "must be positive"},
        {"1e10Tbps", "too large"},
    };
    for (const auto& c : cases)
    {
        const std::string message =
            ErrorOf([&c]() { WanTopology::ParseRate(c.text, "x.json: links[3].bandwidth"); });
        EXPECT_NE(message.find("x.json: links[3].bandwidth: \"" + std::string(c.text) + "\""),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find(c.problem), std::string::npos) << message;
    }
}

TEST(WanTopologyRate, Format)
{
    EXPECT_EQ(WanTopology::FormatRate(100000000000u), "100Gbps");
    EXPECT_EQ(WanTopology::FormatRate(2000000000000u), "2Tbps");
    EXPECT_EQ(WanTopology::FormatRate(2500000000u), "2500Mbps");
    EXPECT_EQ(WanTopology::FormatRate(1000u), "1Kbps");
    EXPECT_EQ(WanTopology::FormatRate(7u), "7bps");
    EXPECT_EQ(WanTopology::FormatRate(1001u), "1001bps");
    // Every formatted rate parses back to itself.
    for (uint64_t bps : {1ULL, 999ULL, 1000ULL, 123456789ULL, 40000000000ULL, 3000000000000ULL})
    {
        EXPECT_EQ(WanTopology::ParseRate(WanTopology::FormatRate(bps), "f"), bps);
    }
}

TEST(WanTopologyDelay, Units)
{
    EXPECT_DOUBLE_EQ(WanTopology::ParseDelay("2s", "f"), 2.0);
    EXPECT_DOUBLE_EQ(WanTopology::ParseDelay("7.3ms", "f"), 7.3e-3);
    EXPECT_DOUBLE_EQ(WanTopology::ParseDelay("50us", "f"), 50e-6);
    EXPECT_DOUBLE_EQ(WanTopology::ParseDelay("500ns", "f"), 500e-9);
    EXPECT_DOUBLE_EQ(WanTopology::ParseDelay("0ms", "f"), 0.0);
    EXPECT_DOUBLE_EQ(WanTopology::ParseDelay("1.5 ms", "f"), 1.5e-3);
}

TEST(WanTopologyDelay, Errors)
{
    struct Case
    {
        const char* text;    //!< input
        const char* problem; //!< expected part of the message
    };

    const Case cases[] = {
        {"", "expected a number and a unit"},
        {"ms", "expected a number and a unit"},
        {"5", "unknown delay unit"},
        {"5min", "unknown delay unit"},
        {"5 MS", "unknown delay unit"},
        {"-1ms", "must not be negative"},
    };
    for (const auto& c : cases)
    {
        const std::string message =
            ErrorOf([&c]() { WanTopology::ParseDelay(c.text, "x.json: links[0].delay"); });
        EXPECT_NE(message.find("x.json: links[0].delay: \"" + std::string(c.text) + "\""),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find(c.problem), std::string::npos) << message;
    }
}

TEST(WanCapabilitiesUnit, ParseAndToString)
{
    const WanCapabilities none = WanCapabilities::Parse("none", "f");
    EXPECT_FALSE(none.multicast);
    EXPECT_FALSE(none.fpga);
    const WanCapabilities multicast = WanCapabilities::Parse("multicast", "f");
    EXPECT_TRUE(multicast.multicast);
    EXPECT_FALSE(multicast.fpga);
    const WanCapabilities fpga = WanCapabilities::Parse("fpga", "f");
    EXPECT_FALSE(fpga.multicast);
    EXPECT_TRUE(fpga.fpga);
    const WanCapabilities both = WanCapabilities::Parse("both", "f");
    EXPECT_TRUE(both.multicast);
    EXPECT_TRUE(both.fpga);
    for (const char* name : {"none", "multicast", "fpga", "both"})
    {
        EXPECT_EQ(WanCapabilities::Parse(name, "f").ToString(), name);
    }
    EXPECT_TRUE(both == WanCapabilities::Parse("both", "g"));
    EXPECT_FALSE(both == fpga);
}

TEST(WanCapabilitiesUnit, Errors)
{
    for (const char* bad : {"fast", "", "Both", "multicast,fpga", " none"})
    {
        const std::string message =
            ErrorOf([bad]() { WanCapabilities::Parse(bad, "--capabilities"); });
        EXPECT_NE(message.find("--capabilities: \"" + std::string(bad) + "\""), std::string::npos)
            << message;
        EXPECT_NE(message.find("expected none|multicast|fpga|both"), std::string::npos) << message;
    }
}

// Input rules of doc/input-rules.rst that the parsers and the Add functions enforce.

TEST(WanTopologyDelay, RejectsBeyondTimeRange)
{
    // ns-3's Time holds 2^63 ns (292 years); 1e300 s used to pass and overflow later.
    for (const char* text : {"1e300s", "1e10s", "1e22ns"})
    {
        const std::string message =
            ErrorOf([text]() { WanTopology::ParseDelay(text, "x.json: links[0].delay"); });
        EXPECT_NE(message.find("x.json: links[0].delay: \"" + std::string(text) + "\""),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find("too large for ns-3's Time"), std::string::npos) << message;
    }
    EXPECT_DOUBLE_EQ(WanTopology::ParseDelay("9e9s", "f"), 9e9);
}

namespace
{

/** \return a topology of two cities, A and B, without islands or links */
WanTopology
TwoCities()
{
    WanTopology t;
    t.AddCity(WanCity{"A", "A", 0, 0, {}});
    t.AddCity(WanCity{"B", "B", 0, 1, {}});
    return t;
}

} // namespace

TEST(WanTopologyBuild, RejectsLinkDelayBeyondTheMaximum)
{
    WanTopology t = TwoCities();
    const std::string message = ErrorOf([&t]() { t.AddLink(ns3::WanLink{0, 1, 1000, 1e300}); });
    EXPECT_NE(message.find("WanTopology: links[0].delay: 1e+300: must be at most 1000 s"),
              std::string::npos)
        << message;
}

TEST(WanTopologyBuild, RejectsInfiniteAccessDelay)
{
    WanTopology t = TwoCities();
    const double inf = std::numeric_limits<double>::infinity();
    const std::string message = ErrorOf([&t, inf]() {
        t.AddIsland(ns3::WanIsland{"i", 0, 1000, inf});
    });
    EXPECT_NE(message.find("WanTopology: islands[0].accessDelay: inf: must be finite"),
              std::string::npos)
        << message;
}

TEST(WanTopologyBuild, RejectsMoreIslandsThanTheBitmapHolds)
{
    WanTopology t = TwoCities();
    for (uint32_t i = 0; i < 1024; ++i)
    {
        t.AddIsland(ns3::WanIsland{"i" + std::to_string(i), 0, 1000, 0});
    }
    const std::string message = ErrorOf([&t]() {
        t.AddIsland(ns3::WanIsland{"i1024", 1, 1000, 0});
    });
    EXPECT_NE(message.find("WanTopology: islands[1024]: \"i1024\": more than 1024 islands"),
              std::string::npos)
        << message;
}

TEST(WanTopologyBuild, RejectsNamesOutputFormatsCannotCarry)
{
    struct Case
    {
        std::string name;  //!< the island name
        std::string shown; //!< how the message quotes it
    };

    const Case cases[] = {
        {"a,b", "\"a,b\""},
        {"a\"b", "\"a\\\"b\""},
        {"a\\b", "\"a\\\\b\""},
        {std::string("a\x01") + "b", "\"a\\u0001b\""},
        {"a\x7f", "\"a\\u007f\""},     // DEL: JSON leaves it raw, the message does not
        {"a\xc2\x85", "\"a\\u0085\""}, // a C1 control (U+0085) in UTF-8
    };
    for (const auto& c : cases)
    {
        WanTopology t = TwoCities();
        const std::string message = ErrorOf([&t, &c]() {
            t.AddIsland(ns3::WanIsland{c.name, 0, 1000, 0});
        });
        EXPECT_NE(message.find("WanTopology: islands[0].name: " + c.shown + ": "),
                  std::string::npos)
            << message;
    }
    // What the shipped files use stays valid: blanks, dashes, dots, parentheses, UTF-8.
    WanTopology t = TwoCities();
    EXPECT_NO_THROW(t.AddCity(WanCity{"SAO", "S\xc3\xa3o Paulo (BR) - 1.0", 0, 2, {}}));
}

// Messages quote values as JSON strings and never carry a raw control character: C0 with
// JSON's short escapes, DEL and the C1 range (U+0080..U+009F, two bytes in UTF-8) as \u00XX;
// other UTF-8 (U+00A0 and up) stays as it is.
TEST(WanInputError, QuoteAndEscape)
{
    using ns3::WanInputError;
    EXPECT_EQ(WanInputError::Quote("plain"), "\"plain\"");
    EXPECT_EQ(WanInputError::Quote(""), "\"\"");
    EXPECT_EQ(WanInputError::Quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
    EXPECT_EQ(WanInputError::Quote("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
    EXPECT_EQ(WanInputError::Quote(std::string("a\0b", 3)), "\"a\\u0000b\"");
    EXPECT_EQ(WanInputError::Quote("\x1b[31m"), "\"\\u001b[31m\"");
    EXPECT_EQ(WanInputError::Quote("x\x7f"), "\"x\\u007f\"");
    EXPECT_EQ(WanInputError::Quote("\xc2\x80\xc2\x9f"), "\"\\u0080\\u009f\"");
    // U+00A0 (0xc2 0xa0, after the C1 range) and U+00E3 are not controls.
    EXPECT_EQ(WanInputError::Quote("\xc2\xa0S\xc3\xa3o"), "\"\xc2\xa0S\xc3\xa3o\"");
    // A lone lead byte at the end is left for the terminal to show.
    EXPECT_EQ(WanInputError::Quote("\xc2"), "\"\xc2\"");
    // Escape: the same escapes, no quotes added, quotes and backslashes as they are.
    EXPECT_EQ(WanInputError::Escape("a\"b\\c"), "a\"b\\c");
    EXPECT_EQ(WanInputError::Escape("1\x7f\n"), "1\\u007f\\n");
}

// Every capability-set name reads back to the flags it names and prints as itself; the names
// with transit are the edge set followed by "+transit", or "transit" alone.
TEST(WanCapabilities, NamesRoundTrip)
{
    struct Case
    {
        const char* name;
        bool multicast;
        bool fpga;
        bool transit;
    };

    const Case cases[] = {
        {"none", false, false, false},
        {"multicast", true, false, false},
        {"fpga", false, true, false},
        {"both", true, true, false},
        {"transit", false, false, true},
        {"multicast+transit", true, false, true},
        {"fpga+transit", false, true, true},
        {"both+transit", true, true, true},
    };
    for (const Case& c : cases)
    {
        const ns3::WanCapabilities caps = ns3::WanCapabilities::Parse(c.name, "f");
        EXPECT_EQ(caps.multicast, c.multicast) << c.name;
        EXPECT_EQ(caps.fpga, c.fpga) << c.name;
        EXPECT_EQ(caps.transit, c.transit) << c.name;
        EXPECT_EQ(caps.ToString(), c.name);
    }
    for (const char* bad : {"none+transit", "+transit", "transit+both", "all", "", "both+"})
    {
        const std::string message = ErrorOf([bad]() { ns3::WanCapabilities::Parse(bad, "f"); });
        EXPECT_NE(message.find(std::string("f: \"") + bad + "\": expected"), std::string::npos)
            << message;
    }
}
