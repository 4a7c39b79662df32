//! `dfasolve connect4`: its arguments, the game they build, and the strong solve.

use super::cost::Estimate;
use super::options::RunOptions;
use super::{report, solve};
use crate::games::connect4::{Connect4, Connect4Params};
use crate::solved::Mode;
use anyhow::Result;
use clap::Args;

/// The arguments of `dfasolve connect4`.
#[derive(Args, Debug)]
pub struct Connect4Args {
    /// Which Connect Four.
    #[command(flatten)]
    pub game: Connect4Params,
    /// Start a solve estimated to take more than half an hour (refused otherwise, with its
    /// estimate).
    #[arg(long)]
    pub long: bool,
    /// Output, progress and checkpoint options.
    #[command(flatten)]
    pub run: RunOptions,
}

impl Connect4Args {
    /// The game these arguments name.
    ///
    /// # Errors
    /// Sizes the game refuses.
    pub fn game(&self) -> Result<Connect4> {
        Ok(self.game.game()?)
    }
}

impl super::SolveCommand for Connect4Args {
    fn build(&self) -> Result<Box<dyn crate::game::Game>> {
        Ok(Box::new(self.game()?))
    }

    fn run_options(&self) -> &super::options::RunOptions {
        &self.run
    }

    /// Solve it strongly (draws rule out a meet in the middle) and print the report.
    ///
    /// # Errors
    /// A refused size, the solver's and the outputs' errors.
    fn run(&self) -> Result<()> {
        let game = self.game()?;
        let squares = self.game.width * self.game.height;
        let _showing = super::progress::show(&self.run);
        estimate(squares).refuse_unless(self.long, &crate::game::Rules::name(&game))?;
        drop(_showing);
        let report = solve::solve(&game, Mode::Strong, &self.run)?;
        report::finish(&report, &self.run, &report::NoExtra {}, |_| {})
    }
}

/// The strong solve of 6x4 (24 squares), measured beside another solve: 24.9 s at a peak of
/// 197 MiB for 108 M positions (5x5, 25 squares: 24.5 s, 229 MiB, 97 M).
const MEASURED: (f64, f64, f64, f64) = (24.0, 24.9, 197.0 * 1048576.0, 1.08e8);
/// Growth per square, fitted from 4x4 (0.34 s, 10 MiB, 176,500 positions) to 6x4: time, peak
/// memory and positions as powers of ten.
const LOG10_PER_SQUARE: (f64, f64, f64) = (0.23, 0.16, 0.35);

/// The estimate of the strong solve of a board of `squares` (the line length aside).
fn estimate(squares: usize) -> Estimate {
    let (s0, seconds, bytes, positions) = MEASURED;
    let grow = |per: f64| 10f64.powf(per * (squares as f64 - s0));
    let cores = rayon::current_num_threads().max(1) as f64;
    Estimate {
        positions: positions * grow(LOG10_PER_SQUARE.2),
        seconds: seconds * grow(LOG10_PER_SQUARE.0) * 2.0 / cores,
        peak_bytes: bytes * grow(LOG10_PER_SQUARE.1),
        disk_bytes: None,
        basis: "the strong solves measured on 4x4 to 6x4",
    }
}
