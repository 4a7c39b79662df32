//! The most states one layer may hold, and what happens when an operation needs more.
//!
//! State ids are `u32`, and the engine keeps the top bit of an id for marks (pending product
//! tuples, explored states, repeated rows), so a layer holds at most [`MAX_LAYER_STATES`]
//! states. A product layer that large needs tens of gigabytes, so in practice memory runs out
//! first; but running out of ids must never wrap an id silently. The engine checks the count
//! once per layer and, past the limit, stops the whole operation with a [`TooManyStates`]
//! panic payload (threading a `Result` through every set operation would burden the hot paths
//! and every caller for a case that ends the solve anyway). [`catch_too_many_states`] turns
//! it back into [`Error::TooManyStates`] at the library's entry points (the solver's solves)
//! and in the binary.
//!
//! `DFASOLVE_MAX_LAYER_STATES` lowers the limit for a process (tests use it to reach it on
//! small boards).

use crate::error::{Error, Result};
use std::sync::OnceLock;

/// The most states (reserved ones included) one layer of any DFA the engine builds may hold.
pub const MAX_LAYER_STATES: usize = (1 << 31) - 4096;

/// The panic payload of an operation that would need more than the limit of states in one
/// layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyStates {
    /// The limit that was reached.
    pub limit: usize,
}

/// The limit in force: [`MAX_LAYER_STATES`], or `DFASOLVE_MAX_LAYER_STATES` if lower.
pub(crate) fn layer_state_limit() -> usize {
    static LIMIT: OnceLock<usize> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        std::env::var("DFASOLVE_MAX_LAYER_STATES")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .map_or(MAX_LAYER_STATES, |v| v.min(MAX_LAYER_STATES))
    })
}

/// Stop the operation under way: a layer would need `states` states.
#[cold]
#[inline(never)]
pub(crate) fn too_many_states() -> ! {
    std::panic::panic_any(TooManyStates { limit: layer_state_limit() })
}

/// Panics with [`TooManyStates`] if a layer of `states` states is over the limit.
#[inline]
pub(crate) fn check_layer_states(states: usize) {
    if states > layer_state_limit() {
        too_many_states();
    }
}

/// Run `f`, turning an operation stopped for [`TooManyStates`] into
/// [`Error::TooManyStates`]; any other panic goes on unwinding.
///
/// # Errors
/// [`Error::TooManyStates`] with the limit that was reached.
pub fn catch_too_many_states<T>(f: impl FnOnce() -> T) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(value) => Ok(value),
        Err(payload) => match payload.downcast::<TooManyStates>() {
            Ok(t) => Err(Error::TooManyStates { limit: t.limit }),
            Err(other) => std::panic::resume_unwind(other),
        },
    }
}

/// Whether a panic's payload is a [`TooManyStates`] stop (for a panic hook that keeps quiet
/// about it, as the binary's does: the error is reported once, as an error).
pub fn is_too_many_states(payload: &(dyn std::any::Any + Send)) -> bool {
    payload.downcast_ref::<TooManyStates>().is_some()
}
