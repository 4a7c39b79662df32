//! Ostle solved explicitly, class by class, by canonical rank: one byte per state up to the
//! board's symmetries, so that the standard 5x5 game fits one machine.
//!
//! * A **class** is the boards of piece counts `{a v b, b v a}` (mover's v opponent's): a move
//!   that removes nothing stays in it, a move that removes a piece leaves it downwards. Classes
//!   are solved from the fewest pieces up; each reads the saved tables of those below
//!   ([`lower::Lower`]) for its moves that remove a piece, never recomputing them.
//! * **Boards by canonical rank** ([`directory`]): only the canonical board of each symmetry
//!   class is stored, found by a bit per raw board and a count per 512 bits.
//! * **States**: a board's states follow one another, no forbidden move first, then each of its
//!   possible forbidden moves in the published move order ([`reading`], either reading of the
//!   no-undo rule).
//! * **Values**: a byte per state ([`code`]), solved by [`solve`]; saved per class with a
//!   checksummed header and read back through a memory map ([`tables`]).
//! * **Counts** as published ([`census`]).
//!
//! Plain board code, no DFAs; [`super::explicit`] (the hash-map solver of the raw game) is the
//! oracle the tests compare with.

mod bits;
pub mod board;
pub mod census;
mod check;
pub mod code;
pub mod compare;
mod count;
pub mod directory;
mod explore;
mod format;
pub mod levels;
pub mod lower;
pub mod positions;
pub mod puzzles;
pub mod reading;
pub mod run;
pub mod sacrifices;
pub mod saved_census;
pub mod solve;
pub mod tables;
mod walk;

pub use explore::is_tables_dir;
pub use format::TablesFormat;

use super::explicit::State;
use super::{Dir, Rule, Variant};
use crate::error::{Error, Result};
use crate::explicit::Exact;
use board::{Board, Geometry, Mv};
use directory::Kind;
use lower::Lower;
use reading::Rules;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use symmetry::Symmetries;
use tables::ClassTables;

#[cfg(test)]
mod class_oracle;
pub mod symmetry;
#[cfg(test)]
mod tests;

/// The largest pieces per side: a state's count of moves must stay below [`code::DECIDED`].
pub const MAX_PIECES: usize = 5;

/// A class: its name (`AvB`, `A ≥ B`) and kinds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    /// `AvB` with `A ≥ B`.
    pub name: String,
    /// `A v B` and `B v A`.
    pub kinds: Vec<Kind>,
}

impl Rules {
    /// The rules of `v`.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for more than [`MAX_PIECES`] pieces a side.
    pub fn new(v: &Variant) -> Result<Rules> {
        if v.pieces > MAX_PIECES {
            return Err(Error::BadParameters(format!(
                "the explicit solver by rank counts at most {} moves a state: pieces must be at most {MAX_PIECES}",
                code::DECIDED - 1
            )));
        }
        if v.squares() > 64 {
            return Err(Error::BadParameters("the explicit solver by rank holds boards of at most 64 squares".into()));
        }
        Ok(Rules { geometry: Geometry::new(v), sym: Symmetries::new(v), class_reading: v.rule == Rule::Class })
    }

    /// A state of the plain rules as a board and a forbidden move.
    pub fn board_of(&self, s: &State) -> (Board, Option<Mv>) {
        use super::explicit::Cell;
        let mut b = Board { hole: board::OFF, mine: 0, theirs: 0 };
        for (i, c) in s.cells.iter().enumerate() {
            match c {
                Cell::Mine => b.mine |= 1 << i,
                Cell::Theirs => b.theirs |= 1 << i,
                Cell::Hole => b.hole = i as u8,
                Cell::Empty => {}
            }
        }
        (b, s.forbidden.map(|m| Mv { square: m.square as u8, dir: m.dir.index() as u8 }))
    }
}

impl Class {
    /// About how many boards the class holds up to symmetry (the raw count over the number of
    /// symmetries; the few symmetric boards make the true count slightly larger), without
    /// building its directory: for cost estimates.
    pub fn estimated_boards(&self, v: &Variant) -> u64 {
        let binomial = directory::Binomial::new();
        let squares = v.squares();
        let raw: u64 = self
            .kinds
            .iter()
            .map(|k| {
                let (a, b) = (usize::from(k.mover), usize::from(k.opponent));
                squares as u64 * binomial.get(squares - 1, a) * binomial.get(squares - 1 - a, b)
            })
            .sum();
        raw / Symmetries::new(v).len() as u64
    }
}

