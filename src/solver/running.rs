//! A set that grows by many small additions and is read after each: the meet in the
//! middle's running wins and losses.
//!
//! Adding to a set of `S` states costs a union of `S` states, however little is added, and
//! the last plies of a backup add a few hundred positions to the largest sets of the solve
//! (`docs/engine-notes.md`, the backup). Additions are kept in a `recent` set and merged into
//! the newest settled run only when `recent` has grown to a fraction of it, so each state of
//! the final set is rebuilt a bounded number of times.
//!
//! A merge builds a set as large as both operands, and on the largest boards that set no
//! longer fits the memory budget beside the ply's work. So the settled part is a list of
//! runs: a merge whose result would pass `run_cap` states starts a new run instead, and every
//! run stays a size one union can build. Readers take the parts one after the other (an
//! image of each): the set is their union.

use super::spill::Spill;
use crate::dfa::Dfa;
use crate::error::Result;

/// `recent` is merged once it has more than the newest run's states divided by this.
const MERGE_FRACTION: usize = 4;

/// The union of the settled runs and `recent`; the runs where `spill` keeps finished sets.
#[derive(Clone, Debug)]
pub(super) struct RunningSet {
    /// Oldest first; never empty (the first run may be the empty set).
    settled: Vec<Dfa>,
    recent: Dfa,
    spill: Spill,
    /// The most states a merge may build into one run.
    run_cap: usize,
}

impl RunningSet {
    /// The set `start`, all settled, whose runs are merged up to `run_cap` states.
    pub(super) fn new(start: Dfa, spill: Spill, run_cap: usize) -> RunningSet {
        let recent = Dfa::reject_all(start.shape());
        RunningSet { settled: vec![start], recent, spill, run_cap: run_cap.max(1) }
    }

    /// Add `more`; merge `recent` into the newest run if it has outgrown its share, or start
    /// a new run with it if the merge would pass the cap.
    ///
    /// # Errors
    /// The merged set cannot be spilled.
    pub(super) fn add(&mut self, more: &Dfa) -> Result<()> {
        if more.is_empty() {
            return Ok(());
        }
        self.recent = self.recent.union(more);
        let newest = self.settled.last().expect("never empty");
        let (recent_states, newest_states) = (self.recent.nontrivial_state_count(), newest.nontrivial_state_count());
        if recent_states * MERGE_FRACTION > newest_states {
            let recent = std::mem::replace(&mut self.recent, Dfa::reject_all(more.shape()));
            if newest_states + recent_states > self.run_cap && !newest.is_empty() {
                self.settled.push(self.spill.keep(recent)?);
            } else {
                let merged = newest.union(&recent);
                drop(recent);
                *self.settled.last_mut().expect("never empty") = self.spill.keep(merged)?;
            }
        }
        Ok(())
    }

    /// The parts, whose union is the set: the runs, then `recent`.
    pub(super) fn parts(&self) -> impl Iterator<Item = &Dfa> {
        self.settled.iter().chain(std::iter::once(&self.recent))
    }

    /// How many settled runs there are.
    pub(super) fn runs(&self) -> usize {
        self.settled.len()
    }

    /// The whole set as one DFA.
    pub(super) fn into_dfa(self) -> Dfa {
        let mut parts = self.settled;
        parts.push(self.recent);
        parts.sort_by_key(Dfa::state_count);
        let mut parts = parts.into_iter();
        let first = parts.next().expect("never empty");
        parts.fold(first, |all, part| all.union(&part))
    }
}

#[cfg(test)]
mod tests {
    use super::{RunningSet, Spill};
    use crate::dfa::{Dfa, Shape};

    /// Whatever the order and sizes of the additions and the cap on a run, the parts hold
    /// exactly their union, and a small cap keeps several runs.
    #[test]
    fn the_parts_hold_the_union_of_everything_added() {
        let shape = Shape::uniform(6, 3);
        let word = |seed: u64| -> Vec<u8> { (0..6).map(|i| ((seed >> (2 * i)) % 3) as u8).collect() };
        let dir = crate::scratch::tempdir();
        for cap in [usize::MAX, 12] {
            for spill in [Spill::new(None), Spill::new(Some(dir.path().to_path_buf()))] {
                let mut running = RunningSet::new(Dfa::from_strings(&shape, &[word(7), word(11)]), spill, cap);
                let mut expected = vec![word(7), word(11)];
                let mut kept_apart = false;
                for batch in 0..40u64 {
                    let words: Vec<Vec<u8>> = (0..(batch % 5)).map(|j| word(batch * 131 + j * 17 + 3)).collect();
                    running.add(&Dfa::from_strings(&shape, &words)).unwrap();
                    expected.extend(words);
                    let union = running.parts().fold(Dfa::reject_all(&shape), |u, p| u.union(p));
                    assert_eq!(union, Dfa::from_strings(&shape, &expected));
                    kept_apart |= !running.parts().last().unwrap().is_empty();
                }
                assert!(kept_apart || cap == 12, "some addition stayed in the recent part, unmerged");
                assert_eq!(running.runs() > 1, cap == 12, "cap {cap}: {} runs", running.runs());
                assert_eq!(running.into_dfa(), Dfa::from_strings(&shape, &expected));
            }
        }
    }
}
