//! The text form of Ostle: square names (`c3`), moves (`c1U`), boards (ranks from rank 1
//! up, `.` empty, `b` the mover's piece, `w` the other player's, `o` the hole) and states
//! (a board and its forbidden move, or `-`).

use super::explicit::{Cell, Move, State};
use super::{Dir, Variant};
use crate::error::{Error, Result};

impl Variant {
    /// Square name, e.g. `c3`.
    pub fn square_name(&self, square: usize) -> String {
        format!("{}{}", (b'a' + (square % self.width) as u8) as char, square / self.width + 1)
    }

    /// Move text, e.g. `c1U`.
    pub fn move_text(&self, m: Move) -> String {
        format!("{}{}", self.square_name(m.square), m.dir.letter())
    }

    /// Board text: ranks from rank 1 up, separated by `/`; `.` empty, `b` the mover's piece,
    /// `w` the other player's, `o` the hole.
    pub fn board_text(&self, cells: &[Cell]) -> String {
        cells
            .chunks(self.width)
            .map(|rank| {
                rank.iter()
                    .map(|c| match c {
                        Cell::Empty => '.',
                        Cell::Mine => 'b',
                        Cell::Theirs => 'w',
                        Cell::Hole => 'o',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Parse a square name such as `c3`.
    fn parse_square(&self, s: &str) -> Option<usize> {
        let mut chars = s.chars();
        let file = chars.next()?;
        let rank: usize = chars.as_str().parse().ok()?;
        let f = (file as usize).checked_sub('a' as usize)?;
        (f < self.width && (1..=self.height).contains(&rank)).then(|| (rank - 1) * self.width + f)
    }

    /// Parse a move such as `c1U`.
    fn parse_move(&self, s: &str) -> Option<Move> {
        let dir = match s.chars().last()? {
            'L' => Dir::L,
            'R' => Dir::R,
            'U' => Dir::U,
            'D' => Dir::D,
            _ => return None,
        };
        Some(Move { square: self.parse_square(&s[..s.len() - 1])?, dir })
    }

    /// Parse `board [forbidden-move|-]` into a legal state.
    ///
    /// # Errors
    /// [`Error::BadPosition`] naming what is wrong.
    pub fn parse_state(&self, text: &str) -> Result<State> {
        let bad = |m: String| Err(Error::BadPosition(m));
        let mut words = text.split_whitespace();
        let Some(board) = words.next() else { return bad("empty position".into()) };
        let forbidden = words.next();
        if words.next().is_some() {
            return bad(format!("{text:?}: expected `board [forbidden-move]`"));
        }
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != self.height || ranks.iter().any(|r| r.chars().count() != self.width) {
            return bad(format!(
                "{board:?}: expected {} ranks of {} squares separated by '/'",
                self.height, self.width
            ));
        }
        let mut cells = Vec::with_capacity(self.squares());
        for ch in ranks.concat().chars() {
            cells.push(match ch {
                '.' => Cell::Empty,
                'b' => Cell::Mine,
                'w' => Cell::Theirs,
                'o' => Cell::Hole,
                _ => return bad(format!("{board:?}: unknown square {ch:?} (use . b w o)")),
            });
        }
        let holes = cells.iter().filter(|&&c| c == Cell::Hole).count();
        if holes != 1 {
            return bad(format!("{board:?}: {holes} holes, expected 1"));
        }
        let (mine, theirs) = Self::piece_counts(&cells);
        for (who, n) in [("b", mine), ("w", theirs)] {
            if n < self.lose_at || n > self.pieces {
                return bad(format!("{board:?}: {n} {who} pieces, expected {}..={}", self.lose_at, self.pieces));
            }
        }
        if mine == self.lose_at && theirs == self.lose_at {
            return bad(format!("{board:?}: both sides are down to {} pieces", self.lose_at));
        }
        let forbidden = match forbidden {
            None | Some("-") => None,
            Some(m) => {
                let Some(mv) = self.parse_move(m) else {
                    return bad(format!("{m:?}: not a move (square and L/R/U/D, e.g. c1U)"));
                };
                if self.finished(&cells).is_some() {
                    return bad(format!("{m:?}: the game is over, nothing is forbidden"));
                }
                if !self.all_moves(&cells).contains(&mv) || self.play(&cells, mv).removed.is_some() {
                    return bad(format!("{m:?}: not a move that keeps every piece on the board here"));
                }
                Some(mv)
            }
        };
        Ok(State { cells, forbidden })
    }
}
