//! Puzzles from a solved Ostle: the states of the tables that satisfy a filter, each with its
//! winning line (the winner's quickest moves, the loser's longest replies).

use super::super::Dir;
use super::super::explicit::{Move, State};
use super::Solution;
use super::board::Moves;
use super::tables::bit;
use crate::error::Error;
use crate::explicit::Exact;
use crate::solved::explore::MOST_EXAMINED;
use rayon::prelude::*;

pub use crate::solved::Filter;

/// A puzzle: a state, its value, its winning moves and a winning line.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Puzzle {
    /// The state (board and forbidden move).
    pub position: String,
    /// Plies to the end with best play.
    pub plies: u32,
    /// Moves that win (into a loss of the opponent, however long).
    pub winning_moves: Vec<String>,
    /// Best play to the end: the winner's quickest moves, the loser's longest replies.
    pub line: Vec<String>,
}

/// What [`Solution::puzzles`] found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Found {
    /// The plies of the wins asked for (the longest win's, for the longest wins).
    pub plies: u32,
    /// The puzzles that passed the filter, up to the limit.
    pub puzzles: Vec<Puzzle>,
    /// States with the value asked for, filtered or not.
    pub with_value: u64,
    /// Of them, how many were tested against the filter: all, or the first
    /// [`MOST_EXAMINED`] in table order.
    pub examined: u64,
    /// Of those, how many pass the filter.
    pub passing: u64,
}

/// What [`Solution::sacrifice_puzzles`] found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SacrificesFound {
    /// Every state that passes the filter, up to symmetry and raw.
    pub passing: super::census::Counts,
    /// The first of them in table order, up to the limit.
    pub puzzles: Vec<Puzzle>,
}

impl Solution {
    /// The moves of `s` with the state each leads to and its value for the opponent.
    pub(super) fn moves_of(&self, s: &State) -> Vec<(Move, State, Option<Exact>)> {
        let v = &self.variant;
        v.all_moves(&s.cells)
            .into_iter()
            .filter(|&m| Some(m) != s.forbidden)
            .map(|m| {
                // The board as the move leaves it, not its class's canonical representative:
                // the tables answer any board of a class, its forbidden move carried along.
                let next = v.after(&s.cells, m);
                let value = match v.finished(&next.cells) {
                    Some(true) => Some(Exact::Win(0)),
                    Some(false) => Some(Exact::Loss(0)),
                    None => self.value(&next),
                };
                (m, next, value)
            })
            .collect()
    }

    /// Best play from `s` to the end of the game (at most `most` plies).
    pub fn line(&self, s: &State, most: usize) -> Vec<String> {
        let v = &self.variant;
        let mut out = Vec::new();
        let mut s = s.clone();
        while out.len() < most && v.finished(&s.cells).is_none() {
            let moves = self.moves_of(&s);
            let best = moves.into_iter().min_by_key(|(_, _, x)| crate::vocabulary::move_rank(x.map(Into::into)));
            let Some((m, next, _)) = best else { break };
            out.push(v.move_text(m));
            s = next;
        }
        out
    }

    /// The winning moves of `s`, if it passes `filter` (its plies already checked by the
    /// caller).
    fn passes(&self, s: &State, filter: &Filter) -> Option<Vec<Move>> {
        let v = &self.variant;
        if filter.plain && s.forbidden.is_some() {
            return None;
        }
        let winning: Vec<Move> = self
            .moves_of(s)
            .into_iter()
            .filter(|(_, _, x)| matches!(x, Some(Exact::Loss(_))))
            .map(|(m, _, _)| m)
            .collect();
        if filter.unique && winning.len() != 1 {
            return None;
        }
        if filter.sacrifice
            && !winning.iter().all(|&m| v.play(&s.cells, m).removed == Some(super::super::explicit::Cell::Mine))
        {
            return None;
        }
        Some(winning)
    }

    /// The puzzle at `s`, if it passes `filter` (its plies already checked by the caller).
    fn puzzle(&self, s: &State, plies: u32, filter: &Filter) -> Option<Puzzle> {
        let v = &self.variant;
        let winning = self.passes(s, filter)?;
        Some(Puzzle {
            position: v.state_text(s),
            plies,
            winning_moves: winning.iter().map(|&m| v.move_text(m)).collect(),
            line: self.line(s, plies as usize + 1),
        })
    }

    /// Up to `limit` puzzles of the tables that pass `filter`, in table order, and how many
    /// states have the value asked for.
    pub fn puzzles(&self, filter: &Filter, limit: usize) -> Found {
        let plies = match (filter.plies, filter.longest) {
            (Some(n), _) => n,
            (None, _) => self.longest_win().unwrap_or(0),
        };
        let code = super::code::encode(Exact::Win(plies));
        let mut found = Vec::new();
        let (mut with_value, mut examined, mut passing) = (0u64, 0u64, 0u64);
        for (c, class) in self.classes().iter().enumerate() {
            for (k, t) in class.kinds.iter().enumerate() {
                // The states with the value: a scan of the bytes, or of the side table for a
                // value of the other parity (which the bytes only mark).
                let mut hits: Vec<u64> = if code == super::code::OTHER_PARITY {
                    class
                        .other_parity
                        .iter()
                        .filter(|&(&(kind, _, _), &v)| usize::from(kind) == k && v == Exact::Win(plies))
                        .map(|(&(_, r, slot), _)| t.first_state(r) + u64::from(slot))
                        .collect()
                } else {
                    t.values.par_iter().enumerate().filter(|&(_, &x)| x == code).map(|(i, _)| i as u64).collect()
                };
                hits.sort_unstable();
                with_value += hits.len() as u64;
                hits.truncate((MOST_EXAMINED - examined).min(hits.len() as u64) as usize);
                examined += hits.len() as u64;
                let passed: Vec<u64> =
                    hits.into_par_iter().filter(|&i| self.passes(&self.state_of(c, k, i), filter).is_some()).collect();
                passing += passed.len() as u64;
                for &i in passed.iter().take(limit.saturating_sub(found.len())) {
                    found.extend(self.puzzle(&self.state_of(c, k, i), plies, filter));
                }
            }
        }
        Found { plies, puzzles: found, with_value, examined, passing }
    }

