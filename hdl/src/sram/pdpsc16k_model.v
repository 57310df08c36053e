// Simulation model of the Lattice Nexus PDPSC16K block RAM (pseudo dual port, one clock;
// CrossLink-NX, Certus-NX), written by grfgen for the subset its designs use, from the
// behaviour Lattice's memory user guide for Nexus gives the primitive. Not for synthesis:
// synthesis tools map PDPSC16K to the block RAM itself, so this file is in the simulation file
// sets only.
//
// The subset:
// * DATA_WIDTH_W = DATA_WIDTH_R = "X36" (512 words; the word address is AD[13:5], the
//   write's byte enables ADW[3:0], nine bits each) or "X18" (1024 words; AD[13:4], byte
//   enables ADW[1:0]; the data on DI[17:0] and DO[17:0], DO[35:18] zero);
// * the write happens on CLK when CEW is high;
// * the read happens on CLK when CER is high: with OUTREG "BYPASSED" the word appears after
//   the edge and holds while CER is low; with OUTREG "USED" it passes through the output
//   register, which CER enables too, so it appears at the next edge where CER is high;
// * the contents start at zero; the chip selects (CSW, CSR, CSDECODE_W, CSDECODE_R), the
//   reset and ECC are not modelled (grfgen makes the selects match, holds the reset low and
//   leaves ECC off, its error flags ONEBITERR and TWOBITERR unconnected and not declared
//   here); a read of the word being written in the same cycle returns the old word here and
//   is undefined in the device (grfgen never asks).
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off DECLFILENAME */
module PDPSC16K #(
    parameter DATA_WIDTH_W = "X36",
    parameter DATA_WIDTH_R = "X36",
    parameter OUTREG = "BYPASSED",
    parameter RESETMODE = "SYNC",
    parameter GSR = "ENABLED",
    parameter ECC = "DISABLED",
    parameter CSDECODE_W = "000",
    parameter CSDECODE_R = "000"
) (
    input [35:0] DI,
    input [13:0] ADW,
    input [13:0] ADR,
    input CLK,
    input CER,
    input CEW,
    input [2:0] CSW,
    input [2:0] CSR,
    input RST,
    output [35:0] DO
);
    localparam WIDE = DATA_WIDTH_W == "X36";
    // The strings differ in length: the compare widens the shorter.
    /* verilator lint_off WIDTH */
    localparam REGISTERED = OUTREG == "USED";
    /* verilator lint_on WIDTH */

    wire [9:0] write_word = WIDE ? {1'b0, ADW[13:5]} : ADW[13:4];
    wire [9:0] read_word = WIDE ? {1'b0, ADR[13:5]} : ADR[13:4];
    wire [3:0] bytes = WIDE ? ADW[3:0] : {2'b00, ADW[1:0]};

    // 1024 words of 36 bits hold either shape (512 x 36 uses the lower half of the words,
    // 1024 x 18 the lower half of each word).
    reg [35:0] mem [0:1023];
    reg [35:0] latch = 36'd0;
    reg [35:0] out = 36'd0;
    integer word;
    integer byte_index;

    initial begin
        for (word = 0; word < 1024; word = word + 1) begin
            mem[word] = 36'd0;
        end
    end

    always @(posedge CLK) begin
        if (CEW) begin
            for (byte_index = 0; byte_index < 4; byte_index = byte_index + 1) begin
                if (bytes[byte_index]) begin
                    mem[write_word][byte_index * 9 +: 9] <= DI[byte_index * 9 +: 9];
                end
            end
        end
        if (CER) begin
            latch <= WIDE ? mem[read_word] : {18'd0, mem[read_word][17:0]};
            out <= latch;
        end
    end

    assign DO = REGISTERED ? out : latch;
endmodule
/* verilator lint_on DECLFILENAME */
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
