//! A move graph flattened into its paths, each one move `(pre, changes, post)`, grouped and
//! prepared once as [`MovePlan`]s for the one-pass image engine.

use super::progress::{Partial, Resume};
use super::{Direction, Edge, MoveGraph};
use crate::dfa::limits::Stoppable;
use crate::dfa::{Background, Change, Dfa, Move, MovePlan, Region};
use std::borrow::Cow;

/// A prepared pass and the ordinal (0, 1, ...) of the move group it belongs to.
pub(super) type GroupPlan = (usize, MovePlan);

impl MoveGraph {
    /// The prepared plan of all paths in `direction`, if the graph flattens.
    ///
    /// # Errors
    /// A stop while flattening (conditions pulled back along paths); nothing is kept then.
    pub(super) fn plan(&self, direction: Direction, split: usize) -> Stoppable<Option<&[GroupPlan]>> {
        let made = crate::once::get_or_try_init(&self.plans[split][direction.index()], || {
            let Some(paths) = self.flat()? else { return Ok(None) };
            let background = match (&self.relabel, direction) {
                (None, _) => Background::identity(),
                (Some(map), Direction::Forward) => Background::forward(&self.shape, map),
                (Some(map), Direction::Backward) => Background::backward(&self.shape, map),
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
                .enumerate()
                .flat_map(|(ordinal, &g)| {
                    let moves: Vec<Move> = paths
                        .iter()
                        .filter(|p| p.group == g)
                        .map(|p| match direction {
                            Direction::Forward => p.forward(),
                            Direction::Backward => p.backward(),
                        })
                        .collect();
                    let per_pass = moves.len().div_ceil(1 << split).max(1);
                    moves
                        .chunks(per_pass)
                        .map(|part| (ordinal, MovePlan::new(&self.shape, part, background.clone())))
                        .collect::<Vec<_>>()
                })
                .collect();
            Ok(Some(plans))
        })?;
        Ok(made.as_deref())
    }
    /// The union of the images of `set` under every plan.
    ///
    /// Each group's image is merged as soon as it exists, by pairwise unions in a balanced
    /// tree (a binary counter: two merged images of equal rank merge again). At most about
    /// log2(groups) images wait at once, and every union's result is minimal before it goes
    /// on. One n-ary union of all the groups' images was the alternative; its subset
    /// construction over a few large images can grow far past them, where these unions stay
    /// near the size of their operands.
    ///
    /// `resume` may skip the groups an earlier run finished (starting from the images it left
    /// waiting) and is told what waits after each group.
    pub(super) fn image_by_plans(
        &self,
        plans: &[GroupPlan],
        set: &Dfa,
        within: Option<&Dfa>,
        region: &Region,
        mut resume: Resume,
    ) -> Stoppable<Dfa> {
        let (skip, mut pending) = resume.from.take().map_or((0, Vec::new()), |p| (p.groups_done, p.sets));
        for (i, (group, plan)) in plans.iter().enumerate().filter(|(_, (g, _))| *g >= skip) {
            let mut merged = (0u32, set.image_planned_in(plan, within, region)?);
            while let Some((rank, _)) = pending.last()
                && *rank == merged.0
            {
                let (rank, earlier) = pending.pop().expect("checked above");
                merged = (rank + 1, earlier.union(&merged.1)?);
            }
            pending.push(merged);
            if plans.get(i + 1).is_none_or(|(next, _)| next != group) {
                let waiting: Vec<(u32, &Dfa)> = pending.iter().map(|(r, d)| (*r, d)).collect();
                resume.report(group + 1, &waiting);
            }
        }
        // Whatever is left has distinct ranks; the smallest go first.
        let mut result = pending.pop().map_or_else(|| Dfa::reject_all(&self.shape), |p| p.1);
        while let Some((_, earlier)) = pending.pop() {
            result = earlier.union(&result)?;
        }
        Ok(result)
    }
    /// The strings of `within` with no path into `set` under any plan: each plan's image is
    /// explored only among the strings the plans before it left, and subtracted at once
    /// (see [`MoveGraph::without_path_into`]).
    ///
    /// `resume` may skip the groups an earlier run finished (starting from the strings they
    /// left) and is told what is left after each group.
    /// `within` may be borrowed (copied at the first difference) or handed over (replaced
    /// at the first difference): it can be gigabytes.
    pub(super) fn filter_by_plans(
        &self,
        plans: &[GroupPlan],
        set: &Dfa,
        within: Cow<'_, Dfa>,
        mut resume: Resume,
    ) -> Stoppable<Dfa> {
        let (skip, mut rest) = match resume.from.take() {
            Some(Partial { groups_done, mut sets }) if sets.len() == 1 => {
                (groups_done, Cow::Owned(sets.pop().expect("one set").1))
            }
            _ => (0, within),
        };
        for (i, (group, plan)) in plans.iter().enumerate().filter(|(_, (g, _))| *g >= skip) {
            if rest.is_empty() {
                break;
            }
            let hit = set.image_planned(plan, Some(&rest))?;
            if !hit.is_empty() {
                rest = Cow::Owned(rest.difference(&hit)?);
            }
            if plans.get(i + 1).is_none_or(|(next, _)| next != group) {
                resume.report(group + 1, &[(0, &rest)]);
            }
        }
        Ok(rest.into_owned())
    }

    /// Every path as one move `(pre, changes, post)`, or `None` if there are more than
    /// [`MAX_FLAT_PATHS`]. Computed once (a stop keeps nothing).
    pub(super) fn flat(&self) -> Stoppable<Option<&[FlatMove]>> {
        Ok(crate::once::get_or_try_init(&self.flat, || self.flatten())?.as_deref())
    }
    /// Enumerate paths depth-first, composing changes and moving mid-path conditions onto the
    /// original string: a condition `c` met after changes `ch` keeps exactly the originals in
    /// `change⁻¹_ch(c)`.
    pub(super) fn flatten(&self) -> Stoppable<Option<Vec<FlatMove>>> {
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
        if self.paths_above(&out_edges, MAX_FLAT_PATHS) {
            return Ok(None);
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
                        return Ok(None);
                    }
                    continue;
                }
                let mut pre = p.pre.clone();
                if let Some(c) = &e.condition {
                    let pulled = if p.changes.is_empty() { c.clone() } else { c.change_inverse(&p.changes)? };
                    pre = Some(match pre {
                        Some(x) => x.intersection(&pulled)?,
                        None => pulled,
                    });
                }
                let Some(changes) = compose(&p.changes, &self.nodes[to].changes) else { continue };
                let group = if p.node == 0 { self.nodes[to].group } else { p.group };
                stack.push(Partial { node: to, changes, pre, group });
            }
        }
        Ok(Some(out))
    }
}

