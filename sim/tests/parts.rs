//! Sub-blocks driven alone: each is emitted on its own (as its design instantiates it at
//! default parameters), verilated, and run in lock step with a small model written here from
//! its documented behaviour. A failure names the cycle, the port, the expected and the actual
//! value, and the seed. Needs `verilator`.

use grfgen_hdl::core::{CoreAlu, InstructionDecoder, ReadAllocator, Scoreboard};
use grfgen_hdl::emit::part;
use grfgen_hdl::grf::{
    front_state, FirstDirty, FrontAnswers, Outboxes, RoundRobinArbiter, SlowReadPipeline,
};
use grfgen_hdl::params::{BankKind, CoreOp, CoreParams, CoreUnit, GprParams, GrfParams};
use grfgen_hdl::sram::SramBank;
use grfgen_sim::bits::element_mask;
use grfgen_sim::rng::Rng;
use grfgen_sim::verilator::{Input, Output};

#[path = "common/part.rs"]
mod part;
use part::Part;

/// The core's ALU (docs/core.md): the operands and op presented in cycle t give the op's
/// result, 32-bit wrapping, on `result` from cycle t + `alu_latency`, whatever is presented in
/// between. Operands are drawn from all-ones, all-zeros and random values, so that carries and
/// the multiply's cross products wrap.
#[test]
fn the_core_alu_computes_each_op_after_its_latency() {
    for latency in 1..=4 {
        let params = CoreParams {
            alu_latency: latency,
            ..CoreParams::default()
        };
        let lanes = params.gpr.lanes;
        let seed = 30 + latency as u64;
        let mut rtl = Part::load(part("alu", CoreAlu::new(&params)), seed);
        let (clock, op) = (rtl.input("clock"), rtl.input("op"));
        let operand = rtl.inputs("operand", 3 * lanes);
        let result = rtl.outputs("result", lanes);
        let mut rng = Rng::new(seed);
        let pick = |rng: &mut Rng| match rng.below(4) {
            0 => 0xffff_ffff,
            1 => 0,
            _ => rng.next_u64() & 0xffff_ffff,
        };
        // Per cycle presented: each lane's expected result.
        let mut expected: Vec<Vec<u64>> = Vec::new();
        for cycle in 0..3000usize {
            let code = CoreOp::ALL[rng.below(CoreOp::ALL.len())];
            rtl.set(op, code.code());
            let mut now = Vec::new();
            for l in 0..lanes {
                let [a, b, c] = [0, 1, 2].map(|_| pick(&mut rng));
                for (s, v) in [a, b, c].into_iter().enumerate() {
                    rtl.set(operand[s * lanes + l], v);
                }
                let value = match code {
                    CoreOp::Mov => a,
                    CoreOp::Add => a.wrapping_add(b),
                    CoreOp::Sub => a.wrapping_sub(b),
                    CoreOp::Mul => a.wrapping_mul(b),
                    CoreOp::Mad => a.wrapping_mul(b).wrapping_add(c),
                    CoreOp::Nop => 0,
                };
                now.push(value & 0xffff_ffff);
            }
            expected.push(now);
            rtl.tick(clock);
            rtl.settle();
            if let Some(from) = (cycle + 1).checked_sub(latency) {
                for l in 0..lanes {
                    let want = expected[from][l];
                    rtl.expect(
                        || format!("result[{l}] (latency {latency})"),
                        result[l],
                        want,
                    );
                }
            }
        }
    }
}

/// Decoder rules (docs/core.md): only sources that are GPR reads count; a read naming the
/// register of an earlier read aliases the first such; a read that is no alias conflicts when
/// an earlier read that is no alias is in its bank. An immediate (or unused) source is never an
/// alias and never conflicts, whatever its register field holds.
#[test]
fn the_instruction_decoder_finds_aliases_and_bank_conflicts() {
    let params = CoreParams::default();
    let seed = 11;
    let mut rtl = Part::load(part("decoder", InstructionDecoder::<8>::new(&params)), seed);
    let (read, src) = (rtl.inputs("read", 3), rtl.inputs("src", 3));
    let (alias, conflict) = (rtl.outputs("alias_code", 3), rtl.outputs("conflict", 3));
    let mut rng = Rng::new(seed);
    let banks = params.gpr.banks;
    for _ in 0..4000 {
        // Few registers, so that aliases and conflicts are common.
        let regs: Vec<usize> = (0..3).map(|_| rng.below(3 * banks)).collect();
        let reads: Vec<bool> = (0..3).map(|_| rng.chance(3, 4)).collect();
        for s in 0..3 {
            rtl.set(read[s], reads[s] as u64);
            rtl.set(src[s], regs[s] as u64);
        }
        rtl.settle();
        let mut first = Vec::new();
        for s in 0..3 {
            let earlier = |t: usize| reads[t] && regs[t] == regs[s];
            let aliased = (0..s).find(|&t| earlier(t)).filter(|_| reads[s]);
            let code = aliased.map_or(0, |t| t as u64 + 1);
            rtl.expect(|| format!("alias[{s}] {regs:?} {reads:?}"), alias[s], code);
            let clash = reads[s]
                && aliased.is_none()
                && first.iter().any(|&t: &usize| t % banks == regs[s] % banks);
            rtl.expect(
                || format!("conflict[{s}] {regs:?} {reads:?}"),
                conflict[s],
                clash as u64,
            );
            if reads[s] && aliased.is_none() {
                first.push(regs[s]);
            }
        }
        rtl.cycle += 1;
    }
}

/// Read allocation (docs/core.md): candidates in order; one asks for a read when it wants one,
/// no earlier segment served it and, if it takes a queue entry, fewer queued candidates before
/// it want one than entries are free; an asking one is granted when its bank is unread and a
/// read port is left, and gets the lowest free port and the free entry of its rank. The model
/// here is the rule as a chain, candidate after candidate; the RTL computes it flat. Every
/// shape of `allocator_shapes`.
#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn the_read_allocator_grants_in_order_with_ports_banks_and_entries() {
    for (n, (params, conflict)) in allocator_shapes().into_iter().enumerate() {
        check_allocator(&params, conflict, 12 + n as u64);
    }
}

