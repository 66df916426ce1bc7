/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ChakraTrace: Chakra ET files read field by field from bytes encoded by hand, and every
 * malformed input refused with a message naming the file, the node and the field
 * (doc/input-rules.rst, "Chakra execution traces (input)"). ProtoWriter is checked against
 * hand-encoded bytes first, then builds the larger inputs; byte offsets in the expected
 * messages are counted by hand from the layouts in the comments.
 */

#include "ns3/chakra-trace.h"
#include "ns3/proto-reader.h"
#include "ns3/proto-writer.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

using ns3::ChakraAttribute;
using ns3::ChakraCollective;
using ns3::ChakraNode;
using ns3::ChakraNodeType;
using ns3::ChakraTrace;
using ns3::ChakraTraceError;
using ns3::ProtoError;
using ns3::ProtoReader;
using ns3::ProtoWriter;

namespace
{

/** The file name every parsed input is given. */
const std::string FILE_NAME = "t.et";

/**
 * A GlobalMetadata of version 0.0.4 and two nodes, encoded by hand:
 * node 0: id 1, "fwd", COMP_NODE, 250 us;
 * node 1: id 2, "ar", COMM_COLL_NODE, data_deps [1] packed, comm_type int64_val 0
 * (ALL_REDUCE), comm_size uint64_val 1048576 (2^20: varint 80 80 40).
 */
const std::string TWO_NODES("\x07" // metadata: 7 bytes
                            "\x0a\x05"
                            "0.0.4"    // version
                            "\x0c"     // node 0: 12 bytes
                            "\x08\x01" // id 1
                            "\x12\x03"
                            "fwd"          // name
                            "\x18\x04"     // type COMP_NODE
                            "\x38\xfa\x01" // duration_micros 250
                            "\x2b"         // node 1: 43 bytes
                            "\x08\x02"     // id 2
                            "\x12\x02"
                            "ar"           // name
                            "\x18\x07"     // type COMM_COLL_NODE
                            "\x2a\x01\x01" // data_deps [1], packed
                            "\x52\x0d\x0a\x09"
                            "comm_type"
                            "\x48\x00" // attr: int64_val 0
                            "\x52\x0f\x0a\x09"
                            "comm_size"
                            "\x68\x80\x80\x40", // attr: uint64_val 2^20
                            65);

/** \return the GlobalMetadata frame of version "0.0.4": 07 0a 05 "0.0.4", 8 bytes */
std::string
Metadata()
{
    ProtoWriter metadata;
    metadata.WriteBytesField(1, "0.0.4");
    return ProtoWriter::Delimited(metadata.GetBytes());
}

/** \param message a message \return it behind its length */
std::string
Frame(const ProtoWriter& message)
{
    return ProtoWriter::Delimited(message.GetBytes());
}

/** \param message a message's bytes \return them behind their length */
std::string
Frame(const std::string& message)
{
    return ProtoWriter::Delimited(message);
}

/** \param id id \param micros duration \return a COMP_NODE: 08 id 18 04 38 micros */
ProtoWriter
Comp(uint64_t id, uint64_t micros)
{
    ProtoWriter node;
    node.WriteVarintField(1, id);
    node.WriteVarintField(3, 4);
    node.WriteVarintField(7, micros);
    return node;
}

/**
 * \param name attribute name \param field value field number (varint wire type)
 * \param value its value \return the AttributeProto's bytes
 */
std::string
VarintAttribute(const std::string& name, uint32_t field, uint64_t value)
{
    ProtoWriter attribute;
    attribute.WriteBytesField(1, name);
    attribute.WriteVarintField(field, value);
    return attribute.GetBytes();
}

/**
 * \param id id \param commType comm_type, as int64_val \param commSize comm_size, as
 * int64_val \return a COMM_COLL_NODE with those attributes
 */
ProtoWriter
Coll(uint64_t id, int64_t commType, int64_t commSize)
{
    ProtoWriter node;
    node.WriteVarintField(1, id);
    node.WriteVarintField(3, 7);
    node.WriteBytesField(10, VarintAttribute("comm_type", 9, static_cast<uint64_t>(commType)));
    node.WriteBytesField(10, VarintAttribute("comm_size", 9, static_cast<uint64_t>(commSize)));
    return node;
}

/** \param bytes a file's contents \return Parse()'s error message, or "accepted" */
std::string
ErrorOf(const std::string& bytes)
{
    try
    {
        ChakraTrace::Parse(bytes, FILE_NAME);
    }
    catch (const ChakraTraceError& e)
    {
        return e.what();
    }
    return "accepted";
}

/** \param nodes nodes built in code \return the constructor's error message, or "accepted" */
std::string
BuildError(const std::vector<ChakraNode>& nodes)
{
    try
    {
        ChakraTrace("code", "", nodes);
    }
    catch (const ChakraTraceError& e)
    {
        return e.what();
    }
    return "accepted";
}

} // namespace

