//! The board's symmetries on square sets, and the canonical representative of a board.
//!
//! The canonical board of a class is its image whose hole is on the smallest square of the
//! hole's orbit, and then whose mover's and opponent's square sets are smallest (as numbers,
//! bit `s` for square `s`). The fundamental hole squares are the smallest of their orbits
//! (on 5x5: a1, b1, c1, b2, c2, c3).

use super::super::Variant;
use super::board::{Board, Mv};
use smallvec::SmallVec;

/// The symmetries of a board (8 on a square board, 4 otherwise), identity first.
#[derive(Clone, Debug)]
pub struct Symmetries {
    /// `perm[g][s]`: the image of square `s`.
    perm: Vec<Vec<u8>>,
    /// `dirs[g][d]`: the image of direction `d`.
    dirs: Vec<[u8; 4]>,
    /// `bytes[g][i][x]`: the image of the square set `x << 8i`.
    bytes: Vec<Vec<[u64; 256]>>,
    /// `toward[s]`: the symmetries that take square `s` to the smallest square of its orbit.
    toward: Vec<SmallVec<[u8; 8]>>,
    /// The smallest square of each orbit, in increasing order.
    pub fundamental: Vec<u8>,
    /// `fundamental_index[s]`: `s`'s place in [`Symmetries::fundamental`], if it is there.
    pub fundamental_index: Vec<Option<u8>>,
}

impl Symmetries {
    /// The symmetries of `v`'s board.
    pub fn new(v: &Variant) -> Symmetries {
        let n = v.squares();
        let maps = v.symmetries_with_dirs();
        let perm: Vec<Vec<u8>> = maps.iter().map(|(p, _)| p.iter().map(|&t| t as u8).collect()).collect();
        let dirs: Vec<[u8; 4]> = maps.iter().map(|(_, d)| d.map(|x| x.index() as u8)).collect();
        let bytes = perm
            .iter()
            .map(|p| {
                (0..n.div_ceil(8))
                    .map(|i| {
                        let mut t = [0u64; 256];
                        for (x, out) in t.iter_mut().enumerate() {
                            for b in 0..8 {
                                let s = 8 * i + b;
                                if x >> b & 1 == 1 && s < n {
                                    *out |= 1 << p[s];
                                }
                            }
                        }
                        t
                    })
                    .collect()
            })
            .collect();
        let smallest: Vec<u8> = (0..n).map(|s| perm.iter().map(|p| p[s]).min().expect("identity")).collect();
        let toward = (0..n)
            .map(|s| (0..perm.len() as u8).filter(|&g| perm[usize::from(g)][s] == smallest[s]).collect())
            .collect();
        let mut fundamental: Vec<u8> = smallest.clone();
        fundamental.sort_unstable();
        fundamental.dedup();
        let mut fundamental_index = vec![None; n];
        for (i, &s) in fundamental.iter().enumerate() {
            fundamental_index[usize::from(s)] = Some(i as u8);
        }
        Symmetries { perm, dirs, bytes, toward, fundamental, fundamental_index }
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.perm.len()
    }

    /// Always false: the identity is one.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The image of a square set.
    #[inline]
    pub fn set(&self, g: u8, mut x: u64) -> u64 {
        let t = &self.bytes[usize::from(g)];
        let (mut out, mut i) = (0, 0);
        while x != 0 {
            out |= t[i][(x & 0xff) as usize];
            x >>= 8;
            i += 1;
        }
        out
    }

    /// The image of a board.
    #[inline]
    pub fn board(&self, g: u8, b: &Board) -> Board {
        Board {
            hole: self.perm[usize::from(g)][usize::from(b.hole)],
            mine: self.set(g, b.mine),
            theirs: self.set(g, b.theirs),
        }
    }

    /// The image of a move.
    #[inline]
    pub fn mv(&self, g: u8, m: Mv) -> Mv {
        Mv {
            square: self.perm[usize::from(g)][usize::from(m.square)],
            dir: self.dirs[usize::from(g)][usize::from(m.dir)],
        }
    }

    /// The symmetry that undoes `g`.
    pub fn inverse(&self, g: u8) -> u8 {
        let p = &self.perm[usize::from(g)];
        (0..self.perm.len() as u8)
            .find(|&h| self.perm[usize::from(h)].iter().enumerate().all(|(s, &t)| p[usize::from(t)] == s as u8))
            .expect("the symmetries form a group")
    }

    /// The canonical board of `b`'s class, and the symmetries that take `b` there (a bit per
    /// symmetry).
    #[inline]
    pub fn canonical(&self, b: &Board) -> (Board, u8) {
        let mut best: Option<Board> = None;
        let mut which = 0u8;
        for &g in &self.toward[usize::from(b.hole)] {
            let image = self.board(g, b);
            match best {
                Some(x) if (x.mine, x.theirs) < (image.mine, image.theirs) => {}
                Some(x) if (x.mine, x.theirs) == (image.mine, image.theirs) => which |= 1 << g,
                _ => {
                    best = Some(image);
                    which = 1 << g;
                }
            }
        }
        (best.expect("every square has a way to its orbit's smallest"), which)
    }

    /// Whether `b` is the canonical board of its class.
    #[inline]
    pub fn is_canonical(&self, b: &Board) -> bool {
        let key = (b.mine, b.theirs);
        self.fundamental_index[usize::from(b.hole)].is_some()
            && self.toward[usize::from(b.hole)].iter().all(|&g| {
                let image = self.board(g, b);
                (image.mine, image.theirs) >= key
            })
    }
}
