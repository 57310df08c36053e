use serde::{Deserialize, Serialize};

use super::{Allowed, Param, Params};
use crate::param;

/// Parameters of the clustered multi-level register file (SPEC S4). The document gives no
/// sizes: the defaults are ours, three clusters as in its figures. The allowed values are in
/// [`ClusterParams::table`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterParams {
    /// Clusters, each with its own local register file.
    pub clusters: usize,
    /// Registers of each cluster's local file.
    pub local_regs: usize,
    /// Registers of the main file, shared by every cluster.
    pub main_regs: usize,
}

impl Default for ClusterParams {
    fn default() -> Self {
        Self {
            clusters: 3,
            local_regs: 8,
            main_regs: 64,
        }
    }
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
            param!(local_regs, "registers of each local file", "N", |_| {
                Allowed::range(1, 256)
            }),
            param!(main_regs, "registers of the main file", "N", |_| {
                Allowed::range(1, 4096)
            }),
        ]
    }
}
