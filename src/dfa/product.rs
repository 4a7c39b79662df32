//! One engine for every operation that walks a few DFAs in lock step: union, intersection,
//! difference, change, symbol relabelling and the fused move image
//! `post ∩ change(S ∩ pre)`.
//!
//! The product is explored layer by layer (breadth first), the way the layered structure
//! invites:
//!
//! 1. **Forward**: the tuples of operand states reachable in layer `l` are expanded on every
//!    output symbol; each child tuple is first tested against the operation's *terminal cases*
//!    (e.g. an intersection with a rejecting operand is rejected at once), and otherwise looked
//!    up in layer `l + 1`'s tuple table (the memo) and given a dense index.
//! 2. **Backward**: from the last layer up, each tuple's row of result ids is interned in the
//!    layer's unique table ([`RowTable`]), which merges equal states.
//! 3. [`canonicalize`] drops the unreachable and renumbers (I6, I7).
//!
//! An operand may read each layer through a *symbol map*: output symbol `c` reads operand
//! symbol `map[c]`, or nothing (the operand rejects) when `map[c] == DEAD`. This is how
//! `change` (output `to` reads input `from`) and relabelling work without building
//! intermediate DFAs. While any later layer is mapped, an operand in its accept-all state does
//! not accept everything any more, so accept shortcuts are only taken past the last mapped layer.

use super::build::{ScatterIds, canonicalize, hash_ids, intern_layer};
use super::{Dfa, Shape, StateId, Symbol};
use hashbrown::HashTable;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Rewrite of one layer: keeps the strings with `from` at `layer` and rewrites that symbol
/// to `to`. A list of changes applies at most one change per layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Change {
    /// Which character of the string.
    pub layer: usize,
    /// The symbol the string must have there.
    pub from: Symbol,
    /// The symbol it gets instead.
    pub to: Symbol,
}

impl Change {
    /// A change of `layer` from `from` to `to`.
    pub fn new(layer: usize, from: Symbol, to: Symbol) -> Change {
        Change { layer, from, to }
    }

    /// The change that undoes this one.
    pub fn inverse(self) -> Change {
        Change { layer: self.layer, from: self.to, to: self.from }
    }
}

/// Product states (operand tuples) explored by all products so far, for throughput figures.
static PRODUCT_STATES: AtomicU64 = AtomicU64::new(0);

/// Number of product states (tuples of operand states) explored by every product operation
/// of this process so far. Benchmarks divide it by time to get product states per second.
pub fn product_states_explored() -> u64 {
    PRODUCT_STATES.load(Ordering::Relaxed)
}

/// Marks an output symbol on which a mapped operand reads nothing (rejects).
const DEAD: u16 = u16::MAX;

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

/// Tuples expanded per parallel work unit; below this a layer is done on one thread.
const PAR_CHUNK: usize = 1 << 14;