TEST(ChakraProto, WritesVarintsKeysAndFixedValuesAsEncodedByHand)
{
    const auto varint = [](uint64_t value) {
        ProtoWriter w;
        w.WriteVarint(value);
        return w.GetBytes();
    };
    EXPECT_EQ(varint(0), std::string(1, '\0'));
    EXPECT_EQ(varint(1), "\x01");
    EXPECT_EQ(varint(127), "\x7f");
    EXPECT_EQ(varint(128), "\x80\x01");
    EXPECT_EQ(varint(300), "\xac\x02");
    EXPECT_EQ(varint(std::numeric_limits<uint64_t>::max()),
              "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01");
    ProtoWriter w;
    w.WriteKey(1, ProtoReader::VARINT);           // 08
    w.WriteKey(2, ProtoReader::LENGTH_DELIMITED); // 12
    w.WriteKey(16, ProtoReader::FIXED32);         // 16 << 3 | 5 = 133: 85 01
    w.WriteFixed32(0x01020304);                   // 04 03 02 01
    w.WriteFixed64(0x1122334455667788);           // 88 77 66 55 44 33 22 11
    w.WriteBytesField(2, "ab");                   // 12 02 61 62
    w.WritePackedVarints(5, {1, 300});            // 2a 03 01 ac 02
    w.WritePackedVarints(4, {});                  // nothing
    EXPECT_EQ(w.GetBytes(),
              "\x08\x12\x85\x01\x04\x03\x02\x01\x88\x77\x66\x55\x44\x33\x22\x11\x12\x02"
              "ab\x2a\x03\x01\xac\x02");
    EXPECT_EQ(ProtoWriter::EncodeZigZag64(0), 0u);
    EXPECT_EQ(ProtoWriter::EncodeZigZag64(-1), 1u);
    EXPECT_EQ(ProtoWriter::EncodeZigZag64(1), 2u);
    EXPECT_EQ(ProtoWriter::EncodeZigZag64(-2), 3u);
    EXPECT_EQ(ProtoWriter::EncodeZigZag64(std::numeric_limits<int64_t>::min()),
              std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(ProtoWriter::Delimited("abc"),
              "\x03"
              "abc");
}

TEST(ChakraProto, ReadsVarintsKeysAndFixedValuesAsEncodedByHand)
{
    const std::string bytes("\xac\x02"                                 // varint 300
                            "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01" // varint 2^64 - 1
                            "\x85\x01"                                 // key: field 16, fixed32
                            "\x04\x03\x02\x01"                         // fixed32
                            "\x88\x77\x66\x55\x44\x33\x22\x11"         // fixed64
                            "\x12\x02"
                            "ab"                // field 2: "ab"
                            "\x07"              // unpacked: 7
                            "\x03\x01\xac\x02", // packed: 1, 300
                            35);
    ProtoReader in(bytes);
    EXPECT_EQ(in.ReadVarint(), 300u);
    EXPECT_EQ(in.ReadVarint(), std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(in.GetOffset(), 12u);
    const ProtoReader::Key key = in.ReadKey();
    EXPECT_EQ(key.field, 16u);
    EXPECT_EQ(key.wireType, ProtoReader::FIXED32);
    EXPECT_EQ(in.ReadFixed32(), 0x01020304u);
    EXPECT_EQ(in.ReadFixed64(), 0x1122334455667788u);
    EXPECT_EQ(in.GetOffset(), 26u);
    EXPECT_EQ(in.ReadKey().field, 2u);
    EXPECT_EQ(in.ReadString(), "ab");
    std::vector<uint64_t> values;
    in.ReadRepeatedVarints(ProtoReader::VARINT, values);
    in.ReadRepeatedVarints(ProtoReader::LENGTH_DELIMITED, values);
    EXPECT_TRUE(in.AtEnd());
    EXPECT_EQ(in.GetOffset(), 35u);
    EXPECT_EQ(values, (std::vector<uint64_t>{7, 1, 300}));
    EXPECT_EQ(ProtoReader::DecodeZigZag64(3), -2);
    EXPECT_EQ(ProtoReader::DecodeZigZag64(std::numeric_limits<uint64_t>::max()),
              std::numeric_limits<int64_t>::min());
    EXPECT_EQ(ProtoReader::DecodeZigZag32(5), -3);
    EXPECT_EQ(ProtoReader::DecodeZigZag32(0x100000002), 1); // only the low 32 bits count
}

TEST(ChakraProto, NeverReadsPastItsRange)
{
    // A length-delimited payload of 2 bytes (01 02) followed by 03: its reader ends at 2.
    const std::string bytes("\x02\x01\x02\x03", 4);
    ProtoReader in(bytes);
    ProtoReader payload = in.ReadLengthDelimited();
    EXPECT_EQ(payload.GetOffset(), 1u);
    EXPECT_EQ(payload.ReadVarint(), 1u);
    EXPECT_EQ(payload.ReadVarint(), 2u);
    EXPECT_TRUE(payload.AtEnd());
    EXPECT_THROW(payload.ReadVarint(), ProtoError);
    EXPECT_EQ(in.ReadVarint(), 3u);
    // Cut-off values leave the reader where it was and say how much was missing.
    const std::string three("\x01\x02\x03", 3);
    ProtoReader short32(three);
    try
    {
        short32.ReadFixed32();
        ADD_FAILURE() << "read a fixed32 from 3 bytes";
    }
    catch (const ProtoError& e)
    {
        EXPECT_STREQ(e.what(), "at byte 0: fixed32 cut off: 4 bytes needed, 3 left");
    }
    EXPECT_EQ(short32.GetOffset(), 0u);
    const std::string cut("\x05\x01", 2);
    ProtoReader shortLength(cut);
    try
    {
        shortLength.ReadLengthDelimited();
        ADD_FAILURE() << "read 5 bytes from 1";
    }
    catch (const ProtoError& e)
    {
        EXPECT_STREQ(e.what(), "at byte 0: length 5 goes past the end (1 bytes left)");
    }
}

TEST(ChakraTrace, ReadsATwoNodeTraceFieldByField)
{
    const ChakraTrace trace = ChakraTrace::Parse(TWO_NODES, FILE_NAME);
    EXPECT_EQ(trace.GetName(), FILE_NAME);
    EXPECT_EQ(trace.GetVersion(), "0.0.4");
    EXPECT_TRUE(trace.GetMetadataAttributes().empty());
    ASSERT_EQ(trace.GetNodes().size(), 2u);

    const ChakraNode& forward = trace.GetNodes()[0];
    EXPECT_EQ(forward.id, 1u);
    EXPECT_EQ(forward.name, "fwd");
    EXPECT_EQ(forward.type, ChakraNodeType::COMP_NODE);
    EXPECT_TRUE(forward.ctrlDeps.empty());
    EXPECT_TRUE(forward.dataDeps.empty());
    EXPECT_EQ(forward.startTimeMicros, 0u);
    EXPECT_EQ(forward.durationMicros, 250u);
    EXPECT_TRUE(forward.attributes.empty());

    const ChakraNode& allReduce = trace.GetNodes()[1];
    EXPECT_EQ(allReduce.id, 2u);
    EXPECT_EQ(allReduce.name, "ar");
    EXPECT_EQ(allReduce.type, ChakraNodeType::COMM_COLL_NODE);
    EXPECT_TRUE(allReduce.ctrlDeps.empty());
    EXPECT_EQ(allReduce.dataDeps, (std::vector<uint64_t>{1}));
    EXPECT_EQ(allReduce.durationMicros, 0u);
    EXPECT_EQ(allReduce.commType, ChakraCollective::ALL_REDUCE);
    EXPECT_EQ(allReduce.commSize, 1048576u);
    EXPECT_TRUE(allReduce.attributes.empty()); // comm_type and comm_size moved to fields

    EXPECT_EQ(trace.FindNode(2), &allReduce);
    EXPECT_EQ(trace.FindIndex(1), std::optional<std::size_t>(0));
    EXPECT_EQ(trace.FindNode(3), nullptr);
    EXPECT_EQ(trace.GetTopologicalOrder(), (std::vector<std::size_t>{0, 1}));
    EXPECT_STREQ(ChakraTrace::NodeTypeName(allReduce.type), "COMM_COLL_NODE");
    EXPECT_STREQ(ChakraTrace::CollectiveName(allReduce.commType), "ALL_REDUCE");
    EXPECT_STREQ(ChakraTrace::NodeTypeName(ChakraNodeType::CHECKPOINT_NODE), "CHECKPOINT_NODE");
    EXPECT_STREQ(ChakraTrace::CollectiveName(ChakraCollective::BARRIER), "BARRIER");
    EXPECT_STREQ(ChakraTrace::NodeTypeName(static_cast<ChakraNodeType>(11)), "?");
}

TEST(ChakraTrace, AcceptsPackedAndUnpackedDependencies)
{
    ProtoWriter node = Comp(3, 1);
    node.WriteVarintField(4, 1);        // ctrl_deps 1, unpacked
    node.WriteVarintField(4, 2);        // ctrl_deps 2, unpacked
    node.WritePackedVarints(5, {2, 1}); // data_deps 2, 1, packed
    node.WriteVarintField(5, 1);        // data_deps 1 again, unpacked
    node.WritePackedVarints(4, {300});  // ctrl_deps 300, packed after unpacked ones
    const std::string bytes =
        Metadata() + Frame(Comp(1, 1)) + Frame(Comp(2, 1)) + Frame(Comp(300, 1)) + Frame(node);
    const ChakraTrace trace = ChakraTrace::Parse(bytes, FILE_NAME);
    const ChakraNode& last = trace.GetNodes()[3];
    EXPECT_EQ(last.ctrlDeps, (std::vector<uint64_t>{1, 2, 300}));
    EXPECT_EQ(last.dataDeps, (std::vector<uint64_t>{2, 1, 1}));
    EXPECT_EQ(last.durationMicros, 1u);
}

TEST(ChakraTrace, SkipsUnknownFieldsOfEveryWireType)
{
    ProtoWriter metadata;
    metadata.WriteVarintField(20, 5); // unknown: varint
    metadata.WriteBytesField(1, "v1");
    metadata.WriteBytesField(21, "future"); // unknown: length-delimited
    metadata.WriteBytesField(2, VarintAttribute("rank", 9, 3));
    ProtoWriter node;
    node.WriteVarintField(50, 1); // unknown: varint
    node.WriteVarintField(1, 7);
    node.WriteKey(51, ProtoReader::FIXED64); // unknown: fixed64
    node.WriteFixed64(0xffffffffffffffff);
    node.WriteVarintField(3, 5);             // COMM_SEND_NODE
    node.WriteKey(52, ProtoReader::FIXED32); // unknown: fixed32
    node.WriteFixed32(9);
    node.WriteBytesField(8, "\x0a\x01x");     // inputs (IOInfo): skipped
    node.WriteBytesField(9, "\x12\x01y");     // outputs: skipped
    node.WriteBytesField(11, "\x08\x01");     // storage (newer schema): skipped
    node.WriteBytesField(53, "\x08\x01\x08"); // unknown: length-delimited, not parsed
    ProtoWriter attribute;
    attribute.WriteVarintField(40, 1); // unknown in AttributeProto
    attribute.WriteBytesField(1, "comm_size");
    attribute.WriteBytesField(2, "bytes sent"); // doc_string: skipped
    attribute.WriteVarintField(13, 64);
    node.WriteBytesField(10, attribute.GetBytes());
    node.WriteVarintField(6, 1000); // start_time_micros
    const std::string bytes = Frame(metadata) + Frame(node);

    const ChakraTrace trace = ChakraTrace::Parse(bytes, FILE_NAME);
    EXPECT_EQ(trace.GetVersion(), "v1");
    ASSERT_EQ(trace.GetMetadataAttributes().size(), 1u);
    EXPECT_EQ(trace.GetMetadataAttributes()[0].name, "rank");
    EXPECT_EQ(trace.GetMetadataAttributes()[0].kind, ChakraAttribute::INT);
    EXPECT_EQ(trace.GetMetadataAttributes()[0].intValue, 3);
    ASSERT_EQ(trace.GetNodes().size(), 1u);
    const ChakraNode& send = trace.GetNodes()[0];
    EXPECT_EQ(send.id, 7u);
    EXPECT_EQ(send.type, ChakraNodeType::COMM_SEND_NODE);
    EXPECT_EQ(send.startTimeMicros, 1000u);
    // Not a collective: comm_size stays an attribute.
    ASSERT_EQ(send.attributes.size(), 1u);
    const ChakraAttribute* size = send.FindAttribute("comm_size");
    ASSERT_NE(size, nullptr);
    EXPECT_EQ(size->kind, ChakraAttribute::UINT);
    EXPECT_EQ(size->uintValue, 64u);
    EXPECT_EQ(send.FindAttribute("comm_type"), nullptr);
}

TEST(ChakraTrace, ReadsEveryScalarAttributeKind)
{
    ProtoWriter node = Comp(1, 1);
    const auto add = [&node](const std::string& name,
                             uint32_t field,
                             ProtoReader::WireType wire,
                             uint64_t value) {
        ProtoWriter attribute;
        attribute.WriteBytesField(1, name);
        attribute.WriteKey(field, wire);
        if (wire == ProtoReader::FIXED32)
        {
            attribute.WriteFixed32(static_cast<uint32_t>(value));
        }
        else if (wire == ProtoReader::FIXED64)
        {
            attribute.WriteFixed64(value);
        }
        else
        {
            attribute.WriteVarint(value);
        }
        node.WriteBytesField(10, attribute.GetBytes());
    };
    add("int32", 7, ProtoReader::VARINT, static_cast<uint64_t>(int64_t{-5})); // 10 bytes
    add("int64", 9, ProtoReader::VARINT, static_cast<uint64_t>(int64_t{-7}));
    add("int32-short", 7, ProtoReader::VARINT, 0xfffffffb); // -5 in 5 bytes, not sign-extended
    add("uint32", 11, ProtoReader::VARINT, 4000000000);
    add("uint32-wide", 11, ProtoReader::VARINT, (uint64_t{1} << 32) + 5); // low 32 bits: 5
    add("uint64", 13, ProtoReader::VARINT, uint64_t{1} << 63);
    add("sint32", 15, ProtoReader::VARINT, 5); // zigzag 5 = -3
    add("sint64", 17, ProtoReader::VARINT, 7); // zigzag 7 = -4
    add("fixed32", 19, ProtoReader::FIXED32, 0xdeadbeef);
    add("fixed64", 21, ProtoReader::FIXED64, 0x0102030405060708);
    add("sfixed32", 23, ProtoReader::FIXED32, 0xfffffffe); // -2
    add("sfixed64", 25, ProtoReader::FIXED64, static_cast<uint64_t>(int64_t{-9}));
    add("bool", 27, ProtoReader::VARINT, 2);                    // any non-zero: true
    add("double", 3, ProtoReader::FIXED64, 0x3ff8000000000000); // 1.5
    add("float", 5, ProtoReader::FIXED32, 0x3e800000);          // 0.25
    ProtoWriter text;
    text.WriteBytesField(1, "string");
    text.WriteBytesField(29, "x");
    node.WriteBytesField(10, text.GetBytes());
    ProtoWriter bytes;
    bytes.WriteBytesField(1, "bytes");
    bytes.WriteBytesField(31, std::string("\x00\xff", 2));
    node.WriteBytesField(10, bytes.GetBytes());
    ProtoWriter list;
    list.WriteBytesField(1, "list");
    list.WriteVarintField(9, 4);          // int64_val 4, then
    list.WriteBytesField(28, "\x01\x00"); // bool_list {true, false}: the value, not kept
    node.WriteBytesField(10, list.GetBytes());
    ProtoWriter twice;
    twice.WriteBytesField(1, "twice");
    twice.WriteVarintField(9, 1);
    twice.WriteBytesField(29, "last"); // a oneof: the last value wins
    node.WriteBytesField(10, twice.GetBytes());

    const ChakraTrace trace = ChakraTrace::Parse(Metadata() + Frame(node), FILE_NAME);
    const std::vector<ChakraAttribute>& a = trace.GetNodes()[0].attributes;
    ASSERT_EQ(a.size(), 19u);
    const auto isInt = [&a](std::size_t i, const char* name, int64_t value) {
        EXPECT_EQ(a[i].name, name);
        EXPECT_EQ(a[i].kind, ChakraAttribute::INT) << name;
        EXPECT_EQ(a[i].intValue, value) << name;
    };
    const auto isUint = [&a](std::size_t i, const char* name, uint64_t value) {
        EXPECT_EQ(a[i].name, name);
        EXPECT_EQ(a[i].kind, ChakraAttribute::UINT) << name;
        EXPECT_EQ(a[i].uintValue, value) << name;
    };
    isInt(0, "int32", -5);
    isInt(1, "int64", -7);
    isInt(2, "int32-short", -5);
    isUint(3, "uint32", 4000000000u);
    isUint(4, "uint32-wide", 5u);
    isUint(5, "uint64", 9223372036854775808u);
    isInt(6, "sint32", -3);
    isInt(7, "sint64", -4);
    isUint(8, "fixed32", 3735928559u);
    isUint(9, "fixed64", 72623859790382856u);
    isInt(10, "sfixed32", -2);
    isInt(11, "sfixed64", -9);
    EXPECT_EQ(a[12].kind, ChakraAttribute::BOOL);
    EXPECT_TRUE(a[12].boolValue);
    EXPECT_EQ(a[13].kind, ChakraAttribute::DOUBLE);
    EXPECT_EQ(a[13].doubleValue, 1.5);
    EXPECT_EQ(a[14].kind, ChakraAttribute::DOUBLE);
    EXPECT_EQ(a[14].doubleValue, 0.25);
    EXPECT_EQ(a[15].kind, ChakraAttribute::STRING);
    EXPECT_EQ(a[15].stringValue, "x");
    EXPECT_EQ(a[16].kind, ChakraAttribute::STRING);
    EXPECT_EQ(a[16].stringValue, std::string("\x00\xff", 2));
    EXPECT_EQ(a[17].name, "list");
    EXPECT_EQ(a[17].kind, ChakraAttribute::NONE);
    EXPECT_EQ(a[18].kind, ChakraAttribute::STRING);
    EXPECT_EQ(a[18].stringValue, "last");
}

TEST(ChakraTrace, OrdersNodesAfterTheirDependencies)
{
    // File order: id 5 (needs 7), id 7, id 9 (needs 5 and 7). Only 7 is ready at first; 5 is
    // released by 7, and 9 by 5.
    ProtoWriter five = Comp(5, 1);
    five.WriteVarintField(5, 7);
    ProtoWriter nine = Comp(9, 1);
    nine.WriteVarintField(4, 5);
    nine.WriteVarintField(5, 7);
    const ChakraTrace trace =
        ChakraTrace::Parse(Metadata() + Frame(five) + Frame(Comp(7, 1)) + Frame(nine), FILE_NAME);
    EXPECT_EQ(trace.GetTopologicalOrder(), (std::vector<std::size_t>{1, 0, 2}));
}

TEST(ChakraTrace, WritesWhatItReads)
{
    ChakraNode compute;
    compute.id = 1;
    compute.type = ChakraNodeType::COMP_NODE;
    compute.durationMicros = 2;
    // Metadata: 0a 01 "v" (3 bytes). Node: id 08 01, name 12 00, type 18 04, start 30 00,
    // duration 38 02: 10 bytes.
    const ChakraTrace one("code", "v", {compute});
    EXPECT_EQ(one.ToBytes(),
              std::string("\x03\x0a\x01v\x0a\x08\x01\x12\x00\x18\x04\x30\x00\x38\x02", 15));

    // Read, written and read again: the same trace, also with a 0 us COMP_NODE (written
    // explicitly) and a collective whose comm_size needs all 64 bits.
    ChakraNode zero = compute;
    zero.id = 3;
    zero.durationMicros = 0;
    zero.dataDeps = {1};
    ChakraNode reduce;
    reduce.id = 4;
    reduce.name = "rs";
    reduce.type = ChakraNodeType::COMM_COLL_NODE;
    reduce.commType = ChakraCollective::REDUCE_SCATTER;
    reduce.commSize = std::numeric_limits<uint64_t>::max();
    reduce.ctrlDeps = {3, 1};
    ChakraAttribute nan;
    nan.name = "nan";
    nan.kind = ChakraAttribute::DOUBLE;
    nan.doubleValue = std::numeric_limits<double>::quiet_NaN();
    ChakraAttribute flag;
    flag.name = "is_cpu_op";
    flag.kind = ChakraAttribute::BOOL;
    reduce.attributes = {nan, flag};
    const ChakraTrace built("code", "0.0.4", {compute, zero, reduce}, {nan});
    const ChakraTrace again = ChakraTrace::Parse(built.ToBytes(), "again.et");
    EXPECT_EQ(again.GetVersion(), "0.0.4");
    EXPECT_EQ(again.GetMetadataAttributes(), built.GetMetadataAttributes());
    EXPECT_EQ(again.GetNodes(), built.GetNodes());
    EXPECT_EQ(ChakraTrace::Parse(TWO_NODES, FILE_NAME).GetNodes(),
              ChakraTrace::Parse(ChakraTrace::Parse(TWO_NODES, FILE_NAME).ToBytes(), FILE_NAME)
                  .GetNodes());
}

TEST(ChakraTrace, ReadsAFileAndNamesItInErrors)
{
    const std::string path = ::testing::TempDir() + "chakra-trace-unit.0.et";
    {
        std::ofstream out(path, std::ios::binary);
        out << TWO_NODES;
    }
    EXPECT_EQ(ChakraTrace::Read(path).GetNodes().size(), 2u);
    EXPECT_EQ(ChakraTrace::Read(path).GetName(), path);
    {
        std::ofstream out(path, std::ios::binary);
        out << TWO_NODES.substr(0, 30); // cut in node 1 (its frame starts at byte 21)
    }
    try
    {
        ChakraTrace::Read(path);
        ADD_FAILURE() << "read a cut file";
    }
    catch (const ChakraTraceError& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  path + ": node 1: length prefix: at byte 21: length 43 goes past the end (8 "
                         "bytes left)");
    }
    std::remove(path.c_str());
    try
    {
        ChakraTrace::Read(path);
        ADD_FAILURE() << "read a missing file";
    }
    catch (const ChakraTraceError& e)
    {
        EXPECT_EQ(std::string(e.what()), path + ": cannot open the Chakra trace file");
    }
    try
    {
        ChakraTrace::Read(::testing::TempDir());
        ADD_FAILURE() << "read a folder";
    }
    catch (const ChakraTraceError& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  ::testing::TempDir() + ": cannot read the Chakra trace file");
    }
}

