//! The solved tables checked by the plain rules, and their published counts.

use super::super::Dir;
use super::super::explicit::{Cell, Move, State, Value};
use super::board::Cursor;
use super::{BLOCK, IndexedTables, TASK, value_of};
use crate::error::{Error, Result};
use rayon::prelude::*;

impl IndexedTables {
    /// The published counts (SPEC §4, raw, not up to symmetry): positions, checkmate
    /// positions, and the values of the non-trivial states (`d = plies - 1`; `None`: draw).
    pub fn census(&self) -> IndexedCensus {
        let g = &self.geometry;
        let boards = g.boards as usize;
        let initial = self.variant.initial_state();
        let initial = g.board_of(&initial.cells).map(|b| g.rank(&b) as usize);
        let parts: Vec<IndexedCensus> = (0..boards.div_ceil(TASK))
            .into_par_iter()
            .map(|t| {
                let first = t * TASK;
                let mut c = IndexedCensus::default();
                let mut cursor = Cursor::at(g, first as u64);
                let mut at = self.block_start[first / BLOCK] as usize;
                let mut unmoves = Vec::new();
                for (i, m) in self.markers[first..boards.min(first + TASK)].iter().enumerate() {
                    let slots = 1 + usize::from(*m);
                    let b = cursor.board(g);
                    c.positions += 1;
                    if g.move_summary(&b).1 {
                        c.checkmate_positions += 1;
                    } else {
                        g.unmoves(&b, &mut unmoves);
                        let plain = unmoves.iter().any(|u| u.2.is_none()) || initial == Some(first + i);
                        for (slot, &code) in self.values[at..at + slots].iter().enumerate() {
                            if slot == 0 && !plain {
                                continue;
                            }
                            c.add(value_of(code), 1);
                        }
                    }
                    at += slots;
                    cursor.advance(g);
                }
                c
            })
            .collect();
        let mut all = IndexedCensus::default();
        for p in parts {
            all.merge(&p);
        }
        all
    }
}

impl IndexedTables {
    /// The state at `index` in the tables: its board and forbidden move.
    fn state_at(&self, index: u64) -> State {
        let g = &self.geometry;
        // The last block starting at or before `index`, then the board within it.
        let block = self.block_start.partition_point(|&s| s <= index) - 1;
        let (mut r, mut at) = (block * BLOCK, self.block_start[block]);
        while at + 1 + u64::from(self.markers[r]) <= index {
            at += 1 + u64::from(self.markers[r]);
            r += 1;
        }
        let b = g.unrank(r as u64);
        let mut cells = vec![Cell::Empty; g.squares];
        for (s, c) in cells.iter_mut().enumerate() {
            *c = if s == b.hole {
                Cell::Hole
            } else if b.mine >> s & 1 == 1 {
                Cell::Mine
            } else if b.theirs >> s & 1 == 1 {
                Cell::Theirs
            } else {
                Cell::Empty
            };
        }
        let slot = (index - at) as usize;
        let forbidden = (slot > 0).then(|| {
            let mut list = Vec::new();
            g.markers(&b, &mut list);
            let (square, d) = list[slot - 1];
            Move { square: square.into(), dir: Dir::ALL[usize::from(d)] }
        });
        State { cells, forbidden }
    }

    /// Check `samples` states drawn at random from `seed` (every state if there are no more)
    /// by the plain rules of [`super::super::explicit`], which share no code with the solver's
    /// moves: each state's value must follow from its successors' values in the tables (a
    /// win one ply longer than its shortest move into a loss, a loss one ply longer than its
    /// longest move into a win, a draw when it has no move into a loss and one into a draw).
    /// Returns the states checked.
    ///
    /// # Errors
    /// [`Error::Verification`] naming the first state whose value does not follow, or whose
    /// successor is not in the tables.
    pub fn check_sample(&self, samples: u64, seed: u64) -> Result<u64> {
        let all = self.states();
        let picks: Vec<u64> = if samples >= all {
            (0..all).collect()
        } else {
            let mut rng = crate::dfa::SplitMix64::new(seed);
            (0..samples).map(|_| rng.below(u128::from(all)) as u64).collect()
        };
        let v = &self.variant;
        picks.par_iter().try_for_each(|&i| {
            let state = self.state_at(i);
            let text =
                || format!("{} {}", v.board_text(&state.cells), state.forbidden.map_or("-".into(), |m| v.move_text(m)));
            let (mut best_loss, mut longest_win, mut draw, mut moves) = (None::<u32>, None::<u32>, false, 0);
            for (m, next) in v.successors(&state) {
                moves += 1;
                let value = match v.finished(&next.cells) {
                    Some(true) => Value::Win(0),
                    Some(false) => Value::Loss(0),
                    None => self.value(&next).ok_or_else(|| {
                        Error::Verification(format!(
                            "{}: the result of {} is not in the tables",
                            text(),
                            v.move_text(m)
                        ))
                    })?,
                };
                match value {
                    Value::Loss(d) => best_loss = Some(best_loss.map_or(d, |b| b.min(d))),
                    Value::Win(d) => longest_win = Some(longest_win.map_or(d, |w| w.max(d))),
                    Value::Draw => draw = true,
                }
            }
            let want = match (best_loss, draw) {
                (Some(d), _) => Value::Win(d + 1),
                (None, true) => Value::Draw,
                (None, false) if moves == 0 => Value::Loss(0),
                (None, false) => Value::Loss(longest_win.expect("a move into a win") + 1),
            };
            let got = self.value(&state).expect("a state of the tables");
            if got == want {
                Ok(())
            } else {
                Err(Error::Verification(format!(
                    "{}: the tables say {}, its moves say {}",
                    text(),
                    super::super::explicit::value_text(got),
                    super::super::explicit::value_text(want)
                )))
            }
        })?;
        Ok(picks.len() as u64)
    }
}

/// The published counts of an indexed solve (raw).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct IndexedCensus {
    /// Boards (positions) of the class.
    pub positions: u64,
    /// Positions where the mover can capture.
    pub checkmate_positions: u64,
    /// Non-trivial states (possibly reachable, not of a checkmate position).
    pub nontrivial_states: u64,
    /// `by_d[d]`: non-trivial states of value `d` (published convention, plies - 1).
    pub by_d: Vec<u64>,
    /// Non-trivial states that are draws.
    pub draws: u64,
}

impl IndexedCensus {
    /// Count `n` non-trivial states of value `v`.
    pub fn add(&mut self, v: Value, n: u64) {
        self.nontrivial_states += n;
        match v {
            Value::Draw => self.draws += n,
            Value::Win(p) | Value::Loss(p) => {
                let d = p.saturating_sub(1) as usize;
                if self.by_d.len() <= d {
                    self.by_d.resize(d + 1, 0);
                }
                self.by_d[d] += n;
            }
        }
    }

    fn merge(&mut self, o: &IndexedCensus) {
        self.positions += o.positions;
        self.checkmate_positions += o.checkmate_positions;
        self.nontrivial_states += o.nontrivial_states;
        self.draws += o.draws;
        if self.by_d.len() < o.by_d.len() {
            self.by_d.resize(o.by_d.len(), 0);
        }
        for (a, b) in self.by_d.iter_mut().zip(&o.by_d) {
            *a += b;
        }
    }
}
