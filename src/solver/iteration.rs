//! One iteration of a retrograde pass: each side's new wins and new losses from the sets
//! of the iteration before.
//!
//! * New wins: undecided positions with a move into a newest loss of the opponent (its own
//!   or a lower class's of the same distance).
//! * New losses: undecided positions with a move into a newest win of the opponent and none
//!   into the escape set, the opponent's positions not known to be won (the escape filter).

use super::journal::Journal;
use super::mirror::SidesComputed;
use super::pass::{IterationInput, SecondSide, with_lower};
use super::undecided::{Draws, Undecided};
use super::{JournalPart, PerSide, Solver, StepKey, timed};
use crate::dfa::Dfa;
use crate::dfa::limits::Stoppable;
use crate::error::{Error, Result};
use crate::move_graph::Moves;
use crate::vocabulary::Side;
use std::borrow::Cow;

/// Above this many undecided states (both sides together) a retrograde iteration computes the
/// two sides in turn rather than side by side, to halve its peak memory.
pub(super) const SIDES_IN_TURN_STATES: usize = 4_000_000;

/// Newest wins below this fraction (numerator, denominator) of the open positions' DFA states
/// narrow the open positions first ([`open_for_losses`]).
const NARROW_RATIO: (usize, usize) = (2, 5);

/// The positions among which the new losses lie: the undecided ones (`within`) not newly
/// won, narrowed to those with a move into a newest win of the opponent when that is likely
/// to pay.
///
/// A new loss has such a move (had all its moves gone into older wins, an earlier iteration
/// would have found it), so either set gives the same losses; the narrower one makes the
/// escape image cheaper, at the price of an image of its own. Without draws the undecided
/// positions run out, and one image over them is faster. With draws it depends on how many
/// newest wins there are beside the open positions, in DFA states: narrowing pays below a
/// ratio of about 0.4 and costs well above it (`docs/engine-notes.md`, new losses in one image
/// or two). Both ways are taken in the small variants checked against explicit tables.
///
/// When nothing was newly won (every other iteration, as wins and losses alternate) the
/// `within` set is borrowed, not copied: it is gigabytes on the largest classes.
fn open_for_losses<'a>(
    moves: &Moves,
    newest_win: &Dfa,
    within: &'a Dfa,
    new_wins: &Dfa,
    draws: Draws,
) -> Stoppable<Cow<'a, Dfa>> {
    let open = if new_wins.is_empty() { Cow::Borrowed(within) } else { Cow::Owned(within.difference(new_wins)?) };
    let narrow = draws == Draws::Possible
        && newest_win.nontrivial_state_count() * NARROW_RATIO.1 < open.nontrivial_state_count() * NARROW_RATIO.0;
    Ok(if narrow { Cow::Owned(timed!("candidates", moves.backward_within(newest_win, &open)?)) } else { open })
}

/// What a side's escape filter takes: the positions its new losses lie among and the set
/// they must not move into.
struct LossStep {
    open: Open,
    escape: Dfa,
}

/// The positions a side's new losses lie among.
enum Open {
    /// Its undecided positions, handed to the filter as they are.
    Undecided,
    /// Fewer: those not newly won, or those with a move into a newest win.
    Narrowed(Dfa),
}

