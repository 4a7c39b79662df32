//! What a game is, for the solver and for everything that reads a solved game: the [`Game`]
//! trait, and the parameters that name a game in files ([`GameParams`]). Names no game: the
//! games implement it in `crate::games`, whose table builds a game from its parameters.
//!
//! A game describes its positions as strings of one [`Shape`], and gives two independent
//! descriptions of its rules:
//!
//! * the **symbolic** one the solver uses: universes, terminal sets and a [`MoveGraph`] per
//!   side to move;
//! * the **explicit** oracle ([`Game::explicit_moves`], [`Game::explicit_status`]): plain board
//!   code that never touches the symbolic description, used by tests and by `check` to confirm
//!   the symbolic sets.
//!
//! Side to move: every set is "positions with side `s` to move", kept as one set per side
//! (the solver indexes by [`Side`]). Strings never mirror the board, so the encoding stays the
//! plain row-major board and switching sides costs nothing. A game whose two sides are mirror
//! images of each other says so with [`Game::side_mirror`]; the solver may then derive the
//! second side's sets from the first side's (one [`Dfa::reverse`] and one relabelling each)
//! instead of computing their images.

mod class;
mod params;

pub use class::{PositionClass, check_order};
pub use params::{GameParams, Params};

use crate::dfa::{Dfa, Shape, Symbol};
use crate::error::Result;
use crate::move_graph::{ListedMoves, MoveGraph, Moves};
pub use crate::vocabulary::{Outcome, Ply, Position, Side, Status, move_rank};

/// Everything the solver and the checks need to know about a game.
pub trait Game: Sync {
    /// A short identifier with parameters, e.g. `breakthrough 4x4`.
    fn name(&self) -> String;

    /// The game and its parameters (stored in solution files so `query` can rebuild it).
    fn params(&self) -> GameParams;

    /// The shape of every position string.
    fn shape(&self) -> &Shape;

    /// The start of the game.
    fn initial(&self) -> Position;

    /// Every legal position with `side` to move (the universe of a strong solve).
    fn universe(&self, side: Side) -> Dfa;

    /// Positions in the universe with `side` to move that are already lost for `side` by a
    /// rule of the game. Positions without a legal move are added by the solver.
    fn lost_terminal(&self, side: Side) -> Dfa;

    /// Positions with `side` to move that are already won for `side` (most games: none).
    fn won_terminal(&self, _side: Side) -> Dfa {
        Dfa::reject_all(self.shape())
    }

    /// Positions with `side` to move that the rules end in a draw, e.g. equal scores (most
    /// games: none). A game with any says so in [`Game::has_draws`].
    fn drawn_terminal(&self, _side: Side) -> Dfa {
        Dfa::reject_all(self.shape())
    }

    /// What a player with no legal move does in a position the rules do not end (default:
    /// loses). A game that passes lists the pass among its [`Game::explicit_moves`] too.
    fn without_a_move(&self) -> NoMove {
        NoMove::Loses
    }

    /// The moves of `side`: maps positions with `side` to move to positions with the other
    /// side to move. Applied only to non-terminal positions.
    fn moves(&self, side: Side) -> MoveGraph;

    /// States of `side` whose moves the move graph does not describe, with their moves written
    /// out (most games: none). They override the graph for those states.
    fn listed_moves(&self, _side: Side) -> Option<ListedMoves> {
        None
    }

    /// The moves of `side` as the solver applies them: [`Game::moves`], overridden on the
    /// states of [`Game::listed_moves`].
    fn solver_moves(&self, side: Side) -> Moves {
        Moves::new(self.moves(side), self.listed_moves(side))
    }

    /// Positions of the universe with `side` to move that the rules do not end but that have no
    /// legal move, if the game knows them (`None`: the solver computes them with one backward
    /// image of the whole universe, which can be the most expensive image of a solve).
    fn stuck(&self, _side: Side) -> Option<Dfa> {
        None
    }

    /// Whether the game can go on forever or end in a draw (the solver then reports draws).
    fn has_draws(&self) -> bool {
        false
    }

    /// Whether strings are written from the mover's point of view, so that both sides share
    /// one universe, one move graph and one set of values (the solver then does one side's
    /// work and uses it for both).
    fn mover_relative(&self) -> bool {
        false
    }

    /// A map taking the positions with the first side to move onto equivalent positions with
    /// the second side to move (same value, same distance), if the rules have one; it must be
    /// its own inverse. The retrograde pass may then compute images for the first side only and
    /// carry the second side's sets over with it (see [`SideMirror`] and the solver's
    /// `MirrorPolicy`).
    fn side_mirror(&self) -> Option<SideMirror> {
        None
    }

