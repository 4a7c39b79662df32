//! Printing a finished solve: the headline, the per-step table and the totals, or one JSON
//! object.

use super::RunOptions;
use super::output::{say, say_raw};
use crate::counts::human;
use crate::record::peak_rss_bytes;
use crate::solved::Solution;
use crate::vocabulary::Outcome;
use anyhow::Result;
use std::path::PathBuf;

/// A finished solve with its timing.
pub struct SolveReport {
    /// The game's name.
    pub name: String,
    /// The solution.
    pub solution: Solution,
    /// Wall time of the solve in seconds.
    pub wall_s: f64,
    /// Where it was saved.
    pub saved: Option<PathBuf>,
    /// The checkpoint directory, if any, and how many of its steps the run read back.
    pub checkpoints: Option<(PathBuf, usize)>,
}

/// What a run says of its checkpoints: how many steps it reused, and that they are kept.
fn checkpoints_said(dir: &std::path::Path, reused: usize) -> String {
    let kept = "(the same command reuses them; remove the directory to solve again)";
    match reused {
        0 => format!("checkpoints: the finished steps are saved in {} and kept there {kept}", dir.display()),
        n => format!(
            "checkpoints: {n} finished step{} reused from {}; the checkpoints are kept there {kept}",
            if n == 1 { "" } else { "s" },
            dir.display()
        ),
    }
}

/// Who wins from the start with best play, as every solve's report names it.
pub(super) fn winner(start: Outcome) -> &'static str {
    match start {
        Outcome::Win { .. } => "first player (P1)",
        Outcome::Loss { .. } => "second player (P2)",
        Outcome::Draw => "nobody (draw)",
    }
}

/// The first line of every solve's report, the same for every game: who wins and the start's
/// value, e.g. `breakthrough 4x5: the second player (P2) wins; the start is a loss in 29
/// plies for the first player`.
pub(super) fn headline(name: &str, start: Outcome) -> String {
    match start {
        Outcome::Draw => format!("{name}: nobody wins, a draw with best play (neither player can force a win)"),
        _ => format!("{name}: the {} wins; the start is a {start} for the first player", winner(start)),
    }
}

/// Totals over the value classes of a solution.
struct Totals {
    /// Positions the solve valued: every position of the classes, or for a meet in the middle
    /// those reachable from the start.
    positions: Option<u128>,
    /// Positions the classes hold (a meet in the middle's include unreachable ones).
    in_sets: Option<u128>,
    bytes: usize,
    largest_states: usize,
    largest_bytes: usize,
}

fn totals(report: &SolveReport) -> Totals {
    let mut t = Totals { positions: Some(0), in_sets: Some(0), bytes: 0, largest_states: 0, largest_bytes: 0 };
    for c in &report.solution.classes {
        let n = c.set.checked_count();
        t.in_sets = t.in_sets.and_then(|p| n.and_then(|n| p.checked_add(n)));
        t.bytes += c.set.disk_bytes();
        // The solution's own sets count too: a run that read every class from files records
        // no steps.
        if c.set.nontrivial_state_count() > t.largest_states {
            t.largest_states = c.set.nontrivial_state_count();
            t.largest_bytes = c.set.disk_bytes();
        }
    }
    // A class stored as the rest of a domain: its positions are counted, its domain stored.
    for r in &report.solution.rest {
        t.in_sets = t.in_sets.zip(r.positions).and_then(|(p, n)| p.checked_add(n));
        t.bytes += r.domain.disk_bytes();
        if r.domain.nontrivial_state_count() > t.largest_states {
            t.largest_states = r.domain.nontrivial_state_count();
            t.largest_bytes = r.domain.disk_bytes();
        }
    }
    for r in &report.solution.records {
        if r.states > t.largest_states {
            t.largest_states = r.states;
            t.largest_bytes = r.bytes;
        }
    }
    t.positions = match report.solution.reachable_valued {
        Some(n) => (n != u128::MAX).then_some(n),
        None => t.in_sets,
    };
    // Saved as a directory, the large sets keep the checkpoints' layout (4 bytes an id):
    // the bytes are what the directory holds.
    if let Some(dir) = report.saved.as_deref().filter(|d| crate::solved::solution::is_solution_directory(d))
        && let Ok(entries) = std::fs::read_dir(dir)
    {
        t.bytes = entries.flatten().filter_map(|e| e.metadata().ok()).map(|m| m.len() as usize).sum();
    }
    t
}

/// `--json` of a solve: what every game reports, then the game's own fields (`extra`).
#[derive(serde::Serialize)]
struct SolveJson<'a, E: serde::Serialize> {
    program: &'static str,
    game: &'a str,
    winner: &'static str,
    params: &'a crate::game::GameParams,
    mode: &'a crate::solved::Mode,
    initial_value: String,
    longest_win: Option<u32>,
    wall_s: f64,
    peak_rss_bytes: Option<u64>,
    largest_dfa: LargestDfa,
    #[serde(serialize_with = "crate::counts::serialize_opt")]
    positions_solved: Option<u128>,
    positions_solved_are: &'static str,
    #[serde(serialize_with = "crate::counts::serialize_opt")]
    positions_in_sets: Option<u128>,
    solution_bytes: usize,
    positions_per_byte: Option<f64>,
    solution_file: Option<&'a std::path::Path>,
    checkpoints: Option<CheckpointsJson<'a>>,
    steps: &'a [crate::record::StepRecord],
    #[serde(flatten)]
    extra: &'a E,
}

