use grfgen_hdl::params::GprParams;
use grfgen_sim::gpr::{run, GprRtl, RandomTraffic};
use grfgen_sim::verilator::BuildOptions;

#[test]
fn default_config_100k() {
    let p = GprParams::default();
    let seed = 7;
    let t = std::time::Instant::now();
    let mut rtl = GprRtl::build(
        &p,
        &BuildOptions {
            seed: seed as u32,
            ..Default::default()
        },
        None,
    )
    .unwrap();
    eprintln!("build {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let mut stim = RandomTraffic::new(&p, seed);
    let report = run(&p, &mut stim, 100_000, seed, Some(&mut rtl), &mut |_| {});
    eprintln!("run {:?} {:?}", t.elapsed(), report);
    assert_eq!(report.mismatches, 0, "{:?}", report.first_mismatch);
}
