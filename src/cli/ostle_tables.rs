//! `query` and `play` on a directory of Ostle class tables (`dfasolve explicit ostle`): the
//! values come from the tables through memory maps, the moves from the plain rules, so an
//! answer reads a few pages of the files and builds nothing.

use super::output::{AboutFile, say};
use crate::games::GameParams;
use crate::games::ostle::Variant;
use crate::games::ostle::explicit::{State, Value};
use crate::games::ostle::ranked::{self, tables::ClassTables};
use crate::vocabulary::Side;
use anyhow::{Result, anyhow, bail};
use std::path::Path;

/// Whether `path` is a directory of class tables.
pub(super) fn is_tables_dir(path: &Path) -> bool {
    path.is_dir()
        && std::fs::read_dir(path).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_str().is_some_and(|n| n.starts_with("class-") && n.ends_with(".ranked")))
        })
}

fn open(path: &Path) -> Result<ranked::Solution> {
    let first = std::fs::read_dir(path)?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("class-") && n.ends_with(".ranked"))
        })
        .ok_or_else(|| anyhow!("{}: no class tables (class-*.ranked) here", path.display()))?;
    let v = ClassTables::open(&first, None)?.variant;
    Ok(ranked::Solution::open(&v, path)?)
}

fn game_name(v: &crate::games::ostle::Variant) -> String {
    format!("ostle {}x{} k{} t{}", v.width, v.height, v.pieces, v.lose_at)
}

/// A value as every JSON report writes it ([`Outcome`]'s text: `win in 17 plies`, `draw`).
pub(super) fn outcome_text(v: Value) -> String {
    crate::vocabulary::Outcome::from(v).to_string()
}

fn value_words(v: Option<Value>) -> String {
    match v {
        Some(v) => outcome_text(v),
        None => "not known: its class is not solved in these tables".into(),
    }
}

/// Refuse a position the tables cannot answer: its class is not solved there, or it is not
/// a state of the reading (a forbidden move the reading never gives that board).
fn answerable(t: &ranked::Solution, s: &State, text: &str, dir: &Path) -> Result<()> {
    if t.value(s).is_some() || t.variant.finished(&s.cells).is_some() {
        return Ok(());
    }
    match t.class_of(s) {
        Some((class, false)) => {
            let solved: Vec<String> = t.classes().iter().map(|c| c.kinds[0].kind.to_string()).collect();
            Err(anyhow!(
                "{text}: its class {} is not solved in {} (solved: {}); `dfasolve explicit ostle --class {}` with the \
                 same variant and --tables solves it",
                class.name,
                dir.display(),
                solved.join(", "),
                class.name
            ))
        }
        _ => Err(anyhow!(
            "{text}: not a state of these tables: the {} reading never forbids that move on this board",
            t.variant.rule.name()
        )),
    }
}

/// The moves of `s` with the value each leaves the opponent, best for the mover first.
fn ranked_moves(t: &ranked::Solution, s: &State) -> Vec<(String, State, Option<Value>)> {
    let v = &t.variant;
    let mut out: Vec<(String, State, Option<Value>)> = v
        .all_moves(&s.cells)
        .into_iter()
        .filter(|&m| Some(m) != s.forbidden)
        .map(|m| {
            let next = v.after(&s.cells, m);
            let value = match v.finished(&next.cells) {
                Some(true) => Some(Value::Win(0)),
                Some(false) => Some(Value::Loss(0)),
                None => t.value(&next),
            };
            (v.move_text(m), next, value)
        })
        .collect();
    // Best for the mover: the opponent's quickest loss, then draws, then its slowest win.
    let rank = |x: &Option<Value>| match x {
        Some(Value::Loss(n)) => (0, i64::from(*n)),
        Some(Value::Draw) => (1, 0),
        Some(Value::Win(n)) => (2, -i64::from(*n)),
        None => (3, 0),
    };
    out.sort_by_key(|(_, _, x)| rank(x));
    out
}

