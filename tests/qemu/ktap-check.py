#!/usr/bin/env python3
"""Check KUnit results (KTAP) and kernel health in a serial console log.

    ktap-check.py CONSOLE_LOG --suite NAME [--suite NAME...]

Understands the KTAP that Linux 6.1 KUnit prints at boot:

    KTAP version 1                 <- top level: one result per suite
    1..N
        KTAP version 1
        # Subtest: SUITE
        1..M
        ok 1 case                  <- one result per test case
            KTAP version 1         <- parameterised case (deeper level)
            # Subtest: case
            ok 1 param-0
        ok 2 case
    # SUITE: pass:M fail:0 skip:0 total:M
    ok 1 SUITE

Lines may carry printk prefixes ("[    1.234567] ", "[    T1] ") and CR;
unrelated kernel messages may be interleaved. "ok N - desc" (TAP style) is
accepted too.

Exit 1 (with the reasons on stdout) if:
  * any test at any level is "not ok";
  * a --suite is missing, has no result line, or has fewer results than its
    plan (a crash or a truncated run);
  * the top-level KTAP header/plan is missing, or fewer suites reported than
    planned (missing summary);
  * the console shows a kernel warning/oops (WARNING:, BUG:, Oops, Kernel
    panic, Assertion failed, lockdep reports, Bad page, ...), unless the line
    matches an --allow regex.
--no-ktap skips the KTAP checks, --no-oops the kernel-health scan.
Prints one line per suite: "suite NAME: P passed, F failed[, S skipped]".
"""

import argparse
import re
import sys

ANSI_RE = re.compile(r"\x1b(?:\[[0-9;?]*[A-Za-z]|[A-Za-z])")
PREFIX_RE = re.compile(r"^(?:<\d+>)?(?:\[\s*\d+\.\d+\] ?)?(?:\[\s*[TC]\d+\] ?)?")
KTAP_HDR_RE = re.compile(r"^(?:K?TAP) version \d+\s*$")
PLAN_RE = re.compile(r"^1\.\.(\d+)\s*$")
SUBTEST_RE = re.compile(r"^# Subtest: (.+?)\s*$")
RESULT_RE = re.compile(r"^(ok|not ok) (\d+)(?: -)?(?: (.*?))?\s*$")
DIRECTIVE_RE = re.compile(r"^(.*?)\s*#\s*(SKIP|TODO)\b(.*)$", re.IGNORECASE)

OOPS_PATTERNS = [
    r"WARNING:",
    r"BUG:",
    r"kernel BUG at",
    r"Oops",
    r"Kernel panic",
    r"Assertion failed",
    r"possible recursive locking",
    r"circular locking",
    r"inconsistent lock state",
    r"suspicious RCU usage",
    r"Bad page",
    r"general protection fault",
    r"Call Trace:",
    r"UBSAN:",
]
OOPS_RE = re.compile("|".join(OOPS_PATTERNS))


class Node:
    """One KTAP test list: the top level (0), a suite (1), a parameterised case (2)..."""

    def __init__(self, level, lineno, parent=None):
        self.level = level
        self.lineno = lineno
        self.parent = parent
        self.name = None
        self.plan = None
        self.results = []  # (ok, number, description, directive, child Node or None)
        self.children = []  # every sub-list that started, finished or not
        self.pending = None  # last closed child, waiting for its result line
        self.result = None  # (ok, directive) once the parent printed our result line
        if parent is not None:
            parent.children.append(self)


def strip_prefix(raw):
    line = ANSI_RE.sub("", raw.rstrip("\r\n").replace("\r", ""))
    return PREFIX_RE.sub("", line, count=1)


def parse(lines):
    """Return (top-level KTAP documents, [(lineno, 'not ok' line)])."""
    docs = []
    stack = []  # stack[i] is the open node at level i
    not_ok = []

    def open_child(level, lineno):
        # Close everything at >= level, then open a new node at `level`.
        close_to(level - 1)
        node = Node(level, lineno, stack[-1])
        stack.append(node)
        return node

    def close_to(level):
        # Pop nodes deeper than `level`; each becomes its parent's pending child.
        while len(stack) > level + 1:
            child = stack.pop()
            stack[-1].pending = child

    for lineno, raw in enumerate(lines, 1):
        line = strip_prefix(raw)
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        if indent % 4:
            continue  # not KTAP indentation: some other kernel message
        level = indent // 4

        if KTAP_HDR_RE.match(body):
            if level == 0:
                stack = [Node(0, lineno)]
                docs.append(stack[0])
            elif 0 < level <= len(stack):
                open_child(level, lineno)
            continue
        if not stack or level > len(stack):
            continue
        m = SUBTEST_RE.match(body)
        if m and level > 0:
            # A "# Subtest" right after its KTAP header names that node;
            # otherwise (no header) it opens a new node.
            if not (level == len(stack) - 1 and stack[level].name is None
                    and not stack[level].results and stack[level].plan is None):
                open_child(level, lineno)
            stack[level].name = m.group(1)
            continue
        if level >= len(stack):
            continue
        m = PLAN_RE.match(body)
        if m:
            close_to(level)
            if stack[level].plan is None:
                stack[level].plan = int(m.group(1))
            continue
        m = RESULT_RE.match(body)
        if m:
            close_to(level)
            node = stack[level]
            ok = m.group(1) == "ok"
            desc = m.group(3) or ""
            directive = ""
            d = DIRECTIVE_RE.match(desc)
            if d:
                desc, directive = d.group(1), d.group(2).upper()
            child, node.pending = node.pending, None
            if child is not None and child.name not in (None, desc):
                child = None  # leftovers of something else: do not mis-attribute
            if child is not None:
                child.result = (ok, directive)
            node.results.append((ok, int(m.group(2)), desc, directive, child))
            if not ok:
                not_ok.append((lineno, line.strip()))
    return docs, not_ok


