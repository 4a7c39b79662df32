//! A move graph flattened into its paths, each one move `(pre, changes, post)`, grouped and
//! prepared once as [`MovePlan`]s for the one-pass image engine.

use super::{Edge, MoveGraph};
use crate::dfa::{Background, Change, Dfa, Move, MovePlan};

impl MoveGraph {
    /// The prepared plan of all paths forward (`backward = false`) or backward, if the graph
    /// flattens.
    pub(super) fn plan(&self, backward: bool, split: usize) -> Option<&[MovePlan]> {
        self.plans[split][usize::from(backward)]
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
                // At split level `split` a group's paths go into 2^split passes, in their
                // order (a Breakthrough row's moves by from-file): each pass's image explores
                // fewer combinations of moves at once, so its tables are smaller, for more
                // passes over the same layers.
                let plans = groups
                    .iter()
                    .flat_map(|&g| {
                        let moves: Vec<Move> = paths
                            .iter()
                            .filter(|p| p.group == g)
                            .map(|p| if backward { p.backward() } else { p.forward() })
                            .collect();
                        let per_pass = moves.len().div_ceil(1 << split).max(1);
                        moves
                            .chunks(per_pass)
                            .map(|part| MovePlan::new(&self.shape, part, background.clone()))
                            .collect::<Vec<_>>()
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
    pub(super) fn image_by_plans(&self, plans: &[MovePlan], set: &Dfa, within: Option<&Dfa>) -> Dfa {
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
    /// Every path as one move `(pre, changes, post)`, or `None` if there are more than
    /// [`MAX_FLAT_PATHS`]. Computed once.
    pub(super) fn flat(&self) -> Option<&[FlatMove]> {
        self.flat.get_or_init(|| self.flatten()).as_deref()
    }
    /// Enumerate paths depth-first, composing changes and moving mid-path conditions onto the
    /// original string: a condition `c` met after changes `ch` keeps exactly the originals in
    /// `change⁻¹_ch(c)`.
    pub(super) fn flatten(&self) -> Option<Vec<FlatMove>> {
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
}

/// Most paths a graph is flattened into before it is evaluated stage by stage instead.
pub const MAX_FLAT_PATHS: usize = 100_000;

/// One path of a graph as a single move.
#[derive(Clone, Debug)]
pub(super) struct FlatMove {
    pub(super) pre: Option<Dfa>,
    pub(super) changes: Vec<Change>,
    /// The changes undone, for backward images.
    inverse: Vec<Change>,
    pub(super) post: Option<Dfa>,
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

#[cfg(test)]
mod tests {
    use crate::dfa::Dfa;
    use crate::games::Game;
    use crate::games::breakthrough::Breakthrough;

    /// An image is the same set whether each group of moves is one pass or is split into
    /// halves or quarters: Breakthrough 4x5's moves forward from its first plies, and
    /// backward from those plies within the universe.
    #[test]
    fn split_passes_give_the_same_images() {
        let game = Breakthrough::new(4, 5).unwrap();
        let mut set = Dfa::from_string(game.shape(), &game.initial().board);
        let mut side = game.initial().side;
        for _ in 0..6 {
            let graph = game.moves(side);
            let image = |backward: bool, split: usize, of: &Dfa| {
                let plans = graph.plan(backward, split).expect("Breakthrough's moves flatten");
                graph.image_by_plans(plans, of, backward.then(|| game.universe(side)).as_ref())
            };
            let forward = image(false, 0, &set);
            let backward = image(true, 0, &forward);
            assert!(!forward.is_empty() && !backward.is_empty());
            for split in 1..crate::dfa::limits::SPLIT_LEVELS {
                assert!(graph.plan(false, split).unwrap().len() > graph.plan(false, split - 1).unwrap().len());
                assert_eq!(image(false, split, &set), forward, "forward, split level {split}");
                assert_eq!(image(true, split, &forward), backward, "backward, split level {split}");
            }
            set = forward;
            side = side.other();
        }
    }
}
