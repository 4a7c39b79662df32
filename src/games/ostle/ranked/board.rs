//! Boards of any piece counts as square sets: moves in the published order, their effects,
//! and the moves into a board (in its class, and from a board with one piece more).

use super::super::Variant;
use smallvec::SmallVec;

/// No neighbour (off the board).
pub const OFF: u8 = u8::MAX;

/// Direction indexes as in [`super::super::Dir::ALL`]: L, R, U, D.
const U: u8 = 2;
const D: u8 = 3;
const L: u8 = 0;
const R: u8 = 1;
/// The published order of directions on a square: U, D, L, R.
pub(crate) const DIR_ORDER: [u8; 4] = [U, D, L, R];

/// A board from the mover's view, as square sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// The hole's square (`rank · width + file`).
    pub hole: u8,
    /// The mover's pieces.
    pub mine: u64,
    /// The opponent's pieces.
    pub theirs: u64,
}

impl Board {
    pub(crate) fn piece(&self, s: u8) -> bool {
        (self.mine | self.theirs) >> s & 1 == 1
    }

    /// No piece and not the hole.
    pub(crate) fn empty(&self, s: u8) -> bool {
        ((self.mine | self.theirs) >> s & 1 == 0) && s != self.hole
    }

    /// Pieces: (mover's, opponent's).
    pub(crate) fn counts(&self) -> (usize, usize) {
        (self.mine.count_ones() as usize, self.theirs.count_ones() as usize)
    }
}

/// A move of the mover: the piece or the hole on `square` goes one step in `dir` (an index of
/// [`super::super::Dir::ALL`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mv {
    /// Square.
    pub square: u8,
    /// Direction index.
    pub dir: u8,
}

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing leaves the board.
    Stays,
    /// An opponent's piece leaves.
    Captures,
    /// One of the mover's own pieces leaves.
    LosesOwn,
}

/// Moves of one board (at most 4 per piece and 4 of the hole).
pub type Moves = SmallVec<[Mv; 32]>;

/// A move into a board that stays in its class: the board before it (from its own mover's
/// view), the move, and the move that exactly undoes it on the board after (if any).
#[derive(Clone, Copy, Debug)]
pub struct Unmove {
    /// The board before.
    pub before: Board,
    /// The move made on it.
    pub mv: Mv,
    /// The exact undo on the board after.
    pub undo: Option<Mv>,
}

/// The board geometry.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Files.
    pub width: usize,
    /// Ranks.
    pub height: usize,
    /// Squares.
    pub squares: usize,
    /// A player with this many pieces has lost.
    pub lose_at: usize,
    /// Pieces per side at the start (the most a side has).
    pub pieces: usize,
    /// `next[s][d]`: the square one step from `s` in direction `d`, or [`OFF`].
    pub next: Vec<[u8; 4]>,
    /// Squares in the published move order: a1, a2, ..., then b1, ... (file by file).
    pub order: Vec<u8>,
    /// `rank_of_move[s · 4 + d]`: the move's place in the published order.
    pub move_rank: Vec<u16>,
    /// The squares of each rank.
    pub rank_masks: Vec<u64>,
    /// The squares of each file.
    pub file_masks: Vec<u64>,
    /// `earlier[r][d]`: the squares whose move in direction `d` comes before the move of
    /// published rank `r`.
    earlier: Vec<[u64; 4]>,
}

