//! The vocabulary of play shared by the games, the solutions and the solver: who moves
//! ([`Side`]), what stands on the board ([`Position`]), how many moves have been made
//! ([`Ply`]), and what a position is worth ([`Outcome`], [`Status`]).

use crate::dfa::Symbol;
use std::fmt;

/// A player. `First` moves first from the initial position. Written `first` and `second` in
/// every report, as people type them (files of earlier builds said `First`: still read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The player who moves first.
    #[serde(alias = "First")]
    First,
    /// The other player.
    #[serde(alias = "Second")]
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

    /// `[f(First), f(Second)]`, or the first error.
    ///
    /// # Errors
    /// The first error `f` returns.
    pub fn try_both<T, E>(mut f: impl FnMut(Side) -> Result<T, E>) -> Result<[T; 2], E> {
        Ok([f(Side::First)?, f(Side::Second)?])
    }

    /// The side to move after `ply` plies from a position with `start` to move.
    pub fn after(start: Side, ply: Ply) -> Side {
        if ply.0.is_multiple_of(2) { start } else { start.other() }
    }
}

impl crate::choice::Choice for Side {
    const ALL: &'static [Side] = &Side::BOTH;

    fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }

    fn help(self) -> &'static str {
        match self {
            Side::First => "The player who moves first",
            Side::Second => "The other player",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(crate::choice::Choice::name(*self))
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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

/// Serde `serialize_with` for a value written as its text (`"first"`).
///
/// # Errors
/// The serializer's.
pub fn serialize_display_always<T: fmt::Display, S: serde::Serializer>(
    value: &T,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// Serde `serialize_with` for an optional value written as its text (`"win in 7 plies"`), as
/// reports show values.
///
/// # Errors
/// The serializer's.
pub fn serialize_display<T: fmt::Display, S: serde::Serializer>(
    value: &Option<T>,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    match value {
        Some(v) => serializer.collect_str(v),
        None => serializer.serialize_none(),
    }
}

/// Whether the game is over for the player to move, by the explicit rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The player to move has already lost (includes having no legal move, in games where
    /// that loses).
    Lost,
    /// The player to move has already won.
    Won,
    /// The game is over in a draw.
    Drawn,
}

impl Status {
    /// `ongoing`, `won`, `lost` or `drawn`: the JSON word.
    pub fn word(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Won => "won",
            Status::Lost => "lost",
            Status::Drawn => "drawn",
        }
    }

    /// The value of a position the rules end, for the player to move (`None`: it goes on).
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Status::Ongoing => None,
            Status::Won => Some(Outcome::Win { plies: Some(0) }),
            Status::Lost => Some(Outcome::Loss { plies: Some(0) }),
            Status::Drawn => Some(Outcome::Draw),
        }
    }
}

/// A number of half-moves: a ply of a forward search, or a distance to the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Ply(pub u32);

impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Order outcomes of the positions a move leads to (values for the opponent), best move for
/// the mover first: opponent loses soonest, then draws, then opponent wins latest. A value
/// whose distance is unknown (a meet in the middle's) ranks after every known one of its
/// kind: an immediate win is never listed below a win of unknown length.
pub fn move_rank(after: Option<Outcome>) -> (u8, i64) {
    match after {
        Some(Outcome::Loss { plies: Some(n) }) => (0, i64::from(n)),
        Some(Outcome::Loss { plies: None }) => (1, 0),
        Some(Outcome::Draw) => (2, 0),
        Some(Outcome::Win { plies: Some(n) }) => (3, -i64::from(n)),
        Some(Outcome::Win { plies: None }) => (4, 0),
        None => (5, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_after_alternates_from_the_start() {
        assert_eq!(Side::after(Side::First, Ply(0)), Side::First);
        assert_eq!(Side::after(Side::First, Ply(3)), Side::Second);
        assert_eq!(Side::after(Side::Second, Ply(4)), Side::Second);
        assert_eq!(Side::First.other().other(), Side::First);
    }

    #[test]
    fn outcomes_read_and_rank_as_a_player_would() {
        assert_eq!(Outcome::Win { plies: Some(1) }.to_string(), "win in 1 ply");
        assert_eq!(Outcome::Loss { plies: Some(4) }.to_string(), "loss in 4 plies");
        assert_eq!(Outcome::Loss { plies: None }.to_string(), "loss");
        // Best move first: the opponent loses soonest, then draws, then wins latest.
        let mut after = [
            Some(Outcome::Win { plies: Some(3) }),
            None,
            Some(Outcome::Draw),
            Some(Outcome::Loss { plies: Some(5) }),
            Some(Outcome::Loss { plies: Some(1) }),
            Some(Outcome::Win { plies: Some(9) }),
        ];
        after.sort_by_key(|o| move_rank(*o));
        assert_eq!(after[0], Some(Outcome::Loss { plies: Some(1) }));
        assert_eq!(after[2], Some(Outcome::Draw));
        assert_eq!(after[3], Some(Outcome::Win { plies: Some(9) }));
        assert_eq!(after[5], None);
    }

    #[test]
    fn a_known_distance_ranks_above_an_unknown_one() {
        let known_loss = move_rank(Some(Outcome::Loss { plies: Some(40) }));
        let unknown_loss = move_rank(Some(Outcome::Loss { plies: None }));
        let draw = move_rank(Some(Outcome::Draw));
        let known_win = move_rank(Some(Outcome::Win { plies: Some(1) }));
        let unknown_win = move_rank(Some(Outcome::Win { plies: None }));
        assert!(known_loss < unknown_loss && unknown_loss < draw && draw < known_win);
        assert!(known_win < unknown_win && unknown_win < move_rank(None));
    }
}
