//! Retrograde analysis: from the terminal positions back, one iteration per ply of distance,
//! to the fixpoint (or a given depth). See the formulas in the module docs of [`super`].

use super::journal::Journal;
use super::undecided::Undecided;
use super::{Solver, StepKey, timed};
use crate::dfa::Dfa;
use crate::error::{Error, Result};
use crate::games::ValueClass;
use crate::move_graph::Moves;
use crate::record::Phase;
use crate::vocabulary::{Outcome, Side};
use std::borrow::Cow;

/// Result of a retrograde pass: cumulative sets and exact-distance increments per side.
#[derive(Clone, Debug)]
pub struct Retrograde {
    /// `win[s]` = positions with `s` to move won within the iterations done.
    pub win: [Dfa; 2],
    /// `loss[s]` likewise lost.
    pub loss: [Dfa; 2],
    /// `new_win[s][n]` = won in exactly `n` plies.
    pub new_win: [Vec<Dfa>; 2],
    /// `new_loss[s][n]` = lost in exactly `n` plies.
    pub new_loss: [Vec<Dfa>; 2],
    /// Whether the fixpoint was reached.
    pub complete: bool,
}

/// The new wins and new losses of one iteration, by side to move.
type Increments = ([Dfa; 2], [Dfa; 2]);

/// Above this many undecided states (both sides together) a retrograde iteration computes the
/// two sides in turn rather than side by side, to halve its peak memory.
pub(super) const SIDES_IN_TURN_STATES: usize = 4_000_000;

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
pub(super) fn open_for_losses<'a>(
    moves: &Moves,
    newest_win: &Dfa,
    within: &'a Dfa,
    new_wins: &Dfa,
    draws: bool,
) -> Cow<'a, Dfa> {
    let open = if new_wins.is_empty() { Cow::Borrowed(within) } else { Cow::Owned(within.difference(new_wins)) };
    let narrow =
        draws && newest_win.nontrivial_state_count() * NARROW_RATIO.1 < open.nontrivial_state_count() * NARROW_RATIO.0;
    if narrow { Cow::Owned(timed!("candidates", moves.backward_within(newest_win, &open))) } else { open }
}

/// Newest wins below this fraction (numerator, denominator) of the open positions' DFA states
/// narrow the open positions first ([`open_for_losses`]).
const NARROW_RATIO: (usize, usize) = (2, 5);

/// The checkpoint of backward iteration `n`.
fn step_name(n: u32) -> StepKey {
    StepKey::Backward { class: None, iteration: n }
}

/// Value classes with exact distances, moved out of the increments of a retrograde pass (on
/// the largest boards the increments are most of the memory at the end, so they are not
/// copied).
pub(super) fn exact_classes(new_win: [Vec<Dfa>; 2], new_loss: [Vec<Dfa>; 2], sides: &[Side]) -> Vec<ValueClass> {
    let mut classes = Vec::new();
    for (s, (wins, losses)) in Side::BOTH.into_iter().zip(new_win.into_iter().zip(new_loss)) {
        if !sides.contains(&s) {
            continue;
        }
        for (d, set) in wins.into_iter().enumerate().filter(|(_, set)| !set.is_empty()) {
            classes.push(ValueClass { side: s, outcome: Outcome::Win { plies: Some(d as u32) }, set });
        }
        for (d, set) in losses.into_iter().enumerate().filter(|(_, set)| !set.is_empty()) {
            classes.push(ValueClass { side: s, outcome: Outcome::Loss { plies: Some(d as u32) }, set });
        }
    }
    classes
}

