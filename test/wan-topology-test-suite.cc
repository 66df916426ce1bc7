/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of WanTopology (JSON loading, validation, round trip, capability overrides) and of the
 * shared command line WanCommandLine.
 */

// ctest-suite: wan-topology

#include "ns3/results-folder.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-topology-json.h"
#include "ns3/wan-topology.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** The source name passed to WanTopology::Parse in the rejection cases. */
const char BAD_SOURCE[] = "test/bad.json";

/** Runs \p f and returns the message of the std::exception it throws, or "" if none. */
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const std::exception& e)
    {
        return e.what();
    }
    return "";
}

/** \param haystack text \param needle text \return true if \p needle occurs in \p haystack */
bool
Contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

/** A link of FACTS.md section 2 and its suggested one-way delay (1.3 x fibre minimum). */
struct FactsDelay
{
    const char* a;  //!< one end
    const char* b;  //!< other end
    double delayMs; //!< FACTS' "1.3 x" column, ms
};

/** FACTS.md's table, typed in: the file's links must come out with these delays. */
const FactsDelay FACTS_DELAYS[] = {
    {"SEO", "TYO", 7.3},
    {"TYO", "LAX", 56.1},
    {"TYO", "SIN", 33.8},
    {"SIN", "LAX", 89.9},
    {"SIN", "FRA", 65.3},
    {"LAX", "NYC", 25.1},
    {"NYC", "BUE", 54.3},
    {"NYC", "LON", 35.5},
    {"LON", "AMS", 2.3},
    {"LON", "FRA", 4.1},
    {"AMS", "FRA", 2.3},
};

/** Finds the link between two cities, either way round; fails the test if absent. */
const WanLink*
FindLink(const WanTopology& t, const std::string& a, const std::string& b)
{
    const uint32_t ia = t.GetCityIndex(a);
    const uint32_t ib = t.GetCityIndex(b);
    for (const auto& link : t.GetLinks())
    {
        if ((link.a == ia && link.b == ib) || (link.a == ib && link.b == ia))
        {
            return &link;
        }
    }
    return nullptr;
}

/** Builds an argv for CommandLine::Parse from strings that outlive it. */
class Argv
{
  public:
    /** \param args the arguments, program name first */
    Argv(std::initializer_list<std::string> args)
        : m_args(args)
    {
        for (auto& arg : m_args)
        {
            m_pointers.push_back(&arg[0]);
        }
        m_pointers.push_back(nullptr);
    }

    /** \return argc */
    int Count() const
    {
        return static_cast<int>(m_args.size());
    }

    /** \return argv */
    char** Get()
    {
        return m_pointers.data();
    }

  private:
    std::vector<std::string> m_args; //!< storage
    std::vector<char*> m_pointers;   //!< argv
};

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief data/topologies/doublezero-9.json loads with the FACTS cities, links and delays.
 */
class WanTopologyDoubleZeroTestCase : public TestCase
{
  public:
    WanTopologyDoubleZeroTestCase()
        : TestCase("doublezero-9.json: counts, fields and FACTS delays")
    {
    }

