"""Tests of tools/check-log-coverage.py on fake module trees and on the real one.

Run from the repository root:  python3 -m unittest discover -s tools -p 'test_log_coverage.py'
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest

TOOLS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TOOLS)
CHECK = os.path.join(TOOLS, "check-log-coverage.py")
TOTAL = re.compile(r"^log coverage: (\d+) of (\d+) functions \((\d+\.\d) %\) in model/: (\S+)",
                   re.MULTILINE)


def member(name, body_lines, cls="Thing", args="uint32_t x"):
    """A member function definition in clang-formatted ns-3 style."""
    body = "".join(f"    {line}\n" for line in body_lines)
    return f"void\n{cls}::{name}({args})\n{{\n{body}}}\n\n"


def source(functions):
    """A .cc file: a log component and the given definitions inside namespace ns3."""
    return ('#include "thing.h"\n\n#include "ns3/log.h"\n\nnamespace ns3\n{\n\n'
            'NS_LOG_COMPONENT_DEFINE("Thing");\n\n' + "".join(functions)
            + "} // namespace ns3\n")


COVERED_BODIES = [
    ["NS_LOG_FUNCTION(this << x);", "m_x = x;"],
    ["NS_LOG_FUNCTION_NOARGS();"],
    ["NS_LOG_FUNCTION (this);", "if (x > 0)", "{", "    m_x = x;", "}"],
    ["// Why: the first statement logs.", "NS_LOG_FUNCTION(this << x);"],
]
UNCOVERED_BODIES = [
    ["m_x = x;"],
    ["// NS_LOG_FUNCTION(this << x); commented out", "m_x = x;"],
    ["/* NS_LOG_FUNCTION(this); */", "m_x = x;"],
    ["NS_LOG_LOGIC(\"x is \" << x);", "NS_LOG_INFO(\"not a function log\");"],
    ["const char* text = \"NS_LOG_FUNCTION_LIKE\";", "Use(text);"],
]
GET_TYPE_ID = """TypeId
Thing::GetTypeId()
{
    static TypeId tid = TypeId("ns3::Thing").SetParent<Object>();
    return tid;
}

"""
CLASS_BODY = """class Inline
{
  public:
    void Indented()
    {
        m_x = 1;
    }
};