// Malformed files: each refused with the file, the node (index, and id once read) and the
// field. Node frames start at byte 8, after the 8-byte metadata frame; a node's first field at
// byte 9.

TEST(ChakraTraceErrors, EmptyFileHasNoMetadata)
{
    EXPECT_EQ(ErrorOf(""),
              "t.et: global metadata: missing: the file is empty (a trace starts with a "
              "GlobalMetadata message)");
}

TEST(ChakraTraceErrors, FileWithoutNodes)
{
    EXPECT_EQ(ErrorOf(Metadata()), "t.et: no nodes after the GlobalMetadata message");
}

TEST(ChakraTraceErrors, FileWithoutMetadata)
{
    // A node where the metadata belongs: its id (field 1, varint) is not GlobalMetadata's
    // version (field 1, length-delimited).
    EXPECT_EQ(ErrorOf(Frame(Comp(1, 5)) + Frame(Comp(2, 5))),
              "t.et: global metadata: version: wire type 0 (varint), expected 2 "
              "(length-delimited); a trace starts with a GlobalMetadata message");
    // A node of id 0 (no id field) whose fields happen to fit: its type gives it away.
    ProtoWriter node;
    node.WriteBytesField(2, "\x0a\x01x"); // a name that parses as an AttributeProto
    node.WriteVarintField(3, 4);
    EXPECT_EQ(ErrorOf(Frame(node)),
              "t.et: global metadata: field 3: a Node's field (type) in the first message; a "
              "trace starts with a GlobalMetadata message");
}

