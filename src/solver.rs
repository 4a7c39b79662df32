//! Solving with sets: forward ply sets, backward retrograde analysis, meet in the middle.
//!
//! Notation (SPEC §3), with one set per side to move `s`:
//! * `U_s` the universe, `T_s` the terminal positions (lost or won by rule, or no legal move),
//!   `N_s = U_s \ T_s` the positions where play goes on.
//! * **Retrograde**: `L_0 = lost terminals`, `W_0 = won terminals`, and
//!   `W_{n+1} = W_n ∪ (N_s ∩ back_s(L_n^opp \ L_{n-1}^opp))` (only the newest losses can give
//!   new wins), `L_{n+1} = L_n ∪ (C \ back_s(U_opp \ W_n^opp))` where
//!   `C = N_s ∩ back_s(W_n^opp \ W_{n-1}^opp) \ (W ∪ L)` are the undecided positions with a move
//!   into a newly won position (a position all of whose moves go into `W_n` has one into the
//!   newest part, or it was decided earlier). The fixpoint is reached when an iteration adds
//!   nothing; what is left undecided is a draw. `W_n \ W_{n-1}` wins in exactly `n` plies.
//! * **Forward**: `F_0 = {initial}`, `F_{k+1} = forward_s(F_k ∩ N_s \ D)` where `D` are positions
//!   already decided by a (possibly shallow) retrograde pass.
//! * **Meet in the middle** (games without draws): from the last ply back to ply 0, with
//!   running sets `KW_s ⊇ W_d`, `KL_s ⊇ L_d` of the positions valued so far:
//!   `New_k = F_k ∩ N_s \ D \ KW_s \ KL_s` (not seen by a later ply),
//!   `KW_s ∪= New_k ∩ back_s(KL_opp)`, `KL_s ∪= New_k \ back_s(KL_opp)`, and
//!   `Win_k = F_k ∩ KW_s`, `Lose_k = F_k \ Win_k`. Every move of a `p ∈ New_k` lands in
//!   `F_{k+1}`, all of whose positions are valued by then, so a move into `KL_opp` is a move
//!   into a loss, and this is exact; a position met in many plies is valued once.

use crate::dfa::file::{Bundle, save_entries};
use crate::dfa::{Dfa, DfaStats};
use crate::error::{Error, Result};
use crate::games::{Game, Outcome, Position, Side, SideMirror};
use crate::move_graph::Moves;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Which phase a [`StepRecord`] belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Forward ply sets from the initial position.
    Forward,
    /// Retrograde iterations from the terminal positions.
    Backward,
    /// Values backed up through the forward ply sets.
    Backup,
}

/// One line of a run's record: a set computed at one step, with its size and the cost so far.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StepRecord {
    /// Phase of the run.
    pub phase: Phase,
    /// Ply (forward, backup) or iteration (backward).
    pub step: u32,
    /// Side to move in the set.
    pub side: Side,
    /// Which set: `reachable`, `win`, `loss`, `new_win`, `new_loss`.
    pub set: &'static str,
    /// Members of the set, exact (`None` above `u128::MAX`).
    pub positions: Option<u128>,
    /// Non-reserved DFA states.
    pub states: usize,
    /// Bytes of the compact on-disk layout.
    pub bytes: usize,
    /// Positions per byte.
    pub positions_per_byte: Option<f64>,
    /// Seconds since the solver started.
    pub elapsed_s: f64,
    /// Peak resident memory of the process so far, in bytes (Linux only).
    pub peak_rss_bytes: Option<u64>,
}

/// Peak resident set size of this process (VmHWM), if the platform reports it.
pub fn peak_rss_bytes() -> Option<u64> {
    crate::dfa::process_status_kib("VmHWM").map(|kib| kib * 1024)
}

/// How to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Retrograde over the whole universe to the fixpoint: every position, exact distances.
    Strong,
    /// Retrograde `depth` plies, then forward ply sets pruned by it, then backup: every
    /// position reachable from the start (win/loss, no distances).
    MeetInTheMiddle {
        /// Backward iterations before going forward.
        depth: u32,
    },
}

/// One value class of a solution: the positions with `side` to move whose value is `outcome`.
#[derive(Clone, Debug)]
pub struct ValueClass {
    /// Side to move.
    pub side: Side,
    /// The value for the side to move.
    pub outcome: Outcome,
    /// The positions.
    pub set: Dfa,
}

/// A solved game: value classes that partition the solved positions, and the run's record.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Game parameters (JSON, as [`Game::params`]).
    pub params: serde_json::Value,
    /// How it was solved.
    pub mode: Mode,
    /// The game's start.
    pub initial: Position,
    /// Value of the start for the first player to move.
    pub initial_value: Outcome,
    /// Disjoint value classes.
    pub classes: Vec<ValueClass>,
    /// What each step computed.
    pub records: Vec<StepRecord>,
    /// Positions are written from the mover's view: the classes are stored for the first
    /// side only and answer for both ([`Game::mover_relative`]).
    pub mover_relative: bool,
}

