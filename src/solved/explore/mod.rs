//! Exploring a solved game: the value of a position, the value each of its moves leaves the
//! opponent (best for the mover first) and the best line to the end, answered the same way
//! for every kind of saved solution. `query`, `play`, `serve` and `puzzles` go through
//! [`Solved`]; a DFA solution file ([`DfaSolved`]), one read in place ([`InPlaceSolved`]), a
//! directory of class files ([`ClassDirSolved`]) and the formats the games bring ([`crate::solved::Format`])
//! implement it, and [`crate::solved::open`] opens whichever a path holds.
//!
//! Positions go in and come out as text (the game's own text form, which names the side to
//! move), so one answer's moves are the next questions.

mod dfa;
mod in_place;
pub mod positions;

pub use dfa::DfaSolved;
pub use in_place::{ClassDirSolved, InPlaceSolved, ReadInPlace, ValuesInPlace};

use crate::error::{Error, Result};
use crate::vocabulary::{Outcome, Side, Status, move_rank};

/// A solved game that answers positions.
pub trait Solved {
    /// The game's name with its parameters, e.g. `breakthrough 4x5`.
    fn game(&self) -> String;

    /// The start of the game, as a position's text.
    fn start(&self) -> String;

    /// The position `text` with its value and the value of each of its moves, best first.
    ///
    /// # Errors
    /// [`Error::BadPosition`] for text that is not a position of the game, or a position the
    /// solution cannot answer at all (which the message explains).
    fn look(&self, text: &str) -> Result<Look>;
}

/// A position as a person sees it: its value and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Look {
    /// The position's text (the game's text form; [`Solved::look`] reads it back).
    pub position: String,
    /// The board drawn for a person, from the first player's fixed view.
    pub board: String,
    /// Who moves.
    pub side_to_move: Side,
    /// The value for the player to move; `None` where the solution does not cover it (a meet in
    /// the middle covers what the start reaches).
    pub value: Option<Outcome>,
    /// Whether the game is already over for the player to move, and how.
    pub over: Status,
    /// The final score for the player to move under perfect play (their discs less the
    /// opponent's), where the solution knows it: Othello's margins.
    pub score: Option<i32>,
    /// Every move, best for the mover first ([`rank_moves`]: by the score left to the opponent
    /// where known, then the opponent's quickest loss, draws, its slowest win, and moves whose
    /// value is not covered); equal values in the natural order of their names.
    pub moves: Vec<LookMove>,
}

/// One move of a [`Look`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LookMove {
    /// Its name, e.g. `b2-b3` (moves with one result: every name, joined by `=`).
    pub name: String,
    /// The position it leads to, as text.
    pub position: String,
    /// The value of that position for the opponent (who moves there).
    pub value_for_opponent: Option<Outcome>,
    /// The final score of that position for the opponent, where the solution knows it.
    pub score_for_opponent: Option<i32>,
}

impl LookMove {
    /// Whether `answer` (a move as a person types it) names this move.
    pub fn is_named(&self, answer: &str) -> bool {
        self.name == answer || self.name.split('=').any(|n| n == answer)
    }
}

/// Sort moves best for the mover first: by the score they leave the opponent (lowest first,
/// where scores are known), then by value, equal ones in the natural order of their names
/// (`take 2` before `take 10`).
pub fn rank_moves(moves: &mut [LookMove]) {
    moves.sort_by(|a, b| {
        let score = |m: &LookMove| (m.score_for_opponent.is_none(), m.score_for_opponent);
        score(a)
            .cmp(&score(b))
            .then_with(|| move_rank(a.value_for_opponent).cmp(&move_rank(b.value_for_opponent)))
            .then_with(|| natural_order(&a.name, &b.name))
    });
}

/// Positions of one value a puzzle search tests against its filter at most, on any kind of
/// solution: the count of those that pass is exact up to there.
pub const MOST_EXAMINED: u64 = 1_000_000;

/// Why a move can be `not covered`, said under the moves where one is.
pub const NOT_COVERED: &str = "  (not covered: the solution values only the positions the start reaches, and a meet in the \
     middle does not play on from the positions it decided near the end; this move leads only there)";

/// Plies a best line follows a draw before it is cut.
pub const DRAW_LINE_PLIES: usize = 20;

