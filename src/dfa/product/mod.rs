//! One engine for every operation that walks a few DFAs in lock step: union, intersection,
//! difference, change, symbol relabelling and the fused move image
//! `post ∩ change(S ∩ pre)`.
//!
//! The product is explored layer by layer (breadth first), the way the layered structure
//! invites:
//!
//! 1. **Forward**: the tuples of operand states reachable in layer `l` are expanded on every
//!    output symbol; each child tuple is first tested against the operation's *terminal cases*
//!    (e.g. an intersection with a rejecting operand is rejected at once), and otherwise given
//!    the dense index of its tuple in layer `l + 1` ([`number_children`]).
//! 2. **Backward**: from the last layer up, each tuple's row of result ids is interned in the
//!    layer's unique table ([`RowTable`]), which merges equal states.
//! 3. [`canonicalize`] drops the unreachable and renumbers (I6, I7).
//!
//! An operand may read each layer through a *symbol map*: output symbol `c` reads operand
//! symbol `map[c]`, or nothing (the operand rejects) when `map[c] == DEAD`. This is how
//! `change` (output `to` reads input `from`) and relabelling work without building
//! intermediate DFAs. While any later layer is mapped, an operand in its accept-all state does
//! not accept everything any more, so accept shortcuts are only taken past the last mapped layer.

mod tuples;

use super::canonical::canonicalize;
use super::ids::warm;
use super::intern::intern_layer;
use super::limits::Stoppable;
use super::{Dfa, Shape};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use tuples::{Bucketing, NumberScratch, UnitChildren, number_children};

/// Product states (operand tuples) explored by all products so far, for throughput figures.
static PRODUCT_STATES: AtomicU64 = AtomicU64::new(0);

/// Number of product states (tuples of operand states) explored by every product operation
/// of this process so far. Benchmarks divide it by time to get product states per second.
pub fn product_states_explored() -> u64 {
    PRODUCT_STATES.load(Ordering::Relaxed)
}

/// Marks an output symbol on which a mapped operand reads nothing (rejects).
pub(crate) const DEAD: u16 = u16::MAX;

/// How each operand reads each layer: `maps[l][j]` is `None` for the identity, or a table from
/// output symbol to operand symbol (or [`DEAD`]).
pub(crate) type SymbolMaps<const K: usize> = Vec<[Option<Vec<u16>>; K]>;

/// What the terminal cases of an operation say about a tuple of operand states.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Decision {
    Reject,
    Accept,
    Continue,
}

/// Terminal cases of a K-ary operation. `exact` is true when no symbol map lies ahead, so that
/// state 1 really accepts every suffix. At the end of the string every component is 0 or 1 and
/// `exact` is true, and the answer must not be `Continue`.
pub(crate) trait Terminal<const K: usize>: Sync {
    fn decide(&self, tuple: &[u32; K], exact: bool) -> Decision;
}

/// Intersection of all K operands.
pub(crate) struct All;
impl<const K: usize> Terminal<K> for All {
    #[inline]
    fn decide(&self, t: &[u32; K], exact: bool) -> Decision {
        if t.contains(&0) {
            Decision::Reject
        } else if exact && t.iter().all(|&s| s == 1) {
            Decision::Accept
        } else {
            Decision::Continue
        }
    }
}

/// Union of two operands.
pub(crate) struct Either;
impl Terminal<2> for Either {
    #[inline]
    fn decide(&self, t: &[u32; 2], exact: bool) -> Decision {
        if t[0] == 0 && t[1] == 0 {
            Decision::Reject
        } else if exact && (t[0] == 1 || t[1] == 1) {
            Decision::Accept
        } else {
            Decision::Continue
        }
    }
}

/// Difference: first operand minus the second.
pub(crate) struct Minus;
impl Terminal<2> for Minus {
    #[inline]
    fn decide(&self, t: &[u32; 2], exact: bool) -> Decision {
        if t[0] == 0 || (exact && t[1] == 1) {
            Decision::Reject
        } else if exact && t[0] == 1 && t[1] == 0 {
            Decision::Accept
        } else {
            Decision::Continue
        }
    }
}