impl Geometry {
    /// The geometry of `v`.
    pub fn new(v: &Variant) -> Geometry {
        let (w, h) = (v.width, v.height);
        let squares = w * h;
        let next = (0..squares)
            .map(|s| super::super::Dir::ALL.map(|d| v.neighbour(s, d).map_or(OFF, |t| t as u8)))
            .collect::<Vec<_>>();
        let order: Vec<u8> = (0..w).flat_map(|f| (0..h).map(move |r| (r * w + f) as u8)).collect();
        let mut move_rank = vec![0u16; squares * 4];
        for (i, &s) in order.iter().enumerate() {
            for (j, &d) in DIR_ORDER.iter().enumerate() {
                move_rank[usize::from(s) * 4 + usize::from(d)] = (i * 4 + j) as u16;
            }
        }
        let earlier = (0..=squares * 4)
            .map(|r| {
                let mut m = [0u64; 4];
                for sq in 0..squares {
                    for d in 0..4 {
                        if usize::from(move_rank[sq * 4 + d]) < r {
                            m[d] |= 1 << sq;
                        }
                    }
                }
                m
            })
            .collect();
        let rank_masks = (0..h).map(|r| (0..w).map(|f| 1u64 << (r * w + f)).sum()).collect();
        let file_masks = (0..w).map(|f| (0..h).map(|r| 1u64 << (r * w + f)).sum()).collect();
        Geometry {
            width: w,
            height: h,
            squares,
            lose_at: v.lose_at,
            pieces: v.pieces,
            next,
            order,
            move_rank,
            rank_masks,
            file_masks,
            earlier,
        }
    }

    /// The place of `m` in the published move order.
    pub fn move_rank(&self, m: Mv) -> u16 {
        self.move_rank[usize::from(m.square) * 4 + usize::from(m.dir)]
    }

    /// The last piece of the chain a move from `s` in `d` pushes, and where it goes ([`OFF`]
    /// for the edge).
    fn chain_end(&self, b: &Board, s: u8, d: u8) -> (u8, u8) {
        let mut last = s;
        loop {
            let t = self.next[usize::from(last)][usize::from(d)];
            if t == OFF || !b.piece(t) {
                return (last, t);
            }
            last = t;
        }
    }

    /// The effect of the mover's piece on `s` moving in `d`, and the chain's last piece.
    pub fn piece_move(&self, b: &Board, s: u8, d: u8) -> (Effect, u8) {
        let (last, to) = self.chain_end(b, s, d);
        let effect = if to != OFF && to != b.hole {
            Effect::Stays
        } else if b.mine >> last & 1 == 1 {
            Effect::LosesOwn
        } else {
            Effect::Captures
        };
        (effect, last)
    }

    /// The effect of `m` (a move of the board).
    pub fn effect(&self, b: &Board, m: Mv) -> Effect {
        if m.square == b.hole { Effect::Stays } else { self.piece_move(b, m.square, m.dir).0 }
    }

    /// The hole's moves, onto empty squares, in the published order.
    fn hole_moves(&self, b: &Board, out: &mut Moves) {
        for d in DIR_ORDER {
            let t = self.next[usize::from(b.hole)][usize::from(d)];
            if t != OFF && b.empty(t) {
                out.push(Mv { square: b.hole, dir: d });
            }
        }
    }

    /// Every move of the mover, in the published order (the hole only onto an empty square).
    pub fn moves(&self, b: &Board, out: &mut Moves) {
        out.clear();
        for &s in &self.order {
            if s == b.hole {
                self.hole_moves(b, out);
            } else if b.mine >> s & 1 == 1 {
                out.extend(DIR_ORDER.iter().map(|&d| Mv { square: s, dir: d }));
            }
        }
    }

    /// The board after `m` from the next mover's view, and what the move did.
    pub fn play(&self, b: &Board, m: Mv) -> (Board, Effect) {
        let (s, d) = (m.square, usize::from(m.dir));
        if s == b.hole {
            let to = self.next[usize::from(s)][d];
            return (Board { hole: to, mine: b.theirs, theirs: b.mine }, Effect::Stays);
        }
        let (mut mine, mut theirs) = (b.mine, b.theirs);
        let mut chain = [0u8; 8];
        let (mut len, mut at) = (0, s);
        while at != OFF && b.piece(at) {
            chain[len] = at;
            len += 1;
            at = self.next[usize::from(at)][d];
        }
        let end = at;
        let removed = end == OFF || end == b.hole;
        let effect = match (removed, b.mine >> chain[len - 1] & 1 == 1) {
            (false, _) => Effect::Stays,
            (true, true) => Effect::LosesOwn,
            (true, false) => Effect::Captures,
        };
        for (i, &c) in chain[..len].iter().enumerate().rev() {
            let bit = 1u64 << c;
            let to = if i + 1 < len { Some(chain[i + 1]) } else { (!removed).then_some(end) };
            let to_bit = to.map_or(0, |t| 1u64 << t);
            if mine & bit != 0 {
                mine = mine & !bit | to_bit;
            } else {
                theirs = theirs & !bit | to_bit;
            }
        }
        (Board { hole: b.hole, mine: theirs, theirs: mine }, effect)
    }

