//! A whole explicit solve as one call: the chosen classes solved (or read, or resumed) into a
//! directory, the census of every solved class, a sample checked by the plain rules, the
//! start's value and, if asked, the breadth-first levels from the start. What the command
//! line prints, as text or JSON, is the [`Report`] it returns.

use super::census::{Census, Counts};
use super::levels::LevelsCheckpoint;
use super::{Class, ClassReport, Options, Solution};
use crate::error::Result;
use crate::explicit::classes::{ClassStep, solve_classes};
use crate::games::ostle::Variant;
use crate::vocabulary::Outcome;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What to do beyond solving the classes.
pub struct Request<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// The tables' directory.
    pub dir: &'a Path,
    /// The classes to solve, lowest first (the lower classes of each must be solved before).
    pub classes: &'a [&'a Class],
    /// How each class is solved.
    pub options: Options,
    /// Count the census of every solved class (and save it beside its tables).
    pub census: bool,
    /// States drawn at random and checked by the plain rules.
    pub check_sample: u64,
    /// The seed of the states drawn.
    pub seed: u64,
    /// Count the breadth-first levels from the start (resumed from `levels.checkpoint` in the
    /// directory).
    pub levels: bool,
}

/// One class of the run: what its solve found, and what it cost.
pub type ClassRun = crate::explicit::classes::ClassRun<ClassReport>;

/// The solve of one class as the explicit class driver takes it.
struct Step<'a> {
    variant: &'a Variant,
    dir: &'a Path,
    options: &'a Options,
}

impl ClassStep for Step<'_> {
    type Class = Class;
    type Found = ClassReport;
    fn name(&self, class: &Class) -> String {
        class.name.clone()
    }
    fn is_solved(&self, class: &Class) -> bool {
        super::class_file(self.dir, class).exists()
    }
    fn read(&mut self, class: &Class) -> Result<ClassReport> {
        super::read_class(self.variant, self.dir, class)
    }
    fn solve(&mut self, class: &Class) -> Result<ClassReport> {
        super::solve_class(self.variant, self.dir, class, self.options)
    }
}

/// The longest forced win of the census.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LongestWin {
    /// Plies to the end.
    pub plies: usize,
    /// States of that value, up to symmetry and raw.
    pub states: Counts,
}

/// What an explicit solve found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    /// The variant, with its reading of the no-undo rule.
    pub variant: String,
    /// The program that made it.
    pub program: &'static str,
    /// The tables' directory.
    pub tables: PathBuf,
    /// The classes solved, read or resumed by this run.
    pub classes: Vec<ClassRun>,
    /// Whether every class of the variant is solved.
    pub all_classes_solved: bool,
    /// The start's value, `None` while its class is not solved.
    #[serde(serialize_with = "crate::vocabulary::serialize_display")]
    pub initial_value: Option<Outcome>,
    /// The longest forced win, from the census (in JSON: its plies).
    #[serde(rename = "longest_win_plies", serialize_with = "plies_of")]
    pub longest_win: Option<LongestWin>,
    /// The census of the solved classes (`None`: not asked for).
    pub census: Option<Census>,
    /// States checked by the plain rules.
    pub checked_states: u64,
    /// Their seed.
    pub check_seed: u64,
    /// Seconds of the check.
    pub check_s: f64,
    /// States up to symmetry at each breadth-first level from the start, if asked for.
    pub levels_from_start: Option<Vec<u64>>,
    /// Seconds of the levels, if asked for.
    pub levels_s: Option<f64>,
    /// Seconds of the whole run.
    pub wall_s: f64,
    /// CPU seconds of the process.
    pub cpu_s: Option<f64>,
    /// The process's peak resident memory.
    pub peak_rss_bytes: Option<u64>,
}

/// Run `request`.
///
/// # Errors
/// As [`super::solve_class`] for each class; files that cannot be read or written; a state
/// of the sample whose value does not follow from its moves'.
pub fn run(request: &Request<'_>) -> Result<Report> {
    let (v, dir) = (request.variant, request.dir);
    let started = Instant::now();
    let mut step = Step { variant: v, dir, options: &request.options };
    let classes = solve_classes(&mut step, request.classes.iter().map(|&c| c.clone()), |_| Ok(()))?;
    let all = super::classes(v);
    let solution = Solution::open(v, dir)?;
    let census = if request.census { Some(census(&solution, dir, &all)?) } else { None };
    let check_started = Instant::now();
    let checked_states = solution.check_sample(request.check_sample, request.seed)?;
    let check_s = check_started.elapsed().as_secs_f64();
    crate::progress!(
        "{checked_states} states drawn at random follow from their moves by the plain rules ({check_s:.1} s)"
    );
    let levels_started = Instant::now();
    let levels_from_start = if request.levels {
        let path = dir.join("levels.checkpoint");
        let checkpoint =
            LevelsCheckpoint { path: &path, every: request.options.checkpoint_every, stop_after_saves: None };
        Some(solution.levels(Some(&checkpoint))?)
    } else {
        None
    };
    let longest_win = census.as_ref().and_then(|census| {
        let (d, n) = census.by_d.iter().enumerate().rev().find(|(d, n)| d % 2 == 0 && n.classes > 0)?;
        Some(LongestWin { plies: d + 1, states: n.clone() })
    });
    Ok(Report {
        variant: format!("ostle {}x{} k{} t{} ({} reading)", v.width, v.height, v.pieces, v.lose_at, v.rule.name()),
        program: crate::PROGRAM_VERSION,
        tables: dir.to_path_buf(),
        classes,
        all_classes_solved: all.iter().all(|c| super::class_file(dir, c).exists()),
        initial_value: solution.value(&v.initial_state()).map(Outcome::from),
        longest_win,
        census,
        checked_states,
        check_seed: request.seed,
        check_s,
        levels_s: request.levels.then(|| levels_started.elapsed().as_secs_f64()),
        levels_from_start,
        wall_s: started.elapsed().as_secs_f64(),
        cpu_s: crate::sys::cpu_seconds(),
        peak_rss_bytes: crate::record::peak_rss_bytes(),
    })
}

/// [`Report::longest_win`] as the JSON report gives it: its plies.
fn plies_of<S: serde::Serializer>(win: &Option<LongestWin>, s: S) -> std::result::Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&win.as_ref().map(|w| w.plies), s)
}

/// The census of every solved class of `all` in `dir`, each saved beside its tables.
fn census(solution: &Solution, dir: &Path, all: &[Class]) -> Result<Census> {
    let v = &solution.variant;
    let start = super::start_board(solution.rules(), v);
    let mut census = Census::default();
    for c in all.iter().filter(|c| super::class_file(dir, c).exists()) {
        let t0 = Instant::now();
        let t = super::tables::ClassTables::open(&super::class_file(dir, c), Some(v))?;
        let lower = super::lower_of(v, dir, c)?;
        let one = super::census::census(solution.rules(), &t, &lower, Some(start));
        super::saved_census::save(dir, c, &one)?;
        census.add(&one);
        crate::progress!("census of class {}: {:.0} s", c.name, t0.elapsed().as_secs_f64());
    }
    Ok(census)
}
