/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness for ChakraTrace::Parse: the fuzzer's bytes are a Chakra ET file. Checked
 * on every input:
 *  - Parse() accepts the bytes or throws ChakraTraceError whose message starts with the file's
 *    name; any other exception, a crash or a hang is a finding;
 *  - an accepted trace keeps the reader's promises, checked here by other means: node types
 *    known, ids unique and found by FindNode(), every dependency in the trace, the
 *    topological order a permutation with each node after its dependencies, a collective's
 *    comm_type known and comm_type/comm_size not left among its attributes; and ToBytes()
 *    reads back to the same trace and writes the same bytes again;
 *  - a valid trace built from the input's bytes (random types, ids, dependencies on earlier
 *    nodes only, attributes of every kind, dependencies packed or not, unknown fields, every
 *    integer encoding of comm_size) is always accepted and reads back as built, so a Parse()
 *    that rejected too much would fail here rather than pass by rejecting everything; then
 *    the input names bytes of it to change, and the mutant gets the first two checks.
 * ASan and UBSan catch any read past the buffer.
 */

#include "ns3/chakra-trace.h"
#include "ns3/proto-reader.h"
#include "ns3/proto-writer.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <unordered_set>
#include <vector>

namespace
{

using ns3::ChakraAttribute;
using ns3::ChakraCollective;
using ns3::ChakraNode;
using ns3::ChakraNodeType;
using ns3::ChakraTrace;
using ns3::ChakraTraceError;
using ns3::ProtoReader;
using ns3::ProtoWriter;

/** The name every input is parsed under. */
const std::string NAME = "fuzz.et";
/** Nodes of a built trace at most. */
constexpr uint32_t MAX_BUILT_NODES = 24;
/** Byte changes of a mutant at most. */
constexpr uint32_t MAX_MUTATIONS = 4;

/** \param what the check that failed \brief report and abort */
[[noreturn]] void
Fail(const std::string& what)
{
    std::cerr << "chakra-fuzzer: " << what << "\n";
    std::abort();
}

/** Draws numbers from the fuzzer's bytes, starting over when they run out (0 if none). */
class Draws
{
  public:
    /** \param data bytes \param size their number */
    Draws(const uint8_t* data, std::size_t size)
        : m_data(data),
          m_size(size)
    {
    }

    /** \param bound the limit (> 0) \return a number in [0, bound) */
    uint64_t Below(uint64_t bound)
    {
        uint64_t value = 0;
        for (int i = 0; i < 8; ++i)
        {
            value = value << 8 | (m_size == 0 ? 0 : m_data[m_at++ % m_size]);
        }
        return value % bound;
    }

    /** \return true or false */
    bool Coin()
    {
        return Below(2) == 1;
    }

