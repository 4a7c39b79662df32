//! Bottom-up construction: per-layer unique tables of rows, then canonical renumbering.
//!
//! Every operation ends here. It produces rows for result states bottom-up (children before
//! parents), interns each row in its layer's [`RowTable`] (which reduces all-reject and
//! all-accept rows to the reserved ids and merges equal rows, giving I4 and I5), and finally
//! calls [`canonicalize`], which drops states the initial state cannot reach (I6) and renumbers
//! in first-appearance order (I7).

use super::{Dfa, Layer, Shape, StateId, Symbol};
use hashbrown::HashTable;

/// Hash of a short run of state ids (a row, a tuple, a subset). Every table of the engine is
/// keyed by such runs, so this is on the hot path of every operation: it mixes two ids per
/// 64-bit folded multiply (the wyhash/foldhash primitive) instead of a general byte hasher.
/// Both halves of the result are well mixed, as hashbrown takes the bucket from the low bits
/// and the tag from the top seven.
#[inline]
pub(crate) fn hash_ids(ids: &[u32]) -> u64 {
    const K0: u64 = 0x243f_6a88_85a3_08d3;
    const K1: u64 = 0x1319_8a2e_0370_7344;
    #[inline(always)]
    fn fold(a: u64, b: u64) -> u64 {
        let p = u128::from(a) * u128::from(b);
        (p as u64) ^ ((p >> 64) as u64)
    }
    let mut h = K0 ^ ids.len() as u64;
    let mut pairs = ids.chunks_exact(2);
    for pair in &mut pairs {
        let x = u64::from(pair[0]) | (u64::from(pair[1]) << 32);
        h = fold(h ^ x, K1);
    }
    if let [last] = pairs.remainder() {
        h = fold(h ^ u64::from(*last), K1);
    }
    fold(h, K0)
}

