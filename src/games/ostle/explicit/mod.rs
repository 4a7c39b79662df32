//! Ostle by plain board code: the explicit oracle and the explicit retrograde solver.
//!
//! Nothing here touches DFAs or the symbolic move description. Boards are seen from the
//! player to move ("Black" in the published convention): [`Cell::Mine`] is the mover's piece.
//! The no-undo rule is implemented from its definition: after a move, the next state forbids
//! the move of the new mover whose result recreates the previous position (exact reading), or
//! under the published class reading the first move (published order) of the result's
//! canonical board whose result is a board symmetry of the previous position, carried back to
//! the board as played; found by trying every move.
//!
//! [`solve`] enumerates the states of a variant and computes every value by retrograde
//! analysis; [`write_tables`] writes them in the documented text format of
//! `games/ostle/README.md`.

pub mod verify;

use super::{Dir, Rule, Variant};
use crate::explicit::Exact;
use crate::vocabulary::Outcome;
use hashbrown::HashMap;
use smallvec::{SmallVec, smallvec};
use std::collections::VecDeque;
use std::fmt::Write as _;

/// What is on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A piece of the player to move.
    Mine,
    /// A piece of the other player.
    Theirs,
    /// The hole.
    Hole,
}

/// A move of the player to move: the piece or the hole on `square` goes one step in `dir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Square index `rank · width + file` (rank 0 is rank 1).
    pub square: usize,
    /// Direction.
    pub dir: Dir,
}

/// A position (board from the mover's view) plus the move the mover may not make.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    /// `cells[rank · width + file]`.
    pub cells: Vec<Cell>,
    /// The move that would undo the opponent's last move, if any.
    pub forbidden: Option<Move>,
}

/// The result of one move, before the board is turned over to the opponent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The board after the move, still from the old mover's view.
    pub cells: Vec<Cell>,
    /// The piece that left the game (off the edge or into the hole), if any.
    pub removed: Option<Cell>,
}

impl Variant {
    /// Pieces of each kind: (mine, theirs).
    pub fn piece_counts(cells: &[Cell]) -> (usize, usize) {
        let mine = cells.iter().filter(|&&c| c == Cell::Mine).count();
        let theirs = cells.iter().filter(|&&c| c == Cell::Theirs).count();
        (mine, theirs)
    }

    /// Every move of the player to move on `cells`, the forbidden one included.
    pub fn all_moves(&self, cells: &[Cell]) -> Vec<Move> {
        let mut out = Vec::new();
        for (square, &c) in cells.iter().enumerate() {
            for dir in Dir::ALL {
                let ok = match c {
                    Cell::Mine => true,
                    Cell::Hole => self.neighbour(square, dir).is_some_and(|t| cells[t] == Cell::Empty),
                    _ => false,
                };
                if ok {
                    out.push(Move { square, dir });
                }
            }
        }
        out
    }

    /// Make `m` (which must be one of [`Variant::all_moves`]).
    pub fn play(&self, cells: &[Cell], m: Move) -> Played {
        let mut next = cells.to_vec();
        if cells[m.square] == Cell::Hole {
            let t = self.neighbour(m.square, m.dir).expect("hole moves stay on the board");
            next[t] = Cell::Hole;
            next[m.square] = Cell::Empty;
            return Played { cells: next, removed: None };
        }
        // The chain of pieces from the moving one up to the first empty square, hole or edge.
        let mut chain = vec![m.square];
        let end = loop {
            match self.neighbour(*chain.last().expect("non-empty"), m.dir) {
                None => break None,
                Some(t) if matches!(cells[t], Cell::Mine | Cell::Theirs) => chain.push(t),
                Some(t) => break Some(t),
            }
        };
        let last_piece = cells[*chain.last().expect("non-empty")];
        let removed = match end {
            Some(t) if cells[t] == Cell::Empty => {
                next[t] = last_piece;
                None
            }
            _ => Some(last_piece), // off the edge or into the hole
        };
        for i in (1..chain.len()).rev() {
            next[chain[i]] = cells[chain[i - 1]];
        }
        next[m.square] = Cell::Empty;
        Played { cells: next, removed }
    }

