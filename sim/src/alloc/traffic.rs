//! The allocator alone under random traffic: launches, retires, footprint loads and releases
//! drawn each cycle, in lock step, with the invariants checked every cycle.

use grfgen_hdl::params::AllocParams;

use super::model::{PoolInputs, PoolModel, PoolOutputs};
use crate::check::{end_cycle, Device, Mismatch};
use crate::rng::Rng;

/// What a traffic run counted.
#[derive(Clone, Debug, Default)]
pub struct TrafficResult {
    /// Cycles run.
    pub cycles: u64,
    /// Waves launched.
    pub launches: u64,
    /// Waves retired.
    pub retires: u64,
    /// Most waves resident at once.
    pub peak_resident: usize,
    /// Waves resident, on average.
    pub mean_resident: f64,
    /// Launch stalls.
    pub launch_stalls: u64,
    /// Registers released.
    pub released: u64,
    /// The first difference or broken invariant.
    pub mismatch: Option<Mismatch>,
}

/// One cycle's random inputs: a launch asked half the time; a retire a third of the time
/// (mostly of a resident wave, sometimes of an empty or missing slot); now and then a new
/// footprint (sometimes larger than the pool, and one load in eight anywhere in the port's 32
/// bits, every magnitude alike, so that the bound against the pool decides where the fit's
/// arithmetic wraps and the released count reaches its high bits) or a release (sometimes more
/// than the footprint).
fn draw(params: &AllocParams, model: &PoolModel, rng: &mut Rng) -> PoolInputs {
    let resident = |s: &usize| model.allocation(*s).is_some();
    let count = (0..params.wave_slots).filter(resident).count();
    let retire = match (rng.chance(1, 3), count == 0, rng.chance(1, 10)) {
        (false, _, _) => None,
        (true, false, false) => (0..params.wave_slots)
            .filter(resident)
            .nth(rng.below(count)),
        (true, _, _) => Some(rng.below(32)),
    };
    let set_footprint = rng.chance(1, 48).then(|| match rng.chance(1, 8) {
        true => (rng.next_u64() as u32) >> rng.below(32),
        false => rng.below(params.pool + 2 * params.granularity + 1) as u32,
    });
    let release = rng
        .chance(1, 48)
        .then(|| rng.below(model.footprint() as usize + 4) as u32);
    PoolInputs {
        set_footprint,
        release,
        launch: rng.chance(1, 2),
        retire,
    }
}

/// `cycles` cycles of random traffic from `seed`, with `device` in lock step when given.
pub fn run(
    params: &AllocParams,
    cycles: u64,
    seed: u64,
    mut device: Option<&mut dyn Device<Input = PoolInputs, Expected = PoolOutputs>>,
    progress: &dyn Fn(u64),
) -> TrafficResult {
    let mut model = PoolModel::new(params);
    let mut rng = Rng::new(seed);
    let mut out = TrafficResult::default();
    let mut resident_sum = 0u64;
    for cycle in 0..cycles {
        let inputs = draw(params, &model, &mut rng);
        let retiring = inputs.retire.is_some_and(|s| model.allocation(s).is_some());
        let shown = model.step(&inputs);
        out.cycles = cycle + 1;
        out.launches += u64::from(shown.launched.is_some());
        out.retires += u64::from(retiring);
        resident_sum += shown.resident as u64;
        out.peak_resident = out.peak_resident.max(shown.resident);
        if let Err(m) = end_cycle(device.as_deref_mut(), cycle, &inputs, &shown, progress) {
            out.mismatch = Some(m);
            break;
        }
        if let Err(m) = model.check() {
            out.mismatch = Some(Mismatch::new(cycle, || format!("invariant: {m}"), 0, 1));
            break;
        }
    }
    out.mean_resident = resident_sum as f64 / out.cycles.max(1) as f64;
    out.launch_stalls = model.launch_stalls();
    out.released = model.released();
    out
}
