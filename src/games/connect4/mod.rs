//! Connect Four on a `width` x `height` board: a disc drops to the lowest empty square of the
//! column its player chooses; `line` discs of one colour in a row (across, up or diagonally)
//! win; a full board without one is a draw. See `games/connect4/README.md`.
//!
//! Encoding: one layer per square, column by column from the left and each column from the
//! bottom up, so that a column's height is where its discs stop (the order in which the boards
//! that respect gravity have small sets). Symbols `.` `x` `o`; the side to move is beside the
//! string. The universe is every board that respects gravity, with as many discs of each
//! colour as the side to move implies, on which the side to move has no line (a game ends at
//! the first line).

pub mod explicit;
mod lines;

use crate::dfa::limits::Stoppable;
use crate::dfa::{Change, Dfa, Shape, Symbol};
use crate::error::{Error, Result};
use crate::game::ExplicitRules;
use crate::game::Rules;
use crate::game::SolverHints;
use crate::game::{Game, GameParams, Position, PositionClass, Side, Status};
use crate::move_graph::MoveGraph;

const EMPTY: Symbol = 0;

/// A player's disc.
fn disc(side: Side) -> Symbol {
    match side {
        Side::First => 1,
        Side::Second => 2,
    }
}

/// Which Connect Four: the options of `dfasolve connect4` (with the `cli` feature) and the
/// `"connect4"` object of files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct Connect4Params {
    /// Board width (columns), 1 to 8.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 7))]
    pub width: usize,
    /// Board height (rows), 1 to 8.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 6))]
    pub height: usize,
    /// Discs in a row that win, 2 to 8.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 4))]
    pub line: usize,
}

impl Connect4Params {
    /// The game.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for sizes [`Connect4::new`] refuses.
    pub fn game(self) -> Result<Connect4> {
        Connect4::new(self.width, self.height, self.line)
    }
}

impl crate::game::Params for Connect4Params {
    const GAME: &'static str = "connect4";

    fn build(&self) -> Result<Box<dyn Game>> {
        Ok(Box::new((*self).game()?))
    }
}

/// Connect Four on a `width` x `height` board, `line` in a row to win.
#[derive(Clone, Debug)]
pub struct Connect4 {
    width: usize,
    height: usize,
    line: usize,
    shape: Shape,
    /// Every line, as the layers of its squares: made once, read by every explicit status.
    lines: Vec<Vec<usize>>,
    /// The boards on which each side (first, second) fills a line, made on first use: the
    /// universe and both terminal sets read them.
    line_sets: [std::sync::OnceLock<Dfa>; 2],
}

impl Connect4 {
    /// The longest side accepted: 8 x 8 squares keep a board within 64 layers.
    pub const MAX_SIDE: usize = 8;

    /// Connect Four on a `width` x `height` board, `line` in a row to win.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for a side outside `1..=8` or a line outside `2..=8`.
    pub fn new(width: usize, height: usize, line: usize) -> Result<Connect4> {
        let sides = 1..=Self::MAX_SIDE;
        if !sides.contains(&width) || !sides.contains(&height) {
            return Err(Error::BadParameters(format!(
                "connect4 needs a width and a height of 1 to {}, got {width}x{height}",
                Self::MAX_SIDE
            )));
        }
        if !(2..=Self::MAX_SIDE).contains(&line) {
            return Err(Error::BadParameters(format!(
                "connect4 needs a line of 2 to {} discs, got {line}",
                Self::MAX_SIDE
            )));
        }
        let mut game = Connect4 {
            width,
            height,
            line,
            shape: Shape::uniform(width * height, 3),
            lines: Vec::new(),
            line_sets: Default::default(),
        };
        game.lines = lines::lines(&game);
        Ok(game)
    }

    /// The layer of the square in `column` (from the left) and `row` (from the bottom).
    fn layer(&self, column: usize, row: usize) -> usize {
        column * self.height + row
    }

