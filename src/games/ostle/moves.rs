//! The symbolic moves of Ostle: one move graph whose paths read and write the squares along
//! each move's line, with every other square relabelled (see the module docs of [`super`]).

use super::{BANNED, Dir, EMPTY, HOLE, HOLE_BANNED, MINE, Ostle, SYMBOLS, THEIRS};
use crate::dfa::{Change, Symbol};
use crate::move_graph::MoveGraph;

impl Ostle {
    /// The move graph of the mover (both sides: strings are written from the mover's view).
    pub(super) fn move_graph(&self) -> MoveGraph {
        let v = &self.variant;
        let mut g = MoveGraph::new(&self.shape);
        let n = v.squares();
        // Every square the move does not touch: colours swap, the old marker is erased.
        let map: Vec<Symbol> = (0..SYMBOLS as Symbol)
            .map(|c| match c {
                MINE => THEIRS,
                THEIRS => MINE,
                HOLE_BANNED => EMPTY,
                5..=8 => THEIRS,
                c => c,
            })
            .collect();
        g.relabel_unchanged(vec![map; n]);
        let swapped = |c: Symbol| if c == THEIRS { MINE } else { THEIRS };
        // Evaluation groups: vertical moves span several ranks, so each file's are a group of
        // their own; horizontal moves form one group per rank. Within one pass the sets carry
        // every combination of moves under way or just completed, and separate groups keep
        // those combinations from multiplying across files and ranks.
        let (w, h) = (v.width, v.height);
        let group = |square: usize, dir: Dir| match dir {
            Dir::L | Dir::R => (square / w) as u32,
            Dir::U | Dir::D => (h + square % w) as u32,
        };
        for square in 0..n {
            for dir in Dir::ALL {
                // Hole moves: onto an empty square (not the banned one); the square left
                // behind becomes the one the opponent's hole may not return to.
                if let Some(t) = v.neighbour(square, dir) {
                    g.add_move_in(
                        group(square, dir),
                        format!("hole {}{}", v.square_name(square), dir.letter()),
                        None,
                        sorted(vec![Change::new(square, HOLE, HOLE_BANNED), Change::new(t, EMPTY, HOLE)]),
                        None,
                    );
                }
                // Piece moves: the mover's piece (unmarked, or marked for another direction)
                // and every chain of pieces in front of it.
                let starts: Vec<(Symbol, bool)> = std::iter::once((MINE, false))
                    .chain(Dir::ALL.into_iter().filter(|&d| d != dir).map(|d| (BANNED[d.index()], true)))
                    .collect();
                for (start, marked) in starts {
                    let mut chain = vec![(square, start, marked)];
                    self.push_paths(&mut g, group(square, dir), dir, &mut chain, &swapped);
                }
            }
        }
        g
    }
    /// Add the paths of a piece move in `dir` whose chain so far is `chain` (square, symbol
    /// read, whether it is a marked symbol), for every way the next square can look.
    fn push_paths(
        &self,
        g: &mut MoveGraph,
        group: u32,
        dir: Dir,
        chain: &mut Vec<(usize, Symbol, bool)>,
        swapped: &dyn Fn(Symbol) -> Symbol,
    ) {
        let v = &self.variant;
        let marked = chain.iter().any(|c| c.2);
        // Square i of the chain receives the piece of square i-1, seen from the new mover.
        let colour = |sym: Symbol| if sym == THEIRS { THEIRS } else { MINE };
        let shifted = |chain: &[(usize, Symbol, bool)]| -> Vec<Change> {
            let mut ch = vec![Change::new(chain[0].0, chain[0].1, EMPTY)];
            for i in 1..chain.len() {
                ch.push(Change::new(chain[i].0, chain[i].1, swapped(colour(chain[i - 1].1))));
            }
            ch
        };
        let (last, last_sym, _) = *chain.last().expect("non-empty");
        let name = format!("{}{} chain {}", v.square_name(chain[0].0), dir.letter(), chain.len());
        match v.neighbour(last, dir) {
            None => {
                // The last piece falls off the edge.
                g.add_move_in(group, name, None, sorted(shifted(chain)), None);
            }
            Some(t) => {
                // Into the hole: the last piece is gone, the hole stays.
                let mut ch = shifted(chain);
                ch.push(Change::new(t, HOLE, HOLE));
                g.add_move_in(group, name.clone(), None, sorted(ch), None);
                // Onto an empty square (banned for the hole or not): nothing leaves the game;
                // if the last piece is the opponent's, the new mover may not push it back.
                let arrive = if colour(last_sym) == THEIRS { BANNED[dir.reverse().index()] } else { THEIRS };
                for empty in [EMPTY, HOLE_BANNED] {
                    if empty == HOLE_BANNED && marked {
                        continue;
                    }
                    let mut ch = shifted(chain);
                    ch.push(Change::new(t, empty, arrive));
                    g.add_move_in(group, name.clone(), None, sorted(ch), None);
                }
                // A further piece: the chain goes on.
                let mut next: Vec<(Symbol, bool)> = vec![(MINE, false), (THEIRS, false)];
                if !marked {
                    next.extend(BANNED.iter().map(|&b| (b, true)));
                }
                for (sym, m) in next {
                    chain.push((t, sym, m));
                    self.push_paths(g, group, dir, chain, swapped);
                    chain.pop();
                }
            }
        }
    }
}

fn sorted(mut ch: Vec<Change>) -> Vec<Change> {
    ch.sort_unstable();
    ch
}
