//! The simulation-only assertions (`hdl/src/checkers.rs`; `docs/rust-hdl.md`, 21), each shown
//! able to fire, under Icarus Verilog (`iverilog -g2012`, as `alloc_quality.rs` runs the
//! allocation checker):
//!
//! - every check of every checker part of every design that has them (`Design::parts`, the
//!   parts named `*_check`), driven alone with inputs that break it, which must print its
//!   message and nothing else, and with the same inputs made legal, which must print nothing;
//! - where a stimulus can break a real block (the GPR the core's scheduler drives, which trusts
//!   its requester; the GRF's pick stage and slow port, driven as the controller never does),
//!   that block, which must print the message of its own checker;
//! - every design's Verilog holds the checks of its checker parts, each inside
//!   `` `ifndef SYNTHESIS ``.
//!
//! Needs `iverilog` and `vvp`.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::process::Command;

use grfgen_hdl::alloc::Alloc;
use grfgen_hdl::cluster::Cluster;
use grfgen_hdl::core::Core;
use grfgen_hdl::design::{emit_design, Design};
use grfgen_hdl::emit::{Emitted, Port, PortDirection};
use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::grf::Grf;
use grfgen_hdl::params::{
    AllocParams, BankKind, ClusterParams, CoreParams, GprParams, GrfParams, Params,
};

/// One rising edge of a bench: the input elements set before it (every other input is zero)
/// and the messages it must print, `%0d` already filled in.
#[derive(Clone, Debug, Default)]
struct Step {
    /// (port, element, value).
    inputs: Vec<(String, usize, u64)>,
    /// The messages expected, in any order; none for a legal step.
    expect: Vec<String>,
}

impl Step {
    /// A step with `inputs` that must print `expect`.
    fn new(inputs: &[(&str, usize, u64)], expect: &[String]) -> Self {
        Self {
            inputs: inputs
                .iter()
                .map(|&(p, e, v)| (p.to_string(), e, v))
                .collect(),
            expect: expect.to_vec(),
        }
    }
}

/// `port`'s value in `step` as a Verilog literal.
fn literal(port: &Port, step: &Step) -> String {
    let mut bits = vec![false; port.width];
    let width = port.element_width();
    for (_, element, value) in step.inputs.iter().filter(|(p, ..)| *p == port.name) {
        assert!(
            *element < port.elements.unwrap_or(1),
            "{} {element}",
            port.name
        );
        for b in 0..width.min(64) {
            bits[element * width + b] = (value >> b) & 1 == 1;
        }
    }
    let text: String = bits
        .iter()
        .rev()
        .map(|&b| if b { '1' } else { '0' })
        .collect();
    format!("{}'b{text}", port.width)
}

/// A bench that drives `part` (an emitted design or part with a `clock` input) through
/// `steps`, printing `step <i>` before each rising edge.
fn bench(part: &Emitted, steps: &[Step]) -> String {
    let mut text = String::from("module tb;\n  reg clock = 0;\n");
    let others: Vec<&Port> = part.ports.iter().filter(|p| p.name != "clock").collect();
    for port in &others {
        let kind = match port.direction {
            PortDirection::Input => "reg",
            PortDirection::Output => "wire",
        };
        writeln!(text, "  {kind} [{}:0] {};", port.width - 1, port.name).unwrap();
    }
    let connections: Vec<String> = part
        .ports
        .iter()
        .map(|p| format!(".{0}({0})", p.name))
        .collect();
    writeln!(text, "  {} dut({});", part.top, connections.join(", ")).unwrap();
    text.push_str("  initial begin\n");
    for (i, step) in steps.iter().enumerate() {
        for port in others
            .iter()
            .filter(|p| p.direction == PortDirection::Input)
        {
            writeln!(text, "    {} = {};", port.name, literal(port, step)).unwrap();
        }
        writeln!(
            text,
            "    #1 $display(\"step {i}\"); clock = 1; #1 clock = 0;"
        )
        .unwrap();
    }
    text.push_str("    #1 $display(\"end\"); $finish;\n  end\nendmodule\n");
    text
}

