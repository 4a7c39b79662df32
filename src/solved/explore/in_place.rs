//! [`Solved`] for solutions read in place: a class directory ([`ClassesOnDisk`]: a
//! position's answer opens its own class's file and those its moves lead to) and a solution
//! file too large to load ([`SolutionInPlace`]). Neither is loaded whole.

use super::dfa::look_by_values;
use super::{Look, Solved};
use crate::error::Result;
use crate::game::Game;
use crate::solved::ClassesOnDisk;
use crate::solved::solution::SolutionInPlace;
use crate::vocabulary::{Outcome, Position};

/// Values read from files as positions need them.
pub trait ValuesInPlace {
    /// The value of `pos` for its mover, or `None` if the solution does not value it.
    ///
    /// # Errors
    /// A damaged file, or a position in two value classes.
    fn value(&self, pos: &Position) -> Result<Option<Outcome>>;
}

impl ValuesInPlace for ClassesOnDisk {
    fn value(&self, pos: &Position) -> Result<Option<Outcome>> {
        ClassesOnDisk::value(self, pos)
    }
}

impl ValuesInPlace for SolutionInPlace {
    fn value(&self, pos: &Position) -> Result<Option<Outcome>> {
        SolutionInPlace::value(self, pos)
    }
}

/// A solution read in place, with its game.
pub struct ReadInPlace<V> {
    game: Box<dyn Game>,
    values: V,
}

/// A class directory read in place.
pub type ClassDirSolved = ReadInPlace<ClassesOnDisk>;
/// A solution file read in place.
pub type InPlaceSolved = ReadInPlace<SolutionInPlace>;

impl<V> ReadInPlace<V> {
    /// The game and its values, as [`ClassesOnDisk::open`] or [`SolutionInPlace::open`] find
    /// them.
    pub fn new(game: Box<dyn Game>, values: V) -> ReadInPlace<V> {
        ReadInPlace { game, values }
    }
}

impl ClassDirSolved {
    /// How many class files the answers so far have opened.
    pub fn classes_opened(&self) -> usize {
        self.values.opened()
    }
}

impl<V: ValuesInPlace> Solved for ReadInPlace<V> {
    fn game(&self) -> String {
        self.game.name()
    }

    fn start(&self) -> String {
        self.game.render(&self.game.initial())
    }

    fn look(&self, text: &str) -> Result<Look> {
        let pos = self.game.parse(text)?;
        look_by_values(self.game.as_ref(), &pos, |p| self.values.value(p))
    }
}
