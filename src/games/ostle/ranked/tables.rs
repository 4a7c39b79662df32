//! A solved class as tables by rank, in memory or read through a memory map, and its file.
//!
//! # File format (version 1)
//! In the crate's container ([`crate::storage::container`]), magic `DFASOLVE-OSTLE-RANKED`:
//! ```text
//! header    postcard of `Header` (variant, reading, kinds, section places, side table,
//!           progress of an unfinished solve), with its own SHA-256
//! sections  each 8-byte aligned: per kind, the directory's bits and counts, the forbidden
//!           moves per board, the first state per block, the exceptional boards, the values
//! ```
//! Opening checks the magic, version, header checksum and section places; the whole file's
//! checksum is checked on request ([`ClassTables::verify_checksum`]), since a query should not
//! read gigabytes.

use super::super::{Rule, Variant};
use super::board::{Board, Moves};
use super::code;
use super::directory::{Directory, Kind, Layout};
use super::reading::Rules;
use crate::error::{Error, Result};
use crate::explicit::Exact;
use crate::storage::container::{self, Format, Mapped};
use crate::storage::mapped::Store;
use hashbrown::HashMap;
use memmap2::Mmap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// The file format, in the crate's container: sections are read in place, so the header has
/// its own checksum and the body is aligned for `u64`s.
const FORMAT: Format =
    Format { magic: b"DFASOLVE-OSTLE-RANKED\n\0\0", version: VERSION, header_digest: true, body_align: 8 };
/// Boards per stored first state.
pub const BLOCK: usize = 64;

/// A state by kind index, board rank and slot (0: no forbidden move; `i`: the `i`-th possible
/// forbidden move).
pub type StateKey = (u8, u64, u8);

/// Where a solve stands, in an unfinished file (a checkpoint).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub enum Progress {
    /// Every state's count of moves is set; the walk back is to start at this level.
    Level {
        /// The next level to walk back from.
        next: u32,
        /// Levels marked per task, as 4 words of bits each.
        present: Vec<[u64; 4]>,
        /// The largest level marked.
        latest: u32,
        /// What each level held (plies, states, wins, seconds).
        levels: Vec<(u32, u64, u64, f64)>,
    },
    /// The count of moves is under way: the first `tasks` tasks are counted (the others'
    /// values are still zero).
    Counting {
        /// Tasks counted.
        tasks: usize,
        /// Levels marked per task so far, as 4 words of bits each.
        present: Vec<[u64; 4]>,
        /// The largest level marked so far.
        latest: u32,
    },
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct KindHeader {
    kind: Kind,
    boards: u64,
    states: u64,
    /// (byte offset, element count) of bits, counts, markers, block starts, exceptional, values.
    sections: [(u64, u64); 6],
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Header {
    version: u32,
    width: u8,
    height: u8,
    pieces: u8,
    lose_at: u8,
    class_reading: bool,
    kinds: Vec<KindHeader>,
    other_parity: Vec<(StateKey, i64)>,
    progress: Option<Progress>,
    program: String,
}

fn value_to_i64(v: Exact) -> i64 {
    match v {
        Exact::Win(n) => i64::from(n) + 1,
        Exact::Loss(n) => -(i64::from(n) + 1),
        Exact::Draw => 0,
    }
}

fn value_from_i64(x: i64) -> Exact {
    match x {
        0 => Exact::Draw,
        x if x > 0 => Exact::Win((x - 1) as u32),
        x => Exact::Loss((-x - 1) as u32),
    }
}

/// A kind's values to write: stored bytes, or the atomic bytes of a solve under way.
#[derive(Clone, Copy)]
pub enum Values<'a> {
    /// Bytes.
    Plain(&'a [u8]),
    /// Atomic bytes, read while nothing writes them.
    Atomic(&'a [AtomicU8]),
}

impl Values<'_> {
    fn len(&self) -> usize {
        match self {
            Values::Plain(v) => v.len(),
            Values::Atomic(v) => v.len(),
        }
    }
}

/// The arrays of one kind, to write.
pub struct KindView<'a> {
    /// The directory's bits.
    pub bits: &'a [u64],
    /// The directory's counts.
    pub counts: &'a [u64],
    /// Possible forbidden moves per board.
    pub markers: &'a [u8],
    /// First state per block.
    pub block_start: &'a [u64],
    /// Exceptional boards.
    pub exceptional: &'a [u64],
    /// Values.
    pub values: Values<'a>,
}

