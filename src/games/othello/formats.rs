//! Othello's saved formats besides the DFA solution: a margins directory (`othello
//! --margins`, a solution per threshold) and a differences directory (`othello
//! --differences`, a byte per position by rank). `query`, `play`, `serve`, `stats` and
//! `check` read both; `positions` and `puzzles` say what to ask instead.

use super::difference_table::DifferenceTable;
use super::differences_solved::{self, DifferencesSolved};
use super::margins::{self, MarginsSolved};
use super::{Othello, differences};
use crate::counts::human;
use crate::error::{Error, Result};
use crate::game::Rules;
use crate::solved::check::check_solution;
use crate::solved::report::CheckPassed;
use crate::solved::report::{Report, line};
use crate::solved::{CheckAsk, Figures, Format, Games, Solution, Solved};
use std::path::Path;

/// Exact margins: one solution file per threshold and an index.
pub struct MarginsFormat;

impl Format for MarginsFormat {
    fn name(&self) -> &'static str {
        "a directory of Othello's exact margins"
    }

    fn recognises(&self, path: &Path) -> bool {
        margins::is_margins_dir(path)
    }

    fn open(&self, path: &Path, games: &'static Games) -> Result<Box<dyn Solved>> {
        Ok(Box::new(MarginsSolved::open(path, games)?))
    }

    /// A row per threshold solution, its sets together.
    fn stats(&self, path: &Path, games: &'static Games) -> Result<Box<dyn Report>> {
        let solved = MarginsSolved::open(path, games)?;
        let mut all = Figures::empty();
        for t in &solved.index().thresholds {
            all.add_summed(format!("threshold {:+}", t.threshold), Figures::of_file(&path.join(&t.file))?, 0);
        }
        // Every threshold's solve holds every position: the whole holds one of them.
        all.positions = Some(all.sets.first().and_then(|(_, s)| s.positions));
        Ok(all.report(path))
    }

    /// Every threshold's solution by the explicit rules, and the start's difference found
    /// again by the search over them.
    fn check(&self, path: &Path, ask: &CheckAsk, games: &'static Games) -> Result<Box<dyn Report>> {
        refuse_against(ask, path)?;
        let solved = MarginsSolved::open(path, games)?;
        let started = std::time::Instant::now();
        let mut rows = Vec::new();
        for t in &solved.index().thresholds {
            let (game, solution) = Solution::load(&path.join(&t.file), games)?;
            let report = check_solution(game.as_ref(), &solution, ask.sample, ask.seed).map_err(|e| match e {
                Error::Verification(why) => Error::Verification(format!("at threshold {:+}: {why}", t.threshold)),
                other => other,
            })?;
            rows.push((t.threshold, report.iter().map(|c| c.checked).sum(), report.iter().all(|c| c.all)));
        }
        let found = solved.difference(solved.start_position())?;
        let start_difference = solved.index().start_difference;
        if found != Some(start_difference) {
            return Err(Error::Verification(format!(
                "the thresholds give the start a difference of {found:?}, the index says {start_difference}"
            )));
        }
        Ok(Box::new(MarginsChecked {
            game: solved.game(),
            sample: ask.sample,
            seed: ask.seed,
            rows,
            start_difference,
            wall_s: started.elapsed().as_secs_f64(),
        }))
    }

    fn not_for(&self, command: &str, path: &Path) -> Error {
        Error::NotApplicable(format!(
            "{command} does not apply to {}, {}: ask one of its threshold solutions, e.g. `dfasolve {command} {}` \
             (win or loss with distances)",
            path.display(),
            self.name(),
            path.join(margins::file_name(0)).display()
        ))
    }
}

/// Exact differences by rank: per class of discs, a universe and a byte per position.
pub struct DifferencesFormat;