/// The product of `operands` read through `maps`, reduced by `terminal`.
pub(crate) fn product<const K: usize, T: Terminal<K>>(
    shape: &Shape,
    operands: [&Dfa; K],
    maps: &SymbolMaps<K>,
    terminal: &T,
) -> Dfa {
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
        Decision::Reject => return Dfa::reject_all(shape),
        Decision::Accept => return Dfa::accept_all(shape),
        Decision::Continue => {}
    }

    // Forward: children[l][u][i * alphabet + c], for the tuple i of work unit u (units of
    // PAR_CHUNK tuples), is 0 (reject), 1 (accept) or 2 + index of the child tuple in layer
    // l + 1.
    let mut children: Vec<Vec<Vec<u32>>> = Vec::with_capacity(n);
    let mut tuples: Vec<[u32; K]> = vec![root];
    for l in 0..n {
        let alphabet = shape.alphabet(l);
        let layer_maps = &maps[l];
        let rows: [&[u32]; K] = std::array::from_fn(|j| operands[j].layers()[l].raw());
        let last = l + 1 == n;
        let child_exact = exact[l + 1];
        // Expand every tuple on every symbol; terminal cases are settled here, the rest are
        // marked with u32::MAX and numbered by `number_tuples` below.
        let expand = |unit: &[[u32; K]]| {
            let mut out = Vec::with_capacity(unit.len() * alphabet);
            let mut pending = Vec::new();
            for t in unit {
                for c in 0..alphabet {
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
                    match terminal.decide(&child, child_exact) {
                        Decision::Reject => out.push(0),
                        Decision::Accept => out.push(1),
                        Decision::Continue => {
                            debug_assert!(!last, "terminal cases must decide at the end of the string");
                            out.push(u32::MAX);
                            pending.push(child);
                        }
                    }
                }
            }
            (out, pending)
        };
        let units: Vec<(Vec<u32>, Vec<[u32; K]>)> = if tuples.len() >= 2 * PAR_CHUNK {
            tuples.par_chunks(PAR_CHUNK).map(expand).collect()
        } else {
            tuples.chunks(PAR_CHUNK).map(expand).collect()
        };
        let bounds: [usize; K] = std::array::from_fn(|j| operands[j].layers().get(l + 1).map_or(2, |x| x.len()));
        let pending: Vec<&[[u32; K]]> = units.iter().map(|u| u.1.as_slice()).collect();
        let (ids, next_tuples) = number_tuples(&pending, bounds);
        drop(pending);
        let mut codes: Vec<Vec<u32>> = Vec::with_capacity(units.len());
        let mut unit_ids: Vec<&[u32]> = Vec::with_capacity(units.len());
        let mut first_id = 0;
        for (out, pending) in units {
            unit_ids.push(&ids[first_id..first_id + pending.len()]);
            first_id += pending.len();
            codes.push(out);
        }
        codes.par_iter_mut().zip(unit_ids).for_each(|(out, ids)| {
            for (code, &id) in out.iter_mut().filter(|c| **c == u32::MAX).zip(ids) {
                *code = id + 2;
            }
        });
        drop(ids);
        PRODUCT_STATES.fetch_add(tuples.len() as u64, Ordering::Relaxed);
        children.push(codes);
        tuples = next_tuples;
    }
    debug_assert!(tuples.is_empty());

    // Backward: intern each tuple's row of result ids, deepest layer first.
    let mut tables: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut result_next: Vec<u32> = Vec::new();
    for l in (0..n).rev() {
        let alphabet = shape.alphabet(l);
        let units = std::mem::take(&mut children[l]);
        let count: usize = units.iter().map(|u| u.len()).sum::<usize>() / alphabet;
        let mut rows = vec![0u32; count * alphabet];
        let resolve = |(into, codes): (&mut [u32], &Vec<u32>)| {
            for (slot, &code) in into.iter_mut().zip(codes) {
                *slot = if code < 2 { code } else { result_next[code as usize - 2] };
            }
        };
        if count >= 2 * PAR_CHUNK {
            rows.par_chunks_mut(PAR_CHUNK * alphabet).zip(&units).for_each(resolve);
        } else {
            rows.chunks_mut(PAR_CHUNK * alphabet).zip(&units).for_each(resolve);
        }
        drop(units);
        let (result, table) = intern_layer(alphabet, &rows);
        drop(rows);
        tables[l] = table;
        result_next = result;
    }
    canonicalize(shape, result_next[0], tables)
}

