#!/usr/bin/env bash
# Mutation testing of the Rust that no RTL checks, and of the golden models against their
# co-simulations, with cargo-mutants: each module below is mutated alone and every mutant runs
# the tests that cover that module. A benchmark, not part of `make test` (each mutant rebuilds
# the crate). Prints a table of the scores per module; cargo-mutants' own outputs (the missed
# mutants in `missed.txt`) stay under OUT/<module>.
#
# Usage: scripts/mutants.sh [OUT [MODULE...]]
#   OUT     where the outputs go (default: target/mutants)
#   MODULE  only these rows of the table below (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/mutants}
shift || true
if ! command -v cargo-mutants >/dev/null; then
    echo "cargo-mutants is missing: installing it (cargo install cargo-mutants --locked)" >&2
    cargo install cargo-mutants --locked
fi
# nextest stops a mutant's tests at the first failure, where `cargo test` runs every test of the
# binary: a caught mutant of a golden model costs seconds of co-simulation, not the whole file.
if ! command -v cargo-nextest >/dev/null; then
    echo "cargo-nextest is missing: installing it (cargo install cargo-nextest --locked)" >&2
    cargo install cargo-nextest --locked
fi

# name | file | package | test arguments for `cargo nextest run` (the tests that cover the file)
modules=(
    "bound|sim/src/core/bound.rs|grfgen-sim|--lib"
    "core-allocator|sim/src/compilers/core_allocate/*.rs|grfgen-sim|--lib --test core_allocate"
    "cluster-partition|sim/src/compilers/cluster/partition.rs|grfgen-sim|--lib --test cluster_partition"
    "route-plan|sim/src/route/plan.rs|grfgen-sim|--lib --test route_cosim"
    "route-window|sim/src/route/window.rs|grfgen-sim|--lib --test route_cosim"
    "explore-front|engines/src/explore/points.rs|grfgen-engines|--lib"
    "explore-report|engines/src/explore/report.rs|grfgen-engines|--lib"
    "gpr-model|sim/src/gpr/model.rs|grfgen-sim|--lib --test gpr_cosim"
    "route-model|sim/src/route/model.rs|grfgen-sim|--lib --test route_cosim"
    "core-model|sim/src/core/model.rs|grfgen-sim|--lib --test core_cosim"
)

wanted() {
    [ $# -eq 0 ] && return 0
    local name=$1
    shift
    for m in "$@"; do [ "$m" = "$name" ] && return 0; done
    return 1
}

rows=()
for entry in "${modules[@]}"; do
    IFS='|' read -r name file package tests <<<"$entry"
    wanted "$name" "$@" || continue
    start=$(date +%s)
    mkdir -p "$out/$name"
    # A mutant's tests may take 5 times the unmutated run's (cargo-mutants' own rule), and at
    # least 60 s: a mutant that loops forever fails in bounded time without costing minutes.
    # shellcheck disable=SC2086 # the test arguments are words
    cargo mutants --no-shuffle --jobs 1 --minimum-test-timeout 60 --test-tool nextest \
        --package "$package" \
        --file "$file" --output "$out/$name" -- $tests || true
    rows+=("$name|$file|$(($(date +%s) - start))")
done

echo
echo "| module | file | mutants | caught | missed | timeout | unviable | score | time |"
echo "|---|---|---|---|---|---|---|---|---|"
for row in "${rows[@]}"; do
    IFS='|' read -r name file seconds <<<"$row"
    python3 - "$out/$name/mutants.out/outcomes.json" "$name" "$file" "$seconds" <<'EOF'
import json, sys
path, name, file, seconds = sys.argv[1:5]
try:
    outcomes = json.load(open(path))
except (OSError, ValueError) as e:
    print(f"| {name} | `{file}` | no outcomes: {e} | | | | | | |")
    sys.exit(0)
counts = {k: outcomes.get(k, 0) for k in ["total_mutants", "caught", "missed", "timeout", "unviable"]}
tested = counts["caught"] + counts["missed"]
score = f"{counts['caught'] / tested:.3f}" if tested else "-"
print(f"| {name} | `{file}` | {counts['total_mutants']} | {counts['caught']} | {counts['missed']} "
      f"| {counts['timeout']} | {counts['unviable']} | {score} | {int(seconds) / 60:.1f} min |")
EOF
done
