#! /usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# Examples that ns-3's test.py runs as tests when wan-training is built in-tree
# (<ns-3>/contrib/wan-training). The list itself lives in examples/smoke-tests.txt, one line
# "<example> [flags...]" each, which the standalone build also registers with ctest: keep it
# in that one place.
#
# How test.py reads this file (ns-3 3.36 to 3.4x, utils.py get_list_from_file): it does not
# import it. It strips '#' comments, takes the first line that mentions the list's name, and
# eval()s the text after the first '=' inside get_list_from_file(), where the local variable
# file_path holds this file's path relative to the ns-3 root and __file__ is not defined.
# So the list line below must stay one line, free of '#', and it reloads this file with runpy
# (which does define __file__) to call the reader. Importing or running this file directly works
# too: `python3 test/examples-to-run.py` prints the list.
#
# Each entry is (command line, condition to run, condition to run under valgrind); the
# conditions are Python expressions evaluated by test.py. test.py runs each example from its
# temporary output folder, so flags naming existing files of this module are made absolute and
# each example gets its own --output folder there.

import os
import shlex


def _read_smoke_tests():
    """Return test.py entries built from examples/smoke-tests.txt."""
    module_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    list_path = os.path.join(module_dir, "examples", "smoke-tests.txt")
    entries = []
    with open(list_path, encoding="utf-8") as list_file:
        for line in list_file:
            words = shlex.split(line, comments=True)
            if not words:
                continue
            index = len(entries) + 1  # numbered like the standalone ctest names
            example, flags = words[0], [_absolute_flag(w, module_dir) for w in words[1:]]
            flags.append("--output=wan-training-smoke/%s-%d" % (example, index))
            command = " ".join([example] + [shlex.quote(f) for f in flags])
            entries.append((command, "True", "True"))
    return entries


def _absolute_flag(word, module_dir):
    """Make the value of --flag=relative/path absolute when it names a file of this module."""
    if not word.startswith("--") or "=" not in word:
        return word
    name, value = word.split("=", 1)
    candidate = os.path.join(module_dir, value)
    if value and not os.path.isabs(value) and os.path.exists(candidate):
        return "%s=%s" % (name, candidate)
    return word


cpp_examples = _read_smoke_tests() if "_read_smoke_tests" in globals() else __import__("runpy").run_path(file_path)["cpp_examples"]

python_examples = []

if __name__ == "__main__":
    for entry in cpp_examples:
        print(entry)
