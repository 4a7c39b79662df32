//! Solving with sets: forward ply sets, backward retrograde analysis, meet in the middle.
//!
//! Notation (`docs/solving.md`), with one set per side to move `s`:
//! * `U_s` the universe, `T_s` the terminal positions (lost or won by rule, or no legal move),
//!   `N_s = U_s \ T_s` the positions where play goes on.
//! * **Retrograde** ([`Solver::retrograde`]): `L_0 = lost terminals`, `W_0 = won terminals`, and
//!   `W_{n+1} = W_n ∪ (N_s ∩ back_s(L_n^opp \ L_{n-1}^opp))` (only the newest losses can give
//!   new wins), `L_{n+1} = L_n ∪ (C \ back_s(U_opp \ W_n^opp))` where
//!   `C = N_s ∩ back_s(W_n^opp \ W_{n-1}^opp) \ (W ∪ L)` are the undecided positions with a move
//!   into a newly won position (a position all of whose moves go into `W_n` has one into the
//!   newest part, or it was decided earlier; so `C` may be replaced by all the undecided
//!   positions, which is cheaper when the newest wins are many, see
//!   `retrograde::open_for_losses`). With draws, the new wins may be imaged within
//!   `N_s \ W`, whose DFA is often much smaller than the undecided positions'
//!   (`undecided::Undecided`). The fixpoint is reached when an
//!   iteration adds nothing; what is left undecided is a draw. `W_n \ W_{n-1}` wins in
//!   exactly `n` plies.
//! * **Forward** ([`Solver::forward_plies`]): `F_0 = {initial}`, `F_{k+1} = forward_s(F_k ∩ N_s \ D)` where
//!   `D` are positions already decided by a (possibly shallow) retrograde pass.
//! * **Meet in the middle** ([`Mode::MeetInTheMiddle`], games without draws): from the last ply back to ply 0,
//!   with running sets `KW_s ⊇ W_d`, `KL_s ⊇ L_d` of the positions valued so far:
//!   `New_k = F_k ∩ N_s \ D \ KW_s \ KL_s` (not seen by a later ply),
//!   `KW_s ∪= New_k ∩ back_s(KL_opp)`, `KL_s ∪= New_k \ back_s(KL_opp)`, and
//!   `Win_k = F_k ∩ KW_s`, `Lose_k = F_k \ Win_k`. Every move of a `p ∈ New_k` lands in
//!   `F_{k+1}`, all of whose positions are valued by then, so a move into `KL_opp` is a move
//!   into a loss, and this is exact; a position met in many plies is valued once.
//!
//! The whole solve and every class of a solve by classes run the same retrograde pass
//! (`pass.rs`, one iteration in `iteration.rs`); a class adds the lower classes' values
//! (`lower.rs`). Sets are held per side to move in a [`PerSide`], one set for both sides when
//! strings are mover-relative.
//!
//! Finished plies and iterations can be kept on disk ([`SolveOptions::checkpoints`]) so that a run resumes
//! where it stopped; the second side's sets can be mirror images of the first side's
//! ([`MirrorPolicy`]).

mod checkpoint;
mod classes;
mod escape;
mod forward;
mod increments;
mod iteration;
mod journal;
mod lower;
mod meet;
mod meet_job;
mod mirror;
mod options;
mod pass;
mod per_side;
mod regions;
mod retrograde;
mod running;
mod spill;
mod step_key;
mod undecided;
mod universe;

pub use meet_job::MeetJob;
pub use mirror::MirrorPolicy;
pub use options::{FILTER_PARTS_ABOVE, SolveOptions};
pub use per_side::{PerSide, Sides};
pub use retrograde::Retrograde;
pub use step_key::{JournalPart, NotAStepKey, StepKey};

use crate::dfa::Dfa;
use crate::dfa::limits::InstalledLimits;
use crate::dfa::limits::Stoppable;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::move_graph::{Moves, Pass};
use crate::record::{Recorder, StepRecord};
use crate::solved::{Mode, RestClass, Solution, ValueClass};
use crate::vocabulary::{Outcome, Position, Side};
use checkpoint::Checkpoints;
use mirror::Mirror;
use std::time::{Duration, Instant};
use universe::UniverseSets;

/// Evaluate `expr` (a set), and emit a debug event with how long it took and its size.
macro_rules! timed {
    ($name:expr, $e:expr) => {{
        let t = std::time::Instant::now();
        let v = $e;
        tracing::debug!(target: "dfasolve::solver", "{:>12}: {:8.3} s, {} states", $name, t.elapsed().as_secs_f64(), v.nontrivial_state_count());
        v
    }};
}
pub(crate) use timed;