/// The quick cut of the test above, for `make test`: the default conflict segment, the
/// prefetch segment with many banks and one port, and the conflict segment on 2R1W banks.
#[test]
fn the_read_allocator_grants_in_order_on_three_shapes() {
    let shapes = allocator_shapes();
    for n in [0, 3, 4] {
        let (params, conflict) = &shapes[n];
        check_allocator(params, *conflict, 12 + n as u64);
    }
}

/// The allocator's shapes, each with whether its conflict segment (else its prefetch segment)
/// is checked: the default conflict segment, tight read ports with a deeper queue, the
/// prefetch segment, many banks with one port; then the first two and the prefetch segment
/// with 2R1W banks.
fn allocator_shapes() -> Vec<(CoreParams, bool)> {
    let shape = |banks, read_ports, cq_entries, pq_entries| {
        let mut params = CoreParams::default();
        params.gpr.banks = banks;
        params.gpr.read_ports = read_ports;
        params.cq_entries = cq_entries;
        params.pq_entries = pq_entries;
        params
    };
    let one_read = [
        (CoreParams::default(), true),
        (shape(8, 3, 4, 4), true),
        (shape(4, 2, 2, 8), false),
        (shape(16, 1, 1, 2), false),
    ];
    let two_reads = [
        (CoreParams::default(), true),
        (shape(8, 3, 4, 4), true),
        (shape(4, 2, 2, 8), false),
    ]
    .map(|(mut params, conflict)| {
        params.gpr.bank_kind = BankKind::TwoReadsOneWrite;
        (params, conflict)
    });
    one_read.into_iter().chain(two_reads).collect()
}

/// Runs one segment of `params` (the conflict segment or the prefetch segment) over random
/// requests against the chain rule.
fn check_allocator(params: &CoreParams, conflict: bool, seed: u64) {
    let (banks, ports) = (params.gpr.banks, params.gpr.read_ports);
    let capacity = params.gpr.bank_kind.reads_per_bank();
    let (plain, queued, entries, segment) = if conflict {
        let allocator = ReadAllocator::<8>::conflict(params);
        (3, 3 * params.preload_slots(), params.cq_entries, allocator)
    } else {
        let allocator = ReadAllocator::<8>::prefetch(params);
        (0, 3 * params.prefetch_slots(), params.pq_entries, allocator)
    };
    let n = plain + queued;
    let mut rtl = Part::load(part("allocator", segment), seed);
    let (want, before) = (rtl.inputs("want", n), rtl.inputs("served_before", n));
    let reg = rtl.inputs("reg_index", n);
    let (banks_in, free_in) = (rtl.input("banks_in"), rtl.input("free_in"));
    let (twice_in, twice_out) = (rtl.input("twice_in"), rtl.output("twice_out"));
    let (grant, port, entry) = (
        rtl.outputs("grant", n),
        rtl.outputs("port", n),
        rtl.outputs("entry", queued),
    );
    let (banks_out, free_out) = (rtl.output("banks_out"), rtl.output("free_out"));
    let asked = rtl.outputs("asked", n);
    let claimed_out = rtl.output("claimed_out");
    let claimed_twice_out = rtl.output("claimed_twice_out");
    let mut rng = Rng::new(seed);
    for _ in 0..4000 {
        let mut busy = rng.next_u64() & ((1 << banks) - 1) & rng.next_u64();
        while busy.count_ones() as usize > ports {
            busy &= busy - 1;
        }
        // Banks read twice before the segment (two reads per bank only), within the ports.
        let mut twice = match capacity {
            2 => busy & rng.next_u64(),
            _ => 0,
        };
        while (busy.count_ones() + twice.count_ones()) as usize > ports {
            twice &= twice - 1;
        }
        // The ports used before the segment are the reads of the banks before it.
        let mut used = (busy.count_ones() + twice.count_ones()) as u64;
        let mut free = rng.next_u64() & ((1 << entries) - 1);
        rtl.set(banks_in, busy);
        rtl.set(twice_in, twice);
        rtl.set(free_in, free);
        let wants: Vec<(bool, bool, u64)> = (0..n)
            .map(|_| (rng.chance(3, 4), rng.chance(1, 8), rng.below(64) as u64))
            .collect();
        for (c, &(w, b, r)) in wants.iter().enumerate() {
            rtl.set(want[c], w as u64);
            rtl.set(before[c], b as u64);
            rtl.set(reg[c], r);
        }
        rtl.settle();
        let free_entries: Vec<u64> = (0..entries as u64).filter(|e| free >> e & 1 == 1).collect();
        let (mut wanting, mut read, mut read_twice) = (0, 0u64, 0u64);
        let (mut claimed, mut claimed_twice) = (busy, twice);
        for (c, &(w, b, r)) in wants.iter().enumerate() {
            let bank = 1 << (r as usize % banks);
            let takes_entry = c >= plain;
            let rank = wanting;
            wanting += usize::from(takes_entry && w && !b);
            let asks = w && !b && (!takes_entry || rank < free_entries.len());
            rtl.expect(|| format!("asked[{c}]"), asked[c], asks as u64);
            if asks {
                claimed_twice |= claimed & bank;
                claimed |= bank;
            }
            let full = match capacity {
                2 => twice & bank != 0,
                _ => busy & bank != 0,
            };
            let granted = asks && !full && (used as usize) < ports;
            rtl.expect(|| format!("grant[{c}]"), grant[c], granted as u64);
            if !granted {
                continue;
            }
            rtl.expect(|| format!("port[{c}]"), port[c], used);
            twice |= busy & bank;
            busy |= bank;
            read_twice |= read & bank;
            read |= bank;
            used += 1;
            if takes_entry {
                let e = free_entries[rank];
                rtl.expect(|| format!("entry[{}]", c - plain), entry[c - plain], e);
                free &= !(1 << e);
            }
        }
        rtl.expect(|| "banks_out".into(), banks_out, read);
        rtl.expect(|| "twice_out".into(), twice_out, read_twice);
        rtl.expect(|| "claimed_out".into(), claimed_out, claimed);
        rtl.expect(
            || "claimed_twice_out".into(),
            claimed_twice_out,
            claimed_twice,
        );
        rtl.expect(|| "free_out".into(), free_out, free);
        rtl.cycle += 1;
    }
}

