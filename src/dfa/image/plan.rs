//! Moves prepared for an image: checked, with the moves without conditions determinised
//! once into their suffix automaton ([`MovePlan`]), and the background map of untouched layers.

use crate::dfa::{Change, Dfa, Shape, Symbol};

/// Tag of the absorbing element: some move is complete (at every layer, suffix set id 0).
pub(super) const DONE: u32 = 0;

/// One move for [`Dfa::image_union`]: `post ∩ change(· ∩ pre)`; `None` conditions are "all".
#[derive(Clone, Copy, Debug)]
pub struct Move<'a> {
    /// Condition on the string before the move.
    pub pre: Option<&'a Dfa>,
    /// At most one change per layer.
    pub changes: &'a [Change],
    /// Condition on the string after the move.
    pub post: Option<&'a Dfa>,
}

/// How the layers a move does not change are read: output symbol `c` comes from any input
/// symbol in `inputs(l, c)`. The identity (input = output) is the usual case; a game whose
/// moves also relabel the whole string (swap the players' colours, erase an old marker) uses
/// a map, so the relabelling costs no separate pass.
#[derive(Clone, Debug, Default)]
pub struct Background {
    /// `inputs[l][c]`; `None` is the identity.
    pub(super) inputs: Option<Vec<Vec<Vec<Symbol>>>>,
    /// When every output symbol reads exactly one input symbol: `map[l][c]` is that input.
    /// Then a completed move reads the rest of the set through the map, which is a DFA of its
    /// own (the set's preimage under the map), and results can point into it.
    pub(super) map: Option<Vec<Vec<Symbol>>>,
}

/// `IDENTITY[c] == c`, so the identity can hand out one-symbol slices.
static IDENTITY: [Symbol; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as Symbol;
        i += 1;
    }
    t
};

impl Background {
    /// Input and output agree outside the changed layers.
    pub fn identity() -> Background {
        Background { inputs: None, map: None }
    }

    /// Output symbol `map[l][a]` for input `a` (forward through a relabelling; several inputs
    /// may share an output, which is where subsets come from).
    ///
    /// # Panics
    /// If a map does not cover its layer's alphabet or leaves it.
    pub fn forward(shape: &Shape, map: &[Vec<Symbol>]) -> Background {
        check_map(shape, map);
        let inputs = map
            .iter()
            .map(|m| {
                let mut by_output = vec![Vec::new(); m.len()];
                for (a, &c) in m.iter().enumerate() {
                    by_output[c as usize].push(a as Symbol);
                }
                by_output
            })
            .collect();
        Background { inputs: Some(inputs), map: None }
    }

    /// Output symbol `a` reads input `map[l][a]` (backward through a relabelling).
    ///
    /// # Panics
    /// If a map does not cover its layer's alphabet or leaves it.
    pub fn backward(shape: &Shape, map: &[Vec<Symbol>]) -> Background {
        check_map(shape, map);
        let inputs = map.iter().map(|m| m.iter().map(|&c| vec![c]).collect()).collect();
        Background { inputs: Some(inputs), map: Some(map.to_vec()) }
    }

    /// Whether input and output agree outside the changed layers.
    pub fn is_identity(&self) -> bool {
        self.inputs.is_none()
    }

    #[inline]
    pub(super) fn inputs(&self, l: usize, c: Symbol) -> &[Symbol] {
        match &self.inputs {
            None => std::slice::from_ref(&IDENTITY[c as usize]),
            Some(t) => &t[l][c as usize],
        }
    }
}

/// A symbol map must give every symbol of every layer a symbol of that layer.
fn check_map(shape: &Shape, map: &[Vec<Symbol>]) {
    assert_eq!(map.len(), shape.len(), "the map must have the shape's layers");
    for (l, m) in map.iter().enumerate() {
        let n = shape.alphabet(l);
        assert_eq!(m.len(), n, "layer {l}: the map must cover the alphabet");
        assert!(m.iter().all(|&c| (c as usize) < n), "layer {l}: the map leaves the alphabet");
    }
}

