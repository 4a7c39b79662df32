//! One class solved by rank, in named phases: [`prepare`] finds the canonical boards and
//! their possible forbidden moves, [`Solve::count`] (in `count.rs`) gives every state its count
//! of open moves (or its value, where the moves out of the class or the lack of moves decide it),
//! and [`Solve::walk_back`] (in `walk.rs`) decides states one distance at a time from the
//! states decided at the distance before, by unmoves, on every core.
//!
//! A move that removes a piece leaves the class: its value is read from the lower classes'
//! tables. A win through such a move is set at once as a *provisional* win, which a shorter
//! win found in the class replaces (levels are walked in increasing order, so a provisional
//! win still stands when its own level comes). A state whose moves in the class have all been
//! seen to lose is a loss one ply longer than its longest move (out of the class included),
//! or a draw if a move out of the class draws.

use super::board::{Board, Moves};
use super::code::{self, DRAW, OTHER_PARITY};
use super::directory::{Cursor, Directory, Kind};
use super::lower::Lower;
use super::reading::Rules;
use super::tables::{BLOCK, ClassTables, KindTable, Progress, StateKey, bit, first_state};
use crate::error::{Error, Result};
use crate::explicit::Exact;
use crate::storage::mapped::{AtomicBytes, Store, huge_copy};
use hashbrown::HashMap;
use rayon::prelude::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Boards per parallel task (a multiple of [`BLOCK`] and of 64); small in unit tests, so that
/// their variants have many tasks and checkpoints within the count.
pub const TASK: u64 = if cfg!(test) { 1024 } else { 64 * 1024 };
/// Levels with their own bit per task; later levels share the last bit.
pub(super) const LEVEL_BITS: u32 = 256;
/// One kind's arrays while its class is solved.
pub struct WorkKind {
    /// The kind.
    pub kind: Kind,
    /// Its canonical boards.
    pub dir: Directory,
    /// Possible forbidden moves per board.
    pub markers: Store<u8>,
    /// First state of every [`BLOCK`] boards, and the total.
    pub block_start: Store<u64>,
    /// A bit per board: exceptional in the class reading.
    pub exceptional: Store<u64>,
    /// A byte per state.
    pub values: AtomicBytes,
    /// A byte per board: what its moves out of the class give its states once their moves in
    /// the class are lost (a draw, or its longest loss; 0 until worked out). Kept so that the
    /// walk reads the lower tables at most once per board, not once per state; not in
    /// checkpoints (a resumed walk works each board out again when it first needs it).
    pub exits: AtomicBytes,
}

impl WorkKind {
    pub(super) fn first_state(&self, r: u64) -> u64 {
        first_state(&self.markers, &self.block_start, r)
    }
}

/// What a level of the walk back held.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Level {
    /// Plies to the end.
    pub plies: u32,
    /// States decided at this distance.
    pub states: u64,
    /// Of them, wins for the mover.
    pub wins: u64,
    /// Seconds its walk back took.
    pub seconds: f64,
}

/// Where the parallel work is cut: a range of board ranks of one kind.
#[derive(Clone, Copy, Debug)]
pub(super) struct Task {
    pub(super) kind: usize,
    pub(super) first: u64,
    pub(super) end: u64,
}

/// A class being solved.
pub struct Solve<'a> {
    pub(super) rules: &'a Rules,
    pub(super) lower: &'a Lower,
    /// The kinds of the class.
    pub kinds: Vec<WorkKind>,
    /// `partner[k]`: the kind a move in the class leads to.
    pub(super) partner: Vec<usize>,
    pub(super) tasks: Vec<Task>,
    pub(super) task_base: Vec<usize>,
    pub(super) present: Vec<[AtomicU64; 4]>,
    pub(super) latest: AtomicU32,
    pub(super) other: Mutex<HashMap<StateKey, Exact>>,
    /// Tasks whose states have their counts (all of them once the count is done).
    pub counted: usize,
    /// The levels walked so far.
    pub levels: Vec<Level>,
    /// The next level to walk back from.
    pub next_level: u32,
}

/// For each board rank in `first..end` of `dir`, call `f` with a cursor on the board (its
/// board is worked out only if `f` asks: most boards of a level have nothing to do).
pub(super) fn for_each_board(dir: &Directory, first: u64, end: u64, mut f: impl FnMut(u64, &Cursor)) {
    if first >= end {
        return;
    }
    let mut raw = dir.raw_of_rank(first);
    let mut cursor = dir.layout.cursor(raw);
    let mut r = first;
    while r < end {
        if dir.is_set(raw) {
            f(r, &cursor);
            r += 1;
        }
        raw += 1;
        cursor.advance();
    }
}

/// The error for a byte array the system would not lend.
pub(super) fn no_memory(bytes: u64, e: &std::io::Error) -> Error {
    Error::BadParameters(format!("could not allocate {} MiB for the states: {e}", bytes >> 20))
}

