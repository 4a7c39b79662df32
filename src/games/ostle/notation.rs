//! The text form of Ostle: square names (`c3`), moves (`c1U`), boards (ranks from rank 1
//! up, `.` empty, `b` and `w` pieces, `o` the hole) and positions: a board, its forbidden move
//! (or `-`) and the player to move, `b` (Black, the first player; the default) or `w`.
//!
//! Without the side word the board is read from the mover's view, `b` the mover's pieces, as
//! the solvers store states; with `w`, `b` stays Black's and White is to move.

use super::explicit::{Cell, Move, State};
use super::{Dir, Variant};
use crate::error::{Error, Result};
use crate::vocabulary::Side;

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

    /// A state (mover's view) as text: its board and forbidden move (`-` for none), the
    /// mover's pieces as `b`.
    pub fn state_text(&self, s: &State) -> String {
        format!("{} {}", self.board_text(&s.cells), s.forbidden.map_or("-".into(), |m| self.move_text(m)))
    }

    /// A state drawn for a person: the grid from Black's fixed view (Black's pieces `b` all
    /// game, `side` the player to move), who moves, and the forbidden move.
    pub fn draw(&self, s: &State, side: Side) -> String {
        let cells = if side == Side::First { s.cells.clone() } else { Self::turn_over(&s.cells) };
        let grid = crate::games::grid::draw(self.width, self.height, |r, f| match cells[r * self.width + f] {
            Cell::Empty => '.',
            Cell::Mine => 'b',
            Cell::Theirs => 'w',
            Cell::Hole => 'o',
        });
        let player = if side == Side::First { "Black (b, first player)" } else { "White (w, second player)" };
        let forbidden = s
            .forbidden
            .map_or(String::new(), |m| format!("; {} is forbidden (it would undo the last move)", self.move_text(m)));
        format!("{grid}\n{player} to move, o: the hole{forbidden}")
    }

    /// A position as text with Black's pieces as `b` whoever moves: [`Variant::state_text`]
    /// when Black (`side` first) is to move, else the board turned over and ` w`.
    pub fn position_text(&self, s: &State, side: Side) -> String {
        match side {
            Side::First => self.state_text(s),
            Side::Second => {
                let absolute = State { cells: Self::turn_over(&s.cells), forbidden: s.forbidden };
                format!("{} w", self.state_text(&absolute))
            }
        }
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

    /// Parse `board [forbidden-move|-] [b|w]` into a legal state from the mover's view and the
    /// player to move ([`Variant::position_text`] in reverse).
    ///
    /// # Errors
    /// [`Error::BadPosition`] naming what is wrong.
    pub fn parse_position(&self, text: &str) -> Result<(State, Side)> {
        // Every refusal shows a position of this board, the start.
        self.parse_position_words(text).map_err(|e| match e {
            Error::BadPosition(why) => Error::BadPosition(format!(
                "ostle {}x{}: {why} (e.g. the start, \"{}\", rank 1 first)",
                self.width,
                self.height,
                self.position_text(&self.initial_state(), Side::First)
            )),
            other => other,
        })
    }

    fn parse_position_words(&self, text: &str) -> Result<(State, Side)> {
        let mut words: Vec<&str> = text.split_whitespace().collect();
        let side = match words.last() {
            Some(&"w") if words.len() > 1 => Side::Second,
            _ => Side::First,
        };
        if words.len() > 1 && matches!(words.last(), Some(&("b" | "w"))) {
            words.pop();
        }
        match words[..] {
            [] => Err(Error::BadPosition("empty position".into())),
            [board] => Ok((self.parse_words(board, None, side)?, side)),
            [board, forbidden] => Ok((self.parse_words(board, Some(forbidden), side)?, side)),
            _ => Err(Error::BadPosition(format!("{text:?}: expected `board [forbidden-move|-] [b|w]`"))),
        }
    }

    /// Parse `board [forbidden-move|-]` into a legal state, `b` the mover's pieces.
    ///
    /// # Errors
    /// [`Error::BadPosition`] naming what is wrong.
    pub fn parse_state(&self, text: &str) -> Result<State> {
        match self.parse_position(text)? {
            (state, Side::First) => Ok(state),
            (_, Side::Second) => Err(Error::BadPosition(format!("{text:?}: expected Black (b) to move here"))),
        }
    }

    /// A board with Black's pieces as `b` and `side` to move, and its forbidden move (the
    /// mover's), as a state from the mover's view.
    fn parse_words(&self, board: &str, forbidden: Option<&str>, side: Side) -> Result<State> {
        let bad = |m: String| Err(Error::BadPosition(m));
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
        if side == Side::Second {
            cells = Self::turn_over(&cells);
        }
        let holes = cells.iter().filter(|&&c| c == Cell::Hole).count();
        if holes != 1 {
            return bad(format!("{board:?}: {holes} holes, expected 1"));
        }
        let (mine, theirs) = Self::piece_counts(&cells);
        let (mover, other) = if side == Side::First { ("b", "w") } else { ("w", "b") };
        for (who, n) in [(mover, mine), (other, theirs)] {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ostle::Rule;

    /// A position with White to move reads as the board turned over, its text round-trips,
    /// and piece counts are checked per colour.
    #[test]
    fn positions_name_the_side_to_move() {
        let v = Variant { rule: Rule::Exact, ..Variant::standard() };
        let after = "bbbbb/...../.o.../...../wwwww b3R w";
        let (s, side) = v.parse_position(after).unwrap();
        assert_eq!(side, Side::Second);
        let c3 = 2 * 5 + 2;
        assert_eq!(s, v.after(&v.initial_state().cells, Move { square: c3, dir: Dir::L }));
        assert_eq!(v.position_text(&s, side), after);
        assert_eq!(v.parse_position("bbbbb/...../..o../...../wwwww b").unwrap().1, Side::First);
        assert!(v.parse_state(after).is_err(), "parse_state is the mover's view only");
        let e = v.parse_position("bb.../...../..o../...../wwwww - w").unwrap_err().to_string();
        assert!(e.contains("2 b pieces"), "{e}");
        assert!(v.parse_position("bbbbb/...../..o../...../wwwww - w x").is_err());
    }
}