/// The moves without conditions, determinised on what is left to do ("suffix sets").
///
/// At layer `l` a free move under way is fully described by its remaining changes (those at
/// layers ≥ `l`); moves with equal remaining changes behave identically from here on. A suffix
/// set is a set of such remaining-change lists; it reads output symbol `c` by splitting into
/// one successor set per input symbol. This automaton depends on the moves only, not on the
/// set being moved, so it is built once per call and is tiny (the "pending" set of all moves
/// not yet started, plus the few sets of moves under way).
/// Per output symbol, the (input symbol, successor suffix set) pairs.
type SuffixRow = Vec<Vec<(Symbol, u32)>>;

pub(super) struct SuffixAutomaton {
    /// `next[l][r][c]`: the (input symbol, successor suffix set) pairs of set `r` of layer `l`
    /// on output `c`. Set 0 of every layer is `DONE`, whose successor on `c` is `(c, DONE)`.
    pub(super) next: Vec<Vec<SuffixRow>>,
    /// The suffix sets at the root (`DONE` and/or set 1 of layer 0).
    pub(super) root: Vec<u32>,
}

impl SuffixAutomaton {
    fn new(shape: &Shape, free: &[&[Change]], background: &Background) -> SuffixAutomaton {
        let n = shape.len();
        // Every suffix of every move's sorted change list, hash-consed: id 0 is the empty
        // list, and id `i` is `first[i]` followed by the list `tail[i]`. Suffix sets are then
        // sorted id lists, cheap to group and hash however many moves there are.
        let mut first: Vec<Change> = vec![Change::new(usize::MAX, 0, 0)];
        let mut tail: Vec<u32> = vec![0];
        let mut suffix_ids: hashbrown::HashMap<(Change, u32), u32> = hashbrown::HashMap::new();
        let mut root_set: Vec<u32> = Vec::with_capacity(free.len());
        for ch in free {
            let mut v = ch.to_vec();
            v.sort_unstable();
            let mut id = 0u32;
            for &c in v.iter().rev() {
                id = *suffix_ids.entry((c, id)).or_insert_with(|| {
                    first.push(c);
                    tail.push(id);
                    first.len() as u32 - 1
                });
            }
            root_set.push(id);
        }
        drop(suffix_ids);
        root_set.sort_unstable();
        root_set.dedup();
        let mut next: Vec<Vec<SuffixRow>> = Vec::with_capacity(n);
        // The root: DONE if some free move changes nothing, plus the set of all other moves.
        let mut root = Vec::new();
        if root_set.first() == Some(&0) {
            root.push(DONE);
            root_set.remove(0);
        }
        // Sets of the current layer, by id (id 0 = DONE is implicit).
        let mut layer_sets: Vec<Vec<u32>> = vec![Vec::new()];
        if !root_set.is_empty() {
            root.push(1);
            layer_sets.push(root_set);
        }
        let mut by_input: Vec<(Symbol, u32)> = Vec::new();
        for l in 0..n {
            let alphabet = shape.alphabet(l);
            let mut ids: hashbrown::HashMap<Vec<u32>, u32> = hashbrown::HashMap::new();
            let mut next_sets: Vec<Vec<u32>> = vec![Vec::new()];
            let mut table = Vec::with_capacity(layer_sets.len());
            for (r, set) in layer_sets.iter().enumerate() {
                let mut row = Vec::with_capacity(alphabet);
                for c in 0..alphabet as Symbol {
                    let inputs = background.inputs(l, c);
                    if r as u32 == DONE {
                        row.push(inputs.iter().map(|&a| (a, DONE)).collect());
                        continue;
                    }
                    // Group the rests of the lists by the input symbol they read here.
                    by_input.clear();
                    for &id in set {
                        let f = first[id as usize];
                        if f.layer == l {
                            if f.to == c {
                                by_input.push((f.from, tail[id as usize]));
                            }
                        } else {
                            by_input.extend(inputs.iter().map(|&a| (a, id)));
                        }
                    }
                    by_input.sort_unstable();
                    by_input.dedup();
                    let mut out = Vec::new();
                    let mut i = 0;
                    while i < by_input.len() {
                        let input = by_input[i].0;
                        let j = i + by_input[i..].partition_point(|x| x.0 == input);
                        let mut rests: Vec<u32> = by_input[i..j].iter().map(|x| x.1).collect();
                        // A completed move (empty rest) becomes DONE; the others go on beside it.
                        if rests.first() == Some(&0) {
                            out.push((input, DONE));
                            rests.remove(0);
                        }
                        if !rests.is_empty() {
                            let id = *ids.entry(rests.clone()).or_insert_with(|| {
                                next_sets.push(rests);
                                next_sets.len() as u32 - 1
                            });
                            out.push((input, id));
                        }
                        i = j;
                    }
                    row.push(out);
                }
                table.push(row);
            }
            next.push(table);
            layer_sets = next_sets;
        }
        SuffixAutomaton { next, root }
    }
}