/// One kind's tables.
pub struct KindTable {
    /// The kind.
    pub kind: Kind,
    /// Its canonical boards.
    pub dir: Directory,
    /// Possible forbidden moves per board.
    pub markers: Store<u8>,
    /// The first state of every [`BLOCK`] boards.
    pub block_start: Store<u64>,
    /// A bit per board: its forbidden moves come from canonical boards.
    pub exceptional: Store<u64>,
    /// A byte per state ([`super::code`]).
    pub values: Store<u8>,
}

/// The index of board `r`'s first state.
#[inline]
pub fn first_state(markers: &[u8], block_start: &[u64], r: u64) -> u64 {
    let r = r as usize;
    block_start[r / BLOCK] + markers[r / BLOCK * BLOCK..r].iter().map(|&m| 1 + u64::from(m)).sum::<u64>()
}

/// Whether bit `r` is set.
#[inline]
pub fn bit(words: &[u64], r: u64) -> bool {
    words[(r / 64) as usize] >> (r % 64) & 1 == 1
}

impl KindTable {
    /// States.
    pub fn states(&self) -> u64 {
        *self.block_start.last().expect("a total")
    }

    /// The first state of board `r`.
    pub fn first_state(&self, r: u64) -> u64 {
        first_state(&self.markers, &self.block_start, r)
    }
}

/// A solved class: its kinds' tables and the side table of values with the other parity.
pub struct ClassTables {
    /// The variant.
    pub variant: Variant,
    /// The kinds of the class.
    pub kinds: Vec<KindTable>,
    /// Values the byte code does not hold.
    pub other_parity: HashMap<StateKey, Exact>,
    /// Set in a checkpoint.
    pub progress: Option<Progress>,
}

impl ClassTables {
    /// The table of `kind`, if the class has it.
    pub fn kind(&self, kind: Kind) -> Option<(u8, &KindTable)> {
        self.kinds.iter().enumerate().find(|(_, k)| k.kind == kind).map(|(i, k)| (i as u8, k))
    }

    /// The value of state `(kind, r, slot)`.
    pub fn value_at(&self, k: u8, r: u64, slot: u8) -> Exact {
        let t = &self.kinds[usize::from(k)];
        let c = t.values[(t.first_state(r) + u64::from(slot)) as usize];
        if c == code::OTHER_PARITY { self.other_parity[&(k, r, slot)] } else { code::decode(c) }
    }

    /// The value of a state on any board of the class (`b` from the mover's view), with
    /// forbidden move `forbidden` on `b`; `None` if the board is not of the class or the move
    /// is not one its states can forbid.
    pub fn value(&self, rules: &Rules, b: &Board, forbidden: Option<super::board::Mv>) -> Option<Exact> {
        let (mine, theirs) = b.counts();
        let (k, t) = self.kind(Kind { mover: mine as u8, opponent: theirs as u8 })?;
        let (canonical, which) = rules.sym.canonical(b);
        let r = t.dir.rank(&rules.sym, &canonical);
        self.value_located(rules, k, r, &canonical, which, forbidden)
    }

