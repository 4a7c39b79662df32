//! Games solved by their explicit rules, position by position, without DFAs: the value such a
//! solve knows exactly ([`Exact`]), the driver of a solve class by class ([`classes`]), the
//! positions drawn for a check of its tables ([`sample`]), and the reference retrograde over
//! any game's [`ExplicitRules`](crate::game::ExplicitRules) ([`retrograde`]) that the
//! symbolic solves and the games' own explicit solvers are checked against. Names no game.

pub mod classes;
pub mod retrograde;
pub mod sample;
mod value;

pub use retrograde::{solve_reachable, solve_retrograde};
pub use value::Exact;
