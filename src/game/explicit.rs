//! The explicit oracle of a game: its rules as plain board code, position by position, which
//! never touches the symbolic description ([`super::Rules`]). Tests and `check` confirm the
//! symbolic sets against it.

use crate::vocabulary::{Position, Status};

/// The rules of a game, one position at a time.
pub trait ExplicitRules: Sync {
    /// Positions reachable in one move of `pos.side` (the other side to move), by the rules
    /// alone. Only called on positions with status `Ongoing`.
    fn explicit_moves(&self, pos: &Position) -> Vec<Position>;

    /// Whether the game is over for the player to move, by the rules alone.
    fn explicit_status(&self, pos: &Position) -> Status;
}