TEST(ChakraTraceErrors, TruncatedStream)
{
    // Metadata 0..7, node 0 frame 8..15 (COMP id 1: 7 bytes), node 1's frame at 16 announces
    // 20 bytes and 5 follow.
    const std::string cut =
        Metadata() + Frame(Comp(1, 250)) + std::string("\x14\x08\x02\x18\x07\x2a", 6);
    EXPECT_EQ(ErrorOf(cut),
              "t.et: node 1: length prefix: at byte 16: length 20 goes past the end (5 bytes "
              "left)");
    // The length prefix itself cut: 0x80 promises another byte.
    EXPECT_EQ(ErrorOf(Metadata() + "\x80"),
              "t.et: node 0: length prefix: at byte 8: varint cut off by the end of the data");
    // Inside a node: a key without its value (frame 01, key 08 at 9, value due at 10).
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x08"))),
              "t.et: node 0: id: at byte 10: varint cut off by the end of the data");
    // A fixed64 cut by the end of its node (not of the file): key at 11, value at 12.
    EXPECT_EQ(
        ErrorOf(Metadata() + Frame(std::string("\x08\x01\x61\x01\x02", 5)) + Frame(Comp(2, 1))),
        "t.et: node 0 (id 1): field 12: at byte 12: fixed64 cut off: 8 bytes needed, 2 "
        "left");
    // An attribute's length past its node: node 08 01 18 07 52 32 (50 bytes) then 2 bytes.
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x08\x01\x18\x07\x52\x32\x0a\x00", 8))),
              "t.et: node 0 (id 1): attr: at byte 14: length 50 goes past the end (2 bytes "
              "left)");
}