/// Class tables opened once to answer positions.
pub(super) struct Tables {
    path: std::path::PathBuf,
    solution: ranked::Solution,
}

impl Tables {
    /// Open the class tables in the directory `path`.
    pub(super) fn open(path: &Path) -> Result<Tables> {
        Ok(Tables { path: path.to_path_buf(), solution: open(path)? })
    }

    /// The game's name and its start as a position's text.
    pub(super) fn start(&self) -> (String, String) {
        let v = &self.solution.variant;
        (game_name(v), v.position_text(&v.initial_state(), Side::First))
    }

    /// `dfasolve query DIR POSITION` on class tables: the answer's JSON object and its text.
    pub(super) fn answer(&self, text: &str, limit: Option<usize>) -> Result<(serde_json::Value, String)> {
        use std::fmt::Write;
        let t = &self.solution;
        let v = &t.variant;
        let (s, side) = v.parse_position(text)?;
        answerable(t, &s, text, &self.path)?;
        let value = t.value(&s);
        let over = v.finished(&s.cells);
        let moves = if over.is_none() { ranked_moves(t, &s) } else { Vec::new() };
        let shown = limit.unwrap_or(usize::MAX).min(moves.len());
        let listed: Vec<serde_json::Value> = moves[..shown]
            .iter()
            .map(|(name, next, x)| {
                serde_json::json!({ "move": name, "position": v.position_text(next, side.other()),
                    "value_for_opponent": x.map(outcome_text) })
            })
            .collect();
        let (line, line_end) = best_line(t, &s);
        let position = v.position_text(&s, side);
        let board = position.split_whitespace().next().unwrap_or_default().replace('/', "\n");
        let object = serde_json::json!({ "game": game_name(v), "board": board,
            "rule": v.rule.name(), "position": position, "value": value.map(outcome_text),
            "moves": listed, "moves_total": moves.len(), "best_line": line, "best_line_end": line_end });
        let mut out = String::new();
        let _ = writeln!(out, "{}", v.position_text(&s, side));
        let mover = if side == Side::First { "Black, b" } else { "White, w" };
        let _ = writeln!(out, "value for the player to move ({mover}): {}", value_words(value));
        if let Some(won) = over {
            let _ = writeln!(out, "the game is over: the player to move has {}", if won { "won" } else { "lost" });
            return Ok((object, out));
        }
        let _ = writeln!(out, "moves, best first (value for the opponent after the move):");
        for (name, _, x) in &moves[..shown] {
            let _ = writeln!(out, "  {name:>6}  {}", value_words(*x));
        }
        if shown < moves.len() {
            let _ = writeln!(out, "  ... {} more (--limit)", moves.len() - shown);
        }
        let plies = if line.len() == 1 { "ply" } else { "plies" };
        let _ = writeln!(out, "best line ({} {plies}, {line_end}): {}", line.len(), line.join(", "));
        Ok((object, out))
    }
}

/// The principal variation from `s` in the tables (as `files::best_line` on a DFA solution):
/// the first ranked move each time, to the end of the game or a cut draw.
fn best_line(t: &ranked::Solution, s: &State) -> (Vec<String>, String) {
    let draw_cut = super::files::DRAW_LINE_PLIES;
    let (mut line, mut s) = (Vec::new(), s.clone());
    loop {
        if t.variant.finished(&s.cells).is_some() {
            return (line, "the game is over".into());
        }
        if t.value(&s) == Some(Value::Draw) && line.len() >= draw_cut {
            return (line, format!("a draw, cut after {draw_cut} plies"));
        }
        let Some((name, next, Some(_))) = ranked_moves(t, &s).into_iter().next() else {
            return (line, "the tables do not hold the position reached".into());
        };
        line.push(name);
        s = next;
    }
}

