//! How a solve runs: where it keeps its finished steps, how it trades memory for time, and
//! the engine's limits while it lives. None of it changes the values found.

use super::mirror::{MIRROR_BUDGET, MirrorPolicy};
use crate::dfa::limits::EngineLimits;
use std::path::PathBuf;
use std::time::Duration;

/// The options of one [`super::Solver`], given when it is made
/// ([`super::Solver::with_options`]); [`Default`] is what `dfasolve` uses when not told
/// otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveOptions {
    /// Save every finished step in this directory and reuse the steps already there (resume).
    pub checkpoints: Option<PathBuf>,
    /// With checkpoints, save the progress of a long image inside an iteration at most this
    /// often, so that a stopped run resumes inside it. Default 10 minutes.
    pub journal_every: Duration,
    /// With checkpoints, a loss step whose undecided sets have more than this many DFA states
    /// keeps the running sets on disk while its escape filter runs. Default 30 M (sets of
    /// about a gigabyte).
    pub park_above: usize,
    /// An escape filter (a loss step's largest image) whose open positions have more than this
    /// many DFA states takes them one part of the game's
    /// [`SolverHints::filter_parts`](crate::game::SolverHints::filter_parts) at a time. Default [`FILTER_PARTS_ABOVE`].
    pub part_above: usize,
    /// When the retrograde pass takes the second side's sets from the first side's by the
    /// game's side mirror. Default [`MirrorPolicy::Large`].
    pub mirror: MirrorPolicy,
    /// How many ids (subsets and child codes, 4 bytes each) the side mirror of a set may
    /// hold: `.0` per state of the set plus `.1`. Past that the iteration computes the second
    /// side's images, and sets as large or larger are not mirrored again in this solve.
    /// Default 32 per state plus 16 M.
    pub mirror_budget: (usize, usize),
    /// The memory budget and the state-id limit of the engine while the solver lives.
    pub limits: EngineLimits,
    /// Keep the meet in the middle's finished sets (its forward plies, backward sets and the
    /// settled part of its running values) in unnamed files in this directory, mapped, so that
    /// memory holds what the current ply works on. `None`: all in memory.
    pub spill: Option<PathBuf>,
    /// The most DFA states one run of the meet in the middle's running values is merged up
    /// to before a new run starts (readers take the runs one by one). `None`: from the memory
    /// budget, so that a merge fits it; unbounded without one.
    pub run_cap: Option<usize>,
    /// Cut each backup ply of a meet in the middle into at least this many regions
    /// ([`crate::dfa::Region`]); more are cut as the memory budget needs. Default 1.
    pub backup_parts: usize,
    /// Run only this step of a meet in the middle, from the checkpoints, and stop after it
    /// with [`crate::error::Error::StoppedAsAsked`]. `None`: the whole solve.
    pub meet_job: Option<super::MeetJob>,
    /// Stop with [`crate::error::Error::StoppedAfter`] right after saving this checkpoint or
    /// journal, saving nothing after it, as a kill there would: tests of resuming stop a run
    /// at a chosen point instead of racing a kill against it. `None`: no stop.
    pub stop_after: Option<super::StepKey>,
}

/// Default of [`SolveOptions::part_above`]: open sets of a few gigabytes, whose filter's
/// working sets no longer fit beside them whole.
pub const FILTER_PARTS_ABOVE: usize = 60_000_000;

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            checkpoints: None,
            journal_every: Duration::from_secs(600),
            park_above: 30_000_000,
            part_above: FILTER_PARTS_ABOVE,
            mirror: MirrorPolicy::Large,
            mirror_budget: MIRROR_BUDGET,
            limits: EngineLimits::default(),
            spill: None,
            run_cap: None,
            backup_parts: 1,
            meet_job: None,
            stop_after: None,
        }
    }
}