    /// The board from the other player's view.
    pub fn turn_over(cells: &[Cell]) -> Vec<Cell> {
        cells
            .iter()
            .map(|&c| match c {
                Cell::Mine => Cell::Theirs,
                Cell::Theirs => Cell::Mine,
                c => c,
            })
            .collect()
    }

    /// The images of `cells` under the board's symmetries (8 for a square board, 4 otherwise),
    /// identity first.
    pub fn symmetric_images(&self, cells: &[Cell]) -> Vec<Vec<Cell>> {
        self.symmetries().iter().map(|perm| Self::image(perm, cells)).collect()
    }

    /// Whether the game is over for the player to move: `Some(true)` won, `Some(false)` lost.
    pub fn finished(&self, cells: &[Cell]) -> Option<bool> {
        let (mine, theirs) = Self::piece_counts(cells);
        if mine <= self.lose_at {
            Some(false)
        } else if theirs <= self.lose_at {
            Some(true)
        } else {
            None
        }
    }

    /// The states reachable by one legal move from `s` (the forbidden move excluded), with the
    /// move: one per move under the exact reading, one or more (all symmetric) under the class
    /// reading ([`Variant::states_after`]). Moves that end the game lead to states without a
    /// forbidden move.
    pub fn successors(&self, s: &State) -> Vec<(Move, State)> {
        self.all_moves(&s.cells)
            .into_iter()
            .filter(|&m| Some(m) != s.forbidden)
            .flat_map(|m| self.states_after(&s.cells, m).into_iter().map(move |t| (m, t)))
            .collect()
    }

    /// The state after `m` from a position `cells` (whatever its forbidden move): the first of
    /// [`Variant::states_after`].
    pub fn after(&self, cells: &[Cell], m: Move) -> State {
        self.states_after(cells, m).swap_remove(0)
    }

