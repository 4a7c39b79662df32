//! Classes of positions (`docs/solving.md`): a partition with a rank such that every move stays in
//! its class or goes to a lower one, so that a game can be solved one class at a time.

use crate::dfa::Dfa;

/// One class of a game's positions.
#[derive(Clone, Debug)]
pub struct PositionClass {
    /// A short name, unique in the game, usable in a file name (e.g. `4v3`).
    pub name: String,
    /// The positions of the class, whatever the side to move (intersected with each side's
    /// universe by the solver).
    pub set: Dfa,
    /// Indices, in the game's list of classes, of the lower classes that one move can lead
    /// to (each below this class's own index, each once: a one-class job reads each file
    /// once).
    pub successors: Vec<usize>,
}

/// Checks that `classes` are listed lowest first: every successor comes earlier, once.
///
/// # Panics
/// If a class names itself or a later class as a successor, or one successor twice.
pub fn check_order(classes: &[PositionClass]) {
    for (k, c) in classes.iter().enumerate() {
        for &s in &c.successors {
            assert!(s < k, "class {} lists {} as a successor, which is not lower", c.name, s);
        }
        let mut distinct = c.successors.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), c.successors.len(), "class {} lists a successor twice", c.name);
    }
}
