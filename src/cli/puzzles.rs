//! `dfasolve puzzles`: the positions of a solution that pass a filter, with their winning
//! lines. On Ostle class tables the scan is the tables' own ([`super::ostle_tables`]); on a
//! DFA solution of any game, the value class asked for is a set of the solution, and its
//! members are walked in order and tested by the explicit moves.

use super::output::{AboutFile, say};
use crate::games::explore::{self, DfaSolved};
use crate::games::ostle::ranked::puzzles::Filter;
use crate::vocabulary::{Outcome, Position, Status};
use anyhow::{Result, anyhow, bail};
use std::path::Path;

use crate::games::explore::MOST_EXAMINED;

/// A puzzle of a DFA solution.
#[derive(serde::Serialize)]
struct Found {
    position: String,
    /// Plies to the end, when the solution knows them.
    plies: Option<u32>,
    winning_moves: Vec<String>,
    line: Vec<String>,
}

/// `dfasolve puzzles SOLUTION`: a directory of Ostle class tables or a DFA solution file.
pub(super) fn puzzles(path: &Path, filter: &Filter, limit: usize, json: bool) -> Result<()> {
    if filter.plies.is_none() && !filter.longest && !filter.sacrifice {
        bail!("say which wins: --plies N, --longest, or --sacrifice (wins of any length)");
    }
    if let Some(kind) = super::othello_dirs::kind(path) {
        return Err(super::othello_dirs::not_for("puzzles", kind, path));
    }
    if path.is_dir() {
        return super::ostle_tables::puzzles(path, filter, limit, json);
    }
    if filter.plain {
        bail!(
            "--no-forbidden-move applies to Ostle class tables (a DFA solution's positions hold their forbidden move)"
        );
    }
    let solved = DfaSolved::load(path).about_file("loading", path)?;
    let (game, solution) = (solved.game.as_ref(), &solved.solution);
    let plies = match (filter.plies, filter.longest) {
        (Some(n), _) => Some(n),
        (None, true) => Some(solution.longest_win().ok_or_else(|| {
            anyhow!("this solution does not know its distances (a meet in the middle): ask --plies N")
        })?),
        (None, false) => None,
    };
    if filter.sacrifice && game.pieces(&solution.initial, solution.initial.side).is_none() {
        bail!("{} has no pieces to sacrifice", game.name());
    }
    let wanted = |o: Outcome| match o {
        Outcome::Win { plies: p } => plies.is_none() || p == plies,
        _ => false,
    };
    let (mut with_value, mut examined, mut passing) = (0u128, 0u64, 0u64);
    let mut found: Vec<Found> = Vec::new();
    for class in solution.classes.iter().filter(|c| wanted(c.outcome)) {
        with_value += class.set.count();
        for board in class.set.iter() {
            if examined == MOST_EXAMINED {
                break;
            }
            examined += 1;
            let pos = Position { side: class.side, board };
            if game.explicit_status(&pos) != Status::Ongoing {
                continue;
            }
            let look = solved.look_at(&pos)?;
            let winning: Vec<&explore::LookMove> =
                look.moves.iter().filter(|m| matches!(m.value_for_opponent, Some(Outcome::Loss { .. }))).collect();
            let sacrifice = |next: &str| -> Result<bool> {
                Ok(game.pieces(&game.parse(next)?, pos.side) < game.pieces(&pos, pos.side))
            };
            if filter.unique && winning.len() != 1 {
                continue;
            }
            if filter.sacrifice
                && !winning.iter().try_fold(true, |all, m| Ok::<_, anyhow::Error>(all && sacrifice(&m.position)?))?
            {
                continue;
            }
            passing += 1;
            if found.len() < limit {
                let Outcome::Win { plies } = class.outcome else { unreachable!("win classes only") };
                found.push(Found {
                    position: game.render(&pos),
                    plies,
                    winning_moves: winning.iter().map(|m| m.name.clone()).collect(),
                    line: explore::best_line(&solved, &look)?.moves,
                });
            }
        }
    }
    let complete = examined as u128 == with_value;
    if json {
        say!(
            "{}",
            serde_json::json!({ "program": crate::PROGRAM_VERSION, "game": game.name(), "states_with_the_value": with_value, "examined": examined,
                "complete": complete, "passing": passing, "puzzles": found })
        );
        return Ok(());
    }
    let which = plies.map_or("win".to_string(), |n| format!("win in {}", crate::counts::counted(n, "ply", "plies")));
    say!(
        "{with_value} positions {which}; {examined} of them examined{}, {passing} pass the filter; {} shown",
        if complete { " (all)" } else { " (the first in order: the rest were not)" },
        found.len()
    );
    for p in &found {
        print_puzzle(&p.position, p.plies, &p.winning_moves, &p.line)?;
    }
    Ok(())
}

/// A puzzle as text: the position, its winning moves and line.
pub(super) fn print_puzzle(position: &str, plies: Option<u32>, winning: &[String], line: &[String]) -> Result<()> {
    say!(
        "\n{position}  (the player to move wins{})",
        plies.map_or(String::new(), |n| format!(" in {}", crate::counts::counted(n, "ply", "plies")))
    );
    say!("  winning moves: {}", winning.join(", "));
    say!("  line: {}", line.join(", "));
    Ok(())
}
