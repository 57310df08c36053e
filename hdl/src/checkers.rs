//! Simulation-only assertions: the checker primitives the blocks instantiate
//! (`docs/rust-hdl.md`, 21).
//!
//! rust-hdl cannot state an assertion, so a checker is a primitive with inputs only and Verilog
//! written by hand: its checks run at every rising edge of its `clock`, inside
//! `` `ifndef SYNTHESIS `` (synthesis sees nothing), and report with
//! `$error("<block>: <what>")` (a plain `if`, no SystemVerilog `assert`, so Icarus Verilog runs
//! them as Verilator does). The emitter writes a checker's text into its parent rather than as
//! a module of its own (`crate::emit`, inline checkers), so checks add no module. Four kinds:
//!
//! * [`AtMost`]: at most K bits of each group high (one-hot or zero with K = 1);
//! * [`EntryChecker`]: the entries of a queue or pool the design marks busy: none filled
//!   while full and not drained in the same cycle (overflow), none drained while empty
//!   (underflow);
//! * [`OccupancyChecker`]: a channel the design does not count: its pushes and pops keep the
//!   count within `0..=capacity`;
//! * [`CollisionChecker`]: an SRAM bank is not read at the row it writes in the same cycle
//!   (1W1R: the read data is undefined), nor, single-port, read and written in one cycle.
//!
//! Each message names the block and the instance's role and states the fact, not the cycle
//! (the simulator reports the time and the scope).

use rust_hdl::prelude::*;

use crate::emit::INLINE;
use crate::signals::signals;

/// A checker's Verilog: the inline marker, then `body` inside `` `ifndef SYNTHESIS ``.
fn guarded(body: &str) -> Verilog {
    Verilog::Custom(format!("{INLINE}\n`ifndef SYNTHESIS\n{body}`endif\n"))
}

/// `checks` (lines of `if (...) $error(...);`) run at every rising edge of `clock`; with no
/// checks, a wire that reads the clock (a name Verilator's lint leaves alone).
fn clocked(checks: &str) -> String {
    match checks.is_empty() {
        true => "wire unused_clock = clock;\n".to_string(),
        false => format!("always @(posedge clock) begin\n{checks}end\n"),
    }
}

/// `message` as a Verilog string, after checking that it holds exactly `counts` `%0d` and
/// nothing the emitter or a simulator would read otherwise (a quote, a backslash, a `$`).
fn quoted(message: &str, counts: usize) -> String {
    assert!(
        !message.contains(['"', '\\', '$']) && message.matches('%').count() == counts,
        "checker message {message:?}"
    );
    assert_eq!(message.matches("%0d").count(), counts, "{message:?}");
    format!("\"{message}\"")
}

/// At most `limit` bits of each group high, checked at every rising edge. A group is a list of
/// indices into `bits`, so the parent wires a vector in its own layout and names the groups in
/// it; groups may share bits. A group's message holds one `%0d`, the number of its bits high. A
/// group no larger than the limit cannot break it and is not checked; bits no check reads are
/// read by a wire named `unused_*`.
#[derive(LogicBlock)]
pub struct AtMost {
    /// Clock: the groups are checked at its rising edge.
    pub clock: Signal<In, Clock>,
    /// The bits, in the parent's layout.
    pub bits: Vec<Signal<In, Bit>>,
    /// Per group: the indices of its bits, and its message.
    _groups: Vec<(Vec<usize>, String)>,
    _limit: usize,
}

impl AtMost {
    /// At most `limit` bits high in each of `groups` (indices into `bits` bits, message with
    /// one `%0d`).
    pub fn new(
        limit: usize,
        bits: usize,
        groups: impl IntoIterator<Item = (Vec<usize>, String)>,
    ) -> Self {
        let groups: Vec<(Vec<usize>, String)> = groups.into_iter().collect();
        for (members, message) in &groups {
            quoted(message, 1);
            assert!(
                members.iter().all(|&i| i < bits),
                "{message}: a bit out of range"
            );
        }
        Self {
            clock: Signal::default(),
            bits: signals(bits),
            _groups: groups,
            _limit: limit,
        }
    }