  private:
    void DoRun() override
    {
        const WanTopology t = WanTopologyJson::LoadFile(
            WanCommandLine::ResolveDataPath("data/topologies/doublezero-9.json"));
        NS_TEST_ASSERT_MSG_EQ(t.GetName(), "doublezero-9", "name");
        NS_TEST_ASSERT_MSG_EQ(t.GetCities().size(), 9, "nine cities");
        NS_TEST_ASSERT_MSG_EQ(t.GetIslands().size(), 9, "one island per city");
        NS_TEST_ASSERT_MSG_EQ(t.GetLinks().size(), 11, "eleven links");

        const WanCity& nyc = t.GetCities()[t.GetCityIndex("NYC")];
        NS_TEST_ASSERT_MSG_EQ(nyc.name, "New York", "NYC name");
        NS_TEST_ASSERT_MSG_EQ(nyc.latitude, 40.7128, "NYC latitude");
        NS_TEST_ASSERT_MSG_EQ(nyc.longitude, -74.0060, "NYC longitude");
        const WanCity& bue = t.GetCities()[t.GetCityIndex("BUE")];
        NS_TEST_ASSERT_MSG_EQ(bue.latitude, -34.6037, "BUE latitude");
        NS_TEST_ASSERT_MSG_EQ(bue.longitude, -58.3816, "BUE longitude");
        for (const auto& city : t.GetCities())
        {
            NS_TEST_ASSERT_MSG_EQ(city.caps.multicast, true, city.code << " multicast");
            NS_TEST_ASSERT_MSG_EQ(city.caps.fpga, true, city.code << " fpga");
        }
        for (const auto& island : t.GetIslands())
        {
            const std::string expected = t.GetCities()[island.city].code + "-0";
            NS_TEST_ASSERT_MSG_EQ(island.name, expected, "default island name");
            NS_TEST_ASSERT_MSG_EQ(island.accessBps, 10000000000ULL, "10 Gbps access");
            NS_TEST_ASSERT_MSG_EQ_TOL(island.accessDelay, 50e-6, 1e-15, "50 us access");
        }
        for (const auto& row : FACTS_DELAYS)
        {
            const WanLink* link = FindLink(t, row.a, row.b);
            NS_TEST_ASSERT_MSG_NE(link, nullptr, row.a << "-" << row.b << " present");
            NS_TEST_ASSERT_MSG_EQ(link->bps, 100000000000ULL, "100 Gbps WAN link");
            NS_TEST_ASSERT_MSG_EQ_TOL(link->delay * 1e3,
                                      row.delayMs,
                                      0.1,
                                      row.a << "-" << row.b << " delay vs FACTS");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief data/topologies/dense-9.json loads with its city set and 16 links.
 */
class WanTopologyDenseTestCase : public TestCase
{
  public:
    WanTopologyDenseTestCase()
        : TestCase("dense-9.json: counts and fields")
    {
    }

  private:
    void DoRun() override
    {
        const WanTopology t = WanTopologyJson::LoadFile(
            WanCommandLine::ResolveDataPath("data/topologies/dense-9.json"));
        NS_TEST_ASSERT_MSG_EQ(t.GetName(), "dense-9", "name");
        NS_TEST_ASSERT_MSG_EQ(t.GetCities().size(), 9, "nine cities");
        NS_TEST_ASSERT_MSG_EQ(t.GetIslands().size(), 9, "nine islands");
        NS_TEST_ASSERT_MSG_EQ(t.GetLinks().size(), 16, "sixteen links");
        const char* codes[] = {"NYC", "CHI", "LAX", "LON", "AMS", "FRA", "TYO", "SIN", "HKG"};
        for (uint32_t i = 0; i < 9; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(t.GetCities()[i].code, codes[i], "city order");
        }
        const WanCity& hkg = t.GetCities()[t.GetCityIndex("HKG")];
        NS_TEST_ASSERT_MSG_EQ(hkg.latitude, 22.3193, "HKG latitude");
        NS_TEST_ASSERT_MSG_EQ(hkg.longitude, 114.1694, "HKG longitude");
        const WanCity& chi = t.GetCities()[t.GetCityIndex("CHI")];
        NS_TEST_ASSERT_MSG_EQ(chi.latitude, 41.8781, "CHI latitude");
        NS_TEST_ASSERT_MSG_EQ(chi.longitude, -87.6298, "CHI longitude");
        // NYC-CHI by hand: haversine 1144.3 km / 204218.3 km/s x 1.3 = 7.284 ms.
        const WanLink* nycChi = FindLink(t, "NYC", "CHI");
        NS_TEST_ASSERT_MSG_NE(nycChi, nullptr, "NYC-CHI present");
        NS_TEST_ASSERT_MSG_EQ_TOL(nycChi->delay * 1e3, 7.284, 0.01, "NYC-CHI delay");
        NS_TEST_ASSERT_MSG_EQ(nycChi->bps, 100000000000ULL, "100 Gbps");
        // Every city has at least two links, so no single link failure isolates a city.
        std::vector<uint32_t> degree(9, 0);
        for (const auto& link : t.GetLinks())
        {
            ++degree[link.a];
            ++degree[link.b];
        }
        for (uint32_t i = 0; i < 9; ++i)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(degree[i], 2, codes[i] << " degree");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief One invalid document: Parse must throw a message naming the source, field and value.
 */
class WanTopologyRejectTestCase : public TestCase
{
  public:
    /**
     * \param name what is wrong \param text the JSON document
     * \param expected substrings the message must contain (besides the source)
     */
    WanTopologyRejectTestCase(const std::string& name,
                              const std::string& text,
                              const std::vector<std::string>& expected)
        : TestCase("rejects " + name),
          m_text(text),
          m_expected(expected)
    {
    }

  private:
    void DoRun() override
    {
        const std::string message =
            ErrorOf([this]() { WanTopologyJson::Parse(m_text, BAD_SOURCE); });
        NS_TEST_ASSERT_MSG_EQ(message.empty(), false, "must throw");
        NS_TEST_ASSERT_MSG_EQ(message.rfind(std::string(BAD_SOURCE) + ": ", 0),
                              0,
                              "starts with the source: " << message);
        for (const auto& part : m_expected)
        {
            NS_TEST_ASSERT_MSG_EQ(Contains(message, part),
                                  true,
                                  "message '" << message << "' lacks '" << part << "'");
        }
    }

    std::string m_text;                  //!< document
    std::vector<std::string> m_expected; //!< substrings of the message
};

/**
 * \ingroup wan-training-tests
 * \brief LoadFile names a file it cannot open, and a file's syntax error by line and column.
 */
class WanTopologyFileErrorTestCase : public TestCase
{
  public:
    WanTopologyFileErrorTestCase()
        : TestCase("LoadFile: missing file and syntax error position")
    {
    }

  private:
    void DoRun() override
    {
        std::string message = ErrorOf([]() { WanTopologyJson::LoadFile("no/such/file.json"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(message, "no/such/file.json: cannot open"), true, message);

        const auto path = std::filesystem::temp_directory_path() / "wan-topology-syntax.json";
        {
            std::ofstream out(path);
            // The stray ']' is line 4, column 3.
            out << "{\n  \"cities\": [\n    {\"code\": \"NYC\"},\n  ]\n}\n";
        }
        message = ErrorOf([&path]() { WanTopologyJson::LoadFile(path.string()); });
        std::filesystem::remove(path);
        NS_TEST_ASSERT_MSG_EQ(Contains(message, path.string() + ": line 4, column 3: invalid JSON"),
                              true,
                              message);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Parse(ToJson()) gives back the same topology, value for value.
 */
class WanTopologyRoundTripTestCase : public TestCase
{
  public:
    WanTopologyRoundTripTestCase()
        : TestCase("ToJson round trip")
    {
    }

  private:
    void DoRun() override
    {
        WanTopology t = WanTopologyJson::LoadFile(
            WanCommandLine::ResolveDataPath("data/topologies/doublezero-9.json"));
        // Make it irregular, so defaults cannot stand in for written values.
        t.ApplyCityCapabilities("NYC:none,SIN:multicast,TYO:fpga");
        WanIsland extra;
        extra.name = "TYO-1";
        extra.city = t.GetCityIndex("TYO");
        extra.accessBps = 2500000001ULL; // not a round number of any unit
        extra.accessDelay = 1.0 / 3.0 * 1e-4;
        t.AddIsland(extra);
        t.SetDescription("round \"trip\"\nwith escapes");

        const std::string json = WanTopologyJson::ToJson(t);
        const WanTopology u = WanTopologyJson::Parse(json, "round-trip");
        NS_TEST_ASSERT_MSG_EQ(u.GetName(), t.GetName(), "name");
        NS_TEST_ASSERT_MSG_EQ(u.GetDescription(), t.GetDescription(), "description");
        NS_TEST_ASSERT_MSG_EQ(u.GetCities().size(), t.GetCities().size(), "city count");
        for (std::size_t i = 0; i < t.GetCities().size(); ++i)
        {
            const WanCity& a = t.GetCities()[i];
            const WanCity& b = u.GetCities()[i];
            NS_TEST_ASSERT_MSG_EQ(b.code, a.code, "code");
            NS_TEST_ASSERT_MSG_EQ(b.name, a.name, "name");
            NS_TEST_ASSERT_MSG_EQ(b.latitude, a.latitude, "latitude exact");
            NS_TEST_ASSERT_MSG_EQ(b.longitude, a.longitude, "longitude exact");
            NS_TEST_ASSERT_MSG_EQ((b.caps == a.caps), true, a.code << " capabilities");
        }
        NS_TEST_ASSERT_MSG_EQ(u.GetIslands().size(), 10, "island count");
        for (std::size_t i = 0; i < t.GetIslands().size(); ++i)
        {
            const WanIsland& a = t.GetIslands()[i];
            const WanIsland& b = u.GetIslands()[i];
            NS_TEST_ASSERT_MSG_EQ(b.name, a.name, "island name");
            NS_TEST_ASSERT_MSG_EQ(b.city, a.city, "island city");
            NS_TEST_ASSERT_MSG_EQ(b.accessBps, a.accessBps, "access rate exact");
            NS_TEST_ASSERT_MSG_EQ(b.accessDelay, a.accessDelay, "access delay exact");
        }
        NS_TEST_ASSERT_MSG_EQ(u.GetLinks().size(), 11, "link count");
        for (std::size_t i = 0; i < t.GetLinks().size(); ++i)
        {
            const WanLink& a = t.GetLinks()[i];
            const WanLink& b = u.GetLinks()[i];
            NS_TEST_ASSERT_MSG_EQ(b.a, a.a, "link a");
            NS_TEST_ASSERT_MSG_EQ(b.b, a.b, "link b");
            NS_TEST_ASSERT_MSG_EQ(b.bps, a.bps, "link rate exact");
            NS_TEST_ASSERT_MSG_EQ(b.delay, a.delay, "link delay exact");
        }
        NS_TEST_ASSERT_MSG_EQ(WanTopologyJson::ToJson(u), json, "second round identical");
        // The document is independent of the built-in defaults: a city says "fpga": false.
        NS_TEST_ASSERT_MSG_EQ(Contains(json, "\"fpga\": false"), true, "explicit capabilities");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief SetCapabilities and ApplyCityCapabilities, including atomic failure.
 */
class WanTopologyCapabilitiesTestCase : public TestCase
{
  public:
    WanTopologyCapabilitiesTestCase()
        : TestCase("capability overrides")
    {
    }

  private:
    void DoRun() override
    {
        WanTopology t = WanTopologyJson::LoadFile(
            WanCommandLine::ResolveDataPath("data/topologies/doublezero-9.json"));
        t.SetCapabilities(WanCapabilities::Parse("none", "test"));
        for (const auto& city : t.GetCities())
        {
            NS_TEST_ASSERT_MSG_EQ(city.caps.ToString(), "none", "all none");
        }
        t.ApplyCityCapabilities(" NYC:both, SIN:multicast ,TYO:fpga");
        NS_TEST_ASSERT_MSG_EQ(t.GetCities()[t.GetCityIndex("NYC")].caps.ToString(), "both", "");
        NS_TEST_ASSERT_MSG_EQ(t.GetCities()[t.GetCityIndex("SIN")].caps.ToString(),
                              "multicast",
                              "");
        NS_TEST_ASSERT_MSG_EQ(t.GetCities()[t.GetCityIndex("TYO")].caps.ToString(), "fpga", "");
        NS_TEST_ASSERT_MSG_EQ(t.GetCities()[t.GetCityIndex("LON")].caps.ToString(), "none", "");
        t.ApplyCityCapabilities("");
        NS_TEST_ASSERT_MSG_EQ(t.GetCities()[t.GetCityIndex("NYC")].caps.ToString(),
                              "both",
                              "empty list changes nothing");

        std::string message =
            ErrorOf([&t]() { t.ApplyCityCapabilities("LON:both,XYZ:none", "--cityCapabilities"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(message, "--cityCapabilities: \"XYZ\": unknown city"),
                              true,
                              message);
        NS_TEST_ASSERT_MSG_EQ(t.GetCities()[t.GetCityIndex("LON")].caps.ToString(),
                              "none",
                              "a failed override list changes nothing");
        message = ErrorOf([&t]() { t.ApplyCityCapabilities("NYC:fast", "--cityCapabilities"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(message, "--cityCapabilities: NYC: \"fast\": expected"),
                              true,
                              message);
        message = ErrorOf([&t]() { t.ApplyCityCapabilities("NYC", "--cityCapabilities"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(message, "--cityCapabilities: \"NYC\": expected CODE:"),
                              true,
                              message);
        message = ErrorOf([&t]() { t.ApplyCityCapabilities("NYC:both,,SIN:none"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(message, "empty entry"), true, message);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The programmatic API: indices, defaults of DefaultLinkDelay and every AddX rejection.
 */
class WanTopologyBuildTestCase : public TestCase
{
  public:
    WanTopologyBuildTestCase()
        : TestCase("AddCity, AddIsland, AddLink and Validate")
    {
    }

  private:
    void DoRun() override
    {
        WanTopology t;
        WanCity city;
        city.code = "A";
        city.latitude = 0;
        city.longitude = 0;
        NS_TEST_ASSERT_MSG_EQ(t.AddCity(city), 0, "first index");
        city.code = "B";
        city.longitude = 90;
        NS_TEST_ASSERT_MSG_EQ(t.AddCity(city), 1, "second index");
        city.code = "C";
        city.longitude = -90;
        NS_TEST_ASSERT_MSG_EQ(t.AddCity(city), 2, "third index");
        // Quarter of the equator: pi/2 x 6371 km over c/1.468, times 1.
        NS_TEST_ASSERT_MSG_EQ_TOL(t.DefaultLinkDelay(0, 1, 1.0),
                                  3.14159265358979 / 2 * 6371 / (299792.458 / 1.468),
                                  1e-12,
                                  "default delay");

        std::string m = ErrorOf([&t, city]() { t.AddCity(city); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "WanTopology: cities[3].code: \"C\": duplicate"),
                              true,
                              m);
        WanCity bad = city;
        bad.code = "D";
        bad.latitude = -90.5;
        m = ErrorOf([&t, bad]() { t.AddCity(bad); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "cities[3].latitude: -90.5"), true, m);
        bad.code = "D,E";
        bad.latitude = 0;
        m = ErrorOf([&t, bad]() { t.AddCity(bad); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "cities[3].code: \"D,E\""), true, m);

        WanLink link;
        link.a = 0;
        link.b = 1;
        link.bps = 1000;
        link.delay = 0.001;
        NS_TEST_ASSERT_MSG_EQ(t.AddLink(link), 0, "link index");
        WanLink reversed = link;
        reversed.a = 1;
        reversed.b = 0;
        m = ErrorOf([&t, reversed]() { t.AddLink(reversed); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "links[1]: \"B-A\": duplicate of links[0]"), true, m);
        WanLink self = link;
        self.b = 0;
        m = ErrorOf([&t, self]() { t.AddLink(self); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "links[1].b: \"A\": self-link"), true, m);
        WanLink zero = link;
        zero.b = 2;
        zero.bps = 0;
        m = ErrorOf([&t, zero]() { t.AddLink(zero); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "links[1].bandwidth: 0: must be positive"), true, m);
        WanLink negative = link;
        negative.b = 2;
        negative.delay = -1e-3;
        m = ErrorOf([&t, negative]() { t.AddLink(negative); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "links[1].delay: -0.001: must not be negative"), true, m);
        WanLink unknown = link;
        unknown.b = 7;
        m = ErrorOf([&t, unknown]() { t.AddLink(unknown); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "links[1].b: 7: unknown city index"), true, m);

        m = ErrorOf([&t]() { t.Validate(); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "islands: []: at least one island"), true, m);

        WanIsland island;
        island.name = "A-0";
        island.city = 0;
        island.accessBps = 1000;
        NS_TEST_ASSERT_MSG_EQ(t.AddIsland(island), 0, "island index");
        m = ErrorOf([&t, island]() { t.AddIsland(island); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "islands[1].name: \"A-0\": duplicate"), true, m);
        island.name = "C-0";
        island.city = 2;
        island.accessBps = 0;
        m = ErrorOf([&t, island]() { t.AddIsland(island); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "islands[1].accessBandwidth: 0"), true, m);
        island.accessBps = 1000;
        island.city = 9;
        m = ErrorOf([&t, island]() { t.AddIsland(island); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "islands[1].city: 9: unknown city index"), true, m);
        island.city = 2;
        t.AddIsland(island);
        // C has no link yet.
        m = ErrorOf([&t]() { t.Validate(); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "\"A-0\": cannot reach island \"C-0\""), true, m);
        link.a = 2;
        t.AddLink(link);
        t.Validate(); // connected now: C-B-A

        NS_TEST_ASSERT_MSG_EQ(t.GetCityIndex("C"), 2, "lookup");
        m = ErrorOf([&t]() { t.GetCityIndex("Z"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "\"Z\": unknown city code"), true, m);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief WanCommandLine: flags reach the topology, bad values throw naming the flag.
 */
class WanCommandLineTestCase : public TestCase
{
  public:
    WanCommandLineTestCase()
        : TestCase("WanCommandLine flags and validation")
    {
    }

  private:
    /** A body for RunMain that fails. \return never */
    static int Failing(int, char**)
    {
        throw WanTopologyError("boom");
    }

    /** A body for RunMain that succeeds. \return 0 */
    static int Succeeding(int, char**)
    {
        return 0;
    }

    void DoRun() override
    {
        const uint32_t savedSeed = RngSeedManager::GetSeed();
        {
            WanCommandLine cmd("test", "test");
            Argv argv({"prog",
                       "--topology=data/topologies/dense-9.json",
                       "--capabilities=multicast",
                       "--cityCapabilities=HKG:both,NYC:none",
                       "--seed=7",
                       "--output=results/x"});
            cmd.Parse(argv.Count(), argv.Get());
            NS_TEST_ASSERT_MSG_EQ(cmd.GetSeed(), 7, "--seed");
            NS_TEST_ASSERT_MSG_EQ(RngSeedManager::GetSeed(), 7, "RNG seed set");
            NS_TEST_ASSERT_MSG_EQ(cmd.GetOutput(), "results/x", "--output");
            NS_TEST_ASSERT_MSG_EQ(cmd.GetCapabilities(), "multicast", "--capabilities");
            const WanTopology t = cmd.LoadTopology();
            NS_TEST_ASSERT_MSG_EQ(t.GetName(), "dense-9", "--topology");
            NS_TEST_ASSERT_MSG_EQ(t.GetCities()[t.GetCityIndex("HKG")].caps.ToString(), "both", "");
            NS_TEST_ASSERT_MSG_EQ(t.GetCities()[t.GetCityIndex("NYC")].caps.ToString(), "none", "");
            NS_TEST_ASSERT_MSG_EQ(t.GetCities()[t.GetCityIndex("LON")].caps.ToString(),
                                  "multicast",
                                  "");
        }
        {
            // Values with blanks stay whole (ns-3 reads a std::string target with >>, which
            // stopped at the blank: results into "my", a seed of 1).
            WanCommandLine cmd("test", "test");
            Argv argv({"prog", "--output=my results/x", "--queue=50 ms"});
            cmd.Parse(argv.Count(), argv.Get());
            NS_TEST_ASSERT_MSG_EQ(cmd.GetOutput(), "my results/x", "--output with a blank");
            NS_TEST_ASSERT_MSG_EQ(cmd.GetQueue(), "50 ms", "--queue as typed");
            WanCommandLine seeded("test", "test");
            Argv blank({"prog", "--seed=1 5"});
            const std::string message =
                ErrorOf([&seeded, &blank]() { seeded.Parse(blank.Count(), blank.Get()); });
            NS_TEST_ASSERT_MSG_EQ(message.rfind("--seed=1 5: ", 0),
                                  0,
                                  "refused whole: " << message);
        }
        {
            // A sweeping example takes "all": the file's own capabilities stand, per set later.
            WanCommandLine cmd("test", "test");
            cmd.AllowCapabilitySweep();
            Argv argv({"prog", "--capabilities=all"});
            cmd.Parse(argv.Count(), argv.Get());
            NS_TEST_ASSERT_MSG_EQ(cmd.GetCapabilities(), "all", "--capabilities=all");
            const WanTopology t = cmd.LoadTopology();
            NS_TEST_ASSERT_MSG_EQ(t.GetCities()[0].caps.ToString(), "both", "file's own");
        }
        {
            // Defaults: doublezero-9 with its own capabilities, seed 1, the results-folder rule.
            WanCommandLine cmd("test", "test");
            Argv argv({"prog"});
            cmd.Parse(argv.Count(), argv.Get());
            NS_TEST_ASSERT_MSG_EQ(cmd.GetSeed(), 1, "default seed");
            NS_TEST_ASSERT_MSG_EQ(cmd.GetOutput(), "", "default output: the results-folder rule");
            NS_TEST_ASSERT_MSG_EQ(cmd.GetCapabilities(), "", "default capabilities");
            const WanTopology t = cmd.LoadTopology();
            NS_TEST_ASSERT_MSG_EQ(t.GetName(), "doublezero-9", "default topology");
            NS_TEST_ASSERT_MSG_EQ(t.GetCities()[0].caps.ToString(), "both", "file's own");
        }
        {
            // From another working directory the default is found in the module's source.
            const auto saved = std::filesystem::current_path();
            std::filesystem::current_path(std::filesystem::temp_directory_path());
            WanCommandLine cmd("test", "test");
            Argv argv({"prog"});
            std::string name;
            std::string message = ErrorOf([&cmd, &argv, &name]() {
                cmd.Parse(argv.Count(), argv.Get());
                name = cmd.LoadTopology().GetName();
            });
            std::filesystem::current_path(saved);
            NS_TEST_ASSERT_MSG_EQ(message, "", "default topology found from elsewhere");
            NS_TEST_ASSERT_MSG_EQ(name, "doublezero-9", "default topology");
        }

        struct BadFlag
        {
            std::string flag;     //!< the argument
            std::string expected; //!< substring of the message
        };

        const BadFlag bad[] = {
            {"--capabilities=fast", "--capabilities: \"fast\": expected none|multicast|fpga|both"},
            {"--cityCapabilities=XYZ:none", "--cityCapabilities: \"XYZ\": unknown city code"},
            {"--cityCapabilities=NYC:turbo", "--cityCapabilities: NYC: \"turbo\""},
            {"--cityCapabilities=NYC:none,LON:both,NYC:both",
             "--cityCapabilities: \"NYC\": named twice"},
            // Only examples that sweep the sets (AllowCapabilitySweep) take "all".
            {"--capabilities=all", "--capabilities: \"all\": this program runs one capability set"},
            {"--topology=no/such.json", "--topology: no/such.json: cannot open"},
            {"--seed=0", "--seed=0: must be in 1..4294944442"},
            // ns-3's MRG32k3a refuses seeds from its second modulus, 4294944443, up.
            {"--seed=4294944443", "--seed=4294944443: must be in 1..4294944442"},
            {"--seed=4294967295", "--seed=4294967295: must be in 1..4294944442"},
            {"--seed=-1", "--seed=-1: must not be negative"},
        };
        for (const auto& b : bad)
        {
            WanCommandLine cmd("test", "test");
            Argv argv({"prog", b.flag});
            const std::string message = ErrorOf([&cmd, &argv]() {
                cmd.Parse(argv.Count(), argv.Get());
                cmd.LoadTopology();
            });
            NS_TEST_ASSERT_MSG_EQ(Contains(message, b.expected),
                                  true,
                                  b.flag << " gave '" << message << "'");
        }
        {
            // A bad file's message names the flag, the file, the field and the value.
            const auto path = std::filesystem::temp_directory_path() / "wan-cmd-bad.json";
            {
                std::ofstream out(path);
                out << R"({"cities": [{"code": "A", "latitude": 0, "longitude": 0},
                                      {"code": "B", "latitude": 0, "longitude": 1}],
                           "links": [{"a": "A", "b": "B", "bandwidth": "-5Gbps"}]})";
            }
            WanCommandLine cmd("test", "test");
            Argv argv({"prog", "--topology=" + path.string()});
            const std::string message = ErrorOf([&cmd, &argv]() {
                cmd.Parse(argv.Count(), argv.Get());
                cmd.LoadTopology();
            });
            std::filesystem::remove(path);
            const std::string expected = "--topology: " + path.string() +
                                         ": links[0].bandwidth: \"-5Gbps\": must be positive";
            NS_TEST_ASSERT_MSG_EQ(Contains(message, expected), true, message);
        }
        {
            // PrepareOutput creates nested folders, and refuses a file or an impossible path.
            const auto root = std::filesystem::temp_directory_path() / "wan-cmd-output-test";
            std::filesystem::remove_all(root);
            const auto nested = root / "a" / "b";
            WanCommandLine cmd("test", "test");
            Argv argv({"prog", "--output=" + nested.string()});
            cmd.Parse(argv.Count(), argv.Get());
            NS_TEST_ASSERT_MSG_EQ(cmd.PrepareOutput(), nested.string(), "returns the folder");
            NS_TEST_ASSERT_MSG_EQ(std::filesystem::is_directory(nested), true, "created");
            NS_TEST_ASSERT_MSG_EQ(std::filesystem::is_empty(nested), true, "probe removed");

            const auto file = root / "file";
            std::ofstream(file) << "x";
            WanCommandLine onFile("test", "test");
            Argv argvFile({"prog", "--output=" + file.string()});
            onFile.Parse(argvFile.Count(), argvFile.Get());
            std::string message = ErrorOf([&onFile]() { onFile.PrepareOutput(); });
            NS_TEST_ASSERT_MSG_EQ(Contains(message, "--output: \"" + file.string() + "\""),
                                  true,
                                  message);
            std::filesystem::remove_all(root);

            // /proc refuses new folders even to root.
            WanCommandLine onProc("test", "test");
            Argv argvProc({"prog", "--output=/proc/wan-training-test/x"});
            onProc.Parse(argvProc.Count(), argvProc.Get());
            message = ErrorOf([&onProc]() { onProc.PrepareOutput(); });
            NS_TEST_ASSERT_MSG_EQ(Contains(message, "--output: \"/proc/wan-training-test/x\""),
                                  true,
                                  message);
        }
        Argv argv({"prog"});
        NS_TEST_ASSERT_MSG_EQ(WanCommandLine::RunMain(&Succeeding, argv.Count(), argv.Get()),
                              0,
                              "success passes through");
        // Capture stderr to check the message format, and keep the test log clean.
        std::ostringstream captured;
        std::streambuf* savedCerr = std::cerr.rdbuf(captured.rdbuf());
        const int code = WanCommandLine::RunMain(&Failing, argv.Count(), argv.Get());
        std::cerr.rdbuf(savedCerr);
        NS_TEST_ASSERT_MSG_EQ(code, 1, "an exception becomes exit code 1");
        NS_TEST_ASSERT_MSG_EQ(captured.str(), "error: boom\n", "message on stderr");
        RngSeedManager::SetSeed(savedSeed);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief ResultsFolder: default runs get a new stamped folder and results/latest links to the
 *        newest; an old-layout results/latest folder and a non-empty --output are refused.
 */
class ResultsFolderTestCase : public TestCase
{
  public:
    ResultsFolderTestCase()
        : TestCase("ResultsFolder: stamped run folders, a latest link, no mixing")
    {
    }

  private:
    void DoRun() override
    {
        namespace fs = std::filesystem;
        const fs::path root = fs::temp_directory_path() / "wan-results-folder-test";
        fs::remove_all(root);
        const std::string stamp = "20250102T030405Z";
        NS_TEST_EXPECT_MSG_EQ(ResultsFolder::UtcStamp(1735787045), stamp, "UTC stamp");

        const std::string first = ResultsFolder::CreateRun(root.string(), "prog", stamp);
        NS_TEST_EXPECT_MSG_EQ(first, (root / "prog" / stamp).string(), "first run");
        const fs::path latest = root / "latest";
        NS_TEST_EXPECT_MSG_EQ(fs::is_symlink(latest), true, "latest is a link");
        NS_TEST_EXPECT_MSG_EQ(fs::read_symlink(latest).string(),
                              "prog/" + stamp,
                              "relative, to the run");
        // The same second again, and another program: suffixes, latest follows.
        const std::string second = ResultsFolder::CreateRun(root.string(), "prog", stamp);
        NS_TEST_EXPECT_MSG_EQ(second, (root / "prog" / (stamp + "-2")).string(), "suffix -2");
        NS_TEST_EXPECT_MSG_EQ(fs::read_symlink(latest).string(), "prog/" + stamp + "-2", "");
        ResultsFolder::CreateRun(root.string(), "other", stamp);
        NS_TEST_EXPECT_MSG_EQ(fs::read_symlink(latest).string(), "other/" + stamp, "any program");
        NS_TEST_EXPECT_MSG_EQ(fs::exists(root / "latest.tmp"), false, "no temporary link left");

        // The old layout: results/latest a real folder is kept, and the run refused.
        fs::remove(latest);
        fs::create_directories(latest / "keep");
        std::string message = ErrorOf(
            [&root, &stamp]() { ResultsFolder::CreateRun(root.string(), "prog", stamp + "x"); });
        NS_TEST_EXPECT_MSG_EQ(Contains(message, (root / "latest").string() + "\": is a folder"),
                              true,
                              message);
        NS_TEST_EXPECT_MSG_EQ(Contains(message, "move it"), true, message);
        NS_TEST_EXPECT_MSG_EQ(fs::exists(latest / "keep"), true, "old folder untouched");
        NS_TEST_EXPECT_MSG_EQ(fs::exists(root / "prog" / (stamp + "x")), false, "nothing created");

        // An explicit folder: created if missing, accepted if empty, refused if not.
        const fs::path mine = root / "mine";
        NS_TEST_EXPECT_MSG_EQ(ResultsFolder::UseFolder(mine.string()), mine.string(), "created");
        NS_TEST_EXPECT_MSG_EQ(ResultsFolder::UseFolder(mine.string()), mine.string(), "empty: ok");
        std::ofstream(mine / "summary.json") << "{}";
        message = ErrorOf([&mine]() { ResultsFolder::UseFolder(mine.string()); });
        NS_TEST_EXPECT_MSG_EQ(
            Contains(message, "--output: \"" + mine.string() + "\": exists and is not empty"),
            true,
            message);
        fs::remove_all(root);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The "wan-topology" suite.
 */
class WanTopologyTestSuite : public TestSuite
{
  public:
    WanTopologyTestSuite()
        : TestSuite("wan-topology")
    {
        AddTestCase(new WanTopologyDoubleZeroTestCase);
        AddTestCase(new WanTopologyDenseTestCase);
        AddTestCase(new WanTopologyFileErrorTestCase);
        AddTestCase(new WanTopologyRoundTripTestCase);
        AddTestCase(new WanTopologyCapabilitiesTestCase);
        AddTestCase(new WanTopologyBuildTestCase);
        AddTestCase(new WanCommandLineTestCase);
        AddTestCase(new ResultsFolderTestCase);
        AddRejections();
    }

  private:
    /** Adds one case per rejection rule of doc/topology.rst. */
    void AddRejections()
    {
        // Two cities and a link: each case below breaks one thing in a valid document.
        const std::string cityA = R"({"code": "NYC", "latitude": 40.7, "longitude": -74.0})";
        const std::string cityB = R"({"code": "LON", "latitude": 51.5, "longitude": -0.1})";
        const std::string cities = "\"cities\": [" + cityA + ", " + cityB + "]";
        const std::string link = R"({"a": "NYC", "b": "LON"})";
        auto doc = [&cities](const std::string& rest) {
            return "{" + cities + (rest.empty() ? "" : ", " + rest) + "}";
        };
        auto add = [this](const std::string& name,
                          const std::string& text,
                          const std::vector<std::string>& expected) {
            AddTestCase(new WanTopologyRejectTestCase(name, text, expected));
        };

        add("a JSON syntax error, with its line",
            "{\n  \"cities\": [\n    " + cityA + ",\n    ]\n}",
            {"line 4, column 5", "invalid JSON"});
        add("truncated JSON", "{\"cities\": [", {"line 1, column 13", "invalid JSON"});
        add("a document that is not an object",
            "[1, 2]",
            {"document", "[1,2]", "expected an object"});
        add("an unknown city code in a link",
            doc(R"("links": [{"a": "NYC", "b": "XYZ"}])"),
            {"links[0].b", "\"XYZ\"", "unknown city code"});
        add("an unknown city code in an island",
            doc(R"("islands": [{"name": "i", "city": "PAR"}], "links": [)" + link + "]"),
            {"islands[0].city", "\"PAR\"", "unknown city code"});
        add("a duplicate city",
            "{\"cities\": [" + cityA + ", " + cityB + ", " + cityA + "]}",
            {"cities[2].code", "\"NYC\"", "duplicate city code"});
        add("a duplicate link (b-a after a-b)",
            doc(R"("links": [{"a": "NYC", "b": "LON"}, {"a": "LON", "b": "NYC"}])"),
            {"links[1]", "\"LON-NYC\"", "duplicate of links[0]"});
        add("a duplicate island name",
            doc(R"("islands": [{"name": "x", "city": "NYC"}, {"name": "x", "city": "LON"}],
                   "links": [)" +
                link + "]"),
            {"islands[1].name", "\"x\"", "duplicate island name"});
        add("a self-link",
            doc(R"("links": [{"a": "NYC", "b": "NYC"}])"),
            {"links[0].b", "\"NYC\"", "self-link"});
        add("a negative bandwidth",
            doc(R"("links": [{"a": "NYC", "b": "LON", "bandwidth": "-5Gbps"}])"),
            {"links[0].bandwidth", "\"-5Gbps\"", "must be positive"});
        add("a zero bandwidth",
            doc(R"("links": [{"a": "NYC", "b": "LON", "bandwidth": "0Mbps"}])"),
            {"links[0].bandwidth", "\"0Mbps\"", "must be positive"});
        add("a zero bare-number bandwidth",
            doc(R"("links": [{"a": "NYC", "b": "LON", "bandwidth": 0}])"),
            {"links[0].bandwidth", ": 0: ", "must be positive"});
        add("a bandwidth with an unknown unit",
            doc(R"("defaults": {"wanBandwidth": "100Gbit"}, "links": [)" + link + "]"),
            {"defaults.wanBandwidth", "\"100Gbit\"", "unknown rate unit"});
        add("a non-positive access bandwidth",
            doc(R"("islands": [{"name": "x", "city": "NYC", "accessBandwidth": "-1Gbps"}])"),
            {"islands[0].accessBandwidth", "\"-1Gbps\"", "must be positive"});
        add("a negative delay",
            doc(R"("links": [{"a": "NYC", "b": "LON", "delay": "-1ms"}])"),
            {"links[0].delay", "\"-1ms\"", "must not be negative"});
        add("a negative bare-number delay",
            doc(R"("links": [{"a": "NYC", "b": "LON", "delay": -0.5}])"),
            {"links[0].delay", "-0.5", "must not be negative"});
        add("a delay without a unit",
            doc(R"("defaults": {"accessDelay": "50"}, "links": [)" + link + "]"),
            {"defaults.accessDelay", "\"50\"", "unknown delay unit"});
        add("a latitude out of range",
            R"({"cities": [{"code": "NYC", "latitude": 95, "longitude": 0}]})",
            {"cities[0].latitude", "95", "must be in [-90, 90]"});
        add("a longitude out of range",
            R"({"cities": [{"code": "NYC", "latitude": 0, "longitude": -181}]})",
            {"cities[0].longitude", "-181", "must be in [-180, 180]"});
        add("a string where a number belongs",
            R"({"cities": [{"code": "NYC", "latitude": "40.7", "longitude": 0}]})",
            {"cities[0].latitude", "\"40.7\"", "expected a number"});
        add("a string where a boolean belongs",
            doc(R"("defaults": {"multicast": "yes"}, "links": [)" + link + "]"),
            {"defaults.multicast", "\"yes\"", "expected true or false"});
        add("a number where a city code belongs",
            doc(R"("links": [{"a": 1, "b": "LON"}])"),
            {"links[0].a", ": 1: ", "expected a string"});
        add("an object where the cities array belongs",
            R"({"cities": {"code": "NYC"}})",
            {"cities", "{\"code\":\"NYC\"}", "expected an array"});
        add("a link that is not an object",
            doc(R"("links": ["NYC-LON"])"),
            {"links[0]", "\"NYC-LON\"", "expected an object"});
        add("a missing longitude",
            R"({"cities": [{"code": "NYC", "latitude": 0}]})",
            {"cities[0].longitude", "missing required field"});
        add("a missing city code",
            R"({"cities": [{"latitude": 0, "longitude": 0}]})",
            {"cities[0].code", "missing required field"});
        add("a link without b",
            doc(R"("links": [{"a": "NYC"}])"),
            {"links[0].b", "missing required field"});
        add("missing cities", R"({"name": "x"})", {"cities", "missing required field"});
        add("an unknown field in a city (typo)",
            R"({"cities": [{"code": "NYC", "lattitude": 0, "latitude": 0, "longitude": 0}]})",
            {"cities[0].lattitude", ": 0: ", "unknown field"});
        add("an unknown top-level field",
            doc(R"("link": [])"),
            {"test/bad.json: link: []: unknown field"});
        add("an unknown field in defaults",
            doc(R"("defaults": {"wanBandwith": "1Gbps"}, "links": [)" + link + "]"),
            {"defaults.wanBandwith", "\"1Gbps\"", "unknown field"});
        add("a repeated key", R"({"cities": [], "cities": []})", {"\"cities\"", "duplicate key"});
        // 65 levels, one beyond WanJsonInput::MAX_DEPTH; and 70,000, which crashed (a stack
        // overflow) when the value was quoted in the message.
        add("a document nested 65 levels deep",
            R"({"description": )" + std::string(64, '[') + std::string(64, ']') + "}",
            {"test/bad.json: description: objects and arrays nested deeper than 64 levels"});
        add("a document nested 70,001 levels deep",
            R"({"description": )" + std::string(70000, '[') + std::string(70000, ']') + "}",
            {"description: objects and arrays nested deeper than 64 levels"});
        add("a route factor below 1",
            doc(R"("defaults": {"routeFactor": 0.5}, "links": [)" + link + "]"),
            {"defaults.routeFactor", "0.5", "must be at least 1"});
        add("an island that cannot reach another",
            "{\"cities\": [" + cityA + ", " + cityB +
                R"(, {"code": "TYO", "latitude": 35.7, "longitude": 139.7}],
                    "links": [)" +
                link + "]}",
            {"islands", "\"NYC-0\"", "cannot reach island \"TYO-0\""});
        add("no islands",
            doc(R"("islands": [], "links": [)" + link + "]"),
            {"islands", "at least one island"});
        add("no cities (hence no islands)",
            R"({"cities": []})",
            {"islands", "at least one island"});

        // Numbers: every delay, rate and count range-checked at load, naming the field.
        add("a link delay beyond the maximum (bare number)",
            doc(R"("links": [{"a": "NYC", "b": "LON", "delay": 1e300}])"),
            {"links[0].delay", "1e+300", "must be at most 1000 s"});
        add("a link delay beyond the maximum (with a unit)",
            doc(R"("links": [{"a": "NYC", "b": "LON", "delay": "2000s"}])"),
            {"links[0].delay", "\"2000s\"", "must be at most 1000 s"});
        add("a link delay beyond ns-3's Time",
            doc(R"("links": [{"a": "NYC", "b": "LON", "delay": "1e300s"}])"),
            {"links[0].delay", "\"1e300s\"", "too large for ns-3's Time"});
        add("an access delay beyond the maximum",
            doc(R"("islands": [{"name": "x", "city": "NYC", "accessDelay": "2000s"}],
                   "links": [)" +
                link + "]"),
            {"islands[0].accessDelay", "\"2000s\"", "must be at most 1000 s"});
        add("a default access delay beyond the maximum",
            doc(R"("defaults": {"accessDelay": 1001}, "links": [)" + link + "]"),
            {"defaults.accessDelay", "1001", "must be at most 1000 s"});
        add("a number too large for a double",
            doc(R"("links": [{"a": "NYC", "b": "LON", "delay": 1e400}])"),
            {"invalid JSON", "1e400"});
        add("a route factor beyond the maximum",
            doc(R"("defaults": {"routeFactor": 1e300}, "links": [)" + link + "]"),
            {"defaults.routeFactor", "1e+300", "must be at most 100"});
        {
            // 1025 islands in one city: one more than a gradient header's bitmap holds.
            std::string islands;
            for (int i = 0; i < 1025; ++i)
            {
                islands += std::string(i == 0 ? "" : ", ") + R"({"name": "i)" + std::to_string(i) +
                           R"(", "city": "NYC"})";
            }
            add("more islands than the contributor bitmap holds",
                doc("\"islands\": [" + islands + "], \"links\": [" + link + "]"),
                {"islands[1024]", "\"i1024\"", "more than 1024 islands"});
        }

        // Names: only what every output format (CSV, JSON, logs) carries as it is.
        add("a city name with a comma",
            R"({"cities": [{"code": "NYC", "name": "New York, NY", "latitude": 0,
                            "longitude": 0}]})",
            {"cities[0].name", "New York, NY", "must not contain"});
        add("a city code with a double quote",
            R"({"cities": [{"code": "N\"YC", "latitude": 0, "longitude": 0}]})",
            {"cities[0].code", "N\\\"YC", "must not contain"});
        add("an island name with a backslash",
            doc(R"("islands": [{"name": "a\\b", "city": "NYC"}], "links": [)" + link + "]"),
            {"islands[0].name", "a\\\\b", "must not contain"});
        add("an island name with a control character",
            doc(R"("islands": [{"name": "a\u0007b", "city": "NYC"}], "links": [)" + link + "]"),
            {"islands[0].name", "\\u0007", "control character"});
        // DEL and the C1 range are control characters too; a message shows them escaped.
        add("an island name with DEL, shown escaped",
            doc(R"("islands": [{"name": "a\u007fb", "city": "NYC"}], "links": [)" + link + "]"),
            {"islands[0].name: \"a\\u007fb\"", "control character"});
        add("an island name with a C1 control (next line, U+0085)",
            doc(R"("islands": [{"name": "a\u0085b", "city": "NYC"}], "links": [)" + link + "]"),
            {"islands[0].name: \"a\\u0085b\"", "control character"});
        add("a city code with a no-break space",
            R"({"cities": [{"code": "N\u00a0C", "latitude": 0, "longitude": 0}]})",
            {"cities[0].code", "blanks (Unicode spaces included)"});
        add("a city name with a tab",
            R"({"cities": [{"code": "NYC", "name": "New\tYork", "latitude": 0,
                            "longitude": 0}]})",
            {"cities[0].name", "\\t", "control character"});
        add("a topology name with a comma",
            doc(R"("name": "a,b", "links": [)" + link + "]"),
            {"test/bad.json: name: \"a,b\"", "must not contain"});
        add("a repeated key in a nested object, with its path",
            doc(R"("links": [{"a": "NYC", "b": "LON", "a": "NYC"}])"),
            {"links[0].a", "duplicate key"});
    }
};

/** The suite's single instance. */
static WanTopologyTestSuite g_wanTopologyTestSuite;