/// Element-wise equality of two id runs; short runs compare faster inline than through
/// `memcmp`.
#[inline]
pub(crate) fn ids_equal(a: &[u32], b: &[u32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Calls `$f::<N>(..)` with the constant `N` equal to `$len` for rows of 1 to 8 ids, and
/// `$f::<0>(..)` (any length) for longer ones.
///
/// Rows are short, an alphabet's worth, and a copy whose length is known only at run time
/// becomes a call to `memmove`, which costs more than the copy itself; fixed lengths compile
/// to a few moves.
macro_rules! by_row_length {
    ($len:expr, $f:ident($($arg:expr),*)) => {
        match $len {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*),
            5 => $f::<5>($($arg),*),
            6 => $f::<6>($($arg),*),
            7 => $f::<7>($($arg),*),
            8 => $f::<8>($($arg),*),
            _ => $f::<0>($($arg),*),
        }
    };
}

#[inline(always)]
fn copy_fixed<const N: usize>(into: &mut [u32], from: &[u32]) {
    if N == 0 {
        into.copy_from_slice(from);
    } else {
        let into: &mut [u32; N] = into.try_into().expect("a row of N ids");
        *into = from.try_into().expect("a row of N ids");
    }
}

#[inline(always)]
fn push_fixed<const N: usize>(to: &mut Vec<u32>, from: &[u32]) {
    if N == 0 {
        to.extend_from_slice(from);
    } else {
        let from: &[u32; N] = from.try_into().expect("a row of N ids");
        to.extend_from_slice(from);
    }
}

/// Copies a row (or tuple) of ids (see [`by_row_length`]).
#[inline(always)]
pub(crate) fn copy_ids(into: &mut [u32], from: &[u32]) {
    by_row_length!(into.len(), copy_fixed(into, from))
}

/// Appends a row of ids to `to` (see [`by_row_length`]).
#[inline(always)]
pub(crate) fn push_ids(to: &mut Vec<u32>, from: &[u32]) {
    by_row_length!(from.len(), push_fixed(to, from))
}

/// Copies the row of `len` ids at `from` down to `to` within `ids` (the two do not overlap).
#[inline(always)]
fn move_ids_down(ids: &mut [u32], from: usize, to: usize, len: usize) {
    debug_assert!(to + len <= from, "rows move down and do not overlap");
    let (head, tail) = ids.split_at_mut(from);
    copy_ids(&mut head[to..to + len], &tail[..len]);
}

/// A hash-table entry of [`RowTable`] and [`SliceTable`]: the low 32 bits of the key's
/// [`hash_ids`] above the key's id. Keeping the hash lets the table grow without hashing every
/// key again (a fifth of an image's time went to that), and a probe rejects a different key
/// without reading it.
type Entry = u64;

#[inline]
fn entry(hash: u64, id: u32) -> Entry {
    (hash << 32) | u64::from(id)
}

/// The hash the table files an entry under: its stored 32 bits in both halves (hashbrown takes
/// the bucket from the low bits and the tag from the top seven). Sharding by the top bits of
/// `hash_ids` (see [`intern_layer`]) leaves these bits free.
#[inline]
fn entry_hash(e: Entry) -> u64 {
    (e >> 32) | (e & 0xffff_ffff_0000_0000)
}

#[inline]
fn table_hash(hash: u64) -> u64 {
    entry_hash(entry(hash, 0))
}

#[inline]
fn entry_matches(e: Entry, hash: u64) -> bool {
    (e >> 32) == (hash & 0xffff_ffff)
}

/// Whether entry `e` of a table whose rows are `rows` (flat, `alphabet` ids each) is `row`,
/// whose hash is `hash`.
#[inline]
fn holds(rows: &[u32], alphabet: usize, e: Entry, hash: u64, row: &[u32]) -> bool {
    let id = e as u32 as usize;
    entry_matches(e, hash) && ids_equal(&rows[id * alphabet..(id + 1) * alphabet], row)
}

/// The reserved id (0 or 1) of an all-reject or all-accept row (I4), or `None`.
#[inline]
fn reserved_id(row: &[u32]) -> Option<u32> {
    let first = row[0];
    (first < 2 && row.iter().all(|&x| x == first)).then_some(first)
}

/// A layer's unique table: rows of `alphabet` ids, stored flat, looked up by content.
///
/// Rows 0 and 1 are the reserved all-reject and all-accept rows (I3).
pub(crate) struct RowTable {
    alphabet: usize,
    rows: Vec<u32>,
    table: HashTable<Entry>,
}

impl RowTable {
    pub(crate) fn new(alphabet: usize) -> RowTable {
        let Layer { next, .. } = Layer::reserved_only(alphabet);
        RowTable { alphabet, rows: next, table: HashTable::new() }
    }

    pub(crate) fn with_capacity(alphabet: usize, states: usize) -> RowTable {
        let mut t = RowTable::new(alphabet);
        t.rows.reserve(states * alphabet);
        t.table.reserve(states, |&e| entry_hash(e));
        t
    }

    /// The id of the state with this row, creating it if new. All-0 and all-1 rows are the
    /// reserved ids (I4).
    pub(crate) fn intern(&mut self, row: &[u32]) -> u32 {
        self.intern_hashed(row, hash_ids(row))
    }

    /// [`RowTable::intern`] given `hash_ids(row)`.
    pub(crate) fn intern_hashed(&mut self, row: &[u32], hash: u64) -> u32 {
        debug_assert_eq!(row.len(), self.alphabet);
        debug_assert_eq!(hash, hash_ids(row));
        if let Some(id) = reserved_id(row) {
            return id;
        }
        let (alphabet, rows) = (self.alphabet, &self.rows);
        // One probe sequence for both the lookup and the insertion (most rows of a large
        // product are new).
        match self.table.entry(table_hash(hash), |&e| holds(rows, alphabet, e, hash, row), |&e| entry_hash(e)) {
            hashbrown::hash_table::Entry::Occupied(found) => *found.get() as u32,
            hashbrown::hash_table::Entry::Vacant(slot) => {
                let id = u32::try_from(self.rows.len() / alphabet).expect("more than 2^32 states in one layer");
                push_ids(&mut self.rows, row);
                slot.insert(entry(hash, id));
                id
            }
        }
    }

    /// The id of the state with this row, if the table has it (all-0 and all-1 rows are the
    /// reserved ids). Read-only, so many threads may look up at once.
    pub(crate) fn lookup(&self, row: &[u32]) -> Option<u32> {
        debug_assert_eq!(row.len(), self.alphabet);
        if let Some(id) = reserved_id(row) {
            return Some(id);
        }
        let hash = hash_ids(row);
        self.table.find(table_hash(hash), |&e| holds(&self.rows, self.alphabet, e, hash, row)).map(|&e| e as u32)
    }

    pub(crate) fn len(&self) -> usize {
        self.rows.len() / self.alphabet
    }

    /// A table holding the states of `layer` (a layer of a canonical DFA) under their own ids,
    /// so that results can point into that DFA's structure directly.
    pub(crate) fn from_layer(layer: &Layer) -> RowTable {
        let a = layer.alphabet();
        let mut t = RowTable::with_capacity(a, layer.len());
        for s in 2..layer.len() {
            let id = t.intern(&layer.raw()[s * a..(s + 1) * a]);
            debug_assert_eq!(id as usize, s, "rows of a canonical layer are distinct (I5)");
        }
        t
    }

    pub(crate) fn rows(&self) -> &[u32] {
        &self.rows
    }

    pub(crate) fn into_rows(self) -> Vec<u32> {
        self.rows
    }
}

/// A vector of ids that several threads fill at disjoint indices (parallel scatters, where
/// each index is computed rather than split off as a sub-slice). Relaxed atomic stores are
/// plain stores on the targets we run on; the crate forbids `unsafe`.
///
/// Conversions to and from `Vec<u32>` are written as `into_iter().map().collect()`, which the
/// standard library performs in place (same size and alignment): no second buffer, no page
/// faults, and the identity map compiles to little or nothing. The parallel collects used
/// before copied every scatter buffer once more: in a perf profile of the 6 M-state bench
/// union, creating and converting these buffers took about 9% of the samples.
pub(crate) struct ScatterIds(Vec<std::sync::atomic::AtomicU32>);

impl ScatterIds {
    pub(crate) fn new(len: usize) -> ScatterIds {
        ScatterIds::from_vec(vec![0; len])
    }

    pub(crate) fn from_vec(values: Vec<u32>) -> ScatterIds {
        ScatterIds(values.into_iter().map(std::sync::atomic::AtomicU32::new).collect())
    }

    #[inline]
    pub(crate) fn set(&self, index: usize, value: u32) {
        self.0[index].store(value, std::sync::atomic::Ordering::Relaxed);
    }

    pub(crate) fn into_vec(self) -> Vec<u32> {
        self.0.into_iter().map(std::sync::atomic::AtomicU32::into_inner).collect()
    }
}

/// Rows below this count are interned on one thread, into one table.
const PAR_ROWS: usize = 1 << 15;

/// Rows per hash partition of a large layer: a partition's table stays in the L2 cache, where
/// one table for the whole layer would miss the cache on most probes.
const ROWS_PER_PARTITION: usize = 1 << 13;

/// Interns the rows of `layer` as one layer: returns the id of each row and the layer's
/// table of distinct rows (reserved rows first, I3–I5), exactly as [`RowTable`] would: new
/// rows get ids 2, 3, … in order of their first occurrence.
///
/// `layer` holds two placeholder rows and then the rows to intern, each `alphabet` ids: the
/// table is built in the same buffer, where the reserved rows take the placeholders' place
/// and the distinct rows (the first occurrences, in order) move down or stay, never up.
/// (Built at the front of the buffer and then shifted up by the two reserved rows, the
/// one-thread bench union's median was 2.13 s against 2.08 s, six alternating runs of each
/// build, 2026-11-24.)
///
/// Large layers are interned in hash partitions small enough to stay cache-resident, on all
/// threads (and on one): equal rows meet in one partition, each partition finds the first
/// occurrence of every row it holds, and ids are then handed out in row order by a walk that
/// reads each partition's answers as a sequential stream.
///
/// Measured on the 6 M-state bench union (2026-11-24): one table for the whole layer missed
/// the cache on most of its 24 M probes; partitions alone saved little while each partition
/// wrote its answers back at random row positions (a quarter of a second of scattered
/// stores), and the streamed read-back made the interning about 25% faster. Ids in row order
/// (rather than partition-major, as an earlier sharded version gave) keep the locality that
/// [`canonicalize`]'s gathers rely on: partition-major ids doubled its time.
///
/// A partition's entries hold a row's index and hash, not the row: rows are compared where
/// they lie, and only when their hashes agree (nearly always because they are equal). Against
/// entries that carried a copy of the row, and partitions that kept the distinct rows
/// (2026-11-24, alternating in one process, best of six): the one-thread bench union 5%
/// faster and the two-thread one 8%, intersections and differences no slower. A single table
/// of the same kind for the whole layer, on one thread, made the union 14% slower.
///
/// Repeated rows are matched by their hashes first (up to [`MATCH_BITS`] bits) and compared
/// with their first occurrences afterwards, in the pass that resolves repeats, which reads
/// them in row order; a partition with a wrong match is done again, comparing rows. Comparing
/// at every agreeing probe read two rows far apart, and both reads missed the cache: on the
/// bench difference (24 M product rows, 13 M of them repeats) the partition step took 0.42 s
/// against the union's 0.14 s. Phase timers, two alternating rounds, one thread
/// (2026-11-24): the difference's interning 0.69–0.79 s → 0.56–0.57 s and the whole
/// difference 2.04–2.12 s → 1.86–1.90 s; the union's interning 0.02–0.04 s slower (the
/// check of its 0.37 M repeats), its total within the noise. (An earlier four-round
/// comparison of whole runs had the union 2–13% slower, which the phase timers did not
/// confirm: the machine was in a noisy phase.) Measured and not kept, alternating with the
/// version before, best of three each:
/// - comparing the matches in a separate pass with no branches, so that the reads overlap:
///   one-thread differences 1.96–2.06 s against 1.86–1.92 s (they overlap already);
/// - matching by the low 32 hash bits: a union's 24 M rows hold about ten pairs of different
///   rows whose hashes agree there within a partition (a birthday bound, not a weak hash).
///   Redoing each such layer exactly (in one table, or all partitions again) made unions
///   4–21% slower; redoing only the partitions with a wrong match, unions 3% slower on one
///   thread and 8% on two, as the nine largest layers of the union each had one. With the
///   row index and 43 or more hash bits packed in each entry, no partition of the bench
///   operations is done again.
pub(crate) fn intern_layer(alphabet: usize, layer: Vec<u32>) -> (Vec<u32>, Vec<u32>) {
    intern_layer_matching(alphabet, layer, MATCH_BITS)
}

/// Hash bits that must agree for two rows to be taken as equal until they are compared (see
/// [`first_occurrences`]).
const MATCH_BITS: u32 = 48;

/// [`intern_layer`], matching rows by up to `match_bits` bits of their hashes until they are
/// compared (tests use few, to exercise the partitions that must be done again).
fn intern_layer_matching(alphabet: usize, mut layer: Vec<u32>, match_bits: u32) -> (Vec<u32>, Vec<u32>) {
    use rayon::prelude::*;
    let reserved = 2 * alphabet;
    assert!(layer.len() >= reserved, "the layer starts with two placeholder rows");
    let count = (layer.len() - reserved) / alphabet;
    debug_assert_eq!(layer.len(), reserved + count * alphabet, "whole rows");
    if count < PAR_ROWS {
        let mut table = RowTable::with_capacity(alphabet, count + 2);
        let ids = layer[reserved..].chunks_exact(alphabet).map(|row| table.intern(row)).collect();
        return (ids, table.into_rows());
    }
    let parts = count.div_ceil(ROWS_PER_PARTITION).next_power_of_two().clamp(2, 1 << 14);
    // The top bits of the hash choose the partition; the table inside uses the low ones.
    let part_shift = 64 - parts.trailing_zeros();
    let threads = rayon::current_num_threads();
    let range_len = count.div_ceil(if threads == 1 { 1 } else { 4 * threads });
    let ranges = count.div_ceil(range_len);
    // Entries of a partition list: the row's index in the low `index_bits` bits, and as many
    // bits of its hash as fit above them (43 for a layer of 2 M rows).
    let index_bits = usize::BITS - count.leading_zeros();
    let hash_bits = u64::BITS - index_bits;
    // The partition of each row, or a marker for the reserved rows.
    const REJECT_ROW: u16 = u16::MAX;
    const ACCEPT_ROW: u16 = u16::MAX - 1;
    let mut part_of = vec![0u16; count];
    let rows = &layer[reserved..];
    let row = |t: usize| &rows[t * alphabet..(t + 1) * alphabet];
    let lists: Vec<Vec<Vec<u64>>> = part_of
        .par_chunks_mut(range_len)
        .enumerate()
        .map(|(r, marks)| {
            let expected = marks.len() / parts * 9 / 8 + 1;
            let mut lists: Vec<Vec<u64>> = (0..parts).map(|_| Vec::with_capacity(expected)).collect();
            for (i, mark) in marks.iter_mut().enumerate() {
                let t = r * range_len + i;
                let x = row(t);
                *mark = match reserved_id(x) {
                    Some(0) => REJECT_ROW,
                    Some(_) => ACCEPT_ROW,
                    None => {
                        let hash = hash_ids(x);
                        let p = (hash >> part_shift) as usize;
                        let list = &mut lists[p];
                        list.push((hash << index_bits) | t as u64);
                        p as u16
                    }
                };
            }
            lists
        })
        .collect();
    // Each partition meets its rows in row order (ranges in order, rows in order within a
    // range), so the first it sees of a row is the row's first occurrence. Per partition: the
    // first occurrence of each of its rows, in its order, and how many first occurrences
    // each range holds. Rows whose hashes agree are taken to be equal here (comparing them
    // would read two rows far apart); each such match is checked below, where the repeats
    // are read in row order.
    let mut firsts: Vec<(Vec<u32>, Vec<u32>)> = (0..parts)
        .into_par_iter()
        .map(|p| {
            let size: usize = lists.iter().map(|l| l[p].len()).sum();
            let by_range =
                lists.iter().map(|l| l[p].iter().map(|&e| ((e & ((1 << index_bits) - 1)) as u32, e >> index_bits)));
            first_occurrences(by_range, size, match_bits.min(hash_bits), |_, _| true)
        })
        .collect();
    // Where each range's entries start in each partition's list.
    let mut entry_starts: Vec<Vec<u32>> = Vec::with_capacity(ranges);
    {
        let mut at = vec![0u32; parts];
        for l in &lists {
            entry_starts.push(at.clone());
            for (a, list) in at.iter_mut().zip(l) {
                *a += list.len() as u32;
            }
        }
    }
    drop(lists);
    const REPEAT: u32 = 1 << 31;
    debug_assert!(count <= REPEAT as usize, "row indices must leave the REPEAT bit free");
    let mut ids = vec![0u32; count];
    let (bases, next) = loop {
        // Ids in row order: each range's first occurrences follow those of the ranges before.
        let mut bases = Vec::with_capacity(ranges);
        let mut next = 2u32;
        for r in 0..ranges {
            bases.push(next);
            next += firsts.iter().map(|f| f.1[r]).sum::<u32>();
        }
        // Read back in row order: a row's entry in its partition's list is that partition's
        // next one, so each range walks its rows with one cursor per partition (sequential
        // streams, no scattered writes). A repeated row holds REPEAT | (its first occurrence)
        // until it takes that row's id afterwards.
        let repeats: usize = ids
            .par_chunks_mut(range_len)
            .zip(part_of.par_chunks(range_len))
            .zip(entry_starts.clone().into_par_iter())
            .zip(&bases)
            .enumerate()
            .map(|(r, (((ids, marks), mut cursor), &base))| {
                let (mut id, mut repeats) = (base, 0);
                for (i, (slot, &mark)) in ids.iter_mut().zip(marks).enumerate() {
                    *slot = match mark {
                        REJECT_ROW => 0,
                        ACCEPT_ROW => 1,
                        p => {
                            let at = &mut cursor[p as usize];
                            let first = firsts[p as usize].0[*at as usize];
                            *at += 1;
                            if first as usize == r * range_len + i {
                                id += 1;
                                id - 1
                            } else {
                                repeats += 1;
                                REPEAT | first
                            }
                        }
                    };
                }
                repeats
            })
            .sum();
        if repeats == 0 {
            break (bases, next);
        }
        // A repeat's first occurrence is never a repeat itself. Each repeat is compared with
        // it here, its own row read in order; a wrong match (two different rows whose matched
        // hash bits agree: with 43 bits, about once in a hundred products the size of the
        // bench union, a birthday bound) sends its partition through again, comparing rows,
        // and then the read-back.
        let wrong = std::sync::Mutex::new(Vec::new());
        let resolved: Vec<u32> = ids
            .par_iter()
            .enumerate()
            .map(|(t, &id)| {
                if id & REPEAT == 0 {
                    return id;
                }
                let first = (id & !REPEAT) as usize;
                if !ids_equal(row(first), row(t)) {
                    wrong.lock().expect("no panics while held").push(part_of[t] as usize);
                }
                ids[first]
            })
            .collect();
        let mut wrong = wrong.into_inner().expect("no panics while held");
        if wrong.is_empty() {
            ids = resolved;
            break (bases, next);
        }
        wrong.sort_unstable();
        wrong.dedup();
        // The entries of those partitions, range by range, found again in one walk over the
        // partition marks.
        let mut redo_of = vec![usize::MAX; parts];
        for (k, &p) in wrong.iter().enumerate() {
            redo_of[p] = k;
        }
        let mut entries: Vec<Vec<Vec<(u32, u64)>>> = vec![vec![Vec::new(); ranges]; wrong.len()];
        for (t, &mark) in part_of.iter().enumerate() {
            if let Some(&k) = redo_of.get(mark as usize).filter(|&&k| k != usize::MAX) {
                entries[k][t / range_len].push((t as u32, hash_ids(row(t))));
            }
        }
        for (p, by_range) in wrong.into_iter().zip(entries) {
            let size = by_range.iter().map(Vec::len).sum();
            let by_range = by_range.into_iter().map(Vec::into_iter);
            firsts[p] = first_occurrences(by_range, size, match_bits, |first, t| ids_equal(row(first), row(t)));
        }
    };
    drop(firsts);
    drop(part_of);
    // The distinct rows in id order, in place of the rows: each range moves its first
    // occurrences to the front of its own rows (in parallel), and the ranges' blocks then move
    // down into place. Row `t` lies at row `t + 2` of the buffer and its id is at most
    // `t + 2`, so rows only move down, and a block never lands on rows not yet moved.
    layer[reserved..].par_chunks_mut(range_len * alphabet).zip(ids.par_chunks(range_len)).zip(&bases).for_each(
        |((own, ids), &base)| {
            let mut new = base;
            for (i, &id) in ids.iter().enumerate() {
                if id == new {
                    let to = (new - base) as usize;
                    if to != i {
                        move_ids_down(own, i * alphabet, to * alphabet, alphabet);
                    }
                    new += 1;
                }
            }
        },
    );
    for r in 1..ranges {
        let end = if r + 1 < ranges { bases[r + 1] } else { next };
        let len = (end - bases[r]) as usize * alphabet;
        let (from, to) = (reserved + r * range_len * alphabet, bases[r] as usize * alphabet);
        // Without repeats so far every block is in place already (a union's often are).
        if from != to {
            layer.copy_within(from..from + len, to);
        }
    }
    layer.truncate(next as usize * alphabet);
    layer[..reserved].copy_from_slice(&Layer::reserved_only(alphabet).next);
    // A small table gives the rest of a large buffer back (an intersection's tables are
    // often far smaller than the product's layers).
    layer.shrink_to_fit();
    (ids, layer)
}

/// The partition step of [`intern_layer`]: for a partition's entries (a row's index and its
/// hash), given range by range in row order, the first occurrence of each entry's row and how
/// many first occurrences each range holds. `size` is the number of entries. Two entries are
/// the same row when their hashes agree on the low `match_bits` bits (fewer when the local
/// indices need more than 16 bits) and `same(first, t)` says so.
///
/// Open addressing on the low hash bits (the partition took the top ones); a slot holds the
/// matched hash bits above the local index of a distinct row.
fn first_occurrences<R: Iterator<Item = (u32, u64)>>(
    by_range: impl Iterator<Item = R>,
    size: usize,
    match_bits: u32,
    same: impl Fn(usize, usize) -> bool,
) -> (Vec<u32>, Vec<u32>) {
    // Local indices stay below 2^index_bits - 1, so no slot is all ones (EMPTY).
    let index_bits = (usize::BITS - size.leading_zeros()).max(16);
    let tag_mask = (1u64 << match_bits.min(64 - index_bits)) - 1;
    const EMPTY: u64 = u64::MAX;
    let mask = (2 * size).next_power_of_two().max(16) - 1;
    let mut slots = vec![EMPTY; mask + 1];
    let mut first_index: Vec<u32> = Vec::with_capacity(size);
    let mut first_of: Vec<u32> = Vec::with_capacity(size);
    let mut new_in_range = Vec::new();
    for entries in by_range {
        let before = first_index.len();
        for (t, hash) in entries {
            let tag = hash & tag_mask;
            let mut i = hash as usize & mask;
            first_of.push(loop {
                let e = slots[i];
                if e == EMPTY {
                    slots[i] = (tag << index_bits) | first_index.len() as u64;
                    first_index.push(t);
                    break t;
                }
                let first = first_index[(e & ((1 << index_bits) - 1)) as usize];
                if e >> index_bits == tag && same(first as usize, t as usize) {
                    break first;
                }
                i = (i + 1) & mask;
            });
        }
        new_in_range.push((first_index.len() - before) as u32);
    }
    (first_of, new_in_range)
}

/// Variable-length keys (sets of states, product tuples) of one layer, stored flat and looked
/// up by content; each gets a dense index in insertion order.
pub(crate) struct SliceTable {
    members: Vec<u32>,
    starts: Vec<usize>,
    table: HashTable<Entry>,
}

impl SliceTable {
    pub(crate) fn new() -> SliceTable {
        SliceTable { members: Vec::new(), starts: vec![0], table: HashTable::new() }
    }

    pub(crate) fn get(&self, i: u32) -> &[u32] {
        &self.members[self.starts[i as usize]..self.starts[i as usize + 1]]
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Total length of the stored keys.
    pub(crate) fn member_count(&self) -> usize {
        self.members.len()
    }

    pub(crate) fn intern(&mut self, set: &[u32]) -> u32 {
        self.intern_hashed(set, hash_ids(set))
    }

    /// [`SliceTable::intern`] given `hash_ids(set)`.
    pub(crate) fn intern_hashed(&mut self, set: &[u32], hash: u64) -> u32 {
        debug_assert_eq!(hash, hash_ids(set));
        let (members, starts) = (&self.members, &self.starts);
        let slice = |i: u32| &members[starts[i as usize]..starts[i as usize + 1]];
        if let Some(&e) =
            self.table.find(table_hash(hash), |&e| entry_matches(e, hash) && ids_equal(slice(e as u32), set))
        {
            return e as u32;
        }
        let i = self.len() as u32;
        self.members.extend_from_slice(set);
        self.starts.push(self.members.len());
        self.table.insert_unique(table_hash(hash), entry(hash, i), |&e| entry_hash(e));
        i
    }
}

/// Child-code tag of an explored state of the next layer (`TUPLE | index`); codes without it
/// are state ids already in the next layer's table (0, 1, or a shared/preloaded state).
pub(crate) const TUPLE: u32 = 1 << 31;

/// The bottom-up half of a subset-style exploration: `children[l][t * alphabet + c]` is the
/// child code of explored state `t` of layer `l` on symbol `c`. Interns every explored state's
/// row into `tables` (which may already hold states that codes point to directly), deepest
/// layer first, and returns the canonical DFA of explored state 0 of layer 0.
pub(crate) fn intern_explored(shape: &Shape, tables: Vec<RowTable>, mut children: Vec<Vec<u32>>) -> Dfa {
    intern_layers(shape, tables, |l| std::mem::take(&mut children[l]))
}

/// [`intern_explored`] for child codes kept packed ([`PackedCodes`]).
pub(crate) fn intern_packed(shape: &Shape, tables: Vec<RowTable>, children: Vec<PackedCodes>) -> Dfa {
    let mut children: Vec<Option<PackedCodes>> = children.into_iter().map(Some).collect();
    intern_layers(shape, tables, |l| children[l].take().map_or_else(Vec::new, PackedCodes::unpack))
}

/// The interning loop of [`intern_explored`]; `take_layer(l)` hands over layer `l`'s codes
/// (asked for once each, deepest first).
fn intern_layers(shape: &Shape, tables: Vec<RowTable>, mut take_layer: impl FnMut(usize) -> Vec<u32>) -> Dfa {
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
                }
            }
        };
        if rows.len() >= PAR_ROWS * alphabet {
            rows.par_chunks_mut(PAR_ROWS * alphabet).for_each(resolve);
        } else {
            resolve(&mut rows);
        }
        let table = tables[l].take().expect("each layer is interned once");
        let (ids, table_rows) = intern_into(table, alphabet, &rows);
        layers[l] = table_rows;
        result_next = ids;
    }
    canonicalize(shape, result_next[0], layers)
}

