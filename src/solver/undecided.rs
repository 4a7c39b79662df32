//! The positions a retrograde iteration's images run within.
//!
//! Every image of an iteration explores only inside a set of positions (`within`). The
//! undecided positions are the obvious choice, but subtracting both the wins and the losses
//! from the ongoing positions makes a DFA larger than either: on Ostle's large classes several
//! times larger than the positions not won (`docs/engine-notes.md`, `solver/`).
//!
//! The new wins are the same within the positions not won: a lost position has every move
//! into a win of the opponent, so none into one of the opponent's newest losses. Their image
//! takes whichever of the two sets has the fewer DFA states.
//!
//! The new losses are likewise the same within the positions not lost (a won position
//! always has a move into a loss, which escapes), but that set is not kept: the escape filter
//! was slower within it even where its DFA was the smaller, as it must look at the won
//! positions' moves too. Without draws the undecided positions run out, and keeping the
//! positions not won made Breakthrough slower, so they are kept only for games with draws.

use super::timed;
use crate::dfa::Dfa;

/// The undecided positions of both sides, and the positions not won that the new wins may
/// be imaged within.
///
/// Invariants: `undecided[i] ⊆ not_won[i]`, both within the ongoing positions, and
/// `not_won[i] \ undecided[i]` holds only lost positions.
pub(super) struct Undecided {
    undecided: [Dfa; 2],
    /// Kept only for games with draws.
    not_won: Option<[Dfa; 2]>,
}

impl Undecided {
    /// The ongoing positions that are neither `won` nor `lost`, keeping those not won as
    /// well when the game has `draws`.
    pub(super) fn new(ongoing: &[Dfa; 2], won: &[Dfa; 2], lost: &[Dfa; 2], draws: bool) -> Undecided {
        let not_won = [0, 1].map(|i| ongoing[i].difference(&won[i]));
        let undecided = [0, 1].map(|i| not_won[i].difference(&lost[i]));
        Undecided { undecided, not_won: draws.then_some(not_won) }
    }

    /// The undecided positions, by side to move.
    pub(super) fn sets(&self) -> &[Dfa; 2] {
        &self.undecided
    }

    /// The set the new wins of side `i` are imaged within: the positions not won or the
    /// undecided ones, whichever has the smaller DFA.
    pub(super) fn for_wins(&self, i: usize) -> &Dfa {
        let undecided = &self.undecided[i];
        let Some(not_won) = &self.not_won else { return undecided };
        let (u, w) = (undecided.nontrivial_state_count(), not_won[i].nontrivial_state_count());
        tracing::debug!(target: "dfasolve::solver", "      within: undecided {u} states, not won {w}");
        if w < u { &not_won[i] } else { undecided }
    }

    /// Remove side `i`'s new wins `dw` and new losses `dl` (each within the undecided set).
    pub(super) fn settle(&mut self, i: usize, dw: &Dfa, dl: &Dfa) {
        // The smaller set first, and no copies for empty operands: on the largest classes a
        // copy of the undecided set took the solve past its budget.
        if let Some(not_won) = &mut self.not_won {
            timed!("not won", {
                not_won[i].subtract(dw);
                &not_won[i]
            });
        }
        timed!("undecided", {
            self.undecided[i].subtract(dw);
            self.undecided[i].subtract(dl);
            &self.undecided[i]
        });
    }

    /// Every set held, named, so that a step that does not read them can park them on disk.
    pub(super) fn parts_mut(&mut self) -> Vec<(String, &mut Dfa)> {
        let mut parts: Vec<(String, &mut Dfa)> =
            self.undecided.iter_mut().enumerate().map(|(i, d)| (format!("undecided/{i}"), d)).collect();
        if let Some(not_won) = &mut self.not_won {
            parts.extend(not_won.iter_mut().enumerate().map(|(i, d)| (format!("not_won/{i}"), d)));
        }
        parts
    }

    /// Take side `i`'s undecided set out (leaving an empty one): the caller has parked it.
    pub(super) fn take(&mut self, i: usize) -> Dfa {
        let empty = Dfa::reject_all(self.undecided[i].shape());
        std::mem::replace(&mut self.undecided[i], empty)
    }

    /// The undecided positions, by side to move, once the pass is over.
    pub(super) fn into_sets(self) -> [Dfa; 2] {
        self.undecided
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfa::Shape;

    fn set(shape: &Shape, members: &[[u8; 2]]) -> Dfa {
        Dfa::from_strings(shape, &members.iter().map(|m| m.to_vec()).collect::<Vec<_>>())
    }

    #[test]
    fn new_wins_run_within_the_smaller_set_and_settling_keeps_the_invariants() {
        let shape = Shape::uniform(2, 3);
        let all: Vec<Vec<u8>> = (0..9u8).map(|k| vec![k / 3, k % 3]).collect();
        let ongoing = Dfa::from_strings(&shape, &all);
        let won = set(&shape, &[[0, 0], [0, 1], [0, 2]]);
        let lost = set(&shape, &[[1, 1]]);
        let both = |d: &Dfa| [d.clone(), d.clone()];
        let mut u = Undecided::new(&both(&ongoing), &both(&won), &both(&lost), true);
        for i in 0..2 {
            assert_eq!(u.sets()[i], ongoing.difference(&won).difference(&lost));
            // "Not won" (first symbol 1 or 2) has fewer DFA states than the undecided set.
            assert_eq!(*u.for_wins(i), ongoing.difference(&won));
            assert!(u.for_wins(i).nontrivial_state_count() < u.sets()[i].nontrivial_state_count());
        }
        let dw = set(&shape, &[[2, 0]]);
        let dl = set(&shape, &[[1, 2]]);
        u.settle(0, &dw, &dl);
        let undecided = ongoing.difference(&won).difference(&lost).difference(&dw).difference(&dl);
        assert_eq!(u.sets()[0], undecided);
        assert!(undecided.difference(u.for_wins(0)).is_empty(), "every undecided position stays within");
        assert!(u.for_wins(0).intersection(&won.union(&dw)).is_empty());
        assert_eq!(u.sets()[1], ongoing.difference(&won).difference(&lost), "the other side is untouched");
        let without = Undecided::new(&both(&ongoing), &both(&won), &both(&lost), false);
        assert_eq!(without.for_wins(1), &without.sets()[1]);
    }
}
