#!/usr/bin/env python3
"""The results folder rule of wan-training, for the Python tools and tools/run-main.sh.

Every program's default output is results/<program>/<UTC stamp %Y%m%dT%H%M%SZ>/ (suffix -2,
-3, ... when that folder exists); results/latest is a relative symbolic link to the newest run
of any program (<program>/<stamp>), replaced atomically (a link results/latest.tmp, renamed
over it). A results/latest that is a real folder (the old layout) is an error naming it; it is
never deleted. An explicit output folder that exists and is not empty is refused, and an
explicit folder leaves results/latest alone. The C++ examples follow the same rule
(helper/results-folder.h; doc/tools.rst, "Where results go").

As a command (for shell scripts):

    python3 tools/results_dir.py new PROGRAM [--root DIR]   # make the run folder, link latest,
                                                            # print the folder
    python3 tools/results_dir.py check-out DIR              # exit 1 if DIR exists, not empty

The root is --root, else the environment variable RESULTS, else results/ in the repository.
Exit status 1 with one line "results: error: ..." on any refusal. Standard library only.
"""

import argparse
import os
import re
import sys
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAMP_FORMAT = "%Y%m%dT%H%M%SZ"
LATEST = "latest"
MAX_SUFFIX = 1000  # more runs of one program in one second than this is a runaway loop


class ResultsError(Exception):
    """A refusal of the results rule; the message names the folder."""


def default_root():
    """The results root: $RESULTS, else <repository>/results."""
    return os.path.abspath(os.environ.get("RESULTS") or os.path.join(REPO_ROOT, "results"))


def check_latest(root):
    """Refuses a results/latest that is a real folder (the layout before the rule)."""
    latest = os.path.join(root, LATEST)
    if os.path.isdir(latest) and not os.path.islink(latest):
        raise ResultsError(f"{latest} is a folder, not a link (results of an older version); "
                           f"move or delete it yourself, then run again")


def check_explicit_out(path):
    """Refuses an explicit output folder that exists and is not empty (or is not a folder)."""
    if os.path.lexists(path):
        if not os.path.isdir(path):
            raise ResultsError(f"{path} exists and is not a folder")
        if os.listdir(path):
            raise ResultsError(f"{path} exists and is not empty; name a new folder (results "
                               f"are never mixed with an earlier run)")


def new_run_dir(program, root=None, now=None):
    """Creates results/<program>/<stamp>[-N]/ and returns its absolute path.

    program is a word, or words joined by '/' (the sweep's is sweep/<spec name>).

    mkdir is atomic, so two runs started in the same second get different folders.
    """
    word = r"[A-Za-z0-9][A-Za-z0-9._-]*"
    if not re.fullmatch(rf"{word}(/{word})*", program) or program.split("/")[0] in (
            LATEST, LATEST + ".tmp"):
        raise ResultsError(f"{program!r} cannot name a results folder")
    root = root or default_root()
    check_latest(root)
    parent = os.path.join(root, program)
    os.makedirs(parent, exist_ok=True)
    stamp = time.strftime(STAMP_FORMAT, time.gmtime(now))
    for n in range(1, MAX_SUFFIX + 1):
        folder = os.path.join(parent, stamp if n == 1 else f"{stamp}-{n}")
        try:
            os.mkdir(folder)
            return folder
        except FileExistsError:
            continue
    raise ResultsError(f"{parent}: {MAX_SUFFIX} runs stamped {stamp} already exist")


def is_inside(path, root=None):
    """True if path is a folder below the results root (so results/latest may link to it).
    Links are resolved: results/latest itself is the folder it points to."""
    relative = os.path.relpath(os.path.realpath(path), os.path.realpath(root or default_root()))
    return relative != os.curdir and relative != os.pardir and not relative.startswith(
        os.pardir + os.sep)


def link_latest(run_dir, root=None):
    """Points results/latest at run_dir (relative), atomically; no-op outside the root.

    Returns the link's target, or None when run_dir is not inside the root.
    """
    root = root or default_root()
    if not is_inside(run_dir, root):
        return None
    check_latest(root)
    target = os.path.relpath(os.path.realpath(run_dir), os.path.realpath(root))
    tmp = os.path.join(root, LATEST + ".tmp")
    for _ in range(2):
        try:
            os.symlink(target, tmp)
            break
        except FileExistsError:
            if os.path.isdir(tmp) and not os.path.islink(tmp):
                raise ResultsError(f"{tmp} is a folder; move or delete it")
            os.remove(tmp)  # left by a run that died between symlink and rename
    os.replace(tmp, os.path.join(root, LATEST))
    return target


def new_linked_run_dir(program, root=None):
    """new_run_dir, then results/latest pointed at it."""
    folder = new_run_dir(program, root)
    link_latest(folder, root)
    return folder


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new", help="make results/<program>/<stamp>, link latest, print it")
    new.add_argument("program")
    new.add_argument("--root", help="results root (default: $RESULTS or results/)")
    check = sub.add_parser("check-out", help="exit 1 if DIR exists and is not empty")
    check.add_argument("dir")
    args = parser.parse_args(argv)
    try:
        if args.command == "new":
            root = os.path.abspath(args.root) if args.root else None
            print(new_linked_run_dir(args.program, root))
        else:
            check_explicit_out(args.dir)
    except (ResultsError, OSError) as e:
        print(f"results: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