impl Solver<'_> {
    /// Retrograde analysis for at most `max_iterations` (to the fixpoint if `None`).
    ///
    /// With a checkpoint directory, each iteration's increments are saved as it finishes, and
    /// all but the newest leave memory until the pass ends, when they are read back.
    ///
    /// # Errors
    /// Checkpoint files that cannot be written or read.
    pub fn retrograde(&mut self, max_iterations: Option<u32>) -> Result<Retrograde> {
        // With mover-relative strings the first side stands for both; the second side's sets
        // stay as they start (never read).
        let sides = self.sides();
        let mut r = Retrograde {
            win: self.won.clone(),
            loss: self.lost.clone(),
            new_win: [vec![self.won[0].clone()], vec![self.won[1].clone()]],
            new_loss: [vec![self.lost[0].clone()], vec![self.lost[1].clone()]],
            complete: false,
        };
        for &s in sides {
            self.recorder.record(Phase::Backward, 0, s, "universe", &self.universe[s.index()]);
            self.recorder.record(Phase::Backward, 0, s, "loss", &r.loss[s.index()]);
        }
        // Ongoing positions not yet won or lost, kept up to date as the sets grow.
        let mut undecided = Undecided::new(&self.ongoing, &r.win, &r.loss, self.game.has_draws());
        let mut n = 0u32;
        // Iterations whose increments were dropped from memory after their checkpoint.
        let mut spilled: Vec<usize> = Vec::new();
        loop {
            if max_iterations.is_some_and(|m| n >= m) {
                break;
            }
            let name = step_name(n + 1);
            let (dw, dl) = match self.load_increments(&name)? {
                // A run stopped between the checkpoint and the removal of its journals left
                // them behind.
                Some(sets) => {
                    self.forget_journals(&name);
                    sets
                }
                None => {
                    let (dw, dl) = self.iteration(n, &r, &undecided, &name)?;
                    self.save_increments(&name, &dw, &dl)?;
                    self.forget_journals(&name);
                    (dw, dl)
                }
            };
            n += 1;
            let changed = dw.iter().chain(&dl).any(|d| !d.is_empty());
            let [dw0, dw1] = dw;
            let [dl0, dl1] = dl;
            r.new_win[0].push(dw0);
            r.new_win[1].push(dw1);
            r.new_loss[0].push(dl0);
            r.new_loss[1].push(dl1);
            // The older increments leave memory before the running sets are updated.
            self.spill_previous(n as usize, &mut r.new_win, &mut r.new_loss, &mut spilled);
            for &s in sides {
                let i = s.index();
                let (dw, dl) = (&r.new_win[i][n as usize], &r.new_loss[i][n as usize]);
                timed!("win union", {
                    r.win[i].unite_with(dw);
                    &r.win[i]
                });
                timed!("loss union", {
                    r.loss[i].unite_with(dl);
                    &r.loss[i]
                });
                undecided.settle(i, dw, dl);
                self.recorder.record(Phase::Backward, n, s, "new_win", dw);
                self.recorder.record(Phase::Backward, n, s, "new_loss", dl);
            }
            if !changed {
                r.complete = true;
                break;
            }
        }
        self.restore_spilled(spilled, |old| step_name(old as u32), &mut r.new_win, &mut r.new_loss)?;
        Ok(r)
    }

    /// Iteration `n + 1` (checkpointed as `step`): the new wins and new losses of each
    /// side, from the sets after iteration `n` and the positions still `undecided`.
    fn iteration(&self, n: u32, r: &Retrograde, undecided: &Undecided, step: &StepKey) -> Result<Increments> {
        self.both_sides(undecided.sets(), true, |s: Side| self.side_step(n, r, undecided, s, step))
    }

    /// One iteration's increments of both sides from `side_step` (one side's new wins and
    /// losses): once with mover-relative strings, else both sides, or the first side and
    /// its mirror image where `mirror` allows and the policy says so.
    pub(super) fn both_sides(
        &self,
        undecided: &[Dfa; 2],
        mirror: bool,
        side_step: impl Fn(Side) -> Result<(Dfa, Dfa)> + Sync,
    ) -> Result<Increments> {
        let shared = self.game.mover_relative();
        let empty = Dfa::reject_all(self.game.shape());
        // Large sets take the sides one after the other: each image is parallel inside, and
        // two at once would double the peak memory of the largest step.
        let large = undecided.iter().map(Dfa::state_count).sum::<usize>() > SIDES_IN_TURN_STATES;
        let ((dw0, dl0), (dw1, dl1)) = if shared {
            (side_step(Side::First)?, (empty.clone(), empty))
        } else if mirror && self.mirror.applies(large) {
            let (dw0, dl0) = side_step(Side::First)?;
            match rayon::join(|| self.mirror.apply(&dw0), || self.mirror.apply(&dl0)) {
                (Some(dw1), Some(dl1)) => ((dw0, dl0), (dw1, dl1)),
                // The rotation would cost more than the images it replaces.
                _ => ((dw0, dl0), side_step(Side::Second)?),
            }
        } else if large {
            (side_step(Side::First)?, side_step(Side::Second)?)
        } else {
            // The two sides of one iteration only read the previous iteration's sets, so they
            // run side by side.
            let (first, second) = rayon::join(|| side_step(Side::First), || side_step(Side::Second));
            (first?, second?)
        };
        Ok(([dw0, dw1], [dl0, dl1]))
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

    /// One side's new wins and new losses in iteration `n + 1`.
    fn side_step(&self, n: u32, r: &Retrograde, undecided: &Undecided, s: Side, step: &StepKey) -> Result<(Dfa, Dfa)> {
        let i = s.index();
        let o = if self.game.mover_relative() { i } else { s.other().index() };
        let moves = &self.moves[i];
        let [win_journal, _] = self.journals(step, s);
        // New wins: a move into a newest loss of the opponent.
        let newest_loss = &r.new_loss[o][n as usize];
        let record = |groups: usize, sets: &[(u32, &Dfa)]| win_journal.record(groups, sets);
        let resume = win_journal.start(&record)?;
        let dw = timed!("new wins", moves.backward_within_resumable(newest_loss, undecided.for_wins(i), resume));
        // New losses: undecided positions all of whose moves go into wins.
        let newest_win = &r.new_win[o][n as usize];
        let mut dl = Dfa::reject_all(newest_win.shape());
        if !newest_win.is_empty() {
            let open = open_for_losses(moves, newest_win, &undecided.sets()[i], &dw, self.game.has_draws());
            if !open.is_empty() {
                let escape = timed!("escape", self.universe[o].difference(&r.win[o]));
                dl = self.escape_filter(step, s, open, &escape)?;
            }
        }
        Ok((dw, dl))
    }

    /// With checkpoints, drop iteration `n - 1`'s increments from memory once iteration `n`'s
    /// are in: only the newest are read from here on, and the older wait on disk until the
    /// pass ends (held, they grow to gigabytes on long solves). `spilled` lists them.
    pub(super) fn spill_previous(
        &self,
        n: usize,
        new_win: &mut [Vec<Dfa>; 2],
        new_loss: &mut [Vec<Dfa>; 2],
        spilled: &mut Vec<usize>,
    ) {
        if n < 2 || !self.checkpoints.enabled() {
            return;
        }
        let empty = Dfa::reject_all(self.game.shape());
        for i in 0..2 {
            new_win[i][n - 1] = empty.clone();
            new_loss[i][n - 1] = empty.clone();
        }
        spilled.push(n - 1);
    }

    /// Read back the increments [`Solver::spill_previous`] dropped, from the checkpoints
    /// `name(iteration)`.
    pub(super) fn restore_spilled(
        &self,
        spilled: Vec<usize>,
        name: impl Fn(usize) -> StepKey,
        new_win: &mut [Vec<Dfa>; 2],
        new_loss: &mut [Vec<Dfa>; 2],
    ) -> Result<()> {
        for old in spilled {
            let name = name(old);
            let ([w0, w1], [l0, l1]) = self
                .load_increments(&name)?
                .ok_or_else(|| Error::Mismatch(format!("checkpoint {name} disappeared during the run")))?;
            (new_win[0][old], new_win[1][old], new_loss[0][old], new_loss[1][old]) = (w0, w1, l0, l1);
        }
        Ok(())
    }

    /// Checkpoint one finished iteration's increments under `name` (nothing without a
    /// checkpoint directory).
    pub(super) fn save_increments(&self, name: &StepKey, dw: &[Dfa; 2], dl: &[Dfa; 2]) -> Result<()> {
        let sides = self.sides();
        let names: Vec<(String, String)> =
            sides.iter().map(|s| (format!("new_win/{s}"), format!("new_loss/{s}"))).collect();
        let mut entries: Vec<(&str, &Dfa)> = Vec::new();
        for (&s, (win_name, loss_name)) in sides.iter().zip(&names) {
            entries.push((win_name, &dw[s.index()]));
            entries.push((loss_name, &dl[s.index()]));
        }
        self.checkpoints.save(name, &entries)
    }

    /// The increments (new wins, new losses, by side) of one finished iteration, from its
    /// checkpoint, if there is one.
    pub(super) fn load_increments(&self, name: &StepKey) -> Result<Option<Increments>> {
        let Some(mut b) = self.checkpoints.load(name)? else {
            return Ok(None);
        };
        // Moved out of the bundle, not copied: late iterations' sets are large.
        let mut get = |k: &str| b.take(k, &name.to_string());
        if self.game.mover_relative() {
            let empty = Dfa::reject_all(self.game.shape());
            Ok(Some(([get("new_win/first")?, empty.clone()], [get("new_loss/first")?, empty])))
        } else {
            Ok(Some((
                [get("new_win/first")?, get("new_win/second")?],
                [get("new_loss/first")?, get("new_loss/second")?],
            )))
        }
    }
}
