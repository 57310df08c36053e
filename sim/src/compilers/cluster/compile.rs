//! The compiler end to end, as `grfgen partition` reports it: partition (or the baseline),
//! allocate, and count where the accesses go.

use grfgen_hdl::params::ClusterParams;
use serde::Serialize;

use super::allocate::{allocate_into, AllocateScratch, Allocation, MainFileFull, Physical};
use super::partition::{baseline_into, partition_into, PartitionScratch, Partitioned};
use crate::cluster::program::{ClusterInstr, Operand};

/// What the compiler did to a program, and where its accesses go.
#[derive(Clone, Debug, Serialize)]
pub struct CompileReport {
    /// The files compiled for.
    pub parameters: ClusterParams,
    /// Whether this is the baseline (shared registers in the main file) rather than the
    /// partitioning.
    pub baseline: bool,
    /// The program after partitioning (and spilling), virtual registers named.
    pub program: Vec<String>,
    /// The same program on physical registers: `r<N>` of the executing cluster's local file,
    /// `m<N>` of the main file.
    pub allocated: Vec<String>,
    /// Register accesses (reads and writes) of the original instructions.
    pub accesses: usize,
    /// Of those, the ones served by a local file.
    pub local_accesses: usize,
    /// Reads of local files, inserted MOVs included.
    pub local_reads: usize,
    /// Writes of local files, inserted MOVs included.
    pub local_writes: usize,
    /// Reads of the main file, inserted MOVs included.
    pub main_reads: usize,
    /// Writes of the main file, inserted MOVs included.
    pub main_writes: usize,
    /// MOVs inserted by partitioning.
    pub movs: usize,
    /// Local live ranges spilled to the main file.
    pub spills: usize,
    /// Local registers used, per cluster.
    pub local_registers_used: Vec<usize>,
    /// Main registers used.
    pub main_registers_used: usize,
}

impl CompileReport {
    /// Accesses of the original instructions served locally, as a fraction.
    pub fn local_fraction(&self) -> f64 {
        self.local_accesses as f64 / self.accesses.max(1) as f64
    }

    /// The report in words: counts, then the allocated program.
    pub fn text(&self) -> String {
        let mut text = format!(
            "{}: {} of {} accesses local ({:.0}%); local {} reads {} writes, main {} reads {} \
             writes; {} MOVs, {} spills; registers used: local {:?}, main {}\n",
            if self.baseline {
                "baseline"
            } else {
                "partitioned"
            },
            self.local_accesses,
            self.accesses,
            100.0 * self.local_fraction(),
            self.local_reads,
            self.local_writes,
            self.main_reads,
            self.main_writes,
            self.movs,
            self.spills,
            self.local_registers_used,
            self.main_registers_used
        );
        for (virt, phys) in self.program.iter().zip(&self.allocated) {
            text += &format!("  {virt:28} ; {phys}\n");
        }
        text.trim_end().to_string()
    }
}

/// A compiler kept across programs: compiling many programs in a row with one reuses its
/// storage, so that it allocates little.
#[derive(Default)]
pub struct Compiler {
    /// The last program compiled, partitioned.
    partitioned: Partitioned,
    /// The last program compiled, allocated.
    allocation: Allocation,
    /// The working storage of partitioning.
    partition: PartitionScratch,
    /// The working storage of allocation.
    allocate: AllocateScratch,
}

impl Compiler {
    /// Compiles `program` for `params` as [`compile`] does; when it fits, the results are
    /// [`Compiler::partitioned`] and [`Compiler::allocation`] until the next compile.
    pub fn compile(
        &mut self,
        program: &[ClusterInstr],
        params: &ClusterParams,
        use_baseline: bool,
    ) -> Result<(), MainFileFull> {
        let (scratch, partitioned) = (&mut self.partition, &mut self.partitioned);
        match use_baseline {
            true => baseline_into(program, scratch, partitioned),
            false => partition_into(program, scratch, partitioned),
        }
        let files = (params.clusters, params.local_regs, params.main_regs);
        allocate_into(partitioned, files, &mut self.allocate, &mut self.allocation)
    }

    /// The last program compiled, partitioned (or the baseline).
    pub fn partitioned(&self) -> &Partitioned {
        &self.partitioned
    }

    /// The last program compiled, allocated.
    pub fn allocation(&self) -> &Allocation {
        &self.allocation
    }
}

/// Compiles `program` for `params`: partitions it (or builds the baseline), allocates it.
pub fn compile(
    program: &[ClusterInstr],
    params: &ClusterParams,
    use_baseline: bool,
) -> Result<(Partitioned, Allocation), MainFileFull> {
    let mut compiler = Compiler::default();
    compiler.compile(program, params, use_baseline)?;
    Ok((compiler.partitioned, compiler.allocation))
}

/// Compiles `program` for `params` as [`compile`] does, and reports where its accesses go.
pub fn compile_report(
    program: &[ClusterInstr],
    params: &ClusterParams,
    use_baseline: bool,
) -> Result<(Partitioned, Allocation, CompileReport), MainFileFull> {
    let (partitioned, alloc) = compile(program, params, use_baseline)?;
    let mut report = CompileReport {
        parameters: params.clone(),
        baseline: use_baseline,
        program: alloc.program.iter().map(|i| i.to_string()).collect(),
        allocated: Vec::new(),
        accesses: 0,
        local_accesses: 0,
        local_reads: 0,
        local_writes: 0,
        main_reads: 0,
        main_writes: 0,
        movs: partitioned.movs,
        spills: alloc.spills,
        local_registers_used: alloc.local_used.clone(),
        main_registers_used: alloc.main_used,
    };
    for (at, instr) in alloc.program.iter().enumerate() {
        let reads: Vec<Physical> = alloc.src[at].iter().flatten().copied().collect();
        let writes: Vec<Physical> = alloc.dst[at].into_iter().collect();
        for (phys, write) in reads
            .iter()
            .map(|p| (p, false))
            .chain(writes.iter().map(|p| (p, true)))
        {
            let local = matches!(phys, Physical::Local(_));
            match (local, write) {
                (true, false) => report.local_reads += 1,
                (true, true) => report.local_writes += 1,
                (false, false) => report.main_reads += 1,
                (false, true) => report.main_writes += 1,
            }
            if partitioned.original[at] {
                report.accesses += 1;
                report.local_accesses += usize::from(local);
            }
        }
        report.allocated.push(physical_listing(instr, &alloc, at));
    }
    Ok((partitioned, alloc, report))
}

/// Instruction `at` with its physical registers.
fn physical_listing(instr: &ClusterInstr, alloc: &Allocation, at: usize) -> String {
    let mut text = format!("c{}: {}", instr.cluster, instr.op.mnemonic());
    let mut sep = " ";
    if let Some(d) = alloc.dst[at] {
        text += &format!(" {d}");
        sep = ", ";
    }
    for (k, s) in instr.src.iter().enumerate() {
        match (s, alloc.src[at][k]) {
            (Operand::Imm(v), _) => text += &format!("{sep}#{v}"),
            (_, Some(p)) => text += &format!("{sep}{p}"),
            (Operand::Reg(r), None) => text += &format!("{sep}{r}"),
        }
        sep = ", ";
    }
    text
}
