#!/bin/sh
# Runs the slow checks that `make test` leaves out: every test marked
# `#[ignore = "slow ..."]` (place and route of every block on the ECP5, the exhaustive
# exploration, the longest co-simulation sweeps) and the documentation's slow examples
# (```console,ignore,slow blocks). They take an hour or more on two cores; run them before a
# release, or one at a time: scripts/slow-tests.sh -p grfgen --test pnr
set -eu
cd "$(dirname "$0")/.."
scripts/ensure-tools.sh
if [ $# -eq 0 ]; then
  set -- --workspace
fi
exec cargo test --release "$@" -- --ignored
