//! Moves listed state by state where a move graph cannot describe them ([`ListedMoves`]), and
//! the moves a solver applies: a graph overridden on the listed states, with the pass of the
//! strings that have no other move in games that pass ([`Moves`], [`Pass`]).

use super::{MoveGraph, Resume};
use crate::dfa::limits::Stoppable;
use crate::dfa::{Dfa, Region, Symbol};
use rayon::prelude::*;
use std::borrow::Cow;
use std::sync::Arc;

/// The successors of a listed state, as [`ListedMoves`] computes them.
pub type ListedSuccessors = dyn Fn(&[Symbol]) -> Vec<Vec<Symbol>> + Send + Sync;

/// Moves given state by state, for the few states whose moves a move graph cannot describe
/// compactly (Ostle's symmetry-class reading of the no-undo rule changes the forbidden move a
/// handful of moves leave behind). Each state of [`ListedMoves::sources`] has exactly the
/// successors the game's function gives it; what the move graph would do with it is ignored.
/// The function is asked on demand, so a game can keep its table by board rather than by state.
#[derive(Clone)]
pub struct ListedMoves {
    sources: Dfa,
    successors: Arc<ListedSuccessors>,
}

impl std::fmt::Debug for ListedMoves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListedMoves").field("sources", &self.sources.nontrivial_state_count()).finish_non_exhaustive()
    }
}

impl ListedMoves {
    /// The states of `sources` move as `successors` says (it is asked only about them).
    pub fn new(sources: Dfa, successors: Arc<ListedSuccessors>) -> ListedMoves {
        ListedMoves { sources, successors }
    }

    /// The states whose moves are listed.
    pub fn sources(&self) -> &Dfa {
        &self.sources
    }

    /// Whether no state is listed.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// The successors of a listed `state`.
    pub fn successors(&self, state: &[Symbol]) -> Vec<Vec<Symbol>> {
        (self.successors)(state)
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
    pass: Option<Pass>,
}

/// The pass of a player without a legal move: from each string of `from` to the same string
/// with the other side to move, so both of its images are an intersection with `from`.
#[derive(Clone, Debug)]
pub struct Pass {
    /// The strings whose only move is the pass.
    pub from: Dfa,
}

impl Pass {
    /// The strings the members of `set` that pass lead to.
    fn forward(&self, set: &Dfa) -> Stoppable<Dfa> {
        set.intersection(&self.from)
    }

    /// The members of `from` that pass into `set`.
    fn backward(&self, set: &Dfa) -> Stoppable<Dfa> {
        set.intersection(&self.from)
    }
}

impl Moves {
    /// `graph`'s moves, overridden on `listed`'s sources.
    pub fn new(graph: MoveGraph, listed: Option<ListedMoves>) -> Moves {
        if let Some(l) = &listed {
            assert_eq!(l.sources.shape(), graph.shape(), "listed moves must share the graph's shape");
        }
        Moves { graph, listed: listed.filter(|l| !l.is_empty()), pass: None }
    }

    /// The graph's evaluation groups ([`MoveGraph::groups`]).
    pub fn groups(&self) -> Vec<u32> {
        self.graph.groups()
    }

    /// These moves with only the graph's paths of the groups `keep` accepts, for moves that
    /// are all the graph's; `None` for moves with listed moves or a pass, whose sources the
    /// groups do not describe.
    pub fn with_groups(&self, keep: impl Fn(u32) -> bool) -> Option<Moves> {
        (self.listed.is_none() && self.pass.is_none()).then(|| Moves::new(self.graph.with_groups(keep), None))
    }

    /// Add the pass of the strings of `pass.from`, which must have no other move.
    pub fn set_pass(&mut self, pass: Pass) {
        self.pass = Some(pass).filter(|p| !p.from.is_empty());
    }

    /// The strings the moves lead `set` to.
    pub fn forward(&self, set: &Dfa) -> Stoppable<Dfa> {
        let moved = self.forward_without_pass(set)?;
        match &self.pass {
            Some(p) => moved.union(&p.forward(set)?),
            None => Ok(moved),
        }
    }

    /// The strings with some move into `set`.
    pub fn backward(&self, set: &Dfa) -> Stoppable<Dfa> {
        let moved = self.backward_without_pass(set)?;
        match &self.pass {
            Some(p) => moved.union(&p.backward(set)?),
            None => Ok(moved),
        }
    }

    /// The strings of `within` with some move into `set`.
    pub fn backward_within(&self, set: &Dfa, within: &Dfa) -> Stoppable<Dfa> {
        self.backward_within_resumable(set, within, Resume::none())
    }

