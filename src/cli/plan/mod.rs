//! `dfasolve plan SOLVE…` and `dfasolve run-plan PLAN`: a solve by classes as a graph of
//! class jobs ([`crate::plan`]), written as data, shown as status, run here or submitted to
//! Slurm.

use super::Cli;
mod jobs;

use super::output::say;
use crate::plan::local::{Logs, Outcome, RunSummary, run_job, run_plan};
use crate::plan::{Job, Plan, Status, slurm};
use anyhow::{Context, Result, bail};
use clap::{Args, Parser};
use std::path::{Path, PathBuf};

/// `dfasolve plan`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  dfasolve plan breakthrough --width 4 --height 5 --by-classes bt45\n  \
    dfasolve run-plan bt45/plan.json --jobs 2\n  \
    dfasolve plan --status breakthrough --width 4 --height 5 --by-classes bt45\n  \
    dfasolve plan --slurm breakthrough --width 5 --height 6 --by-classes /shared/bt56")]
pub struct PlanArgs {
    /// Show which jobs are done, running, failed or to do (read from the output directory),
    /// instead of writing the plan.
    #[arg(long)]
    pub status: bool,
    /// Also write Slurm batch scripts into DIR/slurm: one job array per level, and
    /// `submit.sh`.
    #[arg(long)]
    pub slurm: bool,
    /// Submit the jobs that are not done to Slurm with `sbatch` (writes the scripts too).
    #[arg(long)]
    pub submit: bool,
    /// Ask for this much memory per job instead of the estimate (jobs without one, a meet's,
    /// ask for a whole node).
    #[arg(long, value_name = "GIB", value_parser = super::options::gib)]
    pub job_memory: Option<f64>,
    /// Ask for this much time per job instead of twice the estimate.
    #[arg(long, value_name = "MINUTES", value_parser = super::options::minutes)]
    pub job_time: Option<f64>,
    /// CPUs per Slurm task.
    #[arg(long, default_value_t = 1, value_parser = super::options::at_least_one)]
    pub cpus: usize,
    /// The Slurm partition (default: the cluster's).
    #[arg(long)]
    pub partition: Option<String>,
    /// A meet in the middle (with `--checkpoint DIR --out FILE`) as jobs: the forward plies,
    /// then each backup ply cut into N parts that run side by side, and their union. The plies are known once the forward job is done: plan again
    /// then.
    #[arg(long, value_name = "N", value_parser = super::options::at_least_one)]
    pub parts: Option<usize>,
    /// Replace a plan of another solve in the directory.
    #[arg(long)]
    pub force: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// The solve as typed after `dfasolve`, with `--by-classes DIR` (or the directory of the
    /// solve planned: `explicit ostle --tables DIR`, `othello --differences DIR`, `othello
    /// --margins DIR`, a meet's `--checkpoint DIR` with `--parts`): where the plan is written
    /// as `plan.json`.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true, value_name = "SOLVE")]
    pub solve: Vec<String>,
}

/// `dfasolve run-plan`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  dfasolve run-plan bt45/plan.json --jobs 2\n  \
    dfasolve run-plan bt45/plan.json --job class-4v4\n  \
    dfasolve run-plan bt45/plan.json --status")]