    /// Every square moved one step in direction `d` (squares that would leave the board
    /// dropped).
    #[inline]
    pub fn shift(&self, x: u64, d: u8) -> u64 {
        let w = self.width;
        match d {
            L => (x & !self.file_masks[0]) >> 1,
            R => (x & !self.file_masks[w - 1]) << 1,
            U => (x & !self.rank_masks[self.height - 1]) << w,
            _ => x >> w,
        }
    }

    /// Whether the mover can end the game at once by removing an opponent's piece: some
    /// opponent's piece next to the edge or the hole in a direction has, behind it, a
    /// contiguous run of pieces that holds one of the mover's (which pushes it out).
    pub fn can_capture_to_win(&self, b: &Board) -> bool {
        if b.theirs.count_ones() as usize != self.lose_at + 1 {
            return false;
        }
        let pieces = b.mine | b.theirs;
        let hole = 1u64 << b.hole;
        (0..4u8).any(|d| {
            let back = d ^ 1;
            let edge = match d {
                L => self.file_masks[0],
                R => self.file_masks[self.width - 1],
                U => self.rank_masks[self.height - 1],
                _ => self.rank_masks[0],
            };
            let mut run = b.theirs & (edge | self.shift(hole, back));
            while run != 0 {
                run = self.shift(run, back) & pieces;
                if run & b.mine != 0 {
                    return true;
                }
            }
            false
        })
    }

    /// The moves of the board that can undo an opponent's move exactly (the exact reading's
    /// forbidden moves), in the published order: every hole move, and every push of at least
    /// one piece onto an empty square whose last pushed piece is the opponent's.
    pub fn undo_moves(&self, b: &Board, out: &mut Moves) {
        out.clear();
        for &s in &self.order {
            if s == b.hole {
                self.hole_moves(b, out);
            } else if b.mine >> s & 1 == 1 {
                for d in DIR_ORDER {
                    let (effect, last) = self.piece_move(b, s, d);
                    if effect == Effect::Stays && last != s && b.theirs >> last & 1 == 1 {
                        out.push(Mv { square: s, dir: d });
                    }
                }
            }
        }
    }

    /// [`Geometry::undo_moves`] as square sets, one per direction: quicker when only a move's
    /// place among them is wanted ([`Geometry::undo_index`]).
    pub fn undo_masks(&self, b: &Board) -> [u64; 4] {
        let pieces = b.mine | b.theirs;
        let hole = 1u64 << b.hole;
        let all = if self.squares == 64 { u64::MAX } else { (1u64 << self.squares) - 1 };
        let empty = all & !pieces & !hole;
        let mut masks = [0u64; 4];
        for d in 0..4u8 {
            let back = d ^ 1;
            let mut m = 0;
            if self.shift(hole, d) & empty != 0 {
                m |= hole;
            }
            // Runs of pieces ending in an opponent's piece before an empty square: the mover's
            // pieces in them push it there.
            let mut run = b.theirs & self.shift(empty, back);
            while run != 0 {
                run = self.shift(run, back) & pieces;
                m |= run & b.mine;
            }
            masks[usize::from(d)] = m;
        }
        masks
    }

    /// The place of `m` among the undo moves `masks` (published order), if it is one.
    #[inline]
    pub fn undo_index(&self, masks: &[u64; 4], m: Mv) -> Option<usize> {
        if masks[usize::from(m.dir)] >> m.square & 1 == 0 {
            return None;
        }
        let before = &self.earlier[usize::from(self.move_rank(m))];
        Some((0..4).map(|d| (masks[d] & before[d]).count_ones() as usize).sum())
    }

