//! A directory of difference tables answering positions (`query`, `play`, `serve`): each
//! class's universe and table are read on first use, so a question reads the classes of the
//! position and of its moves only.

use super::difference_table::DifferenceTable;
use super::differences::Class;
use super::{Othello, OthelloParams};
use crate::error::Result;
use crate::game::ExplicitRules;
use crate::game::Rules;
use crate::solved::explore::{Look, LookMove, Solved, rank_moves};
use crate::vocabulary::{Outcome, Position, Status};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// Whether `dir` holds a finished solve by `othello --differences` (its last class, the
/// start's 4 discs, is written last).
pub fn is_differences_dir(dir: &Path) -> bool {
    DifferenceTable::path(dir, 4).is_file()
}

/// The game whose tables `dir` holds, read from the start's class.
///
/// # Errors
/// A missing or damaged table of the start's class.
pub fn game_of(dir: &Path) -> Result<Othello> {
    let header = DifferenceTable::load_any(&DifferenceTable::path(dir, 4))?.header;
    OthelloParams { width: header.width as usize, height: header.height as usize, threshold: 0, reachable: true }.game()
}

/// Exact differences by rank, answering positions.
pub struct DifferencesSolved {
    dir: PathBuf,
    game: Othello,
    loaded: Mutex<HashMap<usize, Arc<Class>>>,
}

impl DifferencesSolved {
    /// Open the tables in `dir`, the board read from the start's class.
    ///
    /// # Errors
    /// A missing or damaged table of the start's class.
    pub fn open(dir: &Path) -> Result<DifferencesSolved> {
        Ok(DifferencesSolved { dir: dir.to_path_buf(), game: game_of(dir)?, loaded: Mutex::new(HashMap::new()) })
    }

    fn class(&self, discs: usize) -> Result<Arc<Class>> {
        if let Some(c) = self.loaded.lock().unwrap_or_else(PoisonError::into_inner).get(&discs) {
            return Ok(c.clone());
        }
        let class = Arc::new(Class::load(&self.game, &self.dir, discs)?);
        self.loaded.lock().unwrap_or_else(PoisonError::into_inner).insert(discs, class.clone());
        Ok(class)
    }

    /// The final difference for the player to move at `pos`; `None` if it is not reachable
    /// from the start (the tables hold those only).
    ///
    /// # Errors
    /// Tables or universes that cannot be read.
    pub fn score(&self, pos: &Position) -> Result<Option<i32>> {
        let discs = pos.board.iter().filter(|&&s| s != super::sets::EMPTY).count();
        if discs < 4 || discs > self.game.shape().len() {
            return Ok(None);
        }
        let class = self.class(discs)?;
        let side = pos.side.index();
        Ok(class.universes[side].rank(&pos.board).map(|r| i32::from(class.values[side][r as usize])))
    }
}

/// Win, draw or loss for the mover from their final difference. An exact-score solution's
/// value is its score alone: the distances of the win-or-loss solve follow another aim (the
/// quickest win, not the largest), so they would contradict the line the scores choose.
pub(super) fn outcome(score: i32) -> Outcome {
    match score {
        s if s > 0 => Outcome::Win { plies: None },
        0 => Outcome::Draw,
        _ => Outcome::Loss { plies: None },
    }
}

impl Solved for DifferencesSolved {
    fn game(&self) -> String {
        format!("{} (exact differences by rank)", self.game.name())
    }

    fn start(&self) -> String {
        self.game.render(&self.game.initial())
    }

    fn look(&self, text: &str) -> Result<Look> {
        let game = &self.game;
        let pos = game.parse(text)?;
        let over = game.explicit_status(&pos);
        let score = match over {
            Status::Ongoing => self.score(&pos)?,
            _ => Some(final_score(game, &pos)),
        };
        let mut moves = Vec::new();
        if over == Status::Ongoing {
            for next in game.explicit_moves(&pos) {
                let s = self.score(&next)?;
                moves.push(LookMove {
                    name: game.move_name(&pos, &next),
                    position: game.render(&next),
                    value_for_opponent: s.map(outcome),
                    score_for_opponent: s,
                });
            }
            rank_moves(&mut moves);
        }
        Ok(Look {
            position: game.render(&pos),
            board: game.draw(&pos, pos.side),
            side_to_move: pos.side,
            value: score.map(outcome),
            over,
            score,
            moves,
        })
    }
}

/// The mover's disc difference of a finished position.
fn final_score(game: &Othello, pos: &Position) -> i32 {
    let d = game.discs(pos);
    d.mover.count_ones() as i32 - d.opponent.count_ones() as i32
}
