//! The K v K class of Ostle(W×H, K', T), K' > K, from a strong solution of Ostle(W×H, K, T).
//!
//! The smaller game is almost that class: its universe holds the results of its own moves,
//! and every K v K state of the bigger game is one too, except the results of moves that
//! remove a piece from a bigger board that no K-piece move produces (the *gap*: 36 of
//! 10,260 states on 3x3 K2→3 T1, 256 of 5.9 M on 4x4 K3→4 T2). A gap state is a K v K board
//! with no forbidden move, so its moves are moves of the smaller game and lead into the
//! smaller universe: one explicit step over the smaller solution's values gives theirs.
//!
//! So a solved subgame (5x5's 4 v 4, solved as Ostle(5x5, 4, 3)) becomes the lowest class
//! file of the standard game without solving that class again.

use super::Ostle;
use crate::dfa::{Dfa, Symbol};
use crate::error::{Error, Result};
use crate::game::ExplicitRules;
use crate::game::Rules;
use crate::game::SolverHints;
use crate::game::{Position, PositionClass};
use crate::solved::solution::ClassValues;
use crate::solved::{Mode, Solution, ValueClass};
use crate::vocabulary::{Outcome, Side};
use rayon::prelude::*;
use std::collections::HashMap;

/// A class file made from a subgame's solution.
#[derive(Debug)]
pub struct SubgameClass {
    /// The class's values.
    pub class: ClassValues,
    /// How many of its states only a removal reaches (valued by one explicit step).
    pub gap_states: u128,
}

/// The K v K states of `big` outside the universe of `small` (Ostle with fewer pieces, the
/// same board, limit and rule), and that class's name.
///
/// # Errors
/// [`Error::Mismatch`] if `small` is not such a subgame of `big`.
pub fn removal_gap(small: &Ostle, big: &Ostle) -> Result<(String, Dfa)> {
    let class = kv_k_class(small, big)?;
    let small_universe = small.universe(Side::First)?;
    let big_class = big.universe(Side::First)?.intersection(&class.set)?;
    Ok((class.name, big_class.difference(&small_universe)?))
}

/// The class file of the K v K class of `big` made from `solution`, a strong solution of
/// `small` (see the module docs). Every value keeps its exact distance.
///
/// # Errors
/// [`Error::Mismatch`] if the solution is not a strong solution of `small`, if `small` is not
/// a subgame of `big`, or if a move from a gap state leaves the solution (it would not be a
/// subgame after all).
pub fn class_from_subgame(small: &Ostle, big: &Ostle, solution: Solution) -> Result<SubgameClass> {
    if solution.params != small.params() || solution.mode != Mode::Strong {
        return Err(Error::Mismatch(format!(
            "the solution is not a strong solution of {} (it is a {:?} solution of {})",
            small.name(),
            solution.mode,
            crate::games::GAMES.build(&solution.params).map_or_else(|_| "another game".into(), |g| g.name())
        )));
    }
    let (name, gap) = removal_gap(small, big)?;
    let class = kv_k_class(small, big)?;
    let gap_values = gap_values(big, &solution, &gap)?;
    let mut values = solution.classes;
    // One set at a time, so that only one copy of the largest is ever added.
    for v in &mut values {
        v.set = v.set.intersection(&class.set)?;
    }
    values.retain(|v| !v.set.is_empty());
    for (outcome, strings) in gap_values {
        let set = Dfa::from_strings(big.shape(), &strings);
        match values.iter_mut().find(|v| v.outcome == outcome) {
            Some(v) => v.set = v.set.union(&set)?,
            None => values.push(ValueClass::new(Side::First, outcome, set)),
        }
    }
    let class = ClassValues { params: big.params(), class: name, values, mover_relative: true };
    Ok(SubgameClass { class, gap_states: gap.count() })
}

/// The K v K class of `big`, after checking that `small` is its K-piece subgame.
fn kv_k_class(small: &Ostle, big: &Ostle) -> Result<PositionClass> {
    let (s, b) = (small.variant(), big.variant());
    let same_game = (s.width, s.height, s.lose_at, s.rule) == (b.width, b.height, b.lose_at, b.rule);
    if !same_game || s.pieces >= b.pieces {
        return Err(Error::Mismatch(format!(
            "{} is not a subgame of {}: it needs the same board, limit and rule and fewer pieces",
            small.name(),
            big.name()
        )));
    }
    let name = format!("{0}v{0}", s.pieces);
    Ok(big.classes()?.into_iter().find(|c| c.name == name).expect("every K v K above the limit is a class"))
}

/// The values of the gap states by one explicit step: won in d + 1 if some move leads to a
/// position lost in d (the least such d), lost in d + 1 if every move leads to a won position
/// (the largest d), a draw otherwise.
fn gap_values(big: &Ostle, solution: &Solution, gap: &Dfa) -> Result<HashMap<Outcome, Vec<Vec<Symbol>>>> {
    let states: Vec<Vec<Symbol>> = gap.iter().collect();
    let valued: Vec<(Outcome, Vec<Symbol>)> = states
        .into_par_iter()
        .map(|board| {
            let pos = Position { side: Side::First, board };
            let mut best_win: Option<u32> = None;
            let mut longest_loss: Option<u32> = Some(0);
            let moves = big.explicit_moves(&pos);
            for next in &moves {
                match solution.value(next) {
                    Some(Outcome::Loss { plies: Some(d) }) => best_win = Some(best_win.map_or(d, |b| b.min(d))),
                    Some(Outcome::Win { plies: Some(d) }) => longest_loss = longest_loss.map(|l| l.max(d)),
                    Some(Outcome::Draw) => longest_loss = None,
                    _ => {
                        return Err(Error::Mismatch(format!(
                            "a move from {} leads to {}, which the solution of the smaller game does not value exactly",
                            big.render(&pos),
                            big.render(next)
                        )));
                    }
                }
            }
            let outcome = match (best_win, longest_loss) {
                _ if moves.is_empty() => Outcome::Loss { plies: Some(0) },
                (Some(d), _) => Outcome::Win { plies: Some(d + 1) },
                (None, Some(d)) => Outcome::Loss { plies: Some(d + 1) },
                (None, None) => Outcome::Draw,
            };
            Ok((outcome, pos.board))
        })
        .collect::<Result<_>>()?;
    let mut by_outcome: HashMap<Outcome, Vec<Vec<Symbol>>> = HashMap::new();
    for (outcome, board) in valued {
        by_outcome.entry(outcome).or_default().push(board);
    }
    Ok(by_outcome)
}
