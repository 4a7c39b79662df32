//! Explicit solvers over the explicit rules only (no DFAs): memoised minimax from a start
//! with exact distances, for acyclic games, and a counter retrograde over every position, for
//! games with cycles and draws as well.
use dfasolve::game::{Game, Outcome, Position, Side, Status};
use std::collections::HashMap;

/// Value (with exact distance) of every position reachable from `start`.
pub fn solve_reachable(game: &dyn Game, start: &Position) -> HashMap<Position, Outcome> {
    let mut memo: HashMap<Position, Outcome> = HashMap::new();
    // Iterative post-order DFS (recursion depth would follow game length, fine, but keep the
    // stack explicit so deep boards cannot overflow).
    let mut stack: Vec<(Position, bool)> = vec![(start.clone(), false)];
    while let Some((pos, expanded)) = stack.pop() {
        if memo.contains_key(&pos) {
            continue;
        }
        match game.explicit_status(&pos) {
            Status::Lost => {
                memo.insert(pos, Outcome::Loss { plies: Some(0) });
                continue;
            }
            Status::Won => {
                memo.insert(pos, Outcome::Win { plies: Some(0) });
                continue;
            }
            Status::Drawn => panic!("{}: a drawn ending, which minimax without draws cannot value", game.name()),
            Status::Ongoing => {}
        }
        let moves = game.explicit_moves(&pos);
        if !expanded {
            stack.push((pos.clone(), true));
            for m in moves {
                if !memo.contains_key(&m) {
                    stack.push((m, false));
                }
            }
            continue;
        }
        let values: Vec<Outcome> = moves.iter().map(|m| memo[m]).collect();
        let fastest_win = values
            .iter()
            .filter_map(|v| match v {
                Outcome::Loss { plies: Some(p) } => Some(p + 1),
                _ => None,
            })
            .min();
        let value = match fastest_win {
            Some(p) => Outcome::Win { plies: Some(p) },
            None => {
                let longest = values
                    .iter()
                    .map(|v| match v {
                        Outcome::Win { plies: Some(p) } => p + 1,
                        _ => unreachable!("acyclic game without draws"),
                    })
                    .max();
                Outcome::Loss { plies: longest }
            }
        };
        memo.insert(pos, value);
    }
    memo
}

/// Value (with exact distance, and draws) of every position in `positions`, which must be
/// closed under the explicit moves: a counter retrograde over the explicit rules alone, for
/// games with cycles as well. Positions are keyed as the solution keys them: side `First`
/// for every position of a mover-relative game.
///
/// Positions are decided in order of distance: a win at `d + 1` from its first successor
/// lost at `d`, a loss when its last undecided successor is decided (a win, at the largest
/// distance, since wins are decided in increasing distance). Whatever is never decided is a
/// draw. An ongoing position without a move is lost at once, as the solver rules.
pub fn solve_retrograde(game: &dyn Game, positions: &[Position]) -> HashMap<Position, Outcome> {
    let key = |p: &Position| -> Position {
        if game.mover_relative() { Position { side: Side::First, board: p.board.clone() } } else { p.clone() }
    };
    let index: HashMap<Position, usize> = positions.iter().enumerate().map(|(i, p)| (key(p), i)).collect();
    assert_eq!(index.len(), positions.len(), "{}: positions are distinct", game.name());
    let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); positions.len()];
    let mut undecided_moves = vec![0usize; positions.len()];
    let mut value: Vec<Option<Outcome>> = vec![None; positions.len()];
    let mut frontier: Vec<usize> = Vec::new();
    for (i, pos) in positions.iter().enumerate() {
        match game.explicit_status(pos).outcome() {
            Some(Outcome::Draw) => continue,
            Some(terminal) => {
                value[i] = Some(terminal);
                frontier.push(i);
                continue;
            }
            None => {}
        }
        let moves = game.explicit_moves(pos);
        for m in &moves {
            let Some(&j) = index.get(&key(m)) else {
                panic!(
                    "{}: {} moves outside the positions given, to {}",
                    game.name(),
                    game.render(pos),
                    game.render(m)
                );
            };
            predecessors[j].push(i);
        }
        undecided_moves[i] = moves.len();
        if moves.is_empty() {
            value[i] = Some(Outcome::Loss { plies: Some(0) });
            frontier.push(i);
        }
    }
    // Breadth-first by distance: every position of `frontier` is decided at `distance`.
    let mut distance = 0;
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &j in &frontier {
            let lost = matches!(value[j], Some(Outcome::Loss { .. }));
            for &i in &predecessors[j] {
                if value[i].is_some() {
                    continue;
                }
                undecided_moves[i] -= 1;
                if lost {
                    value[i] = Some(Outcome::Win { plies: Some(distance + 1) });
                    next.push(i);
                } else if undecided_moves[i] == 0 {
                    value[i] = Some(Outcome::Loss { plies: Some(distance + 1) });
                    next.push(i);
                }
            }
        }
        frontier = next;
        distance += 1;
    }
    positions.iter().zip(value).map(|(p, v)| (key(p), v.unwrap_or(Outcome::Draw))).collect()
}
