//! Othello's result directories under the commands written for sets of positions: a margins
//! directory (`othello --margins`, a solution per threshold) and a differences directory
//! (`othello --differences`, a byte per position by rank). `stats` and `check` read both;
//! `positions` and `puzzles` say what to ask instead.

use super::files::{Figures, one_file};
use super::output::{AboutFile, say};
use crate::counts::human;
use crate::error::Error;
use crate::games::check::check_solution;
use crate::games::explore::Solved;
use crate::games::othello::difference_table::DifferenceTable;
use crate::games::othello::differences_solved;
use crate::games::othello::margins::{self, MarginsSolved};
use crate::games::{Game, Solution};
use anyhow::{Result, anyhow};
use std::path::Path;

/// Which kind of Othello result directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Exact margins: one solution file per threshold and an index.
    Margins,
    /// Exact differences by rank: per class of discs, a universe and a byte per position.
    Differences,
}

/// The kind of Othello result directory `path` is, if it is one.
pub(super) fn kind(path: &Path) -> Option<Kind> {
    if margins::is_margins_dir(path) {
        Some(Kind::Margins)
    } else if differences_solved::is_differences_dir(path) {
        Some(Kind::Differences)
    } else {
        None
    }
}

/// The refusal of a command that does not apply to such a directory, with what to ask instead.
pub(super) fn not_for(command: &str, kind: Kind, path: &Path) -> anyhow::Error {
    let dir = path.display();
    match kind {
        Kind::Margins => anyhow!(
            "{command} does not apply to {dir}, a directory of Othello's exact margins: ask one of its threshold \
             solutions, e.g. `dfasolve {command} {}` (win or loss with distances)",
            path.join(margins::file_name(0)).display()
        ),
        Kind::Differences => anyhow!(
            "{command} does not apply to {dir}, Othello's exact differences by rank (a byte per position, no \
             distances); `query`, `play`, `serve`, `check` and `stats` read it"
        ),
    }
}

/// `stats` of a directory: a row per threshold solution (its sets together), or per class of
/// discs (its universe with its table's bytes).
pub(super) fn figures(kind: Kind, path: &Path) -> Result<Figures> {
    let mut all = Figures { sets: Vec::new(), meta: String::new(), bytes: 0, positions: None };
    let mut add = |name: String, one: Figures, extra_bytes: u64| {
        let mut sum = crate::dfa::DfaStats {
            states_per_layer: Vec::new(),
            states: 0,
            memory_bytes: 0,
            disk_bytes: 0,
            positions: Some(0),
            positions_per_byte: None,
        };
        for (_, s) in &one.sets {
            sum.states += s.states;
            sum.memory_bytes += s.memory_bytes;
            sum.disk_bytes += s.disk_bytes;
            sum.positions = sum.positions.zip(s.positions).and_then(|(a, b)| a.checked_add(b));
        }
        let bytes = one.bytes + extra_bytes;
        sum.disk_bytes = bytes as usize;
        sum.positions_per_byte = sum.positions.map(|p| p as f64 / bytes.max(1) as f64);
        all.sets.push((name, sum));
        all.meta = one.meta;
        all.bytes += bytes;
    };
    match kind {
        Kind::Margins => {
            let solved = MarginsSolved::open(path).about_file("loading", path)?;
            for t in &solved.index().thresholds {
                add(format!("threshold {:+}", t.threshold), one_file(&path.join(&t.file))?, 0);
            }
            // Every threshold's solve holds every position: the whole holds one of them.
            all.positions = Some(all.sets.first().and_then(|(_, s)| s.positions));
        }
        Kind::Differences => {
            let game = differences_solved::game_of(path).about_file("loading", path)?;
            for discs in 4..=game.shape().len() {
                let table = DifferenceTable::path(path, discs);
                let universe = path.join(format!("universe-{discs}.dfas"));
                if !table.is_file() || !universe.is_file() {
                    continue;
                }
                let table_bytes = std::fs::metadata(&table).map(|m| m.len()).about_file("reading", &table)?;
                add(format!("{discs} discs"), one_file(&universe)?, table_bytes);
            }
        }
    }
    Ok(all)
}

/// `check` of a margins directory: every threshold's solution by the explicit rules, and the
/// start's difference found again by the search over them.
pub(super) fn check_margins(path: &Path, sample: usize, seed: u64, json: bool) -> Result<()> {
    let solved = MarginsSolved::open(path).about_file("loading", path)?;
    let started = std::time::Instant::now();
    let mut rows = Vec::new();
    let mut checked = 0u128;
    for t in &solved.index().thresholds {
        let file = path.join(&t.file);
        let (game, solution) = Solution::load(&file).about_file("loading", &file)?;
        let report = check_solution(game.as_ref(), &solution, sample, seed).map_err(|e| match e {
            Error::Verification(why) => anyhow!("check failed at threshold {:+}: {why}", t.threshold),
            other => other.into(),
        })?;
        let here: u128 = report.iter().map(|c| c.checked).sum();
        let all = report.iter().all(|c| c.all);
        checked += here;
        rows.push((t.threshold, here, all));
    }
    let found = solved.difference(solved.start_position())?;
    if found != Some(solved.index().start_difference) {
        return Err(anyhow!(
            "check failed: the thresholds give the start a difference of {found:?}, the index says {}",
            solved.index().start_difference
        ));
    }
    let wall_s = started.elapsed().as_secs_f64();
    if json {
        let thresholds: Vec<serde_json::Value> = rows
            .iter()
            .map(|&(t, n, all)| serde_json::json!({ "threshold": t, "checked": crate::counts::json(n), "all": all }))
            .collect();
        say!(
            "{}",
            serde_json::json!({ "program": crate::PROGRAM_VERSION, "game": solved.game(), "passed": true,
                "checked": crate::counts::json(checked), "sample": sample, "seed": seed, "thresholds": thresholds,
                "start_difference": found, "wall_s": wall_s })
        );
        return Ok(());
    }
    for (t, n, all) in rows {
        say!(
            "threshold {t:+4}: {} positions checked{}",
            human(Some(n)),
            if all { " (all)" } else { " (uniform sample)" }
        );
    }
    say!(
        "check passed: {} positions of {} follow from their moves by the plain rules, at every threshold; the \
         start's difference, {:+}, is found again ({wall_s:.1} s)",
        human(Some(checked)),
        solved.game(),
        solved.index().start_difference
    );
    Ok(())
}
