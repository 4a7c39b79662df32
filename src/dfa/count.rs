//! Exact cardinality, lexicographic enumeration, ranking and uniform sampling.
//!
//! All three rest on the per-state member counts `count[l][s]` (number of suffixes state `s`
//! of layer `l` accepts), computed bottom-up in `u128` with overflow checks (and kept in
//! `u64` for sampling where they fit): a count is never approximated.

use super::{Dfa, StateId, Symbol};

/// Per-layer suffix counts of every state; `counts[n]` is `[0, 1]`.
pub(super) fn suffix_counts(dfa: &Dfa) -> Option<Vec<Vec<u128>>> {
    suffix_counts_as(dfa)
}

/// [`suffix_counts`] as `C`, or `None` if a count a row refers to does not fit (then neither
/// does the set's). In `u64` they take half the memory: sampling the loss runs of
/// Breakthrough 6x6, hundreds of millions of states each.
fn suffix_counts_as<C: Copy + TryFrom<u128>>(dfa: &Dfa) -> Option<Vec<Vec<C>>> {
    let n = dfa.shape().len();
    let narrow = |count: u128| C::try_from(count).ok();
    let mut counts: Vec<Vec<C>> = vec![Vec::new(); n + 1];
    counts[n] = vec![narrow(0)?, narrow(1)?];
    let mut below: Vec<u128> = vec![0, 1];
    for l in (0..n).rev() {
        let here = layer_counts(dfa, l, &below)?;
        let mut narrowed = Vec::with_capacity(here.len());
        for (s, &count) in here.iter().enumerate() {
            // The accept-all state's count is read only where a row leads to it, and then the
            // count of the row's state holds it: if it does not fit, that one fails.
            narrowed.push(if s == 1 { narrow(count).or(narrow(0))? } else { narrow(count)? });
        }
        counts[l] = narrowed;
        below = here;
    }
    Some(counts)
}

/// The suffix counts of layer `l`'s states, from those of layer `l + 1` (`below`).
fn layer_counts(dfa: &Dfa, l: usize, below: &[u128]) -> Option<Vec<u128>> {
    let n = dfa.shape().len();
    let layer = &dfa.layers()[l];
    // The accept-all state's count is only needed where a row leads to it: a set of a
    // few strings over a huge shape (Nim 64x3 has 2^128 strings) still counts.
    let all_below = if l + 1 == n { Some(1) } else { dfa.shape().suffix_count(l + 1) };
    let mut here = Vec::with_capacity(layer.len());
    here.push(0);
    // The accept-all state; if its count overflows, no row refers to it (or the count
    // has already failed through `all_below`), so 0 is never read.
    here.push(dfa.shape().suffix_count(l).unwrap_or(0));
    for s in 2..layer.len() {
        let mut total: u128 = 0;
        for &x in layer.row(StateId(s as u32)) {
            let below = if x == StateId::ACCEPT.0 { all_below? } else { below[x as usize] };
            total = total.checked_add(below)?;
        }
        here.push(total);
    }
    Some(here)
}

/// The number of members, holding two layers' counts at a time: a count of a set of a
/// billion states would otherwise hold 16 bytes for each (every backup ply of Breakthrough
/// 6x6 counts its new sets, of up to hundreds of millions of states).
fn member_count(dfa: &Dfa) -> Option<u128> {
    let mut below = vec![0, 1];
    for l in (0..dfa.shape().len()).rev() {
        below = layer_counts(dfa, l, &below)?;
    }
    Some(below[dfa.initial().index()])
}

impl Dfa {
    /// Number of members, or `None` if it exceeds `u128::MAX`.
    pub fn checked_count(&self) -> Option<u128> {
        if self.is_empty() {
            return Some(0);
        }
        if self.is_full() {
            return self.shape().suffix_count(0);
        }
        member_count(self)
    }

    /// Number of members.
    ///
    /// # Panics
    /// If the count exceeds `u128::MAX` (use [`Dfa::checked_count`] where that can happen).
    pub fn count(&self) -> u128 {
        self.checked_count().expect("member count exceeds u128::MAX")
    }

    /// Members in lexicographic order.
    pub fn iter(&self) -> Members<'_> {
        Members::new(self)
    }

    /// Every member, in lexicographic order (small sets only).
    pub fn to_strings(&self) -> Vec<Vec<Symbol>> {
        self.iter().collect()
    }

    /// A sampler drawing members uniformly, or `None` if the set is empty or too large to
    /// count in a `u128`.
    pub fn sampler(&self) -> Option<Sampler<'_>> {
        if self.is_empty() {
            return None;
        }
        let counts = match suffix_counts_as(self) {
            Some(narrow) => Counts::Narrow(narrow),
            None => Counts::Wide(suffix_counts(self)?),
        };
        Some(Sampler { dfa: self, counts })
    }
}

/// Lexicographic iterator over the members of a [`Dfa`] (a depth-first walk).
pub struct Members<'a> {
    dfa: &'a Dfa,
    /// `stack[l]` = (state of layer l, next symbol to try there).
    stack: Vec<(StateId, usize)>,
    string: Vec<Symbol>,
    done: bool,
}

impl<'a> Members<'a> {
    fn new(dfa: &'a Dfa) -> Members<'a> {
        let done = dfa.is_empty();
        let stack = if done || dfa.shape().is_empty() { Vec::new() } else { vec![(dfa.initial(), 0)] };
        Members { dfa, stack, string: Vec::new(), done }
    }
}

impl Iterator for Members<'_> {
    type Item = Vec<Symbol>;

