//! Ostle by rank: an explicit retrograde solver with one byte per state, for variants of one
//! class (every removal ends the game: `pieces == lose_at + 1`, such as 5x5's 4 v 4 subgame).
//!
//! Plain board code like [`super::explicit`] (no DFA, no symbolic moves), but states are not
//! stored: a board is ranked by its hole square and the combinations of the mover's and the
//! opponent's squares, and a board's states follow one another in an array of bytes (no
//! forbidden move first, then each move of the board that can undo an opponent's move, in move
//! order). Each state's moves are counted once; then the solver walks back from the states
//! decided at each distance by unmoves, both cores at once, as retrograde tablebase builders
//! do. Memory: one byte per state plus one per board, instead of the hash maps and predecessor
//! lists of [`super::explicit::solve`] (about 300 bytes per state).

use super::explicit::{Cell, Move, State, Value};
use super::{Dir, Rule, Variant};
use crate::error::{Error, Result};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// No neighbour (off the board).
const OFF: u8 = u8::MAX;
/// Boards per block of the state offsets (a block's first state is stored, the rest summed).
const BLOCK: usize = 64;
/// Boards per parallel task.
const TASK: usize = BLOCK * 1024;
/// State bytes below this are undecided and hold the number of moves not yet seen to lose
/// (at most `4 · pieces + 4`, the pieces' moves and the hole's).
const DECIDED: u8 = 26;
/// The states of a checkmate position (won in one ply by a capture): they need no walk
/// back, since each state's count of open moves leaves out moves into them.
const CHECKMATE: u8 = u8::MAX;
/// The longest game the byte code holds (plies).
pub const MAX_PLIES: u32 = ((CHECKMATE - 1 - DECIDED) / 2) as u32;

/// A board from the mover's view, as square sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Board {
    hole: usize,
    mine: u64,
    theirs: u64,
}

impl Board {
    fn empty(&self, s: usize) -> bool {
        (self.mine | self.theirs | 1 << self.hole) >> s & 1 == 0
    }

    fn piece(&self, s: usize) -> bool {
        (self.mine | self.theirs) >> s & 1 == 1
    }
}

/// What a move does, for counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Effect {
    /// Stays in the class (nothing removed).
    Stays,
    /// Removes an opponent's piece: the mover wins.
    Captures,
    /// Removes one of the mover's pieces: the mover loses.
    LosesOwn,
}

/// The board geometry and the ranking of boards.
struct Geometry {
    squares: usize,
    pieces: usize,
    /// `next[s][d]`: the square one step from `s` in direction `d`, or [`OFF`].
    next: Vec<[u8; 4]>,
    binomial: Vec<Vec<u64>>,
    /// Combinations of the mover's pieces on the squares other than the hole.
    mover_ways: u64,
    /// Combinations of the opponent's pieces on the squares left.
    opponent_ways: u64,
    boards: u64,
}

