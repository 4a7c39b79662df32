//! Retrograde analysis over the whole universe: from the terminal positions back, one
//! iteration per ply of distance, to the fixpoint (or a given depth). It is the pass of
//! `pass.rs` with no lower values; see the formulas in the module docs of [`super`].

use super::pass::Depth;
use super::{PerSide, Solver};
use crate::dfa::Dfa;
use crate::error::Result;
use crate::solved::ValueClass;

/// Result of a retrograde pass: cumulative sets and exact-distance increments per side.
#[derive(Clone, Debug)]
pub struct Retrograde {
    /// `win[s]` = positions with `s` to move won within the iterations done.
    pub win: PerSide<Dfa>,
    /// `loss[s]` likewise lost.
    pub loss: PerSide<Dfa>,
    /// `new_win[s][n]` = won in exactly `n` plies.
    pub new_win: PerSide<Vec<Dfa>>,
    /// `new_loss[s][n]` = lost in exactly `n` plies.
    pub new_loss: PerSide<Vec<Dfa>>,
    /// Whether the fixpoint was reached.
    pub complete: bool,
}

impl Solver<'_> {
    /// Retrograde analysis for at most `max_iterations` (to the fixpoint if `None`).
    ///
    /// With a checkpoint directory, each iteration's increments are saved as it finishes, and
    /// all but the newest leave memory until the pass ends, when they are read back.
    ///
    /// # Errors
    /// Checkpoint files that cannot be written or read.
    pub fn retrograde(&mut self, max_iterations: Option<u32>) -> Result<Retrograde> {
        self.make_whole()?;
        let mut start = self.pass_start(self.whole_made().for_pass())?;
        start.depth = max_iterations.map_or(Depth::Fixpoint, Depth::Iterations);
        let r = self.backward_pass(start)?;
        // The pass keeps no running losses (it needs none): the union of the increments.
        let shape = self.game.shape();
        let loss = r.new_loss.try_map(|_, sets| Dfa::union_all(shape, &sets.iter().collect::<Vec<_>>()))?;
        Ok(Retrograde { win: r.win, loss, new_win: r.new_win, new_loss: r.new_loss, complete: r.complete })
    }

    /// Retrograde to the fixpoint: exact distances, and draws where nothing was decided.
    pub(super) fn solve_strong(&mut self) -> Result<Vec<ValueClass>> {
        self.make_whole()?;
        let start = self.pass_start(self.whole_made().for_pass())?;
        Ok(self.backward_pass(start)?.into_values()?)
    }
}
