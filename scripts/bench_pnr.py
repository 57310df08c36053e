#!/usr/bin/env python3
"""Place-and-route benchmark: every block's default configuration, and each of its pipeline
options, through `grfgen flow --pnr`, with Fmax, utilisation, routing and the critical path
against the block's target, and for the blocks with workloads the time per workload (cycles
from the golden model x clock period).

    scripts/bench_pnr.py [--grfgen PATH] [--device ecp5-85k] [--block BLOCK ...] [--only ROW ...]
                         [--pnr-seeds N] [--json OUT]

Each row is placed with nextpnr's seed 1, the seed the targets are stated for. With
`--pnr-seeds N` it is placed again with seeds 2..N, and the table gives the spread of Fmax
over the N placements (minimum, median, maximum): the same netlist's Fmax moves by +-10% from
seed to seed, so a change smaller than the spread is not shown by one seed.

Slow: minutes per row and seed (the GPR about one, the router 5 to 30, core and GRF about 10
each).
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
    ("gpr", ["--pipeline", "4"], 200, None),
    ("route", ["--pipeline", "0"], 150, None),
    ("route", ["--pipeline", "3"], 150, None),
    ("route", [], 150, None),
    # Before the timing work, then the defaults before forwarding, then forwarding alone, then
    # the defaults before the request stage.
    ("core", ["--lookahead", "3", "--pipeline", "0", "--alu-latency", "2", "--forward", "false",
              "--request-stage", "false"], 100, CORE_WORKLOADS),
    ("core", ["--lookahead", "2", "--pipeline", "1", "--alu-latency", "2", "--forward", "false",
              "--request-stage", "false"], 100, CORE_WORKLOADS),
    ("core", ["--lookahead", "2", "--pipeline", "1", "--alu-latency", "2",
              "--request-stage", "false"], 100, CORE_WORKLOADS),
    ("core", ["--lookahead", "2", "--request-stage", "false"], 100, CORE_WORKLOADS),
    ("core", ["--request-stage", "false"], 100, CORE_WORKLOADS),
    ("core", [], 100, CORE_WORKLOADS),
    ("core", ["--pipeline", "3"], 100, CORE_WORKLOADS),
    ("core", ["--pipeline", "4"], 100, CORE_WORKLOADS),
    ("grf", ["--pipeline", "0"], 100, GRF_WORKLOADS),
    ("grf", ["--pipeline", "1"], 100, GRF_WORKLOADS),
    ("grf", ["--pipeline", "2"], 100, GRF_WORKLOADS),
    ("grf", ["--pipeline", "3"], 100, GRF_WORKLOADS),
    ("grf", [], 100, GRF_WORKLOADS),
    ("grf", ["--pipeline", "5"], 100, GRF_WORKLOADS),
]


def grfgen(binary, args):
    """Runs grfgen with `args`; its JSON output. Fails loudly."""
    out = subprocess.run([binary, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"grfgen {' '.join(args)} failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return json.loads(out.stdout)


def place(binary, block, flags, device, seed):
    """`grfgen flow BLOCK FLAGS --pnr` with nextpnr's seed `seed`: its JSON report and the
    seconds it took."""
    with tempfile.TemporaryDirectory() as work:
        start = time.monotonic()
        flow = grfgen(binary, ["flow", block, *flags, "--out", str(Path(work) / block),
                               "--seed", "1", "--pnr", "--pnr-seed", str(seed),
                               "--device", device, "--json"])
        return flow, round(time.monotonic() - start)


def spread(values):
    """(minimum, median, maximum) of `values`."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return ordered[0], median, ordered[-1]


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
    parser.add_argument("--pnr-seeds", type=int, default=1, metavar="N",
                        help="also place each row with nextpnr seeds 2..N and give Fmax's spread")
    parser.add_argument("--json", help="also write the results to this file")
    options = parser.parse_args()
    if options.pnr_seeds < 1:
        parser.error(f"--pnr-seeds {options.pnr_seeds}: must be at least 1")
    results = []
    for block, flags, target, workloads in BLOCKS:
        label = " ".join([block, *flags])
        chosen = (options.block or []) + (options.only or [])
        if chosen and block not in (options.block or []) and label not in (options.only or []):
            continue
        flow, seconds = place(options.grfgen, block, flags, options.device, 1)
        pnr = flow["pnr"]
        row = {"block": block, "flags": flags, "target_mhz": target, "flow_seconds": seconds,
               "pnr": pnr}
        if options.pnr_seeds > 1:
            others = [place(options.grfgen, block, flags, options.device, seed)[0]["pnr"]
                      for seed in range(2, options.pnr_seeds + 1)]
            row["seeds"] = [{"seed": p["seed"], "fmax_mhz": p.get("fmax_mhz"),
                             "critical_path": p.get("critical_path")} for p in [pnr, *others]]
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
    seeded = [row for row in results if "seeds" in row]
    if seeded:
        print()
        print(f"| block | options | Fmax, seed 1 | Fmax over seeds 1..{options.pnr_seeds}: "
              "min, median, max |")
        print("|---|---|---|---|")
    for row in seeded:
        fmaxes = [s["fmax_mhz"] for s in row["seeds"] if s["fmax_mhz"] is not None]
        label = " ".join(row["flags"]) or "-"
        if not fmaxes:
            print(f"| {row['block']} | {label} | - | - |")
            continue
        low, middle, high = spread(fmaxes)
        first = row["pnr"].get("fmax_mhz")
        first = f"{first:.1f} MHz" if first is not None else "-"
        print(f"| {row['block']} | {label} | {first} | {low:.1f}, {middle:.1f}, {high:.1f} MHz |")
    for row in results:
        for w in row.get("workloads", []):
            print(f"{row['block']} {w['workload']}: {w['cycles']} cycles, {w['ns']} ns")
    if options.json:
        Path(options.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
