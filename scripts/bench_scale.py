#!/usr/bin/env python3
"""Scale benchmark: build time, peak memory and co-simulation speed, small to SM-sized.

For each configuration, one after the other on the same machine:
- `grfgen emit`: its wall time;
- `grfgen sim` from an empty model cache (`GRFGEN_CACHE`): the first build (emit, verilate,
  compile, load), its peak memory, then the lock-step run's cycles per second;
- the same again from the now-warm cache: the cached build;
- the golden model alone (`--no-rtl`): its cycles per second;
- plain Verilator on the same emitted files, with a bare C++ loop this script writes (random
  inputs every cycle, clock low then high, no checking): `verilator --cc --exe --build -j 2
  -O3` of the same text, its wall time and peak memory; then the loop built again without the
  simulation-only checks (`+define+SYNTHESIS`: random inputs break the contracts they check;
  the co-simulation keeps them), its cycles per second over as many cycles as the co-simulation
  ran; and the loop once more with the g++ optimisation of grfgen's own build, whose speed is
  the co-simulation's per-cycle code without the lock step.

With `--yosys`, also Yosys's `synth_ice40` of the same text as `grfgen flow` runs it (every
module instantiated more than once kept whole, the rest flattened), its wall time and peak
memory.

The ratio of the two speeds is measured in one run, side by side. Peak memory is the largest
resident set of the command and its children (GNU time's %M).

    scripts/bench_scale.py [--grfgen target/release/grfgen] [--only NAME] [--yosys] [--json OUT]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SM_GPR = ["--banks", "16", "--lanes", "64", "--registers", "1024", "--read-ports", "8",
          "--write-ports", "4"]

# (name, block, design flags, run flags): the run flags give a few seconds of co-simulation.
CONFIGS = [
    ("gpr", "gpr", [], ["--cycles", "3000000"]),
    ("gpr mid", "gpr", ["--banks", "8", "--lanes", "32", "--registers", "512"],
     ["--cycles", "300000"]),
    ("gpr SM", "gpr", SM_GPR, ["--cycles", "10000"]),
    ("route", "route", [], ["--cycles", "400000"]),
    ("core", "core", [], ["--workload", "random", "--instructions", "200000"]),
    ("core mid", "core", ["--banks", "8", "--lanes", "16", "--registers", "512"],
     ["--workload", "random", "--instructions", "50000"]),
    ("core SM", "core", ["--banks", "16", "--lanes", "64", "--registers", "1024",
                         "--read-ports", "8"],
     ["--workload", "random", "--instructions", "2000"]),
    ("grf", "grf", [], ["--workload", "streaming", "--rounds", "1000"]),
    ("cluster", "cluster", [], ["--example", "random", "--cycles", "300000"]),
    ("lvt", "lvt", [], ["--cycles", "300000"]),
    ("flops", "flops", [], ["--cycles", "1000000"]),
    ("alloc", "alloc", [], ["--example", "traffic", "--cycles", "1000000"]),
    ("grf mid", "grf", ["--eus", "8", "--lanes", "8", "--slow-regs", "512"],
     ["--workload", "streaming", "--rounds", "300"]),
    ("grf SM", "grf", ["--eus", "8", "--threads", "4", "--lanes", "8", "--slow-regs", "1024",
                       "--fast-regs", "32"],
     ["--workload", "streaming", "--rounds", "100"]),
]

BARE_LOOP = """// Verilator alone: random inputs every cycle, no checking; written by bench_scale.py.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include "verilated.h"
#include "V{top}.h"

static uint64_t state = 0x9e3779b97f4a7c15ull;
static inline uint64_t rnd() {{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}}

int main(int argc, char** argv) {{
    uint64_t cycles = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1000000;
    VerilatedContext context;
    V{top} top{{&context}};
    auto start = std::chrono::steady_clock::now();
    for (uint64_t cycle = 0; cycle < cycles; cycle++) {{
        top.clock = 0;
{drive}        top.eval();
        top.clock = 1;
        top.eval();
    }}
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    top.final();
    printf("%.1f\\n", cycles / seconds);
    return 0;
}}
"""


def run(command, cwd, env=None):
    """Runs `command` under GNU time; (wall seconds, peak KiB, stdout). Fails loudly."""
    start = time.monotonic()
    out = subprocess.run(["/usr/bin/time", "-f", "peak_kib %M", *command], cwd=cwd,
                         capture_output=True, text=True, env=env)
    seconds = time.monotonic() - start
    if out.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    peak = int(re.findall(r"peak_kib (\d+)", out.stderr)[-1])
    return seconds, peak, out.stdout


def ports(verilog):
    """The top's inputs as (name, width), from the port comment at the head of the file."""
    found = []
    for line in verilog.splitlines():
        if not line.startswith("//"):
            break
        m = re.match(r"//\s+input\s+(?:\[(\d+):0\]\s+)?(\w+)", line)
        if m:
            found.append((m.group(2), int(m.group(1) or 0) + 1))
    return found


