// Drives the harness in Icarus: a write of register 5 on write port 0, then a read of it on
// read port 2; every lane must come back (4 lanes of 32 bits, port-major packing).
`timescale 1ns / 1ps
module gpr_harness_tb;
    logic clock = 1'b0;
    logic [3:0] read_valid = '0;
    logic [31:0] read_reg = '0;
    logic [1:0] write_valid = '0;
    logic [15:0] write_reg = '0;
    logic [255:0] write_data = '0;
    wire [3:0] read_grant;
    wire [511:0] read_data;
    wire [1:0] write_grant;

    gpr_harness harness (
        .clock(clock),
        .read_valid(read_valid),
        .read_reg(read_reg),
        .read_grant(read_grant),
        .read_data(read_data),
        .write_valid(write_valid),
        .write_reg(write_reg),
        .write_data(write_data),
        .write_grant(write_grant)
    );

    always #5 clock = ~clock;

    initial begin
        @(negedge clock);
        write_valid = 2'b01;
        write_reg[7:0] = 8'd5;
        for (int l = 0; l < 4; l++) write_data[l*32 +: 32] = 32'd100 + l;
        #1 if (write_grant !== 2'b01) $fatal(1, "write not granted: %b", write_grant);
        @(negedge clock);
        write_valid = '0;
        read_valid = 4'b0100;
        read_reg[23:16] = 8'd5;
        #1 if (read_grant !== 4'b0100) $fatal(1, "read not granted: %b", read_grant);
        @(negedge clock);
        read_valid = '0;
        for (int l = 0; l < 4; l++)
            if (read_data[(2*4 + l)*32 +: 32] !== 32'd100 + l)
                $fatal(1, "lane %0d read %0d", l, read_data[(2*4 + l)*32 +: 32]);
        $display("PASS");
        $finish;
    end
endmodule