TEST(ChakraTraceErrors, BadVarints)
{
    // Ten bytes with the continuation bit and an eleventh: id's value at byte 10.
    EXPECT_EQ(ErrorOf(Metadata() +
                      Frame(std::string("\x08\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 12))),
              "t.et: node 0: id: at byte 10: varint longer than 10 bytes");
    // Ten bytes whose last carries more than bit 63.
    EXPECT_EQ(ErrorOf(Metadata() +
                      Frame(std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 11))),
              "t.et: node 0: id: at byte 10: varint overflows 64 bits");
    // The largest varint is fine: id 2^64 - 1.
    const ChakraTrace big =
        ChakraTrace::Parse(Metadata() + Frame(Comp(std::numeric_limits<uint64_t>::max(), 1)),
                           FILE_NAME);
    EXPECT_EQ(big.GetNodes()[0].id, std::numeric_limits<uint64_t>::max());
    // In a packed run: data_deps 2a 02 then 80 80 (cut by the end of the run) at byte 13.
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x08\x01\x2a\x02\x80\x80\x18\x04", 8))),
              "t.et: node 0 (id 1): data_deps: at byte 13: varint cut off by the end of the data");
}

TEST(ChakraTraceErrors, WireTypesThatDoNotMatchTheField)
{
    // name (field 2) as a varint: 10 05.
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x08\x01\x10\x05", 4))),
              "t.et: node 0 (id 1): name: wire type 0 (varint), expected 2 (length-delimited)");
    // data_deps as fixed32: 2d 01 00 00 00.
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x08\x01\x2d\x01\x00\x00\x00", 7))),
              "t.et: node 0 (id 1): data_deps: wire type 5 (fixed32), expected 0 (varint) or 2 "
              "(length-delimited, packed)");
    // type as length-delimited, before the id is known.
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x1a\x00\x08\x01", 4))),
              "t.et: node 0: type: wire type 2 (length-delimited), expected 0 (varint)");
    // An attribute's int64_val as length-delimited (4a 01 00).
    ProtoWriter attribute;
    attribute.WriteBytesField(1, "comm_type");
    attribute.WriteBytesField(9, std::string(1, '\0'));
    ProtoWriter node;
    node.WriteVarintField(1, 1);
    node.WriteVarintField(3, 7);
    node.WriteBytesField(10, attribute.GetBytes());
    EXPECT_EQ(ErrorOf(Metadata() + Frame(node)),
              "t.et: node 0 (id 1): attr[0].int64_val: wire type 2 (length-delimited), expected "
              "0 (varint)");
    // Wire type 7 does not exist (field 12: key 67 at byte 11); nor does field number 0.
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x08\x01\x67\x00", 4))),
              "t.et: node 0 (id 1): at byte 11: field 12: wire type 7 is not a protobuf wire type");
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x08\x01\x00\x00", 4))),
              "t.et: node 0 (id 1): at byte 11: field number 0 is not in 1..536870911");
    // Groups (wire type 3) in an unknown field: key 63 at 11, refused at 12.
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x08\x01\x63\x64", 4))),
              "t.et: node 0 (id 1): field 12: at byte 12: wire type 3 (start group): groups are "
              "not supported");
}

