/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness for the topology loader: the fuzzer's bytes are a topology file's text,
 * given to WanTopology::Parse. A rejected document must raise WanTopologyError (the documented
 * error; anything else escaping is a finding); an accepted one must survive a round trip
 * through ToJson() unchanged.
 */

#include "ns3/wan-topology-json.h"
#include "ns3/wan-topology.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    ns3::WanTopology topology;
    try
    {
        topology = ns3::WanTopologyJson::Parse(text, "fuzz-input.json");
    }
    catch (const ns3::WanTopologyError&)
    {
        return 0; // rejected with the documented error: fine
    }
    // Accepted: ToJson() must give a document that Parse() reads back to the same topology.
    const std::string once = ns3::WanTopologyJson::ToJson(topology);
    std::string twice;
    try
    {
        twice = ns3::WanTopologyJson::ToJson(ns3::WanTopologyJson::Parse(once, "round-trip.json"));
    }
    catch (const ns3::WanTopologyError& e)
    {
        std::cerr << "topology-fuzzer: ToJson() output rejected by Parse(): " << e.what() << "\n"
                  << once;
        std::abort();
    }
    if (once != twice)
    {
        std::cerr << "topology-fuzzer: round trip changed the topology\n"
                  << once << "\n---\n"
                  << twice;
        std::abort();
    }
    return 0;
}
