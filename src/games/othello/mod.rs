//! Othello on W x H boards: the fourth game, the one with passes and scores.
//!
//! * [`Othello`]: the game for the solver. Positions are the plain board, row-major from row
//!   0, symbols `.` (empty), `x` (Black, the first player), `o` (White); the side to move is
//!   kept beside the string. Moves are a staged move graph ([`sets`]); a player without a
//!   move passes; a board on which neither can move is over and scored.
//! * [`explicit`]: the plain rules and an exact negamax with a memo, the oracle.
//!
//! Scores are compared with a threshold: the game with threshold `t` is won by Black when
//! Black's final disc difference (empty squares counted for nobody) is above `t`, drawn when
//! it equals `t`, and won by White below it. Threshold 0 is the plain game (win, draw or loss
//! by the sign of the difference); solving several thresholds brackets the exact difference
//! of every position. Rules as implemented: `games/othello/README.md`.

pub mod difference_table;
pub mod differences;
pub mod differences_solved;
pub mod explicit;
mod formats;
pub mod margins;
pub mod plies;
pub mod sets;

use crate::dfa::limits::Stoppable;
use crate::game::{Game, GameParams, NoMove, Position, PositionClass, Side, SideMirror, Status};

/// Othello's saved formats besides the DFA solution: its exact margins (a solution per
/// threshold) and its exact differences by rank.
pub static FORMATS: &[&dyn crate::solved::Format] = &[&formats::MarginsFormat, &formats::DifferencesFormat];
use crate::dfa::{Dfa, Shape, Symbol};
use crate::error::{Error, Result};
use crate::game::ExplicitRules;
use crate::game::Rules;
use crate::game::SolverHints;
use crate::move_graph::MoveGraph;
use explicit::{Discs, Geometry};
use sets::{Board, EMPTY, disc};
use std::cmp::Ordering;
use std::ops::ControlFlow;
use std::sync::OnceLock;

/// Which Othello: the options of `dfasolve othello` that name the game (with the `cli`
/// feature) and the `"othello"` object of files, where the plain game's threshold and the
/// whole game's `reachable` are left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct OthelloParams {
    /// Board width (columns), 3 to 8.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 4))]
    pub width: usize,
    /// Board height (rows), 3 to 8.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 4))]
    pub height: usize,
    /// Black wins when Black's final disc difference (empty squares counted for nobody) is
    /// above this, draws at it, and loses below it; 0 is the plain game.
    #[serde(default, skip_serializing_if = "is_plain")]
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 0, allow_negative_numbers = true))]
    pub threshold: i32,
    /// Only the positions reachable from the start (their values are the whole game's), or
    /// every board whose centre holds discs. The command line solves the reachable ones
    /// unless `--strong` is given.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(
        feature = "cli",
        arg(
            long = "strong",
            action = clap::ArgAction::SetFalse,
            help = "Solve every board whose centre holds discs, not only the positions reachable from the start (the default)"
        )
    )]
    pub reachable: bool,
}

/// The plain game (threshold 0), whose files do not name the threshold.
fn is_plain(threshold: &i32) -> bool {
    *threshold == 0
}

impl OthelloParams {
    /// The game.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for what [`Othello::new`] refuses.
    pub fn game(self) -> Result<Othello> {
        let game = Othello::new(self.width, self.height, self.threshold)?;
        Ok(if self.reachable { game.reachable_only() } else { game })
    }
}

impl crate::game::Params for OthelloParams {
    const GAME: &'static str = "othello";

    fn build(&self) -> Result<Box<dyn Game>> {
        Ok(Box::new((*self).game()?))
    }
}

/// The boards of `set` (positions with `mover` to move) on which `mover` has no move and
/// the other side has: their passes, positions of the other side. `moves` by side index,
/// `all` every board.
fn passes(moves: &[MoveGraph; 2], all: &Dfa, mover: Side, set: &Dfa) -> Stoppable<Dfa> {
    let (me, them) = (mover.index(), mover.other().index());
    let stuck = set.difference(&moves[me].backward_within(all, set)?)?;
    moves[them].backward_within(all, &stuck)
}