TEST(ChakraTraceErrors, NodeTypes)
{
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x08\x01\x18\x0b", 4))),
              "t.et: node 0 (id 1): type: 11 is not a node type (1 METADATA_NODE to 10 "
              "CHECKPOINT_NODE are)");
    // 2^32 + 4 is not COMP_NODE (4) in disguise: varint 84 80 80 80 10.
    EXPECT_EQ(
        ErrorOf(Metadata() + Frame(std::string("\x08\x01\x18\x84\x80\x80\x80\x10\x38\x01", 10))),
        "t.et: node 0 (id 1): type: 4294967300 is not a node type (1 METADATA_NODE to 10 "
        "CHECKPOINT_NODE are)");
    const std::string invalid =
        "t.et: node 0 (id 1): type: INVALID_NODE (0) is not a node type a trace may hold (a "
        "node without a type reads as 0)";
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x08\x01\x18\x00", 4))), invalid);
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x08\x01\x38\x05", 4))), invalid);
    // Built in code: the same rules.
    ChakraNode node;
    node.type = static_cast<ChakraNodeType>(12);
    EXPECT_EQ(BuildError({node}),
              "code: node 0 (id 0): type: 12 is not a node type (1 METADATA_NODE to 10 "
              "CHECKPOINT_NODE are)");
    node.type = ChakraNodeType::COMM_COLL_NODE;
    node.commType = static_cast<ChakraCollective>(10);
    EXPECT_EQ(BuildError({node}),
              "code: node 0 (id 0): comm_type: 10 is not a collective type (0 ALL_REDUCE to 9 "
              "BARRIER are)");
    EXPECT_EQ(BuildError({}), "code: no nodes");
}

