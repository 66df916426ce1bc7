/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-node.h"

#include "ns3/log.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraNode");

bool
ChakraAttribute::operator==(const ChakraAttribute& other) const
{
    NS_LOG_FUNCTION(this);
    if (name != other.name || kind != other.kind)
    {
        return false;
    }
    switch (kind)
    {
    case INT:
        return intValue == other.intValue;
    case UINT:
        return uintValue == other.uintValue;
    case DOUBLE: // bit for bit: a NaN read twice is the same value
        return std::memcmp(&doubleValue, &other.doubleValue, sizeof doubleValue) == 0;
    case BOOL:
        return boolValue == other.boolValue;
    case STRING:
        return stringValue == other.stringValue;
    default:
        return true;
    }
}

const ChakraAttribute*
ChakraNode::FindAttribute(const std::string& attributeName) const
{
    NS_LOG_FUNCTION(this << attributeName);
    for (const ChakraAttribute& attribute : attributes)
    {
        if (attribute.name == attributeName)
        {
            return &attribute;
        }
    }
    return nullptr;
}

bool
ChakraNode::operator==(const ChakraNode& other) const
{
    NS_LOG_FUNCTION(this);
    const bool collective = type == ChakraNodeType::COMM_COLL_NODE;
    return id == other.id && name == other.name && type == other.type &&
           ctrlDeps == other.ctrlDeps && dataDeps == other.dataDeps &&
           startTimeMicros == other.startTimeMicros && durationMicros == other.durationMicros &&
           (!collective || (commType == other.commType && commSize == other.commSize)) &&
           attributes == other.attributes;
}

std::string
ChakraNode::TypeProblem(uint64_t value)
{
    NS_LOG_FUNCTION(value);
    if (value == 0)
    {
        return "INVALID_NODE (0) is not a node type a trace may hold (a node without a type "
               "reads as 0)";
    }
    if (value > MAX_TYPE)
    {
        return std::to_string(value) + " is not a node type (1 METADATA_NODE to " +
               std::to_string(MAX_TYPE) + " CHECKPOINT_NODE are)";
    }
    return "";
}

std::string
ChakraNode::UnknownCollective(const std::string& value)
{
    NS_LOG_FUNCTION(value);
    return value + " is not a collective type (0 ALL_REDUCE to " + std::to_string(MAX_COLLECTIVE) +
           " BARRIER are)";
}

} // namespace ns3
