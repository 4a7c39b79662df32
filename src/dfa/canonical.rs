//! Canonical renumbering (I6, I7): the last step of every operation.

use super::ids::{ScatterIds, copy_ids, push_ids, reuse_len, warm};
use super::intern::PAR_ROWS;
use super::{Dfa, Layer, Shape, StateId};

/// Turn minimal per-layer row tables (I3–I5 hold, I6–I7 may not) into a canonical [`Dfa`].
///
/// `layers[l]` holds the rows of layer `l`, reserved rows first. Runs in time linear in the
/// table sizes: one top-down scan assigning ids in first-appearance order (I7), which also
/// drops every unreachable state (I6).
///
/// Bound by the random reads of old rows and of the new ids of their children.
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
        order = if order.len() < PAR_ROWS || rayon::current_num_threads() == 1 {
            rename_in_one_pass(&mut rows, &old, alphabet, &order, old_next_len)
        } else {
            rename_in_parallel(&mut rows, &old, alphabet, &order, old_next_len)
        };
        out.push(Layer::from_raw(alphabet, swap_in(&mut rows, old)));
    }
    Dfa::from_parts(shape.clone(), StateId(2), out)
}

/// Writes into `rows` the live rows of one layer (old ids `order`, in new-id order, rows in
/// `old`) with their children renamed, numbering each child at its first appearance in the
/// same pass; returns the next layer's old ids in new-id order.
fn rename_in_one_pass(
    rows: &mut Vec<u32>,
    old: &[u32],
    alphabet: usize,
    order: &[u32],
    old_next_len: usize,
) -> Vec<u32> {
    // A deep layer was interned long before (and evicted): fetch it as a stream rather than
    // by the random reads of the gather.
    warm(old);
    room(rows, (order.len() + 2) * alphabet);
    rows.extend(Layer::reserved_only(alphabet).into_ids());
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
    next_order
}

/// [`rename_in_one_pass`] for a large layer on several threads: gather the live rows in
/// new-id order (the only random reads of the old rows), find first appearances by scanning
/// them in chunks ([`first_appearances`]), then rename in place.
fn rename_in_parallel(
    rows: &mut Vec<u32>,
    old: &[u32],
    alphabet: usize,
    order: &[u32],
    old_next_len: usize,
) -> Vec<u32> {
    use rayon::prelude::*;
    const UNIT: usize = 4096;
    old.par_chunks(UNIT * alphabet).for_each(warm);
    // Every slot is written below: only the growth is cleared.
    reuse_len(rows, (order.len() + 2) * alphabet, 0);
    rows[..2 * alphabet].copy_from_slice(&Layer::reserved_only(alphabet).into_ids());
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
    next_order
}

/// Live states renamed as one group by the one-pass [`canonicalize`]: the group's old rows
/// are gathered first, then the new ids of their children are read once (both passes
/// without branches, so that the cache misses overlap), and the renaming finds them in the
/// L1 cache.
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
/// the buffer the next layer is built in, so no layer is copied into place (faster, at some
/// peak memory: a layer larger than the buffer at hand needs a new one).
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The parallel first-appearance numbering gives what one sequential scan gives, on any
    /// number of threads.
    #[test]
    fn first_appearances_match_a_sequential_scan() {
        let mut x = 12345u64;
        let gathered: Vec<u32> = (0..50_000)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((x >> 33) % 3000) as u32
            })
            .collect();
        let old_next_len = 3000;
        let mut expected_new = vec![u32::MAX; old_next_len];
        expected_new[0] = 0;
        expected_new[1] = 1;
        let mut expected_order = Vec::new();
        for &o in &gathered {
            if expected_new[o as usize] == u32::MAX {
                expected_new[o as usize] = expected_order.len() as u32 + 2;
                expected_order.push(o);
            }
        }
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
            let (new_of_old, order) = pool.install(|| first_appearances(&gathered, old_next_len));
            assert_eq!(order, expected_order, "{threads} threads");
            assert_eq!(new_of_old, expected_new, "{threads} threads");
        }
    }
}
