//! The multi-ported rows of `grfgen compare gpr`: the 2W4R files the banked GPR is set against
//! (`flops`, `lvt`, `ilvt` in both encodings, `xor`), each at the pipeline options asked.

use std::path::Path;

use grfgen_hdl::design::Design;
use grfgen_hdl::multiport::{FlopStructure, Flops, Ilvt, Lvt, Xor};
use grfgen_hdl::params::{Memory, MultiportParams, TableEncoding};

use super::rows::{measure, Hardware};
use crate::steps::PnrRequest;
use crate::FlowError;

/// Synthesizes (and places and routes, when asked) one file in a work directory.
type Measure = fn(&MultiportParams, Option<PnrRequest>, &Path) -> Result<Hardware, FlowError>;

/// One multi-ported row: its name, its file, and how it is measured.
pub(super) struct FileRow {
    /// The row's name without its policy, e.g. `ilvt-onehot-p2`.
    pub name: String,
    /// The file's parameters, its stages, block RAM and encoding included.
    pub params: MultiportParams,
    /// Its top module.
    pub top: String,
    /// Its synthesis (and place and route).
    pub measure: Measure,
}

impl FileRow {
    /// The row `name` of design `D` built for `params`.
    fn of<D: Design<Params = MultiportParams>>(name: String, params: MultiportParams) -> Self {
        Self {
            top: D::top(&params),
            name,
            params,
            measure: measure::<D>,
        }
    }
}

/// The multi-ported rows of `file`: the flip-flop file where it fits, then `lvt`, `ilvt`
/// (binary, then one-hot) and `xor` at each of `pipelines`, their block RAM the banked rows'
/// (`memory`) where a block-RAM primitive holds their rows; and why a file is left out or built
/// otherwise.
pub(super) fn file_rows(
    spec_file: &MultiportParams,
    spec_memory: Memory,
    pipelines: &[usize],
) -> (Vec<FileRow>, Vec<String>) {
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let file = |pipeline, memory, encoding| MultiportParams {
        pipeline,
        memory,
        encoding,
        ..spec_file.clone()
    };
    let flops = file(0, Memory::Inferred, TableEncoding::Binary);
    match FlopStructure::check(&flops) {
        Ok(()) => rows.push(FileRow::of::<Flops>("flops".into(), flops)),
        Err(e) => notes.push(format!("flops is not built: {e}")),
    }
    let too_deep = spec_file.registers > Memory::PRIMITIVE_ROWS;
    let memory = match (too_deep, spec_memory.primitive()) {
        (true, Some(primitive)) => {
            notes.push(format!(
                "the block-RAM files' memory is inferred: a {primitive} holds at most {} rows, here {}",
                Memory::PRIMITIVE_ROWS,
                spec_file.registers
            ));
            Memory::Inferred
        }
        _ => spec_memory,
    };
    let binary = |p| file(p, memory, TableEncoding::Binary);
    for &p in pipelines {
        rows.push(FileRow::of::<Lvt>(format!("lvt-p{p}"), binary(p)));
    }
    for encoding in TableEncoding::ALL {
        for &p in pipelines {
            let params = file(p, memory, encoding);
            rows.push(FileRow::of::<Ilvt>(format!("ilvt-{encoding}-p{p}"), params));
        }
    }
    for &p in pipelines {
        rows.push(FileRow::of::<Xor>(format!("xor-p{p}"), binary(p)));
    }
    (rows, notes)
}

#[cfg(test)]
mod tests {
    use grfgen_hdl::multiport::{IlvtStructure, LvtStructure, XorStructure};
    use grfgen_hdl::params::{BankKind, BankMap, GprParams, Params};
    use grfgen_sim::core::options::ProgramFiles;
    use grfgen_sim::multiport::{Contract, Timing};

    use super::*;
    use crate::compare::spec::GprComparisonSpec;

    /// The default comparison on ECP5's block RAM, with every option or the deepest alone.
    fn spec(all_options: bool) -> GprComparisonSpec {
        GprComparisonSpec {
            file: MultiportParams::default(),
            banks: 4,
            bank_kinds: BankKind::ALL.to_vec(),
            pipelines: vec![GprParams::MAX_PIPELINE],
            all_options,
            bank_maps: vec![BankMap::Mod],
            memory: Memory::Dp16kd,
            workloads: vec!["rpt-mad".into()],
            programs: ProgramFiles::default(),
            pnr: None,
            seed: 1,
            allocate: false,
            waves: grfgen_hdl::params::Waves(1),
        }
    }

    /// The names of `spec`'s multi-ported rows.
    fn names(spec: &GprComparisonSpec) -> Vec<String> {
        let (rows, notes) = file_rows(&spec.file, spec.memory, &spec.file_pipelines());
        assert!(notes.is_empty(), "{notes:?}");
        rows.into_iter().map(|r| r.name).collect()
    }

    #[test]
    fn each_file_runs_at_its_deepest_option_unless_every_option_is_asked() {
        let deepest = [
            "flops",
            "lvt-p2",
            "ilvt-binary-p2",
            "ilvt-onehot-p2",
            "xor-p2",
        ];
        assert_eq!(names(&spec(false)), deepest);
        let every = names(&spec(true));
        assert_eq!(every.len(), 1 + 4 * 3, "{every:?}");
        for name in deepest
            .iter()
            .chain(&["lvt-p0", "ilvt-onehot-p1", "xor-p0"])
        {
            assert!(every.iter().any(|n| n == name), "{name}: {every:?}");
        }
    }

    #[test]
    fn a_file_too_large_for_flip_flops_is_noted_not_built() {
        let mut spec = spec(false);
        spec.file.registers = 4096;
        let (rows, notes) = file_rows(&spec.file, spec.memory, &[2]);
        assert_eq!(rows[0].name, "lvt-p2");
        assert!(notes[0].starts_with("flops is not built"), "{notes:?}");
    }

    /// Every file's core reads with the file's own read latency (its golden model's), so its
    /// cycles are an ideal file's at that latency.
    #[test]
    fn the_core_of_each_file_reads_with_the_files_latency() {
        let spec = spec(true);
        for row in file_rows(&spec.file, spec.memory, &spec.file_pipelines()).0 {
            let p = &row.params;
            let timing: Timing = match row.name.split('-').next().unwrap() {
                "flops" => grfgen_hdl::multiport::FlopStructure::timing(p),
                "lvt" => LvtStructure::timing(p),
                "ilvt" => IlvtStructure::timing(p),
                _ => XorStructure::timing(p),
            };
            let core = spec.ideal_core(p).unwrap();
            assert_eq!(core.gpr_latency(), timing.read_latency, "{}", row.name);
            assert_eq!(row.params.memory == Memory::Dp16kd, row.name != "flops");
            row.params.validate().unwrap();
        }
    }
}