  private:
    const uint8_t* m_data; //!< the bytes
    std::size_t m_size;    //!< their number
    std::size_t m_at{0};   //!< bytes drawn so far
};

/**
 * \param trace an accepted trace
 * \brief The reader's promises, checked without its own index and order.
 */
void
CheckAccepted(const ChakraTrace& trace)
{
    const std::vector<ChakraNode>& nodes = trace.GetNodes();
    std::unordered_set<uint64_t> ids;
    for (const ChakraNode& node : nodes)
    {
        const auto type = static_cast<uint32_t>(node.type);
        if (type == 0 || type > ChakraNode::MAX_TYPE || !ids.insert(node.id).second ||
            trace.FindNode(node.id) != &node)
        {
            Fail("accepted a node of unknown type or a duplicate id, or FindNode() misses it");
        }
        if (node.type == ChakraNodeType::COMM_COLL_NODE &&
            (static_cast<uint32_t>(node.commType) > ChakraNode::MAX_COLLECTIVE ||
             node.FindAttribute("comm_type") != nullptr ||
             node.FindAttribute("comm_size") != nullptr))
        {
            Fail("accepted a collective with a bad comm_type, or left one in its attributes");
        }
    }
    const std::vector<std::size_t>& order = trace.GetTopologicalOrder();
    std::vector<bool> done(nodes.size(), false);
    if (order.size() != nodes.size())
    {
        Fail("the topological order does not hold every node once");
    }
    for (std::size_t index : order)
    {
        if (index >= nodes.size() || done[index])
        {
            Fail("the topological order does not hold every node once");
        }
        for (const std::vector<uint64_t>* deps : {&nodes[index].ctrlDeps, &nodes[index].dataDeps})
        {
            for (uint64_t dep : *deps)
            {
                const ChakraNode* before = trace.FindNode(dep);
                if (before == nullptr || !done[static_cast<std::size_t>(before - nodes.data())])
                {
                    Fail("a node is ordered before its dependency, or it is not in the trace");
                }
            }
        }
        done[index] = true;
    }
}

/**
 * \param trace an accepted trace
 * \brief ToBytes() must read back to the same trace and be written the same again.
 */
void
CheckRoundTrip(const ChakraTrace& trace)
{
    const std::string bytes = trace.ToBytes();
    try
    {
        const ChakraTrace again = ChakraTrace::Parse(bytes, NAME);
        if (again.GetVersion() != trace.GetVersion() ||
            !(again.GetMetadataAttributes() == trace.GetMetadataAttributes()) ||
            !(again.GetNodes() == trace.GetNodes()) || again.ToBytes() != bytes)
        {
            Fail("ToBytes() reads back to another trace");
        }
    }
    catch (const ChakraTraceError& e)
    {
        Fail(std::string("ToBytes() is refused: ") + e.what());
    }
}

/**
 * \param bytes any bytes
 * \return true if Parse() accepts them (and the trace passed the checks), false if it refused
 *         them as documented
 */
bool
CheckAnyInput(const std::string& bytes)
{
    try
    {
        const ChakraTrace trace = ChakraTrace::Parse(bytes, NAME);
        CheckAccepted(trace);
        CheckRoundTrip(trace);
        return true;
    }
    catch (const ChakraTraceError& e)
    {
        if (std::string(e.what()).rfind(NAME + ": ", 0) != 0)
        {
            Fail(std::string("an error that does not start with the file's name: ") + e.what());
        }
        return false;
    }
}

/**
 * \param in the draws \param attribute receives name, kind and value
 * \return its AttributeProto encoding, in one of the schema's fields for that kind
 */
std::string
BuildAttribute(Draws& in, ChakraAttribute& attribute)
{
    ProtoWriter out;
    attribute.name = "a" + std::to_string(in.Below(4));
    out.WriteBytesField(1, attribute.name);
    const uint64_t value = in.Below(UINT64_MAX);
    switch (in.Below(6))
    {
    case 0: // sint64
        attribute.kind = ChakraAttribute::INT;
        attribute.intValue = static_cast<int64_t>(value);
        out.WriteVarintField(17, ProtoWriter::EncodeZigZag64(attribute.intValue));
        break;
    case 1: // fixed64
        attribute.kind = ChakraAttribute::UINT;
        attribute.uintValue = value;
        out.WriteKey(21, ProtoReader::FIXED64);
        out.WriteFixed64(value);
        break;
    case 2: // bool
        attribute.kind = ChakraAttribute::BOOL;
        attribute.boolValue = value % 2 == 1;
        out.WriteVarintField(27, value % 2);
        break;
    case 3: // string
        attribute.kind = ChakraAttribute::STRING;
        attribute.stringValue = std::to_string(value);
        out.WriteBytesField(29, attribute.stringValue);
        break;
    case 4: // a list: not kept
        attribute.kind = ChakraAttribute::NONE;
        out.WriteBytesField(14, std::string(1, '\x05'));
        break;
    default: // int32: a sign-extended varint
        attribute.kind = ChakraAttribute::INT;
        attribute.intValue = static_cast<int32_t>(static_cast<uint32_t>(value));
        out.WriteVarintField(7, static_cast<uint64_t>(attribute.intValue));
    }
    return out.GetBytes();
}

/**
 * \param in the draws \param size the bytes
 * \return comm_size in one of the integer encodings (int64, uint64, fixed64, sint64)
 */
std::string
SizeAttribute(Draws& in, uint64_t size)
{
    ProtoWriter out;
    out.WriteBytesField(1, "comm_size");
    switch (in.Below(4))
    {
    case 0:
        out.WriteVarintField(9, size);
        break;
    case 1:
        out.WriteVarintField(13, size);
        break;
    case 2:
        out.WriteKey(21, ProtoReader::FIXED64);
        out.WriteFixed64(size);
        break;
    default:
        out.WriteVarintField(17, ProtoWriter::EncodeZigZag64(static_cast<int64_t>(size)));
    }
    return out.GetBytes();
}

/**
 * \param in the draws \param out the node's message \param field ctrl_deps or data_deps
 * \param deps the ids, written packed or one by one
 */
void
WriteDeps(Draws& in, ProtoWriter& out, uint32_t field, const std::vector<uint64_t>& deps)
{
    if (in.Coin())
    {
        out.WritePackedVarints(field, deps);
        return;
    }
    for (uint64_t dep : deps)
    {
        out.WriteVarintField(field, dep);
    }
}

/**
 * \param in the draws \param node receives the node \param ids the ids of the nodes before
 * \return the node's Node encoding
 */
std::string
BuildNode(Draws& in, ChakraNode& node, const std::vector<uint64_t>& ids)
{
    ProtoWriter out;
    out.WriteVarintField(1, node.id);
    node.name = in.Coin() ? "" : "n" + std::to_string(node.id);
    out.WriteBytesField(2, node.name);
    node.type = static_cast<ChakraNodeType>(1 + in.Below(ChakraNode::MAX_TYPE));
    out.WriteVarintField(3, static_cast<uint64_t>(node.type));
    for (std::size_t k = 0; k < ids.size() && k < 4; ++k)
    {
        (in.Coin() ? node.ctrlDeps : node.dataDeps).push_back(ids[in.Below(ids.size())]);
    }
    WriteDeps(in, out, 4, node.ctrlDeps);
    WriteDeps(in, out, 5, node.dataDeps);
    if (node.type == ChakraNodeType::COMP_NODE || in.Coin())
    {
        node.durationMicros = in.Below(UINT64_MAX);
        out.WriteVarintField(7, node.durationMicros);
    }
    out.WriteBytesField(8 + 1000 * in.Coin(), "\x0a\x01x"); // inputs, or an unknown field
    if (node.type == ChakraNodeType::COMM_COLL_NODE)
    {
        node.commType = static_cast<ChakraCollective>(in.Below(ChakraNode::MAX_COLLECTIVE + 1));
        node.commSize = in.Below(uint64_t{1} << 63);
        out.WriteBytesField(10, SizeAttribute(in, node.commSize));
        ProtoWriter type;
        type.WriteBytesField(1, "comm_type");
        type.WriteVarintField(9, static_cast<uint64_t>(node.commType));
        out.WriteBytesField(10, type.GetBytes());
    }
    for (uint64_t a = in.Below(3); a > 0; --a)
    {
        node.attributes.emplace_back();
        out.WriteBytesField(10, BuildAttribute(in, node.attributes.back()));
    }
    return out.GetBytes();
}

/**
 * \param in the draws \param nodes receives the nodes built
 * \return a valid ET file of them
 */
std::string
BuildValid(Draws& in, std::vector<ChakraNode>& nodes)
{
    ProtoWriter metadata;
    metadata.WriteBytesField(1, "0.0.4");
    std::string file = ProtoWriter::Delimited(metadata.GetBytes());
    std::vector<uint64_t> ids;
    std::unordered_set<uint64_t> used;
    const uint64_t count = 1 + in.Below(MAX_BUILT_NODES);
    for (uint64_t n = 0; n < count; ++n)
    {
        uint64_t id = in.Coin() ? in.Below(UINT64_MAX) : nodes.size();
        while (!used.insert(id).second)
        {
            ++id; // ids are unique: the next free one (at most MAX_BUILT_NODES are taken)
        }
        nodes.emplace_back();
        nodes.back().id = id;
        file += ProtoWriter::Delimited(BuildNode(in, nodes.back(), ids));
        ids.push_back(id);
    }
    return file;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    try
    {
        CheckAnyInput(std::string(reinterpret_cast<const char*>(data), size));

        Draws in(data, size);
        std::vector<ChakraNode> built;
        const std::string valid = BuildValid(in, built);
        try
        {
            if (!(ChakraTrace::Parse(valid, NAME).GetNodes() == built))
            {
                Fail("a valid trace reads back different nodes");
            }
        }
        catch (const ChakraTraceError& e)
        {
            Fail(std::string("a valid trace is refused: ") + e.what());
        }
        CheckAnyInput(valid);

        std::string mutant = valid;
        for (uint64_t m = 1 + in.Below(MAX_MUTATIONS); m > 0; --m)
        {
            mutant[in.Below(mutant.size())] = static_cast<char>(in.Below(256));
        }
        CheckAnyInput(mutant);
    }
    catch (const std::exception& e)
    {
        Fail(std::string("an exception other than ChakraTraceError: ") + e.what());
    }
    return 0;
}