    /// Every state `m` leads to from a position `cells`, on the board as played.
    ///
    /// Exact reading: one state, forbidding the move that recreates `cells`, if any. Class
    /// reading (the published rule): the state of [`Variant::published_after`] on the canonical
    /// board, carried back to the board as played by every symmetry that takes it there. That
    /// is several states only when the board is symmetric and its forbidden move is not; they
    /// are images of one another, so the set of all states stays closed under the symmetries.
    pub fn states_after(&self, cells: &[Cell], m: Move) -> SmallVec<[State; 1]> {
        let played = self.play(cells, m);
        let q = Self::turn_over(&played.cells);
        if played.removed.is_some() {
            return smallvec![State { cells: q, forbidden: None }];
        }
        if self.rule == Rule::Exact {
            let forbidden = self.exact_undo(cells, &q);
            return smallvec![State { cells: q, forbidden }];
        }
        let canonical = self.published_after(cells, m);
        let Some(f) = canonical.forbidden else { return smallvec![State { cells: q, forbidden: None }] };
        let mut out: SmallVec<[State; 1]> = SmallVec::new();
        for (perm, dirs) in self.symmetries_with_dirs() {
            if Self::image(&perm, &q) == canonical.cells {
                let square = perm.iter().position(|&j| j == f.square).expect("a permutation");
                let dir = Dir::ALL[dirs.iter().position(|&d| d == f.dir).expect("a permutation")];
                let s = State { cells: q.clone(), forbidden: Some(Move { square, dir }) };
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// The move of the mover on `q` that recreates `p`, if any (at most one: a move that
    /// removes nothing empties its own square and fills the one its line ends on).
    fn exact_undo(&self, p: &[Cell], q: &[Cell]) -> Option<Move> {
        self.all_moves(q).into_iter().find(|&f| {
            let played = self.play(q, f);
            played.removed.is_none() && Self::turn_over(&played.cells) == p
        })
    }

    /// The board with square `i`'s content on `perm[i]`.
    fn image(perm: &[usize], cells: &[Cell]) -> Vec<Cell> {
        let mut out = vec![Cell::Empty; cells.len()];
        for (i, &j) in perm.iter().enumerate() {
            out[j] = cells[i];
        }
        out
    }

    /// The key of a board for its canonical form: the hole's square, then the sets of the
    /// mover's and the opponent's squares (bit `s` for square `s`).
    fn board_key(cells: &[Cell]) -> (usize, u64, u64) {
        let set = |x: Cell| cells.iter().enumerate().filter(|&(_, &y)| y == x).map(|(i, _)| 1u64 << i).sum::<u64>();
        (cells.iter().position(|&x| x == Cell::Hole).unwrap_or(usize::MAX), set(Cell::Mine), set(Cell::Theirs))
    }

    /// The canonical board of `cells`' symmetry class: the image with the smallest key (hole
    /// square, then mover's and opponent's square sets).
    pub fn canonical_board(&self, cells: &[Cell]) -> Vec<Cell> {
        self.symmetric_images(cells).into_iter().min_by_key(|c| Self::board_key(c)).expect("the identity")
    }

    /// The mover's moves in the published order: squares a1, a2, ..., then b1, ... (file by
    /// file), and on each square U, D, L, R.
    pub fn published_moves(&self, cells: &[Cell]) -> Vec<Move> {
        let mut moves = self.all_moves(cells);
        let order = |m: &Move| {
            let (f, r) = (m.square % self.width, m.square / self.width);
            let d = [Dir::U, Dir::D, Dir::L, Dir::R].iter().position(|&x| x == m.dir).expect("a direction");
            (f * self.height + r) * 4 + d
        };
        moves.sort_by_key(order);
        moves
    }

    /// The state after `m` from `p` in the published class reading, on the canonical board of
    /// the result: it forbids the first move (published order) whose result's canonical board
    /// is `p`'s, one state per pair of classes whatever the representatives.
    pub fn published_after(&self, p: &[Cell], m: Move) -> State {
        let played = self.play(p, m);
        let q = self.canonical_board(&Self::turn_over(&played.cells));
        if played.removed.is_some() || self.finished(&q).is_some() {
            return State { cells: q, forbidden: None };
        }
        // A result's canonical board is p's exactly when the result is an image of p.
        let class_of_p = self.symmetric_images(p);
        let forbidden = self.published_moves(&q).into_iter().find(|&f| {
            let r = self.play(&q, f);
            r.removed.is_none() && class_of_p.contains(&Self::turn_over(&r.cells))
        });
        State { cells: q, forbidden }
    }

    /// The initial state.
    pub fn initial_state(&self) -> State {
        let (w, h) = (self.width, self.height);
        let mut cells = vec![Cell::Empty; w * h];
        let first = (w - self.pieces) / 2;
        for f in first..first + self.pieces {
            cells[f] = Cell::Mine;
            cells[(h - 1) * w + f] = Cell::Theirs;
        }
        cells[((h - 1) / 2) * w + (w - 1) / 2] = Cell::Hole;
        State { cells, forbidden: None }
    }

    /// Every board with one hole and piece counts in `lose_at..=pieces` for both sides.
    pub fn all_boards(&self) -> Vec<Vec<Cell>> {
        let n = self.width * self.height;
        let mut out = Vec::new();
        let mut cells = vec![Cell::Empty; n];
        fn rec(v: &Variant, i: usize, cells: &mut Vec<Cell>, counts: [usize; 3], out: &mut Vec<Vec<Cell>>) {
            let left = cells.len() - i;
            let [mine, theirs, holes] = counts;
            // Not enough squares left to reach the minimum counts.
            let need = v.lose_at.saturating_sub(mine) + v.lose_at.saturating_sub(theirs) + (1 - holes);
            if need > left {
                return;
            }
            if i == cells.len() {
                out.push(cells.clone());
                return;
            }
            for c in [Cell::Empty, Cell::Mine, Cell::Theirs, Cell::Hole] {
                let next = match c {
                    Cell::Empty => counts,
                    Cell::Mine if mine < v.pieces => [mine + 1, theirs, holes],
                    Cell::Theirs if theirs < v.pieces => [mine, theirs + 1, holes],
                    Cell::Hole if holes == 0 => [mine, theirs, 1],
                    _ => continue,
                };
                cells[i] = c;
                rec(v, i + 1, cells, next, out);
            }
            cells[i] = Cell::Empty;
        }
        rec(self, 0, &mut cells, [0, 0, 0], &mut out);
        out
    }
}

/// The explicit solution of a variant: every state and its value.
#[derive(Debug)]
pub struct Tables {
    /// The variant solved.
    pub variant: Variant,
    /// States in a fixed order (sorted).
    pub states: Vec<State>,
    /// `values[i]` is the value of `states[i]`.
    pub values: Vec<Outcome>,
}

/// Enumerate the states of a variant and solve them by retrograde analysis.
///
/// The states are the *possibly reachable* ones (the result of some move of some board where
/// the game is not over, terminal results included) and the initial state.
pub fn solve(v: &Variant) -> Tables {
    let mut index: HashMap<State, u32> = HashMap::new();
    let mut states: Vec<State> = Vec::new();
    let mut add = |s: State, states: &mut Vec<State>| -> u32 {
        *index.entry(s).or_insert_with_key(|k| {
            states.push(k.clone());
            states.len() as u32 - 1
        })
    };
    add(v.initial_state(), &mut states);
    for cells in v.all_boards() {
        if v.finished(&cells).is_none() {
            for m in v.all_moves(&cells) {
                for s in v.states_after(&cells, m) {
                    add(s, &mut states);
                }
            }
        }
    }
    // Every successor of a state is the result of a move of a board, so it is already there.
    states.sort();
    let index: HashMap<&State, u32> = states.iter().enumerate().map(|(i, s)| (s, i as u32)).collect();
    let n = states.len();
    let mut succ_count = vec![0u32; n];
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut values: Vec<Option<Exact>> = vec![None; n];
    let mut queue: VecDeque<u32> = VecDeque::new();
    for (i, s) in states.iter().enumerate() {
        match v.finished(&s.cells) {
            Some(won) => {
                values[i] = Some(if won { Exact::Win(0) } else { Exact::Loss(0) });
                queue.push_back(i as u32);
            }
            None => {
                let succ = v.successors(s);
                succ_count[i] = succ.len() as u32;
                for (_, t) in succ {
                    let j = index[&t];
                    preds[j as usize].push(i as u32);
                }
                if succ_count[i] == 0 {
                    values[i] = Some(Exact::Loss(0));
                    queue.push_back(i as u32);
                }
            }
        }
    }
    drop(index);
    // Breadth first by distance: a state is settled at the smallest distance at which it wins,
    // or when its last move into a win of the opponent is seen (the largest distance).
    while let Some(j) = queue.pop_front() {
        let vj = values[j as usize].expect("queued states are settled");
        for &i in &preds[j as usize] {
            let i = i as usize;
            if values[i].is_some() {
                continue;
            }
            // Only wins and losses are queued: draws are what is never settled.
            match vj {
                Exact::Loss(_) => {
                    values[i] = Some(vj.before());
                    queue.push_back(i as u32);
                }
                Exact::Win(_) => {
                    succ_count[i] -= 1;
                    if succ_count[i] == 0 {
                        values[i] = Some(vj.before());
                        queue.push_back(i as u32);
                    }
                }
                Exact::Draw => {}
            }
        }
    }
    let values = values.into_iter().map(|x| x.map_or(Outcome::Draw, Outcome::from)).collect();
    Tables { variant: v.clone(), states, values }
}

/// The value as the explicit tables' text files write it (`W 17`, `L 16`, `D`).
pub fn value_text(v: Outcome) -> String {
    match v {
        Outcome::Win { plies: Some(d) } => format!("W {d}"),
        Outcome::Loss { plies: Some(d) } => format!("L {d}"),
        Outcome::Win { plies: None } => "W".into(),
        Outcome::Loss { plies: None } => "L".into(),
        Outcome::Draw => "D".into(),
    }
}

/// The tables as text (format in `games/ostle/README.md`).
pub fn write_tables(t: &Tables) -> String {
    let v = &t.variant;
    let mut s = String::new();
    let _ = writeln!(s, "# ostle explicit tables v1");
    let _ = writeln!(
        s,
        "# width {} height {} pieces {} lose-at {} rule {}",
        v.width,
        v.height,
        v.pieces,
        v.lose_at,
        v.rule.name()
    );
    let _ = writeln!(s, "# {} states; columns: board, forbidden move, value (W/L plies, or D)", t.states.len());
    for (st, val) in t.states.iter().zip(&t.values) {
        let _ = writeln!(
            s,
            "{} {} {}",
            v.board_text(&st.cells),
            st.forbidden.map_or("-".into(), |m| v.move_text(m)),
            value_text(*val)
        );
    }
    s
}
