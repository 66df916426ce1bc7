#!/usr/bin/env python3
"""Layering check of the module's C++ sources: two-way include pairs and long functions.

1. Two-way include pairs. A component is a file name without extension in model/ or helper/
   (model/round-exchange.h and model/round-exchange.cc form component round-exchange).
   Component A uses B (A != B) when A.h or A.cc has #include "B.h" or #include "ns3/B.h" and B
   is a component; commented-out includes do not count. A two-way pair is {A, B} where A uses
   B and B uses A. Each pair is reported once, sorted, with the includes of each direction.

2. Long functions, in the .cc and .h files of model/, helper/ and examples/ (examples/
   subfolders too). The sources are clang-formatted in ns-3 style: a function definition's
   opening brace stands alone at column 0 on the line after its signature and its closing
   brace alone at column 0. A function's length is the number of lines from the first line of
   its signature to its closing "}", both included. The signature starts after the nearest
   line above the "{" that is blank, a comment, a preprocessor line, ends with ";" or "{", or
   starts with "}". A function is named by the last word before the signature's "(", class
   included (Class::Name, template arguments left out). Functions defined inside a class body
   are indented and are not counted.

The allow-list (default <root>/tools/layering-allow.txt; none if that file is missing) has
one entry a line; "#" comments and blank lines are ignored:

    pair <componentA> <componentB>  # reason
    function <path>:<FunctionName>  # reason

An allowed pair or function is reported as "allowed (reason)" and does not fail the check. An
entry that matches nothing is stale and fails the check, so the list shrinks as code is fixed.

Exit status: 0 ok, 1 the check failed, 2 bad usage or a malformed allow-list.
"""

import argparse
import os
import re
import sys

COMPONENT_DIRS = ("model", "helper")
FUNCTION_DIRS = ("model", "helper", "examples")
INCLUDE = re.compile(r'\s*#\s*include\s*"(?:ns3/)?([^"/]+)\.h"')
NOT_FUNCTIONS = ("class", "struct", "union", "enum", "namespace", "extern")


class UsageError(Exception):
    """Bad command line or malformed allow-list: exit status 2."""


def read_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().splitlines()


def strip_comments(lines):
    """The lines with their // and /* */ comments removed (string and char literals kept)."""
    result, in_block = [], False
    for line in lines:
        kept, i, quote = [], 0, None
        while i < len(line):
            two = line[i:i + 2]
            if in_block:
                in_block = two != "*/"
                i += 1 if in_block else 2
            elif quote:  # inside "..." or '...': a backslash keeps the next character in
                step = 2 if line[i] == "\\" else 1
                kept.append(line[i:i + step])
                quote = None if line[i] == quote else quote
                i += step
            elif two == "//":
                break
            elif two == "/*":
                in_block, i = True, i + 2
                kept.append(" ")
            else:
                quote = line[i] if line[i] in "\"'" else None
                kept.append(line[i])
                i += 1
        result.append("".join(kept))
    return result


def source_files(root, folder, recursive=False):
    """Relative paths (with "/") of the .h and .cc files in root/folder, sorted."""
    found = []
    for dirpath, _, filenames in os.walk(os.path.join(root, folder)):
        found += [os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
                  for name in filenames if name.endswith((".h", ".cc"))]
        if not recursive:
            break
    return sorted(found)


def find_two_way_pairs(root):
    """{(A, B): {A: [(path, line), ...], B: [...]}} with A < B, for every two-way pair."""
    files = [path for folder in COMPONENT_DIRS for path in source_files(root, folder)]
    components = {os.path.splitext(os.path.basename(path))[0] for path in files}
    uses = {}  # (user, used) -> [(path, line number)]
    for path in files:
        user = os.path.splitext(os.path.basename(path))[0]
        for number, line in enumerate(strip_comments(read_lines(os.path.join(root, path))), 1):
            match = INCLUDE.match(line)
            if match and match.group(1) in components and match.group(1) != user:
                uses.setdefault((user, match.group(1)), []).append((path, number))
    return {(a, b): {a: uses[(a, b)], b: uses[(b, a)]}
            for (a, b) in sorted(uses) if a < b and (b, a) in uses}


def is_signature_line(line):
    """Whether a line can be part of the signature above a function's "{"."""
    text = line.strip()
    return bool(text) and not (line.startswith("}") or text.endswith((";", "{", "*/"))
                               or text.startswith(("//", "/*", "*", "#")))


def function_name(signature):
    """The name in a function signature ("Class::Name"), or None when it is not a function
    (a class, struct, enum, namespace or extern block, or no "(" at all)."""
    text = signature
    while True:  # drop template arguments, innermost first: std::function<void(int)> F(...)
        shorter = re.sub(r"<[^<>]*>", "", text)
        if shorter == text:
            break
        text = shorter
    words = text.split()
    if words[:1] == ["template"]:
        words = words[1:]
    if not words or words[0] in NOT_FUNCTIONS:
        return None
    operator = re.search(r"[\w:~]*operator\s*(\(\)|[^\s(]+)", signature)
    match = operator or re.search(r"[\w:~]+(?=\s*\()", text)
    return match.group(0) if match else None


