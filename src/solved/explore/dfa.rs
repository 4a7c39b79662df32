//! [`Solved`] for a DFA solution: values by membership in the value classes, moves by the
//! game's explicit rules.

use super::{Look, LookMove, Solved, rank_moves};
use crate::error::Result;
use crate::game::{Game, Status};
use crate::solved::{Games, Solution};
use crate::vocabulary::{Outcome, Position};
use std::path::Path;

/// A DFA solution with its game, loaded once.
pub struct DfaSolved {
    /// The game, rebuilt from the parameters the solution stores.
    pub game: Box<dyn Game>,
    /// The solution.
    pub solution: Solution,
}

impl DfaSolved {
    /// Load a solution file (or a directory of class files).
    ///
    /// # Errors
    /// As [`Solution::load`].
    pub fn load(path: &Path, games: &Games) -> Result<DfaSolved> {
        let (game, solution) = Solution::load(path, games)?;
        Ok(DfaSolved { game, solution })
    }

    /// [`Solved::look`] of a position already parsed.
    ///
    /// # Errors
    /// The position is in two value classes (a damaged solution).
    pub fn look_at(&self, pos: &Position) -> Result<Look> {
        look_by_values(self.game.as_ref(), pos, |p| self.solution.checked_value(p))
    }
}

/// The [`Look`] of `pos` in `game`, its values and its moves' from `value`.
///
/// # Errors
/// What `value` reports.
pub(super) fn look_by_values(
    game: &dyn Game,
    pos: &Position,
    value: impl Fn(&Position) -> Result<Option<Outcome>>,
) -> Result<Look> {
    let over = game.explicit_status(pos);
    let mut moves = Vec::new();
    if over == Status::Ongoing {
        for next in game.explicit_moves(pos) {
            moves.push(LookMove {
                name: game.move_name(pos, &next),
                position: game.render(&next),
                value_for_opponent: value(&next)?,
                score_for_opponent: None,
            });
        }
        rank_moves(&mut moves);
    }
    Ok(Look {
        position: game.render(pos),
        board: game.draw(pos, pos.side),
        side_to_move: pos.side,
        value: value(pos)?,
        over,
        score: None,
        moves,
    })
}

impl Solved for DfaSolved {
    fn game(&self) -> String {
        self.game.name()
    }

    fn start(&self) -> String {
        self.game.render(&self.solution.initial)
    }

    fn look(&self, text: &str) -> Result<Look> {
        self.look_at(&self.game.parse(text)?)
    }
}
