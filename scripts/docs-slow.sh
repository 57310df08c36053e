#!/bin/sh
# Runs the documentation's slow examples: the ```console,ignore,slow blocks of README.md and
# docs/*.md, each compared with the output it shows (gen/tests/docs.rs). `make test` runs the
# fast ones; these take minutes (place and route), so they run here, by hand or before a release.
set -eu
cd "$(dirname "$0")/.."
exec cargo test --release -p grfgen --test docs -- --ignored the_slow_examples_give_the_output_they_show