/// Gives every distinct tuple of a layer a dense index. `pending` lists the tuples by work
/// unit; `ids[k]` is the index of the k-th tuple (counting through the units in order) in the
/// returned list of distinct tuples. Component `j` of every tuple is below `bounds[j]` (the
/// state count of operand `j`'s next layer).
///
/// One hash table as large as the layer would cost a cache miss per child. Instead the tuples
/// are grouped by their first component with a counting sort (the counts array is one
/// operand layer), and duplicates within a group are found with a direct-mapped stamp array on
/// the second component (K = 2) or a small table of the rest (K > 2), both cache-resident.
/// The sort runs over the units in parallel, and the groups split into independent ranges
/// that run on separate threads.
///
/// Measured and not adopted (2026-11-24): numbering tuples in order of first appearance (a
/// bitmap of first positions, ranked) and interning rows with ids in order of their first
/// tuple gives canonical ids with no [`canonicalize`] pass. Unions of the 6 M-state bench
/// operands then kept their time and fell from about 1,040 to 675 MB process peak, but
/// intersections and differences, whose small results make the renumbering cheap, took
/// 15–30% longer: the ranking costs about 10–15 ns per distinct tuple. Numbering in 2^11-tuple
/// hash partitions instead of by first component was slower still.
fn number_tuples<const K: usize>(pending: &[&[[u32; K]]], bounds: [usize; K]) -> (Vec<u32>, Vec<[u32; K]>) {
    let groups = bounds[0];
    let total: usize = pending.iter().map(|u| u.len()).sum();
    let parallel = total >= 2 * PAR_CHUNK;
    // Counting sort by first component, over a few batches of consecutive units (one counts
    // array per batch, each as long as a layer): batch b's tuples of group g go to positions
    // batch_starts[b][g]..; each sorted entry keeps its tuple and its position k.
    let batch_count = if parallel { 2 * rayon::current_num_threads() } else { 1 };
    let mut batches: Vec<Batch<K>> = Vec::with_capacity(batch_count);
    {
        let (mut first_unit, mut first_k, mut seen, mut k) = (0, 0, 0, 0);
        for (u, unit) in pending.iter().enumerate() {
            seen += unit.len();
            k += unit.len();
            if seen * batch_count >= total * (batches.len() + 1) || u + 1 == pending.len() {
                batches.push((first_k, &pending[first_unit..=u]));
                first_unit = u + 1;
                first_k = k;
            }
        }
    }
    let count = |&(_, units): &Batch<K>| {
        let mut counts = vec![0u32; groups];
        for t in units.iter().flat_map(|u| u.iter()) {
            counts[t[0] as usize] += 1;
        }
        counts
    };
    let mut batch_starts: Vec<Vec<u32>> =
        if parallel { batches.par_iter().map(count).collect() } else { batches.iter().map(count).collect() };
    let mut starts = vec![0u32; groups + 1];
    let mut running = 0u32;
    for g in 0..groups {
        starts[g] = running;
        for counts in batch_starts.iter_mut() {
            let n = counts[g];
            counts[g] = running;
            running += n;
        }
    }
    starts[groups] = running;
    let sorted = ScatterEntries::<K>::new(total);
    let place = |(&(first, units), fill): (&Batch<K>, &mut Vec<u32>)| {
        for (i, t) in units.iter().flat_map(|u| u.iter()).enumerate() {
            let slot = &mut fill[t[0] as usize];
            // The slots of (batch, group) pairs are disjoint ranges of `sorted`.
            sorted.set(*slot as usize, t, (first + i) as u32);
            *slot += 1;
        }
    };
    if parallel {
        batches.par_iter().zip(batch_starts.par_iter_mut()).for_each(place);
    } else {
        batches.iter().zip(batch_starts.iter_mut()).for_each(place);
    }
    drop(batch_starts);
    let (sorted_tuples, sorted_positions) = sorted.into_parts();
    // Ranges of whole groups with about equal numbers of tuples.
    // One stamp array (a layer long) per range: few ranges, balanced by count.
    let pieces = if parallel { 2 * rayon::current_num_threads() } else { 1 };
    let mut cuts = vec![0usize];
    for p in 1..pieces {
        let target = (total * p / pieces) as u32;
        let g = starts.partition_point(|&s| s < target).min(groups);
        if g > *cuts.last().expect("nonempty") {
            cuts.push(g);
        }
    }
    cuts.push(groups);
    // Number each range on its own: local ids in sorted order, and the range's tuples.
    let number = |w: &[usize]| {
        let (g0, g1) = (w[0], w[1]);
        let span = &sorted_tuples[starts[g0] as usize..starts[g1] as usize];
        let mut local = Vec::with_capacity(span.len());
        let mut distinct: Vec<[u32; K]> = Vec::new();
        let mut at = 0;
        match K {
            1 => {
                for g in g0..g1 {
                    let n = (starts[g + 1] - starts[g]) as usize;
                    if n > 0 {
                        local.extend(std::iter::repeat_n(distinct.len() as u32, n));
                        distinct.push(span[at]);
                        at += n;
                    }
                }
            }
            2 => {
                // stamp[b] = (g + 1, id) when b was seen in the current group g.
                let mut stamp: Vec<(u32, u32)> = vec![(0, 0); bounds[1]];
                for g in g0..g1 {
                    let n = (starts[g + 1] - starts[g]) as usize;
                    for t in &span[at..at + n] {
                        let entry = &mut stamp[t[1] as usize];
                        if entry.0 != g as u32 + 1 {
                            *entry = (g as u32 + 1, distinct.len() as u32);
                            distinct.push(*t);
                        }
                        local.push(entry.1);
                    }
                    at += n;
                }
            }
            _ => {
                let mut seen: HashTable<u32> = HashTable::new();
                for g in g0..g1 {
                    seen.clear();
                    let n = (starts[g + 1] - starts[g]) as usize;
                    for t in &span[at..at + n] {
                        let hash = hash_ids(&t[1..]);
                        let id = match seen.find(hash, |&i| distinct[i as usize] == *t) {
                            Some(&i) => i,
                            None => {
                                let i = distinct.len() as u32;
                                distinct.push(*t);
                                seen.insert_unique(hash, i, |&i| hash_ids(&distinct[i as usize][1..]));
                                i
                            }
                        };
                        local.push(id);
                    }
                    at += n;
                }
            }
        }
        (local, distinct)
    };
    let ranges: Vec<RangeIds<K>> =
        if parallel { cuts.par_windows(2).map(number).collect() } else { cuts.windows(2).map(number).collect() };
    // Global ids: each range's ids follow the tuples of the ranges before it.
    let mut offsets = Vec::with_capacity(ranges.len());
    let mut all = Vec::with_capacity(ranges.iter().map(|r| r.1.len()).sum());
    for (_, distinct) in &ranges {
        offsets.push(all.len() as u32);
        all.extend_from_slice(distinct);
    }
    // Every position appears once in `sorted_positions`, so each id is set once.
    let ids = ScatterIds::new(total);
    let scatter = |((w, (local, _)), &offset): ((&[usize], &RangeIds<K>), &u32)| {
        let span = &sorted_positions[starts[w[0]] as usize..starts[w[1]] as usize];
        for (&k, &id) in span.iter().zip(local) {
            ids.set(k as usize, id + offset);
        }
    };
    if parallel {
        cuts.par_windows(2).zip(&ranges).zip(&offsets).for_each(scatter);
    } else {
        cuts.windows(2).zip(&ranges).zip(&offsets).for_each(scatter);
    }
    (ids.into_vec(), all)
}

