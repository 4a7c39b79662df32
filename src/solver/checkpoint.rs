//! Checkpoints: every finished ply or iteration saved atomically under one directory, and
//! reused when a run is started again with the same directory.
//!
//! Each file is a bundle ([`crate::dfa::file`]) whose metadata is the game's parameters; a
//! file written for another game is refused.

use crate::dfa::Dfa;
use crate::dfa::file::{Bundle, save_entries};
use crate::error::{Error, Result};
use crate::games::GameParams;
use std::path::PathBuf;

/// Where a solve keeps its finished steps, if anywhere.
pub(super) struct Checkpoints {
    dir: Option<PathBuf>,
    /// The metadata every checkpoint of this solve carries.
    key: String,
}

impl Checkpoints {
    /// No checkpoints: every step is computed and nothing is saved.
    pub(super) fn none() -> Checkpoints {
        Checkpoints { dir: None, key: String::new() }
    }

    /// Checkpoints of a solve of `params` under `dir`.
    pub(super) fn new(dir: PathBuf, params: GameParams) -> Checkpoints {
        Checkpoints { dir: Some(dir), key: params.to_json().to_string() }
    }

    /// Whether steps are saved.
    pub(super) fn enabled(&self) -> bool {
        self.dir.is_some()
    }

    fn path(&self, name: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{name}.dfas")))
    }

    /// The checkpoint `name`, if it exists and belongs to this solve.
    ///
    /// # Errors
    /// File errors, or [`Error::Mismatch`] for a checkpoint of another game.
    pub(super) fn load(&self, name: &str) -> Result<Option<Bundle>> {
        let Some(path) = self.path(name) else {
            return Ok(None);
        };
        if !path.exists() {
            return Ok(None);
        }
        let b = Bundle::load(&path)?;
        if b.meta != self.key {
            return Err(Error::Mismatch(format!("{} was written for {}, not {}", path.display(), b.meta, self.key)));
        }
        Ok(Some(b))
    }

    /// Save the sets of step `name` (nothing without a directory).
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be written.
    pub(super) fn save(&self, name: &str, entries: &[(&str, &Dfa)]) -> Result<()> {
        match self.path(name) {
            Some(path) => save_entries(&path, &self.key, entries),
            None => Ok(()),
        }
    }
}
