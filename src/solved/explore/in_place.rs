//! [`Solved`] for a solution file too large to load, read in place ([`SolutionInPlace`]).

use super::dfa::look_by_values;
use super::{Look, Solved};
use crate::error::Result;
use crate::game::Game;
use crate::solved::solution::SolutionInPlace;

/// A solution file with its game; its sets stay in the file.
pub struct InPlaceSolved {
    game: Box<dyn Game>,
    solution: SolutionInPlace,
}

impl InPlaceSolved {
    /// The file's game and solution, as [`SolutionInPlace::open`] finds them.
    pub fn new(game: Box<dyn Game>, solution: SolutionInPlace) -> InPlaceSolved {
        InPlaceSolved { game, solution }
    }
}

impl Solved for InPlaceSolved {
    fn game(&self) -> String {
        self.game.name()
    }

    fn start(&self) -> String {
        self.game.render(&self.game.initial())
    }

    fn look(&self, text: &str) -> Result<Look> {
        let pos = self.game.parse(text)?;
        look_by_values(self.game.as_ref(), &pos, |p| self.solution.value(p))
    }
}
