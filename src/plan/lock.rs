//! The lock a running job holds in the plan's state directory: `NAME.lock`, naming the host,
//! the process and (under Slurm) the batch job that holds it. A lock is stale when its holder
//! is known to be gone: a process of this host that no longer runs, or a Slurm job that the
//! scheduler no longer runs. A job killed by a time limit or `scancel` leaves a stale lock,
//! which the next attempt takes over.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Who holds a lock.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Holder {
    /// The host's name.
    pub host: String,
    /// The process id on that host.
    pub pid: u32,
    /// The Slurm job id (`SLURM_JOB_ID`), when run by Slurm.
    pub slurm_job: Option<String>,
}

impl Holder {
    /// This process.
    pub fn this_process() -> Holder {
        Holder { host: host_name(), pid: std::process::id(), slurm_job: std::env::var("SLURM_JOB_ID").ok() }
    }

    /// Whether the holder is known to be gone.
    pub fn is_gone(&self) -> bool {
        if self.pid == 0 {
            return true;
        }
        if let Some(job) = &self.slurm_job
            && let Some(running) = slurm_job_running(job)
        {
            return !running;
        }
        self.host == host_name() && !process_runs(self.pid)
    }

    /// For a person: `host:pid`, and the Slurm job.
    pub fn text(&self) -> String {
        match &self.slurm_job {
            Some(job) => format!("{}:{} (Slurm job {job})", self.host, self.pid),
            None => format!("{}:{}", self.host, self.pid),
        }
    }
}

/// A lock this process holds; dropping it releases it.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
}

impl Lock {
    /// Take the lock at `path`, taking over a stale one.
    ///
    /// # Errors
    /// [`Error::NotApplicable`] naming the live holder; [`Error::Io`].
    pub fn take(path: &Path, job: &str) -> Result<Lock> {
        let io = |error| Error::Io { path: path.to_path_buf(), error };
        let me = serde_json::to_string(&Holder::this_process()).expect("plain data");
        for _ in 0..2 {
            match std::fs::OpenOptions::new().write(true).create_new(true).open(path) {
                Ok(mut file) => {
                    file.write_all(me.as_bytes()).map_err(io)?;
                    return Ok(Lock { path: path.to_path_buf() });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => match read_holder(path) {
                    Some(holder) if !holder.is_gone() => {
                        return Err(Error::NotApplicable(format!(
                            "job {job} is running ({}; its lock is {})",
                            holder.text(),
                            path.display()
                        )));
                    }
                    // Gone, or a lock cut short by a kill as it was written: taken over.
                    _ => std::fs::remove_file(path).or_else(ignore_missing).map_err(io)?,
                },
                Err(e) => return Err(io(e)),
            }
        }
        Err(Error::NotApplicable(format!("job {job}: another process took {} at the same moment", path.display())))
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The holder written in the lock at `path`, if it can be read.
pub fn read_holder(path: &Path) -> Option<Holder> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

fn ignore_missing(e: std::io::Error) -> std::io::Result<()> {
    if e.kind() == std::io::ErrorKind::NotFound { Ok(()) } else { Err(e) }
}

/// This host's name, as the kernel has it.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname").map_or_else(|_| "localhost".into(), |h| h.trim().to_string())
}

/// Whether process `pid` of this host runs (and is not a zombie).
fn process_runs(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command's closing parenthesis.
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// Whether Slurm still runs job `id` (`None`: `squeue` could not tell, e.g. outside a
/// cluster).
fn slurm_job_running(id: &str) -> Option<bool> {
    let out = std::process::Command::new("squeue").args(["-h", "-o", "%T", "-j", id]).output().ok()?;
    if !out.status.success() {
        // squeue fails for a job id it has already forgotten.
        let said = String::from_utf8_lossy(&out.stderr);
        return said.contains("Invalid job id").then_some(false);
    }
    let state = String::from_utf8_lossy(&out.stdout);
    Some(state.lines().any(|s| matches!(s.trim(), "RUNNING" | "COMPLETING" | "CONFIGURING" | "SUSPENDED")))
}
