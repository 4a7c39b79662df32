//! The value an explicit solve knows: always with its distance.

use crate::vocabulary::Outcome;
use std::fmt;

/// A position's value for the player to move, with the plies to the end under best play.
/// An [`Outcome`] may lack its distance (a solve that does not count it); this never does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Exact {
    /// The mover loses in this many plies (0: already lost).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
    /// The mover wins in this many plies (the winner's last move included).
    Win(u32),
}

impl Exact {
    /// The value of `outcome`, if it has its distance.
    pub fn of(outcome: Outcome) -> Option<Exact> {
        match outcome {
            Outcome::Win { plies } => plies.map(Exact::Win),
            Outcome::Loss { plies } => plies.map(Exact::Loss),
            Outcome::Draw => Some(Exact::Draw),
        }
    }

    /// The value of a position one of whose moves leads to a position of value `self`, seen
    /// from the mover: a move into a loss wins one ply later, into a win loses one ply later.
    pub fn before(self) -> Exact {
        match self {
            Exact::Loss(n) => Exact::Win(n + 1),
            Exact::Win(n) => Exact::Loss(n + 1),
            Exact::Draw => Exact::Draw,
        }
    }

    /// The better of two values for the mover: a win over a draw over a loss, the shorter
    /// win, the longer loss.
    pub fn best(self, other: Exact) -> Exact {
        let rank = |v: Exact| match v {
            Exact::Win(n) => (2, -i64::from(n)),
            Exact::Draw => (1, 0),
            Exact::Loss(n) => (0, i64::from(n)),
        };
        if rank(other) > rank(self) { other } else { self }
    }
}

impl From<Exact> for Outcome {
    fn from(v: Exact) -> Outcome {
        match v {
            Exact::Win(n) => Outcome::Win { plies: Some(n) },
            Exact::Loss(n) => Outcome::Loss { plies: Some(n) },
            Exact::Draw => Outcome::Draw,
        }
    }
}

impl fmt::Display for Exact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Outcome::from(*self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_convert_both_ways_and_rank_as_a_player_would() {
        for v in [Exact::Win(3), Exact::Loss(0), Exact::Draw] {
            assert_eq!(Exact::of(v.into()), Some(v));
        }
        assert_eq!(Exact::of(Outcome::Win { plies: None }), None);
        assert_eq!(Exact::Loss(4).before(), Exact::Win(5));
        assert_eq!(Exact::Win(1).best(Exact::Win(3)), Exact::Win(1));
        assert_eq!(Exact::Loss(2).best(Exact::Loss(6)), Exact::Loss(6));
        assert_eq!(Exact::Loss(9).best(Exact::Draw), Exact::Draw);
        assert_eq!(Exact::Draw.best(Exact::Win(40)), Exact::Win(40));
        assert_eq!(Exact::Win(7).to_string(), "win in 7 plies");
    }
}