/// Interns `rows` (flat, `alphabet` ids each) into `table`, which may already hold states that
/// the rows' ids point to, and returns the id of each row and the table's rows. The table is
/// used up: large layers are interned on all threads without updating its index. Every row
/// is first looked up in the existing states (read-only, in parallel); the rows not found are
/// interned among themselves by [`intern_layer`] (on all threads), and their states follow
/// the table's. Ids are not in first-occurrence order; [`canonicalize`] renumbers.
fn intern_into(mut table: RowTable, alphabet: usize, rows: &[u32]) -> (Vec<u32>, Vec<u32>) {
    use rayon::prelude::*;
    let count = rows.len() / alphabet;
    if count < PAR_ROWS || rayon::current_num_threads() == 1 {
        let ids = rows.chunks_exact(alphabet).map(|row| table.intern(row)).collect();
        return (ids, table.into_rows());
    }
    const MISSING: u32 = u32::MAX;
    let found: Vec<u32> = rows.par_chunks_exact(alphabet).map(|row| table.lookup(row).unwrap_or(MISSING)).collect();
    let missing: Vec<u32> = (0..count as u32).into_par_iter().filter(|&t| found[t as usize] == MISSING).collect();
    if missing.is_empty() {
        return (found, table.into_rows());
    }
    // After two placeholder rows, as `intern_layer` builds its table in place.
    let mut gathered: Vec<u32> = vec![0; 2 * alphabet];
    gathered.par_extend(
        missing.par_iter().flat_map_iter(|&t| rows[t as usize * alphabet..(t as usize + 1) * alphabet].iter().copied()),
    );
    let (new_ids, new_rows) = intern_layer(alphabet, gathered);
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
    (ids.into_vec(), table_rows)
}

