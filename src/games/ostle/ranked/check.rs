//! Saved tables checked by the plain rules: states drawn at random must have the value their
//! moves give them, with the moves, results and forbidden moves of [`super::super::explicit`]
//! (board code that shares nothing with the solver's), the successors' values read from the
//! tables.

use super::super::Rule;
use super::super::explicit::value_text;
use super::Solution;
use super::directory::Kind;
use crate::dfa::SplitMix64;
use crate::error::{Error, Result};
use crate::explicit::Exact;
use rayon::prelude::*;

impl Solution {
    /// `samples` states drawn at random from `seed` among the kinds `drawn` accepts, or every
    /// such state if they hold no more, as (class, kind, state index).
    pub(super) fn random_states(
        &self,
        samples: u64,
        seed: u64,
        drawn: impl Fn(Kind) -> bool,
    ) -> Vec<(usize, usize, u64)> {
        let sizes: Vec<(usize, usize, u64)> = self
            .classes()
            .iter()
            .enumerate()
            .flat_map(|(c, t)| t.kinds.iter().enumerate().map(move |(k, kt)| (c, k, kt)))
            .filter(|(_, _, kt)| drawn(kt.kind))
            .map(|(c, k, kt)| (c, k, kt.states()))
            .collect();
        let mut rng = SplitMix64::new(seed);
        let counts: Vec<u64> = sizes.iter().map(|s| s.2).collect();
        crate::explicit::sample::draw(&counts, samples, &mut rng)
            .into_iter()
            .map(|(part, i)| (sizes[part].0, sizes[part].1, i))
            .collect()
    }

    /// Check `samples` states drawn at random from `seed` (every state if the tables hold no
    /// more): each value must follow from its moves' values (a win one ply longer than its
    /// shortest move into a loss, a loss one ply longer than its longest move into a win, a
    /// draw when it has no move into a loss and one into a draw). Returns the states checked.
    ///
    /// # Errors
    /// [`Error::Verification`] naming the first state whose value does not follow, or whose
    /// successor is in no table given.
    pub fn check_sample(&self, samples: u64, seed: u64) -> Result<u64> {
        let picks = self.random_states(samples, seed, |_| true);
        let v = &self.variant;
        picks.par_iter().try_for_each(|&(c, k, i)| {
            let state = self.state_of(c, k, i);
            let text = || v.state_text(&state);
            // No move: the mover is stuck, a loss now.
            let mut want: Option<Exact> = None;
            for m in v.all_moves(&state.cells) {
                if Some(m) == state.forbidden {
                    continue;
                }
                let next = match v.rule {
                    Rule::Class => v.published_after(&state.cells, m),
                    Rule::Exact => v.after(&state.cells, m),
                };
                let value = match v.finished(&next.cells) {
                    Some(true) => Exact::Win(0),
                    Some(false) => Exact::Loss(0),
                    None => self.value(&next).ok_or_else(|| {
                        Error::Verification(format!(
                            "{}: the result of {} is in no table given",
                            text(),
                            v.move_text(m)
                        ))
                    })?,
                };
                want = Some(want.map_or(value.before(), |w| w.best(value.before())));
            }
            let want = want.unwrap_or(Exact::Loss(0));
            let got = self.value(&state).ok_or_else(|| {
                Error::Verification(format!("{}: drawn from the tables, yet not a state of them", text()))
            })?;
            if got == want {
                Ok(())
            } else {
                Err(Error::Verification(format!(
                    "{}: the tables say {}, its moves say {}",
                    text(),
                    value_text(got.into()),
                    value_text(want.into())
                )))
            }
        })?;
        Ok(picks.len() as u64)
    }
}
