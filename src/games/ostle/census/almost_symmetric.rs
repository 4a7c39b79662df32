//! The boards on which the two readings of the no-undo rule differ, found from the moves that
//! make them differ instead of by trying every board.
//!
//! The readings differ on an ongoing board `p` when some move `m` of the mover removes nothing
//! and leaves other states behind under the published class reading than the one of the exact
//! reading ([`Variant::readings_differ`]). The class reading's forbidden moves on `q = m(p)`
//! all lead into `p`'s class, so then some reply `f` of the opponent other than the exact undo
//! removes nothing and leads to a symmetric image `g(p)` of `p`: `g` is not the identity (a
//! move that removes nothing is the only one with its result), and `f(m(p)) = g(p) ≠ p`. That
//! is so whenever `f` comes before the exact undo in the published order on the canonical
//! board, or `q` is symmetric and the exact undo is not.
//!
//! `m` and `f` each change only the squares of their line (the moving piece or hole, the
//! pushed chain and the square it ends on); call their union `D`. Outside `D`, `p` equals
//! `f(m(p))`, so `p(g(i)) = p(i)` whenever neither `i` nor `g(i)` is in `D`: apart from a few
//! squares, `p` is symmetric. Given `g`, the contents `m` and `f` need on `D` fix `p` on `D`,
//! pin some squares outside it, and leave one free choice per cycle of `g` that avoids `D`.
//! [`Variant::almost_symmetric_boards`] lists those boards for every `(g, m, f)` and keeps the
//! ones that satisfy the definition, so it returns exactly the boards the definition gives
//! (tested against trying every board on the small variants).

use super::super::explicit::Cell;
use super::super::{Dir, Rule, Variant};
use hashbrown::HashSet;
use rayon::prelude::*;

/// A move that removes nothing, as the squares it reads and writes: `before[k]` must be on
/// `squares[k]`, and `after[k]` is there afterwards. Every other square is unchanged.
#[derive(Clone, Debug)]
struct Change {
    squares: Vec<usize>,
    before: Vec<Cell>,
    after: Vec<Cell>,
}

impl Variant {
    /// Whether, on ongoing board `cells` (mover's view), some move leaves a different
    /// forbidden move behind under the class reading than under the exact one. This is the
    /// definition; [`Variant::almost_symmetric_boards`] finds the boards where it holds.
    pub fn readings_differ(&self, cells: &[Cell]) -> bool {
        let exact = Variant { rule: Rule::Exact, ..self.clone() };
        let class = Variant { rule: Rule::Class, ..self.clone() };
        self.finished(cells).is_none()
            && self.all_moves(cells).into_iter().any(|m| exact.states_after(cells, m) != class.states_after(cells, m))
    }

    /// Every ongoing board on which the two readings differ ([`Variant::readings_differ`]),
    /// sorted. The work grows with the number of moves and symmetries and with
    /// [`Variant::almost_symmetric_candidates`], not with the number of boards (see the module
    /// notes).
    pub fn almost_symmetric_boards(&self) -> Vec<Vec<Cell>> {
        let candidates: HashSet<Vec<Cell>> = self
            .frames()
            .fold(HashSet::new, |mut found, frame| {
                frame.enumerate(self, 0, &mut frame.board.clone(), frame.counts, &mut found);
                found
            })
            .reduce(HashSet::new, |mut a, b| {
                a.extend(b);
                a
            });
        let candidates: Vec<Vec<Cell>> = candidates.into_iter().collect();
        let mut boards: Vec<Vec<Cell>> = candidates.into_par_iter().filter(|p| self.readings_differ(p)).collect();
        boards.sort();
        boards
    }

    /// How many candidate boards [`Variant::almost_symmetric_boards`] would try, counted with
    /// multiplicity and without listing them: a bound on its work and memory, cheap to compute.
    pub fn almost_symmetric_candidates(&self) -> u128 {
        self.frames().map(|frame| frame.count(self)).sum()
    }

