//! `dfasolve play`: a person against the perfect player at the terminal, on any saved
//! solution. The person's moves are listed best first with their values, and the value of
//! each position is shown (hints that can be turned off); a move can be taken back, and the
//! game's record can be saved.

use super::output::{AboutFile, say};
use crate::atomic::write_atomically;
use crate::solved::explore::{self, Look, Solved, score_words, value_words};
use crate::vocabulary::{Side, Status};
use anyhow::{Result, anyhow, bail};
use std::io::BufRead;
use std::path::Path;

/// One ply of the game so far.
struct Ply {
    side: Side,
    name: String,
    before: Look,
}

/// The game being played.
struct Game<'a> {
    solved: &'a dyn Solved,
    human: Side,
    start: String,
    plies: Vec<Ply>,
    now: Look,
}

impl Game<'_> {
    /// The record of the game as JSON: the start, every move with the value before it, and
    /// how it ended (`winner` `null` while it goes on).
    fn record(&self) -> serde_json::Value {
        let moves = self
            .plies
            .iter()
            .map(|p| PlyJson {
                side: p.side,
                name: &p.name,
                position_before: &p.before.position,
                value_before: p.before.value,
            })
            .collect();
        let game = self.solved.game();
        crate::solved::report::to_json(&RecordJson {
            program: crate::PROGRAM_VERSION,
            game: &game,
            start: &self.start,
            you: self.human,
            moves,
            final_position: &self.now.position,
            finished: self.now.over != Status::Ongoing,
            winner: self.winner(),
            you_won: self.winner().map(|w| w == self.human),
        })
    }

    fn winner(&self) -> Option<Side> {
        match self.now.over {
            Status::Ongoing => None,
            Status::Won => Some(self.now.side_to_move),
            Status::Lost => Some(self.now.side_to_move.other()),
            Status::Drawn => None,
        }
    }

    fn play(&mut self, name: String, to: &str) -> Result<()> {
        let next = self.solved.look(to)?;
        let before = std::mem::replace(&mut self.now, next);
        self.plies.push(Ply { side: before.side_to_move, name, before });
        Ok(())
    }

    /// Take back moves to the person's last turn; whether there was one.
    fn undo(&mut self) -> bool {
        let Some(last) = self.plies.iter().rposition(|p| p.side == self.human) else { return false };
        self.now = self.plies[last].before.clone();
        self.plies.truncate(last);
        true
    }
}

/// What the person typed.
enum Said<'a> {
    Quit,
    Undo,
    Hints,
    Save(&'a str),
    Move(&'a str),
}

fn said(line: &str) -> Said<'_> {
    match line.split_once(' ').map_or((line, ""), |(w, rest)| (w, rest.trim())) {
        ("q" | "quit", "") => Said::Quit,
        ("u" | "undo", "") => Said::Undo,
        ("h" | "hint" | "hints", "") => Said::Hints,
        ("s" | "save", file) if !file.is_empty() => Said::Save(file),
        _ => Said::Move(line),
    }
}

