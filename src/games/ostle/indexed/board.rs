//! Boards of one class by rank: geometry, ranking, moves, unmoves and the forbidden moves a
//! board can have.

use super::super::explicit::{Cell, Move};
use super::super::{Dir, Variant};

/// No neighbour (off the board).
const OFF: u8 = u8::MAX;

/// A board from the mover's view, as square sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Board {
    pub(super) hole: usize,
    pub(super) mine: u64,
    pub(super) theirs: u64,
}

impl Board {
    pub(super) fn empty(&self, s: usize) -> bool {
        (self.mine | self.theirs | 1 << self.hole) >> s & 1 == 0
    }

    pub(super) fn piece(&self, s: usize) -> bool {
        (self.mine | self.theirs) >> s & 1 == 1
    }
}

/// What a move does, for counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Effect {
    /// Stays in the class (nothing removed).
    Stays,
    /// Removes an opponent's piece: the mover wins.
    Captures,
    /// Removes one of the mover's pieces: the mover loses.
    LosesOwn,
}

/// The board geometry and the ranking of boards.
pub(super) struct Geometry {
    pub(super) squares: usize,
    pub(super) pieces: usize,
    /// `next[s][d]`: the square one step from `s` in direction `d`, or [`OFF`].
    pub(super) next: Vec<[u8; 4]>,
    pub(super) binomial: Vec<Vec<u64>>,
    /// Combinations of the mover's pieces on the squares other than the hole.
    pub(super) mover_ways: u64,
    /// Combinations of the opponent's pieces on the squares left.
    pub(super) opponent_ways: u64,
    pub(super) boards: u64,
}

/// The `i`-th set bit of `free` for each set bit `i` of `mask`.
pub(super) fn deposit(mask: u64, free: u64) -> u64 {
    let (mut out, mut f, mut m) = (0, free, mask);
    while m != 0 {
        let low = f & f.wrapping_neg();
        if m & 1 == 1 {
            out |= low;
        }
        f ^= low;
        m >>= 1;
    }
    out
}

/// The bits of `bits` at the positions of `free`, packed (the inverse of [`deposit`]).
pub(super) fn extract(bits: u64, free: u64) -> u64 {
    let (mut out, mut f, mut i) = (0, free, 0);
    while f != 0 {
        let low = f & f.wrapping_neg();
        if bits & low != 0 {
            out |= 1 << i;
        }
        f ^= low;
        i += 1;
    }
    out
}

/// The next mask with as many bits set, in increasing order (Gosper's hack).
pub(super) fn next_combination(x: u64) -> u64 {
    let c = x & x.wrapping_neg();
    let r = x + c;
    (((r ^ x) >> 2) / c) | r
}

impl Geometry {
    pub(super) fn new(v: &Variant) -> Geometry {
        let squares = v.squares();
        let next =
            (0..squares).map(|s| Dir::ALL.map(|d| v.neighbour(s, d).map_or(OFF, |t| t as u8))).collect::<Vec<_>>();
        let mut binomial = vec![vec![0u64; squares + 1]; squares + 1];
        for n in 0..=squares {
            binomial[n][0] = 1;
            for k in 1..=n {
                binomial[n][k] = binomial[n - 1][k - 1] + if k < n { binomial[n - 1][k] } else { 0 };
            }
        }
        let k = v.pieces;
        let mover_ways = binomial[squares - 1][k];
        let opponent_ways = binomial[squares - 1 - k][k];
        Geometry {
            squares,
            pieces: k,
            next,
            mover_ways,
            opponent_ways,
            boards: squares as u64 * mover_ways * opponent_ways,
            binomial,
        }
    }

    pub(super) fn all(&self) -> u64 {
        if self.squares == 64 { u64::MAX } else { (1 << self.squares) - 1 }
    }

    pub(super) fn colex_rank(&self, mask: u64) -> u64 {
        let (mut r, mut m, mut i) = (0, mask, 1);
        while m != 0 {
            r += self.binomial[m.trailing_zeros() as usize][i];
            m &= m - 1;
            i += 1;
        }
        r
    }

    pub(super) fn colex_unrank(&self, mut r: u64, k: usize, mut below: usize) -> u64 {
        let mut mask = 0;
        for i in (1..=k).rev() {
            let mut c = below - 1;
            while self.binomial[c][i] > r {
                c -= 1;
            }
            mask |= 1 << c;
            r -= self.binomial[c][i];
            below = c;
        }
        mask
    }

    pub(super) fn rank(&self, b: &Board) -> u64 {
        let free = self.all() & !(1 << b.hole);
        let mover = self.colex_rank(extract(b.mine, free));
        let opponent = self.colex_rank(extract(b.theirs, free & !b.mine));
        (b.hole as u64 * self.mover_ways + mover) * self.opponent_ways + opponent
    }

