# The commands a person types. Every target installs the system tools it needs first.
#   make run    emit the default banked GPR, lint, synthesize and co-simulate it
#   make test   the whole test suite
CARGO ?= cargo
GRFGEN = $(CARGO) run --quiet --release -p grfgen --
OUT ?= out

.PHONY: run test tools lint synth sweep bench doc clean

run: tools
	$(GRFGEN) flow gpr --out $(OUT)/gpr

# Two lanes at once, so that each fills the other's idle core (a Verilator model's front end
# and link, a tool's wait), split by crate into two of about the same time: the hardware's and
# the simulation's test files (hdl/tests, sim/tests), and the flow's and the command line's
# (flow/tests, gen/tests) with every crate's unit tests. Both select the whole workspace, so
# that cargo resolves the dependencies' features as the build before them did and builds
# nothing again (`-p` resolves fewer, and rebuilds); the lanes name their test files
# (tests/NAME.rs, tests/NAME/main.rs), found here. `--doc` cannot join other target flags: the
# doc tests run after. The lanes' lines interleave as they come; a failing test fails its lane
# and the target.
test_files = $(sort $(basename $(notdir $(wildcard $(1:%=%/tests/*.rs)))) \
	$(notdir $(patsubst %/main.rs,%,$(wildcard $(1:%=%/tests/*/main.rs)))))
SIM_TESTS := $(addprefix --test ,$(call test_files,hdl sim))
TOOL_TESTS := --lib --bins $(addprefix --test ,$(call test_files,flow gen))

test: tools
	$(CARGO) test --release --workspace --no-run
	$(MAKE) --no-print-directory -j2 test-sim test-tools

.PHONY: test-sim test-tools
test-sim:
	$(CARGO) test --release --workspace $(SIM_TESTS)
test-tools:
	$(CARGO) test --release --workspace $(TOOL_TESTS)
	$(CARGO) test --release --workspace --doc

tools:
	@scripts/ensure-tools.sh

# Emit the default GPR and lint it with every Verilator warning on.
lint: tools
	$(GRFGEN) emit gpr --out $(OUT)/gpr
	verilator --lint-only -Wall -F $$(ls $(OUT)/gpr/*.lint.f)

# Synthesize the default GPR for iCE40, its repeated modules once each, and print the cell counts.
synth: tools
	$(GRFGEN) emit gpr --out $(OUT)/gpr
	cd $(OUT)/gpr && top=$$(basename $$(ls *.v) .v) && \
		yosys -q -p "read_verilog $$top.v; synth_ice40 -noflatten -top $$top; flatten; tee -o /dev/stdout stat"

# Conflict rate and resources over bank and read-port counts.
sweep: tools
	$(GRFGEN) sweep gpr --banks 1,2,4,8,16 --read-ports 2,4,8 --synth

# Simulation speed: golden model alone and lock-step co-simulation.
bench: tools
	$(GRFGEN) bench gpr

doc:
	$(CARGO) doc --workspace --no-deps

clean:
	$(CARGO) clean
	rm -rf $(OUT)
