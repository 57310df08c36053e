//! The clustered multi-level register file (SPEC S4): RTL and its design entry.

mod alu;
mod counter;
pub mod encoding;
mod file;
mod ports;

pub use alu::Alu;
pub use counter::{AccessCounters, EventCounter};
pub use file::{local_file, main_file, ClusterFile};
pub use ports::MainPorts;

use ports::{read_port_checks, write_port_checks};

use crate::cells::crossbar::Crossbar;
use crate::design::Design;
use crate::emit::{emit, part, EmitError, Emitted, PortOrder};
use crate::multiport::{FlopFile, LvtFile};
use crate::params::ClusterParams;
use crate::widths::{dispatch, WidthOp};

/// The clustered register file as a design: `grfgen emit cluster`.
pub struct Cluster;

impl Design for Cluster {
    type Params = ClusterParams;
    const NAME: &'static str = "cluster";
    const TITLE: &'static str =
        "Clustered register file: per-cluster local files and ALUs, one shared main file";
    const SPEC: &'static str = "S4";
    const MEMORIES: Option<&'static str> = Some("main file: read ports x write ports");
    const PORT_ORDER: PortOrder = &[
        ("issue_a", "cluster"),
        ("issue_b", "cluster"),
        ("out_data", "cluster"),
    ];

    fn build(params: &ClusterParams, top: &str) -> Result<Emitted, EmitError> {
        struct Build<'a>(&'a ClusterParams, &'a str);
        impl WidthOp for Build<'_> {
            type Output = Result<Emitted, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                emit(
                    &mut ClusterFile::<E, A>::new(self.0),
                    self.1,
                    Cluster::PORT_ORDER,
                )
            }
        }
        with_cluster_widths(params, Build(params, top))
    }

    fn parts(params: &ClusterParams) -> Result<Vec<Emitted>, EmitError> {
        struct Parts<'a>(&'a ClusterParams);
        impl WidthOp for Parts<'_> {
            type Output = Result<Vec<Emitted>, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                let p = self.0;
                let (c, r, w) = (p.clusters, p.main_read_ports, p.main_write_ports);
                Ok(vec![
                    part("cluster_ports", MainPorts::new(c, r, w))?,
                    part("cluster_alu", Alu::default())?,
                    part("cluster_counters", AccessCounters::new(c))?,
                    part(
                        "cluster_locals",
                        FlopFile::<32, E>::grouped(&local_file(p), c),
                    )?,
                    part("cluster_main", LvtFile::<32, A>::new(&main_file(p)))?,
                    part("cluster_operand_mux", Crossbar::<32>::new(r, 2 * c, 1))?,
                    part("cluster_read_port_check", read_port_checks(c, r))?,
                    part("cluster_write_port_check", write_port_checks(c, w))?,
                ])
            }
        }
        with_cluster_widths(params, Parts(params))
    }

    fn derived(params: &ClusterParams) -> Vec<(&'static str, u64)> {
        vec![
            ("local_bits", params.local_bits() as u64),
            ("main_bits", params.main_bits() as u64),
            (
                "srams",
                (params.main_read_ports * params.main_write_ports) as u64,
            ),
        ]
    }
}

/// Runs `op` with the file's widths: `E` the local index bits, `A` (= `R`) the main index
/// bits. The table holds every valid configuration (local bits at most main bits).
fn with_cluster_widths<V: WidthOp>(params: &ClusterParams, op: V) -> V::Output {
    let m = params.main_bits();
    dispatch!(
        op,
        (params.local_bits(), m, m),
        E in [2, 3, 4, 5, 6],
        (A, R) in [(2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 9), (10, 10)]
    )
}
