//! Progress of long runs, said one way: as `tracing` events under [`TARGET`] (plain lines)
//! and [`STEP_TARGET`] (a solver step, its figures as fields: `record::Recorder` says them).
//! The library only says what it is doing; the program decides whether and how to show it
//! (`cli::progress`), and a library user sees it through any `tracing` subscriber.

/// The target of plain progress lines.
pub const TARGET: &str = "dfasolve::progress";

/// The target of solver steps: the message is the step's line; the fields `phase`, `step`,
/// `side`, `set`, `positions`, `states`, `rss_mib` and `class` are its figures.
pub const STEP_TARGET: &str = "dfasolve::progress::step";

/// Say a line of progress, formatted as by `format!`: `progress!("level {l}: {n} states")`.
#[macro_export]
macro_rules! progress {
    ($($arg:tt)*) => {
        ::tracing::info!(target: $crate::progress::TARGET, $($arg)*)
    };
}