    /// The exact undo of move `m` of `b` (one that removes nothing), on the board after it from
    /// the next mover's view: the hole moved back, or a push of two or more pieces whose last
    /// one is the next mover's pushed back from where it went. What [`Geometry::unmoves`]
    /// gives for the move, without listing every move into the board.
    pub fn undo_of(&self, b: &Board, m: Mv) -> Option<Mv> {
        let d = usize::from(m.dir);
        if m.square == b.hole {
            return Some(Mv { square: self.next[usize::from(b.hole)][d], dir: m.dir ^ 1 });
        }
        let (mut last, mut len) = (m.square, 1);
        let mut to = self.next[usize::from(last)][d];
        while to != OFF && b.piece(to) {
            (last, len) = (to, len + 1);
            to = self.next[usize::from(to)][d];
        }
        debug_assert!(to != OFF && to != b.hole, "a move that removes nothing");
        (len >= 2 && b.theirs >> last & 1 == 1).then_some(Mv { square: to, dir: m.dir ^ 1 })
    }

    /// Every move that leads to `q` without removing a piece.
    pub fn unmoves(&self, q: &Board, out: &mut SmallVec<[Unmove; 64]>) {
        out.clear();
        let reverse = |d: u8| d ^ 1;
        // The hole came from an empty neighbour.
        for d in 0..4u8 {
            let from = self.next[usize::from(q.hole)][usize::from(reverse(d))];
            if from != OFF && q.empty(from) {
                out.push(Unmove {
                    before: Board { hole: from, mine: q.theirs, theirs: q.mine },
                    mv: Mv { square: from, dir: d },
                    undo: Some(Mv { square: q.hole, dir: reverse(d) }),
                });
            }
        }
        // A piece of the last mover came from the empty square `a` behind it, pushing `j`
        // pieces ahead of it.
        let all = if self.squares == 64 { u64::MAX } else { (1u64 << self.squares) - 1 };
        let mut empties = all & !(q.mine | q.theirs | 1 << q.hole);
        while empties != 0 {
            let a = empties.trailing_zeros() as u8;
            empties &= empties - 1;
            for d in 0..4u8 {
                let first = self.next[usize::from(a)][usize::from(d)];
                if first == OFF || q.theirs >> first & 1 == 0 {
                    continue;
                }
                let mut chain = [0u8; 8];
                let mut run = 0;
                let mut s = first;
                while s != OFF && q.piece(s) {
                    chain[run] = s;
                    run += 1;
                    s = self.next[usize::from(s)][usize::from(d)];
                }
                for j in 0..run {
                    // Before: the pusher on `a`, the pieces now on chain[1..=j] one square back.
                    let (mut last_mover, mut other) = (q.theirs | 1 << a, q.mine);
                    for &c in &chain[..=j] {
                        last_mover &= !(1 << c);
                        other &= !(1 << c);
                    }
                    for i in 1..=j {
                        if q.theirs >> chain[i] & 1 == 1 {
                            last_mover |= 1 << chain[i - 1];
                        } else {
                            other |= 1 << chain[i - 1];
                        }
                    }
                    let undo =
                        (j >= 1 && q.mine >> chain[j] & 1 == 1).then_some(Mv { square: chain[j], dir: reverse(d) });
                    out.push(Unmove {
                        before: Board { hole: q.hole, mine: last_mover, theirs: other },
                        mv: Mv { square: a, dir: d },
                        undo,
                    });
                }
            }
        }
    }

