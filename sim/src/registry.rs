//! The registry of simulated blocks.

use crate::block::BlockVisitor;
use crate::{alloc, cluster, core, gpr, grf, multiport, route};

/// Visits every simulated block, in the order the command line lists them: the registry of
/// blocks. A new block adds its line here.
pub fn visit_blocks(visitor: &mut impl BlockVisitor) {
    visitor.visit::<gpr::Gpr>();
    visitor.visit::<core::Core>();
    visitor.visit::<route::Route>();
    visitor.visit::<grf::Grf>();
    visitor.visit::<multiport::Flops>();
    visitor.visit::<multiport::Lvt>();
    visitor.visit::<multiport::Ilvt>();
    visitor.visit::<multiport::Xor>();
    visitor.visit::<cluster::Cluster>();
    visitor.visit::<alloc::Alloc>();
}
