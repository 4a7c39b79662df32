//! The bottom-up half of a subset-style exploration (n-ary union, reversal, images): every
//! explored state's row of child codes is interned, deepest layer first, into tables that
//! may already hold states the codes point to directly.

use super::canonical::canonicalize;
use super::ids::ScatterIds;
use super::intern::{PAR_ROWS, intern_layer};
use super::limits::Stoppable;
use super::packed::PackedCodes;
use super::reached::ReachedIds;
use super::unique::RowTable;
use super::{Dfa, Shape};

/// Child-code tag of an explored state of the next layer (`TUPLE | index`); codes without it
/// are state ids already in the next layer's table (0, 1, or a shared/preloaded state).
pub(crate) const TUPLE: u32 = 1 << 31;

/// The bottom-up half of a subset-style exploration: `children[l][t * alphabet + c]` is the
/// child code of explored state `t` of layer `l` on symbol `c`. Interns every explored state's
/// row into `tables` (which may already hold states that codes point to directly), deepest
/// layer first, and returns the canonical DFA of explored state 0 of layer 0.
pub(crate) fn intern_explored(shape: &Shape, tables: Vec<RowTable>, mut children: Vec<Vec<u32>>) -> Stoppable<Dfa> {
    intern_layers(shape, tables, |l| std::mem::take(&mut children[l]), None)
}

/// [`intern_explored`] for child codes kept packed ([`PackedCodes`]), where codes other than
/// explored states, 0 and 1 are ids of another DFA's states: `reached[d]` gives their ids in
/// the table of depth `d` ([`super::image`]).
pub(crate) fn intern_packed(
    shape: &Shape,
    tables: Vec<RowTable>,
    children: Vec<PackedCodes>,
    reached: &[ReachedIds],
) -> Stoppable<Dfa> {
    let mut children: Vec<Option<PackedCodes>> = children.into_iter().map(Some).collect();
    intern_layers(shape, tables, |l| children[l].take().map_or_else(Vec::new, PackedCodes::unpack), Some(reached))
}

/// The interning loop of [`intern_explored`] and [`intern_packed`]; `take_layer(l)` hands over
/// layer `l`'s codes (asked for once each, deepest first), and direct codes are renamed
/// through `reached` if given.
fn intern_layers(
    shape: &Shape,
    tables: Vec<RowTable>,
    mut take_layer: impl FnMut(usize) -> Vec<u32>,
    reached: Option<&[ReachedIds]>,
) -> Stoppable<Dfa> {
    use rayon::prelude::*;
    let mut tables: Vec<Option<RowTable>> = tables.into_iter().map(Some).collect();
    let mut layers: Vec<Vec<u32>> = vec![Vec::new(); shape.len()];
    let mut result_next: Vec<u32> = Vec::new();
    for l in (0..shape.len()).rev() {
        let alphabet = shape.alphabet(l);
        // The codes become the rows in place: explored children get their interned ids.
        let mut rows = take_layer(l);
        let resolve = |codes: &mut [u32]| {
            for code in codes {
                if *code & TUPLE != 0 {
                    *code = result_next[(*code & !TUPLE) as usize];
                } else if let Some(reached) = reached {
                    *code = reached[l + 1].get(*code);
                }
            }
        };
        if rows.len() >= PAR_ROWS * alphabet {
            rows.par_chunks_mut(PAR_ROWS * alphabet).for_each(resolve);
        } else {
            resolve(&mut rows);
        }
        let table = tables[l].take().expect("each layer is interned once");
        let (ids, table_rows) = intern_into(table, alphabet, &rows)?;
        layers[l] = table_rows;
        result_next = ids;
    }
    Ok(canonicalize(shape, result_next[0], layers))
}

/// Interns `rows` (flat, `alphabet` ids each) into `table`, which may already hold states that
/// the rows' ids point to, and returns the id of each row and the table's rows. The table is
/// used up: large layers are interned on all threads without updating its index. Every row
/// is first looked up in the existing states (read-only, in parallel); the rows not found are
/// interned among themselves by [`intern_layer`] (on all threads), and their states follow
/// the table's. Ids are not in first-occurrence order; [`canonicalize`] renumbers.
fn intern_into(mut table: RowTable, alphabet: usize, rows: &[u32]) -> Stoppable<(Vec<u32>, Vec<u32>)> {
    use rayon::prelude::*;
    let count = rows.len() / alphabet;
    if count < PAR_ROWS || rayon::current_num_threads() == 1 {
        let ids = super::limits::collect_stoppable(rows.chunks_exact(alphabet).map(|row| table.intern(row)))?;
        return Ok((ids, table.into_rows()));
    }
    const MISSING: u32 = u32::MAX;
    let found: Vec<u32> = rows.par_chunks_exact(alphabet).map(|row| table.lookup(row).unwrap_or(MISSING)).collect();
    let missing: Vec<u32> = (0..count as u32).into_par_iter().filter(|&t| found[t as usize] == MISSING).collect();
    if missing.is_empty() {
        return Ok((found, table.into_rows()));
    }
    // After two placeholder rows, as `intern_layer` builds its table in place.
    let mut gathered: Vec<u32> = vec![0; 2 * alphabet];
    gathered.par_extend(
        missing.par_iter().flat_map_iter(|&t| rows[t as usize * alphabet..(t as usize + 1) * alphabet].iter().copied()),
    );
    let (new_ids, new_rows) = intern_layer(alphabet, gathered)?;
    // The layer holds the table's states and the new ones.
    super::limits::check_layer_states(table.len() + new_rows.len() / alphabet - 2)?;
    // Reserved rows were found above, so every new id is 2 or more; new state 2 is the table's
    // next id.
    let base = table.len() as u32 - 2;
    let ids = ScatterIds::from_vec(found);
    missing.par_iter().zip(&new_ids).for_each(|(&t, &id)| {
        debug_assert!(id >= 2, "a row not found is not reserved");
        ids.set(t as usize, base + id);
    });
    let mut table_rows = table.into_rows();
    table_rows.extend_from_slice(&new_rows[2 * alphabet..]);
    Ok((ids.into_vec(), table_rows))
}
