//! One retrograde pass: the iteration loop of the whole solve and of every class.
//!
//! The whole solve is the pass over the universe with no lower values; a class is the pass
//! over its own positions with the lower classes' values beside the opponent's newest sets
//! (formulas in the module docs of [`super`] and of `classes.rs`). The pass owns the
//! increments (spilled to disk with checkpoints), the running wins and the undecided
//! positions; one iteration is [`Solver::iteration`].

use super::lower::LowerValues;
use super::undecided::{Draws, Undecided};
use super::universe::UniverseSets;
use super::{PerSide, Solver, StepKey, timed};
use crate::dfa::Dfa;
use crate::dfa::limits::Stoppable;
use crate::error::Result;
use crate::record::{Phase, SetName};
use crate::solved::ValueClass;
use crate::vocabulary::Outcome;
use std::borrow::Cow;

/// Whether an iteration may take the second side's new sets from the first side's by the
/// game's side mirror ([`super::MirrorPolicy`] then decides when).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SecondSide {
    /// The sets of the pass are closed under the mirror (the whole universe).
    MayMirror,
    /// Always the second side's own images: a class's mirror image is another class.
    Imaged,
}

/// Value classes with exact distances, moved out of the increments of a retrograde pass (on
/// the largest boards the increments are most of the memory at the end, so they are not
/// copied).
pub(super) fn exact_classes(new_win: PerSide<Vec<Dfa>>, new_loss: PerSide<Vec<Dfa>>) -> Vec<ValueClass> {
    let mut classes = Vec::new();
    for ((s, wins), (_, losses)) in new_win.into_iter_sides().zip(new_loss.into_iter_sides()) {
        for (d, set) in wins.into_iter().enumerate().filter(|(_, set)| !set.is_empty()) {
            classes.push(ValueClass::new(s, Outcome::Win { plies: Some(d as u32) }, set));
        }
        for (d, set) in losses.into_iter().enumerate().filter(|(_, set)| !set.is_empty()) {
            classes.push(ValueClass::new(s, Outcome::Loss { plies: Some(d as u32) }, set));
        }
    }
    classes
}

/// How far a pass goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Depth {
    /// To the fixpoint.
    Fixpoint,
    /// At most this many iterations.
    Iterations(u32),
}

/// What a pass starts from: the positions it decides and the values it reads beside them.
pub(super) struct PassStart {
    /// The class solved (names the checkpoints); `None` for the whole universe.
    pub(super) class: Option<String>,
    /// The positions the pass decides, by side to move.
    pub(super) universe: PerSide<Dfa>,
    /// Those won and lost by rule or without a move (iteration 0).
    pub(super) won: PerSide<Dfa>,
    pub(super) lost: PerSide<Dfa>,
    /// The ongoing ones, neither won nor lost yet.
    pub(super) undecided: Undecided,
    /// Neither ongoing nor won nor lost: draws from the start.
    pub(super) settled_draws: PerSide<Dfa>,
    /// Where one move from the universe lands outside it, by side to move after the move
    /// (`None`: nowhere). The escape sets are taken within the universe and these.
    pub(super) landing: Option<PerSide<Dfa>>,
    /// The values of the positions outside the universe that moves reach.
    pub(super) lower: LowerValues,
    pub(super) second_side: SecondSide,
    pub(super) depth: Depth,
}

/// What a pass found.
pub(super) struct PassResult {
    /// `new_win[s][n]`: won in exactly `n` plies; likewise lost.
    pub(super) new_win: PerSide<Vec<Dfa>>,
    pub(super) new_loss: PerSide<Vec<Dfa>>,
    /// Every position won within the iterations done.
    pub(super) win: PerSide<Dfa>,
    /// The positions left undecided, and the draws from the start.
    pub(super) undecided: PerSide<Dfa>,
    pub(super) settled_draws: PerSide<Dfa>,
    /// Whether the fixpoint was reached.
    pub(super) complete: bool,
}

impl PassResult {
    /// Value classes with exact distances, then the draws (at the fixpoint, what is left
    /// undecided), moved out of the increments: on the largest boards they are most of the
    /// memory at the end.
    pub(super) fn into_values(self) -> Stoppable<Vec<ValueClass>> {
        let mut values = exact_classes(self.new_win, self.new_loss);
        for (s, undecided) in self.undecided.into_iter_sides() {
            let draws = undecided.union(&self.settled_draws[s])?;
            if !draws.is_empty() {
                values.push(ValueClass::new(s, Outcome::Draw, draws));
            }
        }
        Ok(values)
    }
}

/// The sets one iteration reads, borrowed from the pass.
pub(super) struct IterationInput<'p> {
    /// The iteration's number less one: it reads the increments of iteration `n`.
    pub(super) n: usize,
    pub(super) new_win: &'p PerSide<Vec<Dfa>>,
    pub(super) new_loss: &'p PerSide<Vec<Dfa>>,
    /// The lower values of distance `n`.
    pub(super) lower_win: PerSide<Dfa>,
    pub(super) lower_loss: PerSide<Dfa>,
    /// The lower wins of distance up to `n`.
    pub(super) lower_won_so_far: &'p PerSide<Dfa>,
    pub(super) reach: &'p PerSide<Dfa>,
    pub(super) second_side: SecondSide,
}

/// `own`, with `lower` added when there is any.
pub(super) fn with_lower<'a>(own: &'a Dfa, lower: &Dfa) -> Stoppable<Cow<'a, Dfa>> {
    Ok(if lower.is_empty() { Cow::Borrowed(own) } else { Cow::Owned(own.union(lower)?) })
}

