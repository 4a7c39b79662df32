//! Compression of Othello's simplest value sets over every board string, the sets a BDD
//! solver builds first: the ended boards Black has won (Black to move, neither side can move,
//! more Black discs), and the boards where Black to move wins at once (a move into an ended
//! board White to move has lost). Per board: positions, DFA states, bytes on disk and bytes
//! per position, to set beside a BDD's bytes per state for the same sets.
//!
//! `cargo run --release --example othello_won_ends [WxH ...]` (default 4x4 4x5 5x5 4x6 5x6)

use dfasolve::dfa::Dfa;
use dfasolve::game::{Rules, SolverHints};
use dfasolve::games::othello::Othello;
use dfasolve::vocabulary::Side;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sizes: Vec<String> = std::env::args().skip(1).collect();
    let sizes = if sizes.is_empty() { ["4x4", "4x5", "5x5", "4x6", "5x6"].map(String::from).to_vec() } else { sizes };
    println!("board  set            positions            DFA states   disk bytes    bytes/position  seconds");
    for size in &sizes {
        let (w, h) = size.split_once('x').ok_or_else(|| format!("{size}: not WxH"))?;
        let game = Othello::new(w.parse()?, h.parse()?, 0)?;
        let started = Instant::now();
        let won_ends = game.won_terminal(Side::First)?;
        report(size, "won ends", &won_ends, started);
        let started = Instant::now();
        let lost_ends_white = game.lost_terminal(Side::Second)?;
        let movable = game
            .universe(Side::First)?
            .difference(&game.stuck(Side::First)?.expect("Othello names its stuck boards"))?;
        let wins_in_one = game.moves(Side::First)?.backward_within(&lost_ends_white, &movable)?;
        report(size, "wins in one", &wins_in_one, started);
    }
    Ok(())
}

fn report(size: &str, name: &str, set: &Dfa, started: Instant) {
    let positions = set.count();
    let bytes = set.disk_bytes();
    println!(
        "{size:<6} {name:<12} {positions:>18} {:>13} {bytes:>12} {:>17.5} {:>8.1}",
        set.state_count(),
        bytes as f64 / positions.max(1) as f64,
        started.elapsed().as_secs_f64()
    );
}
