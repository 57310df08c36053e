// Bounded model checking harness of the core's conflict queue and prefetch queue
// (hdl/src/core/scheduler/: mod.rs, window.rs, read_side/read_scheduler.rs, read_side/allocator.rs; docs/core.md) on the
// scheduler part `core_scheduler`, whose ports say where each read's data goes (a queue entry,
// the cycle after the read) and where each issued instruction's operands come from (the cycle
// after its issue). The environment offers free ALU instructions of program registers, each
// reading the sources its op takes and writing one register, resets in the first cycle only,
// makes no external write (1R1W banks: no write keeps a bank from a read).
//
// A shadow of each queue fills an entry when a read's data goes there and empties it when the
// ALU takes it, remembering the register read. Every cycle:
//
// * no overflow: data goes only to an entry of the queue, never to one still held, never to
//   one entry from two ports; no underflow: the ALU takes only a held entry;
// * nothing is lost or mixed up: an entry the ALU takes holds the register of the issued
//   instruction's source that takes it (a source the op reads), and every held entry is taken
//   within BOUND cycles of its fill;
// * instructions: none issues from an empty window, the window never holds more than WINDOW,
//   and every issue brings its op to the ALU the next cycle;
// * the promise the core's GPR (built without read arbitration) relies on: at most one read
//   per bank per cycle, and no read of the register written back in the same cycle (a bank's
//   read-during-write is undefined).
//
// FAULT_SHORT_QUEUE makes the conflict queue's shadow one entry too small: the scheduler's use
// of its last entry is then an overflow.
module queue_formal #(
    parameter BANKS = 2,
    parameter READ_PORTS = 2,
    parameter REG_BITS = 5,
    parameter PROGRAM_REGISTERS = 16,
    parameter CQ_ENTRIES = 2,
    parameter PQ_ENTRIES = 1,
    parameter WINDOW = 2,
    parameter BOUND = 16
) (
    input clock,
    input reset,
    input instr_valid,
    input [2:0] instr_op,
    input [REG_BITS-1:0] instr_dst,
    input [3*REG_BITS-1:0] instr_src
);
    localparam BANK_BITS = $clog2(BANKS);
    // CaptureKind and OperandSource codes (hdl/src/params/core.rs) and the op codes.
    localparam CAPTURE_CQ = 2, CAPTURE_PQ = 3, FROM_CQ = 3'd2, FROM_PQ = 3'd3;
    localparam OP_MOV = 3'd0, OP_MAD = 3'd4;
`ifdef FAULT_SHORT_QUEUE
    localparam CQ_MODEL = CQ_ENTRIES - 1;
`else
    localparam CQ_MODEL = CQ_ENTRIES;
