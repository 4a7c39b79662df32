//! An explicit solver over the explicit rules only (no DFAs): memoised minimax with exact
//! distances, for acyclic games (Breakthrough, Nim).
use dfasolve::games::{Game, Outcome, Position, Status};
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
