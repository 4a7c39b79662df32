//! `dfasolve positions`: the positions of one value of a saved solution, with how many there
//! are at each distance, the first in order or a uniform sample, each with its best line.

use super::output::{AboutFile, say};
use crate::counts::human;
use crate::games::explore::positions::{Distance, Listing, Pick, ValueKind};
use crate::games::explore::{self, DfaSolved, Solved, value_json};
use crate::games::ostle::ranked;
use crate::vocabulary::Side;
use anyhow::{Result, bail};
use std::path::Path;

/// What the counts of class tables are, said under their heading.
const CENSUS_STATES: &str = "the census's non-trivial states, each once up to symmetry: not the states of checkmate \
     positions, which the census counts apart";

/// What `positions` asks for.
pub(super) struct Ask {
    pub kind: ValueKind,
    pub distance: Distance,
    pub side: Option<Side>,
    pub pick: Pick,
    pub json: bool,
}

/// `dfasolve positions SOLUTION`: a DFA solution file or a directory of Ostle class tables.
pub(super) fn positions(path: &Path, ask: &Ask) -> Result<()> {
    if let Some(kind) = super::othello_dirs::kind(path) {
        return Err(super::othello_dirs::not_for("positions", kind, path));
    }
    let (solved, listing): (Box<dyn Solved>, Listing) = if ranked::is_tables_dir(path) {
        if ask.side.is_some() {
            bail!("--side: a state of Ostle class tables has the same value whichever side is to move");
        }
        let tables = ranked::Solution::open_dir(path).about_file("loading", path)?;
        let listing = tables.positions(ask.kind, ask.distance, ask.pick)?;
        (Box::new(tables), listing)
    } else {
        let solved = DfaSolved::load(path).about_file("loading", path)?;
        if ask.side.is_some() && solved.solution.mover_relative {
            bail!(
                "--side: {} writes positions from the mover's view, so a value does not depend on the side to move",
                solved.game.name()
            );
        }
        let listing = solved.positions(ask.kind, ask.distance, ask.side, ask.pick);
        (Box::new(solved), listing)
    };
    if ask.distance == Distance::Longest && listing.plies.is_none() {
        bail!("--longest: no {} of this solution has a known distance", word(ask.kind));
    }
    let mut listed = Vec::new();
    for text in &listing.positions {
        let look = solved.look(text)?;
        let line = explore::best_line(solved.as_ref(), &look)?;
        listed.push((look, line));
    }
    if ask.json {
        let listed: Vec<serde_json::Value> = listed
            .iter()
            .map(|(look, line)| {
                serde_json::json!({ "position": look.position, "value": value_json(look.value),
                    "best_line": line.moves, "best_line_end": line.end, "best_line_is_best_play": line.best_play })
            })
            .collect();
        say!(
            "{}",
            serde_json::json!({ "program": crate::PROGRAM_VERSION, "game": solved.game(), "kind": ask.kind,
                "counted": if ranked::is_tables_dir(path) { CENSUS_STATES } else { "positions" },
                "counts": listing.tallies, "plies": listing.plies, "matching": crate::counts::json(listing.matching),
                "sampled": matches!(ask.pick, Pick::Sample { .. }), "positions": listed })
        );
        return Ok(());
    }
    let tables = ranked::is_tables_dir(path);
    let unit = if tables { "states up to symmetry" } else { "positions" };
    say!("{}: {} for the player to move, {unit} by plies to the end:", solved.game(), word(ask.kind));
    if tables {
        say!("  ({CENSUS_STATES})");
    }
    let by_side = listing.tallies.iter().any(|t| t.side.is_some());
    for t in &listing.tallies {
        let side = t.side.map_or(String::new(), |s| format!("{:>6} to move  ", s.to_string()));
        say!("  {side}{:>18} {:>24}", t.value, human(Some(t.count)));
    }
    if listing.tallies.is_empty() {
        say!("  none");
    }
    let total: u128 = listing.tallies.iter().map(|t| t.count).sum();
    say!("  {}{:>18} {:>24}", if by_side { " ".repeat(16) } else { String::new() }, "in all", human(Some(total)));
    let which = match listing.plies {
        Some(n) => format!("{} in {}", word(ask.kind), crate::counts::counted(n, "ply", "plies")),
        None => word(ask.kind).to_string(),
    };
    let how = match ask.pick {
        Pick::First(_) => "the first in order".to_string(),
        Pick::Sample { seed, .. } => format!("drawn uniformly at random (seed {seed})"),
    };
    say!("{} {unit} are {which}; {} of them, {how}:", human(Some(listing.matching)), listed.len());
    for (look, line) in &listed {
        say!("\n{}  ({})", look.position, explore::value_words(look.value));
        say!("  {} ({}): {}", line.label(), line.end, line.moves.join(", "));
    }
    Ok(())
}

fn word(kind: ValueKind) -> &'static str {
    match kind {
        ValueKind::Win => "wins",
        ValueKind::Loss => "losses",
        ValueKind::Draw => "draws",
    }
}
