//! Breadth-first levels from the start over the tables' states, as published (`games/ostle/README.md`): every
//! move that does not end the game is expanded, the forbidden one included; states are taken
//! from the mover's view and up to symmetry; checkmate positions count.
//!
//! A board's states all have the same moves (the forbidden one is not excluded), so a board is
//! expanded once, at the level where the first of its states is reached. A level is expanded
//! in pieces; between two pieces the pass can be saved (`checkpoint.rs`) and resumed.

mod checkpoint;

use super::Solution;
use super::board::{Board, Effect, Moves, Mv};
use super::tables::bit;
use crate::error::Result;
use rayon::prelude::*;
use smallvec::SmallVec;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// A board of the tables: class, kind, rank.
type Place = (u8, u8, u64);

/// A bit per board, per class and kind.
type Bits = Vec<Vec<Vec<AtomicU64>>>;

/// Frontier words expanded between two chances to save the pass: 2^22 boards.
const PIECE_WORDS: usize = 1 << 16;

/// Where a pass is saved and how often.
pub struct LevelsCheckpoint<'a> {
    /// The file.
    pub path: &'a Path,
    /// At most this long between two saves.
    pub every: Duration,
    /// Stop with an error after this many saves, as a killed run would (for tests of
    /// resuming).
    pub stop_after_saves: Option<u32>,
}

/// A breadth-first pass: what is reached, and the boards to expand.
struct Pass {
    /// States at each finished level.
    levels: Vec<u64>,
    /// New states found so far in the level under way.
    found: AtomicU64,
    /// A bit per state of every class and kind, in order.
    states: Vec<AtomicU64>,
    /// Boards queued once.
    boards: Bits,
    /// Boards of the level under way not expanded yet.
    frontier: Bits,
    /// Boards to expand at the next level.
    next: Bits,
}

/// Set bit `i`; whether it was clear. A plain read first: most bits a pass tests are set
/// already, and a locked write would stall the reads of the cache misses after it.
fn test_and_set(bits: &[AtomicU64], i: u64) -> bool {
    let (mask, word) = (1u64 << (i % 64), &bits[(i / 64) as usize]);
    word.load(Relaxed) & mask == 0 && word.fetch_or(mask, Relaxed) & mask == 0
}

