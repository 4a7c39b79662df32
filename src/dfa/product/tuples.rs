//! Numbering the child tuples of one product layer: every distinct tuple of operand states
//! that the forward pass of [`super::product`] reaches in layer `l + 1` gets a dense index,
//! and every child code that points to a tuple gets `2 + index`.
//!
//! A layer's children are far more than the L2 cache holds (about 5 M on the bench operands),
//! so one hash table for the layer, or one sort by first component, misses the cache on most
//! children. Here nothing larger than a cache-sized bucket is ever touched at random:
//!
//! 1. While expanding, each work unit sorts its pending children by *bucket* (a range of
//!    `2^shift` first components) in its own cache-resident buffer, and marks each pending
//!    code with its bucket ([`Bucketing::mark`]).
//! 2. Each bucket reads its tuples from every unit, in unit order, and numbers them by first
//!    appearance in an open-addressing table sized for the bucket, which stays in the L2
//!    cache ([`number_range`]). Buckets split into ranges that run on separate threads.
//! 3. A walk over the units in order replaces each mark by its id: a bucket's tuples were
//!    gathered in unit order, so its ids are read back as a sequential stream, one cursor per
//!    bucket.
//!
//! Measurements, and the alternatives tried, are in `docs/engine-notes.md`.

use crate::dfa::ids::{hash_ids, reuse_len};
use crate::dfa::limits::Stoppable;
use rayon::prelude::*;

/// Tuples per bucket aimed at: a bucket's table and ids stay in the L2 cache.
const TUPLES_PER_BUCKET: usize = 1 << 14;

/// At most this many buckets, so that the streams that bucketing writes stay cache-resident,
/// and the marks fit above every id.
const MAX_BUCKETS: usize = 1 << 12;

/// Child codes at or above this are marks of pending children (`u32::MAX - bucket`); every
/// other code is 0 (reject), 1 (accept) or, after numbering, `2 + index`.
const FIRST_MARK: u32 = u32::MAX - (MAX_BUCKETS as u32 - 1);

/// Layers with fewer pending tuples than this are numbered on one thread.
const PAR_TUPLES: usize = 1 << 15;

/// How a layer's tuples are split into buckets by first component.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bucketing {
    /// Bucket of first component `x`: `x >> shift`.
    shift: u32,
    /// Number of buckets.
    count: usize,
}

impl Bucketing {
    /// Buckets for tuples whose first component is below `groups`, when about `estimate`
    /// children (an upper bound is fine) will be numbered.
    pub(crate) fn new(groups: usize, estimate: usize) -> Bucketing {
        let groups = groups.max(1);
        let wanted = estimate.div_ceil(TUPLES_PER_BUCKET).clamp(1, MAX_BUCKETS);
        let mut shift = 0;
        while (groups - 1) >> shift >= wanted {
            shift += 1;
        }
        Bucketing { shift, count: ((groups - 1) >> shift) + 1 }
    }

    #[inline]
    fn bucket<const K: usize>(&self, t: &[u32; K]) -> usize {
        (t[0] >> self.shift) as usize
    }

    /// The code that stands for pending child `t` until [`number_children`] numbers it.
    #[inline]
    pub(crate) fn mark<const K: usize>(&self, t: &[u32; K]) -> u32 {
        u32::MAX - self.bucket(t) as u32
    }
}

/// One work unit's children: codes (0, 1 or a mark; after numbering, `2 + index`), the unit's
/// piece of its layer's codes, and its pending tuples sorted by bucket (stable), bucket `b`
/// at `starts[b]..starts[b + 1]`.
pub(crate) struct UnitChildren<'a, const K: usize> {
    pub(crate) codes: &'a mut [u32],
    by_bucket: Vec<[u32; K]>,
    starts: Vec<u32>,
}