/// Writes the board string of `d` with `side` to move into `board` (cleared first).
fn write_board(d: Discs, side: Side, squares: usize, board: &mut Vec<Symbol>) {
    board.clear();
    board.extend((0..squares).map(|i| {
        if d.mover >> i & 1 == 1 {
            disc(side)
        } else if d.opponent >> i & 1 == 1 {
            disc(side.other())
        } else {
            EMPTY
        }
    }));
}

/// Othello on a `width` x `height` board, scored against a threshold.
#[derive(Clone, Debug)]
pub struct Othello {
    geometry: Geometry,
    board: Board,
    threshold: i32,
    /// Whether the universe is the positions reachable from the start, not every board.
    reachable: bool,
    shape: Shape,
    /// The reachable positions per side, worked out on first use.
    reached: OnceLock<[Dfa; 2]>,
    /// The boards on which each side has a move, worked out on first use: every terminal
    /// set and every class's positions without a move are cut from them.
    movable: OnceLock<[Dfa; 2]>,
}

impl Othello {
    /// Its parameters, as its own type.
    pub fn own_params(&self) -> OthelloParams {
        OthelloParams {
            width: self.geometry.width,
            height: self.geometry.height,
            threshold: self.threshold,
            reachable: self.reachable,
        }
    }

    /// Othello on a `width` x `height` board (3 to 8 squares a side), Black's final disc
    /// difference compared with `threshold` (0: the plain game).
    ///
    /// # Errors
    /// [`Error::BadParameters`] for a side outside 3..=8, or a threshold no board reaches.
    pub fn new(width: usize, height: usize, threshold: i32) -> Result<Othello> {
        let geometry = Geometry::new(width, height).map_err(Error::BadParameters)?;
        let squares = (width * height) as i32;
        if threshold.abs() > squares {
            return Err(Error::BadParameters(format!(
                "othello {width}x{height}: the threshold {threshold} is outside -{squares}..={squares}"
            )));
        }
        Ok(Othello {
            geometry,
            board: Board { width, height },
            threshold,
            reachable: false,
            shape: Shape::uniform(width * height, 3),
            reached: OnceLock::new(),
            movable: OnceLock::new(),
        })
    }

    /// The same game over the positions reachable from the start only (every successor of
    /// one is one, so their values are the full game's); the universe is worked out by
    /// forward images on first use.
    pub fn reachable_only(self) -> Othello {
        Othello { reachable: true, reached: OnceLock::new(), ..self }
    }

    /// Every board whose four centre squares hold discs.
    fn boards(&self) -> Dfa {
        let centre = self.centre();
        Dfa::from_allowed(&self.shape, |l, s| !centre.contains(&l) || s != EMPTY)
    }

    /// The positions reachable from the start, per side to move: the union of its plies.
    fn reached(&self) -> Stoppable<&[Dfa; 2]> {
        crate::once::get_or_try_init(&self.reached, || {
            let mut seen = [Dfa::reject_all(&self.shape), Dfa::reject_all(&self.shape)];
            let mut stopped = Ok(());
            self.plies_from_start(|n, ply| {
                tracing::debug!(target: "dfasolve::othello", "ply {n}: {} positions, {} states",
                    ply[0].count() + ply[1].count(), ply[0].state_count() + ply[1].state_count());
                match Side::try_both(|side| seen[side.index()].union(&ply[side.index()])) {
                    Ok(both) => {
                        seen = both;
                        ControlFlow::Continue(())
                    }
                    Err(stop) => {
                        stopped = Err(stop);
                        ControlFlow::Break(())
                    }
                }
            })?;
            stopped.map(|()| seen)
        })
    }

