//! Solving by classes (`docs/solving.md`): the game's classes of positions are solved from the lowest
//! up, each by a retrograde pass over its own positions only, in which the moves into lower
//! classes read those classes' final values.
//!
//! For a class `K` with lower values `LW_d`, `LL_d` (won, lost in exactly `d` plies, over the
//! classes one move can reach), iteration `n` of the pass is the whole-universe iteration
//! (module docs of [`super`]) with the opponent's newest sets taken over `K` and the lower
//! classes together:
//! * new wins: undecided positions of `K` with a move into `L_n^opp(K) ∪ LL_n^opp`;
//! * new losses: undecided positions of `K` with a move into `W_n^opp(K) ∪ LW_n^opp` and none
//!   outside the wins known so far, `W^opp(K) ∪ LW_{≤n}^opp`.
//!
//! A win in `d` through a lower class is found in iteration `d`, so distances stay exact. The
//! pass ends when an iteration adds nothing to `K` and no lower value has a larger distance;
//! what is left undecided in `K` is a draw.

use super::undecided::Undecided;
use super::{JournalPart, Solver, StepKey, retrograde, timed};
use crate::dfa::{Dfa, Shape};
use crate::error::{Error, Result};
use crate::games::solution::ClassValues;
use crate::games::{Mode, PositionClass, Solution, ValueClass};
use crate::record::Phase;
use crate::vocabulary::{Outcome, Side};
use std::borrow::Cow;
use std::path::Path;

/// The final values of the lower classes one move can reach, by side to move and distance,
/// kept only where the class's moves land (a lower class's file can be far larger than that:
/// 5x5's {5 v 4, 4 v 5} reaches 4 v 4 only by removing a piece).
struct LowerValues {
    /// `win[s][d]`: won in exactly `d` plies with `s` to move.
    win: [Vec<Dfa>; 2],
    /// `loss[s][d]`: lost in exactly `d` plies.
    loss: [Vec<Dfa>; 2],
    /// With checkpoints the sets wait on disk, one file per distance, and the vectors are
    /// empty: the largest distance parked there.
    parked: Option<Option<usize>>,
}

impl LowerValues {
    /// The union, per side and distance, of `values` (strong values: every win and loss has
    /// its distance) within `landing[side]`. Each owned value is dropped once read, so the
    /// peak is the values read plus their part within `landing`.
    fn new(shape: &Shape, values: Vec<Cow<'_, ValueClass>>, landing: &[Dfa; 2]) -> Result<LowerValues> {
        let mut parts: [[Vec<Vec<Dfa>>; 2]; 2] = Default::default();
        for v in values {
            let (kind, plies) = match v.outcome {
                Outcome::Win { plies: Some(d) } => (0, d as usize),
                Outcome::Loss { plies: Some(d) } => (1, d as usize),
                Outcome::Draw => continue,
                o => return Err(Error::Mismatch(format!("a lower class's value {o} has no exact distance"))),
            };
            let set = v.set.intersection(&landing[v.side.index()]);
            let by_distance = &mut parts[kind][v.side.index()];
            if by_distance.len() <= plies {
                by_distance.resize_with(plies + 1, Vec::new);
            }
            by_distance[plies].push(set);
        }
        let unite = |by_distance: Vec<Vec<Dfa>>| -> Vec<Dfa> {
            by_distance
                .into_iter()
                .map(|mut sets| match sets.len() {
                    1 => sets.pop().expect("one set"),
                    _ => Dfa::union_all(shape, &sets.iter().collect::<Vec<_>>()),
                })
                .collect()
        };
        let [[w0, w1], [l0, l1]] = parts;
        Ok(LowerValues { win: [unite(w0), unite(w1)], loss: [unite(l0), unite(l1)], parked: None })
    }

    /// DFA states of all the sets together (for the trace).
    fn nontrivial_state_count(&self) -> usize {
        self.win.iter().chain(&self.loss).flatten().map(Dfa::nontrivial_state_count).sum()
    }

    /// The largest distance of any lower value (`None` if there are none).
    fn max_distance(&self) -> Option<usize> {
        match self.parked {
            Some(max) => max,
            None => self.win.iter().chain(&self.loss).filter_map(|v| v.len().checked_sub(1)).max(),
        }
    }