    /// One bit at most of each group high: one-hot or zero.
    pub fn one_hot(bits: usize, groups: impl IntoIterator<Item = (Vec<usize>, String)>) -> Self {
        Self::new(1, bits, groups)
    }
}

impl Logic for AtMost {
    fn update(&mut self) {}

    fn connect(&mut self) {}

    fn hdl(&self) -> Verilog {
        let mut checks = String::new();
        let mut read = vec![false; self.bits.len()];
        for (members, message) in self._groups.iter().filter(|(m, _)| m.len() > self._limit) {
            let terms: Vec<String> = members
                .iter()
                .map(|i| format!("{{31'd0, bits${i}}}"))
                .collect();
            let high = terms.join(" + ");
            checks += &format!(
                "    if (({high}) > 32'd{limit}) $error({}, {high});\n",
                quoted(message, 1),
                limit = self._limit
            );
            for &i in members {
                read[i] = true;
            }
        }
        let unread: Vec<String> = (0..read.len())
            .filter(|&i| !read[i])
            .map(|i| format!("bits${i}"))
            .collect();
        let unused = match unread.len() {
            0 => String::new(),
            n => format!(
                "wire [{}:0] unused_bits = {{{}}};\n",
                n - 1,
                unread.join(", ")
            ),
        };
        guarded(&(unused + &clocked(&checks)))
    }
}

/// The entries of a queue or a pool whose occupancy the design keeps (a busy bit per entry),
/// checked at every rising edge while `enable` is high: an entry filled while busy and not
/// drained in the same cycle overflows; an entry drained while not busy underflows. The
/// messages are `"<entry> <overflow> (overflow)"` and `"<entry> <underflow> (underflow)"`.
#[derive(LogicBlock)]
pub struct EntryChecker {
    /// Clock: the entries are checked at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Check this cycle (low during reset, or where the queue is not built).
    pub enable: Signal<In, Bit>,
    /// Per entry: it holds something.
    pub busy: Vec<Signal<In, Bit>>,
    /// Per entry: it takes something at the edge.
    pub fill: Vec<Signal<In, Bit>>,
    /// Per entry: what it holds leaves at the edge.
    pub drain: Vec<Signal<In, Bit>>,
    /// Per entry: its name in the messages (`core: conflict queue entry 1`).
    _entries: Vec<String>,
    /// What an overflow is, after the entry's name (`taken while busy`).
    _overflow: String,
    /// What an underflow is, after the entry's name (`freed while free`).
    _underflow: String,
}

impl EntryChecker {
    /// The checks of `entries` (their names), an overflow and an underflow described as
    /// `overflow` and `underflow`.
    pub fn new(entries: impl IntoIterator<Item = String>, overflow: &str, underflow: &str) -> Self {
        let entries: Vec<String> = entries.into_iter().collect();
        let n = entries.len();
        Self {
            clock: Signal::default(),
            enable: Signal::default(),
            busy: signals(n),
            fill: signals(n),
            drain: signals(n),
            _entries: entries,
            _overflow: overflow.to_string(),
            _underflow: underflow.to_string(),
        }
    }
}

impl Logic for EntryChecker {
    fn update(&mut self) {}

    fn connect(&mut self) {}

    fn hdl(&self) -> Verilog {
        let checks: String = self
            ._entries
            .iter()
            .enumerate()
            .map(|(e, entry)| {
                let over = quoted(&format!("{entry} {} (overflow)", self._overflow), 0);
                let under = quoted(&format!("{entry} {} (underflow)", self._underflow), 0);
                format!(
                    "    if (enable && fill${e} && busy${e} && !drain${e}) $error({over});\n    \
                     if (enable && drain${e} && !busy${e}) $error({under});\n"
                )
            })
            .collect();
        let unused = match checks.is_empty() {
            true => "wire unused_enable = enable;\n",
            false => "",
        };
        guarded(&(unused.to_string() + &clocked(&checks)))
    }
}