impl MoveGraph {
    /// Whether the graph has more than `limit` paths whose changes compose: the walk of
    /// [`MoveGraph::flatten`] without its set operations, so that a graph with too many paths
    /// (Othello on 8x8) is refused before any condition is pulled back along a path.
    fn paths_above(&self, out_edges: &[Vec<&Edge>], limit: usize) -> bool {
        let mut paths = 0usize;
        let mut stack = vec![(0usize, Vec::new())];
        while let Some((node, changes)) = stack.pop() {
            for e in &out_edges[node] {
                let to = e.to.0 as usize;
                if to == 1 {
                    paths += 1;
                    if paths > limit {
                        return true;
                    }
                } else if let Some(composed) = compose(&changes, &self.nodes[to].changes) {
                    stack.push((to, composed));
                }
            }
        }
        false
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
    use crate::dfa::{Dfa, Region};
    use crate::game::Rules;
    use crate::games::fixtures::a_board_game_of_two_sides;
    use crate::move_graph::{Direction, Partial, Resume};
    use std::borrow::Cow;

    /// An image is the same set whether each group of moves is one pass or is split into
    /// halves or quarters: a board game's moves forward from its first plies, and
    /// backward from those plies within the universe.
    #[test]
    fn split_passes_give_the_same_images() {
        let game = a_board_game_of_two_sides();
        let mut set = Dfa::from_string(game.shape(), &game.initial().board);
        let mut side = game.initial().side;
        for _ in 0..6 {
            let graph = game.moves(side).unwrap();
            let image = |direction: Direction, split: usize, of: &Dfa| {
                let plans = graph.plan(direction, split).unwrap().expect("the game's moves flatten");
                graph.image_by_plans(
                    plans,
                    of,
                    (direction == Direction::Backward).then(|| game.universe(side).unwrap()).as_ref(),
                    &Region::whole(),
                    Resume::none(),
                )
            };
            let forward = image(Direction::Forward, 0, &set).unwrap();
            let backward = image(Direction::Backward, 0, &forward).unwrap();
            assert!(!forward.is_empty() && !backward.is_empty());
            for split in 1..crate::dfa::limits::SPLIT_LEVELS {
                assert!(
                    graph.plan(Direction::Forward, split).unwrap().unwrap().len()
                        > graph.plan(Direction::Forward, split - 1).unwrap().unwrap().len()
                );
                assert_eq!(image(Direction::Forward, split, &set).unwrap(), forward, "forward, split level {split}");
                assert_eq!(
                    image(Direction::Backward, split, &forward).unwrap(),
                    backward,
                    "backward, split level {split}"
                );
            }
            set = forward;
            side = side.other();
        }
    }

    /// An image resumed from the progress it reported after any of its groups, at any split
    /// level, is the image computed in one go: the union of images and the filter, on
    /// a board game's moves backward from its third ply within the universe.
    #[test]
    fn images_resumed_after_any_group_are_the_same() {
        use std::sync::Mutex;
        let game = a_board_game_of_two_sides();
        let mut set = Dfa::from_string(game.shape(), &game.initial().board);
        let mut side = game.initial().side;
        for _ in 0..3 {
            set = game.moves(side).unwrap().forward(&set).unwrap();
            side = side.other();
        }
        let graph = game.moves(side.other()).unwrap();
        let within = &game.universe(side.other()).unwrap();
        let snapshots = Mutex::new(Vec::new());
        let record = |groups_done: usize, sets: &[(u32, &Dfa)]| {
            let sets = sets.iter().map(|(r, d)| (*r, (*d).clone())).collect();
            snapshots.lock().unwrap().push(Partial { groups_done, sets });
        };
        let plans = |split: usize| graph.plan(Direction::Backward, split).unwrap().expect("the game's moves flatten");
        let whole = graph
            .image_by_plans(
                plans(0),
                &set,
                Some(within),
                &Region::whole(),
                Resume { from: None, record: Some(&record) },
            )
            .unwrap();
        let image_snapshots = std::mem::take(&mut *snapshots.lock().unwrap());
        let left = graph
            .filter_by_plans(plans(0), &set, Cow::Borrowed(within), Resume { from: None, record: Some(&record) })
            .unwrap();
        let filter_snapshots = std::mem::take(&mut *snapshots.lock().unwrap());
        assert!(!whole.is_empty() && !left.is_empty());
        assert_eq!(left, within.difference(&whole).unwrap());
        let groups = plans(0).len();
        assert!(groups > 2 && image_snapshots.len() == groups && filter_snapshots.len() == groups);
        for split in 0..crate::dfa::limits::SPLIT_LEVELS {
            for from in image_snapshots.iter().cloned() {
                let resume = Resume { from: Some(from), record: None };
                assert_eq!(
                    graph.image_by_plans(plans(split), &set, Some(within), &Region::whole(), resume).unwrap(),
                    whole,
                    "split level {split}"
                );
            }
            for from in filter_snapshots.iter().cloned() {
                let resume = Resume { from: Some(from), record: None };
                assert_eq!(
                    graph.filter_by_plans(plans(split), &set, Cow::Borrowed(within), resume).unwrap(),
                    left,
                    "split level {split}"
                );
            }
        }
    }

    /// A graph's groups taken apart ([`crate::move_graph::MoveGraph::with_groups`]) image
    /// what the whole graph images: each group's image, and the rest's, unite to the whole.
    #[test]
    fn the_groups_taken_apart_unite_to_the_whole_graph() {
        let game = a_board_game_of_two_sides();
        let mut set = Dfa::from_string(game.shape(), &game.initial().board);
        let mut side = game.initial().side;
        for _ in 0..3 {
            let graph = game.moves(side).unwrap();
            let groups = graph.groups();
            assert!(groups.len() > 1, "{groups:?}");
            let whole = graph.forward(&set).unwrap();
            let each = groups.iter().fold(Dfa::reject_all(game.shape()), |all, &g| {
                all.union(&graph.with_groups(|x| x == g).forward(&set).unwrap()).unwrap()
            });
            assert_eq!(each, whole);
            let rest = graph.with_groups(|x| x != groups[0]).forward(&set).unwrap();
            assert_eq!(rest.union(&graph.with_groups(|x| x == groups[0]).forward(&set).unwrap()).unwrap(), whole);
            assert!(graph.with_groups(|_| false).forward(&set).unwrap().is_empty());
            set = whole;
            side = side.other();
        }
    }
}
