//! Phase 2 of a class solve: every state gets its count of open moves, or its value where the
//! moves out of the class or the lack of moves decide it. The moves out of the class are looked
//! up in the lower classes' tables, sorted into the tables' order a group of tasks at a time.

use super::board::{Board, Effect, Moves, Mv};
use super::code::{self, OTHER_PARITY};
use super::lower::{Lower, LowerKey};
use super::reading::Rules;
use super::solve::{LEVEL_BITS, Solve, Task, WorkKind, for_each_board, no_memory};
use crate::error::Result;
use crate::explicit::Exact;
use crate::storage::mapped::AtomicBytes;
use rayon::prelude::*;
use smallvec::SmallVec;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// Tasks counted together, their lookups in the lower tables put in the tables' order (at 5
/// moves out of the class a board, about 10 M lookups and 200 MB).
const COUNT_GROUP: usize = if cfg!(test) { 2 } else { 32 };

/// A board's moves, summed up for its states.
pub(super) struct Summary {
    /// Moves that stay in the class, and whether each leads into a checkmate position.
    stays: SmallVec<[(Mv, bool); 32]>,
    /// A capture wins at once.
    checkmate: bool,
    /// The shortest win through a move out of the class.
    best_win: Option<u32>,
    /// A move out of the class draws.
    draw_exit: bool,
    /// The longest loss through a move out of the class.
    longest_loss: Option<u32>,
}

/// Whether a summary asks of each move that stays in the class if it lets the opponent
/// capture to win ([`Solve::count_task`] needs it; [`Solve::exit_keys`] only walks the moves
/// out of the class).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stays {
    /// Each asked (the count of a board's states).
    Judged,
    /// None asked (the walk for the moves out of the class).
    Skipped,
}

/// [`Summary::exits_code`]: nothing worked out yet.
const EXITS_UNKNOWN: u8 = 0;
/// [`Summary::exits_code`]: a move out of the class draws.
const EXITS_DRAW: u8 = 1;
/// [`Summary::exits_code`]: the longest loss through a move out of the class, plus this (or
/// this alone: no such loss).
const EXITS_LOSS: u8 = 2;

impl Summary {
    /// What a state of the board whose moves in the class all lose takes from its moves out of
    /// the class (a win through one would have decided it): a draw, or its longest loss.
    fn exits_code(&self) -> u8 {
        if self.draw_exit {
            EXITS_DRAW
        } else {
            let l = self.longest_loss.unwrap_or(0);
            assert!(l <= u32::from(u8::MAX - EXITS_LOSS), "a loss of {l} plies through a move out of the class");
            EXITS_LOSS + l as u8
        }
    }
}