    pub(super) fn unrank(&self, r: u64) -> Board {
        let cursor = Cursor::at(self, r);
        cursor.board(self)
    }

    /// The end of the chain of pieces pushed by a move from `s` in `d`: the last piece's
    /// square and where it goes ([`OFF`] for the edge).
    pub(super) fn chain_end(&self, b: &Board, s: usize, d: usize) -> (usize, u8) {
        let mut last = s;
        loop {
            let t = self.next[last][d];
            if t == OFF || !b.piece(t as usize) {
                return (last, t);
            }
            last = t as usize;
        }
    }

    /// The effect of the mover's piece on `s` moving in `d`, and how many pieces it pushes.
    pub(super) fn piece_move(&self, b: &Board, s: usize, d: usize) -> (Effect, usize, usize) {
        let (last, to) = self.chain_end(b, s, d);
        let pushed = self.distance(s, last, d);
        let effect = if to != OFF && to as usize != b.hole {
            Effect::Stays
        } else if b.mine >> last & 1 == 1 {
            Effect::LosesOwn
        } else {
            Effect::Captures
        };
        (effect, pushed, last)
    }

    pub(super) fn distance(&self, from: usize, to: usize, d: usize) -> usize {
        let (mut s, mut n) = (from, 0);
        while s != to {
            s = self.next[s][d] as usize;
            n += 1;
        }
        n
    }

    /// The board's moves that can be the undo of an opponent's move (its possible forbidden
    /// moves), in move order: every hole move, and every push of at least one piece onto an
    /// empty square whose last pushed piece is the opponent's.
    pub(super) fn markers(&self, b: &Board, out: &mut Vec<(u8, u8)>) {
        out.clear();
        for s in 0..self.squares {
            if s == b.hole {
                for d in 0..4 {
                    let t = self.next[s][d];
                    if t != OFF && b.empty(t as usize) {
                        out.push((s as u8, d as u8));
                    }
                }
            } else if b.mine >> s & 1 == 1 {
                for d in 0..4 {
                    let (effect, pushed, last) = self.piece_move(b, s, d);
                    if effect == Effect::Stays && pushed >= 1 && b.theirs >> last & 1 == 1 {
                        out.push((s as u8, d as u8));
                    }
                }
            }
        }
    }

    /// The result of the mover's move from `s` in `d`, which must stay in the class, from
    /// the next mover's view.
    pub(super) fn play(&self, b: &Board, s: usize, d: usize) -> Board {
        if s == b.hole {
            return Board { hole: self.next[s][d] as usize, mine: b.theirs, theirs: b.mine };
        }
        let (mut mine, mut theirs) = (b.mine, b.theirs);
        let mut chain = [0usize; 8];
        let (mut len, mut at) = (0, s);
        while b.piece(at) {
            chain[len] = at;
            len += 1;
            at = self.next[at][d] as usize;
        }
        for &c in chain[..len].iter().rev() {
            let to = self.next[c][d];
            if b.mine >> c & 1 == 1 {
                mine = mine & !(1 << c) | 1 << to;
            } else {
                theirs = theirs & !(1 << c) | 1 << to;
            }
        }
        Board { hole: b.hole, mine: theirs, theirs: mine }
    }

