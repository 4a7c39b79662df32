//! The most states one layer may hold, and what happens when an operation needs more.
//!
//! State ids are `u32`, and the engine keeps the top bit of an id for marks (pending product
//! tuples, explored states, repeated rows), so a layer holds at most [`MAX_LAYER_STATES`]
//! states. A product layer that large needs tens of gigabytes, so in practice memory runs out
//! first; but running out of ids must never wrap an id silently. The engine checks the count
//! as a layer grows and, past the limit, stops the whole operation: every set operation that
//! builds states returns `Result<_, EngineStop>`, and the stop ([`EngineStop::TooManyStates`])
//! travels up by `?` like any other error, becoming [`Error::TooManyStates`] where it meets
//! the crate's errors. The checks sit where a layer's states are numbered, not in the inner
//! loops, so the hot paths carry one well-predicted branch per new state.
//!
//! Both the limit and the budget below are the process's, as the checks run deep in every
//! set operation on every thread. A solver installs the [`EngineLimits`] of its options for
//! its lifetime ([`EngineLimits::install`]); what it does not set stays as it was.
//!
//! The same stop serves a **memory budget** ([`watch_memory`]): a thread samples the
//! process's resident memory, and once it is over the budget the engine stops at its next
//! layer (or every 65,536 new states) with [`EngineStop::OverMemoryBudget`], which becomes
//! [`Error::OverMemoryBudget`]: a size too large for the machine ends with one clear line
//! instead of an allocation abort or the kernel's OOM killer. A caller that can do the work in
//! smaller pieces (the solver's regions) matches the stop and tries again.

use crate::error::Error;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// The most states (reserved ones included) one layer of any DFA the engine builds may hold.
pub const MAX_LAYER_STATES: usize = (1 << 31) - 4096;

/// Why the engine stopped a set operation before it finished. The operation's partial work
/// is dropped as the stop travels up; nothing it was building is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineStop {
    /// A layer would need more states than the limit in force
    /// ([`EngineLimits::layer_states`], at most [`MAX_LAYER_STATES`]).
    #[error("{}", Error::TooManyStates { limit: *limit })]
    TooManyStates {
        /// The limit that was reached.
        limit: usize,
    },
    /// The process went over its memory budget ([`watch_memory`]).
    #[error("{}", Error::OverMemoryBudget { budget: *budget, resident: *resident })]
    OverMemoryBudget {
        /// The budget, in bytes.
        budget: u64,
        /// Resident memory when the watcher saw it over, in bytes.
        resident: u64,
    },
}

impl From<EngineStop> for Error {
    fn from(stop: EngineStop) -> Error {
        match stop {
            EngineStop::TooManyStates { limit } => Error::TooManyStates { limit },
            EngineStop::OverMemoryBudget { budget, resident } => Error::OverMemoryBudget { budget, resident },
        }
    }
}

/// What a set operation that builds states returns.
pub type Stoppable<T> = std::result::Result<T, EngineStop>;

/// The values of `items` in a vector taken whole at once, or the first stop: collecting
/// results through `collect` loses the exact length and grows the vector step by step, which
/// on a layer's ids cost a few percent of a solve's instructions.
#[inline]
pub(crate) fn collect_stoppable<T>(items: impl ExactSizeIterator<Item = Stoppable<T>>) -> Stoppable<Vec<T>> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(item?);
    }
    Ok(out)
}

/// The limit in force: [`MAX_LAYER_STATES`] unless a solver lowered it.
pub(crate) fn layer_state_limit() -> usize {
    LAYER_LIMIT.load(Ordering::Relaxed)
}

static LAYER_LIMIT: AtomicUsize = AtomicUsize::new(MAX_LAYER_STATES);

/// The engine's limits for the work of one solver; `None` leaves the one in force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineLimits {
    /// Stop once the process's resident memory passes this many bytes ([`watch_memory`]).
    pub memory_budget: Option<u64>,
    /// The most states one layer may hold, at most [`MAX_LAYER_STATES`] (lower it to reach
    /// the limit on small boards).
    pub layer_states: Option<usize>,
}

/// The limits in force before an [`EngineLimits::install`], put back when it is dropped.
#[derive(Debug)]
pub struct InstalledLimits {
    budget: Option<u64>,
    layer_states: Option<usize>,
}