/// The classes of `v`, lowest first.
pub fn classes(v: &Variant) -> Vec<Class> {
    let (low, high) = (v.lose_at as u8 + 1, v.pieces as u8);
    let mut out = Vec::new();
    for total in 2 * low..=2 * high {
        for a in (low..=high).rev() {
            let b = total - a;
            if b < low || b > a {
                continue;
            }
            out.push(Class { name: format!("{a}v{b}"), kinds: solve::class_kinds(a, b) });
        }
    }
    out
}

/// The file of a class's tables in `dir`.
pub fn class_file(dir: &Path, class: &Class) -> PathBuf {
    dir.join(format!("class-{}.ranked", class.name))
}

/// The checkpoint of a class under way in `dir`.
pub fn checkpoint_file(dir: &Path, class: &Class) -> PathBuf {
    dir.join(format!("class-{}.ranked.checkpoint", class.name))
}

/// How a class solve runs.
pub struct Options {
    /// Memory budget in bytes (checked before the values are allocated).
    pub budget: Option<u64>,
    /// Save a checkpoint between groups of the count and between levels at most this often.
    pub checkpoint_every: Duration,
    /// Stop with an error at this point, once checkpointed, as a killed run would (for tests
    /// of resuming).
    pub stop_at: Option<StopPoint>,
}

/// Where [`Options::stop_at`] stops a class solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopPoint {
    /// Once at least this many tasks are counted.
    CountedTasks(usize),
    /// Once this level is walked.
    Level(u32),
}

/// What solving one class measured.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ClassReport {
    /// The class.
    pub class: String,
    /// Canonical boards.
    pub boards: u64,
    /// States (a byte each).
    pub states: u64,
    /// Levels of the walk back (none for a class read).
    pub levels: Vec<solve::Level>,
    /// Whether the run resumed from a checkpoint.
    pub resumed: bool,
}

/// Open the tables of the classes below `class` from `dir` (checked whole: their checksums).
///
/// # Errors
/// A missing, corrupt or foreign file.
pub fn lower_of(v: &Variant, dir: &Path, class: &Class) -> Result<Lower> {
    let all = classes(v);
    let mut below = Vec::new();
    for c in all.iter().take_while(|c| *c != class) {
        let path = class_file(dir, c);
        if !path.exists() {
            return Err(Error::BadParameters(format!(
                "class {} needs the tables of class {} first ({} does not exist)",
                class.name,
                c.name,
                path.display()
            )));
        }
        ClassTables::verify_checksum(&path)?;
        below.push(ClassTables::open(&path, Some(v))?);
    }
    Ok(Lower::new(below))
}

/// The solved `class` of `v` from its tables in `dir`.
///
/// # Errors
/// A missing, corrupt or foreign file.
pub fn read_class(v: &Variant, dir: &Path, class: &Class) -> Result<ClassReport> {
    let t = ClassTables::open(&class_file(dir, class), Some(v))?;
    Ok(ClassReport {
        class: class.name.clone(),
        boards: t.kinds.iter().map(|k| k.dir.boards()).sum(),
        states: t.kinds.iter().map(|k| k.states()).sum(),
        levels: Vec::new(),
        resumed: false,
    })
}

