//! The class reading written straight from the published rule over cell vectors, for the
//! tests: every canonical state the rule creates from the start, and each one's value by a
//! plain retrograde count, sharing none of the ranked solver's board code.

use super::super::Variant;
use super::super::explicit::{Cell, Move, State};
use crate::vocabulary::Outcome;
use hashbrown::{HashMap, HashSet};

pub(super) fn canonical(v: &Variant, cells: &[Cell]) -> Vec<Cell> {
    v.canonical_board(cells)
}

pub(super) fn after(v: &Variant, p: &[Cell], m: Move) -> State {
    v.published_after(p, m)
}

pub(super) fn can_capture_to_win(v: &Variant, cells: &[Cell]) -> bool {
    v.all_moves(cells).into_iter().any(|m| {
        let r = v.play(cells, m);
        r.removed == Some(Cell::Theirs) && v.finished(&Variant::turn_over(&r.cells)) == Some(false)
    })
}

/// The oracle: every canonical state the rule creates, with its value.
pub(super) fn class_oracle(v: &Variant) -> (HashMap<State, Outcome>, usize) {
    let mut states: HashSet<State> = HashSet::new();
    let mut nontrivial: HashSet<State> = HashSet::new();
    let start = State { cells: canonical(v, &v.initial_state().cells), forbidden: None };
    states.insert(start.clone());
    if !can_capture_to_win(v, &start.cells) {
        nontrivial.insert(start);
    }
    for p in v.all_boards() {
        if v.finished(&p).is_some() {
            continue;
        }
        for m in v.all_moves(&p) {
            let s = after(v, &p, m);
            if v.finished(&s.cells).is_some() {
                continue;
            }
            if !can_capture_to_win(v, &s.cells) {
                nontrivial.insert(s.clone());
            }
            states.insert(s);
        }
    }
    // Values by increasing distance, straight from the definition: a win in n plies has a
    // move into a loss in n - 1; a loss in n has only moves into wins, the longest in n - 1.
    let list: Vec<State> = states.into_iter().collect();
    let index: HashMap<&State, usize> = list.iter().enumerate().map(|(i, s)| (s, i)).collect();
    // A move's result for the mover's opponent: a state, or the game over (Win(0): the
    // opponent has won; Loss(0): lost).
    enum Next {
        State(usize),
        Over(Outcome),
    }
    let succ: Vec<Vec<Next>> = list
        .iter()
        .map(|s| {
            v.all_moves(&s.cells)
                .into_iter()
                .filter(|&m| Some(m) != s.forbidden)
                .map(|m| {
                    let q = Variant::turn_over(&v.play(&s.cells, m).cells);
                    match v.finished(&q) {
                        Some(true) => Next::Over(Outcome::Win { plies: Some(0) }),
                        Some(false) => Next::Over(Outcome::Loss { plies: Some(0) }),
                        None => Next::State(index[&after(v, &s.cells, m)]),
                    }
                })
                .collect()
        })
        .collect();
    let mut values: Vec<Option<Outcome>> = vec![None; list.len()];
    let mut n = 0;
    loop {
        let mut changed = false;
        let decided: Vec<Option<Outcome>> = (0..list.len())
            .map(|i| {
                if values[i].is_some() {
                    return None;
                }
                let of = |x: &Next| match x {
                    Next::State(j) => values[*j],
                    Next::Over(v) => Some(*v),
                };
                let wins = succ[i].iter().any(|x| n >= 1 && of(x) == Some(Outcome::Loss { plies: Some(n - 1) }));
                if wins {
                    return Some(Outcome::Win { plies: Some(n) });
                }
                let longest = succ[i].iter().map(|x| match of(x) {
                    Some(Outcome::Win { plies: Some(m) }) => Some(m),
                    _ => None,
                });
                let all: Option<Vec<u32>> = longest.collect();
                match all {
                    Some(ms) if ms.iter().copied().max().map_or(0, |m| m + 1) == n => {
                        Some(Outcome::Loss { plies: Some(n) })
                    }
                    _ => None,
                }
            })
            .collect();
        for (i, d) in decided.into_iter().enumerate() {
            if d.is_some() {
                values[i] = d;
                changed = true;
            }
        }
        n += 1;
        if !changed
            && values.iter().all(|x| {
                x.is_some_and(
                    |v| !matches!(v, Outcome::Win { plies: Some(m) } | Outcome::Loss { plies: Some(m) } if m >= n),
                )
            })
            && n > 300
        {
            break;
        }
        if n > 400 {
            break;
        }
    }
    let values = list.iter().cloned().zip(values.into_iter().map(|x| x.unwrap_or(Outcome::Draw))).collect();
    (values, nontrivial.len())
}
