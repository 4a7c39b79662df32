//! Games: what a new game implements once to be solved with sets.
//!
//! A game describes its positions as strings of one [`Shape`], and gives two independent
//! descriptions of its rules:
//!
//! * the **symbolic** one the solver uses: universes, terminal sets and a [`MoveGraph`] per
//!   side to move;
//! * the **explicit** oracle ([`Game::explicit_moves`], [`Game::explicit_status`]): plain board
//!   code that never touches the symbolic description, used by tests and by `check` to confirm
//!   the symbolic sets.
//!
//! Side to move: every set is "positions with side `s` to move", kept as one set per side
//! (the solver indexes by [`Side`]). Strings never mirror the board, so the encoding stays the
//! plain row-major board and switching sides costs nothing. A game whose two sides are mirror
//! images of each other says so with [`Game::side_mirror`]; the solver may then derive the
//! second side's sets from the first side's (one [`Dfa::reverse`] and one relabelling each)
//! instead of computing their images.

pub mod breakthrough;
pub mod nim;
pub mod ostle;

use crate::dfa::{Dfa, Shape, Symbol};
use crate::error::Result;
use crate::move_graph::{ListedMoves, MoveGraph, Moves};
use std::fmt;

/// A player. `First` moves first from the initial position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Side {
    /// The player who moves first.
    First,
    /// The other player.
    Second,
}

impl Side {
    /// The other player.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second` (for indexing per-side arrays).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Both sides, first first.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The side to move after `ply` plies from a position with `start` to move.
    pub fn after(start: Side, ply: u32) -> Side {
        if ply.is_multiple_of(2) { start } else { start.other() }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::First => "first",
            Side::Second => "second",
        })
    }
}

/// A game state as the solver sees it: the side to move and the string.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// Who moves.
    pub side: Side,
    /// One symbol per layer of the game's shape.
    pub board: Vec<Symbol>,
}

/// The value of a position for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Outcome {
    /// The player to move wins; `plies` until the game ends with best play, when known.
    Win {
        /// Plies to the end of the game (the winner's last move included), if known.
        plies: Option<u32>,
    },
    /// The player to move loses.
    Loss {
        /// Plies to the end of the game (0: already lost), if known.
        plies: Option<u32>,
    },
    /// Neither side can force a win.
    Draw,
}

impl Outcome {
    /// Win/loss/draw without the distance (for comparing solvers that do not all give it).
    pub fn kind(self) -> &'static str {
        match self {
            Outcome::Win { .. } => "win",
            Outcome::Loss { .. } => "loss",
            Outcome::Draw => "draw",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { plies: Some(p) } => write!(f, "win in {p} {}", if *p == 1 { "ply" } else { "plies" }),
            Outcome::Loss { plies: Some(p) } => write!(f, "loss in {p} {}", if *p == 1 { "ply" } else { "plies" }),
            Outcome::Win { plies: None } => write!(f, "win"),
            Outcome::Loss { plies: None } => write!(f, "loss"),
            Outcome::Draw => write!(f, "draw"),
        }
    }
}

/// Whether the game is over for the player to move, by the explicit rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The player to move has already lost (includes having no legal move).
    Lost,
    /// The player to move has already won.
    Won,
}

/// Everything the solver and the checks need to know about a game.
pub trait Game: Sync {
    /// A short identifier with parameters, e.g. `breakthrough 4x4`.
    fn name(&self) -> String;

    /// Parameters as JSON (stored in solution files so `query` can rebuild the game).
    fn params(&self) -> serde_json::Value;

    /// The shape of every position string.
    fn shape(&self) -> &Shape;

    /// The start of the game.
    fn initial(&self) -> Position;

    /// Every legal position with `side` to move (the universe of a strong solve).
    fn universe(&self, side: Side) -> Dfa;

    /// Positions in the universe with `side` to move that are already lost for `side` by a
    /// rule of the game. Positions without a legal move are added by the solver.
    fn lost_terminal(&self, side: Side) -> Dfa;

    /// Positions with `side` to move that are already won for `side` (most games: none).
    fn won_terminal(&self, _side: Side) -> Dfa {
        Dfa::reject_all(self.shape())
    }

    /// The moves of `side`: maps positions with `side` to move to positions with the other
    /// side to move. Applied only to non-terminal positions.
    fn moves(&self, side: Side) -> MoveGraph;

    /// States of `side` whose moves the move graph does not describe, with their moves written
    /// out (most games: none). They override the graph for those states.
    fn listed_moves(&self, _side: Side) -> Option<ListedMoves> {
        None
    }

    /// The moves of `side` as the solver applies them: [`Game::moves`], overridden on the
    /// states of [`Game::listed_moves`].
    fn solver_moves(&self, side: Side) -> Moves {
        Moves::new(self.moves(side), self.listed_moves(side))
    }

