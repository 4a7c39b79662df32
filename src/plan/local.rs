//! Running jobs: one job as a batch task runs it ([`run_job`]), and a whole plan on this
//! machine with N jobs at a time ([`run_plan`]).
//!
//! A job is idempotent: when all its outputs are there and pass their checksums it is done
//! and exits at once. Otherwise it refuses to start unless every input is there and passes
//! its checksum, takes its lock, runs its command line (whose files are written atomically),
//! and checks that the outputs were made. A failed attempt leaves `NAME.failed` in the
//! plan's state directory, which the next attempt clears.

use super::Plan;
use super::lock::Lock;
use crate::error::{Error, Result};
use std::path::Path;
use std::sync::{Condvar, Mutex};
use std::time::Instant;

/// How a job's input or output file is checked before it is trusted: its checksum, by the
/// format it is in (the plan's maker knows the formats).
pub type FileCheck = dyn Fn(&Path) -> Result<()> + Sync;

/// Where a job's command writes its output and progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Logs {
    /// This process's own stdout and stderr (a batch task's output file).
    Inherit,
    /// `NAME.log` in the plan's state directory, appended to.
    StateDir,
}

/// What running a job did.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// It ran and made its outputs, in this many seconds.
    Ran {
        /// Wall seconds.
        seconds: f64,
    },
    /// Its outputs were already there and sound.
    AlreadyDone,
}

/// Run job `k` of `plan` with `program`, its files checked by `check` (module docs).
///
/// # Errors
/// A missing or damaged input, a damaged output, a live lock, a failed command, or a command
/// that did not make its outputs, each naming the job and the file.
pub fn run_job(plan: &Plan, k: usize, program: &Path, logs: Logs, check: &FileCheck) -> Result<Outcome> {
    let job = &plan.jobs[k];
    let state_dir = plan.state_dir();
    let failed_note = state_dir.join(format!("{}.failed", job.name));
    let log = state_dir.join(format!("{}.log", job.name));
    // What stops an attempt is noted for `--status`; a job that another process runs is not
    // a failure.
    let fail = |message: String| {
        let message = match logs {
            Logs::StateDir if log.exists() => format!("{message}; its log: {}", log.display()),
            _ => message,
        };
        if std::fs::create_dir_all(&state_dir).is_ok() {
            let _ = crate::atomic::write_atomically(&failed_note, format!("{message}\n").as_bytes());
        }
        Error::NotApplicable(message)
    };
    let outputs: Vec<_> = job.outputs.iter().map(|o| plan.resolve(o)).collect();
    if let Some(done) = plan.done_by(job) {
        for out in &done {
            check(out).map_err(|e| {
                fail(format!("job {}: its output is there but damaged ({e}); remove it to run the job again", job.name))
            })?;
        }
        let _ = std::fs::remove_file(&failed_note);
        return Ok(Outcome::AlreadyDone);
    }
    for input in &job.inputs {
        let path = plan.resolve(input);
        if !path.is_file() {
            let maker = plan.jobs.iter().find(|j| j.outputs.contains(input)).map(|j| j.name.as_str());
            return Err(fail(format!(
                "job {} refuses to start: its input {} is missing{}",
                job.name,
                path.display(),
                maker.map_or(String::new(), |m| format!(" (job {m} writes it)"))
            )));
        }
        check(&path).map_err(|e| fail(format!("job {} refuses to start: its input fails its check: {e}", job.name)))?;
    }
    std::fs::create_dir_all(&state_dir).map_err(|error| Error::Io { path: state_dir.clone(), error })?;
    let _lock = Lock::take(&state_dir.join(format!("{}.lock", job.name)), &job.name)?;
    let _ = std::fs::remove_file(&failed_note);
    let started = Instant::now();
    let mut command = std::process::Command::new(program);
    command.args(&job.args).current_dir(&plan.workdir).stdin(std::process::Stdio::null());
    if logs == Logs::StateDir {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .map_err(|error| Error::Io { path: log.clone(), error })?;
        let second = file.try_clone().map_err(|error| Error::Io { path: log.clone(), error })?;
        command.stdout(file).stderr(second);
    }
    let status = command.status().map_err(|error| Error::Io { path: program.to_path_buf(), error })?;
    if !status.success() {
        return Err(fail(format!("job {} failed ({status})", job.name)));
    }
    if let Some(missing) = outputs.iter().find(|o| !o.is_file()) {
        return Err(fail(format!("job {} ended without writing {}", job.name, missing.display())));
    }
    Ok(Outcome::Ran { seconds: started.elapsed().as_secs_f64() })
}

