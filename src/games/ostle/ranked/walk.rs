//! Phase 3 of a class solve: the walk back, one level at a time. The moves into a level's
//! states are found by unmoves, sorted by the board before them and applied in rank order.

use super::board::{Board, Moves, Mv, Unmove};
use super::code::{self, DECIDED, DRAW, OTHER_PARITY};
use super::directory::{RawSeeker, Seeker};
use super::solve::{Level, Solve, Task};
use super::tables::{BLOCK, bit};
use crate::error::Result;
use crate::explicit::Exact;
use rayon::prelude::*;
use smallvec::SmallVec;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::time::Instant;

/// Moves into a level's states sorted and applied at once (8 bytes each): at least this many,
/// and at most one group of tasks' more.
const BATCH_PREDECESSORS: u64 = 64 << 20;
/// Tasks walked in parallel between checks of the batch's size.
const TASKS_PER_GROUP: usize = 16;
/// Sorted moves per parallel chunk when they are applied.
const APPLY_CHUNK: usize = 1 << 16;

/// A move into a state decided at the level walked, packed into 64 bits so that a batch sorts
/// fast (the sort of 40-byte records was a fifth of the walk on 5 v 5): from the top, the kind
/// of the canonical board before it (1 bit), its raw index in the directory (54), the move on
/// it (square 6, direction 2), and whether the state after is a win for the opponent (1).
/// Sorted, the boards before come in directory order, and their ranks and boards are read
/// there by a [`RawSeeker`] (a rank asked of each board as it is found read the directory's
/// bits at random: a seventh of a class's time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Pred(u64);

impl Pred {
    fn new(kind: usize, raw: u64, mv: Mv, from_win: bool) -> Pred {
        assert!(kind < 2 && raw < 1 << 54 && mv.square < 64 && mv.dir < 4, "a move into a level fits 64 bits");
        Pred((kind as u64) << 63 | raw << 9 | u64::from(mv.square) << 3 | u64::from(mv.dir) << 1 | u64::from(from_win))
    }

    fn kind(self) -> usize {
        (self.0 >> 63) as usize
    }

    fn raw(self) -> u64 {
        self.0 >> 9 & ((1 << 54) - 1)
    }

    fn mv(self) -> Mv {
        Mv { square: (self.0 >> 3 & 63) as u8, dir: (self.0 >> 1 & 3) as u8 }
    }

    fn into_win(self) -> bool {
        self.0 & 1 == 1
    }
}

/// One task's walk over a level: its scratch space and what it found.
struct TaskWalk<'a> {
    seeker: Seeker<'a>,
    slots: Moves,
    unmoves: SmallVec<[Unmove; 64]>,
    board_preds: Vec<Pred>,
    preds: Vec<Pred>,
    states: u64,
    wins: u64,
}

