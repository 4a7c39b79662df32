//! The library's error type: everything a user can get wrong, as values.

use std::path::PathBuf;

/// Errors from bad input: files, game parameters, position strings.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed. The OS error is part of the message, not a separate
    /// source, so that a chain of causes prints it once.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// The file does not start with this program's magic bytes.
    #[error("{}: not a dfasolve file (expected magic {expected:?})", path.display())]
    ForeignFile {
        /// The file.
        path: PathBuf,
        /// The magic this reader looks for.
        expected: &'static str,
    },
    /// The file has a format version this build cannot read.
    #[error("{}: format version {found} is not supported (this build reads version {supported})", path.display())]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        supported: u32,
    },
    /// The file is truncated, fails its checksum, or decodes to something invalid.
    #[error("{}: corrupt file: {what}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// No game of this name.
    #[error("unknown game {0:?}")]
    UnknownGame(String),
    /// Game parameters that make no sense or that the encoding cannot hold.
    #[error("invalid game parameters: {0}")]
    BadParameters(String),
    /// A position string that does not parse or is not a legal position.
    #[error("bad position: {0}")]
    BadPosition(String),
    /// A solution file that does not belong to the game asked about.
    #[error("solution mismatch: {0}")]
    Mismatch(String),
    /// A set operation would need more states in one layer than state ids can number.
    #[error(
        "a set would need more than {limit} DFA states in one layer (the most 32-bit state ids can number here): \
         the sets of this solve are too large for this build"
    )]
    TooManyStates {
        /// The limit that was reached.
        limit: usize,
    },
    /// The process went over its memory budget (`--max-memory`; by default what the system
    /// had available when the run started).
    #[error(
        "the run went over its memory budget ({}budget {}) and was stopped: \
         this size needs more memory than the run may use (--max-memory sets the budget in GiB)",
        if *resident > 0 { format!("{} resident, ", memory_text(*resident)) } else { String::new() },
        memory_text(*budget)
    )]
    OverMemoryBudget {
        /// The budget in bytes.
        budget: u64,
        /// Resident memory when it was seen over the budget, in bytes.
        resident: u64,
    },
    /// A command asked of a file or directory it does not apply to; the message says what to
    /// ask instead.
    #[error("{0}")]
    NotApplicable(String),
    /// A solve stopped where it was asked to, its work saved: one step of a solve run as a
    /// job ([`crate::solver::MeetJob`]). Not a failure.
    #[error("{0}")]
    StoppedAsAsked(String),
    /// A solve stopped right after saving a step, as asked by
    /// [`crate::solver::SolveOptions::stop_after`]: its checkpoints are what a kill at that
    /// point leaves, for tests of resuming.
    #[error("stopped after saving {0}, as asked")]
    StoppedAfter(String),
    /// A verification found a difference between two independent computations.
    #[error("verification failed: {0}")]
    Verification(String),
}

/// Result with the library's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A memory size as a person reads it, exact enough at every scale: `512 bytes`, `12 KiB`,
/// `3.4 MiB`, `20.0 GiB` (a tiny budget was said as "budget 0 MiB").
pub fn memory_text(bytes: u64) -> String {
    const KIB: u64 = 1 << 10;
    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;
    match bytes {
        b if b < KIB => format!("{b} bytes"),
        b if b < MIB => format!("{} KiB", b / KIB),
        b if b < GIB => format!("{:.1} MiB", b as f64 / MIB as f64),
        b => format!("{:.1} GiB", b as f64 / GIB as f64),
    }
}
