//! Othello's plain rules on a W x H board, and the exact value of a position by negamax with
//! a memo: the oracle the symbolic solver will be checked against on small boards.
//!
//! Rules as implemented (`games/othello/README.md`): squares empty, Black or White, row-major
//! from row 0; Black moves first. With `r0 = H/2 - 1` and `c0 = W/2 - 1`, White starts on
//! (r0, c0) and (r0+1, c0+1), Black on (r0, c0+1) and (r0+1, c0). A move puts a disc of the
//! mover on an empty square that closes, in at least one of the 8 directions, a run of one or
//! more opponent discs with a disc of the mover; every such run flips. A player without a move
//! passes; when neither can move the game is over. The value of a position is the final disc
//! difference, the mover's discs less the opponent's (empty squares count for nobody), when
//! each side maximises its own difference.

use hashbrown::HashMap;
use smallvec::SmallVec;

/// The 8 directions as (row step, column step).
pub(super) const DIRECTIONS: [(i32, i32); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// A board size with the squares as bits of a `u64` (square `r * width + c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

/// A position from the mover's side: the mover's discs and the opponent's, as square bits.
/// Which colour moves is kept apart (it does not change the value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Discs {
    /// The side to move's discs.
    pub mover: u64,
    /// The other side's discs.
    pub opponent: u64,
}

/// A move: the square played and the discs it flips (as bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The square the disc is put on.
    pub square: usize,
    /// The opponent's discs that turn.
    pub flips: u64,
}

impl Geometry {
    /// A board of `width` x `height`, both 3 to 8.
    ///
    /// # Errors
    /// A side outside 3..=8, as one line.
    pub fn new(width: usize, height: usize) -> Result<Geometry, String> {
        if !(3..=8).contains(&width) || !(3..=8).contains(&height) {
            return Err(format!("othello boards are 3 to 8 squares a side, not {width}x{height}"));
        }
        Ok(Geometry { width, height })
    }

    fn bit(&self, r: usize, c: usize) -> u64 {
        1 << (r * self.width + c)
    }

    /// The start, Black to move (so `mover` is Black).
    pub fn start(&self) -> Discs {
        let (r0, c0) = (self.height / 2 - 1, self.width / 2 - 1);
        let white = self.bit(r0, c0) | self.bit(r0 + 1, c0 + 1);
        let black = self.bit(r0, c0 + 1) | self.bit(r0 + 1, c0);
        Discs { mover: black, opponent: white }
    }

    /// The discs a disc of the mover on `square` flips (0: not a move).
    fn flips(&self, d: Discs, square: usize) -> u64 {
        let (r, c) = ((square / self.width) as i32, (square % self.width) as i32);
        let mut all = 0;
        for (dr, dc) in DIRECTIONS {
            let (mut rr, mut cc, mut run) = (r + dr, c + dc, 0u64);
            while rr >= 0 && cc >= 0 && (rr as usize) < self.height && (cc as usize) < self.width {
                let b = self.bit(rr as usize, cc as usize);
                if d.opponent & b != 0 {
                    run |= b;
                } else {
                    if d.mover & b != 0 {
                        all |= run;
                    }
                    break;
                }
                rr += dr;
                cc += dc;
            }
        }
        all
    }

    /// The mover's moves, squares in increasing order.
    pub fn moves(&self, d: Discs) -> SmallVec<[Move; 16]> {
        let occupied = d.mover | d.opponent;
        (0..self.width * self.height)
            .filter(|&s| occupied & (1 << s) == 0)
            .filter_map(|square| {
                let flips = self.flips(d, square);
                (flips != 0).then_some(Move { square, flips })
            })
            .collect()
    }

    /// The position after `m`, from the new mover's side.
    pub fn play(&self, d: Discs, m: Move) -> Discs {
        Discs { mover: d.opponent & !m.flips, opponent: d.mover | m.flips | 1 << m.square }
    }

    /// The position after a pass.
    pub fn pass(d: Discs) -> Discs {
        Discs { mover: d.opponent, opponent: d.mover }
    }

