//! Where a solution made of class files finds a position's value: the classes' own sets (a
//! partition of the positions) and, per class, which value classes came from its file. A
//! lookup scans the classes' sets and then one class's values, instead of every value class
//! of every file (5x6 Breakthrough: 121 classes against 3,842 value classes).

use crate::dfa::{Dfa, Symbol};

/// The value classes of a solution, grouped by the class of positions they belong to.
///
/// Invariant: the sets are disjoint, and every value class listed for a class holds only
/// positions of that class's set (a class file holds the values of its class).
#[derive(Clone, Debug, Default)]
pub struct ClassIndex {
    classes: Vec<(Dfa, Vec<usize>)>,
}

impl ClassIndex {
    /// Record that the value classes `values` (indices into the solution's classes) belong to
    /// the class of positions `set`.
    pub fn add(&mut self, set: Dfa, values: std::ops::Range<usize>) {
        self.classes.push((set, values.collect()));
    }

    /// The value classes that can hold `board`: those of its class, or none if no class holds
    /// it.
    pub fn candidates(&self, board: &[Symbol]) -> &[usize] {
        self.classes.iter().find(|(set, _)| set.contains(board)).map_or(&[], |(_, values)| values)
    }
}