/// The scoreboard (docs/core.md): an issued instruction is in flight for `read_latency +
/// alu_latency` cycles, at the ALU in the `read_latency`-th and at its write-back stage in the
/// last, where an ALU instruction writing a register is written back and a long-latency one
/// shows its value on `long_*`; a long-latency instruction writing registers takes an entry of
/// the pending table per register when it issues, and a performed external write of a result
/// frees its register's entry. A source is hazardous while an older slot writes its register
/// (one writing several registers on a long-latency unit: every register), an instruction in
/// flight is to write it back, or the table holds it; the head is held while the table has
/// too few free entries for it, holds a register it writes, or holds a result its sync waits
/// guard; with forwarding, a head source whose youngest writer in flight is at stage
/// `alu_latency - 1` or later is forwarded, that stage less `alu_latency - 1` cycles away,
/// unless the table holds it; reset drops everything. The model here keeps the window, the
/// flight and the table, and checks each cycle's registered outputs against that cycle's
/// state.
#[test]
#[ignore = "slow (many Verilator models, minutes): scripts/slow-tests.sh runs it"]
fn the_scoreboard_flags_sources_an_older_or_flying_instruction_writes() {
    scoreboards(&[0, 1, 2, 3]);
}

/// The quick cut of the test above, for `make test`: forwarding with a deep pending table,
/// and without forwarding with the longest lookahead.
#[test]
fn the_scoreboard_flags_sources_with_and_without_forwarding() {
    scoreboards(&[0, 3]);
}

/// The scoreboard checked on the shapes `take` picks: forwarding with ALU latencies 2, 1 and
/// 3 on GPR pipelines 1, 0 and 2, then without forwarding and a lookahead of 3.
fn scoreboards(take: &[usize]) {
    let shapes = [
        (2, 1, 1, 16, true, 18),
        (1, 0, 1, 2, true, 19),
        (3, 2, 1, 3, true, 20),
        (2, 0, 3, 4, false, 21),
    ];
    for &(alu_latency, pipeline, lookahead, long_results, forward, seed) in
        take.iter().map(|&n| &shapes[n])
    {
        let params = CoreParams {
            gpr: GprParams {
                pipeline,
                ..CoreParams::default().gpr
            },
            alu_latency,
            lookahead,
            long_results,
            forward,
            ..CoreParams::default()
        };
        check_scoreboard(&params, seed);
    }
}

/// An instruction as the scoreboard sees it.
#[derive(Clone, Copy, Debug)]
struct Seen {
    dst: u64,
    writes: u64,
    unit: CoreUnit,
    /// `(ss)`, `(sy)`.
    wait: [bool; 2],
    src: [u64; 3],
}

impl Seen {
    /// A random instruction over registers 0..16: one in three long-latency.
    fn random(rng: &mut Rng) -> Self {
        let unit = match rng.chance(1, 3) {
            true => CoreUnit::ALL[1 + rng.below(5)],
            false => CoreUnit::Alu,
        };
        let writes = match unit {
            CoreUnit::Alu => rng.below(2),
            _ => rng.below(5),
        } as u64;
        Self {
            dst: rng.below(12) as u64,
            writes,
            unit,
            wait: [rng.chance(1, 4), rng.chance(1, 4)],
            src: [0; 3].map(|_| rng.below(16) as u64),
        }
    }

    fn long(&self) -> bool {
        self.unit.long_latency()
    }

    /// Written back on port 0.
    fn writes_back(&self) -> bool {
        !self.long() && self.writes == 1
    }

    /// As an older slot of the window, it makes `reg` hazardous.
    fn window_writes(&self, reg: u64) -> bool {
        (self.writes == 1 && self.dst == reg) || (self.long() && self.writes > 1)
    }
}

/// The scoreboard's world: the window (head first), the flight (stage 0 first) and the
/// pending table (register, guarded by `(sy)`).
#[derive(Default)]
struct Board {
    slots: Vec<Seen>,
    flying: Vec<Option<Seen>>,
    table: Vec<(u64, bool)>,
}

impl Board {
    fn outstanding(&self, reg: u64) -> bool {
        self.table.iter().any(|&(r, _)| r == reg)
    }

    fn hazard(&self, j: usize, s: usize) -> bool {
        let src = self.slots[j].src[s];
        self.slots[..j].iter().any(|o| o.window_writes(src))
            || (self.flying.iter().flatten()).any(|f| f.writes_back() && f.dst == src)
            || self.outstanding(src)
    }

    /// Whether the head may not issue, with `capacity` entries.
    fn held(&self, capacity: usize) -> bool {
        let Some(head) = self.slots.first() else {
            return false;
        };
        let takes = if head.long() { head.writes as usize } else { 0 };
        let guarded = |sy: bool| self.table.iter().any(|&(_, g)| g == sy);
        takes > capacity - self.table.len()
            || (head.dst..head.dst + head.writes).any(|r| self.outstanding(r))
            || (head.wait[0] && guarded(false))
            || (head.wait[1] && guarded(true))
    }

    /// The instruction written back on port 0 this cycle.
    fn retiring(&self) -> Option<Seen> {
        self.flying
            .last()
            .copied()
            .flatten()
            .filter(Seen::writes_back)
    }

    /// With forwarding at `alu_latency`: the stage of head source `s`'s youngest writer in
    /// flight when it is forwarded.
    fn forwarded(&self, s: usize, alu_latency: usize) -> Option<usize> {
        let src = self.slots.first()?.src[s];
        let youngest = (self.flying.iter())
            .position(|f| f.is_some_and(|f| f.writes_back() && f.dst == src))?;
        (youngest + 1 >= alu_latency && !self.outstanding(src)).then_some(youngest)
    }
}

