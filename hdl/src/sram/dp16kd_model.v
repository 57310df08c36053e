// Simulation model of the Lattice ECP5 DP16KD block RAM, written by grfgen for the subset its
// designs use. Not for synthesis: synthesis tools map DP16KD to the block RAM itself, so this
// file is in the simulation file sets only.
//
// The subset:
// * DATA_WIDTH_A = DATA_WIDTH_B = 36 (512 words, pseudo dual port: the word is {DIB, DIA} in
//   and {DOB, DOA} out, port A writes and port B reads) or 18 (1024 words: DIA in on port A,
//   DOB out of port B);
// * port A writes when CEA and WEA are high, under the byte enables ADA[3:0] (36 bits, nine
//   bits each) or ADA[1:0] (18 bits); the word address is AD[13:5] (36 bits) or AD[13:4] (18);
// * port B reads when CEB is high and WEB low: the word appears after the clock edge and holds
//   while CEB is low; each output half passes through its port's output register when that
//   port's REGMODE is "OUTREG" (DOA: REGMODE_A, clocked by CLKA with OCEA high; DOB:
//   REGMODE_B, CLKB, OCEB), so it appears an edge later;
// * the contents start at zero (INITVAL left at its default); chip selects, resets and
//   CSDECODE are not modelled (grfgen ties them off); a read of the word port A writes in the
//   same cycle returns the old word here and is undefined in the device (grfgen never asks).
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off DECLFILENAME */
module DP16KD #(
    parameter DATA_WIDTH_A = 18,
    parameter DATA_WIDTH_B = 18,
    parameter REGMODE_A = "NOREG",
    parameter REGMODE_B = "NOREG",
    parameter GSR = "ENABLED"
) (
    input DIA0, DIA1, DIA2, DIA3, DIA4, DIA5, DIA6, DIA7, DIA8,
    input DIA9, DIA10, DIA11, DIA12, DIA13, DIA14, DIA15, DIA16, DIA17,
    input ADA0, ADA1, ADA2, ADA3, ADA4, ADA5, ADA6, ADA7, ADA8, ADA9, ADA10, ADA11, ADA12, ADA13,
    input CEA, OCEA, CLKA, WEA, CSA0, CSA1, CSA2, RSTA,
    input DIB0, DIB1, DIB2, DIB3, DIB4, DIB5, DIB6, DIB7, DIB8,
    input DIB9, DIB10, DIB11, DIB12, DIB13, DIB14, DIB15, DIB16, DIB17,
    input ADB0, ADB1, ADB2, ADB3, ADB4, ADB5, ADB6, ADB7, ADB8, ADB9, ADB10, ADB11, ADB12, ADB13,
    input CEB, OCEB, CLKB, WEB, CSB0, CSB1, CSB2, RSTB,
    output DOA0, DOA1, DOA2, DOA3, DOA4, DOA5, DOA6, DOA7, DOA8,
    output DOA9, DOA10, DOA11, DOA12, DOA13, DOA14, DOA15, DOA16, DOA17,
    output DOB0, DOB1, DOB2, DOB3, DOB4, DOB5, DOB6, DOB7, DOB8,
    output DOB9, DOB10, DOB11, DOB12, DOB13, DOB14, DOB15, DOB16, DOB17
);
    localparam WIDE = DATA_WIDTH_A == 36;

    wire [17:0] dia = {DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9,
                       DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0};
    wire [17:0] dib = {DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9,
                       DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0};
    wire [13:0] ada = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5,
                       ADA4, ADA3, ADA2, ADA1, ADA0};
    wire [13:0] adb = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5,
                       ADB4, ADB3, ADB2, ADB1, ADB0};

    // Word addresses, and the write's data and byte enables as 36-bit words (the upper half
    // unused with 18-bit words).
    wire [9:0] write_word = WIDE ? {1'b0, ada[13:5]} : ada[13:4];
    wire [9:0] read_word = WIDE ? {1'b0, adb[13:5]} : adb[13:4];
    wire [35:0] write_data = WIDE ? {dib, dia} : {18'd0, dia};
    wire [3:0] bytes = WIDE ? ada[3:0] : {2'b00, ada[1:0]};

    // 1024 words of 36 bits hold either shape (512 x 36 uses the lower half).
    reg [35:0] mem [0:1023];
    reg [35:0] latch = 36'd0;
    reg [17:0] out_a = 18'd0;
    reg [17:0] out_b = 18'd0;
    integer word;
    integer byte_index;

    initial begin
        for (word = 0; word < 1024; word = word + 1) begin
            mem[word] = 36'd0;
        end
    end

    always @(posedge CLKA) begin
        if (CEA && WEA) begin
            for (byte_index = 0; byte_index < 4; byte_index = byte_index + 1) begin
                if (bytes[byte_index]) begin
                    mem[write_word][byte_index * 9 +: 9] <= write_data[byte_index * 9 +: 9];
                end
            end
        end
    end

    // The read word's halves as they leave the array: DOA's, and DOB's.
    wire [17:0] word_a = WIDE ? latch[17:0] : 18'd0;
    wire [17:0] word_b = WIDE ? latch[35:18] : latch[17:0];

    always @(posedge CLKB) begin
        if (CEB && !WEB) begin
            latch <= mem[read_word];
        end
        if (OCEB) begin
            out_b <= word_b;
        end
    end

    always @(posedge CLKA) begin
        if (OCEA) begin
            out_a <= word_a;
        end
    end

    // The strings differ in length: the compares widen the shorter.
    /* verilator lint_off WIDTH */
    localparam REGISTER_A = REGMODE_A == "OUTREG";
    localparam REGISTER_B = REGMODE_B == "OUTREG";
    /* verilator lint_on WIDTH */
    wire [17:0] doa = REGISTER_A ? out_a : word_a;
    wire [17:0] dob = REGISTER_B ? out_b : word_b;

    assign {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9,
            DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} = doa;
    assign {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9,
            DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0} = dob;
endmodule
/* verilator lint_on DECLFILENAME */
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
