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
//!
//! With a [`RunHome`] the parts are saved there by name and read in place
//! ([`Dfa::saved_mapped`]): the files are both the set's spill and its checkpoint, listed by a
//! [`RunManifest`], and a run that resumes maps them again ([`RunningSet::restore`]).

use super::spill::Spill;
use crate::dfa::Dfa;
use crate::dfa::limits::Stoppable;
use crate::error::{Error, Result};
use std::path::PathBuf;

/// `recent` is merged once it has more than the newest run's states divided by this.
const MERGE_FRACTION: usize = 4;

/// The union of the settled runs and `recent`; the runs where `spill` keeps finished sets.
#[derive(Clone, Debug)]
pub(super) struct RunningSet {
    /// Oldest first; never empty (the first run may be the empty set).
    settled: Vec<Part>,
    recent: Part,
    spill: Spill,
    /// The most states a merge may build into one run.
    run_cap: usize,
    home: Option<RunHome>,
}

/// One part of a running set, with the name of its file in the set's home once saved there.
#[derive(Clone, Debug)]
struct Part {
    set: Dfa,
    file: Option<String>,
}

impl Part {
    fn unsaved(set: Dfa) -> Part {
        Part { set, file: None }
    }
}

/// A directory where a running set saves its parts as files named `PREFIX-FINGERPRINT.set`.
#[derive(Clone, Debug)]
pub(super) struct RunHome {
    dir: PathBuf,
    prefix: String,
}

/// The files that hold a running set, in its home: the settled runs, oldest first, then
/// `recent` (none when it is empty).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(super) struct RunManifest {
    pub(super) runs: Vec<String>,
    pub(super) recent: Option<String>,
}

impl RunHome {
    /// Parts saved in `dir`, under names that start with `prefix` (which no other set's
    /// prefix there may start with).
    pub(super) fn new(dir: PathBuf, prefix: String) -> RunHome {
        RunHome { dir, prefix }
    }

    /// `set` saved here and read in place; a non-empty set only (the empty set needs no file).
    fn keep(&self, set: &Dfa) -> Result<Part> {
        let name = format!("{}-{}.set", self.prefix, &set.fingerprint()[..16]);
        std::fs::create_dir_all(&self.dir).map_err(|error| Error::Io { path: self.dir.clone(), error })?;
        let set = set.saved_mapped(&self.dir.join(&name))?;
        Ok(Part { set, file: Some(name) })
    }

    /// The set saved as `name`, read in place and checked.
    fn open(&self, name: &str) -> Result<Part> {
        if !name.starts_with(&self.prefix) || name.contains(['/', '\\']) {
            return Err(Error::Mismatch(format!("{name} is not one of the files of {}", self.prefix)));
        }
        Ok(Part { set: Dfa::open_mapped(&self.dir.join(name))?, file: Some(name.to_string()) })
    }

    /// Remove the files of this home that `keep` does not list (parts merged or replaced
    /// since), and the temporary files of writes a stop cut short.
    pub(super) fn remove_all_but(&self, keep: &RunManifest) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        let temporary = format!(".{}-", self.prefix);
        let ours = format!("{}-", self.prefix);
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let stale = (name.starts_with(&temporary) && name.contains(".set.tmp"))
                || (name.starts_with(&ours)
                    && name.ends_with(".set")
                    && !keep.runs.iter().chain(&keep.recent).any(|k| *k == name));
            if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

impl RunningSet {
    /// The set `start`, all settled, whose runs are merged up to `run_cap` states.
    pub(super) fn new(start: Dfa, spill: Spill, run_cap: usize) -> RunningSet {
        let recent = Part::unsaved(Dfa::reject_all(start.shape()));
        RunningSet { settled: vec![Part::unsaved(start)], recent, spill, run_cap: run_cap.max(1), home: None }
    }

    /// This set, its parts saved in `home` from now on instead of spilled.
    pub(super) fn at_home(self, home: RunHome) -> RunningSet {
        RunningSet { home: Some(home), ..self }
    }

    /// The set that `manifest` lists in `home`, as [`RunningSet::persist`] left it.
    ///
    /// # Errors
    /// A listed file is missing, foreign or damaged.
    pub(super) fn restore(
        manifest: &RunManifest,
        home: RunHome,
        spill: Spill,
        run_cap: usize,
        empty: &Dfa,
    ) -> Result<RunningSet> {
        let mut settled = manifest.runs.iter().map(|name| home.open(name)).collect::<Result<Vec<_>>>()?;
        if settled.is_empty() {
            settled.push(Part::unsaved(empty.clone()));
        }
        let recent = match &manifest.recent {
            Some(name) => home.open(name)?,
            None => Part::unsaved(empty.clone()),
        };
        Ok(RunningSet { settled, recent, spill, run_cap: run_cap.max(1), home: Some(home) })
    }

