//! The emitted core slice in Verilator against the golden model.

use grfgen_hdl::params::CoreParams;
use grfgen_sim::core::{builtin, run, CoreRtl, Device, Policy};
use grfgen_sim::verilator::BuildOptions;

fn rtl(params: &CoreParams, policy: Policy) -> CoreRtl {
    CoreRtl::build(&policy.hardware(params), &BuildOptions::default(), None)
        .expect("Verilator builds the emitted core")
}

#[test]
fn workloads_match_on_every_policy() {
    let params = CoreParams::default();
    for policy in [Policy::CqPq, Policy::Cq, Policy::Naive] {
        for name in grfgen_sim::core::workload::NAMES {
            let mut device = rtl(&params, policy);
            let workload = builtin(name, &params, 5).unwrap();
            let report = run(&params, policy, &workload, 5, Some(&mut device as &mut dyn Device), false);
            assert_eq!(report.mismatches, 0, "{name} {policy:?}: {}", report.first_mismatch.unwrap());
        }
    }
}
