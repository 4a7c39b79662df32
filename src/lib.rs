//! # dfasolve
//!
//! Strongly solves board games by computing on whole sets of positions at once. Every set is
//! a minimal layered DFA over row-major board strings ([`dfa::Dfa`]); moves are set operations
//! ([`move_graph::MoveGraph`]); the [`solver`] runs forward ply sets, backward retrograde
//! analysis and meet-in-the-middle over them; [`games`] holds the game rules, each with an
//! independent explicit oracle used to check the symbolic results.
//!
//! ## Module map
//! Rooms import only downwards, in this order:
//! * [`cli`]: the `dfasolve` command line (the binary is a thin wrapper).
//! * [`solver`]: forward ply sets, retrograde analysis, meet in the middle, checkpoints.
//! * [`games`]: the [`games::Game`] trait and registry, Nim, Breakthrough, Ostle, Spread; solutions,
//!   their files and their re-check by the explicit rules.
//! * [`plot`]: SVG charts of run records.
//! * [`record`]: a run's step records and their CSV form.
//! * [`vocabulary`]: sides, positions, plies, outcomes.
//! * [`move_graph`]: move sets as DAGs of changes and conditions; forward and backward images;
//!   moves listed state by state where a graph cannot describe them.
//! * [`dfa`]: the set engine (invariants in its docs), constructors, set algebra, change,
//!   counting, sampling, files.
//! * [`atomic`], [`counts`], [`error`], [`progress`](mod@progress), [`sys`]: atomic file writes; counts in
//!   JSON and text; the library's error type; how long runs say what they are doing (`tracing`
//!   events the program shows or not); what the system reports of this process (memory, CPU).
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod atomic;
pub mod choice;
#[cfg(feature = "cli")]
pub mod cli;
pub mod counts;
pub mod dfa;
pub mod error;
pub mod games;
pub mod move_graph;
pub mod plot;
pub mod progress;
pub mod record;
pub mod solver;
pub mod sys;
pub mod vocabulary;

pub use error::{Error, Result};

/// This build's version and the commit it was built from (`-modified`: with changes not
/// committed), as recorded in every file and report it writes.
pub const PROGRAM_VERSION: &str =
    concat!("dfasolve ", env!("CARGO_PKG_VERSION"), " (commit ", env!("DFASOLVE_COMMIT"), ")");

/// [`PROGRAM_VERSION`] without the program's name (`dfasolve --version`).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("DFASOLVE_COMMIT"), ")");
