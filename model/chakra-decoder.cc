/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-decoder.h"

#include "ns3/log.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraDecoder");

namespace
{

/** Node's fields (et_def.proto). */
const ChakraFieldSpec NODE_FIELDS[] = {
    {1, "id", ProtoReader::VARINT},
    {2, "name", ProtoReader::LENGTH_DELIMITED},
    {3, "type", ProtoReader::VARINT},
    {4, "ctrl_deps", ProtoReader::VARINT, true},
    {5, "data_deps", ProtoReader::VARINT, true},
    {6, "start_time_micros", ProtoReader::VARINT},
    {7, "duration_micros", ProtoReader::VARINT},
    {8, "inputs", ProtoReader::LENGTH_DELIMITED},
    {9, "outputs", ProtoReader::LENGTH_DELIMITED},
    {10, "attr", ProtoReader::LENGTH_DELIMITED},
    {11, "storage", ProtoReader::LENGTH_DELIMITED},
};

/** GlobalMetadata's fields. */
const ChakraFieldSpec METADATA_FIELDS[] = {
    {1, "version", ProtoReader::LENGTH_DELIMITED},
    {2, "attr", ProtoReader::LENGTH_DELIMITED},
};

/** AttributeProto's fields: name, doc_string and the value oneof (lists at even numbers). */
const ChakraFieldSpec ATTRIBUTE_FIELDS[] = {
    {1, "name", ProtoReader::LENGTH_DELIMITED},
    {2, "doc_string", ProtoReader::LENGTH_DELIMITED},
    {3, "double_val", ProtoReader::FIXED64},
    {4, "double_list", ProtoReader::LENGTH_DELIMITED},
    {5, "float_val", ProtoReader::FIXED32},
    {6, "float_list", ProtoReader::LENGTH_DELIMITED},
    {7, "int32_val", ProtoReader::VARINT},
    {8, "int32_list", ProtoReader::LENGTH_DELIMITED},
    {9, "int64_val", ProtoReader::VARINT},
    {10, "int64_list", ProtoReader::LENGTH_DELIMITED},
    {11, "uint32_val", ProtoReader::VARINT},
    {12, "uint32_list", ProtoReader::LENGTH_DELIMITED},
    {13, "uint64_val", ProtoReader::VARINT},
    {14, "uint64_list", ProtoReader::LENGTH_DELIMITED},
    {15, "sint32_val", ProtoReader::VARINT},
    {16, "sint32_list", ProtoReader::LENGTH_DELIMITED},
    {17, "sint64_val", ProtoReader::VARINT},
    {18, "sint64_list", ProtoReader::LENGTH_DELIMITED},
    {19, "fixed32_val", ProtoReader::FIXED32},
    {20, "fixed32_list", ProtoReader::LENGTH_DELIMITED},
    {21, "fixed64_val", ProtoReader::FIXED64},
    {22, "fixed64_list", ProtoReader::LENGTH_DELIMITED},
    {23, "sfixed32_val", ProtoReader::FIXED32},
    {24, "sfixed32_list", ProtoReader::LENGTH_DELIMITED},
    {25, "sfixed64_val", ProtoReader::FIXED64},
    {26, "sfixed64_list", ProtoReader::LENGTH_DELIMITED},
    {27, "bool_val", ProtoReader::VARINT},
    {28, "bool_list", ProtoReader::LENGTH_DELIMITED},
    {29, "string_val", ProtoReader::LENGTH_DELIMITED},
    {30, "string_list", ProtoReader::LENGTH_DELIMITED},
    {31, "bytes_val", ProtoReader::LENGTH_DELIMITED},
    {32, "bytes_list", ProtoReader::LENGTH_DELIMITED},
};

/**
 * \param table a message's fields \param number a field number
 * \return the field's spec, or nullptr if the message has no such field
 */
template <std::size_t N>
const ChakraFieldSpec*
FindField(const ChakraFieldSpec (&table)[N], uint32_t number)
{
    for (const ChakraFieldSpec& spec : table)
    {
        if (spec.number == number)
        {
            return &spec;
        }
    }
    return nullptr;
}

/** \param bits a double's bits \return the double */
double
DoubleFromBits(uint64_t bits)
{
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

/** \param bits a float's bits \return the float, as a double */
double
FloatFromBits(uint32_t bits)
{
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

/** \param attribute set to INT \param value its value */
void
SetInt(ChakraAttribute& attribute, int64_t value)
{
    attribute.kind = ChakraAttribute::INT;
    attribute.intValue = value;
}

/** \param attribute set to UINT \param value its value */
void
SetUint(ChakraAttribute& attribute, uint64_t value)
{
    attribute.kind = ChakraAttribute::UINT;
    attribute.uintValue = value;
}

/** \param attribute set to DOUBLE \param value its value */
void
SetDouble(ChakraAttribute& attribute, double value)
{
    attribute.kind = ChakraAttribute::DOUBLE;
    attribute.doubleValue = value;
}

} // namespace

ChakraDecoder::ChakraDecoder(const std::string& file)
    : m_file(file)
{
    NS_LOG_FUNCTION(this << file);
}

void
ChakraDecoder::Fail(const std::string& problem) const
{
    NS_LOG_FUNCTION(this << problem);
    std::string where = m_file + ": ";
    if (!m_node)
    {
        where += "global metadata";
    }
    else
    {
        where += "node " + std::to_string(*m_node);
        where += m_id ? " (id " + std::to_string(*m_id) + ")" : "";
    }
    where += m_field.empty() ? "" : ": " + m_field;
    throw ChakraTraceError(where + ": " + problem);
}

template <std::size_t N>
const ChakraFieldSpec*
ChakraDecoder::CheckKey(const ChakraFieldSpec (&table)[N],
                        ProtoReader::Key key,
                        const std::string& prefix,
                        const char* hint)
{
    const ChakraFieldSpec* spec = FindField(table, key.field);
    if (spec == nullptr)
    {
        m_field = prefix + "field " + std::to_string(key.field);
        return nullptr;
    }
    m_field = prefix + spec->name;
    const bool packed = spec->packable && key.wireType == ProtoReader::LENGTH_DELIMITED;
    if (key.wireType != spec->wireType && !packed)
    {
        Fail("wire type " + ProtoReader::WireTypeName(key.wireType) + ", expected " +
             ProtoReader::WireTypeName(spec->wireType) +
             (spec->packable ? " or 2 (length-delimited, packed)" : "") + hint);
    }
    return spec;
}

ChakraDecoded
ChakraDecoder::Decode(const std::string& bytes)
{
    NS_LOG_FUNCTION(this << bytes.size());
    ChakraDecoded decoded;
    std::vector<ChakraNode>& nodes = decoded.nodes;
    try
    {
        ProtoReader file(bytes);
        if (file.AtEnd())
        {
            Fail("missing: the file is empty (a trace starts with a GlobalMetadata message)");
        }
        DecodeMetadata(ReadFramed(file), decoded.version, decoded.metadataAttributes);
        while (!file.AtEnd())
        {
            m_node = nodes.size();
            m_id.reset();
            nodes.push_back(DecodeNode(ReadFramed(file)));
        }
    }
    catch (const ProtoError& e)
    {
        Fail(e.what());
    }
    if (nodes.empty())
    {
        throw ChakraTraceError(m_file + ": no nodes after the GlobalMetadata message");
    }
    return decoded;
}

ProtoReader
ChakraDecoder::ReadFramed(ProtoReader& file)
{
    NS_LOG_FUNCTION(this);
    m_field = "length prefix";
    ProtoReader message = file.ReadLengthDelimited();
    m_field.clear();
    return message;
}

void
ChakraDecoder::DecodeMetadata(ProtoReader message,
                              std::string& version,
                              std::vector<ChakraAttribute>& attributes)
{
    NS_LOG_FUNCTION(this);
    const char* hint = "; a trace starts with a GlobalMetadata message";
    while (!message.AtEnd())
    {
        m_field.clear();
        const ProtoReader::Key key = message.ReadKey();
        const ChakraFieldSpec* spec = CheckKey(METADATA_FIELDS, key, "", hint);
        const ChakraFieldSpec* nodeField = FindField(NODE_FIELDS, key.field);
        if (spec == nullptr && nodeField != nullptr)
        {
            Fail(std::string("a Node's field (") + nodeField->name + ") in the first message" +
                 hint);
        }
        if (spec == nullptr)
        {
            message.Skip(key.wireType);
        }
        else if (key.field == 1)
        {
            version = message.ReadString();
        }
        else
        {
            const std::string prefix = "attr[" + std::to_string(attributes.size()) + "]";
            attributes.push_back(DecodeAttribute(message.ReadLengthDelimited(), prefix));
        }
    }
}

ChakraNode
ChakraDecoder::DecodeNode(ProtoReader message)
{
    NS_LOG_FUNCTION(this);
    ChakraNodeDraft draft;
    while (!message.AtEnd())
    {
        m_field.clear();
        const ProtoReader::Key key = message.ReadKey();
        if (CheckKey(NODE_FIELDS, key, "") == nullptr)
        {
            message.Skip(key.wireType);
            continue;
        }
        DecodeNodeField(message, key, draft);
    }
    FinishNode(draft);
    return std::move(draft.node);
}

void
ChakraDecoder::DecodeNodeField(ProtoReader& in, ProtoReader::Key key, ChakraNodeDraft& draft)
{
    NS_LOG_FUNCTION(this << key.field);
    ChakraNode& node = draft.node;
    switch (key.field)
    {
    case 1:
        node.id = in.ReadVarint();
        m_id = node.id;
        break;
    case 2:
        node.name = in.ReadString();
        break;
    case 3: {
        const uint64_t type = in.ReadVarint();
        if (type > ChakraNode::MAX_TYPE)
        {
            Fail(ChakraNode::TypeProblem(type));
        }
        node.type = static_cast<ChakraNodeType>(type);
        break;
    }
    case 4:
        in.ReadRepeatedVarints(key.wireType, node.ctrlDeps);
        break;
    case 5:
        in.ReadRepeatedVarints(key.wireType, node.dataDeps);
        break;
    case 6:
        node.startTimeMicros = in.ReadVarint();
        break;
    case 7:
        node.durationMicros = in.ReadVarint();
        draft.hasDuration = true;
        break;
    case 10: {
        const std::string prefix = "attr[" + std::to_string(node.attributes.size()) + "]";
        node.attributes.push_back(DecodeAttribute(in.ReadLengthDelimited(), prefix));
        break;
    }
    default: // inputs, outputs, storage: not used here
        in.Skip(key.wireType);
    }
}

ChakraAttribute
ChakraDecoder::DecodeAttribute(ProtoReader message, const std::string& prefix)
{
    NS_LOG_FUNCTION(this << prefix);
    ChakraAttribute attribute;
    while (!message.AtEnd())
    {
        m_field = prefix;
        const ProtoReader::Key key = message.ReadKey();
        if (CheckKey(ATTRIBUTE_FIELDS, key, prefix + ".") == nullptr || key.field == 2)
        {
            message.Skip(key.wireType); // unknown, or doc_string
        }
        else if (key.field == 1)
        {
            attribute.name = message.ReadString();
        }
        else
        {
            DecodeAttributeValue(message, key.field, attribute);
        }
    }
    return attribute;
}

void
ChakraDecoder::DecodeAttributeValue(ProtoReader& in, uint32_t number, ChakraAttribute& attribute)
{
    NS_LOG_FUNCTION(this << number);
    // The value is a oneof: the last value field read wins, as protobuf's own parsers do.
    switch (number)
    {
    case 3:
        return SetDouble(attribute, DoubleFromBits(in.ReadFixed64()));
    case 5:
        return SetDouble(attribute, FloatFromBits(in.ReadFixed32()));
    case 7: // int32: a varint of the sign-extended value, whose low 32 bits count
        return SetInt(attribute, static_cast<int32_t>(static_cast<uint32_t>(in.ReadVarint())));
    case 9:
        return SetInt(attribute, static_cast<int64_t>(in.ReadVarint()));
    case 11:
        return SetUint(attribute, static_cast<uint32_t>(in.ReadVarint()));
    case 13:
        return SetUint(attribute, in.ReadVarint());
    case 15:
        return SetInt(attribute, ProtoReader::DecodeZigZag32(in.ReadVarint()));
    case 17:
        return SetInt(attribute, ProtoReader::DecodeZigZag64(in.ReadVarint()));
    case 19:
        return SetUint(attribute, in.ReadFixed32());
    case 21:
        return SetUint(attribute, in.ReadFixed64());
    case 23:
        return SetInt(attribute, static_cast<int32_t>(in.ReadFixed32()));
    case 25:
        return SetInt(attribute, static_cast<int64_t>(in.ReadFixed64()));
    case 27:
        attribute.kind = ChakraAttribute::BOOL;
        attribute.boolValue = in.ReadVarint() != 0;
        return;
    case 29:
    case 31:
        attribute.kind = ChakraAttribute::STRING;
        attribute.stringValue = in.ReadString();
        return;
    default: // a list (even numbers 4 to 32): not kept
        attribute.kind = ChakraAttribute::NONE;
        in.Skip(ProtoReader::LENGTH_DELIMITED);
    }
}

void
ChakraDecoder::FinishNode(ChakraNodeDraft& draft)
{
    NS_LOG_FUNCTION(this);
    ChakraNode& node = draft.node;
    if (node.type == ChakraNodeType::INVALID_NODE)
    {
        m_field = "type";
        Fail(ChakraNode::TypeProblem(0));
    }
    if (node.type == ChakraNodeType::COMP_NODE && !draft.hasDuration)
    {
        m_field = "duration_micros";
        Fail("missing (a COMP_NODE needs its duration)");
    }
    if (node.type == ChakraNodeType::COMM_COLL_NODE)
    {
        TakeCollective(node);
    }
}

void
ChakraDecoder::TakeCollective(ChakraNode& node)
{
    NS_LOG_FUNCTION(this);
    bool hasType = false;
    bool hasSize = false;
    std::vector<ChakraAttribute> others;
    for (ChakraAttribute& attribute : node.attributes)
    {
        m_field = attribute.name;
        if ((attribute.name == "comm_type" && hasType) ||
            (attribute.name == "comm_size" && hasSize))
        {
            Fail("appears twice");
        }
        if (attribute.name == "comm_type")
        {
            node.commType = CommType(attribute);
            hasType = true;
        }
        else if (attribute.name == "comm_size")
        {
            node.commSize = CommSize(attribute);
            hasSize = true;
        }
        else
        {
            others.push_back(std::move(attribute));
        }
    }
    for (const char* name : {"comm_type", "comm_size"})
    {
        m_field = name;
        if ((m_field == "comm_type" && !hasType) || (m_field == "comm_size" && !hasSize))
        {
            Fail("missing (a COMM_COLL_NODE needs the attributes comm_type and comm_size)");
        }
    }
    node.attributes = std::move(others);
}

void
ChakraDecoder::RequireInteger(const ChakraAttribute& attribute)
{
    NS_LOG_FUNCTION(this);
    static const char* const kinds[] =
        {"no value", "", "", "a floating-point value", "a bool value", "a string value"};
    if (attribute.kind != ChakraAttribute::INT && attribute.kind != ChakraAttribute::UINT)
    {
        Fail(std::string(kinds[attribute.kind]) + ", expected an integer");
    }
}

ChakraCollective
ChakraDecoder::CommType(const ChakraAttribute& attribute)
{
    NS_LOG_FUNCTION(this);
    RequireInteger(attribute);
    if (attribute.kind == ChakraAttribute::INT && attribute.intValue < 0)
    {
        Fail(ChakraNode::UnknownCollective(std::to_string(attribute.intValue)));
    }
    const uint64_t value = attribute.kind == ChakraAttribute::INT
                               ? static_cast<uint64_t>(attribute.intValue)
                               : attribute.uintValue;
    if (value > ChakraNode::MAX_COLLECTIVE)
    {
        Fail(ChakraNode::UnknownCollective(std::to_string(value)));
    }
    return static_cast<ChakraCollective>(value);
}

uint64_t
ChakraDecoder::CommSize(const ChakraAttribute& attribute)
{
    NS_LOG_FUNCTION(this);
    RequireInteger(attribute);
    if (attribute.kind == ChakraAttribute::INT && attribute.intValue < 0)
    {
        Fail(std::to_string(attribute.intValue) + " is negative (a size in bytes)");
    }
    return attribute.kind == ChakraAttribute::INT ? static_cast<uint64_t>(attribute.intValue)
                                                  : attribute.uintValue;
}

} // namespace ns3