    /// The wins whose every winning move is a sacrifice, of any length unless `filter` says
    /// one, scanned board by board (see [`super::sacrifices`]); up to `limit` of them listed.
    ///
    /// # Errors
    /// A lower class's tables that cannot be opened.
    pub fn sacrifice_puzzles(&self, filter: &Filter, limit: usize) -> crate::error::Result<SacrificesFound> {
        let plies = match (filter.plies, filter.longest) {
            (Some(n), _) => Some(n),
            (None, true) => self.longest_win(),
            (None, false) => None,
        };
        let scan = super::sacrifices::Scan { plain_only: filter.plain, plies, unique: filter.unique };
        let start = super::start_board(self.rules(), &self.variant);
        let solved = super::classes(&self.variant).into_iter().filter(|c| super::class_file(&self.dir, c).exists());
        let (mut passing, mut puzzles) = (super::census::Counts::default(), Vec::new());
        for (c, class) in solved.enumerate() {
            let lower = super::lower_of(&self.variant, &self.dir, &class)?;
            let tables = &self.classes()[c];
            let found = super::sacrifices::sacrifices(self.rules(), tables, &lower, Some(start), scan, limit);
            passing.merge(&found.count);
            for (k, r, slot) in found.first {
                if puzzles.len() >= limit {
                    break;
                }
                let i = tables.kinds[usize::from(k)].first_state(r) + u64::from(slot);
                let s = self.state_of(c, usize::from(k), i);
                // The scan's fast test, checked by the tables and the plain rules.
                let disagree = |what: &str| {
                    Error::Verification(format!("{}: the sacrifice scan found it, {what}", self.variant.state_text(&s)))
                };
                let Some(Exact::Win(n)) = self.value(&s) else {
                    return Err(disagree("yet the tables do not make it a win"));
                };
                let p = self.puzzle(&s, n, filter).ok_or_else(|| disagree("yet it does not pass the filter"))?;
                puzzles.push(p);
            }
        }
        Ok(SacrificesFound { passing, puzzles })
    }

    /// The longest win of the tables, in plies (the side table's values included).
    pub fn longest_win(&self) -> Option<u32> {
        let win = |v: Exact| match v {
            Exact::Win(n) => Some(n),
            _ => None,
        };
        self.classes()
            .iter()
            .flat_map(|c| {
                let bytes = c.kinds.iter().filter_map(move |t| {
                    t.values
                        .par_iter()
                        .filter(|&&x| x >= super::code::DECIDED && x != super::code::OTHER_PARITY)
                        .filter_map(|&x| win(super::code::decode(x)))
                        .max()
                });
                bytes.chain(c.other_parity.values().filter_map(|&v| win(v)))
            })
            .max()
    }

    /// The board rank and slot of the state at index `i` of kind `k` of class `c`.
    pub(super) fn locate(&self, c: usize, k: usize, i: u64) -> (u64, usize) {
        let t = &self.classes()[c].kinds[k];
        let block = t.block_start.partition_point(|&s| s <= i) - 1;
        let (mut r, mut at) = ((block * super::tables::BLOCK) as u64, t.block_start[block]);
        while at + 1 + u64::from(t.markers[r as usize]) <= i {
            at += 1 + u64::from(t.markers[r as usize]);
            r += 1;
        }
        (r, (i - at) as usize)
    }

    /// The state at index `i` of kind `k` of class `c`, as cells and a forbidden move.
    pub(super) fn state_of(&self, c: usize, k: usize, i: u64) -> State {
        let t = &self.classes()[c].kinds[k];
        let rules = self.rules();
        let (r, slot) = self.locate(c, k, i);
        let b = t.dir.board(r);
        let mut slots = Moves::new();
        rules.slots(&b, bit(&t.exceptional, r), &mut slots);
        let cells = (0..rules.geometry.squares as u8)
            .map(|s| {
                use super::super::explicit::Cell;
                if s == b.hole {
                    Cell::Hole
                } else if b.mine >> s & 1 == 1 {
                    Cell::Mine
                } else if b.theirs >> s & 1 == 1 {
                    Cell::Theirs
                } else {
                    Cell::Empty
                }
            })
            .collect();
        let forbidden = (slot > 0).then(|| {
            let m = slots[slot - 1];
            Move { square: usize::from(m.square), dir: Dir::ALL[usize::from(m.dir)] }
        });
        State { cells, forbidden }
    }
}
