//! `dfasolve spread`: its arguments, the game they build, and the strong solve.

use super::options::RunOptions;
use super::{report, solve};
use crate::games::spread::{Spread, SpreadParams};
use crate::solved::Mode;
use anyhow::Result;
use clap::Args;

/// The arguments of `dfasolve spread`.
#[derive(Args, Debug)]
pub struct SpreadArgs {
    /// Which Spread.
    #[command(flatten)]
    pub game: SpreadParams,
    /// Output, progress and checkpoint options.
    #[command(flatten)]
    pub run: RunOptions,
}

impl SpreadArgs {
    /// The game these arguments name.
    ///
    /// # Errors
    /// Sizes the game refuses.
    pub fn game(&self) -> Result<Spread> {
        Ok(self.game.game()?)
    }
}

impl super::SolveCommand for SpreadArgs {
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
        let report = solve::solve(&self.game()?, Mode::Strong, &self.run)?;
        report::finish(&report, &self.run, &report::NoExtra {}, |_| {})
    }
}