/// Runs `steps` on `part` under Icarus Verilog and checks that each step printed exactly the
/// messages it expects; `what` names the run in failures.
fn run(what: &str, part: &Emitted, steps: &[Step]) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("part.v"), &part.verilog).unwrap();
    std::fs::write(dir.path().join("tb.v"), bench(part, steps)).unwrap();
    let compiled = Command::new("iverilog")
        .args(["-g2012", "-o", "sim", "tb.v", "part.v"])
        .current_dir(dir.path())
        .output()
        .expect("iverilog runs");
    let stderr = String::from_utf8_lossy(&compiled.stderr);
    assert!(compiled.status.success(), "{what}: {stderr}");
    let ran = Command::new("vvp")
        .args(["-n", "sim"])
        .current_dir(dir.path())
        .output()
        .expect("vvp runs");
    let printed = String::from_utf8_lossy(&ran.stdout).to_string();
    let mut seen: Vec<Vec<String>> = vec![Vec::new(); steps.len()];
    let mut step = None;
    for line in printed.lines() {
        if let Some(i) = line.strip_prefix("step ") {
            step = Some(i.parse::<usize>().unwrap());
        } else if let Some(error) = line.strip_prefix("ERROR: ") {
            let message = error.split_once(": ").map_or(error, |(_, m)| m);
            let i = step.unwrap_or_else(|| panic!("{what}: {line} before the first edge"));
            seen[i].push(message.to_string());
        }
    }
    assert!(
        printed.contains("\nend"),
        "{what}: the bench did not finish:\n{printed}"
    );
    for (i, (step, seen)) in steps.iter().zip(&seen).enumerate() {
        let expected: BTreeSet<&String> = step.expect.iter().collect();
        let got: BTreeSet<&String> = seen.iter().collect();
        assert_eq!(got, expected, "{what}, step {i} ({:?})", step.inputs);
        assert_eq!(seen.len(), expected.len(), "{what}, step {i}: {seen:?}");
    }
}

/// One check of a checker's Verilog: the condition of its `if` and the message of its
/// `$error`.
struct Check {
    condition: String,
    message: String,
}

/// The checks of `verilog`: its `if (<condition>) $error("<message>"...);` lines.
fn checks(verilog: &str) -> Vec<Check> {
    verilog
        .lines()
        .filter_map(|line| {
            let (head, tail) = line.split_once(") $error(\"")?;
            Some(Check {
                condition: head.split_once("if (")?.1.to_string(),
                message: tail.split('"').next()?.to_string(),
            })
        })
        .collect()
}

/// The numbers `<prefix><n>` names in `text`, in order.
fn indices(text: &str, prefix: &str) -> Vec<usize> {
    text.split(prefix)
        .skip(1)
        .map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().unwrap()
        })
        .collect()
}

/// The number after `marker` in `text`.
fn number_after(text: &str, marker: &str) -> usize {
    indices(text, marker)[0]
}

/// An at-most checker: per check, its first `limit + 1` bits high (it fires, with every other
/// check those bits break), then its first `limit` bits high (nothing fires).
fn at_most_steps(checks: &[Check]) -> Vec<Step> {
    let groups: Vec<(Vec<usize>, usize, &str)> = checks
        .iter()
        .map(|c| {
            let (sum, limit) = c.condition.rsplit_once(" > 32'd").unwrap();
            (
                indices(sum, "bits__"),
                limit.trim_end_matches(')').parse().unwrap(),
                c.message.as_str(),
            )
        })
        .collect();
    let mut steps = Vec::new();
    for (members, limit, _) in &groups {
        for high in [*limit + 1, *limit] {
            let set: Vec<usize> = members[..high].to_vec();
            let expect: Vec<String> = groups
                .iter()
                .filter_map(|(m, l, message)| {
                    let count = m.iter().filter(|b| set.contains(b)).count();
                    (count > *l).then(|| message.replace("%0d", &count.to_string()))
                })
                .collect();
            let inputs: Vec<(&str, usize, u64)> = set.iter().map(|&b| ("bits", b, 1)).collect();
            steps.push(Step::new(&inputs, &expect));
        }
    }
    steps
}