impl Solution {
    /// The value of `pos`, or `None` if the solution does not cover it (e.g. unreachable in a
    /// meet-in-the-middle solve).
    pub fn value(&self, pos: &Position) -> Option<Outcome> {
        let side = if self.mover_relative { Side::First } else { pos.side };
        self.classes.iter().find(|c| c.side == side && c.set.contains(&pos.board)).map(|c| c.outcome)
    }

    /// Longest forced win in plies (strong solves), if any win is known.
    pub fn longest_win(&self) -> Option<u32> {
        self.classes
            .iter()
            .filter_map(|c| match c.outcome {
                Outcome::Win { plies } if !c.set.is_empty() => plies,
                _ => None,
            })
            .max()
    }

    /// Save as a bundle: metadata JSON plus one DFA per value class.
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<()> {
        let classes: Vec<serde_json::Value> = self
            .classes
            .iter()
            .map(|c| serde_json::json!({ "side": c.side, "outcome": outcome_json(c.outcome) }))
            .collect();
        let meta = serde_json::json!({
            "kind": "dfasolve-solution",
            "params": self.params,
            "mode": self.mode,
            "initial_value": outcome_json(self.initial_value),
            "classes": classes,
            "mover_relative": self.mover_relative,
        });
        let names: Vec<String> = self.classes.iter().map(|c| format!("{}/{}", c.side, c.outcome)).collect();
        let entries: Vec<(&str, &Dfa)> =
            names.iter().map(String::as_str).zip(self.classes.iter().map(|c| &c.set)).collect();
        save_entries(path, &meta.to_string(), &entries)
    }

    /// Load a solution saved by [`Solution::save`]; the game is rebuilt from its parameters by
    /// the caller. Records are not stored.
    ///
    /// # Errors
    /// File errors, or [`Error::Corrupt`] if the bundle is not a solution.
    pub fn load(path: &Path, initial: impl FnOnce(&serde_json::Value) -> Result<Position>) -> Result<Solution> {
        let bundle = Bundle::load(path)?;
        let corrupt = |what: &str| Error::Corrupt { path: path.to_path_buf(), what: what.into() };
        let meta: serde_json::Value =
            serde_json::from_str(&bundle.meta).map_err(|_| corrupt("metadata is not JSON"))?;
        if meta["kind"] != "dfasolve-solution" {
            return Err(corrupt("not a solution file (a bundle of another kind)"));
        }
        let params = meta["params"].clone();
        let mode = match &meta["mode"] {
            serde_json::Value::String(s) if s == "strong" => Mode::Strong,
            m => Mode::MeetInTheMiddle {
                depth: m["meet_in_the_middle"]["depth"].as_u64().ok_or_else(|| corrupt("unknown mode"))? as u32,
            },
        };
        let descs = meta["classes"].as_array().ok_or_else(|| corrupt("no value classes"))?;
        if descs.len() != bundle.entries.len() {
            return Err(corrupt("value classes do not match the stored sets"));
        }
        let mut classes = Vec::new();
        for (desc, (_, set)) in descs.iter().zip(bundle.entries) {
            let side = match desc["side"].as_str() {
                Some("First") => Side::First,
                Some("Second") => Side::Second,
                _ => return Err(corrupt("bad side in a value class")),
            };
            let outcome = parse_outcome(&desc["outcome"]).ok_or_else(|| corrupt("bad outcome in a value class"))?;
            classes.push(ValueClass { side, outcome, set });
        }
        let initial_value = parse_outcome(&meta["initial_value"]).ok_or_else(|| corrupt("bad initial value"))?;
        let initial = initial(&params)?;
        let mover_relative = meta["mover_relative"].as_bool().unwrap_or(false);
        Ok(Solution { params, mode, initial, initial_value, classes, records: Vec::new(), mover_relative })
    }
}

fn outcome_json(o: Outcome) -> serde_json::Value {
    match o {
        Outcome::Win { plies } => serde_json::json!({ "win": plies }),
        Outcome::Loss { plies } => serde_json::json!({ "loss": plies }),
        Outcome::Draw => serde_json::json!("draw"),
    }
}

fn parse_outcome(v: &serde_json::Value) -> Option<Outcome> {
    let plies = |x: &serde_json::Value| -> Option<Option<u32>> {
        if x.is_null() { Some(None) } else { x.as_u64().map(|p| Some(p as u32)) }
    };
    if v == "draw" {
        Some(Outcome::Draw)
    } else if let Some(x) = v.get("win") {
        Some(Outcome::Win { plies: plies(x)? })
    } else if let Some(x) = v.get("loss") {
        Some(Outcome::Loss { plies: plies(x)? })
    } else {
        None
    }
}