    fn next(&mut self) -> Option<Vec<Symbol>> {
        if self.done {
            return None;
        }
        let n = self.dfa.shape().len();
        if n == 0 {
            self.done = true;
            return Some(Vec::new());
        }
        loop {
            let depth = self.stack.len();
            if depth == 0 {
                self.done = true;
                return None;
            }
            let (state, symbol) = self.stack[depth - 1];
            let layer = depth - 1;
            if symbol >= self.dfa.shape().alphabet(layer) {
                self.stack.pop();
                continue;
            }
            self.stack[depth - 1].1 = symbol + 1;
            let child = self.dfa.layers()[layer].next(state, symbol as Symbol);
            if child == StateId::REJECT {
                continue;
            }
            self.string.truncate(layer);
            self.string.push(symbol as Symbol);
            if layer + 1 == n {
                debug_assert_eq!(child, StateId::ACCEPT);
                return Some(self.string.clone());
            }
            self.stack.push((child, 0));
        }
    }
}

/// Draws members of a [`Dfa`] uniformly at random, or by rank.
pub struct Sampler<'a> {
    dfa: &'a Dfa,
    counts: Counts,
}

/// Suffix counts, in 8 bytes a state where every count fits.
enum Counts {
    Narrow(Vec<Vec<u64>>),
    Wide(Vec<Vec<u128>>),
}

impl Sampler<'_> {
    /// Number of members.
    pub fn len(&self) -> u128 {
        let initial = self.dfa.initial().index();
        match &self.counts {
            Counts::Narrow(counts) => counts[0][initial].into(),
            Counts::Wide(counts) => counts[0][initial],
        }
    }

    /// Whether there are no members (never: an empty set has no sampler).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The member of rank `index` in lexicographic order.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn nth(&self, index: u128) -> Vec<Symbol> {
        assert!(index < self.len(), "rank {index} out of range");
        let mut out = Vec::with_capacity(self.dfa.shape().len());
        match &self.counts {
            Counts::Narrow(counts) => member_of_rank(self.dfa, counts, index, &mut out),
            Counts::Wide(counts) => member_of_rank(self.dfa, counts, index, &mut out),
        }
        out
    }

    /// A uniformly random member.
    pub fn sample(&self, rng: &mut SplitMix64) -> Vec<Symbol> {
        self.nth(rng.below(self.len()))
    }
}

/// A small, seedable pseudo-random generator (SplitMix64, Steele et al. 2014), enough for
/// reproducible sampling; not for cryptography.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..bound` (rejection sampling, so exactly uniform).
    ///
    /// # Panics
    /// If `bound` is 0.
    pub fn below(&mut self, bound: u128) -> u128 {
        assert!(bound > 0);
        let bits = 128 - (bound - 1).leading_zeros();
        loop {
            let x = ((self.next_u64() as u128) << 64) | self.next_u64() as u128;
            let x = if bits == 0 { 0 } else { x >> (128 - bits) };
            if x < bound {
                return x;
            }
        }
    }
}

/// Appends to `word` the member of rank `index` (below the member count) of `dfa`, whose
/// suffix counts are `counts`.
pub(super) fn member_of_rank<C: Copy + Into<u128>>(
    dfa: &Dfa,
    counts: &[Vec<C>],
    mut index: u128,
    word: &mut Vec<Symbol>,
) {
    let mut state = dfa.initial();
    for (l, layer) in dfa.layers().iter().enumerate() {
        for c in 0..layer.alphabet() {
            let child = layer.next(state, c as Symbol);
            let below: u128 = counts[l + 1][child.index()].into();
            if index < below {
                word.push(c as Symbol);
                state = child;
                break;
            }
            index -= below;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::dfa::{Dfa, Shape};

    /// Counts kept in 8 bytes where they fit and in 16 where they do not draw the same
    /// members by rank: the first, the last and ranks between agree with the order of the
    /// members, on both sides of 2^64.
    #[test]
    fn a_sampler_ranks_alike_below_and_above_64_bits_of_members() {
        for layers in [30, 48] {
            let shape = Shape::uniform(layers, 3);
            // Every string but one.
            let missing: Vec<u8> = [2, 2].into_iter().chain(std::iter::repeat_n(0, layers - 2)).collect();
            let set = Dfa::accept_all(&shape).difference(&Dfa::from_strings(&shape, &[missing])).unwrap();
            let total = 3u128.pow(layers as u32);
            let sampler = set.sampler().expect("counted");
            assert_eq!(sampler.len(), set.count());
            assert_eq!(sampler.len(), total - 1);
            assert_eq!(
                super::suffix_counts_as::<u64>(&set).is_some(),
                total <= u128::from(u64::MAX),
                "{layers} layers"
            );
            assert_eq!(sampler.nth(0), vec![0; layers]);
            let mut last = vec![2; layers];
            assert_eq!(sampler.nth(sampler.len() - 1), last);
            last[layers - 1] = 1;
            assert_eq!(sampler.nth(sampler.len() - 2), last);
            let mut members = set.iter();
            for rank in 0..50 {
                assert_eq!(Some(sampler.nth(rank)), members.next());
            }
        }
    }
}
