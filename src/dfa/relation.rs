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

/// How to fold each symbol's sources cheaply: `(base, extra)` per symbol `c`, where
/// `sources[c]` is `sources[base] ∪ extra` for an earlier symbol `base` whose sources are a
/// subset (the largest one), so nested source sets (Nim's "any smaller heap") cost one union
/// per symbol instead of one per source.
fn fold_plan(sources: &[Vec<u32>]) -> Vec<(Option<usize>, Vec<u32>)> {
    (0..sources.len())
        .map(|c| {
            let subset = |b: &usize| sources[*b].iter().all(|x| sources[c].binary_search(x).is_ok());
            let base = (0..c).filter(|b| !sources[*b].is_empty()).filter(subset).max_by_key(|b| sources[*b].len());
            let extra = match base {
                Some(b) => sources[c].iter().copied().filter(|x| sources[b].binary_search(x).is_err()).collect(),
                None => sources[c].clone(),
            };
            (base, extra)
        })
        .collect()
}

/// Unions of states, built bottom-up and hash-consed: every node is a row in its layer's
/// unique table, which starts with the states of one canonical DFA, so a node is that DFA's
/// state when the union equals one, and two nodes with the same language are the same node
/// (by induction from the last layer: same language, same children, same row).
struct Unions {
    tables: Vec<RowTable>,
    alphabets: Vec<usize>,
    memo: Vec<hashbrown::HashMap<(u32, u32), u32>>,
    row: Vec<Vec<u32>>,
}

impl Unions {
    fn new(dfa: &Dfa) -> Unions {
        let n = dfa.shape.len();
        Unions {
            tables: dfa.layers.iter().map(RowTable::from_layer).collect(),
            alphabets: (0..n).map(|l| dfa.shape.alphabet(l)).collect(),
            memo: (0..n).map(|_| hashbrown::HashMap::new()).collect(),
            row: (0..n).map(|l| Vec::with_capacity(dfa.shape.alphabet(l))).collect(),
        }
    }

    fn child(&self, layer: usize, node: u32, c: usize) -> u32 {
        self.tables[layer].rows()[node as usize * self.alphabets[layer] + c]
    }

    /// The node of `L(x) ∪ L(y)`, both nodes of `layer` (`layer == n`: past the last layer,
    /// where only 0 and 1 exist).
    fn union(&mut self, layer: usize, x: u32, y: u32) -> u32 {
        if x == y || y == 0 {
            return x;
        }
        if x == 0 {
            return y;
        }
        if x == 1 || y == 1 {
            return 1;
        }
        let key = (x.min(y), x.max(y));
        if let Some(&z) = self.memo[layer].get(&key) {
            return z;
        }
        let a = self.alphabets[layer];
        let mut row = std::mem::take(&mut self.row[layer]);
        row.clear();
        for c in 0..a {
            let (cx, cy) = (self.child(layer, x, c), self.child(layer, y, c));
            let z = self.union(layer + 1, cx, cy);
            row.push(z);
        }
        let z = self.tables[layer].intern(&row);
        self.row[layer] = row;
        self.memo[layer].insert(key, z);
        z
    }
}

