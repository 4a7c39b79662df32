//! Which jobs of a plan are done, running, failed or to do, read from the output directory
//! alone: a job is done when all its outputs are there, running while it holds its lock, and
//! failed when its last attempt left a `NAME.failed` note.

use super::Plan;
use super::lock::{Holder, read_holder};
use serde::Serialize;

/// The state of one job.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum JobState {
    /// All its outputs are there.
    Done,
    /// It holds its lock.
    Running {
        /// Who holds it.
        holder: String,
    },
    /// Its lock's holder is gone (killed): the next attempt takes the lock over.
    Stale {
        /// Who held it.
        holder: String,
    },
    /// Its last attempt failed.
    Failed {
        /// What the attempt said.
        message: String,
    },
    /// Not done, and every job it depends on is done.
    Ready,
    /// Not done, and waiting for a job it depends on.
    Waiting,
}

impl JobState {
    /// One word for a table.
    pub fn word(&self) -> &'static str {
        match self {
            JobState::Done => "done",
            JobState::Running { .. } => "running",
            JobState::Stale { .. } => "stale",
            JobState::Failed { .. } => "failed",
            JobState::Ready => "ready",
            JobState::Waiting => "waiting",
        }
    }
}

/// The state of every job of a plan.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    /// Each job's name, level and state, in plan order.
    pub jobs: Vec<JobStatus>,
    /// Jobs done.
    pub done: usize,
    /// The share of the plan's estimated seconds that are done, from 0 to 1.
    pub progress: f64,
}

/// One job's line of a [`Status`].
#[derive(Clone, Debug, Serialize)]
pub struct JobStatus {
    /// The job.
    pub name: String,
    /// Its level.
    pub level: usize,
    /// Its state.
    #[serde(flatten)]
    pub state: JobState,
}

impl Status {
    /// Read the state of every job of `plan` from its directories.
    pub fn of(plan: &Plan) -> Status {
        let state_dir = plan.state_dir();
        let mut done_names = std::collections::HashSet::new();
        let mut jobs = Vec::with_capacity(plan.jobs.len());
        let (mut seconds, mut done_seconds) = (0.0, 0.0);
        for job in &plan.jobs {
            let weight = job.estimate.seconds.max(1) as f64;
            seconds += weight;
            let state = if plan.done_by(job).is_some() {
                done_names.insert(job.name.as_str());
                done_seconds += weight;
                JobState::Done
            } else if let Some(holder) = lock_holder(&state_dir.join(format!("{}.lock", job.name))) {
                if holder.is_gone() {
                    JobState::Stale { holder: holder.text() }
                } else {
                    JobState::Running { holder: holder.text() }
                }
            } else if let Ok(message) = std::fs::read_to_string(state_dir.join(format!("{}.failed", job.name))) {
                JobState::Failed { message: message.trim().to_string() }
            } else if job.depends_on.iter().all(|d| done_names.contains(d.as_str())) {
                JobState::Ready
            } else {
                JobState::Waiting
            };
            jobs.push(JobStatus { name: job.name.clone(), level: job.level, state });
        }
        let done = done_names.len();
        Status { jobs, done, progress: if seconds > 0.0 { done_seconds / seconds } else { 1.0 } }
    }

    /// Whether every job is done.
    pub fn finished(&self) -> bool {
        self.done == self.jobs.len()
    }
}

/// The holder of the lock at `path`; a lock there that cannot be read (cut short as it was
/// written) counts as held by a gone process.
fn lock_holder(path: &std::path::Path) -> Option<Holder> {
    if !path.exists() {
        return None;
    }
    Some(read_holder(path).unwrap_or(Holder { host: "?".into(), pid: 0, slurm_job: None }))
}