/// What [`run_plan`] did.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RunSummary {
    /// Jobs run, with their seconds.
    pub ran: Vec<(String, f64)>,
    /// Jobs found done.
    pub already_done: usize,
    /// Jobs that failed, with what they said.
    pub failed: Vec<(String, String)>,
    /// Jobs not run because a job they depend on failed.
    pub not_run: Vec<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Progress {
    Pending,
    Running,
    Done,
    Failed,
}

/// Run every job of `plan` that is not done, at most `workers` at a time, each after the
/// jobs it depends on; a failed job's dependents are not run, the other jobs are. `said`
/// hears one line per job started, finished or failed.
pub fn run_plan(
    plan: &Plan,
    workers: usize,
    program: &Path,
    check: &FileCheck,
    said: &(dyn Fn(&str) + Sync),
) -> RunSummary {
    let index: std::collections::HashMap<&str, usize> =
        plan.jobs.iter().enumerate().map(|(k, j)| (j.name.as_str(), k)).collect();
    let deps: Vec<Vec<usize>> =
        plan.jobs.iter().map(|j| j.depends_on.iter().map(|d| index[d.as_str()]).collect()).collect();
    let state = Mutex::new((vec![Progress::Pending; plan.jobs.len()], RunSummary::default()));
    let changed = Condvar::new();
    let total = plan.jobs.len();
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| {
                loop {
                    let mut guard = state.lock().expect("no worker panics holding the state");
                    let next = loop {
                        let (progress, summary) = &mut *guard;
                        // A job whose dependency failed will not run.
                        for k in 0..total {
                            if progress[k] == Progress::Pending
                                && deps[k].iter().any(|&d| progress[d] == Progress::Failed)
                            {
                                progress[k] = Progress::Failed;
                                summary.not_run.push(plan.jobs[k].name.clone());
                            }
                        }
                        let ready = (0..total).find(|&k| {
                            progress[k] == Progress::Pending && deps[k].iter().all(|&d| progress[d] == Progress::Done)
                        });
                        if let Some(k) = ready {
                            progress[k] = Progress::Running;
                            break Some(k);
                        }
                        if !progress.contains(&Progress::Running) {
                            break None;
                        }
                        guard = changed.wait(guard).expect("no worker panics holding the state");
                    };
                    drop(guard);
                    let Some(k) = next else {
                        changed.notify_all();
                        return;
                    };
                    let name = &plan.jobs[k].name;
                    let outcome = run_job(plan, k, program, Logs::StateDir, check);
                    let mut guard = state.lock().expect("no worker panics holding the state");
                    let (progress, summary) = &mut *guard;
                    match outcome {
                        Ok(Outcome::Ran { seconds }) => {
                            progress[k] = Progress::Done;
                            summary.ran.push((name.clone(), seconds));
                            let finished = progress.iter().filter(|&&p| p == Progress::Done).count();
                            said(&format!("job {name} done in {seconds:.1} s ({finished} of {total} jobs done)"));
                        }
                        Ok(Outcome::AlreadyDone) => {
                            progress[k] = Progress::Done;
                            summary.already_done += 1;
                        }
                        Err(e) => {
                            progress[k] = Progress::Failed;
                            said(&format!("job {name}: {e}"));
                            summary.failed.push((name.clone(), e.to_string()));
                        }
                    }
                    drop(guard);
                    changed.notify_all();
                }
            });
        }
    });
    state.into_inner().expect("no worker panics holding the state").1
}