/// Result of a retrograde pass: cumulative sets and exact-distance increments per side.
#[derive(Clone, Debug)]
pub struct Retrograde {
    /// `win[s]` = positions with `s` to move won within the iterations done.
    pub win: [Dfa; 2],
    /// `loss[s]` likewise lost.
    pub loss: [Dfa; 2],
    /// `new_win[s][n]` = won in exactly `n` plies.
    pub new_win: [Vec<Dfa>; 2],
    /// `new_loss[s][n]` = lost in exactly `n` plies.
    pub new_loss: [Vec<Dfa>; 2],
    /// Whether the fixpoint was reached.
    pub complete: bool,
}

/// Value classes with exact distances, moved out of the increments of a retrograde pass (on
/// the largest boards the increments are most of the memory at the end, so they are not
/// copied).
fn exact_classes(new_win: [Vec<Dfa>; 2], new_loss: [Vec<Dfa>; 2], sides: &[Side]) -> Vec<ValueClass> {
    let mut classes = Vec::new();
    for (s, (wins, losses)) in Side::BOTH.into_iter().zip(new_win.into_iter().zip(new_loss)) {
        if !sides.contains(&s) {
            continue;
        }
        for (d, set) in wins.into_iter().enumerate().filter(|(_, set)| !set.is_empty()) {
            classes.push(ValueClass { side: s, outcome: Outcome::Win { plies: Some(d as u32) }, set });
        }
        for (d, set) in losses.into_iter().enumerate().filter(|(_, set)| !set.is_empty()) {
            classes.push(ValueClass { side: s, outcome: Outcome::Loss { plies: Some(d as u32) }, set });
        }
    }
    classes
}

/// The checkpoint name of backward iteration `n`.
fn step_name(n: u32) -> String {
    format!("backward-{n:04}")
}

/// Above this many undecided states (both sides together) a retrograde iteration computes the
/// two sides in turn rather than side by side, to halve its peak memory.
const SIDES_IN_TURN_STATES: usize = 4_000_000;

/// The default side-mirror budget (ids per state of the set, plus a base): rotating a
/// Breakthrough set usually needs about as many states as the set, but a 4.8M-state set of 7x5
/// went past 20 GB.
const MIRROR_BUDGET: (usize, usize) = (32, 1 << 24);

/// Evaluate `expr`, and with `DFASOLVE_TRACE` set print how long it took (for profiling).
macro_rules! timed {
    ($name:expr, $e:expr) => {{
        let t = Instant::now();
        let v = $e;
        if std::env::var_os("DFASOLVE_TRACE").is_some() {
            eprintln!("{:>12}: {:8.3} s, {} states", $name, t.elapsed().as_secs_f64(), v.nontrivial_state_count());
        }
        v
    }};
}

/// A callback that sees every step record.
type Progress<'g> = Box<dyn FnMut(&StepRecord) + 'g>;

/// Solves one game; holds its move graphs and terminal sets.
pub struct Solver<'g> {
    game: &'g dyn Game,
    moves: [Moves; 2],
    universe: [Dfa; 2],
    lost: [Dfa; 2],
    won: [Dfa; 2],
    ongoing: [Dfa; 2],
    started: Instant,
    records: Vec<StepRecord>,
    progress: Option<Progress<'g>>,
    checkpoint: Option<PathBuf>,
    /// The game's side mirror, if it has one: the second side's sets can then be the mirror
    /// images of the first side's instead of images of their own.
    mirror: Option<SideMirror>,
    /// When the retrograde pass uses `mirror`.
    mirror_policy: MirrorPolicy,
    /// The side mirror of a set may hold `per_state · states + base` ids before the iteration
    /// computes the second side's images instead (see [`Solver::set_mirror_budget`]).
    mirror_budget: (usize, usize),
    /// The fewest states of a set whose mirror ran over its budget in this solve: larger sets
    /// are not tried again (on Breakthrough 5x6 a refused rotation of 6.3 M states cost 69 s).
    mirror_refused_at: AtomicUsize,
}

/// When a retrograde iteration takes the second side's sets from the first side's by the
/// game's side mirror ([`Game::side_mirror`]) instead of computing their own images.
///
/// Mirroring replaces the second side's images by one reversal of each new set. The reversal
/// is a subset construction (about 50 subset members per result state on Breakthrough sets),
/// so it costs CPU of the same order as the images it replaces (about half on 4x6) but far
/// less memory. Measured on Breakthrough 4x6 strong, one run after the other: always 32.9 s
/// and 516 MiB peak, never 28.5 s and 730 MiB, large 28.4 s and 710 MiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MirrorPolicy {
    /// Compute both sides' images.
    Never,
    /// Mirror in the iterations that compute the sides in turn to save memory (undecided sets
    /// above a few million states), where the second side's images are the largest step.
    Large,
    /// Mirror in every iteration.
    Always,
}

