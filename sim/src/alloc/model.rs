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
    /// Registers.
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
    /// Registers released, before this cycle's edge.
    pub released: u64,
    /// The footprint, before this cycle's edge.
    pub footprint: u32,
    /// Registers not allocated, before this cycle's edge.
    pub free_registers: usize,
}

/// The allocator's state.
pub struct PoolModel {
    params: AllocParams,
    slots: Vec<Option<Allocation>>,
    footprint: u32,
    launch_stalls: u64,
    released: u64,
    /// The test-only fault `alloc-off-by-one`, read once: it refuses a run ending at the top.
    off_by_one: bool,
    /// Per register: the slot holding it, refilled from `slots` when asked ([`Self::owners`]).
    owner: Vec<Option<usize>>,
    /// Per register: the slot found holding it so far, in [`Self::check`].
    taken: Vec<Option<usize>>,
}

impl PoolModel {
    /// An empty pool with footprint 0.
    pub fn new(params: &AllocParams) -> Self {
        Self {
            params: params.clone(),
            slots: vec![None; params.wave_slots],
            footprint: 0,
            launch_stalls: 0,
            released: 0,
            off_by_one: crate::fault("alloc-off-by-one"),
            owner: vec![None; params.pool],
            taken: vec![None; params.pool],
        }
    }

    /// Per register: the slot holding it, made again from the slots.
    fn owners(&mut self) -> &[Option<usize>] {
        self.owner.fill(None);
        for (s, alloc) in self.slots.iter().enumerate() {
            if let Some(a) = alloc {
                self.owner[a.base..a.base + a.size].fill(Some(s));
            }
        }
        &self.owner
    }

    /// The lowest base of a run of free granules covering `size` registers, in `owners`.
    fn first_fit(&self, owners: &[Option<usize>], size: usize) -> Option<usize> {
        let g = self.params.granularity;
        let top = self.params.pool - usize::from(self.off_by_one);
        (0..self.params.granules()).map(|k| k * g).find(|&base| {
            base + size <= top && owners[base..base + size].iter().all(Option::is_none)
        })
    }

    /// The footprint, registers per wave.
    pub fn footprint(&self) -> u32 {
        self.footprint
    }

    /// Registers released so far.
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
        self.owners();
        let base = if fits {
            self.first_fit(&self.owner, size)
        } else {
            None
        };
        let free_registers = self.owner.iter().filter(|o| o.is_none()).count();
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
            self.slots[s] = None;
        }
        if let Some((slot, alloc)) = launched {
            self.slots[slot] = Some(alloc);
        }
        self.launch_stalls += u64::from(inputs.launch && launched.is_none());
        let loaded = inputs.set_footprint.unwrap_or(self.footprint);
        let cut = inputs.release.map_or(0, |n| n.min(loaded));
        self.footprint = loaded - cut;
        self.released += u64::from(cut);
        outputs
    }

    /// The invariants: allocations within the pool, none overlapping, their sum at most the
    /// pool. The first one broken, in words.
    pub fn check(&mut self) -> Result<(), String> {
        let taken = &mut self.taken;
        taken.fill(None);
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
            for (r, owner) in taken.iter_mut().enumerate().skip(a.base).take(a.size) {
                if let Some(other) = owner.replace(s) {
                    return Err(format!("slots {other} and {s} both hold register {r}"));
                }
            }
        }
        match sum <= self.params.pool {
            true => Ok(()),
            false => Err(format!(
                "allocations sum to {sum}, more than the pool {}",
                self.params.pool
            )),
        }
    }
}
