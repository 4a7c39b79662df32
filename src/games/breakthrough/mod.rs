//! Breakthrough on a board `W` columns wide and `H` rows tall (`WxH`, H ≥ 4).
//!
//! The first player's pawns start on rows 0 and 1 and move toward row H-1; the second
//! player's start on rows H-2 and H-1 and move toward row 0. A pawn moves one row forward:
//! straight onto an empty square, or diagonally onto an empty square or an enemy pawn (a
//! capture). Reaching the far row or capturing every enemy pawn wins; a player without a
//! legal move loses.
//!
//! Encoding: one layer per square, read row by row (layer `r·W + c` is row `r`, column `c`)
//! or, with [`SquareOrder::Columns`], column by column (layer `c·H + r`); symbol 0 empty, 1 a
//! first player's pawn, 2 a second player's pawn. See `games/breakthrough/README.md`.

use crate::dfa::limits::Stoppable;
use crate::dfa::{Change, Dfa, Shape, Symbol};
use crate::error::{Error, Result};
use crate::game::ExplicitRules;
use crate::game::Rules;
use crate::game::SolverHints;
use crate::game::{Game, GameParams, Position, PositionClass, Side, SideMirror, Status};
use crate::move_graph::MoveGraph;

mod sweep;

const EMPTY: Symbol = 0;

/// The order in which a position's squares are read as a DFA string.
///
/// Both orders make the 180° rotation that switches the side to move a plain reversal of the
/// string, so [`SideMirror::RotateAndSwap`] serves both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SquareOrder {
    /// Row by row from the first player's home row: the published encoding.
    #[default]
    Rows,
    /// Column by column (files a, b, ...), each from the first player's home row. Smaller
    /// sets on four-row boards, larger from five rows on (`games/breakthrough/README.md`).
    Columns,
}

impl crate::choice::Choice for SquareOrder {
    const ALL: &'static [SquareOrder] = &[SquareOrder::Rows, SquareOrder::Columns];

    fn name(self) -> &'static str {
        match self {
            SquareOrder::Rows => "rows",
            SquareOrder::Columns => "columns",
        }
    }

    fn help(self) -> &'static str {
        match self {
            SquareOrder::Rows => "Row by row from the first player's home row: the published encoding",
            SquareOrder::Columns => {
                "Column by column (files a, b, ...), each from the first player's home row. Smaller sets on \
                 four-row boards (8x4: 119,529 states at most against 462,866, 98 MiB peak against 239 MiB), \
                 larger from five rows on (5x5: 640,777 against 386,299); the figures are in \
                 `games/breakthrough/README.md`"
            }
        }
    }
}

impl SquareOrder {
    /// The name used on the command line and in solution files.
    pub fn name(self) -> String {
        crate::choice::Choice::name(self).to_string()
    }

    /// Whether this is the default (row) order, which solution files leave unnamed.
    pub fn is_rows(&self) -> bool {
        *self == SquareOrder::Rows
    }
}

/// Which Breakthrough: the options of `dfasolve breakthrough` (with the `cli` feature) and
/// the `"breakthrough"` object of files, where the default row order is left out (files
/// written before the order could be chosen still match).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct BreakthroughParams {
    /// Board width (columns), 1..=16.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 4))]
    pub width: usize,
    /// Board height (rows), 4..=16.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 4))]
    pub height: usize,
    /// The order squares are read into the DFA strings: row by row (the published
    /// encoding) or column by column.
    #[serde(default, skip_serializing_if = "SquareOrder::is_rows")]
    #[cfg_attr(feature = "cli", arg(long, value_parser = crate::choice::parser::<SquareOrder>(), default_value = "rows"))]
    pub order: SquareOrder,
    /// With `--by-classes`: each class over the positions reachable from the start (swept
    /// class by class from the start's), instead of every board string.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "cli", arg(long, requires = "by_classes"))]
    pub reachable: bool,
}

impl BreakthroughParams {
    /// The game.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for sizes [`Breakthrough::new`] refuses.
    pub fn game(self) -> Result<Breakthrough> {
        let game = Breakthrough::with_order(self.width, self.height, self.order)?;
        Ok(if self.reachable { game.reachable_only() } else { game })
    }
}

impl crate::game::Params for BreakthroughParams {
    const GAME: &'static str = "breakthrough";

