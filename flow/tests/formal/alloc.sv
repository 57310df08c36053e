// Bounded model checking harness of the GPR pool allocator (hdl/src/alloc/; docs/alloc.md),
// the whole emitted design (top module `alloc`), read with SYNTHESIS defined: its own
// simulation-only checker is then empty, and this harness states the invariants instead,
// against a shadow that keeps, per slot, the granules its wave took at launch, and the
// granules in use. Every input is free every cycle (footprints larger than the pool, releases
// larger than the footprint, retires of empty or missing slots among them). Every cycle:
//
// * the footprint register follows set_footprint and release (at most to zero);
// * a launch is granted exactly when asked with a slot free, the footprint within the pool and
//   a run of free granules covering it (never dropped, never spurious);
// * it takes the lowest free slot (never a resident one: no slot overflow) and the lowest
//   fitting run (first fit), of the footprint rounded up to granules, inside the pool and
//   sharing no granule with any resident wave;
// * the free registers are the pool less the granules in use, and the resident count is the
//   shadow's: a retire returns exactly the granules its wave took (no pool underflow, no leak).
//   As each launch is checked against the shadow's granules, an allocation that changed while
//   resident shows as a launch granted, refused or placed against them, or a wrong free count.
//
// The footprint checks after the first use the allocator's `footprint` output, which the first
// check holds equal to the shadow's.
//
// FAULT_LOST_RETIRE hides every retire of slot 1 from the allocator while the shadow frees
// the slot: its granules are never returned.
module alloc_formal #(
    parameter POOL = 8,
    parameter GRANULARITY = 2,
    parameter SLOTS = 3
) (
    input clock,
    input set_footprint,
    input [31:0] footprint_value,
    input release_valid,
    input [31:0] release_amount,
    input launch,
    input retire,
    input [4:0] retire_slot
);
    localparam GRANULES = POOL / GRANULARITY;

    wire retire_seen = retire
`ifdef FAULT_LOST_RETIRE
        && retire_slot != 1
`endif
        ;
    wire launched;
    wire [4:0] launch_slot;
    wire [8:0] launch_base, launch_size, free_registers;
    wire [5:0] resident;
    wire [31:0] launch_stalls, released, footprint;
    alloc dut (
        .clock(clock),
        .set_footprint(set_footprint),
        .footprint_value(footprint_value),
        .release_valid(release_valid),
        .release_amount(release_amount),
        .launch(launch),
        .retire(retire_seen),
        .retire_slot(retire_slot),
        .launched(launched),
        .launch_slot(launch_slot),
        .launch_base(launch_base),
        .launch_size(launch_size),
        .resident(resident),
        .launch_stalls(launch_stalls),
        .released(released),
        .footprint(footprint),
        .free_registers(free_registers)
    );

    // The shadow: the footprint, the resident slots, each one's granules, the granules in use.
    reg [31:0] shadow_footprint = 0;
    reg [SLOTS-1:0] live = 0;
    reg [GRANULES-1:0] held [0:SLOTS-1];
    reg [GRANULES-1:0] used = 0;
    integer i;
    initial
        for (i = 0; i < SLOTS; i = i + 1)
            held[i] = 0;

    // Derived each cycle: the free slot, the first fit, the launch's granules.
    integer s, g, k;
    reg any_free, fits, run_free;
    reg [4:0] free_slot;
    reg [9:0] need, fit_base, free_granules;
    reg [5:0] live_count;
    reg [GRANULES-1:0] taken;
    reg [31:0] loaded, cut;
    always @* begin
        live_count = 0;
        any_free = 0;
        free_slot = 0;
        for (s = SLOTS - 1; s >= 0; s = s - 1) begin
            live_count = live_count + live[s];
            if (!live[s]) begin
                any_free = 1;
                free_slot = s;
            end
        end
        free_granules = 0;
        for (g = 0; g < GRANULES; g = g + 1)
            free_granules = free_granules + !used[g];
        need = footprint <= POOL ? (footprint + GRANULARITY - 1) / GRANULARITY : 0;
        fits = 0;
        fit_base = 0;
        for (g = GRANULES - 1; g >= 0; g = g - 1) begin
            run_free = g + need <= GRANULES;
            for (k = g; k < GRANULES; k = k + 1)
                if (k < g + need && used[k])
                    run_free = 0;
            if (run_free) begin
                fits = 1;
                fit_base = g;
            end
        end
        for (g = 0; g < GRANULES; g = g + 1)
            taken[g] = launched && g * GRANULARITY >= launch_base
                && g * GRANULARITY < launch_base + launch_size;
        loaded = set_footprint ? footprint_value : shadow_footprint;
        cut = !release_valid ? 0 : release_amount > loaded ? loaded : release_amount;

        // property: footprint_follows_set_and_release
        assert (footprint == shadow_footprint);
        // property: launch_granted_exactly_when_it_fits
        assert (launched == (launch && any_free && footprint <= POOL && fits));
        // property: resident_count_matches
        assert (resident == live_count);
        // property: free_registers_are_pool_less_granules_in_use
        assert (free_registers == free_granules * GRANULARITY);
        if (launched) begin
            // property: launch_takes_lowest_free_slot
            assert (launch_slot == free_slot);
            // property: launch_size_is_footprint_in_granules
            assert (launch_size == need * GRANULARITY);
            // property: launch_is_first_fit
            assert (launch_base == fit_base * GRANULARITY);
            // property: allocation_within_pool
            assert (launch_base + launch_size <= POOL);
            // property: no_granule_shared_with_a_resident_wave
            assert ((taken & used) == 0);
        end
    end

    integer r;
    always @(posedge clock) begin
        shadow_footprint <= loaded - cut;
        for (r = 0; r < SLOTS; r = r + 1)
            if (retire && retire_slot == r && live[r]) begin
                live[r] <= 0;
                held[r] <= 0;
            end
        if (launched) begin
            live[launch_slot] <= 1;
            held[launch_slot] <= taken;
        end
    end
    // The granules in use: those of the resident waves (next cycle's, from `held` and `live`
    // as updated above, rebuilt as the union).
    integer u;
    reg [GRANULES-1:0] next_used;
    always @* begin
        next_used = taken;
        for (u = 0; u < SLOTS; u = u + 1)
            if (live[u] && !(retire && retire_slot == u))
                next_used = next_used | held[u];
    end
    always @(posedge clock)
        used <= next_used;
endmodule
