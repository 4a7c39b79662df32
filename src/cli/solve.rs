//! Running a solve from the command line: progress lines, the growing CSV record,
//! checkpoints, saving the solution.

use super::RunOptions;
use super::output::{AboutFile, say};
use super::progress::Showing;
use super::report::SolveReport;
use crate::dfa::limits::EngineLimits;
use crate::error::Error;
use crate::game::Game;
use crate::record::{CSV_HEADER, StepRecord, csv_line, write_csv};
use crate::solved::Mode;
use crate::solver::{SolveOptions, Solver};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn mode_tag(mode: Mode) -> String {
    match mode {
        Mode::Strong => "strong".into(),
        Mode::MeetInTheMiddle { depth } => format!("mitm{depth}"),
    }
}

fn file_stem(game: &dyn Game) -> String {
    game.name().replace(' ', "-")
}

/// The classes of `game`, one line each: name, then `<-` and the classes one move can reach.
pub(super) fn list_classes(game: &dyn Game) -> Result<()> {
    let classes = game.classes()?;
    if classes.is_empty() {
        anyhow::bail!("{} declares no classes", game.name());
    }
    for c in &classes {
        let reach: Vec<&str> = c.successors.iter().map(|&s| classes[s].name.as_str()).collect();
        say!("{}\t<- {}", c.name, reach.join(" "));
    }
    Ok(())
}

/// `--by-classes DIR --class NAME`: solve one class from the files of the lower ones and
/// report its values.
pub(super) fn solve_one_class(game: &dyn Game, dir: &Path, name: &str, run: &RunOptions) -> Result<()> {
    let checkpoint = checkpoint_dir(game, Mode::Strong, run);
    make_default_parents([(run.checkpoint.is_none(), checkpoint.as_deref())])?;
    check_outputs(None, run.csv.as_deref(), [Some(dir), checkpoint.as_deref(), run.spill.as_deref()], run.force)?;
    let started = Instant::now();
    let mut solver = Solver::for_classes(game, solve_options(run, checkpoint.clone())?)?;
    let progress = follow_steps(&mut solver, game, run);
    let class = solver
        .solve_one_class(dir, name)
        .map_err(|e| resumable(e, checkpoint.as_deref()))
        .with_context(|| format!("solving class {name} of {}", game.name()));
    drop(progress);
    let class = class?;
    let wall_s = started.elapsed().as_secs_f64();
    finish_csv(game, run, solver.records())?;
    let peak = crate::record::peak_rss_bytes();
    if run.json {
        let values = class
            .values
            .iter()
            .map(|v| {
                let s = v.set.stats();
                ClassValueJson {
                    side: v.side,
                    value: v.outcome,
                    positions: s.positions,
                    states: s.states,
                    bytes: s.disk_bytes,
                }
            })
            .collect();
        let report = ClassJson {
            program: crate::PROGRAM_VERSION,
            game: game.name(),
            class: name,
            values,
            wall_s,
            peak_rss_bytes: peak,
            file: crate::solved::solution::ClassValues::path(dir, name),
        };
        say!("{}", crate::solved::report::to_json(&report));
        return Ok(());
    }
    say!("{}: class {name} solved in {wall_s:.2} s, peak memory {} MiB", game.name(), peak.unwrap_or(0) >> 20);
    for v in &class.values {
        let s = v.set.stats();
        say!(
            "{:>6} to move {:>16}: {:>24} positions, {:>10} states",
            v.side.to_string(),
            v.outcome.to_string(),
            crate::counts::human(s.positions),
            s.states
        );
    }
    say!("saved to {}", crate::solved::solution::ClassValues::path(dir, name).display());
    Ok(())
}

/// Solve `game` by `mode` with the shared run options (progress, checkpoints, saving).
///
/// # Errors
/// Solver and file errors.
pub fn solve(game: &dyn Game, mode: Mode, run: &RunOptions) -> Result<SolveReport> {
    let started = Instant::now();
    let prepared = before_solving(game, mode, run)?;
    // Making the solver can take minutes on a large game: its progress is shown too.
    let mut solver = {
        let _showing = super::progress::show(run);
        crate::progress!("{}: making the moves", game.name());
        prepared.solver(game)?
    };
    solve_with(&mut solver, game, prepared, run, started)
}

/// A solve's outputs, checked by [`before_solving`]: what [`solve_with`] needs to start.
pub struct Prepared {
    /// The mode (a solve by classes is strong).
    mode: Mode,
    /// The checkpoint directory.
    checkpoint: Option<PathBuf>,
    /// The solution file, unless not saved.
    out: Option<PathBuf>,
    /// The solver's options from the run's.
    options: SolveOptions,
    /// Solved by classes (the whole universe's sets are then never made).
    by_classes: bool,
}

impl Prepared {
    /// The options to make the solver with.
    pub fn options(&self) -> SolveOptions {
        self.options.clone()
    }

