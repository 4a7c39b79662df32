//! Bottom-up construction: [`DfaBuilder`] for constructors and games that describe a set
//! directly, and the set of a list of strings.
//!
//! Every operation of the engine ends the same way: rows of result states are produced
//! bottom-up (children before parents) and interned in their layer's unique table
//! ([`super::unique::RowTable`], which reduces all-reject and all-accept rows to the reserved
//! ids and merges equal rows, I4 and I5), and [`super::canonical::canonicalize`] then drops
//! the states the initial state cannot reach (I6) and renumbers in first-appearance order (I7).

use super::canonical::canonicalize;
use super::unique::RowTable;
use super::{Dfa, Shape, StateId, Symbol};

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
    /// If `row` has the wrong length or refers to an id `layer + 1` does not have, or if the
    /// layer would hold more than [`MAX_LAYER_STATES`](super::limits::MAX_LAYER_STATES).
    pub fn add(&mut self, layer: usize, row: &[StateId]) -> StateId {
        assert_eq!(row.len(), self.shape.alphabet(layer), "row length must equal the alphabet");
        let next_len = self.tables.get(layer + 1).map_or(2, RowTable::len);
        self.scratch.clear();
        for &s in row {
            assert!(s.index() < next_len, "layer {layer}: successor {s:?} does not exist");
            self.scratch.push(s.0);
        }
        StateId(self.tables[layer].add(&self.scratch))
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
