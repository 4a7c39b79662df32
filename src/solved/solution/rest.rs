//! A value class stored as the rest of a domain: the positions of a set that no other value
//! class of the same side holds. A meet in the middle values every position of its forward
//! plies, and its losses are the ones it must keep to back values up; its wins are then the
//! plies' positions less everything else, and storing them as a set of their own doubled the
//! run's disk and the solution (`docs/measurements.md`).

use super::{Solution, ValueClass};
use crate::dfa::limits::Stoppable;
use crate::dfa::{Dfa, SplitMix64, Symbol};
use crate::error::{Error, Result};
use crate::vocabulary::{Outcome, Side};

/// The positions of `domain` with `side` to move that no value class of that side holds: all
/// of them have value `outcome`.
///
/// Invariant: `positions` is how many there are (the domain's positions less those the
/// side's classes hold of it; `None` beyond `u128::MAX`), and no two rest classes of one side
/// overlap.
#[derive(Clone, Debug)]
pub struct RestClass {
    /// Side to move.
    pub side: Side,
    /// The value for the side to move.
    pub outcome: Outcome,
    /// The positions valued; those of them no other class of `side` holds are this class's.
    pub domain: Dfa,
    /// How many positions the class holds; `None` beyond `u128::MAX`.
    pub positions: Option<u128>,
}

/// Draws per position wanted before a sample by rejection gives up: the class is then too
/// thin a share of its domain to sample that way.
const MOST_DRAWS_PER_POSITION: usize = 1000;

impl Solution {
    /// The value of `board` (`side` to move) by the rest classes: `None` if it is in another
    /// class's set (ask those first) or in no domain.
    pub(super) fn rest_value(&self, side: Side, board: &[Symbol]) -> Option<Outcome> {
        self.rest.iter().find(|r| r.side == side && r.domain.contains(board)).map(|r| r.outcome)
    }

    /// Whether the rest class `rest` holds `board`: in its domain and in no class of its side.
    fn rest_holds(&self, rest: &RestClass, board: &[Symbol]) -> bool {
        rest.domain.contains(board) && !self.classes.iter().any(|c| c.side == rest.side && c.set.contains(board))
    }

    /// The positions of the rest class `rest` as a set of their own: its domain less the
    /// classes of its side. As large as those classes can make it: for small solutions and
    /// for every position of a class small enough to list.
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn rest_positions(&self, rest: &RestClass) -> Stoppable<Dfa> {
        let mut set = rest.domain.clone();
        for c in self.classes.iter().filter(|c| c.side == rest.side) {
            set = set.difference(&c.set)?;
        }
        Ok(set)
    }

    /// This solution with each rest class made a class of its own ([`Solution::rest_positions`]):
    /// for checks that read the classes' sets, on solutions small enough to make them.
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn with_rest_as_sets(&self) -> Stoppable<Solution> {
        let mut whole = Solution { rest: Vec::new(), ..self.clone() };
        if !self.rest.is_empty() {
            // The index names the classes of a class directory, which has no rest classes.
            whole.index = None;
        }
        for rest in &self.rest {
            whole.classes.push(ValueClass::new(rest.side, rest.outcome, self.rest_positions(rest)?));
        }
        Ok(whole)
    }

    /// `count` positions of `rest` drawn uniformly (with repeats) by `rng`: positions of its
    /// domain drawn uniformly, those of another class set aside.
    ///
    /// # Errors
    /// [`Error::NotApplicable`] when the class is too thin a share of its domain to sample
    /// by rejection.
    pub fn sample_rest(&self, rest: &RestClass, count: usize, rng: &mut SplitMix64) -> Result<Vec<Vec<Symbol>>> {
        let mut drawn = Vec::with_capacity(count);
        let Some(sampler) = rest.domain.sampler() else {
            return Err(Error::NotApplicable("a value class's domain is too large to sample".into()));
        };
        if rest.positions == Some(0) {
            return Ok(drawn);
        }
        let most = count.saturating_mul(MOST_DRAWS_PER_POSITION).max(MOST_DRAWS_PER_POSITION);
        for _ in 0..most {
            if drawn.len() == count {
                break;
            }
            let board = sampler.sample(rng);
            if self.rest_holds(rest, &board) {
                drawn.push(board);
            }
        }
        if drawn.len() < count {
            return Err(Error::NotApplicable(format!(
                "the {} {} to move are too thin a share of the positions valued to sample",
                rest.outcome, rest.side
            )));
        }
        Ok(drawn)
    }

    /// The positions of `rest` in the domain's order.
    pub fn rest_members<'a>(&'a self, rest: &'a RestClass) -> impl Iterator<Item = Vec<Symbol>> + 'a {
        rest.domain.iter().filter(move |b| self.rest_holds(rest, b))
    }
}