impl<'a> Solve<'a> {
    /// Phase 2 begins: the values and exits of every state and board, all zero.
    ///
    /// # Errors
    /// [`Error::BadParameters`](crate::error::Error) if the system will not lend the memory.
    pub fn allocate(rules: &'a Rules, lower: &'a Lower, mut kinds: Vec<WorkKind>) -> Result<Solve<'a>> {
        for w in &mut kinds {
            let states = *w.block_start.last().expect("a total");
            w.values = AtomicBytes::zeroed(states as usize).map_err(|e| no_memory(states, &e))?;
            let boards = w.dir.boards();
            w.exits = AtomicBytes::zeroed(boards as usize).map_err(|e| no_memory(boards, &e))?;
        }
        Ok(Solve::shell(rules, lower, kinds))
    }

    /// Phase 2: give every state of the tasks not counted yet its count or value, a group of
    /// tasks at a time; `after_group` sees the solve after each group (to save a checkpoint,
    /// or stop).
    ///
    /// # Errors
    /// As [`Lower::value`], or `after_group`'s error.
    pub fn count(&mut self, after_group: &mut dyn FnMut(&Solve) -> Result<()>) -> Result<()> {
        let started = Instant::now();
        let mut said = 0;
        let (from, total) = (self.counted, self.tasks.len());
        if from > 0 {
            crate::progress!("counting moves from task {from} of {total}");
        }
        // Tasks in groups: a group's lookups in the lower tables are sorted into the tables'
        // order and made in one sweep, not at random (the count is bound by them).
        let all: Vec<usize> = (from..total).collect();
        for group in all.chunks(COUNT_GROUP) {
            self.count_group(group)?;
            self.counted = group[group.len() - 1] + 1;
            // A line a minute.
            let minute = started.elapsed().as_secs() / 60;
            if minute > said {
                said = minute;
                crate::progress!("counting moves: {} of {total} tasks", self.counted);
            }
            after_group(self)?;
        }
        crate::progress!("moves counted in {:.0} s", started.elapsed().as_secs_f64());
        Ok(())
    }

    fn count_group(&self, group: &[usize]) -> Result<()> {
        let keys: Vec<Vec<LowerKey>> = group.par_iter().map(|&t| self.exit_keys(t)).collect::<Result<_>>()?;
        let all: Vec<LowerKey> = keys.iter().flatten().copied().collect();
        let sorted = self.lower.in_table_order(&all);
        drop(all);
        let found: Vec<(u32, Exact)> = sorted.par_iter().map(|&(key, i)| (i, self.lower.value_of(key))).collect();
        let mut values = vec![Exact::Draw; found.len()];
        for (i, v) in found {
            values[i as usize] = v;
        }
        let mut rest = &values[..];
        let mut parts = Vec::with_capacity(group.len());
        for k in &keys {
            let (part, tail) = rest.split_at(k.len());
            parts.push(part);
            rest = tail;
        }
        group.par_iter().zip(parts).try_for_each(|(&t, exits)| self.count_task(t, exits))
    }

    /// [`Solve::summary`] for the walk, whose states are undecided (so the board has no
    /// checkmate and no win out of the class): the moves out of the class from the board's
    /// exits byte once one state worked them out.
    pub(super) fn summary_for_walk(&self, k: usize, r: u64, q: &Board) -> Result<Summary> {
        let cell = &self.kinds[k].exits[r as usize];
        match cell.load(Relaxed) {
            EXITS_UNKNOWN => {
                let s = self.summary(q)?;
                cell.store(s.exits_code(), Relaxed);
                Ok(s)
            }
            code => {
                let g = &self.rules.geometry;
                let mut moves = Moves::new();
                g.moves(q, &mut moves);
                let stays = moves
                    .iter()
                    .filter_map(|&m| match g.play(q, m) {
                        (r, Effect::Stays) => Some((m, g.can_capture_to_win(&r))),
                        _ => None,
                    })
                    .collect();
                Ok(Summary {
                    stays,
                    checkmate: false,
                    best_win: None,
                    draw_exit: code == EXITS_DRAW,
                    longest_loss: (code > EXITS_LOSS).then(|| u32::from(code - EXITS_LOSS)),
                })
            }
        }
    }

    pub(super) fn summary(&self, q: &Board) -> Result<Summary> {
        self.summary_by(q, Stays::Judged, &mut |r| self.lower.value(self.rules, r))
    }

    /// [`Solve::summary`] with the values of the moves out of the class from `exit` (called in
    /// the order of the moves, whatever the values it gives); with [`Stays::Skipped`] the moves
    /// that stay in the class are listed without asking whether they allow a winning capture.
    fn summary_by(&self, q: &Board, stays: Stays, exit: &mut dyn FnMut(&Board) -> Result<Exact>) -> Result<Summary> {
        let g = &self.rules.geometry;
        let mut s =
            Summary { stays: SmallVec::new(), checkmate: false, best_win: None, draw_exit: false, longest_loss: None };
        let mut moves = Moves::new();
        g.moves(q, &mut moves);
        let (mine, theirs) = q.counts();
        for &m in &moves {
            let (r, effect) = g.play(q, m);
            let through = match effect {
                Effect::Stays => {
                    s.stays.push((m, stays == Stays::Judged && g.can_capture_to_win(&r)));
                    continue;
                }
                Effect::Captures if theirs == g.lose_at + 1 => {
                    s.checkmate = true;
                    return Ok(s);
                }
                Effect::LosesOwn if mine == g.lose_at + 1 => Exact::Win(0),
                _ => exit(&r)?,
            };
            match through {
                Exact::Loss(n) => s.best_win = Some(s.best_win.map_or(n + 1, |w| w.min(n + 1))),
                Exact::Win(n) => s.longest_loss = Some(s.longest_loss.map_or(n + 1, |l| l.max(n + 1))),
                Exact::Draw => s.draw_exit = true,
            }
        }
        Ok(s)
    }

    /// The value of a state whose moves in the class all lose, the last one seen at
    /// `in_class` plies (0 if it has none), with forbidden move `forbidden`.
    pub(super) fn when_moves_run_out(s: &Summary, forbidden: Option<Mv>, in_class: u32) -> Exact {
        if s.draw_exit {
            return Exact::Draw;
        }
        let mate = s.stays.iter().any(|&(m, mate)| mate && Some(m) != forbidden);
        let n = in_class.max(if mate { 2 } else { 0 }).max(s.longest_loss.unwrap_or(0));
        Exact::Loss(n)
    }

    /// Where the moves out of the class of task `t`'s boards lead, in the order
    /// [`Solve::count_task`] asks for their values.
    fn exit_keys(&self, t: usize) -> Result<Vec<LowerKey>> {
        let Task { kind, first, end } = self.tasks[t];
        let w = &self.kinds[kind];
        let mut keys = Vec::new();
        let mut failure = None;
        for_each_board(&w.dir, first, end, |_, cursor| {
            let mut record = |r: &Board| {
                keys.push(self.lower.locate(self.rules, r)?);
                Ok(Exact::Draw)
            };
            if failure.is_none()
                && let Err(e) = self.summary_by(&cursor.board(), Stays::Skipped, &mut record)
            {
                failure = Some(e);
            }
        });
        failure.map_or(Ok(keys), Err)
    }

    /// Give every state of task `t` its count or value; `exits` are the values of its boards'
    /// moves out of the class, in the order of [`Solve::exit_keys`].
    fn count_task(&self, t: usize, exits: &[Exact]) -> Result<()> {
        let mut exits = exits.iter();
        let mut next_exit = |_: &Board| Ok(*exits.next().expect("a value per move out of the class"));
        let Task { kind: k, first, end } = self.tasks[t];
        let w = &self.kinds[k];
        let mut slots = Moves::new();
        // Levels of this task, marked once at the end (every state of the task is here).
        let (mut levels, mut latest) = ([0u64; 4], 0u32);
        let mut at = w.first_state(first) as usize;
        let mut failure = None;
        for_each_board(&w.dir, first, end, |r, cursor| {
            if failure.is_some() {
                return;
            }
            let q = cursor.board();
            self.slots(k, r, &q, &mut slots);
            let n = 1 + slots.len();
            let s = match self.summary_by(&q, Stays::Judged, &mut next_exit) {
                Ok(s) => s,
                Err(e) => {
                    failure = Some(e);
                    return;
                }
            };
            if !s.checkmate && s.best_win.is_none() {
                w.exits[r as usize].store(s.exits_code(), Relaxed);
            }
            for slot in 0..n {
                let forbidden = (slot > 0).then(|| slots[slot - 1]);
                let value = if s.checkmate {
                    Some(Exact::Win(1))
                } else if let Some(w) = s.best_win {
                    Some(Exact::Win(w))
                } else {
                    let open = s.stays.iter().filter(|&&(m, mate)| !mate && Some(m) != forbidden).count();
                    if open == 0 {
                        Some(Self::when_moves_run_out(&s, forbidden, 0))
                    } else {
                        w.values[at + slot].store(open as u8, Relaxed);
                        None
                    }
                };
                if let Some(v) = value {
                    let c = code::encode(v);
                    if c == OTHER_PARITY {
                        self.other.lock().expect("no panic holds the lock").insert((k as u8, r, slot as u8), v);
                    }
                    w.values[at + slot].store(c, Relaxed);
                    if let Some(n) = code::plies(v) {
                        let b = n.min(LEVEL_BITS - 1);
                        levels[(b / 64) as usize] |= 1 << (b % 64);
                        latest = latest.max(n);
                    }
                }
            }
            at += n;
        });
        for (i, bits) in levels.into_iter().enumerate() {
            self.present[t][i].fetch_or(bits, Relaxed);
        }
        self.latest.fetch_max(latest, Relaxed);
        failure.map_or(Ok(()), Err)
    }
}
