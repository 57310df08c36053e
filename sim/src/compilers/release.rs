//! The compiler's side of GPR release (SPEC S5): liveness, packing each path's registers from
//! r0 upward, the register need of every path, what is allocated, what a draw's uniforms
//! need, and what can be released.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::alloc::shader::{Instr, Shader, Src, Stmt};

/// Physical registers of every instruction of a shader, by instruction id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assignment {
    /// Per instruction: its destination's physical register.
    pub dst: Vec<Option<usize>>,
    /// Per instruction: each source's physical register (none for immediates and `wave`).
    pub src: Vec<Vec<Option<usize>>>,
}

/// One path through the main shader: a choice at every branch it meets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Path {
    /// The branches met, in order, with the side taken (`true`: the `if` side).
    pub choices: Vec<(usize, bool)>,
    /// The instructions executed, by id, in order.
    #[serde(skip)]
    pub instructions: Vec<usize>,
    /// Registers live at once at its busiest point: what it needs once packed.
    pub live: usize,
    /// Registers a wave running it touches: its highest physical register plus one.
    pub need: usize,
}

/// Why a shader cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadBeforeWrite {
    /// The register read.
    pub register: usize,
    /// The instruction reading it.
    pub instruction: usize,
}

/// Registers live after each instruction (by id), and at the end of each branch (by branch).
struct Liveness {
    after: BTreeMap<usize, BTreeSet<usize>>,
    after_if: BTreeMap<usize, BTreeSet<usize>>,
}

/// Registers an instruction reads.
fn reads(instr: &Instr) -> impl Iterator<Item = usize> + '_ {
    instr.src.iter().filter_map(|s| match s {
        Src::Reg(r) => Some(*r),
        _ => None,
    })
}

/// Fills `live` for `block`, given the registers live after it; returns those live before.
fn liveness(block: &[Stmt], mut live: BTreeSet<usize>, out: &mut Liveness) -> BTreeSet<usize> {
    for stmt in block.iter().rev() {
        match stmt {
            Stmt::Instr(i) => {
                out.after.insert(i.id, live.clone());
                if let Some(d) = i.dst {
                    live.remove(&d);
                }
                live.extend(reads(i));
            }
            Stmt::If(id, _, then, other) => {
                out.after_if.insert(*id, live.clone());
                let a = liveness(then, live.clone(), out);
                let b = liveness(other, live, out);
                live = a.union(&b).copied().collect();
            }
        }
    }
    live
}

/// The packing walk: the registers mapped now, those pinned by enclosing branches.
struct Packer<'a> {
    live: &'a Liveness,
    map: BTreeMap<usize, usize>,
    pinned: BTreeSet<usize>,
    out: Assignment,
}

impl Packer<'_> {
    /// The lowest physical register nothing holds.
    fn lowest_free(&self) -> usize {
        let used: BTreeSet<usize> = self.map.values().copied().collect();
        (0..).find(|r| !used.contains(r)).expect("a free register")
    }

    fn instr(&mut self, i: &Instr) -> Result<(), ReadBeforeWrite> {
        let after = &self.live.after[&i.id];
        for (k, s) in i.src.iter().enumerate() {
            if let Src::Reg(r) = s {
                let phys = self.map.get(r).copied().ok_or(ReadBeforeWrite {
                    register: *r,
                    instruction: i.id,
                })?;
                self.out.src[i.id][k] = Some(phys);
            }
        }
        // A value read for the last time frees its register for the destination.
        for r in reads(i) {
            if !after.contains(&r) && !self.pinned.contains(&r) && Some(r) != i.dst {
                self.map.remove(&r);
            }
        }
        if let Some(d) = i.dst {
            let phys = match self.map.get(&d) {
                Some(&p) => p,
                None => self.lowest_free(),
            };
            self.map.insert(d, phys);
            self.out.dst[i.id] = Some(phys);
            if !after.contains(&d) && !self.pinned.contains(&d) {
                self.map.remove(&d);
            }
        }
        Ok(())
    }

    fn block(&mut self, block: &[Stmt]) -> Result<(), ReadBeforeWrite> {
        for stmt in block {
            match stmt {
                Stmt::Instr(i) => self.instr(i)?,
                Stmt::If(id, _, then, other) => {
                    // Values live after the branch keep one register on both sides: those
                    // first written inside it get theirs now.
                    let live_out = &self.live.after_if[id];
                    let mut written = BTreeSet::new();
                    visit(then, &mut |i| written.extend(i.dst));
                    visit(other, &mut |i| written.extend(i.dst));
                    for &r in live_out.intersection(&written) {
                        if !self.map.contains_key(&r) {
                            let phys = self.lowest_free();
                            self.map.insert(r, phys);
                        }
                    }
                    let (map, pinned) = (self.map.clone(), self.pinned.clone());
                    self.pinned.extend(live_out.iter().copied());
                    self.block(then)?;
                    self.map = map.clone();
                    self.block(other)?;
                    // What lives on: the branch's live-out, and what enclosing branches pin.
                    self.map = map;
                    self.map
                        .retain(|r, _| live_out.contains(r) || pinned.contains(r));
                    self.pinned = pinned;
                }
            }
        }
        Ok(())
    }
}