pub struct RunPlanArgs {
    /// The plan file (`plan.json`, written by `dfasolve plan`).
    #[arg(value_name = "PLAN")]
    pub plan: PathBuf,
    /// Jobs to run at a time.
    #[arg(long, default_value_t = 1, value_parser = super::options::at_least_one)]
    pub jobs: usize,
    /// Run only this job (done already: nothing to do).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["level", "status", "submit"])]
    pub job: Option<String>,
    /// Run only task `--task` of this level (what a Slurm array task runs).
    #[arg(long, value_name = "L", requires = "task", conflicts_with_all = ["status", "submit"])]
    pub level: Option<usize>,
    /// With `--level`: the task's number in its level's array.
    #[arg(long, value_name = "I", requires = "level")]
    pub task: Option<usize>,
    /// Show which jobs are done, running, failed or to do.
    #[arg(long, conflicts_with = "submit")]
    pub status: bool,
    /// Submit the jobs not done to Slurm (the scripts are written into DIR/slurm first).
    #[arg(long)]
    pub submit: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `dfasolve plan`.
pub(super) fn plan(args: &PlanArgs) -> Result<()> {
    let cli = Cli::try_parse_from(std::iter::once("dfasolve".to_string()).chain(args.solve.iter().cloned()))
        .map_err(|e| anyhow::anyhow!("the solve to plan: {}", first_line(&e.to_string())))?;
    if let super::Command::Explicit { game: super::ExplicitCommand::Ostle { args: explicit } } = &cli.command {
        let (plan, dir) = jobs::tables_plan(explicit, args)?;
        return write_plan(&plan, &dir, args);
    }
    if let super::Command::Othello(othello) = &cli.command
        && let Some(dir) = &othello.differences
    {
        let plan = jobs::differences_plan(othello, dir, args)?;
        return write_plan(&plan, dir, args);
    }
    if let super::Command::Othello(othello) = &cli.command
        && let Some(dir) = &othello.margins
    {
        let plan = jobs::margins_plan(othello, dir, args)?;
        return write_plan(&plan, dir, args);
    }
    let Some(solve) = cli.command.solve_command() else {
        bail!(
            "plan takes a solve command (e.g. breakthrough --width 4 --height 5 --by-classes DIR), not {:?}",
            args.solve[0]
        );
    };
    let run = solve.run_options();
    if run.class.is_some() || run.list_classes || run.meet_job.is_some() {
        bail!("the solve to plan is the whole solve: without --class, --list-classes or --meet-job");
    }
    if run.csv.is_some() {
        bail!("--csv would have every job write the same file: a plan's record is its jobs' files");
    }
    let game = solve.build()?;
    let (plan, dir) = match (&run.by_classes, args.parts, &run.checkpoint, &run.out) {
        (Some(_), Some(_), ..) => {
            bail!("--parts cuts a meet in the middle's plies; a solve by classes is cut by its classes")
        }
        (Some(dir), None, ..) => (jobs::class_plan(game.as_ref(), &args.solve, dir, args)?, dir.clone()),
        (None, Some(parts), Some(dir), Some(out)) => {
            (jobs::meet_plan(game.as_ref(), &args.solve, dir, out, parts, args)?, dir.clone())
        }
        (None, Some(_), ..) => {
            bail!("a meet in the middle in parts needs --checkpoint DIR (the jobs' shared files) and --out FILE")
        }
        (None, None, ..) => {
            bail!(
                "a plan is of a solve by classes (--by-classes DIR) or of a meet in the middle in ply parts (--parts N)"
            )
        }
    };
    write_plan(&plan, &dir, args)
}

/// Show the status of `plan`, or write it into `dir` (with its Slurm scripts, and submitted,
/// as asked) and say what it is.
fn write_plan(plan: &Plan, dir: &Path, args: &PlanArgs) -> Result<()> {
    let plan_file = plan.resolve(dir).join("plan.json");
    if args.status {
        let plan = if plan_file.is_file() { Plan::load(&plan_file)? } else { plan.clone() };
        return show_status(&plan, args.json);
    }
    crate::atomic::check_directory(&plan.resolve(dir)).context("the plan's directory")?;
    if plan_file.exists() && !args.force {
        let old = Plan::load(&plan_file).context("a file is in the plan's place")?;
        // The same solve planned again (a meet in the middle's plies added once its forward
        // job is done) keeps the jobs it had.
        let changed = |j: &Job| plan.jobs.iter().find(|n| n.name == j.name).is_some_and(|n| n.args != j.args);
        if old.title != plan.title || old.jobs.iter().any(changed) {
            bail!(
                "{} is the plan of another solve ({}): refused (--force replaces it)",
                plan_file.display(),
                old.title
            );
        }
    }
    plan.save(&plan_file)?;
    let scripts = if args.slurm || args.submit { Some(write_slurm(plan, &plan_file, args)?) } else { None };
    let submitted = if args.submit { Some(slurm::submit(plan, &slurm_dir(plan))?) } else { None };
    describe(plan, &plan_file, scripts.as_deref(), submitted.as_deref(), args.json)?;
    if args.parts.is_some() && plan.jobs.len() == 1 && !args.json {
        say!("the backup's plies are known once the forward job is done: plan again then, with the same command");
    }
    Ok(())
}

/// `dfasolve run-plan`.
pub(super) fn run_plan_command(args: &RunPlanArgs) -> Result<()> {
    let plan = Plan::load(&args.plan)?;
    let program = std::env::current_exe().context("finding this program to run the jobs")?;
    if args.status {
        return show_status(&plan, args.json);
    }
    if args.submit {
        let dir = slurm_dir(&plan);
        if !slurm::script_path(&dir, 0).is_file() {
            slurm::write_scripts(&plan, &absolute(&args.plan)?, &program, &dir, &slurm::Request::default())?;
        }
        let submitted = slurm::submit(&plan, &dir)?;
        return describe_submitted(&submitted, args.json);
    }
    let one = match (&args.job, args.level, args.task) {
        (Some(name), _, _) => Some(plan.job_named(name)?),
        (None, Some(level), Some(task)) => Some(plan.task(level, task)?),
        _ => None,
    };
    if let Some(k) = one {
        let name = &plan.jobs[k].name;
        let outcome = run_job(&plan, k, &program, Logs::Inherit, &jobs::check_file)?;
        let (done, seconds) = match outcome {
            Outcome::Ran { seconds } => ("ran", seconds),
            Outcome::AlreadyDone => ("already done", 0.0),
        };
        if args.json {
            /// What `run-plan --job NAME --json` prints.
            #[derive(serde::Serialize)]
            struct JobRun<'a> {
                job: &'a str,
                outcome: &'a str,
                seconds: f64,
            }
            say!("{}", serde_json::to_string(&JobRun { job: name, outcome: done, seconds })?);
        } else {
            say!("job {name}: {done}{}", if seconds > 0.0 { format!(" in {seconds:.1} s") } else { String::new() });
        }
        return Ok(());
    }
    let said = |line: &str| eprintln!("{line}");
    let summary = run_plan(&plan, args.jobs, &program, &jobs::check_file, &said);
    report_run(&plan, &summary, args.json)
}

