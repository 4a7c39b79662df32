//! The canonical boards of one kind (mover's and opponent's piece counts), ranked densely.
//!
//! A board with its hole on a fundamental square has a raw index: the hole's place among the
//! fundamental squares, then the colex rank of the mover's squares among the others, then of
//! the opponent's among those left. A bit per raw index says whether the board is canonical,
//! and a count per 512 bits gives the rank of a canonical board in one popcount pass: the
//! rank directory (about 1/8 of a bit per raw board more).

use super::bits::{deposit, extract};
use super::board::Board;
use super::symmetry::Symmetries;
use crate::storage::mapped::Store;
use rayon::prelude::*;

/// Raw indexes per count of the directory.
pub const SPAN: u64 = 512;
/// Raw indexes per parallel task when the directory is built.
const BUILD_TASK: u64 = SPAN * 4096;

/// Piece counts of a kind of board: the mover's and the opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Kind {
    /// The mover's pieces.
    pub mover: u8,
    /// The opponent's pieces.
    pub opponent: u8,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}v{}", self.mover, self.opponent)
    }
}

/// Binomial coefficients up to 64.
#[derive(Clone, Debug)]
pub struct Binomial(Vec<[u64; 65]>);

impl Binomial {
    /// The table.
    pub fn new() -> Binomial {
        let mut t = vec![[0u64; 65]; 65];
        for n in 0..=64 {
            t[n][0] = 1;
            for k in 1..=n {
                t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            }
        }
        Binomial(t)
    }

    /// `n` choose `k`.
    #[inline]
    pub fn get(&self, n: usize, k: usize) -> u64 {
        if k > n { 0 } else { self.0[n][k] }
    }
}

impl Default for Binomial {
    fn default() -> Self {
        Binomial::new()
    }
}

/// The shape of a kind's raw index space.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The kind.
    pub kind: Kind,
    squares: usize,
    mover_ways: u64,
    opponent_ways: u64,
    /// Raw indexes.
    pub raw: u64,
    fundamental: Vec<u8>,
    binomial: Binomial,
}

impl Layout {
    /// The layout of `kind` on a board of `squares` squares.
    pub fn new(kind: Kind, squares: usize, sym: &Symmetries) -> Layout {
        let binomial = Binomial::new();
        let (a, b) = (usize::from(kind.mover), usize::from(kind.opponent));
        let mover_ways = binomial.get(squares - 1, a);
        let opponent_ways = binomial.get(squares - 1 - a, b);
        let raw = sym.fundamental.len() as u64 * mover_ways * opponent_ways;
        Layout { kind, squares, mover_ways, opponent_ways, raw, fundamental: sym.fundamental.clone(), binomial }
    }

    fn colex(&self, set: u64, free: u64) -> u64 {
        let (mut r, mut m, mut i) = (0, extract(set, free), 1);
        while m != 0 {
            r += self.binomial.get(m.trailing_zeros() as usize, i);
            m &= m - 1;
            i += 1;
        }
        r
    }

    fn all(&self) -> u64 {
        if self.squares == 64 { u64::MAX } else { (1u64 << self.squares) - 1 }
    }

    /// The raw index of a board whose hole is on fundamental square number `hole_index`.
    #[inline]
    pub fn raw_index(&self, hole_index: u8, b: &Board) -> u64 {
        let free = self.all() & !(1u64 << b.hole);
        let mover = self.colex(b.mine, free);
        let opponent = self.colex(b.theirs, free & !b.mine);
        (u64::from(hole_index) * self.mover_ways + mover) * self.opponent_ways + opponent
    }

    /// The `r`-th smallest set of `k` of the squares `0..n`, in colex order, as a mask.
    fn colex_unrank(&self, mut r: u64, k: usize, n: usize) -> u64 {
        let mut set = 0;
        let mut below = n;
        for i in (1..=k).rev() {
            let mut c = below - 1;
            while self.binomial.get(c, i) > r {
                c -= 1;
            }
            set |= 1u64 << c;
            r -= self.binomial.get(c, i);
            below = c;
        }
        set
    }

    /// The board at a raw index.
    pub fn board_at(&self, raw: u64) -> Board {
        let opponent = raw % self.opponent_ways;
        let rest = raw / self.opponent_ways;
        let hole = self.fundamental[(rest / self.mover_ways) as usize];
        let (a, b) = (usize::from(self.kind.mover), usize::from(self.kind.opponent));
        let free = self.all() & !(1u64 << hole);
        let mine = deposit(self.colex_unrank(rest % self.mover_ways, a, self.squares - 1), free);
        let theirs = deposit(self.colex_unrank(opponent, b, self.squares - 1 - a), free & !mine);
        Board { hole, mine, theirs }
    }

