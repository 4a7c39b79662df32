//! Checkpoints: every finished ply or iteration saved atomically under one directory, and
//! reused when a run is started again with the same directory.
//!
//! Each file is a bundle ([`crate::dfa::file`]) whose metadata is its key: the game's
//! parameters (board, square order, rule), the solve (mode and depth) and the step's own name.
//! A file written under any other key is refused, so a directory reused with another
//! `--depth`, or a checkpoint copied under another step's name, is an error, never a silently
//! different result.

use super::StepKey;
use crate::dfa::Dfa;
use crate::dfa::file::{Bundle, save_entries};
use crate::error::{Error, Result};
use crate::game::GameParams;
use crate::solved::Mode;
use std::path::{Path, PathBuf};

/// Where a solve keeps its finished steps, if anywhere.
pub(super) struct Checkpoints {
    dir: Option<PathBuf>,
    params: serde_json::Value,
    /// The solve whose steps these are (set when the solve starts).
    solve: serde_json::Value,
    /// How many saved steps this run has read back instead of computing.
    reused: std::sync::atomic::AtomicUsize,
    /// The step after whose save the run stops ([`super::SolveOptions::stop_after`]).
    stop_after: Option<StepKey>,
    /// Set once that step is saved: nothing is saved after it.
    stopped: std::sync::atomic::AtomicBool,
}

impl Checkpoints {
    /// No checkpoints: every step is computed and nothing is saved.
    pub(super) fn none() -> Checkpoints {
        Checkpoints {
            dir: None,
            params: serde_json::Value::Null,
            solve: serde_json::Value::Null,
            reused: 0.into(),
            stop_after: None,
            stopped: false.into(),
        }
    }

    /// Checkpoints of a solve of `params` under `dir`. The temporary files that killed runs
    /// left there for steps outside any class are removed: no live write of this solve can
    /// own one yet. A class's are removed as its pass starts ([`Checkpoints::clean_class`]):
    /// class jobs running side by side share the directory.
    pub(super) fn new(dir: PathBuf, params: GameParams) -> Checkpoints {
        remove_stale_files(&dir, None);
        Checkpoints { dir: Some(dir), params: params.to_json(), ..Checkpoints::none() }
    }

    /// Stop the run right after saving step `step`, saving nothing after it.
    pub(super) fn stop_after(self, step: Option<StepKey>) -> Checkpoints {
        Checkpoints { stop_after: step, ..self }
    }

    /// [`Error::StoppedAfter`] once the step to stop after is saved.
    fn refuse_if_stopped(&self) -> Result<()> {
        match &self.stop_after {
            Some(step) if self.stopped.load(std::sync::atomic::Ordering::Relaxed) => {
                Err(Error::StoppedAfter(step.to_string()))
            }
            _ => Ok(()),
        }
    }

