//! The reference solves by the explicit rules of any game: memoised minimax from a start, for
//! games without cycles or draws, and a counter retrograde over a closed set of positions, for
//! any game. Plain hash maps over [`Position`]s: for boards small enough to hold every
//! position, as the oracle of the symbolic solves and of the games' own explicit solvers.

use super::Exact;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::vocabulary::{Position, Side, Status};
use std::collections::HashMap;

/// The value of every position reachable from `start`, by memoised minimax over the explicit
/// rules.
///
/// # Errors
/// [`Error::NotApplicable`] for a game where a position reachable from `start` ends in a
/// draw or reaches itself again (minimax without draws cannot value it).
pub fn solve_reachable(game: &dyn Game, start: &Position) -> Result<HashMap<Position, Exact>> {
    let mut memo: HashMap<Position, Exact> = HashMap::new();
    // An explicit stack: a game's length would set the depth of a recursion.
    let mut stack: Vec<(Position, bool)> = vec![(start.clone(), false)];
    let not_applicable = |why: &str, pos: &Position| {
        Error::NotApplicable(format!("{}: {why} at {}; use solve_retrograde", game.name(), game.render(pos)))
    };
    while let Some((pos, expanded)) = stack.pop() {
        if memo.contains_key(&pos) {
            continue;
        }
        match game.explicit_status(&pos) {
            Status::Lost => {
                memo.insert(pos, Exact::Loss(0));
                continue;
            }
            Status::Won => {
                memo.insert(pos, Exact::Win(0));
                continue;
            }
            Status::Drawn => return Err(not_applicable("a drawn ending", &pos)),
            Status::Ongoing => {}
        }
        let moves = game.explicit_moves(&pos);
        if !expanded {
            stack.push((pos.clone(), true));
            stack.extend(moves.into_iter().filter(|m| !memo.contains_key(m)).map(|m| (m, false)));
            continue;
        }
        // Every move is valued by now unless it leads back to a position under way.
        let mut value = Exact::Loss(0);
        for m in &moves {
            let v = memo.get(m).ok_or_else(|| not_applicable("a cycle", m))?;
            value = value.best(v.before());
        }
        memo.insert(pos, value);
    }
    Ok(memo)
}

/// The value of every position of `positions`, which must be closed under the explicit
/// moves, by a counter retrograde over the explicit rules: for games with cycles and draws as
/// well. Positions are keyed as a solution keys them: side [`Side::First`] for every position
/// of a game with mover-relative strings.
///
/// Positions are decided in order of distance: a win at `d + 1` from its first move into a
/// loss at `d`, a loss when its last undecided move is decided (into a win, at the largest
/// distance, since wins are decided in increasing distance). What is never decided is a draw.
/// An ongoing position without a move is lost at once, as the solver rules.
///
/// # Errors
/// [`Error::Mismatch`] if a position is listed twice or moves outside `positions`.
pub fn solve_retrograde(game: &dyn Game, positions: &[Position]) -> Result<HashMap<Position, Exact>> {
    let key = |p: &Position| -> Position {
        if game.mover_relative() { Position { side: Side::First, board: p.board.clone() } } else { p.clone() }
    };
    let index: HashMap<Position, usize> = positions.iter().enumerate().map(|(i, p)| (key(p), i)).collect();
    if index.len() != positions.len() {
        return Err(Error::Mismatch(format!("{}: a position is listed twice", game.name())));
    }
    let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); positions.len()];
    let mut undecided_moves = vec![0usize; positions.len()];
    let mut value: Vec<Option<Exact>> = vec![None; positions.len()];
    let mut frontier: Vec<usize> = Vec::new();
    for (i, pos) in positions.iter().enumerate() {
        match game.explicit_status(pos) {
            Status::Drawn => continue,
            Status::Lost => {
                value[i] = Some(Exact::Loss(0));
                frontier.push(i);
                continue;
            }
            Status::Won => {
                value[i] = Some(Exact::Win(0));
                frontier.push(i);
                continue;
            }
            Status::Ongoing => {}
        }
        let moves = game.explicit_moves(pos);
        for m in &moves {
            let &j = index.get(&key(m)).ok_or_else(|| {
                Error::Mismatch(format!(
                    "{}: {} moves outside the positions given, to {}",
                    game.name(),
                    game.render(pos),
                    game.render(m)
                ))
            })?;
            predecessors[j].push(i);
        }
        undecided_moves[i] = moves.len();
        if moves.is_empty() {
            value[i] = Some(Exact::Loss(0));
            frontier.push(i);
        }
    }
    // Breadth-first by distance: every position of `frontier` is decided at `distance`.
    let mut distance = 0;
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &j in &frontier {
            let lost = matches!(value[j], Some(Exact::Loss(_)));
            for &i in &predecessors[j] {
                if value[i].is_some() {
                    continue;
                }
                undecided_moves[i] -= 1;
                if lost {
                    value[i] = Some(Exact::Win(distance + 1));
                    next.push(i);
                } else if undecided_moves[i] == 0 {
                    value[i] = Some(Exact::Loss(distance + 1));
                    next.push(i);
                }
            }
        }
        frontier = next;
        distance += 1;
    }
    Ok(positions.iter().zip(value).map(|(p, v)| (key(p), v.unwrap_or(Exact::Draw))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    /// Both solves agree on every position reachable from the start, and with the rule that
    /// tells the lost positions; a set of positions that is not closed under the moves is
    /// refused.
    #[test]
    fn both_solves_agree_with_each_other_and_with_a_known_rule() {
        let game = crate::games::fixtures::a_game_lost_where_the_symbols_xor_to_zero();
        let start = game.initial();
        let reachable = solve_reachable(&game, &start).unwrap();
        // The game's strings are the mover's view: a board is one position whoever moves.
        let boards: std::collections::BTreeSet<Vec<crate::dfa::Symbol>> =
            reachable.keys().map(|p| p.board.clone()).collect();
        let positions: Vec<Position> = boards.into_iter().map(|board| Position { side: Side::First, board }).collect();
        let retrograde = solve_retrograde(&game, &positions).unwrap();
        for (p, v) in &reachable {
            assert_eq!(retrograde[&Position { side: Side::First, board: p.board.clone() }], *v, "{p:?}");
            let xor = p.board.iter().fold(0, |x, &h| x ^ h);
            assert_eq!(matches!(v, Exact::Loss(_)), xor == 0, "{p:?}");
            assert_ne!(*v, Exact::Draw);
        }
        let without_the_end: Vec<Position> =
            positions.iter().filter(|p| p.board.iter().any(|&h| h > 0)).cloned().collect();
        assert!(matches!(solve_retrograde(&game, &without_the_end), Err(Error::Mismatch(_))));
    }
}
