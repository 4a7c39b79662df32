//! Breadth-first levels from the start over the tables' states, as published (SPEC §4): every
//! move that does not end the game is expanded, the forbidden one included; states are taken
//! from the mover's view and up to symmetry; checkmate positions count.
//!
//! A board's states all have the same moves (the forbidden one is not excluded), so a board is
//! expanded once, at the level where the first of its states is reached.

use super::Solution;
use super::board::{Board, Effect, Moves, Mv};
use super::tables::bit;
use rayon::prelude::*;
use smallvec::SmallVec;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A board of the tables: class, kind, rank.
type Place = (u8, u8, u64);

struct Visited {
    /// `first[c][k]`: the index of kind `k` of class `c`'s first state among all.
    first: Vec<Vec<u64>>,
    /// A bit per state.
    states: Vec<AtomicU64>,
    /// `boards[c][k]`: a bit per board, set once the board is queued.
    boards: Vec<Vec<Vec<AtomicU64>>>,
}

fn test_and_set(bits: &[AtomicU64], i: u64) -> bool {
    let mask = 1u64 << (i % 64);
    bits[(i / 64) as usize].fetch_or(mask, Relaxed) & mask == 0
}

impl Solution {
    /// A bit per canonical board of every class and kind, all clear.
    fn board_bits(&self) -> Vec<Vec<Vec<AtomicU64>>> {
        let bits = |boards: u64| (0..boards.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        self.classes().iter().map(|c| c.kinds.iter().map(|k| bits(k.dir.boards())).collect()).collect()
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

    /// The slot of canonical board `b` (at `place`) whose forbidden move is `f`, the first of
    /// its symmetric images among them (the exact reading lists both of two symmetric ones).
    fn slot_of(&self, place: Place, b: &Board, f: Option<Mv>) -> usize {
        let Some(f) = f else { return 0 };
        let rules = self.rules();
        let t = &self.classes()[usize::from(place.0)].kinds[usize::from(place.1)];
        let mut slots = Moves::new();
        rules.slots(b, bit(&t.exceptional, place.2), &mut slots);
        let (_, stab) = rules.sym.canonical(b);
        (0..8u8)
            .filter(|g| stab >> g & 1 == 1)
            .filter_map(|g| slots.iter().position(|&m| m == rules.sym.mv(g, f)))
            .min()
            .expect("a forbidden move of the board's states")
            + 1
    }

    /// The states one move from canonical board `q` (moves that end the game left out).
    fn successors(&self, q: &Board, out: &mut Vec<(Place, Board, usize)>) {
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
                Effect::Stays if rules.class_reading => rules.class_forbidden(&rules.reach(&canonical), q),
                Effect::Stays => {
                    let mut unmoves = SmallVec::new();
                    g.unmoves(&r, &mut unmoves);
                    let undo = unmoves.iter().find(|u| u.before == *q && u.mv == m).and_then(|u| u.undo);
                    undo.map(|u| rules.sym.mv(which.trailing_zeros() as u8, u))
                }
                _ => None,
            };
            let slot = self.slot_of(place, &canonical, forbidden);
            out.push((place, canonical, slot));
        }
    }

    /// States (up to symmetry) at each breadth-first level from the start, until no new state
    /// is reached; states in classes not solved are left out.
    pub fn levels(&self, progress: &(dyn Fn(String) + Sync)) -> Vec<u64> {
        let rules = self.rules();
        let mut first = Vec::new();
        let mut total = 0u64;
        for c in self.classes() {
            first.push(
                c.kinds
                    .iter()
                    .map(|k| {
                        let at = total;
                        total += k.states();
                        at
                    })
                    .collect::<Vec<_>>(),
            );
        }
        let visited = Visited {
            first,
            states: (0..total.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
            boards: self.board_bits(),
        };
        let index = |p: Place, slot: usize| {
            let t = &self.classes()[usize::from(p.0)].kinds[usize::from(p.1)];
            visited.first[usize::from(p.0)][usize::from(p.1)] + t.first_state(p.2) + slot as u64
        };
        // The boards to expand at the next level, a bit per board (a list would not fit on
        // 5x5, where a level reaches hundreds of millions of boards).
        let fresh = || self.board_bits();
        let start = super::start_board(rules, &self.variant);
        let Some(place) = self.place(&start) else { return Vec::new() };
        test_and_set(&visited.states, index(place, 0));
        test_and_set(&visited.boards[usize::from(place.0)][usize::from(place.1)], place.2);
        let mut frontier = fresh();
        test_and_set(&frontier[usize::from(place.0)][usize::from(place.1)], place.2);
        let mut levels = vec![1u64];
        loop {
            let next = fresh();
            let found = AtomicU64::new(0);
            for (c, class) in self.classes().iter().enumerate() {
                for (k, t) in class.kinds.iter().enumerate() {
                    // A level's boards sit in a few stretches of the bitmap: pieces of at most
                    // 1,024 words, so that a stretch is shared out and not walked by one thread.
                    let words = frontier[c][k].par_iter().with_max_len(1024).enumerate();
                    words.for_each_init(Vec::new, |succ, (w, word)| {
                        let mut bits = word.load(Relaxed);
                        while bits != 0 {
                            let r = w as u64 * 64 + u64::from(bits.trailing_zeros());
                            bits &= bits - 1;
                            self.successors(&t.dir.board(r), succ);
                            for &(p, _, slot) in succ.iter() {
                                if test_and_set(&visited.states, index(p, slot)) {
                                    found.fetch_add(1, Relaxed);
                                    let (pc, pk) = (usize::from(p.0), usize::from(p.1));
                                    if test_and_set(&visited.boards[pc][pk], p.2) {
                                        test_and_set(&next[pc][pk], p.2);
                                    }
                                }
                            }
                        }
                    });
                }
            }
            let n = found.into_inner();
            if n == 0 {
                break;
            }
            progress(format!("breadth-first level {}: {n} states", levels.len()));
            levels.push(n);
            frontier = next;
        }
        levels
    }
}
