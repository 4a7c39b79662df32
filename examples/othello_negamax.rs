//! The exact value of the Othello start by the plain rules' negamax (`games::othello::explicit`):
//! `cargo run --release --example othello_negamax -- 4 4` prints the first player's final disc
//! difference (empty squares to nobody), the positions valued and the time.

use dfasolve::games::othello::explicit::{Geometry, Negamax};
use std::time::Instant;

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let [width, height] = args[..] else {
        eprintln!("usage: othello_negamax WIDTH HEIGHT");
        std::process::exit(2);
    };
    let geometry = match Geometry::new(width, height) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let started = Instant::now();
    let mut negamax = Negamax::new(geometry);
    let value = negamax.value(geometry.start());
    println!(
        "othello {width}x{height}: first player's difference {value:+}, {} positions valued, {:.2} s",
        negamax.positions(),
        started.elapsed().as_secs_f64()
    );
}