    fn build(&self) -> Result<Box<dyn Game>> {
        Ok(Box::new((*self).game()?))
    }
}

/// Breakthrough of one board size.
#[derive(Clone, Debug)]
pub struct Breakthrough {
    width: usize,
    height: usize,
    order: SquareOrder,
    shape: Shape,
    /// Whether a solve by classes takes each class's positions reachable from the start
    /// ([`SolverHints::class_universes`]) instead of every board string of the class.
    reachable: bool,
}

/// The pawn symbol of `side`.
fn pawn(side: Side) -> Symbol {
    match side {
        Side::First => 1,
        Side::Second => 2,
    }
}

impl Breakthrough {
    /// Largest width or height accepted (files are named a..p).
    pub const MAX_SIDE: usize = 16;

    /// The `width` x `height` game.
    ///
    /// # Errors
    /// [`Error::BadParameters`] if the height is below 4 or a side is 0 or above
    /// [`Breakthrough::MAX_SIDE`].
    pub fn new(width: usize, height: usize) -> Result<Breakthrough> {
        Breakthrough::with_order(width, height, SquareOrder::Rows)
    }

    /// A rough peak memory of solving this board, in bytes: a least-squares fit of
    /// `log2(peak MiB)` on width, height and their product over the strong solves in
    /// `results/breakthrough/sizes.csv` above 30 MiB (3x7 to 4x7, 6x5, 8x4, 3x9: within a
    /// factor of 1.6 of every one of them). The meet in the middle peaked at 0.28 times the
    /// fit on 5x6. The product term is what makes wide *and* tall boards hard while long thin
    /// ones stay cheap. Only an order of magnitude: it tells a hopeless size from a hard one.
    pub fn estimated_peak_bytes(&self, strong: bool) -> f64 {
        let (w, h) = (self.width as f64, self.height as f64);
        let log2_mib = 10.66 - 5.72 * w - 3.61 * h + 1.795 * w * h;
        let factor = if strong { 1.0 } else { 0.28 };
        factor * 2f64.powf(log2_mib.max(4.0)) * f64::from(1u32 << 20)
    }

    /// The `width` x `height` game with its squares read in `order`.
    ///
    /// # Errors
    /// As [`Breakthrough::new`].
    pub fn with_order(width: usize, height: usize, order: SquareOrder) -> Result<Breakthrough> {
        if !(1..=Self::MAX_SIDE).contains(&width) {
            return Err(Error::BadParameters(format!(
                "breakthrough width must be 1..={}, got {width}",
                Self::MAX_SIDE
            )));
        }
        if !(4..=Self::MAX_SIDE).contains(&height) {
            return Err(Error::BadParameters(format!(
                "breakthrough height must be 4..={} (two home rows per side), got {height}",
                Self::MAX_SIDE
            )));
        }
        Ok(Breakthrough { width, height, order, shape: Shape::uniform(width * height, 3), reachable: false })
    }

    /// The same game, solved by classes over the positions reachable from the start only.
    pub fn reachable_only(self) -> Breakthrough {
        Breakthrough { reachable: true, ..self }
    }

    /// Board width (columns).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height (rows).
    pub fn height(&self) -> usize {
        self.height
    }

    /// The evaluation group of moves from `row`, `col`: the band of the string they start in
    /// (its row in row order, its column in column order).
    fn band(&self, row: usize, col: usize) -> u32 {
        match self.order {
            SquareOrder::Rows => row as u32,
            SquareOrder::Columns => col as u32,
        }
    }

    /// The layer of the square in `row`, `col`.
    fn square(&self, row: usize, col: usize) -> usize {
        match self.order {
            SquareOrder::Rows => row * self.width + col,
            SquareOrder::Columns => col * self.height + row,
        }
    }

    /// The row and column of the square read as `layer`.
    fn row_col(&self, layer: usize) -> (usize, usize) {
        match self.order {
            SquareOrder::Rows => (layer / self.width, layer % self.width),
            SquareOrder::Columns => (layer % self.height, layer / self.height),
        }
    }

    /// The row `side` moves toward.
    fn goal_row(&self, side: Side) -> usize {
        match side {
            Side::First => self.height - 1,
            Side::Second => 0,
        }
    }

    /// The row a pawn of `side` on `row` moves to, if any.
    fn forward_row(&self, side: Side, row: usize) -> Option<usize> {
        match side {
            Side::First => (row + 1 < self.height).then_some(row + 1),
            Side::Second => row.checked_sub(1),
        }
    }

