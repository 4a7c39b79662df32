//! Regions: a set cut into disjoint parts by the states its strings pass.
//!
//! A [`Region`] of a DFA `D` is a list of cuts `(layer, lo..hi)`: the strings of `D` whose
//! path is, at each cut's layer, in a state whose id lies in `lo..hi`. `D` is deterministic,
//! so each string has one path and the two halves of a [`Region::split`] are disjoint and
//! together make the region. An image within `D` can then be taken one region at a time
//! (the image engine tests the cut as it steps `D`'s state, so a region costs no copy of
//! `D`), and the union of the regions' images is the image: each part explores only the
//! product under its own states, and the budget picks how many parts there are.
//!
//! Regions are named by their cuts, so they are the same after a restart and a journal can
//! say which parts of an image it holds.

use super::{Dfa, DfaBuilder, StateId};
use serde::{Deserialize, Serialize};

/// At `layer`, the path's state id is in `lo..hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cut {
    /// The layer whose state is tested (1 ..= the last layer: layer 0 has one state).
    pub layer: u32,
    /// Lowest id admitted.
    pub lo: u32,
    /// One past the highest id admitted.
    pub hi: u32,
}

/// The strings of a DFA whose path passes every cut (see the module docs). No cuts: all.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Region {
    /// By layer, at most one per layer.
    cuts: Vec<Cut>,
}

/// The fewest states a layer must reach within a region for a split to be made there: each
/// half then has some of them.
const SPLIT_STATES: usize = 8;

impl Region {
    /// Every string.
    pub fn whole() -> Region {
        Region::default()
    }

    /// Whether this is every string.
    pub fn is_whole(&self) -> bool {
        self.cuts.is_empty()
    }

    /// The cuts, by layer.
    pub fn cuts(&self) -> &[Cut] {
        &self.cuts
    }

    /// The cut at `layer`, if any.
    #[inline]
    pub(crate) fn cut_at(&self, layer: usize) -> Option<&Cut> {
        self.cuts.iter().find(|c| c.layer as usize == layer)
    }

    /// Whether a path in state `state` of `layer` stays in the region there.
    #[inline]
    pub fn admits(&self, layer: usize, state: u32) -> bool {
        self.cut_at(layer).is_none_or(|c| (c.lo..c.hi).contains(&state))
    }

    /// The states of `layer` that `dfa`'s paths in this region reach (sorted, the reject
    /// state left out).
    fn reached(&self, dfa: &Dfa, layer: usize) -> Vec<u32> {
        let mut states = vec![dfa.initial().0];
        for l in 0..layer {
            let rows = &dfa.layers()[l];
            let mut next: Vec<u32> = states
                .iter()
                .flat_map(|&s| (0..rows.alphabet()).map(move |c| rows.next(StateId(s), c as super::Symbol).0))
                .filter(|&t| t != 0 && self.admits(l + 1, t))
                .collect();
            next.sort_unstable();
            next.dedup();
            states = next;
        }
        states
    }

    /// This region of `dfa` in two disjoint halves whose union it is: the states of the
    /// first layer below the region's deepest cut that reaches at least a few of them
    /// (the deepest cut's own layer, if it still admits several), split in two at their
    /// median. `None` if no layer of the region has two states: it is a single path.
    pub fn split(&self, dfa: &Dfa) -> Option<[Region; 2]> {
        let n = dfa.shape().len();
        let start = self.cuts.last().map_or(1, |c| c.layer as usize);
        let mut best: Option<(usize, Vec<u32>)> = None;
        for layer in start..n {
            let reached = self.reached(dfa, layer);
            if reached.len() >= 2 && best.as_ref().is_none_or(|(_, b)| reached.len() > b.len()) {
                best = Some((layer, reached));
            }
            if best.as_ref().is_some_and(|(_, b)| b.len() >= SPLIT_STATES) {
                break;
            }
        }
        let (layer, reached) = best?;
        let mid = reached[reached.len() / 2];
        let (lo, hi) = (reached[0], reached[reached.len() - 1] + 1);
        let with = |lo: u32, hi: u32| {
            let mut cuts: Vec<Cut> = self.cuts.iter().filter(|c| c.layer as usize != layer).copied().collect();
            let (lo, hi) = match self.cut_at(layer) {
                Some(c) => (lo.max(c.lo), hi.min(c.hi)),
                None => (lo, hi),
            };
            cuts.push(Cut { layer: layer as u32, lo, hi });
            cuts.sort_by_key(|c| c.layer);
            Region { cuts }
        };
        Some([with(lo, mid), with(mid, hi)])
    }

