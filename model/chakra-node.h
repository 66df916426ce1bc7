/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_NODE_H
#define CHAKRA_NODE_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief A Chakra execution trace that cannot be read: the message names the file, the node
 *        (its index among the file's nodes, from 0, and its id when known) and the field, e.g.
 *        "trace.0.et: node 3 (id 17): data_deps: id 99 is not in the trace"
 *        (doc/input-rules.rst, "Chakra execution traces (input)").
 */
class ChakraTraceError : public std::runtime_error
{
  public:
    /** \param message the complete, user-facing message */
    explicit ChakraTraceError(const std::string& message)
        : std::runtime_error(message)
    {
    }
};

/**
 * \ingroup wan-training
 * \brief Node types of the Chakra schema (et_def.proto's NodeType), with its numbers.
 */
enum class ChakraNodeType : uint32_t
{
    INVALID_NODE = 0,    //!< the proto3 default: never valid in a trace
    METADATA_NODE = 1,   //!< metadata
    MEM_LOAD_NODE = 2,   //!< a load from memory
    MEM_STORE_NODE = 3,  //!< a store to memory
    COMP_NODE = 4,       //!< compute, with duration_micros
    COMM_SEND_NODE = 5,  //!< point-to-point send
    COMM_RECV_NODE = 6,  //!< point-to-point receive
    COMM_COLL_NODE = 7,  //!< a collective, with comm_type and comm_size attributes
    STORAGE_NODE = 8,    //!< a storage operation (newer schema)
    BATCH_NODE = 9,      //!< a batch boundary (newer schema)
    CHECKPOINT_NODE = 10 //!< a checkpoint (newer schema)
};

/**
 * \ingroup wan-training
 * \brief Collective types of the Chakra schema (et_def.proto's CollectiveCommType).
 */
enum class ChakraCollective : uint32_t
{
    ALL_REDUCE = 0,           //!< all-reduce
    REDUCE = 1,               //!< reduce to one rank
    ALL_GATHER = 2,           //!< all-gather
    GATHER = 3,               //!< gather to one rank
    SCATTER = 4,              //!< scatter from one rank
    BROADCAST = 5,            //!< broadcast from one rank
    ALL_TO_ALL = 6,           //!< all-to-all
    REDUCE_SCATTER = 7,       //!< reduce-scatter
    REDUCE_SCATTER_BLOCK = 8, //!< reduce-scatter with equal blocks
    BARRIER = 9               //!< barrier
};

/**
 * \ingroup wan-training
 * \brief One attribute of a node or of the global metadata (et_def.proto's AttributeProto):
 *        its name and its scalar value, by kind.
 *
 * The schema's integer fields (int32, int64, sint32, sint64, sfixed32, sfixed64 and uint32,
 * uint64, fixed32, fixed64) become INT or UINT, float and double become DOUBLE, string and
 * bytes STRING. List values (double_list and the other even field numbers) are not kept: such
 * an attribute has kind NONE. The value is a oneof: of two value fields, the last one read
 * counts.
 */
struct ChakraAttribute
{
    /** Which member holds the value. */
    enum Kind : uint8_t
    {
        NONE,   //!< the attribute has no value
        INT,    //!< intValue
        UINT,   //!< uintValue
        DOUBLE, //!< doubleValue
        BOOL,   //!< boolValue
        STRING, //!< stringValue
    };

    std::string name;        //!< the attribute's name
    Kind kind{NONE};         //!< which value is set
    int64_t intValue{0};     //!< INT: the value
    uint64_t uintValue{0};   //!< UINT: the value
    double doubleValue{0};   //!< DOUBLE: the value
    bool boolValue{false};   //!< BOOL: the value
    std::string stringValue; //!< STRING: the value (bytes as they are)

    /**
     * \param other an attribute
     * \return true if name, kind and value are the same (a DOUBLE compared bit for bit, so a
     *         NaN equals itself)
     */
    bool operator==(const ChakraAttribute& other) const;
};

/**
 * \ingroup wan-training
 * \brief One node of a Chakra trace (et_def.proto's Node), as read; IOInfo fields are skipped.
 *
 * A dependency names another node's id: the node can start when every node in ctrlDeps and
 * dataDeps has ended.
 */
struct ChakraNode
{
    uint64_t id{0};                                          //!< unique in its trace
    std::string name;                                        //!< the operation's name
    ChakraNodeType type{ChakraNodeType::INVALID_NODE};       //!< the node's type
    std::vector<uint64_t> ctrlDeps;                          //!< control dependencies (ids)
    std::vector<uint64_t> dataDeps;                          //!< data dependencies (ids)
    uint64_t startTimeMicros{0};                             //!< start_time_micros (0: absent)
    uint64_t durationMicros{0};                              //!< duration_micros (0: absent)
    ChakraCollective commType{ChakraCollective::ALL_REDUCE}; //!< COMM_COLL_NODE: collective
    uint64_t commSize{0};                                    //!< COMM_COLL_NODE: bytes
    /** The attributes in file order; a COMM_COLL_NODE's comm_type and comm_size are not
     *  among them (commType and commSize hold them) */
    std::vector<ChakraAttribute> attributes;

    /** The largest node type number known (CHECKPOINT_NODE). */
    static constexpr uint32_t MAX_TYPE = 10;
    /** The largest collective type number known (BARRIER). */
    static constexpr uint32_t MAX_COLLECTIVE = 9;

    /** \param name an attribute name \return the first attribute of that name, or nullptr */
    const ChakraAttribute* FindAttribute(const std::string& name) const;
    /**
     * \param other a node
     * \return true if every field is the same (commType and commSize only for a
     *         COMM_COLL_NODE)
     */
    bool operator==(const ChakraNode& other) const;

    /**
     * \param value a node type number
     * \return "" if a trace may hold it, else the problem: INVALID_NODE (0, also what a node
     *         without a type reads as) or a number above MAX_TYPE
     */
    static std::string TypeProblem(uint64_t value);
    /**
     * \param value a collective type number as read (negative ones as text too)
     * \return the problem of one that is not a CollectiveCommType
     */
    static std::string UnknownCollective(const std::string& value);
};

} // namespace ns3

#endif /* CHAKRA_NODE_H */
