//! A directory of class files answered in place: a position's value reads a row per layer
//! of its own class's file ([`OnDiskBundle`]), and no set is ever loaded.
//!
//! Loading a whole class directory ([`super::Solution::load`]) decodes every class: 12.0 GiB
//! for 5x6 Breakthrough. A person asking about one position needs its class (found from the
//! game's partition) and, for its moves, the classes they lead to. Each file is checked
//! (checksum, game, class, shape) the first time a position of its class is asked about.

use super::classes::{ClassHeader, class_files, class_name};
use super::in_place::value_among;
use crate::dfa::Dfa;
use crate::dfa::on_disk::OnDiskBundle;
use crate::error::{Error, Result};
use crate::game::{Game, GameParams};
use crate::solved::Games;
use crate::vocabulary::{Outcome, Position, Side};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The class files of a directory, opened as positions need them.
///
/// Invariant: `files[i]` is the file of the game's class `i` (`sets[i]`), and every file of
/// the directory names a class of the game.
pub struct ClassesOnDisk {
    params: GameParams,
    mover_relative: bool,
    sets: Vec<Dfa>,
    files: Vec<Option<PathBuf>>,
    opened: Mutex<HashMap<usize, Arc<OpenClass>>>,
}

/// One class file, checked and open, with the side and value of each of its sets.
struct OpenClass {
    bundle: OnDiskBundle,
    values: Vec<(Side, Outcome)>,
}

impl ClassesOnDisk {
    /// Open the class files of `dir` for lookups, with the game they solve. `None` when a
    /// file names a class the game does not have (the directory is then read whole).
    ///
    /// # Errors
    /// [`Error::Corrupt`] if the directory holds no class files or none of the start's class;
    /// the errors of [`OnDiskBundle::open`] for the file that names the game.
    pub fn open(dir: &Path, games: &Games) -> Result<Option<(Box<dyn Game>, ClassesOnDisk)>> {
        let files = class_files(dir)?;
        // The smallest file names the game: the others are checked against it when opened.
        let size = |p: &PathBuf| std::fs::metadata(p).map_or(u64::MAX, |m| m.len());
        let Some(first) = files.iter().min_by_key(|p| size(p)) else {
            return Err(Error::Corrupt { path: dir.to_path_buf(), what: "no class files (class-*.dfas) here".into() });
        };
        let bundle = OnDiskBundle::open(first)?;
        let header = ClassHeader::read((bundle.meta(), bundle.names().count()), first, None, None)?;
        let game = games.build(&header.params)?;
        let partition = game.classes()?;
        let mut slots = vec![None; partition.len()];
        for file in &files {
            let name = class_name(file).expect("class_files keeps class files");
            let Some(i) = partition.iter().position(|c| c.name == name) else { return Ok(None) };
            slots[i] = Some(file.clone());
        }
        // As when the directory is read whole: a directory without the start's class (a solve
        // under way) is not yet a solution.
        let start = game.initial();
        if !partition.iter().zip(&slots).any(|(c, file)| file.is_some() && c.set.contains(&start.board)) {
            return Err(Error::Corrupt {
                path: dir.to_path_buf(),
                what: "no class file holds the start of the game".into(),
            });
        }
        let classes = ClassesOnDisk {
            params: header.params,
            mover_relative: header.mover_relative,
            sets: partition.into_iter().map(|c| c.set).collect(),
            files: slots,
            opened: Mutex::new(HashMap::new()),
        };
        Ok(Some((game, classes)))
    }

    /// The value of `pos` for its mover, or `None` if no class file holds it.
    ///
    /// # Errors
    /// The class's file is damaged, of another game or class, or puts the position in two
    /// value classes.
    pub fn value(&self, pos: &Position) -> Result<Option<Outcome>> {
        let side = if self.mover_relative { Side::First } else { pos.side };
        let Some(class) = self.sets.iter().position(|set| set.contains(&pos.board)) else { return Ok(None) };
        let Some(open) = self.class(class)? else { return Ok(None) };
        value_among(&open.bundle, &open.values, side, &pos.board)
    }

    /// How many class files have been opened so far.
    pub fn opened(&self) -> usize {
        self.opened.lock().map_or(0, |o| o.len())
    }

    /// Class `i`'s file, opened and checked on first use; `None` if the directory has none.
    fn class(&self, i: usize) -> Result<Option<Arc<OpenClass>>> {
        let Some(path) = &self.files[i] else { return Ok(None) };
        if let Some(open) = self.opened.lock().ok().and_then(|o| o.get(&i).cloned()) {
            return Ok(Some(open));
        }
        let bundle = OnDiskBundle::open(path)?;
        let entries = bundle.names().count();
        let header = ClassHeader::read((bundle.meta(), entries), path, Some(&self.params), class_name(path))?;
        let corrupt = |what: &str| Error::Corrupt { path: path.clone(), what: what.into() };
        if header.mover_relative != self.mover_relative {
            return Err(corrupt("its sides are stored unlike the other class files'"));
        }
        let shape = self.sets[i].shape();
        if (0..entries).any(|k| bundle.sizes(k) != Some(shape.sizes())) {
            return Err(corrupt("a stored set does not have the game's shape"));
        }
        let open = Arc::new(OpenClass { bundle, values: header.values });
        if let Ok(mut opened) = self.opened.lock() {
            opened.insert(i, open.clone());
        }
        Ok(Some(open))
    }
}