    /// The solver of `game` for this solve, with these options: [`Solver::for_classes`] for
    /// a solve by classes, [`Solver::with_options`] otherwise.
    ///
    /// # Errors
    /// An engine stop while the solver makes its sets.
    pub fn solver<'g>(&self, game: &'g dyn Game) -> crate::Result<Solver<'g>> {
        if self.by_classes {
            Solver::for_classes(game, self.options())
        } else {
            Solver::with_options(game, self.options())
        }
    }
}

/// What every solve does before its first set is built, [`Solver::with_options`] included
/// (whose terminal sets can take minutes and gigabytes): the outputs are checked, so that a
/// bad path costs nothing. Returns the mode (a solve by classes is strong), the checkpoint
/// directory, the solution file and the solver's options (with the memory budget, in force
/// from the solver's making), for [`solve_with`].
///
/// # Errors
/// The first output that cannot be written.
pub fn before_solving(game: &dyn Game, mode: Mode, run: &RunOptions) -> Result<Prepared> {
    let mode = if run.by_classes.is_some() { Mode::Strong } else { mode };
    let checkpoint = checkpoint_dir(game, mode, run);
    let out = (!run.no_save).then(|| {
        run.out
            .clone()
            .unwrap_or_else(|| PathBuf::from("solutions").join(format!("{}-{}.dfas", file_stem(game), mode_tag(mode))))
    });
    // The default places are ours to make; a path the user gives is taken as it is.
    make_default_parents([(run.out.is_none(), out.as_deref()), (run.checkpoint.is_none(), checkpoint.as_deref())])?;
    check_outputs(
        out.as_deref(),
        run.csv.as_deref(),
        [checkpoint.as_deref(), run.by_classes.as_deref(), run.spill.as_deref()],
        run.force,
    )?;
    let options = solve_options(run, checkpoint.clone())?;
    Ok(Prepared { mode, checkpoint, out, options, by_classes: run.by_classes.is_some() })
}

/// [`solve`] with a solver the caller keeps (to compute more from its sets afterwards), made
/// after [`before_solving`]; `started` is when the solver's construction began.
///
/// # Errors
/// Solver and file errors.
pub fn solve_with<'g>(
    solver: &mut Solver<'g>,
    game: &'g dyn Game,
    prepared: Prepared,
    run: &RunOptions,
    started: Instant,
) -> Result<SolveReport> {
    let Prepared { mode, checkpoint, out, .. } = prepared;
    let progress = follow_steps(solver, game, run);
    let solution = match &run.by_classes {
        Some(dir) => solver.solve_by_classes(Some(dir)),
        None => solver.solve(mode),
    }
    .map_err(|e| resumable(e, checkpoint.as_deref()))
    .with_context(|| format!("solving {}", game.name()));
    drop(progress);
    let solution = solution?;
    let wall_s = started.elapsed().as_secs_f64();
    if let Some(path) = &out {
        solution.save(path).about_file("saving the solution to", path)?;
    }
    let saved = out;
    finish_csv(game, run, &solution.records)?;
    let checkpoints = checkpoint.map(|dir| (dir, solver.checkpoints_reused()));
    Ok(SolveReport { name: game.name(), solution, wall_s, saved, checkpoints })
}

/// The checkpoint directory of a run: `--checkpoint DIR`, or with `--resume` the default one.
fn checkpoint_dir(game: &dyn Game, mode: Mode, run: &RunOptions) -> Option<PathBuf> {
    match (&run.checkpoint, run.resume) {
        (Some(d), _) => Some(d.clone()),
        (None, true) => Some(PathBuf::from("checkpoints").join(format!("{}-{}", file_stem(game), mode_tag(mode)))),
        (None, false) => None,
    }
}

/// The environment variable naming a step after whose save a run stops, as a kill there would
/// stop it, with exit code [`STOPPED_EXIT_CODE`] ([`SolveOptions::stop_after`]): tests of
/// resuming stop a run at a chosen point instead of racing a kill against it.
pub const STOP_AFTER: &str = "DFASOLVE_STOP_AFTER";

/// The exit code of a run stopped by [`STOP_AFTER`].
pub const STOPPED_EXIT_CODE: u8 = 86;

/// The solver's options from the run's: checkpoints in `checkpoint`, the journal interval and
/// the filter threshold, the memory budget, the state-id limit (lowered by
/// `DFASOLVE_MAX_LAYER_STATES`, which tests use to reach it on small boards) and the step to
/// stop after ([`STOP_AFTER`]).
fn solve_options(run: &RunOptions, checkpoint: Option<PathBuf>) -> Result<SolveOptions> {
    let layer_states = std::env::var("DFASOLVE_MAX_LAYER_STATES").ok().and_then(|v| v.parse::<usize>().ok());
    let stop_after = match std::env::var(STOP_AFTER) {
        Ok(step) => Some(step.parse().with_context(|| format!("{STOP_AFTER}={step}"))?),
        Err(_) => None,
    };
    Ok(SolveOptions {
        checkpoints: checkpoint,
        journal_every: Duration::from_secs_f64(run.journal_every * 60.0),
        part_above: run.filter_parts_above,
        limits: EngineLimits { memory_budget: budget_bytes(run.max_memory), layer_states },
        spill: run.spill.clone(),
        backup_parts: run.backup_parts as usize,
        meet_job: run.meet_job,
        stop_after,
        ..SolveOptions::default()
    })
}

