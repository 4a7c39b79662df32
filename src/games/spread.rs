//! Spread: the smallest game with passes and drawn endings, kept as the recipe's worked example
//! and the conformance suite's subject for both.
//!
//! On a `width` x `height` grid, each player in turn claims an empty cell orthogonally next to
//! one of their own. A player who cannot claim one passes; when neither can, the game is over
//! and the player with more cells wins (equal cells: a draw). Every move fills a cell and two
//! passes in a row end the game, so it is finite, but not every game ends in a win.
//!
//! Encoding: one layer per cell, row-major from the top row, symbols `.` `x` `o`; the side to
//! move is not in the string. See `games/spread/README.md`.

use crate::dfa::limits::Stoppable;
use crate::dfa::{Change, Dfa, Shape, Symbol};
use crate::error::{Error, Result};
use crate::game::ExplicitRules;
use crate::game::Rules;
use crate::game::SolverHints;
use crate::game::{Game, GameParams, NoMove, Position, PositionClass, Side, Status};
use crate::move_graph::MoveGraph;
use std::cmp::Ordering;

const EMPTY: Symbol = 0;

/// A player's cell symbol.
fn cell_of(side: Side) -> Symbol {
    match side {
        Side::First => 1,
        Side::Second => 2,
    }
}

/// Which Spread: the options of `dfasolve spread` (with the `cli` feature) and the
/// `"spread"` object of files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct SpreadParams {
    /// Grid width (columns); width x height is 2..=16 cells.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 3))]
    pub width: usize,
    /// Grid height (rows).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 3))]
    pub height: usize,
}

impl SpreadParams {
    /// The game.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for sizes [`Spread::new`] refuses.
    pub fn game(self) -> Result<Spread> {
        Spread::new(self.width, self.height)
    }
}

impl crate::game::Params for SpreadParams {
    const GAME: &'static str = "spread";

    fn build(&self) -> Result<Box<dyn Game>> {
        Ok(Box::new((*self).game()?))
    }
}

/// Spread on a `width` x `height` grid.
#[derive(Clone, Debug)]
pub struct Spread {
    width: usize,
    height: usize,
    shape: Shape,
}

impl Spread {
    /// Most cells accepted: the universe is every string, 3^cells of them, and the explicit
    /// checks enumerate it.
    pub const MAX_CELLS: usize = 16;

    /// Spread on a `width` x `height` grid.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for fewer than two cells or more than [`Spread::MAX_CELLS`].
    pub fn new(width: usize, height: usize) -> Result<Spread> {
        let cells = width.saturating_mul(height);
        if width == 0 || height == 0 || !(2..=Self::MAX_CELLS).contains(&cells) {
            return Err(Error::BadParameters(format!(
                "spread needs a grid of 2..={} cells, got {width}x{height}",
                Self::MAX_CELLS
            )));
        }
        Ok(Spread { width, height, shape: Shape::uniform(cells, 3) })
    }

    /// The cells orthogonally next to `cell`.
    fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let (r, c) = (cell / self.width, cell % self.width);
        let up = (r > 0).then(|| cell - self.width);
        let down = (r + 1 < self.height).then(|| cell + self.width);
        let left = (c > 0).then(|| cell - 1);
        let right = (c + 1 < self.width).then(|| cell + 1);
        [up, down, left, right].into_iter().flatten()
    }

    /// Boards where `side` can claim a cell: an empty cell next to one of theirs.
    fn can_claim(&self, side: Side) -> Stoppable<Dfa> {
        let mut any = Dfa::reject_all(&self.shape);
        for cell in 0..self.shape.len() {
            for next in self.neighbours(cell) {
                let pair = Dfa::from_allowed(&self.shape, |l, s| {
                    (l != cell || s == EMPTY) && (l != next || s == cell_of(side))
                });
                any = any.union(&pair)?;
            }
        }
        Ok(any)
    }

    /// Boards on which neither player can claim a cell: the game is over.
    fn over(&self) -> Stoppable<Dfa> {
        Dfa::accept_all(&self.shape)
            .difference(&self.can_claim(Side::First)?)?
            .difference(&self.can_claim(Side::Second)?)
    }

    /// Boards on which `side` holds more cells than the other (`Greater`), as many (`Equal`)
    /// or fewer (`Less`).
    fn cells_compared(&self, side: Side, order: Ordering) -> Dfa {
        Dfa::count_difference(&self.shape, cell_of(side), cell_of(side.other()), |d| d.cmp(&0) == order)
    }

    /// The cells `side` can claim on `board`, by the rules.
    fn claims(&self, board: &[Symbol], side: Side) -> Vec<usize> {
        (0..board.len())
            .filter(|&cell| board[cell] == EMPTY && self.neighbours(cell).any(|n| board[n] == cell_of(side)))
            .collect()
    }
}

impl Rules for Spread {
    fn name(&self) -> String {
        format!("spread {}x{}", self.width, self.height)
    }

