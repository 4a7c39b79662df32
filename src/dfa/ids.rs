//! Runs of state ids: the hash every table of the engine is keyed by, fast copies of short
//! rows, and buffers that several threads fill or that are reused from layer to layer.

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
pub(crate) fn move_ids_down(ids: &mut [u32], from: usize, to: usize, len: usize) {
    debug_assert!(to + len <= from, "rows move down and do not overlap");
    let (head, tail) = ids.split_at_mut(from);
    copy_ids(&mut head[to..to + len], &tail[..len]);
}

/// A vector of ids that several threads fill at disjoint indices (parallel scatters, where
/// each index is computed rather than split off as a sub-slice). Relaxed atomic stores are
/// plain stores on the targets we run on, and need no `unsafe` (which the crate denies outside
/// four modules).
///
/// Conversions to and from `Vec<u32>` are `into_iter().map().collect()`, which the standard
/// library performs in place (same size and alignment): no second buffer, no page faults.
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

/// Reads `ids` once, one id per cache line, in order: the hardware prefetcher then brings the
/// whole buffer into the cache at streaming speed, ahead of the random reads that follow
/// (before each layer of [`super::canonical::canonicalize`] and of a product's expansion).
pub(crate) fn warm(ids: &[u32]) {
    let touched = ids.iter().step_by(16).fold(0u32, |x, &id| x ^ id);
    std::hint::black_box(touched);
}

/// Gives `buffer` length `len` for a caller that then writes every slot: `resize` truncates a
/// longer buffer and fills only the growth of a shorter one (grown in place where the
/// allocator can), where `clear` and `resize` would fill it all on one thread.
pub(crate) fn reuse_len<T: Clone>(buffer: &mut Vec<T>, len: usize, fill: T) {
    buffer.resize(len, fill);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_length_copies_match_slice_copies() {
        for len in 0..12 {
            let from: Vec<u32> = (0..len as u32).map(|i| i * 7 + 1).collect();
            let mut into = vec![0; len];
            copy_ids(&mut into, &from);
            assert_eq!(into, from);
            let mut pushed = vec![9];
            push_ids(&mut pushed, &from);
            assert_eq!(&pushed[1..], &from[..]);
        }
        let mut ids: Vec<u32> = (0..10).collect();
        move_ids_down(&mut ids, 6, 1, 3);
        assert_eq!(ids, [0, 6, 7, 8, 4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn hashes_tell_runs_apart() {
        assert_eq!(hash_ids(&[1, 2, 3]), hash_ids(&[1, 2, 3]));
        let runs: [&[u32]; 6] = [&[], &[0], &[0, 0], &[1, 2, 3], &[3, 2, 1], &[1, 2, 3, 0]];
        let hashes: std::collections::HashSet<u64> = runs.iter().map(|r| hash_ids(r)).collect();
        assert_eq!(hashes.len(), runs.len());
        assert!(ids_equal(&[4, 5], &[4, 5]) && !ids_equal(&[4, 5], &[4]) && !ids_equal(&[4, 5], &[5, 4]));
    }

    #[test]
    fn scattered_ids_land_where_they_are_set() {
        let ids = ScatterIds::new(4);
        ids.set(2, 7);
        ids.set(0, 1);
        assert_eq!(ids.into_vec(), [1, 0, 7, 0]);
        let mut buffer = vec![5u32; 3];
        reuse_len(&mut buffer, 5, 0);
        assert_eq!(buffer, [5, 5, 5, 0, 0]);
        reuse_len(&mut buffer, 2, 0);
        assert_eq!(buffer, [5, 5]);
    }
}