impl Dfa {
    /// The union over `relations` (`(layer, pairs)`) of [`Dfa::layer_relation_image`],
    /// intersected with `within` when given, in one top-down pass: the strings `y` of `within`
    /// obtained from a member `x` of `self` by rewriting exactly one character along the
    /// relation of its layer.
    ///
    /// Why one pass: the image under one layer's relation alone can be far larger than the
    /// union (in Nim, "a token was taken from heap 3" remembers a set of XOR values that the
    /// other heaps' moves fill in), so building the parts and then their union pays for
    /// states the answer never has. A state is `(w, u, N)`: `w` the state of `within`, `u` the
    /// state of `self` on the prefix read unchanged (a move may still come), `N` the union of
    /// the states of `self` reached by prefixes with the move made. `N` is kept as one
    /// hash-consed union node ([`Unions`]), not as the set of those states, so equal unions are
    /// one state and a step costs a memoised union rather than a pass over the set.
    ///
    /// # Panics
    /// If a layer or a symbol of `relations` lies outside the shape, or `within` has another
    /// shape.
    pub fn relations_image(&self, relations: &[(usize, Vec<(Symbol, Symbol)>)], within: Option<&Dfa>) -> Dfa {
        let shape = &self.shape;
        let n = shape.len();
        if let Some(w) = within {
            assert_eq!(&w.shape, shape, "within has another shape");
        }
        // sources[l][c]: the symbols of layer l that may become c (empty where l has no relation).
        let mut sources: Vec<Vec<Vec<u32>>> = (0..n).map(|l| vec![Vec::new(); shape.alphabet(l)]).collect();
        for (layer, pairs) in relations {
            assert!(*layer < n, "layer {layer} outside a shape of {n} layers");
            let alphabet = shape.alphabet(*layer);
            for &(a, c) in pairs {
                assert!((a as usize) < alphabet && (c as usize) < alphabet, "pair ({a}, {c}) outside layer {layer}");
                sources[*layer][c as usize].push(a as u32);
            }
        }
        for per_symbol in &mut sources {
            for s in per_symbol.iter_mut() {
                s.sort_unstable();
                s.dedup();
            }
        }
        let moves_at: Vec<bool> = sources.iter().map(|per| per.iter().any(|s| !s.is_empty())).collect();
        let plans: Vec<Vec<(Option<usize>, Vec<u32>)>> = sources.iter().map(|per| fold_plan(per)).collect();
        // moves_below[l]: some layer >= l still has a move, so an unchanged prefix may go on.
        let mut moves_below = vec![false; n + 1];
        for l in (0..n).rev() {
            moves_below[l] = moves_below[l + 1] || moves_at[l];
        }
        let within_initial = within.map_or(1, |w| w.initial.0);
        if self.is_empty() || !moves_below[0] || within_initial == 0 {
            return Dfa::reject_all(shape);
        }
        let mut unions = Unions::new(self);
        let mut children: Vec<Vec<u32>> = Vec::with_capacity(n);
        let mut states: Vec<[u32; 3]> = vec![[within_initial, self.initial.0, 0]];
        for l in 0..n {
            let a = shape.alphabet(l);
            let raw = self.layers[l].raw();
            let within_raw = within.map(|w| w.layers[l].raw());
            let last = l + 1 == n;
            let mut index: hashbrown::HashMap<[u32; 3], u32> = hashbrown::HashMap::new();
            let mut next: Vec<[u32; 3]> = Vec::new();
            // moved[(u, c)]: the union of u's successors on the sources of c, once per (u, c).
            let mut moved: hashbrown::HashMap<u32, Vec<u32>> = hashbrown::HashMap::new();
            let mut codes = Vec::with_capacity(states.len() * a);
            for &[w, u, node] in &states {
                if u != 0 && moves_at[l] && !moved.contains_key(&u) {
                    let mut row: Vec<u32> = Vec::with_capacity(a);
                    for (base, extra) in &plans[l] {
                        let start = base.map_or(0, |b| row[b]);
                        let union = extra
                            .iter()
                            .fold(start, |acc, &from| unions.union(l + 1, acc, raw[u as usize * a + from as usize]));
                        row.push(union);
                    }
                    moved.insert(u, row);
                }
                for c in 0..a {
                    let w2 = match within_raw {
                        Some(wr) if w != 1 => wr[w as usize * a + c],
                        _ => 1,
                    };
                    if w2 == 0 {
                        codes.push(0);
                        continue;
                    }
                    let mut node2 = if node == 0 { 0 } else { unions.child(l, node, c) };
                    if u != 0 && moves_at[l] {
                        node2 = unions.union(l + 1, node2, moved[&u][c]);
                    }
                    let u2 = if u != 0 && moves_below[l + 1] && node2 != 1 { raw[u as usize * a + c] } else { 0 };
                    let code = if last {
                        // The last layer leads to 0 or 1 only; w2 is 1 here.
                        node2
                    } else if u2 == 0 && (node2 == 0 || w2 == 1) {
                        // Nothing left, or reads exactly like that union node.
                        node2
                    } else {
                        let key = [w2, u2, node2];
                        TUPLE
                            | *index.entry(key).or_insert_with(|| {
                                next.push(key);
                                next.len() as u32 - 1
                            })
                    };
                    codes.push(code);
                }
            }
            children.push(codes);
            states = next;
        }
        intern_explored(shape, unions.tables, children)
    }
}