/// One layer's child codes, kept while the deeper layers are explored. Most codes of a
/// large alphabet are 0 (reject: an Ostle square has 9 symbols, and few fit a position), and
/// the codes of all layers are most of an image's memory, so when that saves a quarter or
/// more they are stored as a bit mask of the non-zero symbols per state plus the non-zero
/// codes.
pub(crate) enum PackedCodes {
    Raw(Vec<u32>),
    Sparse { alphabet: usize, masks: Vec<u16>, nonzero: Vec<u32> },
}

impl PackedCodes {
    pub(crate) fn pack(alphabet: usize, codes: Vec<u32>) -> PackedCodes {
        // Small layers stay raw: they do not matter to memory, and packing them cost the
        // small images of Ostle 4x4 about 5%.
        if codes.len() < 1 << 20 {
            return PackedCodes::Raw(codes);
        }
        Self::pack_any(alphabet, codes)
    }

    /// [`PackedCodes::pack`] without the size floor.
    fn pack_any(alphabet: usize, codes: Vec<u32>) -> PackedCodes {
        let nonzero_count = codes.iter().filter(|&&c| c != 0).count();
        let states = codes.len() / alphabet.max(1);
        // Packed: 2 bytes per state and 4 per non-zero code, against 4 per code.
        if alphabet > 16 || 2 * states + 4 * nonzero_count > 3 * codes.len() {
            return PackedCodes::Raw(codes);
        }
        let mut masks = Vec::with_capacity(states);
        let mut nonzero = Vec::with_capacity(nonzero_count);
        for row in codes.chunks_exact(alphabet) {
            let mut mask = 0u16;
            for (c, &code) in row.iter().enumerate() {
                if code != 0 {
                    mask |= 1 << c;
                    nonzero.push(code);
                }
            }
            masks.push(mask);
        }
        PackedCodes::Sparse { alphabet, masks, nonzero }
    }