/// `dfasolve play`: the person plays `human` from the start or `from`; with `json` the board
/// and prompts go to stderr and stdout gets the game's record; with `record` the record is
/// also written there when the game ends or the person quits.
pub(super) fn play(
    path: &Path,
    human: Side,
    from: Option<&str>,
    json: bool,
    limit: Option<usize>,
    record: Option<&Path>,
) -> Result<()> {
    if let Some(file) = record {
        crate::atomic::check_writable(file)?;
    }
    let solved = crate::solved::open(path, &crate::games::GAMES).about_file("loading", path)?;
    let start = match from {
        Some(text) => text.to_string(),
        None => solved.start(),
    };
    let now = solved.look(&start)?;
    let mut game = Game { solved: solved.as_ref(), human, start: now.position.clone(), plies: Vec::new(), now };
    let show = |text: String| -> Result<()> {
        if json {
            eprintln!("{text}");
        } else {
            say!("{text}");
        }
        Ok(())
    };
    let mut hints = true;
    let mut lines = std::io::stdin().lock().lines();
    loop {
        let now = game.now.clone();
        let who = if now.side_to_move == human { "you" } else { "me" };
        let value =
            if hints { format!(": {}{}", value_words(now.value), score_words(now.score)) } else { String::new() };
        show(format!("\n{}\nthe {} player to move ({who}){value}", now.board, now.side_to_move))?;
        if let Some(winner) = game.winner() {
            show(format!(
                "game over: the {winner} player wins{}",
                if winner == human { " — well played!" } else { "" }
            ))?;
            break;
        }
        if now.over == Status::Drawn {
            show("game over: a draw".to_string())?;
            break;
        }
        if now.side_to_move != human {
            let Some(best) = now.moves.first() else { bail!("an ongoing position has no move") };
            let leaves = if hints {
                format!(
                    " (leaves you: {}{})",
                    value_words(best.value_for_opponent),
                    score_words(best.score_for_opponent)
                )
            } else {
                String::new()
            };
            show(format!("I play {}{leaves}", best.name))?;
            game.play(best.name.clone(), &best.position)?;
            continue;
        }
        let mut listed: Vec<&explore::LookMove> = now.moves.iter().collect();
        if !hints {
            listed.sort_by(|a, b| a.name.cmp(&b.name));
        }
        let shown = limit.unwrap_or(usize::MAX).min(listed.len());
        let mut menu = if hints {
            "your moves, best first (the value each leaves me):".to_string()
        } else {
            "your moves (hints off):".to_string()
        };
        for (i, m) in listed[..shown].iter().enumerate() {
            let value = if hints {
                format!(" ({}{})", value_words(m.value_for_opponent), score_words(m.score_for_opponent))
            } else {
                String::new()
            };
            menu.push_str(&format!("\n  {:>3}) {}{value}", i + 1, m.name));
        }
        if shown < listed.len() {
            menu.push_str(&format!("\n  ... {} more (type the name)", listed.len() - shown));
        }
        menu.push_str("\nyour move: a number or a name; u undo, h hints on/off, s FILE save the record, q quit");
        show(menu)?;
        let Some(line) = lines.next() else { break };
        let line = line.map_err(|e| anyhow!("reading your move: {e}"))?;
        match said(line.trim()) {
            Said::Quit => break,
            Said::Undo => {
                if !game.undo() {
                    show("nothing of yours to take back".into())?;
                }
            }
            Said::Hints => {
                hints = !hints;
                let how =
                    if hints { "on: values shown, your moves best first" } else { "off: no values, moves by name" };
                show(format!("hints {how}"))?;
            }
            Said::Save(file) => {
                let file = Path::new(file);
                match save(&game, file) {
                    Ok(()) => show(format!("saved the record to {}", file.display()))?,
                    Err(e) => show(format!("not saved: {e:#}"))?,
                }
            }
            Said::Move(answer) => {
                let chosen = answer
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| i.checked_sub(1))
                    .and_then(|i| listed.get(i).copied())
                    .or_else(|| now.moves.iter().find(|m| m.is_named(answer)));
                match chosen {
                    Some(m) => game.play(m.name.clone(), &m.position)?,
                    None => show(format!("not a legal move: {answer:?}"))?,
                }
            }
        }
    }
    if let Some(file) = record {
        save(&game, file)?;
    }
    if json {
        say!("{}", game.record());
    }
    Ok(())
}

fn save(game: &Game, file: &Path) -> Result<()> {
    let mut text = serde_json::to_string_pretty(&game.record())?;
    text.push('\n');
    write_atomically(file, text.as_bytes()).about_file("writing", file)
}

/// `play --json`: the game as played.
#[derive(serde::Serialize)]
struct RecordJson<'a> {
    program: &'static str,
    game: &'a str,
    start: &'a str,
    #[serde(serialize_with = "crate::vocabulary::serialize_display_always")]
    you: Side,
    moves: Vec<PlyJson<'a>>,
    final_position: &'a str,
    finished: bool,
    #[serde(serialize_with = "crate::vocabulary::serialize_display")]
    winner: Option<Side>,
    you_won: Option<bool>,
}

/// One move of [`RecordJson`], with the value of the position before it.
#[derive(serde::Serialize)]
struct PlyJson<'a> {
    #[serde(serialize_with = "crate::vocabulary::serialize_display_always")]
    side: Side,
    #[serde(rename = "move")]
    name: &'a str,
    position_before: &'a str,
    #[serde(serialize_with = "crate::vocabulary::serialize_display")]
    value_before: Option<crate::vocabulary::Outcome>,
}