/// The kinds of a class (in-class moves swap the counts, so a class is `{a v b, b v a}`).
pub fn class_kinds(a: u8, b: u8) -> Vec<Kind> {
    if a == b {
        vec![Kind { mover: a, opponent: b }]
    } else {
        vec![Kind { mover: a, opponent: b }, Kind { mover: b, opponent: a }]
    }
}

fn tasks_of(kinds: &[WorkKind]) -> (Vec<Task>, Vec<usize>) {
    let mut tasks = Vec::new();
    let mut base = Vec::new();
    for (k, w) in kinds.iter().enumerate() {
        base.push(tasks.len());
        let boards = w.dir.boards();
        let mut first = 0;
        while first < boards {
            tasks.push(Task { kind: k, first, end: boards.min(first + TASK) });
            first += TASK;
        }
    }
    (tasks, base)
}

/// The bytes the class needs beyond its directories: a byte per state, two per board (its
/// forbidden moves and its exits), the block starts and the exceptional bits.
pub fn bytes_needed(kinds: &[WorkKind]) -> u64 {
    kinds
        .iter()
        .map(|w| w.block_start.last().copied().unwrap_or(0) + w.dir.boards() * 17 / 8 + w.dir.boards() / 8)
        .sum()
}

/// Phase 1: the canonical boards of each kind and their possible forbidden moves.
pub fn prepare(rules: &Rules, kinds: &[Kind]) -> Vec<WorkKind> {
    let squares = rules.geometry.squares;
    kinds
        .iter()
        .map(|&kind| {
            let started = Instant::now();
            let dir = Directory::build(kind, squares, &rules.sym);
            let boards = dir.boards();
            crate::progress!(
                "{kind}: {boards} canonical boards of {} raw indexes ({:.0} s)",
                dir.layout.raw,
                started.elapsed().as_secs_f64()
            );
            let mut markers = vec![0u8; boards as usize];
            let mut exceptional = vec![0u64; boards.div_ceil(64) as usize];
            markers
                .par_chunks_mut(TASK as usize)
                .zip(exceptional.par_chunks_mut((TASK / 64) as usize))
                .enumerate()
                .for_each(|(t, (markers, exceptional))| {
                    let first = t as u64 * TASK;
                    let mut slots = Moves::new();
                    for_each_board(&dir, first, first + markers.len() as u64, |r, cursor| {
                        let q = cursor.board();
                        let exc = rules.exceptional(&q);
                        rules.slots(&q, exc, &mut slots);
                        let i = (r - first) as usize;
                        markers[i] = slots.len() as u8;
                        if exc {
                            exceptional[i / 64] |= 1 << (i % 64);
                        }
                    });
                });
            let sums: Vec<u64> = markers.par_chunks(BLOCK).map(|c| c.iter().map(|&m| 1 + u64::from(m)).sum()).collect();
            let mut block_start = Vec::with_capacity(sums.len() + 1);
            let mut total = 0u64;
            for s in sums {
                block_start.push(total);
                total += s;
            }
            block_start.push(total);
            let exc: u64 = exceptional.iter().map(|w| u64::from(w.count_ones())).sum();
            crate::progress!(
                "{kind}: {total} states, {exc} exceptional boards; forbidden moves found in {:.0} s",
                started.elapsed().as_secs_f64()
            );
            WorkKind {
                kind,
                dir,
                markers: huge_copy(&markers),
                block_start: huge_copy(&block_start),
                exceptional: huge_copy(&exceptional),
                values: AtomicBytes::empty(),
                exits: AtomicBytes::empty(),
            }
        })
        .collect()
}

