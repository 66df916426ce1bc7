/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-trace.h"

#include "chakra-decoder.h"
#include "proto-writer.h"

#include "ns3/log.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraTrace");

namespace
{

/** Cycle members a message lists at most before "...". */
constexpr std::size_t MAX_CYCLE_SHOWN = 8;

/** \param value a double \return its bits */
uint64_t
BitsOfDouble(double value)
{
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

/** \param attribute an attribute \return its AttributeProto encoding (the value as its kind's
 *  widest field: int64_val, uint64_val, double_val, bool_val or string_val) */
std::string
EncodeAttribute(const ChakraAttribute& attribute)
{
    NS_LOG_FUNCTION(attribute.name);
    ProtoWriter out;
    out.WriteBytesField(1, attribute.name);
    switch (attribute.kind)
    {
    case ChakraAttribute::INT:
        out.WriteVarintField(9, static_cast<uint64_t>(attribute.intValue));
        break;
    case ChakraAttribute::UINT:
        out.WriteVarintField(13, attribute.uintValue);
        break;
    case ChakraAttribute::DOUBLE:
        out.WriteKey(3, ProtoReader::FIXED64);
        out.WriteFixed64(BitsOfDouble(attribute.doubleValue));
        break;
    case ChakraAttribute::BOOL:
        out.WriteVarintField(27, attribute.boolValue ? 1 : 0);
        break;
    case ChakraAttribute::STRING:
        out.WriteBytesField(29, attribute.stringValue);
        break;
    case ChakraAttribute::NONE:
        break;
    }
    return out.GetBytes();
}

/**
 * \param name attribute name \param field its value's field (int64_val 9, uint64_val 13)
 * \param value the value \return the AttributeProto encoding
 */
std::string
EncodeIntegerAttribute(const std::string& name, uint32_t field, uint64_t value)
{
    NS_LOG_FUNCTION(name << field << value);
    ProtoWriter out;
    out.WriteBytesField(1, name);
    out.WriteVarintField(field, value);
    return out.GetBytes();
}

/** \param node a node \return its Node encoding, every scalar field written */
std::string
EncodeNode(const ChakraNode& node)
{
    NS_LOG_FUNCTION(node.id);
    ProtoWriter out;
    out.WriteVarintField(1, node.id);
    out.WriteBytesField(2, node.name);
    out.WriteVarintField(3, static_cast<uint64_t>(node.type));
    out.WritePackedVarints(4, node.ctrlDeps);
    out.WritePackedVarints(5, node.dataDeps);
    out.WriteVarintField(6, node.startTimeMicros);
    out.WriteVarintField(7, node.durationMicros);
    if (node.type == ChakraNodeType::COMM_COLL_NODE)
    {
        out.WriteBytesField(
            10,
            EncodeIntegerAttribute("comm_type", 9, static_cast<uint64_t>(node.commType)));
        out.WriteBytesField(10, EncodeIntegerAttribute("comm_size", 13, node.commSize));
    }
    for (const ChakraAttribute& attribute : node.attributes)
    {
        out.WriteBytesField(10, EncodeAttribute(attribute));
    }
    return out.GetBytes();
}

} // namespace

ChakraTrace::ChakraTrace(const std::string& name,
                         const std::string& version,
                         std::vector<ChakraNode> nodes,
                         std::vector<ChakraAttribute> metadataAttributes)
    : m_name(name),
      m_version(version),
      m_metadataAttributes(std::move(metadataAttributes)),
      m_nodes(std::move(nodes))
{
    NS_LOG_FUNCTION(this << name << version << m_nodes.size());
    Validate();
}

ChakraTrace
ChakraTrace::Read(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ChakraTraceError(path + ": cannot open the Chakra trace file");
    }
    // Read in blocks rather than by the size the file claims: a folder or a pipe has none. A
    // regular file's size is known, though: one too large is refused before it is read (it
    // once took 9 s and 4 GB of memory to refuse a 3 GB file).
    const std::string tooLarge = path + ": larger than the 2 GiB a trace may have";
    std::error_code noSize;
    const std::uintmax_t size = std::filesystem::is_regular_file(path, noSize)
                                    ? std::filesystem::file_size(path, noSize)
                                    : 0;
    if (!noSize && size > MAX_FILE_BYTES)
    {
        throw ChakraTraceError(tooLarge);
    }
    std::string bytes;
    bytes.reserve(noSize ? 0 : size);
    std::vector<char> block(1 << 16);
    while (in.read(block.data(), static_cast<std::streamsize>(block.size())) || in.gcount() > 0)
    {
        bytes.append(block.data(), static_cast<std::size_t>(in.gcount()));
        if (bytes.size() > MAX_FILE_BYTES)
        {
            throw ChakraTraceError(tooLarge);
        }
    }
    if (in.bad())
    {
        throw ChakraTraceError(path + ": cannot read the Chakra trace file");
    }
    return Parse(bytes, path);
}

