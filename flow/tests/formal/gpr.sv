// Bounded model checking harness of the banked GPR's per-bank arbitration
// (hdl/src/gpr/arbiter.rs, priority.rs, banked.rs; docs/gpr.md), on the whole emitted GPR
// (top module `gpr`, pipeline 0) so that a grant is checked against what the banks do. Every
// cycle each port carries a free request; per cycle:
//
// * a bank grants at most one write, and at most READS_PER_BANK reads (one per bank read
//   port); a single-port bank grants no read while it is written;
// * no read is granted of a register a granted write writes in the same cycle (the banks'
//   read-during-write is undefined);
// * a request is granted exactly when the rule says (never dropped): a write unless a
//   lower-numbered write port asks for its bank; a read unless it clashes with a granted write,
//   its single-port bank is written, or READS_PER_BANK lower-numbered remaining reads ask for
//   its bank; nothing is granted without a request;
// * a granted read returns, after the rising edge, the value of the last write granted to its
//   register in an earlier cycle (zero before any), and a port not granted reads zero. A
//   symbolic register (`watched`, any constant) stands for all of them.
//
// FAULT_LOST_REQUEST drops write port 1's request on its way to the GPR, as a lossy requester
// path would: the harness still sees the request, which then goes neither granted nor beaten.
module gpr_formal #(
    parameter BANKS = 2,
    parameter READ_PORTS = 3,
    parameter WRITE_PORTS = 2,
    parameter READS_PER_BANK = 1,
    parameter SINGLE_PORT = 0,
    parameter REG_BITS = 3,
    parameter LANES = 1,
    parameter ELEMENT_BITS = 8
) (
    input clock,
    input [READ_PORTS-1:0] read_valid,
    input [READ_PORTS*REG_BITS-1:0] read_reg,
    input [WRITE_PORTS-1:0] write_valid,
    input [WRITE_PORTS*REG_BITS-1:0] write_reg,
    input [WRITE_PORTS*LANES*ELEMENT_BITS-1:0] write_data
);
    localparam BANK_BITS = $clog2(BANKS);
    localparam ENTRY = LANES * ELEMENT_BITS;

    wire [WRITE_PORTS-1:0] requested = write_valid
`ifdef FAULT_LOST_REQUEST
        & ~(1 << 1)
`endif
        ;
    wire [READ_PORTS-1:0] read_grant;
    wire [WRITE_PORTS-1:0] write_grant;
    wire [READ_PORTS*ENTRY-1:0] read_data;
    gpr dut (
        .clock(clock),
        .read_valid(read_valid),
        .read_reg(read_reg),
        .read_grant(read_grant),
        .read_data(read_data),
        .write_valid(requested),
        .write_reg(write_reg),
        .write_data(write_data),
        .write_grant(write_grant)
    );

    function [BANK_BITS-1:0] bank_of(input [REG_BITS-1:0] register);
        bank_of = register[BANK_BITS-1:0];
    endfunction

    // Per cycle: the grants against the rule, per bank and per port.
    integer b, p, q, w, v, writes, reads, ahead;
    reg clash, blocked, other_clash, other_blocked, beaten;
    always @* begin
        for (b = 0; b < BANKS; b = b + 1) begin
            writes = 0;
            reads = 0;
            for (w = 0; w < WRITE_PORTS; w = w + 1)
                if (write_grant[w] && bank_of(write_reg[w*REG_BITS +: REG_BITS]) == b)
                    writes = writes + 1;
            for (p = 0; p < READ_PORTS; p = p + 1)
                if (read_grant[p] && bank_of(read_reg[p*REG_BITS +: REG_BITS]) == b)
                    reads = reads + 1;
            // property: one_write_per_bank
            assert (writes <= 1);
            // property: reads_per_bank
            assert (reads <= READS_PER_BANK);
            // property: single_port_bank_reads_or_writes
            assert (!SINGLE_PORT || writes == 0 || reads == 0);
        end
        for (w = 0; w < WRITE_PORTS; w = w + 1) begin
            beaten = 0;
            for (v = 0; v < w; v = v + 1)
                if (write_valid[v] && bank_of(write_reg[v*REG_BITS +: REG_BITS])
                        == bank_of(write_reg[w*REG_BITS +: REG_BITS]))
                    beaten = 1;
            // property: write_granted_unless_a_lower_port_wins
            assert (write_grant[w] == (write_valid[w] && !beaten));
        end
        for (p = 0; p < READ_PORTS; p = p + 1) begin
            clash = 0;
            blocked = 0;
            for (w = 0; w < WRITE_PORTS; w = w + 1) begin
                if (write_grant[w]) begin
                    // property: no_read_during_write
                    assert (!read_grant[p] || read_reg[p*REG_BITS +: REG_BITS]
                        != write_reg[w*REG_BITS +: REG_BITS]);
                    if (!SINGLE_PORT && read_reg[p*REG_BITS +: REG_BITS]
                            == write_reg[w*REG_BITS +: REG_BITS])
                        clash = 1;
                    if (SINGLE_PORT && bank_of(read_reg[p*REG_BITS +: REG_BITS])
                            == bank_of(write_reg[w*REG_BITS +: REG_BITS]))
                        blocked = 1;
                end
            end
            ahead = 0;
            for (q = 0; q < p; q = q + 1) begin
                other_clash = 0;
                other_blocked = 0;
                for (w = 0; w < WRITE_PORTS; w = w + 1) begin
                    if (write_grant[w] && !SINGLE_PORT && read_reg[q*REG_BITS +: REG_BITS]
                            == write_reg[w*REG_BITS +: REG_BITS])
                        other_clash = 1;
                    if (write_grant[w] && SINGLE_PORT && bank_of(read_reg[q*REG_BITS +: REG_BITS])
                            == bank_of(write_reg[w*REG_BITS +: REG_BITS]))
                        other_blocked = 1;
                end
                if (read_valid[q] && !other_clash && !other_blocked
                        && bank_of(read_reg[q*REG_BITS +: REG_BITS])
                        == bank_of(read_reg[p*REG_BITS +: REG_BITS]))
                    ahead = ahead + 1;
            end
            // property: read_granted_unless_clash_blocked_or_bank_full
            assert (read_grant[p]
                == (read_valid[p] && !clash && !blocked && ahead < READS_PER_BANK));
        end
    end

    // Data: what a granted read returns, for the symbolic register `watched`.
    (* anyconst *) reg [REG_BITS-1:0] watched;
    reg [ENTRY-1:0] value = 0;
    reg [ENTRY-1:0] value_read = 0;
    reg [READ_PORTS-1:0] was_granted = 0;
    reg [READ_PORTS-1:0] read_watched = 0;
    integer j, k, n;
    always @(posedge clock) begin
        value_read <= value;
        was_granted <= read_grant;
        for (k = 0; k < READ_PORTS; k = k + 1)
            read_watched[k] <= read_grant[k] && read_reg[k*REG_BITS +: REG_BITS] == watched;
        for (j = 0; j < WRITE_PORTS; j = j + 1)
            if (write_grant[j] && write_reg[j*REG_BITS +: REG_BITS] == watched)
                value <= write_data[j*ENTRY +: ENTRY];
    end
    always @* begin
        for (n = 0; n < READ_PORTS; n = n + 1) begin
            // property: ungranted_port_reads_zero
            assert (was_granted[n] || read_data[n*ENTRY +: ENTRY] == 0);
            // property: granted_read_returns_last_granted_write
            assert (!read_watched[n] || read_data[n*ENTRY +: ENTRY] == value_read);
        end
    end
endmodule