    /// The values of distance `d` held in memory (wins, losses by side), moved out: each
    /// distance is read in one iteration only.
    fn take(&mut self, d: usize, empty: &Dfa) -> ([Dfa; 2], [Dfa; 2]) {
        let take = |sets: &mut Vec<Dfa>| {
            sets.get_mut(d).map_or_else(|| empty.clone(), |set| std::mem::replace(set, empty.clone()))
        };
        let [w0, w1] = &mut self.win;
        let [l0, l1] = &mut self.loss;
        ([take(w0), take(w1)], [take(l0), take(l1)])
    }
}

/// The checkpoint of the lower values of distance `d` read by class `class`.
fn lower_name(class: &str, d: usize) -> StepKey {
    StepKey::Lower { class: class.to_string(), distance: d as u32 }
}

/// The names of a distance's sets in its checkpoint.
const LOWER_ENTRIES: [&str; 4] = ["win/first", "win/second", "loss/first", "loss/second"];

/// The checkpoint of iteration `n` of class `class`'s retrograde pass.
fn step_name(class: &str, n: usize) -> StepKey {
    StepKey::Backward { class: Some(class.to_string()), iteration: n as u32 }
}

/// The running sets a loss step parks, each named as in its parked file.
fn running_sets<'a>(win: &'a mut [Dfa; 2], undecided: &'a mut Undecided) -> Vec<(String, &'a mut Dfa)> {
    let mut sets: Vec<(String, &mut Dfa)> = win.iter_mut().enumerate().map(|(i, d)| (format!("win/{i}"), d)).collect();
    sets.extend(undecided.parts_mut());
    sets
}

