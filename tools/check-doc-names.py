#!/usr/bin/env python3
"""Check that the C++ names a documentation section cites still exist in the module's sources.

Usage: check-doc-names.py [--root DIR] [--header-table FILE:SECTION] [FILE:SECTION ...]

Without arguments the sections "The path of one round's data" and "Architecture" of
doc/wan-training.rst are checked, and the second must list every header (see --header-table). FILE is relative to the module root (--root, default the parent of tools/); SECTION is
a section title of FILE, written as it stands (the first ":" of the argument ends FILE). A
section runs from its title to the next title of the same or a higher level, or to the first
".. include::" line, whichever comes first (an included file's text is not in FILE).

Every double-backquoted literal of the section is sorted into one of these kinds:

* Class::Member (more levels allowed, e.g. Outer::Inner::Name; a trailing "()" is ignored).
  Every part must appear as an identifier in the sources, and each part after the first must
  be a member of the part before it: the sources contain "Part::Next" (an out-of-line
  definition or a qualified use), or Next appears in a file that declares Part ("class Part",
  "struct Part", "enum Part", "union Part" or "namespace Part", not a forward declaration).
* A bare name: starts with an uppercase letter, contains a lowercase letter, and has only
  letters, digits and "_" (a trailing "()" is ignored), e.g. WanLinkNetDevice. It must appear
  as a whole word in the sources.
* A module path: a literal with "/" whose first folder is one of the module's (model, helper,
  examples, test, tools, doc). It must exist as a file or folder; a path without an extension
  (model/round-exchange) also passes when its .h or .cc exists.
* Anything else is not a name and is skipped: attribute values, numbers, flags and other
  ALL_CAPS words, command-line options, file names of outputs, text with spaces, paths outside
  the module (src/internet), lowercase words.

The sources are the .h and .cc files under model/, helper/ and examples/ (subfolders too),
with // and /* */ comments removed, so a name that survives only in a comment is missing.
ns-3's own names that the module's sources do not spell out are accepted from NS3_NAMES below;
keep that list to the names the checked sections use.

With --header-table FILE:SECTION (the default without arguments: the "Architecture" section of
doc/wan-training.rst), every header under model/ and helper/ must be cited in that section as a
module path, with or without its ".h" (``model/wan-wire`` or ``model/wan-wire.h``); each one
that is not is printed as "FILE: SECTION: PATH not listed", then a summary line.

Each missing name is printed with the FILE line where its literal starts, then one summary
line. Exit status: 0 every name exists, 1 a name is missing, 2 bad usage (an unknown option, a
missing FILE or SECTION).
"""

import argparse
import os
import re
import sys

DEFAULT_TARGETS = ["doc/wan-training.rst:The path of one round's data",
                   "doc/wan-training.rst:Architecture"]
DEFAULT_HEADER_TABLE = "doc/wan-training.rst:Architecture"
HEADER_DIRS = ("model", "helper")
SOURCE_DIRS = ("model", "helper", "examples")
SOURCE_EXTENSIONS = (".h", ".cc")
MODULE_DIRS = ("model", "helper", "examples", "test", "tools", "doc")

# ns-3 names (outside this module) that the checked sections cite.
NS3_NAMES = {
    "BridgeNetDevice",
    "Socket::SendTo",
    "Ipv4AddressHelper",
}

LITERAL = re.compile(r"``(\S(?:.*?\S)?)``", re.DOTALL)
IDENTIFIER = r"[A-Za-z_]\w*"
QUALIFIED = re.compile(rf"{IDENTIFIER}(?:::~?{IDENTIFIER})+")
BARE = re.compile(r"[A-Z]\w*")
PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)+/?")
WORD = re.compile(IDENTIFIER)
ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1+\s*")


class UsageError(Exception):
    """Bad command line, missing file or missing section: exit status 2."""


def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def strip_comments(text):
    """The text with // and /* */ comments blanked out (strings, characters and newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c, two = text[i], text[i:i + 2]
        if two == "//":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif two == "/*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(" " + "\n" * text.count("\n", i, end))
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


class Sources:
    """The words of the module's .h and .cc files, without comments."""

    def __init__(self, root):
        self.texts = {}
        for folder in SOURCE_DIRS:
            top = os.path.join(root, folder)
            for dirpath, dirnames, filenames in os.walk(top):
                dirnames.sort()
                for name in sorted(filenames):
                    if name.endswith(SOURCE_EXTENSIONS):
                        path = os.path.join(dirpath, name)
                        self.texts[os.path.relpath(path, root)] = strip_comments(read_text(path))
        self.words = {path: set(WORD.findall(text)) for path, text in self.texts.items()}
        self.all_words = set().union(*self.words.values()) if self.words else set()

    def declares(self, scope):
        """The files that declare class, struct, enum, union or namespace `scope`."""
        pattern = re.compile(
            rf"\b(?:class|struct|union|enum(?:\s+class)?|namespace)\s+{re.escape(scope)}\b"
            r"(?!\s*;)")
        return [path for path, text in self.texts.items() if pattern.search(text)]

    def is_member(self, scope, member):
        qualified = re.compile(rf"\b{re.escape(scope)}\s*::\s*{re.escape(member)}\b")
        if any(qualified.search(text) for text in self.texts.values()):
            return True
        return any(member in self.words[path] for path in self.declares(scope))


