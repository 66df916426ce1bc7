/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * topology-generator: writes a generated WAN topology in the module's JSON format.
 *
 * Runs WanTopologyGenerator (model/wan-topology-generator.h) with the family, size, seed,
 * islands, rates and capability mix given as flags, and writes the topology to --output (a
 * file; parent folders are created) or, without --output, to standard output. The file loads
 * with --topology in every other example:
 *
 *   topology-generator --family=continents --cities=32 --seed=7 --output=wan.json
 *   topology-generator --family=grid --cities=16 --wanBandwidth=10Gbps \
 *                      --wanBandwidthMax=100Gbps --fpgaFraction=0.25 > grid.json
 *   schedule-explorer --topology=wan.json
 *
 * Bad values exit with "error: <flag or parameter>: <value>: <problem>" and code 1.
 */

#include "ns3/command-line.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-flags.h"
#include "ns3/wan-input-error.h"
#include "ns3/wan-topology-generator.h"
#include "ns3/wan-topology-json.h"
#include "ns3/wan-topology.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>
#include <system_error>

using namespace ns3;

namespace
{

/**
 * \brief Write text to a file, creating its parent folders.
 * \param path the file \param text the contents
 * \throws std::runtime_error naming --output and the path
 */
void
WriteFile(const std::string& path, const std::string& text)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty())
    {
        fs::create_directories(parent, ec);
        if (ec)
        {
            throw std::runtime_error("--output: " + WanInputError::Quote(path) +
                                     ": cannot create folder (" + ec.message() + ")");
        }
    }
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out)
    {
        throw std::runtime_error("--output: " + WanInputError::Quote(path) + ": cannot write file");
    }
}

/** \return the generator's families, separated by "|" */
std::string
FamilyList()
{
    std::string families;
    for (const auto& family : WanTopologyGenerator::Families())
    {
        families += (families.empty() ? "" : "|") + family;
    }
    return families;
}

/**
 * \brief Register the flags of the topology's size: cities, seed and islands.
 * \param flags the flags \param params receives the values
 */
void
AddSizeFlags(WanFlags& flags, WanTopologyGeneratorParams& params)
{
    flags.AddUnsigned("cities",
                      "number of cities",
                      params.cities,
                      2,
                      WanTopologyGeneratorParams::MAX_CITIES);
    flags.AddUnsigned("seed",
                      "seed of the generator (same seed, same topology)",
                      params.seed,
                      0,
                      std::numeric_limits<uint64_t>::max());
    flags.AddUnsigned("islandsPerCity",
                      "islands per city; the minimum when --maxIslandsPerCity is set",
                      params.islandsPerCity,
                      1,
                      WanTopologyGeneratorParams::MAX_ISLANDS_PER_CITY);
    flags.AddUnsigned("maxIslandsPerCity",
                      "0: every city has --islandsPerCity islands; else a random count per city "
                      "in [islandsPerCity, maxIslandsPerCity]",
                      params.maxIslandsPerCity,
                      0,
                      WanTopologyGeneratorParams::MAX_ISLANDS_PER_CITY);
}

/**
 * \brief Register the flags of the links: rates, access delay and route factor.
 * \param flags the flags \param params receives the values (its defaults name the rates')
 */
void
AddLinkFlags(WanFlags& flags, WanTopologyGeneratorParams& params)
{
    const std::string wanDefault = WanTopology::FormatRate(params.wanBps);
    const std::string accessDefault = WanTopology::FormatRate(params.accessBps);
    flags.AddRate("wanBandwidth",
                  "WAN link rate, e.g. 100Gbps (the minimum when --wanBandwidthMax is set; "
                  "empty: " +
                      wanDefault + ")",
                  params.wanBps);
    flags.AddRate("wanBandwidthMax",
                  "empty: every link at --wanBandwidth; else a random rate per link up to this",
                  params.wanBpsMax);
    flags.AddRate("accessBandwidth",
                  "island access rate, e.g. 10Gbps (the minimum when --accessBandwidthMax is "
                  "set; empty: " +
                      accessDefault + ")",
                  params.accessBps);
    flags.AddRate("accessBandwidthMax",
                  "empty: every island at --accessBandwidth; else a random rate per island up "
                  "to this",
                  params.accessBpsMax);
    flags.AddDuration("accessDelay",
                      "island access delay, e.g. 50us",
                      params.accessDelay,
                      "50us",
                      WanFlagRange{0, WanTopology::MAX_DELAY, false, false});
    flags.AddReal("routeFactor",
                  "WAN delay = great circle / (c/1.468) x routeFactor",
                  params.routeFactor,
                  WanFlagRange{1, WanTopology::MAX_ROUTE_FACTOR, false, false});
}

/**
 * \brief Register the flags of the capability mix: the shares of multicast, FPGA and transit
 *        cities.
 * \param flags the flags \param params receives the values
 */