ChakraTrace
ChakraTrace::Parse(const std::string& bytes, const std::string& name)
{
    NS_LOG_FUNCTION(bytes.size() << name);
    ChakraDecoded decoded = ChakraDecoder(name).Decode(bytes);
    return ChakraTrace(name,
                       decoded.version,
                       std::move(decoded.nodes),
                       std::move(decoded.metadataAttributes));
}

std::string
ChakraTrace::ToBytes() const
{
    NS_LOG_FUNCTION(this);
    ProtoWriter metadata;
    metadata.WriteBytesField(1, m_version);
    for (const ChakraAttribute& attribute : m_metadataAttributes)
    {
        metadata.WriteBytesField(2, EncodeAttribute(attribute));
    }
    std::string out = ProtoWriter::Delimited(metadata.GetBytes());
    for (const ChakraNode& node : m_nodes)
    {
        out += ProtoWriter::Delimited(EncodeNode(node));
    }
    return out;
}

const std::string&
ChakraTrace::GetName() const
{
    NS_LOG_FUNCTION(this);
    return m_name;
}

const std::string&
ChakraTrace::GetVersion() const
{
    NS_LOG_FUNCTION(this);
    return m_version;
}

const std::vector<ChakraAttribute>&
ChakraTrace::GetMetadataAttributes() const
{
    NS_LOG_FUNCTION(this);
    return m_metadataAttributes;
}

const std::vector<ChakraNode>&
ChakraTrace::GetNodes() const
{
    NS_LOG_FUNCTION(this);
    return m_nodes;
}

std::optional<std::size_t>
ChakraTrace::FindIndex(uint64_t id) const
{
    NS_LOG_FUNCTION(this << id);
    const auto it = m_index.find(id);
    return it == m_index.end() ? std::nullopt : std::optional<std::size_t>(it->second);
}

const ChakraNode*
ChakraTrace::FindNode(uint64_t id) const
{
    NS_LOG_FUNCTION(this << id);
    const std::optional<std::size_t> index = FindIndex(id);
    return index ? &m_nodes[*index] : nullptr;
}

const std::vector<std::size_t>&
ChakraTrace::GetTopologicalOrder() const
{
    NS_LOG_FUNCTION(this);
    return m_order;
}

const char*
ChakraTrace::NodeTypeName(ChakraNodeType type)
{
    NS_LOG_FUNCTION(static_cast<uint32_t>(type));
    static const char* const names[] = {"INVALID_NODE",
                                        "METADATA_NODE",
                                        "MEM_LOAD_NODE",
                                        "MEM_STORE_NODE",
                                        "COMP_NODE",
                                        "COMM_SEND_NODE",
                                        "COMM_RECV_NODE",
                                        "COMM_COLL_NODE",
                                        "STORAGE_NODE",
                                        "BATCH_NODE",
                                        "CHECKPOINT_NODE"};
    const auto number = static_cast<uint32_t>(type);
    return number <= ChakraNode::MAX_TYPE ? names[number] : "?";
}

const char*
ChakraTrace::CollectiveName(ChakraCollective type)
{
    NS_LOG_FUNCTION(static_cast<uint32_t>(type));
    static const char* const names[] = {"ALL_REDUCE",
                                        "REDUCE",
                                        "ALL_GATHER",
                                        "GATHER",
                                        "SCATTER",
                                        "BROADCAST",
                                        "ALL_TO_ALL",
                                        "REDUCE_SCATTER",
                                        "REDUCE_SCATTER_BLOCK",
                                        "BARRIER"};
    const auto number = static_cast<uint32_t>(type);
    return number <= ChakraNode::MAX_COLLECTIVE ? names[number] : "?";
}

ChakraTraceError
ChakraTrace::NodeError(std::size_t index,
                       const std::string& field,
                       const std::string& problem) const
{
    NS_LOG_FUNCTION(this << index << field << problem);
    return ChakraTraceError(m_name + ": node " + std::to_string(index) + " (id " +
                            std::to_string(m_nodes[index].id) + "): " + field + ": " + problem);
}

