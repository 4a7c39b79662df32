//! The values a retrograde pass reads beside its own: the final values of the lower classes
//! one move can reach when solving by classes, none for the whole universe.

use super::{PerSide, Sides, Solver, StepKey};
use crate::dfa::limits::Stoppable;
use crate::dfa::{Dfa, Shape};
use crate::error::{Error, Result};
use crate::solved::ValueClass;
use crate::vocabulary::{Outcome, Side};
use std::borrow::Cow;

/// The final values of the lower classes one move can reach, by side to move and distance,
/// kept only where the class's moves land (a lower class's file can be far larger than that:
/// 5x5's {5 v 4, 4 v 5} reaches 4 v 4 only by removing a piece).
pub(super) struct LowerValues {
    /// `win[s][d]`: won in exactly `d` plies with `s` to move.
    win: PerSide<Vec<Dfa>>,
    /// `loss[s][d]`: lost in exactly `d` plies.
    loss: PerSide<Vec<Dfa>>,
    held: Held,
}

/// Where the lower values are.
enum Held {
    /// In the vectors.
    InMemory,
    /// On disk, one checkpoint per distance named after the class, the vectors empty.
    Parked {
        /// The class reading them.
        class: String,
        /// The largest distance parked (`None`: there were no values).
        last: Option<usize>,
    },
}

impl LowerValues {
    /// No values: a pass over the whole universe.
    pub(super) fn none(sides: Sides) -> LowerValues {
        LowerValues {
            win: PerSide::new(sides, |_| Vec::new()),
            loss: PerSide::new(sides, |_| Vec::new()),
            held: Held::InMemory,
        }
    }

    /// The union, per side and distance, of `values` (strong values: every win and loss has
    /// its distance) within `landing[side]`. Each owned value is dropped once read, so the
    /// peak is the values read plus their part within `landing`.
    pub(super) fn new(shape: &Shape, values: Vec<Cow<'_, ValueClass>>, landing: &PerSide<Dfa>) -> Result<LowerValues> {
        let mut win_parts: PerSide<Vec<Vec<Dfa>>> = landing.map(|_, _| Vec::new());
        let mut loss_parts = win_parts.clone();
        for v in values {
            let (parts, plies) = match v.outcome {
                Outcome::Win { plies: Some(d) } => (&mut win_parts, d as usize),
                Outcome::Loss { plies: Some(d) } => (&mut loss_parts, d as usize),
                Outcome::Draw => continue,
                o => return Err(Error::Mismatch(format!("a lower class's value {o} has no exact distance"))),
            };
            let set = v.set.intersection(&landing[v.side])?;
            let by_distance = &mut parts[v.side];
            if by_distance.len() <= plies {
                by_distance.resize_with(plies + 1, Vec::new);
            }
            by_distance[plies].push(set);
        }
        let unite = |_: Side, by_distance: Vec<Vec<Dfa>>| -> Stoppable<Vec<Dfa>> {
            by_distance
                .into_iter()
                .map(|mut sets| match sets.len() {
                    1 => Ok(sets.pop().expect("one set")),
                    _ => Dfa::union_all(shape, &sets.iter().collect::<Vec<_>>()),
                })
                .collect()
        };
        Ok(LowerValues {
            win: win_parts.try_into_map(unite)?,
            loss: loss_parts.try_into_map(unite)?,
            held: Held::InMemory,
        })
    }

    /// DFA states of all the sets together (for the trace).
    pub(super) fn nontrivial_state_count(&self) -> usize {
        let sets = self.win.iter().chain(self.loss.iter()).flat_map(|(_, v)| v);
        sets.map(Dfa::nontrivial_state_count).sum()
    }

    /// The largest distance of any lower value (`None` if there are none).
    pub(super) fn max_distance(&self) -> Option<usize> {
        match &self.held {
            Held::Parked { last, .. } => *last,
            Held::InMemory => self.win.iter().chain(self.loss.iter()).filter_map(|(_, v)| v.len().checked_sub(1)).max(),
        }
    }

    /// The values of distance `d` held in memory (wins, losses by side), moved out: each
    /// distance is read in one iteration only.
    fn take(&mut self, d: usize, empty: &Dfa) -> (PerSide<Dfa>, PerSide<Dfa>) {
        let take = |sets: &mut PerSide<Vec<Dfa>>| {
            PerSide::new(sets.sharing(), |s| {
                sets[s].get_mut(d).map_or_else(|| empty.clone(), |set| std::mem::replace(set, empty.clone()))
            })
        };
        (take(&mut self.win), take(&mut self.loss))
    }
}

/// The checkpoint of the lower values of distance `d` read by class `class`.
fn lower_name(class: &str, d: usize) -> StepKey {
    StepKey::Lower { class: class.to_string(), distance: d as u32 }
}

/// The names of side `s`'s sets of one distance in its checkpoint.
fn entry_names(s: Side) -> [String; 2] {
    [format!("win/{s}"), format!("loss/{s}")]
}

