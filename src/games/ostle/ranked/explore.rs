//! [`Solved`] for a directory of class tables: the values come from the tables through memory
//! maps, the moves from the plain rules, so an answer reads a few pages of the files and
//! builds nothing.

use super::super::Variant;
use super::super::explicit::State;
use super::Solution;
use super::tables::ClassTables;
use crate::error::{Error, Result};
use crate::solved::explore::{Look, LookMove, Solved, not_answerable, rank_moves};
use crate::vocabulary::{Outcome, Side, Status};
use std::path::Path;

/// Whether `path` is a directory holding class tables (`class-*.ranked`).
pub fn is_tables_dir(path: &Path) -> bool {
    path.is_dir() && std::fs::read_dir(path).is_ok_and(|entries| entries.flatten().any(|e| is_class_file(&e.path())))
}

pub(super) fn is_class_file(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("class-") && n.ends_with(".ranked"))
}

impl Solution {
    /// Open the class tables in `dir`, of whichever variant they solve.
    ///
    /// # Errors
    /// No class tables there; a corrupt or foreign file.
    pub fn open_dir(dir: &Path) -> Result<Solution> {
        let io = |error| Error::Io { path: dir.to_path_buf(), error };
        let first =
            std::fs::read_dir(dir).map_err(io)?.flatten().map(|e| e.path()).find(|p| is_class_file(p)).ok_or_else(
                || Error::BadParameters(format!("{}: no class tables (class-*.ranked) here", dir.display())),
            )?;
        let variant = ClassTables::open(&first, None)?.variant;
        Solution::open(&variant, dir)
    }

    /// The game's name as the DFA solver names it, e.g. `ostle 5x5 k5 t3 class`.
    pub fn game_name(&self) -> String {
        let v = &self.variant;
        format!("ostle {}x{} k{} t{} {}", v.width, v.height, v.pieces, v.lose_at, v.rule.name())
    }

    /// Refuse a state the tables cannot answer: its class is not solved here, or it is not a
    /// state of the reading (a forbidden move the reading never gives that board).
    fn answerable(&self, s: &State, text: &str) -> Result<()> {
        if self.value(s).is_some() || self.variant.finished(&s.cells).is_some() {
            return Ok(());
        }
        match self.class_of(s) {
            Some((class, false)) => {
                let solved: Vec<String> = self.classes().iter().map(|c| c.kinds[0].kind.to_string()).collect();
                Err(not_answerable(
                    text,
                    format!(
                        "its class {} is not solved in {} (solved: {}); `dfasolve explicit ostle --class {}` with the \
                         same variant and --tables solves it",
                        class.name,
                        self.dir.display(),
                        solved.join(", "),
                        class.name
                    ),
                ))
            }
            _ => Err(not_answerable(
                text,
                format!("not a state of these tables: the {} reading never forbids that move on this board", {
                    self.variant.rule.name()
                }),
            )),
        }
    }
}

impl Solved for Solution {
    fn game(&self) -> String {
        self.game_name()
    }

    fn start(&self) -> String {
        let v: &Variant = &self.variant;
        v.position_text(&v.initial_state(), Side::First)
    }

    fn look(&self, text: &str) -> Result<Look> {
        let v = &self.variant;
        let (s, side) = v.parse_position(text)?;
        self.answerable(&s, text)?;
        let over = match v.finished(&s.cells) {
            None => Status::Ongoing,
            Some(true) => Status::Won,
            Some(false) => Status::Lost,
        };
        let mut moves: Vec<LookMove> = Vec::new();
        if over == Status::Ongoing {
            // The successors as the tables' reading forbids their moves; moves with one
            // result (a piece pushed off by any of its ways out) are one move, `a1L=a1D`, as
            // on a DFA solution.
            for (m, next, value) in self.moves_of(&s) {
                let position = v.position_text(&next, side.other());
                match moves.iter_mut().find(|seen| seen.position == position) {
                    Some(seen) => seen.name = format!("{}={}", seen.name, v.move_text(m)),
                    None => moves.push(LookMove {
                        name: v.move_text(m),
                        position,
                        value_for_opponent: value.map(Outcome::from),
                        score_for_opponent: None,
                    }),
                }
            }
            rank_moves(&mut moves);
        }
        Ok(Look {
            position: v.position_text(&s, side),
            board: v.draw(&s, side),
            side_to_move: side,
            value: over.outcome().or_else(|| self.value(&s).map(Outcome::from)),
            over,
            score: None,
            moves,
        })
    }
}