`endif

    reg first_cycle = 1;
    always @(posedge clock)
        first_cycle <= 0;
    integer s;
    always @* begin
        assume (reset == first_cycle);
        assume (instr_op <= OP_MAD && instr_dst < PROGRAM_REGISTERS);
        for (s = 0; s < 3; s = s + 1)
            assume (instr_src[s*REG_BITS +: REG_BITS] < PROGRAM_REGISTERS);
    end

    wire instr_ready, issue, alu_valid, retire_valid, long_valid, ext_grant;
    wire [2:0] long_writes, long_unit;
    wire [REG_BITS-1:0] long_reg;
    wire [95:0] alu_imm;
    // The sources the op reads: mov source 0, mad all three, the others 0 and 1.
    wire [2:0] instr_read = {instr_op == OP_MAD, instr_op != OP_MOV, 1'b1};
    wire [READ_PORTS-1:0] read_valid;
    wire [READ_PORTS*REG_BITS-1:0] read_reg;
    wire [2*READ_PORTS-1:0] capture_kind;
    wire [3*READ_PORTS-1:0] capture_index;
    wire [2:0] alu_op;
    wire [8:0] alu_kind;
    wire [11:0] alu_index;
    wire [3:0] reads;
    wire [15:0] banks_read, banks_read_twice;
    wire [REG_BITS-1:0] retire_reg;
    core_scheduler dut (
        .clock(clock),
        .reset(reset),
        .instr_valid(instr_valid),
        .instr_op(instr_op),
        .instr_dst(instr_dst),
        .instr_src(instr_src),
        .instr_read(instr_read),
        .instr_imm(96'd0),
        .instr_writes(3'd1),
        .instr_unit(3'd0),
        .instr_wait(2'd0),
        .instr_ready(instr_ready),
        .read_valid(read_valid),
        .read_reg(read_reg),
        .capture_kind(capture_kind),
        .capture_index(capture_index),
        .issue(issue),
        .alu_valid(alu_valid),
        .alu_op(alu_op),
        .alu_imm(alu_imm),
        .alu_kind(alu_kind),
        .alu_index(alu_index),
        .reads(reads),
        .banks_read(banks_read),
        .banks_read_twice(banks_read_twice),
        .retire_valid(retire_valid),
        .retire_reg(retire_reg),
        .long_valid(long_valid),
        .long_reg(long_reg),
        .long_writes(long_writes),
        .long_unit(long_unit),
        .ext_valid(1'b0),
        .ext_result(1'b0),
        .ext_reg({REG_BITS{1'b0}}),
        .ext_grant(ext_grant)
    );

    // The instructions in the window, oldest first, and the one issued last cycle.
    reg [2:0] window_op [0:WINDOW-1];
    reg [3*REG_BITS-1:0] window_src [0:WINDOW-1];
    reg [3:0] held = 0;
    reg issued = 0;
    reg [2:0] issued_op = 0;
    reg [3*REG_BITS-1:0] issued_src = 0;
    reg [READ_PORTS*REG_BITS-1:0] last_read_reg = 0;
    wire accept = instr_valid && instr_ready;
    integer j;
    initial
        for (j = 0; j < WINDOW; j = j + 1) begin
            window_op[j] = 0;
            window_src[j] = 0;
        end
    always @(posedge clock) begin
        issued <= issue && !reset;
        issued_op <= window_op[0];
        issued_src <= window_src[0];
        last_read_reg <= read_reg;
        if (reset)
            held <= 0;
        else begin
            held <= held + accept - issue;
            if (issue)
                for (j = 0; j + 1 < WINDOW; j = j + 1) begin
                    window_op[j] <= window_op[j+1];
                    window_src[j] <= window_src[j+1];
                end
            if (accept) begin
                window_op[held - issue] <= instr_op;
                window_src[held - issue] <= instr_src;
            end
        end
    end

    integer p, q, b, n;
    always @* begin
        if (!reset) begin
            // property: issue_only_with_an_instruction
            assert (!issue || held != 0);
            // property: window_never_overflows
            assert (held + accept - issue <= WINDOW);
        end
        // property: every_issue_reaches_the_alu
        assert (alu_valid == issued && (!alu_valid || alu_op == issued_op));
        for (b = 0; b < BANKS; b = b + 1) begin
            n = 0;
            for (p = 0; p < READ_PORTS; p = p + 1)
                if (read_valid[p] && read_reg[p*REG_BITS +: BANK_BITS] == b)
                    n = n + 1;
            // property: one_read_per_bank
            assert (n <= 1);
        end
        for (q = 0; q < READ_PORTS; q = q + 1)
            // property: no_read_of_the_register_written_back
            assert (!(read_valid[q] && retire_valid
                && read_reg[q*REG_BITS +: REG_BITS] == retire_reg));
    end

    queue_model #(CQ_ENTRIES, CQ_MODEL, CAPTURE_CQ, FROM_CQ, READ_PORTS, REG_BITS, BOUND) cq (
        clock, reset, capture_kind, capture_index, last_read_reg,
        alu_valid, alu_kind, alu_index, issued_op, issued_src
    );
    queue_model #(PQ_ENTRIES, PQ_ENTRIES, CAPTURE_PQ, FROM_PQ, READ_PORTS, REG_BITS, BOUND) pq (
        clock, reset, capture_kind, capture_index, last_read_reg,
        alu_valid, alu_kind, alu_index, issued_op, issued_src
    );
endmodule

// The shadow of one queue of ENTRIES entries (MODEL_ENTRIES as the checks believe), filled by
// reads whose data is captured with code CAPTURE and emptied by ALU sources with code SOURCE.
module queue_model #(
    parameter ENTRIES = 2,
    parameter MODEL_ENTRIES = 2,
    parameter CAPTURE = 2,
    parameter SOURCE = 2,
    parameter READ_PORTS = 2,
    parameter REG_BITS = 5,
    parameter BOUND = 16
) (
    input clock,
    input reset,
    input [2*READ_PORTS-1:0] capture_kind,
    input [3*READ_PORTS-1:0] capture_index,
    input [READ_PORTS*REG_BITS-1:0] last_read_reg,
    input alu_valid,
    input [8:0] alu_kind,
    input [11:0] alu_index,
    input [2:0] issued_op,
    input [3*REG_BITS-1:0] issued_src
);
    localparam SLOTS = ENTRIES > 0 ? ENTRIES : 1;
    reg [SLOTS-1:0] full = 0;
    reg [REG_BITS-1:0] register [0:SLOTS-1];
    reg [7:0] age [0:SLOTS-1];
    integer i;
    initial
        for (i = 0; i < SLOTS; i = i + 1) begin
            register[i] = 0;
            age[i] = 0;
        end

    integer p, s, e;
    reg [SLOTS-1:0] fill, taken;
    reg [REG_BITS-1:0] fill_register [0:SLOTS-1];
    always @* begin
        fill = 0;
        taken = 0;
        for (e = 0; e < SLOTS; e = e + 1)
            fill_register[e] = 0;
        for (p = 0; p < READ_PORTS; p = p + 1)
            if (capture_kind[2*p +: 2] == CAPTURE) begin
                // property: fills_only_an_entry_of_the_queue
                assert (capture_index[3*p +: 3] < MODEL_ENTRIES);
                for (e = 0; e < ENTRIES; e = e + 1)
                    if (capture_index[3*p +: 3] == e) begin
                        // property: no_overflow_of_a_held_entry
                        assert (!full[e] && !fill[e]);
                        fill[e] = 1;
                        fill_register[e] = last_read_reg[p*REG_BITS +: REG_BITS];
                    end
            end
        for (s = 0; s < 3; s = s + 1)
            if (alu_valid && alu_kind[3*s +: 3] == SOURCE) begin
                // property: takes_only_an_entry_of_the_queue_for_a_source_the_op_reads
                assert (alu_index[4*s +: 4] < MODEL_ENTRIES
                    && (s == 0 || issued_op != 3'd0) && (s < 2 || issued_op == 3'd4));
                for (e = 0; e < ENTRIES; e = e + 1)
                    if (alu_index[4*s +: 4] == e) begin
                        // property: no_underflow
                        assert (full[e]);
                        // property: entry_holds_the_source_register
                        assert (register[e] == issued_src[s*REG_BITS +: REG_BITS]);
                        taken[e] = 1;
                    end
            end
        for (e = 0; e < ENTRIES; e = e + 1)
            // property: held_entry_taken_within_bound
            assert (!full[e] || age[e] < BOUND);
    end

    integer k;
    always @(posedge clock)
        for (k = 0; k < ENTRIES; k = k + 1)
            if (reset)
                full[k] <= 0;
            else if (fill[k]) begin
                full[k] <= 1;
                register[k] <= fill_register[k];
                age[k] <= 0;
            end else if (taken[k])
                full[k] <= 0;
            else
                age[k] <= age[k] + 1;
endmodule
