//! Moves listed state by state where a move graph cannot describe them ([`ListedMoves`]), and
//! the moves a solver applies: a graph overridden on the listed states ([`Moves`]).

use super::MoveGraph;
use crate::dfa::{Dfa, Shape, Symbol};
use hashbrown::HashMap;

/// Moves written out state by state, for the few states whose moves a move graph cannot
/// describe compactly (Ostle's symmetry-class reading of the no-undo rule changes the
/// forbidden move a handful of moves leave behind). Each state of [`ListedMoves::sources`] has
/// exactly its listed successors; what the move graph would do with it is ignored.
#[derive(Clone, Debug)]
pub struct ListedMoves {
    sources: Dfa,
    successors: HashMap<Vec<Symbol>, Vec<Vec<Symbol>>>,
}

impl ListedMoves {
    /// The moves of each listed state (its key): the states its moves lead to.
    ///
    /// # Panics
    /// If a string does not fit `shape`.
    pub fn new(shape: &Shape, successors: HashMap<Vec<Symbol>, Vec<Vec<Symbol>>>) -> ListedMoves {
        let keys: Vec<Vec<Symbol>> = successors.keys().cloned().collect();
        for next in successors.values().flatten() {
            assert!(shape.admits(next), "listed successor {next:?} does not fit {shape:?}");
        }
        ListedMoves { sources: Dfa::from_strings(shape, &keys), successors }
    }

    /// The states whose moves are listed.
    pub fn sources(&self) -> &Dfa {
        &self.sources
    }

    /// Whether no state is listed.
    pub fn is_empty(&self) -> bool {
        self.successors.is_empty()
    }

    /// The listed successors of `state` (empty if it is not listed).
    pub fn successors(&self, state: &[Symbol]) -> &[Vec<Symbol>] {
        self.successors.get(state).map_or(&[], Vec::as_slice)
    }
}

/// The moves the solver applies: a move graph, except on the states of a [`ListedMoves`].
///
/// Images split their argument: the part outside the listed sources goes through the graph,
/// the listed part is enumerated (it is small by construction) and looked up.
#[derive(Debug)]
pub struct Moves {
    graph: MoveGraph,
    listed: Option<ListedMoves>,
}

impl Moves {
    /// `graph`'s moves, overridden on `listed`'s sources.
    pub fn new(graph: MoveGraph, listed: Option<ListedMoves>) -> Moves {
        if let Some(l) = &listed {
            assert_eq!(l.sources.shape(), graph.shape(), "listed moves must share the graph's shape");
        }
        Moves { graph, listed: listed.filter(|l| !l.is_empty()) }
    }

    /// The strings the moves lead `set` to.
    pub fn forward(&self, set: &Dfa) -> Dfa {
        let Some(l) = &self.listed else { return self.graph.forward(set) };
        let listed = set.intersection(&l.sources);
        if listed.is_empty() {
            return self.graph.forward(set);
        }
        let by_graph = self.graph.forward(&set.difference(&l.sources));
        let next: Vec<Vec<Symbol>> = listed.iter().flat_map(|s| l.successors(&s).to_vec()).collect();
        by_graph.union(&Dfa::from_strings(set.shape(), &next))
    }

    /// The strings with some move into `set`.
    pub fn backward(&self, set: &Dfa) -> Dfa {
        let Some(l) = &self.listed else { return self.graph.backward(set) };
        let by_graph = self.graph.backward(set).difference(&l.sources);
        by_graph.union(&Self::listed_into(l, set, &l.sources))
    }

    /// The strings of `within` with some move into `set`.
    pub fn backward_within(&self, set: &Dfa, within: &Dfa) -> Dfa {
        let Some(l) = &self.listed else { return self.graph.backward_within(set, within) };
        let listed = within.intersection(&l.sources);
        if listed.is_empty() {
            return self.graph.backward_within(set, within);
        }
        let by_graph = self.graph.backward_within(set, &within.difference(&l.sources));
        by_graph.union(&Self::listed_into(l, set, &listed))
    }

    /// The members of `candidates` (all listed) with a listed successor in `set`.
    fn listed_into(l: &ListedMoves, set: &Dfa, candidates: &Dfa) -> Dfa {
        let hits: Vec<Vec<Symbol>> =
            candidates.iter().filter(|s| l.successors(s).iter().any(|t| set.contains(t))).collect();
        Dfa::from_strings(set.shape(), &hits)
    }
}
