//! The golden model of the GPR pool allocator, written from `docs/alloc.md` ("The
//! hardware"), with the invariants it checks every cycle.

use grfgen_hdl::params::AllocParams;

/// What drives the allocator for one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PoolInputs {
    /// `set_footprint(k)`: the footprint to load.
    pub set_footprint: Option<u32>,
    /// `release(n)`: registers to release.
    pub release: Option<u32>,
    /// A wave asks to launch.
    pub launch: bool,
    /// A wave retires from this slot.
    pub retire: Option<usize>,
}

/// A wave's allocation: registers `base..base + size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// First register.
    pub base: usize,
    /// RegisterSet.
    pub size: usize,
}

/// What the allocator shows for one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PoolOutputs {
    /// The asking wave launched: its slot and allocation.
    pub launched: Option<(usize, Allocation)>,
    /// Waves resident, before this cycle's edge.
    pub resident: usize,
    /// Cycles a wave asked and did not launch, before this cycle's edge.
    pub launch_stalls: u64,
    /// RegisterSet released, before this cycle's edge.
    pub released: u64,
    /// The footprint, before this cycle's edge.
    pub footprint: u32,
    /// RegisterSet not allocated, before this cycle's edge.
    pub free_registers: usize,
}

/// The allocator's state.
pub struct PoolModel {
    params: AllocParams,
    slots: Vec<Option<Allocation>>,
    /// The registers the slots hold, kept as waves launch and retire.
    held: RegisterSet,
    footprint: u32,
    launch_stalls: u64,
    released: u64,
    /// The test-only fault `alloc-off-by-one`, read once: it refuses a run ending at the top.
    off_by_one: bool,
}

/// A set of the pool's registers, one bit each (the pool holds at most 256).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct RegisterSet([u64; 4]);

impl RegisterSet {
    /// RegisterSet `base..base + size` (those below 256).
    fn span(base: usize, size: usize) -> Self {
        let mut words = [0u64; 4];
        let end = (base + size).min(256);
        let mut r = base.min(end);
        while r < end {
            let (word, low) = (r / 64, r % 64);
            let n = (end - r).min(64 - low);
            words[word] |= (u64::MAX >> (64 - n)) << low;
            r += n;
        }
        Self(words)
    }

    /// The lowest register in both sets.
    fn first_common(self, other: Self) -> Option<usize> {
        (0..4).find_map(|w| {
            let both = self.0[w] & other.0[w];
            (both != 0).then(|| w * 64 + both.trailing_zeros() as usize)
        })
    }

    /// Both sets together.
    fn with(self, other: Self) -> Self {
        Self(std::array::from_fn(|w| self.0[w] | other.0[w]))
    }

    /// This set without the other's registers.
    fn without(self, other: Self) -> Self {
        Self(std::array::from_fn(|w| self.0[w] & !other.0[w]))
    }

    /// RegisterSet in the set.
    fn count(self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
}

impl PoolModel {
    /// An empty pool with footprint 0.
    pub fn new(params: &AllocParams) -> Self {
        Self {
            params: params.clone(),
            slots: vec![None; params.wave_slots],
            held: RegisterSet::default(),
            footprint: 0,
            launch_stalls: 0,
            released: 0,
            off_by_one: crate::fault("alloc-off-by-one"),
        }
    }

    /// The lowest base of a run of free granules covering `size` registers, none held. A
    /// base whose run holds register `r` rules out every base up to `r`, so the search goes on
    /// from the granule after it (the granularity is a power of two).
    fn first_fit(&self, size: usize) -> Option<usize> {
        let g = self.params.granularity;
        let top = self.params.pool - usize::from(self.off_by_one);
        let mut base = 0;
        while base + size <= top {
            match self.held.first_common(RegisterSet::span(base, size)) {
                None => return Some(base),
                Some(r) => base = (r | (g - 1)) + 1,
            }
        }
        None
    }

    /// The footprint, registers per wave.
    pub fn footprint(&self) -> u32 {
        self.footprint
    }

