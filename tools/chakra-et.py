#!/usr/bin/env python3
"""Write Chakra execution traces (ET files) of a data-parallel transformer, one per rank.

Each of the R ranks runs the same step, so every PREFIX.<rank>.et holds the same nodes: for each
of the L layers a forward and a backward compute node (COMP_NODE), and one all-reduce
(COMM_COLL_NODE, ALL_REDUCE) per gradient bucket.

Durations (integers in microseconds, rounded up, at least 1)::

    forward of one layer   ceil(2 x P x T / F x 1e6)
    backward of one layer  ceil(4 x P x T / F x 1e6)

with P = --params-per-layer, T = --tokens (per rank and step), F = --device-flops (FLOP/s).
The arithmetic is exact (fractions), so 2.048e11 FLOP at 1e14 FLOP/s is 2048 us, not 2049.

Buckets: the backward pass runs from the last layer to the first; its layers' gradients
(P x --bytes-per-param bytes each) are gathered into a bucket until the bucket holds at least
--bucket-bytes, then the bucket is all-reduced; the layers left at the end form the last bucket.
A bucket's all-reduce has comm_size = the bytes of its layers.

Nodes, in file order and with ids 0, 1, 2, ... in that order::

    fwd_layer_0 .. fwd_layer_{L-1}    data_deps: the previous forward (none for layer 0)
    bwd_layer_{L-1} .. bwd_layer_0    data_deps: bwd of the next layer (the last forward
                                      for layer L-1)
    all_reduce_bucket_<k>             right after the backward that completes the bucket;
                                      data_deps: that backward (of the bucket's lowest layer,
                                      the last of its layers the backward pass computes);
                                      ctrl_deps: the previous bucket's all-reduce (collectives
                                      of one process group run in the order they are issued)

Every compute and collective node carries the attribute is_cpu_op = false (a GPU operation, as
Chakra's converters write it); collectives carry comm_type (int64_val) and comm_size
(int64_val). The global metadata's version is 0.0.4.

--json FILE writes what was meant, for the round-trip test: {"traces": [{"rank": r,
"version": ..., "nodes": [...]}]}, each node with id, name, type, ctrl_deps, data_deps,
start_time_micros, duration_micros, comm_type and comm_size (collectives only) and attr (a list
of {"name", "value"}), as examples/chakra-trace-info prints a trace it read.

Example (examples/traces/README.md)::

    python3 tools/chakra-et.py --ranks 2 --layers 4 --params-per-layer 25000000 \\
        --tokens 4096 --device-flops 312e12 --bucket-bytes 200000000 \\
        --prefix examples/traces/tiny-dp

Standard library only. Exit code 0, or 2 with a message for a bad flag.
"""

import argparse
import fractions
import json
import math
import os
import sys

VERSION = "0.0.4"

# et_def.proto: NodeType and CollectiveCommType numbers.
COMP_NODE = 4
COMM_COLL_NODE = 7
NODE_TYPE_NAMES = {COMP_NODE: "COMP_NODE", COMM_COLL_NODE: "COMM_COLL_NODE"}
ALL_REDUCE = 0
COLLECTIVE_NAMES = {ALL_REDUCE: "ALL_REDUCE"}

# Wire types of the protobuf encoding.
VARINT = 0
LENGTH_DELIMITED = 2


# ---------------------------------------------------------------------------------------------
# Protobuf wire format (only what the traces need).

def varint(value):
    """The varint encoding of a non-negative integer below 2^64 (negatives as two's
    complement, as int64 fields are written)."""
    value &= (1 << 64) - 1
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def key(field, wire_type):
    return varint(field << 3 | wire_type)


def varint_field(field, value):
    return key(field, VARINT) + varint(value)


def bytes_field(field, payload):
    if isinstance(payload, str):
        payload = payload.encode("utf-8")
    return key(field, LENGTH_DELIMITED) + varint(len(payload)) + payload


def packed_field(field, values):
    if not values:
        return b""
    return bytes_field(field, b"".join(varint(v) for v in values))


