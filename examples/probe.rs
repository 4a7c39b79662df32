//! The library's probing API: open a saved solution once, then ask it the value of positions
//! and of every move from them. What `dfasolve query` does, as a program of your own would.
//!
//! Run: `cargo run --release --example probe -- SOLUTION 'POSITION' ['POSITION' ...]`, where
//! SOLUTION is a solution file or a directory of Ostle class tables; e.g. after
//! `dfasolve breakthrough --width 4 --height 4 --strong`:
//! `cargo run --release --example probe -- solutions/breakthrough-4x4-strong.dfas 'xxxx/xxxx/oooo/oooo first'`
use dfasolve::solved::explore;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((file, positions)) = args.split_first() else {
        eprintln!("usage: probe SOLUTION POSITION...");
        return ExitCode::FAILURE;
    };
    // The game comes with the solution: its rules parse and render positions.
    let solved = match dfasolve::solved::open(std::path::Path::new(file), &dfasolve::games::GAMES) {
        Ok(solved) => solved,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    for text in positions {
        // A look is the position's value and every move's, best for the mover first.
        let look = match solved.look(text) {
            Ok(look) => look,
            Err(e) => {
                eprintln!("{text}: {e}");
                return ExitCode::FAILURE;
            }
        };
        println!("{}: {}", look.position, explore::value_words(look.value));
        for m in &look.moves {
            println!("  {:>10}  {} for the opponent", m.name, explore::value_words(m.value_for_opponent));
        }
    }
    ExitCode::SUCCESS
}