    /// `set` kept out of memory: saved in the home, or spilled.
    fn keep(&self, set: Dfa) -> Result<Part> {
        match &self.home {
            Some(home) if !set.is_empty() => home.keep(&set),
            _ => Ok(Part::unsaved(self.spill.keep(set)?)),
        }
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
        self.recent = Part::unsaved(self.recent.set.union(more)?);
        let newest = &self.settled.last().expect("never empty").set;
        let (recent_states, newest_states) =
            (self.recent.set.nontrivial_state_count(), newest.nontrivial_state_count());
        if recent_states * MERGE_FRACTION > newest_states {
            let recent = std::mem::replace(&mut self.recent, Part::unsaved(Dfa::reject_all(more.shape()))).set;
            if newest_states + recent_states > self.run_cap && !newest.is_empty() {
                let run = self.keep(recent)?;
                self.settled.push(run);
            } else {
                let merged = newest.union(&recent)?;
                drop(recent);
                let merged = self.keep(merged)?;
                *self.settled.last_mut().expect("never empty") = merged;
            }
        }
        Ok(())
    }

    /// Save every part not yet saved in the home, and list the files that now hold the set.
    ///
    /// # Errors
    /// [`Error::Mismatch`] for a set without a home; a part cannot be saved.
    pub(super) fn persist(&mut self) -> Result<RunManifest> {
        let home = self.home.clone().ok_or_else(|| Error::Mismatch("a running set without a home to save".into()))?;
        let mut runs = Vec::new();
        for part in self.settled.iter_mut().chain(std::iter::once(&mut self.recent)) {
            if part.file.is_none() && !part.set.is_empty() {
                *part = home.keep(&part.set)?;
            }
        }
        for part in &self.settled {
            runs.extend(part.file.clone());
        }
        Ok(RunManifest { runs, recent: self.recent.file.clone() })
    }

    /// The parts, whose union is the set: the runs, then `recent`.
    pub(super) fn parts(&self) -> impl Iterator<Item = &Dfa> {
        self.settled.iter().chain(std::iter::once(&self.recent)).map(|p| &p.set)
    }

    /// How many settled runs there are.
    pub(super) fn runs(&self) -> usize {
        self.settled.len()
    }

    /// The whole set as disjoint DFAs, the parts merged smallest first for as long as a
    /// merge stays within the run cap: one DFA unless the set is larger than one union can
    /// build. Never empty.
    pub(super) fn into_parts(self) -> Stoppable<Vec<Dfa>> {
        let mut parts: Vec<Dfa> = self.settled.into_iter().map(|p| p.set).collect();
        parts.push(self.recent.set);
        parts.sort_by_key(Dfa::state_count);
        let mut merged: Vec<Dfa> = Vec::new();
        for part in parts {
            match merged.last_mut() {
                Some(last)
                    if last.is_empty()
                        || part.is_empty()
                        || last.nontrivial_state_count() + part.nontrivial_state_count() <= self.run_cap =>
                {
                    *last = last.union(&part)?;
                }
                _ => merged.push(part),
            }
        }
        Ok(merged)
    }

    /// The whole set as disjoint DFAs, each with the file that holds it, if any: at home and
    /// larger than one run, the parts as they lie in their files (every one saved now; a
    /// merge would write a copy of what is already on disk, and on the largest boards that
    /// copy is what does not fit), else [`RunningSet::into_parts`], in no file (one set, as a
    /// run without a home makes it). No part is empty, and there may be none.
    ///
    /// # Errors
    /// A part cannot be saved.
    pub(super) fn into_files(mut self) -> Result<Vec<(Dfa, Option<PathBuf>)>> {
        let states: usize = self.parts().map(Dfa::nontrivial_state_count).sum();
        let home = match self.home.clone() {
            Some(home) if states > self.run_cap => home,
            _ => return Ok(self.into_parts()?.into_iter().filter(|p| !p.is_empty()).map(|p| (p, None)).collect()),
        };
        self.persist()?;
        let parts = self.settled.into_iter().chain(std::iter::once(self.recent));
        Ok(parts
            .filter(|p| !p.set.is_empty())
            .map(|p| {
                let file = p.file.map(|name| home.dir.join(name));
                (p.set, file)
            })
            .collect())
    }

