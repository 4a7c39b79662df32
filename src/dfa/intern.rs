//! Interning a whole layer of rows at once: the id of every row, and the layer's table of
//! distinct rows, built in the rows' own buffer.
//!
//! Small layers go through one [`RowTable`]. Large layers are interned in hash partitions
//! small enough to stay cache-resident, on all threads (and on one), in five phases:
//!
//! 1. [`Partitioning::split`]: each range of rows files every row under the partition that the
//!    top bits of its hash choose (equal rows meet in one partition);
//! 2. [`first_occurrences`], per partition: the first occurrence of each of its rows;
//! 3. [`number_in_row_order`]: ids handed out in row order by a walk that reads each
//!    partition's answers as a sequential stream;
//! 4. [`check_repeats`]: rows matched by their hashes are compared with their first
//!    occurrences, in row order; a partition with a wrong match goes through phase 2 again,
//!    comparing rows ([`redo_partitions`]);
//! 5. [`compact_in_place`]: the distinct rows move down into place as the layer's table.
//!
//! Ids come out in order of first occurrence, exactly as one [`RowTable`] gives them, and in
//! row order, which keeps the locality that [`super::canonical::canonicalize`]'s gathers rely
//! on. The measurements behind each phase are in `docs/engine-notes.md`.

use super::Layer;
use super::ids::{hash_ids, ids_equal, move_ids_down};
use super::limits::Stoppable;
use super::unique::{RowTable, reserved_id};
use rayon::prelude::*;

/// Rows below this count are interned on one thread, into one table.
pub(crate) const PAR_ROWS: usize = 1 << 15;

/// Rows per hash partition of a large layer: a partition's table stays in the L2 cache, where
/// one table for the whole layer would miss the cache on most probes.
const ROWS_PER_PARTITION: usize = 1 << 13;

/// Hash bits that must agree for two rows to be taken as equal until they are compared (see
/// [`first_occurrences`]). With the row index, 43 or more bits fit in each entry, and then no
/// partition of the bench operations is done again.
const MATCH_BITS: u32 = 48;

/// Marks of [`Partitioning::split`] for the reserved rows, which no partition holds.
const REJECT_ROW: u16 = u16::MAX;
const ACCEPT_ROW: u16 = u16::MAX - 1;

/// A repeated row's id slot holds `REPEAT | first occurrence` until [`check_repeats`].
const REPEAT: u32 = 1 << 31;

/// Interns the rows of `layer` as one layer: returns the id of each row and the layer's
/// table of distinct rows (reserved rows first, I3–I5), exactly as [`RowTable`] would: new
/// rows get ids 2, 3, … in order of their first occurrence.
///
/// `layer` holds two placeholder rows and then the rows to intern, each `alphabet` ids: the
/// table is built in the same buffer, where the reserved rows take the placeholders' place
/// and the distinct rows (the first occurrences, in order) move down or stay, never up.
pub(crate) fn intern_layer(alphabet: usize, layer: Vec<u32>) -> Stoppable<(Vec<u32>, Vec<u32>)> {
    intern_layer_matching(alphabet, layer, MATCH_BITS)
}

