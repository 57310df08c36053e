#!/usr/bin/env python3
"""Place-and-route benchmark: every block's default configuration, and each of its pipeline
options, through `grfgen flow --pnr`, with Fmax, utilisation, routing and the critical path
against the block's target, and for the blocks with workloads the time per workload (cycles
from the golden model x clock period).

    scripts/bench_pnr.py [--grfgen PATH] [--device ecp5-85k] [--block BLOCK ...] [--only ROW ...]
                         [--json OUT]

Slow: minutes per row (the GPR about one, the router 5 to 30, core and GRF about 10 each).
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GRF_WORKLOADS = ("--workload", ["private-hot", "streaming", "producer-consumer",
                                 "context-switch", "faults", "random"])

# (block, its flags, its Fmax target on ecp5-85k in MHz, its workloads and how `sim` names them)
CORE_WORKLOADS = ("--workload", ["rpt-mad", "conv3x3", "matmul4", "normalize",
                                  "texture-return", "random"])

# (block, its flags, its Fmax target on ecp5-85k in MHz, its workloads and how `sim` names them).
# On ECP5 the GPR's banks (also the core's) are DP16KD instances unless `--memory` says otherwise.
BLOCKS = [
    ("gpr", [], 200, None),
    ("gpr", ["--pipeline", "1"], 200, None),
    ("gpr", ["--pipeline", "2"], 200, None),
    ("gpr", ["--pipeline", "3"], 200, None),
    ("gpr", ["--pipeline", "3", "--memory", "inferred"], 200, None),
    ("route", ["--pipeline", "0"], 150, None),
    ("route", ["--pipeline", "3"], 150, None),
    ("route", [], 150, None),
    ("core", [], 100, CORE_WORKLOADS),
    ("core", ["--pipeline", "2"], 100, CORE_WORKLOADS),
    ("grf", ["--pipeline", "0"], 100, GRF_WORKLOADS),
    ("grf", ["--pipeline", "1"], 100, GRF_WORKLOADS),
    ("grf", ["--pipeline", "2"], 100, GRF_WORKLOADS),
]


def grfgen(binary, args):
    """Runs grfgen with `args`; its JSON output. Fails loudly."""
    out = subprocess.run([binary, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"grfgen {' '.join(args)} failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return json.loads(out.stdout)


def workload_times(binary, block, flags, workloads, fmax):
    """Per workload: cycles (golden model, seed 1) and the time they take at `fmax`."""
    flag, names = workloads
    rows = []
    for name in names:
        report = grfgen(binary, ["sim", block, *flags, flag, name, "--no-rtl", "--seed", "1",
                                 "--json"])
        cycles = report["cycles"]
        rows.append({"workload": name, "cycles": cycles,
                     "ns": round(cycles * 1000.0 / fmax, 1) if fmax else None})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grfgen", default="target/release/grfgen")
    parser.add_argument("--device", default="ecp5-85k")
    parser.add_argument("--block", action="append", help="every row of this block; repeatable")
    parser.add_argument("--only", action="append",
                        help="one row, by its block and options (\"route\", "
                             "\"route --pipeline 3\"); repeatable")
    parser.add_argument("--json", help="also write the results to this file")
    options = parser.parse_args()
    results = []
    for block, flags, target, workloads in BLOCKS:
        label = " ".join([block, *flags])
        chosen = (options.block or []) + (options.only or [])
        if chosen and block not in (options.block or []) and label not in (options.only or []):
            continue
        with tempfile.TemporaryDirectory() as work:
            start = time.monotonic()
            flow = grfgen(options.grfgen, ["flow", block, *flags, "--out", str(Path(work) / block),
                                           "--seed", "1", "--pnr", "--device", options.device,
                                           "--json"])
            seconds = round(time.monotonic() - start)
        pnr = flow["pnr"]
        row = {"block": block, "flags": flags, "target_mhz": target, "flow_seconds": seconds,
               "pnr": pnr}
        if workloads:
            row["workloads"] = workload_times(options.grfgen, block, flags, workloads,
                                              pnr.get("fmax_mhz"))
        print(json.dumps(row), flush=True)
        results.append(row)
    print()
    print("| block | options | Fmax | target | LUT4 | FF (harness) | BRAM | DSP | arcs | wirelength | "
          "critical path | levels |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for row in results:
        p = row["pnr"]
        label = " ".join(row["flags"]) or "-"
        if not p["fits"]:
            print(f"| {row['block']} | {label} | {p['reason']} | {row['target_mhz']} MHz | "
                  "| | | | | | | |")
            continue
        path = p["critical_path"]
        print(f"| {row['block']} | {label} | {p['fmax_mhz']:.1f} MHz | {row['target_mhz']} MHz | "
              f"{p['luts']:,} | {p['ffs']:,} ({p['harness_ffs']:,}) | {p['brams']} | {p['dsps']} | "
              f"{p['routed_arcs']:,} | {p['wirelength']:,} | `{path['start']}` -> "
              f"`{path['end']}` | {path['logic_levels']} |")
    for row in results:
        for w in row.get("workloads", []):
            print(f"{row['block']} {w['workload']}: {w['cycles']} cycles, {w['ns']} ns")
    if options.json:
        Path(options.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
