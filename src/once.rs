//! A value made once and kept, whose making may fail: `OnceLock::get_or_try_init` is not yet
//! stable, and the engine's set operations may be stopped.

use std::sync::OnceLock;

/// The value in `cell`, made by `make` if it is not there yet. An error keeps nothing, so
/// the next call makes it again. Two threads may both make it; the first to finish is kept.
///
/// # Errors
/// The error of `make`.
pub(crate) fn get_or_try_init<T, E>(cell: &OnceLock<T>, make: impl FnOnce() -> Result<T, E>) -> Result<&T, E> {
    if let Some(value) = cell.get() {
        return Ok(value);
    }
    let made = make()?;
    Ok(cell.get_or_init(|| made))
}
