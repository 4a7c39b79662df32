//! What a game may tell the solver beyond its rules, to make a solve cheaper: each has a
//! default that is always right, so a new game implements none of them to begin with.

use super::{PositionClass, Rules, SideMirror};
use crate::dfa::Dfa;
use crate::dfa::limits::Stoppable;
use crate::error::Result;
use crate::game::GameParams;
use crate::move_graph::Moves;
use crate::vocabulary::Side;

/// Hints to the solver: symmetries, mover-relative strings, known stuck positions, classes,
/// parts. The defaults ask nothing of the game.
pub trait SolverHints: Rules {
    /// The moves of `side` as the solver applies them: [`crate::game::Rules::moves`], overridden on the
    /// states of [`crate::game::Rules::listed_moves`].
    fn solver_moves(&self, side: Side) -> Stoppable<Moves> {
        Ok(Moves::new(self.moves(side)?, self.listed_moves(side)))
    }

    /// Positions of the universe with `side` to move that the rules do not end but that have no
    /// legal move, if the game knows them (`None`: the solver computes them with one backward
    /// image of the whole universe, which can be the most expensive image of a solve).
    fn stuck(&self, _side: Side) -> Stoppable<Option<Dfa>> {
        Ok(None)
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
    fn classes(&self) -> Stoppable<Vec<PositionClass>> {
        Ok(Vec::new())
    }

    /// The universe class by class, for a game whose universe is made by forward images from
    /// the start, so that a solve by classes never builds the whole universe: `each` gets
    /// the index of a class in [`crate::game::SolverHints::classes`] and its positions with each side to move
    /// (`[first, second]`), every class once, and may stop the sweep with an error. `None`
    /// (the default): a class's universe is [`crate::game::Rules::universe`] within the class's set.
    fn class_universes(&self, _each: &mut dyn FnMut(usize, [Dfa; 2]) -> Result<()>) -> Option<Result<()>> {
        None
    }

    /// Whether [`crate::game::SolverHints::class_universes`] makes the universes (`Some`) rather than leaving
    /// them to the rule (`None`), told without making them: a plan of class jobs then makes
    /// them in one job that the others wait for.
    fn sweeps_class_universes(&self) -> bool {
        false
    }

    /// The parameters the universe depends on, which name the game in its universe files
    /// ([`crate::game::SolverHints::class_universes`]): games with equal ones can share those files (Othello's
    /// reachable positions are the same at every threshold). Default: [`crate::game::Rules::params`].
    fn universe_params(&self) -> GameParams {
        self.params()
    }

    /// A partition of the positions with `side` to move into parts that the solver's
    /// largest step, a loss step's escape filter, may take one at a time, so that each
    /// part's sets and tables are a fraction of the whole (Ostle: where the hole is). Empty
    /// (the default): the filter takes its positions whole.
    fn filter_parts(&self, _side: Side) -> Stoppable<Vec<Dfa>> {
        Ok(Vec::new())
    }
}