/// An entry checker: per entry, an overflow (filled while busy), the same drained in the same
/// cycle (legal), the same with checks disabled (quiet), an underflow (drained while not
/// busy) and a drain of a busy entry (legal).
fn entry_steps(checks: &[Check]) -> Vec<Step> {
    let message = |e: usize, fill: bool| {
        let name = if fill { "fill__" } else { "drain__" };
        checks
            .iter()
            .find(|c| c.condition.contains("fill__") == fill && indices(&c.condition, name)[0] == e)
            .map(|c| c.message.clone())
            .unwrap()
    };
    let entries = checks.len() / 2;
    let mut steps = Vec::new();
    for e in 0..entries {
        let (over, under) = (vec![message(e, true)], vec![message(e, false)]);
        let (enable, busy) = (("enable", 0, 1), ("busy", e, 1));
        let (fill, drain) = (("fill", e, 1), ("drain", e, 1));
        steps.push(Step::new(&[enable, busy, fill], &over));
        steps.push(Step::new(&[enable, busy, fill, drain], &[]));
        steps.push(Step::new(&[busy, fill], &[]));
        steps.push(Step::new(&[enable, drain], &under));
        steps.push(Step::new(&[enable, busy, drain], &[]));
    }
    steps
}

/// A collision checker: per bank port, a read and a write of row 1 (it fires, 1W1R) or a read
/// and a write (single-port), then rows 1 and 2 (legal, 1W1R) or the read alone (legal).
fn collision_steps(checks: &[Check]) -> Vec<Step> {
    let mut steps = Vec::new();
    for check in checks {
        let i = indices(&check.condition, "read_enable__")[0];
        let both = [("read_enable", i, 1), ("write_enable", i, 1)];
        if check.condition.contains("read_address") {
            let rows = [("read_address", i, 1), ("write_address", i, 1)];
            let fired = check.message.replace("%0d", "1");
            steps.push(Step::new(&[both[0], both[1], rows[0], rows[1]], &[fired]));
            steps.push(Step::new(
                &[both[0], both[1], rows[0], ("write_address", i, 2)],
                &[],
            ));
        } else {
            steps.push(Step::new(&both, std::slice::from_ref(&check.message)));
            steps.push(Step::new(&both[..1], &[]));
        }
    }
    steps
}

/// An occupancy checker of capacity `c`: reset, `c` pushes (legal), one more (overflow),
/// a push and a pop together (legal), `c` pops (legal), one more (underflow), a push then
/// a pop (legal).
fn occupancy_steps(checks: &[Check]) -> Vec<Step> {
    let over = checks
        .iter()
        .find(|c| c.condition.contains("push && !pop"))
        .unwrap();
    let under = checks
        .iter()
        .find(|c| c.condition.contains("held == 32'd0"))
        .unwrap();
    let capacity = number_after(&over.condition, "held >= 32'd");
    let (push, pop) = (("push", 0, 1), ("pop", 0, 1));
    let mut steps = vec![Step::new(&[("reset", 0, 1), push], &[])];
    steps.extend((0..capacity).map(|_| Step::new(&[push], &[])));
    steps.push(Step::new(&[push], std::slice::from_ref(&over.message)));
    steps.push(Step::new(&[push, pop], &[]));
    steps.extend((0..capacity).map(|_| Step::new(&[pop], &[])));
    steps.push(Step::new(&[pop], std::slice::from_ref(&under.message)));
    steps.push(Step::new(&[push], &[]));
    steps.push(Step::new(&[pop], &[]));
    steps
}

/// Every checker part of design `D` for `params` (the parts named `*_check`), each run alone
/// with every check broken and made legal; returns the parts' names.
fn every_check_fires<D: Design>(params: &D::Params) -> Vec<String> {
    params.validate().unwrap();
    let parts = D::parts(params).unwrap();
    let mut names = Vec::new();
    for part in parts.iter().filter(|p| p.top.ends_with("_check")) {
        let found = checks(&part.verilog);
        let has = |name: &str| part.ports.iter().any(|p| p.name == name);
        let steps = match () {
            _ if has("bits") => at_most_steps(&found),
            _ if has("busy") => entry_steps(&found),
            _ if has("read_enable") => collision_steps(&found),
            _ if has("push") => occupancy_steps(&found),
            _ => panic!("{}: not a checker this test knows", part.top),
        };
        // One breaking step per check.
        let breaking = steps.iter().filter(|s| !s.expect.is_empty()).count();
        assert!(!found.is_empty() && breaking == found.len(), "{}", part.top);
        run(&part.top, part, &steps);
        names.push(part.top.clone());
    }
    names
}

