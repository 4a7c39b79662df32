//! The subcommands that read saved files: `query`, `play`, `stats`, `check`, `export`,
//! `import`.

use super::ExportArgs;
use super::output::{AboutFile, say};
use super::report::human;
use crate::dfa::Dfa;
use crate::dfa::file::Bundle;
use crate::error::Error;
use crate::games::check::check_solution;
use crate::games::{Game, Solution};
use crate::vocabulary::{Outcome, Position, Side, Status, move_rank};
use anyhow::{Result, anyhow, bail};
use std::path::Path;

pub(super) fn load_solution(path: &Path) -> Result<(Box<dyn Game>, Solution)> {
    Solution::load(path).about_file("loading", path)
}

/// An opened solution that answers positions: a DFA solution file, or Ostle class tables.
pub(super) enum Probe {
    Dfa(Box<dyn Game>, Solution),
    Tables(Box<super::ostle_tables::Tables>),
}

impl Probe {
    pub(super) fn open(path: &Path) -> Result<Probe> {
        if super::ostle_tables::is_tables_dir(path) {
            return Ok(Probe::Tables(Box::new(super::ostle_tables::Tables::open(path)?)));
        }
        let (game, solution) = load_solution(path)?;
        Ok(Probe::Dfa(game, solution))
    }

    /// The answer for the position `text`: its JSON object and its text.
    pub(super) fn answer(&self, text: &str, limit: Option<usize>) -> Result<(serde_json::Value, String)> {
        match self {
            Probe::Tables(t) => t.answer(text, limit),
            Probe::Dfa(game, solution) => dfa_answer(game.as_ref(), solution, text, limit),
        }
    }

    /// The game's name and its start as a position's text.
    pub(super) fn start(&self) -> (String, String) {
        match self {
            Probe::Tables(t) => t.start(),
            Probe::Dfa(game, solution) => (game.name(), game.render(&solution.initial)),
        }
    }
}