    /// [`ClassTables::value`] with the board located already: `canonical` its canonical board,
    /// of rank `r` in kind `k`, and `which` the symmetries that take it there; `forbidden` on
    /// the board itself.
    pub fn value_located(
        &self,
        rules: &Rules,
        k: u8,
        r: u64,
        canonical: &Board,
        which: u8,
        forbidden: Option<super::board::Mv>,
    ) -> Option<Exact> {
        let exceptional = bit(&self.kinds[usize::from(k)].exceptional, r);
        let mut slots = Moves::new();
        rules.slots(canonical, exceptional, &mut slots);
        let slot = match forbidden {
            None => 0,
            Some(f) => {
                // Any symmetry that takes the board to its canonical one maps the state to one
                // of the canonical board's (they are all the same state up to symmetry).
                let mut found = None;
                for g in (0..8u8).filter(|g| which >> g & 1 == 1) {
                    let image = rules.sym.mv(g, f);
                    if let Some(i) = slots.iter().position(|&m| m == image) {
                        found = Some(i);
                        break;
                    }
                }
                1 + found?
            }
        };
        Some(self.value_at(k, r, slot as u8))
    }

    /// The value of the state without a forbidden move on canonical board `b` of kind `kind`.
    pub fn plain_value(&self, rules: &Rules, kind: Kind, b: &Board) -> Option<Exact> {
        let (k, t) = self.kind(kind)?;
        Some(self.value_at(k, t.dir.rank(&rules.sym, b), 0))
    }

    /// Write the tables to `path` atomically.
    ///
    /// # Errors
    /// [`Error::Io`] naming the file.
    pub fn write(&self, path: &Path) -> Result<()> {
        let views: Vec<KindView> = self
            .kinds
            .iter()
            .map(|t| KindView {
                bits: &t.dir.bits,
                counts: &t.dir.counts,
                markers: &t.markers,
                block_start: &t.block_start,
                exceptional: &t.exceptional,
                values: Values::Plain(&t.values),
            })
            .collect();
        self.write_views(path, &views)
    }

    /// Write this header (variant, kinds, side table, progress) with the arrays of `views`.
    ///
    /// # Errors
    /// [`Error::Io`] naming the file.
    pub fn write_views(&self, path: &Path, views: &[KindView]) -> Result<()> {
        let v = &self.variant;
        let mut kinds = Vec::new();
        let mut offset = 0u64; // from the start of the sections
        let mut place = |len: usize, size: u64| {
            let at = offset;
            offset = (offset + len as u64 * size).next_multiple_of(8);
            (at, len as u64)
        };
        for (t, view) in self.kinds.iter().zip(views) {
            let boards = *view.counts.last().expect("a total");
            kinds.push(KindHeader {
                kind: t.kind,
                boards,
                states: *view.block_start.last().expect("a total"),
                sections: [
                    place(view.bits.len(), 8),
                    place(view.counts.len(), 8),
                    place(view.markers.len(), 1),
                    place(view.block_start.len(), 8),
                    place(view.exceptional.len(), 8),
                    place(view.values.len(), 1),
                ],
            });
        }
        let mut other: Vec<(StateKey, i64)> = self.other_parity.iter().map(|(k, v)| (*k, value_to_i64(*v))).collect();
        other.sort_unstable();
        let header = Header {
            version: VERSION,
            width: v.width as u8,
            height: v.height as u8,
            pieces: v.pieces as u8,
            lose_at: v.lose_at as u8,
            class_reading: v.rule == Rule::Class,
            kinds,
            other_parity: other,
            progress: self.progress.clone(),
            program: crate::PROGRAM_VERSION.to_string(),
        };
        FORMAT.write(path, &header, |out| {
            let base = out.written();
            for (view, h) in views.iter().zip(&header.kinds) {
                let parts: [&[u8]; 5] = [
                    bytemuck::cast_slice(view.bits),
                    bytemuck::cast_slice(view.counts),
                    view.markers,
                    bytemuck::cast_slice(view.block_start),
                    bytemuck::cast_slice(view.exceptional),
                ];
                for (bytes, (at, _)) in parts.iter().zip(h.sections) {
                    debug_assert_eq!(out.written() - base, at);
                    for chunk in bytes.chunks(1 << 24) {
                        out.write_all(chunk)?;
                    }
                    out.pad_to(8)?;
                }
                match view.values {
                    Values::Plain(v) => {
                        for chunk in v.chunks(1 << 24) {
                            out.write_all(chunk)?;
                        }
                    }
                    Values::Atomic(v) => {
                        let mut buffer = Vec::with_capacity(1 << 24);
                        for chunk in v.chunks(1 << 24) {
                            buffer.clear();
                            buffer.extend(chunk.iter().map(|c| c.load(Relaxed)));
                            out.write_all(&buffer)?;
                        }
                    }
                }
                out.pad_to(8)?;
            }
            Ok(())
        })
    }