    /// Positions with some pawn of `side` on `row`.
    fn pawn_on_row(&self, side: Side, row: usize) -> Dfa {
        Dfa::from_allowed(&self.shape, |layer, c| !(self.row_col(layer).0 == row && c == pawn(side))).complement()
    }

    /// The pawns `(first, second)` of each class of [`SolverHints::classes`], in its order: by
    /// total, then by the first player's.
    fn class_counts(&self) -> Vec<(usize, usize)> {
        let most = 2 * self.width;
        let mut counts: Vec<(usize, usize)> = (0..=most).flat_map(|a| (0..=most).map(move |b| (a, b))).collect();
        counts.sort_by_key(|&(a, b)| (a + b, a));
        counts
    }

    fn pawns_between(&self, side: Side, lo: usize, hi: usize) -> Dfa {
        Dfa::count_between(&self.shape, 0..self.shape.len(), |c| c == pawn(side), lo, hi)
    }

    fn name_square(&self, square: usize) -> String {
        let (row, col) = self.row_col(square);
        format!("{}{}", (b'a' + col as u8) as char, row + 1)
    }
}

impl Rules for Breakthrough {
    /// `breakthrough WxH`, with `by columns` added in column order so that default file names
    /// of the two orders differ.
    fn name(&self) -> String {
        let reachable = if self.reachable { " reachable" } else { "" };
        match self.order {
            SquareOrder::Rows => format!("breakthrough {}x{}{reachable}", self.width, self.height),
            SquareOrder::Columns => format!("breakthrough {}x{} by columns{reachable}", self.width, self.height),
        }
    }