    /// The positions reachable from the start in exactly `n` plies (a pass is a ply: the
    /// same board, the other side to move), per side to move, for `n` = 0, 1, ...: `each`
    /// sees every ply until it breaks or a ply is empty (the games have all ended). Every
    /// move adds a disc and two passes in a row end the game, so the plies end.
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn plies_from_start(&self, mut each: impl FnMut(u32, &[Dfa; 2]) -> ControlFlow<()>) -> Stoppable<()> {
        let moves = [self.moves(Side::First)?, self.moves(Side::Second)?];
        let all = Dfa::accept_all(&self.shape);
        let mut ply = [Dfa::from_string(&self.shape, &self.initial().board), Dfa::reject_all(&self.shape)];
        for n in 0u32.. {
            if ply.iter().all(Dfa::is_empty) || each(n, &ply).is_break() {
                break;
            }
            // Who moves to reach each side's next positions: the other side. Who can move is
            // asked of the ply's positions only: the set of every board on which a side can
            // move does not compress on wide boards.
            let [to_second, to_first] = Side::try_both(|mover| {
                let me = mover.index();
                moves[me].forward(&ply[me])?.union(&passes(&moves, &all, mover, &ply[me])?)
            })?;
            ply = [to_first, to_second];
        }
        Ok(())
    }

    /// The positions reachable from the start by the number of discs on the board, per side
    /// to move, from the start's four discs up: `each` gets the discs and the class's sets
    /// until it breaks or a class is empty. Every move adds a disc, and a pass (the mover has
    /// no move and the opponent has) keeps the board, so a class is the images of the class
    /// below plus the passes within it; only two classes are held at a time.
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn classes_from_start(&self, each: impl FnMut(usize, [Dfa; 2]) -> ControlFlow<()>) -> Stoppable<()> {
        let start = [Dfa::from_string(&self.shape, &self.initial().board), Dfa::reject_all(&self.shape)];
        self.classes_from(4, start, each)
    }

    /// As [`Othello::classes_from_start`], from the class of `discs` discs given as `class`
    /// (a class made before, with or without its passes): `each` sees that class again, then
    /// the classes above it.
    pub fn classes_from(
        &self,
        discs: usize,
        mut class: [Dfa; 2],
        mut each: impl FnMut(usize, [Dfa; 2]) -> ControlFlow<()>,
    ) -> Stoppable<()> {
        let moves = [self.moves(Side::First)?, self.moves(Side::Second)?];
        for discs in discs..=self.shape.len() {
            // The passes: positions of one side without a move where the other side has one
            // are also positions of the other side (who then has a move: no second pass).
            // The boards each side can move on are built for the solve anyway (its terminal
            // sets), so the passes are set operations here, not images.
            let [to_second, to_first] = Side::try_both(|mover| {
                class[mover.index()].difference(self.movable(mover)?)?.intersection(self.movable(mover.other())?)
            })?;
            class = [class[0].union(&to_first)?, class[1].union(&to_second)?];
            if class.iter().all(Dfa::is_empty) {
                return Ok(());
            }
            let next = [moves[1].forward(&class[1])?, moves[0].forward(&class[0])?];
            if each(discs, class).is_break() {
                return Ok(());
            }
            class = next;
        }
        Ok(())
    }

    /// Black's disc difference at the end compared with the threshold, for the player to move.
    fn score(&self, board: &[Symbol], mover: Side) -> Status {
        let count = |side: Side| board.iter().filter(|&&s| s == disc(side)).count() as i32;
        let black = count(Side::First) - count(Side::Second);
        let for_black = black.cmp(&self.threshold);
        match if mover == Side::First { for_black } else { for_black.reverse() } {
            Ordering::Greater => Status::Won,
            Ordering::Less => Status::Lost,
            Ordering::Equal => Status::Drawn,
        }
    }

    /// The boards on which `side` has a move.
    fn movable(&self, side: Side) -> Stoppable<&Dfa> {
        let both =
            crate::once::get_or_try_init(&self.movable, || Side::try_both(|s| self.board.can_move(&self.shape, s)))?;
        Ok(&both[side.index()])
    }

    /// Boards on which neither side can move: the game is over.
    fn over(&self) -> Stoppable<Dfa> {
        Dfa::accept_all(&self.shape).difference(self.movable(Side::First)?)?.difference(self.movable(Side::Second)?)
    }

    /// Over boards whose score is `order` for `side` to move (the solver takes them within
    /// its universe: the whole reachable one is not made for this).
    fn scored(&self, side: Side, order: Ordering) -> Stoppable<Dfa> {
        let for_black = if side == Side::First { order } else { order.reverse() };
        self.boards().intersection(&self.over()?)?.intersection(&self.board.difference_compared(
            &self.shape,
            self.threshold,
            for_black,
        ))
    }