/// Solve `class` of `v` into `dir` (read if its tables are there; resumed from its checkpoint
/// if one is there).
///
/// # Errors
/// Missing lower classes, a budget too small, files that cannot be read or written.
pub fn solve_class(v: &Variant, dir: &Path, class: &Class, options: &Options) -> Result<ClassReport> {
    let out = class_file(dir, class);
    if out.exists() {
        return read_class(v, dir, class);
    }
    let rules = Rules::new(v)?;
    let lower = lower_of(v, dir, class)?;
    let ck = checkpoint_file(dir, class);
    remove_stale_temporaries(dir, class)?;
    let resumed = ck.exists();
    let mut solve = if resumed {
        crate::progress!("class {}: resuming from {}", class.name, ck.display());
        let tables = ClassTables::open(&ck, Some(v))?;
        solve::Solve::resume(&rules, &lower, tables)?
    } else {
        // At least the directories' bits, and a byte per board for its forbidden moves and one
        // for its first state, before anything is allocated.
        let least: u64 = class
            .kinds
            .iter()
            .map(|&k| {
                let layout = directory::Layout::new(k, v.squares(), &rules.sym);
                let b = directory::Binomial::new();
                let n = v.squares();
                let all =
                    n as u64 * b.get(n - 1, k.mover.into()) * b.get(n - 1 - usize::from(k.mover), k.opponent.into());
                layout.raw / 8 + 2 * (all / rules.sym.len() as u64)
            })
            .sum();
        if let Some(budget) = options.budget
            && least > budget
        {
            return Err(Error::BadParameters(format!(
                "class {} needs at least {} MiB for its boards and the budget is {} MiB",
                class.name,
                least >> 20,
                budget >> 20
            )));
        }
        let kinds = solve::prepare(&rules, &class.kinds);
        let need = solve::bytes_needed(&kinds);
        if let Some(budget) = options.budget
            && need > budget
        {
            return Err(Error::BadParameters(format!(
                "class {} needs about {} MiB for its states and the budget is {} MiB",
                class.name,
                need >> 20,
                budget >> 20
            )));
        }
        solve::Solve::allocate(&rules, &lower, kinds)?
    };
    let mut last_save = Instant::now();
    // Saved when due, or now (`force`, or a stop asked for).
    let mut checkpoint = |s: &solve::Solve, force: bool, stop: Option<String>| -> Result<()> {
        if force || stop.is_some() || last_save.elapsed() >= options.checkpoint_every {
            let t = Instant::now();
            save_checkpoint(v, &ck, s)?;
            crate::progress!("checkpoint saved in {:.1} s", t.elapsed().as_secs_f64());
            last_save = Instant::now();
        }
        stop.map_or(Ok(()), |why| Err(Error::BadParameters(format!("stopped {why} as asked"))))
    };
    if solve.counted < solve.tasks.len() {
        solve.count(&mut |s| {
            let stop = match options.stop_at {
                Some(StopPoint::CountedTasks(n)) if s.counted >= n => Some(format!("after {} tasks", s.counted)),
                _ => None,
            };
            checkpoint(s, false, stop)
        })?;
        // The end of the count is always saved: it is the longest phase.
        checkpoint(&solve, true, None)?;
    }
    solve.walk_back(&mut |s| {
        let stop = match options.stop_at {
            Some(StopPoint::Level(l)) if s.next_level > l => Some(format!("after level {}", s.next_level - 1)),
            _ => None,
        };
        checkpoint(s, false, stop)
    })?;
    let levels = solve.levels.clone();
    let tables = solve.into_tables(v)?;
    tables.write(&out)?;
    if resumed || ck.exists() {
        std::fs::remove_file(&ck).map_err(|error| Error::Io { path: ck.clone(), error })?;
    }
    Ok(ClassReport {
        class: class.name.clone(),
        boards: tables.kinds.iter().map(|k| k.dir.boards()).sum(),
        states: tables.kinds.iter().map(|k| k.states()).sum(),
        levels,
        resumed,
    })
}

/// Remove the temporary files a killed run of `class` left in `dir` (a write is a temporary
/// file renamed into place, and a kill leaves the temporary behind).
fn remove_stale_temporaries(dir: &Path, class: &Class) -> Result<()> {
    let prefixes = [".class-{}.ranked.tmp", ".class-{}.ranked.checkpoint.tmp"].map(|p| p.replace("{}", &class.name));
    let io = |error| Error::Io { path: dir.to_path_buf(), error };
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name();
        if name.to_str().is_some_and(|n| prefixes.iter().any(|p| n.starts_with(p.as_str()))) {
            std::fs::remove_file(entry.path()).map_err(|error| Error::Io { path: entry.path(), error })?;
        }
    }
    Ok(())
}