TEST(ChakraTraceErrors, CompNodeWithoutDuration)
{
    EXPECT_EQ(ErrorOf(Metadata() + Frame(std::string("\x08\x01\x18\x04", 4))),
              "t.et: node 0 (id 1): duration_micros: missing (a COMP_NODE needs its duration)");
}

TEST(ChakraTraceErrors, Collectives)
{
    const std::string head = Metadata() + Frame(Comp(1, 1));
    EXPECT_EQ(ErrorOf(head + Frame(Coll(2, 10, 8))),
              "t.et: node 1 (id 2): comm_type: 10 is not a collective type (0 ALL_REDUCE to 9 "
              "BARRIER are)");
    // 2^32 is not ALL_REDUCE (0) in disguise.
    EXPECT_EQ(ErrorOf(head + Frame(Coll(2, int64_t{1} << 32, 8))),
              "t.et: node 1 (id 2): comm_type: 4294967296 is not a collective type (0 ALL_REDUCE "
              "to 9 BARRIER are)");
    EXPECT_EQ(ErrorOf(head + Frame(Coll(2, -1, 8))),
              "t.et: node 1 (id 2): comm_type: -1 is not a collective type (0 ALL_REDUCE to 9 "
              "BARRIER are)");
    EXPECT_EQ(ErrorOf(head + Frame(Coll(2, 0, -5))),
              "t.et: node 1 (id 2): comm_size: -5 is negative (a size in bytes)");
    const std::string missing =
        "missing (a COMM_COLL_NODE needs the attributes comm_type and comm_size)";
    ProtoWriter noType;
    noType.WriteVarintField(1, 2);
    noType.WriteVarintField(3, 7);
    noType.WriteBytesField(10, VarintAttribute("comm_size", 13, 8));
    EXPECT_EQ(ErrorOf(head + Frame(noType)), "t.et: node 1 (id 2): comm_type: " + missing);
    ProtoWriter noSize;
    noSize.WriteVarintField(1, 2);
    noSize.WriteVarintField(3, 7);
    noSize.WriteBytesField(10, VarintAttribute("comm_type", 13, 2));
    EXPECT_EQ(ErrorOf(head + Frame(noSize)), "t.et: node 1 (id 2): comm_size: " + missing);
    ProtoWriter twice = Coll(2, 0, 8);
    twice.WriteBytesField(10, VarintAttribute("comm_type", 9, 0));
    EXPECT_EQ(ErrorOf(head + Frame(twice)), "t.et: node 1 (id 2): comm_type: appears twice");
    ProtoWriter text;
    text.WriteVarintField(1, 2);
    text.WriteVarintField(3, 7);
    text.WriteBytesField(10, VarintAttribute("comm_type", 9, 0));
    text.WriteBytesField(10,
                         "\x0a\x09"
                         "comm_size\xea\x01\x02"
                         "64"); // string_val "64"
    EXPECT_EQ(ErrorOf(head + Frame(text)),
              "t.et: node 1 (id 2): comm_size: a string value, expected an integer");
    // Every integer kind is a size: sint64 (zigzag) 1000, uint32 2, fixed64 3.
    ProtoWriter kinds;
    kinds.WriteVarintField(1, 2);
    kinds.WriteVarintField(3, 7);
    kinds.WriteBytesField(10, VarintAttribute("comm_type", 11, 7));
    kinds.WriteBytesField(10, VarintAttribute("comm_size", 17, ProtoWriter::EncodeZigZag64(1000)));
    const ChakraTrace trace = ChakraTrace::Parse(head + Frame(kinds), FILE_NAME);
    EXPECT_EQ(trace.GetNodes()[1].commType, ChakraCollective::REDUCE_SCATTER);
    EXPECT_EQ(trace.GetNodes()[1].commSize, 1000u);
}