/// A queue or channel whose occupancy the design does not keep as such (one L3 read
/// outstanding at most): the checker counts `push` and `pop` itself, from zero at power-up and
/// after `reset`, and reports a push while the count is at `capacity` without a pop
/// (overflow) and a pop while it is zero (underflow).
#[derive(LogicBlock)]
pub struct OccupancyChecker {
    /// Clock: pushes and pops count at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the count returns to zero, nothing is checked.
    pub reset: Signal<In, Bit>,
    /// Something enters this cycle.
    pub push: Signal<In, Bit>,
    /// Something leaves this cycle.
    pub pop: Signal<In, Bit>,
    /// The queue's name in the messages (`grf: L3 port reads`).
    _name: String,
    _capacity: usize,
    /// What an overflow is, after the name.
    _overflow: String,
    /// What an underflow is, after the name.
    _underflow: String,
}

impl OccupancyChecker {
    /// The count of queue `name`, at most `capacity`; an overflow and an underflow described
    /// as `overflow` and `underflow`.
    pub fn new(name: &str, capacity: usize, overflow: &str, underflow: &str) -> Self {
        Self {
            clock: Signal::default(),
            reset: Signal::default(),
            push: Signal::default(),
            pop: Signal::default(),
            _name: name.to_string(),
            _capacity: capacity,
            _overflow: overflow.to_string(),
            _underflow: underflow.to_string(),
        }
    }
}

impl Logic for OccupancyChecker {
    fn update(&mut self) {}

    fn connect(&mut self) {}

    fn hdl(&self) -> Verilog {
        let over = quoted(&format!("{} {} (overflow)", self._name, self._overflow), 0);
        let under = quoted(
            &format!("{} {} (underflow)", self._name, self._underflow),
            0,
        );
        let capacity = self._capacity;
        guarded(&format!(
            "reg [31:0] held;\ninitial held = 32'd0;\n{}",
            clocked(&format!(
                "    if (!reset && push && !pop && held >= 32'd{capacity}) $error({over});\n    \
                 if (!reset && pop && held == 32'd0) $error({under});\n    \
                 if (reset) held <= 32'd0;\n    \
                 else if (push && !pop && held < 32'd{capacity}) held <= held + 32'd1;\n    \
                 else if (pop && !push && held != 32'd0) held <= held - 32'd1;\n"
            ))
        ))
    }
}

/// The ports of SRAM banks, checked at every rising edge against the bank's contract
/// (`crate::sram::SramBank`): a 1W1R bank must not be read at the row it writes in the same
/// cycle (the read data is undefined); a single-port bank must not be asked to read and write
/// in one cycle (it writes, and the read is lost). Element `i` of every vector is bank port
/// `i`, named in the messages by `ports[i]`. `A` is the row-address width.
#[derive(LogicBlock)]
pub struct CollisionChecker<const A: usize> {
    /// Clock: the ports are checked at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Per port: the bank reads this cycle.
    pub read_enable: Vec<Signal<In, Bit>>,
    /// Per port: the row read.
    pub read_address: Vec<Signal<In, Bits<A>>>,
    /// Per port: the bank writes this cycle.
    pub write_enable: Vec<Signal<In, Bit>>,
    /// Per port: the row written.
    pub write_address: Vec<Signal<In, Bits<A>>>,
    /// Per port: its name in the messages (`gpr: bank 2 read port 0`).
    _ports: Vec<String>,
    /// The banks are single-port.
    _single_port: bool,
}

impl<const A: usize> CollisionChecker<A> {
    /// The checks of `ports` (their names) of 1W1R banks, or single-port ones.
    pub fn new(ports: impl IntoIterator<Item = String>, single_port: bool) -> Self {
        let ports: Vec<String> = ports.into_iter().collect();
        let n = ports.len();
        Self {
            clock: Signal::default(),
            read_enable: signals(n),
            read_address: signals(n),
            write_enable: signals(n),
            write_address: signals(n),
            _ports: ports,
            _single_port: single_port,
        }
    }

    /// The check of port `i`, named `port`.
    fn check(&self, i: usize, port: &str) -> String {
        match self._single_port {
            false => format!(
                "    if (read_enable${i} && write_enable${i} && read_address${i} == write_address${i}) \
                 $error({}, read_address${i});\n",
                quoted(
                    &format!("{port} reads row %0d while writing it (1W1R: the data is undefined)"),
                    1
                )
            ),
            true => format!(
                "    if (read_enable${i} && write_enable${i}) $error({});\n",
                quoted(
                    &format!("{port} reads and writes in one cycle (single-port: the read is lost)"),
                    0
                )
            ),
        }
    }
}