    fn params(&self) -> GameParams {
        GameParams::of(&BreakthroughParams {
            width: self.width,
            height: self.height,
            order: self.order,
            reachable: self.reachable,
        })
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn initial(&self) -> Position {
        let mut board = vec![EMPTY; self.shape.len()];
        for col in 0..self.width {
            for row in [0, 1] {
                board[self.square(row, col)] = pawn(Side::First);
            }
            for row in [self.height - 2, self.height - 1] {
                board[self.square(row, col)] = pawn(Side::Second);
            }
        }
        Position { side: Side::First, board }
    }

    /// At most 2W pawns a side, and no pawn of the mover on its own goal row (it would have
    /// ended the game the move it arrived).
    fn universe(&self, side: Side) -> Stoppable<Dfa> {
        let counts = self.pawns_between(side, 0, 2 * self.width).intersection(&self.pawns_between(
            side.other(),
            0,
            2 * self.width,
        ))?;
        counts.difference(&self.pawn_on_row(side, self.goal_row(side)))
    }

    /// The opponent reached its goal row, or the mover has no pawns left.
    fn lost_terminal(&self, side: Side) -> Stoppable<Dfa> {
        let reached = self.pawn_on_row(side.other(), self.goal_row(side.other()));
        let wiped_out = self.pawns_between(side, 0, 0);
        reached.union(&wiped_out)?.intersection(&self.universe(side)?)
    }

    /// One path per pawn move: the change empties the from-square and fills the to-square;
    /// the change's own "before" symbols are the whole pre-condition.
    ///
    /// Moves are evaluated in one group per from-row: a pass then carries only the moves of
    /// one row band at a time, a third less memory than one group for all moves for up to a
    /// tenth more time (`docs/engine-notes.md`): memory is what stops the largest boards.
    fn moves(&self, side: Side) -> Stoppable<MoveGraph> {
        let mut g = MoveGraph::new(&self.shape);
        let me = pawn(side);
        let enemy = pawn(side.other());
        for row in 0..self.height {
            let Some(to_row) = self.forward_row(side, row) else {
                continue;
            };
            for col in 0..self.width {
                let from = self.square(row, col);
                for to_col in col.saturating_sub(1)..=(col + 1).min(self.width - 1) {
                    let to = self.square(to_row, to_col);
                    let targets: &[Symbol] = if to_col == col { &[EMPTY] } else { &[EMPTY, enemy] };
                    for &before in targets {
                        let name = format!(
                            "{}{}{}",
                            self.name_square(from),
                            if before == EMPTY { "-" } else { "x" },
                            self.name_square(to)
                        );
                        g.add_move_in(
                            self.band(row, col),
                            name,
                            None,
                            vec![Change::new(from, me, EMPTY), Change::new(to, before, me)],
                            None,
                        );
                    }
                }
            }
        }
        Ok(g)
    }

    fn pieces(&self, pos: &Position, side: Side) -> Option<usize> {
        Some(pos.board.iter().filter(|&&c| c == pawn(side)).count())
    }

    /// Rows from row 0 (the first player's home, rank 1) to row H-1, separated by `/`:
    /// `x` first player, `o` second player, `.` empty; then the side to move.
    fn render(&self, pos: &Position) -> String {
        let rows: Vec<String> = (0..self.height)
            .map(|r| (0..self.width).map(|c| ['.', 'x', 'o'][pos.board[self.square(r, c)] as usize]).collect())
            .collect();
        format!("{} {}", rows.join("/"), pos.side)
    }

    fn draw(&self, pos: &Position, _mover: Side) -> String {
        let grid =
            super::grid::draw(self.width, self.height, |r, c| ['.', 'x', 'o'][pos.board[self.square(r, c)] as usize]);
        format!("{grid}\n{} to move (x: first player, moving up; o: second player, moving down)", pos.side)
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let bad = |msg: String| {
            Error::BadPosition(format!(
                "breakthrough {}x{}: {msg} (expected e.g. the start, \"{}\", rank 1 first)",
                self.width,
                self.height,
                self.render(&self.initial())
            ))
        };
        let mut words: Vec<&str> = text.split_whitespace().collect();
        let side_word = |w: &str| match w {
            "first" | "x" => Some(Side::First),
            "second" | "o" => Some(Side::Second),
            _ => None,
        };
        let Some(side) = words.last().and_then(|w| side_word(w)) else {
            if let Some(at) = words.iter().position(|w| side_word(w).is_some()) {
                return Err(bad(format!("unexpected {:?} after the side to move", words[at + 1..].join(" "))));
            }
            return Err(bad("missing side to move (first/second) at the end".into()));
        };
        words.pop();
        let rows: Vec<&str> = words.iter().flat_map(|w| w.split('/')).collect();
        if rows.iter().any(|r| r.is_empty()) {
            return Err(bad("an empty row (a '/' too many?)".into()));
        }
        if rows.len() != self.height {
            return Err(bad(format!("{} rows given", rows.len())));
        }
        let mut board = vec![EMPTY; self.shape.len()];
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != self.width {
                return Err(bad(format!("row {} has {} squares", r + 1, row.chars().count())));
            }
            for (c, ch) in row.chars().enumerate() {
                board[self.square(r, c)] = match ch {
                    '.' => EMPTY,
                    'x' => pawn(Side::First),
                    'o' => pawn(Side::Second),
                    other => return Err(bad(format!("unknown square symbol {other:?}"))),
                };
            }
        }
        let pos = Position { side, board };
        for s in Side::BOTH {
            let n = pos.board.iter().filter(|&&c| c == pawn(s)).count();
            if n > 2 * self.width {
                return Err(bad(format!("{s} player has {n} pawns, more than the {} it starts with", 2 * self.width)));
            }
        }
        let goal = self.goal_row(side);
        if (0..self.width).any(|c| pos.board[self.square(goal, c)] == pawn(side)) {
            return Err(bad(format!("the {side} player is to move but already stands on its goal row")));
        }
        Ok(pos)
    }

    fn move_name(&self, from: &Position, to: &Position) -> String {
        let me = pawn(from.side);
        let src = (0..from.board.len()).find(|&i| from.board[i] == me && to.board[i] == EMPTY);
        let dst = (0..from.board.len()).find(|&i| to.board[i] == me && from.board[i] != me);
        match (src, dst) {
            (Some(s), Some(d)) => {
                let sep = if from.board[d] == EMPTY { "-" } else { "x" };
                format!("{}{sep}{}", self.name_square(s), self.name_square(d))
            }
            _ => "?".into(),
        }
    }
}

