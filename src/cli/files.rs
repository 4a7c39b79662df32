//! The subcommands that read saved files: `query`, `stats`, `check`, `export`, `import`.

use super::ExportArgs;
use super::output::{AboutFile, say};
use crate::counts::human;
use crate::dfa::file::Bundle;
use crate::dfa::{Dfa, DfaStats};
use crate::error::Error;
use crate::games::check::check_solution;
use crate::games::explore::{self, Solved};
use crate::games::{Game, Solution};
use anyhow::{Result, anyhow, bail};
use std::path::Path;

pub(super) fn load_solution(path: &Path) -> Result<(Box<dyn Game>, Solution)> {
    Solution::load(path).about_file("loading", path)
}

/// The answer for the position `text`: its JSON object and its text.
pub(super) fn answer(solved: &dyn Solved, text: &str, limit: Option<usize>) -> Result<(serde_json::Value, String)> {
    let look = solved.look(text)?;
    let line = explore::best_line(solved, &look)?;
    Ok((look.to_json(&solved.game(), limit, &line), look.to_text(limit, &line)))
}

/// `dfasolve query`: the value and the ranked moves of `position`, or with none, of every
/// position read from standard input, one per line (the solution loaded once; with `json`,
/// one object per line, a bad line answered by `{"position", "error"}`).
pub(super) fn query(path: &Path, position: Option<&str>, json: bool, limit: Option<usize>) -> Result<()> {
    use std::io::BufRead;
    let solved = explore::open(path).about_file("loading", path)?;
    let solved = solved.as_ref();
    let Some(text) = position else {
        let mut failed = 0usize;
        for line in std::io::stdin().lock().lines() {
            let line = line.map_err(|e| anyhow!("reading standard input: {e}"))?;
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            match answer(solved, text, limit) {
                Ok((object, shown)) => {
                    if json {
                        say!("{object}");
                    } else {
                        say!("{shown}");
                    }
                }
                Err(e) => {
                    failed += 1;
                    if json {
                        say!("{}", serde_json::json!({ "position": text, "error": e.to_string() }));
                    } else {
                        eprintln!("{text}: {e}");
                    }
                }
            }
        }
        if failed > 0 {
            bail!("{failed} of the positions read could not be answered");
        }
        return Ok(());
    };
    let (object, shown) = answer(solved, text, limit)?;
    if json {
        say!("{object}");
    } else {
        super::output::say_raw!("{shown}");
    }
    Ok(())
}

/// `dfasolve stats`: sizes and compression of every set in a file.
pub(super) fn stats(path: &Path, json: bool) -> Result<()> {
    if crate::games::ostle::ranked::is_tables_dir(path) {
        return super::ostle_tables::stats(path, json);
    }
    let Figures { sets, meta, bytes: file_bytes, positions } = match super::othello_dirs::kind(path) {
        Some(kind) => super::othello_dirs::figures(kind, path)?,
        None if path.is_dir() => class_files(path)?,
        None => one_file(path)?,
    };
    let rows: Vec<serde_json::Value> = sets
        .iter()
        .map(|(name, s)| {
            serde_json::json!({
                "name": name, "layers": s.states_per_layer.len(), "states": s.states, "memory_bytes": s.memory_bytes,
                "disk_bytes": s.disk_bytes, "positions": crate::counts::json_opt(s.positions), "positions_per_byte": s.positions_per_byte,
            })
        })
        .collect();
    let total_pos: Option<u128> = positions
        .unwrap_or_else(|| sets.iter().try_fold(0u128, |acc, (_, s)| s.positions.and_then(|n| acc.checked_add(n))));
    let total_states: usize = sets.iter().map(|(_, s)| s.states).sum();
    if json {
        say!(
            "{}",
            serde_json::json!({ "file": path, "file_bytes": file_bytes, "program": crate::PROGRAM_VERSION, "meta": crate::games::solution::metadata_for_reports(&meta), "sets": rows,
                "total_positions": crate::counts::json_opt(total_pos), "total_states": total_states,
                "positions_per_byte": total_pos.map(|p| p as f64 / file_bytes.max(1) as f64) })
        );
        return Ok(());
    }
    say!(
        "{}: {}, {} bytes on disk",
        path.display(),
        crate::counts::counted(sets.len() as u64, "set", "sets"),
        file_bytes
    );
    say!("{:>24} {:>11} {:>12} {:>24} {:>10}", "set", "states", "bytes", "positions", "pos/byte");
    for (name, s) in &sets {
        say!(
            "{name:>24} {:>11} {:>12} {:>24} {:>10}",
            s.states,
            s.disk_bytes,
            human(s.positions),
            s.positions_per_byte.map_or("-".into(), |p| format!("{p:.1}"))
        );
    }
    say!(
        "total: {} states, {} positions, {} positions per byte of file",
        total_states,
        human(total_pos),
        total_pos.map_or("-".into(), |p| format!("{:.1}", p as f64 / file_bytes.max(1) as f64))
    );
    Ok(())
}