/// The scoreboard part's ports.
struct ScoreboardPorts {
    clock: Input,
    reset: Input,
    issue: Input,
    slot_valid: Vec<Input>,
    entering: Vec<Input>,
    /// Per described slot: destination, writes, unit.
    slot_fields: Vec<[Input; 3]>,
    slot_wait: Vec<Input>,
    slot_src: Vec<Input>,
    /// The offered instruction's destination, writes, unit and waits; the external write's
    /// valid, result and register.
    offered: [Input; 7],
    instr_src: Vec<Input>,
    hazard: Vec<Output>,
    forward: Vec<Output>,
    distance: Vec<Output>,
    /// alu_valid, retire_valid, long_valid, held, ext_grant.
    flags: [Output; 5],
    /// retire_reg, long_reg, long_writes, long_unit.
    written: [Output; 4],
}

impl ScoreboardPorts {
    fn of(rtl: &Part, params: &CoreParams) -> Self {
        let served = params.served_slots();
        let seen = Scoreboard::<8>::seen_slots(params);
        let fields = ["slot_dst", "slot_writes", "slot_unit"].map(|n| rtl.inputs(n, served.max(2)));
        Self {
            clock: rtl.input("clock"),
            reset: rtl.input("reset"),
            issue: rtl.input("issue"),
            slot_valid: rtl.inputs("slot_valid", served),
            entering: rtl.inputs("entering", served),
            slot_fields: (0..Scoreboard::<8>::described_slots(params))
                .map(|j| [0, 1, 2].map(|f| fields[f][j]))
                .collect(),
            slot_wait: rtl.inputs("slot_wait", 2),
            slot_src: rtl.inputs("slot_src", 3 * seen),
            offered: [
                "instr_dst",
                "instr_writes",
                "instr_unit",
                "instr_wait",
                "ext_valid",
                "ext_result",
                "ext_reg",
            ]
            .map(|n| rtl.input(n)),
            instr_src: rtl.inputs("instr_src", 3),
            hazard: rtl.outputs("hazard", 3 * served),
            forward: rtl.outputs("forward", 3),
            distance: match params.forward {
                true => rtl.outputs("distance", 3),
                false => Vec::new(),
            },
            flags: [
                "alu_valid",
                "retire_valid",
                "long_valid",
                "held",
                "ext_grant",
            ]
            .map(|n| rtl.output(n)),
            written: ["retire_reg", "long_reg", "long_writes", "long_unit"].map(|n| rtl.output(n)),
        }
    }

    /// Checks this cycle's registered outputs against `board`; whether the head is held.
    fn expect(&self, rtl: &Part, board: &Board, params: &CoreParams) -> bool {
        for j in 0..params.served_slots().min(board.slots.len()) {
            for s in 0..3 {
                let k = j * 3 + s;
                let context = || format!("hazard[{k}] (window {:?})", board.slots);
                rtl.expect(context, self.hazard[k], board.hazard(j, s) as u64);
            }
        }
        if !board.slots.is_empty() && params.forward {
            for s in 0..3 {
                let stage = board.forwarded(s, params.alu_latency);
                let forwarded = stage.is_some() as u64;
                rtl.expect(|| format!("forward[{s}]"), self.forward[s], forwarded);
                if let Some(stage) = stage {
                    let expected = (stage + 1 - params.alu_latency) as u64;
                    rtl.expect(|| format!("distance[{s}]"), self.distance[s], expected);
                }
            }
        }
        let held = board.held(params.long_results);
        if !board.slots.is_empty() {
            let context = || format!("held (head {:?}, table {:?})", board.slots[0], board.table);
            rtl.expect(context, self.flags[3], held as u64);
        }
        let alu = board.flying[params.read_latency() - 1].is_some() as u64;
        rtl.expect(|| "alu_valid".into(), self.flags[0], alu);
        let retiring = board.retiring();
        rtl.expect(
            || "retire_valid".into(),
            self.flags[1],
            retiring.is_some() as u64,
        );
        if let Some(r) = retiring {
            rtl.expect(|| "retire_reg".into(), self.written[0], r.dst);
        }
        let leaving = board.flying.last().copied().flatten().filter(Seen::long);
        rtl.expect(
            || "long_valid".into(),
            self.flags[2],
            leaving.is_some() as u64,
        );
        if let Some(l) = leaving {
            for (k, value) in [(1, l.dst), (2, l.writes), (3, l.unit.code())] {
                rtl.expect(|| format!("long output {k}"), self.written[k], value);
            }
        }
        held
    }

    /// Drives the window of `board`, the issue, the offered instruction `next` (entering slot
    /// `entering_at`) and the external write; slots `board` lacks show random instructions.
    fn drive(&self, rtl: &mut Part, board: &Board, cycle: &ScoreboardCycle, rng: &mut Rng) {
        rtl.set(self.reset, cycle.reset as u64);
        rtl.set(self.issue, cycle.issue as u64);
        let wait = |i: &Seen| i.wait[0] as u64 | (i.wait[1] as u64) << 1;
        for j in 0..self.slot_src.len() / 3 {
            let slot = board.slots.get(j).copied();
            let shown = slot.unwrap_or(Seen::random(rng));
            if let (Some(&valid), Some(&entering)) = (self.slot_valid.get(j), self.entering.get(j))
            {
                rtl.set(valid, slot.is_some() as u64);
                rtl.set(entering, (cycle.entering_at == Some(j)) as u64);
            }
            if let Some(fields) = self.slot_fields.get(j) {
                for (&port, value) in
                    fields
                        .iter()
                        .zip([shown.dst, shown.writes, shown.unit.code()])
                {
                    rtl.set(port, value);
                }
            }
            if let Some(&port) = self.slot_wait.get(j) {
                rtl.set(port, wait(&shown));
            }
            for s in 0..3 {
                rtl.set(self.slot_src[j * 3 + s], shown.src[s]);
            }
        }
        let next = &cycle.next;
        let (ext_reg, ext_result) = cycle.external.unwrap_or((0, false));
        let values = [
            next.dst,
            next.writes,
            next.unit.code(),
            wait(next),
            cycle.external.is_some() as u64,
            ext_result as u64,
            ext_reg,
        ];
        for (&port, value) in self.offered.iter().zip(values) {
            rtl.set(port, value);
        }
        for (&port, value) in self.instr_src.iter().zip(next.src) {
            rtl.set(port, value);
        }
        rtl.settle();
    }
}