    /// Whether a move that removes a piece (and leaves both sides above `lose_at`) leads to
    /// `q`: from a board with one more piece of either side, at most `pieces` a side.
    pub fn entered_by_removal(&self, q: &Board) -> bool {
        let (mine, theirs) = q.counts();
        let (more_mine, more_theirs) = (mine < self.pieces, theirs < self.pieces);
        if !more_mine && !more_theirs {
            return false;
        }
        let all = if self.squares == 64 { u64::MAX } else { (1u64 << self.squares) - 1 };
        let mut empties = all & !(q.mine | q.theirs | 1 << q.hole);
        while empties != 0 {
            let a = empties.trailing_zeros() as u8;
            empties &= empties - 1;
            for d in 0..4usize {
                let first = self.next[usize::from(a)][d];
                if first == OFF || first == q.hole {
                    // The last mover's own piece on `a` left alone.
                    if more_theirs {
                        return true;
                    }
                    continue;
                }
                if q.theirs >> first & 1 == 0 {
                    continue;
                }
                let mut s = first;
                while s != OFF && q.piece(s) {
                    s = self.next[usize::from(s)][d];
                }
                if s == OFF || s == q.hole {
                    return true; // the chain's last piece, of either side, went out
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::explicit::{Cell, Move};
    use super::super::super::{Dir, Rule};
    use super::*;

    fn board_of(cells: &[Cell]) -> Board {
        let mut b = Board { hole: OFF, mine: 0, theirs: 0 };
        for (s, c) in cells.iter().enumerate() {
            match c {
                Cell::Mine => b.mine |= 1 << s,
                Cell::Theirs => b.theirs |= 1 << s,
                Cell::Hole => b.hole = s as u8,
                Cell::Empty => {}
            }
        }
        b
    }

    /// Moves and their results equal the plain rules of `explicit/` on every board of a
    /// small variant, and every result's unmoves include the move.
    #[test]
    fn moves_and_unmoves_agree_with_the_plain_rules() {
        for (w, h, k, t) in [(3, 4, 3, 1), (4, 3, 3, 2), (4, 4, 2, 1)] {
            let v = Variant { width: w, height: h, pieces: k, lose_at: t, rule: Rule::Exact };
            let g = Geometry::new(&v);
            let mut moves = Moves::new();
            let mut unmoves = SmallVec::new();
            for cells in v.all_boards() {
                let b = board_of(&cells);
                g.moves(&b, &mut moves);
                let mut plain = v.all_moves(&cells);
                plain.sort_by_key(|m| g.move_rank(Mv { square: m.square as u8, dir: m.dir.index() as u8 }));
                let mine: Vec<Move> = moves
                    .iter()
                    .map(|m| Move { square: usize::from(m.square), dir: Dir::ALL[usize::from(m.dir)] })
                    .collect();
                assert_eq!(mine, plain);
                for (m, pm) in moves.iter().zip(&plain) {
                    let played = v.play(&cells, *pm);
                    let (after, effect) = g.play(&b, *m);
                    assert_eq!(after, board_of(&Variant::turn_over(&played.cells)));
                    assert_eq!(effect == Effect::Stays, played.removed.is_none());
                    if effect == Effect::Stays {
                        g.unmoves(&after, &mut unmoves);
                        let found =
                            unmoves.iter().find(|u| u.before == b && u.mv == *m).expect("the move is an unmove");
                        assert_eq!(g.undo_of(&b, *m), found.undo);
                        let exact = v.after(&cells, *pm).forbidden;
                        assert_eq!(
                            found
                                .undo
                                .map(|u| Move { square: usize::from(u.square), dir: Dir::ALL[usize::from(u.dir)] }),
                            exact
                        );
                    } else if v.finished(&Variant::turn_over(&played.cells)).is_none() {
                        assert!(g.entered_by_removal(&after));
                    }
                    let wins_now = |cells: &[Cell]| {
                        v.all_moves(cells).into_iter().any(|m| {
                            let r = v.play(cells, m);
                            r.removed == Some(Cell::Theirs) && v.finished(&Variant::turn_over(&r.cells)) == Some(false)
                        })
                    };
                    if v.finished(&cells).is_none() {
                        assert_eq!(g.can_capture_to_win(&b), wins_now(&cells), "{}", v.board_text(&cells));
                    }
                    let mut undo = Moves::new();
                    g.undo_moves(&b, &mut undo);
                    let masks = g.undo_masks(&b);
                    for m in moves.iter() {
                        assert_eq!(g.undo_index(&masks, *m), undo.iter().position(|x| x == m));
                    }
                    assert_eq!(masks.iter().map(|x| x.count_ones() as usize).sum::<usize>(), undo.len());
                }
            }
        }
    }
}
