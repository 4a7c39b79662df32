//! Re-checking a saved solution with the explicit rules alone: every value class, or a
//! uniform sample of each, is held against the values its positions' moves lead to.

use super::report::{Report, line};
use super::{Games, Solution};
use crate::counts::human;
use crate::dfa::SplitMix64;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::vocabulary::{Outcome, Position, Side, Status};
use std::path::Path;

/// What `check` asks.
#[derive(Clone, Copy, Debug)]
pub struct CheckAsk<'a> {
    /// Positions drawn from each value class (or class of positions), every one where there
    /// are no more.
    pub sample: usize,
    /// The seed of the draws.
    pub seed: u64,
    /// Another solution of the same game to compare the values with, where the format
    /// supports it.
    pub against: Option<&'a Path>,
}

/// `check` of `path`: a format of a game's own, or a DFA solution (a file or a directory of
/// class files) whose every value class is sampled and held against the plain rules.
///
/// # Errors
/// [`Error::Verification`] at the first position whose value does not follow; the file cannot
/// be read; [`Error::NotApplicable`] for `--against` on a DFA solution.
pub fn check(path: &Path, ask: &CheckAsk, games: &'static Games) -> Result<Box<dyn Report>> {
    if let Some(format) = games.format_of(path)? {
        return format.check(path, ask, games);
    }
    if ask.against.is_some() {
        return Err(Error::NotApplicable(format!(
            "--against compares a game's own tables (a directory) with a DFA solution; {} is a solution file",
            path.display()
        )));
    }
    let (game, solution) = Solution::load(path, games)?;
    let classes = check_solution(game.as_ref(), &solution, ask.sample, ask.seed)?;
    Ok(Box::new(SolutionChecked { game: game.name(), sample: ask.sample, seed: ask.seed, classes }))
}

/// What `check` found of a DFA solution: every value class passed.
struct SolutionChecked {
    game: String,
    sample: usize,
    seed: u64,
    classes: Vec<ClassChecked>,
}

impl SolutionChecked {
    fn checked(&self) -> u128 {
        self.classes.iter().map(|c| c.checked).sum()
    }
}

impl Report for SolutionChecked {
    fn json(&self) -> serde_json::Value {
        let classes = self
            .classes
            .iter()
            .map(|c| ClassCheckedJson { side: c.side, value: c.outcome, checked: c.checked, all: c.all })
            .collect();
        super::report::to_json(&SolutionCheckedJson {
            passed: super::report::CheckPassed::new(&self.game, self.checked(), self.sample, self.seed),
            classes,
        })
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for class in &self.classes {
            line!(
                out,
                "{:>6} to move, {:>16}: {} positions checked{}",
                class.side.to_string(),
                class.outcome.to_string(),
                human(Some(class.checked)),
                if class.all { " (all)" } else { " (uniform sample)" }
            );
        }
        line!(
            out,
            "check passed: {} positions of {} agree with the explicit rules",
            human(Some(self.checked())),
            self.game
        );
        out
    }
}

/// What was checked of one value class.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ClassChecked {
    /// Side to move.
    pub side: Side,
    /// The class's value.
    pub outcome: Outcome,
    /// Positions checked.
    pub checked: u128,
    /// Whether that is every position of the class (otherwise a uniform sample).
    pub all: bool,
}

/// Check `solution` of `game`: each value class whole if it has at most `sample` positions,
/// otherwise `sample` positions drawn uniformly with `seed`.
///
/// # Errors
/// [`Error::Verification`] at the first position whose claimed value the rules contradict,
/// naming it, the claim and the values its moves lead to.
pub fn check_solution(game: &dyn Game, solution: &Solution, sample: usize, seed: u64) -> Result<Vec<ClassChecked>> {
    let mut rng = SplitMix64::new(seed);
    let mut report = Vec::with_capacity(solution.classes.len());
    for class in &solution.classes {
        let count = class.set.checked_count();
        let all = count.is_some_and(|n| n <= sample as u128);
        let members: Vec<Vec<u8>> = if all {
            class.set.to_strings()
        } else {
            let sampler = class.set.sampler().ok_or_else(|| {
                Error::Verification("a value class is too large to sample (its count overflows u128)".into())
            })?;
            (0..sample).map(|_| sampler.sample(&mut rng)).collect()
        };
        for board in members {
            let pos = Position { side: class.side, board };
            check_position(game, solution, &pos, class.outcome)?;
        }
        let checked = count.map_or(sample as u128, |n| n.min(sample as u128));
        report.push(ClassChecked { side: class.side, outcome: class.outcome, checked, all });
    }
    // A class stored as the rest of a domain: its positions are the domain's that no other
    // class holds, listed whole when few, otherwise drawn from the domain until that many.
    for rest in &solution.rest {
        let all = rest.positions.is_some_and(|n| n <= sample as u128);
        let members = if all {
            solution.rest_positions(rest)?.to_strings()
        } else {
            solution.sample_rest(rest, sample, &mut rng)?
        };
        if all && Some(members.len() as u128) != rest.positions {
            return Err(Error::Verification(format!(
                "the {} {} to move number {}, where the solution says {}",
                rest.outcome,
                rest.side,
                members.len(),
                human(rest.positions)
            )));
        }
        for board in members {
            let pos = Position { side: rest.side, board };
            check_position(game, solution, &pos, rest.outcome)?;
        }
        let checked = rest.positions.map_or(sample as u128, |n| n.min(sample as u128));
        report.push(ClassChecked { side: rest.side, outcome: rest.outcome, checked, all });
    }
    Ok(report)
}