/// Every instruction of `shader` with registers packed from r0: each value takes the lowest
/// register free when it is written, a register frees at its value's last read, and a value
/// live after a branch gets its register before the branch, the same on both sides.
pub fn pack(shader: &Shader) -> Result<Assignment, ReadBeforeWrite> {
    let mut live = Liveness {
        after: BTreeMap::new(),
        after_if: BTreeMap::new(),
    };
    liveness(&shader.main, BTreeSet::new(), &mut live);
    let mut packer = Packer {
        live: &live,
        map: BTreeMap::new(),
        pinned: BTreeSet::new(),
        out: empty(shader),
    };
    packer.block(&shader.main)?;
    Ok(packer.out)
}

/// Every instruction of `shader` with the registers as written (`r<N>` is register N).
pub fn as_written(shader: &Shader) -> Assignment {
    let mut out = empty(shader);
    visit(&shader.main, &mut |i| {
        out.dst[i.id] = i.dst;
        out.src[i.id] = i
            .src
            .iter()
            .map(|s| match s {
                Src::Reg(r) => Some(*r),
                _ => None,
            })
            .collect();
    });
    out
}

/// No registers yet for any instruction of `shader`.
fn empty(shader: &Shader) -> Assignment {
    let mut out = Assignment {
        dst: vec![None; shader.instructions],
        src: vec![Vec::new(); shader.instructions],
    };
    for i in &shader.preamble {
        out.src[i.id] = vec![None; i.src.len()];
    }
    visit(&shader.main, &mut |i| {
        out.src[i.id] = vec![None; i.src.len()]
    });
    out
}

/// Calls `f` on every instruction of `block`, in text order.
pub fn visit<'a>(block: &'a [Stmt], f: &mut impl FnMut(&'a Instr)) {
    for stmt in block {
        match stmt {
            Stmt::Instr(i) => f(i),
            Stmt::If(_, _, then, other) => {
                visit(then, f);
                visit(other, f);
            }
        }
    }
}

/// Registers live at once at the busiest point of straight-line `code`: before each
/// instruction, and across it (what stays live plus its destination).
fn max_live(code: &[&Instr]) -> usize {
    let mut live = BTreeSet::new();
    let mut most = 0;
    for i in code.iter().rev() {
        let across = live.len() + usize::from(i.dst.is_some_and(|d| !live.contains(&d)));
        if let Some(d) = i.dst {
            live.remove(&d);
        }
        live.extend(reads(i));
        most = most.max(across).max(live.len());
    }
    most
}

/// The shader's main instructions by id.
fn by_id(shader: &Shader) -> Vec<Option<&Instr>> {
    let mut by_id = vec![None; shader.instructions];
    visit(&shader.main, &mut |i| by_id[i.id] = Some(i));
    by_id
}

