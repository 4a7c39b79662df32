//! A solved game: value classes that partition the solved positions, how they were solved,
//! and the run's record. Saved and loaded by [`file`].

mod class_index;
mod class_universe;
mod classes;
mod classes_on_disk;
mod file;
mod in_place;
mod rest;

pub use class_index::ClassIndex;
pub use class_universe::ClassUniverse;
pub use classes::{ClassValues, class_files};
pub use classes_on_disk::ClassesOnDisk;
pub use file::{
    DIRECTORY_INDEX, LINK_ABOVE, is_domain_name, is_solution_directory, linked_sets, metadata_for_reports,
    positions_of_rest, solution_index,
};
pub use in_place::SolutionInPlace;
pub use rest::RestClass;

use crate::dfa::Dfa;
use crate::error::Result;
use crate::game::{Game, GameParams};
use crate::record::StepRecord;
use crate::solved::Games;
use crate::vocabulary::{Outcome, Position, Side};
use std::path::Path;

/// How a game was solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Retrograde over the whole universe to the fixpoint: every position, exact distances.
    Strong,
    /// Retrograde `depth` plies, then forward ply sets pruned by it, then backup: every
    /// position reachable from the start (win/loss, no distances).
    MeetInTheMiddle {
        /// Backward iterations before going forward.
        depth: u32,
    },
}

/// One value class of a solution: the positions with `side` to move whose value is `outcome`.
#[derive(Clone, Debug)]
pub struct ValueClass {
    /// Side to move.
    pub side: Side,
    /// The value for the side to move.
    pub outcome: Outcome,
    /// The positions.
    pub set: Dfa,
    /// The file `set` is read from in place ([`Dfa::saved_mapped`]), if it has one of its
    /// own: a large solution is then saved with that file linked, not copied (`file`).
    pub file: Option<std::path::PathBuf>,
}

impl ValueClass {
    /// The class of `side`'s positions `set` of value `outcome`, held in memory or spilled.
    pub fn new(side: Side, outcome: Outcome, set: Dfa) -> ValueClass {
        ValueClass { side, outcome, set, file: None }
    }
}

/// A solved game: value classes that partition the solved positions, and the run's record.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The game and its parameters.
    pub params: GameParams,
    /// How it was solved.
    pub mode: Mode,
    /// The game's start.
    pub initial: Position,
    /// Value of the start for the first player to move.
    pub initial_value: Outcome,
    /// Disjoint value classes; a class too large for one set is several, of the same side
    /// and value.
    pub classes: Vec<ValueClass>,
    /// Value classes stored as the rest of a domain ([`RestClass`]): what no class of
    /// `classes` holds. A meet in the middle's wins.
    pub rest: Vec<RestClass>,
    /// What each step computed.
    pub records: Vec<StepRecord>,
    /// Positions are written from the mover's view: the classes are stored for the first
    /// side only and answer for both ([`SolverHints::mover_relative`](crate::game::SolverHints::mover_relative)).
    pub mover_relative: bool,
    /// How many positions reachable from the start the classes value, where that is not all
    /// they hold: a meet in the middle values the positions of its forward plies (those the
    /// start reaches without passing a position the backward plies decided), and its classes
    /// also hold the backward plies' positions the start does not reach. `None`: every
    /// position of the classes is valued as solved (a strong solve), or not known (a file
    /// written before it was recorded).
    pub reachable_valued: Option<u128>,
    /// For a solution made of class files: which value classes each class of positions
    /// holds, so that a lookup reads one class's values. `None`: every value class is read.
    pub index: Option<ClassIndex>,
}

impl Solution {
    /// Load a solution saved by [`Solution::save`], with the game it solves (rebuilt from its
    /// parameters). Records are not stored.
    ///
    /// # Errors
    /// File errors; [`crate::Error::Corrupt`] if the bundle is not a solution or a stored set does not
    /// fit the game; the game's errors for parameters it does not accept.
    pub fn load(path: &Path, games: &Games) -> Result<(Box<dyn Game>, Solution)> {
        if path.is_dir() && !file::is_solution_directory(path) {
            return classes::load_classes(path, games);
        }
        Self::load_file(&file::solution_index(path), games)
    }
}

impl Solution {
    /// The value of `pos`, or `None` if the solution does not cover it (e.g. unreachable in a
    /// meet-in-the-middle solve).
    pub fn value(&self, pos: &Position) -> Option<Outcome> {
        let side = if self.mover_relative { Side::First } else { pos.side };
        self.candidates(&pos.board)
            .find(|c| c.side == side && c.set.contains(&pos.board))
            .map(|c| c.outcome)
            .or_else(|| self.rest_value(side, &pos.board))
    }

    /// The value classes that can hold `board`.
    fn candidates<'a>(&'a self, board: &'a [crate::dfa::Symbol]) -> Box<dyn Iterator<Item = &'a ValueClass> + 'a> {
        match &self.index {
            Some(index) => Box::new(index.candidates(board).iter().map(|&i| &self.classes[i])),
            None => Box::new(self.classes.iter()),
        }
    }

    /// [`Solution::value`], checking the invariant the answer rests on: the position is in
    /// at most one value class (classes are disjoint).
    ///
    /// # Errors
    /// [`crate::Error::Mismatch`] naming the two values if the position is in two classes (a
    /// forged or damaged solution).
    pub fn checked_value(&self, pos: &Position) -> crate::Result<Option<Outcome>> {
        let side = if self.mover_relative { Side::First } else { pos.side };
        let mut found = self.candidates(&pos.board).filter(|c| c.side == side && c.set.contains(&pos.board));
        let first = found.next().map(|c| c.outcome);
        if let (Some(first), Some(second)) = (first, found.next()) {
            return Err(in_two_classes(first, second.outcome));
        }
        Ok(first.or_else(|| self.rest_value(side, &pos.board)))
    }

    /// Longest forced win in plies, when the solution knows it: every non-empty win class
    /// has an exact distance (strong solves). A meet in the middle knows distances only for
    /// its backward plies, so the longest of those is not the longest win: `None`.
    pub fn longest_win(&self) -> Option<u32> {
        let mut longest = None;
        let classes = self.classes.iter().map(|c| (c.outcome, !c.set.is_empty()));
        for (outcome, held) in classes.chain(self.rest.iter().map(|r| (r.outcome, r.positions != Some(0)))) {
            if let Outcome::Win { plies } = outcome
                && held
            {
                let plies = plies?;
                longest = Some(longest.map_or(plies, |l: u32| l.max(plies)));
            }
        }
        longest
    }
}

/// The error for a position found in two value classes, `first` and `second`: a solution's
/// classes are disjoint, so the file is damaged or forged.
fn in_two_classes(first: Outcome, second: Outcome) -> crate::Error {
    crate::Error::Mismatch(format!(
        "the solution puts one position in two value classes ({first} and {second}): it is damaged or forged"
    ))
}
