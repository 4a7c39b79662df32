//! The published counts of a solved class (`games/ostle/README.md`): positions, checkmate positions, the
//! values of the non-trivial states, raw and up to symmetry, and the wins whose every winning
//! move is a sacrifice.

use super::board::{Board, Effect, Moves, Mv};
use super::lower::Lower;
use super::reading::Rules;
use super::solve::{TASK, for_each_board};
use super::tables::{ClassTables, KindTable, bit};
use crate::explicit::Exact;
use rayon::prelude::*;
use smallvec::SmallVec;

/// Counts, up to symmetry and raw.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Up to symmetry.
    pub classes: u64,
    /// Raw.
    pub raw: u64,
}

impl Counts {
    /// One state up to symmetry, `orbit` raw.
    pub fn add(&mut self, orbit: u64) {
        self.classes += 1;
        self.raw += orbit;
    }

    /// Another count's states too.
    pub fn merge(&mut self, o: &Counts) {
        self.classes += o.classes;
        self.raw += o.raw;
    }
}

/// The census of a class.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Census {
    /// Positions (boards, mover to move).
    pub positions: Counts,
    /// Positions where the mover wins at once by a capture.
    pub checkmate_positions: Counts,
    /// Possibly reachable states of the other positions.
    pub nontrivial_states: Counts,
    /// Of them, with a forbidden move.
    pub with_forbidden_move: Counts,
    /// `by_d[d]`: non-trivial states of value `d = plies - 1` (d even: the mover wins).
    pub by_d: Vec<Counts>,
    /// Non-trivial draws.
    pub draws: Counts,
    /// Non-trivial wins whose every winning move removes one of the mover's own pieces.
    pub sacrifice_wins: Counts,
    /// Of them, the states without a forbidden move: one per position, as the published
    /// count (35,107 on 5x5) lists them.
    #[serde(default)]
    pub sacrifice_positions: Counts,
}

impl Census {
    fn merge(&mut self, o: &Census) {
        self.positions.merge(&o.positions);
        self.checkmate_positions.merge(&o.checkmate_positions);
        self.nontrivial_states.merge(&o.nontrivial_states);
        self.with_forbidden_move.merge(&o.with_forbidden_move);
        self.draws.merge(&o.draws);
        self.sacrifice_wins.merge(&o.sacrifice_wins);
        self.sacrifice_positions.merge(&o.sacrifice_positions);
        if self.by_d.len() < o.by_d.len() {
            self.by_d.resize(o.by_d.len(), Counts::default());
        }
        for (a, b) in self.by_d.iter_mut().zip(&o.by_d) {
            a.merge(b);
        }
    }

    /// Add another class's census.
    pub fn add(&mut self, o: &Census) {
        self.merge(o);
    }
}

/// The value, for the mover, of the state after move `m` of canonical board `q` (any
/// forbidden move: moves never depend on it), from `tables` (this class) or `lower`.
pub fn value_through(rules: &Rules, tables: &ClassTables, lower: &Lower, q: &Board, m: Mv) -> Option<Exact> {
    let g = &rules.geometry;
    let (r, effect) = g.play(q, m);
    let (mine, theirs) = q.counts();
    let opponent = match effect {
        Effect::Captures if theirs == g.lose_at + 1 => Exact::Loss(0),
        Effect::LosesOwn if mine == g.lose_at + 1 => Exact::Win(0),
        Effect::Captures | Effect::LosesOwn => lower.value(rules, &r).ok()?,
        Effect::Stays => {
            let (canonical, which) = rules.sym.canonical(&r);
            let (mine, theirs) = canonical.counts();
            let (k, t) = tables.kind(super::directory::Kind { mover: mine as u8, opponent: theirs as u8 })?;
            let rank = t.dir.rank(&rules.sym, &canonical);
            let forbidden = if rules.class_reading && bit(&t.exceptional, rank) {
                // Chosen on the canonical board; carried back onto the result.
                let back = rules.sym.inverse(which.trailing_zeros() as u8);
                rules.class_forbidden(&rules.reach(&canonical), q).map(|f| rules.sym.mv(back, f))
            } else {
                // Off the exceptional boards both readings forbid the exact undo.
                g.undo_of(q, m)
            };
            tables.value_located(rules, k, rank, &canonical, which, forbidden)?
        }
    };
    Some(opponent.before())
}

