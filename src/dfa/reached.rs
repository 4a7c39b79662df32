//! The states of `S` an image's result points into, and only those, as preloaded tables.
//!
//! A direct child code `s` at depth `d` means "from here on, exactly `S`'s state `s`" (read
//! through the background's map, if any). The result then holds every state of `S` reachable
//! from such an `s`; no other state of `S` can appear in it. Preloading all of `S` instead
//! costs time in the size of `S` for every image, which dominated the meet in the middle's
//! backup: its last plies image a 41 M-state loss set within a few hundred positions.

use super::limits::Stoppable;
use super::unique::RowTable;
use super::{Dfa, StateId, Symbol};

/// The ids direct codes of one depth take in the result's table: `S`'s states, sorted, and
/// the id of each.
#[derive(Default)]
pub(crate) struct ReachedIds {
    states: Vec<u32>,
    ids: Vec<u32>,
}

impl ReachedIds {
    /// The table id of `S`'s state `s` (0 and 1 are themselves).
    ///
    /// # Panics
    /// If `s` was not reached: every direct code is, by construction.
    #[inline]
    pub(crate) fn get(&self, s: u32) -> u32 {
        if s < 2 {
            return s;
        }
        let i = self.states.binary_search(&s).expect("every direct code is a reached state");
        self.ids[i]
    }
}

/// For the direct codes `direct[d]` (states of `set` at depth `d`, sorted and distinct), the
/// tables of every layer preloaded with the states they reach (read through `map`: output
/// symbol `c` of layer `l` reads `map[l][c]`), and the ids at each depth (`n + 1` of them).
/// Rows that the map makes equal share an id, so the tables stay duplicate-free (I5).
pub(crate) fn reached_tables(
    set: &Dfa,
    map: Option<&[Vec<Symbol>]>,
    mut direct: Vec<Vec<u32>>,
) -> Stoppable<(Vec<RowTable>, Vec<ReachedIds>)> {
    let shape = set.shape();
    let n = shape.len();
    debug_assert_eq!(direct.len(), n + 1);
    let read = |l: usize, c: usize| map.map_or(c as Symbol, |m| m[l][c]);
    // Top-down: the states reached at each depth, from those above and the direct codes.
    for d in 1..n {
        let (above, here) = direct.split_at_mut(d);
        let layer = &set.layers()[d - 1];
        let before = here[0].len();
        for &s in &above[d - 1] {
            for c in 0..shape.alphabet(d - 1) {
                let t = layer.next(StateId(s), read(d - 1, c)).0;
                if t >= 2 {
                    here[0].push(t);
                }
            }
        }
        if here[0].len() > before {
            here[0].sort_unstable();
            here[0].dedup();
        }
    }
    // Bottom-up: intern each reached state's row of (already interned) children.
    let mut ids: Vec<ReachedIds> = (0..=n).map(|_| ReachedIds::default()).collect();
    let mut tables: Vec<RowTable> = Vec::with_capacity(n);
    let mut row = Vec::new();
    for d in (0..n).rev() {
        let alphabet = shape.alphabet(d);
        let states = std::mem::take(&mut direct[d]);
        let mut table = RowTable::with_capacity(alphabet, states.len());
        let layer = &set.layers()[d];
        let mut here = Vec::with_capacity(states.len());
        for &s in &states {
            row.clear();
            row.extend((0..alphabet).map(|c| ids[d + 1].get(layer.next(StateId(s), read(d, c)).0)));
            here.push(table.intern(&row)?);
        }
        ids[d] = ReachedIds { states, ids: here };
        tables.push(table);
    }
    tables.reverse();
    Ok((tables, ids))
}
