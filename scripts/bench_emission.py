#!/usr/bin/env python3
"""Emission benchmark: two grfgen binaries side by side on the same configurations.

For each configuration and each binary: the Verilog file's size and module count, the time of
Yosys `synth_ice40` and its cell count, and the time Verilator takes to build a C++ model of it
(`verilator --cc --build`, as the co-simulation does). The two binaries run one after the
other on each configuration, so that both see the same machine load.

    scripts/bench_emission.py BEFORE_GRFGEN AFTER_GRFGEN [--json OUT] [--only NAME]
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONFIGS = [
    ("gpr", ["gpr"]),
    ("core", ["core"]),
    ("route", ["route"]),
    ("grf", ["grf"]),
    ("gpr largest", ["gpr", "--banks", "16", "--registers", "1024", "--lanes", "64",
                     "--read-ports", "8", "--write-ports", "4"]),
]


def timed(command, cwd):
    """Runs `command` in `cwd`; its wall time in seconds and its stdout. Fails loudly."""
    start = time.monotonic()
    out = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if out.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return seconds, out.stdout


def measure(grfgen, args, work):
    """Emits one configuration with `grfgen` into `work` and measures it."""
    out = work / "out"
    timed([grfgen, "emit", *args[:1], "--out", str(out), *args[1:]], work)
    verilog = next(out.glob("*.v"))
    top = verilog.stem
    text = verilog.read_text()
    synth_s, log = timed(["yosys", "-q", "-p",
                          f"read_verilog {verilog.name}; synth_ice40 -top {top}; tee -o stat.txt stat"],
                         out)
    stat = (out / "stat.txt").read_text()
    cells = int(re.findall(r"Number of cells:\s+(\d+)", stat)[-1])
    build_s, _ = timed(["verilator", "--cc", "--build", "-j", "2", "-CFLAGS", "-O3",
                        "-Wno-fatal", "--Mdir", "obj", "--top-module", top,
                        f"{top}.vlt", f"{top}.v"], out)
    return {
        "bytes": len(text.encode()),
        "modules": len(re.findall(r"^module ", text, re.M)),
        "yosys_s": round(synth_s, 1),
        "ice40_cells": cells,
        "verilator_build_s": round(build_s, 1),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--only", help="one configuration, by name")
    options = parser.parse_args()
    results = []
    for name, args in CONFIGS:
        if options.only and name != options.only:
            continue
        row = {"config": name, "args": args}
        for side in ("before", "after"):
            with tempfile.TemporaryDirectory() as work:
                row[side] = measure(getattr(options, side), args, Path(work))
            print(name, side, row[side], flush=True)
        results.append(row)
    print()
    print("| configuration | | file | modules | Yosys synth_ice40 | Verilator build | iCE40 cells |")
    print("|---|---|---|---|---|---|---|")
    for row in results:
        for side in ("before", "after"):
            r = row[side]
            print(f"| {row['config'] if side == 'before' else ''} | {side} | "
                  f"{r['bytes'] / 1e6:.2f} MB | {r['modules']:,} | {r['yosys_s']} s | "
                  f"{r['verilator_build_s']} s | {r['ice40_cells']:,} |")
    if options.json:
        Path(options.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