impl<'a> Solve<'a> {
    pub(super) fn shell(rules: &'a Rules, lower: &'a Lower, kinds: Vec<WorkKind>) -> Solve<'a> {
        let partner = kinds
            .iter()
            .map(|w| {
                let other = Kind { mover: w.kind.opponent, opponent: w.kind.mover };
                kinds.iter().position(|x| x.kind == other).expect("a class holds both sides' kinds")
            })
            .collect();
        let (tasks, task_base) = tasks_of(&kinds);
        let present = (0..tasks.len()).map(|_| Default::default()).collect();
        Solve {
            rules,
            lower,
            kinds,
            partner,
            tasks,
            task_base,
            present,
            latest: AtomicU32::new(0),
            other: Mutex::new(HashMap::new()),
            counted: 0,
            levels: Vec::new(),
            next_level: 0,
        }
    }

    /// Resume from a checkpoint's tables: in the count of moves or in the walk back.
    ///
    /// # Errors
    /// [`Error::Mismatch`] if the checkpoint holds no progress or other tasks than this
    /// build's.
    pub fn resume(rules: &'a Rules, lower: &'a Lower, tables: ClassTables) -> Result<Solve<'a>> {
        let (counted, present, latest, levels, next) = match tables.progress.clone() {
            Some(Progress::Counting { tasks, present, latest }) => (Some(tasks), present, latest, Vec::new(), 0),
            Some(Progress::Level { next, present, latest, levels }) => (None, present, latest, levels, next),
            None => {
                return Err(Error::Mismatch("the checkpoint holds finished tables, not a solve under way".into()));
            }
        };
        let kinds = tables
            .kinds
            .into_iter()
            .map(|t| -> Result<WorkKind> {
                let boards = t.dir.boards();
                Ok(WorkKind {
                    kind: t.kind,
                    dir: Directory {
                        layout: t.dir.layout,
                        bits: huge_copy(&t.dir.bits),
                        counts: Store::Owned(t.dir.counts.to_vec()),
                    },
                    markers: huge_copy(&t.markers),
                    block_start: huge_copy(&t.block_start),
                    exceptional: huge_copy(&t.exceptional),
                    values: AtomicBytes::copy_of(&t.values).map_err(|e| no_memory(t.values.len() as u64, &e))?,
                    exits: AtomicBytes::zeroed(boards as usize).map_err(|e| no_memory(boards, &e))?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let mut s = Solve::shell(rules, lower, kinds);
        if present.len() != s.present.len() {
            return Err(Error::Mismatch("the checkpoint's tasks do not match this build's".into()));
        }
        for (p, q) in s.present.iter().zip(present) {
            for (a, b) in p.iter().zip(q) {
                a.store(b, Relaxed);
            }
        }
        s.latest.store(latest, Relaxed);
        *s.other.lock().expect("no panic holds the lock") = tables.other_parity;
        s.levels =
            levels.into_iter().map(|(plies, states, wins, seconds)| Level { plies, states, wins, seconds }).collect();
        s.next_level = next;
        s.counted = counted.unwrap_or(s.tasks.len());
        if s.counted > s.tasks.len() {
            return Err(Error::Mismatch("the checkpoint counted more tasks than this build has".into()));
        }
        Ok(s)
    }

    pub(super) fn mark(&self, kind: usize, r: u64, level: u32) {
        let t = self.task_base[kind] + (r / TASK) as usize;
        let b = level.min(LEVEL_BITS - 1);
        self.present[t][(b / 64) as usize].fetch_or(1 << (b % 64), Relaxed);
        self.latest.fetch_max(level, Relaxed);
    }

    pub(super) fn is_present(&self, t: usize, level: u32) -> bool {
        let b = level.min(LEVEL_BITS - 1);
        self.present[t][(b / 64) as usize].load(Relaxed) >> (b % 64) & 1 == 1
    }

    /// The slots of canonical board `q` of kind `k` at rank `r`.
    pub(super) fn slots(&self, k: usize, r: u64, q: &Board, out: &mut Moves) -> bool {
        let exc = bit(&self.kinds[k].exceptional, r);
        self.rules.slots(q, exc, out);
        exc
    }

    /// Store a decided value (no other thread writes this state now) and mark its level.
    pub(super) fn settle(&self, k: usize, r: u64, slot: u8, index: u64, v: Exact) {
        let c = code::encode(v);
        if c == OTHER_PARITY {
            self.other.lock().expect("no panic holds the lock").insert((k as u8, r, slot), v);
        }
        self.kinds[k].values[index as usize].store(c, Relaxed);
        if let Some(n) = code::plies(v) {
            self.mark(k, r, n);
        }
    }

    /// The value of a state, for the walk back: `None` while undecided.
    pub(super) fn current(&self, k: usize, r: u64, slot: u8, c: u8) -> Option<Exact> {
        match c {
            OTHER_PARITY => Some(self.other.lock().expect("no panic holds the lock")[&(k as u8, r, slot)]),
            c if code::undecided(c) => None,
            c => Some(code::decode(c)),
        }
    }

    /// The solved tables (undecided states are draws).
    pub fn into_tables(self, variant: &super::super::Variant) -> Result<ClassTables> {
        let other_parity = self.other.into_inner().expect("no panic holds the lock");
        let kinds = self
            .kinds
            .into_iter()
            .map(|w| {
                w.values.par_iter().filter(|c| code::undecided(c.load(Relaxed))).for_each(|c| c.store(DRAW, Relaxed));
                let states = w.values.len() as u64;
                Ok(KindTable {
                    kind: w.kind,
                    dir: w.dir,
                    markers: w.markers,
                    block_start: w.block_start,
                    exceptional: w.exceptional,
                    values: w.values.into_store().map_err(|e| no_memory(states, &e))?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(ClassTables { variant: variant.clone(), kinds, other_parity, progress: None })
    }

    /// The solve so far as tables with its progress, for a checkpoint (written by
    /// [`ClassTables::write`] with the values given separately).
    pub fn progress(&self) -> Progress {
        let present = || self.present.iter().map(|p| [0, 1, 2, 3].map(|i| p[i].load(Relaxed))).collect();
        if self.counted < self.tasks.len() {
            return Progress::Counting { tasks: self.counted, present: present(), latest: self.latest.load(Relaxed) };
        }
        Progress::Level {
            next: self.next_level,
            present: present(),
            latest: self.latest.load(Relaxed),
            levels: self.levels.iter().map(|l| (l.plies, l.states, l.wins, l.seconds)).collect(),
        }
    }

    /// The side table so far.
    pub fn other_parity(&self) -> HashMap<StateKey, Exact> {
        self.other.lock().expect("no panic holds the lock").clone()
    }
}