    /// Whether the mover can capture (a checkmate position).
    pub(super) fn can_capture(&self, b: &Board) -> bool {
        let mut m = b.mine;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            if (0..4).any(|d| self.piece_move(b, s, d).0 == Effect::Captures) {
                return true;
            }
        }
        false
    }

    /// The mover's moves that stay in the class, whether one captures and how many lose a
    /// piece of the mover's own.
    pub(super) fn move_summary(&self, b: &Board) -> (u8, bool, u8) {
        let (mut stays, mut captures, mut loses) = (0u8, false, 0u8);
        for d in 0..4 {
            let t = self.next[b.hole][d];
            if t != OFF && b.empty(t as usize) {
                stays += 1;
            }
        }
        let mut m = b.mine;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            for d in 0..4 {
                match self.piece_move(b, s, d).0 {
                    Effect::Stays => stays += 1,
                    Effect::Captures => captures = true,
                    Effect::LosesOwn => loses += 1,
                }
            }
        }
        (stays, captures, loses)
    }

    /// The mover's moves that stay in the class, in move order (as [`Geometry::markers`]).
    pub(super) fn moves_that_stay(&self, b: &Board, out: &mut Vec<(u8, u8)>) {
        out.clear();
        for s in 0..self.squares {
            for d in 0..4 {
                let stays = if s == b.hole {
                    let t = self.next[s][d];
                    t != OFF && b.empty(t as usize)
                } else {
                    b.mine >> s & 1 == 1 && self.piece_move(b, s, d).0 == Effect::Stays
                };
                if stays {
                    out.push((s as u8, d as u8));
                }
            }
        }
    }

    /// Every move that leads to `q` without removing a piece, as the board before it (from
    /// its own mover's view), the move, and the forbidden move it leaves on `q` (if any).
    pub(super) fn unmoves(&self, q: &Board, out: &mut Vec<Unmove>) {
        out.clear();
        let dir = |d: usize| Dir::ALL[d];
        let reverse = |d: usize| Dir::ALL[d].reverse().index();
        // The hole came from an empty neighbour.
        for d in 0..4 {
            let from = self.next[q.hole][reverse(d)];
            if from != OFF && q.empty(from as usize) {
                let p = Board { hole: from as usize, mine: q.theirs, theirs: q.mine };
                out.push((p, Move { square: from as usize, dir: dir(d) }, Some((q.hole as u8, reverse(d) as u8))));
            }
        }
        // A piece of the last mover came from the empty square behind it, pushing `j` pieces.
        let mut empties = self.all() & !(q.mine | q.theirs | 1 << q.hole);
        while empties != 0 {
            let a = empties.trailing_zeros() as usize;
            empties &= empties - 1;
            for d in 0..4 {
                let first = self.next[a][d];
                if first == OFF || q.theirs >> first & 1 == 0 {
                    continue;
                }
                // chain[i]: the (i+1)-th square from `a` in `d`, while it holds a piece.
                let mut chain = [0usize; 8];
                let mut run = 0;
                let mut s = first;
                while s != OFF && q.piece(s as usize) {
                    chain[run] = s as usize;
                    run += 1;
                    s = self.next[s as usize][d];
                }
                for j in 0..run {
                    let (mut last_mover, mut other) = (q.theirs | 1 << a, q.mine);
                    for &c in &chain[..=j] {
                        last_mover &= !(1 << c);
                        other &= !(1 << c);
                    }
                    for i in 1..=j {
                        let from = chain[i];
                        if q.theirs >> from & 1 == 1 {
                            last_mover |= 1 << chain[i - 1];
                        } else {
                            other |= 1 << chain[i - 1];
                        }
                    }
                    let p = Board { hole: q.hole, mine: last_mover, theirs: other };
                    let undo = (j >= 1 && q.mine >> chain[j] & 1 == 1).then(|| (chain[j] as u8, reverse(d) as u8));
                    out.push((p, Move { square: a, dir: dir(d) }, undo));
                }
            }
        }
    }

    pub(super) fn board_of(&self, cells: &[Cell]) -> Option<Board> {
        let (mut mine, mut theirs, mut hole) = (0u64, 0u64, None);
        for (s, c) in cells.iter().enumerate() {
            match c {
                Cell::Mine => mine |= 1 << s,
                Cell::Theirs => theirs |= 1 << s,
                Cell::Hole => hole = Some(s),
                Cell::Empty => {}
            }
        }
        let k = self.pieces as u32;
        (mine.count_ones() == k && theirs.count_ones() == k).then_some(Board { hole: hole?, mine, theirs })
    }
}

/// A move into a board: the board before it (from its own mover's view), the move, and the
/// forbidden move it leaves (as square and direction index), if any.
pub(super) type Unmove = (Board, Move, Option<(u8, u8)>);

/// The boards in rank order, one after the other without unranking each.
pub(super) struct Cursor {
    pub(super) hole: usize,
    pub(super) mover: u64,
    pub(super) opponent: u64,
}

impl Cursor {
    pub(super) fn at(g: &Geometry, r: u64) -> Cursor {
        let k = g.pieces;
        let opponent = g.colex_unrank(r % g.opponent_ways, k, g.squares - 1 - k);
        let rest = r / g.opponent_ways;
        let mover = g.colex_unrank(rest % g.mover_ways, k, g.squares - 1);
        Cursor { hole: (rest / g.mover_ways) as usize, mover, opponent }
    }

    pub(super) fn board(&self, g: &Geometry) -> Board {
        let free = g.all() & !(1 << self.hole);
        let mine = deposit(self.mover, free);
        Board { hole: self.hole, mine, theirs: deposit(self.opponent, free & !mine) }
    }

    pub(super) fn advance(&mut self, g: &Geometry) {
        let k = g.pieces;
        self.opponent = next_combination(self.opponent);
        if self.opponent >> (g.squares - 1 - k) != 0 {
            self.opponent = (1 << k) - 1;
            self.mover = next_combination(self.mover);
            if self.mover >> (g.squares - 1) != 0 {
                self.mover = (1 << k) - 1;
                self.hole += 1;
            }
        }
    }
}
