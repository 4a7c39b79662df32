//! Exact final disc differences of every position, from strong solves at every threshold.
//!
//! At threshold `t` a position is drawn exactly when Black's final difference under perfect
//! play is `t`, won for Black above it and lost below. So the solves of `t = -N..=N` (`N` the
//! squares) hold one set per difference (their drawn sets) and the "at least `t`" sets (won or
//! drawn for Black), and a position's difference is found by a binary search over `t`. A
//! margins directory holds the solution of each threshold (each an ordinary solution file, to
//! query, play or check on its own) and an index, [`INDEX`], with the sizes of both kinds of
//! sets. [`MarginsSolved`] answers positions from it, loading the solutions it needs.

use super::OthelloParams;
use super::differences_solved::outcome;
use crate::dfa::limits::Stoppable;
use crate::error::{Error, Result};
use crate::game::GameParams;
use crate::solved::explore::{DfaSolved, Look, Solved, rank_moves};
use crate::solved::{Games, Solution};
use crate::vocabulary::{Outcome, Position, Side, Status};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// The index of a margins directory.
pub const INDEX: &str = "margins.json";

/// What [`INDEX`] holds.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Index {
    /// The program that wrote it.
    pub program: String,
    /// The game at threshold 0 (its parameters).
    pub params: GameParams,
    /// Black's final difference from the start under perfect play.
    pub start_difference: i32,
    /// One solve per threshold, `-N..=N` in order.
    pub thresholds: Vec<Threshold>,
}

impl Index {
    /// The index at `path`.
    ///
    /// # Errors
    /// [`Error::Io`]; [`Error::Corrupt`] if it is not a margins index.
    pub fn read(path: &Path) -> Result<Index> {
        let text = std::fs::read_to_string(path).map_err(|error| Error::Io { path: path.to_path_buf(), error })?;
        serde_json::from_str(&text)
            .map_err(|e| Error::Corrupt { path: path.to_path_buf(), what: format!("not a margins index: {e}") })
    }
}

/// One threshold's solve.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Threshold {
    /// Black's final difference is compared with this.
    pub threshold: i32,
    /// The solution file, in the directory.
    pub file: String,
    /// Positions whose difference is exactly the threshold (the drawn ones).
    pub exactly: u128,
    /// DFA states of those sets (both sides).
    pub exactly_states: usize,
    /// DFA states of the sets of positions whose difference is at least the threshold.
    pub at_least_states: usize,
    /// Seconds the solve took; `None` for a solve an earlier run saved (read, not solved).
    pub wall_s: Option<f64>,
}

/// Whether `dir` is a margins directory.
pub fn is_margins_dir(dir: &Path) -> bool {
    dir.join(INDEX).is_file()
}

/// The file name of threshold `t`'s solution.
pub fn file_name(t: i32) -> String {
    format!("threshold{t:+}.dfas")
}

/// Black's final difference against the threshold, from the value for the player to move.
pub fn against_threshold(value: Outcome, mover: Side) -> Ordering {
    let for_mover = match value {
        Outcome::Win { .. } => Ordering::Greater,
        Outcome::Draw => Ordering::Equal,
        Outcome::Loss { .. } => Ordering::Less,
    };
    if mover == Side::First { for_mover } else { for_mover.reverse() }
}

/// Where a binary search over the thresholds ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bisected {
    /// The difference: the threshold that draws.
    Difference(i32),
    /// A solve asked does not cover the position.
    NotCovered,
    /// No threshold draws it: the solves disagree.
    NoThreshold,
}

/// Binary search over the thresholds `-n..=n` for the one that draws a position, given how
/// Black's difference compares with each threshold asked (`None`: not covered).
///
/// # Errors
/// Whatever `against` returns.
pub fn bisect<E>(
    n: i32,
    mut against: impl FnMut(i32) -> std::result::Result<Option<Ordering>, E>,
) -> std::result::Result<Bisected, E> {
    let (mut lo, mut hi) = (-n, n);
    while lo <= hi {
        let t = lo + (hi - lo).div_euclid(2);
        match against(t)? {
            None => return Ok(Bisected::NotCovered),
            Some(Ordering::Equal) => return Ok(Bisected::Difference(t)),
            Some(Ordering::Greater) => lo = t + 1,
            Some(Ordering::Less) => hi = t - 1,
        }
    }
    Ok(Bisected::NoThreshold)
}

/// The measures of threshold `t` from its solution: positions and states of the exactly-`t`
/// sets, and states of the at-least-`t` sets.
///
/// # Errors
/// An [`EngineStop`](crate::dfa::limits::EngineStop) while uniting a side's classes.
pub fn measure(t: i32, solution: &Solution, file: String, wall_s: Option<f64>) -> Stoppable<Threshold> {
    let (mut exactly, mut exactly_states, mut at_least_states) = (0u128, 0, 0);
    for side in Side::BOTH {
        let of = |keep: &dyn Fn(Outcome) -> bool| {
            let sets: Vec<_> =
                solution.classes.iter().filter(|c| c.side == side && keep(c.outcome)).map(|c| &c.set).collect();
            crate::dfa::Dfa::union_all(solution.classes[0].set.shape(), &sets)
        };
        let drawn = of(&|o| o == Outcome::Draw)?;
        exactly += drawn.count();
        exactly_states += drawn.state_count();
        at_least_states += of(&|o| against_threshold(o, side) != Ordering::Less)?.state_count();
        if solution.mover_relative {
            break;
        }
    }
    Ok(Threshold { threshold: t, file, exactly, exactly_states, at_least_states, wall_s })
}