    /// RegisterSet released so far.
    pub fn released(&self) -> u64 {
        self.released
    }

    /// Cycles a wave asked to launch and did not, so far.
    pub fn launch_stalls(&self) -> u64 {
        self.launch_stalls
    }

    /// The allocation of the wave resident in `slot`, if any.
    pub fn allocation(&self, slot: usize) -> Option<Allocation> {
        self.slots.get(slot).copied().flatten()
    }

    /// One cycle: what shows before the edge (the launch decided on the state as it is), then
    /// the edge: the retire returns its slot's allocation, the launch takes its own, the
    /// footprint is loaded and then released from.
    pub fn step(&mut self, inputs: &PoolInputs) -> PoolOutputs {
        let size = self.params.rounded(self.footprint as usize);
        let slot = self.slots.iter().position(Option::is_none);
        let fits = (self.footprint as usize) <= self.params.pool;
        // The fit is looked for only when a wave asks and a slot is free: it shows only then.
        let base = match inputs.launch && slot.is_some() && fits {
            true => self.first_fit(size),
            false => None,
        };
        let free_registers = self.params.pool - self.held.count();
        let launched = match (inputs.launch, slot, base) {
            (true, Some(slot), Some(base)) => Some((slot, Allocation { base, size })),
            _ => None,
        };
        let outputs = PoolOutputs {
            launched,
            resident: self.slots.iter().flatten().count(),
            launch_stalls: self.launch_stalls,
            released: self.released,
            footprint: self.footprint,
            free_registers,
        };
        if let Some(s) = inputs.retire.filter(|&s| s < self.slots.len()) {
            if let Some(a) = self.slots[s].take() {
                self.held = self.held.without(RegisterSet::span(a.base, a.size));
            }
        }
        if let Some((slot, alloc)) = launched {
            self.slots[slot] = Some(alloc);
            self.held = self.held.with(RegisterSet::span(alloc.base, alloc.size));
        }
        self.launch_stalls += u64::from(inputs.launch && launched.is_none());
        let loaded = inputs.set_footprint.unwrap_or(self.footprint);
        let cut = inputs.release.map_or(0, |n| n.min(loaded));
        self.footprint = loaded - cut;
        self.released += u64::from(cut);
        outputs
    }

    /// The invariants: allocations within the pool, none overlapping, their sum at most the
    /// pool. The first one broken, in words. The held set counts as many registers as the
    /// allocations sum to exactly when none overlap; only then is the pair looked for.
    pub fn check(&self) -> Result<(), String> {
        let mut sum = 0;
        for (s, alloc) in self.slots.iter().enumerate() {
            let Some(a) = alloc else { continue };
            sum += a.size;
            if a.base + a.size > self.params.pool {
                return Err(format!(
                    "slot {s}: registers {}..{} beyond the pool",
                    a.base,
                    a.base + a.size
                ));
            }
        }
        if self.held.count() != sum {
            return Err(self.overlap());
        }
        match sum <= self.params.pool {
            true => Ok(()),
            false => Err(format!(
                "allocations sum to {sum}, more than the pool {}",
                self.params.pool
            )),
        }
    }