    /// The discs of `pos` from its mover's side (the plain rules' form of a position).
    pub fn discs(&self, pos: &Position) -> Discs {
        let bits = |side: Side| {
            pos.board.iter().enumerate().filter(|&(_, &s)| s == disc(side)).fold(0u64, |b, (i, _)| b | 1 << i)
        };
        Discs { mover: bits(pos.side), opponent: bits(pos.side.other()) }
    }

    /// The board of `d` with `side` to move.
    fn position(&self, d: Discs, side: Side) -> Position {
        let mut board = Vec::with_capacity(self.shape.len());
        write_board(d, side, self.shape.len(), &mut board);
        Position { side, board }
    }

    /// The squares of the start, which are never empty again.
    fn centre(&self) -> [usize; 4] {
        let (w, h) = (self.geometry.width, self.geometry.height);
        let (r0, c0) = (h / 2 - 1, w / 2 - 1);
        [r0 * w + c0, r0 * w + c0 + 1, (r0 + 1) * w + c0, (r0 + 1) * w + c0 + 1]
    }
}

impl Rules for Othello {
    fn name(&self) -> String {
        let t = if self.threshold == 0 { String::new() } else { format!(" threshold {}", self.threshold) };
        let r = if self.reachable { " reachable" } else { "" };
        format!("othello {}x{}{t}{r}", self.geometry.width, self.geometry.height)
    }

    fn params(&self) -> GameParams {
        GameParams::of(&self.own_params())
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn initial(&self) -> Position {
        self.position(self.geometry.start(), Side::First)
    }

    /// Every board whose four centre squares hold discs, or those reachable from the start.
    fn universe(&self, side: Side) -> Stoppable<Dfa> {
        Ok(if self.reachable { self.reached()?[side.index()].clone() } else { self.boards() })
    }

    fn lost_terminal(&self, side: Side) -> Stoppable<Dfa> {
        self.scored(side, Ordering::Less)
    }

    fn won_terminal(&self, side: Side) -> Stoppable<Dfa> {
        self.scored(side, Ordering::Greater)
    }

    fn drawn_terminal(&self, side: Side) -> Stoppable<Dfa> {
        self.scored(side, Ordering::Equal)
    }

    fn without_a_move(&self) -> NoMove {
        NoMove::Passes
    }

    fn has_draws(&self) -> bool {
        true
    }

    fn moves(&self, side: Side) -> Stoppable<MoveGraph> {
        self.board.moves(&self.shape, side)
    }

    fn render(&self, pos: &Position) -> String {
        let rows: Vec<String> = pos
            .board
            .chunks(self.geometry.width)
            .map(|row| row.iter().map(|&s| ['.', 'x', 'o'][usize::from(s)]).collect())
            .collect();
        let side = if pos.side == Side::First { "black" } else { "white" };
        format!("{} {side}", rows.join("/"))
    }

    /// Rows from 1 at the top, as Othello's players count them (and the text form lists them).
    fn draw(&self, pos: &Position, _mover: Side) -> String {
        let w = self.geometry.width;
        let grid = super::grid::draw_from_top(w, self.geometry.height, |row, file| {
            ['.', 'x', 'o'][usize::from(pos.board[row * w + file])]
        });
        let side = if pos.side == Side::First { "black (x)" } else { "white (o)" };
        format!("{grid}\n{side} to move (x: black, the first player; o: white; rows count from 1 at the top)")
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let (w, h) = (self.geometry.width, self.geometry.height);
        let bad = |msg: String| {
            Error::BadPosition(format!(
                "othello {w}x{h}: {msg} (expected {h} rows of . x o from the top, then black or white, e.g. \"{}\")",
                self.render(&self.initial())
            ))
        };
        let (rows, side) = super::grid::board_and_side(text).map_err(bad)?;
        let side = match side {
            "black" | "x" => Side::First,
            "white" | "o" => Side::Second,
            other => return Err(bad(format!("unknown side to move {other:?}"))),
        };
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != h {
            return Err(bad(format!("{} rows given", rows.len())));
        }
        let mut board = Vec::with_capacity(w * h);
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != w {
                return Err(bad(format!("row {} has {} squares", r + 1, row.chars().count())));
            }
            for ch in row.chars() {
                board.push(match ch {
                    '.' => EMPTY,
                    'x' => disc(Side::First),
                    'o' => disc(Side::Second),
                    other => return Err(bad(format!("unknown square symbol {other:?}"))),
                });
            }
        }
        if let Some(&empty) = self.centre().iter().find(|&&q| board[q] == EMPTY) {
            return Err(bad(format!("the centre square {} is empty", self.square_name(empty))));
        }
        Ok(Position { side, board })
    }