/// One cycle's inputs to the scoreboard.
struct ScoreboardCycle {
    reset: bool,
    issue: bool,
    next: Seen,
    entering_at: Option<usize>,
    /// The external write's register, and whether it is a result's.
    external: Option<(u64, bool)>,
}

impl ScoreboardCycle {
    /// Random inputs for `board` in a window of `window` slots: the head issues only when it
    /// is not held; a result's register is written only while the table holds it.
    fn random(board: &Board, window: usize, held: bool, rng: &mut Rng) -> Self {
        let issue = !board.slots.is_empty() && !held && rng.chance(1, 2);
        let after_issue = board.slots.len() - issue as usize;
        let external = match (rng.chance(1, 3), board.table.is_empty()) {
            (false, _) => None,
            (true, false) if rng.chance(2, 3) => {
                Some((board.table[rng.below(board.table.len())].0, true))
            }
            (true, _) => Some((rng.below(16) as u64, false)),
        };
        Self {
            reset: rng.chance(1, 300),
            issue,
            next: Seen::random(rng),
            entering_at: Some(after_issue).filter(|&n| n < window && rng.chance(2, 3)),
            external,
        }
    }
}

fn check_scoreboard(params: &CoreParams, seed: u64) {
    let flight = params.issue_to_writeback();
    let mut rtl = Part::load(part("scoreboard", Scoreboard::<8>::new(params)), seed);
    let ports = ScoreboardPorts::of(&rtl, params);
    let mut rng = Rng::new(seed);
    let empty = || Board {
        flying: vec![None; flight],
        ..Board::default()
    };
    let mut board = empty();
    rtl.reset(ports.clock, ports.reset);
    for _ in 0..6000 {
        let held = ports.expect(&rtl, &board, params);
        let cycle = ScoreboardCycle::random(&board, params.window(), held, &mut rng);
        ports.drive(&mut rtl, &board, &cycle, &mut rng);
        let banks = params.gpr.banks as u64;
        let (ext_reg, ext_result) = cycle.external.unwrap_or((0, false));
        let blocked = board
            .retiring()
            .is_some_and(|r| r.dst % banks == ext_reg % banks);
        let granted = cycle.external.is_some() && !blocked;
        rtl.expect(|| "ext_grant".into(), ports.flags[4], granted as u64);
        // The next cycle's window, flight and table.
        if granted && ext_result {
            board.table.retain(|&(r, _)| r != ext_reg);
        }
        board.flying.rotate_right(1);
        board.flying[0] = None;
        if cycle.issue {
            let head = board.slots.remove(0);
            if head.long() {
                let sy = head.unit.guarded_by_sy();
                board
                    .table
                    .extend((head.dst..head.dst + head.writes).map(|r| (r, sy)));
            }
            board.flying[0] = Some(head);
        }
        if cycle.entering_at.is_some() {
            board.slots.push(cycle.next);
        }
        if cycle.reset {
            board = empty();
        }
        rtl.tick(ports.clock);
    }
}

/// Round robin (docs/grf.md): the first EU with a transaction after the one served last is
/// presented; it is taken when the controller allows; reset makes EU 0 first; with no EU
/// waiting, EU 0 and zero fields are presented.
#[test]
fn the_round_robin_arbiter_serves_waiting_eus_in_turn() {
    let params = GrfParams::default();
    let (eus, lanes) = (params.eus, params.lanes);
    let seed = 13;
    let mut rtl = Part::load(part("arbiter", RoundRobinArbiter::<32>::new(&params)), seed);
    let (clock, reset, allow) = (rtl.input("clock"), rtl.input("reset"), rtl.input("allow"));
    let valid = rtl.inputs("tx_valid", eus);
    let fields = ["tx_kind", "tx_thread", "tx_reg", "tx_group"].map(|f| rtl.inputs(f, eus));
    let tx_data = rtl.inputs("tx_data", eus * lanes);
    let (take, taken, eu) = (
        rtl.output("take"),
        rtl.outputs("taken", eus),
        rtl.output("eu"),
    );
    let shown = ["kind", "thread", "reg_index", "group"].map(|f| rtl.output(f));
    let data = rtl.outputs("data", lanes);
    let widths = [3, 5, 6, 3];
    let mut rng = Rng::new(seed);
    let mut last = eus - 1;
    rtl.reset(clock, reset);
    for _ in 0..4000 {
        let resetting = rng.chance(1, 200);
        let allowed = rng.chance(2, 3);
        rtl.set(reset, resetting as u64);
        rtl.set(allow, allowed as u64);
        let waiting: Vec<bool> = (0..eus).map(|_| rng.chance(1, 3)).collect();
        let mut values = vec![[0u64; 4]; eus];
        for e in 0..eus {
            rtl.set(valid[e], waiting[e] as u64);
            for f in 0..4 {
                values[e][f] = rng.next_u64() & element_mask(widths[f]);
                rtl.set(fields[f][e], values[e][f]);
            }
        }
        let lane_data: Vec<u64> = (0..eus * lanes)
            .map(|_| rng.next_u64() & 0xffff_ffff)
            .collect();
        for (i, &d) in lane_data.iter().enumerate() {
            rtl.set(tx_data[i], d);
        }
        rtl.settle();
        let picked = (1..=eus).map(|k| (last + k) % eus).find(|&e| waiting[e]);
        let chosen = picked.unwrap_or(0);
        let taking = allowed && picked.is_some() && !resetting;
        rtl.expect(
            || format!("take (waiting {waiting:?}, last {last})"),
            take,
            taking as u64,
        );
        rtl.expect(
            || format!("eu (waiting {waiting:?}, last {last})"),
            eu,
            chosen as u64,
        );
        for (e, &taken) in taken.iter().enumerate() {
            rtl.expect(
                || format!("taken[{e}]"),
                taken,
                (taking && e == chosen) as u64,
            );
        }
        // With no EU waiting, the fields are zero.
        let presented = |value: u64| if picked.is_some() { value } else { 0 };
        for f in 0..4 {
            rtl.expect(
                || format!("field {f}"),
                shown[f],
                presented(values[chosen][f]),
            );
        }
        for l in 0..lanes {
            rtl.expect(
                || format!("data[{l}]"),
                data[l],
                presented(lane_data[chosen * lanes + l]),
            );
        }
        rtl.tick(clock);
        if taking {
            last = chosen;
        }
        if resetting {
            last = eus - 1;
        }
    }
}

