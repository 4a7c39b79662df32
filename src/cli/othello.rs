//! `dfasolve othello`: its arguments, the game they build, the strong solve, the exact disc
//! difference of the start by solving thresholds, and the positions per ply from the start.

use super::options::RunOptions;
use super::output::AboutFile;
use super::output::say;
use super::{report, solve};
use crate::counts::human;
use crate::dfa::Dfa;
use crate::dfa::limits::EngineLimits;
use crate::game::Rules;
use crate::games::othello::{Othello, OthelloParams};
use crate::solved::{Mode, Solution};
use crate::vocabulary::{Outcome, Side};
use anyhow::Result;
use clap::Args;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The arguments of `dfasolve othello`.
#[derive(Args, Debug)]
pub struct OthelloArgs {
    /// Which Othello.
    #[command(flatten)]
    pub game: OthelloParams,
    /// The default, kept so that command lines written when it was not still run.
    #[arg(long = "reachable", hide = true, conflicts_with = "reachable")]
    pub reachable_only: bool,
    /// Find the start's exact final disc difference: solve the game at the thresholds a
    /// binary search needs (each a strong solve, saved under its own name).
    #[arg(long, conflicts_with_all = ["threshold", "out", "checkpoint", "by_classes"])]
    pub margin: bool,
    /// Instead of solving: the number of positions reachable from the start in exactly
    /// 1, 2, ..., N plies (a pass is a ply), by forward images; 8x8's first terms are OEIS
    /// A124005.
    #[arg(long, value_name = "N", conflicts_with_all = ["threshold", "reachable", "margin", "out", "checkpoint", "by_classes"])]
    pub plies: Option<u32>,
    /// With `--plies`: count with a hash set of the positions of each ply instead of DFAs
    /// (smaller where the DFAs do not compress, as in 8x8's opening); `--max-memory` bounds
    /// the sets, estimated before each ply.
    #[arg(long, requires = "plies")]
    pub explicit: bool,
    /// Solve every threshold -N..=N (N the squares) into this directory, with an index: the
    /// exact final disc difference of every position (`dfasolve query DIR POSITION`). A run
    /// stopped part way resumes: thresholds already saved there are read, not solved again.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["threshold", "margin", "plies", "out", "checkpoint", "by_classes"])]
    pub margins: Option<PathBuf>,
    /// The exact final disc difference of every position reachable from the start, a byte
    /// each by rank in its class's universe, one explicit pass per class of discs, into this
    /// directory (the universes are made there first, unless a solve by classes left them;
    /// a stopped run resumes at its class). Prints Black's difference from the start.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["threshold", "margin", "plies", "margins", "out", "checkpoint", "by_classes"])]
    pub differences: Option<PathBuf>,
    /// With `--differences`: make only the table of this many discs, one job of a plan (the
    /// full board's class also makes the universes; a lower class reads the class above
    /// from the directory). Prints the class's line.
    #[arg(long, value_name = "D", requires = "differences")]
    pub discs: Option<usize>,
    /// Start a job estimated to take more than half an hour (refused otherwise, with its
    /// estimate of time, memory and disk).
    #[arg(long)]
    pub long: bool,
    /// Output, progress and checkpoint options.
    #[command(flatten)]
    pub run: RunOptions,
}

impl OthelloArgs {
    /// The game these arguments name.
    ///
    /// # Errors
    /// Sizes or thresholds the game refuses.
    pub fn game(&self) -> Result<Othello> {
        Ok(self.game.game()?)
    }

    pub(crate) fn game_at(&self, threshold: i32) -> Result<Othello> {
        Ok(OthelloParams { threshold, ..self.game }.game()?)
    }

    /// Refuse a job estimated to be long unless `--long`; say the estimate of one that takes
    /// over a minute. (`--plies` is bounded ply by ply by `--max-memory` instead.)
    fn refuse_long(&self) -> Result<()> {
        use super::othello_cost::{Job, estimate};
        let job = if self.margin {
            Job::Margin
        } else if self.margins.is_some() {
            Job::Margins
        } else if self.differences.is_some() {
            Job::Differences
        } else if self.game.reachable {
            Job::Reachable
        } else {
            Job::Strong
        };
        let cost = estimate(job, self.game.width * self.game.height);
        let _showing = super::progress::show(&self.run);
        cost.refuse_unless(self.long, &format!("othello {}x{}", self.game.width, self.game.height))
    }