void
AddCapabilityFlags(WanFlags& flags, WanTopologyGeneratorParams& params)
{
    const WanFlagRange fraction{0, 1, false, false};
    flags.AddReal("multicastFraction",
                  "share of multicast-capable cities (round(share x cities) cities)",
                  params.multicastFraction,
                  fraction);
    flags.AddReal("fpgaFraction",
                  "share of cities with an FPGA (round(share x cities) cities)",
                  params.fpgaFraction,
                  fraction);
    flags.AddReal("transitFraction",
                  "share of cities with a transit FPGA beside the router (round(share x "
                  "cities) cities)",
                  params.transitFraction,
                  fraction);
}

/**
 * \brief Register the flags only some families read: k, hubs, crossLinks, backboneCities.
 * \param flags the flags \param params receives the values
 */
void
AddFamilyFlags(WanFlags& flags, WanTopologyGeneratorParams& params)
{
    flags.AddUnsigned("k",
                      "geometric, continents: nearest neighbours linked (1..32)",
                      params.k,
                      0,
                      UINT32_MAX);
    flags.AddUnsigned("hubs",
                      "hub: hub cities, fully meshed (1..min(cities-1, 64))",
                      params.hubs,
                      0,
                      UINT32_MAX);
    flags.AddUnsigned("crossLinks",
                      "continents: links between the clusters (1..64)",
                      params.crossLinks,
                      0,
                      UINT32_MAX);
    flags.AddUnsigned("backboneCities",
                      "backbone: cities on the chain (0: round(sqrt(cities)), at least 2)",
                      params.backboneCities,
                      0,
                      UINT32_MAX);
}

/**
 * \brief Check the two rate ranges the flags name better than the generator does: a maximum
 *        rate must not be below its minimum.
 * \param flags the parsed flags \param params their values
 * \throws std::runtime_error naming the flag
 */
void
CheckRateRanges(const WanFlags& flags, const WanTopologyGeneratorParams& params)
{
    if (params.wanBpsMax != 0 && params.wanBpsMax < params.wanBps)
    {
        throw std::runtime_error(WanFlags::Rejection(
            "wanBandwidthMax",
            flags.GetText("wanBandwidthMax"),
            "must not be below --wanBandwidth (" + WanTopology::FormatRate(params.wanBps) + ")"));
    }
    if (params.accessBpsMax != 0 && params.accessBpsMax < params.accessBps)
    {
        throw std::runtime_error(WanFlags::Rejection("accessBandwidthMax",
                                                     flags.GetText("accessBandwidthMax"),
                                                     "must not be below --accessBandwidth (" +
                                                         WanTopology::FormatRate(params.accessBps) +
                                                         ")"));
    }
}

/**
 * \brief Write the topology as JSON to a file, or to standard output.
 * \param topology the topology \param output the file (empty: standard output)
 * \return the exit code: 1 if standard output failed, else 0
 * \throws std::runtime_error if the file cannot be written
 */
int
WriteTopology(const WanTopology& topology, const std::string& output)
{
    const std::string json = WanTopologyJson::ToJson(topology);
    if (output.empty())
    {
        std::cout << json;
        return std::cout.flush() ? 0 : 1;
    }
    WriteFile(output, json);
    std::cout << "wrote " << output << ": " << topology.GetName() << ", "
              << topology.GetCities().size() << " cities, " << topology.GetIslands().size()
              << " islands, " << topology.GetLinks().size() << " links\n";
    return 0;
}

/** The example's body (see the file comment). */
int
Body(int argc, char** argv)
{
    WanTopologyGeneratorParams params;
    const std::string families = FamilyList();
    std::string output;

    CommandLine cmd(__FILE__); // the file name is the program name in --PrintHelp
    WanFlags flags(cmd);
    cmd.Usage("Generate a seeded WAN topology of a named family (" + families +
              ") and write it as JSON to --output, or to standard output. "
              "See doc/topology.rst, section Generated topologies.");
    WanFlags::AddText(cmd, "family", families, params.family);
    // The generator checks every range that depends on other parameters (Check); the flags
    // reject what it cannot see: negative numbers, malformed text, values past their type.
    AddSizeFlags(flags, params);
    AddLinkFlags(flags, params);
    AddCapabilityFlags(flags, params);
    AddFamilyFlags(flags, params);
    WanFlags::AddText(cmd, "output", "JSON file to write (empty: standard output)", output);
    cmd.Parse(argc, argv);
    flags.Check();
    // The generator names its own fields (wanBpsMax, ...); these two read better by flag.
    CheckRateRanges(flags, params);

    return WriteTopology(WanTopologyGenerator::Generate(params), output);
}

} // namespace

int
main(int argc, char** argv)
{
    return WanCommandLine::RunMain(Body, argc, argv);
}