/// One move of a [`MovePlan`], owned.
#[derive(Clone, Debug)]
pub(super) struct PlannedMove {
    pub(super) pre: Option<Dfa>,
    pub(super) changes: Vec<Change>,
    pub(super) post: Option<Dfa>,
}

/// Moves prepared for [`Dfa::image_planned`]: checked, and the moves without conditions
/// determinised once into their suffix automaton. Building that automaton costs about as much
/// as a small image, so callers that apply the same moves many times (a solver) keep the plan.
#[derive(Debug)]
pub struct MovePlan {
    pub(super) shape: Shape,
    pub(super) moves: Vec<PlannedMove>,
    /// Indices of the moves with a condition (stepped one by one).
    pub(super) conditional: Vec<usize>,
    /// `last_change[m]`: the deepest layer move `m` changes (`None`: no changes).
    pub(super) last_change: Vec<Option<usize>>,
    pub(super) free: SuffixAutomaton,
    pub(super) background: Background,
}

impl std::fmt::Debug for SuffixAutomaton {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SuffixAutomaton({} layers)", self.next.len())
    }
}

impl MovePlan {
    /// Prepare `moves` over strings of `shape`, untouched layers read through `background`.
    ///
    /// # Panics
    /// If a move changes a layer twice or outside the shape, a condition has another shape,
    /// or the background does not fit the shape.
    pub fn new(shape: &Shape, moves: &[Move], background: Background) -> MovePlan {
        let n = shape.len();
        if let Some(t) = &background.inputs {
            assert_eq!(t.len(), n, "the background must have the set's shape");
        }
        let mut last_change = Vec::with_capacity(moves.len());
        let mut conditional = Vec::new();
        let mut free = Vec::new();
        for (m, mv) in moves.iter().enumerate() {
            for d in [mv.pre, mv.post].into_iter().flatten() {
                assert_eq!(d.shape(), shape, "conditions must have the set's shape");
            }
            let mut layers: Vec<usize> = mv.changes.iter().map(|c| c.layer).collect();
            layers.sort_unstable();
            assert!(layers.windows(2).all(|w| w[0] < w[1]), "a move changes each layer at most once");
            for c in mv.changes {
                assert!(
                    c.layer < n
                        && (c.from as usize) < shape.alphabet(c.layer)
                        && (c.to as usize) < shape.alphabet(c.layer)
                );
            }
            last_change.push(layers.last().copied());
            if mv.pre.is_none() && mv.post.is_none() {
                free.push(mv.changes);
            } else {
                conditional.push(m);
            }
        }
        let free = SuffixAutomaton::new(shape, &free, &background);
        let moves = moves
            .iter()
            .map(|m| PlannedMove { pre: m.pre.cloned(), changes: m.changes.to_vec(), post: m.post.cloned() })
            .collect();
        MovePlan { shape: shape.clone(), moves, conditional, last_change, free, background }
    }

    pub(super) fn change_at(&self, m: usize, layer: usize) -> Option<&Change> {
        self.moves[m].changes.iter().find(|c| c.layer == layer)
    }
}
