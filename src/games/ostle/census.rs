//! The published counts of a solved Ostle variant, the way the explicit solutions of the 5x5
//! game count (SPEC §4): values of all states and of the non-trivial ones, positions by hole
//! class and pieces, checkmate positions, non-trivial states, and breadth-first levels from
//! the start; each raw and up to the board's symmetries.

use super::symmetry::{boards_of, boards_with, hole_classes, orbit_set, orbits, states_of_boards};
use super::{Ostle, Variant};
use crate::dfa::Dfa;
use crate::error::Result;
use crate::games::{Game, Solution};
use crate::move_graph::Moves;
use crate::vocabulary::{Outcome, Side};

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

fn count(v: &Variant, what: impl Into<String>, set: &Dfa) -> Result<Count> {
    let (raw, up_to_symmetry) = orbits(v, set)?;
    Ok(Count { what: what.into(), raw, up_to_symmetry })
}

/// The published counts of a solved variant.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Census {
    /// Values of all states (plies to the end).
    pub values: Vec<Count>,
    /// Values of the non-trivial states, published convention (`d = plies - 1`).
    pub nontrivial_values: Vec<Count>,
    /// Positions by hole class and (mover, opponent) pieces.
    pub positions_by_hole_and_pieces: Vec<Count>,
    /// Positions where the mover can take the opponent down to the losing count.
    pub checkmate_positions: Count,
    /// Possibly reachable states of non-checkmate positions.
    pub nontrivial_states: Count,
    /// Breadth-first levels from the start.
    pub distances_from_start: Vec<Count>,
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

/// The counts of a solved variant, from its solution and the sets that solved it.
///
/// # Errors
/// [`crate::Error::Verification`] if an orbit count does not divide exactly.
pub fn census(game: &Ostle, solution: &Solution, sets: &SolvedSets<'_>) -> Result<Census> {
    let v = game.variant().clone();
    let mut values = Vec::new();
    let mut classes: Vec<_> = solution.classes.iter().filter(|c| c.side == Side::First).collect();
    classes.sort_by_key(|c| match c.outcome {
        Outcome::Win { plies } => (0, plies.unwrap_or(0)),
        Outcome::Loss { plies } => (1, plies.unwrap_or(0)),
        Outcome::Draw => (2, 0),
    });
    for c in &classes {
        values.push(count(&v, c.outcome.to_string(), &c.set)?);
    }
    let mut by_hole = Vec::new();
    for (name, squares) in hole_classes(&v) {
        for mine in (v.lose_at + 1..=v.pieces).rev() {
            for theirs in (v.lose_at + 1..=v.pieces).rev() {
                let set = boards_with(game, &squares, mine, theirs);
                by_hole.push(count(&v, format!("hole {name}, {mine} v {theirs}"), &set)?);
            }
        }
    }
    // Checkmate: the opponent has T+1 pieces and some move leaves them with T.
    let ongoing = game.ongoing_boards();
    let checkmate = sets.moves.backward_within(sets.lost_terminal, &ongoing);
    let checkmate_positions = count(&v, "checkmate positions", &checkmate)?;
    // Non-trivial: possibly reachable states of non-checkmate positions.
    // The universe is the possibly reachable states plus the start; the start counts only if
    // some move leads to it (one backward image of a single state).
    let mut reachable = sets.universe.clone();
    let start = Dfa::from_string(game.shape(), &game.initial().board);
    if sets.moves.backward_within(&start, &ongoing).is_empty() {
        reachable = reachable.difference(&start);
    }
    let terminal = sets.lost_terminal.union(&game.won_terminal(Side::First));
    let checkmate_states = states_of_boards(game, &checkmate);
    let nontrivial = reachable.difference(&terminal).difference(&checkmate_states);
    let nontrivial_states = count(&v, "non-trivial states", &nontrivial)?;
    // Breadth-first levels from the orbit of the start, forbidden moves not excluded; the
    // levels are closed under symmetry, so their orbits are the published levels.
    let mut levels = Vec::new();
    let mut seen = orbit_set(&v, game, &game.initial().board);
    let mut frontier = seen.clone();
    let mut k = 0;
    while !frontier.is_empty() {
        levels.push(count(&v, format!("level {k}"), &frontier)?);
        let expand = boards_of(game, &frontier.difference(&terminal)).intersection(&ongoing);
        // Moves that end the game are not expanded: their results are not levels.
        let next = sets.moves.forward(&expand).difference(&terminal).difference(&seen);
        seen = seen.union(&next);
        frontier = next;
        k += 1;
    }
    // The published histogram: non-trivial states by d = plies - 1 (d even: the mover wins).
    let mut nontrivial_values = Vec::new();
    for c in &classes {
        let set = c.set.intersection(&nontrivial);
        if set.is_empty() {
            continue;
        }
        let what = match c.outcome {
            Outcome::Win { plies: Some(p) } | Outcome::Loss { plies: Some(p) } => format!("d = {}", p - 1),
            o => o.to_string(),
        };
        nontrivial_values.push(count(&v, what, &set)?);
    }
    nontrivial_values.sort_by_key(|c| c.what.trim_start_matches("d = ").parse::<u32>().unwrap_or(u32::MAX));
    Ok(Census {
        values,
        nontrivial_values,
        positions_by_hole_and_pieces: by_hole,
        checkmate_positions,
        nontrivial_states,
        distances_from_start: levels,
    })
}
