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

use crate::dfa::{Background, Change, Dfa, Move, MovePlan, RelationImager, Shape, Symbol};
use hashbrown::HashMap;
use rayon::prelude::*;
use std::borrow::Cow;
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// A node of a [`MoveGraph`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveNodeId(u32);

impl fmt::Debug for MoveNodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "n{}", self.0)
    }
}

struct Node {
    /// For `Debug` and dot output only.
    name: String,
    changes: Vec<Change>,
    /// Paths are evaluated in groups (see [`MoveGraph::add_move_in`]); a path belongs to the
    /// group of its first node.
    group: u32,
}

struct Edge {
    from: MoveNodeId,
    to: MoveNodeId,
    /// `None` = every string.
    condition: Option<Dfa>,
}

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
    /// The flattened paths prepared for forward and backward images, one plan per group,
    /// built on first use.
    plans: [OnceLock<Option<Vec<MovePlan>>>; 2],
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
            plans: [OnceLock::new(), OnceLock::new()],
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
        self.plans = [OnceLock::new(), OnceLock::new()];
        self.imagers = [Mutex::new(None), Mutex::new(None)];
    }

    /// The prepared plan of all paths forward (`backward = false`) or backward, if the graph
    /// flattens.
    fn plan(&self, backward: bool) -> Option<&[MovePlan]> {
        self.plans[usize::from(backward)]
            .get_or_init(|| {
                let paths = self.flat()?;
                let background = match (&self.relabel, backward) {
                    (None, _) => Background::identity(),
                    (Some(map), false) => Background::forward(&self.shape, map),
                    (Some(map), true) => Background::backward(&self.shape, map),
                };
                let mut groups: Vec<u32> = paths.iter().map(|p| p.group).collect();
                groups.sort_unstable();
                groups.dedup();
                let plans = groups
                    .iter()
                    .map(|&g| {
                        let moves: Vec<Move> = paths
                            .iter()
                            .filter(|p| p.group == g)
                            .map(|p| if backward { p.backward() } else { p.forward() })
                            .collect();
                        MovePlan::new(&self.shape, &moves, background.clone())
                    })
                    .collect();
                Some(plans)
            })
            .as_deref()
    }

    /// The union of the images of `set` under every plan.
    ///
    /// Each group's image is merged as soon as it exists, by pairwise unions in a balanced
    /// tree (a binary counter: two merged images of equal rank merge again). At most about
    /// log2(groups) images wait at once, and every union's result is minimal before it goes
    /// on. One n-ary union of all the groups' images was the alternative; on Ostle 5x5 its
    /// subset construction over ten images of 1-4 M states each passed 10 GB where these
    /// unions stay near the size of their operands.
    fn image_by_plans(&self, plans: &[MovePlan], set: &Dfa, within: Option<&Dfa>) -> Dfa {
        let mut pending: Vec<(u32, Dfa)> = Vec::new();
        for plan in plans {
            let mut merged = (0u32, set.image_planned(plan, within));
            while let Some((rank, _)) = pending.last()
                && *rank == merged.0
            {
                let (rank, earlier) = pending.pop().expect("checked above");
                merged = (rank + 1, earlier.union(&merged.1));
            }
            pending.push(merged);
        }
        // Whatever is left has distinct ranks; the smallest go first.
        let mut result = pending.pop().map_or_else(|| Dfa::reject_all(&self.shape), |p| p.1);
        while let Some((_, earlier)) = pending.pop() {
            result = earlier.union(&result);
        }
        result
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
        self.plans = [OnceLock::new(), OnceLock::new()];
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
        self.plans = [OnceLock::new(), OnceLock::new()];
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

    /// Number of nodes, input and output included.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The shape of the strings the graph rewrites.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Nodes in topological order: input, the added nodes, output.
    fn order(&self) -> impl DoubleEndedIterator<Item = usize> {
        std::iter::once(0).chain(2..self.nodes.len()).chain(std::iter::once(1))
    }

    /// The strings every path leads `set` to.
    pub fn forward(&self, set: &Dfa) -> Dfa {
        if let Some(relations) = self.layer_relations() {
            return self.relation_images(relations, set, false, None);
        }
        match self.plan(false) {
            Some(plans) => self.image_by_plans(plans, set, None),
            None => self.forward_by_stages(set),
        }
    }

    /// [`MoveGraph::forward`] evaluated stage by stage over the DAG (one product per edge and a
    /// union per node), for graphs with too many paths to flatten.
    pub fn forward_by_stages(&self, set: &Dfa) -> Dfa {
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
                    Some(step(from, &full, changes, e.condition.as_ref().unwrap_or(&full)))
                })
                .collect();
            val[v] = Some(union_parts(&self.shape, parts));
        }
        val[1].take().expect("output evaluated last")
    }

    /// The strings with some path into `set`.
    pub fn backward(&self, set: &Dfa) -> Dfa {
        self.backward_impl(set, None)
    }

    /// [`MoveGraph::backward_within`] evaluated stage by stage over the DAG.
    pub fn backward_by_stages(&self, set: &Dfa, within: Option<&Dfa>) -> Dfa {
        self.backward_dag(set, within)
    }

    /// The strings of `within` with some path into `set`: `within ∩ backward(set)`, computed
    /// with `within` fused into the first stage so that work outside it is never done.
    pub fn backward_within(&self, set: &Dfa, within: &Dfa) -> Dfa {
        self.backward_impl(set, Some(within))
    }

    fn backward_impl(&self, set: &Dfa, within: Option<&Dfa>) -> Dfa {
        if let Some(relations) = self.layer_relations() {
            return self.relation_images(relations, set, true, within);
        }
        match self.plan(true) {
            Some(plans) => self.image_by_plans(plans, set, within),
            None => self.backward_dag(set, within),
        }
    }

    fn backward_dag(&self, set: &Dfa, within: Option<&Dfa>) -> Dfa {
        assert!(self.relabel.is_none(), "a relabelled move graph must have at most {MAX_FLAT_PATHS} paths");
        let full = Dfa::accept_all(&self.shape);
        if set.is_empty() || within.is_some_and(Dfa::is_empty) {
            return Dfa::reject_all(&self.shape);
        }
        let mut back: Vec<Option<Dfa>> = vec![None; self.nodes.len()];
        back[1] = Some(set.clone());
        for u in self.order().rev().skip(1) {
            let edges: Vec<&Edge> = self.edges.iter().filter(|e| e.from.0 as usize == u).collect();
            let parts: Vec<Cow<Dfa>> = edges
                .par_iter()
                .filter_map(|e| {
                    let to = e.to.0 as usize;
                    let target = back[to].as_ref().filter(|d| !d.is_empty())?;
                    let inverse: Vec<Change> = self.nodes[to].changes.iter().map(|c| c.inverse()).collect();
                    // Edges out of the input are the first stage: restrict them to `within`.
                    let condition: Cow<Dfa> = match (u, within, &e.condition) {
                        (0, Some(w), Some(c)) => Cow::Owned(w.intersection(c)),
                        (0, Some(w), None) => Cow::Borrowed(w),
                        (_, _, Some(c)) => Cow::Borrowed(c),
                        (_, _, None) => Cow::Borrowed(&full),
                    };
                    Some(Cow::Owned(step(target, &full, &inverse, &condition).into_owned()))
                })
                .collect();
            back[u] = Some(union_parts(&self.shape, parts));
        }
        back[0].take().expect("input evaluated last")
    }

    /// When every path rewrites exactly one character and has no conditions (and no layers are
    /// relabelled), the moves are one symbol relation per layer: `(layer, pairs)` sorted by
    /// layer, computed once. Images then take the graph's kept [`RelationImager`], one pass
    /// over all layers, instead of a pass that carries every move's hypotheses (Nim 8x31:
    /// 3,968 moves).
    fn layer_relations(&self) -> Option<&[LayerRelation]> {
        self.relations.get_or_init(|| self.find_layer_relations()).as_deref()
    }

    fn find_layer_relations(&self) -> Option<Vec<LayerRelation>> {
        if self.relabel.is_some() {
            return None;
        }
        let unconditional = |c: &Option<Dfa>| c.as_ref().is_none_or(Dfa::is_full);
        let mut by_layer: std::collections::BTreeMap<usize, Vec<(Symbol, Symbol)>> = Default::default();
        for p in self.flat()? {
            match p.changes[..] {
                [c] if unconditional(&p.pre) && unconditional(&p.post) => {
                    by_layer.entry(c.layer).or_default().push((c.from, c.to))
                }
                _ => return None,
            }
        }
        Some(by_layer.into_iter().collect())
    }

    /// The union over `relations` of the images (or, `backward`, preimages) of `set`, within
    /// `within` when given: one pass over all layers with the graph's kept imager
    /// ([`RelationImager`]), so a series of images reuses the unions already built.
    fn relation_images(&self, relations: &[LayerRelation], set: &Dfa, backward: bool, within: Option<&Dfa>) -> Dfa {
        // A poisoned lock only means an earlier image panicked; the imager is rebuilt then.
        let mut slot = self.imagers[usize::from(backward)].lock().unwrap_or_else(|e| {
            let mut guard = e.into_inner();
            *guard = None;
            guard
        });
        let imager = slot.get_or_insert_with(|| {
            if backward {
                let inverse: Vec<LayerRelation> =
                    relations.iter().map(|(l, pairs)| (*l, pairs.iter().map(|&(a, b)| (b, a)).collect())).collect();
                RelationImager::new(&self.shape, &inverse)
            } else {
                RelationImager::new(&self.shape, relations)
            }
        });
        imager.image(set, within)
    }

    /// Every path as one move `(pre, changes, post)`, or `None` if there are more than
    /// [`MAX_FLAT_PATHS`]. Computed once.
    fn flat(&self) -> Option<&[FlatMove]> {
        self.flat.get_or_init(|| self.flatten()).as_deref()
    }

    /// Enumerate paths depth-first, composing changes and moving mid-path conditions onto the
    /// original string: a condition `c` met after changes `ch` keeps exactly the originals in
    /// `change⁻¹_ch(c)`.
    fn flatten(&self) -> Option<Vec<FlatMove>> {
        struct Partial {
            node: usize,
            changes: Vec<Change>,
            pre: Option<Dfa>,
            group: u32,
        }
        let mut out = Vec::new();
        let mut out_edges: Vec<Vec<&Edge>> = vec![Vec::new(); self.nodes.len()];
        for e in &self.edges {
            out_edges[e.from.0 as usize].push(e);
        }
        let mut stack = vec![Partial { node: 0, changes: Vec::new(), pre: None, group: 0 }];
        while let Some(p) = stack.pop() {
            for &e in &out_edges[p.node] {
                let to = e.to.0 as usize;
                if to == 1 {
                    let inverse = p.changes.iter().map(|c| c.inverse()).collect();
                    out.push(FlatMove {
                        pre: p.pre.clone(),
                        changes: p.changes.clone(),
                        inverse,
                        post: e.condition.clone(),
                        group: p.group,
                    });
                    if out.len() > MAX_FLAT_PATHS {
                        return None;
                    }
                    continue;
                }
                let mut pre = p.pre.clone();
                if let Some(c) = &e.condition {
                    let pulled = if p.changes.is_empty() { c.clone() } else { c.change_inverse(&p.changes) };
                    pre = Some(match pre {
                        Some(x) => x.intersection(&pulled),
                        None => pulled,
                    });
                }
                let Some(changes) = compose(&p.changes, &self.nodes[to].changes) else { continue };
                let group = if p.node == 0 { self.nodes[to].group } else { p.group };
                stack.push(Partial { node: to, changes, pre, group });
            }
        }
        Some(out)
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
}