/// Tuples expanded as one group: the operand rows of the whole group are read first, in a
/// pass with no branches, so that their cache misses overlap; the expansion then finds them
/// in the L1 cache. (Prefetch instructions would need `unsafe`.)
const GROUP: usize = 16;

/// Tuples expanded per parallel work unit; below this a layer is done on one thread.
const PAR_CHUNK: usize = 1 << 14;

/// The product of `operands` read through `maps`, reduced by `terminal`.
pub(crate) fn product<const K: usize, T: Terminal<K>>(
    shape: &Shape,
    operands: [&Dfa; K],
    maps: &SymbolMaps<K>,
    terminal: &T,
) -> Stoppable<Dfa> {
    let n = shape.len();
    for op in &operands {
        assert_eq!(op.shape(), shape, "operands of one operation must share a shape");
    }
    assert_eq!(maps.len(), n);
    // exact[l]: no operand reads any layer >= l through a map.
    let mut exact = vec![true; n + 1];
    for l in (0..n).rev() {
        exact[l] = exact[l + 1] && maps[l].iter().all(Option::is_none);
    }
    let root: [u32; K] = std::array::from_fn(|j| operands[j].initial().0);
    match terminal.decide(&root, exact[0]) {
        Decision::Reject => return Ok(Dfa::reject_all(shape)),
        Decision::Accept => return Ok(Dfa::accept_all(shape)),
        Decision::Continue => {}
    }

    // Forward: children[l][(t + 2) * alphabet + c], for the tuple t of layer l, is 0
    // (reject), 1 (accept) or 2 + index of the child tuple in layer l + 1, after two rows of
    // room for the reserved rows. The backward pass turns each layer's codes into its rows
    // and then its table in place (fresh pages are costly, see `codes_buffer`).
    let mut children: Vec<Vec<u32>> = Vec::with_capacity(n);
    let mut tuples: Vec<[u32; K]> = vec![root];
    // Reused from layer to layer: the numbering's buffers, and the tuples of the layer before.
    let mut scratch = NumberScratch::default();
    let mut next_tuples: Vec<[u32; K]> = Vec::new();
    for l in 0..n {
        let alphabet = shape.alphabet(l);
        let layer_maps = &maps[l];
        let rows: [&[u32]; K] = std::array::from_fn(|j| operands[j].layers()[l].raw());
        // Operand rows are read at random below (see `warm`).
        for r in rows {
            warm(r);
        }
        let last = l + 1 == n;
        let child_exact = exact[l + 1];
        // Expand every tuple on every symbol; terminal cases are settled here, the rest are
        // marked with their bucket and numbered by `number_children` below.
        let first_components = operands[0].layers().get(l + 1).map_or(2, |x| x.len());
        let bucketing = Bucketing::new(first_components, tuples.len() * alphabet);
        let expand = unit_expander(|(unit, out): (&[[u32; K]], &mut [u32])| {
            // A layer's children can take gigabytes: stop within a unit of going over budget.
            crate::dfa::limits::check_memory()?;
            let mut pending = Vec::with_capacity(out.len());
            for (group, group_codes) in unit.chunks(GROUP).zip(out.chunks_mut(GROUP * alphabet)) {
                // Read ahead (see GROUP); the fold keeps the reads from being optimised away.
                let touched =
                    group.iter().fold(0u32, |x, t| (0..K).fold(x, |x, j| x ^ rows[j][t[j] as usize * alphabet]));
                std::hint::black_box(touched);
                for (t, codes) in group.iter().zip(group_codes.chunks_exact_mut(alphabet)) {
                    for (c, code) in codes.iter_mut().enumerate() {
                        let mut child = [0u32; K];
                        for j in 0..K {
                            let input = match &layer_maps[j] {
                                None => c,
                                Some(m) => match m[c] {
                                    DEAD => usize::MAX,
                                    x => x as usize,
                                },
                            };
                            child[j] = if input == usize::MAX { 0 } else { rows[j][t[j] as usize * alphabet + input] };
                        }
                        *code = match terminal.decide(&child, child_exact) {
                            Decision::Reject => 0,
                            Decision::Accept => 1,
                            Decision::Continue => {
                                debug_assert!(!last, "terminal cases must decide at the end of the string");
                                pending.push(child);
                                bucketing.mark(&child)
                            }
                        };
                    }
                }
            }
            Ok(UnitChildren::new(out, pending, &bucketing))
        });
        // The codes buffer is taken whole: refuse it before, not 50 ms of sampling after.
        crate::dfa::limits::check_allocation(tuples.len() * alphabet * 4)?;
        let mut codes = codes_buffer(tuples.len() * alphabet, alphabet);
        let body = &mut codes[2 * alphabet..];
        let mut units: Vec<UnitChildren<'_, K>> = if tuples.len() >= 2 * PAR_CHUNK {
            tuples
                .par_chunks(PAR_CHUNK)
                .zip(body.par_chunks_mut(PAR_CHUNK * alphabet))
                .map(expand)
                .collect::<Stoppable<_>>()?
        } else {
            tuples.chunks(PAR_CHUNK).zip(body.chunks_mut(PAR_CHUNK * alphabet)).map(expand).collect::<Stoppable<_>>()?
        };
        number_children(&mut units, &bucketing, &mut scratch, &mut next_tuples)?;
        drop(units);
        PRODUCT_STATES.fetch_add(tuples.len() as u64, Ordering::Relaxed);
        children.push(codes);
        std::mem::swap(&mut tuples, &mut next_tuples);
    }
    debug_assert!(tuples.is_empty());

    // Backward: intern each tuple's row of result ids, deepest layer first.
    let mut tables: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut result_next: Vec<u32> = Vec::new();
    for l in (0..n).rev() {
        let alphabet = shape.alphabet(l);
        // The codes become the rows in place: each child tuple's index becomes its result id,
        // in a loop of its own so that the random reads of `result_next` overlap.
        let mut rows = std::mem::take(&mut children[l]);
        let resolve = |codes: &mut [u32]| {
            for code in codes {
                if *code >= 2 {
                    *code = result_next[*code as usize - 2];
                }
            }
        };
        let body = &mut rows[2 * alphabet..];
        if body.len() >= 2 * PAR_CHUNK * alphabet {
            body.par_chunks_mut(PAR_CHUNK * alphabet).for_each(resolve);
        } else {
            resolve(body);
        }
        let (result, table) = intern_layer(alphabet, rows)?;
        tables[l] = table;
        result_next = result;
    }
    Ok(canonicalize(shape, result_next[0], tables))
}

/// Ties the lifetime of an expanding closure's result to the codes it is handed (closures
/// do not infer that).
fn unit_expander<'a, const K: usize, F>(f: F) -> F
where
    F: Fn((&[[u32; K]], &'a mut [u32])) -> Stoppable<UnitChildren<'a, K>>,
{
    f
}

/// A layer's buffer of `len` child codes after two rows of `alphabet` ids of room for the
/// reserved rows that its table adds when interned in place ([`intern_layer`]).
///
/// Each layer's codes become its rows, then its table, then a layer of the result
/// ([`canonicalize`] works in place too): one buffer where there were four, with neither the
/// copies between them nor their fresh pages. Zeroed by the allocator (`calloc`): a block it
/// maps fresh is first touched by the threads that expand into it, not cleared beforehand.
fn codes_buffer(len: usize, alphabet: usize) -> Vec<u32> {
    vec![0u32; 2 * alphabet + len]
}

/// Symbol maps that read every operand unchanged.
pub(crate) fn identity_maps<const K: usize>(shape: &Shape) -> SymbolMaps<K> {
    (0..shape.len()).map(|_| std::array::from_fn(|_| None)).collect()
}