    pub(crate) fn unpack(self) -> Vec<u32> {
        match self {
            PackedCodes::Raw(codes) => codes,
            PackedCodes::Sparse { alphabet, masks, nonzero } => {
                let mut codes = Vec::with_capacity(masks.len() * alphabet);
                let mut next = nonzero.into_iter();
                for mask in masks {
                    for c in 0..alphabet {
                        codes.push(if mask & (1 << c) != 0 { next.next().expect("one code per mask bit") } else { 0 });
                    }
                }
                codes
            }
        }
    }

    /// Number of codes (packed or not).
    pub(crate) fn len(&self) -> usize {
        match self {
            PackedCodes::Raw(codes) => codes.len(),
            PackedCodes::Sparse { alphabet, masks, .. } => alphabet * masks.len(),
        }
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        match self {
            PackedCodes::Raw(codes) => 4 * codes.len(),
            PackedCodes::Sparse { masks, nonzero, .. } => 2 * masks.len() + 4 * nonzero.len(),
        }
    }
}

/// Turn minimal per-layer row tables (I3–I5 hold, I6–I7 may not) into a canonical [`Dfa`].
///
/// `layers[l]` holds the rows of layer `l`, reserved rows first. Runs in time linear in the
/// table sizes: one top-down scan assigning ids in first-appearance order (I7), which also
/// drops every unreachable state (I6).
///
/// On the bench union (a 24 M-state result) this is about a fifth of the one-thread time,
/// bound by the random reads of old rows and of `new_of_old`. Measured no different
/// (2026-11-24): a branch-free first-appearance test, and gathering the old rows bucket by
/// cache-sized bucket of old ids with a streamed read-back (as [`intern_layer`] does);
/// reading each group's rows ahead ([`GROUP`]) helped a little.
pub(crate) fn canonicalize(shape: &Shape, initial: u32, mut layers: Vec<Vec<u32>>) -> Dfa {
    assert_eq!(layers.len(), shape.len());
    if initial < 2 {
        return Dfa::trivial(shape, StateId(initial));
    }
    let n = layers.len();
    let mut out: Vec<Layer> = Vec::with_capacity(n);
    // Old ids of the current layer's live states, in new-id order (new id = position + 2).
    let mut order: Vec<u32> = vec![initial];
    // Each layer's renamed live rows are built here; the buffer becomes the layer, and the
    // old rows' buffer the next layer's to build in ([`swap_in`]).
    let mut rows: Vec<u32> = Vec::new();
    for l in 0..n {
        let alphabet = shape.alphabet(l);
        let old = std::mem::take(&mut layers[l]);
        let old_next_len = if l + 1 < n { layers[l + 1].len() / shape.alphabet(l + 1) } else { 2 };
        if order.len() < PAR_ROWS || rayon::current_num_threads() == 1 {
            // A deep layer was interned long before (and evicted): fetch it as a stream
            // rather than by the random reads of the gather.
            warm(&old);
            room(&mut rows, (order.len() + 2) * alphabet);
            rows.extend(Layer::reserved_only(alphabet).next);
            // One pass: number each child at its first appearance and write the renamed row.
            let mut new_of_old = vec![u32::MAX; old_next_len];
            new_of_old[0] = 0;
            new_of_old[1] = 1;
            let mut next_order: Vec<u32> = Vec::new();
            let mut gathered: Vec<u32> = Vec::with_capacity(GROUP * alphabet);
            for group in order.chunks(GROUP) {
                gathered.clear();
                for &s in group {
                    push_ids(&mut gathered, &old[s as usize * alphabet..(s as usize + 1) * alphabet]);
                }
                // Read ahead (see GROUP); the fold keeps the reads from being optimised away.
                let touched = gathered.iter().fold(0u32, |x, &o| x ^ new_of_old[o as usize]);
                std::hint::black_box(touched);
                for &o in &gathered {
                    let slot = &mut new_of_old[o as usize];
                    if *slot == u32::MAX {
                        *slot = next_order.len() as u32 + 2;
                        next_order.push(o);
                    }
                    rows.push(*slot);
                }
            }
            out.push(Layer::from_raw(alphabet, swap_in(&mut rows, old)));
            order = next_order;
            continue;
        }
        // Large layers on several threads: gather the live rows in new-id order (the only
        // random reads of the old rows), find first appearances by scanning them in chunks,
        // then rename in place.
        use rayon::prelude::*;
        const UNIT: usize = 4096;
        old.par_chunks(UNIT * alphabet).for_each(warm);
        // Every slot is written below: only the growth is cleared (see `reuse_len`).
        super::tuples::reuse_len(&mut rows, (order.len() + 2) * alphabet, 0);
        rows[..2 * alphabet].copy_from_slice(&Layer::reserved_only(alphabet).next);
        let body = &mut rows[2 * alphabet..];
        body.par_chunks_mut(UNIT * alphabet).zip(order.par_chunks(UNIT)).for_each(|(into, states)| {
            for (&s, slots) in states.iter().zip(into.chunks_exact_mut(alphabet)) {
                copy_ids(slots, &old[s as usize * alphabet..(s as usize + 1) * alphabet]);
            }
        });
        let (new_of_old, next_order) = first_appearances(body, old_next_len);
        body.par_chunks_mut(UNIT * alphabet).for_each(|into| {
            for slot in into {
                *slot = new_of_old[*slot as usize];
            }
        });
        out.push(Layer::from_raw(alphabet, swap_in(&mut rows, old)));
        order = next_order;
    }
    Dfa::from_parts(shape.clone(), StateId(2), out)
}

