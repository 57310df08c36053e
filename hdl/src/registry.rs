//! The registry of blocks: every design the command line and the tests know, and the
//! catalogue that lists them with the components inside them.

use crate::design::{BlockInfo, Design, DesignVisitor, ParamInfo};
use crate::params::Kind;
use crate::{alloc, cluster, core, gpr, grf, multiport, route};

/// Visits every design, in the order the catalogue lists them: the registry of blocks. A new
/// block adds its line here.
pub fn visit_designs(visitor: &mut impl DesignVisitor) {
    visitor.visit::<gpr::Gpr>();
    visitor.visit::<core::Core>();
    visitor.visit::<route::Route>();
    visitor.visit::<route::RouteFull>();
    visitor.visit::<grf::Grf>();
    visitor.visit::<multiport::Flops>();
    visitor.visit::<multiport::Lvt>();
    visitor.visit::<multiport::Ilvt>();
    visitor.visit::<multiport::Xor>();
    visitor.visit::<cluster::Cluster>();
    visitor.visit::<alloc::Alloc>();
}

/// Collects the catalogue entries of the designs.
struct Catalogue(Vec<BlockInfo>);

impl DesignVisitor for Catalogue {
    fn visit<D: Design>(&mut self) {
        self.0.push(BlockInfo::of::<D>());
    }
}

/// A component: a block emitted inside the designs, never alone.
fn component(
    name: &'static str,
    title: &'static str,
    spec: &'static str,
    params: &[(&'static str, &'static str, &'static str)],
) -> BlockInfo {
    BlockInfo {
        name,
        title,
        spec,
        top_level: false,
        params: params
            .iter()
            .map(|&(name, allowed, meaning)| ParamInfo {
                flag: name.to_string(),
                key: name,
                kind: Kind::Integer,
                default: String::new(),
                allowed: allowed.to_string(),
                meaning,
            })
            .collect(),
    }
}

/// Every block: the designs (in registration order), then the components inside them.
pub fn catalogue() -> Vec<BlockInfo> {
    let mut designs = Catalogue(Vec::new());
    crate::visit_designs(&mut designs);
    let mut blocks = designs.0;
    blocks.push(component(
        "sram-bank",
        "SRAM bank, 1W1R (read/write collision undefined) or single-port, 1-cycle synchronous read",
        "S1",
        &[
            ("entry width", "8, 16, 32 or 64 bits (one lane)", "bits"),
            ("depth", "4..=4096 rows, a power of two", "rows"),
            ("ports", "1W1R, or one read or write (single-port)", "kind"),
        ],
    ));
    blocks.push(component(
        "decoder",
        "address decoder: per address, one hit line per location when valid",
        "S1",
        &[
            ("addresses", "1 or more", "decoders"),
            ("locations", "1..=2^address bits", "hit lines per address"),
        ],
    ));
    blocks.push(component(
        "crossbar",
        "I x O crossbar with a one-hot source select per output (broadcast allowed)",
        "S1, S2",
        &[
            ("inputs", "1 or more", "sources"),
            ("outputs", "1 or more", "destinations"),
            ("lanes", "1 or more", "elements moved per source"),
        ],
    ));
    blocks
}