/// The part named `top` of design `D` for `params`.
fn part<D: Design>(params: &D::Params, top: &str) -> Emitted {
    D::parts(params)
        .unwrap()
        .into_iter()
        .find(|p| p.top == top)
        .unwrap_or_else(|| panic!("no part {top}"))
}

/// A small GPR: 2 banks of 8 rows, one lane.
fn gpr(bank_kind: BankKind, read_ports: usize, write_ports: usize) -> GprParams {
    GprParams {
        banks: 2,
        registers: 16,
        lanes: 1,
        read_ports,
        write_ports,
        bank_kind,
        ..GprParams::default()
    }
}

/// The default GRF with 3 EUs and `pipeline`.
fn grf(pipeline: usize) -> GrfParams {
    GrfParams {
        eus: 3,
        pipeline,
        ..GrfParams::default()
    }
}

/// A clustered file with 3 clusters sharing 3 read and 2 write ports.
fn cluster() -> ClusterParams {
    ClusterParams {
        clusters: 3,
        main_read_ports: 3,
        main_write_ports: 2,
        ..ClusterParams::default()
    }
}

/// A pool of 4 granules and 2 wave slots.
fn alloc() -> AllocParams {
    AllocParams {
        pool: 16,
        granularity: 4,
        wave_slots: 2,
    }
}

#[test]
fn every_gpr_check_fires_alone_and_not_when_legal() {
    for kind in [
        BankKind::OneReadOneWrite,
        BankKind::TwoReadsOneWrite,
        BankKind::SinglePort,
    ] {
        let names = every_check_fires::<Gpr>(&gpr(kind, 3, 2));
        assert_eq!(names.len(), 4, "{kind:?}: {names:?}");
    }
}

#[test]
fn every_core_check_fires_alone_and_not_when_legal() {
    let params = CoreParams {
        cq_entries: 2,
        pq_entries: 3,
        ..CoreParams::default()
    };
    let names = every_check_fires::<Core>(&params);
    assert!(
        names.contains(&"core_conflict_queue_check".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"core_prefetch_queue_check".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"gpr_collision_check".to_string()),
        "{names:?}"
    );
}

#[test]
fn every_grf_check_fires_alone_and_not_when_legal() {
    let names = every_check_fires::<Grf>(&grf(1));
    assert_eq!(names.len(), 7, "{names:?}");
}

#[test]
fn every_cluster_and_alloc_check_fires_alone_and_not_when_legal() {
    assert_eq!(every_check_fires::<Cluster>(&cluster()).len(), 2);
    assert_eq!(every_check_fires::<Alloc>(&alloc()), ["alloc_pool_check"]);
}

/// The core's GPR has no read arbitration: it trusts the scheduler never to read one bank
/// twice in a cycle, nor a register being written. Asked to, it breaks its checks.
#[test]
fn the_cores_gpr_reports_a_requester_that_breaks_its_promise() {
    // Without the GPR's stages, so that each check fires in the cycle of its requests.
    let params = CoreParams::document();
    let gpr = part::<Core>(&params, "core_gpr");
    let read = |port: usize, reg: u64| [("read_valid", port, 1), ("read_reg", port, reg)];
    let write = |reg: u64| [("write_valid", 0, 1), ("write_reg", 0, reg)];
    let twice = "gpr: bank 0 read port 0 granted 2 reads".to_string();
    let collide =
        "gpr: bank 1 read port 0 reads row 1 while writing it (1W1R: the data is undefined)";
    let steps = [
        // R0 and R4 are both in bank 0; R0 and R1 are not.
        Step::new(&[read(0, 0), read(1, 4)].concat(), &[twice]),
        Step::new(&[read(0, 0), read(1, 1)].concat(), &[]),
        // R5 read while written; then R5 read while R9 (bank 1, row 2) is written.
        Step::new(&[read(0, 5), write(5)].concat(), &[collide.to_string()]),
        Step::new(&[read(0, 5), write(9)].concat(), &[]),
    ];
    run("core_gpr", &gpr, &steps);
}