impl Solver<'_> {
    /// The new wins and new losses of each side in the iteration checkpointed as `step`.
    /// Past the park threshold (with checkpoints, and no side mirror to halve the work) the
    /// sides take their loss steps in turn with the running sets parked on disk.
    pub(super) fn iteration(
        &self,
        step: &StepKey,
        input: IterationInput<'_>,
        win: &mut PerSide<Dfa>,
        undecided: &mut Undecided,
    ) -> Result<(PerSide<Dfa>, PerSide<Dfa>)> {
        let mirrors = input.second_side == SecondSide::MayMirror && self.mirror.applies(SidesComputed::InTurn);
        let park = self.checkpoints.enabled() && !mirrors && undecided.state_count() > self.park_above;
        if !park {
            let (win, undecided) = (&*win, &*undecided);
            return self.both_sides(undecided.sets(), input.second_side, |s: Side| {
                let dw = self.new_wins(step, &input, s, undecided)?;
                let dl = match self.loss_step(&input, s, &dw, win, undecided)? {
                    Some(LossStep { open, escape }) => {
                        let open = match open {
                            Open::Undecided => Cow::Borrowed(&undecided.sets()[s]),
                            Open::Narrowed(open) => Cow::Owned(open),
                        };
                        self.escape_filter(step, s, open, &escape)?
                    }
                    None => Dfa::reject_all(self.game.shape()),
                };
                Ok((dw, dl))
            });
        }
        let empty = Dfa::reject_all(self.game.shape());
        let mut dw = win.map(|_, _| empty.clone());
        let mut dl = dw.clone();
        for &s in win.sides() {
            dw[s] = self.new_wins(step, &input, s, undecided)?;
        }
        for &s in win.sides() {
            if let Some(loss_step) = self.loss_step(&input, s, &dw[s], win, undecided)? {
                dl[s] = self.park_and_filter(step, s, loss_step, win, undecided)?;
            }
        }
        Ok((dw, dl))
    }

    /// Side `s`'s new wins: a move into a newest loss of the opponent.
    fn new_wins(&self, step: &StepKey, input: &IterationInput<'_>, s: Side, undecided: &Undecided) -> Result<Dfa> {
        let o = s.other();
        let [win_journal, _] = self.journals(step, s);
        let newest_loss = with_lower(&input.new_loss[o][input.n], &input.lower_loss[o])?;
        let record = |groups: usize, sets: &[(u32, &Dfa)]| win_journal.record(groups, sets);
        let resume = win_journal.start(&record)?;
        Ok(timed!("new wins", self.moves[s].backward_within_resumable(&newest_loss, undecided.for_wins(s), resume)?))
    }

    /// Side `s`'s escape filter's input, given its new wins `dw`; `None` when there can be
    /// no new losses.
    fn loss_step(
        &self,
        input: &IterationInput<'_>,
        s: Side,
        dw: &Dfa,
        win: &PerSide<Dfa>,
        undecided: &Undecided,
    ) -> Stoppable<Option<LossStep>> {
        let o = s.other();
        let newest_win = with_lower(&input.new_win[o][input.n], &input.lower_win[o])?;
        if newest_win.is_empty() {
            return Ok(None);
        }
        let draws = Draws::of(self.game.has_draws());
        let open = open_for_losses(&self.moves[s], &newest_win, &undecided.sets()[s], dw, draws)?;
        drop(newest_win);
        if open.is_empty() {
            return Ok(None);
        }
        let escape = timed!("escape", {
            let not_won = input.reach[o].difference(&win[o])?;
            let so_far = &input.lower_won_so_far[o];
            if so_far.is_empty() { not_won } else { not_won.difference(so_far)? }
        });
        let open = match open {
            Cow::Borrowed(_) => Open::Undecided,
            Cow::Owned(open) => Open::Narrowed(open),
        };
        Ok(Some(LossStep { open, escape }))
    }

    /// Both sides' increments from `side_step` (one side's new wins and losses): once when
    /// the sides share their sets, else both sides, or the first side and its mirror image
    /// where `second_side` allows and the policy says so.
    fn both_sides(
        &self,
        undecided: &PerSide<Dfa>,
        second_side: SecondSide,
        side_step: impl Fn(Side) -> Result<(Dfa, Dfa)> + Sync,
    ) -> Result<(PerSide<Dfa>, PerSide<Dfa>)> {
        if undecided.is_shared() {
            let (dw, dl) = side_step(Side::First)?;
            return Ok((PerSide::Shared(dw), PerSide::Shared(dl)));
        }
        // Large sets take the sides one after the other: each image is parallel inside, and
        // two at once would double the peak memory of the largest step.
        let sides = if undecided.iter().map(|(_, d)| d.state_count()).sum::<usize>() > SIDES_IN_TURN_STATES {
            SidesComputed::InTurn
        } else {
            SidesComputed::Together
        };
        let (first, second) = if second_side == SecondSide::MayMirror && self.mirror.applies(sides) {
            let (dw0, dl0) = side_step(Side::First)?;
            match rayon::join(|| self.mirror.apply(&dw0), || self.mirror.apply(&dl0)) {
                (Ok(Some(dw1)), Ok(Some(dl1))) => ((dw0, dl0), (dw1, dl1)),
                (Err(stop), _) | (_, Err(stop)) => return Err(stop.into()),
                // The rotation would cost more than the images it replaces.
                _ => ((dw0, dl0), side_step(Side::Second)?),
            }
        } else if sides == SidesComputed::InTurn {
            (side_step(Side::First)?, side_step(Side::Second)?)
        } else {
            // The two sides of one iteration only read the previous iteration's sets, so they
            // run side by side.
            let (first, second) = rayon::join(|| side_step(Side::First), || side_step(Side::Second));
            (first?, second?)
        };
        Ok((PerSide::Apart([first.0, second.0]), PerSide::Apart([first.1, second.1])))
    }

    /// Side `s`'s escape filter with the running sets parked on disk (`{step}-parked`): the
    /// cumulative wins, the undecided positions and those not won are not read while it
    /// runs, and on the largest classes they are half the filter's memory
    /// (`docs/engine-notes.md`, `solver/`). Undecided open positions are handed to the filter
    /// rather than copied.
    fn park_and_filter(
        &self,
        step: &StepKey,
        s: Side,
        loss_step: LossStep,
        win: &mut PerSide<Dfa>,
        undecided: &mut Undecided,
    ) -> Result<Dfa> {
        let LossStep { open, escape } = loss_step;
        let name = step.journal(s, JournalPart::Parked);
        let empty = Dfa::reject_all(self.game.shape());
        let parts = running_sets(win, undecided);
        let entries: Vec<(&str, &Dfa)> = parts.iter().map(|(k, d)| (k.as_str(), &**d)).collect();
        timed!("park", {
            self.checkpoints.save(&name, &entries)?;
            &empty
        });
        drop(entries);
        let open = match open {
            Open::Narrowed(open) => open,
            Open::Undecided => undecided.take(s),
        };
        for (_, d) in running_sets(win, undecided) {
            *d = empty.clone();
        }
        let dl =
            self.escape_filter(step, s, Cow::Owned(open), &escape).inspect_err(|_| self.checkpoints.remove(&name))?;
        // The escape set leaves memory before the parked sets come back: the two together
        // are the class solve's peak.
        drop(escape);
        let mut bundle = self
            .checkpoints
            .load(&name)?
            .ok_or_else(|| Error::Mismatch(format!("checkpoint {name} disappeared during the run")))?;
        for (k, d) in running_sets(win, undecided) {
            *d = bundle.take(&k, &name.to_string())?;
        }
        self.checkpoints.remove(&name);
        Ok(dl)
    }

    /// The journals of side `s`'s new wins and new losses in the iteration checkpointed as
    /// `step` (see [`Journal`]).
    pub(super) fn journals(&self, step: &StepKey, s: Side) -> [Journal<'_>; 2] {
        Journal::pair(&self.checkpoints, step, s, self.journal_every)
    }

    /// Remove the journals of the iteration checkpointed as `step`, now that it is.
    pub(super) fn forget_journals(&self, step: &StepKey) {
        for s in Side::BOTH {
            self.journals(step, s).iter().for_each(Journal::remove);
            self.forget_part_journals(step, s);
        }
    }
}

/// The running sets a loss step parks, each named as in its parked file.
fn running_sets<'a>(win: &'a mut PerSide<Dfa>, undecided: &'a mut Undecided) -> Vec<(String, &'a mut Dfa)> {
    let mut sets: Vec<(String, &mut Dfa)> = win.iter_mut().map(|(s, d)| (format!("win/{s}"), d)).collect();
    sets.extend(undecided.parts_mut());
    sets
}
