//! `dfasolve puzzles`: the positions of a solution that pass a filter, with their winning
//! lines ([`crate::solved::puzzles`]).

use super::files::print_report;
use super::output::AboutFile;
use crate::games::GAMES;
use crate::solved::Filter;
use anyhow::Result;
use std::path::Path;

/// `dfasolve puzzles SOLUTION`: a DFA solution file or a format of a game's own that lists
/// puzzles (Ostle class tables).
pub(super) fn puzzles(path: &Path, filter: &Filter, limit: usize, json: bool) -> Result<()> {
    let report = crate::solved::puzzles(path, filter, limit, &GAMES).about_file("loading", path)?;
    print_report(report.as_ref(), json)
}
