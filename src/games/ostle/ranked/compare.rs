//! Saved tables against a DFA solution of the same variant, state by state: two solvers that
//! share neither the board code nor the representation must give every state the same value.

use super::super::explicit::{State, value_text};
use super::Solution;
use crate::dfa::SplitMix64;
use crate::error::{Error, Result};
use crate::explicit::Exact;
use crate::game::{Position, Side};
use crate::games::ostle::Variant;
use crate::vocabulary::Outcome;
use rayon::prelude::*;

/// What a comparison looked at.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Comparison {
    /// States of the tables looked up in the DFA solution.
    pub from_tables: u64,
    /// Of those, states the DFA solution does not hold (its universe is the states its moves
    /// reach; the tables hold every state of every board of their classes). States of kinds
    /// with more pieces than the DFA's variant are never drawn.
    pub not_in_dfa: u64,
    /// States of the DFA solution looked up in the tables.
    pub from_dfa: u64,
}

impl Solution {
    /// Compare the values of `samples` states drawn at random from the tables' kinds that `dfa`
    /// can hold (no side with more pieces than its variant's; every such state if they hold no
    /// more) and of about `samples` drawn from `dfa`, an equal share from each of its value
    /// classes (every member of a class no larger than its share), so that every distance is
    /// looked at however few states hold it.
    ///
    /// # Errors
    /// [`Error::Verification`] naming the first state the two solutions value differently, a
    /// state of the DFA solution the tables do not hold, or a `dfa` of another game.
    pub fn compare_with_dfa(&self, dfa: &crate::solved::Solution, samples: u64, seed: u64) -> Result<Comparison> {
        let v = &self.variant;
        let text = |s: &State| v.state_text(s);
        let differ = |s: &State, tables: Exact, dfa: &str| {
            Error::Verification(format!(
                "{}: the tables say {}, the DFA solution {dfa}",
                text(s),
                value_text(tables.into())
            ))
        };
        let held = match dfa.params.fields::<Variant>("ostle")? {
            Some(d) => d.pieces,
            None => return Err(Error::Verification("the DFA solution is not of Ostle".into())),
        };
        let fits = |n: u8| usize::from(n) <= held;
        let picks = self.random_states(samples, seed, |k| fits(k.mover) && fits(k.opponent));
        let missing = picks
            .par_iter()
            .map(|&(c, k, i)| {
                let state = self.state_of(c, k, i);
                let value = self.value(&state).expect("a state of the tables");
                match dfa.value(&Position { side: Side::First, board: v.encode(&state) }) {
                    None => Ok(1),
                    Some(o) if o == Outcome::from(value) => Ok(0),
                    Some(o) => Err(differ(&state, value, &o.to_string())),
                }
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        let mut rng = SplitMix64::new(seed);
        let mut from_dfa = 0u64;
        let value_classes: Vec<_> = dfa.classes.iter().filter(|c| c.side == Side::First).collect();
        let share = (samples / value_classes.len().max(1) as u64).max(1);
        for class in value_classes {
            let members: Vec<Vec<u8>> = match class.set.checked_count() {
                Some(n) if n <= u128::from(share) => class.set.to_strings(),
                _ => {
                    let sampler = class.set.sampler().ok_or_else(|| {
                        Error::Verification("a value class is too large to sample (its count overflows u128)".into())
                    })?;
                    (0..share).map(|_| sampler.sample(&mut rng)).collect()
                }
            };
            from_dfa += members.len() as u64;
            members.par_iter().try_for_each(|board| {
                let state = v.decode(board).ok_or_else(|| Error::Verification("a DFA member is no state".into()))?;
                let value = match v.finished(&state.cells) {
                    Some(true) => Exact::Win(0),
                    Some(false) => Exact::Loss(0),
                    None => self.value(&state).ok_or_else(|| {
                        Error::Verification(format!("{}: in the DFA solution, in no table", text(&state)))
                    })?,
                };
                if Outcome::from(value) == class.outcome {
                    Ok(())
                } else {
                    Err(differ(&state, value, &class.outcome.to_string()))
                }
            })?;
        }
        Ok(Comparison { from_tables: picks.len() as u64, not_in_dfa: missing, from_dfa })
    }
}