/// Every path through the main shader (one per combination of sides at the branches met),
/// with its registers live at once and its need under `regs`.
pub fn paths(shader: &Shader, regs: &Assignment) -> Vec<Path> {
    let block = &shader.main;
    let by_id = by_id(shader);
    let mut paths = vec![Path {
        choices: Vec::new(),
        instructions: Vec::new(),
        live: 0,
        need: 0,
    }];
    extend(block, &mut paths);
    for path in &mut paths {
        let code: Vec<&Instr> = path.instructions.iter().filter_map(|&i| by_id[i]).collect();
        path.live = max_live(&code);
        path.need = path
            .instructions
            .iter()
            .flat_map(|&i| regs.dst[i].iter().chain(regs.src[i].iter().flatten()))
            .map(|r| r + 1)
            .max()
            .unwrap_or(0);
    }
    paths
}

/// Extends every path in `paths` through `block`.
fn extend(block: &[Stmt], paths: &mut Vec<Path>) {
    for stmt in block {
        match stmt {
            Stmt::Instr(i) => paths.iter_mut().for_each(|p| p.instructions.push(i.id)),
            Stmt::If(id, _, then, other) => {
                let mut taken = paths.clone();
                taken.iter_mut().for_each(|p| p.choices.push((*id, true)));
                extend(then, &mut taken);
                paths.iter_mut().for_each(|p| p.choices.push((*id, false)));
                extend(other, paths);
                paths.splice(0..0, taken);
            }
        }
    }
}

/// The first register some path reads before any write on it.
pub fn check_defined(shader: &Shader, paths: &[Path]) -> Result<(), ReadBeforeWrite> {
    let by_id = by_id(shader);
    for path in paths {
        let mut written = BTreeSet::new();
        for i in path.instructions.iter().filter_map(|&id| by_id[id]) {
            if let Some(register) = reads(i).find(|r| !written.contains(r)) {
                return Err(ReadBeforeWrite {
                    register,
                    instruction: i.id,
                });
            }
            written.extend(i.dst);
        }
    }
    Ok(())
}

/// The path the uniforms' `values` select.
pub fn selected(block: &[Stmt], values: &[u32]) -> Vec<(usize, bool)> {
    let mut choices = Vec::new();
    select(block, values, &mut choices);
    choices
}

fn select(block: &[Stmt], values: &[u32], choices: &mut Vec<(usize, bool)>) {
    for stmt in block {
        if let Stmt::If(id, cond, then, other) = stmt {
            let taken = cond.holds(values);
            choices.push((*id, taken));
            select(if taken { then } else { other }, values, choices);
        }
    }
}

/// What the compiler and the release mechanism find for one draw.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// Every path with its need.
    pub paths: Vec<Path>,
    /// GPRs allocated at compile time: the most any path needs.
    pub allocated: usize,
    /// GPRs the release finds the draw's path needs: the registers it touches when packed,
    /// the registers live at once when not (which is unsafe: `docs/alloc.md`, "The compiler's analysis": packing).
    pub needed: usize,
    /// `allocated - needed`: what the release gives back per wave.
    pub released: usize,
    /// The selected path's index in `paths`.
    #[serde(skip)]
    pub selected: usize,
}

/// The analysis of `shader` under `regs` (packed or as written) for the uniforms' `values`.
pub fn analyse(shader: &Shader, regs: &Assignment, packed: bool, values: &[u32]) -> Analysis {
    let paths = paths(shader, regs);
    let choices = selected(&shader.main, values);
    let selected = paths
        .iter()
        .position(|p| p.choices == choices)
        .expect("every choice of sides is a path");
    let allocated = paths.iter().map(|p| p.need).max().unwrap_or(0);
    let needed = match packed {
        true => paths[selected].need,
        false => paths[selected].live,
    };
    Analysis {
        paths,
        allocated,
        needed,
        released: allocated - needed,
        selected,
    }
}
