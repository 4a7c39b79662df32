//! A solve as a graph of jobs (`docs/cluster.md`): each job one `dfasolve` command line, with
//! the files it reads and writes, the jobs that make its inputs, and what it is estimated to
//! need. The same plan runs on one machine ([`local`]) or as Slurm job arrays ([`slurm`]),
//! and a plan's output directory is the only state its jobs share. Names no game: the command
//! line that makes a plan (`dfasolve plan`) turns a game's classes into jobs.
//!
//! Invariants of a [`Plan`], checked when one is made and when one is read:
//! 1. job names are unique, non-empty, and usable in a file name;
//! 2. every dependency names an earlier job, so the list is in an order that runs;
//! 3. a job's level is 0 without dependencies and one more than its highest dependency's
//!    otherwise, so the jobs of one level never read each other and run as one job array;
//! 4. no two jobs write the same file, and every input is written by one of the job's own
//!    dependencies or by no job (a file the plan expects to be there).

mod job;
pub mod local;
mod lock;
pub mod slurm;
pub mod status;

pub use job::{Estimate, Job};
pub use status::{JobState, Status};

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a plan file says it is.
pub const FORMAT: &str = "dfasolve plan";
/// The plan format this build writes and reads.
pub const VERSION: u32 = 1;

/// A plan's size ([`Plan::summary`]).
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct Summary {
    /// Jobs.
    pub jobs: usize,
    /// Levels (job arrays).
    pub levels: usize,
    /// Jobs in the widest level.
    pub widest_level: usize,
    /// The largest memory estimate of a job, bytes (of the jobs that have one).
    pub peak_memory_bytes: u64,
    /// Jobs that ask for a whole node's memory, having no estimate.
    pub whole_node_jobs: usize,
    /// The estimated seconds of all jobs, one after another on one core.
    pub seconds: u64,
    /// The estimated bytes all jobs leave on disk.
    pub disk_bytes: u64,
}

/// A solve's jobs, in an order that runs (module docs).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Plan {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The program that wrote the plan (name, version, commit).
    pub program: String,
    /// What the plan solves, e.g. `breakthrough 4x5 by classes`.
    pub title: String,
    /// The directory the jobs run in: relative paths in the plan are relative to it.
    pub workdir: PathBuf,
    /// The output directory the jobs share; the plan's own state (locks, logs, failures) is
    /// kept in its `jobs/` subdirectory.
    pub dir: PathBuf,
    /// The jobs, each after the jobs it depends on.
    pub jobs: Vec<Job>,
}

impl Plan {
    /// A plan of `jobs` (listed after their dependencies), run in `workdir`, writing to `dir`;
    /// each job's level is set from its dependencies.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for jobs that break an invariant of the module docs.
    pub fn new(title: String, workdir: PathBuf, dir: PathBuf, mut jobs: Vec<Job>) -> Result<Plan> {
        let mut levels: HashMap<String, usize> = HashMap::new();
        for job in &mut jobs {
            let mut level = 0;
            for dep in &job.depends_on {
                let Some(&l) = levels.get(dep.as_str()) else {
                    return Err(Error::BadParameters(format!(
                        "job {} depends on {dep}, which is not an earlier job",
                        job.name
                    )));
                };
                level = level.max(l + 1);
            }
            levels.insert(job.name.clone(), level);
            job.level = level;
        }
        let plan = Plan {
            format: FORMAT.into(),
            version: VERSION,
            program: crate::PROGRAM_VERSION.into(),
            title,
            workdir,
            dir,
            jobs,
        };
        plan.check().map_err(Error::BadParameters)?;
        Ok(plan)
    }