impl<'a, const K: usize> UnitChildren<'a, K> {
    /// `pending` lists the unit's pending tuples in the order of their marks in `codes`; a
    /// counting sort by bucket (a separate count pass keeps each child from waiting on its
    /// bucket's count).
    pub(crate) fn new(codes: &'a mut [u32], pending: Vec<[u32; K]>, bucketing: &Bucketing) -> UnitChildren<'a, K> {
        let buckets = bucketing.count;
        if buckets == 1 {
            let starts = vec![0, pending.len() as u32];
            return UnitChildren { codes, by_bucket: pending, starts };
        }
        let mut starts = vec![0u32; buckets + 1];
        for t in &pending {
            starts[bucketing.bucket(t) + 1] += 1;
        }
        for b in 0..buckets {
            starts[b + 1] += starts[b];
        }
        let mut fill = starts.clone();
        let mut by_bucket = vec![[0u32; K]; pending.len()];
        for t in &pending {
            let at = &mut fill[bucketing.bucket(t)];
            by_bucket[*at as usize] = *t;
            *at += 1;
        }
        UnitChildren { codes, by_bucket, starts }
    }

    fn pending(&self) -> usize {
        self.by_bucket.len()
    }

    fn bucket(&self, b: usize) -> &[[u32; K]] {
        &self.by_bucket[self.starts[b] as usize..self.starts[b + 1] as usize]
    }
}

/// Buffers of [`number_children`], kept from layer to layer of a product: a large layer's
/// buffers are megabytes, and fresh pages cost more than the numbering that fills them (see
/// `product::codes_buffer`).
pub(crate) struct NumberScratch<const K: usize> {
    /// The range-local index of each pending tuple, bucket-major.
    local: Vec<u32>,
    /// Per range of buckets.
    ranges: Vec<RangeScratch<K>>,
}

impl<const K: usize> Default for NumberScratch<K> {
    fn default() -> Self {
        NumberScratch { local: Vec::new(), ranges: Vec::new() }
    }
}

/// Buffers of one range of buckets in [`number_range`].
struct RangeScratch<const K: usize> {
    /// The range's distinct tuples by local index.
    distinct: Vec<[u32; K]>,
    /// One bucket's open-addressing table: a tuple ([`EMPTY_SLOT`] if none) and its local
    /// index.
    slots: Vec<([u32; K], u32)>,
}

impl<const K: usize> Default for RangeScratch<K> {
    fn default() -> Self {
        RangeScratch { distinct: Vec::new(), slots: Vec::new() }
    }
}

/// Marks a free slot: no tuple has `u32::MAX` as its first component (it is a state id).
const EMPTY_SLOT: u32 = u32::MAX;

/// Numbers the distinct pending tuples of all `units` (made with `bucketing`) and replaces
/// each mark by `2 + index`; `into` gets the distinct tuples by index.
pub(crate) fn number_children<const K: usize>(
    units: &mut [UnitChildren<'_, K>],
    bucketing: &Bucketing,
    scratch: &mut NumberScratch<K>,
    into: &mut Vec<[u32; K]>,
) -> Stoppable<()> {
    let total: usize = units.iter().map(UnitChildren::pending).sum();
    if total == 0 {
        into.clear();
        return Ok(());
    }
    let buckets = bucketing.count;
    let parallel = total >= PAR_TUPLES && rayon::current_num_threads() > 1;
    let pieces = if parallel { 2 * rayon::current_num_threads() } else { 1 };
    // starts[b]: position of bucket b's first tuple in the layer's bucket-major order.
    let mut starts = vec![0usize; buckets + 1];
    for unit in units.iter() {
        for b in 0..buckets {
            starts[b + 1] += unit.bucket(b).len();
        }
    }
    for b in 0..buckets {
        starts[b + 1] += starts[b];
    }
    let cuts = balanced_cuts(&starts, pieces);
    // local[starts[b] + i]: the range-local index of bucket b's i-th tuple.
    let NumberScratch { local, ranges } = scratch;
    // Every slot is written by `number_range`: only the growth past the last layer's length
    // is cleared.
    reuse_len(local, total, 0);
    let mut range_locals: Vec<&mut [u32]> = Vec::with_capacity(cuts.len() - 1);
    {
        let mut rest = local.as_mut_slice();
        for w in cuts.windows(2) {
            let (head, tail) = rest.split_at_mut(starts[w[1]] - starts[w[0]]);
            range_locals.push(head);
            rest = tail;
        }
    }
    let shared: &[UnitChildren<'_, K>] = units;
    if ranges.len() < cuts.len() - 1 {
        ranges.resize_with(cuts.len() - 1, RangeScratch::default);
    }
    let ranges = &mut ranges[..cuts.len() - 1];
    let number = |((w, out), range): ((&[usize], &mut [u32]), &mut RangeScratch<K>)| {
        number_range(shared, &starts, w, out, range)
    };
    if parallel {
        cuts.par_windows(2).zip(range_locals).zip(ranges.par_iter_mut()).for_each(number);
    } else {
        cuts.windows(2).zip(range_locals).zip(ranges.iter_mut()).for_each(number);
    }
    // Each range's indices follow the tuples of the ranges before it.
    let mut bucket_offset = vec![0u32; buckets];
    let distinct: usize = ranges.iter().map(|r| r.distinct.len()).sum();
    // Marks sit above every index (FIRST_MARK is far above the limit).
    crate::dfa::limits::check_layer_states(distinct + 2)?;
    reuse_len(into, distinct, [0; K]);
    let mut pieces_of_into: Vec<&mut [[u32; K]]> = Vec::with_capacity(ranges.len());
    {
        let (mut rest, mut offset) = (into.as_mut_slice(), 0);
        for (w, range) in cuts.windows(2).zip(ranges.iter()) {
            bucket_offset[w[0]..w[1]].fill(offset as u32 + 2);
            let (head, tail) = rest.split_at_mut(range.distinct.len());
            pieces_of_into.push(head);
            (rest, offset) = (tail, offset + range.distinct.len());
        }
    }
    let copy = |(piece, range): (&mut [[u32; K]], &RangeScratch<K>)| piece.copy_from_slice(&range.distinct);
    if parallel {
        pieces_of_into.into_par_iter().zip(ranges.par_iter()).for_each(copy);
    } else {
        pieces_of_into.into_iter().zip(ranges.iter()).for_each(copy);
    }
    // Read back in unit order: batches of consecutive units, each with one cursor per bucket
    // that starts after the bucket's tuples from earlier batches.
    let mut batch_ends = Vec::with_capacity(pieces);
    let mut seen = 0;
    for (u, unit) in units.iter().enumerate() {
        seen += unit.pending();
        if seen * pieces >= total * (batch_ends.len() + 1) || u + 1 == units.len() {
            batch_ends.push(u + 1);
        }
    }
    let mut cursors = Vec::with_capacity(batch_ends.len());
    let mut at: Vec<usize> = starts[..buckets].to_vec();
    let mut from = 0;
    for &end in &batch_ends {
        cursors.push(at.clone());
        for unit in &units[from..end] {
            for (b, next) in at.iter_mut().enumerate() {
                *next += unit.bucket(b).len();
            }
        }
        from = end;
    }
    let mut batches: Vec<&mut [UnitChildren<'_, K>]> = Vec::with_capacity(batch_ends.len());
    {
        let (mut rest, mut from) = (units, 0);
        for &end in &batch_ends {
            let (head, tail) = rest.split_at_mut(end - from);
            batches.push(head);
            (rest, from) = (tail, end);
        }
    }
    let read_back = |(batch, mut at): (&mut &mut [UnitChildren<'_, K>], Vec<usize>)| {
        for unit in batch.iter_mut() {
            for code in unit.codes.iter_mut().filter(|c| **c >= FIRST_MARK) {
                let b = (u32::MAX - *code) as usize;
                *code = local[at[b]] + bucket_offset[b];
                at[b] += 1;
            }
        }
    };
    if parallel {
        batches.par_iter_mut().zip(cursors).for_each(read_back);
    } else {
        batches.iter_mut().zip(cursors).for_each(read_back);
    }
    Ok(())
}

/// Cuts `0..starts.len() - 1` (buckets) into at most `pieces` ranges of whole buckets with
/// about equal numbers of tuples; `starts` is the running total by bucket.
fn balanced_cuts(starts: &[usize], pieces: usize) -> Vec<usize> {
    let (buckets, total) = (starts.len() - 1, starts[starts.len() - 1]);
    let mut cuts = vec![0usize];
    for p in 1..pieces {
        let b = starts.partition_point(|&s| s < total * p / pieces).min(buckets);
        if b > *cuts.last().expect("nonempty") {
            cuts.push(b);
        }
    }
    cuts.push(buckets);
    cuts
}

/// Numbers the tuples of buckets `w[0]..w[1]`: writes the range-local index of each tuple
/// (bucket-major, each bucket in unit order) to `out`, and leaves the range's distinct tuples
/// by index in `scratch.distinct`, in bucket order and by first appearance within a bucket.
///
/// A bucket's tuples are read from the units in order and looked up in a table of at least
/// 4/3 their number (linear probing), which stays in the L2 cache.
fn number_range<const K: usize>(
    units: &[UnitChildren<'_, K>],
    starts: &[usize],
    w: &[usize],
    out: &mut [u32],
    scratch: &mut RangeScratch<K>,
) {
    let RangeScratch { distinct, slots } = scratch;
    distinct.clear();
    for b in w[0]..w[1] {
        let len = starts[b + 1] - starts[b];
        if len == 0 {
            continue;
        }
        let ids = &mut out[starts[b] - starts[w[0]]..starts[b + 1] - starts[w[0]]];
        let bits = (len + len / 3 + 1).next_power_of_two().max(16).trailing_zeros();
        let mask = (1usize << bits) - 1;
        slots.clear();
        slots.resize(mask + 1, ([EMPTY_SLOT; K], 0));
        let mut at = 0;
        for unit in units {
            for t in unit.bucket(b) {
                let mut i = (hash_ids(t) >> (64 - bits)) as usize;
                ids[at] = loop {
                    let (key, index) = &mut slots[i];
                    if key == t {
                        break *index;
                    }
                    if key[0] == EMPTY_SLOT {
                        *key = *t;
                        *index = distinct.len() as u32;
                        distinct.push(*t);
                        break *index;
                    }
                    i = (i + 1) & mask;
                };
                at += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The codes and pending tuples of `units` work units (components below `bounds`, the
    /// first skewed towards small values), pending tuples interleaved with reject and accept
    /// codes.
    #[allow(clippy::type_complexity)]
    fn random_units<const K: usize>(
        bounds: [usize; K],
        units: usize,
        per_unit: usize,
        bucketing: &Bucketing,
        seed: u64,
    ) -> Vec<(Vec<u32>, Vec<[u32; K]>)> {
        let mut x = seed;
        let mut next = |below: usize| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 33) as usize % below) as u32
        };
        let mut out = Vec::new();
        for _ in 0..units {
            let (mut codes, mut pending) = (Vec::new(), Vec::new());
            for _ in 0..per_unit {
                match next(4) {
                    0 => codes.push(next(2)),
                    _ => {
                        let mut t: [u32; K] = std::array::from_fn(|j| next(bounds[j]));
                        t[0] = t[0].min(next(bounds[0]));
                        codes.push(bucketing.mark(&t));
                        pending.push(t);
                    }
                }
            }
            out.push((codes, pending));
        }
        out
    }

    /// Every mark becomes `2 + index` of its own tuple, the indices list each distinct tuple
    /// once, and the answer is the same on any number of threads (above and below the
    /// parallel threshold, with one bucket and with hundreds) and with buffers left over from
    /// earlier calls.
    fn check<const K: usize>(bounds: [usize; K]) {
        // One scratch for every case, as a product reuses it from layer to layer.
        let mut scratch = NumberScratch::default();
        // And one buffer of distinct tuples, which the product reuses too.
        let mut distinct = Vec::new();
        for (units, per_unit, estimate) in [(40, 2_000, 1 << 24), (3, 500, 1 << 24), (40, 2_000, 10)] {
            let bucketing = Bucketing::new(bounds[0], estimate);
            let mut answers = Vec::new();
            for threads in [1, 2, 3] {
                let seed = (units * per_unit + K) as u64;
                let mut made = random_units(bounds, units, per_unit, &bucketing, seed);
                let pending: Vec<[u32; K]> = made.iter().flat_map(|(_, p)| p.iter().copied()).collect();
                let mut children: Vec<UnitChildren<'_, K>> =
                    made.iter_mut().map(|(codes, p)| UnitChildren::new(codes, p.clone(), &bucketing)).collect();
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
                pool.install(|| number_children(&mut children, &bucketing, &mut scratch, &mut distinct)).unwrap();
                let unique: HashSet<[u32; K]> = distinct.iter().copied().collect();
                assert_eq!(unique.len(), distinct.len(), "an index is given to one tuple only");
                assert_eq!(unique, pending.iter().copied().collect::<HashSet<_>>(), "every pending tuple is numbered");
                let mut expected = pending.iter();
                let mut codes = Vec::new();
                for unit in &children {
                    for &code in unit.codes.iter() {
                        if code >= 2 {
                            assert_eq!(Some(&distinct[code as usize - 2]), expected.next(), "{threads} threads");
                        }
                    }
                    codes.extend_from_slice(unit.codes);
                }
                assert_eq!(expected.next(), None, "every mark is replaced");
                answers.push((codes, distinct.clone()));
            }
            assert!(answers.windows(2).all(|w| w[0] == w[1]), "the numbering does not depend on the threads");
        }
    }

    #[test]
    fn number_children_gives_each_distinct_tuple_one_index() {
        check([300]);
        check([5_000, 40]);
        check([700, 9, 13]);
    }
}