impl ExplicitRules for Breakthrough {
    fn explicit_moves(&self, pos: &Position) -> Vec<Position> {
        let me = pawn(pos.side);
        let enemy = pawn(pos.side.other());
        let mut out = Vec::new();
        for row in 0..self.height {
            let Some(to_row) = self.forward_row(pos.side, row) else {
                continue;
            };
            for col in 0..self.width {
                if pos.board[self.square(row, col)] != me {
                    continue;
                }
                for to_col in [col.wrapping_sub(1), col, col + 1] {
                    if to_col >= self.width {
                        continue;
                    }
                    let target = pos.board[self.square(to_row, to_col)];
                    let legal = target == EMPTY || (to_col != col && target == enemy);
                    if legal {
                        let mut board = pos.board.clone();
                        board[self.square(row, col)] = EMPTY;
                        board[self.square(to_row, to_col)] = me;
                        out.push(Position { side: pos.side.other(), board });
                    }
                }
            }
        }
        out
    }

    fn explicit_status(&self, pos: &Position) -> Status {
        let opponent = pos.side.other();
        let goal = self.goal_row(opponent);
        let reached = (0..self.width).any(|c| pos.board[self.square(goal, c)] == pawn(opponent));
        let has_pawns = pos.board.contains(&pawn(pos.side));
        if reached || !has_pawns || self.explicit_moves(pos).is_empty() { Status::Lost } else { Status::Ongoing }
    }
}

impl SolverHints for Breakthrough {
    /// The pawns on the board, `(first, second)`: a move keeps them or captures one, so a
    /// class `(a, b)` leads only to `(a, b)`, `(a - 1, b)` and `(a, b - 1)`. Named `AvB`.
    fn classes(&self) -> Stoppable<Vec<PositionClass>> {
        let counts = self.class_counts();
        let index = |a: usize, b: usize| counts.iter().position(|&c| c == (a, b));
        counts
            .iter()
            .map(|&(a, b)| {
                Ok(PositionClass {
                    name: format!("{a}v{b}"),
                    set: self.pawns_between(Side::First, a, a).intersection(&self.pawns_between(Side::Second, b, b))?,
                    successors: [a.checked_sub(1).map(|a| (a, b)), b.checked_sub(1).map(|b| (a, b))]
                        .into_iter()
                        .flatten()
                        .filter_map(|(a, b)| index(a, b))
                        .collect(),
                })
            })
            .collect()
    }

    /// With [`Breakthrough::reachable_only`]: the classes' positions reachable from the start
    /// ([`Breakthrough::classes_from_start`]).
    fn class_universes(&self, each: &mut dyn FnMut(usize, [Dfa; 2]) -> Result<()>) -> Option<Result<()>> {
        self.reachable.then(|| self.classes_from_start(each))
    }

    fn sweeps_class_universes(&self) -> bool {
        self.reachable
    }

    /// Rotating the board by 180° and swapping the colours turns a position with the first
    /// player to move into one with the second to move: the rules are left-right symmetric,
    /// so the rotation (a vertical flip and a mirror) keeps every value.
    fn side_mirror(&self) -> Option<SideMirror> {
        Some(SideMirror::RotateAndSwap { a: pawn(Side::First), b: pawn(Side::Second) })
    }
}

#[cfg(test)]
mod tests {
    use super::Breakthrough;

    fn estimate_mib(w: usize, h: usize) -> f64 {
        Breakthrough::new(w, h).unwrap().estimated_peak_bytes(true) / f64::from(1u32 << 20)
    }

    /// The fit stays within a factor of two of the measured strong peaks (MiB, from
    /// `results/breakthrough/sizes.csv`), including the long thin boards.
    #[test]
    fn the_peak_estimate_follows_the_measured_sizes() {
        for (w, h, measured) in
            [(4, 7, 10118.0), (6, 5, 3532.0), (8, 4, 340.0), (3, 9, 475.0), (5, 5, 392.0), (4, 6, 736.0)]
        {
            let ratio = estimate_mib(w, h) / measured;
            assert!((0.5..2.0).contains(&ratio), "{w}x{h}: estimate {:.0} MiB against {measured}", estimate_mib(w, h));
        }
    }

    /// Thin boards are cheap and the largest boards are hopeless, whatever the area.
    #[test]
    fn the_estimate_tells_thin_boards_from_hopeless_ones() {
        let refused_above = 64.0 * 24.0 * 1024.0;
        for (w, h) in [(9, 4), (10, 4), (2, 16), (3, 10), (5, 6)] {
            assert!(estimate_mib(w, h) < refused_above, "{w}x{h}");
        }
        for (w, h) in [(7, 7), (8, 8), (16, 16)] {
            assert!(estimate_mib(w, h) > refused_above, "{w}x{h}");
        }
    }
}
