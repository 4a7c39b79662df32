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

use super::lower::LowerValues;
use super::pass::SecondSide;
use super::universe::UniverseSets;
use super::{PerSide, Sides, Solver, set_passes, timed};
use crate::dfa::Dfa;
use crate::dfa::limits::Stoppable;
use crate::error::{Error, Result};
use crate::game::{Game, PositionClass};
use crate::solved::solution::{ClassUniverse, ClassValues};
use crate::solved::{Mode, Solution, ValueClass};
use std::borrow::Cow;
use std::path::Path;

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
        let universes = self.class_universes(dir, &classes)?;
        for (k, class) in classes.iter().enumerate() {
            let stored = dir.map(|d| ClassValues::path(d, &class.name)).filter(|p| p.exists());
            values[k] = Some(match stored {
                Some(path) => ClassValues::load(&path, self.game, Some(&class.name))?.values,
                None => {
                    let lower: Vec<Cow<'_, ValueClass>> = class
                        .successors
                        .iter()
                        .flat_map(|&s| values[s].as_deref().expect("lower classes are solved first"))
                        .map(Cow::Borrowed)
                        .collect();
                    let solved = self.solve_class(k, &classes, lower, &universes)?;
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
        self.finish(Mode::Strong, initial, unite_by_value(done)?, Vec::new())
    }

    /// Solve the one class named `name`, reading the values of the lower classes it needs
    /// from their class files in `dir`, and save its own there: one job of a job array.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for a class the game does not have; [`Error::Mismatch`] naming a
    /// lower class whose file is missing, or is of another game or class; corrupt files.
    pub fn solve_one_class(&mut self, dir: &Path, name: &str) -> Result<ClassValues> {
        self.checkpoints.set_mode(Mode::Strong);
        let classes = self.declared_classes()?;
        let Some(k) = classes.iter().position(|c| c.name == name) else {
            let names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
            return Err(Error::BadParameters(format!(
                "{} has no class {name:?} (its classes, lowest first: {})",
                self.game.name(),
                names.join(" ")
            )));
        };
        let class = &classes[k];
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
            let values = ClassValues::load(&path, self.game, Some(&classes[s].name))?.values;
            lower.extend(values.into_iter().map(Cow::Owned));
        }
        let universes = self.class_universes(Some(dir), &classes)?;
        let solved = self.solve_class(k, &classes, lower, &universes)?;
        let values = self.save_class(Some(dir), class, solved)?;
        self.checkpoints.remove_class(name);
        Ok(ClassValues {
            params: self.game.params(),
            class: name.to_string(),
            values,
            mover_relative: self.game.mover_relative(),
        })
    }

    /// The game's classes, checked to be listed lowest first.
    fn declared_classes(&self) -> Result<Vec<PositionClass>> {
        let classes = self.game.classes()?;
        if classes.is_empty() {
            return Err(Error::BadParameters(format!("{} declares no classes", self.game.name())));
        }
        crate::game::check_order(&classes);
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

    /// Solve class `k` of `classes` given the final values of the lower classes one move can
    /// reach (`lower`: the value classes of its successors, from [`Solver::solve_class`] or
    /// their files; owned ones leave memory once their part where the class's moves land is
    /// taken), over its universe from `universes`. Returns the class's value classes, exact
    /// distances and draws.
    ///
    /// # Errors
    /// [`Error::Mismatch`] if a lower value has no exact distance; universe files; checkpoint
    /// I/O.
    fn solve_class(
        &mut self,
        k: usize,
        classes: &[PositionClass],
        lower: Vec<Cow<'_, ValueClass>>,
        universes: &ClassUniverses,
    ) -> Result<Vec<ValueClass>> {
        let class = &classes[k];
        self.checkpoints.clean_class(&class.name);
        let shape = self.game.shape().clone();
        let empty = Dfa::reject_all(&shape);
        let (sets, targets) = self.class_sets(k, classes, universes)?;
        // The class's passes (a swept universe's own; the whole universe's otherwise).
        if let Some(passing) = &sets.passing {
            set_passes(&mut self.moves, Some(passing));
            self.whole_passes = false;
        }
        let mut start = self.pass_start(sets)?;
        // Where one move from the class can lead: the class, and the part of the lower
        // classes that its moves land on (by side to move after the move).
        let lower_sets = class.successors.iter().try_fold(empty.clone(), |acc, &s| acc.union(&classes[s].set))?;
        let landing = match &targets {
            // A swept universe is closed under moves, so its successor classes' universes
            // hold every position a move from the class reaches. They serve as the landing
            // set as they are: a superset changes no value (no move reaches the extra
            // positions), and the forward image that would trim them costs a large share of a
            // class solve (`docs/measurements.md`, classes over swept universes).
            Some(targets) => targets.try_map(|_, u| u.intersection(&lower_sets))?,
            None => self.whole_made().universe.try_map(|o, u| {
                let mover = o.other();
                let image = timed!("landing", self.moves[mover].forward(&start.undecided.sets()[mover])?);
                image.intersection(&lower_sets)?.intersection(u)
            })?,
        };
        drop(lower_sets);
        let mut lower = timed!("lower values", LowerValues::new(&shape, lower, &landing)?);
        self.park_lower(&class.name, &mut lower, &empty)?;
        start.landing = Some(landing);
        start.class = Some(class.name.clone());
        start.lower = lower;
        start.second_side = SecondSide::Imaged;
        Ok(self.backward_pass(start)?.into_values()?)
    }

    /// Class `k`'s sets, and where its moves land (`None`: in the whole universe, whose sets
    /// are then made): the whole universe's sets within the class, or, for a swept universe,
    /// the class's own with its successors' universes as the moves' targets.
    fn class_sets(
        &mut self,
        k: usize,
        classes: &[PositionClass],
        universes: &ClassUniverses,
    ) -> Result<(UniverseSets, Option<PerSide<Dfa>>)> {
        let class = &classes[k];
        if let ClassUniverses::ByRule = universes {
            self.make_whole()?;
            let w = self.whole_made();
            let within = |sets: &PerSide<Dfa>| sets.try_map(|_, d| d.intersection(&class.set));
            let sets = UniverseSets {
                universe: within(&w.universe)?,
                lost: within(&w.lost)?,
                won: within(&w.won)?,
                ongoing: within(&w.ongoing)?,
                passing: None,
            };
            return Ok((sets, None));
        }
        let per_side = |sets: [Dfa; 2]| {
            let [first, second] = sets;
            match self.sides {
                Sides::Shared => PerSide::Shared(first),
                Sides::Apart => PerSide::Apart([first, second]),
            }
        };
        let universe = per_side(universes.get(self.game, k, classes)?);
        let mut targets = universe.clone();
        for &s in &class.successors {
            let next = per_side(universes.get(self.game, s, classes)?);
            targets = targets.try_zip_map(&next, |_, t, n| t.union(n))?;
        }
        let sets = UniverseSets::new(self.game, &self.moves, universe, Some(&targets))?;
        Ok((sets, Some(targets)))
    }

    /// Where the classes' universes come from: the game's sweep ([`SolverHints::class_universes`](crate::game::SolverHints::class_universes)),
    /// saved as universe files in `dir` (made once: a later run reads them) or held in
    /// memory without one; else the whole universe within each class.
    ///
    /// # Errors
    /// Universe files that cannot be written.
    fn class_universes(&self, dir: Option<&Path>, classes: &[PositionClass]) -> Result<ClassUniverses> {
        let params = self.game.universe_params();
        if let Some(dir) = dir
            && classes.iter().all(|c| ClassUniverse::path(dir, &c.name).exists())
        {
            return Ok(ClassUniverses::Saved { dir: dir.to_path_buf(), params });
        }
        let mut held: Vec<Option<[Dfa; 2]>> = vec![None; classes.len()];
        let swept = self.game.class_universes(&mut |k, sets| {
            let class = &classes[k].name;
            crate::progress!(
                "universe of class {class}: {} positions, {} DFA states",
                crate::counts::human(sets.iter().try_fold(0u128, |n, set| set.checked_count()?.checked_add(n))),
                sets.iter().map(Dfa::state_count).sum::<usize>()
            );
            match dir {
                Some(dir) => {
                    std::fs::create_dir_all(dir).map_err(|error| Error::Io { path: dir.to_path_buf(), error })?;
                    let file = ClassUniverse { params: params.clone(), class: class.clone(), sets };
                    file.save(&ClassUniverse::path(dir, class))
                }
                None => {
                    held[k] = Some(sets);
                    Ok(())
                }
            }
        });
        Ok(match (swept, dir) {
            (None, _) => ClassUniverses::ByRule,
            (Some(done), Some(dir)) => {
                done?;
                ClassUniverses::Saved { dir: dir.to_path_buf(), params }
            }
            (Some(done), None) => {
                done?;
                ClassUniverses::Held(held)
            }
        })
    }
}

/// Where a solve by classes takes each class's universe from.
enum ClassUniverses {
    /// The whole universe within the class's set.
    ByRule,
    /// The universe files in `dir` of the game `params`.
    Saved { dir: std::path::PathBuf, params: crate::game::GameParams },
    /// Held in memory, by class (a class the sweep did not reach has no positions).
    Held(Vec<Option<[Dfa; 2]>>),
}

impl ClassUniverses {
    /// Class `k`'s universe, by side to move (`ByRule` has none to give).
    fn get(&self, game: &dyn Game, k: usize, classes: &[PositionClass]) -> Result<[Dfa; 2]> {
        let empty = || Dfa::reject_all(game.shape());
        match self {
            ClassUniverses::ByRule => unreachable!("a class's sets by rule are the whole universe's"),
            ClassUniverses::Saved { dir, params } => {
                let path = ClassUniverse::path(dir, &classes[k].name);
                if !path.exists() {
                    return Err(Error::Mismatch(format!(
                        "{} is missing: the universes were not all saved",
                        path.display()
                    )));
                }
                Ok(ClassUniverse::load(&path, params, game.shape(), &classes[k].name)?.sets)
            }
            ClassUniverses::Held(held) => Ok(held[k].clone().unwrap_or_else(|| [empty(), empty()])),
        }
    }
}

/// One entry per (side, value): the union of the entries of every class with that value, in
/// the order each value first appears. A solution file holds each value once.
fn unite_by_value(classes: Vec<ValueClass>) -> Stoppable<Vec<ValueClass>> {
    let mut united: Vec<ValueClass> = Vec::new();
    for c in classes {
        match united.iter_mut().find(|u| u.side == c.side && u.outcome == c.outcome) {
            Some(u) => u.set = u.set.union(&c.set)?,
            None => united.push(c),
        }
    }
    united.retain(|c| !c.set.is_empty());
    Ok(united)
}