impl EngineLimits {
    /// Put these limits in force until the returned value is dropped.
    pub fn install(self) -> InstalledLimits {
        InstalledLimits {
            budget: self.memory_budget.map(|b| {
                let was = BUDGET.load(Ordering::Relaxed);
                watch_memory(b);
                was
            }),
            layer_states: self.layer_states.map(|l| LAYER_LIMIT.swap(l.min(MAX_LAYER_STATES), Ordering::Relaxed)),
        }
    }
}

impl Drop for InstalledLimits {
    fn drop(&mut self) {
        if let Some(b) = self.budget {
            BUDGET.store(b, Ordering::Relaxed);
        }
        if let Some(l) = self.layer_states {
            LAYER_LIMIT.store(l, Ordering::Relaxed);
        }
    }
}

/// The stop of an operation whose layer would need more states than `limit`.
#[cold]
#[inline(never)]
pub(crate) fn too_many_states(limit: usize) -> EngineStop {
    EngineStop::TooManyStates { limit }
}

/// [`EngineStop::TooManyStates`] if a layer of `states` states is over the limit,
/// [`EngineStop::OverMemoryBudget`] if the process is over its memory budget.
#[inline]
pub(crate) fn check_layer_states(states: usize) -> Stoppable<()> {
    let limit = layer_state_limit();
    if states > limit {
        return Err(too_many_states(limit));
    }
    check_memory()
}

/// [`EngineStop::OverMemoryBudget`] if the process is over its memory budget.
#[inline]
pub(crate) fn check_memory() -> Stoppable<()> {
    if OVER_BUDGET.load(Ordering::Relaxed) {
        return Err(over_memory_budget());
    }
    Ok(())
}

/// [`EngineStop::OverMemoryBudget`] if `bytes` more than the process holds now would put it
/// over its memory budget: called before a large allocation, so that the budget stops the
/// work before the memory is taken, not 50 ms of sampling after.
#[inline]
pub(crate) fn check_allocation(bytes: usize) -> Stoppable<()> {
    check_memory()?;
    let budget = BUDGET.load(Ordering::Relaxed);
    let projected = RESIDENT_NOW.load(Ordering::Relaxed).saturating_add(bytes as u64);
    if budget > 0 && projected > budget {
        RESIDENT_SEEN.store(projected, Ordering::Relaxed);
        OVER_BUDGET.store(true, Ordering::Relaxed);
        return Err(over_memory_budget());
    }
    Ok(())
}

static BUDGET: AtomicU64 = AtomicU64::new(0);
/// Resident memory at the watcher's last sample, in bytes.
static RESIDENT_NOW: AtomicU64 = AtomicU64::new(0);
static RESIDENT_SEEN: AtomicU64 = AtomicU64::new(0);
/// The most resident memory the watcher has seen since [`reset_resident_peak`].
static RESIDENT_PEAK: AtomicU64 = AtomicU64::new(0);
static OVER_BUDGET: AtomicBool = AtomicBool::new(false);

#[cold]
#[inline(never)]
fn over_memory_budget() -> EngineStop {
    EngineStop::OverMemoryBudget {
        budget: BUDGET.load(Ordering::Relaxed),
        resident: RESIDENT_SEEN.load(Ordering::Relaxed),
    }
}

/// Keep this process's resident memory under `budget` bytes from now on: a thread samples
/// it every 50 ms and, once it is over, the engine stops at its next check (see the module
/// docs). A later call changes the budget; one thread watches for the whole process.
///
/// What counts is the memory the kernel cannot drop ([`crate::sys::unreclaimable_resident_bytes`]):
/// pages mapped from files, such as spilled sets, are read back from disk when dropped.
pub fn watch_memory(budget: u64) {
    BUDGET.store(budget, Ordering::Relaxed);
    static WATCHER: OnceLock<()> = OnceLock::new();
    // One sample now, before any work: a job shorter than the watcher's first sample would
    // otherwise never be held to a budget it is already over.
    sample_memory();
    WATCHER.get_or_init(|| {
        std::thread::spawn(|| {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(50));
                sample_memory();
            }
        });
    });
}

