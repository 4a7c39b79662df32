//! How large the two candidate `within` sets of a class iteration's images are, read from a
//! class job's checkpoints of the standard Ostle game (issue 25, §4): the undecided positions
//! (what the solver uses), and the ongoing positions not won. A lost position has no move into
//! a loss of the opponent, so the new wins are the same within either; the question is which
//! DFA is smaller, since the undecided set's grows as decided positions are subtracted.
//!
//! Run: `cargo run --release --example within_choice -- CHECKPOINT_DIR CLASS ITERATIONS`
//! (e.g. `ckpt 5v4 6`, from `dfasolve ostle --by-classes DIR --class 5v4 --checkpoint ckpt`).
use dfasolve::dfa::Dfa;
use dfasolve::dfa::file::Bundle;
use dfasolve::game::{Rules, SolverHints};
use dfasolve::games::ostle::{Ostle, Rule, Variant};
use dfasolve::solver::Solver;
use dfasolve::vocabulary::Side;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, class_name, iterations] = &args[..] else {
        eprintln!("usage: within_choice CHECKPOINT_DIR CLASS ITERATIONS");
        return ExitCode::FAILURE;
    };
    match run(Path::new(dir), class_name, iterations) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(dir: &Path, class_name: &str, iterations: &str) -> Result<(), String> {
    let t = Instant::now();
    let n: usize = iterations.parse().map_err(|_| format!("not a number of iterations: {iterations}"))?;
    let game = Ostle::new(Variant { width: 5, height: 5, pieces: 5, lose_at: 3, rule: Rule::Exact })
        .map_err(|e| e.to_string())?;
    let class = game
        .classes()
        .map_err(|e| e.to_string())?
        .into_iter()
        .find(|c| c.name == class_name)
        .ok_or(format!("no class {class_name}"))?;
    let solver = Solver::new(&game).map_err(|e| e.to_string())?;
    let ongoing = solver.ongoing(Side::First).intersection(&class.set).map_err(|e| e.to_string())?;
    let shape = game.shape().clone();
    let (mut won, mut lost) = (Dfa::reject_all(&shape), Dfa::reject_all(&shape));
    for i in 1..=n {
        let path = dir.join(format!("class-{class_name}-backward-{i:04}.dfas"));
        let b = Bundle::load(&path).map_err(|e| e.to_string())?;
        let get = |k: &str| b.get(k).cloned().ok_or(format!("{}: no {k}", path.display()));
        won = won.union(&get("new_win/first")?).map_err(|e| e.to_string())?;
        lost = lost.union(&get("new_loss/first")?).map_err(|e| e.to_string())?;
    }
    let not_won = ongoing.difference(&won).map_err(|e| e.to_string())?;
    let undecided = not_won.difference(&lost).map_err(|e| e.to_string())?;
    let not_lost = ongoing.difference(&lost).map_err(|e| e.to_string())?;
    println!(
        "class {class_name} after {n} iterations: ongoing {}, wins {}, losses {}, ongoing not won {}, \
         ongoing not lost {}, undecided {} DFA states ({:.0} s)",
        ongoing.nontrivial_state_count(),
        won.nontrivial_state_count(),
        lost.nontrivial_state_count(),
        not_won.nontrivial_state_count(),
        not_lost.nontrivial_state_count(),
        undecided.nontrivial_state_count(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
