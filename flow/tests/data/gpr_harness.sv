// A design that uses the default banked GPR the way a user would: through the instantiation
// template grfgen writes beside it (`gpr_dut_inst.sv`, the GPR emitted with `--top gpr_dut`).
module gpr_harness (
    input  logic         clock,
    input  logic [3:0]   read_valid,
    input  logic [31:0]  read_reg,
    output logic [3:0]   read_grant,
    output logic [511:0] read_data,
    input  logic [1:0]   write_valid,
    input  logic [15:0]  write_reg,
    input  logic [255:0] write_data,
    output logic [1:0]   write_grant
);
`include "gpr_dut_inst.vh"

    assign gpr_dut_clock = clock;
    assign gpr_dut_read_valid = read_valid;
    assign gpr_dut_read_reg = read_reg;
    assign read_grant = gpr_dut_read_grant;
    assign read_data = gpr_dut_read_data;
    assign gpr_dut_write_valid = write_valid;
    assign gpr_dut_write_reg = write_reg;
    assign gpr_dut_write_data = write_data;
    assign write_grant = gpr_dut_write_grant;
endmodule
