//! Move graphs: many moves described once, with shared stages.
//!
//! A [`MoveGraph`] is a DAG. Each node applies a list of [`Change`]s; each edge applies a
//! condition set. A string entering at the input node follows every path to the output node,
//! being kept by each edge's condition and rewritten by each node's changes. The graph's move
//! set is the union over all paths, so a stage many moves share ("clear the marker", "the game
//! is not over") is one node instead of one copy per move.
//!
//! * Forward image: `val[input] = S`, and for every other node `v` in topological order
//!   `val[v] = ⋃_{edges u→v} change_v(val[u] ∩ cond)`; the image is `val[output]`.
//! * Backward image (all strings with some path into `S`): `back[output] = S`, and in reverse
//!   order `back[u] = ⋃_{edges u→v} cond ∩ change_v⁻¹(back[v])`; the image is `back[input]`.
//!
//! Each edge costs one fused product (`Dfa::image`), linear in the operands' product size,
//! and each node one n-ary union over its edges.

mod flat;
mod listed;
mod progress;
mod relations;
mod stages;

pub use flat::MAX_FLAT_PATHS;
pub use listed::{ListedMoves, Moves, Pass};
pub use progress::{Partial, Recorder, Resume};

use crate::dfa::limits::Stoppable;
use crate::dfa::limits::{SPLIT_LEVELS, split_level};
use crate::dfa::{Change, Dfa, Region, RelationImager, Shape, Symbol};
use flat::{FlatMove, GroupPlan};
use relations::LayerRelation;
use std::borrow::Cow;
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// Which way an image of a move graph goes: to the strings its paths lead a set to, or back
/// to the strings with a path into a set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    Forward,
    Backward,
}

impl Direction {
    /// A slot per direction in the graph's caches.
    fn index(self) -> usize {
        match self {
            Direction::Forward => 0,
            Direction::Backward => 1,
        }
    }
}

/// A node of a [`MoveGraph`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveNodeId(u32);

impl fmt::Debug for MoveNodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "n{}", self.0)
    }
}

#[derive(Clone)]
struct Node {
    /// For `Debug` and dot output only.
    name: String,
    changes: Vec<Change>,
    /// Paths are evaluated in groups (see [`MoveGraph::add_move_in`]); a path belongs to the
    /// group of its first node.
    group: u32,
}

#[derive(Clone)]
struct Edge {
    from: MoveNodeId,
    to: MoveNodeId,
    /// `None` = every string.
    condition: Option<Dfa>,
}

/// Plans by split level (each group whole, in halves, in quarters) and direction (forward,
/// backward).
type PlanCache = [[OnceLock<Option<Vec<GroupPlan>>>; 2]; SPLIT_LEVELS];

/// A set of moves as a DAG of change nodes and condition edges (see the module docs).
///
/// Nodes are numbered in creation order and edges must go from an earlier node to a later one
/// or to the output, so creation order is a topological order.
pub struct MoveGraph {
    shape: Shape,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    /// All paths flattened to single moves (see `flatten`), built on first use.
    flat: OnceLock<Option<Vec<FlatMove>>>,
    /// Relabelling of the layers a path leaves unchanged (see [`MoveGraph::relabel_unchanged`]).
    relabel: Option<Vec<Vec<Symbol>>>,
    /// The flattened paths prepared for forward and backward images, one plan per group (or
    /// per part of a group, see [`crate::dfa::limits::split_level`]), built on first use.
    plans: PlanCache,
    /// [`MoveGraph::layer_relations`], computed once.
    relations: OnceLock<Option<Vec<LayerRelation>>>,
    /// For graphs of one-character moves ([`MoveGraph::layer_relations`]): the forward and
    /// backward imagers, kept so that successive images share their hash-consed unions.
    imagers: [Mutex<Option<RelationImager>>; 2],
}

impl MoveGraph {
    /// The input node (no changes).
    pub const INPUT: MoveNodeId = MoveNodeId(0);
    /// The output node (no changes); it comes after every other node.
    pub const OUTPUT: MoveNodeId = MoveNodeId(1);

    /// An empty graph (no paths, so no moves) over strings of `shape`.
    pub fn new(shape: &Shape) -> MoveGraph {
        let node = |name: &str| Node { name: name.into(), changes: Vec::new(), group: 0 };
        MoveGraph {
            shape: shape.clone(),
            nodes: vec![node("input"), node("output")],
            edges: Vec::new(),
            flat: OnceLock::new(),
            relations: OnceLock::new(),
            relabel: None,
            plans: PlanCache::default(),
            imagers: [Mutex::new(None), Mutex::new(None)],
        }
    }