    /// One [`Frame`] per symmetry `g ≠ id`, first move `m` and reply `f` for which some board
    /// can have `f(m(p)) = g(p) ≠ p`.
    fn frames(&self) -> impl ParallelIterator<Item = Frame> + '_ {
        let first = self.changes(Cell::Mine);
        let replies = std::sync::Arc::new(self.changes(Cell::Theirs));
        let symmetries: Vec<Vec<usize>> = self.symmetries().into_iter().skip(1).collect();
        let jobs: Vec<(Vec<usize>, Change)> =
            symmetries.iter().flat_map(|g| first.iter().map(move |m| (g.clone(), m.clone()))).collect();
        jobs.into_par_iter().flat_map_iter(move |(g, m)| {
            let replies = replies.clone();
            (0..replies.len()).filter_map(move |k| self.frame(&g, &m, &replies[k]))
        })
    }

    /// The non-removing moves of a player whose pieces are `colour`: hole moves and pushes
    /// whose chain ends on an empty square, one [`Change`] per colouring of the pushed chain.
    fn changes(&self, colour: Cell) -> Vec<Change> {
        let mut out = Vec::new();
        for s in 0..self.squares() {
            for d in Dir::ALL {
                let Some(t) = self.neighbour(s, d) else { continue };
                out.push(Change {
                    squares: vec![s, t],
                    before: vec![Cell::Hole, Cell::Empty],
                    after: vec![Cell::Empty, Cell::Hole],
                });
                // The line from s: the moving piece, the pushed pieces, the empty end square.
                let mut line = vec![s, t];
                loop {
                    let pushed = line.len() - 2;
                    for colours in 0..1u32 << pushed {
                        let mut before = vec![colour];
                        before
                            .extend((0..pushed).map(|k| if colours >> k & 1 == 1 { Cell::Mine } else { Cell::Theirs }));
                        before.push(Cell::Empty);
                        let mut after = vec![Cell::Empty];
                        after.extend_from_slice(&before[..before.len() - 1]);
                        out.push(Change { squares: line.clone(), before, after });
                    }
                    match self.neighbour(*line.last().expect("non-empty"), d) {
                        Some(next) => line.push(next),
                        None => break,
                    }
                }
            }
        }
        out
    }

    /// The boards `p` with `f(m(p)) = g(p) ≠ p`, as a [`Frame`] (`None` if there are none).
    fn frame(&self, g: &[usize], m: &Change, f: &Change) -> Option<Frame> {
        let n = self.squares();
        // p and then f(m(p)) on D, the squares the moves touch.
        let mut before: Vec<Option<Cell>> = vec![None; n];
        let mut after = before.clone();
        for k in 0..m.squares.len() {
            before[m.squares[k]] = Some(m.before[k]);
            after[m.squares[k]] = Some(m.after[k]);
        }
        for k in 0..f.squares.len() {
            let y = f.squares[k];
            match after[y] {
                Some(c) if c != f.before[k] => return None,
                Some(_) => {}
                None => before[y] = Some(f.before[k]),
            }
            after[y] = Some(f.after[k]);
        }
        if before == after {
            return None; // f undoes m exactly
        }
        // Outside D: p(g(i)) = p(i). Squares outside D are grouped (union-find) and pinned.
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        let mut pins: Vec<(usize, Cell)> = Vec::new();
        for i in 0..n {
            let j = g[i];
            match (before[i], after[j]) {
                (None, None) => {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                    parent[a] = b;
                }
                (None, Some(c)) => pins.push((i, c)),
                (Some(c), None) => pins.push((j, c)),
                (Some(a), Some(b)) if a != b => return None,
                (Some(_), Some(_)) => {}
            }
        }
        let mut value: Vec<Option<Cell>> = vec![None; n];
        for (i, c) in pins {
            let r = root(&mut parent, i);
            match value[r] {
                Some(v) if v != c => return None,
                _ => value[r] = Some(c),
            }
        }
        let mut board: Vec<Cell> = vec![Cell::Empty; n];
        let mut counts = [0usize; 4];
        let mut members: Vec<Vec<usize>> = Vec::new();
        let mut group_of: Vec<Option<usize>> = vec![None; n];
        for i in 0..n {
            let fixed = before[i].or_else(|| value[root(&mut parent, i)]);
            if let Some(c) = fixed {
                board[i] = c;
                counts[c as usize] += 1;
            } else {
                let r = root(&mut parent, i);
                let k = *group_of[r].get_or_insert_with(|| {
                    members.push(Vec::new());
                    members.len() - 1
                });
                members[k].push(i);
            }
        }
        Some(Frame { board, counts, members })
    }
}

/// The boards of one `(g, m, f)`: `board` holds the fixed squares (the rest are empty) and
/// `counts` their cells by kind; each group of `members` takes one cell kind, any kind.
struct Frame {
    board: Vec<Cell>,
    counts: [usize; 4],
    members: Vec<Vec<usize>>,
}

impl Frame {
    /// Fills the groups `members[k..]` with one cell kind each, within the piece and hole
    /// counts, and adds every ongoing board with exactly one hole to `found`.
    fn enumerate(
        &self,
        v: &Variant,
        k: usize,
        board: &mut Vec<Cell>,
        counts: [usize; 4],
        found: &mut HashSet<Vec<Cell>>,
    ) {
        let [_, mine, theirs, holes] = counts;
        if mine > v.pieces || theirs > v.pieces || holes > 1 {
            return;
        }
        if k == self.members.len() {
            if holes == 1 && v.finished(board).is_none() {
                found.insert(board.clone());
            }
            return;
        }
        for c in [Cell::Empty, Cell::Mine, Cell::Theirs, Cell::Hole] {
            let mut next = counts;
            next[c as usize] += self.members[k].len();
            for &i in &self.members[k] {
                board[i] = c;
            }
            self.enumerate(v, k + 1, board, next, found);
        }
        for &i in &self.members[k] {
            board[i] = Cell::Empty;
        }
    }

    /// How many boards [`Frame::enumerate`] adds, by dynamic programming over the counts.
    fn count(&self, v: &Variant) -> u128 {
        let k = v.pieces;
        // ways[mine][theirs][holes]
        let mut ways = vec![vec![[0u128; 2]; k + 1]; k + 1];
        let [_, mine, theirs, holes] = self.counts;
        if mine > k || theirs > k || holes > 1 {
            return 0;
        }
        ways[mine][theirs][holes] = 1;
        for group in &self.members {
            let size = group.len();
            let mut next = vec![vec![[0u128; 2]; k + 1]; k + 1];
            for a in 0..=k {
                for b in 0..=k {
                    for h in 0..2 {
                        let w = ways[a][b][h];
                        if w == 0 {
                            continue;
                        }
                        next[a][b][h] += w;
                        if a + size <= k {
                            next[a + size][b][h] += w;
                        }
                        if b + size <= k {
                            next[a][b + size][h] += w;
                        }
                        if h + size <= 1 {
                            next[a][b][h + size] += w;
                        }
                    }
                }
            }
            ways = next;
        }
        let t = v.lose_at;
        (t + 1..=k).flat_map(|a| (t + 1..=k).map(move |b| (a, b))).map(|(a, b)| ways[a][b][1]).sum()
    }
}
