//! Universe files: the positions of one class of a game whose universe is made class by
//! class ([`SolverHints::class_universes`](crate::game::SolverHints::class_universes)), saved beside the class files of a solve
//! by classes so that each class job reads its own and its successors' universes instead of
//! making the whole.
//!
//! A universe file is a bundle with metadata `{"kind":"dfasolve-class-universe",
//! "params":…,"class":NAME}` and two DFAs, `first` and `second` (the side to move). It is
//! named `universe-NAME.dfas`.

use super::file::read_meta;
use crate::dfa::Dfa;
use crate::dfa::Shape;
use crate::dfa::file::{Bundle, save_entries};
use crate::error::{Error, Result};
use crate::game::GameParams;
use crate::vocabulary::Side;
use std::path::{Path, PathBuf};

const KIND: &str = "dfasolve-class-universe";

#[derive(serde::Serialize, serde::Deserialize)]
struct Meta {
    kind: String,
    params: serde_json::Value,
    class: String,
    sides: Vec<Side>,
}

/// The positions of class `class` of the game `params`, by side to move.
#[derive(Clone, Debug)]
pub struct ClassUniverse {
    /// The game.
    pub params: GameParams,
    /// The class's name.
    pub class: String,
    /// Its positions with the first and the second side to move.
    pub sets: [Dfa; 2],
}

impl ClassUniverse {
    /// The universe file of class `name` in directory `dir`.
    pub fn path(dir: &Path, name: &str) -> PathBuf {
        dir.join(format!("universe-{name}.dfas"))
    }

    /// Save to `path`, atomically.
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<()> {
        let meta = Meta {
            kind: KIND.into(),
            params: self.params.to_json(),
            class: self.class.clone(),
            sides: Side::BOTH.to_vec(),
        };
        let meta = serde_json::to_string(&meta).expect("metadata is plain JSON");
        save_entries(path, &meta, &[("first", &self.sets[0]), ("second", &self.sets[1])])
    }

    /// Load the universe file at `path`, checking that it holds class `expected` of the
    /// game `params`, whose strings have `shape`.
    ///
    /// # Errors
    /// File errors; [`Error::Corrupt`] for a file that is not a universe file or whose sets
    /// do not have the game's shape; [`Error::Mismatch`] for another game or class.
    pub fn load(path: &Path, params: &GameParams, shape: &Shape, expected: &str) -> Result<ClassUniverse> {
        let bundle = Bundle::load(path)?;
        let meta: Meta =
            read_meta((&bundle.meta, bundle.entries.len()), path, KIND, "a universe file", |m: &Meta| m.sides.len())?;
        let found = GameParams::from_json(&meta.params)?;
        if *params != found {
            return Err(Error::Mismatch(format!(
                "{} holds a universe of {found:?}, not of {params:?}",
                path.display()
            )));
        }
        if meta.class != expected {
            return Err(Error::Mismatch(format!("{} holds class {}, not {expected}", path.display(), meta.class)));
        }
        let corrupt = |what: &str| Error::Corrupt { path: path.to_path_buf(), what: what.into() };
        let [(_, first), (_, second)]: [(String, Dfa); 2] =
            bundle.entries.try_into().map_err(|_| corrupt("a universe file holds two sets"))?;
        if meta.sides != Side::BOTH || first.shape() != shape || second.shape() != shape {
            return Err(corrupt("the stored sets are not the game's, first and second"));
        }
        Ok(ClassUniverse { params: found, class: meta.class, sets: [first, second] })
    }
}