def drive(inputs):
    """The bare loop's lines that give every input but the clock a random value."""
    lines = []
    for name, width in inputs:
        if name == "clock":
            continue
        if "reset" in name:
            lines.append(f"        top.{name} = cycle < 4;\n")
        elif width <= 64:
            mask = (1 << width) - 1
            lines.append(f"        top.{name} = rnd() & 0x{mask:x}ull;\n")
        else:
            words, last = (width + 31) // 32, width % 32 or 32
            lines.append(f"        for (int w = 0; w < {words}; w++) top.{name}[w] = "
                         f"(uint32_t)rnd();\n")
            lines.append(f"        top.{name}[{words - 1}] &= 0x{(1 << last) - 1:x}u;\n")
    if not lines:
        sys.exit("no inputs found in the emitted file's port comment")
    return "".join(lines)


def verilate(out, top, flags, mdir):
    """`verilator --cc --exe --build -j 2 -O3` of the emitted files with `flags` into
    `out/mdir`, the bare loop as its main; the build's wall time and peak memory."""
    verilog = sorted(p.name for p in out.glob("*.v"))
    text = (out / f"{top}.v").read_text()
    (out / "bare.cpp").write_text(BARE_LOOP.format(top=top, drive=drive(ports(text))))
    seconds, peak, _ = run(["verilator", "--cc", "--exe", "--build", "-j", "2", "-O3", *flags,
                            "-Wno-fatal", "--Mdir", mdir, "--top-module", top, "--prefix",
                            f"V{top}", "-o", "bare", f"{top}.vlt", *verilog, "bare.cpp"], out)
    return round(seconds, 1), round(peak / 1024)


def speed(out, top, cycles, flags, mdir):
    """The bare loop's cycles per second, built with `flags` and without the simulation-only
    checks (random inputs break the contracts they check)."""
    verilate(out, top, ["+define+SYNTHESIS", *flags], mdir)
    _, _, printed = run([str(out / mdir / "bare"), str(cycles)], out)
    return float(printed)


def plain(out, top, cycles):
    """Verilator alone: the build a user would make of the same text (Verilator's default g++
    flags: -Os on the per-cycle code), timed; the bare loop's speed so built; and its speed
    built with the g++ optimisation of grfgen's own build (-O2, -O1 over 2 MB of Verilog:
    sim/src/verilator/compile.rs), which runs the same per-cycle code as the co-simulation."""
    build_s, peak_mb = verilate(out, top, [], "plain")
    large = (out / f"{top}.v").stat().st_size > 2_000_000
    flags = ["-MAKEFLAGS", "OPT_FAST=-O1" if large else "OPT_FAST=-O2"]
    return {"build_s": build_s, "build_peak_mb": peak_mb,
            "cycles_per_s": speed(out, top, cycles, [], "bare"),
            "same_flags_cycles_per_s": speed(out, top, cycles, flags, "same")}


def repeated_modules(verilog):
    """The modules instantiated more than once, other than banks of registers, as
    `repeated_modules` in flow/src/tools.rs finds them (an instance is a line
    `    <module> <name>(`)."""
    modules = re.findall(r"^module (\w+)\($", verilog, re.M)
    count = {m: 0 for m in modules}
    for module in re.findall(r"^    (\w+) \w+\($", verilog, re.M):
        if module in count:
            count[module] += 1
    bank = re.compile(r".*_registers_(kept_)?\d+x\d+(_\d+)?$")
    return sorted(m for m, n in count.items() if n > 1 and not bank.match(m))


def synthesize(out, top):
    """Yosys `synth_ice40` of the emitted text as `grfgen flow` runs it (flow/src/tools.rs:
    the repeated modules kept whole, the rest flattened): wall time, peak MB."""
    keep = repeated_modules((out / f"{top}.v").read_text())
    kept = f"setattr -mod -set keep_hierarchy 1 {' '.join(keep)}; " if keep else ""
    script = f"read_verilog {top}.v; {kept}synth_ice40 -top {top}; check -assert; stat -top {top}"
    seconds, peak, _ = run(["yosys", "-q", "-p", script], out)
    return {"yosys_s": round(seconds, 1), "yosys_peak_mb": round(peak / 1024)}