/// The census of `tables`; `start`: the canonical start board, counted as reachable.
pub fn census(rules: &Rules, tables: &ClassTables, lower: &Lower, start: Option<Board>) -> Census {
    let g = &rules.geometry;
    let symmetries = rules.sym.len() as u64;
    let mut all = Census::default();
    for (k, t) in tables.kinds.iter().enumerate() {
        let boards = t.dir.boards();
        let parts: Vec<Census> = (0..boards.div_ceil(TASK))
            .into_par_iter()
            .map(|task| {
                let mut c = Census::default();
                let (first, end) = (task * TASK, boards.min((task + 1) * TASK));
                let mut slots = Moves::new();
                let mut moves = Moves::new();
                for_each_board(&t.dir, first, end, |r, cursor| {
                    let q = cursor.board();
                    let (_, stab) = rules.sym.canonical(&q);
                    let orbit = symmetries / u64::from(stab.count_ones());
                    c.positions.add(orbit);
                    if g.can_capture_to_win(&q) {
                        c.checkmate_positions.add(orbit);
                    } else {
                        let exc = bit(&t.exceptional, r);
                        rules.slots(&q, exc, &mut slots);
                        let plain = has_plain_state(rules, &q, exc, start);
                        for slot in 0..=slots.len() {
                            let forbidden = (slot > 0).then(|| slots[slot - 1]);
                            if slot == 0 && !plain {
                                continue;
                            }
                            let Some(orbit) = state_orbit(rules, stab, &slots, forbidden) else { continue };
                            c.nontrivial_states.add(orbit);
                            if slot > 0 {
                                c.with_forbidden_move.add(orbit);
                            }
                            let v = tables.value_at(k as u8, r, slot as u8);
                            match v {
                                Exact::Draw => c.draws.add(orbit),
                                Exact::Win(n) | Exact::Loss(n) => {
                                    let d = n.saturating_sub(1) as usize;
                                    if c.by_d.len() <= d {
                                        c.by_d.resize(d + 1, Counts::default());
                                    }
                                    c.by_d[d].add(orbit);
                                }
                            }
                            if matches!(v, Exact::Win(_))
                                && sacrifice_only(rules, tables, lower, &q, forbidden, &mut moves)
                            {
                                c.sacrifice_wins.add(orbit);
                                if slot == 0 {
                                    c.sacrifice_positions.add(orbit);
                                }
                            }
                        }
                    }
                });
                c
            })
            .collect();
        for p in parts {
            all.merge(&p);
        }
    }
    all
}

/// Whether the census counts stored state `slot` of the board of rank `r` in `t`: not a
/// state of a checkmate position, not a state without a forbidden move that play cannot
/// reach, and not the mirror image of another state of a symmetric board. The tables store
/// those too; [`census`] walks the same tests board by board.
pub(super) fn counts_state(rules: &Rules, t: &KindTable, r: u64, slot: usize, start: Option<Board>) -> bool {
    let q = t.dir.board(r);
    if rules.geometry.can_capture_to_win(&q) {
        return false;
    }
    let exc = bit(&t.exceptional, r);
    if slot == 0 && !has_plain_state(rules, &q, exc, start) {
        return false;
    }
    let mut slots = Moves::new();
    rules.slots(&q, exc, &mut slots);
    let (_, stab) = rules.sym.canonical(&q);
    state_orbit(rules, stab, &slots, (slot > 0).then(|| slots[slot - 1])).is_some()
}

/// Whether canonical board `q` (`exceptional` or not) has a state without a forbidden move
/// that play can reach: the start, a board entered by a removal, or one a move enters whose
/// result forbids nothing.
pub(super) fn has_plain_state(rules: &Rules, q: &Board, exceptional: bool, start: Option<Board>) -> bool {
    let g = &rules.geometry;
    if start == Some(*q) || g.entered_by_removal(q) {
        return true;
    }
    let mut unmoves = SmallVec::new();
    g.unmoves(q, &mut unmoves);
    let reach = exceptional.then(|| rules.reach(q));
    unmoves.iter().any(|u| rules.forbidden_after(reach.as_ref(), u).is_none())
}

/// The raw states in the orbit of the state of canonical board `q` (symmetries `stab`,
/// possible forbidden moves `slots`) that forbids `forbidden`; `None` if a symmetric image of
/// the forbidden move comes first among the slots (the exact reading lists both of two
/// symmetric forbidden moves: the state is counted there).
pub(super) fn state_orbit(rules: &Rules, stab: u8, slots: &Moves, forbidden: Option<Mv>) -> Option<u64> {
    let g = &rules.geometry;
    let mut fixing = 0u64;
    for h in (0..8u8).filter(|h| stab >> h & 1 == 1) {
        match forbidden {
            None => fixing += 1,
            Some(f) => {
                let image = rules.sym.mv(h, f);
                if image == f {
                    fixing += 1;
                } else if g.move_rank(image) < g.move_rank(f) && slots.contains(&image) {
                    return None;
                }
            }
        }
    }
    Some(rules.sym.len() as u64 / fixing)
}

/// Whether every winning move of a won state removes one of the mover's own pieces.
fn sacrifice_only(
    rules: &Rules,
    tables: &ClassTables,
    lower: &Lower,
    q: &Board,
    forbidden: Option<Mv>,
    moves: &mut Moves,
) -> bool {
    let g = &rules.geometry;
    g.moves(q, moves);
    // Cheap first: a sacrifice that wins at all (most wins have none).
    let own: SmallVec<[Mv; 8]> = moves.iter().copied().filter(|&m| g.effect(q, m) == Effect::LosesOwn).collect();
    if !own.iter().any(|&m| matches!(value_through(rules, tables, lower, q, m), Some(Exact::Win(_)))) {
        return false;
    }
    moves
        .iter()
        .filter(|&&m| Some(m) != forbidden && g.effect(q, m) != Effect::LosesOwn)
        .all(|&m| !matches!(value_through(rules, tables, lower, q, m), Some(Exact::Win(_))))
}
