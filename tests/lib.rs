//! All integration tests, one binary (faster to link).
mod breakthrough;
mod classes;
mod cli;
mod conformance;
mod connect4;
mod dfa1;
mod dfa_props;
mod docs;
mod edges;
mod exploring;
mod modular;
mod new_user;
mod nim;
mod oracle;
mod ostle;
mod ostle_tables;
mod othello;
mod parsers;
mod plans;
#[path = "../src/scratch.rs"]
mod scratch;
mod solution_files;
