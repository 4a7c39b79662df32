//! The exact value of a Connect Four position by negamax with a memo: plain board code over
//! [`Connect4`]'s explicit rules, the oracle the symbolic solve is checked against on small
//! boards.

use super::Connect4;
use crate::game::ExplicitRules;
use crate::game::{Position, Status};
use crate::vocabulary::Outcome;
use hashbrown::HashMap;

/// Values of positions met, each found once.
pub struct Negamax<'a> {
    game: &'a Connect4,
    memo: HashMap<Position, Outcome>,
}

impl<'a> Negamax<'a> {
    /// An empty memo over `game`.
    pub fn new(game: &'a Connect4) -> Negamax<'a> {
        Negamax { game, memo: HashMap::new() }
    }

    /// The value of `pos` for its player to move: the best of its moves' values seen from the
    /// other side (a win as soon as possible, a loss as late as possible, else a draw).
    pub fn value(&mut self, pos: &Position) -> Outcome {
        if let Some(&v) = self.memo.get(pos) {
            return v;
        }
        let v = match self.game.explicit_status(pos) {
            Status::Lost => Outcome::Loss { plies: Some(0) },
            Status::Won => Outcome::Win { plies: Some(0) },
            Status::Drawn => Outcome::Draw,
            Status::Ongoing => {
                let mut best: Option<Outcome> = None;
                for next in self.game.explicit_moves(pos) {
                    let mine = match self.value(&next) {
                        Outcome::Loss { plies: Some(n) } => Outcome::Win { plies: Some(n + 1) },
                        Outcome::Win { plies: Some(n) } => Outcome::Loss { plies: Some(n + 1) },
                        other => other,
                    };
                    if best.is_none_or(|b| rank(mine) > rank(b)) {
                        best = Some(mine);
                    }
                }
                best.expect("an ongoing position has a move: a board with an empty square has a column to drop in")
            }
        };
        self.memo.insert(pos.clone(), v);
        v
    }
}

/// Order for the mover: any win above a draw above any loss; a shorter win and a longer loss
/// are better.
fn rank(v: Outcome) -> i64 {
    match v {
        Outcome::Win { plies } => 1_000_000 - i64::from(plies.unwrap_or(0)),
        Outcome::Draw => 0,
        Outcome::Loss { plies } => -1_000_000 + i64::from(plies.unwrap_or(0)),
    }
}