    /// Open a tables file through a memory map, checking its header (not the whole file's
    /// checksum: see [`ClassTables::verify_checksum`]).
    ///
    /// # Errors
    /// [`Error::Io`], [`Error::ForeignFile`], [`Error::UnsupportedVersion`] or
    /// [`Error::Corrupt`].
    pub fn open(path: &Path, squares_check: Option<&Variant>) -> Result<ClassTables> {
        let corrupt = |what: String| Error::Corrupt { path: path.to_path_buf(), what };
        let Mapped { header, map, body } = FORMAT.open_mapped::<Header>(path)?;
        let variant = Variant {
            width: header.width.into(),
            height: header.height.into(),
            pieces: header.pieces.into(),
            lose_at: header.lose_at.into(),
            rule: if header.class_reading { Rule::Class } else { Rule::Exact },
        };
        if let Some(want) = squares_check
            && (want.width, want.height, want.pieces, want.lose_at, want.rule)
                != (variant.width, variant.height, variant.pieces, variant.lose_at, variant.rule)
        {
            return Err(Error::Mismatch(format!(
                "{} holds tables of ostle {}x{} k{} t{} ({} reading), not of the variant asked for",
                path.display(),
                variant.width,
                variant.height,
                variant.pieces,
                variant.lose_at,
                variant.rule.name()
            )));
        }
        let variant = variant.checked()?;
        let sym = super::symmetry::Symmetries::new(&variant);
        let base = body.start;
        let mut kinds = Vec::new();
        for h in &header.kinds {
            let section = |i: usize| {
                let (at, n) = h.sections[i];
                (base + at as usize, n as usize)
            };
            fn get<T: bytemuck::Pod>(map: &Arc<Mmap>, (at, n): (usize, usize)) -> Option<Store<T>> {
                Store::mapped(map, at, n)
            }
            let bad = || corrupt(format!("a section of kind {} lies outside the file", h.kind));
            let layout = Layout::new(h.kind, variant.squares(), &sym);
            let dir = Directory {
                layout,
                bits: get(&map, section(0)).ok_or_else(bad)?,
                counts: get(&map, section(1)).ok_or_else(bad)?,
            };
            let t = KindTable {
                kind: h.kind,
                markers: get(&map, section(2)).ok_or_else(bad)?,
                block_start: get(&map, section(3)).ok_or_else(bad)?,
                exceptional: get(&map, section(4)).ok_or_else(bad)?,
                values: get(&map, section(5)).ok_or_else(bad)?,
                dir,
            };
            let consistent = t.dir.bits.len() as u64 == t.dir.layout.raw.div_ceil(64)
                && t.dir.counts.last() == Some(&h.boards)
                && t.markers.len() as u64 == h.boards
                && t.block_start.len() as u64 == h.boards.div_ceil(BLOCK as u64) + 1
                && t.block_start.last() == Some(&h.states)
                && t.values.len() as u64 == h.states
                && t.exceptional.len() as u64 == h.boards.div_ceil(64);
            if !consistent {
                return Err(corrupt(format!("the sizes of kind {} do not agree with its header", h.kind)));
            }
            kinds.push(t);
        }
        let other_parity = header.other_parity.iter().map(|(k, v)| (*k, value_from_i64(*v))).collect();
        Ok(ClassTables { variant, kinds, other_parity, progress: header.progress })
    }

    /// Read the whole file again and check its checksum.
    ///
    /// # Errors
    /// [`Error::Io`] or [`Error::Corrupt`].
    pub fn verify_checksum(path: &Path) -> Result<()> {
        container::verify_checksum(path)
    }
}
