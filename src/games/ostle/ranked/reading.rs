//! The forbidden moves of a board's states under either reading of the no-undo rule.
//!
//! Exact reading: after a move into `q`, the state forbids the move of `q` that recreates the
//! board before, if there is one; the possible forbidden moves of `q` are its
//! [`Geometry::undo_moves`].
//!
//! Class reading (the published one): after a move from `p` into `q`, the state on the
//! canonical board `q*` forbids the first move of `q*` in the published order whose result's
//! canonical board is `p`'s, if any: one state per pair (class of `q`, class of `p`),
//! whichever representatives are in hand. On almost every board that is the exact undo. A
//! board where it is not, for some move into it, is *exceptional*: its forbidden moves are
//! worked out here from canonical boards instead of read off the board.

use super::board::{Board, Effect, Geometry, Moves, Mv, Unmove};
use super::symmetry::Symmetries;
use smallvec::SmallVec;

/// The rules a solve needs: the geometry, the symmetries and the reading.
pub struct Rules {
    /// The board.
    pub geometry: Geometry,
    /// Its symmetries.
    pub sym: Symmetries,
    /// True for the class reading.
    pub class_reading: bool,
}

/// The canonical boards of a board's moves that stay, in the published order.
pub struct Reach {
    results: SmallVec<[(Mv, Board); 32]>,
}

impl Rules {
    /// Where each move of `q` that removes nothing leads, as canonical boards.
    pub fn reach(&self, q: &Board) -> Reach {
        let mut moves = Moves::new();
        self.geometry.moves(q, &mut moves);
        let results = moves
            .iter()
            .filter_map(|&m| {
                let (r, effect) = self.geometry.play(q, m);
                (effect == Effect::Stays).then(|| (m, self.sym.canonical(&r).0))
            })
            .collect();
        Reach { results }
    }

    /// The class reading's forbidden move after a move from `before` into `q` (`q` canonical).
    pub fn class_forbidden(&self, reach: &Reach, before: &Board) -> Option<Mv> {
        let key = self.sym.canonical(before).0;
        reach.results.iter().find(|(_, r)| *r == key).map(|(m, _)| *m)
    }

    /// Whether the class reading forbids, after some move into canonical `q`, another move
    /// than the exact undo.
    pub fn exceptional(&self, q: &Board) -> bool {
        if !self.class_reading || !self.almost_symmetric(q) {
            return false;
        }
        let mut unmoves: SmallVec<[Unmove; 64]> = SmallVec::new();
        self.geometry.unmoves(q, &mut unmoves);
        let reach = self.reach(q);
        unmoves.iter().any(|u| self.class_forbidden(&reach, &u.before) != u.undo)
    }

    /// Whether some symmetry `g` other than the identity changes `q` only on squares that two
    /// lines (ranks or files) cover. An exceptional board is one: if a move `f` of `q` leads
    /// to `g(p)` where `p` is the board before a move `m` into `q`, then `q` and `g(q)` differ
    /// only where `f` and the image of `m` (or of its undo) touch, and a move touches squares
    /// of one line. The cheap test that spares most boards the canonical forms of their moves.
    pub fn almost_symmetric(&self, q: &Board) -> bool {
        let g = &self.geometry;
        // Two lines hold at most this many squares.
        let most = 2 * g.width.max(g.height) as u32;
        let hole = 1u64 << q.hole;
        (1..self.sym.len() as u8).any(|s| {
            let image = self.sym.board(s, q);
            let differ = (q.mine ^ image.mine) | (q.theirs ^ image.theirs) | (hole ^ (1u64 << image.hole));
            differ.count_ones() <= most && covered_by_two_lines(differ, &g.rank_masks, &g.file_masks)
        })
    }

    /// The possible forbidden moves of canonical `q`'s states, in the published order.
    pub fn slots(&self, q: &Board, exceptional: bool, out: &mut Moves) {
        if !exceptional {
            self.geometry.undo_moves(q, out);
            return;
        }
        let reach = self.reach(q);
        let mut unmoves = SmallVec::new();
        self.geometry.unmoves(q, &mut unmoves);
        out.clear();
        out.extend(unmoves.iter().filter_map(|u| self.class_forbidden(&reach, &u.before)));
        out.sort_unstable_by_key(|&m| self.geometry.move_rank(m));
        out.dedup();
    }

    /// The forbidden move of the state a move `u` into canonical `q` leads to.
    pub fn forbidden_after(&self, reach: Option<&Reach>, u: &Unmove) -> Option<Mv> {
        match reach {
            None => u.undo,
            Some(reach) => self.class_forbidden(reach, &u.before),
        }
    }
}

/// Whether the squares of `set` lie on two lines: ranks (`ranks[r]`: the squares of rank `r`)
/// or files.
fn covered_by_two_lines(set: u64, ranks: &[u64], files: &[u64]) -> bool {
    let lines = |masks: &[u64], x: u64| masks.iter().filter(|&&m| x & m != 0).count();
    if lines(ranks, set) <= 2 || lines(files, set) <= 2 {
        return true;
    }
    // One rank and one file: the squares off some rank must share one file.
    ranks.iter().any(|&r| set & r != 0 && lines(files, set & !r) <= 1)
}

#[cfg(test)]
mod tests {
    use super::super::super::{Rule, Variant};
    use super::*;
    use smallvec::SmallVec;

    /// The cheap test never spares an exceptional board: on every board of small variants,
    /// the full test without it agrees.
    #[test]
    fn almost_symmetric_boards_include_every_exceptional_one() {
        for (w, h, k, t) in [(3, 3, 3, 1), (4, 4, 2, 1), (3, 4, 3, 1), (4, 4, 3, 2)] {
            let v = Variant { width: w, height: h, pieces: k, lose_at: t, rule: Rule::Class };
            let rules = Rules::new(&v).unwrap();
            let (mut exceptional, mut spared) = (0, 0);
            let mut unmoves: SmallVec<[Unmove; 64]> = SmallVec::new();
            for cells in v.all_boards() {
                let (b, _) = rules.board_of(&super::super::super::explicit::State { cells, forbidden: None });
                let q = rules.sym.canonical(&b).0;
                rules.geometry.unmoves(&q, &mut unmoves);
                let reach = rules.reach(&q);
                let full = unmoves.iter().any(|u| rules.class_forbidden(&reach, &u.before) != u.undo);
                if full {
                    exceptional += 1;
                    assert!(rules.almost_symmetric(&q), "{w}x{h} k{k} t{t}: {q:?}");
                } else if !rules.almost_symmetric(&q) {
                    spared += 1;
                }
            }
            // Two lines cover most of a 3x3 board: the test spares boards from 4x4 on.
            assert!(
                exceptional > 0 && (w * h < 16 || spared > 0),
                "{w}x{h}: {exceptional} exceptional, {spared} spared"
            );
        }
    }

    #[test]
    fn two_lines_cover_a_rank_and_a_file_but_not_three_ranks_and_files() {
        let v = Variant { width: 5, height: 5, pieces: 5, lose_at: 3, rule: Rule::Class };
        let g = super::super::board::Geometry::new(&v);
        let covered = |x: u64| covered_by_two_lines(x, &g.rank_masks, &g.file_masks);
        let sq = |r: usize, f: usize| 1u64 << (r * 5 + f);
        assert!(covered(sq(0, 0) | sq(0, 4) | sq(3, 2) | sq(1, 2)));
        assert!(covered(sq(0, 0) | sq(2, 1) | sq(0, 3) | sq(2, 4)));
        assert!(!covered(sq(0, 0) | sq(1, 1) | sq(2, 2)));
        assert!(covered(0));
    }
}