def count(node):
    passed = failed = skipped = 0
    for ok, _n, _d, directive, _c in node.results:
        if directive == "SKIP":
            skipped += 1
        elif ok:
            passed += 1
        else:
            failed += 1
    return passed, failed, skipped


def check_ktap(lines, required):
    problems = []
    docs, not_ok = parse(lines)
    for lineno, text in not_ok:
        problems.append(f"line {lineno}: {text}")
    if not docs:
        problems.append("no KTAP output (no top-level 'KTAP version 1')")
    finished = {}  # suite name -> (ok, directive, node or None)
    started = set()
    for doc in docs:
        if doc.plan is None:
            problems.append(f"line {doc.lineno}: KTAP output without a top-level '1..N' plan"
                            " (missing summary)")
        elif len(doc.results) < doc.plan:
            problems.append(f"line {doc.lineno}: only {len(doc.results)} of {doc.plan} planned"
                            " suites have a result line (missing summary; crash or truncated log?)")
        for ok, _n, desc, directive, child in doc.results:
            finished[desc] = (ok, directive, child)
        for child in doc.children:
            if child.name is not None:
                started.add(child.name)
                if child.result is None:
                    p, f, s = count(child)
                    print(f"suite {child.name}: {p} passed, {f} failed" + (f", {s} skipped" if s else "")
                          + " (unfinished: no result line)")
                    problems.append(f"line {child.lineno}: suite '{child.name}' started but"
                                    " has no result line (crash?)")

    for name in sorted(finished):
        ok, directive, node = finished[name]
        if node is None:
            print(f"suite {name}: {'ok' if ok else 'not ok'}"
                  f"{' # ' + directive if directive else ''} (no per-test results)")
            continue
        p, f, s = count(node)
        nparam = sum(len(c.results) for *_x, c in node.results if c is not None)
        print(f"suite {name}: {p} passed, {f} failed" + (f", {s} skipped" if s else "")
              + (f" ({nparam} parameterised results)" if nparam else ""))

    for want in required:
        if want not in finished:
            if want not in started:
                problems.append(f"required suite '{want}' is missing")
            continue  # started-but-unfinished is reported above
        ok, directive, node = finished[want]
        if directive == "SKIP":
            problems.append(f"required suite '{want}' was skipped")
        if node is None:
            problems.append(f"required suite '{want}': no per-test results")
            continue
        if node.plan is None:
            problems.append(f"suite '{want}': no '1..N' plan")
        elif len(node.results) != node.plan:
            problems.append(f"suite '{want}': {len(node.results)} results for a plan of"
                            f" {node.plan}")
        if not node.results:
            problems.append(f"suite '{want}': no test results")
    return problems


def check_oops(lines, allow):
    problems = []
    allow = [re.compile(a) for a in allow]
    for lineno, raw in enumerate(lines, 1):
        text = raw.rstrip("\r\n")
        if OOPS_RE.search(text) and not any(a.search(text) for a in allow):
            problems.append(f"line {lineno}: kernel warning/oops: {strip_prefix(text).strip()}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("console_log")
    ap.add_argument("--suite", action="append", default=[],
                    help="KUnit suite that must be present and pass (repeatable)")
    ap.add_argument("--allow", action="append", default=[], metavar="REGEX",
                    help="ignore kernel-health lines matching REGEX (repeatable)")
    ap.add_argument("--no-ktap", action="store_true", help="skip the KTAP checks")
    ap.add_argument("--no-oops", action="store_true", help="skip the warning/oops scan")
    args = ap.parse_args()
    if not args.no_ktap and not args.suite:
        ap.error("at least one --suite is required (or --no-ktap)")

    try:
        with open(args.console_log, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
    except OSError as e:
        print(f"ktap-check: FAIL: cannot read console log: {e}")
        return 1

    problems = []
    if not args.no_ktap:
        problems += check_ktap(lines, args.suite)
    if not args.no_oops:
        problems += check_oops(lines, args.allow)

    if problems:
        shown = problems[:40]
        for p in shown:
            print(f"ktap-check: FAIL: {p}")
        if len(problems) > len(shown):
            print(f"ktap-check: ... {len(problems) - len(shown)} more problems")
        return 1
    print("ktap-check: PASS" + (f" (suites: {', '.join(args.suite)})" if args.suite else ""))
    return 0



if __name__ == "__main__":
    sys.exit(main())
