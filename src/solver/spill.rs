//! Where the meet in the middle keeps its finished sets: in memory, or spilled to unnamed
//! files in a directory and mapped ([`Dfa::spilled_to`]), when the options name one.

use crate::dfa::Dfa;
use crate::error::{Error, Result};
use std::path::PathBuf;

/// The spill directory of a solve, if any.
#[derive(Clone, Debug, Default)]
pub(super) struct Spill(Option<PathBuf>);

impl Spill {
    pub(super) fn new(dir: Option<PathBuf>) -> Spill {
        Spill(dir)
    }

    /// `set`, spilled if there is a directory and it has more than the reserved states.
    ///
    /// # Errors
    /// [`Error::Io`] naming the directory if the file cannot be made, written or mapped.
    pub(super) fn keep(&self, set: Dfa) -> Result<Dfa> {
        match &self.0 {
            Some(dir) if !set.is_empty() && !set.is_spilled() => {
                set.spilled_to(dir).map_err(|error| Error::Io { path: dir.clone(), error })
            }
            _ => Ok(set),
        }
    }
}
