/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_TRACE_H
#define CHAKRA_TRACE_H

#include "chakra-node.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief One rank's Chakra execution trace (MLCommons Chakra ET): the global metadata and the
 *        nodes, checked to form a dependency graph without cycles.
 *
 * The file is a stream of protobuf messages, each behind its length as a varint: one
 * GlobalMetadata (version, attributes), then the Node messages. The wire format is read
 * directly (ProtoReader, no libprotobuf), never past the buffer, in time linear in its size.
 * A trace is accepted when (doc/input-rules.rst, "Chakra execution traces (input)"):
 *
 * - every message is well formed and each known field has its schema's wire type (repeated
 *   ids packed or not); unknown fields are skipped;
 * - every node has a known type (1 to 10, not INVALID_NODE); a COMP_NODE has duration_micros; a
 *   COMM_COLL_NODE has one comm_type (a known CollectiveCommType) and one comm_size (bytes,
 *   not negative), both integers of any integer kind;
 * - ids are unique, every dependency names a node of the trace, and the dependencies (control
 *   and data together) have no cycle.
 *
 * Otherwise Parse() and Read() throw ChakraTraceError naming the file, node and field.
 */
class ChakraTrace
{
  public:
    /** Largest file Read() takes, bytes (2 GiB). */
    static constexpr uint64_t MAX_FILE_BYTES = uint64_t{1} << 31;

    /**
     * \brief A trace built in code, checked as a file's nodes are (types, unique ids,
     *        dependencies, no cycle).
     * \param name the name in error messages (a file name)
     * \param version the global metadata's version
     * \param nodes the nodes, in file order
     * \param metadataAttributes the global metadata's attributes
     * \throws ChakraTraceError naming the node and field
     */
    ChakraTrace(const std::string& name,
                const std::string& version,
                std::vector<ChakraNode> nodes,
                std::vector<ChakraAttribute> metadataAttributes = {});

    /**
     * \param path an ET file (one rank's) \return its trace
     * \throws ChakraTraceError naming \p path if it cannot be read or is not a valid trace
     */
    static ChakraTrace Read(const std::string& path);
    /**
     * \param bytes a file's contents \param name its name, for error messages
     * \return the trace
     * \throws ChakraTraceError naming \p name, the node and the field
     */
    static ChakraTrace Parse(const std::string& bytes, const std::string& name);
    /**
     * \return the trace as an ET file: the global metadata, then every node with all its
     *         scalar fields (zeros too, so a COMP_NODE of 0 us keeps its duration) and, for a
     *         COMM_COLL_NODE, comm_type (int64_val) and comm_size (uint64_val) as its first
     *         attributes; each attribute's value in its kind's widest field
     */
    std::string ToBytes() const;

    /** \return the name given to Parse (the path for Read) */
    const std::string& GetName() const;
    /** \return the global metadata's version ("" if absent) */
    const std::string& GetVersion() const;
    /** \return the global metadata's attributes */
    const std::vector<ChakraAttribute>& GetMetadataAttributes() const;
    /** \return the nodes in file order */
    const std::vector<ChakraNode>& GetNodes() const;
    /** \param id a node id \return that node's index in GetNodes(), if there is one */
    std::optional<std::size_t> FindIndex(uint64_t id) const;
    /** \param id a node id \return that node, or nullptr */
    const ChakraNode* FindNode(uint64_t id) const;
    /**
     * \return the indices of the nodes in an order where each comes after all its
     *         dependencies (Kahn's algorithm: first the nodes without dependencies, in file
     *         order, then each node as soon as its last dependency is placed)
     */
    const std::vector<std::size_t>& GetTopologicalOrder() const;

    /** \param type a node type \return its schema name, e.g. "COMP_NODE" ("?" if unknown) */
    static const char* NodeTypeName(ChakraNodeType type);
    /** \param type a collective \return its schema name, e.g. "ALL_REDUCE" ("?" if unknown) */
    static const char* CollectiveName(ChakraCollective type);
    /**
     * \param index a node's index \param field the field \param problem what is wrong
     * \return the error, "name: node index (id ID): field: problem" (also what readers of the
     *         trace's meaning, such as ChakraStep, refuse a node with)
     */
    ChakraTraceError NodeError(std::size_t index,
                               const std::string& field,
                               const std::string& problem) const;

  private:
    /** \brief Check types, ids and dependencies; fill m_index and m_order. */
    void Validate();
    /** \brief Check that every node's type (and collective) is known. */
    void CheckTypes() const;
    /** \brief Index the ids, refusing duplicates. */
    void IndexIds();
    /** \brief Refuse a dependency on an id not in the trace. */
    void CheckDependencies() const;
    /** \brief Order the nodes (m_order); refuse a cycle, naming a node on it. */
    void OrderNodes();
    /**
     * \param remaining per node, its dependencies not yet ordered (non-zero: left over)
     * \throws ChakraTraceError naming a node on a cycle and the cycle's ids
     */
    [[noreturn]] void ReportCycle(const std::vector<std::size_t>& remaining) const;
    std::string m_name;                                //!< file name for messages
    std::string m_version;                             //!< GlobalMetadata.version
    std::vector<ChakraAttribute> m_metadataAttributes; //!< GlobalMetadata.attr
    std::vector<ChakraNode> m_nodes;                   //!< the nodes, file order
    std::unordered_map<uint64_t, std::size_t> m_index; //!< id -> index in m_nodes
    std::vector<std::size_t> m_order;                  //!< a topological order of indices
};

} // namespace ns3

#endif /* CHAKRA_TRACE_H */