    /// The first two slots that hold a register both, in words.
    fn overlap(&self) -> String {
        let mut taken = RegisterSet::default();
        for (s, alloc) in self.slots.iter().enumerate() {
            let Some(a) = alloc else { continue };
            let span = RegisterSet::span(a.base, a.size);
            if let Some(r) = taken.first_common(span) {
                let holds = |o: &usize| {
                    self.slots[*o].is_some_and(|b| (b.base..b.base + b.size).contains(&r))
                };
                let other = (0..s).rev().find(holds).unwrap_or(s);
                return format!("slots {other} and {s} both hold register {r}");
            }
            taken = taken.with(span);
        }
        "the held registers differ from the allocations".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registers of a set, listed.
    fn members(set: RegisterSet) -> Vec<usize> {
        (0..256)
            .filter(|&r| set.first_common(RegisterSet::span(r, 1)).is_some())
            .collect()
    }

    #[test]
    fn a_span_holds_its_registers_across_words() {
        for (base, size) in [
            (0, 0),
            (0, 1),
            (5, 3),
            (60, 8),
            (0, 64),
            (64, 64),
            (1, 255),
            (0, 256),
        ] {
            let set = RegisterSet::span(base, size);
            assert_eq!(
                members(set),
                (base..base + size).collect::<Vec<_>>(),
                "{base}+{size}"
            );
            assert_eq!(set.count(), size);
        }
        // Registers past 256 are not held.
        assert_eq!(RegisterSet::span(250, 20).count(), 6);
    }

    #[test]
    fn the_first_common_register_is_the_lowest_in_both() {
        let a = RegisterSet::span(10, 100).with(RegisterSet::span(200, 4));
        assert_eq!(a.first_common(RegisterSet::span(70, 200)), Some(70));
        assert_eq!(a.first_common(RegisterSet::span(110, 90)), None);
        assert_eq!(a.first_common(RegisterSet::span(150, 60)), Some(200));
        assert_eq!(a.count(), 104);
    }

    /// A pool of `pool` registers in granules of 4, with 4 wave slots.
    fn params(pool: usize) -> AllocParams {
        AllocParams {
            pool,
            granularity: 4,
            wave_slots: 4,
        }
    }

    /// `pool` holding each `(slot, base, size)` of `allocations` as given, unchecked.
    fn hold(pool: &mut PoolModel, allocations: &[(usize, usize, usize)]) {
        for &(slot, base, size) in allocations {
            pool.slots[slot] = Some(Allocation { base, size });
            pool.held = pool.held.with(RegisterSet::span(base, size));
        }
    }

    #[test]
    fn the_free_count_and_the_fit_follow_the_slots() {
        let mut pool = PoolModel::new(&params(96));
        let launch = PoolInputs {
            launch: true,
            ..PoolInputs::default()
        };
        pool.step(&PoolInputs {
            set_footprint: Some(70),
            ..PoolInputs::default()
        });
        let first = pool.step(&launch);
        assert_eq!(first.launched, Some((0, Allocation { base: 0, size: 72 })));
        assert_eq!(first.free_registers, 96);
        // 24 left: a second wave of 72 does not fit.
        let second = pool.step(&launch);
        assert_eq!((second.launched, second.free_registers), (None, 24));
        pool.step(&PoolInputs {
            set_footprint: Some(24),
            ..PoolInputs::default()
        });
        let third = pool.step(&launch);
        assert_eq!(third.launched, Some((1, Allocation { base: 72, size: 24 })));
        assert_eq!(pool.step(&PoolInputs::default()).free_registers, 0);
        assert_eq!(pool.check(), Ok(()));
    }

    #[test]
    fn overlapping_or_outside_allocations_break_the_invariants() {
        let mut pool = PoolModel::new(&params(96));
        hold(&mut pool, &[(0, 0, 8), (2, 16, 8)]);
        assert_eq!(pool.check(), Ok(()));
        hold(&mut pool, &[(3, 20, 4)]);
        assert_eq!(
            pool.check(),
            Err("slots 2 and 3 both hold register 20".into())
        );
        pool.slots[3] = None;
        pool.slots[1] = Some(Allocation { base: 92, size: 8 });
        assert_eq!(
            pool.check(),
            Err("slot 1: registers 92..100 beyond the pool".into())
        );
    }

    #[test]
    fn the_fit_is_the_lowest_free_run_of_granules() {
        let mut pool = PoolModel::new(&params(32));
        hold(&mut pool, &[(0, 4, 4), (1, 12, 8), (2, 24, 4)]);
        // Free: 0..4, 8..12, 20..24, 28..32.
        assert_eq!(pool.first_fit(4), Some(0));
        assert_eq!(pool.first_fit(8), None);
        assert_eq!(pool.first_fit(0), Some(0));
        pool.slots[0] = None;
        pool.held = pool.held.without(RegisterSet::span(4, 4));
        assert_eq!(pool.first_fit(12), Some(0));
        assert_eq!(pool.first_fit(16), None);
    }
}