    /// The whole set as one DFA.
    pub(super) fn into_dfa(self) -> Stoppable<Dfa> {
        let mut whole = RunningSet { run_cap: usize::MAX, ..self }.into_parts()?;
        Ok(whole.pop().expect("one part without a cap"))
    }
}

#[cfg(test)]
mod tests {
    use super::{RunHome, RunningSet, Spill};
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
                    let union = running.parts().fold(Dfa::reject_all(&shape), |u, p| u.union(p).unwrap());
                    assert_eq!(union, Dfa::from_strings(&shape, &expected));
                    kept_apart |= !running.parts().last().unwrap().is_empty();
                }
                assert!(kept_apart || cap == 12, "some addition stayed in the recent part, unmerged");
                assert_eq!(running.runs() > 1, cap == 12, "cap {cap}: {} runs", running.runs());
                assert_eq!(running.into_dfa().unwrap(), Dfa::from_strings(&shape, &expected));
            }
        }
    }

    /// A set at home, persisted after any addition and restored from its manifest, is the
    /// same set with the same parts; the home keeps only the files the newest manifest lists.
    #[test]
    fn a_set_at_home_restores_from_its_manifest_to_the_same_parts() {
        let shape = Shape::uniform(6, 3);
        let word = |seed: u64| -> Vec<u8> { (0..6).map(|i| ((seed >> (2 * i)) % 3) as u8).collect() };
        let dir = crate::scratch::tempdir();
        let home = || RunHome::new(dir.path().to_path_buf(), "losses-first".into());
        let empty = Dfa::reject_all(&shape);
        let mut running = RunningSet::new(empty.clone(), Spill::new(None), 12).at_home(home());
        let mut expected = Vec::new();
        for batch in 0..30u64 {
            let words: Vec<Vec<u8>> = (0..(batch % 4)).map(|j| word(batch * 131 + j * 17 + 3)).collect();
            running.add(&Dfa::from_strings(&shape, &words)).unwrap();
            expected.extend(words);
            let manifest = running.persist().unwrap();
            home().remove_all_but(&manifest);
            let listed: Vec<String> = manifest.runs.iter().chain(&manifest.recent).cloned().collect();
            let mut on_disk: Vec<String> =
                std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
            on_disk.sort();
            let mut wanted = listed.clone();
            wanted.sort();
            wanted.dedup();
            assert_eq!(on_disk, wanted);
            let restored = RunningSet::restore(&manifest, home(), Spill::new(None), 12, &empty).unwrap();
            let parts = |r: &RunningSet| r.parts().cloned().collect::<Vec<_>>();
            assert_eq!(parts(&restored), parts(&running));
            running = restored;
        }
        assert!(running.runs() > 1);
        let parts = running.clone().into_parts().unwrap();
        assert!(parts.len() > 1, "a set past the cap stays in parts");
        for (i, a) in parts.iter().enumerate() {
            for b in &parts[..i] {
                assert!(a.intersection(b).unwrap().is_empty(), "parts are disjoint");
            }
        }
        let union = parts.iter().fold(Dfa::reject_all(&shape), |u, p| u.union(p).unwrap());
        assert_eq!(union, Dfa::from_strings(&shape, &expected));
        let whole = RunningSet { run_cap: usize::MAX, ..running.clone() }.into_parts().unwrap();
        assert_eq!(whole, vec![Dfa::from_strings(&shape, &expected)]);
        // Past a run, the parts are the files they lie in; within one, one set in no file.
        let files = running.clone().into_files().unwrap();
        assert!(files.len() > 1);
        let mut union = Dfa::reject_all(&shape);
        for (part, file) in &files {
            assert_eq!(&Dfa::open_mapped(file.as_ref().expect("in a file")).unwrap(), part);
            assert!(
                !part.is_empty() && union.intersection(part).unwrap().is_empty(),
                "parts are disjoint and not empty"
            );
            union = union.union(part).unwrap();
        }
        assert_eq!(union, Dfa::from_strings(&shape, &expected));
        let one = RunningSet { run_cap: usize::MAX, ..running.clone() }.into_files().unwrap();
        assert_eq!(one, vec![(Dfa::from_strings(&shape, &expected), None)]);
        assert_eq!(running.into_dfa().unwrap(), Dfa::from_strings(&shape, &expected));
    }
}
