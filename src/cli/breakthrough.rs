//! `dfasolve breakthrough`: its arguments, the game they build, and the solve.

use super::options::RunOptions;
use super::{refuse_hopeless, report, solve};
use crate::choice::parser;
use crate::games::breakthrough::{Breakthrough, BreakthroughParams};
use crate::solved::Mode;
use crate::solver::{MirrorPolicy, SolveOptions, Solver};
use anyhow::Result;
use clap::Args;
use std::time::Instant;

/// The arguments of `dfasolve breakthrough`.
#[derive(Args, Debug)]
pub struct BreakthroughArgs {
    /// Which Breakthrough.
    #[command(flatten)]
    pub game: BreakthroughParams,
    /// Solve every position by retrograde analysis to the fixpoint (exact distances),
    /// instead of meet in the middle over the positions reachable from the start.
    #[arg(long)]
    pub strong: bool,
    /// Backward plies solved before going forward (meet in the middle).
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    /// When the retrograde pass takes the second player's sets from the first player's by
    /// rotating the board and swapping colours, instead of computing their images: never,
    /// in the large iterations (less memory), or always.
    #[arg(long, value_parser = parser::<MirrorPolicy>(), default_value = "large")]
    pub side_mirror: MirrorPolicy,
    /// Output, progress and checkpoint options.
    #[command(flatten)]
    pub run: RunOptions,
}

impl BreakthroughArgs {
    /// The game these arguments name.
    ///
    /// # Errors
    /// Sizes the game refuses.
    pub fn game(&self) -> Result<Breakthrough> {
        Ok(self.game.game()?)
    }
}

impl super::SolveCommand for BreakthroughArgs {
    fn build(&self) -> Result<Box<dyn crate::game::Game>> {
        Ok(Box::new(self.game()?))
    }

    fn run_options(&self) -> &super::options::RunOptions {
        &self.run
    }

    /// Solve it and print the report.
    ///
    /// # Errors
    /// A refused size, the solver's and the outputs' errors.
    fn run(&self) -> Result<()> {
        let game = self.game()?;
        let run = &self.run;
        let mode = if self.strong { Mode::Strong } else { Mode::MeetInTheMiddle { depth: self.depth } };
        refuse_hopeless(game.estimated_peak_bytes(self.strong || run.by_classes.is_some()), run.force)?;
        let started = Instant::now();
        let prepared = solve::before_solving(&game, mode, run)?;
        let options = SolveOptions { mirror: self.side_mirror, ..prepared.options() };
        let mut solver = Solver::with_options(&game, options)?;
        let report = solve::solve_with(&mut solver, &game, prepared, run, started)?;
        report::finish(&report, run, &report::NoExtra {}, |_| {})
    }
}