    /// [`Moves::backward_within`] in `region` of `within` only: the regions of a cut of
    /// `within` give disjoint parts whose union is the whole image.
    pub fn backward_within_in(&self, set: &Dfa, within: &Dfa, region: &Region) -> Stoppable<Dfa> {
        if region.is_whole() {
            return self.backward_within(set, within);
        }
        if self.listed.is_some() || self.pass.is_some() {
            return self.backward_within(set, &within.restricted_to(region));
        }
        self.graph.backward_within_in(set, within, region)
    }

    /// [`Moves::backward_within`], with the graph's image resumable ([`Resume`]).
    pub fn backward_within_resumable(&self, set: &Dfa, within: &Dfa, resume: Resume) -> Stoppable<Dfa> {
        let moved = self.backward_within_without_pass(set, within, resume)?;
        match &self.pass {
            Some(p) => moved.union(&p.backward(set)?.intersection(within)?),
            None => Ok(moved),
        }
    }

    /// The strings of `within` with no move into `set`: `within \ backward_within(set, within)`,
    /// where the graph's moves are taken a group at a time, each group's image explored only
    /// among the strings the groups before it left ([`MoveGraph::without_path_into`]).
    pub fn without_move_into(&self, set: &Dfa, within: &Dfa) -> Stoppable<Dfa> {
        self.without_move_into_resumable(set, Cow::Borrowed(within), Resume::none())
    }

    /// [`Moves::without_move_into`], with the graph's filter resumable ([`Resume`]); a
    /// `within` handed over is dropped as soon as it is narrowed.
    pub fn without_move_into_resumable(&self, set: &Dfa, within: Cow<'_, Dfa>, resume: Resume) -> Stoppable<Dfa> {
        // A passing string has no other move: it stays exactly when its pass misses `set`.
        let passing_in = self.pass.as_ref().map(|p| p.backward(set)).transpose()?;
        let left = self.without_move_into_without_pass(set, within, resume)?;
        match passing_in {
            Some(passing_in) => left.difference(&passing_in),
            None => Ok(left),
        }
    }

    fn forward_without_pass(&self, set: &Dfa) -> Stoppable<Dfa> {
        let Some(l) = &self.listed else { return self.graph.forward(set) };
        let listed = set.intersection(&l.sources)?;
        if listed.is_empty() {
            return self.graph.forward(set);
        }
        let by_graph = self.graph.forward(&set.difference(&l.sources)?)?;
        let next: Vec<Vec<Symbol>> = listed.iter().par_bridge().flat_map_iter(|s| l.successors(&s)).collect();
        by_graph.union(&Dfa::from_strings(set.shape(), &next))
    }

    fn backward_without_pass(&self, set: &Dfa) -> Stoppable<Dfa> {
        let Some(l) = &self.listed else { return self.graph.backward(set) };
        let by_graph = self.graph.backward(set)?.difference(&l.sources)?;
        by_graph.union(&Self::listed_into(l, set, &l.sources))
    }

    fn backward_within_without_pass(&self, set: &Dfa, within: &Dfa, resume: Resume) -> Stoppable<Dfa> {
        let Some(l) = &self.listed else { return self.graph.backward_within_resumable(set, within, resume) };
        let listed = within.intersection(&l.sources)?;
        if listed.is_empty() {
            return self.graph.backward_within_resumable(set, within, resume);
        }
        let by_graph = self.graph.backward_within_resumable(set, &within.difference(&l.sources)?, resume)?;
        by_graph.union(&Self::listed_into(l, set, &listed))
    }

    fn without_move_into_without_pass(&self, set: &Dfa, within: Cow<'_, Dfa>, resume: Resume) -> Stoppable<Dfa> {
        let Some(l) = &self.listed else { return self.graph.without_path_into_resumable(set, within, resume) };
        let listed = within.intersection(&l.sources)?;
        if listed.is_empty() {
            return self.graph.without_path_into_resumable(set, within, resume);
        }
        let rest = Cow::Owned(within.difference(&l.sources)?);
        drop(within);
        let by_graph = self.graph.without_path_into_resumable(set, rest, resume)?;
        by_graph.union(&listed.difference(&Self::listed_into(l, set, &listed))?)
    }

    /// The members of `candidates` (all listed) with a listed successor in `set`.
    fn listed_into(l: &ListedMoves, set: &Dfa, candidates: &Dfa) -> Dfa {
        let hits: Vec<Vec<Symbol>> =
            candidates.iter().par_bridge().filter(|s| l.successors(s).iter().any(|t| set.contains(t))).collect();
        Dfa::from_strings(set.shape(), &hits)
    }
}
