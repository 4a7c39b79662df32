//! The lines of a board: every run of `line` squares across, up or diagonally, as layers.

use super::Connect4;
use crate::dfa::limits::Stoppable;
use crate::dfa::{Dfa, Symbol};

/// Every line of `game`, each as the layers of its squares.
pub(super) fn lines(game: &Connect4) -> Vec<Vec<usize>> {
    let (w, h, n) = (game.width as i64, game.height as i64, game.line as i64);
    let mut out = Vec::new();
    for column in 0..w {
        for row in 0..h {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let (end_c, end_r) = (column + dc * (n - 1), row + dr * (n - 1));
                if (0..w).contains(&end_c) && (0..h).contains(&end_r) {
                    out.push((0..n).map(|i| game.layer((column + dc * i) as usize, (row + dr * i) as usize)).collect());
                }
            }
        }
    }
    out
}

/// Boards on which `symbol` fills some line: the union of one small set per line.
pub(super) fn any_line(game: &Connect4, symbol: Symbol) -> Stoppable<Dfa> {
    let sets: Vec<Dfa> = game
        .lines
        .iter()
        .map(|squares| Dfa::from_allowed(&game.shape, |l, s| !squares.contains(&l) || s == symbol))
        .collect();
    let refs: Vec<&Dfa> = sets.iter().collect();
    Dfa::union_all(&game.shape, &refs)
}

/// Whether `symbol` fills some line of `board`.
pub(super) fn has_line(game: &Connect4, board: &[Symbol], symbol: Symbol) -> bool {
    game.lines.iter().any(|squares| squares.iter().all(|&l| board[l] == symbol))
}