    /// The board's text, row by row separated by `/`, Black `x`, White `o`, empty `.`, given
    /// which colour `d.mover` is.
    pub fn render(&self, d: Discs, mover_is_black: bool) -> String {
        let (black, white) = if mover_is_black { (d.mover, d.opponent) } else { (d.opponent, d.mover) };
        let rows: Vec<String> = (0..self.height)
            .map(|r| {
                (0..self.width)
                    .map(|c| {
                        let b = self.bit(r, c);
                        if black & b != 0 {
                            'x'
                        } else if white & b != 0 {
                            'o'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        rows.join("/")
    }
}

/// Exact values by negamax over every position met, each valued once.
pub struct Negamax {
    geometry: Geometry,
    memo: HashMap<Discs, i8>,
}

impl Negamax {
    /// An empty memo for boards of `geometry`.
    pub fn new(geometry: Geometry) -> Negamax {
        Negamax { geometry, memo: HashMap::new() }
    }

    /// Positions valued so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// The final disc difference for the mover of `d` under perfect play.
    pub fn value(&mut self, d: Discs) -> i8 {
        if let Some(&v) = self.memo.get(&d) {
            return v;
        }
        let moves = self.geometry.moves(d);
        let v = if !moves.is_empty() {
            moves.iter().map(|&m| -self.value(self.geometry.play(d, m))).max().expect("a move")
        } else if !self.geometry.moves(Geometry::pass(d)).is_empty() {
            -self.value(Geometry::pass(d))
        } else {
            d.mover.count_ones() as i8 - d.opponent.count_ones() as i8
        };
        self.memo.insert(d, v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The distinct positions after each of the first plies of 8x8 Othello are OEIS A124005
    /// (4, 12, 54, 236, 1288, 7092): the moves, flips and start of these rules.
    #[test]
    fn distinct_positions_per_ply_of_8x8_are_the_published_ones() {
        let g = Geometry::new(8, 8).unwrap();
        let mut ply: HashSet<Discs> = HashSet::from([g.start()]);
        let mut counts = Vec::new();
        for _ in 0..6 {
            ply = ply.iter().flat_map(|&d| g.moves(d).into_iter().map(move |m| g.play(d, m))).collect();
            counts.push(ply.len());
        }
        assert_eq!(counts, [4, 12, 54, 236, 1288, 7092]);
    }

    #[test]
    fn the_start_is_off_centre_towards_row_and_column_zero_on_odd_sizes() {
        let g = Geometry::new(5, 5).unwrap();
        assert_eq!(g.render(g.start(), true), "...../.ox../.xo../...../.....");
        let g = Geometry::new(4, 4).unwrap();
        assert_eq!(g.render(g.start(), true), "..../.ox./.xo./....");
        assert_eq!(g.moves(g.start()).len(), 4);
        assert!(Geometry::new(2, 4).is_err() && Geometry::new(4, 9).is_err());
    }

    /// A move flips every closed run in every direction and nothing past an empty square.
    #[test]
    fn a_move_flips_every_closed_run() {
        let g = Geometry::new(4, 4).unwrap();
        let bit = |r: usize, c: usize| g.bit(r, c);
        // Row 0 reads x o o . and the diagonal from (0,3) down-left o x: playing (0,3) closes
        // both runs; (2,2) beside the diagonal stays as it is.
        let d = Discs { mover: bit(0, 0) | bit(2, 1), opponent: bit(0, 1) | bit(0, 2) | bit(1, 2) | bit(2, 2) };
        let m = g.moves(d).into_iter().find(|m| m.square == 3).expect("(0,3) is a move");
        assert_eq!(m.flips, bit(0, 1) | bit(0, 2) | bit(1, 2));
        let after = g.play(d, m);
        assert_eq!(after.opponent.count_ones(), 6);
        assert_eq!(after.mover, bit(2, 2), "a run not closed by the mover stays");
    }

    /// 4x4: the second player wins (published), and the value is a full-board difference or a
    /// position where neither can move.
    #[test]
    fn four_by_four_is_a_win_for_the_second_player() {
        let g = Geometry::new(4, 4).unwrap();
        let mut n = Negamax::new(g);
        let v = n.value(g.start());
        assert!(v < 0, "the first player loses 4x4, value {v}");
        assert!(n.positions() > 1000);
    }
}
