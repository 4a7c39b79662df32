//! Othello's rules as sets: where a side can move, the final disc difference against a
//! threshold, and the moves as a staged move graph.
//!
//! A move puts a disc on an empty square and flips, in each of the 8 directions, the closed
//! run of opponent discs there, if any. Written as one move per square and choice of runs the
//! graph would have a path per combination (thousands per square on 6x6); staged, it has a
//! junction per square, direction and "has anything flipped yet", and per direction one node
//! per run length. Rays from a square are disjoint and the square itself stays empty until
//! the last stage, so every stage's condition reads the board as it was before the move.

use super::explicit::DIRECTIONS;
use crate::dfa::limits::Stoppable;
use crate::dfa::{Change, Dfa, Shape, Symbol};
use crate::game::Side;
use crate::move_graph::{MoveGraph, MoveNodeId};
use std::cmp::Ordering;

/// An empty square.
pub const EMPTY: Symbol = 0;

/// A side's disc: Black (the first player) `1`, White `2`.
pub fn disc(side: Side) -> Symbol {
    match side {
        Side::First => 1,
        Side::Second => 2,
    }
}

/// Squares of a board with the rays from each square.
#[derive(Clone, Debug)]
pub struct Board {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

impl Board {
    /// The squares from `square` outwards in each direction that has at least two (a run
    /// and its closing disc), in the order of the oracle's 8 directions.
    pub fn rays(&self, square: usize) -> Vec<Vec<usize>> {
        let (r, c) = ((square / self.width) as i32, (square % self.width) as i32);
        DIRECTIONS
            .iter()
            .map(|&(dr, dc)| {
                let mut ray = Vec::new();
                let (mut rr, mut cc) = (r + dr, c + dc);
                while rr >= 0 && cc >= 0 && (rr as usize) < self.height && (cc as usize) < self.width {
                    ray.push(rr as usize * self.width + cc as usize);
                    rr += dr;
                    cc += dc;
                }
                ray
            })
            .filter(|ray| ray.len() >= 2)
            .collect()
    }

    fn squares(&self) -> usize {
        self.width * self.height
    }

    /// Boards where a disc of `side` on `square` would flip a run of exactly `k` discs
    /// along `ray` (the run, then `side`'s disc); the square itself is not read.
    fn closes(&self, shape: &Shape, side: Side, ray: &[usize], k: usize) -> Dfa {
        let (own, opp) = (disc(side), disc(side.other()));
        Dfa::from_allowed(shape, |l, s| match ray.iter().position(|&q| q == l) {
            Some(i) if i < k => s == opp,
            Some(i) if i == k => s == own,
            _ => true,
        })
    }

    /// Boards where a disc of `side` on `square` flips nothing along `ray`.
    fn closes_nothing(&self, shape: &Shape, side: Side, ray: &[usize]) -> Stoppable<Dfa> {
        let any = (1..ray.len()).map(|k| self.closes(shape, side, ray, k)).collect::<Vec<_>>();
        let refs: Vec<&Dfa> = any.iter().collect();
        Ok(Dfa::union_all(shape, &refs)?.complement())
    }

    /// Boards on which `side` has a move.
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn can_move(&self, shape: &Shape, side: Side) -> Stoppable<Dfa> {
        let mut any = Vec::new();
        for square in 0..self.squares() {
            let empty = Dfa::layer_in(shape, square, &[EMPTY]);
            for ray in self.rays(square) {
                for k in 1..ray.len() {
                    any.push(self.closes(shape, side, &ray, k).intersection(&empty)?);
                }
            }
        }
        let refs: Vec<&Dfa> = any.iter().collect();
        Dfa::union_all(shape, &refs)
    }

    /// Boards on which Black's discs less White's compare with `threshold` as `order`.
    pub fn difference_compared(&self, shape: &Shape, threshold: i32, order: Ordering) -> Dfa {
        Dfa::count_difference(shape, disc(Side::First), disc(Side::Second), |d| d.cmp(&i64::from(threshold)) == order)
    }

    /// The moves of `side`, staged by direction (see the module docs): one evaluation group
    /// per square.
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn moves(&self, shape: &Shape, side: Side) -> Stoppable<MoveGraph> {
        let (own, opp) = (disc(side), disc(side.other()));
        let mut g = MoveGraph::new(shape);
        for square in 0..self.squares() {
            let rays = self.rays(square);
            if rays.is_empty() {
                continue;
            }
            let group = square as u32;
            let junction = |g: &mut MoveGraph, i: usize, flipped: bool| {
                g.add_node_in(group, format!("{square}: ray {i}, flipped {flipped}"), Vec::new())
            };
            // junctions[f]: strings that reached ray i, f = whether anything flipped so far.
            let mut at: [Option<MoveNodeId>; 2] = [Some(junction(&mut g, 0, false)), None];
            g.add_edge(MoveGraph::INPUT, at[0].expect("made above"), Some(Dfa::layer_in(shape, square, &[EMPTY])));
            for (i, ray) in rays.iter().enumerate() {
                // Nodes in creation order (the graph's topological order): this ray's flips,
                // then the next ray's junctions.
                let flips: Vec<MoveNodeId> = (1..ray.len())
                    .map(|k| {
                        let changes: Vec<Change> = ray[..k].iter().map(|&q| Change::new(q, opp, own)).collect();
                        let node = g.add_node_in(group, format!("{square}: ray {i}, flip {k}"), changes);
                        let closing = Dfa::layer_in(shape, ray[k], &[own]);
                        for from in at.iter().flatten() {
                            g.add_edge(*from, node, Some(closing.clone()));
                        }
                        node
                    })
                    .collect();
                let next = [junction(&mut g, i + 1, false), junction(&mut g, i + 1, true)];
                let none = self.closes_nothing(shape, side, ray)?;
                for (f, from) in at.iter().enumerate() {
                    if let Some(from) = *from {
                        g.add_edge(from, next[f], Some(none.clone()));
                    }
                }
                for node in flips {
                    g.add_edge(node, next[1], None);
                }
                at = [Some(next[0]), Some(next[1])];
            }
            let place = g.add_node_in(group, format!("{square}: place"), vec![Change::new(square, EMPTY, own)]);
            g.add_edge(at[1].expect("set after the first ray"), place, None);
            g.add_edge(place, MoveGraph::OUTPUT, None);
        }
        Ok(g)
    }
}