fn save_checkpoint(v: &Variant, path: &Path, s: &solve::Solve) -> Result<()> {
    // The tables of the solve so far, with its progress; the values are read from the atomic
    // bytes between levels, when nothing writes them.
    let kinds = s
        .kinds
        .iter()
        .map(|w| tables::KindTable {
            kind: w.kind,
            dir: directory::Directory {
                layout: w.dir.layout.clone(),
                bits: crate::storage::mapped::Store::Owned(Vec::new()),
                counts: crate::storage::mapped::Store::Owned(Vec::new()),
            },
            markers: crate::storage::mapped::Store::Owned(Vec::new()),
            block_start: crate::storage::mapped::Store::Owned(Vec::new()),
            exceptional: crate::storage::mapped::Store::Owned(Vec::new()),
            values: crate::storage::mapped::Store::Owned(Vec::new()),
        })
        .collect();
    let shell = ClassTables { variant: v.clone(), kinds, other_parity: s.other_parity(), progress: Some(s.progress()) };
    let views: Vec<tables::KindView> = s
        .kinds
        .iter()
        .map(|w| tables::KindView {
            bits: &w.dir.bits,
            counts: &w.dir.counts,
            markers: &w.markers,
            block_start: &w.block_start,
            exceptional: &w.exceptional,
            values: tables::Values::Atomic(&w.values),
        })
        .collect();
    shell.write_views(path, &views)
}

/// A directory of solved classes, read through memory maps: the values of any state.
pub struct Solution {
    /// The variant.
    pub variant: Variant,
    rules: Rules,
    classes: Vec<ClassTables>,
    /// The directory of the tables.
    dir: PathBuf,
}

/// Whether opening class tables reads every file whole to check its checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checksums {
    /// Check each file's checksum as it is opened: a reader's answers then never come from a
    /// damaged file (about a second per GB, once).
    Verify,
    /// Check only the headers: for the solver's own files just written, and for tests that
    /// damage a file on purpose to see another check find it.
    Trust,
}

impl Solution {
    /// Open every class file in `dir` (the classes not solved yet are left out), each
    /// checked whole, so that a damaged file is an error and never an answer.
    ///
    /// # Errors
    /// A corrupt or foreign file; [`Error::BadParameters`] if no class is there.
    pub fn open(v: &Variant, dir: &Path) -> Result<Solution> {
        Solution::open_checking(v, dir, Checksums::Verify)
    }

    /// [`Solution::open`], checking the files' checksums or not.
    ///
    /// # Errors
    /// As [`Solution::open`].
    pub fn open_checking(v: &Variant, dir: &Path, checksums: Checksums) -> Result<Solution> {
        let mut found = Vec::new();
        for c in classes(v) {
            let path = class_file(dir, &c);
            if path.exists() {
                if checksums == Checksums::Verify {
                    ClassTables::verify_checksum(&path)?;
                }
                found.push(ClassTables::open(&path, Some(v))?);
            }
        }
        if found.is_empty() {
            return Err(Error::BadParameters(format!("{} holds no solved class of this variant", dir.display())));
        }
        Ok(Solution { variant: v.clone(), rules: Rules::new(v)?, classes: found, dir: dir.to_path_buf() })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The value of a state; `None` if its class is not solved or it is not a state of the
    /// tables (its forbidden move is not one the board's states can have).
    pub fn value(&self, s: &State) -> Option<Exact> {
        let (b, f) = self.rules.board_of(s);
        self.classes.iter().find_map(|c| c.value(&self.rules, &b, f))
    }

    /// The solved classes.
    pub fn classes(&self) -> &[ClassTables] {
        &self.classes
    }

    /// The class of `s` (by its pieces) and whether it is solved here; `None` for a board
    /// with a piece count no class has (the game is over).
    pub fn class_of(&self, s: &State) -> Option<(Class, bool)> {
        let (b, _) = self.rules.board_of(s);
        let (mine, theirs) = b.counts();
        let kind = directory::Kind { mover: mine as u8, opponent: theirs as u8 };
        let class = classes(&self.variant).into_iter().find(|c| c.kinds.contains(&kind))?;
        let solved = self.classes.iter().any(|t| t.kind(kind).is_some());
        Some((class, solved))
    }
}

/// The canonical start board of `v`.
pub fn start_board(rules: &Rules, v: &Variant) -> Board {
    let (b, _) = rules.board_of(&v.initial_state());
    rules.sym.canonical(&b).0
}

/// Directions by index, for text.
pub fn dir_of(m: Mv) -> Dir {
    Dir::ALL[usize::from(m.dir)]
}
