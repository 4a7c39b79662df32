//! `puzzles`: the positions of a solution that pass a filter, with their winning lines. On a
//! DFA solution of any game, the value class asked for is a set of the solution, and its
//! members are walked in order and tested by the explicit moves; a format of a game's own
//! scans its own tables ([`super::Format::puzzles`]).

use super::explore::{self, DfaSolved, LookMove, MOST_EXAMINED};
use super::report::{Report, line};
use super::{Games, Solved};
use crate::error::{Error, Result};
use crate::vocabulary::{Outcome, Position, Status};
use std::path::Path;

/// What a puzzle must be.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// A win in exactly this many plies (the longest wins when `None` and `longest` is set).
    pub plies: Option<u32>,
    /// The longest wins of the solution.
    pub longest: bool,
    /// Exactly one move wins.
    pub unique: bool,
    /// Every winning move removes one of the mover's own pieces.
    pub sacrifice: bool,
    /// Only states without a forbidden move (one per position), where states have one.
    pub plain: bool,
}

/// A puzzle of a DFA solution.
#[derive(serde::Serialize)]
struct Found {
    position: String,
    /// Plies to the end, when the solution knows them.
    plies: Option<u32>,
    winning_moves: Vec<String>,
    line: Vec<String>,
}

/// `puzzles` of `path`: a format of a game's own, or a DFA solution file.
///
/// # Errors
/// A filter that asks nothing, or that does not apply; the file cannot be read.
pub fn puzzles(path: &Path, filter: &Filter, limit: usize, games: &'static Games) -> Result<Box<dyn Report>> {
    let refuse = |why: &str| Err(Error::NotApplicable(why.into()));
    if filter.plies.is_none() && !filter.longest && !filter.sacrifice {
        return refuse("say which wins: --plies N, --longest, or --sacrifice (wins of any length)");
    }
    if let Some(format) = games.format_of(path)? {
        return format.puzzles(path, filter, limit);
    }
    if path.is_dir() && !super::solution::is_solution_directory(path) {
        return Err(Error::NotApplicable(format!(
            "puzzles does not apply to {}, a directory of class files: ask a solution file",
            path.display()
        )));
    }
    if filter.plain {
        return refuse(
            "--no-forbidden-move applies to a game's own class tables (a DFA solution's positions hold their forbidden move)",
        );
    }
    let solved = DfaSolved::load(path, games)?;
    let (game, solution) = (solved.game.as_ref(), &solved.solution);
    let plies = match (filter.plies, filter.longest) {
        (Some(n), _) => Some(n),
        (None, true) => Some(solution.longest_win().ok_or_else(|| {
            Error::NotApplicable(
                "this solution does not know its distances (a meet in the middle): ask --plies N".into(),
            )
        })?),
        (None, false) => None,
    };
    if filter.sacrifice && game.pieces(&solution.initial, solution.initial.side).is_none() {
        return Err(Error::NotApplicable(format!("{} has no pieces to sacrifice", game.name())));
    }
    let wanted = |o: Outcome| match o {
        Outcome::Win { plies: p } => plies.is_none() || p == plies,
        _ => false,
    };
    let (mut with_value, mut examined, mut passing) = (0u128, 0u64, 0u64);
    let mut found: Vec<Found> = Vec::new();
    // Each wanted class with its count and its members in order.
    type Members<'a> = Box<dyn Iterator<Item = Vec<crate::dfa::Symbol>> + 'a>;
    let sets = (solution.classes.iter().filter(|c| wanted(c.outcome)))
        .map(|c| (c.side, c.outcome, c.set.count(), Box::new(c.set.iter()) as Members));
    let rests = (solution.rest.iter().filter(|r| wanted(r.outcome)))
        .map(|r| (r.side, r.outcome, r.positions.unwrap_or(u128::MAX), Box::new(solution.rest_members(r)) as Members));
    for (side, outcome, count, members) in sets.chain(rests) {
        with_value = with_value.saturating_add(count);
        for board in members {
            if examined == MOST_EXAMINED {
                break;
            }
            examined += 1;
            let pos = Position { side, board };
            if game.explicit_status(&pos) != Status::Ongoing {
                continue;
            }
            let look = solved.look_at(&pos)?;
            let winning: Vec<&LookMove> =
                look.moves.iter().filter(|m| matches!(m.value_for_opponent, Some(Outcome::Loss { .. }))).collect();
            let sacrifice = |next: &str| -> Result<bool> {
                Ok(game.pieces(&game.parse(next)?, pos.side) < game.pieces(&pos, pos.side))
            };
            if filter.unique && winning.len() != 1 {
                continue;
            }
            if filter.sacrifice
                && !winning.iter().try_fold(true, |all, m| Ok::<_, Error>(all && sacrifice(&m.position)?))?
            {
                continue;
            }
            passing += 1;
            if found.len() < limit {
                let Outcome::Win { plies } = outcome else { unreachable!("win classes only") };
                found.push(Found {
                    position: game.render(&pos),
                    plies,
                    winning_moves: winning.iter().map(|m| m.name.clone()).collect(),
                    line: explore::best_line(&solved, &look)?.moves,
                });
            }
        }
    }
    Ok(Box::new(SolutionPuzzles { game: solved.game(), plies, with_value, examined, passing, found }))
}

/// What `puzzles` found in a DFA solution.
struct SolutionPuzzles {
    game: String,
    plies: Option<u32>,
    with_value: u128,
    examined: u64,
    passing: u64,
    found: Vec<Found>,
}

impl Report for SolutionPuzzles {
    fn json(&self) -> serde_json::Value {
        super::report::to_json(&PuzzlesJson {
            program: crate::PROGRAM_VERSION,
            game: &self.game,
            states_with_the_value: self.with_value,
            examined: self.examined,
            complete: self.examined as u128 == self.with_value,
            passing: self.passing,
            puzzles: &self.found,
        })
    }

    fn text(&self) -> String {
        let mut out = String::new();
        let which =
            self.plies.map_or("win".to_string(), |n| format!("win in {}", crate::counts::counted(n, "ply", "plies")));
        let complete = self.examined as u128 == self.with_value;
        line!(
            out,
            "{} positions {which}; {} of them examined{}, {} pass the filter; {} shown",
            self.with_value,
            self.examined,
            if complete { " (all)" } else { " (the first in order: the rest were not)" },
            self.passing,
            self.found.len()
        );
        for p in &self.found {
            out.push_str(&puzzle_text(&p.position, p.plies, &p.winning_moves, &p.line));
        }
        out
    }
}

/// A puzzle as text: the position, its winning moves and line.
pub fn puzzle_text(position: &str, plies: Option<u32>, winning: &[String], line: &[String]) -> String {
    let mut out = String::new();
    line!(
        out,
        "\n{position}  (the player to move wins{})",
        plies.map_or(String::new(), |n| format!(" in {}", crate::counts::counted(n, "ply", "plies")))
    );
    line!(out, "  winning moves: {}", winning.join(", "));
    line!(out, "  line: {}", line.join(", "));
    out
}

/// `puzzles --json` of a DFA solution.
#[derive(serde::Serialize)]
struct PuzzlesJson<'a> {
    program: &'static str,
    game: &'a str,
    states_with_the_value: u128,
    examined: u64,
    complete: bool,
    passing: u64,
    puzzles: &'a [Found],
}