/// The default of [`SolveOptions::run_cap`]: a union of two runs builds tables of about
/// [`RUN_BYTES_PER_STATE`] a state of its result, and may take a third of the budget.
fn default_run_cap(budget: Option<u64>) -> usize {
    match budget {
        Some(b) if b > 0 => usize::try_from(b / 3 / RUN_BYTES_PER_STATE).unwrap_or(usize::MAX).max(1 << 20),
        _ => usize::MAX,
    }
}

/// Bytes a union's tables take per state of its result, with room to spare.
const RUN_BYTES_PER_STATE: u64 = 64;

/// Solves one game; holds its move graphs and terminal sets.
pub struct Solver<'g> {
    game: &'g dyn Game,
    moves: PerSide<Moves>,
    /// Whether the sides share their sets (mover-relative strings).
    sides: Sides,
    /// The whole universe's sets, made at their first use: a solve by classes makes each
    /// class's own instead, and never the whole.
    whole: Option<UniverseSets>,
    /// Whether the passes on `moves` are the whole universe's (not a class's).
    whole_passes: bool,
    recorder: Recorder<'g>,
    checkpoints: Checkpoints,
    /// The engine's limits of the options, in force while the solver lives.
    _limits: InstalledLimits,
    /// How often a long image's progress is saved with the checkpoints.
    journal_every: Duration,
    /// Above this many undecided DFA states a class's loss step parks its running sets.
    park_above: usize,
    /// The game's [`SolverHints::filter_parts`](crate::game::SolverHints::filter_parts) by side to move.
    filter_parts: PerSide<Vec<Dfa>>,
    /// Above this many open DFA states an escape filter goes by parts.
    part_above: usize,
    mirror: Mirror,
    /// Where a meet in the middle keeps its finished sets.
    spill: spill::Spill,
    /// The most states one run of the backup's running values is merged up to.
    run_cap: usize,
    /// The fewest regions a backup ply is cut into.
    backup_parts: usize,
    /// The one step of a meet in the middle to run, if only one.
    meet_job: Option<MeetJob>,
}

