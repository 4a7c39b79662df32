//! The games, and the table of games ([`GAMES`]): one line a game, which builds a game from the
//! parameters a file stores and knows every saved format a game brings.
//!
//! What a game implements is in [`crate::game`]; what reads a solved game is in
//! [`crate::solved`]. Neither names a game: this table is where the games are listed.
//!
//! # Adding a game
//! A new game touches its own folder, its data folder and one line of the table (Spread,
//! `src/games/spread.rs`, is the smallest worked example; Connect Four, `src/games/connect4/`,
//! the latest added by these steps):
//! 1. `src/games/<game>.rs` (or `src/games/<game>/`, declared below): a type implementing
//!    the three traits of a game ([`crate::game::Game`]), and its parameter type
//!    `<Game>Params` implementing [`crate::game::Params`] (serde, and
//!    `#[cfg_attr(feature = "cli", derive(clap::Args))]` with an
//!    `arg(long, default_value_t = ...)` per field: its doc comments are the options' help),
//!    whose `build()` checks them and builds the game. A parameter that is one of a few named
//!    values is an enum implementing [`crate::choice::Choice`], read with
//!    `value_parser = crate::choice::parser::<T>()`.
//!    * [`crate::game::Rules`]: a universe, the terminal sets the rules decide (lost, won,
//!      drawn), a [`crate::move_graph::MoveGraph`] per side to move, what a player without a
//!      legal move does ([`Rules::without_a_move`](crate::game::Rules::without_a_move): loses,
//!      or passes), and the text forms of positions and moves.
//!    * [`crate::game::ExplicitRules`], the oracle: moves (the pass included) and status by
//!      plain board code.
//!    * [`crate::game::SolverHints`]: an empty `impl` to begin with; every hint has a default.
//!
//!    A saved format of its own implements [`crate::solved::Format`] in the game's folder.
//! 2. One line of [`GAMES`]: `GameEntry::of::<<Game>Params>()`, with `.with_formats(...)` for
//!    formats of its own.
//! 3. `games/<game>/README.md` (rules as implemented, encoding) and `games/<game>/cases.toml`
//!    (positions with hand-derived values, `params = { game = "<game>", ... }`). The
//!    conformance suite (`tests/conformance.rs`) picks the cases up by themselves and runs them
//!    through every strategy that applies, against an explicit retrograde over the game's own
//!    explicit rules, with the images and text forms checked on samples.
//! 4. If it should be solved from the command line: `src/cli/<game>.rs` with `<Game>Args`,
//!    which flattens `<Game>Params` beside the solve's own options and implements
//!    `cli::SolveCommand` (the game it builds, its run options, the run), and one variant
//!    `<Game>(<Game>Args)` of `cli::Command` with its arm in `Command::solve_command`, which
//!    dispatch and class jobs both go through (`src/cli/spread.rs` is the smallest).
//!    Files written by any solve are read back by `query`, `check`, `stats`, `play` and
//!    `serve` through the table with no change.

pub mod breakthrough;
pub mod connect4;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod grid;
pub mod nim;
pub mod ostle;
pub mod othello;
pub mod spread;

use crate::solved::{GameEntry, Games};

/// Every game this build knows, one line each.
pub static GAMES: Games = Games::new(&[
    GameEntry::of::<nim::NimParams>(),
    GameEntry::of::<breakthrough::BreakthroughParams>(),
    GameEntry::of::<ostle::Variant>().with_formats(ostle::FORMATS),
    GameEntry::of::<othello::OthelloParams>().with_formats(othello::FORMATS),
    GameEntry::of::<spread::SpreadParams>(),
    GameEntry::of::<connect4::Connect4Params>(),
]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::game::GameParams;

    #[test]
    fn the_table_names_unknown_games_and_bad_parameters() {
        let nim = GameParams::of(&nim::NimParams { heaps: 2, tokens: 3 });
        assert_eq!(GAMES.build(&nim).expect("known").params(), nim);
        let chess = GameParams::from_json(&serde_json::json!({ "game": "chess", "width": 8 })).unwrap();
        assert!(matches!(GAMES.build(&chess), Err(Error::UnknownGame(g)) if g == "chess"));
        let wrong = GameParams::from_json(&serde_json::json!({ "game": "nim", "heaps": "two", "tokens": 3 })).unwrap();
        assert!(matches!(GAMES.build(&wrong), Err(Error::BadParameters(_))));
    }

    #[test]
    fn every_game_is_listed_once() {
        let mut names: Vec<&str> = GAMES.names().collect();
        let all = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all);
    }
}
