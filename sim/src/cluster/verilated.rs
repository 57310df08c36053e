//! The Verilated clustered file as the other side of a lock-step run.

use grfgen_hdl::cluster::encoding::{op_code, Source as Sel};
use grfgen_hdl::cluster::Cluster;
use grfgen_hdl::params::ClusterParams;

use super::machine::{Cycle, Issue, Source};
use crate::block::{Setup, SimError};
use crate::check::{compare, Device, Mismatch};
use crate::compilers::cluster::Physical;
use crate::verilator::{Input, Output, VerilatedModel};

/// The issue inputs of one cluster.
struct IssuePorts {
    valid: Input,
    op: Input,
    dst_main: Input,
    dst: Input,
    a_sel: Input,
    a: Input,
    b_sel: Input,
    b: Input,
}

/// The Verilated clustered file with its ports resolved.
pub struct ClusterRtl {
    model: VerilatedModel,
    clock: Input,
    issue: Vec<IssuePorts>,
    ready: Vec<Output>,
    out_valid: Vec<Output>,
    out_data: Vec<Output>,
    counters: [Output; 4],
}

/// The counter outputs, in the order of [`ClusterRtl::counters`].
const COUNTERS: [&str; 4] = [
    "local_accesses",
    "main_accesses",
    "main_conflicts",
    "stall_cycles",
];

impl ClusterRtl {
    /// Emits, verilates (or takes from the cache) and starts the file for `params`.
    pub fn build(params: &ClusterParams, setup: &Setup) -> Result<Self, SimError> {
        let model = setup.verilate::<Cluster>(params)?;
        let c = params.clusters;
        let port = |name: &str| model.inputs(name, c);
        let (valid, op, dst_main, dst) = (
            port("issue_valid")?,
            port("issue_op")?,
            port("issue_dst_main")?,
            port("issue_dst")?,
        );
        let (a_sel, a, b_sel, b) = (
            port("issue_a_sel")?,
            port("issue_a")?,
            port("issue_b_sel")?,
            port("issue_b")?,
        );
        let issue = (0..c)
            .map(|k| IssuePorts {
                valid: valid[k],
                op: op[k],
                dst_main: dst_main[k],
                dst: dst[k],
                a_sel: a_sel[k],
                a: a[k],
                b_sel: b_sel[k],
                b: b[k],
            })
            .collect();
        let counter = |name: &str| model.output(name);
        Ok(Self {
            clock: model.input("clock")?,
            issue,
            ready: model.outputs("issue_ready", c)?,
            out_valid: model.outputs("out_valid", c)?,
            out_data: model.outputs("out_data", c)?,
            counters: [
                counter(COUNTERS[0])?,
                counter(COUNTERS[1])?,
                counter(COUNTERS[2])?,
                counter(COUNTERS[3])?,
            ],
            model,
        })
    }

    /// Drives cluster `c`'s issue ports with `offer`.
    fn drive(&mut self, c: usize, offer: Option<&Issue>) {
        let ports = &self.issue[c];
        let m = &mut self.model;
        m.set(ports.valid, u64::from(offer.is_some()));
        let Some(issue) = offer else { return };
        m.set(
            ports.op,
            op_code(issue.op.mnemonic()).expect("every op has a code"),
        );
        let (main, dst) = match issue.dst {
            Some(Physical::Main(r)) => (1, r as u64),
            Some(Physical::Local(r)) => (0, r as u64),
            None => (0, 0),
        };
        m.set(ports.dst_main, main);
        m.set(ports.dst, dst);
        for (k, (sel_port, value_port)) in [(ports.a_sel, ports.a), (ports.b_sel, ports.b)]
            .into_iter()
            .enumerate()
        {
            let (sel, value) = match issue.src[k] {
                Source::Local(r) => (Sel::Local, r as u64),
                Source::Main(r) => (Sel::Main, r as u64),
                Source::Immediate(v) => (Sel::Immediate, u64::from(v)),
            };
            m.set(sel_port, sel.code());
            m.set(value_port, value);
        }
    }
}

impl Device for ClusterRtl {
    type Input = Vec<Option<Issue>>;
    type Expected = Cycle;

    /// After the edge: which offers issued, the outputs of the `out`s issued, the counters.
    fn cycle(
        &mut self,
        cycle: u64,
        offers: &Vec<Option<Issue>>,
        expected: &Cycle,
    ) -> Result<(), Mismatch> {
        self.model.set(self.clock, 0);
        for (c, offer) in offers.iter().enumerate() {
            self.drive(c, offer.as_ref());
        }
        self.model.eval();
        self.model.set(self.clock, 1);
        self.model.eval();
        for c in 0..offers.len() {
            let ready = self.model.get(self.ready[c]);
            compare(
                cycle,
                || format!("issue_ready[{c}]"),
                u64::from(expected.issued[c]),
                ready,
            )?;
            let valid = self.model.get(self.out_valid[c]);
            let output = expected.outputs[c];
            compare(
                cycle,
                || format!("out_valid[{c}]"),
                u64::from(output.is_some()),
                valid,
            )?;
            if let Some(value) = output {
                let actual = self.model.get(self.out_data[c]);
                compare(cycle, || format!("out_data[{c}]"), u64::from(value), actual)?;
            }
        }
        let counts = [
            expected.local_accesses,
            expected.main_accesses,
            expected.main_conflicts,
            expected.stall_cycles,
        ];
        for (k, &count) in counts.iter().enumerate() {
            let actual = self.model.get(self.counters[k]);
            compare(
                cycle,
                || COUNTERS[k].to_string(),
                count & 0xffff_ffff,
                actual,
            )?;
        }
        Ok(())
    }
}