    /// After step `name` is saved: stop if it is the step to stop after.
    fn stop_if_asked(&self, name: &StepKey) -> Result<()> {
        if self.stop_after.as_ref() == Some(name) {
            self.stopped.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        self.refuse_if_stopped()
    }

    /// Remove the temporary files and parked sets that a killed solve of class `class` left:
    /// the class is solved here now, so no other live job owns them.
    pub(super) fn clean_class(&self, class: &str) {
        if let Some(dir) = &self.dir {
            remove_stale_files(dir, Some(class));
        }
    }

    /// Remove every file of class `class`'s steps, once the class's values are saved: a new
    /// run reads those values, never the steps (a class job would otherwise leave about twice
    /// its class file's bytes behind).
    pub(super) fn remove_class(&self, class: &str) {
        let Some(dir) = &self.dir else { return };
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let step = name.trim_start_matches('.');
            let step = step.split_once(".dfas").map_or(step, |(step, _)| step).trim_end_matches("-parked");
            if step.parse::<StepKey>().ok().is_some_and(|key| key.class() == Some(class))
                && entry.file_type().is_ok_and(|t| t.is_file())
            {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    /// The steps from here on belong to a solve by `mode`.
    pub(super) fn set_mode(&mut self, mode: Mode) {
        self.solve = serde_json::to_value(mode).unwrap_or_default();
    }

    /// The metadata of step `name`'s file.
    fn key(&self, name: &StepKey) -> String {
        serde_json::json!({ "checkpoint": name.to_string(), "game": self.params, "solve": self.solve }).to_string()
    }

    /// How many saved steps (and journals of steps under way) this run has read back.
    pub(super) fn reused(&self) -> usize {
        self.reused.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Count one step read back, and say so at the first: a resumed run is told apart from
    /// a fresh one as it starts.
    fn count_reused(&self, name: &StepKey) {
        tracing::debug!(target: "dfasolve::checkpoint", "reused {name}");
        if self.reused.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == 0
            && let Some(dir) = &self.dir
        {
            crate::progress!("resuming: reusing the finished steps checkpointed in {}", dir.display());
        }
    }

    /// The directory steps are saved in, if any.
    pub(super) fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Whether steps are saved.
    pub(super) fn enabled(&self) -> bool {
        self.dir.is_some()
    }

    fn path(&self, name: &StepKey) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{name}.dfas")))
    }

    /// Whether step `name` has a file (not read: it may belong to another solve).
    pub(super) fn exists(&self, name: &StepKey) -> bool {
        self.path(name).is_some_and(|p| p.exists())
    }

    /// The checkpoint `name`, if it exists and belongs to this solve.
    ///
    /// # Errors
    /// File errors, or [`Error::Mismatch`] for a checkpoint of another game.
    pub(super) fn load(&self, name: &StepKey) -> Result<Option<Bundle>> {
        let loaded = self.load_own(name)?;
        if loaded.is_some() {
            self.count_reused(name);
        }
        Ok(loaded)
    }

    /// [`Checkpoints::load`] of a step this run saved itself to free memory (not a step
    /// reused from an earlier run, so not counted as one).
    ///
    /// # Errors
    /// As [`Checkpoints::load`].
    pub(super) fn load_own(&self, name: &StepKey) -> Result<Option<Bundle>> {
        let Some(path) = self.path(name) else {
            return Ok(None);
        };
        if !path.exists() {
            return Ok(None);
        }
        let b = Bundle::load(&path)?;
        let key = self.key(name);
        if b.meta != key {
            return Err(Error::Mismatch(format!(
                "{} was written for {}, not for this solve ({key}): use another checkpoint directory or remove it",
                path.display(),
                b.meta
            )));
        }
        Ok(Some(b))
    }

    /// The checkpoint `name` with the record `extra` it was saved with
    /// ([`Checkpoints::save_with`]), if it exists and belongs to this solve.
    ///
    /// # Errors
    /// As [`Checkpoints::load`].
    pub(super) fn load_with(&self, name: &StepKey) -> Result<Option<(serde_json::Value, Bundle)>> {
        let loaded = self.load_own_with(name)?;
        if loaded.is_some() {
            self.count_reused(name);
        }
        Ok(loaded)
    }

    /// [`Checkpoints::load_with`] of a step this run saved itself, or has already counted as
    /// read back.
    ///
    /// # Errors
    /// As [`Checkpoints::load`].
    pub(super) fn load_own_with(&self, name: &StepKey) -> Result<Option<(serde_json::Value, Bundle)>> {
        let Some(path) = self.path(name) else {
            return Ok(None);
        };
        if !path.exists() {
            return Ok(None);
        }
        let b = Bundle::load(&path)?;
        let extra = self.record_of(name, &path, &b.meta)?;
        Ok(Some((extra, b)))
    }

    /// The record and the entries' names of checkpoint `name`, if it exists and belongs to
    /// this solve, its checksum checked but its sets left in the file (counted as read back).
    ///
    /// # Errors
    /// As [`Checkpoints::load`].
    pub(super) fn load_record(&self, name: &StepKey) -> Result<Option<(serde_json::Value, Vec<String>)>> {
        let Some(path) = self.path(name).filter(|p| p.exists()) else {
            return Ok(None);
        };
        let b = crate::dfa::on_disk::OnDiskBundle::open(&path)?;
        let extra = self.record_of(name, &path, b.meta())?;
        self.count_reused(name);
        Ok(Some((extra, b.names().map(str::to_string).collect())))
    }

    /// The record in `meta`, the metadata of step `name`'s file at `path`, once the rest of it
    /// is found to be this solve's key.
    fn record_of(&self, name: &StepKey, path: &Path, meta: &str) -> Result<serde_json::Value> {
        let mut parsed: serde_json::Value = serde_json::from_str(meta).unwrap_or_default();
        let extra = parsed.as_object_mut().and_then(|m| m.remove("record")).unwrap_or_default();
        let expected: serde_json::Value = serde_json::from_str(&self.key(name)).unwrap_or_default();
        if parsed != expected {
            return Err(Error::Mismatch(format!(
                "{} was written for {meta}, not for this solve ({}): use another checkpoint directory or remove it",
                path.display(),
                self.key(name)
            )));
        }
        Ok(extra)
    }

    /// [`Checkpoints::save`] with a record of the step's own (what it was made from, what is
    /// left to do) in its metadata, read back by [`Checkpoints::load_with`].
    ///
    /// # Errors
    /// As [`Checkpoints::save`].
    pub(super) fn save_with(&self, name: &StepKey, extra: &serde_json::Value, entries: &[(&str, &Dfa)]) -> Result<()> {
        match (self.path(name), &self.dir) {
            (Some(path), Some(dir)) => {
                std::fs::create_dir_all(dir).map_err(|error| Error::Io { path: dir.clone(), error })?;
                self.refuse_if_stopped()?;
                let mut meta: serde_json::Value = serde_json::from_str(&self.key(name)).unwrap_or_default();
                if let Some(m) = meta.as_object_mut() {
                    m.insert("record".into(), extra.clone());
                }
                save_entries(&path, &meta.to_string(), entries)?;
                self.stop_if_asked(name)
            }
            _ => Ok(()),
        }
    }

    /// Remove step `name`'s file, if there is one (a journal whose iteration is done; a
    /// file left behind would only be read again and overwritten).
    pub(super) fn remove(&self, name: &StepKey) {
        if let Some(path) = self.path(name) {
            let _ = std::fs::remove_file(path);
        }
    }

    /// Save the sets of step `name` (nothing without a directory).
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be written.
    pub(super) fn save(&self, name: &StepKey, entries: &[(&str, &Dfa)]) -> Result<()> {
        match (self.path(name), &self.dir) {
            (Some(path), Some(dir)) => {
                // The checkpoint directory given to the solver is its to make.
                std::fs::create_dir_all(dir).map_err(|error| Error::Io { path: dir.clone(), error })?;
                self.refuse_if_stopped()?;
                save_entries(&path, &self.key(name), entries)?;
                self.stop_if_asked(name)
            }
            _ => Ok(()),
        }
    }
}

/// Remove the files that only a killed run leaves, `.NAME.dfas.tmp*` (the temporary files of
/// atomic writes) and `NAME-parked.dfas` (running sets a class solve had parked: never read by
/// a new run, and gigabytes on the largest classes), of class `class`'s steps; with `None`,
/// every such file but those of a class's steps, which a class job beside this solve may own
/// (and but those of a ply's parts, which part jobs beside it may own).
fn remove_stale_files(dir: &Path, class: Option<&str>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let step = match name.strip_prefix('.').and_then(|n| n.split_once(".dfas.tmp")) {
            Some((step, _)) => step,
            None if name.ends_with("-parked.dfas") => name.trim_end_matches(".dfas"),
            None => continue,
        };
        let owner = step.parse::<StepKey>().ok();
        // A ply's parts are made by jobs side by side, each its own process: another's
        // temporary file may be live.
        let by_a_part_job = matches!(&owner, Some(StepKey::Journal { part: super::JournalPart::WinsPart { .. }, .. }));
        let owned = !by_a_part_job
            && match class {
                Some(class) => owner.is_some_and(|key| key.class() == Some(class)),
                None => owner.is_none_or(|key| key.class().is_none()),
            };
        if owned && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