/// A principal variation and why it ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves, one per ply.
    pub moves: Vec<String>,
    /// Why the line stops: the game is over, a draw was cut, or the solution does not cover
    /// the position reached.
    pub end: String,
    /// Whether it is best play: every move chosen by a known score or distance (or a draw). A solution
    /// without distances (a meet in the middle's) gives a line on which the winner keeps the
    /// win and the loser plays any losing move, not the longest defence: it can be much
    /// shorter than the game under best play.
    pub best_play: bool,
}

impl Line {
    /// What the line is, in words: `best line`, or `a winning line` where distances are unknown.
    pub fn label(&self) -> &'static str {
        if self.best_play { "best line" } else { "a winning line, not best play (no distances)" }
    }
}

/// The principal variation from `look`: each side plays its first ranked move (the winner
/// the quickest win, the loser the slowest loss) to the end of the game; a draw is cut after
/// [`DRAW_LINE_PLIES`], and the line stops where the solution does not cover a position.
/// Where a distance on the way is unknown the line is not best play ([`Line::best_play`]).
///
/// # Errors
/// A position on the way cannot be answered (a corrupt solution).
pub fn best_line(solved: &dyn Solved, look: &Look) -> Result<Line> {
    let mut moves = Vec::new();
    let mut look = look.clone();
    let mut best_play = true;
    loop {
        let line = |moves, end: String, best_play| Ok(Line { moves, end, best_play });
        if look.over != Status::Ongoing {
            return line(moves, "the game is over".into(), best_play);
        }
        if look.value == Some(Outcome::Draw) && moves.len() >= DRAW_LINE_PLIES {
            return line(moves, format!("a draw, cut after {DRAW_LINE_PLIES} plies"), best_play);
        }
        let Some(first) = look.moves.first().filter(|m| m.value_for_opponent.is_some()) else {
            return line(moves, "the solution does not cover the position reached".into(), best_play);
        };
        best_play &= first.score_for_opponent.is_some()
            || matches!(
                first.value_for_opponent,
                Some(Outcome::Draw | Outcome::Win { plies: Some(_) } | Outcome::Loss { plies: Some(_) })
            );
        moves.push(first.name.clone());
        let next = first.position.clone();
        look = solved.look(&next)?;
    }
}

/// `query --json`: a position, its value, its moves and its best line.
#[derive(serde::Serialize)]
struct LookJson<'a> {
    game: &'a str,
    position: &'a str,
    board: &'a str,
    #[serde(serialize_with = "crate::vocabulary::serialize_display_always")]
    side_to_move: Side,
    #[serde(serialize_with = "crate::vocabulary::serialize_display")]
    value: Option<Outcome>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<i32>,
    moves: Vec<LookMoveJson<'a>>,
    moves_total: usize,
    best_line: &'a [String],
    best_line_end: &'a str,
    best_line_is_best_play: bool,
}

/// One move of [`LookJson`].
#[derive(serde::Serialize)]
struct LookMoveJson<'a> {
    #[serde(rename = "move")]
    name: &'a str,
    position: &'a str,
    #[serde(serialize_with = "crate::vocabulary::serialize_display")]
    value_for_opponent: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score_for_opponent: Option<i32>,
}

impl Look {
    /// The answer as `query --json` writes it: at most `limit` moves listed, with the best line.
    pub fn to_json(&self, game: &str, limit: Option<usize>, line: &Line) -> serde_json::Value {
        let shown = limit.unwrap_or(usize::MAX).min(self.moves.len());
        let moves = self.moves[..shown]
            .iter()
            .map(|m| LookMoveJson {
                name: &m.name,
                position: &m.position,
                value_for_opponent: m.value_for_opponent,
                score_for_opponent: m.score_for_opponent,
            })
            .collect();
        crate::solved::report::to_json(&LookJson {
            game,
            position: &self.position,
            board: &self.board,
            side_to_move: self.side_to_move,
            value: self.value,
            status: self.over.word(),
            score: self.score,
            moves,
            moves_total: self.moves.len(),
            best_line: &line.moves,
            best_line_end: &line.end,
            best_line_is_best_play: line.best_play,
        })
    }

