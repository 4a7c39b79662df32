//! A pass's increments (each iteration's new wins and new losses) on disk: one checkpoint
//! per finished iteration, and all but the newest out of memory until the pass ends.

use super::{PerSide, Solver, StepKey};
use crate::dfa::Dfa;
use crate::error::{Error, Result};

/// The new wins and new losses of one iteration, by side to move.
pub(super) type Increments = (PerSide<Dfa>, PerSide<Dfa>);

impl Solver<'_> {
    /// With checkpoints, drop iteration `n - 1`'s increments from memory once iteration `n`'s
    /// are in: only the newest are read from here on, and the older wait on disk until the
    /// pass ends (held, they grow to gigabytes on long solves). `spilled` lists them.
    pub(super) fn spill_previous(
        &self,
        n: usize,
        new_win: &mut PerSide<Vec<Dfa>>,
        new_loss: &mut PerSide<Vec<Dfa>>,
        spilled: &mut Vec<usize>,
    ) {
        if n < 2 || !self.checkpoints.enabled() {
            return;
        }
        let empty = Dfa::reject_all(self.game.shape());
        for (_, sets) in new_win.iter_mut().chain(new_loss.iter_mut()) {
            sets[n - 1] = empty.clone();
        }
        spilled.push(n - 1);
    }

    /// Read back the increments [`Solver::spill_previous`] dropped, from the checkpoints
    /// `name(iteration)`.
    pub(super) fn restore_spilled(
        &self,
        spilled: Vec<usize>,
        name: impl Fn(usize) -> StepKey,
        new_win: &mut PerSide<Vec<Dfa>>,
        new_loss: &mut PerSide<Vec<Dfa>>,
    ) -> Result<()> {
        for old in spilled {
            let name = name(old);
            let (dw, dl) = self
                .load_increments(&name, Reading::Own)?
                .ok_or_else(|| Error::Mismatch(format!("checkpoint {name} disappeared during the run")))?;
            for ((s, dw), (_, dl)) in dw.into_iter_sides().zip(dl.into_iter_sides()) {
                new_win[s][old] = dw;
                new_loss[s][old] = dl;
            }
        }
        Ok(())
    }

    /// Checkpoint one finished iteration's increments under `name` (nothing without a
    /// checkpoint directory).
    pub(super) fn save_increments(&self, name: &StepKey, dw: &PerSide<Dfa>, dl: &PerSide<Dfa>) -> Result<()> {
        let names: Vec<[String; 2]> =
            dw.sides().iter().map(|s| [format!("new_win/{s}"), format!("new_loss/{s}")]).collect();
        let mut entries: Vec<(&str, &Dfa)> = Vec::new();
        for (&s, [win_name, loss_name]) in dw.sides().iter().zip(&names) {
            entries.push((win_name, &dw[s]));
            entries.push((loss_name, &dl[s]));
        }
        self.checkpoints.save(name, &entries)
    }

    /// The increments (new wins, new losses, by side) of one finished iteration, from its
    /// checkpoint, if there is one.
    pub(super) fn load_increments(&self, name: &StepKey, reading: Reading) -> Result<Option<Increments>> {
        let loaded = match reading {
            Reading::Resumed => self.checkpoints.load(name)?,
            Reading::Own => self.checkpoints.load_own(name)?,
        };
        let Some(mut b) = loaded else {
            return Ok(None);
        };
        // Moved out of the bundle, not copied: late iterations' sets are large.
        let what = name.to_string();
        let sides = self.sides;
        let dw = PerSide::try_new(sides, |s| b.take(&format!("new_win/{s}"), &what))?;
        let dl = PerSide::try_new(sides, |s| b.take(&format!("new_loss/{s}"), &what))?;
        Ok(Some((dw, dl)))
    }
}

/// Why a step's checkpoint is read: an earlier run's finished step, or one this run saved
/// to free memory ([`Solver::spill_previous`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reading {
    /// Reused from an earlier run (counted and said).
    Resumed,
    /// Saved by this run and read back.
    Own,
}