/// `dfasolve check`: every value class of a solution against the explicit rules only.
pub(super) fn check(path: &Path, sample: usize, seed: u64, against: Option<&Path>, json: bool) -> Result<()> {
    if crate::games::ostle::ranked::is_tables_dir(path) {
        return super::ostle_tables::check(path, sample, seed, against, json);
    }
    if against.is_none() && crate::games::othello::differences_solved::is_differences_dir(path) {
        return check_differences(path, sample, seed, json);
    }
    if against.is_none() && crate::games::othello::margins::is_margins_dir(path) {
        return super::othello_dirs::check_margins(path, sample, seed, json);
    }
    if against.is_some() {
        bail!(
            "--against compares Ostle class tables (a directory) with a DFA solution; {} is a solution file",
            path.display()
        );
    }
    let (game, solution) = load_solution(path)?;
    let report = check_solution(game.as_ref(), &solution, sample, seed).map_err(|e| match e {
        Error::Verification(why) => anyhow!("check failed {why}"),
        other => other.into(),
    })?;
    let checked: u128 = report.iter().map(|c| c.checked).sum();
    if json {
        let classes: Vec<serde_json::Value> = report
            .iter()
            .map(|c| {
                serde_json::json!({ "side": c.side.to_string(), "value": c.outcome.to_string(),
                    "checked": crate::counts::json(c.checked), "all": c.all })
            })
            .collect();
        say!(
            "{}",
            serde_json::json!({ "program": crate::PROGRAM_VERSION, "game": game.name(), "passed": true, "checked": crate::counts::json(checked),
                "sample": sample, "seed": seed, "classes": classes })
        );
        return Ok(());
    }
    for class in &report {
        say!(
            "{:>6} to move, {:>16}: {} positions checked{}",
            class.side.to_string(),
            class.outcome.to_string(),
            human(Some(class.checked)),
            if class.all { " (all)" } else { " (uniform sample)" }
        );
    }
    say!("check passed: {} positions of {} agree with the explicit rules", human(Some(checked)), game.name());
    Ok(())
}

/// `dfasolve check` on a directory of Othello's differences by rank: each class's sample of
/// positions against the plain rules and their successors' values.
fn check_differences(path: &Path, sample: usize, seed: u64, json: bool) -> Result<()> {
    use crate::games::othello::{differences, differences_solved};
    let game = differences_solved::game_of(path)?;
    let started = std::time::Instant::now();
    let report = differences::check(&game, path, sample as u64, seed).map_err(|e| match e {
        Error::Verification(why) => anyhow!("check failed: {why}"),
        other => other.into(),
    })?;
    let checked: u64 = report.iter().map(|c| c.checked).sum();
    let wall_s = started.elapsed().as_secs_f64();
    if json {
        say!(
            "{}",
            serde_json::json!({ "program": crate::PROGRAM_VERSION, "game": game.name(), "passed": true, "checked": checked,
                "sample": sample, "seed": seed, "per": "class of discs", "classes": report, "wall_s": wall_s })
        );
        return Ok(());
    }
    for c in &report {
        say!(
            "{:>3} discs: {} positions checked{}",
            c.discs,
            human(Some(c.checked.into())),
            if c.all { " (all)" } else { " (uniform sample)" }
        );
    }
    say!(
        "check passed: {} positions of {} follow from their moves' exact differences by the plain rules ({wall_s:.1} s)",
        human(Some(checked.into())),
        game.name()
    );
    Ok(())
}