    /// Boards whose discs rest on the bottom or on other discs.
    fn gravity(&self) -> Stoppable<Dfa> {
        let mut floating = Dfa::reject_all(&self.shape);
        for column in 0..self.width {
            for row in 1..self.height {
                let (below, here) = (self.layer(column, row - 1), self.layer(column, row));
                let gap =
                    Dfa::from_allowed(&self.shape, |l, s| (l != below || s == EMPTY) && (l != here || s != EMPTY));
                floating = floating.union(&gap)?;
            }
        }
        Dfa::accept_all(&self.shape).difference(&floating)
    }

    /// Boards with the discs of a position with `side` to move: as many of each colour with
    /// the first player to move, one more of the first player's with the second to move.
    fn discs_for(&self, side: Side) -> Dfa {
        let ahead = match side {
            Side::First => 0,
            Side::Second => 1,
        };
        Dfa::count_difference(&self.shape, disc(Side::First), disc(Side::Second), |d| d == ahead)
    }

    /// Boards on which `side` fills a line.
    fn has_a_line(&self, side: Side) -> Stoppable<&Dfa> {
        crate::once::get_or_try_init(&self.line_sets[side.index()], || lines::any_line(self, disc(side)))
    }

    /// Boards with no empty square.
    fn full(&self) -> Dfa {
        Dfa::from_allowed(&self.shape, |_, s| s != EMPTY)
    }

    /// The board as rows from the top, each from the left.
    fn rows(&self, board: &[Symbol]) -> Vec<Vec<Symbol>> {
        (0..self.height).rev().map(|row| (0..self.width).map(|c| board[self.layer(c, row)]).collect()).collect()
    }

    /// The square a disc dropped in `column` lands on, if the column is not full.
    fn landing(&self, board: &[Symbol], column: usize) -> Option<usize> {
        (0..self.height).map(|row| self.layer(column, row)).find(|&l| board[l] == EMPTY)
    }
}

impl Rules for Connect4 {
    fn name(&self) -> String {
        let line = if self.line == 4 { String::new() } else { format!(" line {}", self.line) };
        format!("connect4 {}x{}{line}", self.width, self.height)
    }

