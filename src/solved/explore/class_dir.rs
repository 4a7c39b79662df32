//! [`Solved`] for a directory of class files, read in place: a position's answer opens its
//! own class's file and those its moves lead to ([`ClassesOnDisk`]), not the whole solution.

use super::dfa::look_by_values;
use super::{Look, Solved};
use crate::error::Result;
use crate::game::Game;
use crate::solved::ClassesOnDisk;

/// A class directory with its game; class files open as positions need them.
pub struct ClassDirSolved {
    game: Box<dyn Game>,
    classes: ClassesOnDisk,
}

impl ClassDirSolved {
    /// The directory's game and classes, as [`ClassesOnDisk::open`] finds them.
    pub fn new(game: Box<dyn Game>, classes: ClassesOnDisk) -> ClassDirSolved {
        ClassDirSolved { game, classes }
    }

    /// How many class files the answers so far have opened.
    pub fn classes_opened(&self) -> usize {
        self.classes.opened()
    }
}

impl Solved for ClassDirSolved {
    fn game(&self) -> String {
        self.game.name()
    }

    fn start(&self) -> String {
        self.game.render(&self.game.initial())
    }

    fn look(&self, text: &str) -> Result<Look> {
        let pos = self.game.parse(text)?;
        look_by_values(self.game.as_ref(), &pos, |p| self.classes.value(p))
    }
}
