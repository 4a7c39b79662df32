//! Solved games, whatever made them: the DFA solution and its files ([`solution`]), the
//! questions a person asks of a solved game, answered the same way for every kind of saved
//! solution ([`explore`]), the re-check of a solution by the explicit rules ([`mod@check`]),
//! `stats` and `puzzles` ([`mod@stats`], [`mod@puzzles`]), and
//! the one registry of saved formats ([`Format`], [`Games`]).
//!
//! This layer names no game. A game with a format of its own (a directory of tables, say)
//! implements [`Format`] in its own folder and lists it in its line of the table of games
//! (`crate::games::GAMES`), which is also how a file's parameters become a game again.

pub mod check;
pub mod explore;
pub mod puzzles;
pub mod report;
pub mod solution;
pub mod stats;

pub use check::{CheckAsk, check};
pub use explore::positions::{Listed, PositionsAsk, positions};
pub use explore::{ClassDirSolved, DfaSolved, InPlaceSolved, Look, LookMove, Solved};
pub use puzzles::{Filter, puzzles};
pub use report::Report;
pub use solution::{ClassesOnDisk, Mode, RestClass, Solution, ValueClass};
pub use stats::{Figures, stats};

use crate::error::{Error, Result};
use crate::game::{Game, GameParams};
use std::path::Path;

/// A kind of saved solution that a game brings besides the DFA solution file and the class
/// directory, which every game reads: e.g. a directory of tables by rank.
pub trait Format: Sync {
    /// What it is, in words, e.g. `Ostle class tables`.
    fn name(&self) -> &'static str;

    /// Whether `path` is one (by its layout and headers, without reading it whole).
    fn recognises(&self, path: &Path) -> bool;

    /// Whether `path` is one of the files that make one up, given where the whole is asked
    /// for (default: never).
    fn is_member(&self, path: &Path) -> bool {
        let _ = path;
        false
    }

    /// Open it to answer positions (`games` rebuilds the games of the solution files it holds).
    ///
    /// # Errors
    /// It cannot be read, or is damaged.
    fn open(&self, path: &Path, games: &'static Games) -> Result<Box<dyn Solved>>;

    /// `stats`: its sets' or tables' sizes.
    ///
    /// # Errors
    /// It cannot be read; [`Error::NotApplicable`] by default.
    fn stats(&self, path: &Path, games: &'static Games) -> Result<Box<dyn Report>> {
        let _ = games;
        Err(self.not_for("stats", path))
    }

    /// `check`: its values re-derived by the plain rules.
    ///
    /// # Errors
    /// [`Error::Verification`] where a value does not follow; [`Error::NotApplicable`] by
    /// default.
    fn check(&self, path: &Path, ask: &CheckAsk, games: &'static Games) -> Result<Box<dyn Report>> {
        let _ = (ask, games);
        Err(self.not_for("check", path))
    }

    /// `puzzles`: the positions that pass `filter`, at most `limit` of them listed.
    ///
    /// # Errors
    /// It cannot be read; [`Error::NotApplicable`] by default.
    fn puzzles(&self, path: &Path, filter: &Filter, limit: usize) -> Result<Box<dyn Report>> {
        let _ = (filter, limit);
        Err(self.not_for("puzzles", path))
    }

    /// `positions`: the positions of one value.
    ///
    /// # Errors
    /// It cannot be read; [`Error::NotApplicable`] by default.
    fn positions(&self, path: &Path, ask: &PositionsAsk) -> Result<Listed> {
        let _ = ask;
        Err(self.not_for("positions", path))
    }

    /// The refusal of `command`, which does not apply to this format, with what to ask instead.
    fn not_for(&self, command: &str, path: &Path) -> Error {
        Error::NotApplicable(format!("{command} does not apply to {}, {}", path.display(), self.name()))
    }
}

/// One line of the table of games: a game's name, how its parameters build it, and the saved
/// formats of its own.
pub struct GameEntry {
    /// The name files tag its parameters with, e.g. `nim`.
    pub name: &'static str,
    build: fn(&GameParams) -> Result<Box<dyn Game>>,
    /// Its own saved formats.
    pub formats: &'static [&'static dyn Format],
}