    /// Positions per ply from the start, each ply's line as it is done (its positions, the
    /// DFA states of its two sets where DFAs count, the time and the peak memory so far).
    fn run_plies(&self, last: u32) -> Result<()> {
        use crate::games::othello::explicit::Geometry;
        use crate::games::othello::plies::{Stop, count_plies};
        let game = self.game()?;
        let mut table = PlyTable::new(self.run.json, !self.explicit);
        if !self.run.json {
            let by = if self.explicit { ", by hash sets" } else { "" };
            say!("{}: positions reachable from the start in exactly n plies (a pass is a ply){by}", game.name());
            let states = if self.explicit { String::new() } else { format!(" {:>12}", "DFA states") };
            say!("{:>4} {:>24}{states} {:>10} {:>10}", "ply", "positions", "seconds", "peak MiB");
        }
        let budget = solve::budget_bytes(self.run.max_memory);
        let stopped = if self.explicit {
            let geometry = Geometry::new(self.game.width, self.game.height).map_err(anyhow::Error::msg)?;
            // Ply 0 is the start, as in the DFA count.
            let counted = if table.row(0, 1, None, last).is_break() {
                None
            } else {
                count_plies(geometry, budget, |n, positions| table.row(n, positions.into(), None, last))
            };
            match counted {
                None => None,
                Some(Stop::Over { plies }) => {
                    table.over = Some(format!("every game has ended before ply {plies}"));
                    None
                }
                Some(Stop::Budget { ply, estimated_bytes }) => Some(format!(
                    "ply {ply} would need about {:.1} GiB, over the --max-memory budget",
                    estimated_bytes / f64::from(1u32 << 30)
                )),
            }
        } else {
            let limits = EngineLimits { memory_budget: budget, layer_states: None };
            let _limits = limits.install();
            let counted = game.plies_from_start(|n, ply| {
                let positions: u128 = ply.iter().map(Dfa::count).sum();
                table.row(n, positions, Some(ply.iter().map(Dfa::state_count).sum()), last)
            });
            counted.err().map(|e| e.to_string())
        };
        if let Some(e) = table.unwritten {
            return Err(e.into());
        }
        if self.run.json {
            let method = if self.explicit { "hash sets of positions" } else { "forward images of DFAs" };
            let report = PliesReport {
                program: crate::PROGRAM_VERSION,
                game: game.name(),
                counted: "positions (board and side to move) reachable from the start in exactly n plies, a pass being \
                          a ply",
                method,
                plies: &table.rows,
                stopped: stopped.as_ref().or(table.over.as_ref()),
            };
            say!("{}", serde_json::to_string_pretty(&report)?);
        } else if let Some(over) = &table.over {
            say!("{over}");
        }
        match stopped {
            Some(why) => Err(anyhow::anyhow!("stopped after ply {}: {why}", table.done)),
            None => Ok(()),
        }
    }