    /// After a path's changes, every layer the path did not change gets `map[l][symbol]`
    /// (e.g. swap the players' colours and erase an old marker, in games whose strings are
    /// written from the mover's point of view). The changes write final symbols.
    ///
    /// A relabelled graph is always evaluated path by path, so it must have at most
    /// [`MAX_FLAT_PATHS`] paths.
    ///
    /// # Panics
    /// If a map does not cover its layer's alphabet.
    pub fn relabel_unchanged(&mut self, map: Vec<Vec<Symbol>>) {
        assert_eq!(map.len(), self.shape.len());
        for (l, m) in map.iter().enumerate() {
            assert_eq!(m.len(), self.shape.alphabet(l), "layer {l}: the map must cover the alphabet");
        }
        self.relabel = Some(map);
        self.relations = OnceLock::new();
        self.plans = PlanCache::default();
        self.imagers = [Mutex::new(None), Mutex::new(None)];
    }

    /// Add a node that applies `changes` (at most one per layer).
    pub fn add_node(&mut self, name: impl Into<String>, changes: Vec<Change>) -> MoveNodeId {
        let mut layers: Vec<usize> = changes.iter().map(|c| c.layer).collect();
        layers.sort_unstable();
        layers.dedup();
        assert_eq!(layers.len(), changes.len(), "a node changes each layer at most once");
        assert!(layers.last().is_none_or(|&l| l < self.shape.len()), "change outside the shape");
        self.flat = OnceLock::new();
        self.relations = OnceLock::new();
        self.plans = PlanCache::default();
        self.imagers = [Mutex::new(None), Mutex::new(None)];
        self.nodes.push(Node { name: name.into(), changes, group: 0 });
        MoveNodeId(self.nodes.len() as u32 - 1)
    }

    /// [`MoveGraph::add_node`] in evaluation group `group` (see [`MoveGraph::add_move_in`]).
    pub fn add_node_in(&mut self, group: u32, name: impl Into<String>, changes: Vec<Change>) -> MoveNodeId {
        let node = self.add_node(name, changes);
        self.nodes[node.0 as usize].group = group;
        node
    }

    /// Add an edge keeping the strings in `condition` (`None`: all).
    ///
    /// # Panics
    /// If the edge would break the creation-order topological order, or shapes differ.
    pub fn add_edge(&mut self, from: MoveNodeId, to: MoveNodeId, condition: Option<Dfa>) {
        let rank = |n: MoveNodeId| if n == Self::OUTPUT { u32::MAX } else { n.0 };
        assert!(rank(from) < rank(to), "edge {from:?} -> {to:?} goes backwards");
        assert!((to.0 as usize) < self.nodes.len(), "unknown node {to:?}");
        if let Some(c) = &condition {
            assert_eq!(c.shape(), &self.shape);
        }
        self.flat = OnceLock::new();
        self.relations = OnceLock::new();
        self.plans = PlanCache::default();
        self.imagers = [Mutex::new(None), Mutex::new(None)];
        self.edges.push(Edge { from, to, condition });
    }

    /// A one-path move: input →(pre)→ changes →(post)→ output.
    pub fn add_move(&mut self, name: impl Into<String>, pre: Option<Dfa>, changes: Vec<Change>, post: Option<Dfa>) {
        self.add_move_in(0, name, pre, changes, post);
    }

    /// [`MoveGraph::add_move`] in evaluation group `group`. Images are computed one group at
    /// a time and united. One pass over all moves is usually best, but a pass tracks every
    /// move under way at once: moves that span many layers (a push along a column of a
    /// row-major board) multiply those combinations, and separating them into groups (one
    /// per column) keeps each pass small.
    pub fn add_move_in(
        &mut self,
        group: u32,
        name: impl Into<String>,
        pre: Option<Dfa>,
        changes: Vec<Change>,
        post: Option<Dfa>,
    ) {
        let node = self.add_node_in(group, name, changes);
        self.add_edge(Self::INPUT, node, pre);
        self.add_edge(node, Self::OUTPUT, post);
    }

    /// The evaluation groups of the graph's paths (those of the nodes its input leads to),
    /// ascending.
    pub fn groups(&self) -> Vec<u32> {
        let mut groups: Vec<u32> =
            self.edges.iter().filter(|e| e.from == Self::INPUT).map(|e| self.nodes[e.to.0 as usize].group).collect();
        groups.sort_unstable();
        groups.dedup();
        groups
    }

    /// The graph of the paths of the groups `keep` accepts only (a path is in the group of
    /// its first node).
    pub fn with_groups(&self, keep: impl Fn(u32) -> bool) -> MoveGraph {
        let mut graph = MoveGraph::new(&self.shape);
        graph.nodes = self.nodes.clone();
        graph.edges = self
            .edges
            .iter()
            .filter(|e| e.from != Self::INPUT || keep(self.nodes[e.to.0 as usize].group))
            .cloned()
            .collect();
        graph.relabel = self.relabel.clone();
        graph
    }