impl Solver<'_> {
    /// The start of a pass over `sets` (the whole universe's, or a class's), with no lower
    /// values and no move landing outside (a class sets `landing` and adds its lower values).
    pub(super) fn pass_start(&self, sets: UniverseSets) -> Stoppable<PassStart> {
        let UniverseSets { universe, won, lost, ongoing, .. } = sets;
        let undecided = Undecided::new(&ongoing, &won, &lost, Draws::of(self.game.has_draws()))?;
        // Positions that are neither ongoing nor won or lost by rule (no move left) are
        // draws from the start; the ongoing ones that stay undecided are the others.
        let settled_draws =
            universe.try_map(|s, u| u.difference(&ongoing[s])?.difference(&won[s])?.difference(&lost[s]))?;
        let sides = universe.sharing();
        Ok(PassStart {
            class: None,
            landing: None,
            universe,
            won,
            lost,
            undecided,
            settled_draws,
            lower: LowerValues::none(sides),
            second_side: SecondSide::MayMirror,
            depth: Depth::Fixpoint,
        })
    }

    /// Run a pass from `start`: iteration after iteration until one adds nothing and no lower
    /// value has a larger distance (or the depth is reached).
    ///
    /// With a checkpoint directory, each iteration's increments are saved as it finishes, and
    /// all but the newest leave memory until the pass ends, when they are read back.
    ///
    /// # Errors
    /// Checkpoint files that cannot be written or read.
    pub(super) fn backward_pass(&mut self, start: PassStart) -> Result<PassResult> {
        let PassStart {
            class,
            universe,
            won,
            lost,
            mut undecided,
            settled_draws,
            landing,
            mut lower,
            second_side,
            depth,
        } = start;
        let empty = Dfa::reject_all(self.game.shape());
        let last_lower = lower.max_distance();
        self.recorder.set_class(class.clone());
        for (s, u) in universe.iter() {
            self.recorder.record(Phase::Backward, 0, s, SetName::Universe, u);
            self.recorder.record(Phase::Backward, 0, s, SetName::Loss, &lost[s]);
        }
        let reach = match landing {
            None => universe,
            Some(landing) => universe.try_zip_map(&landing, |_, u, l| u.union(l))?,
        };
        let mut new_win = won.map(|_, w| vec![w.clone()]);
        let mut win = won;
        let mut new_loss = lost.into_map(|_, l| vec![l]);
        let mut lower_won_so_far = reach.map(|_, _| empty.clone());
        let step_key = |n: usize| StepKey::Backward { class: class.clone(), iteration: n as u32 };
        let mut complete = false;
        let mut n = 0usize;
        // Iterations whose increments were dropped from memory after their checkpoint.
        let mut spilled: Vec<usize> = Vec::new();
        loop {
            if let Depth::Iterations(m) = depth
                && n >= m as usize
            {
                break;
            }
            let (lower_win, lower_loss) = self.lower_at(&mut lower, n, &empty)?;
            for (s, so_far) in lower_won_so_far.iter_mut() {
                if !lower_win[s].is_empty() {
                    *so_far = so_far.union(&lower_win[s])?;
                }
            }
            let step = step_key(n + 1);
            let (dw, dl) = match self.load_increments(&step, super::increments::Reading::Resumed)? {
                // A run stopped between the checkpoint and the removal of its journals left
                // them behind.
                Some(done) => {
                    self.forget_journals(&step);
                    done
                }
                None => {
                    crate::progress!("backward iteration {}: imaging the last new wins and losses", n + 1);
                    let input = IterationInput {
                        n,
                        new_win: &new_win,
                        new_loss: &new_loss,
                        lower_win,
                        lower_loss,
                        lower_won_so_far: &lower_won_so_far,
                        reach: &reach,
                        second_side,
                    };
                    let (dw, dl) = self.iteration(&step, input, &mut win, &mut undecided)?;
                    self.save_increments(&step, &dw, &dl)?;
                    self.forget_journals(&step);
                    (dw, dl)
                }
            };
            n += 1;
            let changed = dw.iter().chain(dl.iter()).any(|(_, d)| !d.is_empty());
            for ((s, dw), (_, dl)) in dw.into_iter_sides().zip(dl.into_iter_sides()) {
                new_win[s].push(dw);
                new_loss[s].push(dl);
            }
            // The older increments leave memory before the running sets are updated.
            self.spill_previous(n, &mut new_win, &mut new_loss, &mut spilled);
            for &s in win.sides() {
                let (dw, dl) = (&new_win[s][n], &new_loss[s][n]);
                timed!("win union", {
                    win[s].unite_with(dw)?;
                    &win[s]
                });
                undecided.settle(s, dw, dl)?;
                self.recorder.record(Phase::Backward, n as u32, s, SetName::NewWin, dw);
                self.recorder.record(Phase::Backward, n as u32, s, SetName::NewLoss, dl);
            }
            // Iteration n used the distance-(n - 1) lower values; nothing new can come after
            // the last lower distance once an iteration has added nothing.
            if !changed && last_lower.is_none_or(|d| n > d) {
                complete = true;
                break;
            }
        }
        self.recorder.set_class(None);
        self.restore_spilled(spilled, step_key, &mut new_win, &mut new_loss)?;
        Ok(PassResult { new_win, new_loss, win, undecided: undecided.into_sets(), settled_draws, complete })
    }
}