    /// `dfa` cut into at least `parts` regions (as many as it has paths, if fewer), by
    /// splitting every region in turn.
    pub fn parts_of(dfa: &Dfa, parts: usize) -> Vec<Region> {
        let mut regions = vec![Region::whole()];
        while regions.len() < parts {
            let mut next = Vec::with_capacity(regions.len() * 2);
            let mut split_any = false;
            for r in regions {
                match r.split(dfa) {
                    Some(halves) => {
                        next.extend(halves);
                        split_any = true;
                    }
                    None => next.push(r),
                }
            }
            regions = next;
            if !split_any {
                break;
            }
        }
        regions
    }
}

impl std::fmt::Display for Region {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.cuts.is_empty() {
            return write!(f, "whole");
        }
        for (i, c) in self.cuts.iter().enumerate() {
            write!(f, "{}L{}:{}..{}", if i > 0 { "," } else { "" }, c.layer, c.lo, c.hi)?;
        }
        Ok(())
    }
}

impl Dfa {
    /// The members of this set in `region` of it, as a DFA of their own (a copy: images take
    /// the region directly, see [`Dfa::image_planned_in`]).
    pub fn restricted_to(&self, region: &Region) -> Dfa {
        if region.is_whole() {
            return self.clone();
        }
        let shape = self.shape().clone();
        let n = shape.len();
        let mut builder = DfaBuilder::new(&shape);
        // `ids[s]`: the builder's id of this DFA's state `s` of the layer below.
        let mut below: Vec<StateId> = vec![StateId::REJECT, StateId::ACCEPT];
        let mut row = Vec::new();
        for l in (0..n).rev() {
            let layer = &self.layers()[l];
            let mut ids = vec![StateId::REJECT, StateId::ACCEPT];
            for s in 2..layer.len() as u32 {
                row.clear();
                for c in 0..layer.alphabet() {
                    let t = layer.next(StateId(s), c as super::Symbol);
                    let kept = t.0 == 0 || l + 1 == n || region.admits(l + 1, t.0);
                    row.push(if kept { below[t.index()] } else { StateId::REJECT });
                }
                ids.push(builder.add(l, &row));
            }
            below = ids;
        }
        builder.finish(below[self.initial().index()])
    }
}

#[cfg(test)]
mod tests {
    use super::Region;
    use crate::dfa::{Dfa, Shape};

    fn sample(shape: &Shape, seed: u64, count: usize) -> Dfa {
        let mut x = seed;
        let words: Vec<Vec<u8>> = (0..count)
            .map(|_| {
                (0..shape.len())
                    .map(|l| {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        ((x >> 33) % shape.alphabet(l) as u64) as u8
                    })
                    .collect()
            })
            .collect();
        Dfa::from_strings(shape, &words)
    }

    /// However finely a set is cut, its regions are disjoint and together are the set.
    #[test]
    fn regions_partition_the_set() {
        let shape = Shape::uniform(9, 3);
        for seed in 1..6 {
            let set = sample(&shape, seed, 400);
            for parts in [1, 2, 3, 8, 64, 1000] {
                let regions = Region::parts_of(&set, parts);
                // A region of one state a layer may still hold many strings: only so many cuts.
                assert!(regions.len() >= parts.min(64), "{parts}: {}", regions.len());
                let pieces: Vec<Dfa> = regions.iter().map(|r| set.restricted_to(r)).collect();
                let mut union = Dfa::reject_all(&shape);
                for p in &pieces {
                    assert!(p.intersection(&union).unwrap().is_empty(), "regions overlap");
                    union = union.union(p).unwrap();
                }
                assert_eq!(union, set, "seed {seed}, {parts} parts");
            }
        }
    }
}
