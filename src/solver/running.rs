//! A set that grows by many small additions and is read after each: the meet in the
//! middle's running wins and losses.
//!
//! Adding to a set of `S` states costs a union of `S` states, however little is added, and
//! the last plies of a backup add a few hundred positions to the largest sets of the solve
//! (`docs/engine-notes.md`, the backup). Additions are kept in a second, `recent` set and
//! merged into the `settled` one only when `recent` has grown to a fraction of it, so each
//! state of the final set is rebuilt a bounded number of times. Readers take the two parts
//! one after the other (a difference with both, an image of each).

use super::spill::Spill;
use crate::dfa::Dfa;
use crate::error::Result;

/// `recent` is merged once it has more than `settled`'s states divided by this.
const MERGE_FRACTION: usize = 4;

/// The union `settled ∪ recent`, kept as its two parts; the settled part where `spill`
/// keeps finished sets.
#[derive(Clone, Debug)]
pub(super) struct RunningSet {
    settled: Dfa,
    recent: Dfa,
    spill: Spill,
}

impl RunningSet {
    /// The set `start`, all settled.
    pub(super) fn new(start: Dfa, spill: Spill) -> RunningSet {
        let recent = Dfa::reject_all(start.shape());
        RunningSet { settled: start, recent, spill }
    }

    /// Add `more`; merge the parts if `recent` has outgrown its share.
    ///
    /// # Errors
    /// The merged set cannot be spilled.
    pub(super) fn add(&mut self, more: &Dfa) -> Result<()> {
        if more.is_empty() {
            return Ok(());
        }
        self.recent = self.recent.union(more);
        if self.recent.nontrivial_state_count() * MERGE_FRACTION > self.settled.nontrivial_state_count() {
            let merged = self.settled.union(&self.recent);
            self.recent = Dfa::reject_all(merged.shape());
            self.settled = self.spill.keep(merged)?;
        }
        Ok(())
    }

    /// The two parts, whose union is the set.
    pub(super) fn parts(&self) -> [&Dfa; 2] {
        [&self.settled, &self.recent]
    }

    /// `set` without this set's members.
    pub(super) fn removed_from(&self, set: &Dfa) -> Dfa {
        set.difference(&self.settled).difference(&self.recent)
    }

    /// The whole set as one DFA.
    pub(super) fn into_dfa(self) -> Dfa {
        self.settled.union(&self.recent)
    }
}

#[cfg(test)]
mod tests {
    use super::{RunningSet, Spill};
    use crate::dfa::{Dfa, Shape};

    /// Whatever the order and sizes of the additions, the parts hold exactly their union.
    #[test]
    fn the_parts_hold_the_union_of_everything_added() {
        let shape = Shape::uniform(6, 3);
        let word = |seed: u64| -> Vec<u8> { (0..6).map(|i| ((seed >> (2 * i)) % 3) as u8).collect() };
        let dir = tempfile::tempdir().unwrap();
        for spill in [Spill::new(None), Spill::new(Some(dir.path().to_path_buf()))] {
            let mut running = RunningSet::new(Dfa::from_strings(&shape, &[word(7), word(11)]), spill);
            let mut expected = vec![word(7), word(11)];
            let mut kept_apart = false;
            for batch in 0..40u64 {
                let words: Vec<Vec<u8>> = (0..(batch % 5)).map(|j| word(batch * 131 + j * 17 + 3)).collect();
                running.add(&Dfa::from_strings(&shape, &words)).unwrap();
                expected.extend(words);
                let [a, b] = running.parts();
                assert_eq!(a.union(b), Dfa::from_strings(&shape, &expected));
                kept_apart |= !b.is_empty();
            }
            assert!(kept_apart, "some addition stayed in the recent part, unmerged");
            assert_eq!(running.into_dfa(), Dfa::from_strings(&shape, &expected));
        }
    }
}
