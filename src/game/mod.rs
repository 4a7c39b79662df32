//! What a game is, for the solver and for everything that reads a solved game: the [`Game`]
//! trait, and the parameters that name a game in files ([`GameParams`]). Names no game: the
//! games implement it in `crate::games`, whose table builds a game from its parameters.
//!
//! A game describes its positions as strings of one [`Shape`](crate::dfa::Shape), and gives two independent
//! descriptions of its rules:
//!
//! * the **symbolic** one the solver uses: universes, terminal sets and a [`MoveGraph`](crate::move_graph::MoveGraph) per
//!   side to move;
//! * the **explicit** oracle ([`ExplicitRules::explicit_moves`], [`ExplicitRules::explicit_status`]): plain board
//!   code that never touches the symbolic description, used by tests and by `check` to confirm
//!   the symbolic sets.
//!
//! Side to move: every set is "positions with side `s` to move", kept as one set per side
//! (the solver indexes by [`Side`]). Strings never mirror the board, so the encoding stays the
//! plain row-major board and switching sides costs nothing. A game whose two sides are mirror
//! images of each other says so with [`SolverHints::side_mirror`]; the solver may then derive the
//! second side's sets from the first side's (one [`Dfa::reverse`] and one relabelling each)
//! instead of computing their images.

mod class;
mod explicit;
mod hints;
mod params;
mod rules;

pub use class::{PositionClass, check_order};
pub use explicit::ExplicitRules;
pub use hints::SolverHints;
pub use params::{GameParams, Params};
pub use rules::Rules;

use crate::dfa::limits::Stoppable;
use crate::dfa::{Dfa, Symbol};
pub use crate::vocabulary::{Outcome, Ply, Position, Side, Status, move_rank};

/// Everything the solver and the checks need to know about a game: its [`Rules`], its
/// [`ExplicitRules`] (the independent oracle) and its [`SolverHints`]. Every type with the
/// three is a game.
pub trait Game: Rules + ExplicitRules + SolverHints {}

impl<T: Rules + ExplicitRules + SolverHints> Game for T {}

/// What a player with no legal move does (see [`Rules::without_a_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoMove {
    /// The player loses (Breakthrough, Nim, Ostle).
    Loses,
    /// The player passes: the same string with the other side to move (Othello, written
    /// with the side to move beside the board; a mover-relative game's pass would also swap
    /// the players' symbols, which no game needs yet).
    Passes,
}

/// A symmetry between the two sides to move (see [`SolverHints::side_mirror`]).
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
    /// Swap the two players' symbols `a` and `b` where they stand: Othello, whose colours are
    /// interchangeable. One relabelling pass, no subset construction.
    SwapSymbols {
        /// One player's disc.
        a: Symbol,
        /// The other player's disc.
        b: Symbol,
    },
}

impl SideMirror {
    /// Whether the map costs one relabelling pass (so using it always saves work).
    pub fn is_cheap(&self) -> bool {
        matches!(self, SideMirror::SwapSymbols { .. })
    }

    /// The image of `set` (also the preimage: the map is an involution).
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn apply(&self, set: &Dfa) -> Stoppable<Dfa> {
        Ok(self.apply_bounded(set, usize::MAX)?.expect("an unbounded mirror always finishes"))
    }

    /// [`SideMirror::apply`], given up (`None`) when it would hold more than `budget` ids at
    /// once (see [`Dfa::reverse_bounded`]).
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn apply_bounded(&self, set: &Dfa, budget: usize) -> Stoppable<Option<Dfa>> {
        match *self {
            SideMirror::RotateAndSwap { a, b } => match set.reverse_bounded(budget)? {
                Some(reversed) => Ok(Some(reversed.swap_symbols(a, b)?)),
                None => Ok(None),
            },
            SideMirror::SwapSymbols { a, b } => Ok(Some(set.swap_symbols(a, b)?)),
        }
    }
}