impl<'g> Solver<'g> {
    /// Prepare the move graphs and terminal sets of `game`, with the default options.
    ///
    /// # Errors
    /// An engine stop while making the move graphs or the universe's sets.
    pub fn new(game: &'g dyn Game) -> Result<Solver<'g>> {
        Solver::with_options(game, SolveOptions::default())
    }

    /// Prepare the move graphs and terminal sets of `game` to solve with `options` (their
    /// engine limits are in force from now on, for as long as the solver lives).
    ///
    /// # Errors
    /// As [`Solver::new`].
    pub fn with_options(game: &'g dyn Game, options: SolveOptions) -> Result<Solver<'g>> {
        let mut solver = Solver::for_classes(game, options)?;
        solver.make_whole()?;
        Ok(solver)
    }

    /// Prepare the move graphs of `game` for a solve by classes with `options`, without the
    /// whole universe's sets: a game whose universe is made class by class
    /// ([`SolverHints::class_universes`](crate::game::SolverHints::class_universes)) then never builds them. Any other solve makes them when
    /// it starts; the accessors of those sets need them made.
    ///
    /// # Errors
    /// An engine stop while making the move graphs.
    pub fn for_classes(game: &'g dyn Game, options: SolveOptions) -> Result<Solver<'g>> {
        let started = Instant::now();
        let limits = options.limits.install();
        // With mover-relative strings both sides are the same computation: done once.
        let sides = Sides::of_game(game.mover_relative());
        let moves = PerSide::try_new(sides, |s| game.solver_moves(s))?;
        Ok(Solver {
            game,
            moves,
            sides,
            whole: None,
            whole_passes: false,
            recorder: Recorder::new(started),
            checkpoints: options
                .checkpoints
                .map_or_else(Checkpoints::none, |dir| Checkpoints::new(dir, game.params()))
                .stop_after(options.stop_after),
            _limits: limits,
            journal_every: options.journal_every,
            park_above: options.park_above,
            filter_parts: PerSide::try_new(sides, |s| game.filter_parts(s))?,
            part_above: options.part_above,
            mirror: Mirror::new(
                if sides == Sides::Shared { None } else { game.side_mirror() },
                options.mirror,
                options.mirror_budget,
            ),
            spill: spill::Spill::new(options.spill),
            backup_parts: options.backup_parts.max(1),
            meet_job: options.meet_job,
            run_cap: options.run_cap.unwrap_or_else(|| default_run_cap(options.limits.memory_budget)),
        })
    }

    /// Call `f` with every step record as it is produced (e.g. to grow a record file; the
    /// steps are said as progress through `tracing` in any case).
    pub fn on_step(&mut self, f: impl FnMut(&StepRecord) + Send + 'g) {
        self.recorder.on_step(f);
    }

    /// How many checkpointed steps (and journals of steps under way) this solve read back
    /// instead of computing them.
    pub fn checkpoints_reused(&self) -> usize {
        self.checkpoints.reused()
    }

    /// The record of every step so far.
    pub fn records(&self) -> &[StepRecord] {
        self.recorder.records()
    }

    /// Positions where `side` is to move and play goes on.
    ///
    /// # Panics
    /// On a solver made by [`Solver::for_classes`] that has not solved the whole game.
    pub fn ongoing(&self, side: Side) -> &Dfa {
        &self.whole_made().ongoing[side]
    }

    /// Terminal positions lost for the side to move (by rule or without a legal move).
    ///
    /// # Panics
    /// As [`Solver::ongoing`].
    pub fn lost_terminal(&self, side: Side) -> &Dfa {
        &self.whole_made().lost[side]
    }

    /// The universe with `side` to move.
    ///
    /// # Panics
    /// As [`Solver::ongoing`].
    pub fn universe(&self, side: Side) -> &Dfa {
        self.whole_made().universe(side)
    }

    /// The whole universe's sets, made now if they are not yet, with the whole universe's
    /// passes on the moves.
    fn make_whole(&mut self) -> Stoppable<()> {
        if self.whole.is_none() {
            let game = self.game;
            // Said first: on a large game these sets alone take minutes.
            crate::progress!("{}: making the universe and the sets of finished positions", game.name());
            let universe = PerSide::try_new(self.sides, |s| Ok(timed!("universe", game.universe(s)?)))?;
            self.whole = Some(UniverseSets::new(game, &self.moves, universe, None)?);
        }
        let whole = self.whole.as_ref().expect("made above");
        if !self.whole_passes {
            set_passes(&mut self.moves, whole.passing.as_ref());
            self.whole_passes = true;
        }
        Ok(())
    }

    /// The whole universe's sets, made by [`Solver::make_whole`] before any whole-universe step.
    fn whole_made(&self) -> &UniverseSets {
        self.whole.as_ref().expect("the whole universe's sets are made before a whole-universe step")
    }

    /// The moves of `side` as the solver applies them.
    pub fn moves(&self, side: Side) -> &Moves {
        &self.moves[side]
    }

    /// Positions reachable in one move of `side` from `set` (`set` should be ongoing).
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn forward(&self, side: Side, set: &Dfa) -> Stoppable<Dfa> {
        self.moves[side].forward(set)
    }

    /// Positions with `side` to move with some move into `set`.
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn backward(&self, side: Side, set: &Dfa) -> Stoppable<Dfa> {
        self.moves[side].backward(set)
    }

    /// Positions of `within` with `side` to move and some move into `set` (cheaper than
    /// [`Solver::backward`] and an intersection: work outside `within` is never done).
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn backward_within(&self, side: Side, set: &Dfa, within: &Dfa) -> Stoppable<Dfa> {
        self.moves[side].backward_within(set, within)
    }

    /// Solve by `mode`.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for meet in the middle on a game with draws; checkpoint I/O;
    /// [`Error::TooManyStates`] if a set would need more states in a layer than ids number,
    /// [`Error::OverMemoryBudget`] past the memory budget.
    pub fn solve(&mut self, mode: Mode) -> Result<Solution> {
        self.checkpoints.set_mode(mode);
        let initial = self.game.initial();
        let (classes, rest, reachable_valued) = match mode {
            Mode::Strong if self.meet_job.is_some() => {
                return Err(Error::BadParameters(
                    "a step run as a job (--meet-job) is a step of a meet in the middle, and this solve is strong"
                        .into(),
                ));
            }
            Mode::Strong => (self.solve_strong()?, Vec::new(), None),
            Mode::MeetInTheMiddle { depth } => {
                let met = self.meet_in_the_middle(&initial, depth)?;
                (met.classes, met.rest, Some(met.reachable_valued))
            }
        };
        let mut solution = self.finish(mode, initial, classes, rest)?;
        solution.reachable_valued = reachable_valued;
        Ok(solution)
    }

    fn finish(
        &mut self,
        mode: Mode,
        initial: Position,
        classes: Vec<ValueClass>,
        rest: Vec<RestClass>,
    ) -> Result<Solution> {
        let mut solution = Solution {
            params: self.game.params(),
            mode,
            initial: initial.clone(),
            initial_value: Outcome::Draw,
            classes,
            rest,
            records: Vec::new(),
            mover_relative: self.game.mover_relative(),
            reachable_valued: None,
            index: None,
        };
        solution.initial_value = solution
            .value(&initial)
            .ok_or_else(|| Error::Verification("the initial position is not in any value class".into()))?;
        solution.records = self.recorder.records().to_vec();
        Ok(solution)
    }
}

/// Put the passes of `passing` (the positions whose only move is the pass, by side) on
/// `moves`, replacing any earlier ones.
fn set_passes(moves: &mut PerSide<Moves>, passing: Option<&PerSide<Dfa>>) {
    if let Some(passing) = passing {
        for (s, from) in passing.clone().into_iter_sides() {
            moves[s].set_pass(Pass { from });
        }
    }
}
