#!/usr/bin/env python3
"""Log coverage of the module's model: the share of functions that log their entry.

Counts the top-level function definitions in model/*.cc, found as tools/check-layering.py
finds them (the sources are clang-formatted in ns-3 style: a definition's "{" stands alone at
column 0 after its signature, its "}" alone at column 0; functions defined inside a class body
are indented and not counted). GetTypeId is left out: ns-3 does not log there. A function is
covered when its body (comments removed) contains NS_LOG_FUNCTION or NS_LOG_FUNCTION_NOARGS.

Prints one line per file whose coverage is under --min, then the total:

    log coverage: 812 of 1003 functions (81.0 %) in model/: ok

With --list, also prints every uncovered function as "path:line Name".

Exit status: 0 ok, 1 coverage under --min, 2 bad usage.
"""

import argparse
import importlib.util
import os
import re
import sys

LOGGED = re.compile(r"\bNS_LOG_FUNCTION(?:_NOARGS)?\s*\(")
EXCLUDED = ("GetTypeId",)


def load_layering():
    """tools/check-layering.py as a module (its file name has a dash)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-layering.py")
    spec = importlib.util.spec_from_file_location("check_layering", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


layering = load_layering()


def model_sources(root):
    """Relative paths (with "/") of the .cc files in root/model, sorted."""
    folder = os.path.join(root, "model")
    return sorted(f"model/{name}" for name in os.listdir(folder)
                  if name.endswith(".cc") and os.path.isfile(os.path.join(folder, name)))


def file_coverage(lines):
    """[(first line number, name, covered)] of the counted functions in lines."""
    code = layering.strip_comments(lines)
    result = []
    for first, name, length in layering.find_functions(lines):
        if name.split("::")[-1] in EXCLUDED:
            continue
        body = code[first - 1:first - 1 + length]
        result.append((first, name, any(LOGGED.search(line) for line in body)))
    return result


def percent(covered, total):
    return 100.0 * covered / total if total else 100.0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--root", default=repo,
                        help="the module's folder (default: the parent of tools/)")
    parser.add_argument("--min", type=float, default=80.0,
                        help="lowest coverage allowed, in percent (default 80)")
    parser.add_argument("--list", action="store_true", help="print the uncovered functions")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return 0 if exit_.code == 0 else 2
    if not 0.0 <= args.min <= 100.0:
        print(f"check-log-coverage: --min {args.min}: not between 0 and 100", file=sys.stderr)
        return 2
    if not os.path.isdir(os.path.join(args.root, "model")):
        print(f"check-log-coverage: --root {args.root}: no model/ folder", file=sys.stderr)
        return 2

    total = covered = 0
    for path in model_sources(args.root):
        functions = file_coverage(layering.read_lines(os.path.join(args.root, path)))
        here = sum(1 for _, _, logged in functions if logged)
        total, covered = total + len(functions), covered + here
        if percent(here, len(functions)) < args.min:
            print(f"{path}: {here} of {len(functions)} functions "
                  f"({percent(here, len(functions)):.1f} %)")
        if args.list:
            for first, name, logged in functions:
                if not logged:
                    print(f"  uncovered {path}:{first} {name}")
    ok = percent(covered, total) >= args.min
    print(f"log coverage: {covered} of {total} functions ({percent(covered, total):.1f} %) "
          f"in model/: " + ("ok" if ok else f"FAILED (under {args.min:g} %)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