/// Reads `ids` once, one id per cache line, in order: the hardware prefetcher then brings the
/// whole buffer into the cache at streaming speed, ahead of random reads. Before each layer
/// of [`canonicalize`] and of a product's expansion, this took about 10% off the one-thread
/// bench union's `canonicalize` and 2–5% off expansions (2026-11-24, alternating in one
/// process, best of six); a layer larger than the cache gains nothing and loses little.
pub(crate) fn warm(ids: &[u32]) {
    let touched = ids.iter().step_by(16).fold(0u32, |x, &id| x ^ id);
    std::hint::black_box(touched);
}

/// Live states renamed as one group by the one-pass [`canonicalize`]: the group's old rows
/// are gathered first, then the new ids of their children are read once (both passes
/// without branches, so that the cache misses overlap), and the renaming finds them in the
/// L1 cache. About 9% off its time on the bench union, median of nine alternating runs
/// (2026-11-24).
const GROUP: usize = 32;

/// Empties `rows` with room for `need` ids. A buffer too small is dropped before the new one
/// is allocated: growing it would copy its stale contents.
fn room(rows: &mut Vec<u32>, need: usize) {
    rows.clear();
    if rows.capacity() < need {
        *rows = Vec::new();
        rows.reserve_exact(need);
    }
}

