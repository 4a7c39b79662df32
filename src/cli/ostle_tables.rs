//! `check`, `stats` and `puzzles` on a directory of Ostle class tables (`dfasolve explicit
//! ostle`); `query`, `play` and `serve` read them through [`crate::games::explore`].

use super::output::{AboutFile, say};
use crate::counts::human;
use crate::games::GameParams;
use crate::games::ostle::Variant;
use crate::games::ostle::ranked::{self, tables::ClassTables};
use anyhow::{Result, anyhow, bail};
use std::path::Path;

fn open(path: &Path) -> Result<ranked::Solution> {
    ranked::Solution::open_dir(path).about_file("loading", path)
}

/// `dfasolve check DIR` on class tables: states drawn at random (`sample`, every state if
/// there are no more), each checked by the plain rules against its moves' values; also every
/// class file's checksum; with `against`, the values compared with a DFA solution's.
pub(super) fn check(path: &Path, sample: usize, seed: u64, against: Option<&Path>, json: bool) -> Result<()> {
    // Opening checks every class file's checksum.
    let t = open(path)?;
    let checked = t.check_sample(sample as u64, seed).map_err(|e| anyhow!("check failed: {e}"))?;
    let compared = match against {
        Some(file) => Some(compare(&t, file, sample, seed)?),
        None => None,
    };
    if json {
        say!(
            "{}",
            serde_json::json!({ "program": crate::PROGRAM_VERSION, "checked_states": checked, "seed": seed, "passed": true, "compared_with_dfa": compared })
        );
    } else {
        say!(
            "check passed: {checked} states drawn at random follow from their moves by the plain rules; checksums intact"
        );
        if let Some(c) = compared {
            say!(
                "the DFA solution agrees: {} states of the tables ({} of them not in its universe) and {} of the DFA \
                 solution have the same value on both sides",
                c.from_tables,
                c.not_in_dfa,
                c.from_dfa
            );
        }
    }
    Ok(())
}

/// The tables `t` against the DFA solution in `file`: a solution of the same variant, or of the
/// variant with fewer pieces (whose game is the tables' classes with that many pieces).
fn compare(t: &ranked::Solution, file: &Path, sample: usize, seed: u64) -> Result<ranked::compare::Comparison> {
    let dfa = crate::games::Solution::load(file).map(|(_, s)| s).about_file("loading", file)?;
    let v = &t.variant;
    let same_game = |d: &Variant| {
        d.width == v.width && d.height == v.height && d.lose_at == v.lose_at && d.rule == v.rule && d.pieces <= v.pieces
    };
    match &dfa.params {
        GameParams::Ostle(d) if same_game(d) => {}
        other => bail!(
            "{} solves {}, not ostle {}x{} k{} t{} {} or a smaller-piece variant of it with the same losing count \
             and reading",
            file.display(),
            other.build().map_or_else(|_| "another game".to_string(), |g| g.name()),
            v.width,
            v.height,
            v.pieces,
            v.lose_at,
            v.rule.name()
        ),
    }
    t.compare_with_dfa(&dfa, sample as u64, seed).map_err(|e| anyhow!("comparison failed: {e}"))
}

/// `dfasolve stats DIR` on class tables: per kind, boards, states and bytes.
pub(super) fn stats(path: &Path, json: bool) -> Result<()> {
    let t = open(path)?;
    let v = &t.variant;
    let mut rows = Vec::new();
    for c in ranked::classes(v) {
        let file = ranked::class_file(path, &c);
        if !file.exists() {
            continue;
        }
        let bytes = std::fs::metadata(&file).about_file("reading", &file)?.len();
        let tables = ClassTables::open(&file, Some(v))?;
        for k in &tables.kinds {
            rows.push(serde_json::json!({ "class": c.name, "kind": k.kind.to_string(), "boards": k.dir.boards(),
                "states": k.states(), "class_file_bytes": bytes }));
        }
    }
    if json {
        say!("{}", serde_json::json!({ "program": crate::PROGRAM_VERSION, "rule": v.rule.name(), "kinds": rows }));
        return Ok(());
    }
    say!(
        "ostle {}x{} k{} t{} ({} reading), tables by canonical rank:",
        v.width,
        v.height,
        v.pieces,
        v.lose_at,
        v.rule.name()
    );
    say!("{:>6} {:>6} {:>14} {:>16} {:>16}", "class", "kind", "boards", "states", "file bytes");
    for r in &rows {
        say!(
            "{:>6} {:>6} {:>14} {:>16} {:>16}",
            r["class"].as_str().unwrap_or(""),
            r["kind"].as_str().unwrap_or(""),
            // A JSON value ignores a width: its text takes it.
            r["boards"].to_string(),
            r["states"].to_string(),
            r["class_file_bytes"].to_string()
        );
    }
    Ok(())
}

/// `dfasolve puzzles DIR`: states of the tables that pass `filter`, with their lines.
pub(super) fn puzzles(path: &Path, filter: &ranked::puzzles::Filter, limit: usize, json: bool) -> Result<()> {
    let t = open(path)?;
    if filter.sacrifice {
        return sacrifice_puzzles(&t, filter, limit, json);
    }
    let found = t.puzzles(filter, limit);
    if json {
        say!(
            "{}",
            serde_json::json!({ "program": crate::PROGRAM_VERSION, "states_with_the_value": found.with_value,
                "examined": found.examined, "complete": found.examined == found.with_value, "passing": found.passing,
                "puzzles": found.puzzles })
        );
        return Ok(());
    }
    say!(
        "{} states up to symmetry win in {}; {} of them examined{}, {} pass the filter; {} shown",
        human(Some(found.with_value.into())),
        crate::counts::counted(found.plies, "ply", "plies"),
        human(Some(found.examined.into())),
        if found.examined == found.with_value { " (all)" } else { " (the first in table order: the rest were not)" },
        human(Some(found.passing.into())),
        found.puzzles.len()
    );
    print_puzzles(&found.puzzles)
}

/// `dfasolve puzzles DIR --sacrifice`: every win by sacrifices only counted, some listed.
fn sacrifice_puzzles(t: &ranked::Solution, filter: &ranked::puzzles::Filter, limit: usize, json: bool) -> Result<()> {
    let found = t.sacrifice_puzzles(filter, limit)?;
    if json {
        say!(
            "{}",
            serde_json::json!({ "program": crate::PROGRAM_VERSION, "passing": found.passing, "puzzles": found.puzzles })
        );
        return Ok(());
    }
    let what = if filter.plain { "positions (states without a forbidden move)" } else { "states" };
    say!(
        "{} {what} up to symmetry ({} raw) win by sacrifices only; {} of them shown",
        found.passing.classes,
        found.passing.raw,
        found.puzzles.len()
    );
    print_puzzles(&found.puzzles)
}

fn print_puzzles(puzzles: &[ranked::puzzles::Puzzle]) -> Result<()> {
    for p in puzzles {
        super::puzzles::print_puzzle(&p.position, Some(p.plies), &p.winning_moves, &p.line)?;
    }
    Ok(())
}
