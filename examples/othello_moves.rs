//! The size of Othello's staged move graph per board: nodes of one side's graph, and the
//! moves a graph with one path per square and choice of runs would need instead (the product
//! over each square's directions of 1 + its possible run lengths, less the choice of none).
//!
//! `cargo run --release --example othello_moves`

use dfasolve::game::Rules;
use dfasolve::games::othello::Othello;
use dfasolve::games::othello::sets::Board;
use dfasolve::vocabulary::Side;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("board  staged nodes  paths (one per square and runs)");
    for (w, h) in [(4, 4), (4, 5), (5, 5), (4, 6), (5, 6), (6, 6), (4, 8), (8, 8)] {
        let game = Othello::new(w, h, 0)?;
        let nodes = game.moves(Side::First)?.node_count();
        let board = Board { width: w, height: h };
        let paths: u64 = (0..w * h)
            .map(|square| {
                let rays = board.rays(square);
                rays.iter().map(|ray| ray.len() as u64).product::<u64>() - u64::from(!rays.is_empty())
            })
            .sum();
        println!("{w}x{h:<4} {nodes:>12}  {paths:>12}");
    }
    Ok(())
}
