//! A loss step's escape filter: the new losses are the open positions with no move into the
//! escape set, the opponent's positions not yet known to be won.
//!
//! It is the largest step of a long solve (the figures are in `docs/engine-notes.md`,
//! `solver/`: the escape filter by parts). Above a threshold the filter therefore
//! takes the open positions one part of the game's [`crate::game::SolverHints::filter_parts`] at a
//! time and unites the parts' losses: the moves of a part's positions read the whole escape
//! set, but what the filter explores and keeps is the part's. A finished part is also a unit
//! of the journal, beside the move groups inside each part.

use super::journal::Journal;
use super::timed;
use super::{JournalPart, Solver, StepKey};
use crate::dfa::Dfa;
use crate::error::{Error, Result};
use crate::move_graph::Partial;
use crate::vocabulary::Side;
use std::borrow::Cow;

impl Solver<'_> {
    /// Side `s`'s new losses in the iteration checkpointed as `step`: the positions of `open`
    /// with no move into `escape`, by parts when `open` has more than the part threshold's
    /// DFA states and the game declares parts. Journaled either way.
    ///
    /// # Errors
    /// A journal of another solve, or unreadable.
    pub(super) fn escape_filter(&self, step: &StepKey, s: Side, open: Cow<'_, Dfa>, escape: &Dfa) -> Result<Dfa> {
        let moves = &self.moves[s];
        let parts = &self.filter_parts[s];
        if parts.is_empty() || open.nontrivial_state_count() <= self.part_above {
            let [_, journal] = self.journals(step, s);
            let record = |groups: usize, sets: &[(u32, &Dfa)]| journal.record(groups, sets);
            let resume = journal.start(&record)?;
            return Ok(timed!("new losses", moves.without_move_into_resumable(escape, open, resume)?));
        }
        // The journal of the parts holds the losses of the parts done (its "groups" count
        // parts); each part's filter keeps its own journal of move groups.
        let by_part = self.part_journal(step, s, None);
        let (done, mut losses) = match by_part.resume()? {
            None => (0, Dfa::reject_all(open.shape())),
            Some(Partial { groups_done, mut sets }) if sets.len() == 1 && groups_done <= parts.len() => {
                (groups_done, sets.pop().expect("one set").1)
            }
            Some(_) => {
                return Err(Error::Mismatch(format!(
                    "journal {}: not the losses of at most {} parts",
                    by_part.name(),
                    parts.len()
                )));
            }
        };
        for (k, part) in parts.iter().enumerate().skip(done) {
            let open_part = timed!("part", open.intersection(part)?);
            if !open_part.is_empty() {
                let journal = self.part_journal(step, s, Some(k));
                let record = |groups: usize, sets: &[(u32, &Dfa)]| journal.record(groups, sets);
                let resume = journal.start(&record)?;
                let lost = timed!(
                    format!("losses {}/{}", k + 1, parts.len()),
                    moves.without_move_into_resumable(escape, Cow::Owned(open_part), resume)?
                );
                losses.unite_with(&lost)?;
            }
            // The last part is always saved: reloading the parked sets after the filter has
            // gone over the budget before, and the filter's result should not go with it.
            if k + 1 == parts.len() {
                by_part.record_now(k + 1, &[(0, &losses)]);
            } else {
                by_part.record(k + 1, &[(0, &losses)]);
            }
        }
        Ok(losses)
    }

    /// The journal of side `s`'s escape filter by parts in the iteration checkpointed as
    /// `step` (`None`), or of the filter of its part `k`. Their names differ from the whole
    /// filter's, so that a run resumed with another threshold never reads one as the other.
    fn part_journal(&self, step: &StepKey, s: Side, part: Option<usize>) -> Journal<'_> {
        let name = step.journal(s, part.map_or(JournalPart::LossesByPart, JournalPart::LossesPart));
        Journal::new(&self.checkpoints, name, self.journal_every)
    }

    /// Remove the journals of side `s`'s escape filter by parts in the iteration checkpointed
    /// as `step`, now that it is.
    pub(super) fn forget_part_journals(&self, step: &StepKey, s: Side) {
        self.part_journal(step, s, None).remove();
        for k in 0..self.filter_parts[s].len() {
            self.part_journal(step, s, Some(k)).remove();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SolverHints;
    use crate::solver::SolveOptions;
    use std::time::Duration;

    /// The filter by parts gives the whole filter's losses, from the start, from its journal
    /// of parts after any number of parts (and past the last), and from the parts' own
    /// journals alone; a journal of more parts than the game has is refused, and forgetting
    /// the journals leaves no file.
    #[test]
    fn the_filter_by_parts_resumes_to_the_whole_filters_losses() {
        let game = crate::games::fixtures::a_game_filtered_by_parts();
        let dir = crate::scratch::tempdir();
        let options = |journal_every| SolveOptions {
            checkpoints: Some(dir.path().to_path_buf()),
            journal_every,
            part_above: 0,
            ..SolveOptions::default()
        };
        let solver = Solver::with_options(&game, options(Duration::ZERO)).unwrap();
        let s = Side::First;
        let t = StepKey::Backward { class: None, iteration: 1 };
        let open = solver.ongoing(s).clone();
        let parts = game.filter_parts(s).unwrap();
        assert_eq!(parts.len(), 9);
        // An escape set that some positions reach and others cannot: the positions with the
        // hole in the first row.
        let escape = parts[..3].iter().fold(Dfa::reject_all(open.shape()), |acc, p| acc.union(p).unwrap());
        let escape = escape.intersection(solver.universe(s)).unwrap();
        let whole = solver.moves(s).without_move_into(&escape, &open).unwrap();
        assert!(!whole.is_empty() && whole != open);
        assert!(parts.iter().filter(|p| !whole.intersection(p).unwrap().is_empty()).count() >= 2);
        let by_parts = solver.escape_filter(&t, s, Cow::Borrowed(&open), &escape).unwrap();
        assert_eq!(by_parts, whole);
        // Everything journaled: the next run only reads the losses back.
        assert_eq!(solver.escape_filter(&t, s, Cow::Borrowed(&open), &escape).unwrap(), whole);
        for done in [0, 1, 4, 9] {
            let losses = parts[..done].iter().fold(Dfa::reject_all(open.shape()), |acc, part| {
                acc.union(&solver.moves(s).without_move_into(&escape, &open.intersection(part).unwrap()).unwrap())
                    .unwrap()
            });
            solver.part_journal(&t, s, None).record(done, &[(0, &losses)]);
            assert_eq!(solver.escape_filter(&t, s, Cow::Borrowed(&open), &escape).unwrap(), whole, "{done} parts");
        }
        solver.part_journal(&t, s, None).remove();
        assert_eq!(solver.escape_filter(&t, s, Cow::Borrowed(&open), &escape).unwrap(), whole, "part journals");
        solver.part_journal(&t, s, None).record(10, &[(0, &whole)]);
        assert!(matches!(solver.escape_filter(&t, s, Cow::Borrowed(&open), &escape), Err(Error::Mismatch(_))));
        solver.forget_part_journals(&t, s);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        // However long the interval, a filter's last part is journaled.
        let solver = Solver::with_options(&game, options(Duration::from_secs(3600))).unwrap();
        let u = StepKey::Backward { class: None, iteration: 2 };
        assert_eq!(solver.escape_filter(&u, s, Cow::Borrowed(&open), &escape).unwrap(), whole);
        let journal = solver.part_journal(&u, s, None).resume().unwrap().expect("the last part is journaled");
        assert_eq!(journal, Partial { groups_done: parts.len(), sets: vec![(0, whole.clone())] });
        solver.forget_part_journals(&u, s);
    }
}