/// `dfasolve query`: the value and the ranked moves of `position`, or with none, of every
/// position read from standard input, one per line (the solution loaded once; with `json`,
/// one object per line, a bad line answered by `{"position", "error"}`).
pub(super) fn query(path: &Path, position: Option<&str>, json: bool, limit: Option<usize>) -> Result<()> {
    use std::io::BufRead;
    let probe = Probe::open(path)?;
    let Some(text) = position else {
        let mut failed = 0usize;
        for line in std::io::stdin().lock().lines() {
            let line = line.map_err(|e| anyhow!("reading standard input: {e}"))?;
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            match probe.answer(text, limit) {
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
    let (object, shown) = probe.answer(text, limit)?;
    if json {
        say!("{object}");
    } else {
        super::output::say_raw!("{shown}");
    }
    Ok(())
}

fn dfa_answer(
    game: &dyn Game,
    solution: &Solution,
    text: &str,
    limit: Option<usize>,
) -> Result<(serde_json::Value, String)> {
    use std::fmt::Write;
    let pos = game.parse(text)?;
    let value = solution.checked_value(&pos)?;
    let status = game.explicit_status(&pos);
    let moves = if status == Status::Ongoing { ranked_moves(game, solution, &pos)? } else { Vec::new() };
    let shown = limit.unwrap_or(usize::MAX).min(moves.len());
    let listed: Vec<serde_json::Value> = moves[..shown]
        .iter()
        .map(|(name, next, v)| {
            serde_json::json!({ "move": name, "position": game.render(next),
                "value_for_opponent": v.map(|v| v.to_string()) })
        })
        .collect();
    let (line, line_end) = best_line(game, solution, &pos)?;
    let object = serde_json::json!({ "game": game.name(), "position": game.render(&pos), "board": game.draw(&pos, pos.side),
        "side_to_move": pos.side.to_string(),
        "value": value.map(|v| v.to_string()), "status": format!("{status:?}").to_lowercase(),
        "moves": listed, "moves_total": moves.len(), "best_line": line, "best_line_end": line_end });
    let mut out = String::new();
    let _ = writeln!(out, "{}", game.draw(&pos, pos.side));
    match value {
        Some(v) => {
            let _ = writeln!(out, "value for the {} player (to move): {v}", pos.side);
        }
        None => {
            let _ = writeln!(
                out,
                "value: not covered by this solution (a meet-in-the-middle solve covers what the start reaches; \
                 an Ostle solve covers the states some move can produce)"
            );
        }
    }
    if status != Status::Ongoing {
        let _ = writeln!(out, "the game is over: {status:?} for the player to move");
        return Ok((object, out));
    }
    let _ = writeln!(out, "moves, best first (value for the opponent after the move):");
    for (name, _, v) in &moves[..shown] {
        let _ = writeln!(out, "  {name:>10}  {}", v.map_or("not covered".to_string(), |v| v.to_string()));
    }
    if shown < moves.len() {
        let _ = writeln!(out, "  ... {} more (--limit)", moves.len() - shown);
    }
    let plies = if line.len() == 1 { "ply" } else { "plies" };
    let _ = writeln!(out, "best line ({} {plies}, {line_end}): {}", line.len(), line.join(", "));
    Ok((object, out))
}

/// Plies a best line follows a draw before it is cut.
pub(super) const DRAW_LINE_PLIES: usize = 20;

/// The principal variation from `pos`: each side plays its first ranked move (the winner the
/// quickest win, the loser the slowest loss), to the end of the game; a draw is cut after
/// [`DRAW_LINE_PLIES`], and a line stops where the solution does not cover a position. Returns
/// the moves and why the line ends.
pub(super) fn best_line(game: &dyn Game, solution: &Solution, pos: &Position) -> Result<(Vec<String>, String)> {
    let mut line = Vec::new();
    let mut pos = pos.clone();
    loop {
        let status = game.explicit_status(&pos);
        if status != Status::Ongoing {
            return Ok((line, "the game is over".into()));
        }
        let value = solution.checked_value(&pos)?;
        if value == Some(Outcome::Draw) && line.len() >= DRAW_LINE_PLIES {
            return Ok((line, format!("a draw, cut after {DRAW_LINE_PLIES} plies")));
        }
        let Some((name, next, Some(_))) = ranked_moves(game, solution, &pos)?.into_iter().next() else {
            return Ok((line, "the solution does not cover the position reached".into()));
        };
        line.push(name);
        pos = next;
    }
}

/// The moves of `pos` with the value each leads to (for the opponent), best for the mover
/// first; moves of equal value in natural order of their names (`take 2` before `take 10`).
pub(super) fn ranked_moves(
    game: &dyn Game,
    solution: &Solution,
    pos: &Position,
) -> Result<Vec<(String, Position, Option<Outcome>)>> {
    let mut moves = Vec::new();
    for next in game.explicit_moves(pos) {
        let value = solution.checked_value(&next)?;
        moves.push((game.move_name(pos, &next), next, value));
    }
    moves.sort_by(|a, b| move_rank(a.2).cmp(&move_rank(b.2)).then_with(|| natural_order(&a.0, &b.0)));
    Ok(moves)
}

/// Compare names with runs of digits compared as numbers.
fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    fn pieces(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = s.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[start].is_ascii_digit() {
                out.push((bytes[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let key = |s| {
        pieces(s)
            .into_iter()
            .map(
                |(digits, p)| {
                    if digits { (p.trim_start_matches('0').len(), p.to_string()) } else { (0, p.to_string()) }
                },
            )
            .collect::<Vec<_>>()
    };
    if a.is_empty() || b.is_empty() {
        return a.cmp(b);
    }
    key(a).cmp(&key(b)).then_with(|| a.cmp(b))
}

/// `dfasolve play`: the user plays `human` against the perfect player. With `json`, the
/// board and prompts go to stderr and stdout gets one JSON object with the result.
pub(super) fn play(path: &Path, human: Side, from: Option<&str>, json: bool, limit: Option<usize>) -> Result<()> {
    use std::io::BufRead;
    if super::ostle_tables::is_tables_dir(path) {
        return super::ostle_tables::play(path, human == Side::First, from, json);
    }
    let (game, solution) = load_solution(path)?;
    let mut pos = match from {
        Some(text) => game.parse(text)?,
        None => solution.initial.clone(),
    };
    // The player whose turn it is (mover-relative positions do not say).
    let mut mover = pos.side;
    let mut played: Vec<String> = Vec::new();
    let show = |text: String| -> Result<()> {
        if json {
            eprintln!("{text}");
        } else {
            say!("{text}");
        }
        Ok(())
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let result = loop {
        show(format!("\n{}", game.draw(&pos, mover)))?;
        match solution.checked_value(&pos)? {
            Some(v) => show(format!("{mover} to move ({}): {v}", if mover == human { "you" } else { "me" }))?,
            None => show(format!("{mover} to move (position not covered by this solution)"))?,
        }
        let status = game.explicit_status(&pos);
        if status != Status::Ongoing {
            let winner = if status == Status::Lost { mover.other() } else { mover };
            show(format!(
                "game over: the {winner} player wins{}",
                if winner == human { " — well played!" } else { "" }
            ))?;
            break Some(winner);
        }
        let moves = ranked_moves(game.as_ref(), &solution, &pos)?;
        if mover == human {
            let mut names: Vec<String> =
                moves.iter().enumerate().map(|(i, (name, _, _))| format!("{:>3}) {name}", i + 1)).collect();
            let shown = limit.unwrap_or(usize::MAX).min(names.len());
            if shown < names.len() {
                names.truncate(shown);
                names.push(format!("... {} more (by name)", moves.len() - shown));
            }
            show(format!("{}\nyour move (number or name, q to quit):", names.join("  ")))?;
            let Some(line) = lines.next() else { break None };
            let line = line.map_err(|e| anyhow!("reading your move: {e}"))?;
            let answer = line.trim();
            if answer == "q" || answer == "quit" {
                break None;
            }
            let chosen = answer
                .parse::<usize>()
                .ok()
                .and_then(|i| i.checked_sub(1))
                .and_then(|i| moves.get(i))
                .or_else(|| moves.iter().find(|(name, _, _)| name.split('=').any(|n| n == answer)));
            match chosen {
                Some((name, next, _)) => {
                    played.push(name.clone());
                    pos = next.clone();
                    mover = mover.other();
                }
                None => show(format!("not a legal move: {answer:?}"))?,
            }
        } else {
            let Some((name, next, after)) = moves.into_iter().next() else { bail!("an ongoing position has no move") };
            show(format!("I play {name} (leaves you: {})", after.map_or("unknown".into(), |v| v.to_string())))?;
            played.push(name);
            pos = next;
            mover = mover.other();
        }
    };
    if json {
        say!(
            "{}",
            serde_json::json!({ "game": game.name(), "you": human.to_string(), "moves": played,
                "final_position": game.render(&pos), "winner": result.map(|w| w.to_string()),
                "you_won": result.map(|w| w == human),
                "finished": result.is_some() })
        );
    }
    Ok(())
}

/// `dfasolve stats`: sizes and compression of every set in a file.
pub(super) fn stats(path: &Path, json: bool) -> Result<()> {
    if super::ostle_tables::is_tables_dir(path) {
        return super::ostle_tables::stats(path, json);
    }
    let (bundle, file_bytes) = if path.is_dir() { class_files(path)? } else { one_file(path)? };
    let rows: Vec<serde_json::Value> = bundle
        .entries
        .iter()
        .map(|(name, d)| {
            let s = d.stats();
            serde_json::json!({
                "name": name, "layers": d.shape().len(), "states": s.states, "memory_bytes": s.memory_bytes,
                "disk_bytes": s.disk_bytes, "positions": crate::counts::json_opt(s.positions), "positions_per_byte": s.positions_per_byte,
            })
        })
        .collect();
    let total_pos: Option<u128> =
        bundle.entries.iter().try_fold(0u128, |acc, (_, d)| d.checked_count().and_then(|n| acc.checked_add(n)));
    let total_states: usize = bundle.entries.iter().map(|(_, d)| d.nontrivial_state_count()).sum();
    if json {
        say!(
            "{}",
            serde_json::json!({ "file": path, "file_bytes": file_bytes, "meta": meta_object(&bundle.meta), "sets": rows,
                "total_positions": crate::counts::json_opt(total_pos), "total_states": total_states,
                "positions_per_byte": total_pos.map(|p| p as f64 / file_bytes.max(1) as f64) })
        );
        return Ok(());
    }
    say!("{}: {} sets, {} bytes on disk", path.display(), bundle.entries.len(), file_bytes);
    say!("{:>24} {:>11} {:>12} {:>24} {:>10}", "set", "states", "bytes", "positions", "pos/byte");
    for (name, d) in &bundle.entries {
        let s = d.stats();
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

/// A file's metadata as JSON: the object it holds, or the text itself if it is not JSON.
fn meta_object(meta: &str) -> serde_json::Value {
    serde_json::from_str(meta).unwrap_or_else(|_| serde_json::Value::String(meta.to_string()))
}

/// `dfasolve check`: every value class of a solution against the explicit rules only.
pub(super) fn check(path: &Path, sample: usize, seed: u64, against: Option<&Path>, json: bool) -> Result<()> {
    if super::ostle_tables::is_tables_dir(path) {
        return super::ostle_tables::check(path, sample, seed, against, json);
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
            serde_json::json!({ "game": game.name(), "passed": true, "checked": crate::counts::json(checked),
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

/// `dfasolve export`: one set of a file as a DFA1 exchange file.
pub(super) fn export(args: &ExportArgs) -> Result<()> {
    let ExportArgs { file, set, out } = args;
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

/// A file's bundle and its size in bytes.
fn one_file(path: &Path) -> Result<(Bundle, u64)> {
    let bundle = Bundle::load(path).about_file("loading", path)?;
    Ok((bundle, std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)))
}

/// The sets of every class file in `dir` as one bundle (each set named `CLASS: set`), and
/// their bytes together.
fn class_files(dir: &Path) -> Result<(Bundle, u64)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .about_file("reading", dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("class-") && n.ends_with(".dfas"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("{}: no class files (class-*.dfas) here", dir.display());
    }
    let mut all = Bundle { meta: String::new(), entries: Vec::new() };
    let mut bytes = 0;
    for file in files {
        let (bundle, size) = one_file(&file)?;
        let class = file.file_stem().and_then(|s| s.to_str()).unwrap_or("?").trim_start_matches("class-").to_string();
        all.entries.extend(bundle.entries.into_iter().map(|(name, d)| (format!("{class}: {name}"), d)));
        all.meta = bundle.meta;
        bytes += size;
    }
    Ok((all, bytes))
}