    /// The boards from raw index `start` on, one after the other.
    pub fn cursor(&self, start: u64) -> Cursor<'_> {
        let opponent = start % self.opponent_ways;
        let rest = start / self.opponent_ways;
        let hole_index = (rest / self.mover_ways) as usize;
        let (a, b) = (usize::from(self.kind.mover), usize::from(self.kind.opponent));
        let mover = self.colex_unrank(rest % self.mover_ways, a, self.squares - 1);
        let opponent = self.colex_unrank(opponent, b, self.squares - 1 - a);
        Cursor { layout: self, hole_index, mover, opponent }
    }
}

/// Boards in raw index order.
pub struct Cursor<'a> {
    layout: &'a Layout,
    hole_index: usize,
    /// The mover's squares among the squares other than the hole, packed.
    mover: u64,
    /// The opponent's among those left, packed.
    opponent: u64,
}

fn next_combination(x: u64) -> u64 {
    if x == 0 {
        return u64::MAX; // the one empty set is also the last
    }
    let c = x & x.wrapping_neg();
    let r = x + c;
    // `c` is a power of two: a shift, not a division (the walk over raw boards is bound by this).
    (((r ^ x) >> 2) >> c.trailing_zeros()) | r
}

impl Cursor<'_> {
    /// The board here.
    #[inline]
    pub fn board(&self) -> Board {
        let l = self.layout;
        let hole = l.fundamental[self.hole_index];
        let free = l.all() & !(1u64 << hole);
        let mine = deposit(self.mover, free);
        Board { hole, mine, theirs: deposit(self.opponent, free & !mine) }
    }

    /// On to the next raw index.
    #[inline]
    pub fn advance(&mut self) {
        let l = self.layout;
        let (a, b) = (usize::from(l.kind.mover), usize::from(l.kind.opponent));
        self.opponent = next_combination(self.opponent);
        if self.opponent >> (l.squares - 1 - a) != 0 {
            self.opponent = (1u64 << b) - 1;
            self.mover = next_combination(self.mover);
            if self.mover >> (l.squares - 1) != 0 {
                self.mover = (1u64 << a) - 1;
                self.hole_index += 1;
            }
        }
    }
}

/// The canonical boards of a kind: a bit per raw index and a count per [`SPAN`].
pub struct Directory {
    /// The layout of raw indexes.
    pub layout: Layout,
    /// Bit `i` of word `i / 64`: raw index `i` is a canonical board.
    pub bits: Store<u64>,
    /// Canonical boards before each span of raw indexes, and the total at the end.
    pub counts: Store<u64>,
}

impl Directory {
    /// Find the canonical boards of `kind`.
    pub fn build(kind: Kind, squares: usize, sym: &Symmetries) -> Directory {
        let layout = Layout::new(kind, squares, sym);
        let words = layout.raw.div_ceil(64) as usize;
        let mut bits = vec![0u64; words];
        let per_task = (BUILD_TASK / 64) as usize;
        bits.par_chunks_mut(per_task).enumerate().for_each(|(t, chunk)| {
            let first = t as u64 * BUILD_TASK;
            let mut cursor = layout.cursor(first);
            let end = layout.raw.min(first + BUILD_TASK);
            for i in first..end {
                if sym.is_canonical(&cursor.board()) {
                    chunk[((i - first) / 64) as usize] |= 1 << (i % 64);
                }
                cursor.advance();
            }
        });
        let per_span = (SPAN / 64) as usize;
        let sums: Vec<u64> =
            bits.par_chunks(per_span).map(|c| c.iter().map(|w| u64::from(w.count_ones())).sum()).collect();
        let mut counts = Vec::with_capacity(sums.len() + 1);
        let mut total = 0;
        for s in sums {
            counts.push(total);
            total += s;
        }
        counts.push(total);
        Directory { layout, bits: crate::storage::mapped::huge_copy(&bits), counts: Store::Owned(counts) }
    }

    /// Canonical boards.
    pub fn boards(&self) -> u64 {
        *self.counts.last().expect("a total")
    }