TEST(ChakraTraceErrors, DuplicateIds)
{
    EXPECT_EQ(ErrorOf(Metadata() + Frame(Comp(1, 1)) + Frame(Comp(2, 1)) + Frame(Comp(1, 1))),
              "t.et: node 2 (id 1): id: 1 is already the id of node 0");
}

TEST(ChakraTraceErrors, DependencyNotInTheTrace)
{
    ProtoWriter last = Comp(17, 1);
    last.WritePackedVarints(5, {16, 99});
    const std::string head =
        Metadata() + Frame(Comp(14, 1)) + Frame(Comp(15, 1)) + Frame(Comp(16, 1));
    EXPECT_EQ(ErrorOf(head + Frame(last)),
              "t.et: node 3 (id 17): data_deps: id 99 is not in the trace");
    ProtoWriter control = Comp(17, 1);
    control.WriteVarintField(4, 0);
    EXPECT_EQ(ErrorOf(head + Frame(control)),
              "t.et: node 3 (id 17): ctrl_deps: id 0 is not in the trace");
}

TEST(ChakraTraceErrors, CycleNamesANodeOnIt)
{
    // 1 needs 3 (data), 3 needs 2 (data), 2 needs 1 (control); 4 needs 1 but is not on the
    // cycle. The walk starts at node 0 (id 1), the first left over.
    ProtoWriter one = Comp(1, 1);
    one.WriteVarintField(5, 3);
    ProtoWriter two = Comp(2, 1);
    two.WriteVarintField(4, 1);
    ProtoWriter three = Comp(3, 1);
    three.WriteVarintField(5, 2);
    ProtoWriter four = Comp(4, 1);
    four.WriteVarintField(5, 1);
    EXPECT_EQ(ErrorOf(Metadata() + Frame(one) + Frame(two) + Frame(three) + Frame(four)),
              "t.et: node 0 (id 1): data_deps: dependency cycle 1 -> 3 -> 2 -> 1 (each needs "
              "the next)");
    // The first node left over (id 10) only leads to the cycle, a node that needs itself.
    ProtoWriter lead = Comp(10, 1);
    lead.WriteVarintField(5, 11);
    ProtoWriter self = Comp(11, 1);
    self.WriteVarintField(4, 11);
    EXPECT_EQ(ErrorOf(Metadata() + Frame(lead) + Frame(self)),
              "t.et: node 1 (id 11): ctrl_deps: dependency cycle 11 -> 11 (each needs the next)");
    // A ring of 12 (id i needs i + 1, 11 needs 0): eight ids shown, then "...".
    std::string ring = Metadata();
    for (uint64_t i = 0; i < 12; ++i)
    {
        ProtoWriter node = Comp(i, 1);
        node.WriteVarintField(5, (i + 1) % 12);
        ring += Frame(node);
    }
    EXPECT_EQ(ErrorOf(ring),
              "t.et: node 0 (id 0): data_deps: dependency cycle 0 -> 1 -> 2 -> 3 -> 4 -> 5 -> 6 "
              "-> 7 -> ... -> 0 (each needs the next)");
}
