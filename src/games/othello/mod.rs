//! Othello on W x H boards (issue: the fourth game). So far its plain rules and an exact
//! oracle by negamax (`explicit.rs`); the symbolic game (sets of positions, moves as set
//! operations, passes) follows the recipe in [`super`].

pub mod explicit;
