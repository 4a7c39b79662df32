//! Evaluating a move graph stage by stage over its DAG: one fused product per edge and one
//! union per node, for graphs with too many paths to flatten (and as an independent check of
//! the flattened evaluation).

use super::{Edge, MAX_FLAT_PATHS, MoveGraph};
use crate::dfa::limits::Stoppable;
use crate::dfa::{Change, Dfa, Shape};
use rayon::prelude::*;
use std::borrow::Cow;

impl MoveGraph {
    /// [`MoveGraph::forward`] evaluated stage by stage over the DAG (one product per edge and a
    /// union per node), for graphs with too many paths to flatten.
    pub fn forward_by_stages(&self, set: &Dfa) -> Stoppable<Dfa> {
        assert!(self.relabel.is_none(), "a relabelled move graph must have at most {MAX_FLAT_PATHS} paths");
        let full = Dfa::accept_all(&self.shape);
        let mut val: Vec<Option<Dfa>> = vec![None; self.nodes.len()];
        val[0] = Some(set.clone());
        for v in self.order().skip(1) {
            let changes = &self.nodes[v].changes;
            let edges: Vec<&Edge> = self.edges.iter().filter(|e| e.to.0 as usize == v).collect();
            let parts: Vec<Cow<Dfa>> = edges
                .par_iter()
                .filter_map(|e| {
                    let from = val[e.from.0 as usize].as_ref().filter(|d| !d.is_empty())?;
                    // The edge's condition holds before the node's changes.
                    Some(step(from, e.condition.as_ref().unwrap_or(&full), changes, &full))
                })
                .collect::<Stoppable<_>>()?;
            val[v] = Some(union_parts(&self.shape, parts)?);
        }
        Ok(val[1].take().expect("output evaluated last"))
    }
    /// [`MoveGraph::backward_within`] evaluated stage by stage over the DAG.
    pub fn backward_by_stages(&self, set: &Dfa, within: Option<&Dfa>) -> Stoppable<Dfa> {
        self.backward_dag(set, within)
    }
    pub(super) fn backward_dag(&self, set: &Dfa, within: Option<&Dfa>) -> Stoppable<Dfa> {
        assert!(self.relabel.is_none(), "a relabelled move graph must have at most {MAX_FLAT_PATHS} paths");
        let full = Dfa::accept_all(&self.shape);
        if set.is_empty() || within.is_some_and(Dfa::is_empty) {
            return Ok(Dfa::reject_all(&self.shape));
        }
        let mut back: Vec<Option<Dfa>> = vec![None; self.nodes.len()];
        back[1] = Some(set.clone());
        for u in self.order().rev().skip(1) {
            let edges: Vec<&Edge> = self.edges.iter().filter(|e| e.from.0 as usize == u).collect();
            let parts: Vec<Cow<Dfa>> = edges
                .par_iter()
                .filter_map(|e| {
                    // A node's images are all held until their union: stop between them once
                    // over the budget.
                    if let Err(stop) = crate::dfa::limits::check_memory() {
                        return Some(Err(stop));
                    }
                    let to = e.to.0 as usize;
                    let target = back[to].as_ref().filter(|d| !d.is_empty())?;
                    let inverse: Vec<Change> = self.nodes[to].changes.iter().map(|c| c.inverse()).collect();
                    // Edges out of the input are the first stage: restrict them to `within`.
                    let condition: Cow<Dfa> = match (u, within, &e.condition) {
                        (0, Some(w), Some(c)) => match w.intersection(c) {
                            Ok(both) => Cow::Owned(both),
                            Err(stop) => return Some(Err(stop)),
                        },
                        (0, Some(w), None) => Cow::Borrowed(w),
                        (_, _, Some(c)) => Cow::Borrowed(c),
                        (_, _, None) => Cow::Borrowed(&full),
                    };
                    Some(step(target, &full, &inverse, &condition).map(|image| Cow::Owned(image.into_owned())))
                })
                .collect::<Stoppable<_>>()?;
            back[u] = Some(union_parts(&self.shape, parts)?);
        }
        Ok(back[0].take().expect("input evaluated last"))
    }
}

/// `post ∩ change(set ∩ pre)`, without any work when it is `set` itself.
fn step<'a>(set: &'a Dfa, pre: &Dfa, changes: &[Change], post: &Dfa) -> Stoppable<Cow<'a, Dfa>> {
    if changes.is_empty() && pre.is_full() && post.is_full() {
        Ok(Cow::Borrowed(set))
    } else {
        Ok(Cow::Owned(set.image(pre, changes, post)?))
    }
}

fn union_parts(shape: &Shape, parts: Vec<Cow<Dfa>>) -> Stoppable<Dfa> {
    if parts.len() == 1 {
        return Ok(parts.into_iter().next().expect("one part").into_owned());
    }
    let refs: Vec<&Dfa> = parts.iter().map(|p| p.as_ref()).collect();
    Dfa::union_all(shape, &refs)
}
