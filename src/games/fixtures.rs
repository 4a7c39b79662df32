//! Games for the unit tests of the generic layers (the solver, the move graphs), each named
//! by the property a test needs rather than by the game, so that those layers name no game.

use super::{breakthrough::Breakthrough, nim::Nim, ostle};
use crate::game::Game;

/// A two-sided board game whose sides do not share their sets, whose moves flatten into
/// plans, and whose first plies are a few hundred positions: Breakthrough 4x5.
pub(crate) fn a_board_game_of_two_sides() -> impl Game {
    Breakthrough::new(4, 5).expect("a valid size")
}

/// A game of two-symbol strings whose symbols are 0 to 2 and whose sides share their sets:
/// Nim with two heaps of at most two tokens.
pub(crate) fn a_game_of_two_symbols() -> impl Game {
    Nim::new(2, 2).expect("valid heaps")
}

/// A game whose escape filters go by parts ([`SolverHints::filter_parts`](crate::game::SolverHints::filter_parts), nine of them, of which
/// the first three hold the positions whose distinguished square is in the first row):
/// Ostle on a 3x3 board, three pieces each, lost at the first piece pushed off.
pub(crate) fn a_game_filtered_by_parts() -> impl Game {
    use ostle::{Ostle, Rule, Variant};
    Ostle::new(Variant { width: 3, height: 3, pieces: 3, lose_at: 1, rule: Rule::Exact }).expect("a valid variant")
}

/// A game without draws whose lost positions a rule tells: a string of heap sizes is lost for
/// the mover exactly when the sizes XOR to zero (Nim with three heaps of three tokens).
pub(crate) fn a_game_lost_where_the_symbols_xor_to_zero() -> impl Game {
    Nim::new(3, 3).expect("valid heaps")
}
