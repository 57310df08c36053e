//! Waves on the core: where each wave's registers are (the harness's mapping), how many waves
//! fit the register file, and `--waves auto`.
//!
//! Every wave runs the same program on its own registers: wave `w`'s register `r` is GPR
//! register `base(w) + r`, `base(w) = w * footprint + (w * wave_base) mod banks`. The footprint
//! is the program's registers (its highest register + 1, reads and writes, every register of a
//! long-latency result) rounded up to a multiple of the bank count, so that every wave sees the
//! same bank pattern under the `mod` map, plus one more row of banks when `--wave-base` staggers
//! the waves, so that they never overlap. `n` waves fit when the last one's highest register is
//! below `program_registers()`.

use std::collections::BTreeMap;

use grfgen_hdl::params::{CoreParams, Waves};
use serde::ser::{Serialize, SerializeMap, Serializer};

use super::program::{Instruction, Source};
use crate::block::SimError;

/// Where the waves' registers are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveMap {
    /// Waves.
    pub waves: usize,
    /// Registers the program uses: its highest register + 1.
    pub registers: usize,
    /// Registers between the starts of two neighbouring waves' rows (before the stagger).
    pub footprint: usize,
    /// `--wave-base`: wave `w` starts `(w * wave_base) mod banks` registers later.
    pub wave_base: usize,
    /// Banks of the GPR.
    pub banks: usize,
}

impl WaveMap {
    /// The map of `waves` waves of `program` on the GPR of `params`, staggered by `wave_base`.
    pub fn new(
        params: &CoreParams,
        program: &[Instruction],
        waves: usize,
        wave_base: usize,
    ) -> Self {
        let banks = params.gpr.banks;
        let registers = (program.iter())
            .flat_map(|i| i.reads().chain(i.written()))
            .max()
            .map_or(0, |r| r + 1);
        let stagger_row = if wave_base > 0 { banks } else { 0 };
        Self {
            waves,
            registers,
            footprint: registers.max(1).div_ceil(banks) * banks + stagger_row,
            wave_base,
            banks,
        }
    }

    /// The GPR register of wave `wave`'s register 0.
    pub fn base(&self, wave: usize) -> usize {
        wave * self.footprint + (wave * self.wave_base) % self.banks
    }

    /// Registers `waves` waves need: up to the last one's highest register.
    pub fn needs(&self, waves: usize) -> usize {
        match waves {
            0 => 0,
            n => self.base(n - 1) + self.registers,
        }
    }

    /// The most waves (at most [`Waves::MAX`]) that fit below `available` registers.
    pub fn most(&self, available: usize) -> usize {
        (1..=Waves::MAX)
            .take_while(|&n| self.needs(n) <= available)
            .last()
            .unwrap_or(0)
    }

    /// `program` as wave `wave` runs it: every register moved up by the wave's base.
    pub fn program(&self, program: &[Instruction], wave: usize) -> Vec<Instruction> {
        let base = self.base(wave);
        (program.iter())
            .map(|i| Instruction {
                dst: if i.writes > 0 { i.dst + base } else { i.dst },
                src: (i.src.iter())
                    .map(|&s| match s {
                        Source::Reg(r) => Source::Reg(r + base),
                        imm => imm,
                    })
                    .collect(),
                ..i.clone()
            })
            .collect()
    }
}

/// `params` with its waves settled for `program` staggered by `wave_base`: `auto` becomes the
/// most that fit; a count that does not fit, or a stagger not below the bank count, is refused
/// in one line.
pub fn settle(
    params: &CoreParams,
    program: &[Instruction],
    wave_base: usize,
) -> Result<CoreParams, SimError> {
    let banks = params.gpr.banks;
    if wave_base >= banks {
        return Err(SimError::Input(format!(
            "invalid value {wave_base} for --wave-base: allowed 0..={} (below --banks {banks})",
            banks - 1
        )));
    }
    let map = WaveMap::new(params, program, params.wave_count(), wave_base);
    let available = params.program_registers();
    let most = map.most(available);
    let waves = match params.waves.is_auto() {
        true => most.max(1),
        false => params.wave_count(),
    };
    if map.needs(waves) > available {
        let last = map.registers.saturating_sub(1);
        return Err(SimError::Input(format!(
            "invalid value {waves} for --waves: allowed 1..={most} for this program (it uses \
             registers R0..R{last}, footprint {}: {waves} waves need {} registers, the file has \
             {available} for programs)",
            map.footprint,
            map.needs(waves),
        )));
    }
    Ok(CoreParams {
        waves: Waves(waves),
        ..params.clone()
    })
}

/// Registers and their values, per lane, keyed by the program's own names (`R5`).
pub type Registers = BTreeMap<String, Vec<u64>>;

/// Something every wave has, in wave order. Written as the one wave's value with one wave (a
/// one-wave report keeps its shape), else as `{"wave0": ..., "wave1": ...}`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerWave<T>(pub Vec<T>);

impl<T> PerWave<T> {
    /// Wave `wave`'s.
    pub fn wave(&self, wave: usize) -> &T {
        &self.0[wave]
    }
}

impl<T: Serialize> Serialize for PerWave<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let [one] = self.0.as_slice() {
            return one.serialize(serializer);
        }
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (w, value) in self.0.iter().enumerate() {
            map.serialize_entry(&format!("wave{w}"), value)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grfgen_hdl::params::CoreOp;

    /// A program writing R27 from R0: 28 registers.
    fn program() -> Vec<Instruction> {
        vec![Instruction::alu(CoreOp::Add, 27, &[0, 1])]
    }

    #[test]
    fn an_over_full_wave_count_is_refused_naming_registers_footprint_and_the_most_that_fit() {
        let params = CoreParams {
            waves: Waves(9),
            ..CoreParams::default()
        };
        let err = settle(&params, &program(), 0).unwrap_err().to_string();
        assert!(err.contains("invalid value 9 for --waves"), "{err}");
        assert!(err.contains("allowed 1..=8"), "{err}");
        assert!(err.contains("R0..R27, footprint 28"), "{err}");
        assert!(err.contains("9 waves need 252 registers"), "{err}");
        assert!(err.contains("240 for programs"), "{err}");
        assert!(!err.contains('\n'));
        let fits = CoreParams {
            waves: Waves(8),
            ..CoreParams::default()
        };
        assert_eq!(settle(&fits, &program(), 0).unwrap().wave_count(), 8);
    }

    #[test]
    fn auto_takes_the_most_that_fit_and_wave_base_staggers_inside_a_wider_footprint() {
        let auto = CoreParams {
            waves: Waves::AUTO,
            ..CoreParams::default()
        };
        assert_eq!(settle(&auto, &program(), 0).unwrap().wave_count(), 8);
        let small = vec![Instruction::alu(CoreOp::Add, 2, &[0, 1])];
        assert_eq!(settle(&auto, &small, 0).unwrap().wave_count(), 16);
        let map = WaveMap::new(&CoreParams::default(), &program(), 4, 1);
        assert_eq!(map.footprint, 32);
        assert_eq!(
            (0..4).map(|w| map.base(w)).collect::<Vec<_>>(),
            [0, 33, 66, 99]
        );
        assert_eq!(map.program(&program(), 1)[0].dst, 60);
        assert!(settle(&auto, &program(), 4).is_err());
    }
}