fn slurm_dir(plan: &Plan) -> PathBuf {
    plan.resolve(&plan.dir).join("slurm")
}

fn write_slurm(plan: &Plan, plan_file: &Path, args: &PlanArgs) -> Result<Vec<PathBuf>> {
    let program = std::env::current_exe().context("finding this program for the scripts")?;
    let request = slurm::Request {
        cpus: args.cpus,
        partition: args.partition.clone(),
        time_margin: if args.job_time.is_some() { 1.0 } else { 2.0 },
    };
    Ok(slurm::write_scripts(plan, &absolute(plan_file)?, &program, &slurm_dir(plan), &request)?)
}

fn absolute(path: &Path) -> Result<PathBuf> {
    Ok(std::env::current_dir().context("the working directory")?.join(path))
}

/// What `plan` wrote: the plan's shape, its estimates, and what to type next.
fn describe(
    plan: &Plan,
    plan_file: &Path,
    scripts: Option<&[PathBuf]>,
    submitted: Option<&[slurm::Submitted]>,
    json: bool,
) -> Result<()> {
    let summary = plan.summary();
    if json {
        /// What `plan --json` prints.
        #[derive(serde::Serialize)]
        struct Written<'a> {
            plan: &'a Path,
            title: &'a str,
            #[serde(flatten)]
            summary: crate::plan::Summary,
            scripts: Option<&'a [PathBuf]>,
            submitted: Option<&'a [slurm::Submitted]>,
        }
        let written = Written { plan: plan_file, title: &plan.title, summary, scripts, submitted };
        say!("{}", serde_json::to_string(&written)?);
        return Ok(());
    }
    say!(
        "{}: {} jobs in {} levels (the widest {} jobs), written to {}",
        plan.title,
        summary.jobs,
        summary.levels,
        summary.widest_level,
        plan_file.display()
    );
    let memory = match (summary.whole_node_jobs, summary.jobs) {
        (0, _) => format!("{} at most per job", crate::error::memory_text(summary.peak_memory_bytes)),
        (whole, all) if whole == all => "a whole node's memory per job (no law for it yet)".to_string(),
        (whole, _) => format!(
            "{} at most per job, and a whole node's memory for {whole} (no law for them yet)",
            crate::error::memory_text(summary.peak_memory_bytes)
        ),
    };
    say!(
        "estimated: {} in all on one core, {memory}, {} of files",
        super::cost::duration(summary.seconds as f64),
        crate::error::memory_text(summary.disk_bytes)
    );
    if let Some(scripts) = scripts {
        say!(
            "Slurm scripts: {} (one job array per level) and {}",
            scripts.len() - 1,
            scripts[scripts.len() - 1].display()
        );
    }
    match submitted {
        Some(s) => describe_submitted(s, false)?,
        None => say!("run it here: dfasolve run-plan {} --jobs 2", plan_file.display()),
    }
    Ok(())
}

