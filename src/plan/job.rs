//! One job of a plan: a command line with its files, dependencies and estimate.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What a job is estimated to need at its peak; a batch scheduler asks for these.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Estimate {
    /// Peak resident memory, bytes; `None` for a job with no law for it yet, which asks for
    /// a whole node's memory (whatever the node that runs it has, not the planning machine's).
    pub memory_bytes: Option<u64>,
    /// Wall time on one core, seconds.
    pub seconds: u64,
    /// Bytes the job leaves on disk.
    pub disk_bytes: u64,
    /// What the estimate was scaled from, or that it was given by hand.
    pub basis: String,
}

/// A job of a plan.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Job {
    /// A name unique in the plan, usable in a file name.
    pub name: String,
    /// 0 without dependencies, else one more than the highest dependency's (set by
    /// [`super::Plan::new`]).
    pub level: usize,
    /// The `dfasolve` command line, without the program.
    pub args: Vec<String>,
    /// The files it reads, each a checksummed dfasolve file.
    pub inputs: Vec<PathBuf>,
    /// The files it writes, each atomically: all of them there means the job is done.
    pub outputs: Vec<PathBuf>,
    /// The names of the jobs whose outputs it reads.
    pub depends_on: Vec<String>,
    /// Files that, all there, also make the job done: a later job's output that holds this
    /// job's, whose own files that job removes (a ply's checkpoint holds its parts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub superseded_by: Vec<PathBuf>,
    /// What it is estimated to need.
    pub estimate: Estimate,
}