def measure(grfgen, block, design, options, work):
    """One configuration: grfgen's emit, first and cached builds, co-sim; plain Verilator."""
    out = work / "out"
    emit_s, _, _ = run([grfgen, "emit", block, *design, "--out", str(out)], work)
    top = next(out.glob("*.v")).stem
    env = dict(os.environ, GRFGEN_CACHE=str(work / "cache"))
    sim = [grfgen, "sim", block, *design, *options, "--rtl", "--seed", "1", "--json"]
    rows = {}
    golden = json.loads(run([*sim, "--no-rtl"], work, env)[2])
    golden_cps = golden["cycles"] / golden["seconds"]
    for build in ("first", "cached"):
        wall, peak, stdout = run(sim, work, env)
        record = json.loads(stdout)
        if record["mismatches"]:
            sys.exit(f"{block}: mismatch {record['first_mismatch']}")
        cycles = record["cycles"]
        rows[build] = {
            "wall_s": round(wall, 1),
            "model_s": round(record["model_seconds"], 2),
            "peak_mb": round(peak / 1024),
            "cycles": cycles,
            "cosim_cycles_per_s": cycles / (record["seconds"] - record["model_seconds"]),
        }
    alone = plain(out, top, rows["first"]["cycles"])
    cosim = rows["cached"]["cosim_cycles_per_s"]
    same = alone["same_flags_cycles_per_s"]
    return {"emit_s": round(emit_s, 2), "bytes": (out / f"{top}.v").stat().st_size,
            "first": rows["first"], "cached": rows["cached"], "plain": alone,
            "cosim_cycles_per_s": round(cosim), "alone_cycles_per_s": round(alone["cycles_per_s"]),
            "golden_cycles_per_s": round(golden_cps),
            "ratio": round(cosim / alone["cycles_per_s"], 2),
            "same_flags_ratio": round(cosim / same, 2)}


def table(results):
    """The results as a Markdown table."""
    lines = [
        "| configuration | Verilog | emit | first build (peak) | cached build | plain Verilator build "
        "(peak) | golden model alone | co-sim | Verilator alone | ratio | ratio, same g++ flags |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        first, cached, alone = r["first"], r["cached"], r["plain"]
        lines.append(
            f"| {r['config']} | {r['bytes'] / 1e6:.2f} MB | {r['emit_s']:.1f} s | "
            f"{first['model_s']:.1f} s ({first['peak_mb']} MB) | {cached['model_s']:.1f} s | "
            f"{alone['build_s']:.1f} s ({alone['build_peak_mb']} MB) | "
            f"{r['golden_cycles_per_s']:,} c/s | "
            f"{r['cosim_cycles_per_s']:,} c/s | {r['alone_cycles_per_s']:,} c/s | "
            f"{r['ratio']:.2f}x | {r['same_flags_ratio']:.2f}x |")
    synthesized = [r for r in results if "yosys_s" in r]
    if synthesized:
        lines += ["", "| configuration | Yosys synth_ice40 (peak) |", "|---|---|"]
        lines += [f"| {r['config']} | {r['yosys_s']:.1f} s ({r['yosys_peak_mb']} MB) |"
                  for r in synthesized]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grfgen", default="target/release/grfgen")
    parser.add_argument("--only", action="append", help="a configuration by name (repeatable)")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--yosys", action="store_true",
                        help="also time Yosys's synth_ice40 of each configuration")
    options = parser.parse_args()
    grfgen = str(Path(options.grfgen).resolve())
    names = [c[0] for c in CONFIGS]
    for name in options.only or []:
        if name not in names:
            sys.exit(f"invalid value --only {name!r}: allowed {', '.join(names)}")
    results = []
    for name, block, design, run_options in CONFIGS:
        if options.only and name not in options.only:
            continue
        with tempfile.TemporaryDirectory() as work:
            row = measure(grfgen, block, design, run_options, Path(work))
            if options.yosys:
                out = Path(work) / "out"
                row.update(synthesize(out, next(out.glob("*.v")).stem))
        row["config"] = name
        row["command"] = " ".join(["grfgen", "sim", block, *design, *run_options])
        print(json.dumps(row), flush=True)
        results.append(row)
    print()
    print(table(results))
    if options.json:
        Path(options.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