def delimited(message):
    return varint(len(message)) + message


# ---------------------------------------------------------------------------------------------
# Chakra messages (et_def.proto).

def encode_attribute(name, value):
    """AttributeProto: a bool as bool_val (27), an int as int64_val (9)."""
    out = bytes_field(1, name)
    if isinstance(value, bool):
        return out + varint_field(27, 1 if value else 0)
    return out + varint_field(9, value)


def encode_node(node):
    """Node: id 1, name 2, type 3, ctrl_deps 4 and data_deps 5 (packed), duration_micros 7,
    attr 10 (comm_type and comm_size first for a collective)."""
    out = varint_field(1, node["id"]) + bytes_field(2, node["name"])
    out += varint_field(3, node["type"])
    out += packed_field(4, node["ctrl_deps"]) + packed_field(5, node["data_deps"])
    if node["type"] == COMP_NODE:
        out += varint_field(7, node["duration_micros"])
    if node["type"] == COMM_COLL_NODE:
        out += bytes_field(10, encode_attribute("comm_type", node["comm_type"]))
        out += bytes_field(10, encode_attribute("comm_size", node["comm_size"]))
    for name, value in node["attr"]:
        out += bytes_field(10, encode_attribute(name, value))
    return out


def encode_trace(nodes):
    """An ET file: the GlobalMetadata, then every node, each behind its length."""
    messages = [delimited(bytes_field(1, VERSION))]
    messages.extend(delimited(encode_node(node)) for node in nodes)
    return b"".join(messages)


# ---------------------------------------------------------------------------------------------
# The workload.

def micros(flops, device_flops):
    """ceil(flops / device_flops x 1e6), at least 1, exactly."""
    return max(1, math.ceil(fractions.Fraction(flops) * 1000000 / device_flops))


def buckets(layers, layer_bytes, bucket_bytes):
    """Layers grouped in backward order (last first) until a bucket reaches bucket_bytes."""
    groups = []
    current = []
    for layer in range(layers - 1, -1, -1):
        current.append(layer)
        if len(current) * layer_bytes >= bucket_bytes:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def build_nodes(args):
    """The nodes of one rank's step, in file order (see the module docstring)."""
    tokens_params = args.params_per_layer * args.tokens
    forward = micros(2 * tokens_params, args.device_flops)
    backward = micros(4 * tokens_params, args.device_flops)
    layer_bytes = args.params_per_layer * args.bytes_per_param
    nodes = []

    def add(name, node_type, data_deps, ctrl_deps=(), **fields):
        node = {"id": len(nodes), "name": name, "type": node_type, "ctrl_deps": list(ctrl_deps),
                "data_deps": list(data_deps), "start_time_micros": 0, "duration_micros": 0,
                "attr": [("is_cpu_op", False)]}
        node.update(fields)
        nodes.append(node)
        return node["id"]

    previous = []
    for layer in range(args.layers):
        previous = [add("fwd_layer_%d" % layer, COMP_NODE, previous, duration_micros=forward)]
    bucket_of_layer = {}
    groups = buckets(args.layers, layer_bytes, args.bucket_bytes)
    for index, group in enumerate(groups):
        for layer in group:
            bucket_of_layer[layer] = index
    last_all_reduce = []
    for layer in range(args.layers - 1, -1, -1):
        previous = [add("bwd_layer_%d" % layer, COMP_NODE, previous, duration_micros=backward)]
        group = groups[bucket_of_layer[layer]]
        if layer == group[-1]:  # the bucket's gradients are all computed
            last_all_reduce = [add("all_reduce_bucket_%d" % bucket_of_layer[layer], COMM_COLL_NODE,
                                   previous, last_all_reduce, comm_type=ALL_REDUCE,
                                   comm_size=len(group) * layer_bytes)]
    return nodes