/// The `i`-th set bit of `free` for each set bit `i` of `mask`.
fn deposit(mask: u64, free: u64) -> u64 {
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
fn extract(bits: u64, free: u64) -> u64 {
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
fn next_combination(x: u64) -> u64 {
    let c = x & x.wrapping_neg();
    let r = x + c;
    (((r ^ x) >> 2) / c) | r
}

impl Geometry {
    fn new(v: &Variant) -> Geometry {
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

    fn all(&self) -> u64 {
        if self.squares == 64 { u64::MAX } else { (1 << self.squares) - 1 }
    }

    fn colex_rank(&self, mask: u64) -> u64 {
        let (mut r, mut m, mut i) = (0, mask, 1);
        while m != 0 {
            r += self.binomial[m.trailing_zeros() as usize][i];
            m &= m - 1;
            i += 1;
        }
        r
    }

    fn colex_unrank(&self, mut r: u64, k: usize, mut below: usize) -> u64 {
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

    fn rank(&self, b: &Board) -> u64 {
        let free = self.all() & !(1 << b.hole);
        let mover = self.colex_rank(extract(b.mine, free));
        let opponent = self.colex_rank(extract(b.theirs, free & !b.mine));
        (b.hole as u64 * self.mover_ways + mover) * self.opponent_ways + opponent
    }

    fn unrank(&self, r: u64) -> Board {
        let cursor = Cursor::at(self, r);
        cursor.board(self)
    }

    /// The end of the chain of pieces pushed by a move from `s` in `d`: the last piece's
    /// square and where it goes ([`OFF`] for the edge).
    fn chain_end(&self, b: &Board, s: usize, d: usize) -> (usize, u8) {
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
    fn piece_move(&self, b: &Board, s: usize, d: usize) -> (Effect, usize, usize) {
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

    fn distance(&self, from: usize, to: usize, d: usize) -> usize {
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
    fn markers(&self, b: &Board, out: &mut Vec<(u8, u8)>) {
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
    fn play(&self, b: &Board, s: usize, d: usize) -> Board {
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
    fn can_capture(&self, b: &Board) -> bool {
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
    fn move_summary(&self, b: &Board) -> (u8, bool, u8) {
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
    fn moves_that_stay(&self, b: &Board, out: &mut Vec<(u8, u8)>) {
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
    fn unmoves(&self, q: &Board, out: &mut Vec<Unmove>) {
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

    fn board_of(&self, cells: &[Cell]) -> Option<Board> {
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
type Unmove = (Board, Move, Option<(u8, u8)>);

/// The boards in rank order, one after the other without unranking each.
struct Cursor {
    hole: usize,
    mover: u64,
    opponent: u64,
}

impl Cursor {
    fn at(g: &Geometry, r: u64) -> Cursor {
        let k = g.pieces;
        let opponent = g.colex_unrank(r % g.opponent_ways, k, g.squares - 1 - k);
        let rest = r / g.opponent_ways;
        let mover = g.colex_unrank(rest % g.mover_ways, k, g.squares - 1);
        Cursor { hole: (rest / g.mover_ways) as usize, mover, opponent }
    }

    fn board(&self, g: &Geometry) -> Board {
        let free = g.all() & !(1 << self.hole);
        let mine = deposit(self.mover, free);
        Board { hole: self.hole, mine, theirs: deposit(self.opponent, free & !mine) }
    }

    fn advance(&mut self, g: &Geometry) {
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

/// The index of board `r`'s first state: its block's first state and the states of the
/// boards before it in the block.
fn first_state(markers: &[u8], block_start: &[u64], r: usize) -> usize {
    block_start[r / BLOCK] as usize + markers[r / BLOCK * BLOCK..r].iter().map(|&m| 1 + usize::from(m)).sum::<usize>()
}

fn code(v: Value) -> u8 {
    match v {
        Value::Win(d) => DECIDED + 2 * d as u8,
        Value::Loss(d) => DECIDED + 2 * d as u8 + 1,
        Value::Draw => 0,
    }
}

fn value_of(code: u8) -> Value {
    if code == CHECKMATE {
        Value::Win(1)
    } else if code < DECIDED {
        Value::Draw
    } else if (code - DECIDED).is_multiple_of(2) {
        Value::Win(u32::from(code - DECIDED) / 2)
    } else {
        Value::Loss(u32::from(code - DECIDED) / 2)
    }
}

/// The solved tables: a byte per state, states in board rank order.
pub struct IndexedTables {
    variant: Variant,
    geometry: Geometry,
    /// Possible forbidden moves per board.
    markers: Vec<u8>,
    /// The first state of every block of [`BLOCK`] boards.
    block_start: Vec<u64>,
    values: Vec<u8>,
    /// Plies of the deepest level found.
    pub deepest: u32,
}

/// What the solve measured, per level.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Level {
    /// Plies to the end.
    pub plies: u32,
    /// States decided at this distance.
    pub states: u64,
    /// Of them, wins for the mover.
    pub wins: u64,
    /// Seconds the level's walk back took.
    pub seconds: f64,
}

/// Check that `v` is a variant the indexed solver handles.
///
/// # Errors
/// [`Error::BadParameters`] for the class reading or a variant of more than one class.
pub fn check_variant(v: &Variant) -> Result<()> {
    if v.rule != Rule::Exact {
        return Err(Error::BadParameters("the indexed explicit solver reads the exact rule only".into()));
    }
    if 4 * v.pieces + 4 >= usize::from(DECIDED) {
        return Err(Error::BadParameters(format!(
            "the indexed explicit solver counts at most {} moves a state: pieces must be at most {}",
            DECIDED - 1,
            (usize::from(DECIDED) - 5) / 4
        )));
    }
    if v.pieces != v.lose_at + 1 {
        return Err(Error::BadParameters(format!(
            "the indexed explicit solver solves one class: pieces must be lose-at + 1 (got {} and {})",
            v.pieces, v.lose_at
        )));
    }
    Ok(())
}

/// Solve `v` by rank. `progress` hears a line per phase and level.
///
/// # Errors
/// As [`check_variant`], also for a variant with a game longer than [`MAX_PLIES`], and for
/// tables larger than `budget` bytes (refused once the states are counted, before they are
/// allocated).
pub fn solve(
    v: &Variant,
    budget: Option<u64>,
    progress: &(dyn Fn(String) + Sync),
) -> Result<(IndexedTables, Vec<Level>)> {
    check_variant(v)?;
    let g = Geometry::new(v);
    // At least a byte per board for its count of forbidden moves and one for its first
    // state, before anything is allocated.
    let least = u128::from(g.boards) * 2 + u128::from(g.boards) / BLOCK as u128 * 8;
    if let Some(budget) = budget
        && least > u128::from(budget)
    {
        return Err(Error::BadParameters(format!(
            "the tables need at least {} MiB for {} boards and the budget is {} MiB",
            least >> 20,
            g.boards,
            budget >> 20
        )));
    }
    let boards = usize::try_from(g.boards)
        .map_err(|_| Error::BadParameters(format!("{} boards do not fit this machine's addresses", g.boards)))?;
    let started = std::time::Instant::now();
    // Pass 1: the possible forbidden moves of every board, then each block's first state.
    let mut markers = vec![0u8; boards];
    markers.par_chunks_mut(TASK).enumerate().for_each(|(t, chunk)| {
        let mut cursor = Cursor::at(&g, (t * TASK) as u64);
        let mut list = Vec::with_capacity(24);
        for m in chunk.iter_mut() {
            g.markers(&cursor.board(&g), &mut list);
            *m = list.len() as u8;
            cursor.advance(&g);
        }
    });
    let block_sums: Vec<u64> = markers.par_chunks(BLOCK).map(|c| c.iter().map(|&m| 1 + u64::from(m)).sum()).collect();
    let mut block_start = Vec::with_capacity(block_sums.len() + 1);
    let mut total = 0u64;
    for s in block_sums {
        block_start.push(total);
        total += s;
    }
    block_start.push(total);
    progress(format!(
        "{} boards, {} states; forbidden moves counted in {:.0} s",
        g.boards,
        total,
        started.elapsed().as_secs_f64()
    ));
    let need = total + g.boards + 8 * block_start.len() as u64;
    if let Some(budget) = budget
        && need > budget
    {
        return Err(Error::BadParameters(format!(
            "the tables need {} MiB ({total} states and {} boards) and the budget is {} MiB",
            need >> 20,
            g.boards,
            budget >> 20
        )));
    }
    // Pass 2: count each state's moves; captures win at once, boards with no move that stays
    // lose.
    let mut values: Vec<AtomicU8> = Vec::new();
    values.resize_with(total as usize, || AtomicU8::new(0));
    let level_counts: Vec<AtomicU64> = (0..=MAX_PLIES + 1).map(|_| AtomicU64::new(0)).collect();
    let win_counts: Vec<AtomicU64> = (0..=MAX_PLIES + 1).map(|_| AtomicU64::new(0)).collect();
    // Which distances each task's boards have states at: the walk back skips the others (the
    // long tail of a game has few states at each distance).
    let tasks = boards.div_ceil(TASK);
    let present: Vec<[AtomicU64; 2]> = (0..tasks).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect();
    let mark = |t: usize, d: u32| present[t][d as usize / 64].fetch_or(1 << (d % 64), Relaxed);
    (0..tasks).into_par_iter().for_each(|t| {
        let first = t * TASK;
        let mut cursor = Cursor::at(&g, first as u64);
        let mut at = block_start[first / BLOCK] as usize;
        let (mut wins, mut losses) = ([0u64; 3], [0u64; 3]);
        let (mut stay, mut list, mut into_mate) = (Vec::with_capacity(24), Vec::with_capacity(24), Vec::new());
        for m in &markers[first..boards.min(first + TASK)] {
            let b = cursor.board(&g);
            let slots = 1 + usize::from(*m);
            let (stays, captures, loses) = g.move_summary(&b);
            if captures {
                values[at..at + slots].iter().for_each(|c| c.store(CHECKMATE, Relaxed));
                wins[1] += slots as u64;
                at += slots;
                cursor.advance(&g);
                continue;
            }
            // Moves into a checkmate position lose in two plies whatever else happens: they
            // are not open.
            g.moves_that_stay(&b, &mut stay);
            into_mate.clear();
            into_mate.extend(stay.iter().map(|&(s, d)| g.can_capture(&g.play(&b, s.into(), d.into()))));
            let mates = into_mate.iter().filter(|&&x| x).count() as u8;
            g.markers(&b, &mut list);
            for slot in 0..slots {
                // The forbidden move, if it is an open one, is not.
                let (banned_open, banned_mate) = match slot {
                    0 => (0, 0),
                    _ => {
                        let f = list[slot - 1];
                        let mate = into_mate[stay.iter().position(|&x| x == f).expect("a forbidden move stays")];
                        (u8::from(!mate), u8::from(mate))
                    }
                };
                let open = stays - mates - banned_open;
                let c = if open > 0 {
                    open
                } else {
                    let d = if mates > banned_mate { 2 } else { usize::from(loses > 0) };
                    losses[d] += 1;
                    code(Value::Loss(d as u32))
                };
                values[at + slot].store(c, Relaxed);
            }
            at += slots;
            cursor.advance(&g);
        }
        for d in 0..3 {
            level_counts[d].fetch_add(losses[d] + wins[d], Relaxed);
            win_counts[d].fetch_add(wins[d], Relaxed);
            if losses[d] > 0 {
                mark(t, d as u32);
            }
        }
    });
    progress(format!("moves counted at {:.0} s", started.elapsed().as_secs_f64()));
    // The walk back, one distance at a time: a state one unmove before a loss at `d` wins at
    // `d + 1`; one whose last open move leads to a win at `d` loses at `d + 1`.
    let mut levels = Vec::new();
    let mut d = 0u32;
    while d <= 2 || level_counts[d as usize].load(Relaxed) > 0 {
        if d + 1 > MAX_PLIES {
            return Err(Error::BadParameters(format!(
                "a game longer than {MAX_PLIES} plies: the indexed solver's byte per state cannot hold it"
            )));
        }
        let level_started = std::time::Instant::now();
        let (win_code, loss_code) = (code(Value::Win(d)), code(Value::Loss(d)));
        let (next_win, next_loss) = (code(Value::Win(d + 1)), code(Value::Loss(d + 1)));
        let (found, found_wins) = (AtomicU64::new(0), AtomicU64::new(0));
        (0..tasks).into_par_iter().for_each(|t| {
            if present[t][d as usize / 64].load(Relaxed) >> (d % 64) & 1 == 0 {
                return;
            }
            let first = t * TASK;
            let mut at = block_start[first / BLOCK] as usize;
            let mut unmoves = Vec::with_capacity(64);
            let (mut q_markers, mut p_markers) = (Vec::with_capacity(24), Vec::with_capacity(24));
            let (mut new, mut new_wins) = (0u64, 0u64);
            for (i, m) in markers[first..boards.min(first + TASK)].iter().enumerate() {
                let slots = 1 + usize::from(*m);
                let here = &values[at..at + slots];
                if !here.iter().any(|c| matches!(c.load(Relaxed), x if x == win_code || x == loss_code)) {
                    at += slots;
                    continue;
                }
                let q = g.unrank((first + i) as u64);
                g.markers(&q, &mut q_markers);
                g.unmoves(&q, &mut unmoves);
                for (p, mv, undo) in &unmoves {
                    let slot = match undo {
                        None => 0,
                        Some(f) => {
                            1 + q_markers.iter().position(|x| x == f).expect("an undo is a possible forbidden move")
                        }
                    };
                    let source = here[slot].load(Relaxed);
                    if source != win_code && source != loss_code {
                        continue;
                    }
                    let r = g.rank(p) as usize;
                    g.markers(p, &mut p_markers);
                    let start = first_state(&markers, &block_start, r);
                    let banned = p_markers
                        .iter()
                        .position(|&(s, d)| usize::from(s) == mv.square && Dir::ALL[usize::from(d)] == mv.dir);
                    for slot in 0..=p_markers.len() {
                        if slot > 0 && banned == Some(slot - 1) {
                            continue;
                        }
                        let settled = values[start + slot].fetch_update(Relaxed, Relaxed, |c| {
                            if c >= DECIDED {
                                None
                            } else if source == loss_code {
                                Some(next_win)
                            } else if c == 1 {
                                Some(next_loss)
                            } else {
                                Some(c - 1)
                            }
                        });
                        if let Ok(c) = settled
                            && (source == loss_code || c == 1)
                        {
                            new += 1;
                            new_wins += u64::from(source == loss_code);
                            mark(r / TASK, d + 1);
                        }
                    }
                }
                at += slots;
            }
            found.fetch_add(new, Relaxed);
            found_wins.fetch_add(new_wins, Relaxed);
        });
        level_counts[d as usize + 1].fetch_add(found.load(Relaxed), Relaxed);
        win_counts[d as usize + 1].fetch_add(found_wins.load(Relaxed), Relaxed);
        let states = level_counts[d as usize].load(Relaxed);
        let wins = win_counts[d as usize].load(Relaxed);
        levels.push(Level { plies: d, states, wins, seconds: level_started.elapsed().as_secs_f64() });
        progress(format!(
            "plies {d}: {states} states, {:.1} s (at {:.0} s)",
            level_started.elapsed().as_secs_f64(),
            started.elapsed().as_secs_f64()
        ));
        d += 1;
    }
    let values = values.into_iter().map(AtomicU8::into_inner).collect();
    Ok((IndexedTables { variant: v.clone(), geometry: g, markers, block_start, values, deepest: d - 1 }, levels))
}

impl IndexedTables {
    /// The variant solved.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The value of `state`, if it is one of the tables' (both sides at `pieces` and its
    /// forbidden move one the board can have).
    pub fn value(&self, state: &State) -> Option<Value> {
        let g = &self.geometry;
        let b = g.board_of(&state.cells)?;
        let slot = match state.forbidden {
            None => 0,
            Some(f) => {
                let mut list = Vec::new();
                g.markers(&b, &mut list);
                1 + list.iter().position(|&(s, d)| usize::from(s) == f.square && Dir::ALL[usize::from(d)] == f.dir)?
            }
        };
        Some(value_of(self.values[first_state(&self.markers, &self.block_start, g.rank(&b) as usize) + slot]))
    }

    /// States in the tables.
    pub fn states(&self) -> u64 {
        self.values.len() as u64
    }

    /// Boards in the tables (each with its state without a forbidden move).
    pub fn boards(&self) -> u64 {
        self.geometry.boards
    }

    /// The published counts (SPEC §4, raw, not up to symmetry): positions, checkmate
    /// positions, and the values of the non-trivial states (`d = plies - 1`; `None`: draw).
    pub fn census(&self) -> IndexedCensus {
        let g = &self.geometry;
        let boards = g.boards as usize;
        let initial = self.variant.initial_state();
        let initial = g.board_of(&initial.cells).map(|b| g.rank(&b) as usize);
        let parts: Vec<IndexedCensus> = (0..boards.div_ceil(TASK))
            .into_par_iter()
            .map(|t| {
                let first = t * TASK;
                let mut c = IndexedCensus::default();
                let mut cursor = Cursor::at(g, first as u64);
                let mut at = self.block_start[first / BLOCK] as usize;
                let mut unmoves = Vec::new();
                for (i, m) in self.markers[first..boards.min(first + TASK)].iter().enumerate() {
                    let slots = 1 + usize::from(*m);
                    let b = cursor.board(g);
                    c.positions += 1;
                    if g.move_summary(&b).1 {
                        c.checkmate_positions += 1;
                    } else {
                        g.unmoves(&b, &mut unmoves);
                        let plain = unmoves.iter().any(|u| u.2.is_none()) || initial == Some(first + i);
                        for (slot, &code) in self.values[at..at + slots].iter().enumerate() {
                            if slot == 0 && !plain {
                                continue;
                            }
                            c.add(value_of(code), 1);
                        }
                    }
                    at += slots;
                    cursor.advance(g);
                }
                c
            })
            .collect();
        let mut all = IndexedCensus::default();
        for p in parts {
            all.merge(&p);
        }
        all
    }
}

impl IndexedTables {
    /// The state at `index` in the tables: its board and forbidden move.
    fn state_at(&self, index: u64) -> State {
        let g = &self.geometry;
        // The last block starting at or before `index`, then the board within it.
        let block = self.block_start.partition_point(|&s| s <= index) - 1;
        let (mut r, mut at) = (block * BLOCK, self.block_start[block]);
        while at + 1 + u64::from(self.markers[r]) <= index {
            at += 1 + u64::from(self.markers[r]);
            r += 1;
        }
        let b = g.unrank(r as u64);
        let mut cells = vec![Cell::Empty; g.squares];
        for (s, c) in cells.iter_mut().enumerate() {
            *c = if s == b.hole {
                Cell::Hole
            } else if b.mine >> s & 1 == 1 {
                Cell::Mine
            } else if b.theirs >> s & 1 == 1 {
                Cell::Theirs
            } else {
                Cell::Empty
            };
        }
        let slot = (index - at) as usize;
        let forbidden = (slot > 0).then(|| {
            let mut list = Vec::new();
            g.markers(&b, &mut list);
            let (square, d) = list[slot - 1];
            Move { square: square.into(), dir: Dir::ALL[usize::from(d)] }
        });
        State { cells, forbidden }
    }

    /// Check `samples` states drawn at random from `seed` (every state if there are no more)
    /// by the plain rules of [`super::explicit`], which share no code with the solver's
    /// moves: each state's value must follow from its successors' values in the tables (a
    /// win one ply longer than its shortest move into a loss, a loss one ply longer than its
    /// longest move into a win, a draw when it has no move into a loss and one into a draw).
    /// Returns the states checked.
    ///
    /// # Errors
    /// [`Error::Verification`] naming the first state whose value does not follow, or whose
    /// successor is not in the tables.
    pub fn check_sample(&self, samples: u64, seed: u64) -> Result<u64> {
        let all = self.states();
        let picks: Vec<u64> = if samples >= all {
            (0..all).collect()
        } else {
            let mut rng = crate::dfa::SplitMix64::new(seed);
            (0..samples).map(|_| rng.below(u128::from(all)) as u64).collect()
        };
        let v = &self.variant;
        picks.par_iter().try_for_each(|&i| {
            let state = self.state_at(i);
            let text =
                || format!("{} {}", v.board_text(&state.cells), state.forbidden.map_or("-".into(), |m| v.move_text(m)));
            let (mut best_loss, mut longest_win, mut draw, mut moves) = (None::<u32>, None::<u32>, false, 0);
            for (m, next) in v.successors(&state) {
                moves += 1;
                let value = match v.finished(&next.cells) {
                    Some(true) => Value::Win(0),
                    Some(false) => Value::Loss(0),
                    None => self.value(&next).ok_or_else(|| {
                        Error::Verification(format!(
                            "{}: the result of {} is not in the tables",
                            text(),
                            v.move_text(m)
                        ))
                    })?,
                };
                match value {
                    Value::Loss(d) => best_loss = Some(best_loss.map_or(d, |b| b.min(d))),
                    Value::Win(d) => longest_win = Some(longest_win.map_or(d, |w| w.max(d))),
                    Value::Draw => draw = true,
                }
            }
            let want = match (best_loss, draw) {
                (Some(d), _) => Value::Win(d + 1),
                (None, true) => Value::Draw,
                (None, false) if moves == 0 => Value::Loss(0),
                (None, false) => Value::Loss(longest_win.expect("a move into a win") + 1),
            };
            let got = self.value(&state).expect("a state of the tables");
            if got == want {
                Ok(())
            } else {
                Err(Error::Verification(format!(
                    "{}: the tables say {}, its moves say {}",
                    text(),
                    super::explicit::value_text(got),
                    super::explicit::value_text(want)
                )))
            }
        })?;
        Ok(picks.len() as u64)
    }
}

/// The published counts of an indexed solve (raw).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct IndexedCensus {
    /// Boards (positions) of the class.
    pub positions: u64,
    /// Positions where the mover can capture.
    pub checkmate_positions: u64,
    /// Non-trivial states (possibly reachable, not of a checkmate position).
    pub nontrivial_states: u64,
    /// `by_d[d]`: non-trivial states of value `d` (published convention, plies - 1).
    pub by_d: Vec<u64>,
    /// Non-trivial states that are draws.
    pub draws: u64,
}

impl IndexedCensus {
    /// Count `n` non-trivial states of value `v`.
    pub fn add(&mut self, v: Value, n: u64) {
        self.nontrivial_states += n;
        match v {
            Value::Draw => self.draws += n,
            Value::Win(p) | Value::Loss(p) => {
                let d = p.saturating_sub(1) as usize;
                if self.by_d.len() <= d {
                    self.by_d.resize(d + 1, 0);
                }
                self.by_d[d] += n;
            }
        }
    }

    fn merge(&mut self, o: &IndexedCensus) {
        self.positions += o.positions;
        self.checkmate_positions += o.checkmate_positions;
        self.nontrivial_states += o.nontrivial_states;
        self.draws += o.draws;
        if self.by_d.len() < o.by_d.len() {
            self.by_d.resize(o.by_d.len(), 0);
        }
        for (a, b) in self.by_d.iter_mut().zip(&o.by_d) {
            *a += b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(w: usize, h: usize, k: usize, t: usize) -> Variant {
        Variant { width: w, height: h, pieces: k, lose_at: t, rule: Rule::Exact }
    }

    /// Every state of a small variant follows from its moves by the plain rules; a changed
    /// byte is found.
    #[test]
    fn every_state_follows_from_its_moves_and_a_changed_one_is_found() {
        let v = variant(4, 4, 2, 1);
        let (mut t, _) = solve(&v, None, &|_| {}).unwrap();
        assert_eq!(t.check_sample(u64::MAX, 0).unwrap(), t.states());
        assert_eq!(t.check_sample(1000, 7).unwrap(), 1000);
        let i = t.values.iter().position(|&c| c >= DECIDED && c != CHECKMATE).unwrap();
        t.values[i] += 2;
        let e = t.check_sample(u64::MAX, 0).unwrap_err().to_string();
        assert!(e.contains("the tables say"), "{e}");
    }

    #[test]
    fn ranks_and_cursor_agree() {
        let v = variant(3, 4, 3, 2);
        let g = Geometry::new(&v);
        let mut cursor = Cursor::at(&g, 0);
        for r in 0..g.boards {
            let b = cursor.board(&g);
            assert_eq!(g.rank(&b), r);
            assert_eq!(g.unrank(r), b);
            assert_eq!((b.mine.count_ones(), b.theirs.count_ones()), (3, 3));
            assert_eq!((b.mine | b.theirs) & 1 << b.hole, 0);
            cursor.advance(&g);
        }
    }
}