impl<const A: usize> Logic for CollisionChecker<A> {
    fn update(&mut self) {}

    fn connect(&mut self) {}

    fn hdl(&self) -> Verilog {
        let checks: String = (self._ports.iter().enumerate())
            .map(|(i, port)| self.check(i, port))
            .collect();
        // Single-port: the rows do not matter, only that both are asked for.
        let unused: String = match self._single_port {
            false => String::new(),
            true => (0..self._ports.len())
                .map(|i| {
                    format!(
                        "wire [{}:0] unused_rows_{i} = {{read_address${i}, write_address${i}}};\n",
                        2 * A - 1
                    )
                })
                .collect(),
        };
        guarded(&(unused + &clocked(&checks)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::emit;

    /// A block that holds checkers of every kind but one, wired to its inputs.
    #[derive(LogicBlock)]
    struct Holder {
        clock: Signal<In, Clock>,
        bits: Vec<Signal<In, Bit>>,
        row: Signal<In, Bits<3>>,
        check: AtMost,
        queue: OccupancyChecker,
        banks: CollisionChecker<3>,
    }

    impl Logic for Holder {
        #[hdl_gen]
        fn update(&mut self) {
            self.check.clock.next = self.clock.val();
            self.queue.clock.next = self.clock.val();
            self.banks.clock.next = self.clock.val();
            for i in 0..3 {
                self.check.bits[i].next = self.bits[i].val();
            }
            self.queue.reset.next = self.bits[0].val();
            self.queue.push.next = self.bits[1].val();
            self.queue.pop.next = self.bits[2].val();
            self.banks.read_enable[0].next = self.bits[0].val();
            self.banks.write_enable[0].next = self.bits[1].val();
            self.banks.read_address[0].next = self.row.val();
            self.banks.write_address[0].next = self.row.val();
        }
    }

    fn holder() -> Holder {
        Holder {
            clock: Signal::default(),
            bits: signals(3),
            row: Signal::default(),
            // Bit 2 is in no group larger than the limit.
            check: AtMost::one_hot(
                3,
                [
                    (vec![0, 1], "t: pair has %0d".to_string()),
                    (vec![2], "t: lone has %0d".to_string()),
                ],
            ),
            queue: OccupancyChecker::new("t: queue", 2, "too full", "too empty"),
            banks: CollisionChecker::new(["t: bank".to_string()], false),
        }
    }

    #[test]
    fn checkers_are_written_into_their_parent_with_its_names() {
        let emitted = emit(&mut holder(), "h", &[]).unwrap();
        let text = &emitted.verilog;
        // The packed top and the holder only: no module for the checkers.
        assert_eq!(emitted.modules, 2, "{text}");
        assert_eq!(text.matches("`ifndef SYNTHESIS").count(), 3, "{text}");
        assert!(
            text.contains("always @(posedge check__clock) begin"),
            "{text}"
        );
        assert!(text.contains(
            "if (({31'd0, check__bits__0} + {31'd0, check__bits__1}) > 32'd1) \
             $error(\"t: pair has %0d\""
        ));
        assert!(!text.contains("lone"), "{text}");
        assert!(text.contains("wire [0:0] unused_check__bits = {check__bits__2};"));
        assert!(text.contains("reg [31:0] queue__held;"), "{text}");
        assert!(text.contains("initial queue__held = 32'd0;"), "{text}");
        assert!(text.contains(
            "if (!queue__reset && queue__push && !queue__pop && queue__held >= 32'd2) \
             $error(\"t: queue too full (overflow)\");"
        ));
        assert!(text.contains("banks__read_address__0 == banks__write_address__0"));
    }

    #[test]
    #[should_panic(expected = "checker message")]
    fn a_message_the_emitter_could_not_pass_is_refused() {
        AtMost::one_hot(2, [(vec![0, 1], "t: \"%0d\"".to_string())]);
    }
}
