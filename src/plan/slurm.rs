//! A plan as Slurm batch scripts: one `sbatch` script per level, a job array whose task `i`
//! runs the level's job `i` (`dfasolve run-plan PLAN --level L --task i`), asking for the
//! most memory and time of the level's estimates; and the submission of the levels that are
//! not done, each array after the arrays below it succeeded (`--dependency=afterok`), so a
//! failed task stops its dependents (`--kill-on-invalid-dep=yes` cancels them).

use super::{Plan, Status};
use crate::error::{Error, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What the scripts ask of the scheduler beyond the plan's estimates.
#[derive(Clone, Debug)]
pub struct Request {
    /// CPUs per task.
    pub cpus: usize,
    /// The partition, if not the cluster's default.
    pub partition: Option<String>,
    /// The time asked for is the estimate times this, at least ten minutes.
    pub time_margin: f64,
}

impl Default for Request {
    fn default() -> Request {
        Request { cpus: 1, partition: None, time_margin: 2.0 }
    }
}

/// The script of level `level`, in `dir`.
pub fn script_path(dir: &Path, level: usize) -> PathBuf {
    dir.join(format!("level-{level:03}.sbatch"))
}

/// Write one script per level of `plan` (read from `plan_file`) into `dir`, and `submit.sh`,
/// which submits them all in order. Returns the scripts written.
///
/// # Errors
/// [`Error::Io`].
pub fn write_scripts(
    plan: &Plan,
    plan_file: &Path,
    program: &Path,
    dir: &Path,
    request: &Request,
) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|error| Error::Io { path: dir.to_path_buf(), error })?;
    // The tasks' output files go there: Slurm does not make their directory.
    let logs = plan.state_dir();
    // Jobs are named after the plan's directory, so that squeue tells plans apart.
    let name = plan.dir.file_name().map_or_else(|| "dfasolve".into(), |n| n.to_string_lossy().into_owned());
    std::fs::create_dir_all(&logs).map_err(|error| Error::Io { path: logs.clone(), error })?;
    let mut written = Vec::new();
    let mut submit = String::from(
        "#!/bin/sh\n# Submit every level of the plan, each after the one below it succeeded.\n\
         # `dfasolve run-plan PLAN --submit` submits only the jobs that are not done.\nset -eu\n\
         cd \"$(dirname \"$0\")\"\nafter=\"\"\n",
    );
    for (level, tasks) in plan.levels().iter().enumerate() {
        // `--mem=0` is all of a node's memory: what a task with no estimate asks for.
        let memory =
            tasks.iter().map(|&k| plan.jobs[k].estimate.memory_bytes).try_fold(0, |most, m| Some(most.max(m?)));
        let memory = memory.map_or_else(|| "0".to_string(), |bytes| format!("{}M", bytes.div_ceil(1 << 20).max(1)));
        let seconds =
            tasks.iter().map(|&k| plan.jobs[k].estimate.seconds).max().unwrap_or(0) as f64 * request.time_margin;
        let minutes = ((seconds / 60.0).ceil() as u64).max(10);
        let names: Vec<&str> = tasks.iter().map(|&k| plan.jobs[k].name.as_str()).collect();
        let mut s = String::from("#!/bin/sh\n");
        let _ = writeln!(s, "# {}: level {level}, {} job(s): {}", plan.title, tasks.len(), names.join(" "));
        let _ = writeln!(s, "#SBATCH --job-name={name}-level-{level}");
        let _ = writeln!(s, "#SBATCH --array=0-{}", tasks.len() - 1);
        let _ = writeln!(s, "#SBATCH --cpus-per-task={}", request.cpus);
        let _ = writeln!(s, "#SBATCH --mem={memory}");
        let _ = writeln!(s, "#SBATCH --time={}", slurm_time(minutes));
        let _ = writeln!(s, "#SBATCH --chdir={}", plan.workdir.display());
        let _ = writeln!(s, "#SBATCH --output={}/slurm-%A_%a.out", logs.display());
        let _ = writeln!(s, "#SBATCH --kill-on-invalid-dep=yes");
        if let Some(p) = &request.partition {
            let _ = writeln!(s, "#SBATCH --partition={p}");
        }
        let _ = writeln!(s, "export RAYON_NUM_THREADS=\"${{SLURM_CPUS_PER_TASK:-{}}}\"", request.cpus);
        let _ = writeln!(
            s,
            "if [ -z \"${{DFASOLVE:-}}\" ]; then DFASOLVE={}; fi",
            shell_quote(&program.display().to_string())
        );
        let _ = writeln!(
            s,
            "exec \"$DFASOLVE\" run-plan {} --level {level} --task \"$SLURM_ARRAY_TASK_ID\"",
            shell_quote(&plan_file.display().to_string())
        );
        let path = script_path(dir, level);
        crate::atomic::write_atomically(&path, s.as_bytes())?;
        let script = path.file_name().expect("a file name").to_string_lossy();
        let _ = writeln!(
            submit,
            "id=$(sbatch --parsable ${{after:+--dependency=afterok$after}} {script}); id=${{id%%;*}}; after=\"$after:$id\"; echo \"{script}: job $id\""
        );
        written.push(path);
    }
    let submit_path = dir.join("submit.sh");
    crate::atomic::write_atomically(&submit_path, submit.as_bytes())?;
    for path in written.iter().chain([&submit_path]) {
        make_executable(path)?;
    }
    written.push(submit_path);
    Ok(written)
}

/// One level submitted.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Submitted {
    /// The level.
    pub level: usize,
    /// Slurm's job id of its array.
    pub job_id: String,
    /// The tasks submitted (those not done).
    pub tasks: Vec<usize>,
}

/// Submit, with `sbatch`, the tasks of `plan` that are not done, level by level from the
/// scripts in `dir`, each level's array after the arrays submitted below it.
///
/// # Errors
/// [`Error::NotApplicable`] if `sbatch` cannot be run or refuses a script.
pub fn submit(plan: &Plan, dir: &Path) -> Result<Vec<Submitted>> {
    let status = Status::of(plan);
    let mut submitted: Vec<Submitted> = Vec::new();
    for (level, tasks) in plan.levels().iter().enumerate() {
        let to_do: Vec<usize> =
            (0..tasks.len()).filter(|&t| status.jobs[tasks[t]].state != super::JobState::Done).collect();
        if to_do.is_empty() {
            continue;
        }
        let list: Vec<String> = to_do.iter().map(ToString::to_string).collect();
        let mut command = std::process::Command::new("sbatch");
        command.arg("--parsable").arg(format!("--array={}", list.join(",")));
        if !submitted.is_empty() {
            let ids: Vec<&str> = submitted.iter().map(|s| s.job_id.as_str()).collect();
            command.arg(format!("--dependency=afterok:{}", ids.join(":")));
        }
        let script = script_path(dir, level);
        command.arg(&script);
        let out = command.output().map_err(|e| Error::NotApplicable(format!("cannot run sbatch: {e}")))?;
        if !out.status.success() {
            return Err(Error::NotApplicable(format!(
                "sbatch refused {}: {}",
                script.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        let id = String::from_utf8_lossy(&out.stdout).trim().split(';').next().unwrap_or_default().to_string();
        submitted.push(Submitted { level, job_id: id, tasks: to_do });
    }
    Ok(submitted)
}

/// Minutes as Slurm's `D-HH:MM:00`.
fn slurm_time(minutes: u64) -> String {
    format!("{}-{:02}:{:02}:00", minutes / 1440, minutes / 60 % 24, minutes % 60)
}

/// `text` quoted for a POSIX shell.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn make_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|error| Error::Io { path: path.to_path_buf(), error })
}