fn describe_submitted(submitted: &[slurm::Submitted], json: bool) -> Result<()> {
    if json {
        /// What `--submit --json` prints.
        #[derive(serde::Serialize)]
        struct Report<'a> {
            submitted: &'a [slurm::Submitted],
        }
        say!("{}", serde_json::to_string(&Report { submitted })?);
        return Ok(());
    }
    if submitted.is_empty() {
        say!("every job is done: nothing submitted");
    }
    for s in submitted {
        say!("level {}: Slurm job {} ({} tasks)", s.level, s.job_id, s.tasks.len());
    }
    Ok(())
}

/// The state of every job, level by level.
fn show_status(plan: &Plan, json: bool) -> Result<()> {
    let status = Status::of(plan);
    if json {
        /// What `--status --json` prints.
        #[derive(serde::Serialize)]
        struct Report<'a> {
            title: &'a str,
            status: &'a Status,
        }
        say!("{}", serde_json::to_string(&Report { title: &plan.title, status: &status })?);
        return Ok(());
    }
    say!(
        "{}: {} of {} jobs done, {:.1}% of the estimated work",
        plan.title,
        status.done,
        status.jobs.len(),
        100.0 * status.progress
    );
    for (level, tasks) in plan.levels().iter().enumerate() {
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for &k in tasks {
            let word = status.jobs[k].state.word();
            match counts.iter_mut().find(|(w, _)| *w == word) {
                Some((_, n)) => *n += 1,
                None => counts.push((word, 1)),
            }
        }
        let text: Vec<String> = counts.iter().map(|(w, n)| format!("{n} {w}")).collect();
        say!("level {level:>3}: {}", text.join(", "));
    }
    for job in &status.jobs {
        use crate::plan::JobState;
        match &job.state {
            JobState::Running { holder } => say!("  {} running on {holder}", job.name),
            JobState::Stale { holder } => {
                say!("  {} stale: its holder {holder} is gone (the next attempt takes it over)", job.name)
            }
            JobState::Failed { message } => say!("  {} failed: {message}", job.name),
            _ => {}
        }
    }
    Ok(())
}

/// What `run-plan` did; an error if a job failed.
fn report_run(plan: &Plan, summary: &RunSummary, json: bool) -> Result<()> {
    if json {
        /// What `run-plan --json` prints.
        #[derive(serde::Serialize)]
        struct Report<'a> {
            title: &'a str,
            run: &'a RunSummary,
        }
        say!("{}", serde_json::to_string(&Report { title: &plan.title, run: summary })?);
    } else {
        say!(
            "{}: {} jobs run, {} already done, {} failed, {} not run",
            plan.title,
            summary.ran.len(),
            summary.already_done,
            summary.failed.len(),
            summary.not_run.len()
        );
    }
    if let Some((name, message)) = summary.failed.first() {
        bail!(
            "{} job(s) failed, the first {name}: {message}{}",
            summary.failed.len(),
            if summary.not_run.is_empty() {
                String::new()
            } else {
                format!("; {} job(s) after them not run", summary.not_run.len())
            }
        );
    }
    Ok(())
}

fn first_line(text: &str) -> &str {
    text.lines().find(|l| !l.trim().is_empty()).unwrap_or(text).trim_start_matches("error: ")
}