/// The finished layer built in `rows`, trimmed to fit; `old` (the layer's old rows) becomes
/// the buffer the next layer is built in, so no layer is copied into place. Against copying
/// each layer over its old rows (2026-11-24): the one-thread bench union's median 2.08 s →
/// 2.03 s (six alternating runs of each build, best of three each, faster in five), and its
/// fresh-process peak above the inputs 394.5 → 439.6 MiB (`examples/peak_memory union
/// large`, two runs each): a layer larger than the buffer at hand needs a new one, where the
/// copy always landed in the layer's own old rows.
fn swap_in(rows: &mut Vec<u32>, old: Vec<u32>) -> Vec<u32> {
    let mut layer = std::mem::replace(rows, old);
    layer.shrink_to_fit();
    layer
}

/// The canonical numbering of the next layer (I7): scanning `gathered` (the live rows of a
/// layer in new-id order, with old child ids), each old id of the next layer gets the next new
/// id at its first appearance.
/// Returns new id by old id (reserved ids map to themselves) and the old ids in new-id order.
///
/// For large layers on several threads (small ones are renumbered in one pass by
/// [`canonicalize`]): chunks are scanned in parallel, each listing the ids it sees first; a
/// short sequential merge of those lists in chunk order then fixes the global first appearances.
fn first_appearances(gathered: &[u32], old_next_len: usize) -> (Vec<u32>, Vec<u32>) {
    let mut new_of_old = vec![u32::MAX; old_next_len];
    new_of_old[0] = 0;
    new_of_old[1] = 1;
    use rayon::prelude::*;
    let chunk = gathered.len().div_ceil(2 * rayon::current_num_threads()).max(1);
    // Per chunk: the ids it sees, as a bitmap, and those it sees first, in scan order.
    let mut scans: Vec<(Vec<u64>, Vec<u32>)> = gathered
        .par_chunks(chunk)
        .map(|part| {
            let mut seen = vec![0u64; old_next_len.div_ceil(64)];
            let mut list = Vec::new();
            for &o in part {
                let (word, bit) = (o as usize / 64, 1u64 << (o % 64));
                if o >= 2 && seen[word] & bit == 0 {
                    seen[word] |= bit;
                    list.push(o);
                }
            }
            (seen, list)
        })
        .collect();
    // Turn each bitmap into the ids seen by the chunks before it (a prefix OR), so that each
    // chunk keeps the ids it sees first globally.
    let mut before = vec![0u64; old_next_len.div_ceil(64)];
    for (seen, _) in scans.iter_mut() {
        for (b, s) in before.iter_mut().zip(seen.iter_mut()) {
            let mine = *s;
            *s = *b;
            *b |= mine;
        }
    }
    drop(before);
    let kept: Vec<Vec<u32>> = scans
        .par_iter()
        .map(|(earlier, list)| {
            list.iter().copied().filter(|&o| earlier[o as usize / 64] & (1u64 << (o % 64)) == 0).collect()
        })
        .collect();
    drop(scans);
    let mut offsets = Vec::with_capacity(kept.len());
    let mut total = 2u32;
    for list in &kept {
        offsets.push(total);
        total += list.len() as u32;
    }
    // Each id is kept by exactly one chunk, so each slot is set once.
    let new_ids = ScatterIds::from_vec(new_of_old);
    kept.par_iter().zip(&offsets).for_each(|(list, &offset)| {
        for (i, &o) in list.iter().enumerate() {
            new_ids.set(o as usize, offset + i as u32);
        }
    });
    let new_of_old = new_ids.into_vec();
    let next_order = kept.concat();
    (new_of_old, next_order)
}

/// Builds a DFA bottom-up from rows, for constructors and for games that describe a set
/// directly (e.g. by a counting automaton).
///
/// Add states of deeper layers first: a row for layer `l` refers to ids returned by
/// [`DfaBuilder::add`] for layer `l + 1` (or to the reserved ids). Equal rows give equal ids,
/// so callers may add the same state many times without blowing up the result.
///
/// ```
/// use dfasolve::dfa::{DfaBuilder, Shape, StateId};
/// // Strings of length 2 over {0,1} whose second symbol is 1.
/// let shape = Shape::uniform(2, 2);
/// let mut b = DfaBuilder::new(&shape);
/// let last = b.add(1, &[StateId::REJECT, StateId::ACCEPT]);
/// let first = b.add(0, &[last, last]);
/// let dfa = b.finish(first);
/// assert!(dfa.contains(&[0, 1]) && !dfa.contains(&[1, 0]));
/// ```
pub struct DfaBuilder {
    shape: Shape,
    tables: Vec<RowTable>,
    scratch: Vec<u32>,
}