/// All the moves that rewrite one layer, as pairs `(from, to)` of its symbols.
type LayerRelation = (usize, Vec<(Symbol, Symbol)>);

/// Most paths a graph is flattened into before it is evaluated stage by stage instead.
pub const MAX_FLAT_PATHS: usize = 100_000;

/// One path of a graph as a single move.
#[derive(Clone, Debug)]
struct FlatMove {
    pre: Option<Dfa>,
    changes: Vec<Change>,
    /// The changes undone, for backward images.
    inverse: Vec<Change>,
    post: Option<Dfa>,
    /// Evaluation group (of the path's first node).
    group: u32,
}

impl FlatMove {
    fn forward(&self) -> Move<'_> {
        Move { pre: self.pre.as_ref(), changes: &self.changes, post: self.post.as_ref() }
    }

    fn backward(&self) -> Move<'_> {
        Move { pre: self.post.as_ref(), changes: &self.inverse, post: self.pre.as_ref() }
    }
}

/// Changes `first` then `then`, as one list; `None` if `then` needs a symbol `first` did not
/// leave.
fn compose(first: &[Change], then: &[Change]) -> Option<Vec<Change>> {
    let mut out = first.to_vec();
    for c in then {
        match out.iter_mut().find(|x| x.layer == c.layer) {
            Some(x) if x.to == c.from => x.to = c.to,
            Some(_) => return None,
            None => out.push(*c),
        }
    }
    out.sort_unstable();
    Some(out)
}

/// `post ∩ change(set ∩ pre)`, without any work when it is `set` itself.
fn step<'a>(set: &'a Dfa, pre: &Dfa, changes: &[Change], post: &Dfa) -> Cow<'a, Dfa> {
    if changes.is_empty() && pre.is_full() && post.is_full() {
        Cow::Borrowed(set)
    } else {
        Cow::Owned(set.image(pre, changes, post))
    }
}

fn union_parts(shape: &Shape, parts: Vec<Cow<Dfa>>) -> Dfa {
    if parts.len() == 1 {
        return parts.into_iter().next().expect("one part").into_owned();
    }
    let refs: Vec<&Dfa> = parts.iter().map(|p| p.as_ref()).collect();
    Dfa::union_all(shape, &refs)
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