    fn params(&self) -> GameParams {
        GameParams::of(&SpreadParams { width: self.width, height: self.height })
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The first player in the top left corner, the second in the bottom right.
    fn initial(&self) -> Position {
        let mut board = vec![EMPTY; self.shape.len()];
        board[0] = cell_of(Side::First);
        board[self.shape.len() - 1] = cell_of(Side::Second);
        Position { side: Side::First, board }
    }

    fn universe(&self, _side: Side) -> Stoppable<Dfa> {
        Ok(Dfa::accept_all(&self.shape))
    }

    fn lost_terminal(&self, side: Side) -> Stoppable<Dfa> {
        self.over()?.intersection(&self.cells_compared(side, Ordering::Less))
    }

    fn won_terminal(&self, side: Side) -> Stoppable<Dfa> {
        self.over()?.intersection(&self.cells_compared(side, Ordering::Greater))
    }

    fn drawn_terminal(&self, side: Side) -> Stoppable<Dfa> {
        self.over()?.intersection(&self.cells_compared(side, Ordering::Equal))
    }

    fn without_a_move(&self) -> NoMove {
        NoMove::Passes
    }

    fn has_draws(&self) -> bool {
        true
    }

    /// One move per empty cell and neighbour of the mover's: claiming `cell` from `next`.
    fn moves(&self, side: Side) -> Stoppable<MoveGraph> {
        let mut g = MoveGraph::new(&self.shape);
        for cell in 0..self.shape.len() {
            for next in self.neighbours(cell) {
                g.add_move(
                    format!("claim {cell} from {next}"),
                    Some(Dfa::layer_in(&self.shape, next, &[cell_of(side)])),
                    vec![Change::new(cell, EMPTY, cell_of(side))],
                    None,
                );
            }
        }
        Ok(g)
    }

    fn render(&self, pos: &Position) -> String {
        let rows: Vec<String> = pos
            .board
            .chunks(self.width)
            .map(|row| row.iter().map(|&s| ['.', 'x', 'o'][usize::from(s)]).collect())
            .collect();
        format!("{} {}", rows.join("/"), pos.side)
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let bad = |msg: String| {
            Error::BadPosition(format!(
                "spread {}x{}: {msg} (expected rows of . x o from the top, then first or second, e.g. the start, \"{}\")",
                self.width,
                self.height,
                self.render(&self.initial())
            ))
        };
        let (rows, side) = super::grid::board_and_side(text).map_err(bad)?;
        let side = super::grid::first_or_second(side).map_err(bad)?;
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != self.height {
            return Err(bad(format!("{} rows given", rows.len())));
        }
        let mut board = Vec::with_capacity(self.shape.len());
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != self.width {
                return Err(bad(format!("row {} has {} cells", r + 1, row.chars().count())));
            }
            for ch in row.chars() {
                board.push(match ch {
                    '.' => EMPTY,
                    'x' => cell_of(Side::First),
                    'o' => cell_of(Side::Second),
                    other => return Err(bad(format!("unknown cell symbol {other:?}"))),
                });
            }
        }
        Ok(Position { side, board })
    }

    fn move_name(&self, from: &Position, to: &Position) -> String {
        match from.board.iter().zip(&to.board).position(|(a, b)| a != b) {
            Some(cell) => format!("{}{}", super::grid::file_letter(cell % self.width), self.height - cell / self.width),
            None => "pass".into(),
        }
    }

    fn pieces(&self, pos: &Position, side: Side) -> Option<usize> {
        Some(pos.board.iter().filter(|&&s| s == cell_of(side)).count())
    }
}

impl ExplicitRules for Spread {
    fn explicit_moves(&self, pos: &Position) -> Vec<Position> {
        let claims = self.claims(&pos.board, pos.side);
        if claims.is_empty() {
            return vec![Position { side: pos.side.other(), board: pos.board.clone() }];
        }
        claims
            .into_iter()
            .map(|cell| {
                let mut board = pos.board.clone();
                board[cell] = cell_of(pos.side);
                Position { side: pos.side.other(), board }
            })
            .collect()
    }

    fn explicit_status(&self, pos: &Position) -> Status {
        if !self.claims(&pos.board, Side::First).is_empty() || !self.claims(&pos.board, Side::Second).is_empty() {
            return Status::Ongoing;
        }
        let count = |side: Side| pos.board.iter().filter(|&&s| s == cell_of(side)).count();
        match count(pos.side).cmp(&count(pos.side.other())) {
            Ordering::Greater => Status::Won,
            Ordering::Less => Status::Lost,
            Ordering::Equal => Status::Drawn,
        }
    }
}

impl SolverHints for Spread {
    /// The empty cells: a claim fills one, a pass stays in its class.
    fn classes(&self) -> Stoppable<Vec<PositionClass>> {
        let cells = self.shape.len();
        Ok((0..=cells)
            .map(|k| PositionClass {
                name: format!("{k}"),
                set: Dfa::count_between(&self.shape, 0..cells, |s| s == EMPTY, k, k),
                successors: (0..k).collect(),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hemmed_in_player_passes_and_a_full_board_is_scored() {
        let g = Spread::new(3, 1).unwrap();
        let hemmed = g.parse("xo. first").unwrap();
        assert_eq!(g.explicit_status(&hemmed), Status::Ongoing);
        assert_eq!(g.explicit_moves(&hemmed), vec![g.parse("xo. second").unwrap()]);
        assert_eq!(g.move_name(&hemmed, &g.explicit_moves(&hemmed)[0]), "pass");
        assert_eq!(g.explicit_status(&g.parse("xoo first").unwrap()), Status::Lost);
        assert_eq!(g.explicit_status(&g.parse("xoo second").unwrap()), Status::Won);
        assert_eq!(g.explicit_status(&g.parse("x.. second").unwrap()), Status::Ongoing);
        let square = Spread::new(2, 2).unwrap();
        assert_eq!(square.explicit_status(&square.parse("xo/ox first").unwrap()), Status::Drawn);
    }

    #[test]
    fn sizes_outside_the_encoding_are_refused() {
        for (w, h) in [(0, 3), (1, 1), (5, 4), (usize::MAX, 2)] {
            assert!(matches!(Spread::new(w, h), Err(Error::BadParameters(_))), "{w}x{h}");
        }
    }
}
