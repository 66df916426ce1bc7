/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * chakra-trace-info: reads Chakra execution traces (ET files) and prints their nodes as JSON.
 *
 * Reads PREFIX.0.et .. PREFIX.<ranks-1>.et (--prefix, --ranks) or one file (--file) with
 * ChakraTrace, which checks each as doc/input-rules.rst ("Chakra execution traces (input)")
 * says, and prints
 *
 *   {"traces": [{"rank": 0, "version": "0.0.4", "nodes": [{"id": 0, "name": "fwd_layer_0",
 *     "type": "COMP_NODE", "ctrl_deps": [], "data_deps": [], "start_time_micros": 0,
 *     "duration_micros": 657, "attr": [{"name": "is_cpu_op", "value": false}]}, ...]}]}
 *
 * (a collective also has "comm_type" and "comm_size"; with --file, "file" stands for "rank"),
 * the form tools/chakra-et.py --json writes, to standard output or to --output. A relative
 * path is found from the working directory, else from the module's folder (as --topology's).
 *
 *   chakra-trace-info --prefix=examples/traces/tiny-dp --ranks=2
 *   chakra-trace-info --file=trace.0.et --output=trace.json
 *
 * A bad trace exits 1 with "error: FILE: node N (id ID): field: problem".
 */

#include "ns3/chakra-trace.h"
#include "ns3/command-line.h"
#include "ns3/wan-command-line.h"
#include "ns3/wan-flags.h"
#include "ns3/wan-input-error.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>

using namespace ns3;
using Json = nlohmann::ordered_json;

namespace
{

/** Most ranks --ranks accepts (one file each). */
const uint32_t MAX_RANKS = 1048576;

/** \param attribute an attribute \return its value as JSON (null when it has none) */
Json
ValueJson(const ChakraAttribute& attribute)
{
    switch (attribute.kind)
    {
    case ChakraAttribute::INT:
        return attribute.intValue;
    case ChakraAttribute::UINT:
        return attribute.uintValue;
    case ChakraAttribute::DOUBLE:
        return attribute.doubleValue;
    case ChakraAttribute::BOOL:
        return attribute.boolValue;
    case ChakraAttribute::STRING:
        return attribute.stringValue;
    default:
        return nullptr;
    }
}

/** \param node a node \return it as JSON, in the keys and order of tools/chakra-et.py */
Json
NodeJson(const ChakraNode& node)
{
    Json out;
    out["id"] = node.id;
    out["name"] = node.name;
    out["type"] = ChakraTrace::NodeTypeName(node.type);
    out["ctrl_deps"] = node.ctrlDeps;
    out["data_deps"] = node.dataDeps;
    out["start_time_micros"] = node.startTimeMicros;
    out["duration_micros"] = node.durationMicros;
    if (node.type == ChakraNodeType::COMM_COLL_NODE)
    {
        out["comm_type"] = ChakraTrace::CollectiveName(node.commType);
        out["comm_size"] = node.commSize;
    }
    out["attr"] = Json::array();
    for (const ChakraAttribute& attribute : node.attributes)
    {
        out["attr"].push_back(Json{{"name", attribute.name}, {"value", ValueJson(attribute)}});
    }
    return out;
}

/**
 * \param trace a trace \param key "rank" or "file" \param value the rank or the path
 * \return the trace as JSON
 */
Json
TraceJson(const ChakraTrace& trace, const char* key, const Json& value)
{
    Json out;
    out[key] = value;
    out["version"] = trace.GetVersion();
    out["nodes"] = Json::array();
    for (const ChakraNode& node : trace.GetNodes())
    {
        out["nodes"].push_back(NodeJson(node));
    }
    return out;
}

/**
 * \param file --file \param prefix --prefix \param ranks --ranks
 * \param given the flags the command line named (WanFlags::NamesGiven)
 * \return the traces' JSON document
 * \throws std::runtime_error for a bad flag combination, ChakraTraceError for a bad trace
 */
Json
ReadTraces(const std::string& file,
           const std::string& prefix,
           uint32_t ranks,
           const std::set<std::string>& given)
{
    if (file.empty() == prefix.empty())
    {
        throw std::runtime_error(file.empty()
                                     ? "--prefix or --file: give one of them"
                                     : WanFlags::Rejection("file", file, "not with --prefix"));
    }
    if (!file.empty() && given.count("ranks") > 0)
    {
        throw std::runtime_error(WanFlags::Rejection("ranks",
                                                     std::to_string(ranks),
                                                     "counts the files of --prefix; --file "
                                                     "reads one"));
    }
    Json traces = Json::array();
    if (!file.empty())
    {
        const std::string path = WanCommandLine::ResolveDataPath(file);
        traces.push_back(TraceJson(ChakraTrace::Read(path), "file", file));
    }
    for (uint32_t rank = 0; !prefix.empty() && rank < ranks; ++rank)
    {
        const std::string path =
            WanCommandLine::ResolveDataPath(prefix + "." + std::to_string(rank) + ".et");
        traces.push_back(TraceJson(ChakraTrace::Read(path), "rank", rank));
    }
    return Json{{"traces", traces}};
}

/**
 * \param document the JSON \param output a file ("" : standard output)
 * \return the exit code \throws std::runtime_error naming --output if it cannot be written
 */
int
Write(const Json& document, const std::string& output)
{
    // Names and string attributes are bytes as read: invalid UTF-8 is shown as U+FFFD.
    const std::string text = document.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
    if (output.empty())
    {
        std::cout << text;
        return std::cout.flush() ? WanCommandLine::EXIT_COMPLETE : WanCommandLine::EXIT_BAD_INPUT;
    }
    // Parent folders are made (a folder that cannot be made fails the write below).
    std::error_code ignored;
    std::filesystem::create_directories(std::filesystem::path(output).parent_path(), ignored);
    std::ofstream out(output, std::ios::binary);
    out << text;
    out.close();
    if (!out)
    {
        throw std::runtime_error("--output: " + WanInputError::Quote(output) +
                                 ": cannot write file");
    }
    return WanCommandLine::EXIT_COMPLETE;
}

/** The example's body (see the file comment). */
int
Body(int argc, char** argv)
{
    std::string file;
    std::string prefix;
    uint32_t ranks = 1;
    std::string output;
    CommandLine cmd(__FILE__);
    WanFlags flags(cmd);
    cmd.Usage("Read Chakra execution traces (PREFIX.<rank>.et for --ranks ranks, or one --file) "
              "and print their nodes as JSON. See doc/input-rules.rst, section Chakra execution "
              "traces (input).");
    WanFlags::AddText(cmd, "prefix", "read PREFIX.0.et .. PREFIX.<ranks-1>.et", prefix);
    flags.AddUnsigned("ranks", "ranks to read with --prefix", ranks, 1, MAX_RANKS);
    WanFlags::AddText(cmd, "file", "read this one ET file", file);
    WanFlags::AddText(cmd,
                      "output",
                      "JSON file to write, its folders made (empty: standard output)",
                      output);
    cmd.Parse(argc, argv);
    flags.Check();
    return Write(ReadTraces(file, prefix, ranks, WanFlags::NamesGiven(argc, argv)), output);
}

} // namespace

int
main(int argc, char** argv)
{
    return WanCommandLine::RunMain(Body, argc, argv);
}