    /// Every threshold's solve into `dir`, then the index with each threshold's sets measured:
    /// the positions whose difference is exactly it, and the DFA states of those sets against
    /// those of the "at least" sets.
    fn run_margins(&self, dir: &Path) -> Result<()> {
        use crate::games::othello::margins::{self, Index};
        // Made as every directory a user names is: the directory, never its parents.
        crate::atomic::check_directory(dir).about_file("cannot write in", dir)?;
        let plain = self.game_at(0)?;
        let params = plain.params();
        let n = (self.game.width * self.game.height) as i32;
        let started = Instant::now();
        let (mut rows, mut start_difference, mut universe) = (Vec::new(), None, None);
        if !self.run.json {
            say!(
                "{}: the exact final disc difference of every position, by solving thresholds -{n}..={n}",
                plain.name()
            );
            say!(
                "{:>9} {:>16} {:>12} {:>14} {:>9}",
                "threshold",
                "exactly",
                "its states",
                "at least: states",
                "seconds"
            );
        }
        for t in -n..=n {
            let path = dir.join(margins::file_name(t));
            // A threshold saved by an earlier run is read; its solve time is not known.
            let (solution, wall_s) = if path.exists() {
                let (_, s) = Solution::load(&path, &crate::games::GAMES).about_file("loading", &path)?;
                anyhow::ensure!(
                    s.params == self.game_at(t)?.params(),
                    "{} is a solution of another game; move it away or choose another directory",
                    path.display()
                );
                (s, None)
            } else {
                let run = RunOptions { out: Some(path.clone()), no_save: false, json: true, ..self.run.clone() };
                let report = solve::solve(&self.game_at(t)?, Mode::Strong, &run)?;
                (report.solution, Some(report.wall_s))
            };
            if solution.initial_value == Outcome::Draw {
                start_difference = Some(t);
            }
            if t == 0 {
                universe = solution.classes.iter().map(|c| c.set.count()).try_fold(0u128, u128::checked_add);
            }
            let row = margins::measure(t, &solution, margins::file_name(t), wall_s)?;
            if !self.run.json {
                say!(
                    "{t:>+9} {:>16} {:>12} {:>14} {:>9}",
                    human(Some(row.exactly)),
                    row.exactly_states,
                    row.at_least_states,
                    row.wall_s.map_or("read".into(), |s| format!("{s:.1}"))
                );
            }
            rows.push(row);
        }
        let counted: u128 = rows.iter().map(|r| r.exactly).sum();
        anyhow::ensure!(
            universe == Some(counted),
            "the exactly-t sets hold {counted} positions but the game has {universe:?}: the solves disagree"
        );
        let start_difference =
            start_difference.ok_or_else(|| anyhow::anyhow!("no threshold draws the start: the solves disagree"))?;
        let index = Index { program: crate::PROGRAM_VERSION.into(), params, start_difference, thresholds: rows };
        let path = dir.join(margins::INDEX);
        crate::atomic::write_atomically(&path, serde_json::to_string_pretty(&index)?.as_bytes())?;
        let (exactly, at_least): (usize, usize) =
            index.thresholds.iter().fold((0, 0), |(a, b), r| (a + r.exactly_states, b + r.at_least_states));
        if self.run.json {
            say!(
                "{}",
                serde_json::to_string_pretty(&MarginsReport {
                    index: &index,
                    wall_s: started.elapsed().as_secs_f64(),
                    exactly_states: exactly,
                    at_least_states: at_least
                })?
            );
        } else {
            say!(
                "{}: Black's final difference from the start is {start_difference:+}; {} positions, each with its exact \
                 difference; one set per difference: {exactly} DFA states, \"at least\" sets: {at_least}; {:.1} s; index {}",
                plain.name(),
                human(Some(counted)),
                started.elapsed().as_secs_f64(),
                path.display()
            );
        }
        Ok(())
    }

    /// Every reachable position's exact difference by rank, class by class, each class's
    /// line as it is done.
    fn run_differences(&self, dir: &Path) -> Result<()> {
        use crate::games::othello::differences::{self, ClassRun};
        anyhow::ensure!(
            self.game.reachable,
            "--differences values the positions reachable from the start; leave out --strong"
        );
        crate::atomic::check_directory(dir).about_file("cannot write in", dir)?;
        let game = self.game_at(0)?;
        let limits = EngineLimits { memory_budget: solve::budget_bytes(self.run.max_memory), layer_states: None };
        let _limits = limits.install();
        let _showing = super::progress::show_stamped(!self.run.progress);
        let started = Instant::now();
        if !self.run.json {
            say!("{}: the exact final disc difference of every reachable position, by class of discs", game.name());
            say!(
                "{:>5} {:>16} {:>12} {:>16} {:>14} {:>16} {:>9} {:>6}",
                "discs",
                "positions",
                "DFA states",
                "mover wins",
                "draws",
                "mover loses",
                "seconds",
                "signs"
            );
        }
        if let Some(d) = self.discs {
            let run = differences::solve_one(&game, dir, d)?;
            if self.run.json {
                say!("{}", crate::solved::report::to_json(&run));
            } else {
                print_class(&run)?;
            }
            return Ok(());
        }
        let (mut classes, mut unwritten): (Vec<ClassRun>, Option<anyhow::Error>) = (Vec::new(), None);
        let solved = differences::solve(&game, dir, |c| {
            if !self.run.json && unwritten.is_none() {
                unwritten = print_class(c).err();
            }
            classes.push(c.clone());
        });
        if let Some(e) = unwritten {
            return Err(e);
        }
        let value = solved?;
        let positions: u64 = classes.iter().map(|c| c.found.positions[0] + c.found.positions[1]).sum();
        let (wall_s, peak) = (started.elapsed().as_secs_f64(), crate::record::peak_rss_bytes());
        if self.run.json {
            let report = DifferencesReport {
                program: crate::PROGRAM_VERSION,
                game: game.name(),
                start_difference: value,
                difference_is: DIFFERENCE_IS,
                positions,
                table_bytes: positions,
                universe_bytes: universe_bytes(dir, &classes),
                classes: &classes,
                directory: dir,
                wall_s,
                peak_rss_bytes: peak,
            };
            say!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            say!(
                "{}: Black's final difference from the start is {value:+} ({}); {} positions, a byte each, in {}; \
                 {wall_s:.1} s, peak {} MiB",
                game.name(),
                who_wins(i32::from(value)),
                human(Some(positions.into())),
                dir.display(),
                peak.unwrap_or(0) >> 20
            );
        }
        Ok(())
    }