impl Solver<'_> {
    /// Solve every class of the game from the lowest up and put their values together: the
    /// same value classes as [`Mode::Strong`] over the whole universe, one entry per side and
    /// value (the classes' entries united). With `dir`, each class's values are saved there as a class file
    /// ([`ClassValues`]) as soon as it is solved, and a class whose file is already there is
    /// read instead of solved (so a stopped run loses at most the class under way).
    ///
    /// # Errors
    /// [`Error::BadParameters`] if the game declares no classes; class files of another game
    /// or corrupt; file errors.
    pub fn solve_by_classes(&mut self, dir: Option<&Path>) -> Result<Solution> {
        crate::dfa::limits::catch_engine_stop(|| self.solve_by_classes_unchecked(dir))?
    }

    fn solve_by_classes_unchecked(&mut self, dir: Option<&Path>) -> Result<Solution> {
        self.checkpoints.set_mode(Mode::Strong);
        let classes = self.declared_classes()?;
        // Which later class last needs each class's values, so that they leave memory then.
        let mut last_use: Vec<usize> = (0..classes.len()).collect();
        for (k, c) in classes.iter().enumerate() {
            for &s in &c.successors {
                last_use[s] = last_use[s].max(k);
            }
        }
        let mut values: Vec<Option<Vec<ValueClass>>> = vec![None; classes.len()];
        let mut done: Vec<ValueClass> = Vec::new();
        for (k, class) in classes.iter().enumerate() {
            let stored = dir.map(|d| ClassValues::path(d, &class.name)).filter(|p| p.exists());
            values[k] = Some(match stored {
                Some(path) => ClassValues::load(&path, Some(&self.game.params()), Some(&class.name))?.values,
                None => {
                    let lower: Vec<Cow<'_, ValueClass>> = class
                        .successors
                        .iter()
                        .flat_map(|&s| values[s].as_deref().expect("lower classes are solved first"))
                        .map(Cow::Borrowed)
                        .collect();
                    let solved = self.solve_class(class, &classes, lower)?;
                    self.save_class(dir, class, solved)?
                }
            });
            for s in class.successors.iter().copied().chain([k]) {
                if last_use[s] == k
                    && let Some(v) = values[s].take()
                {
                    done.extend(v);
                }
            }
        }
        done.extend(values.into_iter().flatten().flatten());
        let initial = self.game.initial();
        self.finish(Mode::Strong, initial, unite_by_value(done))
    }

    /// Solve the one class named `name`, reading the values of the lower classes it needs
    /// from their class files in `dir`, and save its own there: one job of a job array.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for a class the game does not have; [`Error::Mismatch`] naming a
    /// lower class whose file is missing, or is of another game or class; corrupt files.
    pub fn solve_one_class(&mut self, dir: &Path, name: &str) -> Result<ClassValues> {
        crate::dfa::limits::catch_engine_stop(|| self.solve_one_class_unchecked(dir, name))?
    }

    fn solve_one_class_unchecked(&mut self, dir: &Path, name: &str) -> Result<ClassValues> {
        self.checkpoints.set_mode(Mode::Strong);
        let classes = self.declared_classes()?;
        let Some(class) = classes.iter().find(|c| c.name == name) else {
            let names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
            return Err(Error::BadParameters(format!(
                "{} has no class {name:?} (its classes, lowest first: {})",
                self.game.name(),
                names.join(" ")
            )));
        };
        let mut lower = Vec::new();
        for &s in &class.successors {
            let path = ClassValues::path(dir, &classes[s].name);
            if !path.exists() {
                return Err(Error::Mismatch(format!(
                    "class {name} needs the values of class {}, and {} does not exist: solve that class first",
                    classes[s].name,
                    path.display()
                )));
            }
            let values = ClassValues::load(&path, Some(&self.game.params()), Some(&classes[s].name))?.values;
            lower.extend(values.into_iter().map(Cow::Owned));
        }
        let solved = self.solve_class(class, &classes, lower)?;
        let values = self.save_class(Some(dir), class, solved)?;
        Ok(ClassValues {
            params: self.game.params(),
            class: name.to_string(),
            values,
            mover_relative: self.game.mover_relative(),
        })
    }

    /// Side `s`'s escape filter with the running sets parked on disk (`{step}-parked`): the
    /// cumulative wins, the undecided positions and those not won are not read while it
    /// runs, and on the largest classes they are half the filter's memory
    /// (`docs/engine-notes.md`, `solver/`). `open` is the side's open positions, or `None`
    /// when they are its undecided positions, which are then handed to the filter rather than
    /// copied.
    fn park_and_filter(
        &self,
        step: &StepKey,
        s: Side,
        open: Option<Dfa>,
        escape: Dfa,
        win: &mut [Dfa; 2],
        undecided: &mut Undecided,
    ) -> Result<Dfa> {
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
            Some(open) => open,
            None => undecided.take(s.index()),
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

    /// With checkpoints, move the lower values to disk, one file per distance: each iteration
    /// reads one distance of them, and all of them are gigabytes on the largest classes.
    fn park_lower(&self, class: &str, lower: &mut LowerValues, empty: &Dfa) -> Result<()> {
        if !self.checkpoints.enabled() {
            return Ok(());
        }
        let max = lower.max_distance();
        for d in 0..=max.unwrap_or(0) {
            let (w, l) = lower.take(d, empty);
            let sets = [&w[0], &w[1], &l[0], &l[1]];
            let entries: Vec<(&str, &Dfa)> = LOWER_ENTRIES.into_iter().zip(sets).collect();
            self.checkpoints.save(&lower_name(class, d), &entries)?;
        }
        *lower = LowerValues { win: Default::default(), loss: Default::default(), parked: Some(max) };
        Ok(())
    }

    /// The lower values of distance `d` (wins, losses by side), from memory or from disk.
    fn lower_at(&self, class: &str, lower: &mut LowerValues, d: usize, empty: &Dfa) -> Result<([Dfa; 2], [Dfa; 2])> {
        let Some(max) = lower.parked else {
            return Ok(lower.take(d, empty));
        };
        if max.is_none_or(|m| d > m) {
            return Ok(([empty.clone(), empty.clone()], [empty.clone(), empty.clone()]));
        }
        let name = lower_name(class, d);
        let mut b = self
            .checkpoints
            .load(&name)?
            .ok_or_else(|| Error::Mismatch(format!("checkpoint {name} disappeared during the run")))?;
        let mut get = |k: &str| b.take(k, &name.to_string());
        let [w0, w1, l0, l1] = LOWER_ENTRIES;
        Ok(([get(w0)?, get(w1)?], [get(l0)?, get(l1)?]))
    }

    /// The game's classes, checked to be listed lowest first.
    fn declared_classes(&self) -> Result<Vec<PositionClass>> {
        let classes = self.game.classes();
        if classes.is_empty() {
            return Err(Error::BadParameters(format!("{} declares no classes", self.game.name())));
        }
        crate::games::class::check_order(&classes);
        Ok(classes)
    }

    /// Save a solved class's values under `dir` (if any) and hand them back.
    fn save_class(
        &self,
        dir: Option<&Path>,
        class: &PositionClass,
        values: Vec<ValueClass>,
    ) -> Result<Vec<ValueClass>> {
        let Some(dir) = dir else {
            return Ok(values);
        };
        // The directory given for the class files is this solve's to make.
        std::fs::create_dir_all(dir).map_err(|error| Error::Io { path: dir.to_path_buf(), error })?;
        let file = ClassValues {
            params: self.game.params(),
            class: class.name.clone(),
            values,
            mover_relative: self.game.mover_relative(),
        };
        file.save(&ClassValues::path(dir, &class.name))?;
        Ok(file.values)
    }

    /// Solve one class given the final values of the lower classes one move can reach
    /// (`lower`: the value classes of `class.successors`, from [`Solver::solve_class`] or
    /// their files; owned ones leave memory once their part where the class's moves land is
    /// taken). Returns the class's value classes, exact distances and draws.
    ///
    /// # Errors
    /// [`Error::Mismatch`] if a lower value has no exact distance; checkpoint I/O.
    pub fn solve_class(
        &mut self,
        class: &PositionClass,
        classes: &[PositionClass],
        lower: Vec<Cow<'_, ValueClass>>,
    ) -> Result<Vec<ValueClass>> {
        let shape = self.game.shape().clone();
        let empty = Dfa::reject_all(&shape);
        let sides = self.sides();
        let shared = self.game.mover_relative();
        let within = |sets: &[Dfa; 2]| [0, 1].map(|i| sets[i].intersection(&class.set));
        let universe = within(&self.universe);
        let (won, lost) = (within(&self.won), within(&self.lost));
        let ongoing = within(&self.ongoing);
        let mut undecided = Undecided::new(&ongoing, &won, &lost, self.game.has_draws());
        // Positions that are neither ongoing nor won or lost by rule (no move left) are
        // draws from the start; the ongoing ones that stay undecided are the others.
        let settled_draws =
            [0, 1].map(|i| universe[i].difference(&ongoing[i]).difference(&won[i]).difference(&lost[i]));
        drop(ongoing);
        // Where one move from the class can lead: the class, and the part of the lower
        // classes that its moves land on (by side to move after the move).
        let lower_sets = class.successors.iter().fold(empty.clone(), |acc, &s| acc.union(&classes[s].set));
        let mut landing = [empty.clone(), empty.clone()];
        for &s in sides {
            let o = if shared { s } else { s.other() };
            let image = timed!("landing", self.moves[s.index()].forward(&undecided.sets()[s.index()]));
            landing[o.index()] = image.intersection(&lower_sets).intersection(&self.universe[o.index()]);
        }
        drop(lower_sets);
        let mut lower = timed!("lower values", LowerValues::new(&shape, lower, &landing)?);
        let last_lower = lower.max_distance();
        self.park_lower(&class.name, &mut lower, &empty)?;
        let reach = [0, 1].map(|i| universe[i].union(&landing[i]));
        drop(landing);
        self.recorder.set_class(Some(class.name.clone()));
        for &s in sides {
            self.recorder.record(Phase::Backward, 0, s, "universe", &universe[s.index()]);
            self.recorder.record(Phase::Backward, 0, s, "loss", &lost[s.index()]);
        }
        let mut win = won.clone();
        let mut new_win: [Vec<Dfa>; 2] = [vec![won[0].clone()], vec![won[1].clone()]];
        let mut new_loss: [Vec<Dfa>; 2] = [vec![lost[0].clone()], vec![lost[1].clone()]];
        // The lower wins of distance up to the current iteration, by side.
        let mut lower_won_so_far = [empty.clone(), empty.clone()];
        let mut n = 0usize;
        // Iterations whose increments were dropped from memory after their checkpoint.
        let mut spilled: Vec<usize> = Vec::new();
        loop {
            let (lower_win, lower_loss) = self.lower_at(&class.name, &mut lower, n, &empty)?;
            for (so_far, newest) in lower_won_so_far.iter_mut().zip(&lower_win) {
                if !newest.is_empty() {
                    *so_far = so_far.union(newest);
                }
            }
            let step = step_name(&class.name, n + 1);
            // Past `park_above` DFA states the loss steps park the running sets on disk while
            // their escape filter runs (`park_and_filter`); the sides then take their steps in
            // turn, outside `both_sides`.
            let park = self.checkpoints.enabled()
                && undecided.sets().iter().map(Dfa::nontrivial_state_count).sum::<usize>() > self.park_above;
            let wins_of = |s: Side, undecided: &Undecided| -> Result<Dfa> {
                let (i, o) = (s.index(), if shared { s.index() } else { s.other().index() });
                let [win_journal, _] = self.journals(&step, s);
                let newest_loss = new_loss[o][n].union(&lower_loss[o]);
                let record = |groups: usize, sets: &[(u32, &Dfa)]| win_journal.record(groups, sets);
                let resume = win_journal.start(&record)?;
                let within = undecided.for_wins(i);
                Ok(timed!("new wins", self.moves[i].backward_within_resumable(&newest_loss, within, resume)))
            };
            // The positions a side's new losses lie among (`None`: its undecided positions) and
            // the set they must not move into; `None` when there can be no new losses.
            let losses_input = |s: Side,
                                dw: &Dfa,
                                win: &[Dfa; 2],
                                undecided: &Undecided|
             -> Option<(Option<Dfa>, Dfa)> {
                let (i, o) = (s.index(), if shared { s.index() } else { s.other().index() });
                let newest_win = new_win[o][n].union(&lower_win[o]);
                if newest_win.is_empty() {
                    return None;
                }
                let moves = &self.moves[i];
                let open =
                    retrograde::open_for_losses(moves, &newest_win, &undecided.sets()[i], dw, self.game.has_draws());
                drop(newest_win);
                if open.is_empty() {
                    return None;
                }
                let escape = timed!("escape", reach[o].difference(&win[o]).difference(&lower_won_so_far[o]));
                Some((
                    match open {
                        Cow::Borrowed(_) => None,
                        Cow::Owned(open) => Some(open),
                    },
                    escape,
                ))
            };
            let (dw, dl) = match self.load_increments(&step)? {
                Some(done) => {
                    self.forget_journals(&step);
                    done
                }
                None => {
                    let (dw, dl) = if park {
                        let mut dw = [empty.clone(), empty.clone()];
                        let mut dl = [empty.clone(), empty.clone()];
                        for &s in sides {
                            dw[s.index()] = wins_of(s, &undecided)?;
                        }
                        for &s in sides {
                            let Some((open, escape)) = losses_input(s, &dw[s.index()], &win, &undecided) else {
                                continue;
                            };
                            dl[s.index()] = self.park_and_filter(&step, s, open, escape, &mut win, &mut undecided)?;
                        }
                        (dw, dl)
                    } else {
                        // One side's new wins and new losses; the two sides only read the sets
                        // of the iteration before, so they may run side by side (as in the
                        // whole solve, except that a class's second side is always imaged).
                        self.both_sides(undecided.sets(), false, |s: Side| {
                            let dw = wins_of(s, &undecided)?;
                            let dl = match losses_input(s, &dw, &win, &undecided) {
                                Some((open, escape)) => {
                                    let open = open.map_or(Cow::Borrowed(&undecided.sets()[s.index()]), Cow::Owned);
                                    self.escape_filter(&step, s, open, &escape)?
                                }
                                None => empty.clone(),
                            };
                            Ok((dw, dl))
                        })?
                    };
                    self.save_increments(&step, &dw, &dl)?;
                    self.forget_journals(&step);
                    (dw, dl)
                }
            };
            n += 1;
            let changed = dw.iter().chain(&dl).any(|d| !d.is_empty());
            let [dw0, dw1] = dw;
            let [dl0, dl1] = dl;
            new_win[0].push(dw0);
            new_win[1].push(dw1);
            new_loss[0].push(dl0);
            new_loss[1].push(dl1);
            // The older increments leave memory before the running sets are updated.
            self.spill_previous(n, &mut new_win, &mut new_loss, &mut spilled);
            for &s in sides {
                let i = s.index();
                let (dw, dl) = (&new_win[i][n], &new_loss[i][n]);
                win[i].unite_with(dw);
                undecided.settle(i, dw, dl);
                self.recorder.record(Phase::Backward, n as u32, s, "new_win", dw);
                self.recorder.record(Phase::Backward, n as u32, s, "new_loss", dl);
            }
            // Iteration n used the distance-(n - 1) sets; nothing new can come after the last
            // lower distance once an iteration has added nothing.
            if !changed && last_lower.is_none_or(|d| n > d) {
                break;
            }
        }
        self.recorder.set_class(None);
        self.restore_spilled(spilled, |old| step_name(&class.name, old), &mut new_win, &mut new_loss)?;
        let mut values = retrograde::exact_classes(new_win, new_loss, sides);
        let undecided = undecided.into_sets();
        for &s in sides {
            let i = s.index();
            let draws = undecided[i].union(&settled_draws[i]);
            if !draws.is_empty() {
                values.push(ValueClass { side: s, outcome: Outcome::Draw, set: draws });
            }
        }
        Ok(values)
    }
}