    /// The classes of the game's positions (`docs/solving.md`), lowest first: a partition of every
    /// position (with either side to move) such that every move stays in its class or goes
    /// to one of the class's successors, which come earlier in the list. The solver can then
    /// solve one class at a time from the lowest up ([`PositionClass`]). Empty (the default):
    /// the game is only solved whole.
    fn classes(&self) -> Vec<PositionClass> {
        Vec::new()
    }

    /// The universe class by class, for a game whose universe is made by forward images from
    /// the start, so that a solve by classes never builds the whole universe: `each` gets
    /// the index of a class in [`Game::classes`] and its positions with each side to move
    /// (`[first, second]`), every class once, and may stop the sweep with an error. `None`
    /// (the default): a class's universe is [`Game::universe`] within the class's set.
    fn class_universes(&self, _each: &mut dyn FnMut(usize, [Dfa; 2]) -> Result<()>) -> Option<Result<()>> {
        None
    }

    /// Whether [`Game::class_universes`] makes the universes (`Some`) rather than leaving
    /// them to the rule (`None`), told without making them: a plan of class jobs then makes
    /// them in one job that the others wait for.
    fn sweeps_class_universes(&self) -> bool {
        false
    }

    /// The parameters the universe depends on, which name the game in its universe files
    /// ([`Game::class_universes`]): games with equal ones can share those files (Othello's
    /// reachable positions are the same at every threshold). Default: [`Game::params`].
    fn universe_params(&self) -> GameParams {
        self.params()
    }

    /// A partition of the positions with `side` to move into parts that the solver's
    /// largest step, a loss step's escape filter, may take one at a time, so that each
    /// part's sets and tables are a fraction of the whole (Ostle: where the hole is). Empty
    /// (the default): the filter takes its positions whole.
    fn filter_parts(&self, _side: Side) -> Vec<Dfa> {
        Vec::new()
    }

    // ---- the explicit oracle: plain board code, independent of the symbolic rules ----

    /// Positions reachable in one move of `pos.side` (the other side to move), by the rules
    /// alone. Only called on positions with status `Ongoing`.
    fn explicit_moves(&self, pos: &Position) -> Vec<Position>;

    /// Whether the game is over for the player to move, by the rules alone.
    fn explicit_status(&self, pos: &Position) -> Status;

    /// The human-readable text form of a position (parsed back by [`Game::parse`]).
    fn render(&self, pos: &Position) -> String;

    /// The position drawn for a person playing or querying it (default: [`Game::render`]).
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

/// What a player with no legal move does (see [`Game::without_a_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoMove {
    /// The player loses (Breakthrough, Nim, Ostle).
    Loses,
    /// The player passes: the same string with the other side to move (Othello, written
    /// with the side to move beside the board; a mover-relative game's pass would also swap
    /// the players' symbols, which no game needs yet).
    Passes,
}

/// A symmetry between the two sides to move (see [`Game::side_mirror`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideMirror {
    /// Read the string backwards (the 180° rotation of a row-major board) and swap the two
    /// players' symbols `a` and `b`: Breakthrough, whose rules are the same mirrored left to
    /// right. Costs one [`Dfa::reverse`] (a subset construction) and one relabelling pass.
    RotateAndSwap {
        /// One player's piece.
        a: Symbol,
        /// The other player's piece.
        b: Symbol,
    },
    /// Swap the two players' symbols `a` and `b` where they stand: Othello, whose colours are
    /// interchangeable. One relabelling pass, no subset construction.
    SwapSymbols {
        /// One player's disc.
        a: Symbol,
        /// The other player's disc.
        b: Symbol,
    },
}

impl SideMirror {
    /// Whether the map costs one relabelling pass (so using it always saves work).
    pub fn is_cheap(&self) -> bool {
        matches!(self, SideMirror::SwapSymbols { .. })
    }

    /// The image of `set` (also the preimage: the map is an involution).
    pub fn apply(&self, set: &Dfa) -> Dfa {
        self.apply_bounded(set, usize::MAX).expect("an unbounded mirror always finishes")
    }

    /// [`SideMirror::apply`], given up (`None`) when it would hold more than `budget` ids at
    /// once (see [`Dfa::reverse_bounded`]).
    pub fn apply_bounded(&self, set: &Dfa, budget: usize) -> Option<Dfa> {
        match *self {
            SideMirror::RotateAndSwap { a, b } => Some(set.reverse_bounded(budget)?.swap_symbols(a, b)),
            SideMirror::SwapSymbols { a, b } => Some(set.swap_symbols(a, b)),
        }
    }
}