impl GameEntry {
    /// The game whose parameters are `P`.
    pub const fn of<P: crate::game::Params>() -> GameEntry {
        GameEntry { name: P::GAME, build: build_from::<P>, formats: &[] }
    }

    /// The same game, with saved formats of its own.
    pub const fn with_formats(self, formats: &'static [&'static dyn Format]) -> GameEntry {
        GameEntry { formats, ..self }
    }
}

fn build_from<P: crate::game::Params>(params: &GameParams) -> Result<Box<dyn Game>> {
    match params.fields::<P>(P::GAME)? {
        Some(fields) => fields.build(),
        None => Err(Error::UnknownGame(params.game().to_string())),
    }
}

/// The table of games: every game this build knows, which turns a file's parameters back
/// into its game and recognises every saved format.
pub struct Games(&'static [GameEntry]);

impl Games {
    /// The table of `entries`.
    pub const fn new(entries: &'static [GameEntry]) -> Games {
        Games(entries)
    }

    /// The game `params` name.
    ///
    /// # Errors
    /// [`Error::UnknownGame`] for a game this build does not know; [`Error::BadParameters`]
    /// for parameters it does not accept.
    pub fn build(&self, params: &GameParams) -> Result<Box<dyn Game>> {
        let entry = self.0.iter().find(|e| e.name == params.game());
        entry.map_or_else(|| Err(Error::UnknownGame(params.game().to_string())), |e| (e.build)(params))
    }

    /// The names of the games, in the table's order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.iter().map(|e| e.name)
    }

    /// The format of the games' own that `path` is, if any.
    ///
    /// # Errors
    /// [`Error::NotApplicable`] if `path` is one file of such a format, which is read as a
    /// whole (its directory).
    pub fn format_of(&self, path: &Path) -> Result<Option<&'static dyn Format>> {
        let formats = || self.0.iter().flat_map(|e| e.formats.iter().copied());
        if let Some(format) = formats().find(|f| f.is_member(path)) {
            return Err(Error::NotApplicable(format!(
                "{}: one file of {}, not a solution by itself: give their directory",
                path.display(),
                format.name()
            )));
        }
        Ok(formats().find(|f| f.recognises(path)))
    }
}

/// Solution files larger than this are read in place by [`open`], their checksum unread;
/// smaller ones are loaded and checked whole.
pub const IN_PLACE_ABOVE: u64 = 1 << 30;

/// Open a saved solution: a format of a game's own ([`Games::format_of`]), a solution saved
/// as a directory or a directory of class files (both read in place), or a DFA solution file
/// (read in place above [`IN_PLACE_ABOVE`] bytes, loaded below).
///
/// # Errors
/// The file cannot be read, or is not a solution.
pub fn open(path: &Path, games: &'static Games) -> Result<Box<dyn Solved>> {
    open_with(path, games, IN_PLACE_ABOVE)
}

/// [`open`], reading solution files above `in_place_above` bytes in place.
///
/// # Errors
/// As [`open`].
pub fn open_with(path: &Path, games: &'static Games, in_place_above: u64) -> Result<Box<dyn Solved>> {
    if let Some(format) = games.format_of(path)? {
        return format.open(path, games);
    }
    if solution::is_solution_directory(path) {
        let (game, solution) = solution::SolutionInPlace::open(&solution::solution_index(path), games)?;
        return Ok(Box::new(InPlaceSolved::new(game, solution)));
    }
    if path.is_dir()
        && let Some((game, classes)) = ClassesOnDisk::open(path, games)?
    {
        return Ok(Box::new(ClassDirSolved::new(game, classes)));
    }
    let size = std::fs::metadata(path).map_err(|error| Error::Io { path: path.to_path_buf(), error })?.len();
    if path.is_file() && size > in_place_above {
        let (game, solution) = solution::SolutionInPlace::open(path, games)?;
        return Ok(Box::new(InPlaceSolved::new(game, solution)));
    }
    Ok(Box::new(DfaSolved::load(path, games)?))
}