    /// The start's value is the difference `v` with which Black ends under perfect play: the
    /// game at threshold `t` is a win for Black when `v > t`, a draw at `v = t` and a loss
    /// below, so a binary search over `t` finds `v`.
    fn run_margin(&self) -> Result<()> {
        use crate::games::othello::margins::{Bisected, against_threshold, bisect};
        let squares = (self.game.width * self.game.height) as i32;
        let mut solved = Vec::new();
        let started = std::time::Instant::now();
        let bisected = bisect(squares, |t| {
            let game = self.game_at(t)?;
            let report = solve::solve(&game, Mode::Strong, &self.run)?;
            let start = report.solution.initial_value;
            solved.push(ThresholdSolved { threshold: t, start: start.to_string(), wall_s: report.wall_s });
            if !self.run.json {
                say!("threshold {t:>3}: the start is a {start} for Black ({:.1} s)", report.wall_s);
            }
            anyhow::Ok(Some(against_threshold(start, Side::First)))
        })?;
        let Bisected::Difference(value) = bisected else {
            anyhow::bail!("no threshold from -{squares} to {squares} draws the start: the solves disagree");
        };
        let name = self.game_at(0)?.name();
        if self.run.json {
            let report = MarginReport {
                program: crate::PROGRAM_VERSION,
                game: name,
                start_difference: value,
                difference_is: DIFFERENCE_IS,
                thresholds: solved,
                wall_s: started.elapsed().as_secs_f64(),
            };
            say!("{}", serde_json::to_string_pretty(&report)?);
            return Ok(());
        }
        let who = who_wins(value);
        say!(
            "{name}: with perfect play Black's final disc difference is {value}: {who} (empty squares counted for \
             nobody; {} thresholds solved in {:.1} s)",
            solved.len(),
            started.elapsed().as_secs_f64()
        );
        Ok(())
    }
}

impl super::SolveCommand for OthelloArgs {
    fn build(&self) -> Result<Box<dyn crate::game::Game>> {
        Ok(Box::new(self.game()?))
    }

    fn run_options(&self) -> &super::options::RunOptions {
        &self.run
    }

    /// Solve it strongly (draws rule out a meet in the middle) and print the report; with
    /// `--margin`, the start's exact disc difference.
    ///
    /// # Errors
    /// A refused size, the solver's and the outputs' errors.
    fn run(&self) -> Result<()> {
        if self.plies.is_none() {
            self.refuse_long()?;
        }
        if self.margin {
            return self.run_margin();
        }
        if let Some(plies) = self.plies {
            return self.run_plies(plies);
        }
        if let Some(dir) = &self.margins {
            return self.run_margins(dir);
        }
        if let Some(dir) = &self.differences {
            return self.run_differences(dir);
        }
        let report = solve::solve(&self.game()?, Mode::Strong, &self.run)?;
        report::finish(&report, &self.run, &report::NoExtra {}, |_| {})
    }
}

/// Who wins with Black's final difference `value`, in words.
fn who_wins(value: i32) -> String {
    match value {
        0 => "a draw".to_string(),
        v if v > 0 => format!("Black wins by {v}"),
        v => format!("White wins by {}", -v),
    }
}

/// One class's line of `othello --differences`.
fn print_class(run: &crate::games::othello::differences::ClassRun) -> Result<()> {
    let c = &run.found;
    let count = |keep: fn(i8) -> bool| c.histogram.iter().filter(|&(&v, _)| keep(v)).map(|(_, n)| n).sum::<u64>();
    say!(
        "{:>5} {:>16} {:>12} {:>16} {:>14} {:>16} {:>9} {:>6}",
        c.discs,
        human(Some(u128::from(c.positions[0] + c.positions[1]))),
        c.universe_states,
        human(Some(count(|v| v > 0).into())),
        human(Some(count(|v| v == 0).into())),
        human(Some(count(|v| v < 0).into())),
        if run.already_solved { "read".into() } else { format!("{:.1}", run.wall_s) },
        if c.signs_checked { "agree" } else { "-" }
    );
    Ok(())
}

