//! Peak memory of one binary operation on the bench operands (`benches/dfa_ops.rs`), in a
//! fresh process: no memory freed by earlier operations is resident to be reused, so the
//! rise of the peak resident set over the resident inputs is what the operation needs.
//!
//! Run: `cargo run --release --example peak_memory -- <union|intersection|difference> [large]`
//! (`large`: the 6 M-state operands instead of the 0.8 M-state ones). Linux only: it reads
//! `/proc/self/status` and resets the peak with `/proc/self/clear_refs`.
use dfasolve::dfa::{Dfa, Stoppable};
use std::process::ExitCode;

#[path = "../tests/modular.rs"]
mod modular;
#[path = "../benches/resident.rs"]
mod resident;
use resident::resident;

/// The bench's operands: `modular(40009, weights_a/b)` or, large, the spread-modular pair.
fn operands(large: bool) -> (Dfa, Dfa) {
    if large {
        let p = 200_003;
        let spread = |special: &'static [usize]| {
            move |l: usize| if special.contains(&l) { 7 * l + 3 } else { (l * 7919 + 13) * (l + 1) % p }
        };
        (modular::modular(60, p, spread(&[]), &[0, 5, 9]), modular::modular(60, p, spread(&[17, 41]), &[0, 3]))
    } else {
        let weights_a = |l: usize| l * l + 1;
        let weights_b = move |l: usize| if l == 17 || l == 41 { 7 * l + 3 } else { weights_a(l) };
        (modular::modular(60, 40009, weights_a, &[0, 5, 9]), modular::modular(60, 40009, weights_b, &[0, 3]))
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let op: fn(&Dfa, &Dfa) -> Stoppable<Dfa> = match args.first().map(String::as_str) {
        Some("union") => Dfa::union,
        Some("intersection") => Dfa::intersection,
        Some("difference") => Dfa::difference,
        _ => {
            eprintln!("usage: peak_memory <union|intersection|difference> [large]");
            return ExitCode::FAILURE;
        }
    };
    let (a, b) = operands(args.get(1).is_some_and(|x| x == "large"));
    if std::fs::write("/proc/self/clear_refs", "5").is_err() {
        eprintln!("cannot reset the peak resident set (Linux only)");
        return ExitCode::FAILURE;
    }
    let Some((before, _)) = resident() else {
        eprintln!("cannot read /proc/self/status (Linux only)");
        return ExitCode::FAILURE;
    };
    let out = match op(&a, &b) {
        Ok(out) => out,
        Err(stop) => {
            eprintln!("error: {stop}");
            return ExitCode::FAILURE;
        }
    };
    let Some((_, peak)) = resident() else {
        eprintln!("cannot read /proc/self/status (Linux only)");
        return ExitCode::FAILURE;
    };
    let mib = |x: usize| x as f64 / 1048576.0;
    let (inputs, output, rise) = (a.bytes() + b.bytes(), out.bytes(), peak.saturating_sub(before) as usize);
    println!(
        "{}: inputs {:.1} MiB, output {:.1} MiB ({} states), peak above the resident inputs {:.1} MiB = {:.2}x (inputs + output)",
        args[0],
        mib(inputs),
        mib(output),
        out.nontrivial_state_count(),
        mib(rise),
        rise as f64 / (inputs + output) as f64
    );
    ExitCode::SUCCESS
}
