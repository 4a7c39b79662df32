//! How large a saved Ostle solution's value classes would be under other layouts of the same
//! positions: other orders of reading the squares, and each class split by the hole's square.
//! A measurement for choosing a layout before changing the game's encoding (issue 25, §4).
//!
//! Run: `cargo run --release --example set_layouts -- SOLUTION.dfas`
//! (an Ostle solution of a small variant: every class is listed string by string).
//!
//! Marker layouts: the encoding writes the forbidden move on the square it concerns; the
//! alternatives write it as one more layer (square and kind), first or last.
//!
//! Orders (square `rank · W + file` read at layer `i` is `order[i]`):
//! rows (the encoding's own), snake (every other rank reversed), diagonals (anti-diagonal by
//! anti-diagonal), spiral (the rim first, clockwise, inwards), centre-out (by distance from the
//! centre, then row by row), and columns on a board that is not square (on a square board they
//! are rows under the transposition, a symmetry of the game, so their sizes are equal).
use dfasolve::dfa::{Dfa, Shape, Symbol};
use dfasolve::games::ostle::{EMPTY, HOLE, HOLE_BANNED, MINE, Variant};
use dfasolve::solved::Solution;
use std::path::Path;
use std::process::ExitCode;

fn orders(w: usize, h: usize) -> Vec<(&'static str, Vec<usize>)> {
    let rows: Vec<usize> = (0..w * h).collect();
    let snake: Vec<usize> =
        (0..h).flat_map(|r| (0..w).map(move |f| if r % 2 == 0 { r * w + f } else { r * w + w - 1 - f })).collect();
    let mut diagonals = rows.clone();
    diagonals.sort_by_key(|&s| (s / w + s % w, s / w));
    let mut spiral = Vec::new();
    let (mut top, mut bottom, mut left, mut right) = (0i64, h as i64 - 1, 0i64, w as i64 - 1);
    while top <= bottom && left <= right {
        spiral.extend((left..=right).map(|f| top * w as i64 + f));
        spiral.extend((top + 1..=bottom).map(|r| r * w as i64 + right));
        if top < bottom {
            spiral.extend((left..right).rev().map(|f| bottom * w as i64 + f));
        }
        if left < right {
            spiral.extend((top + 1..bottom).rev().map(|r| r * w as i64 + left));
        }
        (top, bottom, left, right) = (top + 1, bottom - 1, left + 1, right - 1);
    }
    let spiral: Vec<usize> = spiral.into_iter().map(|s| s as usize).collect();
    let mut centre_out = rows.clone();
    let distance = |s: usize| {
        let (r, f) = ((s / w) as i64 * 2 - (h as i64 - 1), (s % w) as i64 * 2 - (w as i64 - 1));
        r * r + f * f
    };
    centre_out.sort_by_key(|&s| (distance(s), s));
    let mut all = vec![("rows", rows)];
    if w != h {
        all.push(("columns", (0..w * h).map(|i| (i % h) * w + i / h).collect()));
    }
    all.extend([("snake", snake), ("diagonals", diagonals), ("spiral", spiral), ("centre-out", centre_out)]);
    all
}

fn reordered(set: &Dfa, order: &[usize]) -> Dfa {
    let strings: Vec<Vec<Symbol>> = set.iter().map(|s| order.iter().map(|&square| s[square]).collect()).collect();
    Dfa::from_strings(set.shape(), &strings)
}

/// `set` with the forbidden-move marker taken off its square and written as one extra layer,
/// first or last: 0 for none, else `1 + 5 · square + (symbol - HOLE_BANNED)`.
fn marker_layer(set: &Dfa, first: bool) -> Dfa {
    let n = set.shape().len();
    let code_symbols = u16::try_from(1 + 5 * n).expect("a small board");
    let mut sizes = vec![set.shape().alphabet(0) as u16; n];
    if first {
        sizes.insert(0, code_symbols);
    } else {
        sizes.push(code_symbols);
    }
    let strings: Vec<Vec<Symbol>> = set
        .iter()
        .map(|s| {
            let mut code: Symbol = 0;
            let mut board: Vec<Symbol> = s.clone();
            for (square, c) in board.iter_mut().enumerate() {
                if *c >= HOLE_BANNED {
                    code = Symbol::try_from(1 + 5 * square + usize::from(*c - HOLE_BANNED)).expect("a small board");
                    *c = if *c == HOLE_BANNED { EMPTY } else { MINE };
                }
            }
            if first {
                board.insert(0, code);
            } else {
                board.push(code);
            }
            board
        })
        .collect();
    Dfa::from_strings(&Shape::new(sizes), &strings)
}

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: set_layouts SOLUTION.dfas");
        return ExitCode::FAILURE;
    };
    let (_, solution) = match Solution::load(Path::new(&path), &dfasolve::games::GAMES) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Ok(Some(variant)) = solution.params.fields::<Variant>("ostle") else {
        eprintln!("error: {path}: not an Ostle solution");
        return ExitCode::FAILURE;
    };
    let (w, h) = (variant.width, variant.height);
    let classes: Vec<&Dfa> = solution.classes.iter().map(|c| &c.set).collect();
    let total = |sets: &mut dyn Iterator<Item = Dfa>| sets.map(|d| d.nontrivial_state_count()).sum::<usize>();
    println!(
        "{path}: {} value classes holding {} states (board and forbidden move)",
        classes.len(),
        classes.iter().map(|d| d.count()).sum::<u128>()
    );
    println!("{:>24} {:>14}", "layout", "DFA states");
    for (name, order) in orders(w, h) {
        println!("{name:>24} {:>14}", total(&mut classes.iter().map(|d| reordered(d, &order))));
    }
    for (name, first) in [("rows, marker layer first", true), ("rows, marker layer last", false)] {
        println!("{name:>24} {:>14}", total(&mut classes.iter().map(|d| marker_layer(d, first))));
    }
    let shape = classes[0].shape().clone();
    let hole_at: Vec<Dfa> =
        (0..w * h).map(|square| Dfa::from_allowed(&shape, |l, c| (l == square) == (c == HOLE))).collect();
    let by_hole = total(&mut classes.iter().flat_map(|d| hole_at.iter().map(|hole| d.intersection(hole).unwrap())));
    println!("{:>24} {by_hole:>14}", "rows, split by hole");
    ExitCode::SUCCESS
}
