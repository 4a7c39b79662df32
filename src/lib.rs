//! # dfasolve
//!
//! Strongly solves board games by computing on whole sets of positions at once. Every set is
//! a minimal layered DFA over row-major board strings ([`dfa::Dfa`]); moves are set operations
//! ([`move_graph::MoveGraph`]); the [`solver`] runs forward ply sets, backward retrograde
//! analysis and meet-in-the-middle over them; [`games`] holds the game rules, each with an
//! independent explicit oracle used to check the symbolic results; [`solved`] answers
//! questions of any saved solution.
//!
//! ## Module map
//! Rooms import only downwards, in this order:
//! * [`cli`]: the `dfasolve` command line (the binary is a thin wrapper).
//! * [`games`]: the games (Nim, Breakthrough, Ostle, Othello, Spread, Connect Four) and the
//!   table of games ([`games::GAMES`]), one line a game, with the saved formats each brings.
//! * [`solver`]: forward ply sets, retrograde analysis, meet in the middle, checkpoints.
//! * [`solved`]: solved games whatever made them: solutions and their files, the questions a
//!   person asks of them, their re-check by the explicit rules, and the registry of saved
//!   formats ([`solved::Format`]). Names no game.
//! * [`plot`]: SVG charts of run records.
//! * [`record`]: a run's step records and their CSV form.
//! * [`game`]: what a game is ([`game::Game`]) and the parameters that name one in files.
//! * [`vocabulary`]: sides, positions, plies, outcomes.
//! * [`move_graph`]: move sets as DAGs of changes and conditions; forward and backward images;
//!   moves listed state by state where a graph cannot describe them.
//! * [`dfa`]: the set engine (invariants in its docs), constructors, set algebra, change,
//!   counting, sampling, files.
//! * [`atomic`], [`choice`], [`counts`], [`error`], [`progress`](mod@progress), [`sys`]: atomic
//!   file writes; named choices of a parameter; counts in JSON and text; the library's error
//!   type; how long runs say what they are doing (`tracing` events the program shows or not);
//!   what the system reports of this process (memory, CPU).
//!
//! ## Unsafe code
//! The crate denies `unsafe` but in three modules, each of which allows it for one reason:
//! [`storage::mapped`] maps files and memory and views their bytes as values,
//! `games/ostle/ranked/bits.rs` calls functions compiled for a processor feature it has just
//! found, and [`sys`] calls the C library's `malloc_trim`.
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod atomic;
pub mod choice;
#[cfg(feature = "cli")]
pub mod cli;
pub mod counts;
pub mod dfa;
pub mod error;
pub mod explicit;
pub mod game;
pub mod games;
pub mod move_graph;
mod once;
pub mod plan;
pub mod plot;
pub mod progress;
pub mod record;
#[cfg(test)]
mod scratch;
pub mod solved;
pub mod solver;
pub mod storage;
pub mod sys;
pub mod vocabulary;

pub use error::{Error, Result};

/// This build's version and the commit it was built from (`-modified`: with changes not
/// committed), as recorded in every file and report it writes.
pub const PROGRAM_VERSION: &str =
    concat!("dfasolve ", env!("CARGO_PKG_VERSION"), " (commit ", env!("DFASOLVE_COMMIT"), ")");

/// [`PROGRAM_VERSION`] without the program's name (`dfasolve --version`).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("DFASOLVE_COMMIT"), ")");