impl<'g> Solver<'g> {
    /// Prepare the move graphs and terminal sets of `game`.
    pub fn new(game: &'g dyn Game) -> Solver<'g> {
        let started = Instant::now();
        let shared = game.mover_relative();
        let moves =
            [game.solver_moves(Side::First), game.solver_moves(if shared { Side::First } else { Side::Second })];
        let mirror = if shared { None } else { game.side_mirror() };
        let first_universe = timed!("universe", game.universe(Side::First));
        let universe = [first_universe.clone(), if shared { first_universe } else { game.universe(Side::Second) }];
        // With mover-relative strings both sides are the same computation: do it once. (The
        // side mirror is left to the retrograde pass and its policy: these sets are cheap.)
        let per_side = |f: &dyn Fn(Side) -> Dfa| {
            let first = f(Side::First);
            let second = if shared { first.clone() } else { f(Side::Second) };
            [first, second]
        };
        // Lost by rule, or not over by rule but without a legal move. A position the rules
        // already decide is terminal whatever its moves would be.
        let lost = per_side(&|s| {
            let u = &universe[s.index()];
            let by_rule = game.lost_terminal(s).intersection(u);
            let stuck = match game.stuck(s) {
                Some(stuck) => stuck.intersection(u),
                None => {
                    let has_move =
                        timed!("has move", moves[s.index()].backward_within(&universe[s.other().index()], u));
                    u.difference(&has_move)
                }
            };
            by_rule.union(&stuck.difference(&game.won_terminal(s)))
        });
        let won = per_side(&|s| game.won_terminal(s).intersection(&universe[s.index()]).difference(&lost[s.index()]));
        let ongoing = per_side(&|s| universe[s.index()].difference(&lost[s.index()]).difference(&won[s.index()]));
        Solver {
            game,
            moves,
            universe,
            lost,
            won,
            ongoing,
            started,
            records: Vec::new(),
            progress: None,
            checkpoint: None,
            mirror,
            mirror_policy: MirrorPolicy::Large,
            mirror_budget: MIRROR_BUDGET,
            mirror_refused_at: AtomicUsize::new(usize::MAX),
        }
    }

    /// How many ids (subsets and child codes, 4 bytes each) the side mirror of a set may hold:
    /// `per_state` per state of the set plus `base`. Past that it gives up and the iteration
    /// computes the second side's images, and sets as large or larger are not mirrored again
    /// in this solve. Default: 32 per state plus 16M.
    pub fn set_mirror_budget(&mut self, per_state: usize, base: usize) {
        self.mirror_budget = (per_state, base);
    }

    /// When the retrograde pass uses the game's side mirror (default [`MirrorPolicy::Large`]).
    pub fn set_mirror_policy(&mut self, policy: MirrorPolicy) {
        self.mirror_policy = policy;
    }

    /// Call `f` with every step record as it is produced (progress display).
    pub fn on_step(&mut self, f: impl FnMut(&StepRecord) + 'g) {
        self.progress = Some(Box::new(f));
    }

    /// Save every finished step under `dir` and reuse steps already saved there (resume).
    pub fn checkpoint_into(&mut self, dir: PathBuf) {
        self.checkpoint = Some(dir);
    }

    /// The records of all steps so far.
    pub fn records(&self) -> &[StepRecord] {
        &self.records
    }

    /// Positions where `side` is to move and play goes on.
    pub fn ongoing(&self, side: Side) -> &Dfa {
        &self.ongoing[side.index()]
    }

    /// Terminal positions lost for the side to move (by rule or without a legal move).
    pub fn lost_terminal(&self, side: Side) -> &Dfa {
        &self.lost[side.index()]
    }

    /// The universe with `side` to move.
    pub fn universe(&self, side: Side) -> &Dfa {
        &self.universe[side.index()]
    }

    /// Positions reachable in one move of `side` from `set` (`set` should be ongoing).
    pub fn forward(&self, side: Side, set: &Dfa) -> Dfa {
        self.moves[side.index()].forward(set)
    }

    /// Positions with `side` to move with some move into `set`.
    pub fn backward(&self, side: Side, set: &Dfa) -> Dfa {
        self.moves[side.index()].backward(set)
    }

    /// Positions of `within` with `side` to move and some move into `set` (cheaper than
    /// [`Solver::backward`] and an intersection: work outside `within` is never done).
    pub fn backward_within(&self, side: Side, set: &Dfa, within: &Dfa) -> Dfa {
        self.moves[side.index()].backward_within(set, within)
    }

    fn record(&mut self, phase: Phase, step: u32, side: Side, set_name: &'static str, set: &Dfa) {
        let DfaStats { states, disk_bytes, positions, positions_per_byte, .. } = set.stats();
        let r = StepRecord {
            phase,
            step,
            side,
            set: set_name,
            positions,
            states,
            bytes: disk_bytes,
            positions_per_byte,
            elapsed_s: self.started.elapsed().as_secs_f64(),
            peak_rss_bytes: peak_rss_bytes(),
        };
        if let Some(f) = self.progress.as_mut() {
            f(&r);
        }
        self.records.push(r);
    }

    fn checkpoint_path(&self, name: &str) -> Option<PathBuf> {
        self.checkpoint.as_ref().map(|d| d.join(format!("{name}.dfas")))
    }

    /// Load a checkpoint file if it exists and belongs to this game; `Ok(None)` if absent.
    fn load_step(&self, name: &str) -> Result<Option<Bundle>> {
        let Some(path) = self.checkpoint_path(name) else {
            return Ok(None);
        };
        if !path.exists() {
            return Ok(None);
        }
        let b = Bundle::load(&path)?;
        if b.meta != self.game.params().to_string().as_str() {
            return Err(Error::Mismatch(format!(
                "{} was written for {}, not {}",
                path.display(),
                b.meta,
                self.game.params()
            )));
        }
        Ok(Some(b))
    }

    fn save_step(&self, name: &str, entries: &[(&str, &Dfa)]) -> Result<()> {
        match self.checkpoint_path(name) {
            Some(path) => save_entries(&path, &self.game.params().to_string(), entries),
            None => Ok(()),
        }
    }

    /// Forward ply sets from `start` until a ply is empty (or `max_plies`), not expanding
    /// terminal positions nor positions in `decided[side]`.
    ///
    /// # Errors
    /// Checkpoint files that cannot be written or read.
    pub fn forward_plies(
        &mut self,
        start: &Position,
        decided: Option<&[Dfa; 2]>,
        max_plies: Option<u32>,
    ) -> Result<Vec<Dfa>> {
        let shape = self.game.shape().clone();
        let mut plies = vec![Dfa::from_string(&shape, &start.board)];
        self.record(Phase::Forward, 0, start.side, "reachable", &plies[0].clone());
        loop {
            let k = plies.len() as u32 - 1;
            if max_plies.is_some_and(|m| k >= m) {
                break;
            }
            let side = Side::after(start.side, k);
            let name = format!("forward-{k:04}");
            let next = match self.load_step(&name)? {
                Some(b) => b
                    .entries
                    .into_iter()
                    .next()
                    .map(|(_, d)| d)
                    .ok_or_else(|| Error::Mismatch(format!("{name}: empty checkpoint")))?,
                None => {
                    let mut expand = plies[k as usize].intersection(&self.ongoing[side.index()]);
                    if let Some(d) = decided {
                        expand = expand.difference(&d[side.index()]);
                    }
                    let next = self.forward(side, &expand);
                    self.save_step(&name, &[("reachable", &next)])?;
                    next
                }
            };
            if next.is_empty() {
                break;
            }
            self.record(Phase::Forward, k + 1, side.other(), "reachable", &next);
            plies.push(next);
        }
        Ok(plies)
    }

    /// Retrograde analysis for at most `max_iterations` (to the fixpoint if `None`).
    ///
    /// With a checkpoint directory, each iteration's increments are saved as it finishes, and
    /// all but the newest leave memory until the pass ends, when they are read back.
    ///
    /// # Errors
    /// Checkpoint files that cannot be written or read.
    pub fn retrograde(&mut self, max_iterations: Option<u32>) -> Result<Retrograde> {
        let shared = self.game.mover_relative();
        // With mover-relative strings the first side stands for both; the second side's sets
        // stay as they start (never read).
        let sides = self.sides();
        let mut r = Retrograde {
            win: self.won.clone(),
            loss: self.lost.clone(),
            new_win: [vec![self.won[0].clone()], vec![self.won[1].clone()]],
            new_loss: [vec![self.lost[0].clone()], vec![self.lost[1].clone()]],
            complete: false,
        };
        for &s in sides {
            self.record(Phase::Backward, 0, s, "universe", &self.universe[s.index()].clone());
            self.record(Phase::Backward, 0, s, "loss", &r.loss[s.index()].clone());
        }
        let empty = Dfa::reject_all(self.game.shape());
        // Ongoing positions not yet won or lost, kept up to date as the sets grow.
        let mut undecided: [Dfa; 2] = [0, 1].map(|i| self.ongoing[i].difference(&r.win[i]).difference(&r.loss[i]));
        let mut n = 0u32;
        // Iterations whose increments were dropped from memory after their checkpoint.
        let mut spilled: Vec<usize> = Vec::new();
        loop {
            if max_iterations.is_some_and(|m| n >= m) {
                break;
            }
            let name = step_name(n + 1);
            let (dw, dl) = match self.load_increments(&name)? {
                Some(sets) => sets,
                None => {
                    // The two sides of one iteration only read the previous iteration's sets,
                    // so they run side by side.
                    let (moves, universe, r_ref) = (&self.moves, &self.universe, &r);
                    let has_draws = self.game.has_draws();
                    let side_step = |s: Side| -> (Dfa, Dfa) {
                        let i = s.index();
                        let o = if shared { i } else { s.other().index() };
                        let undecided = &undecided[i];
                        // New wins: a move into a newest loss of the opponent.
                        let newest_loss = &r_ref.new_loss[o][n as usize];
                        let dw = timed!("new wins", moves[i].backward_within(newest_loss, undecided));
                        // New losses: undecided positions all of whose moves go into wins. Such
                        // a position has a move into a newest win (had all its moves gone into
                        // older wins, an earlier iteration would have found it). Without draws
                        // one image over the undecided positions finds them; with draws the
                        // undecided positions keep every draw, so first narrowing them to the
                        // candidates with a move into a newest win is cheaper (measured: without
                        // draws one image is 1.16x faster on Breakthrough 5x5 and 1.56x on Nim
                        // 6x15; with draws two are 1.11x faster on Ostle 4x4).
                        let newest_win = &r_ref.new_win[o][n as usize];
                        let mut dl = Dfa::reject_all(newest_win.shape());
                        if !newest_win.is_empty() {
                            let open = undecided.difference(&dw);
                            let open = if has_draws {
                                timed!("candidates", moves[i].backward_within(newest_win, &open))
                            } else {
                                open
                            };
                            if !open.is_empty() {
                                let escape = timed!("escape", universe[o].difference(&r_ref.win[o]));
                                dl = timed!("new losses", open.difference(&moves[i].backward_within(&escape, &open)));
                            }
                        }
                        (dw, dl)
                    };
                    // Large sets take the sides one after the other: each image is parallel
                    // inside, and two at once would double the peak memory of the largest step
                    // (Breakthrough 5x6 ran out of 24 GB that way).
                    let large = undecided.iter().map(Dfa::state_count).sum::<usize>() > SIDES_IN_TURN_STATES;
                    let mirror = self.mirror.filter(|_| match self.mirror_policy {
                        MirrorPolicy::Never => false,
                        MirrorPolicy::Large => large,
                        MirrorPolicy::Always => true,
                    });
                    let ((dw0, dl0), (dw1, dl1)) = if shared {
                        (side_step(Side::First), (empty.clone(), empty.clone()))
                    } else if let Some(m) = mirror {
                        let (dw0, dl0) = side_step(Side::First);
                        let (per_state, base) = self.mirror_budget;
                        let refused_at = &self.mirror_refused_at;
                        let mirrored = |set: &Dfa| {
                            let t = Instant::now();
                            if set.state_count() >= refused_at.load(Ordering::Relaxed) {
                                if std::env::var_os("DFASOLVE_TRACE").is_some() {
                                    eprintln!("{:>12}: skipped, a set as large was over budget before", "mirror");
                                }
                                return None;
                            }
                            let budget = set.state_count().saturating_mul(per_state).saturating_add(base);
                            let out = m.apply_bounded(set, budget);
                            if out.is_none() {
                                refused_at.fetch_min(set.state_count(), Ordering::Relaxed);
                            }
                            if std::env::var_os("DFASOLVE_TRACE").is_some() {
                                let states = out
                                    .as_ref()
                                    .map_or("over budget".into(), |d| format!("{} states", d.nontrivial_state_count()));
                                eprintln!("{:>12}: {:8.3} s, {states}", "mirror", t.elapsed().as_secs_f64());
                            }
                            out
                        };
                        match rayon::join(|| mirrored(&dw0), || mirrored(&dl0)) {
                            (Some(dw1), Some(dl1)) => ((dw0, dl0), (dw1, dl1)),
                            // The rotation would cost more than the images it replaces.
                            _ => ((dw0, dl0), side_step(Side::Second)),
                        }
                    } else if large {
                        (side_step(Side::First), side_step(Side::Second))
                    } else {
                        rayon::join(|| side_step(Side::First), || side_step(Side::Second))
                    };
                    let (dw, dl) = ([dw0, dw1], [dl0, dl1]);
                    let names: Vec<(String, String)> =
                        sides.iter().map(|s| (format!("new_win/{s}"), format!("new_loss/{s}"))).collect();
                    let mut entries: Vec<(&str, &Dfa)> = Vec::new();
                    for (&s, (win_name, loss_name)) in sides.iter().zip(&names) {
                        entries.push((win_name, &dw[s.index()]));
                        entries.push((loss_name, &dl[s.index()]));
                    }
                    self.save_step(&name, &entries)?;
                    (dw, dl)
                }
            };
            n += 1;
            let mut changed = false;
            for &s in sides {
                let i = s.index();
                changed |= !dw[i].is_empty() || !dl[i].is_empty();
                r.win[i] = timed!("win union", r.win[i].union(&dw[i]));
                r.loss[i] = timed!("loss union", r.loss[i].union(&dl[i]));
                if !dw[i].is_empty() || !dl[i].is_empty() {
                    undecided[i] = timed!("undecided", undecided[i].difference(&dw[i]).difference(&dl[i]));
                }
                self.record(Phase::Backward, n, s, "new_win", &dw[i]);
                self.record(Phase::Backward, n, s, "new_loss", &dl[i]);
            }
            let [dw0, dw1] = dw;
            let [dl0, dl1] = dl;
            r.new_win[0].push(dw0);
            r.new_win[1].push(dw1);
            r.new_loss[0].push(dl0);
            r.new_loss[1].push(dl1);
            // Only the newest increments are read from here on; with checkpoints the older
            // ones wait on disk (Breakthrough 5x6 kept 3.7 GB of them by iteration 19).
            if n >= 2 && self.checkpoint.is_some() {
                let old = n as usize - 1;
                for i in 0..2 {
                    r.new_win[i][old] = empty.clone();
                    r.new_loss[i][old] = empty.clone();
                }
                spilled.push(old);
            }
            if !changed {
                r.complete = true;
                break;
            }
        }
        for old in spilled {
            let name = step_name(old as u32);
            let ([w0, w1], [l0, l1]) = self
                .load_increments(&name)?
                .ok_or_else(|| Error::Mismatch(format!("checkpoint {name} disappeared during the run")))?;
            (r.new_win[0][old], r.new_win[1][old], r.new_loss[0][old], r.new_loss[1][old]) = (w0, w1, l0, l1);
        }
        Ok(r)
    }

    /// The increments (new wins, new losses, by side) of one finished iteration, from its
    /// checkpoint, if there is one.
    fn load_increments(&self, name: &str) -> Result<Option<([Dfa; 2], [Dfa; 2])>> {
        let Some(mut b) = self.load_step(name)? else {
            return Ok(None);
        };
        // Moved out of the bundle, not copied: late iterations' sets are large.
        let mut get = |k: &str| {
            let at = b.entries.iter().position(|(n, _)| n == k);
            at.map(|i| b.entries.swap_remove(i).1).ok_or_else(|| Error::Mismatch(format!("{name}: missing {k}")))
        };
        if self.game.mover_relative() {
            let empty = Dfa::reject_all(self.game.shape());
            Ok(Some(([get("new_win/first")?, empty.clone()], [get("new_loss/first")?, empty])))
        } else {
            Ok(Some((
                [get("new_win/first")?, get("new_win/second")?],
                [get("new_loss/first")?, get("new_loss/second")?],
            )))
        }
    }

    /// The sides whose sets the solver computes (one when strings are mover-relative).
    fn sides(&self) -> &'static [Side] {
        if self.game.mover_relative() { &[Side::First] } else { &Side::BOTH }
    }

