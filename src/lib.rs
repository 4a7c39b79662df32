//! # dfasolve
//!
//! Strongly solves board games by computing on whole sets of positions at once. Every set is
//! a minimal layered DFA over row-major board strings ([`dfa::Dfa`]); moves are set operations
//! ([`move_graph::MoveGraph`]); the [`solver`] runs forward ply sets, backward retrograde
//! analysis and meet-in-the-middle over them; [`games`] holds the game rules, each with an
//! independent explicit oracle used to check the symbolic results.
//!
//! ## Module map
//! * [`dfa`]: the set engine (invariants in its docs), constructors, set algebra, change,
//!   counting, sampling, files.
//! * [`move_graph`]: move sets as DAGs of changes and conditions; forward and backward images;
//!   moves listed state by state where a graph cannot describe them ([`move_graph::Moves`]).
//! * [`games`]: the [`games::Game`] trait, Nim and Breakthrough.
//! * [`solver`]: forward/backward/meet-in-the-middle solving and per-ply statistics.
//! * [`plot`]: SVG charts of run records.
//! * [`cli`]: the `dfasolve` command line (the binary is a thin wrapper).
//! * [`error`]: the library's error type.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod cli;
pub mod dfa;
pub mod error;
pub mod games;
pub mod move_graph;
pub mod plot;
pub mod solver;

pub use error::{Error, Result};