/// Consecutive work units sorted as one: the position of its first tuple, and the units.
type Batch<'a, const K: usize> = (usize, &'a [&'a [[u32; K]]]);

/// One range of groups numbered on its own: the local id of each of its tuples in sorted
/// order, and its distinct tuples.
type RangeIds<const K: usize> = (Vec<u32>, Vec<[u32; K]>);

/// Sorted (tuple, position) entries that several threads fill at disjoint indices.
struct ScatterEntries<const K: usize> {
    tuples: Vec<[AtomicU32; K]>,
    positions: ScatterIds,
}

impl<const K: usize> ScatterEntries<K> {
    fn new(len: usize) -> Self {
        ScatterEntries {
            // In place from zeroed memory, as ScatterIds does.
            tuples: vec![[0u32; K]; len].into_iter().map(|t| t.map(AtomicU32::new)).collect(),
            positions: ScatterIds::new(len),
        }
    }

    #[inline]
    fn set(&self, index: usize, tuple: &[u32; K], position: u32) {
        for (slot, &x) in self.tuples[index].iter().zip(tuple) {
            slot.store(x, Ordering::Relaxed);
        }
        self.positions.set(index, position);
    }

    fn into_parts(self) -> (Vec<[u32; K]>, Vec<u32>) {
        (self.tuples.into_iter().map(|t| t.map(AtomicU32::into_inner)).collect(), self.positions.into_vec())
    }
}

/// Symbol maps that read every operand unchanged.
pub(crate) fn identity_maps<const K: usize>(shape: &Shape) -> SymbolMaps<K> {
    (0..shape.len()).map(|_| std::array::from_fn(|_| None)).collect()
}

/// The per-layer map that realises `changes` for an operand: at a changed layer, output `to`
/// reads `from` and every other output reads nothing.
fn change_map(shape: &Shape, changes: &[Change]) -> Vec<Option<Vec<u16>>> {
    let mut maps: Vec<Option<Vec<u16>>> = vec![None; shape.len()];
    for ch in changes {
        assert!(ch.layer < shape.len(), "change {ch:?} outside the shape");
        let alphabet = shape.alphabet(ch.layer);
        assert!((ch.from as usize) < alphabet && (ch.to as usize) < alphabet, "change {ch:?} outside the alphabet");
        assert!(maps[ch.layer].is_none(), "two changes of layer {}", ch.layer);
        let mut m = vec![DEAD; alphabet];
        m[ch.to as usize] = ch.from as u16;
        maps[ch.layer] = Some(m);
    }
    maps
}

impl Dfa {
    /// Strings in both sets.
    pub fn intersection(&self, other: &Dfa) -> Dfa {
        if self.is_empty() || other.is_full() {
            return self.clone();
        }
        if other.is_empty() || self.is_full() {
            return other.clone();
        }
        product(&self.shape, [self, other], &identity_maps(&self.shape), &All)
    }

    /// Strings in either set.
    pub fn union(&self, other: &Dfa) -> Dfa {
        if self.is_full() || other.is_empty() {
            return self.clone();
        }
        if other.is_full() || self.is_empty() {
            return other.clone();
        }
        product(&self.shape, [self, other], &identity_maps(&self.shape), &Either)
    }

    /// Strings in `self` and not in `other`.
    pub fn difference(&self, other: &Dfa) -> Dfa {
        if self.is_empty() || other.is_empty() {
            return self.clone();
        }
        if other.is_full() {
            return Dfa::reject_all(&self.shape);
        }
        product(&self.shape, [self, other], &identity_maps(&self.shape), &Minus)
    }

    /// Whether every member of `self` is a member of `other`.
    pub fn is_subset(&self, other: &Dfa) -> bool {
        self.difference(other).is_empty()
    }

    /// Strings of the shape not in `self`. Linear time: swapping the two reserved ids keeps
    /// every invariant (rows stay distinct and reduced, first appearances keep their order).
    pub fn complement(&self) -> Dfa {
        let swap = |x: u32| if x < 2 { 1 - x } else { x };
        let layers = self
            .layers
            .iter()
            .map(|layer| {
                let a = layer.alphabet();
                let mut next: Vec<u32> = layer.raw().iter().map(|&x| swap(x)).collect();
                // Reserved rows keep their meaning: row 0 all-0, row 1 all-1 (I3).
                next[..a].fill(0);
                next[a..2 * a].fill(1);
                super::Layer::from_raw(a, next)
            })
            .collect();
        Dfa::from_parts(self.shape.clone(), StateId(swap(self.initial.0)), layers)
    }

    /// `change(S)`: the members with `from` at each changed layer, with that symbol rewritten
    /// to `to`. Linear in the size of `self`; the result is re-minimised in the same pass.
    ///
    /// # Panics
    /// If two changes name the same layer or a change lies outside the shape.
    pub fn change(&self, changes: &[Change]) -> Dfa {
        self.image(&Dfa::accept_all(&self.shape), changes, &Dfa::accept_all(&self.shape))
    }

    /// `change⁻¹(S)`: the strings whose change lies in `self`.
    pub fn change_inverse(&self, changes: &[Change]) -> Dfa {
        let inverse: Vec<Change> = changes.iter().map(|c| c.inverse()).collect();
        self.change(&inverse)
    }

    /// The fused move image `post ∩ change(self ∩ pre)` in one pass over the three operands.
    ///
    /// The backward image of a move is `pre ∩ change⁻¹(S ∩ post)`, which is
    /// `S.image(post, inverse changes, pre)`.
    pub fn image(&self, pre: &Dfa, changes: &[Change], post: &Dfa) -> Dfa {
        let shape = &self.shape;
        if self.is_empty() || pre.is_empty() || post.is_empty() {
            return Dfa::reject_all(shape);
        }
        let cmap = change_map(shape, changes);
        let mapped = |l: usize| cmap[l].clone();
        match (pre.is_full(), post.is_full()) {
            (true, true) => {
                let maps: SymbolMaps<1> = (0..shape.len()).map(|l| [mapped(l)]).collect();
                product(shape, [self], &maps, &All)
            }
            (false, true) => {
                let maps: SymbolMaps<2> = (0..shape.len()).map(|l| [mapped(l), mapped(l)]).collect();
                product(shape, [self, pre], &maps, &All)
            }
            (true, false) => {
                let maps: SymbolMaps<2> = (0..shape.len()).map(|l| [mapped(l), None]).collect();
                product(shape, [self, post], &maps, &All)
            }
            (false, false) => {
                let maps: SymbolMaps<3> = (0..shape.len()).map(|l| [mapped(l), mapped(l), None]).collect();
                product(shape, [self, pre, post], &maps, &All)
            }
        }
    }

    /// Relabel symbols: a member `s` becomes the string with `perm[l][s[l]]` at each layer `l`
    /// (`None` leaves a layer as it is). Each `perm[l]` must be a permutation of the layer's
    /// alphabet. One pass, like `change`.
    ///
    /// # Panics
    /// If a map is not a permutation of its layer's alphabet.
    pub fn relabel(&self, perm: &[Option<Vec<Symbol>>]) -> Dfa {
        let shape = &self.shape;
        assert_eq!(perm.len(), shape.len());
        let maps: SymbolMaps<1> = perm
            .iter()
            .enumerate()
            .map(|(l, p)| {
                [p.as_ref().map(|p| {
                    let a = shape.alphabet(l);
                    assert_eq!(p.len(), a, "layer {l}: map must cover the alphabet");
                    let mut inverse = vec![DEAD; a];
                    for (input, &output) in p.iter().enumerate() {
                        assert!(
                            (output as usize) < a && inverse[output as usize] == DEAD,
                            "layer {l}: not a permutation"
                        );
                        inverse[output as usize] = input as u16;
                    }
                    inverse
                })]
            })
            .collect();
        product(shape, [self], &maps, &All)
    }

    /// The strings whose image under a symbol map is in `self`: `x` is a member when the
    /// string with `map[l][x[l]]` at each layer `l` is in `self` (`None` leaves a layer as it
    /// is). The map need not be a permutation; the result is built in one pass, like `change`.
    ///
    /// # Panics
    /// If a map does not cover its layer's alphabet or leaves it.
    pub fn preimage_symbols(&self, map: &[Option<Vec<Symbol>>]) -> Dfa {
        let shape = &self.shape;
        assert_eq!(map.len(), shape.len());
        let maps: SymbolMaps<1> = map
            .iter()
            .enumerate()
            .map(|(l, m)| {
                [m.as_ref().map(|m| {
                    let a = shape.alphabet(l);
                    assert_eq!(m.len(), a, "layer {l}: map must cover the alphabet");
                    assert!(m.iter().all(|&c| (c as usize) < a), "layer {l}: map leaves the alphabet");
                    m.iter().map(|&c| u16::from(c)).collect()
                })]
            })
            .collect();
        product(shape, [self], &maps, &All)
    }

    /// Swap symbols `a` and `b` in every layer (e.g. the two players' pieces).
    pub fn swap_symbols(&self, a: Symbol, b: Symbol) -> Dfa {
        let perm: Vec<Option<Vec<Symbol>>> = (0..self.shape.len())
            .map(|l| {
                let n = self.shape.alphabet(l);
                ((a as usize) < n && (b as usize) < n).then(|| {
                    (0..n as u16)
                        .map(|s| s as Symbol)
                        .map(|s| {
                            if s == a {
                                b
                            } else if s == b {
                                a
                            } else {
                                s
                            }
                        })
                        .collect()
                })
            })
            .collect();
        self.relabel(&perm)
    }
}
