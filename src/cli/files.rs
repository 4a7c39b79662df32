//! The subcommands that read saved files: `query`, `play`, `stats`, `check`, `export`,
//! `import`.

use super::ExportArgs;
use super::report::human;
use crate::dfa::Dfa;
use crate::dfa::file::Bundle;
use crate::error::Error;
use crate::games::check::check_solution;
use crate::games::{Game, Solution};
use crate::vocabulary::{Outcome, Position, Side, Status, move_rank};
use anyhow::{Context, Result, anyhow, bail};
use std::path::Path;

fn load_solution(path: &Path) -> Result<(Box<dyn Game>, Solution)> {
    Solution::load(path).with_context(|| format!("loading {}", path.display()))
}

/// `dfasolve query`: the value and the ranked moves of one position.
pub(super) fn query(path: &Path, text: &str) -> Result<()> {
    let (game, solution) = load_solution(path)?;
    let pos = game.parse(text)?;
    let value = solution.value(&pos);
    println!("{}", game.render(&pos));
    match value {
        Some(v) => println!("value for the {} player (to move): {v}", pos.side),
        None => {
            println!(
                "value: not covered by this solution (a meet-in-the-middle solve covers what the start reaches; \
                 an Ostle solve covers the states some move can produce)"
            )
        }
    }
    if game.explicit_status(&pos) != Status::Ongoing {
        println!("the game is over: {:?} for the player to move", game.explicit_status(&pos));
        return Ok(());
    }
    println!("moves, best first (value for the opponent after the move):");
    for (name, _, v) in ranked_moves(game.as_ref(), &solution, &pos) {
        println!("  {name:>10}  {}", v.map_or("not covered".to_string(), |v| v.to_string()));
    }
    Ok(())
}

/// The moves of `pos` with the value each leads to (for the opponent), best for the mover first.
fn ranked_moves(game: &dyn Game, solution: &Solution, pos: &Position) -> Vec<(String, Position, Option<Outcome>)> {
    let mut moves: Vec<(String, Position, Option<Outcome>)> = game
        .explicit_moves(pos)
        .into_iter()
        .map(|next| (game.move_name(pos, &next), solution.value(&next), next))
        .map(|(name, v, next)| (name, next, v))
        .collect();
    moves.sort_by_key(|(name, _, v)| (move_rank(*v), name.clone()));
    moves
}

/// `dfasolve play`: the user plays `human` against the perfect player.
pub(super) fn play(path: &Path, human: Side, from: Option<&str>) -> Result<()> {
    use std::io::BufRead;
    let (game, solution) = load_solution(path)?;
    let mut pos = match from {
        Some(text) => game.parse(text)?,
        None => solution.initial.clone(),
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        println!("\n{}", game.render(&pos));
        match solution.value(&pos) {
            Some(v) => println!("{} to move: {v}", pos.side),
            None => println!("{} to move (position not covered by this solution)", pos.side),
        }
        if game.explicit_status(&pos) != Status::Ongoing {
            let winner = if game.explicit_status(&pos) == Status::Lost { pos.side.other() } else { pos.side };
            println!("game over: the {winner} player wins{}", if winner == human { " — well played!" } else { "" });
            return Ok(());
        }
        let moves = ranked_moves(game.as_ref(), &solution, &pos);
        if pos.side == human {
            for (i, (name, _, _)) in moves.iter().enumerate() {
                print!("{:>3}) {name}  ", i + 1);
            }
            println!("\nyour move (number or name, q to quit):");
            let Some(line) = lines.next() else { return Ok(()) };
            let line = line.context("reading your move")?;
            let answer = line.trim();
            if answer == "q" || answer == "quit" {
                return Ok(());
            }
            let chosen = answer
                .parse::<usize>()
                .ok()
                .and_then(|i| i.checked_sub(1))
                .and_then(|i| moves.get(i))
                .or_else(|| moves.iter().find(|(name, _, _)| name.split('=').any(|n| n == answer)));
            match chosen {
                Some((_, next, _)) => pos = next.clone(),
                None => println!("not a legal move: {answer:?}"),
            }
        } else {
            let (name, next, after) = moves.into_iter().next().expect("ongoing positions have a move");
            println!("I play {name} (leaves you: {})", after.map_or("unknown".into(), |v| v.to_string()));
            pos = next;
        }
    }
}

