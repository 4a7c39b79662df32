//! `dfasolve nim`: its arguments, the game they build, and the solve with its check against
//! Bouton's XOR rule.

use super::cost::{LONG_SECONDS, SAID_SECONDS, duration};
use super::options::RunOptions;
use crate::counts::human;
use crate::dfa::Dfa;
use crate::game::Rules;
use crate::games::nim::{Nim, NimParams};
use crate::record::{Phase, SetName};
use crate::solved::Mode;
use crate::solver::Solver;
use anyhow::Result;
use clap::Args;

/// The arguments of `dfasolve nim`.
#[derive(Args, Debug)]
pub struct NimArgs {
    /// Which Nim.
    #[command(flatten)]
    pub game: NimParams,
    /// Retrograde over every position to the fixpoint, with exact distances (slow for big
    /// heaps: the sets of "wins in exactly d plies" are far larger than the XOR set).
    /// Default: forward ply sets from the start, then values backed up through them;
    /// every position is reachable in Nim, so this still decides every position.
    #[arg(long)]
    pub strong: bool,
    /// Start a solve estimated to take more than half an hour (refused otherwise, with its
    /// estimate).
    #[arg(long)]
    pub long: bool,
    /// Output, progress and checkpoint options.
    #[command(flatten)]
    pub run: RunOptions,
}

/// The default solve of 8 heaps of 31 tokens on 2 cores, measured: 2.75 s at a peak of
/// 124 MiB. The others scale from it by the exponents fitted to 8x63 (60.7 s, 1,282 MiB) and
/// 16x31 (40.4 s, 706 MiB), measured beside another solve.
const MEASURED: (f64, f64, f64, f64) = (8.0, 31.0, 2.75, 124.0 * 1048576.0);
/// Time grows as heaps^3.9 and tokens^4.5 (the fit above).
const TIME_EXPONENTS: (f64, f64) = (3.9, 4.5);
/// Peak memory grows as heaps^2.5 and tokens^3.3.
const MEMORY_EXPONENTS: (f64, f64) = (2.5, 3.3);

/// The estimated seconds and peak bytes of the default solve of `heaps` heaps of `tokens`.
pub fn estimate(heaps: usize, tokens: usize) -> (f64, f64) {
    let (h0, t0, seconds, bytes) = MEASURED;
    let scale = |(eh, et): (f64, f64)| (heaps as f64 / h0).powf(eh) * ((tokens + 1) as f64 / (t0 + 1.0)).powf(et);
    (seconds * scale(TIME_EXPONENTS), bytes * scale(MEMORY_EXPONENTS))
}

impl NimArgs {
    /// The game these arguments name.
    ///
    /// # Errors
    /// Sizes the game refuses.
    pub fn game(&self) -> Result<Nim> {
        Ok(self.game.game()?)
    }
}

impl super::SolveCommand for NimArgs {
    fn build(&self) -> Result<Box<dyn crate::game::Game>> {
        Ok(Box::new(self.game()?))
    }

    fn run_options(&self) -> &super::options::RunOptions {
        &self.run
    }

    /// Solve it, check it against the XOR rule and print the report.
    ///
    /// # Errors
    /// A refused size, the solver's and the outputs' errors.
    fn run(&self) -> Result<()> {
        let game = self.game()?;
        let (seconds, bytes) = estimate(self.game.heaps, self.game.tokens);
        let said = format!(
            "about {} and a peak of {:.1} GB (scaled from 8 heaps of 31 tokens, measured{})",
            duration(seconds),
            bytes / 1e9,
            if self.strong { "; --strong is slower still" } else { "" }
        );
        if seconds > LONG_SECONDS && !self.long {
            anyhow::bail!("{}: {said}; refused without --long, which starts it", game_name(&self.game));
        }
        if seconds > SAID_SECONDS {
            let _showing = super::progress::show(&self.run);
            crate::progress!("{}: {said}", game_name(&self.game));
        }
        run_nim(&game, self.strong, &self.run)
    }
}

fn game_name(p: &NimParams) -> String {
    format!("nim {}x{}", p.heaps, p.tokens)
}

/// `dfasolve nim`: solve, check every position against Bouton's rule, report the reachable
/// positions per ply.
fn run_nim(game: &Nim, strong: bool, run: &RunOptions) -> Result<()> {
    let mode = if strong { Mode::Strong } else { Mode::MeetInTheMiddle { depth: 0 } };
    let report = super::solve::solve(game, mode, run)?;
    let check = game.check_xor(&report.solution)?;
    // Without backward plies nothing is decided before going forward (the lost terminal
    // position has no moves), so the solve's forward records are the reachable sets; the
    // strong mode has none and goes forward here.
    let recorded: Vec<Option<u128>> = report
        .solution
        .records
        .iter()
        .filter(|r| r.phase == Phase::Forward && r.set == SetName::Reachable)
        .map(|r| r.positions)
        .collect();
    let forward = match recorded {
        counts if !strong && !counts.is_empty() => counts,
        _ => {
            let mut solver = Solver::new(game)?;
            let plies = solver.forward_plies(&game.initial(), None, None)?;
            plies.iter().map(Dfa::checked_count).collect()
        }
    };
    let extra = NimJson {
        xor_check: &check.summary,
        losing_positions: check.losing,
        losing_dfa_states: check.losing_states,
        positions: check.positions,
        per_ply_reachable: &forward,
    };
    super::report::finish(&report, run, &extra, |out| {
        out.push_str(&format!(
            "XOR check: {} — losing set has {} positions of {} in {} DFA states\n",
            check.summary,
            human(check.losing),
            human(check.positions),
            check.losing_states
        ));
        let per_ply: Vec<String> = forward.iter().map(|&n| human(n)).collect();
        out.push_str(&format!("per-ply reachable: {}\n", per_ply.join(" ")));
    })
}

#[cfg(test)]
mod tests {
    use super::estimate;

    #[test]
    fn the_estimate_meets_its_measurements_and_refuses_the_huge() {
        let (seconds, bytes) = estimate(8, 31);
        assert!((seconds - 2.75).abs() < 1e-9 && (bytes / 1048576.0 - 124.0).abs() < 1e-6);
        // The fitted points, within a factor of 1.5.
        for (heaps, tokens, measured_s, measured_mib) in [(8, 63, 60.7, 1282.0), (16, 31, 40.4, 706.0)] {
            let (s, b) = estimate(heaps, tokens);
            assert!((s / measured_s).max(measured_s / s) < 1.5, "{heaps}x{tokens}: {s} s");
            assert!((b / 1048576.0 / measured_mib).max(measured_mib * 1048576.0 / b) < 1.5, "{heaps}x{tokens}: {b}");
        }
        assert!(estimate(64, 255).0 > 1e7);
        assert!(estimate(4, 7).0 < 1.0);
    }
}

/// Nim's fields in the `--json` report: the check against Bouton's rule and the plies.
#[derive(serde::Serialize)]
struct NimJson<'a, S: serde::Serialize> {
    xor_check: &'a S,
    #[serde(serialize_with = "crate::counts::serialize_opt")]
    losing_positions: Option<u128>,
    losing_dfa_states: usize,
    #[serde(serialize_with = "crate::counts::serialize_opt")]
    positions: Option<u128>,
    #[serde(serialize_with = "crate::counts::serialize_all_opt")]
    per_ply_reachable: &'a [Option<u128>],
}
