//! How far Ostle(W×H, K, T) is from the K v K class of Ostle(W×H, K+1, T): the states of
//! that class that only a move removing a piece from a bigger board reaches (issue 25, §4).
//! `dfasolve ostle --class-from-subgame` values them by one explicit step; this only counts
//! them, without a solution, so it runs in seconds on 5x5.
//!
//! Run: `cargo run --release --example subgame_gap -- WIDTH HEIGHT K LOSE_AT`
use dfasolve::game::{Position, Rules};
use dfasolve::games::ostle::subgame::removal_gap;
use dfasolve::games::ostle::{Ostle, Rule, Variant};
use dfasolve::vocabulary::Side;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let [width, height, pieces, lose_at] = args[..] else {
        eprintln!("usage: subgame_gap WIDTH HEIGHT K LOSE_AT");
        return ExitCode::FAILURE;
    };
    let t = Instant::now();
    let variant = |pieces| Ostle::new(Variant { width, height, pieces, lose_at, rule: Rule::Exact });
    let gap = match (variant(pieces), variant(pieces + 1)) {
        (Ok(small), Ok(big)) => removal_gap(&small, &big).map(|(class, gap)| (small, big, class, gap)),
        (Err(e), _) | (_, Err(e)) => Err(e),
    };
    let (small, big, class, gap) = match gap {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{}: {} states of class {class} are outside {} ({} DFA states), found in {:.1} s",
        big.name(),
        gap.count(),
        small.name(),
        gap.state_count(),
        t.elapsed().as_secs_f64()
    );
    for board in gap.iter().take(5) {
        println!("  e.g. {}", small.render(&Position { side: Side::First, board }));
    }
    ExitCode::SUCCESS
}
