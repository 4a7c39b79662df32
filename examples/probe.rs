//! The library's probing API: open a saved solution once, then ask it the value of positions
//! and of every move from them. What `dfasolve query` does, as a program of your own would.
//!
//! Run: `cargo run --release --example probe -- SOLUTION.dfas 'POSITION' ['POSITION' ...]`
//! e.g. after `dfasolve breakthrough --width 4 --height 4 --strong`:
//! `cargo run --release --example probe -- solutions/breakthrough-4x4-strong.dfas 'xxxx/xxxx/oooo/oooo first'`
use dfasolve::games::{Solution, Status};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((file, positions)) = args.split_first() else {
        eprintln!("usage: probe SOLUTION POSITION...");
        return ExitCode::FAILURE;
    };
    // The game comes with the solution: its rules parse and render positions.
    let (game, solution) = match Solution::load(std::path::Path::new(file)) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    for text in positions {
        let pos = match game.parse(text) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("{text}: {e}");
                return ExitCode::FAILURE;
            }
        };
        // `checked_value` also checks that the position is in one value class only.
        let value = match solution.checked_value(&pos) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("{text}: {e}");
                return ExitCode::FAILURE;
            }
        };
        println!("{}: {}", game.render(&pos), value.map_or("not covered".to_string(), |v| v.to_string()));
        if game.explicit_status(&pos) != Status::Ongoing {
            continue;
        }
        for next in game.explicit_moves(&pos) {
            let after = solution.value(&next).map_or("not covered".to_string(), |v| format!("{v} for the opponent"));
            println!("  {:>10}  {after}", game.move_name(&pos, &next));
        }
    }
    ExitCode::SUCCESS
}
