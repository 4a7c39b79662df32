//! Images under a symbol relation on one layer: every move rewrites one character and nothing
//! else (Nim's "take k tokens from heap i", for instance), so all the moves that touch layer
//! `l` are one relation `R` on its symbols.
//!
//! `S.layer_relation_image(l, R)` is `{ y : ∃ x ∈ S, (x_l, y_l) ∈ R, y_j = x_j for j ≠ l }`.
//! Above layer `l` the result reads like `S`; at layer `l` a state `s` goes on `c` to the union
//! of `δ(s, a)` over `(a, c) ∈ R`; below, a state is a set of states of `S` read in parallel
//! (a union), explored top-down like the n-ary union, with a one-member set being that state
//! of `S` itself. So the cost is one pass over the sets that actually occur, instead of one
//! product per pair of `R` with its hypotheses carried down the string.

use super::build::{RowTable, SliceTable, TUPLE, intern_explored};
use super::{Dfa, Symbol};

impl Dfa {
    /// The strings obtained from members of `self` by rewriting the symbol at `layer` along
    /// `relation`: `y` is a member when some member `x` agrees with `y` off `layer` and
    /// `(x[layer], y[layer])` is a pair of `relation`. With the pairs reversed this is the
    /// preimage (the strings with a move into `self`).
    ///
    /// # Panics
    /// If `layer` or a symbol of `relation` lies outside the shape.
    pub fn layer_relation_image(&self, layer: usize, relation: &[(Symbol, Symbol)]) -> Dfa {
        let shape = &self.shape;
        let n = shape.len();
        assert!(layer < n, "layer {layer} outside a shape of {n} layers");
        let alphabet_l = shape.alphabet(layer);
        // sources[c]: the input symbols that may become output symbol c.
        let mut sources: Vec<Vec<usize>> = vec![Vec::new(); alphabet_l];
        for &(a, c) in relation {
            assert!((a as usize) < alphabet_l && (c as usize) < alphabet_l, "pair ({a}, {c}) outside layer {layer}");
            sources[c as usize].push(a as usize);
        }
        for s in &mut sources {
            s.sort_unstable();
            s.dedup();
        }
        if self.is_empty() || relation.is_empty() {
            return Dfa::reject_all(shape);
        }
        // Tables hold the states of `self`, so a code may name one of them directly (it reads
        // exactly like that state); explored states are tagged with TUPLE.
        let tables: Vec<RowTable> = self.layers.iter().map(RowTable::from_layer).collect();
        let mut children: Vec<Vec<u32>> = Vec::with_capacity(n);
        // Above `layer`: explored states are states of `self` still to be rewritten.
        let mut pending: Vec<u32> = vec![self.initial.0];
        for l in 0..layer {
            let a = shape.alphabet(l);
            let raw = self.layers[l].raw();
            let mut index: hashbrown::HashMap<u32, u32> = hashbrown::HashMap::new();
            let mut next = Vec::new();
            let mut codes = Vec::with_capacity(pending.len() * a);
            for &s in &pending {
                for c in 0..a {
                    let x = raw[s as usize * a + c];
                    // The reject state stays rejecting; accept-all still needs its rewrite
                    // at `layer` (an accept-all string rewritten stays in the full set only
                    // if the relation covers every output), so it is explored too.
                    codes.push(if x == 0 {
                        0
                    } else {
                        TUPLE
                            | *index.entry(x).or_insert_with(|| {
                                next.push(x);
                                next.len() as u32 - 1
                            })
                    });
                }
            }
            children.push(codes);
            pending = next;
        }
        // At `layer`: each output symbol reads the union of the sources' successors.
        let mut sets = SliceTable::new();
        let mut scratch: Vec<u32> = Vec::new();
        let set_code = |scratch: &mut Vec<u32>, sets: &mut SliceTable, last: bool| -> u32 {
            if scratch.contains(&1) {
                return 1;
            }
            scratch.retain(|&x| x != 0);
            scratch.sort_unstable();
            scratch.dedup();
            match scratch.len() {
                0 => 0,
                1 => scratch[0],
                _ => {
                    debug_assert!(!last, "the last layer only leads to 0 or 1");
                    TUPLE | sets.intern(scratch)
                }
            }
        };
        {
            let raw = self.layers[layer].raw();
            let last = layer + 1 == n;
            let mut codes = Vec::with_capacity(pending.len() * alphabet_l);
            for &s in &pending {
                for from in &sources {
                    scratch.clear();
                    // State 1 (accept-all) has an all-1 row, state 0 an all-0 row (I3).
                    scratch.extend(from.iter().map(|&a| raw[s as usize * alphabet_l + a]));
                    codes.push(set_code(&mut scratch, &mut sets, last));
                }
            }
            children.push(codes);
        }
        // Below `layer`: sets of states of `self`, read in parallel.
        for l in layer + 1..n {
            let a = shape.alphabet(l);
            let raw = self.layers[l].raw();
            let last = l + 1 == n;
            let mut next = SliceTable::new();
            let mut codes = Vec::with_capacity(sets.len() * a);
            for t in 0..sets.len() as u32 {
                for c in 0..a {
                    scratch.clear();
                    scratch.extend(sets.get(t).iter().map(|&s| raw[s as usize * a + c]));
                    codes.push(set_code(&mut scratch, &mut next, last));
                }
            }
            children.push(codes);
            sets = next;
        }
        intern_explored(shape, tables, children)
    }
}