    /// Positions of the universe with `side` to move that the rules do not end but that have no
    /// legal move, if the game knows them (`None`: the solver computes them with one backward
    /// image of the whole universe, which can be the most expensive image of a solve).
    fn stuck(&self, _side: Side) -> Option<Dfa> {
        None
    }

    /// Whether the game can go on forever (the solver then reports draws).
    fn has_draws(&self) -> bool {
        false
    }

    /// Whether strings are written from the mover's point of view, so that both sides share
    /// one universe, one move graph and one set of values (the solver then does one side's
    /// work and uses it for both).
    fn mover_relative(&self) -> bool {
        false
    }

    /// A map taking the positions with the first side to move onto equivalent positions with
    /// the second side to move (same value, same distance), if the rules have one; it must be
    /// its own inverse. The retrograde pass may then compute images for the first side only and
    /// carry the second side's sets over with it (see [`SideMirror`] and the solver's
    /// `MirrorPolicy`).
    fn side_mirror(&self) -> Option<SideMirror> {
        None
    }

    // ---- the explicit oracle: plain board code, independent of the symbolic rules ----

    /// Positions reachable in one move of `pos.side` (the other side to move), by the rules
    /// alone. Only called on positions with status `Ongoing`.
    fn explicit_moves(&self, pos: &Position) -> Vec<Position>;

    /// Whether the game is over for the player to move, by the rules alone.
    fn explicit_status(&self, pos: &Position) -> Status;

    /// The human-readable text form of a position (parsed back by [`Game::parse`]).
    fn render(&self, pos: &Position) -> String;

    /// Parse the text form of a position, checking it is a legal position.
    ///
    /// # Errors
    /// [`crate::Error::BadPosition`] naming what is wrong.
    fn parse(&self, text: &str) -> Result<Position>;

    /// A name for the move from `from` to `to` (for query output), e.g. `b2-b3`.
    fn move_name(&self, from: &Position, to: &Position) -> String;
}

/// A symmetry between the two sides to move (see [`Game::side_mirror`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideMirror {
    /// Read the string backwards (the 180° rotation of a row-major board) and swap the two
    /// players' symbols `a` and `b`: Breakthrough, whose rules are the same mirrored left to
    /// right. Costs one [`Dfa::reverse`] (a subset construction) and one relabelling pass.
    RotateAndSwap {
        /// One player's piece.
        a: Symbol,
        /// The other player's piece.
        b: Symbol,
    },
}

impl SideMirror {
    /// The image of `set` (also the preimage: the map is an involution).
    pub fn apply(&self, set: &Dfa) -> Dfa {
        self.apply_bounded(set, usize::MAX).expect("an unbounded mirror always finishes")
    }

    /// [`SideMirror::apply`], given up (`None`) when it would hold more than `budget` ids at
    /// once (see [`Dfa::reverse_bounded`]).
    pub fn apply_bounded(&self, set: &Dfa, budget: usize) -> Option<Dfa> {
        match *self {
            SideMirror::RotateAndSwap { a, b } => Some(set.reverse_bounded(budget)?.swap_symbols(a, b)),
        }
    }
}

/// Rebuild a game from the parameters stored in a solution file ([`Game::params`]).
///
/// # Errors
/// [`crate::Error::UnknownGame`] or [`crate::Error::BadParameters`].
pub fn from_params(params: &serde_json::Value) -> Result<Box<dyn Game>> {
    let get = |k: &str| {
        params[k]
            .as_u64()
            .map(|v| v as usize)
            .ok_or_else(|| crate::Error::BadParameters(format!("parameter {k:?} missing")))
    };
    match params["game"].as_str() {
        Some("nim") => Ok(Box::new(nim::Nim::new(get("heaps")?, get("tokens")?)?)),
        Some("breakthrough") => {
            let order = match params["order"].as_str() {
                None => breakthrough::SquareOrder::Rows,
                Some(name) => breakthrough::SquareOrder::parse(name)?,
            };
            Ok(Box::new(breakthrough::Breakthrough::with_order(get("width")?, get("height")?, order)?))
        }
        Some("ostle") => Ok(Box::new(ostle::Ostle::new(ostle::Variant {
            width: get("width")?,
            height: get("height")?,
            pieces: get("pieces")?,
            lose_at: get("lose_at")?,
            rule: ostle::Rule::parse(params["rule"].as_str().unwrap_or("?"))?,
        })?)),
        other => Err(crate::Error::UnknownGame(other.unwrap_or("?").to_string())),
    }
}

/// Order outcomes of the positions a move leads to (values for the opponent), best move for
/// the mover first: opponent loses soonest, then draws, then opponent wins latest.
pub fn move_rank(after: Option<Outcome>) -> (u8, i64) {
    match after {
        Some(Outcome::Loss { plies }) => (0, plies.map_or(0, i64::from)),
        Some(Outcome::Draw) => (1, 0),
        Some(Outcome::Win { plies }) => (2, -plies.map_or(0, i64::from)),
        None => (3, 0),
    }
}
