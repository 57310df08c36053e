// Bounded model checking harness of the crossbar (hdl/src/crossbar.rs) as the banked GPR uses
// it: the parts `gpr_arbiter`, `gpr_write_crossbar` and `gpr_read_crossbar` of one GPR
// configuration, wired as hdl/src/gpr/banked.rs wires them (pipeline 0).
//
// * The write crossbar's selects are the arbiter's write wins (output = bank, input = write
//   port); the read crossbar's selects are the read wins of the previous cycle (output = read
//   port, input = bank read slot). Their producer must make them one-hot or zero per output.
// * A third crossbar takes free selects under its own contract (assumed one-hot or zero per
//   output), so that the crossbar is checked as a block on its own.
// * For every crossbar, every output equals the input its select names, or zero without one.
//
// FAULT_MISWIRED_SELECT wires read port 1's wins into read port 0's selects as well: the
// selects of port 0 are then not one-hot and the check must fail.
module crossbar_formal #(
    parameter BANKS = 2,
    parameter READ_PORTS = 3,
    parameter WRITE_PORTS = 2,
    parameter READS_PER_BANK = 1,
    parameter REG_BITS = 3,
    parameter LANES = 2,
    parameter ELEMENT_BITS = 8
) (
    input clock,
    input [READ_PORTS-1:0] read_valid,
    input [READ_PORTS*REG_BITS-1:0] read_reg,
    input [WRITE_PORTS-1:0] write_valid,
    input [WRITE_PORTS*REG_BITS-1:0] write_reg,
    input [WRITE_PORTS*LANES*ELEMENT_BITS-1:0] write_data,
    input [BANKS*READS_PER_BANK*LANES*ELEMENT_BITS-1:0] slot_data,
    input [READ_PORTS*BANKS*READS_PER_BANK-1:0] free_select
);
    localparam SLOTS = BANKS * READS_PER_BANK;

    wire [READ_PORTS-1:0] read_grant;
    wire [WRITE_PORTS-1:0] write_grant;
    wire [READ_PORTS*SLOTS-1:0] read_win;
    wire [WRITE_PORTS*BANKS-1:0] write_win;
    gpr_arbiter arbiter (
        .read_valid(read_valid),
        .read_reg(read_reg),
        .write_valid(write_valid),
        .write_reg(write_reg),
        .read_grant(read_grant),
        .write_grant(write_grant),
        .read_win(read_win),
        .write_win(write_win)
    );

    // Write crossbar: select[b * WRITE_PORTS + w] = write_win[w * BANKS + b].
    wire [BANKS*WRITE_PORTS-1:0] write_select;
    genvar b, w;
    generate
        for (b = 0; b < BANKS; b = b + 1) begin : write_selects
            for (w = 0; w < WRITE_PORTS; w = w + 1) begin : port
                assign write_select[b*WRITE_PORTS+w] = write_win[w*BANKS+b];
            end
        end
    endgenerate
    wire [BANKS*LANES*ELEMENT_BITS-1:0] bank_write_data;
    gpr_write_crossbar write_xbar (
        .inputs(write_data),
        .select(write_select),
        .outputs(bank_write_data)
    );
    crossbar_check #(WRITE_PORTS, BANKS, LANES, ELEMENT_BITS, 0) write_check (
        write_data, write_select, bank_write_data
    );

    // Read crossbar: its selects are last cycle's read wins (the GPR's read route register);
    // read_win[(p * BANKS + b) * READS_PER_BANK + s] is select p * SLOTS + b * READS_PER_BANK + s.
    reg [READ_PORTS*SLOTS-1:0] read_route = 0;
    always @(posedge clock) begin
        read_route <= read_win;
`ifdef FAULT_MISWIRED_SELECT
        read_route[SLOTS-1:0] <= read_win[SLOTS-1:0] | read_win[2*SLOTS-1:SLOTS];
`endif
    end
    wire [READ_PORTS*LANES*ELEMENT_BITS-1:0] port_data;
    gpr_read_crossbar read_xbar (
        .inputs(slot_data),
        .select(read_route),
        .outputs(port_data)
    );
    crossbar_check #(SLOTS, READ_PORTS, LANES, ELEMENT_BITS, 0) read_check (
        slot_data, read_route, port_data
    );

    // The crossbar alone: free selects, assumed to keep its contract.
    wire [READ_PORTS*LANES*ELEMENT_BITS-1:0] free_data;
    gpr_read_crossbar free_xbar (
        .inputs(slot_data),
        .select(free_select),
        .outputs(free_data)
    );
    crossbar_check #(SLOTS, READ_PORTS, LANES, ELEMENT_BITS, 1) free_check (
        slot_data, free_select, free_data
    );
endmodule

// One crossbar's properties: per output, the select is one-hot or zero (asserted, or assumed
// when ASSUME_SELECTS is 1) and every lane of the output is the selected input's lane, or
// zero when nothing is selected.
module crossbar_check #(
    parameter INPUTS = 2,
    parameter OUTPUTS = 2,
    parameter LANES = 1,
    parameter ELEMENT_BITS = 8,
    parameter ASSUME_SELECTS = 0
) (
    input [INPUTS*LANES*ELEMENT_BITS-1:0] inputs,
    input [OUTPUTS*INPUTS-1:0] select,
    input [OUTPUTS*LANES*ELEMENT_BITS-1:0] outputs
);
    integer o, l, i;
    reg [ELEMENT_BITS-1:0] expected;
    always @* begin
        for (o = 0; o < OUTPUTS; o = o + 1) begin
            if (ASSUME_SELECTS)
                assume ($onehot0(select[o*INPUTS +: INPUTS]));
            else
                // property: select_one_hot_or_zero
                assert ($onehot0(select[o*INPUTS +: INPUTS]));
            for (l = 0; l < LANES; l = l + 1) begin
                expected = 0;
                for (i = 0; i < INPUTS; i = i + 1)
                    if (select[o*INPUTS+i])
                        expected = inputs[(i*LANES+l)*ELEMENT_BITS +: ELEMENT_BITS];
                // property: output_is_selected_input
                assert (outputs[(o*LANES+l)*ELEMENT_BITS +: ELEMENT_BITS] == expected);
            end
        end
    end
endmodule
