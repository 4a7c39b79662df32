//! The rules of a game as the solver reads them: positions as strings of one [`Shape`], the
//! universe and terminal sets per side to move, a [`MoveGraph`] per side, and the text forms
//! of positions and moves.

use super::NoMove;
use crate::dfa::limits::Stoppable;
use crate::dfa::{Dfa, Shape};
use crate::error::Result;
use crate::game::GameParams;
use crate::move_graph::{ListedMoves, MoveGraph};
use crate::vocabulary::{Position, Side};

/// The rules of a game: its positions, its sets and its moves, symbolically.
pub trait Rules: Sync {
    /// A short identifier with parameters, e.g. `breakthrough 4x4`.
    fn name(&self) -> String;

    /// The game and its parameters (stored in solution files so `query` can rebuild it).
    fn params(&self) -> GameParams;

    /// The shape of every position string.
    fn shape(&self) -> &Shape;

    /// The start of the game.
    fn initial(&self) -> Position;

    /// Every legal position with `side` to move (the universe of a strong solve).
    ///
    /// The sets of the rules are built by set operations, which the engine's limits may stop
    /// (a board too large for the machine): hence [`Stoppable`] here and below.
    fn universe(&self, side: Side) -> Stoppable<Dfa>;

    /// Positions in the universe with `side` to move that are already lost for `side` by a
    /// rule of the game. Positions without a legal move are added by the solver.
    fn lost_terminal(&self, side: Side) -> Stoppable<Dfa>;

    /// Positions with `side` to move that are already won for `side` (most games: none).
    fn won_terminal(&self, _side: Side) -> Stoppable<Dfa> {
        Ok(Dfa::reject_all(self.shape()))
    }

    /// Positions with `side` to move that the rules end in a draw, e.g. equal scores (most
    /// games: none). A game with any says so in [`crate::game::Rules::has_draws`].
    fn drawn_terminal(&self, _side: Side) -> Stoppable<Dfa> {
        Ok(Dfa::reject_all(self.shape()))
    }

    /// What a player with no legal move does in a position the rules do not end (default:
    /// loses). A game that passes lists the pass among its [`crate::game::ExplicitRules::explicit_moves`] too.
    fn without_a_move(&self) -> NoMove {
        NoMove::Loses
    }

    /// The moves of `side`: maps positions with `side` to move to positions with the other
    /// side to move. Applied only to non-terminal positions.
    fn moves(&self, side: Side) -> Stoppable<MoveGraph>;

    /// States of `side` whose moves the move graph does not describe, with their moves written
    /// out (most games: none). They override the graph for those states.
    fn listed_moves(&self, _side: Side) -> Option<ListedMoves> {
        None
    }

    /// Whether the game can go on forever or end in a draw (the solver then reports draws).
    fn has_draws(&self) -> bool {
        false
    }

    /// The human-readable text form of a position (parsed back by [`crate::game::Rules::parse`]).
    fn render(&self, pos: &Position) -> String;

    /// The position drawn for a person playing or querying it (default: [`crate::game::Rules::render`]).
    /// `mover` is the player whose turn it is in the game: mover-relative games store every
    /// position from the mover's view, and draw it from the first player's fixed view.
    fn draw(&self, pos: &Position, mover: Side) -> String {
        let _ = mover;
        self.render(pos)
    }

    /// Parse the text form of a position, checking it is a legal position.
    ///
    /// # Errors
    /// [`crate::Error::BadPosition`] naming what is wrong.
    fn parse(&self, text: &str) -> Result<Position>;

    /// A name for the move from `from` to `to` (for query output), e.g. `b2-b3`.
    fn move_name(&self, from: &Position, to: &Position) -> String;

    /// The pieces `side` has on the board of `pos`, in games with pieces (default: none). A
    /// move that lowers the mover's own count is a sacrifice (puzzle filters).
    fn pieces(&self, _pos: &Position, _side: Side) -> Option<usize> {
        None
    }
}