/// The slow GRF's read pipeline (docs/grf.md): a read launched in cycle t leaves in cycle
/// t + latency with its tags, carrying the block RAM's output of cycle t + 1; a read that is
/// not a save's shows a cycle before it leaves on the answer bit of the EU its tag names, with
/// its shared bit, unless that cycle is a reset.
#[test]
fn the_slow_read_pipeline_delays_every_read_by_the_latency() {
    for latency in [2, 3, 5] {
        let params = GrfParams {
            slow_latency: latency,
            ..GrfParams::default()
        };
        let (lanes, eus) = (params.lanes, params.eus);
        let seed = 14 + latency as u64;
        let mut rtl = Part::load(
            part("slow_read", SlowReadPipeline::<32>::new(&params)),
            seed,
        );
        let (clock, reset, launch) = (rtl.input("clock"), rtl.input("reset"), rtl.input("launch"));
        let tags = ["launch_save", "launch_tag", "launch_shared"].map(|f| rtl.input(f));
        let sram = rtl.inputs("sram_data", lanes);
        let out_valid = rtl.output("out_valid");
        let out_tags = ["out_save", "out_tag"].map(|f| rtl.output(f));
        let out_data = rtl.outputs("out_data", lanes);
        let next_answers = rtl.outputs("next_answers", eus);
        let next_shared = rtl.output("next_shared");
        let mut rng = Rng::new(seed);
        // Per cycle: launched (after reset), its tags, the RAM's data in that cycle.
        let mut history: Vec<(bool, [u64; 3], Vec<u64>)> = Vec::new();
        let mut cleared = 0;
        rtl.reset(clock, reset);
        for cycle in 0..3000 {
            let resetting = rng.chance(1, 300);
            let launching = rng.chance(1, 2);
            let tag = [
                rng.below(2) as u64,
                rng.below(16) as u64,
                rng.below(2) as u64,
            ];
            let ram: Vec<u64> = (0..lanes).map(|_| rng.next_u64() & 0xffff_ffff).collect();
            rtl.set(reset, resetting as u64);
            rtl.set(launch, launching as u64);
            for f in 0..3 {
                rtl.set(tags[f], tag[f]);
            }
            for l in 0..lanes {
                rtl.set(sram[l], ram[l]);
            }
            rtl.settle();
            let leaving =
                cycle >= latency && cycle - latency >= cleared && history[cycle - latency].0;
            rtl.expect(
                || format!("out_valid (latency {latency})"),
                out_valid,
                leaving as u64,
            );
            // The read leaving next cycle, launched `latency - 1` cycles ago.
            let answered = (cycle + 1)
                .checked_sub(latency)
                .filter(|&next| !resetting && next >= cleared && history[next].0)
                .map(|next| history[next].1)
                .filter(|t| t[0] == 0);
            for (e, &bit) in next_answers.iter().enumerate() {
                let expected = answered.map(|t| t[1]) == Some(e as u64);
                rtl.expect(|| format!("next_answers[{e}]"), bit, expected as u64);
            }
            if let Some(t) = answered {
                rtl.expect(|| "next_shared".to_string(), next_shared, t[2]);
            }
            if leaving {
                let (_, launched_tags, _) = &history[cycle - latency];
                for f in 0..2 {
                    rtl.expect(|| format!("tag {f}"), out_tags[f], launched_tags[f]);
                }
                let ram_then = &history[cycle - latency + 1].2;
                for l in 0..lanes {
                    rtl.expect(|| format!("out_data[{l}]"), out_data[l], ram_then[l]);
                }
            }
            history.push((launching && !resetting, tag, ram));
            if resetting {
                // Reads in flight are dropped, those launched from the next cycle on leave.
                cleared = cycle + 1;
            }
            rtl.tick(clock);
        }
    }
}

