# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# SPDX-License-Identifier: GPL-2.0-only
#
# waf build of wan-training for ns-3 <= 3.35 (<ns-3>/contrib/wan-training). ns-3 >= 3.36 uses
# CMakeLists.txt instead, and so does the standalone build.
#
# The source, header and test lists and the ns-3 module dependencies are read from
# CMakeLists.txt (its build_lib(...) call and the wan_training_test_sources list), so they are
# kept in one place: add a file there and both build systems see it.

import os
import re

MODULE = "wan-training"

# Headers that must be found for the module to build (Boost.Graph and nlohmann-json are
# header-only; Debian: libboost-dev, nlohmann-json3-dev).
REQUIRED_HEADERS = ["boost/graph/adjacency_list.hpp", "nlohmann/json.hpp"]


def _strip_comments(text):
    """Drop CMake '#' comments (the lists hold no quoted '#')."""
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def _cmake_list(text, command, keyword=None):
    """Return the words of the first call of a CMake command, or only those after `keyword`.

    command is the command's opening at the start of a line, e.g. "build_lib(" or
    "set(wan_training_test_sources". With keyword, the words end at the next all-capitals
    keyword (SOURCE_FILES, HEADER_FILES, ...).
    """
    match = re.search(r"^\s*" + re.escape(command) + r"([^)]*)\)", text, re.MULTILINE)
    if match is None:
        raise ValueError("%s: no '%s ...)' in CMakeLists.txt" % (MODULE, command))
    words = match.group(1).split()
    if keyword is None:
        return words
    if keyword not in words:
        raise ValueError("%s: no %s in '%s ...)' of CMakeLists.txt" % (MODULE, keyword, command))
    selected = []
    for word in words[words.index(keyword) + 1 :]:
        if re.match(r"^[A-Z_]+$", word):
            break
        selected.append(word)
    return selected


def read_cmake_lists(module_dir):
    """Return (sources, headers, tests, dependencies) as listed in CMakeLists.txt."""
    with open(os.path.join(module_dir, "CMakeLists.txt")) as cmake_file:
        text = _strip_comments(cmake_file.read())
    sources = _cmake_list(text, "build_lib(", "SOURCE_FILES")
    headers = _cmake_list(text, "build_lib(", "HEADER_FILES")
    tests = _cmake_list(text, "set(wan_training_test_sources")
    libraries = _cmake_list(text, "build_lib(", "LIBRARIES_TO_LINK")
    # ${lib<module>} entries only: optional libraries (MPI) are a CMake-only feature.
    dependencies = [
        re.sub(r"^\$\{lib(.+)\}$", r"\1", lib) for lib in libraries if lib.startswith("${lib")
    ]
    return sources, headers, tests, dependencies


def configure(conf):
    found = True
    for header in REQUIRED_HEADERS:
        if not conf.check_cxx(header_name=header, mandatory=False):
            found = False
    conf.report_optional_feature(
        "WanTraining",
        "wan-training (Boost.Graph, nlohmann-json)",
        found,
        "missing headers: install libboost-dev and nlohmann-json3-dev",
    )
    if not found:
        conf.env.append_value("MODULES_NOT_BUILT", MODULE)


def build(bld):
    if MODULE in bld.env["MODULES_NOT_BUILT"]:
        return
    sources, headers, tests, dependencies = read_cmake_lists(bld.path.abspath())

    module = bld.create_ns3_module(MODULE, dependencies)
    module.source = sources

    module_test = bld.create_ns3_module_test_library(MODULE)
    module_test.source = tests

    module_headers = bld(features="ns3header")
    module_headers.module = MODULE
    module_headers.source = headers

    # test/unit (GoogleTest) and bench/ are built by the standalone CMake build only.
    if bld.env.ENABLE_EXAMPLES:
        bld.recurse("examples")
