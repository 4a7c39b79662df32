//! The boards of an Ostle variant where the two readings of the no-undo rule differ, by
//! pieces, raw and up to symmetry, and what listing the class reading's moves costs there
//! (issue 25, §5). The census prints the same counts; this runs in seconds on 5x5, where the
//! census takes most of an hour.
//!
//! Run: `cargo run --release --example readings_differ -- WIDTH HEIGHT PIECES LOSE_AT`
use dfasolve::game::Rules;
use dfasolve::games::ostle::explicit::Cell;
use dfasolve::games::ostle::{Ostle, Rule, Variant};
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let [width, height, pieces, lose_at] = args[..] else {
        eprintln!("usage: readings_differ WIDTH HEIGHT PIECES LOSE_AT");
        return ExitCode::FAILURE;
    };
    let v = match (Variant { width, height, pieces, lose_at, rule: Rule::Class }).checked() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let t = Instant::now();
    let candidates = v.almost_symmetric_candidates();
    println!(
        "Ostle({width}x{height}, {pieces}, {lose_at}): {candidates} candidate boards counted in {:.2} s",
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let boards = v.almost_symmetric_boards();
    println!("{} boards where the readings differ, listed in {:.2} s", boards.len(), t.elapsed().as_secs_f64());
    // Orbits by canonical form: the least of a board's symmetric images.
    let mut by_pieces: BTreeMap<(usize, usize), Vec<Vec<Cell>>> = BTreeMap::new();
    for b in &boards {
        let canonical = v.symmetric_images(b).into_iter().min().expect("the identity is an image");
        by_pieces.entry(Variant::piece_counts(b)).or_default().push(canonical);
    }
    println!("{:>12} {:>12} {:>15} {:>14}", "mover v opp", "boards", "up to symmetry", "listed states");
    for ((mine, theirs), mut canon) in by_pieces {
        let raw = canon.len();
        canon.sort();
        canon.dedup();
        let states: usize = boards
            .iter()
            .filter(|b| Variant::piece_counts(b) == (mine, theirs))
            .map(|b| 1 + v.all_moves(b).len())
            .sum();
        println!("{:>12} {raw:>12} {:>15} {states:>14}", format!("{mine} v {theirs}"), canon.len());
    }
    let t = Instant::now();
    match Ostle::new(v) {
        Ok(game) => {
            let listed = game.listed_moves(dfasolve::game::Side::First).map_or(0, |l| l.sources().count());
            println!("the class reading's game built in {:.2} s: {listed} listed states", t.elapsed().as_secs_f64());
        }
        Err(e) => println!("the class reading's game: {e}"),
    }
    ExitCode::SUCCESS
}