/// What a final disc difference is, in every report of one.
const DIFFERENCE_IS: &str =
    "Black's discs less White's at the end under perfect play, empty squares counted for nobody";

/// `--plies --json`.
#[derive(serde::Serialize)]
struct PliesReport<'a> {
    program: &'static str,
    game: String,
    counted: &'static str,
    method: &'static str,
    plies: &'a [PlyRow],
    stopped: Option<&'a String>,
}

/// A ply of [`PliesReport`].
#[derive(serde::Serialize)]
struct PlyRow {
    ply: u32,
    #[serde(serialize_with = "crate::counts::serialize")]
    positions: u128,
    #[serde(skip_serializing_if = "Option::is_none")]
    dfa_states: Option<usize>,
    elapsed_s: f64,
    peak_rss_bytes: Option<u64>,
}

/// `--margins DIR --json`.
#[derive(serde::Serialize)]
struct MarginsReport<'a> {
    index: &'a crate::games::othello::margins::Index,
    wall_s: f64,
    exactly_states: usize,
    at_least_states: usize,
}

/// `--differences DIR --json`.
#[derive(serde::Serialize)]
struct DifferencesReport<'a> {
    program: &'static str,
    game: String,
    start_difference: i8,
    difference_is: &'static str,
    positions: u64,
    table_bytes: u64,
    universe_bytes: u64,
    classes: &'a [crate::games::othello::differences::ClassRun],
    directory: &'a Path,
    wall_s: f64,
    peak_rss_bytes: Option<u64>,
}

/// `--margin --json`.
#[derive(serde::Serialize)]
struct MarginReport {
    program: &'static str,
    game: String,
    start_difference: i32,
    difference_is: &'static str,
    thresholds: Vec<ThresholdSolved>,
    wall_s: f64,
}

/// A threshold solved by [`MarginReport`]'s search.
#[derive(serde::Serialize)]
struct ThresholdSolved {
    threshold: i32,
    start: String,
    wall_s: f64,
}

/// The lines and JSON rows of a count of positions per ply.
struct PlyTable {
    json: bool,
    /// Whether DFAs count (their states are a column).
    dfa: bool,
    started: Instant,
    rows: Vec<PlyRow>,
    /// The last ply counted.
    done: u32,
    /// Why the plies ended before the one asked for, if they did.
    over: Option<String>,
    unwritten: Option<std::io::Error>,
}

impl PlyTable {
    /// A table started now, printing lines unless `json`, with a DFA states column if `dfa`.
    fn new(json: bool, dfa: bool) -> PlyTable {
        PlyTable { json, dfa, started: Instant::now(), rows: Vec::new(), done: 0, over: None, unwritten: None }
    }

    /// Ply `n`'s line and row; breaks after ply `last` or when the line cannot be written.
    fn row(&mut self, n: u32, positions: u128, states: Option<usize>, last: u32) -> ControlFlow<()> {
        let seconds = self.started.elapsed().as_secs_f64();
        let peak = crate::record::peak_rss_bytes();
        self.rows.push(PlyRow { ply: n, positions, dfa_states: states, elapsed_s: seconds, peak_rss_bytes: peak });
        self.done = n;
        if !self.json {
            use std::io::Write as _;
            let states = if self.dfa { format!(" {:>12}", states.unwrap_or(0)) } else { String::new() };
            let line = format!(
                "{n:>4} {:>24}{states} {seconds:>10.1} {:>10}",
                human(Some(positions)),
                peak.unwrap_or(0) >> 20
            );
            if let Err(e) = writeln!(std::io::stdout().lock(), "{line}") {
                self.unwritten = Some(e);
                return ControlFlow::Break(());
            }
        }
        if n >= last { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }
}

/// The bytes of the universe files of `classes` in `dir` (the index of the tables by rank).
fn universe_bytes(dir: &Path, classes: &[crate::games::othello::differences::ClassRun]) -> u64 {
    use crate::solved::solution::ClassUniverse;
    classes
        .iter()
        .filter_map(|c| std::fs::metadata(ClassUniverse::path(dir, &c.found.discs.to_string())).ok())
        .map(|m| m.len())
        .sum()
}