/// `dfasolve export`: one set of a file as a DFA1 exchange file.
pub(super) fn export(args: &ExportArgs) -> Result<()> {
    let ExportArgs { file, set, out, .. } = args;
    let bundle = Bundle::load(file).about_file("loading", file)?;
    let Some(dfa) = bundle.get(set) else {
        let names: Vec<&str> = bundle.entries.iter().map(|(n, _)| n.as_str()).collect();
        bail!("{} has no set named {set:?} (it has: {})", file.display(), names.join(", "));
    };
    dfa.save_dfa1(out).about_file("writing", out)?;
    say!("wrote {} ({} states, {} positions)", out.display(), dfa.nontrivial_state_count(), human(dfa.checked_count()));
    Ok(())
}

/// `dfasolve import`: a DFA1 exchange file into a one-set dfasolve file.
pub(super) fn import(dfa1: &Path, out: &Path) -> Result<()> {
    let dfa = Dfa::load_dfa1(dfa1).about_file("loading", dfa1)?;
    let meta = serde_json::json!({ "kind": "dfa1-import", "source": dfa1 }).to_string();
    say!(
        "read {} ({} states after minimisation, {} positions)",
        dfa1.display(),
        dfa.nontrivial_state_count(),
        human(dfa.checked_count())
    );
    Bundle { meta, entries: vec![("imported".into(), dfa)] }.save(out).about_file("writing", out)
}

/// What `stats` reports of a file or a directory: each set's figures by name, the metadata,
/// and the bytes on disk.
pub(super) struct Figures {
    pub sets: Vec<(String, DfaStats)>,
    pub meta: String,
    pub bytes: u64,
    /// The positions the whole holds, where the sets' sum overcounts them (one position in
    /// every threshold's solve); `None`: their sum.
    pub positions: Option<Option<u128>>,
}

/// The figures of the sets of one file.
pub(super) fn one_file(path: &Path) -> Result<Figures> {
    let bundle = Bundle::load(path).about_file("loading", path)?;
    let sets = bundle.entries.iter().map(|(name, d)| (name.clone(), d.stats())).collect();
    Ok(Figures {
        sets,
        meta: bundle.meta,
        bytes: std::fs::metadata(path).map(|m| m.len()).unwrap_or(0),
        positions: None,
    })
}

/// The figures of every set of the class files in `dir` (each set named `CLASS: set`), the
/// last file's metadata, and their bytes together. One file is in memory at a time: a class
/// directory can be far larger than memory (5x6 Breakthrough: 11.5 GB).
fn class_files(dir: &Path) -> Result<Figures> {
    let files = crate::games::solution::class_files(dir).about_file("reading", dir)?;
    if files.is_empty() {
        bail!("{}: no class files (class-*.dfas) here", dir.display());
    }
    let mut all = Figures { sets: Vec::new(), meta: String::new(), bytes: 0, positions: None };
    for file in files {
        let one = one_file(&file)?;
        let class = file.file_stem().and_then(|s| s.to_str()).unwrap_or("?").trim_start_matches("class-").to_string();
        all.sets.extend(one.sets.into_iter().map(|(name, s)| (format!("{class}: {name}"), s)));
        all.meta = one.meta;
        all.bytes += one.bytes;
    }
    Ok(all)
}