/// Read the process's resident memory into [`RESIDENT_NOW`] and its peak, and mark the
/// budget passed if it is.
fn sample_memory() {
    let resident = crate::sys::unreclaimable_resident_bytes().or_else(crate::sys::resident_bytes).unwrap_or(0);
    let budget = BUDGET.load(Ordering::Relaxed);
    RESIDENT_NOW.store(resident, Ordering::Relaxed);
    RESIDENT_PEAK.fetch_max(resident, Ordering::Relaxed);
    if budget > 0 && resident > budget {
        RESIDENT_SEEN.store(resident, Ordering::Relaxed);
        OVER_BUDGET.store(true, Ordering::Relaxed);
    }
}

/// Number of split levels [`split_level`] chooses from.
pub(crate) const SPLIT_LEVELS: usize = 3;

/// How finely work that can trade time for memory is split (move images: each group of moves
/// in `2^level` passes), from the process's resident memory against its budget: 0 (whole)
/// under 40% of the budget, 1 (halves) under 55%, 2 (quarters) above. Without a budget, 0.
///
/// The thresholds leave room for one pass's tables above what the process holds: a whole
/// row of moves can explore tables larger than the sets held, and a half row has about half
/// the keys (`docs/engine-notes.md`, "Figures behind the code's comments").
pub(crate) fn split_level() -> usize {
    let budget = BUDGET.load(Ordering::Relaxed);
    if budget == 0 {
        return 0;
    }
    let resident = RESIDENT_NOW.load(Ordering::Relaxed);
    if resident * 100 < budget * 40 {
        0
    } else if resident * 100 < budget * 55 {
        1
    } else {
        2
    }
}

/// The memory budget in force, in bytes (0: none).
pub(crate) fn memory_budget() -> u64 {
    BUDGET.load(Ordering::Relaxed)
}

/// The resident memory the budget counts, at the watcher's last sample, in bytes (0 without
/// a budget: nothing samples it).
pub(crate) fn resident_now() -> u64 {
    RESIDENT_NOW.load(Ordering::Relaxed)
}

/// Start measuring a peak: [`resident_peak`] is the most seen from now on.
pub(crate) fn reset_resident_peak() {
    RESIDENT_PEAK.store(RESIDENT_NOW.load(Ordering::Relaxed), Ordering::Relaxed);
}

/// The most resident memory the watcher has seen since [`reset_resident_peak`], in bytes.
pub(crate) fn resident_peak() -> u64 {
    RESIDENT_PEAK.load(Ordering::Relaxed)
}

/// After a stop for the memory budget whose work has been dropped: give the freed memory
/// back to the system and wait (a few seconds at most) for the watcher to see the process
/// under `fraction` of its budget. Whether it is.
pub(crate) fn settle_under(fraction: f64) -> bool {
    let budget = BUDGET.load(Ordering::Relaxed);
    for _ in 0..40 {
        crate::sys::release_free_memory();
        let resident = crate::sys::unreclaimable_resident_bytes().or_else(crate::sys::resident_bytes).unwrap_or(0);
        RESIDENT_NOW.store(resident, Ordering::Relaxed);
        if budget == 0 || (resident as f64) < budget as f64 * fraction {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    false
}

/// Let the engine run again after a stop for the memory budget (the caller has dropped what
/// it was building); the watcher stops it again if memory is still over the budget.
pub fn clear_memory_stop() {
    OVER_BUDGET.store(false, Ordering::Relaxed);
}

/// Memory the system can give this process now, in bytes, where reported.
pub fn available_memory() -> Option<u64> {
    crate::sys::available_memory()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Installed limits are in force until dropped, then the ones before come back; a limit
    /// left unset leaves the one in force. (The values stay harmless to the tests running
    /// beside this one in the process.)
    #[test]
    fn installed_limits_hold_while_kept_and_are_put_back() {
        let before = layer_state_limit();
        let lower = EngineLimits { memory_budget: None, layer_states: Some(MAX_LAYER_STATES - 1) };
        let outer = lower.install();
        assert_eq!(layer_state_limit(), MAX_LAYER_STATES - 1);
        let inner = EngineLimits::default().install();
        assert_eq!(layer_state_limit(), MAX_LAYER_STATES - 1, "nothing set, nothing changed");
        drop(inner);
        let capped = EngineLimits { memory_budget: None, layer_states: Some(usize::MAX) }.install();
        assert_eq!(layer_state_limit(), MAX_LAYER_STATES, "never above the ids' range");
        drop(capped);
        drop(outer);
        assert_eq!(layer_state_limit(), before);
    }
}