    fn move_name(&self, from: &Position, to: &Position) -> String {
        match from.board.iter().zip(&to.board).position(|(&a, &b)| a == EMPTY && b != EMPTY) {
            Some(square) => self.square_name(square),
            None => "pass".into(),
        }
    }

    fn pieces(&self, pos: &Position, side: Side) -> Option<usize> {
        Some(pos.board.iter().filter(|&&s| s == disc(side)).count())
    }
}

impl ExplicitRules for Othello {
    fn explicit_moves(&self, pos: &Position) -> Vec<Position> {
        let d = self.discs(pos);
        let moves = self.geometry.moves(d);
        if moves.is_empty() {
            return vec![Position { side: pos.side.other(), board: pos.board.clone() }];
        }
        moves.into_iter().map(|m| self.position(self.geometry.play(d, m), pos.side.other())).collect()
    }

    fn explicit_status(&self, pos: &Position) -> Status {
        let d = self.discs(pos);
        if !self.geometry.moves(d).is_empty() || !self.geometry.moves(Geometry::pass(d)).is_empty() {
            return Status::Ongoing;
        }
        self.score(&pos.board, pos.side)
    }
}

impl SolverHints for Othello {
    /// The boards without a move, from the rules' own sets: every universe (the whole one or
    /// a class's) takes its positions without a move from these instead of from an image of
    /// its moves.
    fn stuck(&self, side: Side) -> Stoppable<Option<Dfa>> {
        Ok(Some(Dfa::accept_all(&self.shape).difference(self.movable(side)?)?))
    }

    /// Black to move on a board is White to move on the board with the colours swapped, with
    /// the same value in the plain game (a threshold other than 0 is not symmetric, and
    /// the reachable positions are not closed under the swap: Black moves first).
    fn side_mirror(&self) -> Option<SideMirror> {
        (self.threshold == 0 && !self.reachable)
            .then_some(SideMirror::SwapSymbols { a: disc(Side::First), b: disc(Side::Second) })
    }

    /// Discs on the board, the fullest first: every move adds one, a pass none.
    fn classes(&self) -> Stoppable<Vec<PositionClass>> {
        let squares = self.shape.len();
        Ok((0..=squares - 4)
            .map(|empty| PositionClass {
                name: format!("{}", squares - empty),
                set: Dfa::count_between(&self.shape, 0..squares, |s| s == EMPTY, empty, empty),
                successors: if empty == 0 { Vec::new() } else { vec![empty - 1] },
            })
            .collect())
    }

    /// With the positions reachable from the start only: their classes by discs, made from
    /// the start up ([`Othello::classes_from_start`]).
    fn class_universes(&self, each: &mut dyn FnMut(usize, [Dfa; 2]) -> Result<()>) -> Option<Result<()>> {
        if !self.reachable {
            return None;
        }
        let squares = self.shape.len();
        let mut outcome = Ok(());
        let made = self.classes_from_start(|discs, sets| match each(squares - discs, sets) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                outcome = Err(e);
                ControlFlow::Break(())
            }
        });
        Some(made.map_err(Error::from).and(outcome))
    }

    fn sweeps_class_universes(&self) -> bool {
        self.reachable
    }

    /// The reachable positions do not depend on the threshold.
    fn universe_params(&self) -> GameParams {
        GameParams::of(&OthelloParams { threshold: 0, ..self.own_params() })
    }
}

impl Othello {
    /// A square as Othello players write it: the column's letter, then the row from 1 at the
    /// top (`a1` is square 0).
    fn square_name(&self, square: usize) -> String {
        let w = self.geometry.width;
        format!("{}{}", super::grid::file_letter(square % w), square / w + 1)
    }
}

#[cfg(test)]
mod tests;
