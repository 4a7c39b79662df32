//! The published counts of a solved Ostle variant, the way the explicit solutions of the 5x5
//! game count (`games/ostle/README.md`): values of all states and of the non-trivial ones, positions by hole
//! class and pieces, checkmate positions, non-trivial states, and breadth-first levels from
//! the start; each raw and up to the board's symmetries.

mod almost_symmetric;
pub mod structure;
pub mod symmetry;

use super::Ostle;
use crate::dfa::Dfa;
use crate::error::Result;
use crate::move_graph::Moves;
use crate::solved::Solution;
use crate::vocabulary::{Outcome, Side};
use structure::{LevelsLimit, Structure, add, count, structure};

/// One line of a count table: raw strings and orbits under the board symmetries.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Count {
    /// What is counted.
    pub what: String,
    /// Strings of the set.
    #[serde(serialize_with = "crate::counts::serialize")]
    pub raw: u128,
    /// Orbits under the board's symmetries.
    #[serde(serialize_with = "crate::counts::serialize")]
    pub up_to_symmetry: u128,
}

/// The published counts of a solved variant.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Census {
    /// Values of all states (plies to the end).
    pub values: Vec<Count>,
    /// Values of the non-trivial states, published convention (`d = plies - 1`).
    pub nontrivial_values: Vec<Count>,
    /// The counts that do not depend on values.
    #[serde(flatten)]
    pub structure: Structure,
}

/// The sets of a solve the census reads: the universe and lost terminal states with the
/// first side (the mover) to move, and the mover's moves.
pub struct SolvedSets<'a> {
    /// Every state with the mover to move.
    pub universe: &'a Dfa,
    /// States already lost for the mover.
    pub lost_terminal: &'a Dfa,
    /// The mover's moves as the solver applies them.
    pub moves: &'a Moves,
}

/// The counts of a solved variant, from its solution and the sets that solved it, the
/// breadth-first levels within `limit`.
///
/// # Errors
/// [`crate::Error::Verification`] if an orbit count does not divide exactly.
pub fn census(game: &Ostle, solution: &Solution, sets: &SolvedSets<'_>, limit: LevelsLimit) -> Result<Census> {
    let v = game.variant().clone();
    let mut values: Vec<Count> = Vec::new();
    let mut classes: Vec<_> = solution.classes.iter().filter(|c| c.side == Side::First).collect();
    classes.sort_by_key(|c| match c.outcome {
        Outcome::Win { plies } => (0, plies.unwrap_or(0)),
        Outcome::Loss { plies } => (1, plies.unwrap_or(0)),
        Outcome::Draw => (2, 0),
    });
    for c in &classes {
        let row = count(&v, c.outcome.to_string(), &c.set)?;
        // A solution by classes has one value class per position class and outcome: one row.
        match values.last_mut() {
            Some(last) if last.what == row.what => add(last, &row),
            _ => values.push(row),
        }
    }
    // The published histogram: non-trivial states by d = plies - 1 (d even: the mover wins),
    // summed over the parts the structure goes through.
    let what = |o: Outcome| match o {
        Outcome::Win { plies: Some(p) } | Outcome::Loss { plies: Some(p) } => format!("d = {}", p - 1),
        o => o.to_string(),
    };
    let mut nontrivial_values: Vec<Count> = Vec::new();
    let structure = structure(
        game,
        sets,
        |nontrivial| {
            for c in &classes {
                let set = c.set.intersection(nontrivial)?;
                if set.is_empty() {
                    continue;
                }
                let part = count(&v, what(c.outcome), &set)?;
                match nontrivial_values.iter_mut().find(|row| row.what == part.what) {
                    Some(row) => add(row, &part),
                    None => nontrivial_values.push(part),
                }
            }
            Ok(())
        },
        limit,
    )?;
    nontrivial_values.sort_by_key(|c| c.what.trim_start_matches("d = ").parse::<u32>().unwrap_or(u32::MAX));
    Ok(Census { values, nontrivial_values, structure })
}
