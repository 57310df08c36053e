// Simulation model of the Gowin SDPB semi-dual-port block SRAM (GW1N, GW2A, GW5A), written
// by grfgen for the subset its designs use, from the behaviour Gowin's BSRAM user guide
// (UG285) gives the primitive. Not for synthesis: synthesis tools map SDPB to the block SRAM
// itself, so this file is in the simulation file sets only.
//
// The subset:
// * BIT_WIDTH_0 = BIT_WIDTH_1 = 32 (512 words; the word address is AD[13:5], the write's byte
//   enables ADA[3:0], eight bits each) or 16 (1024 words; AD[13:4], byte enables ADA[1:0];
//   the data on DI[15:0] and DO[15:0], DO[31:16] zero);
// * port A writes on CLKA when CEA is high (the write's clock enable is its write enable);
// * port B reads on CLKB when CEB is high: with READ_MODE 0 (bypass) the word appears after
//   the edge and holds while CEB is low; with READ_MODE 1 (pipeline) it passes through the
//   output register, which loads on CLKB while OCE is high, so it appears an edge later;
// * the contents start at zero; the block selects (BLKSELA, BLKSELB, BLK_SEL_0, BLK_SEL_1)
//   and the resets are not modelled (grfgen ties the selects to 000 and leaves the resets,
//   named differently across the families, unconnected); a read of the word port A writes in
//   the same cycle returns the old word here and is undefined in the device (grfgen never
//   asks).
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off DECLFILENAME */
module SDPB #(
    parameter READ_MODE = 1'b0,
    parameter BIT_WIDTH_0 = 32,
    parameter BIT_WIDTH_1 = 32,
    parameter BLK_SEL_0 = 3'b000,
    parameter BLK_SEL_1 = 3'b000,
    parameter RESET_MODE = "SYNC"
) (
    input CLKA,
    input CEA,
    input CLKB,
    input CEB,
    input OCE,
    input [13:0] ADA,
    input [13:0] ADB,
    input [31:0] DI,
    input [2:0] BLKSELA,
    input [2:0] BLKSELB,
    output [31:0] DO
);
    localparam WIDE = BIT_WIDTH_0 == 32;
    localparam PIPELINE = READ_MODE != 0;

    wire [9:0] write_word = WIDE ? {1'b0, ADA[13:5]} : ADA[13:4];
    wire [9:0] read_word = WIDE ? {1'b0, ADB[13:5]} : ADB[13:4];
    wire [3:0] bytes = WIDE ? ADA[3:0] : {2'b00, ADA[1:0]};

    // 1024 words of 32 bits hold either shape (512 x 32 uses the lower half of the words,
    // 1024 x 16 the lower half of each word).
    reg [31:0] mem [0:1023];
    reg [31:0] latch = 32'd0;
    reg [31:0] out = 32'd0;
    integer word;
    integer byte_index;

    initial begin
        for (word = 0; word < 1024; word = word + 1) begin
            mem[word] = 32'd0;
        end
    end

    always @(posedge CLKA) begin
        if (CEA) begin
            for (byte_index = 0; byte_index < 4; byte_index = byte_index + 1) begin
                if (bytes[byte_index]) begin
                    mem[write_word][byte_index * 8 +: 8] <= DI[byte_index * 8 +: 8];
                end
            end
        end
    end

    always @(posedge CLKB) begin
        if (CEB) begin
            latch <= WIDE ? mem[read_word] : {16'd0, mem[read_word][15:0]};
        end
        if (OCE) begin
            out <= latch;
        end
    end

    assign DO = PIPELINE ? out : latch;
endmodule
/* verilator lint_on DECLFILENAME */
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
