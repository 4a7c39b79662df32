//! The options shared by the solve commands and `verify`, and the parsers of their values.

use clap::Args;
use std::path::PathBuf;

/// The options `verify` honours: its DFA solve is never saved, checkpointed or split.
#[derive(Args, Debug, Clone)]
pub struct VerifyOptions {
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
    /// Plain progress lines on stderr, even when it is not a terminal or the output is JSON.
    #[arg(long)]
    pub progress: bool,
    /// Refuse tables larger than this many GiB, and stop the DFA solve once its resident
    /// memory passes it (default: the memory the system has available; 0: no budget).
    #[arg(long, value_name = "GIB", value_parser = gib)]
    pub max_memory: Option<f64>,
}

impl VerifyOptions {
    /// The options of the DFA solve inside `verify`: not saved, everything else default.
    pub(super) fn run_options(&self) -> RunOptions {
        RunOptions {
            json: true,
            quiet: self.quiet,
            progress: self.progress,
            out: None,
            no_save: true,
            force: false,
            csv: None,
            checkpoint: None,
            resume: false,
            journal_every: 10.0,
            filter_parts_above: crate::solver::FILTER_PARTS_ABOVE,
            by_classes: None,
            class: None,
            max_memory: self.max_memory,
            list_classes: false,
            spill: None,
            backup_parts: 1,
            meet_job: None,
        }
    }
}

/// Options shared by the solve commands.
#[derive(Args, Debug, Clone)]
pub struct RunOptions {
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No progress display, and the report without its per-step table.
    #[arg(long)]
    pub quiet: bool,
    /// Plain progress lines on stderr, even when it is not a terminal or the output is JSON
    /// (a terminal gets a live line by default).
    #[arg(long)]
    pub progress: bool,
    /// Where to save the solution (default: `solutions/GAME-MODE.dfas`). A checkpointed meet
    /// in the middle whose losses pass 1 GiB makes it a directory that links the checkpoints'
    /// loss files rather than copying them.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Do not save the solution.
    #[arg(long)]
    pub no_save: bool,
    /// Do what is refused by default: replace an existing file that dfasolve did not write,
    /// and start a size estimated to need far more memory than the machine has.
    #[arg(long)]
    pub force: bool,
    /// Also write the per-step record as CSV to this file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Save every finished ply/iteration in this directory and reuse the ones already there,
    /// so an interrupted run continues where it stopped.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Continue an interrupted run from its default checkpoint directory
    /// (`checkpoints/GAME-MODE/`).
    #[arg(long)]
    pub resume: bool,
    /// With checkpoints: inside a long retrograde iteration, save its image's progress at
    /// most this often (after a move group), so that a stop loses at most this much of it
    /// and the group under way.
    #[arg(long, value_name = "MINUTES", default_value_t = 10.0, value_parser = minutes)]
    pub journal_every: f64,
    /// A loss step whose open positions have more than this many DFA states takes its escape
    /// filter (the step's largest image) one part of them at a time, for games that declare
    /// parts (Ostle: by hole square); 0: always. The values are the same either way.
    #[arg(long, value_name = "STATES", default_value_t = crate::solver::FILTER_PARTS_ABOVE)]
    pub filter_parts_above: usize,
    /// Solve by classes of positions (a strong solve, one class at a time from the lowest up),
    /// saving each class's values in this directory as `class-NAME.dfas` and reusing those
    /// already there. `query`, `check` and `stats` read the directory as a solution.
    #[arg(long, value_name = "DIR")]
    pub by_classes: Option<PathBuf>,
    /// With `--by-classes`: solve only this class, reading the lower classes it needs from
    /// their files in the directory (one job of a job array; see the README).
    #[arg(long, value_name = "NAME", requires = "by_classes")]
    pub class: Option<String>,
    /// Stop the solve with a clear error once its resident memory passes this many GiB
    /// (default: the memory the system has available when the run starts; 0: no budget).
    /// Before that the solver trades time for memory: past 40% of the budget each group of
    /// moves is imaged in two passes, past 55% in four. The budget counts memory the kernel
    /// cannot drop: with `--spill` the finished sets lie in mapped files and do not count.
    #[arg(long, value_name = "GIB", value_parser = gib)]
    pub max_memory: Option<f64>,
    /// List the game's classes, lowest first, one per line with the classes its moves can
    /// reach, and stop.
    #[arg(long)]
    pub list_classes: bool,
    /// Meet in the middle: keep the finished sets (forward plies, backward sets, the settled
    /// values) in unnamed files in this directory (on a disk, not a memory file system),
    /// mapped: memory then holds what the ply under way works on, and the memory budget
    /// counts only that. The values are the same either way.
    #[arg(long, value_name = "DIR")]
    pub spill: Option<PathBuf>,
    /// Meet in the middle: cut each backup ply's new wins into at least this many regions,
    /// imaged one at a time (more are cut as the memory budget needs them). The values are
    /// the same either way.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub backup_parts: u32,
    /// Meet in the middle, with `--checkpoint`: run one step of the solve from the
    /// checkpoints and stop after it, as one job of a plan (`dfasolve plan --parts N`):
    /// `forward` (the retrograde pass and the forward plies), `ply-K-part-I-of-N` (backup
    /// ply K's new wins in region I of N) or `ply-K-of-N` (ply K from its N parts).
    #[arg(long, value_name = "STEP", requires = "checkpoint", conflicts_with = "by_classes", value_parser = meet_job)]
    pub meet_job: Option<crate::solver::MeetJob>,
}

/// A step of a meet in the middle (`--meet-job`).
fn meet_job(text: &str) -> std::result::Result<crate::solver::MeetJob, String> {
    text.parse()
}

/// A memory size in GiB: a finite number from 0 (no budget) to a pebibyte.
pub(crate) fn gib(text: &str) -> std::result::Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(g) if (0.0..=1_048_576.0).contains(&g) => Ok(g),
        _ => Err(format!("{text:?} is not a number of GiB from 0 to 1048576")),
    }
}

/// A count from 1 up (`check --sample`).
pub(super) fn at_least_one(text: &str) -> std::result::Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("{text:?} is not a whole number from 1 up")),
    }
}

/// A number of minutes for `--journal-every`: finite, 0 or more, at most a year.
pub(super) fn minutes(text: &str) -> std::result::Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(m) if (0.0..=525_600.0).contains(&m) => Ok(m),
        _ => Err(format!("{text:?} is not a number of minutes from 0 to 525600")),
    }
}
