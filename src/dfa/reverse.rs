//! String reversal: the set of the members read backwards, over the reversed shape.
//!
//! For a position string in row-major order this is the **180° rotation of the board**, the
//! mirror that lets a game switch the side to move (rotate, then swap the two players'
//! symbols with [`Dfa::swap_symbols`]).
//!
//! # How, and what it costs
//! The reversed DFA is the subset construction over the transposed transitions (Brzozowski's
//! step): reading the reversed string backwards through layer `l`, a state of the result is
//! the set of states of layer `l + 1` from which the part read so far is accepted. Because
//! every state of a canonical DFA is reachable (I6), these subsets are already pairwise
//! distinct languages; the bottom-up interning of [`intern_explored`] makes the result
//! canonical. The accept-all state belongs to every subset and is left implicit.
//!
//! The cost is the sum of the subset sizes, which is not bounded by the input: reversal can
//! in principle square (or worse) the number of states of a layer, where relabelling is
//! always one linear pass. For sets of board positions the two reading orders usually need
//! states of the same order (both remember a band of rows), so it is measured, not assumed;
//! `benches/dfa_ops.rs` reports it on Breakthrough sets.

use super::explored::{TUPLE, intern_explored};
use super::ids::hash_ids;
use super::unique::{RowTable, SliceTable, Slices};
use rayon::prelude::*;

/// Subsets built per parallel work unit.
const REVERSE_CHUNK: u32 = 2048;
use super::limits::Stoppable;
use super::{Dfa, Shape};

impl Dfa {
    /// The strings whose reversal is a member, over the reversed shape (layer `i` of the result
    /// has the alphabet of layer `len - 1 - i`). On row-major boards: the 180° rotation.
    ///
    /// # Errors
    /// An [`EngineStop`](super::limits::EngineStop).
    pub fn reverse(&self) -> Stoppable<Dfa> {
        Ok(self.reverse_bounded(usize::MAX)?.expect("an unbounded reversal always finishes"))
    }

    /// [`Dfa::reverse`], given up (`None`) as soon as the subsets and child codes it holds
    /// exceed `budget` ids (4 bytes each). Reversal can blow up where relabelling cannot (a
    /// subset construction), so a caller with a cheaper fallback bounds it.
    ///
    /// # Errors
    /// An [`EngineStop`](super::limits::EngineStop).
    pub fn reverse_bounded(&self, budget: usize) -> Stoppable<Option<Dfa>> {
        let n = self.shape.len();
        let shape = Shape::new(self.shape.sizes().iter().rev().copied().collect::<Vec<u16>>());
        if self.initial.0 < 2 {
            return Ok(Some(Dfa::trivial(&shape, self.initial)));
        }
        // Subsets of the current depth's non-reserved states; at depth n (start) the only
        // state is the implicit accept, so the one subset is empty.
        let mut current: Slices = {
            let mut root = SliceTable::new();
            root.intern(&[])?;
            root.into_slices()
        };
        let mut children: Vec<Vec<u32>> = Vec::with_capacity(n);
        // Child codes of the finished depths.
        let mut held = 0usize;
        for i in 0..n {
            let l = n - 1 - i;
            let layer = &self.layers[l];
            let (a, len) = (layer.alphabet(), layer.len());
            let next_len = self.layers.get(l + 1).map_or(2, |x| x.len());
            let raw = layer.raw();
            // Transposed transitions of layer l: preds[starts[c * next_len + q]..] are the
            // non-reserved states p with p --c--> q (q = 0 never needed).
            let mut starts = vec![0u32; a * next_len + 1];
            for p in 2..len {
                for (c, &q) in raw[p * a..(p + 1) * a].iter().enumerate() {
                    starts[c * next_len + q as usize + 1] += 1;
                }
            }
            for k in 1..starts.len() {
                starts[k] += starts[k - 1];
            }
            let mut fill = starts.clone();
            let mut preds = vec![0u32; starts[a * next_len] as usize];
            for p in 2..len {
                for (c, &q) in raw[p * a..(p + 1) * a].iter().enumerate() {
                    let slot = &mut fill[c * next_len + q as usize];
                    preds[*slot as usize] = p as u32;
                    *slot += 1;
                }
            }
            drop(fill);
            let sources = |c: usize, q: u32| {
                let k = c * next_len + q as usize;
                &preds[starts[k] as usize..starts[k + 1] as usize]
            };
            let last = i + 1 == n;
            let initial = self.initial.0;
            // The subsets of a batch are built on all threads, chunk by chunk, each chunk into
            // one flat buffer; then interned in order on one thread (hashes precomputed).
            let build_chunk = |stamp: &mut Vec<u32>, range: std::ops::Range<u32>| {
                let mut members: Vec<u32> = Vec::new();
                let mut ends: Vec<u32> = Vec::with_capacity(range.len() * a);
                let mut mark = 0u32;
                for t in range {
                    let subset = current.get(t);
                    for c in 0..a {
                        let begin = members.len();
                        // The implicit accept-all state (1) is in every subset.
                        for &q in std::iter::once(&1).chain(subset) {
                            for &p in sources(c, q) {
                                if stamp[p as usize] != mark {
                                    stamp[p as usize] = mark;
                                    members.push(p);
                                }
                            }
                        }
                        mark += 1;
                        if last {
                            // Depth 0: accepted when the initial state is in the subset.
                            let accepted = members[begin..].contains(&initial);
                            members.truncate(begin);
                            members.push(u32::from(accepted));
                        } else {
                            members[begin..].sort_unstable();
                        }
                        ends.push(members.len() as u32);
                    }
                }
                stamp.fill(u32::MAX);
                let hashes: Vec<u64> = if last {
                    Vec::new()
                } else {
                    let mut from = 0;
                    ends.iter()
                        .map(|&e| {
                            let h = hash_ids(&members[from..e as usize]);
                            from = e as usize;
                            h
                        })
                        .collect()
                };
                (members, ends, hashes)
            };
            let count = current.len() as u32;
            let mut next = SliceTable::new();
            let mut codes = Vec::with_capacity(count as usize * a);
            let threads = rayon::current_num_threads() as u32;
            let batch = REVERSE_CHUNK * 4 * threads;
            for first in (0..count).step_by(batch as usize) {
                let last_of_batch = (first + batch).min(count);
                let ranges: Vec<std::ops::Range<u32>> = (first..last_of_batch)
                    .step_by(REVERSE_CHUNK as usize)
                    .map(|t| t..(t + REVERSE_CHUNK).min(last_of_batch))
                    .collect();
                let built: Vec<(Vec<u32>, Vec<u32>, Vec<u64>)> = if ranges.len() > 1 {
                    ranges.into_par_iter().map_init(|| vec![u32::MAX; len], |stamp, r| build_chunk(stamp, r)).collect()
                } else {
                    ranges.into_iter().map(|r| build_chunk(&mut vec![u32::MAX; len], r)).collect()
                };
                for (members, ends, hashes) in built {
                    let mut from = 0;
                    for (k, &e) in ends.iter().enumerate() {
                        let found = &members[from..e as usize];
                        from = e as usize;
                        codes.push(if last { found[0] } else { TUPLE | next.intern_hashed(found, hashes[k])? });
                    }
                }
                if held + codes.len() + next.member_count() + current.member_count() > budget {
                    return Ok(None);
                }
            }
            held += codes.len();
            children.push(codes);
            current = next.into_slices();
        }
        let tables = (0..n).map(|i| RowTable::new(shape.alphabet(i))).collect();
        Ok(Some(intern_explored(&shape, tables, children)?))
    }
}