    /// The answer as `query` prints it: the board, the value, the moves (at most `limit`) and
    /// the best line.
    pub fn to_text(&self, limit: Option<usize>, line: &Line) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.board);
        match self.value {
            Some(v) => {
                let _ = writeln!(
                    out,
                    "value for the {} player (to move): {v}{}",
                    self.side_to_move,
                    score_words(self.score)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "value: not covered by this solution (a solve over the positions reachable from the start, or a meet in the middle, covers only what the start reaches)"
                );
            }
        }
        if self.over != Status::Ongoing {
            let _ = match self.over {
                Status::Drawn => writeln!(out, "the game is over: a draw"),
                over => writeln!(out, "the game is over: the player to move has {}", over.word()),
            };
            return out;
        }
        let shown = limit.unwrap_or(usize::MAX).min(self.moves.len());
        let _ = writeln!(out, "moves, best first (value for the opponent after the move):");
        for m in &self.moves[..shown] {
            let _ = writeln!(
                out,
                "  {:>10}  {}{}",
                m.name,
                value_words(m.value_for_opponent),
                score_words(m.score_for_opponent)
            );
        }
        if shown < self.moves.len() {
            let _ = writeln!(out, "  ... {} more (--limit)", self.moves.len() - shown);
        }
        if self.moves[..shown].iter().any(|m| m.value_for_opponent.is_none()) {
            let _ = writeln!(out, "{NOT_COVERED}");
        }
        let plies = crate::counts::counted(line.moves.len() as u128, "ply", "plies");
        let _ = writeln!(out, "{} ({plies}, {}): {}", line.label(), line.end, line.moves.join(", "));
        out
    }
}

/// A known final score in words, after a value: `, final score +4`.
pub fn score_words(score: Option<i32>) -> String {
    score.map_or_else(String::new, |s| format!(", final score {s:+}"))
}

/// A value in words, `not covered` where the solution has none.
pub fn value_words(value: Option<Outcome>) -> String {
    value.map_or_else(|| "not covered".to_string(), |v| v.to_string())
}

/// A position the solution cannot answer, explained.
pub(crate) fn not_answerable(text: &str, why: impl std::fmt::Display) -> Error {
    Error::BadPosition(format!("{text}: {why}"))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn m(name: &str, value: Option<Outcome>) -> LookMove {
        LookMove { name: name.into(), position: String::new(), value_for_opponent: value, score_for_opponent: None }
    }

    #[test]
    fn moves_rank_quickest_loss_first_then_draws_then_slowest_wins() {
        let mut moves = vec![
            m("a", None),
            m("b", Some(Outcome::Win { plies: Some(3) })),
            m("take 10", Some(Outcome::Draw)),
            m("take 2", Some(Outcome::Draw)),
            m("e", Some(Outcome::Loss { plies: Some(4) })),
            m("f", Some(Outcome::Loss { plies: Some(2) })),
            m("g", Some(Outcome::Win { plies: Some(9) })),
        ];
        rank_moves(&mut moves);
        let names: Vec<&str> = moves.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["f", "e", "take 2", "take 10", "g", "b", "a"]);
    }

    /// Where scores are known they rank first (the lowest left to the opponent), the values
    /// after them, so a quicker win that leaves a better score for the opponent comes later.
    #[test]
    fn known_scores_rank_before_values() {
        let scored = |name: &str, value, score| LookMove { score_for_opponent: Some(score), ..m(name, Some(value)) };
        let mut moves = vec![
            scored("quick", Outcome::Loss { plies: Some(2) }, -2),
            scored("slow", Outcome::Loss { plies: Some(8) }, -10),
            scored("tie b", Outcome::Loss { plies: Some(6) }, -6),
            scored("tie a", Outcome::Loss { plies: Some(4) }, -6),
            m("unscored", Some(Outcome::Loss { plies: Some(1) })),
        ];
        rank_moves(&mut moves);
        let names: Vec<&str> = moves.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["slow", "tie a", "tie b", "quick", "unscored"]);
    }

    #[test]
    fn a_move_with_several_names_answers_to_each() {
        let corner = m("a1L=a1D", None);
        assert!(corner.is_named("a1L") && corner.is_named("a1D") && corner.is_named("a1L=a1D"));
        assert!(!corner.is_named("a1"));
    }
}