/// `dfasolve play DIR` on class tables: the user against the perfect player, from the start or
/// a given state. The player to move is always shown as `b`.
pub(super) fn play(path: &Path, human_first: bool, from: Option<&str>, json: bool) -> Result<()> {
    use std::io::BufRead;
    let t = open(path)?;
    let v = &t.variant;
    let mut s = match from {
        Some(text) => v.parse_position(text)?.0,
        None => v.initial_state(),
    };
    answerable(&t, &s, from.unwrap_or("the start"), path)?;
    let mut human_to_move = human_first;
    let mut played = Vec::new();
    let show = |text: String| -> Result<()> {
        if json {
            eprintln!("{text}");
        } else {
            say!("{text}");
        }
        Ok(())
    };
    let mut lines = std::io::stdin().lock().lines();
    let result = loop {
        let who = if human_to_move { "you" } else { "me" };
        show(format!("\n{}\n{who} to move (as b): {}", v.state_text(&s), value_words(t.value(&s))))?;
        if let Some(won) = v.finished(&s.cells) {
            let human_won = won == human_to_move;
            show(format!("game over: {}", if human_won { "you win — well played!" } else { "I win" }))?;
            break Some(human_won);
        }
        let moves = ranked_moves(&t, &s);
        let chosen = if human_to_move {
            let names: Vec<String> = moves.iter().map(|(n, _, _)| n.clone()).collect();
            show(format!("moves, best first: {}\nyour move (q to quit):", names.join(" ")))?;
            let Some(line) = lines.next() else { break None };
            let answer = line.map_err(|e| anyhow!("reading your move: {e}"))?.trim().to_string();
            if answer == "q" || answer == "quit" {
                break None;
            }
            match moves.into_iter().find(|(n, _, _)| *n == answer) {
                Some(m) => m,
                None => {
                    show(format!("not a legal move: {answer:?}"))?;
                    continue;
                }
            }
        } else {
            let Some(best) = moves.into_iter().next() else { bail!("an ongoing position has no move") };
            show(format!("I play {} (leaves you: {})", best.0, value_words(best.2)))?;
            best
        };
        played.push(chosen.0);
        s = chosen.1;
        human_to_move = !human_to_move;
    };
    if json {
        say!(
            "{}",
            serde_json::json!({ "moves": played, "final_position": v.state_text(&s), "you_won": result,
                "finished": result.is_some() })
        );
    }
    Ok(())
}

/// `dfasolve check DIR` on class tables: states drawn at random (`sample`, every state if
/// there are no more), each checked by the plain rules against its moves' values; also every
/// class file's checksum; with `against`, the values compared with a DFA solution's.
pub(super) fn check(path: &Path, sample: usize, seed: u64, against: Option<&Path>, json: bool) -> Result<()> {
    let t = open(path)?;
    for c in ranked::classes(&t.variant) {
        let file = ranked::class_file(path, &c);
        if file.exists() {
            ClassTables::verify_checksum(&file)?;
        }
    }
    let checked = t.check_sample(sample as u64, seed).map_err(|e| anyhow!("check failed: {e}"))?;
    let compared = match against {
        Some(file) => Some(compare(&t, file, sample, seed)?),
        None => None,
    };
    if json {
        say!(
            "{}",
            serde_json::json!({ "checked_states": checked, "seed": seed, "passed": true, "compared_with_dfa": compared })
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
        say!("{}", serde_json::json!({ "rule": v.rule.name(), "kinds": rows }));
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
            r["boards"],
            r["states"],
            r["class_file_bytes"]
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
        say!("{}", serde_json::json!({ "states_with_the_value": found.with_value, "puzzles": found.puzzles }));
        return Ok(());
    }
    say!(
        "{} states win in {} plies; {} of them shown that pass the filter",
        found.with_value,
        found.plies,
        found.puzzles.len()
    );
    print_puzzles(&found.puzzles)
}

/// `dfasolve puzzles DIR --sacrifice`: every win by sacrifices only counted, some listed.
fn sacrifice_puzzles(t: &ranked::Solution, filter: &ranked::puzzles::Filter, limit: usize, json: bool) -> Result<()> {
    let found = t.sacrifice_puzzles(filter, limit)?;
    if json {
        say!("{}", serde_json::json!({ "passing": found.passing, "puzzles": found.puzzles }));
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