"""


def fake_tree(root, files):
    """Writes root/model/<name> for each {name: text}; returns root."""
    os.makedirs(os.path.join(root, "model"), exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(root, "model", name), "w", encoding="utf-8") as f:
            f.write(text)
    return root


def run(*args):
    result = subprocess.run([sys.executable, CHECK, *args], capture_output=True, text=True,
                            check=False)
    return result.returncode, result.stdout, result.stderr


def total_of(stdout):
    match = TOTAL.search(stdout)
    assert match, stdout
    return int(match.group(1)), int(match.group(2)), float(match.group(3)), match.group(4)


class LogCoverageTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write_mixed(self, covered, uncovered, extra=""):
        """model/thing.cc with `covered` logged and `uncovered` unlogged functions, plus extra
        text; returns the function count the tool should see."""
        functions = [member(f"Covered{i}", COVERED_BODIES[i % len(COVERED_BODIES)])
                     for i in range(covered)]
        functions += [member(f"Uncovered{i}", UNCOVERED_BODIES[i % len(UNCOVERED_BODIES)])
                      for i in range(uncovered)]
        fake_tree(self.root, {"thing.cc": source([extra] + functions)})
        return covered + uncovered

    def test_covered_and_uncovered_are_counted(self):
        covered, uncovered = len(COVERED_BODIES), len(UNCOVERED_BODIES)
        total = self.write_mixed(covered, uncovered)
        code, out, _ = run("--root", self.root, "--min", "0")
        self.assertEqual(code, 0, out)
        self.assertEqual(total_of(out)[:2], (covered, total))
        self.assertAlmostEqual(total_of(out)[2], round(100.0 * covered / total, 1))

    def test_uncovered_functions_are_listed(self):
        self.write_mixed(2, 3)
        _, out, _ = run("--root", self.root, "--min", "0", "--list")
        listed = sorted(re.findall(r"uncovered model/thing\.cc:\d+ (\S+)", out))
        self.assertEqual(listed, [f"Thing::Uncovered{i}" for i in range(3)])

    def test_get_type_id_and_class_bodies_are_not_counted(self):
        total = self.write_mixed(1, 1, extra=GET_TYPE_ID + CLASS_BODY)
        _, out, _ = run("--root", self.root, "--min", "0")
        self.assertEqual(total_of(out)[:2], (1, total))

    def test_headers_and_other_folders_are_not_counted(self):
        total = self.write_mixed(3, 1)
        fake_tree(self.root, {"thing.h": member("InHeader", ["m_x = x;"])})
        os.makedirs(os.path.join(self.root, "helper"))
        with open(os.path.join(self.root, "helper", "thing-helper.cc"), "w") as f:
            f.write(source([member("InHelper", ["m_x = x;"])]))
        _, out, _ = run("--root", self.root, "--min", "0")
        self.assertEqual(total_of(out)[:2], (3, total))

    def test_free_and_static_functions_count(self):
        free = "uint32_t\nFree(uint32_t n)\n{\n    NS_LOG_FUNCTION(n);\n    return n;\n}\n\n"
        anonymous = "namespace\n{\n\nbool\nHelper()\n{\n    return true;\n}\n\n} // namespace\n\n"
        fake_tree(self.root, {"thing.cc": source([anonymous, free])})
        _, out, _ = run("--root", self.root, "--min", "0")
        self.assertEqual(total_of(out)[:2], (1, 2))

    def test_threshold_is_enforced(self):
        covered, uncovered = 3, 1  # 75.0 %
        self.write_mixed(covered, uncovered)
        share = 100.0 * covered / (covered + uncovered)
        code, out, _ = run("--root", self.root, "--min", str(share))
        self.assertEqual(code, 0, out)
        self.assertEqual(total_of(out)[3], "ok")
        self.assertNotIn("model/thing.cc:", out)
        code, out, _ = run("--root", self.root, "--min", str(share + 0.1))
        self.assertEqual(code, 1, out)
        self.assertEqual(total_of(out)[3], "FAILED")
        self.assertIn(f"model/thing.cc: {covered} of {covered + uncovered} functions (75.0 %)",
                      out)

    def test_default_threshold_is_80_percent(self):
        self.write_mixed(4, 1)  # 80.0 %
        self.assertEqual(run("--root", self.root)[0], 0)
        self.write_mixed(3, 1)  # 75.0 %
        self.assertEqual(run("--root", self.root)[0], 1)

    def test_files_under_the_threshold_are_named(self):
        fake_tree(self.root, {
            "good.cc": source([member("A", COVERED_BODIES[0]), member("B", COVERED_BODIES[1])]),
            "bad.cc": source([member("C", COVERED_BODIES[0]), member("D", UNCOVERED_BODIES[0])]),
        })
        code, out, _ = run("--root", self.root, "--min", "80")
        self.assertEqual(code, 1, out)
        self.assertIn("model/bad.cc: 1 of 2 functions (50.0 %)", out)
        self.assertNotIn("model/good.cc", out)
        self.assertEqual(total_of(out)[:2], (3, 4))

    def test_bad_usage_exits_2(self):
        self.write_mixed(1, 0)
        self.assertEqual(run("--root", self.root, "--min", "101")[0], 2)
        self.assertEqual(run("--root", self.root, "--min", "-1")[0], 2)
        self.assertEqual(run("--root", self.root, "--min", "many")[0], 2)
        self.assertEqual(run("--root", os.path.join(self.root, "missing"))[0], 2)
        self.assertEqual(run("--no-such-option")[0], 2)

    def test_real_tree_passes(self):
        code, out, _ = run("--root", REPO)
        self.assertEqual(code, 0, out)
        covered, total, share, verdict = total_of(out)
        self.assertGreater(total, 0)
        self.assertGreaterEqual(share, 80.0)
        self.assertEqual(verdict, "ok")


if __name__ == "__main__":
    unittest.main()
