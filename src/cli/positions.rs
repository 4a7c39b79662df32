//! `dfasolve positions`: the positions of one value of a saved solution, with how many there
//! are at each distance, the first in order or a uniform sample, each with its best line.

use super::output::{AboutFile, say};
use crate::counts::human;
use crate::games::GAMES;
use crate::solved::explore;
use crate::solved::explore::positions::{Distance, Pick, ValueKind};
use crate::solved::{Listed, PositionsAsk};
use anyhow::{Result, bail};
use std::path::Path;

/// What `positions` asks for, and how to print it.
pub(super) struct Ask {
    pub positions: PositionsAsk,
    pub json: bool,
}

/// `dfasolve positions SOLUTION`: a DFA solution file or a format of a game's own that lists
/// positions (Ostle class tables).
pub(super) fn positions(path: &Path, ask: &Ask) -> Result<()> {
    let Listed { solved, listing, unit, counted } =
        crate::solved::positions(path, &ask.positions, &GAMES).about_file("loading", path)?;
    let ask_kind = ask.positions.kind;
    if ask.positions.distance == Distance::Longest && listing.plies.is_none() {
        bail!("--longest: no {} of this solution has a known distance", word(ask_kind));
    }
    let mut listed = Vec::new();
    for text in &listing.positions {
        let look = solved.look(text)?;
        let line = explore::best_line(solved.as_ref(), &look)?;
        listed.push((look, line));
    }
    if ask.json {
        let positions = listed
            .iter()
            .map(|(look, line)| ListedJson {
                position: &look.position,
                value: look.value,
                best_line: &line.moves,
                best_line_end: &line.end,
                best_line_is_best_play: line.best_play,
            })
            .collect();
        let game = solved.game();
        let report = PositionsJson {
            program: crate::PROGRAM_VERSION,
            game: &game,
            kind: ask_kind,
            counted: counted.unwrap_or("positions"),
            counts: &listing.tallies,
            plies: listing.plies,
            matching: listing.matching,
            sampled: matches!(ask.positions.pick, Pick::Sample { .. }),
            positions,
        };
        say!("{}", crate::solved::report::to_json(&report));
        return Ok(());
    }
    say!("{}: {} for the player to move, {unit} by plies to the end:", solved.game(), word(ask_kind));
    if let Some(counted) = counted {
        say!("  ({counted})");
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
        Some(n) => format!("{} in {}", word(ask_kind), crate::counts::counted(n, "ply", "plies")),
        None => word(ask_kind).to_string(),
    };
    let how = match ask.positions.pick {
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

/// `positions --json`: the counts of the value asked for by distance, and the positions listed.
#[derive(serde::Serialize)]
struct PositionsJson<'a, K: serde::Serialize> {
    program: &'static str,
    game: &'a str,
    kind: K,
    counted: &'a str,
    counts: &'a [crate::solved::explore::positions::Tally],
    plies: Option<u32>,
    #[serde(serialize_with = "crate::counts::serialize")]
    matching: u128,
    sampled: bool,
    positions: Vec<ListedJson<'a>>,
}

/// One position of [`PositionsJson`], with its best line.
#[derive(serde::Serialize)]
struct ListedJson<'a> {
    position: &'a str,
    #[serde(serialize_with = "crate::vocabulary::serialize_display")]
    value: Option<crate::vocabulary::Outcome>,
    best_line: &'a [String],
    best_line_end: &'a str,
    best_line_is_best_play: bool,
}