    fn params(&self) -> GameParams {
        GameParams::of(&Connect4Params { width: self.width, height: self.height, line: self.line })
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn initial(&self) -> Position {
        Position { side: Side::First, board: vec![EMPTY; self.shape.len()] }
    }

    fn universe(&self, side: Side) -> Stoppable<Dfa> {
        self.gravity()?.intersection(&self.discs_for(side))?.difference(self.has_a_line(side)?)
    }

    /// The other side has a line (the solver keeps the universe's part).
    fn lost_terminal(&self, side: Side) -> Stoppable<Dfa> {
        Ok(self.has_a_line(side.other())?.clone())
    }

    /// A full board on which the other side has no line.
    fn drawn_terminal(&self, side: Side) -> Stoppable<Dfa> {
        self.full().difference(self.has_a_line(side.other())?)
    }

    fn has_draws(&self) -> bool {
        true
    }

    /// One move per square: a disc lands there when the square below holds one (or it is on
    /// the bottom row). Moves in one column are one evaluation group.
    fn moves(&self, side: Side) -> Stoppable<MoveGraph> {
        let mut g = MoveGraph::new(&self.shape);
        for column in 0..self.width {
            for row in 0..self.height {
                let on = (row > 0).then(|| Dfa::layer_in(&self.shape, self.layer(column, row - 1), &[1, 2]));
                g.add_move_in(
                    column as u32,
                    format!("{} row {}", super::grid::file_letter(column), row + 1),
                    on,
                    vec![Change::new(self.layer(column, row), EMPTY, disc(side))],
                    None,
                );
            }
        }
        Ok(g)
    }

    fn render(&self, pos: &Position) -> String {
        let rows: Vec<String> = self
            .rows(&pos.board)
            .iter()
            .map(|row| row.iter().map(|&s| ['.', 'x', 'o'][usize::from(s)]).collect())
            .collect();
        format!("{} {}", rows.join("/"), pos.side)
    }

    fn draw(&self, pos: &Position, _mover: Side) -> String {
        let grid = super::grid::draw(self.width, self.height, |row, column| {
            ['.', 'x', 'o'][usize::from(pos.board[self.layer(column, row)])]
        });
        format!("{grid}\n{} to move (x: first player, o: second)", pos.side)
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let bad = |msg: String| {
            let mut board = vec![EMPTY; self.shape.len()];
            board[self.layer(self.width / 2, 0)] = disc(Side::First);
            let example = self.render(&Position { side: Side::Second, board });
            Error::BadPosition(format!(
                "{}: {msg} (expected rows of . x o from the top, then first or second, e.g. \"{example}\")",
                self.name()
            ))
        };
        let (rows, side) = super::grid::board_and_side(text).map_err(bad)?;
        let side = super::grid::first_or_second(side).map_err(bad)?;
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != self.height {
            return Err(bad(format!("{} rows given", rows.len())));
        }
        let mut board = vec![EMPTY; self.shape.len()];
        for (i, text) in rows.iter().enumerate() {
            let row = self.height - 1 - i;
            if text.chars().count() != self.width {
                return Err(bad(format!("row {} from the top has {} squares", i + 1, text.chars().count())));
            }
            for (column, ch) in text.chars().enumerate() {
                board[self.layer(column, row)] = match ch {
                    '.' => EMPTY,
                    'x' => disc(Side::First),
                    'o' => disc(Side::Second),
                    other => return Err(bad(format!("unknown square symbol {other:?}"))),
                };
            }
        }
        for column in 0..self.width {
            let heights: Vec<bool> = (0..self.height).map(|row| board[self.layer(column, row)] != EMPTY).collect();
            if heights.windows(2).any(|w| !w[0] && w[1]) {
                return Err(bad(format!(
                    "column {} has a disc above an empty square",
                    super::grid::file_letter(column)
                )));
            }
        }
        let count = |s: Side| board.iter().filter(|&&x| x == disc(s)).count();
        let (x, o) = (count(Side::First), count(Side::Second));
        let expected = match side {
            Side::First => x == o,
            Side::Second => x == o + 1,
        };
        if !expected {
            return Err(bad(format!(
                "x has {x} discs and o {o}: with first to move they have as many, with second to move x has one more"
            )));
        }
        if lines::has_line(self, &board, disc(side)) {
            return Err(bad(format!("{side}, to move, has a line already: the game ended when it was made")));
        }
        Ok(Position { side, board })
    }

    fn move_name(&self, from: &Position, to: &Position) -> String {
        match from.board.iter().zip(&to.board).position(|(a, b)| a != b) {
            Some(square) => super::grid::file_letter(square / self.height).to_string(),
            None => "pass".into(),
        }
    }

    fn pieces(&self, pos: &Position, side: Side) -> Option<usize> {
        Some(pos.board.iter().filter(|&&s| s == disc(side)).count())
    }
}

impl ExplicitRules for Connect4 {
    fn explicit_moves(&self, pos: &Position) -> Vec<Position> {
        (0..self.width)
            .filter_map(|column| self.landing(&pos.board, column))
            .map(|square| {
                let mut board = pos.board.clone();
                board[square] = disc(pos.side);
                Position { side: pos.side.other(), board }
            })
            .collect()
    }

    fn explicit_status(&self, pos: &Position) -> Status {
        if lines::has_line(self, &pos.board, disc(pos.side.other())) {
            Status::Lost
        } else if lines::has_line(self, &pos.board, disc(pos.side)) {
            Status::Won
        } else if pos.board.iter().all(|&s| s != EMPTY) {
            Status::Drawn
        } else {
            Status::Ongoing
        }
    }
}

impl SolverHints for Connect4 {
    /// The discs on the board, the full board first: every move adds one.
    fn classes(&self) -> Stoppable<Vec<PositionClass>> {
        let squares = self.shape.len();
        Ok((0..=squares)
            .map(|empty| PositionClass {
                name: format!("{}", squares - empty),
                set: Dfa::count_between(&self.shape, 0..squares, |s| s == EMPTY, empty, empty),
                successors: if empty == 0 { Vec::new() } else { vec![empty - 1] },
            })
            .collect())
    }
}

#[cfg(test)]
mod tests;