/// [`intern_layer`], matching rows by up to `match_bits` bits of their hashes until they are
/// compared (tests use few, to exercise the partitions that must be done again).
fn intern_layer_matching(alphabet: usize, mut layer: Vec<u32>, match_bits: u32) -> Stoppable<(Vec<u32>, Vec<u32>)> {
    let reserved = 2 * alphabet;
    assert!(layer.len() >= reserved, "the layer starts with two placeholder rows");
    let count = (layer.len() - reserved) / alphabet;
    debug_assert_eq!(layer.len(), reserved + count * alphabet, "whole rows");
    if count < PAR_ROWS {
        let mut table = RowTable::with_capacity(alphabet, count + 2);
        let ids =
            super::limits::collect_stoppable(layer[reserved..].chunks_exact(alphabet).map(|row| table.intern(row)))?;
        return Ok((ids, table.into_rows()));
    }
    // Row indices leave the REPEAT bit free.
    super::limits::check_layer_states(count + 2)?;
    let plan = Partitioning::new(count);
    let rows = Rows { rows: &layer[reserved..], alphabet };
    let (part_of, lists) = plan.split(&rows);
    let mut firsts: Vec<PartitionFirsts> = (0..plan.parts)
        .into_par_iter()
        .map(|p| {
            let size: usize = lists.iter().map(|l| l[p].len()).sum();
            let index_mask = (1 << plan.index_bits) - 1;
            let by_range =
                lists.iter().map(|l| l[p].iter().map(move |&e| ((e & index_mask) as u32, e >> plan.index_bits)));
            // Rows whose hashes agree are taken to be equal here (comparing them would read
            // two rows far apart); `check_repeats` compares them in row order.
            first_occurrences(by_range, size, match_bits.min(plan.hash_bits), |_, _| true)
        })
        .collect();
    let entry_starts = plan.entry_starts(&lists);
    drop(lists);
    let mut ids = vec![0u32; count];
    let (ids, bases, next) = loop {
        let (bases, next) = plan.range_bases(&firsts);
        let repeats = number_in_row_order(&plan, &mut ids, &part_of, &entry_starts, &bases, &firsts);
        if repeats == 0 {
            break (ids, bases, next);
        }
        match check_repeats(&rows, &ids, &part_of) {
            Ok(resolved) => break (resolved, bases, next),
            Err(wrong) => redo_partitions(&plan, &rows, &part_of, wrong, match_bits, &mut firsts),
        }
    };
    drop(firsts);
    drop(part_of);
    compact_in_place(&mut layer, alphabet, &ids, &bases, next, plan.range_len);
    Ok((ids, layer))
}

/// The rows of a layer being interned, `alphabet` ids each.
struct Rows<'a> {
    rows: &'a [u32],
    alphabet: usize,
}

impl Rows<'_> {
    #[inline]
    fn row(&self, t: usize) -> &[u32] {
        &self.rows[t * self.alphabet..(t + 1) * self.alphabet]
    }
}

/// How a large layer is cut: into ranges of consecutive rows (one per task) and into hash
/// partitions (one table each).
#[derive(Clone, Copy)]
struct Partitioning {
    /// Number of hash partitions, a power of two.
    parts: usize,
    /// The top bits of a row's hash, `hash >> part_shift`, choose its partition; the
    /// partition's table uses the low ones.
    part_shift: u32,
    /// Rows per range (the last may have fewer).
    range_len: usize,
    /// Number of ranges.
    ranges: usize,
    /// An entry of a partition list holds the row's index in its low `index_bits` bits and
    /// `hash_bits` bits of its hash above them (43 for a layer of 2 M rows).
    index_bits: u32,
    hash_bits: u32,
}

/// Per partition: the first occurrence of each of its entries' rows, in its order, and how
/// many first occurrences each range holds.
type PartitionFirsts = (Vec<u32>, Vec<u32>);

impl Partitioning {
    fn new(count: usize) -> Partitioning {
        let parts = count.div_ceil(ROWS_PER_PARTITION).next_power_of_two().clamp(2, 1 << 14);
        let threads = rayon::current_num_threads();
        let range_len = count.div_ceil(if threads == 1 { 1 } else { 4 * threads });
        let index_bits = usize::BITS - count.leading_zeros();
        Partitioning {
            parts,
            part_shift: 64 - parts.trailing_zeros(),
            range_len,
            ranges: count.div_ceil(range_len),
            index_bits,
            hash_bits: u64::BITS - index_bits,
        }
    }

