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
# and link, a tool's wait): the co-simulation files (`*_cosim`), and every other test target.
# Both select the whole workspace, so that cargo resolves the dependencies' features as the
# build before them did and builds nothing again (`-p` resolves fewer, and rebuilds); the
# lanes name their test files (tests/NAME.rs, tests/NAME/main.rs), found here. `--doc`
# cannot join other target flags: the doc tests run after. The lanes' lines interleave as
# they come; a failing test fails its lane and the target.
TEST_FILES := $(sort $(basename $(notdir $(wildcard */tests/*.rs))) \
	$(notdir $(patsubst %/main.rs,%,$(wildcard */tests/*/main.rs))))
COSIM_TESTS := $(addprefix --test ,$(filter %_cosim,$(TEST_FILES)))
REST_TESTS := --lib --bins $(addprefix --test ,$(filter-out %_cosim,$(TEST_FILES)))

test: tools
	$(CARGO) test --release --workspace --no-run
	$(MAKE) --no-print-directory -j2 test-cosim test-rest

.PHONY: test-cosim test-rest
test-cosim:
	$(CARGO) test --release --workspace $(COSIM_TESTS)
test-rest:
	$(CARGO) test --release --workspace $(REST_TESTS)
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
