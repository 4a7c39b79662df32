//! Forward ply sets: every position reachable from a start in exactly `k` plies.

use super::{PerSide, Solver, StepKey};
use crate::dfa::Dfa;
use crate::error::{Error, Result};
use crate::record::{Phase, SetName};
use crate::vocabulary::{Ply, Position, Side};

impl Solver<'_> {
    /// Forward ply sets from `start` until a ply is empty (or `max_plies`), not expanding
    /// terminal positions nor positions in `decided[side]`.
    ///
    /// # Errors
    /// Checkpoint files that cannot be written or read.
    pub fn forward_plies(
        &mut self,
        start: &Position,
        decided: Option<&PerSide<Dfa>>,
        max_plies: Option<u32>,
    ) -> Result<Vec<Dfa>> {
        let shape = self.game.shape().clone();
        self.make_whole()?;
        let mut plies = vec![Dfa::from_string(&shape, &start.board)];
        self.recorder.record(Phase::Forward, 0, start.side, SetName::Reachable, &plies[0]);
        loop {
            let k = plies.len() as u32 - 1;
            if max_plies.is_some_and(|m| k >= m) {
                break;
            }
            let side = Side::after(start.side, Ply(k));
            let name = StepKey::Forward(k);
            let next = match self.checkpoints.load(&name)? {
                Some(b) => b
                    .entries
                    .into_iter()
                    .next()
                    .map(|(_, d)| d)
                    .ok_or_else(|| Error::Mismatch(format!("{name}: empty checkpoint")))?,
                None => {
                    let mut expand = plies[k as usize].intersection(&self.whole_made().ongoing[side])?;
                    if let Some(d) = decided {
                        expand = expand.difference(&d[side])?;
                    }
                    let next = self.forward(side, &expand)?;
                    self.checkpoints.save(&name, &[(SetName::Reachable.as_str(), &next)])?;
                    next
                }
            };
            if next.is_empty() {
                break;
            }
            self.recorder.record(Phase::Forward, k + 1, side.other(), SetName::Reachable, &next);
            plies.push(next);
        }
        Ok(plies)
    }
}