/// One position against the explicit rules: terminal status, and the values its moves lead to.
///
/// # Errors
/// [`Error::Verification`] if the rules contradict `claimed`.
pub fn check_position(game: &dyn Game, solution: &Solution, pos: &Position, claimed: Outcome) -> Result<()> {
    let fail = |why: String| Error::Verification(format!("at {} (claimed {claimed}): {why}", game.render(pos)));
    match game.explicit_status(pos) {
        Status::Lost => {
            return match claimed {
                Outcome::Loss { plies: Some(0) | None } => Ok(()),
                _ => Err(fail("the rules say the game is already lost".into())),
            };
        }
        Status::Won => {
            return match claimed {
                Outcome::Win { plies: Some(0) | None } => Ok(()),
                _ => Err(fail("the rules say the game is already won".into())),
            };
        }
        Status::Drawn => {
            return match claimed {
                Outcome::Draw => Ok(()),
                _ => Err(fail("the rules say the game is already drawn".into())),
            };
        }
        Status::Ongoing => {}
    }
    // A win needs one covered move into a loss (a meet-in-the-middle solution need not cover
    // every other move); a loss or a draw needs the values of all its moves.
    let all_after: Vec<Option<Outcome>> = game.explicit_moves(pos).iter().map(|q| solution.value(q)).collect();
    if !matches!(claimed, Outcome::Win { .. }) && all_after.iter().any(Option::is_none) {
        return Err(fail("a move leads outside the solution".into()));
    }
    let after: Vec<Outcome> = all_after.into_iter().flatten().collect();
    match claimed {
        Outcome::Win { plies } => {
            let ok = after.iter().any(|v| match (v, plies) {
                (Outcome::Loss { plies: Some(q) }, Some(p)) => q + 1 == p,
                (Outcome::Loss { .. }, None) => true,
                _ => false,
            });
            let no_faster =
                plies.is_none_or(|p| !after.iter().any(|v| matches!(v, Outcome::Loss { plies: Some(q) } if q + 1 < p)));
            if !ok || !no_faster {
                return Err(fail(format!("no move into a loss of the right length (moves lead to {after:?})")));
            }
        }
        Outcome::Loss { plies } => {
            let all_win = after.iter().all(|v| matches!(v, Outcome::Win { .. }));
            // No move at all loses at once (in games where that loses).
            let longest = after
                .iter()
                .filter_map(|v| if let Outcome::Win { plies: Some(q) } = v { Some(q + 1) } else { None })
                .max()
                .or(after.is_empty().then_some(0));
            if !all_win || (plies.is_some() && longest != plies) {
                return Err(fail(format!(
                    "not every move leads into a win of the right length (moves lead to {after:?})"
                )));
            }
        }
        Outcome::Draw => {
            let escape = after.iter().any(|v| matches!(v, Outcome::Loss { .. }));
            let held = after.iter().any(|v| matches!(v, Outcome::Draw));
            if escape || !held {
                return Err(fail(format!(
                    "a draw must have a drawing move and no winning one (moves lead to {after:?})"
                )));
            }
        }
    }
    Ok(())
}

/// `check --json` of a DFA solution.
#[derive(serde::Serialize)]
struct SolutionCheckedJson<'a> {
    #[serde(flatten)]
    passed: super::report::CheckPassed<'a>,
    classes: Vec<ClassCheckedJson>,
}

/// One value class of [`SolutionCheckedJson`].
#[derive(serde::Serialize)]
struct ClassCheckedJson {
    #[serde(serialize_with = "crate::vocabulary::serialize_display_always")]
    side: Side,
    #[serde(serialize_with = "crate::vocabulary::serialize_display_always")]
    value: Outcome,
    #[serde(serialize_with = "crate::counts::serialize")]
    checked: u128,
    all: bool,
}