/// The pick stage holds one transaction until the controller takes it; the arbiter picks only
/// when it is empty or being taken. Picking into a full stage the controller does not take
/// from would drop a transaction.
#[test]
fn the_grf_pick_stage_reports_a_pick_into_a_full_stage() {
    let stage = part::<Grf>(&grf(1), "grf_pick_stage");
    let overflow =
        "grf: pick stage loaded while holding a transaction not taken (overflow)".to_string();
    // The arbiter picks only when the stage may load (`load`).
    let (pick, load) = (("picked", 0, 1), ("load", 0, 1));
    let steps = [
        Step::new(&[("reset", 0, 1)], &[]),
        Step::new(&[pick, load], &[]),
        Step::new(&[pick, load, ("avail", 0, 1)], &[]),
        Step::new(&[pick, load], &[overflow]),
    ];
    run("grf_pick_stage", &stage, &steps);
}

/// The pick stage's fields load only when it may load, so a pick without `load` would be
/// lost: the stage says so.
#[test]
fn the_grf_pick_stage_reports_a_pick_it_may_not_load() {
    let stage = part::<Grf>(&grf(1), "grf_pick_stage");
    let lost = "grf: pick stage picked while it may not load (2 of a pick and no load)".to_string();
    let steps = [
        Step::new(&[("reset", 0, 1)], &[]),
        Step::new(&[("load", 0, 1)], &[]),
        Step::new(&[("picked", 0, 1)], &[lost]),
    ];
    run("grf_pick_stage", &stage, &steps);
}

/// The slow port keeps one L3 read outstanding: a second redirected read before the first is
/// answered, or an answer nobody asked for, breaks its count.
#[test]
fn the_grf_slow_port_reports_l3_reads_beyond_one_outstanding() {
    let port = part::<Grf>(&grf(0), "grf_slow_port");
    let over = "grf: L3 reads issued while one is outstanding (overflow)".to_string();
    let under = "grf: L3 reads answered while none is outstanding (underflow)".to_string();
    let (redirect, answer) = (("redirect_read", 0, 1), ("l3_rvalid", 0, 1));
    let steps = [
        Step::new(&[("reset", 0, 1)], &[]),
        Step::new(&[redirect], &[]),
        Step::new(&[answer], &[]),
        Step::new(&[answer], &[under]),
        Step::new(&[redirect], &[]),
        Step::new(&[redirect], &[over]),
    ];
    run("grf_slow_port", &port, &steps);
}

/// Every design with checkers holds, in its own Verilog, the checks of its checker parts, and
/// every `$error` of it sits between `` `ifndef SYNTHESIS `` and `` `endif ``.
#[test]
fn every_design_holds_its_checks_hidden_from_synthesis() {
    fn holds<D: Design>(params: &D::Params) {
        let top = D::top(params);
        let design = emit_design::<D>(params, &top).unwrap();
        let parts = D::parts(params).unwrap();
        let mut expected = 0;
        for part in parts.iter().filter(|p| p.top.ends_with("_check")) {
            for check in checks(&part.verilog) {
                let text = format!("$error(\"{}\"", check.message);
                assert!(design.verilog.contains(&text), "{top}: {text}");
                expected += 1;
            }
        }
        let mut hidden = false;
        let mut errors = 0;
        for line in design.verilog.lines().map(str::trim) {
            hidden = match line {
                "`ifndef SYNTHESIS" => true,
                "`endif" => false,
                _ => hidden,
            };
            if line.contains("$error(") {
                assert!(hidden, "{top}: {line}");
                errors += 1;
            }
        }
        assert!(
            errors >= expected && expected > 0,
            "{top}: {errors} of {expected}"
        );
    }
    holds::<Gpr>(&gpr(BankKind::TwoReadsOneWrite, 3, 2));
    holds::<Core>(&CoreParams::default());
    holds::<Grf>(&grf(1));
    holds::<Cluster>(&cluster());
    holds::<Alloc>(&alloc());
}