impl Solver<'_> {
    /// With checkpoints, move class `class`'s lower values to disk, one file per distance:
    /// each iteration reads one distance of them, and all of them are gigabytes on the
    /// largest classes.
    pub(super) fn park_lower(&self, class: &str, lower: &mut LowerValues, empty: &Dfa) -> Result<()> {
        if !self.checkpoints.enabled() {
            return Ok(());
        }
        let last = lower.max_distance();
        for d in 0..=last.unwrap_or(0) {
            let (w, l) = lower.take(d, empty);
            let names: Vec<(Side, [String; 2])> = w.sides().iter().map(|&s| (s, entry_names(s))).collect();
            let mut entries: Vec<(&str, &Dfa)> = Vec::new();
            for (s, [win, loss]) in &names {
                entries.extend([(win.as_str(), &w[*s]), (loss.as_str(), &l[*s])]);
            }
            self.checkpoints.save(&lower_name(class, d), &entries)?;
        }
        let sides = lower.win.sharing();
        *lower = LowerValues {
            win: PerSide::new(sides, |_| Vec::new()),
            loss: PerSide::new(sides, |_| Vec::new()),
            held: Held::Parked { class: class.to_string(), last },
        };
        Ok(())
    }

    /// The lower values of distance `d` (wins, losses by side), from memory or from disk.
    pub(super) fn lower_at(
        &self,
        lower: &mut LowerValues,
        d: usize,
        empty: &Dfa,
    ) -> Result<(PerSide<Dfa>, PerSide<Dfa>)> {
        let Held::Parked { class, last } = &lower.held else {
            return Ok(lower.take(d, empty));
        };
        let sides = lower.win.sharing();
        if last.is_none_or(|m| d > m) {
            return Ok((PerSide::splat(sides, empty), PerSide::splat(sides, empty)));
        }
        let name = lower_name(class, d);
        let mut b = self
            .checkpoints
            .load(&name)?
            .ok_or_else(|| Error::Mismatch(format!("checkpoint {name} disappeared during the run")))?;
        let mut wins = PerSide::splat(sides, empty);
        let mut losses = PerSide::splat(sides, empty);
        for &s in wins.sides() {
            let [win, loss] = entry_names(s);
            wins[s] = b.take(&win, &name.to_string())?;
            losses[s] = b.take(&loss, &name.to_string())?;
        }
        Ok((wins, losses))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_values_unite_by_side_and_distance() {
        let shape = Shape::uniform(2, 3);
        let one = |s: &[u8]| Dfa::from_strings(&shape, &[s.to_vec()]);
        let v = |side, outcome, s: &[u8]| ValueClass::new(side, outcome, one(s));
        let classes = [
            v(Side::First, Outcome::Win { plies: Some(1) }, &[0, 1]),
            v(Side::First, Outcome::Win { plies: Some(1) }, &[1, 1]),
            v(Side::Second, Outcome::Loss { plies: Some(0) }, &[2, 2]),
            v(Side::First, Outcome::Draw, &[0, 0]),
        ];
        let everywhere = PerSide::splat(Sides::Apart, &Dfa::accept_all(&shape));
        let borrowed = || classes.iter().map(Cow::Borrowed).collect::<Vec<_>>();
        let lower = LowerValues::new(&shape, borrowed(), &everywhere).expect("exact values");
        assert_eq!(lower.win[Side::First].len(), 2);
        assert_eq!(lower.win[Side::First][1].count(), 2);
        assert!(lower.win[Side::First][0].is_empty());
        assert_eq!(lower.loss[Side::Second][0], one(&[2, 2]));
        assert_eq!(lower.max_distance(), Some(1));
        // Only where the class's moves land: not [1, 1], nothing of the second side.
        let landing = PerSide::Apart([Dfa::from_strings(&shape, &[vec![0, 1], vec![0, 0]]), Dfa::reject_all(&shape)]);
        let lower = LowerValues::new(&shape, borrowed(), &landing).expect("exact values");
        assert_eq!(lower.win[Side::First][1], one(&[0, 1]));
        assert!(lower.loss[Side::Second].iter().all(Dfa::is_empty));
        let unknown = v(Side::First, Outcome::Win { plies: None }, &[0, 1]);
        assert!(LowerValues::new(&shape, vec![Cow::Owned(unknown)], &everywhere).is_err());
        assert_eq!(LowerValues::none(Sides::Shared).max_distance(), None);
    }

    /// Parked values come back from disk as they went, distance by distance, and a distance
    /// past the last is empty.
    #[test]
    fn parked_lower_values_come_back_from_their_checkpoints() {
        use crate::game::Rules;
        let game = crate::games::fixtures::a_game_of_two_symbols();
        let shape = game.shape().clone();
        let empty = Dfa::reject_all(&shape);
        let one = |s: &[u8]| Dfa::from_strings(&shape, &[s.to_vec()]);
        let classes = [
            ValueClass::new(Side::First, Outcome::Win { plies: Some(1) }, one(&[1, 0])),
            ValueClass::new(Side::First, Outcome::Loss { plies: Some(0) }, one(&[0, 0])),
        ];
        let landing = PerSide::Shared(Dfa::accept_all(&shape));
        let values = || LowerValues::new(&shape, classes.iter().map(Cow::Borrowed).collect(), &landing).unwrap();
        let dir = crate::scratch::tempdir();
        let options = super::super::SolveOptions { checkpoints: Some(dir.path().to_path_buf()), ..Default::default() };
        let solver = Solver::with_options(&game, options).unwrap();
        let (mut memory, mut parked) = (values(), values());
        solver.park_lower("c", &mut parked, &empty).unwrap();
        assert_eq!(parked.max_distance(), Some(1));
        for d in 0..3 {
            assert_eq!(
                solver.lower_at(&mut parked, d, &empty).unwrap(),
                solver.lower_at(&mut memory, d, &empty).unwrap()
            );
        }
    }
}