def node_json(node):
    """A node as --json and chakra-trace-info print it."""
    out = {"id": node["id"], "name": node["name"], "type": NODE_TYPE_NAMES[node["type"]],
           "ctrl_deps": node["ctrl_deps"], "data_deps": node["data_deps"],
           "start_time_micros": node["start_time_micros"],
           "duration_micros": node["duration_micros"]}
    if node["type"] == COMM_COLL_NODE:
        out["comm_type"] = COLLECTIVE_NAMES[node["comm_type"]]
        out["comm_size"] = node["comm_size"]
    out["attr"] = [{"name": name, "value": value} for name, value in node["attr"]]
    return out


# ---------------------------------------------------------------------------------------------
# Command line.

def positive_int(text):
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError("%r: expected a whole number" % text)
    if value < 1:
        raise argparse.ArgumentTypeError("%r: must be at least 1" % text)
    return value


def positive_rate(text):
    try:
        value = fractions.Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError("%r: expected a number such as 312e12" % text)
    if value <= 0:
        raise argparse.ArgumentTypeError("%r: must be positive" % text)
    return value


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="chakra-et.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Write Chakra ET files PREFIX.<rank>.et of a data-parallel transformer: "
        "per layer a forward and a backward COMP_NODE, one ALL_REDUCE per gradient bucket.",
        epilog="Durations, in whole microseconds rounded up (at least 1):\n"
        "  forward  = ceil(2 x params-per-layer x tokens / device-flops x 1e6)\n"
        "  backward = ceil(4 x params-per-layer x tokens / device-flops x 1e6)\n"
        "Buckets: layers from the last backwards, each bucket closed when its gradient bytes\n"
        "(params-per-layer x bytes-per-param per layer) reach --bucket-bytes; its ALL_REDUCE\n"
        "has that size, data_deps on the backward of its lowest layer (the last computed)\n"
        "and ctrl_deps on the previous bucket's ALL_REDUCE.")
    parser.add_argument("--ranks", type=positive_int, required=True, help="ranks (files)")
    parser.add_argument("--layers", type=positive_int, required=True, help="transformer layers")
    parser.add_argument("--params-per-layer", type=positive_int, required=True,
                        help="parameters of one layer")
    parser.add_argument("--tokens", type=positive_int, required=True,
                        help="tokens per rank and step")
    parser.add_argument("--device-flops", type=positive_rate, required=True,
                        help="device rate in FLOP/s, e.g. 312e12")
    parser.add_argument("--bytes-per-param", type=positive_int, default=4,
                        help="gradient bytes per parameter (default 4)")
    parser.add_argument("--bucket-bytes", type=positive_int, required=True,
                        help="gradient bytes that close a bucket")
    parser.add_argument("--prefix", required=True, help="files are PREFIX.<rank>.et")
    parser.add_argument("--json", metavar="FILE", help="also write the nodes meant, as JSON")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if args.layers * args.params_per_layer * args.bytes_per_param >= 1 << 63:
        print("chakra-et.py: error: the gradient bytes (layers x params-per-layer x "
              "bytes-per-param) must be below 2^63 (comm_size is an int64)", file=sys.stderr)
        return 2
    nodes = build_nodes(args)
    if max(n["duration_micros"] for n in nodes) >= 1 << 64:
        print("chakra-et.py: error: a backward pass of 2^64 us or more (duration_micros is a "
              "uint64): check --device-flops", file=sys.stderr)
        return 2
    data = encode_trace(nodes)
    folder = os.path.dirname(args.prefix)
    if folder:
        os.makedirs(folder, exist_ok=True)
    for rank in range(args.ranks):
        with open("%s.%d.et" % (args.prefix, rank), "wb") as out:
            out.write(data)
    if args.json:
        document = {"traces": [{"rank": rank, "version": VERSION,
                                "nodes": [node_json(n) for n in nodes]}
                               for rank in range(args.ranks)]}
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(document, out, indent=2)
            out.write("\n")
    bucket_count = sum(1 for n in nodes if n["type"] == COMM_COLL_NODE)
    print("wrote %s.{0..%d}.et: %d nodes each (%d layers, %d buckets), %d bytes each"
          % (args.prefix, args.ranks - 1, len(nodes), args.layers, bucket_count, len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