/// `dfasolve stats`: sizes and compression of every set in a file.
pub(super) fn stats(path: &Path, json: bool) -> Result<()> {
    let (bundle, file_bytes) = if path.is_dir() { class_files(path)? } else { one_file(path)? };
    let rows: Vec<serde_json::Value> = bundle
        .entries
        .iter()
        .map(|(name, d)| {
            let s = d.stats();
            serde_json::json!({
                "name": name, "layers": d.shape().len(), "states": s.states, "memory_bytes": s.memory_bytes,
                "disk_bytes": s.disk_bytes, "positions": s.positions, "positions_per_byte": s.positions_per_byte,
            })
        })
        .collect();
    let total_pos: Option<u128> =
        bundle.entries.iter().try_fold(0u128, |acc, (_, d)| d.checked_count().and_then(|n| acc.checked_add(n)));
    let total_states: usize = bundle.entries.iter().map(|(_, d)| d.nontrivial_state_count()).sum();
    if json {
        println!(
            "{}",
            serde_json::json!({ "file": path, "file_bytes": file_bytes, "meta": bundle.meta, "sets": rows,
                "total_positions": total_pos, "total_states": total_states,
                "positions_per_byte": total_pos.map(|p| p as f64 / file_bytes.max(1) as f64) })
        );
        return Ok(());
    }
    println!("{}: {} sets, {} bytes on disk", path.display(), bundle.entries.len(), file_bytes);
    println!("{:>24} {:>11} {:>12} {:>24} {:>10}", "set", "states", "bytes", "positions", "pos/byte");
    for (name, d) in &bundle.entries {
        let s = d.stats();
        println!(
            "{name:>24} {:>11} {:>12} {:>24} {:>10}",
            s.states,
            s.disk_bytes,
            human(s.positions),
            s.positions_per_byte.map_or("-".into(), |p| format!("{p:.1}"))
        );
    }
    println!(
        "total: {} states, {} positions, {} positions per byte of file",
        total_states,
        human(total_pos),
        total_pos.map_or("-".into(), |p| format!("{:.1}", p as f64 / file_bytes.max(1) as f64))
    );
    Ok(())
}

/// `dfasolve check`: every value class of a solution against the explicit rules only.
pub(super) fn check(path: &Path, sample: usize, seed: u64) -> Result<()> {
    let (game, solution) = load_solution(path)?;
    let report = check_solution(game.as_ref(), &solution, sample, seed).map_err(|e| match e {
        Error::Verification(why) => anyhow!("check failed {why}"),
        other => other.into(),
    })?;
    let mut checked = 0u128;
    for class in &report {
        checked += class.checked;
        println!(
            "{:>6} to move, {:>16}: {} positions checked{}",
            class.side.to_string(),
            class.outcome.to_string(),
            human(Some(class.checked)),
            if class.all { " (all)" } else { " (uniform sample)" }
        );
    }
    println!("check passed: {checked} positions of {} agree with the explicit rules", game.name());
    Ok(())
}

/// `dfasolve export`: one set of a file as a DFA1 exchange file.
pub(super) fn export(args: &ExportArgs) -> Result<()> {
    let ExportArgs { file, set, out } = args;
    let bundle = Bundle::load(file).with_context(|| format!("loading {}", file.display()))?;
    let Some(dfa) = bundle.get(set) else {
        let names: Vec<&str> = bundle.entries.iter().map(|(n, _)| n.as_str()).collect();
        bail!("{} has no set named {set:?} (it has: {})", file.display(), names.join(", "));
    };
    dfa.save_dfa1(out).with_context(|| format!("writing {}", out.display()))?;
    println!(
        "wrote {} ({} states, {} positions)",
        out.display(),
        dfa.nontrivial_state_count(),
        human(dfa.checked_count())
    );
    Ok(())
}

/// `dfasolve import`: a DFA1 exchange file into a one-set dfasolve file.
pub(super) fn import(dfa1: &Path, out: &Path) -> Result<()> {
    let dfa = Dfa::load_dfa1(dfa1).with_context(|| format!("loading {}", dfa1.display()))?;
    let meta = serde_json::json!({ "kind": "dfa1-import", "source": dfa1 }).to_string();
    println!(
        "read {} ({} states after minimisation, {} positions)",
        dfa1.display(),
        dfa.nontrivial_state_count(),
        human(dfa.checked_count())
    );
    Bundle { meta, entries: vec![("imported".into(), dfa)] }
        .save(out)
        .with_context(|| format!("writing {}", out.display()))
}

/// A file's bundle and its size in bytes.
fn one_file(path: &Path) -> Result<(Bundle, u64)> {
    let bundle = Bundle::load(path).with_context(|| format!("loading {}", path.display()))?;
    Ok((bundle, std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)))
}

/// The sets of every class file in `dir` as one bundle (each set named `CLASS: set`), and
/// their bytes together.
fn class_files(dir: &Path) -> Result<(Bundle, u64)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
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