void
ChakraTrace::Validate()
{
    NS_LOG_FUNCTION(this);
    if (m_nodes.empty())
    {
        throw ChakraTraceError(m_name + ": no nodes");
    }
    CheckTypes();
    IndexIds();
    CheckDependencies();
    OrderNodes();
}

void
ChakraTrace::CheckTypes() const
{
    NS_LOG_FUNCTION(this);
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
    {
        const std::string problem = ChakraNode::TypeProblem(static_cast<uint32_t>(m_nodes[i].type));
        if (!problem.empty())
        {
            throw NodeError(i, "type", problem);
        }
        const auto collective = static_cast<uint32_t>(m_nodes[i].commType);
        if (m_nodes[i].type == ChakraNodeType::COMM_COLL_NODE &&
            collective > ChakraNode::MAX_COLLECTIVE)
        {
            throw NodeError(i,
                            "comm_type",
                            ChakraNode::UnknownCollective(std::to_string(collective)));
        }
    }
}

void
ChakraTrace::IndexIds()
{
    NS_LOG_FUNCTION(this);
    m_index.reserve(m_nodes.size());
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
    {
        const auto [it, added] = m_index.emplace(m_nodes[i].id, i);
        if (!added)
        {
            throw NodeError(i,
                            "id",
                            std::to_string(m_nodes[i].id) + " is already the id of node " +
                                std::to_string(it->second));
        }
    }
}

void
ChakraTrace::CheckDependencies() const
{
    NS_LOG_FUNCTION(this);
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
    {
        for (const auto& [field, deps] : {std::make_pair("ctrl_deps", &m_nodes[i].ctrlDeps),
                                          std::make_pair("data_deps", &m_nodes[i].dataDeps)})
        {
            for (uint64_t dep : *deps)
            {
                if (m_index.count(dep) == 0)
                {
                    throw NodeError(i, field, "id " + std::to_string(dep) + " is not in the trace");
                }
            }
        }
    }
}

void
ChakraTrace::OrderNodes()
{
    NS_LOG_FUNCTION(this);
    // Kahn's algorithm: a node is ordered once every node it depends on is.
    const std::size_t n = m_nodes.size();
    std::vector<std::size_t> remaining(n, 0);
    std::vector<std::vector<std::size_t>> dependents(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        for (const std::vector<uint64_t>* deps : {&m_nodes[i].ctrlDeps, &m_nodes[i].dataDeps})
        {
            for (uint64_t dep : *deps)
            {
                dependents[m_index.at(dep)].push_back(i);
                ++remaining[i];
            }
        }
    }
    m_order.clear();
    m_order.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        if (remaining[i] == 0)
        {
            m_order.push_back(i);
        }
    }
    for (std::size_t head = 0; head < m_order.size(); ++head)
    {
        for (std::size_t dependent : dependents[m_order[head]])
        {
            if (--remaining[dependent] == 0)
            {
                m_order.push_back(dependent);
            }
        }
    }
    if (m_order.size() < n)
    {
        ReportCycle(remaining);
    }
}

void
ChakraTrace::ReportCycle(const std::vector<std::size_t>& remaining) const
{
    NS_LOG_FUNCTION(this);
    // Every node left over waits for a dependency that is left over too: following those
    // from any of them must come back to a node already passed, which lies on a cycle.
    const auto leftOverDependency = [&](std::size_t i, const char** field) {
        for (const auto& [name, deps] : {std::make_pair("ctrl_deps", &m_nodes[i].ctrlDeps),
                                         std::make_pair("data_deps", &m_nodes[i].dataDeps)})
        {
            for (uint64_t dep : *deps)
            {
                const std::size_t j = m_index.at(dep);
                if (remaining[j] > 0)
                {
                    *field = name;
                    return j;
                }
            }
        }
        return i; // not reached: a left-over node has a left-over dependency
    };
    std::size_t at = 0;
    while (remaining[at] == 0)
    {
        ++at;
    }
    std::vector<bool> passed(m_nodes.size(), false);
    const char* field = "";
    while (!passed[at])
    {
        passed[at] = true;
        at = leftOverDependency(at, &field);
    }
    const std::size_t first = at;
    const char* firstField = "";
    std::ostringstream cycle;
    std::size_t shown = 0;
    do
    {
        cycle << m_nodes[at].id << " -> ";
        at = leftOverDependency(at, shown == 0 ? &firstField : &field);
    } while (at != first && ++shown < MAX_CYCLE_SHOWN);
    cycle << (at == first ? "" : "... -> ") << m_nodes[first].id;
    throw NodeError(first,
                    firstField,
                    "dependency cycle " + cycle.str() + " (each needs the next)");
}

} // namespace ns3