    /// Phase 1: the partition of each row (or a reserved-row mark), and for each range, for
    /// each partition, the entries of its rows in row order.
    fn split(&self, rows: &Rows<'_>) -> (Vec<u16>, Vec<Vec<Vec<u64>>>) {
        let count = rows.rows.len() / rows.alphabet;
        let mut part_of = vec![0u16; count];
        let lists = part_of
            .par_chunks_mut(self.range_len)
            .enumerate()
            .map(|(r, marks)| {
                let expected = marks.len() / self.parts * 9 / 8 + 1;
                let mut lists: Vec<Vec<u64>> = (0..self.parts).map(|_| Vec::with_capacity(expected)).collect();
                for (i, mark) in marks.iter_mut().enumerate() {
                    let t = r * self.range_len + i;
                    let x = rows.row(t);
                    *mark = match reserved_id(x) {
                        Some(0) => REJECT_ROW,
                        Some(_) => ACCEPT_ROW,
                        None => {
                            let hash = hash_ids(x);
                            let p = (hash >> self.part_shift) as usize;
                            lists[p].push((hash << self.index_bits) | t as u64);
                            p as u16
                        }
                    };
                }
                lists
            })
            .collect();
        (part_of, lists)
    }

    /// Where each range's entries start in each partition's list.
    fn entry_starts(&self, lists: &[Vec<Vec<u64>>]) -> Vec<Vec<u32>> {
        let mut entry_starts = Vec::with_capacity(self.ranges);
        let mut at = vec![0u32; self.parts];
        for l in lists {
            entry_starts.push(at.clone());
            for (a, list) in at.iter_mut().zip(l) {
                *a += list.len() as u32;
            }
        }
        entry_starts
    }

    /// The first id of each range (each range's first occurrences follow those of the ranges
    /// before), and the id after the last.
    fn range_bases(&self, firsts: &[PartitionFirsts]) -> (Vec<u32>, u32) {
        let mut bases = Vec::with_capacity(self.ranges);
        let mut next = 2u32;
        for r in 0..self.ranges {
            bases.push(next);
            next += firsts.iter().map(|f| f.1[r]).sum::<u32>();
        }
        (bases, next)
    }
}

/// Phase 3: the id of every row, in row order. A row's entry in its partition's list is that
/// partition's next one, so each range walks its rows with one cursor per partition
/// (sequential streams, no scattered writes). A repeated row gets `REPEAT | first
/// occurrence`; returns how many there are.
fn number_in_row_order(
    plan: &Partitioning,
    ids: &mut [u32],
    part_of: &[u16],
    entry_starts: &[Vec<u32>],
    bases: &[u32],
    firsts: &[PartitionFirsts],
) -> usize {
    let range_len = plan.range_len;
    ids.par_chunks_mut(range_len)
        .zip(part_of.par_chunks(range_len))
        .zip(entry_starts.to_vec().into_par_iter())
        .zip(bases)
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
        .sum()
}

/// Phase 4: each repeat compared with its first occurrence (which is never a repeat itself),
/// its own row read in order. `Ok`: the ids with every repeat resolved; `Err`: the partitions
/// with a wrong match (two different rows whose matched hash bits agree: with 43 bits, about
/// once in a hundred products the size of the bench union, a birthday bound).
fn check_repeats(rows: &Rows<'_>, ids: &[u32], part_of: &[u16]) -> Result<Vec<u32>, Vec<usize>> {
    let wrong = std::sync::Mutex::new(Vec::new());
    let resolved: Vec<u32> = ids
        .par_iter()
        .enumerate()
        .map(|(t, &id)| {
            if id & REPEAT == 0 {
                return id;
            }
            let first = (id & !REPEAT) as usize;
            if !ids_equal(rows.row(first), rows.row(t)) {
                wrong.lock().expect("no panics while held").push(part_of[t] as usize);
            }
            ids[first]
        })
        .collect();
    let mut wrong = wrong.into_inner().expect("no panics while held");
    if wrong.is_empty() {
        return Ok(resolved);
    }
    wrong.sort_unstable();
    wrong.dedup();
    Err(wrong)
}