def find_functions(lines):
    """[(first line number, name, length)] of the top-level function definitions in lines."""
    functions, opened = [], None  # opened: (first line index, name) of the open function
    for index, line in enumerate(lines):
        text = line.rstrip()
        if text == "{":
            start = index
            while start > 0 and is_signature_line(lines[start - 1]):
                start -= 1
            name = function_name(" ".join(part.strip() for part in lines[start:index]))
            opened = (start, name) if name else None
        elif text == "}" and opened:
            functions.append((opened[0] + 1, opened[1], index - opened[0] + 1))
            opened = None
    return functions


def find_long_functions(root, max_lines):
    """[(path, first line number, name, length)] of the functions longer than max_lines."""
    files = [path for folder in FUNCTION_DIRS
             for path in source_files(root, folder, recursive=folder == "examples")]
    return [(path, first, name, length) for path in files
            for first, name, length in find_functions(read_lines(os.path.join(root, path)))
            if length > max_lines]


def read_allow_list(path):
    """The entries of an allow-list, as dicts: kind "pair" (key: a frozenset of the two
    components) or "function" (key: "path:Name"), reason, where (file:line), text (the entry)
    and used (False). Raises UsageError naming the file and line of a malformed entry."""
    entries = []
    for number, line in enumerate(read_lines(path), 1):
        where = f"{path}:{number}"
        entry, _, reason = line.partition("#")
        fields = entry.split()
        if not fields:
            continue  # blank or comment line
        if not reason.strip():
            raise UsageError(f"{where}: entry without a reason (add '# reason'): {line.strip()}")
        if fields[0] == "pair" and len(fields) == 3 and fields[1] != fields[2]:
            key = frozenset(fields[1:])
        elif fields[0] == "function" and len(fields) == 2 and ":" in fields[1]:
            key = fields[1]
        else:
            raise UsageError(f"{where}: expected 'pair A B  # reason' or "
                             f"'function path:Name  # reason', got: {line.strip()}")
        entries.append({"kind": fields[0], "key": key, "reason": reason.strip(), "where": where,
                        "text": entry.strip(), "used": False})
    return entries


def allowance(entries, kind, key):
    """The reason of the entry allowing key (marking it used), or None."""
    reason = None
    for entry in entries:
        if entry["kind"] == kind and entry["key"] == key:
            entry["used"], reason = True, reason or entry["reason"]
    return reason


def plural(count, word):
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--root", default=repo,
                        help="the module's folder (default: the parent of tools/)")
    parser.add_argument("--max-lines", type=int, default=100, help="longest function allowed")
    parser.add_argument("--allow", help="allow-list (default: <root>/tools/layering-allow.txt)")
    parser.add_argument("--max-pairs", type=int, default=5,
                        help="most two-way pairs allowed, allow-listed ones included")
    args = parser.parse_args(argv)
    try:
        if args.max_lines < 1 or args.max_pairs < 0:
            raise UsageError("--max-lines must be at least 1 and --max-pairs at least 0")
        if not os.path.isdir(os.path.join(args.root, "model")):
            raise UsageError(f"--root {args.root}: no model/ folder")
        allow = args.allow or os.path.join(args.root, "tools", "layering-allow.txt")
        if args.allow and not os.path.isfile(allow):
            raise UsageError(f"--allow {allow}: no such file")
        entries = read_allow_list(allow) if os.path.isfile(allow) else []
    except UsageError as error:
        print(f"check-layering: {error}", file=sys.stderr)
        return 2

    failed = False
    pairs = find_two_way_pairs(args.root)
    allowed_pairs = 0
    for (a, b), includes in pairs.items():
        reason = allowance(entries, "pair", frozenset((a, b)))
        allowed_pairs += reason is not None
        failed |= reason is None
        print(f"two-way pair {a} <-> {b}: " + (f"allowed ({reason})" if reason else "FAILED"))
        for user, used in ((a, b), (b, a)):
            where = ", ".join(f"{path}:{number}" for path, number in includes[user])
            print(f"  {user} -> {used}: {where}")
    functions = find_long_functions(args.root, args.max_lines)
    allowed_functions = 0
    for path, first, name, length in functions:
        reason = allowance(entries, "function", f"{path}:{name}")
        allowed_functions += reason is not None
        failed |= reason is None
        print(f"long function {path}:{first} {name}: {length} lines: "
              + (f"allowed ({reason})" if reason else "FAILED"))
    stale = [entry for entry in entries if not entry["used"]]
    for entry in stale:
        print(f"stale allow-list entry {entry['where']}: {entry['text']} (matches nothing)")
    failed |= bool(stale)
    if len(pairs) > args.max_pairs:
        print(f"too many two-way pairs: {len(pairs)} > --max-pairs {args.max_pairs}")
        failed = True
    print(f"layering: {plural(len(pairs), 'two-way pair')} ({allowed_pairs} allowed), "
          f"{plural(len(functions), 'function')} over {args.max_lines} lines "
          f"({allowed_functions} allowed), {len(stale)} stale: "
          + ("FAILED" if failed else "ok"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