    /// Number of nodes, input and output included.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The shape of the strings the graph rewrites.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The graph in Graphviz dot syntax (node names, changes, whether an edge has a condition).
    pub fn to_dot(&self) -> String {
        let mut s = String::from("digraph moves {\n");
        for (i, n) in self.nodes.iter().enumerate() {
            let ch: Vec<String> = n.changes.iter().map(|c| format!("{}:{}>{}", c.layer, c.from, c.to)).collect();
            s += &format!("  n{i} [label=\"{}\\n{}\"];\n", n.name, ch.join(" "));
        }
        for e in &self.edges {
            let style = if e.condition.is_some() { "solid" } else { "dashed" };
            s += &format!("  n{} -> n{} [style={style}];\n", e.from.0, e.to.0);
        }
        s + "}\n"
    }

    /// Nodes in topological order: input, the added nodes, output.
    fn order(&self) -> impl DoubleEndedIterator<Item = usize> {
        std::iter::once(0).chain(2..self.nodes.len()).chain(std::iter::once(1))
    }

    /// The strings every path leads `set` to.
    pub fn forward(&self, set: &Dfa) -> Stoppable<Dfa> {
        if let Some(relations) = self.layer_relations()? {
            return self.relation_images(relations, set, Direction::Forward, None);
        }
        match self.plan(Direction::Forward, split_level())? {
            Some(plans) => self.image_by_plans(plans, set, None, &Region::whole(), Resume::none()),
            None => self.forward_by_stages(set),
        }
    }

    /// The strings with some path into `set`.
    pub fn backward(&self, set: &Dfa) -> Stoppable<Dfa> {
        self.backward_impl(set, None, &Region::whole(), Resume::none())
    }

    /// The strings of `within` with some path into `set`: `within ∩ backward(set)`, computed
    /// with `within` fused into the first stage so that work outside it is never done.
    pub fn backward_within(&self, set: &Dfa, within: &Dfa) -> Stoppable<Dfa> {
        self.backward_impl(set, Some(within), &Region::whole(), Resume::none())
    }

    /// [`MoveGraph::backward_within`] in `region` of `within` only: its members there with a
    /// path into `set`. The regions of a cut of `within` give disjoint parts whose union is
    /// the whole image.
    pub fn backward_within_in(&self, set: &Dfa, within: &Dfa, region: &Region) -> Stoppable<Dfa> {
        self.backward_impl(set, Some(within), region, Resume::none())
    }

    /// [`MoveGraph::backward_within`], resuming after the move groups `resume.from` says are
    /// done and reporting each finished group (see [`Resume`]). Graphs that are not imaged
    /// by plans start over and report nothing.
    pub fn backward_within_resumable(&self, set: &Dfa, within: &Dfa, resume: Resume) -> Stoppable<Dfa> {
        self.backward_impl(set, Some(within), &Region::whole(), resume)
    }

    /// The strings of `within` with no path into `set`: `within \ backward_within(set, within)`.
    ///
    /// With the moves flattened into plans (a group, or part of one, each), the plans are
    /// taken one after the other, each image explored only among the strings the plans
    /// before it left: what is known to have a path into `set` is not explored again, and no
    /// union of the plans' images (most of `within` when few strings have no path) is built.
    pub fn without_path_into(&self, set: &Dfa, within: &Dfa) -> Stoppable<Dfa> {
        self.without_path_into_resumable(set, Cow::Borrowed(within), Resume::none())
    }

    /// [`MoveGraph::without_path_into`], resuming after the move groups `resume.from` says
    /// are done (its one set is what they left) and reporting each finished group (see
    /// [`Resume`]). Graphs that are not imaged by plans start over and report nothing.
    /// `within` handed over (`Cow::Owned`) is dropped once the first group has narrowed it.
    pub fn without_path_into_resumable(&self, set: &Dfa, within: Cow<'_, Dfa>, resume: Resume) -> Stoppable<Dfa> {
        if let Some(relations) = self.layer_relations()? {
            return within.difference(&self.relation_images(relations, set, Direction::Backward, Some(&within))?);
        }
        match self.plan(Direction::Backward, split_level())? {
            Some(plans) => self.filter_by_plans(plans, set, within, resume),
            None => within.difference(&self.backward_dag(set, Some(&within))?),
        }
    }

    fn backward_impl(&self, set: &Dfa, within: Option<&Dfa>, region: &Region, resume: Resume) -> Stoppable<Dfa> {
        let plans = self.plan(Direction::Backward, split_level())?;
        let relations = self.layer_relations()?;
        if let (false, Some(w)) = (region.is_whole(), within)
            && (relations.is_some() || plans.is_none())
        {
            // Only the plans' engine takes a region as it goes; the others get its copy.
            return self.backward_impl(set, Some(&w.restricted_to(region)), &Region::whole(), resume);
        }
        if let Some(relations) = relations {
            return self.relation_images(relations, set, Direction::Backward, within);
        }
        match plans {
            Some(plans) => self.image_by_plans(plans, set, within, region, resume),
            None => self.backward_dag(set, within),
        }
    }
}

impl fmt::Debug for MoveGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MoveGraph")
            .field("shape", &self.shape)
            .field("nodes", &self.nodes.len())
            .field("edges", &self.edges.len())
            .finish()
    }
}
