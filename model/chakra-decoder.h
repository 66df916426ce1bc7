/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_DECODER_H
#define CHAKRA_DECODER_H

#include "chakra-node.h"
#include "proto-reader.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/** A field of one of the schema's messages, as the decoder checks it. */
struct ChakraFieldSpec
{
    uint32_t number;                //!< field number
    const char* name;               //!< name in et_def.proto, for error messages
    ProtoReader::WireType wireType; //!< the wire type the schema gives it
    bool packable{false};           //!< repeated scalar: LENGTH_DELIMITED (packed) too
};

/** What an ET file's messages hold, decoded but not yet checked as a graph. */
struct ChakraDecoded
{
    std::string version;                             //!< GlobalMetadata.version
    std::vector<ChakraAttribute> metadataAttributes; //!< GlobalMetadata.attr
    std::vector<ChakraNode> nodes;                   //!< the nodes, file order
};

/** What decoding a node learns beyond its fields: which ones were present. */
struct ChakraNodeDraft
{
    ChakraNode node;         //!< the fields read so far
    bool hasDuration{false}; //!< duration_micros was present
};

/**
 * \ingroup wan-training
 * \brief Decodes the messages of one Chakra ET file (ChakraTrace::Parse), keeping track of
 *        where it is (node, id, field) so that every error names them. Checks what each
 *        message needs on its own: wire types, node types, the fields a node's type requires,
 *        comm_type and comm_size; ChakraTrace checks the graph.
 */
class ChakraDecoder
{
  public:
    /** \param file the file's name, for messages */
    explicit ChakraDecoder(const std::string& file);
    /**
     * \param bytes the file's contents \return its messages, decoded
     * \throws ChakraTraceError naming the file, node and field
     */
    ChakraDecoded Decode(const std::string& bytes);

  private:
    /** \param file the file's reader \return a reader over its next message */
    ProtoReader ReadFramed(ProtoReader& file);
    /**
     * \param message the GlobalMetadata message \param version receives its version
     * \param attributes receives its attributes
     */
    void DecodeMetadata(ProtoReader message,
                        std::string& version,
                        std::vector<ChakraAttribute>& attributes);
    /** \param message a Node message \return the node, its presence rules checked */
    ChakraNode DecodeNode(ProtoReader message);
    /** \param in the message \param key the field's key \param draft the node so far */
    void DecodeNodeField(ProtoReader& in, ProtoReader::Key key, ChakraNodeDraft& draft);
    /**
     * \param message an AttributeProto message \param prefix its field path, e.g. "attr[2]"
     * \return the attribute
     */
    ChakraAttribute DecodeAttribute(ProtoReader message, const std::string& prefix);
    /**
     * \param in the message \param number a value field's number (wire type checked)
     * \param attribute receives the value
     */
    void DecodeAttributeValue(ProtoReader& in, uint32_t number, ChakraAttribute& attribute);
    /** \param draft a decoded node: checks the fields its type needs */
    void FinishNode(ChakraNodeDraft& draft);
    /** \param node a COMM_COLL_NODE: moves comm_type and comm_size out of its attributes */
    void TakeCollective(ChakraNode& node);
    /** \param attribute comm_type \return the collective */
    ChakraCollective CommType(const ChakraAttribute& attribute);
    /** \param attribute comm_size \return the bytes */
    uint64_t CommSize(const ChakraAttribute& attribute);
    /** \param attribute an attribute that must hold an integer */
    void RequireInteger(const ChakraAttribute& attribute);
    /**
     * \brief Name the field of a key and check its wire type.
     * \param table the message's fields \param key the key \param prefix path before the
     *        field's name \param hint appended to a wire-type error
     * \return the field's spec, or nullptr for a field the message does not have
     */
    template <std::size_t N>
    const ChakraFieldSpec* CheckKey(const ChakraFieldSpec (&table)[N],
                                    ProtoReader::Key key,
                                    const std::string& prefix,
                                    const char* hint = "");
    /** \param problem what is wrong \throws ChakraTraceError naming where */
    [[noreturn]] void Fail(const std::string& problem) const;

    std::string m_file;                //!< the file's name
    std::optional<std::size_t> m_node; //!< index of the node being read (none: the metadata)
    std::optional<uint64_t> m_id;      //!< its id, once read
    std::string m_field;               //!< the field being read ("" between fields)
};

} // namespace ns3

#endif /* CHAKRA_DECODER_H */