/// The outboxes (docs/grf.md): `send` loads a transaction into an empty outbox (register and
/// data from the request, the victim or the found block, thread from the request or the
/// victim; the EU's thread as the cluster numbers it), shown
/// from the next cycle until taken; reset empties them. An EU never sends to its full outbox (the outbox's own check says so), so
/// neither does the test; what an empty outbox shows besides `valid` is not checked.
#[test]
fn the_outboxes_hold_a_transaction_until_it_is_taken() {
    let params = GrfParams::default();
    let (eus, lanes) = (params.eus, params.lanes);
    let seed = 15;
    let mut rtl = Part::load(part("outboxes", Outboxes::<32>::new(&params)), seed);
    let (clock, reset) = (rtl.input("clock"), rtl.input("reset"));
    let (send, take) = (rtl.inputs("send", eus), rtl.inputs("take", eus));
    let fields = ["send_kind", "send_thread", "send_reg", "send_group"].map(|f| rtl.inputs(f, eus));
    let (from_victim, from_found) = (
        rtl.inputs("from_victim", eus),
        rtl.inputs("from_found", eus),
    );
    let sources = ["request_data", "victim_data", "found_data"].map(|f| rtl.inputs(f, eus * lanes));
    let (victim_thread, victim_reg, found_reg) = (
        rtl.inputs("victim_thread", eus),
        rtl.inputs("victim_reg", eus),
        rtl.inputs("found_reg", eus),
    );
    let valid = rtl.outputs("valid", eus);
    let shown = ["kind", "thread", "reg_index", "group"].map(|f| rtl.outputs(f, eus));
    let data = rtl.outputs("data", eus * lanes);
    let widths = [3, 5, 6, 3];
    let mut rng = Rng::new(seed);
    // Per EU: the held transaction's fields and data.
    let mut held: Vec<Option<([u64; 4], Vec<u64>)>> = vec![None; eus];
    rtl.reset(clock, reset);
    for _ in 0..3000 {
        for e in 0..eus {
            rtl.expect(|| format!("valid[{e}]"), valid[e], held[e].is_some() as u64);
            if let Some((values, lane_data)) = &held[e] {
                for f in 0..4 {
                    rtl.expect(|| format!("field {f} of EU {e}"), shown[f][e], values[f]);
                }
                for l in 0..lanes {
                    rtl.expect(
                        || format!("data[{e}][{l}]"),
                        data[e * lanes + l],
                        lane_data[l],
                    );
                }
            }
        }
        let resetting = rng.chance(1, 300);
        rtl.set(reset, resetting as u64);
        let mut next = held.clone();
        for e in 0..eus {
            let sending = held[e].is_none() && rng.chance(1, 3);
            let taking = held[e].is_some() && rng.chance(1, 2);
            let (victim, found) = (rng.chance(1, 3), rng.chance(1, 3));
            rtl.set(send[e], sending as u64);
            rtl.set(take[e], taking as u64);
            rtl.set(from_victim[e], victim as u64);
            rtl.set(from_found[e], found as u64);
            let mut values = widths.map(|w| rng.next_u64() & element_mask(w));
            // The thread sent is the EU's own; the outbox shows the cluster's number for it.
            let thread = rng.below(params.threads) as u64;
            values[1] = thread;
            for f in 0..4 {
                rtl.set(fields[f][e], values[f]);
            }
            // A write-back's register (the found entry's over the victim's) and thread (the
            // victim's) are the entry's.
            let their_thread = rng.below(params.threads) as u64;
            let their_regs = [rng.next_u64() & 0x3f, rng.next_u64() & 0x3f];
            rtl.set(victim_thread[e], their_thread);
            rtl.set(victim_reg[e], their_regs[0]);
            rtl.set(found_reg[e], their_regs[1]);
            let thread = if victim { their_thread } else { thread };
            values[1] = (e * params.threads) as u64 + thread;
            if found {
                values[2] = their_regs[1];
            } else if victim {
                values[2] = their_regs[0];
            }
            let lane_data: Vec<Vec<u64>> = (0..3)
                .map(|_| (0..lanes).map(|_| rng.next_u64() & 0xffff_ffff).collect())
                .collect();
            for (s, source) in sources.iter().enumerate() {
                for l in 0..lanes {
                    rtl.set(source[e * lanes + l], lane_data[s][l]);
                }
            }
            // The found block's data wins over the victim's, which wins over the request's.
            let pick = if found {
                2
            } else if victim {
                1
            } else {
                0
            };
            if taking {
                next[e] = None;
            }
            if sending {
                next[e] = Some((values, lane_data[pick].clone()));
            }
            if resetting {
                next[e] = None;
            }
        }
        rtl.tick(clock);
        held = next;
    }
}

/// The first dirty entry of a switch's block (docs/grf.md, "The RTL"): with the search
/// registered (`pipeline` 4), the entries held are the live ones when `hold` takes them, else
/// those held before less the one cleaned, and each lane's copy shows the first held entry
/// from the cycle after; wired (`pipeline` 3), the first live entry at once. A flush cleans
/// the first held entry, if there is one, as the front end cleans the entry found.
#[test]
fn the_first_dirty_entry_follows_the_held_entries() {
    for pipeline in [3, 4] {
        let params = GrfParams {
            pipeline,
            ..GrfParams::default()
        };
        let (eus, lanes, fast) = (params.eus, params.lanes, params.fast_regs);
        let seed = 31 + pipeline as u64;
        let mut rtl = Part::load(part("first_dirty", FirstDirty::new(&params)), seed);
        let clock = rtl.input("clock");
        let (live, held_in) = (
            rtl.inputs("live", eus * fast),
            rtl.inputs("held", eus * fast),
        );
        let (hold, flush) = (rtl.inputs("hold", eus), rtl.inputs("flush", eus));
        let first = rtl.outputs("first", eus * fast * lanes);
        let lowest = |bits: u64| bits & bits.wrapping_neg();
        let mut rng = Rng::new(seed);
        // Per EU: the entries held (a bit per entry), zero at power-up.
        let mut held = vec![0u64; eus];
        for _ in 0..3000 {
            let mut shown = vec![0u64; eus];
            for e in 0..eus {
                let live_now = rng.next_u64() & ((1 << fast) - 1) & rng.next_u64();
                let holding = rng.chance(1, 4);
                let flushing = rng.chance(1, 2);
                let cleaned = if flushing { lowest(held[e]) } else { 0 };
                for i in 0..fast {
                    rtl.set(live[e * fast + i], live_now >> i & 1);
                    rtl.set(held_in[e * fast + i], held[e] >> i & 1);
                }
                rtl.set(hold[e], holding as u64);
                rtl.set(flush[e], flushing as u64);
                if pipeline < 4 {
                    shown[e] = lowest(live_now);
                } else {
                    shown[e] = lowest(held[e]);
                    held[e] = if holding {
                        live_now
                    } else {
                        held[e] & !cleaned
                    };
                }
            }
            rtl.settle();
            for (e, entries) in shown.iter().enumerate() {
                for i in 0..fast {
                    for l in 0..lanes {
                        let k = (e * fast + i) * lanes + l;
                        rtl.expect(
                            || format!("first[{e}][{i}][{l}]"),
                            first[k],
                            entries >> i & 1,
                        );
                    }
                }
            }
            rtl.tick(clock);
        }
    }
}