/// The largest set of a solve.
#[derive(serde::Serialize)]
struct LargestDfa {
    states: usize,
    bytes: usize,
}

/// A solve's checkpoints: where, how many steps were read back, and that they are kept.
#[derive(serde::Serialize)]
struct CheckpointsJson<'a> {
    dir: &'a std::path::Path,
    steps_reused: usize,
    kept: bool,
}

/// No fields of a game's own.
#[derive(serde::Serialize)]
pub(super) struct NoExtra {}

/// Print `report`: one JSON object with the game's `extra` fields, or the headline, the
/// game's `details` and the tables.
pub(super) fn finish(
    report: &SolveReport,
    run: &RunOptions,
    extra: &impl serde::Serialize,
    details: impl FnOnce(&mut String),
) -> Result<()> {
    let t = totals(report);
    let peak = peak_rss_bytes();
    let ppb = t.positions.map(|p| p as f64 / t.bytes.max(1) as f64);
    if run.json {
        let json = SolveJson {
            program: crate::PROGRAM_VERSION,
            game: &report.name,
            winner: winner(report.solution.initial_value),
            params: &report.solution.params,
            mode: &report.solution.mode,
            initial_value: report.solution.initial_value.to_string(),
            longest_win: report.solution.longest_win(),
            wall_s: report.wall_s,
            peak_rss_bytes: peak,
            largest_dfa: LargestDfa { states: t.largest_states, bytes: t.largest_bytes },
            positions_solved: t.positions,
            positions_solved_are: if report.solution.reachable_valued.is_some() {
                "the positions the start reaches without passing a position the backward plies decided (the forward plies), all valued"
            } else {
                "every position of the value classes"
            },
            positions_in_sets: t.in_sets,
            solution_bytes: t.bytes,
            positions_per_byte: ppb,
            solution_file: report.saved.as_deref(),
            checkpoints: report.checkpoints.as_ref().map(|(dir, reused)| CheckpointsJson {
                dir,
                steps_reused: *reused,
                kept: true,
            }),
            steps: &report.solution.records,
            extra,
        };
        say!("{}", serde_json::to_value(&json)?);
        return Ok(());
    }
    let mut out = headline(&report.name, report.solution.initial_value);
    out.push('\n');
    details(&mut out);
    if let Some((dir, reused)) = &report.checkpoints {
        out.push_str(&checkpoints_said(dir, *reused));
        out.push('\n');
    }
    // The per-step table, unless quiet; a solve by classes names each row's class.
    let records: &[crate::record::StepRecord] = if run.quiet { &[] } else { &report.solution.records };
    let by_class = records.iter().any(|r| r.class.is_some());
    let class_width = records.iter().filter_map(|r| r.class.as_ref()).map(String::len).max().unwrap_or(0).max(5);
    let class = |name: &str| if by_class { format!("{name:>class_width$} ") } else { String::new() };
    if !records.is_empty() {
        out.push_str(&format!(
            "{}{:>8} {:>5} {:>6} {:>9} {:>24} {:>11} {:>12} {:>10} {:>9}\n",
            class("class"),
            "phase",
            "step",
            "side",
            "set",
            "positions",
            "states",
            "bytes",
            "pos/byte",
            "time s"
        ));
    }
    for r in records {
        out.push_str(&format!(
            "{}{:>8} {:>5} {:>6} {:>9} {:>24} {:>11} {:>12} {:>10} {:>9.2}\n",
            class(r.class.as_deref().unwrap_or("-")),
            format!("{:?}", r.phase).to_lowercase(),
            r.step,
            r.side.to_string(),
            r.set,
            human(r.positions),
            r.states,
            r.bytes,
            r.positions_per_byte.map_or("-".into(), |p| format!("{p:.1}")),
            r.elapsed_s
        ));
    }
    let reachable = if report.solution.reachable_valued.is_some() { " reachable from the start" } else { "" };
    out.push_str(&format!(
        "total: {:.2} s wall, peak memory {} MiB, largest DFA {} states ({} bytes), {} positions{reachable} solved in {} bytes ({} positions/byte)\n",
        report.wall_s,
        peak.unwrap_or(0) >> 20,
        t.largest_states,
        t.largest_bytes,
        human(t.positions),
        t.bytes,
        ppb.map_or("-".into(), |p| format!("{p:.1}")),
    ));
    if !reachable.is_empty() {
        out.push_str(&format!(
            "(reachable: without passing a position the backward plies decided; the value sets hold {} positions, the backward plies' sets kept whole)\n",
            human(t.in_sets)
        ));
    }
    match (report.solution.longest_win(), report.solution.mode) {
        (Some(longest), _) => out.push_str(&format!("longest forced win: {longest} plies\n")),
        (None, crate::solved::Mode::MeetInTheMiddle { depth }) => out.push_str(&format!(
            "longest forced win: not known (a meet in the middle knows distances only within {depth} plies of the end; --strong gives them all)\n"
        )),
        (None, crate::solved::Mode::Strong) => {}
    }
    if let Some(path) = &report.saved {
        if crate::solved::solution::is_solution_directory(path) {
            out.push_str(&format!(
                "solution saved to {}, a directory: its index and the large sets' files, linked from the checkpoints \
                 (removing the checkpoints leaves them)\n",
                path.display()
            ));
        } else {
            out.push_str(&format!("solution saved to {}\n", path.display()));
        }
    }
    say_raw!("{out}");
    Ok(())
}
