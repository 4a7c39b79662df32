//! Wins whose every winning move is a sacrifice (removes one of the mover's own pieces),
//! found board by board. A move's value does not depend on the state's forbidden move, so a
//! board's moves are valued once for all of its states, and most boards are left at the first
//! test: no sacrifice of theirs wins.

use super::board::{Effect, Moves, Mv};
use super::census::{Counts, has_plain_state, state_orbit, value_through};
use super::lower::Lower;
use super::reading::Rules;
use super::solve::{TASK, for_each_board};
use super::tables::{ClassTables, bit};
use crate::explicit::Exact;
use rayon::prelude::*;
use smallvec::SmallVec;

/// Which wins.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scan {
    /// Only states without a forbidden move (one per position, as the published lists).
    pub plain_only: bool,
    /// Only wins in exactly this many plies.
    pub plies: Option<u32>,
    /// Only states with exactly one winning move.
    pub unique: bool,
}

/// What a scan found.
#[derive(Clone, Debug, Default)]
pub struct Sacrifices {
    /// The states, up to symmetry and raw.
    pub count: Counts,
    /// The first states found in table order, as (kind, rank, slot).
    pub first: Vec<(u8, u64, u8)>,
}

/// The states of `tables` that win by sacrifices only (at most `keep` of them listed); `start`:
/// the canonical start board, whose plain state is reachable.
pub fn sacrifices(
    rules: &Rules,
    tables: &ClassTables,
    lower: &Lower,
    start: Option<super::board::Board>,
    scan: Scan,
    keep: usize,
) -> Sacrifices {
    let g = &rules.geometry;
    let mut all = Sacrifices::default();
    for (k, t) in tables.kinds.iter().enumerate() {
        // A side at the last piece it may lose loses by any sacrifice.
        if usize::from(t.kind.mover) == g.lose_at + 1 {
            continue;
        }
        let boards = t.dir.boards();
        let parts: Vec<Sacrifices> = (0..boards.div_ceil(TASK))
            .into_par_iter()
            .map(|task| {
                let mut found = Sacrifices::default();
                let (first, end) = (task * TASK, boards.min((task + 1) * TASK));
                let (mut moves, mut slots) = (Moves::new(), Moves::new());
                for_each_board(&t.dir, first, end, |rank, cursor| {
                    let q = cursor.board();
                    if g.can_capture_to_win(&q) {
                        return;
                    }
                    g.moves(&q, &mut moves);
                    let wins = |m: Mv| matches!(value_through(rules, tables, lower, &q, m), Some(Exact::Win(_)));
                    let sacrifice = |m: &&Mv| g.effect(&q, **m) == Effect::LosesOwn;
                    let winning: SmallVec<[Mv; 8]> =
                        moves.iter().filter(sacrifice).copied().filter(|&m| wins(m)).collect();
                    if winning.is_empty() {
                        return;
                    }
                    // The other moves that win: a state passes if its forbidden move is the
                    // only one of them.
                    let others: SmallVec<[Mv; 4]> =
                        moves.iter().filter(|m| !sacrifice(m)).copied().filter(|&m| wins(m)).take(2).collect();
                    if others.len() > 1 {
                        return;
                    }
                    let exc = bit(&t.exceptional, rank);
                    rules.slots(&q, exc, &mut slots);
                    let stab = rules.sym.canonical(&q).1;
                    let last = if scan.plain_only { 0 } else { slots.len() };
                    for slot in 0..=last {
                        let forbidden = (slot > 0).then(|| slots[slot - 1]);
                        if others.first().is_some_and(|&m| Some(m) != forbidden)
                            || (scan.unique && winning.iter().filter(|&&m| Some(m) != forbidden).count() != 1)
                        {
                            continue;
                        }
                        let won = match tables.value_at(k as u8, rank, slot as u8) {
                            Exact::Win(n) => scan.plies.is_none_or(|p| p == n),
                            _ => false,
                        };
                        if !won || (slot == 0 && !has_plain_state(rules, &q, exc, start)) {
                            continue;
                        }
                        let Some(orbit) = state_orbit(rules, stab, &slots, forbidden) else { continue };
                        found.count.add(orbit);
                        if found.first.len() < keep {
                            found.first.push((k as u8, rank, slot as u8));
                        }
                    }
                });
                found
            })
            .collect();
        for p in parts {
            all.count.merge(&p.count);
            all.first.extend(p.first.into_iter().take(keep.saturating_sub(all.first.len())));
        }
    }
    all
}