    /// Whether raw index `i` is a canonical board.
    #[inline]
    pub fn is_set(&self, i: u64) -> bool {
        self.bits[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    /// The rank of the board at raw index `i` among the canonical boards before it.
    #[inline]
    pub fn rank_of_raw(&self, i: u64) -> u64 {
        let span = (i / SPAN) as usize;
        let first_word = span * (SPAN / 64) as usize;
        let word = (i / 64) as usize;
        let mut r = self.counts[span];
        for w in &self.bits[first_word..word] {
            r += u64::from(w.count_ones());
        }
        r + u64::from((self.bits[word] & ((1u64 << (i % 64)) - 1)).count_ones())
    }

    /// The rank of a canonical board.
    #[inline]
    pub fn rank(&self, sym: &Symmetries, b: &Board) -> u64 {
        self.rank_of_raw(self.raw(sym, b))
    }

    /// The raw index of a canonical board: arithmetic only, where its rank reads the
    /// directory's bits.
    #[inline]
    pub fn raw(&self, sym: &Symmetries, b: &Board) -> u64 {
        let hole_index = sym.fundamental_index[usize::from(b.hole)].expect("a canonical board's hole is fundamental");
        self.layout.raw_index(hole_index, b)
    }

    /// The raw index of the canonical board of rank `r`.
    pub fn raw_of_rank(&self, r: u64) -> u64 {
        let span = self.counts.partition_point(|&c| c <= r) - 1;
        let mut left = r - self.counts[span];
        let mut word = span * (SPAN / 64) as usize;
        loop {
            let ones = u64::from(self.bits[word].count_ones());
            if left < ones {
                let mut w = self.bits[word];
                for _ in 0..left {
                    w &= w - 1;
                }
                return word as u64 * 64 + u64::from(w.trailing_zeros());
            }
            left -= ones;
            word += 1;
        }
    }

    /// The canonical board of rank `r`.
    pub fn board(&self, r: u64) -> Board {
        self.layout.board_at(self.raw_of_rank(r))
    }

    /// A reader of the boards of increasing ranks.
    pub fn seeker(&self) -> Seeker<'_> {
        Seeker { dir: self, at: None }
    }

    /// A reader of the boards at increasing raw indexes.
    pub fn raw_seeker(&self) -> RawSeeker<'_> {
        RawSeeker { dir: self, at: None }
    }
}

/// The boards at increasing raw indexes, each with its rank: a near one by stepping the
/// cursor on, a far one by a fresh cursor. Raw indexes in order read the directory's bits in
/// order, where ranks asked of boards met at random read them at random.
pub struct RawSeeker<'a> {
    dir: &'a Directory,
    /// The last raw index and the cursor on it.
    at: Option<(u64, Cursor<'a>)>,
}

impl RawSeeker<'_> {
    /// The canonical board at raw index `raw` (not below the last one asked for) and its rank.
    pub fn board(&mut self, raw: u64) -> (Board, u64) {
        debug_assert!(self.dir.is_set(raw), "raw index {raw} is a canonical board");
        let rank = self.dir.rank_of_raw(raw);
        if let Some((at, cursor)) = &mut self.at {
            debug_assert!(raw >= *at, "raw indexes are asked for in increasing order");
            if raw - *at <= SEEK_STEPS {
                while *at < raw {
                    cursor.advance();
                    *at += 1;
                }
                return (cursor.board(), rank);
            }
        }
        let cursor = self.dir.layout.cursor(raw);
        let board = cursor.board();
        self.at = Some((raw, cursor));
        (board, rank)
    }
}

/// Raw indexes a [`Seeker`] steps through before it seeks afresh instead.
const SEEK_STEPS: u64 = 64;

/// The boards of increasing ranks, few of them or many: a near one by stepping the cursor on,
/// a far one by a fresh cursor (so a walk over a sparse level pays per board it visits, not per
/// raw board it passes).
pub struct Seeker<'a> {
    dir: &'a Directory,
    /// The last board's rank and raw index, and the cursor on it.
    at: Option<(u64, u64, Cursor<'a>)>,
}

impl Seeker<'_> {
    /// The canonical board of rank `r`, which is not below the last rank asked for.
    pub fn board(&mut self, r: u64) -> Board {
        let dir = self.dir;
        // The cursor is on raw index `raw`; `rank` is the rank of the last canonical board at
        // or before it.
        if let Some((rank, raw, cursor)) = &mut self.at {
            debug_assert!(r >= *rank, "ranks are asked for in increasing order");
            let start = *raw;
            while *rank < r && *raw - start < SEEK_STEPS {
                cursor.advance();
                *raw += 1;
                if dir.is_set(*raw) {
                    *rank += 1;
                }
            }
            if *rank == r && dir.is_set(*raw) {
                return cursor.board();
            }
        }
        let raw = dir.raw_of_rank(r);
        let cursor = dir.layout.cursor(raw);
        let board = cursor.board();
        self.at = Some((r, raw, cursor));
        board
    }
}