/// A front end's states in the order idle, access, victim, flush, command, scan, as the front
/// end encodes them.
const STATES: [u64; 6] = [
    front_state::IDLE,
    front_state::ACCESS,
    front_state::VICTIM,
    front_state::FLUSH,
    front_state::COMMAND,
    front_state::SCAN,
];

/// The front ends' answers (docs/grf.md): wired (`pipeline` 4), each EU's answer is acted on in
/// the cycle it arrives; registered (`pipeline` 5), a cycle later, unless that cycle was a
/// reset. Plain passes through as the controller decides it; the answer ends the wait of the
/// state it arrives in (`STATES` 1 access, 2 victim, 3 flush, 4 command); the served request
/// is a write (op 1). The kept data loads the answer acted on when `keep`, and reset clears it.
#[test]
fn the_front_answers_act_on_each_answer_now_or_a_cycle_later() {
    for pipeline in [4, 5] {
        let params = GrfParams {
            pipeline,
            ..GrfParams::default()
        };
        let (eus, lanes) = (params.eus, params.lanes);
        let seed = 21 + pipeline as u64;
        let mut rtl = Part::load(part("answers", FrontAnswers::<32>::new(&params)), seed);
        let (clock, reset) = (rtl.input("clock"), rtl.input("reset"));
        let inputs = [
            "state",
            "rq_op",
            "ans_valid",
            "ans_status",
            "ans_plain",
            "keep",
        ]
        .map(|f| rtl.inputs(f, eus));
        let ans_data = rtl.inputs("ans_data", eus * lanes);
        let shown = [
            "status", "plain", "access", "victim", "flush", "command", "write",
        ]
        .map(|f| rtl.outputs(f, eus));
        let (data, kept) = (
            rtl.outputs("data", eus * lanes),
            rtl.outputs("kept", eus * lanes),
        );
        let mut rng = Rng::new(seed);
        // Per EU: what the answer of the cycle before shows (as `shown`; data), and the kept
        // data. The reset cycle's inputs are zero: an ok answer, not plain, no write.
        let mut before = vec![([0, 0, 0, 0, 0, 0, 0], vec![0u64; lanes]); eus];
        let mut kept_now = vec![vec![0u64; lanes]; eus];
        for input in inputs.iter().flatten().chain(&ans_data) {
            rtl.set(*input, 0);
        }
        rtl.reset(clock, reset);
        for _ in 0..3000 {
            let resetting = rng.chance(1, 100);
            rtl.set(reset, resetting as u64);
            let mut acted = Vec::new();
            for e in 0..eus {
                let values = [
                    STATES[rng.below(6)],
                    rng.below(6) as u64,
                    rng.chance(1, 2) as u64,
                    rng.below(6) as u64,
                    rng.chance(2, 3) as u64,
                    rng.chance(1, 3) as u64,
                ];
                for (input, value) in inputs.iter().zip(values) {
                    rtl.set(input[e], value);
                }
                let lane_data: Vec<u64> =
                    (0..lanes).map(|_| rng.next_u64() & 0xffff_ffff).collect();
                for l in 0..lanes {
                    rtl.set(ans_data[e * lanes + l], lane_data[l]);
                }
                let [state, op, valid, status, plain, keep] = values;
                let arrives = valid == 1 && (pipeline < 5 || !resetting);
                let ends = |waiting: usize| u64::from(arrives && state == STATES[waiting]);
                let now = (
                    [
                        status,
                        plain,
                        ends(1),
                        ends(2),
                        ends(3),
                        ends(4),
                        u64::from(op == 1),
                    ],
                    lane_data,
                );
                let shows = if pipeline < 5 {
                    now.clone()
                } else {
                    before[e].clone()
                };
                acted.push((shows, keep, now));
            }
            rtl.settle();
            for (e, ((fields, lane_data), keep, now)) in acted.into_iter().enumerate() {
                for (f, value) in fields.iter().enumerate() {
                    rtl.expect(|| format!("output {f} of EU {e}"), shown[f][e], *value);
                }
                for l in 0..lanes {
                    let (d, k) = (data[e * lanes + l], kept[e * lanes + l]);
                    rtl.expect(|| format!("data[{e}][{l}]"), d, lane_data[l]);
                    rtl.expect(|| format!("kept[{e}][{l}]"), k, kept_now[e][l]);
                }
                if keep == 1 {
                    kept_now[e] = lane_data;
                }
                if resetting {
                    kept_now[e] = vec![0; lanes];
                }
                before[e] = now;
            }
            rtl.tick(clock);
        }
    }
}

/// The block RAM primitive: a read shows the addressed row from the next cycle and holds it;
/// a write lands on the clock edge; contents start at zero. Reads never hit the row written
/// in the same cycle (that collision is undefined).
#[test]
fn the_sram_bank_reads_after_one_cycle_and_holds() {
    let seed = 17;
    let mut rtl = Part::load(part("bank", SramBank::<32, 6>::default()), seed);
    let clock = rtl.input("clock");
    let (read_enable, read_address) = (rtl.input("read_enable"), rtl.input("read_address"));
    let write = ["write_enable", "write_address", "write_data"].map(|f| rtl.input(f));
    let read_data = rtl.output("read_data");
    let mut rng = Rng::new(seed);
    let mut memory = vec![0u64; 64];
    let mut shown: Option<u64> = None;
    for _ in 0..4000 {
        if let Some(value) = shown {
            rtl.expect(|| "read_data".into(), read_data, value);
        }
        let reading = rng.chance(1, 2);
        let row = rng.below(64);
        let writing = rng.chance(1, 2);
        let mut target = rng.below(64);
        if reading && writing && target == row {
            target = (row + 1) % 64;
        }
        let value = rng.next_u64() & 0xffff_ffff;
        rtl.set(read_enable, reading as u64);
        rtl.set(read_address, row as u64);
        rtl.set(write[0], writing as u64);
        rtl.set(write[1], target as u64);
        rtl.set(write[2], value);
        if reading {
            shown = Some(memory[row]);
        }
        if writing {
            memory[target] = value;
        }
        rtl.tick(clock);
    }
}
