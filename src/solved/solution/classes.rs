//! Class files: the values of one class of positions of a solve by classes (`docs/solving.md`), and
//! a solution made of a directory of them.
//!
//! A class file is a bundle like a solution file, with metadata `{"kind":"dfasolve-class",
//! "params":…,"class":NAME,"classes":[{"side":…,"outcome":…},…],"mover_relative":…}` and one
//! DFA per value class. It is named `class-NAME.dfas`.

use super::file::{read_meta, save_values};
use super::{ClassIndex, Mode, Solution, ValueClass};
use crate::dfa::file::Bundle;
use crate::error::{Error, Result};
use crate::game::{Game, GameParams};
use crate::solved::Games;
use crate::vocabulary::{Outcome, Side};
use std::path::{Path, PathBuf};

const KIND: &str = "dfasolve-class";

/// The final values of one class of positions.
#[derive(Clone, Debug)]
pub struct ClassValues {
    /// The game.
    pub params: GameParams,
    /// The class's name ([`crate::game::PositionClass::name`]).
    pub class: String,
    /// Its value classes, exact distances and draws.
    pub values: Vec<ValueClass>,
    /// Strings are from the mover's view (the values are stored for the first side only).
    pub mover_relative: bool,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Meta {
    kind: String,
    params: serde_json::Value,
    class: String,
    classes: Vec<StoredClass>,
    mover_relative: bool,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct StoredClass {
    side: Side,
    outcome: Outcome,
}

impl ClassValues {
    /// The file of class `name` in directory `dir`.
    pub fn path(dir: &Path, name: &str) -> PathBuf {
        dir.join(format!("class-{name}.dfas"))
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
            classes: self.values.iter().map(|v| StoredClass { side: v.side, outcome: v.outcome }).collect(),
            mover_relative: self.mover_relative,
        };
        save_values(path, &meta, &self.values.iter().collect::<Vec<_>>(), &[])
    }

    /// Load the class file at `path`, checking that it holds class `expected` (if given) of
    /// `game`.
    ///
    /// # Errors
    /// File errors; [`Error::Corrupt`] for a file that is not a class file; [`Error::Mismatch`]
    /// for a class file of another game or class.
    pub fn load(path: &Path, game: &dyn Game, expected: Option<&str>) -> Result<ClassValues> {
        let bundle = Bundle::load(path)?;
        let corrupt = |what: String| Error::Corrupt { path: path.to_path_buf(), what };
        let header = ClassHeader::read((&bundle.meta, bundle.entries.len()), path, Some(&game.params()), expected)?;
        let found = header.params;
        let shape = game.shape();
        let mut values = Vec::with_capacity(header.values.len());
        for ((side, outcome), (_, set)) in header.values.into_iter().zip(bundle.entries) {
            if set.shape() != shape {
                return Err(corrupt("a stored set does not have the game's shape".into()));
            }
            values.push(ValueClass::new(side, outcome, set));
        }
        Ok(ClassValues { params: found, class: header.class, values, mover_relative: header.mover_relative })
    }
}

/// What a class file's metadata says: its game and class, and each stored set's side and
/// value, in the order of the sets.
pub(super) struct ClassHeader {
    pub(super) params: GameParams,
    pub(super) class: String,
    pub(super) values: Vec<(Side, Outcome)>,
    pub(super) mover_relative: bool,
}

impl ClassHeader {
    /// The header of a class file of `entries` sets whose metadata is `text` (read from
    /// `path`), checked to hold class `expected` (if given) of the game `params` (if given).
    ///
    /// # Errors
    /// As [`ClassValues::load`].
    pub(super) fn read(
        text: (&str, usize),
        path: &Path,
        params: Option<&GameParams>,
        expected: Option<&str>,
    ) -> Result<ClassHeader> {
        let meta: Meta = read_meta(text, path, KIND, "a class file", |m: &Meta| m.classes.len())?;
        let found = GameParams::from_json(&meta.params)?;
        if params.is_some_and(|p| *p != found) {
            return Err(Error::Mismatch(format!("{} holds a class of {found:?}, not of {params:?}", path.display())));
        }
        if expected.is_some_and(|e| e != meta.class) {
            return Err(Error::Mismatch(format!("{} holds class {}, not {expected:?}", path.display(), meta.class)));
        }
        Ok(ClassHeader {
            params: found,
            class: meta.class,
            values: meta.classes.into_iter().map(|c| (c.side, c.outcome)).collect(),
            mover_relative: meta.mover_relative,
        })
    }
}

/// The class files in `dir` (`class-*.dfas`), in order of their names.
///
/// # Errors
/// [`Error::Io`] if the directory cannot be read.
pub fn class_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let io = |source| Error::Io { path: dir.to_path_buf(), error: source };
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(dir).map_err(io)?.map(|e| e.map(|e| e.path())).collect::<std::io::Result<_>>().map_err(io)?;
    files.retain(|p| class_name(p).is_some());
    files.sort();
    Ok(files)
}

/// The class a class file's name gives (`class-NAME.dfas`), if it is one.
pub(super) fn class_name(path: &Path) -> Option<&str> {
    path.file_name()?.to_str()?.strip_prefix("class-")?.strip_suffix(".dfas")
}

/// A solution made of the class files in `dir`: their value classes together, which answer
/// exactly as one file of the whole game would.
///
/// # Errors
/// [`Error::Corrupt`] if the directory holds no class files, files of different games, or no
/// file covers the start; file errors.
pub(super) fn load_classes(dir: &Path, games: &Games) -> Result<(Box<dyn Game>, Solution)> {
    let corrupt = |what: String| Error::Corrupt { path: dir.to_path_buf(), what };
    let files = class_files(dir)?;
    let first = files.first().ok_or_else(|| corrupt("no class files (class-*.dfas) here".into()))?;
    // The first file names the game; every file is then checked against it.
    let header = crate::dfa::on_disk::OnDiskBundle::open(first)?;
    let game = games.build(&ClassHeader::read((header.meta(), header.names().count()), first, None, None)?.params)?;
    let params = game.params();
    let mut classes = Vec::new();
    let mut mover_relative = false;
    let mut names = Vec::new();
    for file in &files {
        let part = ClassValues::load(file, game.as_ref(), None)?;
        mover_relative = part.mover_relative;
        names.push((part.class, classes.len()..classes.len() + part.values.len()));
        classes.extend(part.values);
    }
    // Each file's values under its class's set; a file of a class the game does not name
    // leaves the lookups reading every value class.
    let partition = game.classes()?;
    let index = names.into_iter().try_fold(ClassIndex::default(), |mut index, (name, values)| {
        let class = partition.iter().find(|c| c.name == name)?;
        index.add(class.set.clone(), values);
        Some(index)
    });
    let initial = game.initial();
    let mut solution = Solution {
        params,
        mode: Mode::Strong,
        initial: initial.clone(),
        initial_value: Outcome::Draw,
        classes,
        rest: Vec::new(),
        records: Vec::new(),
        mover_relative,
        reachable_valued: None,
        index,
    };
    solution.initial_value =
        solution.value(&initial).ok_or_else(|| corrupt("no class file holds the start of the game".into()))?;
    Ok((game, solution))
}