def find_section(path, title, name):
    """(first line number, lines) of section `title` of the RST file `path` (called `name`)."""
    lines = read_text(path).splitlines()
    levels, start, level = [], None, None
    for i in range(len(lines) - 1):
        text, under = lines[i].rstrip(), lines[i + 1].rstrip()
        if not text.strip() or ADORNMENT.fullmatch(text) or not ADORNMENT.fullmatch(under):
            continue
        if len(under) < len(text.strip()):
            continue
        over = i > 0 and lines[i - 1].rstrip() == under
        style = (under[0], over)
        if style not in levels:
            levels.append(style)
        this = levels.index(style)
        if start is None:
            if text.strip() == title:
                start, level = i, this
        elif this <= level:
            return start + 1, lines[start:i - 1 if over else i]
    if start is None:
        raise UsageError(f"{name}: no section \"{title}\"")
    return start + 1, lines[start:]


def section_text(lines):
    """The section's lines up to its first ".. include::" line, joined."""
    kept = []
    for line in lines:
        if line.lstrip().startswith(".. include::"):
            break
        kept.append(line)
    return "\n".join(kept)


def classify(literal):
    """("qualified" | "bare" | "path" | None, the name) of one literal."""
    name = literal[:-2] if literal.endswith("()") else literal
    if QUALIFIED.fullmatch(name):
        return "qualified", name
    if BARE.fullmatch(name) and re.search("[a-z]", name):
        return "bare", name
    if PATH.fullmatch(literal) and literal.split("/")[0] in MODULE_DIRS:
        return "path", literal.rstrip("/")
    return None, literal


def check_name(kind, name, root, sources):
    """None if `name` exists, else why it does not."""
    if name in NS3_NAMES:
        return None
    if kind == "path":
        full = os.path.join(root, name)
        if os.path.exists(full):
            return None
        if not os.path.splitext(name)[1] and any(
                os.path.isfile(full + ext) for ext in SOURCE_EXTENSIONS):
            return None
        return "no such file"
    if kind == "bare":
        return None if name in sources.all_words else "not in the sources"
    parts = [part.lstrip("~") for part in name.split("::")]
    for part in parts:
        if part not in sources.all_words:
            return f"{part} is not in the sources"
    for scope, member in zip(parts, parts[1:]):
        if not sources.is_member(scope, member):
            return f"{member} is not a member of {scope}"
    return None


def read_target(target, root):
    """(FILE, SECTION, first line number, section text) of one FILE:SECTION argument."""
    if ":" not in target:
        raise UsageError(f"{target}: expected FILE:SECTION")
    rel, title = target.split(":", 1)
    path = os.path.join(root, rel)
    if not os.path.isfile(path):
        raise UsageError(f"{rel}: no such file")
    first, lines = find_section(path, title, rel)
    return rel, title, first, section_text(lines)


def check_header_table(target, root, out):
    """Check that section `target` cites every header; returns (headers, unlisted)."""
    rel, title, _, text = read_target(target, root)
    cited = set()
    for match in LITERAL.finditer(text):
        kind, name = classify(match.group(1))
        if kind == "path":
            cited.add(name[:-2] if name.endswith(".h") else name)
    headers = unlisted = 0
    for folder in HEADER_DIRS:
        top = os.path.join(root, folder)
        for name in sorted(os.listdir(top)) if os.path.isdir(top) else []:
            if not name.endswith(".h"):
                continue
            headers += 1
            if f"{folder}/{name[:-2]}" not in cited:
                unlisted += 1
                out.append(f"{rel}: {title}: {folder}/{name} not listed")
    return headers, unlisted


def check_target(target, root, sources, out):
    """Check one FILE:SECTION; returns (names checked, missing, skipped literals)."""
    rel, _, first, text = read_target(target, root)
    checked = missing = skipped = 0
    for match in LITERAL.finditer(text):
        kind, name = classify(match.group(1))
        if kind is None:
            skipped += 1
            continue
        checked += 1
        reason = check_name(kind, name, root, sources)
        if reason:
            missing += 1
            line = first + text.count("\n", 0, match.start())
            out.append(f"{rel}:{line}: {name}: missing ({reason})")
    return checked, missing, skipped


def main(argv):
    default_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(
        description="Check that the C++ names a documentation section cites exist.")
    parser.add_argument("--root", default=default_root, help="module root (default: %(default)s)")
    parser.add_argument("--header-table", metavar="FILE:SECTION",
                        help="a section that must cite every header of model/ and helper/ "
                             f"(default without targets: {DEFAULT_HEADER_TABLE})")
    parser.add_argument("targets", nargs="*", metavar="FILE:SECTION",
                        help=f"sections to check (default: {DEFAULT_TARGETS[0]})")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.root):
        print(f"check-doc-names: {args.root}: no such folder", file=sys.stderr)
        return 2
    sources = Sources(args.root)
    table = args.header_table or (None if args.targets else DEFAULT_HEADER_TABLE)
    out, checked, missing, skipped = [], 0, 0, 0
    headers_out, headers, unlisted = [], 0, 0
    try:
        for target in args.targets or DEFAULT_TARGETS:
            counts = check_target(target, args.root, sources, out)
            checked, missing, skipped = (a + b for a, b in
                                         zip((checked, missing, skipped), counts))
        if table:
            headers, unlisted = check_header_table(table, args.root, headers_out)
    except UsageError as error:
        print(f"check-doc-names: {error}", file=sys.stderr)
        return 2
    for line in out:
        print(line)
    status = "FAILED" if missing else "ok"
    print(f"doc names: {checked} checked, {missing} missing, {skipped} other literals skipped: "
          f"{status}")
    if table:
        for line in headers_out:
            print(line)
        print(f"headers: {headers - unlisted} of {headers} listed in {table}: "
              f"{'FAILED' if unlisted else 'ok'}")
    return 1 if missing or unlisted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
