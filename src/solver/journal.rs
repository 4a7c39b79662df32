//! Journals: the progress of one long image inside an iteration, kept with the checkpoints so
//! that a stopped run resumes inside the image instead of at its start.
//!
//! An iteration's checkpoint is written only when the iteration is done, and on the largest
//! classes one image runs for most of an hour (`docs/engine-notes.md`, journals); an
//! iteration longer than a session would never finish.
//! The image reports its partial result after each move group ([`crate::move_graph::Resume`]);
//! the journal saves it when `every` has passed since the last save, so that a stop loses at
//! most that much of the image, and removes it once the iteration's checkpoint is written.

use super::checkpoint::Checkpoints;
use super::{JournalPart, StepKey};
use crate::dfa::Dfa;
use crate::error::{Error, Result};
use crate::move_graph::{Partial, Recorder, Resume};
use crate::vocabulary::Side;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The journal of one image, named after its iteration, side and kind.
pub(super) struct Journal<'c> {
    checkpoints: &'c Checkpoints,
    name: StepKey,
    every: Duration,
    last_save: Mutex<Instant>,
}

impl<'c> Journal<'c> {
    /// The journal `name` under `checkpoints` (a no-op without a checkpoint directory),
    /// saving at most once per `every`.
    pub(super) fn new(checkpoints: &'c Checkpoints, name: StepKey, every: Duration) -> Journal<'c> {
        Journal { checkpoints, name, every, last_save: Mutex::new(Instant::now()) }
    }

    /// Where the image starts: after the groups an earlier run saved, if it saved any.
    ///
    /// # Errors
    /// The journal's file is unreadable, of another solve, or its entries are not a
    /// journal's.
    pub(super) fn resume(&self) -> Result<Option<Partial>> {
        let Some(bundle) = self.checkpoints.load(&self.name)? else { return Ok(None) };
        let mut groups_done = None;
        let mut sets = Vec::with_capacity(bundle.entries.len());
        for (entry, set) in bundle.entries {
            let fields: Vec<usize> = entry.split('/').filter_map(|f| f.parse().ok()).collect();
            let [groups, rank, _] = fields[..] else {
                return Err(Error::Mismatch(format!(
                    "journal {}: entry {entry:?} is not GROUPS/RANK/INDEX",
                    self.name
                )));
            };
            if groups_done.is_some_and(|g| g != groups) {
                return Err(Error::Mismatch(format!("journal {}: entries of different progress", self.name)));
            }
            groups_done = Some(groups);
            sets.push((
                u32::try_from(rank).map_err(|_| Error::Mismatch(format!("journal {}: rank {rank}", self.name)))?,
                set,
            ));
        }
        if let Some(groups) = groups_done {
            tracing::info!(target: "dfasolve::journal", "{}: resuming after {groups} move groups", self.name);
        }
        Ok(groups_done.map(|groups_done| Partial { groups_done, sets }))
    }

    /// Save the progress `sets` after `groups_done` groups if `every` has passed since the
    /// last save. A failed save is reported and the image goes on: the journal only saves
    /// time.
    pub(super) fn record(&self, groups_done: usize, sets: &[(u32, &Dfa)]) {
        self.save(groups_done, sets, false);
    }

    /// [`Journal::record`] whenever the last save was: the end of a long filter, whose
    /// result the steps after it can still lose to the memory budget.
    pub(super) fn record_now(&self, groups_done: usize, sets: &[(u32, &Dfa)]) {
        self.save(groups_done, sets, true);
    }

    fn save(&self, groups_done: usize, sets: &[(u32, &Dfa)], now: bool) {
        if !self.checkpoints.enabled() {
            return;
        }
        let mut last = self.last_save.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !now && last.elapsed() < self.every {
            return;
        }
        let names: Vec<String> =
            sets.iter().enumerate().map(|(i, (rank, _))| format!("{groups_done}/{rank}/{i}")).collect();
        let entries: Vec<(&str, &Dfa)> = names.iter().map(String::as_str).zip(sets.iter().map(|(_, d)| *d)).collect();
        let started = Instant::now();
        match self.checkpoints.save(&self.name, &entries) {
            Ok(()) => tracing::debug!(
                target: "dfasolve::solver",
                "     journal: {} after {groups_done} groups, {} states, {:.1} s",
                self.name,
                sets.iter().map(|(_, d)| d.nontrivial_state_count()).sum::<usize>(),
                started.elapsed().as_secs_f64()
            ),
            // The run stops after this journal or stopped before it: the step's save says so.
            Err(Error::StoppedAfter(_)) => {}
            Err(e) => tracing::warn!("journal {} not saved ({e}); a stop would redo the image", self.name),
        }
        *last = Instant::now();
    }

    /// The image's resume point, with what an earlier run saved, and its progress reports.
    ///
    /// # Errors
    /// As [`Journal::resume`].
    pub(super) fn start<'j>(&self, record: Recorder<'j>) -> Result<Resume<'j>> {
        Ok(Resume { from: self.resume()?, record: Some(record) })
    }

    /// The journals of side `side`'s new wins and new losses in the iteration checkpointed
    /// as `step`.
    pub(super) fn pair(checkpoints: &'c Checkpoints, step: &StepKey, side: Side, every: Duration) -> [Journal<'c>; 2] {
        [JournalPart::Wins, JournalPart::Losses].map(|part| Journal::new(checkpoints, step.journal(side, part), every))
    }

    /// The journal's checkpoint name (for messages).
    pub(super) fn name(&self) -> &StepKey {
        &self.name
    }

    /// Forget the progress: the iteration it belongs to is checkpointed.
    pub(super) fn remove(&self) {
        self.checkpoints.remove(&self.name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfa::Shape;
    use crate::game::GameParams;

    fn sets(shape: &Shape) -> Vec<(u32, Dfa)> {
        let a = Dfa::from_strings(shape, &[vec![0, 1], vec![1, 1]]);
        let b = Dfa::from_strings(shape, &[vec![2, 0]]);
        vec![(2, a), (0, b)]
    }

    #[test]
    fn progress_is_saved_read_back_and_removed() {
        let dir = crate::scratch::tempdir();
        let params = GameParams::tagged("a game", &serde_json::json!({ "size": 2 }));
        let checkpoints = Checkpoints::new(dir.path().to_path_buf(), params.clone());
        let shape = Shape::uniform(2, 3);
        let journal = Journal::new(&checkpoints, "backward-0003-first-wins".parse().unwrap(), Duration::ZERO);
        assert_eq!(journal.resume().unwrap(), None, "nothing saved yet");
        let saved = sets(&shape);
        let refs: Vec<(u32, &Dfa)> = saved.iter().map(|(r, d)| (*r, d)).collect();
        journal.record(4, &refs);
        assert_eq!(journal.resume().unwrap(), Some(Partial { groups_done: 4, sets: saved.clone() }));
        // A later report replaces the earlier one.
        journal.record(5, &refs[..1]);
        assert_eq!(journal.resume().unwrap(), Some(Partial { groups_done: 5, sets: saved[..1].to_vec() }));
        // Not yet due: nothing is written.
        let slow = Journal::new(&checkpoints, "backward-0003-first-losses".parse().unwrap(), Duration::from_secs(3600));
        slow.record(1, &refs);
        assert_eq!(slow.resume().unwrap(), None);
        // Another solve's journal under the same name is refused, not resumed from.
        let other =
            Checkpoints::new(dir.path().to_path_buf(), GameParams::tagged("a game", &serde_json::json!({ "size": 3 })));
        assert!(matches!(
            Journal::new(&other, "backward-0003-first-wins".parse().unwrap(), Duration::ZERO).resume(),
            Err(Error::Mismatch(_))
        ));
        // A checkpoint that is not a journal is refused too.
        checkpoints.save(&"backward-0004-first-wins".parse().unwrap(), &[("new_win/first", &saved[0].1)]).unwrap();
        let not_a_journal = Journal::new(&checkpoints, "backward-0004-first-wins".parse().unwrap(), Duration::ZERO);
        assert!(matches!(not_a_journal.resume(), Err(Error::Mismatch(_))));
        journal.remove();
        assert_eq!(journal.resume().unwrap(), None);
        assert!(!dir.path().join("backward-0003-first-wins.dfas").exists());
    }

    #[test]
    fn without_a_checkpoint_directory_nothing_is_kept() {
        let none = Checkpoints::none();
        let journal = Journal::new(&none, "backward-0001-first-wins".parse().unwrap(), Duration::ZERO);
        let saved = sets(&Shape::uniform(2, 3));
        journal.record(1, &[(0, &saved[0].1)]);
        assert_eq!(journal.resume().unwrap(), None);
        journal.remove();
    }

    /// A run asked to stop after a journal keeps that journal, saves nothing after it (no
    /// later journal, no step) and says it stopped: what a kill right there leaves.
    #[test]
    fn a_stop_after_a_journal_saves_nothing_after_it() {
        let dir = crate::scratch::tempdir();
        let params = GameParams::tagged("a game", &serde_json::json!({ "size": 2 }));
        let stop: StepKey = "backward-0003-first-wins".parse().unwrap();
        let checkpoints = Checkpoints::new(dir.path().to_path_buf(), params).stop_after(Some(stop.clone()));
        let shape = Shape::uniform(2, 3);
        let saved = sets(&shape);
        let refs: Vec<(u32, &Dfa)> = saved.iter().map(|(r, d)| (*r, d)).collect();
        let journal = Journal::new(&checkpoints, stop, Duration::ZERO);
        journal.record(4, &refs);
        journal.record(5, &refs[..1]);
        assert_eq!(journal.resume().unwrap().map(|p| p.groups_done), Some(4), "the journal as the stop left it");
        let step = checkpoints.save(&"backward-0003".parse().unwrap(), &[("new_win/first", &saved[0].1)]);
        assert!(matches!(step, Err(Error::StoppedAfter(_))), "{step:?}");
        assert!(!dir.path().join("backward-0003.dfas").exists());
    }
}