    /// Read a plan file, checking its format, version and invariants.
    ///
    /// # Errors
    /// [`Error::Io`]; [`Error::ForeignFile`] for a file that is not a plan;
    /// [`Error::UnsupportedVersion`]; [`Error::Corrupt`] for a plan that breaks an invariant.
    pub fn load(path: &Path) -> Result<Plan> {
        let io = |error| Error::Io { path: path.to_path_buf(), error };
        let meta = std::fs::metadata(path).map_err(io)?;
        if !meta.is_file() {
            return Err(Error::NotApplicable(format!("{}: not a plan file (not a regular file)", path.display())));
        }
        let text = std::fs::read(path).map_err(io)?;
        let foreign = || Error::ForeignFile { path: path.to_path_buf(), expected: FORMAT };
        let value: serde_json::Value = serde_json::from_slice(&text).map_err(|_| foreign())?;
        if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            return Err(foreign());
        }
        let version = value.get("version").and_then(serde_json::Value::as_u64).unwrap_or(0);
        if version != u64::from(VERSION) {
            return Err(Error::UnsupportedVersion {
                path: path.to_path_buf(),
                found: u32::try_from(version).unwrap_or(u32::MAX),
                supported: VERSION,
            });
        }
        let corrupt = |what: String| Error::Corrupt { path: path.to_path_buf(), what };
        let plan: Plan = serde_json::from_value(value).map_err(|e| corrupt(e.to_string()))?;
        plan.check().map_err(corrupt)?;
        Ok(plan)
    }

    /// Write the plan to `path` atomically, as pretty JSON.
    ///
    /// # Errors
    /// [`Error::Io`].
    pub fn save(&self, path: &Path) -> Result<()> {
        let mut text = serde_json::to_string_pretty(self).expect("a plan is plain data");
        text.push('\n');
        crate::atomic::write_atomically(path, text.as_bytes())
    }

    /// The invariants of the module docs, with the first one broken.
    fn check(&self) -> std::result::Result<(), String> {
        let mut level_of: HashMap<&str, usize> = HashMap::new();
        let mut writer: HashMap<&Path, &str> = HashMap::new();
        for job in &self.jobs {
            let name = job.name.as_str();
            if name.is_empty() || name.contains(['/', '\\', '\0']) || name.starts_with('.') {
                return Err(format!("job name {name:?} cannot name a file"));
            }
            if level_of.contains_key(name) {
                return Err(format!("two jobs are named {name}"));
            }
            let mut level = 0;
            for dep in &job.depends_on {
                let &l = level_of
                    .get(dep.as_str())
                    .ok_or_else(|| format!("job {name} depends on {dep}, not an earlier job"))?;
                level = level.max(l + 1);
            }
            if job.level != level {
                return Err(format!("job {name} is at level {} but its dependencies put it at {level}", job.level));
            }
            for out in &job.outputs {
                if let Some(other) = writer.insert(out, name) {
                    return Err(format!("jobs {other} and {name} both write {}", out.display()));
                }
            }
            level_of.insert(name, level);
        }
        for job in &self.jobs {
            for input in &job.inputs {
                if let Some(&w) = writer.get(input.as_path())
                    && !job.depends_on.iter().any(|d| d == w)
                {
                    return Err(format!(
                        "job {} reads {}, which job {w} writes, without depending on it",
                        job.name,
                        input.display()
                    ));
                }
            }
        }
        Ok(())
    }

    /// The jobs level by level: indices into [`Plan::jobs`], in plan order within a level. A
    /// job's task number in its level's array is its place in that list.
    pub fn levels(&self) -> Vec<Vec<usize>> {
        let mut levels: Vec<Vec<usize>> = Vec::new();
        for (k, job) in self.jobs.iter().enumerate() {
            if levels.len() <= job.level {
                levels.resize(job.level + 1, Vec::new());
            }
            levels[job.level].push(k);
        }
        levels
    }

    /// The job with task number `task` of level `level`.
    ///
    /// # Errors
    /// [`Error::BadParameters`] if the plan has no such task.
    pub fn task(&self, level: usize, task: usize) -> Result<usize> {
        let levels = self.levels();
        let tasks = levels.get(level).ok_or_else(|| {
            Error::BadParameters(format!("the plan has levels 0 to {}, not {level}", levels.len().saturating_sub(1)))
        })?;
        tasks.get(task).copied().ok_or_else(|| {
            Error::BadParameters(format!("level {level} of the plan has tasks 0 to {}, not {task}", tasks.len() - 1))
        })
    }

    /// The plan's size: jobs, levels, the widest level, and the sums and peak of its estimates.
    pub fn summary(&self) -> Summary {
        let levels = self.levels();
        Summary {
            jobs: self.jobs.len(),
            levels: levels.len(),
            widest_level: levels.iter().map(Vec::len).max().unwrap_or(0),
            peak_memory_bytes: self.jobs.iter().filter_map(|j| j.estimate.memory_bytes).max().unwrap_or(0),
            whole_node_jobs: self.jobs.iter().filter(|j| j.estimate.memory_bytes.is_none()).count(),
            seconds: self.jobs.iter().map(|j| j.estimate.seconds).sum(),
            disk_bytes: self.jobs.iter().map(|j| j.estimate.disk_bytes).sum(),
        }
    }

    /// The job named `name`.
    ///
    /// # Errors
    /// [`Error::BadParameters`] if the plan has no such job.
    pub fn job_named(&self, name: &str) -> Result<usize> {
        self.jobs
            .iter()
            .position(|j| j.name == name)
            .ok_or_else(|| Error::BadParameters(format!("the plan has no job {name:?} ({} jobs)", self.jobs.len())))
    }

    /// `path` as the jobs see it: relative paths are relative to [`Plan::workdir`].
    pub fn resolve(&self, path: &Path) -> PathBuf {
        self.workdir.join(path)
    }

    /// The files that show `job` done, resolved: its outputs when all are there, else the
    /// files that supersede them when there are some and all are there; `None` if it is not
    /// done.
    pub fn done_by(&self, job: &Job) -> Option<Vec<PathBuf>> {
        let all_there = |files: &[PathBuf]| {
            let files: Vec<PathBuf> = files.iter().map(|f| self.resolve(f)).collect();
            files.iter().all(|f| f.is_file()).then_some(files)
        };
        all_there(&job.outputs)
            .or_else(|| if job.superseded_by.is_empty() { None } else { all_there(&job.superseded_by) })
    }

    /// The directory of the plan's own state: locks, logs and failures of its jobs.
    pub fn state_dir(&self) -> PathBuf {
        self.resolve(&self.dir).join("jobs")
    }
}

#[cfg(test)]
mod tests;