impl Solution {
    /// A bit per canonical board of every class and kind, all clear.
    fn board_bits(&self) -> Bits {
        let bits = |boards: u64| (0..boards.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        self.classes().iter().map(|c| c.kinds.iter().map(|k| bits(k.dir.boards())).collect()).collect()
    }

    /// Every kind's boards and states, per class: what a checkpoint must have been saved from.
    fn fingerprint(&self) -> Vec<Vec<(u64, u64)>> {
        self.classes().iter().map(|c| c.kinds.iter().map(|k| (k.dir.boards(), k.states())).collect()).collect()
    }

    /// The index of kind `k` of class `c`'s first state among all.
    fn first_states(&self) -> Vec<Vec<u64>> {
        let mut total = 0u64;
        self.classes()
            .iter()
            .map(|c| {
                c.kinds
                    .iter()
                    .map(|k| {
                        let at = total;
                        total += k.states();
                        at
                    })
                    .collect()
            })
            .collect()
    }

    /// Where canonical board `b` is in the tables, if its class is solved.
    fn place(&self, b: &Board) -> Option<Place> {
        let (mine, theirs) = b.counts();
        let kind = super::directory::Kind { mover: mine as u8, opponent: theirs as u8 };
        self.classes()
            .iter()
            .enumerate()
            .find_map(|(c, t)| t.kind(kind).map(|(k, kt)| (c as u8, k, kt.dir.rank(&self.rules().sym, b))))
    }

    /// The slot of canonical board `b` (at `place`) whose forbidden move is `f`: the first of
    /// its symmetric images among them if `b` is `symmetric` (the exact reading lists both of
    /// two symmetric forbidden moves).
    fn slot_of(&self, place: Place, b: &Board, f: Option<Mv>, symmetric: bool) -> usize {
        let Some(f) = f else { return 0 };
        let rules = self.rules();
        let t = &self.classes()[usize::from(place.0)].kinds[usize::from(place.1)];
        let exceptional = bit(&t.exceptional, place.2);
        if !exceptional && !symmetric {
            // The slots are the undo moves: its place among them, without listing them.
            let masks = rules.geometry.undo_masks(b);
            return 1 + rules.geometry.undo_index(&masks, f).expect("a forbidden move of the board's states");
        }
        let mut slots = Moves::new();
        rules.slots(b, exceptional, &mut slots);
        let (_, stab) = rules.sym.canonical(b);
        (0..8u8)
            .filter(|g| stab >> g & 1 == 1)
            .filter_map(|g| slots.iter().position(|&m| m == rules.sym.mv(g, f)))
            .min()
            .expect("a forbidden move of the board's states")
            + 1
    }

    /// The states one move from canonical board `q` (moves that end the game left out).
    fn successors(&self, q: &Board, out: &mut Vec<(Place, usize)>) {
        let rules = self.rules();
        let g = &rules.geometry;
        let mut moves = Moves::new();
        g.moves(q, &mut moves);
        let (mine, theirs) = q.counts();
        out.clear();
        for &m in &moves {
            let (r, effect) = g.play(q, m);
            let ends = match effect {
                Effect::Captures => theirs == g.lose_at + 1,
                Effect::LosesOwn => mine == g.lose_at + 1,
                Effect::Stays => false,
            };
            if ends {
                continue;
            }
            let (canonical, which) = rules.sym.canonical(&r);
            let Some(place) = self.place(&canonical) else { continue };
            let forbidden = match effect {
                Effect::Stays => {
                    let t = &self.classes()[usize::from(place.0)].kinds[usize::from(place.1)];
                    if rules.class_reading && bit(&t.exceptional, place.2) {
                        rules.class_forbidden(&rules.reach(&canonical), q)
                    } else {
                        // Off the exceptional boards both readings forbid the exact undo,
                        // carried to the canonical board.
                        g.undo_of(q, m).map(|u| rules.sym.mv(which.trailing_zeros() as u8, u))
                    }
                }
                _ => None,
            };
            out.push((place, self.slot_of(place, &canonical, forbidden, which.count_ones() > 1)));
        }
    }

    /// A pass with nothing reached: every bitmap allocated and clear.
    fn empty_pass(&self) -> Pass {
        let states = self.classes().iter().flat_map(|c| &c.kinds).map(|k| k.states()).sum::<u64>();
        Pass {
            levels: vec![1],
            found: AtomicU64::new(0),
            states: (0..states.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
            boards: self.board_bits(),
            frontier: self.board_bits(),
            next: self.board_bits(),
        }
    }

    /// States (up to symmetry) at each breadth-first level from the start, until no new state
    /// is reached; states in classes not solved are left out. With `checkpoint`, a pass saved
    /// there resumes, the pass is saved at most `every` apart, and the file is removed at the
    /// end.
    ///
    /// # Errors
    /// A checkpoint that cannot be read or written, or that was saved from other tables.
    pub fn levels(&self, checkpoint: Option<&LevelsCheckpoint>) -> Result<Vec<u64>> {
        let fingerprint = self.fingerprint();
        let start = super::start_board(self.rules(), &self.variant);
        let Some(place) = self.place(&start) else { return Ok(Vec::new()) };
        let first = self.first_states();
        let index = |p: Place, slot: usize| {
            let (c, k) = (usize::from(p.0), usize::from(p.1));
            first[c][k] + self.classes()[c].kinds[k].first_state(p.2) + slot as u64
        };
        let resumed = match checkpoint {
            Some(c) => checkpoint::load(c.path, &self.variant, &fingerprint, || self.empty_pass())?,
            None => None,
        };
        let mut pass = match resumed {
            Some(p) => {
                crate::progress!(
                    "breadth-first levels resumed from {} at level {} ({} states found in it)",
                    checkpoint.map_or(String::new(), |c| c.path.display().to_string()),
                    p.levels.len(),
                    p.found.load(Relaxed)
                );
                p
            }
            None => {
                // The start reached and queued.
                let p = self.empty_pass();
                let (c, k) = (usize::from(place.0), usize::from(place.1));
                test_and_set(&p.states, index(place, 0));
                test_and_set(&p.boards[c][k], place.2);
                test_and_set(&p.frontier[c][k], place.2);
                p
            }
        };
        let (mut saved, mut saves) = (Instant::now(), 0u32);
        loop {
            for (c, class) in self.classes().iter().enumerate() {
                for (k, t) in class.kinds.iter().enumerate() {
                    for (p, piece) in pass.frontier[c][k].chunks(PIECE_WORDS).enumerate() {
                        // Pieces of the bitmap with nothing to expand are skipped at once; a
                        // level's boards sit in a few stretches of it, so the work is shared
                        // out in runs of at most 1,024 words.
                        let words = piece.par_iter().with_max_len(1024).enumerate();
                        let found: u64 = words
                            .map_init(Vec::new, |succ, (i, word)| {
                                let w = (p * PIECE_WORDS + i) as u64;
                                let mut bits = word.swap(0, Relaxed);
                                let mut found = 0;
                                while bits != 0 {
                                    let r = w * 64 + u64::from(bits.trailing_zeros());
                                    bits &= bits - 1;
                                    self.successors(&t.dir.board(r), succ);
                                    // The indexes first: their lookups miss the cache
                                    // independently of one another.
                                    let at: SmallVec<[u64; 32]> =
                                        succ.iter().map(|&(p, slot)| index(p, slot)).collect();
                                    for (&(p, _), &i) in succ.iter().zip(&at) {
                                        if test_and_set(&pass.states, i) {
                                            found += 1;
                                            let (pc, pk) = (usize::from(p.0), usize::from(p.1));
                                            if test_and_set(&pass.boards[pc][pk], p.2) {
                                                test_and_set(&pass.next[pc][pk], p.2);
                                            }
                                        }
                                    }
                                }
                                found
                            })
                            .sum();
                        pass.found.fetch_add(found, Relaxed);
                        if let Some(cp) = checkpoint.filter(|cp| saved.elapsed() >= cp.every) {
                            checkpoint::save(cp.path, &self.variant, &fingerprint, &pass)?;
                            crate::progress!(
                                "breadth-first pass saved in level {} ({} states so far)",
                                pass.levels.len(),
                                pass.found.load(Relaxed)
                            );
                            saved = Instant::now();
                            saves += 1;
                            if cp.stop_after_saves.is_some_and(|n| saves >= n) {
                                return Err(crate::error::Error::BadParameters(format!(
                                    "breadth-first pass stopped after {saves} saves as asked"
                                )));
                            }
                        }
                    }
                }
            }
            let n = pass.found.swap(0, Relaxed);
            if n == 0 {
                break;
            }
            crate::progress!("breadth-first level {}: {n} states", pass.levels.len());
            pass.levels.push(n);
            pass.frontier = std::mem::replace(&mut pass.next, self.board_bits());
        }
        if let Some(cp) = checkpoint {
            match std::fs::remove_file(cp.path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => return Err(crate::error::Error::Io { path: cp.path.to_path_buf(), error }),
            }
        }
        Ok(pass.levels)
    }
}
