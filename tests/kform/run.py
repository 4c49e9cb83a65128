#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Prove the generation loop: generate the kernel form of core/ and its
KUnit suite with kpatch-gen, build them in userspace against the stub
headers in stubs/include, and run the suite.  A generator bug that changes
what the code computes fails here, before any kernel is built."""

import argparse
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="")
    ap.add_argument("--vectors")
    ap.add_argument("--keep", help="write the generated tree here")
    args = ap.parse_args()

    out = args.keep or tempfile.mkdtemp(prefix="lbs-kform-")
    gen = [sys.executable, os.path.join(args.src, "kpatch-gen", "kgen.py"),
           "--src", args.src, "--out", out]
    if args.vectors:
        gen += ["--vectors", args.vectors]
    subprocess.run(gen, check=True)

    srcs = [os.path.join(out, p) for p in
            ("fs/iomap/lbs.c", "mm/lbs_folio.c", "fs/xfs/libxfs/xfs_lbs.c",
             "fs/xfs/xfs_lbs_test.c")]
    srcs.append(os.path.join(HERE, "kunit_main.c"))
    exe = os.path.join(out, "lbs_kunit")
    cmd = (shlex.split(args.cc) + ["-std=gnu11", "-Wall", "-Wextra", "-Werror",
                                   "-Wno-unused-parameter", "-Wmissing-prototypes",
                                   "-I", os.path.join(HERE, "stubs", "include"),
                                   "-I", os.path.join(out, "include"),
                                   "-I", os.path.join(out, "fs", "xfs", "libxfs")]
           + shlex.split(args.cflags) + srcs + ["-o", exe])
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)
    r = subprocess.run([exe])
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
