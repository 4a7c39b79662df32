//! `dfasolve nim`: its arguments, the game they build, and the solve with its check against
//! Bouton's XOR rule.

use super::options::RunOptions;
use crate::games::nim::{Nim, NimParams};
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
    /// Output, progress and checkpoint options.
    #[command(flatten)]
    pub run: RunOptions,
}

impl NimArgs {
    /// The game these arguments name.
    ///
    /// # Errors
    /// Sizes the game refuses.
    pub fn game(&self) -> Result<Nim> {
        Ok(self.game.game()?)
    }

    /// Solve it, check it against the XOR rule and print the report.
    ///
    /// # Errors
    /// A refused size, the solver's and the outputs' errors.
    pub fn run(&self) -> Result<()> {
        super::solve::run_nim(&self.game()?, self.strong, &self.run)
    }
}