/// A margins directory answering positions: values and distances from the plain game's
/// solution (threshold 0), exact differences by binary search over the thresholds.
pub struct MarginsSolved {
    dir: PathBuf,
    index: Index,
    plain: DfaSolved,
    games: &'static Games,
    loaded: Mutex<HashMap<i32, Arc<Solution>>>,
}

impl MarginsSolved {
    /// The directory's index: its game, the start's difference and each threshold's solve.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The start of the game.
    pub fn start_position(&self) -> &Position {
        &self.plain.solution.initial
    }

    /// Open the margins directory `dir`.
    ///
    /// # Errors
    /// A missing or malformed index, thresholds that are not `-N..=N`, or a solution that is
    /// not the index's game at its threshold.
    pub fn open(dir: &Path, games: &'static Games) -> Result<MarginsSolved> {
        let path = dir.join(INDEX);
        let corrupt = |what: String| Error::Corrupt { path: path.clone(), what };
        let index = Index::read(&path)?;
        let Some(OthelloParams { width, height, threshold: 0, .. }) = index.params.fields("othello")? else {
            return Err(corrupt("not the plain game of Othello".into()));
        };
        let n = (width * height) as i32;
        if !index.thresholds.iter().map(|t| t.threshold).eq(-n..=n) {
            return Err(corrupt(format!("the thresholds are not -{n}..={n}")));
        }
        let plain = DfaSolved::load(&dir.join(file_name(0)), games)?;
        let m = MarginsSolved { dir: dir.to_path_buf(), index, plain, games, loaded: Mutex::new(HashMap::new()) };
        m.check_params(0, &m.plain.solution)?;
        Ok(m)
    }

    fn check_params(&self, t: i32, s: &Solution) -> Result<()> {
        let params: OthelloParams = self.index.params.fields("othello")?.expect("checked on open");
        let want = GameParams::of(&OthelloParams { threshold: t, ..params });
        if s.params != want {
            return Err(Error::Mismatch(format!("{}: a solution of {:?}, not of {want:?}", file_name(t), s.params)));
        }
        Ok(())
    }

    /// Threshold `t`'s solution, loaded on first use.
    fn at(&self, t: i32) -> Result<Arc<Solution>> {
        if let Some(s) = self.loaded.lock().unwrap_or_else(PoisonError::into_inner).get(&t) {
            return Ok(s.clone());
        }
        let (_, s) = Solution::load(&self.dir.join(file_name(t)), self.games)?;
        self.check_params(t, &s)?;
        let s = Arc::new(s);
        self.loaded.lock().unwrap_or_else(PoisonError::into_inner).insert(t, s.clone());
        Ok(s)
    }

    /// Black's final difference from `pos` under perfect play; `None` where the solutions do
    /// not cover it.
    ///
    /// # Errors
    /// Solutions that cannot be read, or that disagree (no threshold draws the position).
    pub fn difference(&self, pos: &Position) -> Result<Option<i32>> {
        let n = self.index.thresholds.len() as i32 / 2;
        match bisect(n, |t| Ok::<_, Error>(self.at(t)?.checked_value(pos)?.map(|v| against_threshold(v, pos.side))))? {
            Bisected::Difference(t) => Ok(Some(t)),
            Bisected::NotCovered => Ok(None),
            Bisected::NoThreshold => Err(Error::Mismatch(format!(
                "no threshold draws {}: the solutions disagree",
                self.plain.game.render(pos)
            ))),
        }
    }

    /// The final score for the player to move.
    fn score(&self, pos: &Position) -> Result<Option<i32>> {
        Ok(self.difference(pos)?.map(|d| if pos.side == Side::First { d } else { -d }))
    }
}

impl Solved for MarginsSolved {
    fn game(&self) -> String {
        format!("{} (exact margins)", self.plain.game.name())
    }

    fn start(&self) -> String {
        self.plain.start()
    }

    fn look(&self, text: &str) -> Result<Look> {
        let pos = self.plain.game.parse(text)?;
        let mut look = self.plain.look_at(&pos)?;
        look.score = self.score(&pos)?;
        // The value is the score's ([`outcome`]), where the score is known.
        if look.over == Status::Ongoing {
            look.value = look.score.map(outcome).or(look.value);
        }
        for m in &mut look.moves {
            m.score_for_opponent = self.score(&self.plain.game.parse(&m.position)?)?;
            m.value_for_opponent = m.score_for_opponent.map(outcome).or(m.value_for_opponent);
        }
        rank_moves(&mut look.moves);
        Ok(look)
    }
}
