use serde::{Deserialize, Serialize};

use super::{Allowed, Param, Params};
use crate::param;

/// Parameters of the clustered multi-level register file (SPEC S4). The document gives no
/// sizes or ports: the defaults are ours, three clusters as in its figures. The allowed values
/// are in [`ClusterParams::table`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterParams {
    /// Clusters, each with its own local register file.
    pub clusters: usize,
    /// Registers of each cluster's local file.
    pub local_regs: usize,
    /// Registers of the main file, shared by every cluster.
    pub main_regs: usize,
    /// Read ports of the main file, shared by every cluster.
    #[serde(default = "default_main_read_ports")]
    pub main_read_ports: usize,
    /// Write ports of the main file, shared by every cluster.
    #[serde(default = "default_main_write_ports")]
    pub main_write_ports: usize,
}

fn default_main_read_ports() -> usize {
    2
}

fn default_main_write_ports() -> usize {
    1
}

impl Default for ClusterParams {
    fn default() -> Self {
        Self {
            clusters: 3,
            local_regs: 8,
            main_regs: 64,
            main_read_ports: default_main_read_ports(),
            main_write_ports: default_main_write_ports(),
        }
    }
}

/// The fewest registers a file is built with (the smallest register-file block).
const MIN_BUILT: usize = 4;

impl ClusterParams {
    /// Index bits of a local file: its registers rounded up to a power of two, at least 4.
    pub fn local_bits(&self) -> usize {
        index_bits(self.local_regs)
    }

    /// Index bits of the main file: its registers rounded up to a power of two, at least 4.
    pub fn main_bits(&self) -> usize {
        index_bits(self.main_regs)
    }
}

/// Bits of an index into a file built for `registers` registers.
fn index_bits(registers: usize) -> usize {
    registers
        .max(MIN_BUILT)
        .next_power_of_two()
        .trailing_zeros() as usize
}

impl Params for ClusterParams {
    fn table() -> Vec<Param<Self>> {
        vec![
            param!(
                clusters,
                "clusters, each with a local register file",
                "N",
                |_| { Allowed::range(1, 8) }
            ),
            param!(
                local_regs,
                "registers of each local file (at most the main file's)",
                "N",
                |p| {
                    let most = p.main_regs.clamp(1, 64);
                    Allowed::range(1, most)
                }
            ),
            param!(main_regs, "registers of the main file", "N", |_| {
                Allowed::range(1, 1024)
            }),
            param!(
                main_read_ports,
                "read ports of the main file, shared by the clusters",
                "N",
                |_| { Allowed::range(2, 4) }
            ),
            param!(
                main_write_ports,
                "write ports of the main file, shared by the clusters",
                "N",
                |_| { Allowed::range(1, 4) }
            ),
        ]
    }
}
