//! Temporary directories for tests, in memory where the system has a memory file system.
//!
//! The solver writes every checkpoint and journal durably (fsync, then rename). Tests that
//! journal after every move group write hundreds of files, and on a disk that another job
//! keeps busy each fsync waits for that job's writes (`docs/measurements.md`, the default test run). What
//! the tests check is the files' content and the resumes, not durability, so they write where
//! an fsync costs nothing. The integration tests include this file too.

use std::path::Path;

/// A new temporary directory, removed when dropped: under `/dev/shm` if it is a directory
/// that takes one, else the system's temporary directory.
///
/// # Panics
/// Neither place takes a new directory.
pub fn tempdir() -> tempfile::TempDir {
    let memory = Path::new("/dev/shm");
    if memory.is_dir()
        && let Ok(dir) = tempfile::tempdir_in(memory)
    {
        return dir;
    }
    tempfile::tempdir().expect("a temporary directory")
}