/// Show the solve's steps and, for long runs, grow the CSV record step by step (a `.partial`
/// file next to the final one, so an interrupted run still shows how far it got).
fn follow_steps(solver: &mut Solver<'_>, game: &dyn Game, run: &RunOptions) -> Showing {
    let showing = super::progress::show(run);
    let partial = run.csv.as_ref().map(|p| p.with_extension("partial.csv"));
    if let Some(p) = &partial {
        let _ = std::fs::remove_file(p);
    }
    let name = game.name();
    solver.on_step(move |r: &StepRecord| {
        if let (Some(p), Ok(line)) = (&partial, csv_line(&name, r)) {
            use std::io::Write;
            let new = !p.exists();
            if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(p) {
                let _ = write!(f, "{}{line}", if new { CSV_HEADER } else { "" });
            }
        }
    });
    showing
}

/// Write the run's CSV record, if asked for, in place of the `.partial` one its steps grew.
fn finish_csv(game: &dyn Game, run: &RunOptions, records: &[StepRecord]) -> Result<()> {
    if let Some(csv) = &run.csv {
        let _ = std::fs::remove_file(csv.with_extension("partial.csv"));
        write_csv(csv, &game.name(), records).about_file("writing", csv)?;
    }
    Ok(())
}

/// `e`, saying where the finished steps are when the solve ran out of memory with
/// checkpoints: a rerun with more memory resumes from them instead of starting over.
fn resumable(e: Error, checkpoint: Option<&Path>) -> anyhow::Error {
    match (&e, checkpoint) {
        (Error::OverMemoryBudget { .. }, Some(dir)) => {
            anyhow::anyhow!(
                "{e}; the steps it finished are checkpointed in {}: the same command, given more memory, resumes from them",
                dir.display()
            )
        }
        _ => e.into(),
    }
}

/// Watch the process's memory against `--max-memory` (default: what is available now).
pub(super) fn watch_memory(run: &RunOptions) {
    if let Some(bytes) = budget_bytes(run.max_memory) {
        crate::dfa::limits::watch_memory(bytes);
    }
}

/// The memory budget in bytes of `--max-memory GIB`: that many GiB, none for 0, and what the
/// system has available when not given.
pub(super) fn budget_bytes(max_memory: Option<f64>) -> Option<u64> {
    match max_memory {
        Some(gib) if gib > 0.0 => Some((gib * f64::from(1u32 << 30)) as u64),
        Some(_) => None,
        None => crate::dfa::limits::available_memory(),
    }
}

/// Make the parent directories of the default paths among `paths` (`(is default, path)`):
/// `solutions/`, `checkpoints/`.
fn make_default_parents<'p>(paths: impl IntoIterator<Item = (bool, Option<&'p Path>)>) -> Result<()> {
    for (default, path) in paths {
        if let (true, Some(parent)) = (default, path.and_then(Path::parent)) {
            std::fs::create_dir_all(parent).about_file("cannot make", parent)?;
        }
    }
    Ok(())
}

/// Fail now, before any work, if a file or directory the run will write cannot be written,
/// or may not be (see [`super::outputs`]).
///
/// # Errors
/// The first output that cannot be written, named.
pub(super) fn check_outputs<'p>(
    file: Option<&Path>,
    csv: Option<&Path>,
    dirs: impl IntoIterator<Item = Option<&'p Path>>,
    force: bool,
) -> Result<()> {
    use super::outputs::{Files, Writing};
    use crate::atomic::{check_directory, check_writable};
    Files::new(force)
        .writes(file, Writing::Whole, "the solution")
        .writes(csv, Writing::Stream, "the record")
        .check()?;
    for f in file.into_iter().chain(csv) {
        if crate::solved::solution::is_solution_directory(f) {
            // Replaced whole: what it needs is a new directory beside it.
            let beside = f.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            check_directory(beside).about_file("cannot write in", beside)?;
        } else {
            check_writable(f).about_file("cannot write", f)?;
        }
    }
    for d in dirs.into_iter().flatten() {
        check_directory(d).about_file("cannot write in", d)?;
    }
    Ok(())
}

/// `--class NAME --json`: one class job's value classes.
#[derive(serde::Serialize)]
struct ClassJson<'a> {
    program: &'static str,
    game: String,
    class: &'a str,
    values: Vec<ClassValueJson>,
    wall_s: f64,
    peak_rss_bytes: Option<u64>,
    file: std::path::PathBuf,
}

/// One value class of [`ClassJson`].
#[derive(serde::Serialize)]
struct ClassValueJson {
    #[serde(serialize_with = "crate::vocabulary::serialize_display_always")]
    side: crate::vocabulary::Side,
    #[serde(serialize_with = "crate::vocabulary::serialize_display_always")]
    value: crate::vocabulary::Outcome,
    #[serde(serialize_with = "crate::counts::serialize_opt")]
    positions: Option<u128>,
    states: usize,
    bytes: usize,
}
