//! Games solved by their explicit rules, position by position, without DFAs: the value such a
//! solve knows exactly ([`Exact`]), and the reference retrograde over any game's
//! [`ExplicitRules`](crate::game::ExplicitRules) ([`retrograde`]) that the symbolic solves
//! and the games' own explicit solvers are checked against. Names no game.

pub mod retrograde;
mod value;

pub use retrograde::{solve_reachable, solve_retrograde};
pub use value::Exact;