/// One entry per (side, value): the union of the entries of every class with that value, in
/// the order each value first appears. A solution file holds each value once.
fn unite_by_value(classes: Vec<ValueClass>) -> Vec<ValueClass> {
    let mut united: Vec<ValueClass> = Vec::new();
    for c in classes {
        match united.iter_mut().find(|u| u.side == c.side && u.outcome == c.outcome) {
            Some(u) => u.set = u.set.union(&c.set),
            None => united.push(c),
        }
    }
    united.retain(|c| !c.set.is_empty());
    united
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfa::Shape;

    #[test]
    fn lower_values_unite_by_side_and_distance() {
        let shape = Shape::uniform(2, 3);
        let one = |s: &[u8]| Dfa::from_strings(&shape, &[s.to_vec()]);
        let v = |side, outcome, s: &[u8]| ValueClass { side, outcome, set: one(s) };
        let classes = [
            v(Side::First, Outcome::Win { plies: Some(1) }, &[0, 1]),
            v(Side::First, Outcome::Win { plies: Some(1) }, &[1, 1]),
            v(Side::Second, Outcome::Loss { plies: Some(0) }, &[2, 2]),
            v(Side::First, Outcome::Draw, &[0, 0]),
        ];
        let everywhere = [Dfa::accept_all(&shape), Dfa::accept_all(&shape)];
        let borrowed = || classes.iter().map(Cow::Borrowed).collect::<Vec<_>>();
        let lower = LowerValues::new(&shape, borrowed(), &everywhere).expect("exact values");
        assert_eq!(lower.win[0].len(), 2);
        assert_eq!(lower.win[0][1].count(), 2);
        assert!(lower.win[0][0].is_empty());
        assert_eq!(lower.loss[1][0], one(&[2, 2]));
        assert_eq!(lower.max_distance(), Some(1));
        // Only where the class's moves land: not [1, 1], nothing of the second side.
        let landing = [Dfa::from_strings(&shape, &[vec![0, 1], vec![0, 0]]), Dfa::reject_all(&shape)];
        let lower = LowerValues::new(&shape, borrowed(), &landing).expect("exact values");
        assert_eq!(lower.win[0][1], one(&[0, 1]));
        assert!(lower.loss[1].iter().all(Dfa::is_empty));
        let unknown = v(Side::First, Outcome::Win { plies: None }, &[0, 1]);
        assert!(LowerValues::new(&shape, vec![Cow::Owned(unknown)], &everywhere).is_err());
    }
}
