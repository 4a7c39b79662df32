//! The driver of an explicit solve by classes. A game's positions fall into classes that a
//! move only leaves one way (fewer pieces on the board, or more discs), so each class is
//! solved once, from the tables of the classes solved before it, into a table of its own.
//! The driver takes the classes in that order, reads a class whose table is saved instead of
//! solving it again (a stopped run resumes at the class it was in; a game may resume within
//! a class from its own checkpoint), and measures each class the same way for every game.

use crate::error::Result;
use serde::Serialize;
use std::time::Instant;

/// One game's solve of one class at a time. Each call may read the tables of every class
/// the driver gave it before.
pub trait ClassStep {
    /// A class.
    type Class;
    /// What solving or reading a class found.
    type Found: Serialize;
    /// The class's name in messages.
    fn name(&self, class: &Self::Class) -> String;
    /// Whether `class`'s table is saved.
    fn is_solved(&self, class: &Self::Class) -> bool;
    /// `class` from its saved table.
    ///
    /// # Errors
    /// A table that cannot be read, or is not this class's.
    fn read(&mut self, class: &Self::Class) -> Result<Self::Found>;
    /// `class` solved and its table saved.
    ///
    /// # Errors
    /// Whatever stops the game's solve; a table that cannot be written.
    fn solve(&mut self, class: &Self::Class) -> Result<Self::Found>;
}

/// One class of a run: what the game found, and what it cost.
#[derive(Clone, Debug, Serialize)]
pub struct ClassRun<F> {
    /// What the game found.
    #[serde(flatten)]
    pub found: F,
    /// Whether the class was solved before (its table was read, not made).
    pub already_solved: bool,
    /// Seconds of the class in this run (a resumed class counts from this run's start).
    pub wall_s: f64,
    /// CPU seconds of the class (`None` where the system does not say).
    pub cpu_s: Option<f64>,
    /// The process's peak resident memory once the class was done.
    pub peak_rss_bytes: Option<u64>,
}

/// Solve or read `classes` in the order given (each class's lower classes first), calling
/// `each` with every class as it is done.
///
/// # Errors
/// The first error of a class's solve or read, or of `each`.
pub fn solve_classes<S: ClassStep>(
    step: &mut S,
    classes: impl IntoIterator<Item = S::Class>,
    mut each: impl FnMut(&ClassRun<S::Found>) -> Result<()>,
) -> Result<Vec<ClassRun<S::Found>>> {
    let mut runs = Vec::new();
    for class in classes {
        let (started, cpu0) = (Instant::now(), crate::sys::cpu_seconds());
        let already_solved = step.is_solved(&class);
        let name = step.name(&class);
        if !already_solved {
            crate::progress!("class {name}");
        }
        let found = if already_solved { step.read(&class)? } else { step.solve(&class)? };
        let run = ClassRun {
            found,
            already_solved,
            wall_s: started.elapsed().as_secs_f64(),
            cpu_s: crate::sys::cpu_seconds().zip(cpu0).map(|(a, b)| a - b),
            peak_rss_bytes: crate::record::peak_rss_bytes(),
        };
        crate::progress!(
            "class {name}: {} in {:.1} s wall, {} CPU-s, peak {} MiB",
            if already_solved { "read" } else { "solved" },
            run.wall_s,
            run.cpu_s.map_or("?".into(), |c| format!("{c:.0}")),
            run.peak_rss_bytes.map_or("?".into(), |b| (b >> 20).to_string()),
        );
        each(&run)?;
        runs.push(run);
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    /// Classes 0..n where class `c`'s table is `c` plus the sum of the tables below it: the
    /// driver must give each class its lower tables, solved or read.
    struct Sums {
        tables: Vec<Option<u64>>,
        solved_now: Vec<usize>,
    }

    impl ClassStep for Sums {
        type Class = usize;
        type Found = u64;
        fn name(&self, class: &usize) -> String {
            class.to_string()
        }
        fn is_solved(&self, class: &usize) -> bool {
            self.tables[*class].is_some()
        }
        fn read(&mut self, class: &usize) -> Result<u64> {
            self.tables[*class].ok_or_else(|| Error::Mismatch("no table".into()))
        }
        fn solve(&mut self, class: &usize) -> Result<u64> {
            let below = self.tables[..*class].iter().map(|t| t.ok_or_else(|| Error::Mismatch("a gap".into())));
            let sum = below.sum::<Result<u64>>()? + *class as u64;
            self.tables[*class] = Some(sum);
            self.solved_now.push(*class);
            Ok(sum)
        }
    }

    /// A run stopped after some classes and run again reads those and solves the rest, to
    /// the same tables as a run never stopped; an error in `each` stops the run there.
    #[test]
    fn a_second_run_reads_the_classes_the_first_solved() {
        let mut whole = Sums { tables: vec![None; 6], solved_now: Vec::new() };
        let runs = solve_classes(&mut whole, 0..6, |_| Ok(())).unwrap();
        assert!(runs.iter().all(|r| !r.already_solved));
        let mut broken = Sums { tables: vec![None; 6], solved_now: Vec::new() };
        let stop = solve_classes(&mut broken, 0..6, |r| {
            if r.found >= 4 { Err(Error::StoppedAsAsked("enough".into())) } else { Ok(()) }
        });
        assert!(matches!(stop, Err(Error::StoppedAsAsked(_))));
        assert_eq!(broken.solved_now, [0, 1, 2, 3]);
        let again = solve_classes(&mut broken, 0..6, |_| Ok(())).unwrap();
        assert_eq!(again.iter().map(|r| r.already_solved).collect::<Vec<_>>(), [true, true, true, true, false, false]);
        assert_eq!(broken.tables, whole.tables);
        assert_eq!(again.iter().map(|r| r.found).collect::<Vec<_>>(), runs.iter().map(|r| r.found).collect::<Vec<_>>());
    }
}