impl Format for DifferencesFormat {
    fn name(&self) -> &'static str {
        "Othello's exact differences by rank"
    }

    fn recognises(&self, path: &Path) -> bool {
        differences_solved::is_differences_dir(path)
    }

    fn open(&self, path: &Path, _: &'static Games) -> Result<Box<dyn Solved>> {
        Ok(Box::new(DifferencesSolved::open(path)?))
    }

    /// A row per class of discs: its universe with its table's bytes.
    fn stats(&self, path: &Path, _: &'static Games) -> Result<Box<dyn Report>> {
        let game = differences_solved::game_of(path)?;
        let mut all = Figures::empty();
        for discs in 4..=game.shape().len() {
            let table = DifferenceTable::path(path, discs);
            let universe = path.join(format!("universe-{discs}.dfas"));
            if !table.is_file() || !universe.is_file() {
                continue;
            }
            let table_bytes =
                std::fs::metadata(&table).map_err(|error| Error::Io { path: table.clone(), error })?.len();
            all.add_summed(format!("{discs} discs"), Figures::of_file(&universe)?, table_bytes);
        }
        Ok(all.report(path))
    }

    /// Each class's sample of positions against the plain rules and their successors' values.
    fn check(&self, path: &Path, ask: &CheckAsk, _: &'static Games) -> Result<Box<dyn Report>> {
        refuse_against(ask, path)?;
        let game = differences_solved::game_of(path)?;
        let started = std::time::Instant::now();
        let classes = differences::check(&game, path, ask.sample as u64, ask.seed)?;
        Ok(Box::new(DifferencesChecked {
            game,
            sample: ask.sample,
            seed: ask.seed,
            classes,
            wall_s: started.elapsed().as_secs_f64(),
        }))
    }

    fn not_for(&self, command: &str, path: &Path) -> Error {
        Error::NotApplicable(format!(
            "{command} does not apply to {}, {} (a byte per position, no distances); `query`, `play`, `serve`, \
             `check` and `stats` read it",
            path.display(),
            self.name()
        ))
    }
}

fn refuse_against(ask: &CheckAsk, path: &Path) -> Result<()> {
    match ask.against {
        Some(_) => Err(Error::NotApplicable(format!(
            "--against compares Ostle class tables (a directory) with a DFA solution; {} is not one",
            path.display()
        ))),
        None => Ok(()),
    }
}

struct MarginsChecked {
    game: String,
    sample: usize,
    seed: u64,
    /// Per threshold: positions checked, and whether that is all of them.
    rows: Vec<(i32, u128, bool)>,
    start_difference: i32,
    wall_s: f64,
}

impl Report for MarginsChecked {
    fn json(&self) -> serde_json::Value {
        let checked: u128 = self.rows.iter().map(|r| r.1).sum();
        let thresholds =
            self.rows.iter().map(|&(threshold, checked, all)| ThresholdChecked { threshold, checked, all }).collect();
        crate::solved::report::to_json(&MarginsCheckedJson {
            passed: CheckPassed::new(&self.game, checked, self.sample, self.seed),
            thresholds,
            start_difference: self.start_difference,
            wall_s: self.wall_s,
        })
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for &(t, n, all) in &self.rows {
            line!(
                out,
                "threshold {t:+4}: {} positions checked{}",
                human(Some(n)),
                if all { " (all)" } else { " (uniform sample)" }
            );
        }
        line!(
            out,
            "check passed: {} positions of {} follow from their moves by the plain rules, at every threshold; the \
             start's difference, {:+}, is found again ({:.1} s)",
            human(Some(self.rows.iter().map(|r| r.1).sum())),
            self.game,
            self.start_difference,
            self.wall_s
        );
        out
    }
}

struct DifferencesChecked {
    game: Othello,
    sample: usize,
    seed: u64,
    classes: Vec<differences::ClassChecked>,
    wall_s: f64,
}

impl Report for DifferencesChecked {
    fn json(&self) -> serde_json::Value {
        let checked: u64 = self.classes.iter().map(|c| c.checked).sum();
        let game = self.game.name();
        crate::solved::report::to_json(&DifferencesCheckedJson {
            passed: CheckPassed::new(&game, checked.into(), self.sample, self.seed),
            per: "class of discs",
            classes: &self.classes,
            wall_s: self.wall_s,
        })
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for c in &self.classes {
            line!(
                out,
                "{:>3} discs: {} positions checked{}",
                c.discs,
                human(Some(c.checked.into())),
                if c.all { " (all)" } else { " (uniform sample)" }
            );
        }
        let checked: u64 = self.classes.iter().map(|c| c.checked).sum();
        line!(
            out,
            "check passed: {} positions of {} follow from their moves' exact differences by the plain rules ({:.1} s)",
            human(Some(checked.into())),
            self.game.name(),
            self.wall_s
        );
        out
    }
}

/// `check --json` of margins.
#[derive(serde::Serialize)]
struct MarginsCheckedJson<'a> {
    #[serde(flatten)]
    passed: CheckPassed<'a>,
    thresholds: Vec<ThresholdChecked>,
    start_difference: i32,
    wall_s: f64,
}

/// One threshold of [`MarginsCheckedJson`].
#[derive(serde::Serialize)]
struct ThresholdChecked {
    threshold: i32,
    #[serde(serialize_with = "crate::counts::serialize")]
    checked: u128,
    all: bool,
}

/// `check --json` of difference tables.
#[derive(serde::Serialize)]
struct DifferencesCheckedJson<'a> {
    #[serde(flatten)]
    passed: CheckPassed<'a>,
    per: &'static str,
    classes: &'a [differences::ClassChecked],
    wall_s: f64,
}