impl Solve<'_> {
    /// Phase 3: walk back one level at a time until no level is left; `checkpoint` is called
    /// between levels.
    ///
    /// # Errors
    /// What `checkpoint` or a lower table's lookup returns.
    pub fn walk_back(&mut self, checkpoint: &mut dyn FnMut(&Solve) -> Result<()>) -> Result<()> {
        let started = Instant::now();
        while self.next_level <= self.latest.load(Relaxed) {
            let d = self.next_level;
            let level_started = Instant::now();
            let (mut states, mut wins) = (0u64, 0u64);
            // Tasks in batches: each batch's moves into the level's states are sorted by the
            // board before the move, so that their updates walk the arrays in order instead
            // of at random (the walk is bound by memory, not by the rules).
            let present: Vec<usize> = (0..self.tasks.len()).filter(|&t| self.is_present(t, d)).collect();
            let mut preds: Vec<Pred> = Vec::new();
            for (i, group) in present.chunks(TASKS_PER_GROUP).enumerate() {
                let found: Vec<(u64, u64, Vec<Pred>)> = group.par_iter().map(|&t| self.walk_task(t, d)).collect();
                for (n, w, p) in found {
                    states += n;
                    wins += w;
                    preds.extend(p);
                }
                // Apply when the batch is full (its size is known only once its tasks ran) or
                // at the level's last group.
                if preds.len() as u64 >= BATCH_PREDECESSORS || (i + 1) * TASKS_PER_GROUP >= present.len() {
                    self.apply(&mut preds, d)?;
                    preds.clear();
                }
            }
            let level = Level { plies: d, states, wins, seconds: level_started.elapsed().as_secs_f64() };
            self.levels.push(level);
            self.next_level = d + 1;
            crate::progress!(
                "plies {d}: {} states, {:.1} s (at {:.0} s)",
                level.states,
                level.seconds,
                started.elapsed().as_secs_f64()
            );
            checkpoint(self)?;
        }
        Ok(())
    }

    /// Apply the moves `preds` into states decided at `d`, sorted by the board before them.
    fn apply(&self, preds: &mut [Pred], d: u32) -> Result<()> {
        preds.par_sort_unstable();
        let failure = Mutex::new(None);
        preds.par_chunks(APPLY_CHUNK).for_each(|chunk| {
            let mut seekers: Vec<RawSeeker> = self.kinds.iter().map(|w| w.dir.raw_seeker()).collect();
            for p in chunk {
                let k = p.kind();
                let (board, rank) = seekers[k].board(p.raw());
                if let Err(e) = self.update_predecessor(k, rank, &board, p.mv(), p.into_win(), d) {
                    failure.lock().expect("no panic holds the lock").get_or_insert(e);
                    return;
                }
            }
        });
        failure.into_inner().expect("no panic holds the lock").map_or(Ok(()), Err)
    }

    /// The states of task `t` decided at `d` plies: their count, how many are wins, and the
    /// moves into them (from canonical boards of the partner kind).
    fn walk_task(&self, t: usize, d: u32) -> (u64, u64, Vec<Pred>) {
        let Task { kind: k, first, end } = self.tasks[t];
        let w = &self.kinds[k];
        let target = DECIDED as u32 + d;
        let at_level = |c: u8| u32::from(c) == target || c == OTHER_PARITY;
        let mut walk = TaskWalk {
            seeker: w.dir.seeker(),
            slots: Moves::new(),
            unmoves: SmallVec::new(),
            board_preds: Vec::new(),
            preds: Vec::new(),
            states: 0,
            wins: 0,
        };
        // Block by block: late levels are sparse, and a block none of whose states is at the
        // level costs a scan of its bytes, not a walk over its raw boards.
        let block = BLOCK as u64;
        for b in first / block..end.div_ceil(block) {
            let (start, stop) = (w.block_start[b as usize] as usize, w.block_start[b as usize + 1] as usize);
            if !w.values[start..stop].iter().any(|c| at_level(c.load(Relaxed))) {
                continue;
            }
            let mut at = start;
            for r in b * block..end.min((b + 1) * block) {
                let n = 1 + usize::from(w.markers[r as usize]);
                self.walk_board(k, r, &w.values[at..at + n], d, &mut walk);
                at += n;
            }
        }
        (walk.states, walk.wins, walk.preds)
    }

    /// Board `r` of kind `k`, whose states are `here`: count those decided at `d` and add the
    /// moves into them to the walk's moves.
    fn walk_board(&self, k: usize, r: u64, here: &[AtomicU8], d: u32, walk: &mut TaskWalk) {
        let (rules, g) = (self.rules, &self.rules.geometry);
        let target = DECIDED as u32 + d;
        // The states of this board decided at `d`, as a bit per slot with their values.
        let mut frontier = 0u64;
        let mut frontier_wins = 0u64;
        for (slot, c) in here.iter().enumerate() {
            let c = c.load(Relaxed);
            let v = if u32::from(c) == target {
                code::decode(c)
            } else if c == OTHER_PARITY {
                match self.current(k, r, slot as u8, c) {
                    Some(v) if code::plies(v) == Some(d) => v,
                    _ => continue,
                }
            } else {
                continue;
            };
            frontier |= 1 << slot;
            if matches!(v, Exact::Win(_)) {
                frontier_wins |= 1 << slot;
            }
        }
        if frontier == 0 {
            return;
        }
        walk.states += u64::from(frontier.count_ones());
        walk.wins += u64::from(frontier_wins.count_ones());
        let q = walk.seeker.board(r);
        // Moves into checkmate positions are not counted as open: nothing to walk back.
        if d == 1 && g.can_capture_to_win(&q) {
            return;
        }
        let exc = bit(&self.kinds[k].exceptional, r);
        let reach = exc.then(|| rules.reach(&q));
        if exc {
            rules.slots(&q, true, &mut walk.slots);
        }
        let masks = g.undo_masks(&q);
        g.unmoves(&q, &mut walk.unmoves);
        let partner = self.partner[k];
        walk.board_preds.clear();
        for u in &walk.unmoves {
            let slot = match rules.forbidden_after(reach.as_ref(), u) {
                None => 0,
                Some(f) if exc => 1 + walk.slots.iter().position(|&m| m == f).expect("a forbidden move is a slot"),
                Some(f) => 1 + g.undo_index(&masks, f).expect("an exact undo is an undo move"),
            };
            if frontier >> slot & 1 == 0 {
                continue;
            }
            let (p, which) = rules.sym.canonical(&u.before);
            let raw = self.kinds[partner].dir.raw(&rules.sym, &p);
            let from_win = frontier_wins >> slot & 1 == 1;
            for h in (0..8u8).filter(|h| which >> h & 1 == 1) {
                walk.board_preds.push(Pred::new(partner, raw, rules.sym.mv(h, u.mv), from_win));
            }
        }
        // A move of a board before is one move, however many symmetries lead to it (and the
        // state it leads to, so whether that is a win, is the same).
        walk.board_preds.sort_unstable();
        walk.board_preds.dedup();
        walk.preds.extend_from_slice(&walk.board_preds);
    }

    /// The states of board `p` (rank `rp` of kind `k`) whose move `m` leads to a state decided
    /// at `d` plies: a win for the opponent there (`from_win`) counts one open move down, a
    /// loss makes them wins.
    fn update_predecessor(&self, k: usize, rp: u64, p: &Board, m: Mv, from_win: bool, d: u32) -> Result<()> {
        let w = &self.kinds[k];
        let g = &self.rules.geometry;
        let n = usize::from(w.markers[rp as usize]);
        let first = w.first_state(rp);
        // Most moves applied change nothing (their boards' states are decided already; counts
        // in `docs/measurements.md`): those are left before the forbidden move is worked out.
        let changes = |c: u8| code::undecided(c) || !from_win && (c == OTHER_PARITY || Self::win_longer_than(c, d + 1));
        if !w.values[first as usize..=first as usize + n].iter().any(|c| changes(c.load(Relaxed))) {
            return Ok(());
        }
        // The slot whose forbidden move is `m`, if any.
        let banned = if bit(&w.exceptional, rp) {
            let mut slots = Moves::new();
            self.rules.slots(p, true, &mut slots);
            slots.iter().position(|&x| x == m)
        } else {
            g.undo_index(&g.undo_masks(p), m)
        };
        for slot in 0..=n {
            if slot > 0 && banned == Some(slot - 1) {
                continue;
            }
            let index = first + slot as u64;
            let cell = &w.values[index as usize];
            if from_win {
                let before = cell.fetch_update(Relaxed, Relaxed, |c| code::undecided(c).then(|| c - 1));
                if before == Ok(1) {
                    let s = self.summary_for_walk(k, rp, p)?;
                    let mut slots = Moves::new();
                    self.slots(k, rp, p, &mut slots);
                    let forbidden = (slot > 0).then(|| slots[slot - 1]);
                    self.settle(k, rp, slot as u8, index, Self::when_moves_run_out(&s, forbidden, d + 1));
                }
            } else {
                self.make_win(k, rp, slot as u8, index, d + 1);
            }
        }
        Ok(())
    }

    /// Make a state a win in `n` plies unless it is decided already with a win as short (a
    /// provisional win through a move out of the class is replaced by a shorter one).
    fn make_win(&self, k: usize, r: u64, slot: u8, index: u64, n: u32) {
        let cell = &self.kinds[k].values[index as usize];
        let new = code::encode(Exact::Win(n));
        let replaceable = |c: u8| code::undecided(c) || Self::win_longer_than(c, n);
        if new != OTHER_PARITY {
            let done = cell.fetch_update(Relaxed, Relaxed, |c| replaceable(c).then_some(new));
            match done {
                Ok(_) => self.mark(k, r, n),
                Err(OTHER_PARITY) => self.make_win_slowly(k, r, slot, cell, n),
                Err(_) => {}
            }
        } else {
            self.make_win_slowly(k, r, slot, cell, n);
        }
    }

    /// Whether code `c` is a decided win longer than `n` plies (in the byte, not the side
    /// table).
    fn win_longer_than(c: u8, n: u32) -> bool {
        // Draws and undecided counts decode as draws.
        c != OTHER_PARITY && matches!(code::decode(c), Exact::Win(w) if w > n)
    }

    /// [`Solve::make_win`] where the side table is involved, under its lock.
    fn make_win_slowly(&self, k: usize, r: u64, slot: u8, cell: &AtomicU8, n: u32) {
        let mut other = self.other.lock().expect("no panic holds the lock");
        let key = (k as u8, r, slot);
        let c = cell.load(Relaxed);
        let replace = match c {
            OTHER_PARITY => matches!(other[&key], Exact::Win(w) if w > n),
            DRAW => false,
            c if code::undecided(c) => true,
            c => matches!(code::decode(c), Exact::Win(w) if w > n),
        };
        if !replace {
            return;
        }
        let new = code::encode(Exact::Win(n));
        if cell.compare_exchange(c, new, Relaxed, Relaxed).is_err() {
            drop(other);
            return self.make_win(k, r, slot, self.kinds[k].first_state(r) + u64::from(slot), n);
        }
        if new == OTHER_PARITY {
            other.insert(key, Exact::Win(n));
        } else {
            other.remove(&key);
        }
        drop(other);
        self.mark(k, r, n);
    }
}