    /// Solve by `mode`.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for meet in the middle on a game with draws; checkpoint I/O.
    pub fn solve(&mut self, mode: Mode) -> Result<Solution> {
        let initial = self.game.initial();
        match mode {
            Mode::Strong => {
                let r = self.retrograde(None)?;
                let mut draw_classes = Vec::new();
                for &s in self.sides() {
                    let i = s.index();
                    let draws = self.universe[i].difference(&r.win[i]).difference(&r.loss[i]);
                    if !draws.is_empty() {
                        draw_classes.push(ValueClass { side: s, outcome: Outcome::Draw, set: draws });
                    }
                }
                let mut classes = exact_classes(r.new_win, r.new_loss, self.sides());
                classes.extend(draw_classes);
                self.finish(mode, initial, classes)
            }
            Mode::MeetInTheMiddle { depth } => {
                if self.game.has_draws() {
                    return Err(Error::BadParameters(format!(
                        "{} can be drawn: use the strong mode",
                        self.game.name()
                    )));
                }
                let r = self.retrograde(Some(depth))?;
                // With mover-relative strings the first side's sets stand for whoever moves.
                let shared = self.game.mover_relative();
                let slot = |side: Side| if shared { 0 } else { side.index() };
                let decided =
                    [r.win[0].union(&r.loss[0]), r.win[slot(Side::Second)].union(&r.loss[slot(Side::Second)])];
                let plies = self.forward_plies(&initial, Some(&decided), None)?;
                // Every position of ply k + 1 is valued before ply k: each ply's successors lie
                // in the next ply. So ply k only values the positions no later ply has seen,
                // a win when it has a move into any known loss of the opponent. A position
                // recurs in many plies (Nim: in nearly all of them), and the known losses grow
                // towards the simple final set.
                let mut win_all = [r.win[0].clone(), r.win[1].clone()];
                let mut loss_all = [r.loss[0].clone(), r.loss[1].clone()];
                // Ply k's positions that the later plies have not valued.
                let unvalued = |k: usize, ongoing: &[Dfa; 2], win_all: &[Dfa; 2], loss_all: &[Dfa; 2]| {
                    let i = slot(Side::after(initial.side, k as u32));
                    plies[k]
                        .intersection(&ongoing[i])
                        .difference(&decided[i])
                        .difference(&win_all[i])
                        .difference(&loss_all[i])
                };
                // Each ply is a chain (its positions to value, their preimage, the running
                // unions the next ply reads). The other thread meanwhile prepares the next
                // ply's positions from the values known so far and records the previous ply.
                // Ply j's values, read off the running sets once all of ply j is valued.
                let ply_values = |j: usize, win_all: &[Dfa; 2]| {
                    let win = plies[j].intersection(&win_all[slot(Side::after(initial.side, j as u32))]);
                    let lose = plies[j].difference(&win);
                    (j, win, lose)
                };
                let mut prepared = plies.len().checked_sub(1).map(|k| unvalued(k, &self.ongoing, &win_all, &loss_all));
                let mut previous_new: Option<(usize, Dfa)> = None;
                let mut to_record: Option<usize> = None;
                for k in (0..plies.len()).rev() {
                    let side = Side::after(initial.side, k as u32);
                    let (i, o) = (slot(side), slot(side.other()));
                    let prepared_k = prepared.take().expect("prepared during the previous ply");
                    let (moves, ongoing, win_ref, loss_ref) = (&self.moves[i], &self.ongoing, &win_all, &loss_all);
                    let previous = &previous_new;
                    let chain = || {
                        // The previous ply's positions were valued after this one was prepared.
                        let new = match previous {
                            Some((j, n)) if *j == i => prepared_k.difference(n),
                            _ => prepared_k,
                        };
                        let win_new = moves.backward_within(&loss_ref[o], &new);
                        let lose_new = new.difference(&win_new);
                        (new, win_new, lose_new)
                    };
                    let other = || {
                        let values = to_record.map(|j| ply_values(j, win_ref));
                        let next = k.checked_sub(1).map(|k| unvalued(k, ongoing, win_ref, loss_ref));
                        (values, next)
                    };
                    let ((new, win_new, lose_new), (values, next)) = rayon::join(chain, other);
                    if let Some(v) = values {
                        self.record_ply_values(Side::after(initial.side, v.0 as u32), v);
                    }
                    let (w, l) = rayon::join(|| win_all[i].union(&win_new), || loss_all[i].union(&lose_new));
                    (win_all[i], loss_all[i]) = (w, l);
                    previous_new = Some((i, new));
                    to_record = Some(k);
                    prepared = next;
                }
                if let Some(j) = to_record {
                    let v = ply_values(j, &win_all);
                    self.record_ply_values(Side::after(initial.side, j as u32), v);
                }
                // Positions decided by the retrograde pass keep their exact distance; the
                // reachable rest is known as win/loss only.
                let mut classes = exact_classes(r.new_win, r.new_loss, self.sides());
                for &s in self.sides() {
                    let i = s.index();
                    let (w, l) = (win_all[i].difference(&decided[i]), loss_all[i].difference(&decided[i]));
                    classes.push(ValueClass { side: s, outcome: Outcome::Win { plies: None }, set: w });
                    classes.push(ValueClass { side: s, outcome: Outcome::Loss { plies: None }, set: l });
                }
                self.finish(mode, initial, classes)
            }
        }
    }

    /// Record a backed-up ply's win and loss sets (`(ply, win, loss)`).
    fn record_ply_values(&mut self, side: Side, (ply, win, lose): (usize, Dfa, Dfa)) {
        self.record(Phase::Backup, ply as u32, side, "win", &win);
        self.record(Phase::Backup, ply as u32, side, "loss", &lose);
    }

    fn finish(&mut self, mode: Mode, initial: Position, classes: Vec<ValueClass>) -> Result<Solution> {
        let mut solution = Solution {
            params: self.game.params(),
            mode,
            initial: initial.clone(),
            initial_value: Outcome::Draw,
            classes,
            records: Vec::new(),
            mover_relative: self.game.mover_relative(),
        };
        solution.initial_value = solution
            .value(&initial)
            .ok_or_else(|| Error::Verification("the initial position is not in any value class".into()))?;
        solution.records = self.records.clone();
        Ok(solution)
    }
}
