//! Bottom-up construction: per-layer unique tables of rows, then canonical renumbering.
//!
//! Every operation ends here. It produces rows for result states bottom-up (children before
//! parents), interns each row in its layer's [`RowTable`] (which reduces all-reject and
//! all-accept rows to the reserved ids and merges equal rows, giving I4 and I5), and finally
//! calls [`canonicalize`], which drops states the initial state cannot reach (I6) and renumbers
//! in first-appearance order (I7).

use super::{Dfa, Layer, Shape, StateId, Symbol};
use hashbrown::DefaultHashBuilder;
use hashbrown::HashTable;
use std::hash::BuildHasher;

/// A layer's unique table: rows of `alphabet` ids, stored flat, looked up by content.
///
/// Rows 0 and 1 are the reserved all-reject and all-accept rows (I3).
pub(crate) struct RowTable {
    alphabet: usize,
    rows: Vec<u32>,
    table: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl RowTable {
    pub(crate) fn new(alphabet: usize) -> RowTable {
        let Layer { next, .. } = Layer::reserved_only(alphabet);
        RowTable { alphabet, rows: next, table: HashTable::new(), hasher: DefaultHashBuilder::default() }
    }

    pub(crate) fn with_capacity(alphabet: usize, states: usize) -> RowTable {
        let mut t = RowTable::new(alphabet);
        t.rows.reserve(states * alphabet);
        t.table.reserve(states, |_| 0);
        t
    }

    /// The id of the state with this row, creating it if new. All-0 and all-1 rows are the
    /// reserved ids (I4).
    pub(crate) fn intern(&mut self, row: &[u32]) -> u32 {
        debug_assert_eq!(row.len(), self.alphabet);
        let first = row[0];
        if first < 2 && row.iter().all(|&x| x == first) {
            return first;
        }
        let hash = self.hasher.hash_one(row);
        let alphabet = self.alphabet;
        let rows = &self.rows;
        let eq = |&id: &u32| &rows[id as usize * alphabet..(id as usize + 1) * alphabet] == row;
        if let Some(&id) = self.table.find(hash, eq) {
            return id;
        }
        let id = u32::try_from(self.rows.len() / alphabet).expect("more than 2^32 states in one layer");
        self.rows.extend_from_slice(row);
        let (rows, hasher) = (&self.rows, &self.hasher);
        self.table
            .insert_unique(hash, id, |&i| hasher.hash_one(&rows[i as usize * alphabet..(i as usize + 1) * alphabet]));
        id
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

/// Variable-length keys (sets of states, product tuples) of one layer, stored flat and looked
/// up by content; each gets a dense index in insertion order.
pub(crate) struct SliceTable {
    members: Vec<u32>,
    starts: Vec<usize>,
    table: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl SliceTable {
    pub(crate) fn new() -> SliceTable {
        SliceTable {
            members: Vec::new(),
            starts: vec![0],
            table: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
        }
    }

    pub(crate) fn get(&self, i: u32) -> &[u32] {
        &self.members[self.starts[i as usize]..self.starts[i as usize + 1]]
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub(crate) fn intern(&mut self, set: &[u32]) -> u32 {
        let hash = self.hasher.hash_one(set);
        let (members, starts) = (&self.members, &self.starts);
        let slice = |i: u32| &members[starts[i as usize]..starts[i as usize + 1]];
        if let Some(&i) = self.table.find(hash, |&i| slice(i) == set) {
            return i;
        }
        let i = self.len() as u32;
        self.members.extend_from_slice(set);
        self.starts.push(self.members.len());
        let (members, starts, hasher) = (&self.members, &self.starts, &self.hasher);
        self.table.insert_unique(hash, i, |&j| hasher.hash_one(&members[starts[j as usize]..starts[j as usize + 1]]));
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
pub(crate) fn intern_explored(shape: &Shape, mut tables: Vec<RowTable>, mut children: Vec<Vec<u32>>) -> Dfa {
    let mut result_next: Vec<u32> = Vec::new();
    let mut row = Vec::new();
    for l in (0..shape.len()).rev() {
        let alphabet = shape.alphabet(l);
        let codes = std::mem::take(&mut children[l]);
        let count = codes.len() / alphabet;
        let mut result = Vec::with_capacity(count);
        for t in 0..count {
            row.clear();
            row.extend(
                codes[t * alphabet..(t + 1) * alphabet]
                    .iter()
                    .map(|&code| if code & TUPLE != 0 { result_next[(code & !TUPLE) as usize] } else { code }),
            );
            result.push(tables[l].intern(&row));
        }
        result_next = result;
    }
    let rows = tables.into_iter().map(RowTable::into_rows).collect();
    canonicalize(shape, result_next[0], rows)
}

/// Turn minimal per-layer row tables (I3–I5 hold, I6–I7 may not) into a canonical [`Dfa`].
///
/// `layers[l]` holds the rows of layer `l`, reserved rows first. Runs in time linear in the
/// table sizes: one top-down scan assigning ids in first-appearance order (I7), which also
/// drops every unreachable state (I6).
pub(crate) fn canonicalize(shape: &Shape, initial: u32, layers: Vec<Vec<u32>>) -> Dfa {
    assert_eq!(layers.len(), shape.len());
    if initial < 2 {
        return Dfa::trivial(shape, StateId(initial));
    }
    let n = layers.len();
    let mut out: Vec<Layer> = Vec::with_capacity(n);
    // Old ids of the current layer's live states, in new-id order (new id = position + 2).
    let mut order: Vec<u32> = vec![initial];
    for l in 0..n {
        let alphabet = shape.alphabet(l);
        let old = &layers[l];
        let old_next_len = if l + 1 < n { layers[l + 1].len() / shape.alphabet(l + 1) } else { 2 };
        let mut new_of_old = vec![u32::MAX; old_next_len];
        new_of_old[0] = 0;
        new_of_old[1] = 1;
        let mut next_order: Vec<u32> = Vec::new();
        let mut rows = Vec::with_capacity((order.len() + 2) * alphabet);
        rows.extend(Layer::reserved_only(alphabet).next);
        for &s in &order {
            let row = &old[s as usize * alphabet..(s as usize + 1) * alphabet];
            for &o in row {
                let slot = &mut new_of_old[o as usize];
                if *slot == u32::MAX {
                    *slot = next_order.len() as u32 + 2;
                    next_order.push(o);
                }
                rows.push(*slot);
            }
        }
        out.push(Layer::from_raw(alphabet, rows));
        order = next_order;
    }
    Dfa::from_parts(shape.clone(), StateId(2), out)
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
