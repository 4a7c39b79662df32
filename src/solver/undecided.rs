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

use super::{PerSide, timed};
use crate::dfa::Dfa;
use crate::dfa::limits::Stoppable;
use crate::vocabulary::Side;

/// Whether a game can end in a draw, which decides what [`Undecided`] keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Draws {
    /// Every position is won or lost: the undecided positions run out.
    Never,
    /// Some positions may stay undecided to the end.
    Possible,
}

impl Draws {
    /// The game's answer to [`Rules::has_draws`](crate::game::Rules::has_draws).
    pub(super) fn of(has_draws: bool) -> Draws {
        if has_draws { Draws::Possible } else { Draws::Never }
    }
}

/// The undecided positions of each side, and the positions not won that the new wins may
/// be imaged within.
///
/// Invariants: `undecided[s] ⊆ not_won[s]`, both within the ongoing positions, and
/// `not_won[s] \ undecided[s]` holds only lost positions.
pub(super) struct Undecided {
    undecided: PerSide<Dfa>,
    /// Kept only for games with draws.
    not_won: Option<PerSide<Dfa>>,
}

impl Undecided {
    /// The ongoing positions that are neither `won` nor `lost`, keeping those not won as
    /// well when the game may end in `draws`.
    pub(super) fn new(
        ongoing: &PerSide<Dfa>,
        won: &PerSide<Dfa>,
        lost: &PerSide<Dfa>,
        draws: Draws,
    ) -> Stoppable<Undecided> {
        let not_won = ongoing.try_zip_map(won, |_, o, w| o.difference(w))?;
        let undecided = not_won.try_zip_map(lost, |_, n, l| n.difference(l))?;
        Ok(Undecided { undecided, not_won: (draws == Draws::Possible).then_some(not_won) })
    }

    /// The undecided positions, by side to move.
    pub(super) fn sets(&self) -> &PerSide<Dfa> {
        &self.undecided
    }

    /// DFA states of the undecided sets together (each shared set once).
    pub(super) fn state_count(&self) -> usize {
        self.undecided.iter().map(|(_, d)| d.nontrivial_state_count()).sum()
    }

    /// The set the new wins of side `s` are imaged within: the positions not won or the
    /// undecided ones, whichever has the smaller DFA.
    pub(super) fn for_wins(&self, s: Side) -> &Dfa {
        let undecided = &self.undecided[s];
        let Some(not_won) = &self.not_won else { return undecided };
        let (u, w) = (undecided.nontrivial_state_count(), not_won[s].nontrivial_state_count());
        tracing::debug!(target: "dfasolve::solver", "      within: undecided {u} states, not won {w}");
        if w < u { &not_won[s] } else { undecided }
    }

    /// Remove side `s`'s new wins `dw` and new losses `dl` (each within the undecided set).
    pub(super) fn settle(&mut self, s: Side, dw: &Dfa, dl: &Dfa) -> Stoppable<()> {
        // The smaller set first, and no copies for empty operands: on the largest classes a
        // copy of the undecided set took the solve past its budget.
        if let Some(not_won) = &mut self.not_won {
            timed!("not won", {
                not_won[s].subtract(dw)?;
                &not_won[s]
            });
        }
        timed!("undecided", {
            self.undecided[s].subtract(dw)?;
            self.undecided[s].subtract(dl)?;
            &self.undecided[s]
        });
        Ok(())
    }

    /// Every set held, named, so that a step that does not read them can park them on disk.
    pub(super) fn parts_mut(&mut self) -> Vec<(String, &mut Dfa)> {
        let mut parts: Vec<(String, &mut Dfa)> =
            self.undecided.iter_mut().map(|(s, d)| (format!("undecided/{s}"), d)).collect();
        if let Some(not_won) = &mut self.not_won {
            parts.extend(not_won.iter_mut().map(|(s, d)| (format!("not_won/{s}"), d)));
        }
        parts
    }

    /// Take side `s`'s undecided set out (leaving an empty one): the caller has parked it.
    pub(super) fn take(&mut self, s: Side) -> Dfa {
        let empty = Dfa::reject_all(self.undecided[s].shape());
        std::mem::replace(&mut self.undecided[s], empty)
    }

    /// The undecided positions, by side to move, once the pass is over.
    pub(super) fn into_sets(self) -> PerSide<Dfa> {
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
        let both = |d: &Dfa| PerSide::splat(super::super::Sides::Apart, d);
        let mut u = Undecided::new(&both(&ongoing), &both(&won), &both(&lost), Draws::Possible).unwrap();
        for s in Side::BOTH {
            assert_eq!(u.sets()[s], ongoing.difference(&won).unwrap().difference(&lost).unwrap());
            // "Not won" (first symbol 1 or 2) has fewer DFA states than the undecided set.
            assert_eq!(*u.for_wins(s), ongoing.difference(&won).unwrap());
            assert!(u.for_wins(s).nontrivial_state_count() < u.sets()[s].nontrivial_state_count());
        }
        let dw = set(&shape, &[[2, 0]]);
        let dl = set(&shape, &[[1, 2]]);
        u.settle(Side::First, &dw, &dl).unwrap();
        let undecided = ongoing
            .difference(&won)
            .unwrap()
            .difference(&lost)
            .unwrap()
            .difference(&dw)
            .unwrap()
            .difference(&dl)
            .unwrap();
        assert_eq!(u.sets()[Side::First], undecided);
        assert!(
            undecided.difference(u.for_wins(Side::First)).unwrap().is_empty(),
            "every undecided position stays within"
        );
        assert!(u.for_wins(Side::First).intersection(&won.union(&dw).unwrap()).unwrap().is_empty());
        let before = ongoing.difference(&won).unwrap().difference(&lost).unwrap();
        assert_eq!(u.sets()[Side::Second], before, "the other side is untouched");
        let without = Undecided::new(&both(&ongoing), &both(&won), &both(&lost), Draws::Never).unwrap();
        assert_eq!(without.for_wins(Side::Second), &without.sets()[Side::Second]);
        // Shared sides: settling either side settles the one set.
        let mut shared = Undecided::new(
            &PerSide::Shared(ongoing.clone()),
            &PerSide::Shared(won),
            &PerSide::Shared(lost),
            Draws::Possible,
        )
        .unwrap();
        shared.settle(Side::Second, &dw, &dl).unwrap();
        assert_eq!(shared.sets()[Side::First], undecided);
        assert_eq!(shared.parts_mut().len(), 2, "one undecided and one not-won set");
    }
}