impl DfaBuilder {
    /// A builder for sets of `shape`.
    pub fn new(shape: &Shape) -> DfaBuilder {
        let tables = (0..shape.len()).map(|l| RowTable::new(shape.alphabet(l))).collect();
        DfaBuilder { shape: shape.clone(), tables, scratch: Vec::new() }
    }

    /// The id of the state of `layer` with successors `row` (one per symbol).
    ///
    /// # Panics
    /// If `row` has the wrong length or refers to an id `layer + 1` does not have.
    pub fn add(&mut self, layer: usize, row: &[StateId]) -> StateId {
        assert_eq!(row.len(), self.shape.alphabet(layer), "row length must equal the alphabet");
        let next_len = self.tables.get(layer + 1).map_or(2, RowTable::len);
        self.scratch.clear();
        for &s in row {
            assert!(s.index() < next_len, "layer {layer}: successor {s:?} does not exist");
            self.scratch.push(s.0);
        }
        StateId(self.tables[layer].intern(&self.scratch))
    }

    /// The finished canonical DFA whose start state is `initial` (a layer-0 id).
    pub fn finish(self, initial: StateId) -> Dfa {
        let rows = self.tables.into_iter().map(RowTable::into_rows).collect();
        canonicalize(&self.shape, initial.0, rows)
    }
}

/// The set of the given strings (duplicates allowed).
///
/// # Panics
/// If a string does not fit `shape` (wrong length or symbol outside its alphabet).
pub(crate) fn from_strings(shape: &Shape, strings: &[Vec<Symbol>]) -> Dfa {
    for s in strings {
        assert!(shape.admits(s), "string {s:?} does not fit {shape:?}");
    }
    let mut sorted: Vec<&[Symbol]> = strings.iter().map(Vec::as_slice).collect();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.is_empty() {
        return Dfa::reject_all(shape);
    }
    let mut b = DfaBuilder::new(shape);
    // Trie built depth-first over the sorted strings: a range of strings sharing a prefix of
    // length `layer` becomes one state; children are added before their parent.
    fn build(b: &mut DfaBuilder, layer: usize, strings: &[&[Symbol]]) -> StateId {
        if layer == b.shape.len() {
            return StateId::ACCEPT;
        }
        let mut row = vec![StateId::REJECT; b.shape.alphabet(layer)];
        let mut start = 0;
        while start < strings.len() {
            let c = strings[start][layer];
            let end = start + strings[start..].partition_point(|s| s[layer] == c);
            row[c as usize] = build(b, layer + 1, &strings[start..end]);
            start = end;
        }
        b.add(layer, &row)
    }
    let initial = build(&mut b, 0, &sorted);
    b.finish(initial)
}

#[cfg(test)]
mod tests {
    use super::{MATCH_BITS, PackedCodes, RowTable, intern_layer_matching};
    use proptest::prelude::*;

    /// Rows of a layer drawn from a small pool, so that many repeat, with all-reject and
    /// all-accept rows among them.
    fn pooled_rows(alphabet: usize, count: usize, pool: usize, seed: u64) -> Vec<u32> {
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let pool: Vec<Vec<u32>> = (0..pool)
            .map(|i| match i {
                0 => vec![0; alphabet],
                1 => vec![1; alphabet],
                _ => (0..alphabet).map(|_| (next() % 50) as u32).collect(),
            })
            .collect();
        (0..count).flat_map(|_| pool[next() as usize % pool.len()].clone()).collect()
    }

    /// The partitioned interning of large layers (all cases are above `PAR_ROWS`) gives
    /// exactly what one [`RowTable`] gives (ids in order of first occurrence, the same
    /// table), on any number of threads. The last case has no repeated or reserved rows, so
    /// the table it builds in place fills the whole buffer.
    #[test]
    fn intern_layer_matches_one_table() {
        let distinct: Vec<u32> = (0..40_000u32).flat_map(|t| [t, 7, t + 2]).collect();
        let cases = [(3, 70_000, 60_000), (1, 40_000, 100), (9, 50_000, 20_000)]
            .map(|(alphabet, count, pool)| {
                (alphabet, pooled_rows(alphabet, count, pool, count as u64 * 31 + alphabet as u64))
            })
            .into_iter()
            .chain([(3, distinct)]);
        for (alphabet, rows) in cases {
            let count = rows.len() / alphabet;
            let mut table = RowTable::new(alphabet);
            let expected: Vec<u32> = rows.chunks_exact(alphabet).map(|row| table.intern(row)).collect();
            let expected_rows = table.into_rows();
            // Placeholders that must not survive into the table.
            let mut layer = vec![u32::MAX; 2 * alphabet];
            layer.extend_from_slice(&rows);
            // Matching by 1 or 3 hash bits takes many different rows as equal at first, and
            // every partition that did must be done again, comparing rows.
            for (threads, match_bits) in [(1, MATCH_BITS), (2, MATCH_BITS), (3, MATCH_BITS), (1, 1), (2, 3)] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
                let (ids, table) = pool.install(|| intern_layer_matching(alphabet, layer.clone(), match_bits));
                let case = format!("alphabet {alphabet}, {count} rows, {threads} threads, {match_bits} bits");
                assert_eq!(ids, expected, "{case}");
                assert_eq!(table, expected_rows, "{case}");
            }
        }
    }

    proptest! {
        /// Packing keeps every code, whichever form it picks, and picks the sparse form for
        /// mostly-zero codes of a small alphabet.
        #[test]
        fn packed_codes_round_trip(alphabet in 1usize..20, states in 0usize..50, seed in any::<u64>(), zeros in 0u32..10) {
            let mut x = seed;
            let codes: Vec<u32> = (0..alphabet * states)
                .map(|_| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let r = (x >> 33) as u32;
                    if r % 10 < zeros { 0 } else { r | 1 }
                })
                .collect();
            let packed = PackedCodes::pack_any(alphabet, codes.clone());
            if (4..=16).contains(&alphabet) && zeros == 9 && states >= 20 {
                let sparse = matches!(packed, PackedCodes::Sparse { .. });
                prop_assert!(sparse);
            }
            prop_assert!(packed.bytes() <= 4 * codes.len());
            prop_assert_eq!(packed.len(), codes.len());
            prop_assert_eq!(packed.unpack(), codes);
        }
    }
}