/// Phase 2 again for the partitions `wrong`, comparing rows: their entries, range by range,
/// found again in one walk over the partition marks.
fn redo_partitions(
    plan: &Partitioning,
    rows: &Rows<'_>,
    part_of: &[u16],
    wrong: Vec<usize>,
    match_bits: u32,
    firsts: &mut [PartitionFirsts],
) {
    let mut redo_of = vec![usize::MAX; plan.parts];
    for (k, &p) in wrong.iter().enumerate() {
        redo_of[p] = k;
    }
    let mut entries: Vec<Vec<Vec<(u32, u64)>>> = vec![vec![Vec::new(); plan.ranges]; wrong.len()];
    for (t, &mark) in part_of.iter().enumerate() {
        if let Some(&k) = redo_of.get(mark as usize).filter(|&&k| k != usize::MAX) {
            entries[k][t / plan.range_len].push((t as u32, hash_ids(rows.row(t))));
        }
    }
    for (p, by_range) in wrong.into_iter().zip(entries) {
        let size = by_range.iter().map(Vec::len).sum();
        let by_range = by_range.into_iter().map(Vec::into_iter);
        firsts[p] = first_occurrences(by_range, size, match_bits, |first, t| ids_equal(rows.row(first), rows.row(t)));
    }
}

/// Phase 5: the distinct rows in id order, in place of the rows, after the reserved rows.
/// Each range moves its first occurrences to the front of its own rows (in parallel), and
/// the ranges' blocks then move down into place. Row `t` lies at row `t + 2` of the buffer
/// and its id is at most `t + 2`, so rows only move down, and a block never lands on rows not
/// yet moved.
fn compact_in_place(layer: &mut Vec<u32>, alphabet: usize, ids: &[u32], bases: &[u32], next: u32, range_len: usize) {
    let reserved = 2 * alphabet;
    layer[reserved..].par_chunks_mut(range_len * alphabet).zip(ids.par_chunks(range_len)).zip(bases).for_each(
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
    let ranges = bases.len();
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
    layer[..reserved].copy_from_slice(&Layer::reserved_only(alphabet).into_ids());
    // A small table gives the rest of a large buffer back (an intersection's tables are
    // often far smaller than the product's layers).
    layer.shrink_to_fit();
}

/// Phase 2 of [`intern_layer`], one partition: for a partition's entries (a row's index and its
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

#[cfg(test)]
mod tests {
    use super::{MATCH_BITS, RowTable, intern_layer_matching};

    /// Rows of a layer drawn from a small pool, so that many repeat, with all-reject and
    /// all-accept rows among them.
    fn pooled_rows(alphabet: usize, count: usize, pool: usize, seed: u64) -> Vec<u32> {
        let mut rng = crate::dfa::SplitMix64::new(seed);
        let mut next = move || rng.next_u64();
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
            let expected: Vec<u32> = rows.chunks_exact(alphabet).map(|row| table.intern(row).unwrap()).collect();
            let expected_rows = table.into_rows();
            // Placeholders that must not survive into the table.
            let mut layer = vec![u32::MAX; 2 * alphabet];
            layer.extend_from_slice(&rows);
            // Matching by 1 or 3 hash bits takes many different rows as equal at first, and
            // every partition that did must be done again, comparing rows.
            for (threads, match_bits) in [(1, MATCH_BITS), (2, MATCH_BITS), (3, MATCH_BITS), (1, 1), (2, 3)] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
                let (ids, table) = pool.install(|| intern_layer_matching(alphabet, layer.clone(), match_bits)).unwrap();
                let case = format!("alphabet {alphabet}, {count} rows, {threads} threads, {match_bits} bits");
                assert_eq!(ids, expected, "{case}");
                assert_eq!(table, expected_rows, "{case}");
            }
        }
    }
}
