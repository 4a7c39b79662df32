//! The jobs of a plan, by what is planned: a game's classes, the explicit Ostle tables, or a
//! meet in the middle's steps; their estimates, and how their files are checked.

use super::PlanArgs;
use crate::game::{Game, PositionClass, Rules};
use crate::plan::{Estimate, Job, Plan};
use crate::solved::solution::{ClassUniverse, ClassValues};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// The plan of solving `game` by classes into `dir`: one job per class (its command line the
/// solve's with `--class NAME`), reading the files of the classes its moves reach; for a
/// game that makes its class universes by sweeping from the start, the lowest class's job
/// makes them all and every other job waits for it.
pub(super) fn class_plan(game: &dyn Game, solve: &[String], dir: &Path, args: &PlanArgs) -> Result<Plan> {
    let classes = game.classes()?;
    if classes.is_empty() {
        bail!("{} declares no classes: it has no solve by classes to plan", game.name());
    }
    let sweeps = game.sweeps_class_universes();
    let mut base: Vec<String> = solve.to_vec();
    if !has_option(solve, "--checkpoint") {
        // A task stopped by its time limit resumes from its iterations on resubmission.
        base.extend(["--checkpoint".into(), dir.join("checkpoints").display().to_string()]);
    }
    if !has_option(solve, "--quiet") && !has_option(solve, "--progress") {
        base.push("--progress".into());
    }
    let jobs = classes
        .iter()
        .enumerate()
        .map(|(k, class)| {
            let mut inputs: Vec<PathBuf> =
                class.successors.iter().map(|&s| ClassValues::path(dir, &classes[s].name)).collect();
            let mut outputs = vec![ClassValues::path(dir, &class.name)];
            let mut depends_on: Vec<String> = class.successors.iter().map(|&s| job_name(&classes[s])).collect();
            if sweeps {
                let universe = ClassUniverse::path(dir, &class.name);
                if k == 0 {
                    outputs.extend(classes.iter().map(|c| ClassUniverse::path(dir, &c.name)));
                } else {
                    inputs.push(universe);
                    if !class.successors.contains(&0) {
                        depends_on.insert(0, job_name(&classes[0]));
                    }
                }
            }
            let mut args_k = base.clone();
            args_k.extend(["--class".into(), class.name.clone()]);
            Job {
                name: job_name(class),
                level: 0,
                superseded_by: Vec::new(),
                args: args_k,
                inputs,
                outputs,
                depends_on,
                estimate: estimate(class, args),
            }
        })
        .collect();
    let workdir = std::env::current_dir().context("the working directory")?;
    Ok(Plan::new(format!("{} by classes", game.name()), workdir, dir.to_path_buf(), jobs)?)
}

/// The plan of a meet in the middle as ply parts, its shared files in the checkpoint
/// directory `dir`: `forward`; then from the last backup ply down, its `parts` part jobs
/// side by side and `ply-K`, their union, checkpointed; last `finish`, which writes the
/// solution `out`. Until the forward job has recorded how many plies there are, the plan
/// is that job alone.
pub(super) fn meet_plan(
    game: &dyn Game,
    solve: &[String],
    dir: &Path,
    out: &Path,
    parts: usize,
    args: &PlanArgs,
) -> Result<Plan> {
    use crate::solver::{JournalPart, MeetJob, StepKey};
    use crate::vocabulary::{Ply, Side};
    let file = |key: &StepKey| dir.join(format!("{key}.dfas"));
    let forward_record = file(&StepKey::MeetForward);
    let mut with_progress: Vec<String> = solve.to_vec();
    if !has_option(solve, "--quiet") && !has_option(solve, "--progress") {
        with_progress.push("--progress".into());
    }
    let step = |job: MeetJob| [with_progress.clone(), vec!["--meet-job".into(), job.to_string()]].concat();
    let estimate = given_estimate(args);
    let job =
        |name: String, args: Vec<String>, inputs: Vec<PathBuf>, outputs: Vec<PathBuf>, depends_on: Vec<String>| Job {
            name,
            level: 0,
            args,
            inputs,
            outputs,
            depends_on,
            superseded_by: Vec::new(),
            estimate: estimate.clone(),
        };
    let mut jobs = vec![job("forward".into(), step(MeetJob::Forward), vec![], vec![forward_record.clone()], vec![])];
    if let Some(plies) = forward_plies(&forward_record, game)? {
        let side_of = |k: u32| Side::after(game.initial().side, Ply(k));
        let (mut before, mut before_file) = ("forward".to_string(), forward_record.clone());
        for k in (0..plies).rev() {
            let checkpoint = file(&StepKey::Backup(k));
            let part_files: Vec<PathBuf> = (0..parts)
                .map(|index| file(&StepKey::Backup(k).journal(side_of(k), JournalPart::WinsPart { index, of: parts })))
                .collect();
            let mut part_names = Vec::with_capacity(parts);
            for (index, part_file) in part_files.iter().enumerate() {
                let name = format!("ply-{k}-part-{index}");
                let mut part = job(
                    name.clone(),
                    step(MeetJob::Part { ply: k, index, of: parts }),
                    vec![before_file.clone()],
                    vec![part_file.clone()],
                    vec![before.clone()],
                );
                part.superseded_by = vec![checkpoint.clone()];
                jobs.push(part);
                part_names.push(name);
            }
            let name = format!("ply-{k}");
            jobs.push(job(
                name.clone(),
                step(MeetJob::Ply { ply: k, of: parts }),
                part_files,
                vec![checkpoint.clone()],
                part_names,
            ));
            (before, before_file) = (name, checkpoint);
        }
        jobs.push(job(
            "finish".into(),
            with_progress.clone(),
            vec![before_file],
            vec![out.to_path_buf()],
            vec![before],
        ));
    }
    let workdir = std::env::current_dir().context("the working directory")?;
    Ok(Plan::new(format!("{} by ply parts", game.name()), workdir, dir.to_path_buf(), jobs)?)
}

/// How many plies the backup has, from the forward job's record in `path` (`None` before
/// that job is done).
fn forward_plies(path: &Path, game: &dyn Game) -> Result<Option<u32>> {
    if !path.exists() {
        return Ok(None);
    }
    let bundle = crate::dfa::file::Bundle::load(path)?;
    let meta: serde_json::Value = serde_json::from_str(&bundle.meta).unwrap_or_default();
    if meta.get("game") != Some(&game.params().to_json()) {
        bail!("{} is the forward record of another game, not of {}", path.display(), game.name());
    }
    let plies = meta.pointer("/record/plies").and_then(serde_json::Value::as_u64);
    let plies = plies.with_context(|| format!("{}: no count of plies in its record", path.display()))?;
    Ok(Some(u32::try_from(plies).context("the count of plies")?))
}

/// A meet job's needs, as given (`--job-memory`, `--job-time`), else a whole node's memory
/// and an hour: its plies' parts have no law of their own yet.
fn given_estimate(args: &PlanArgs) -> Estimate {
    Estimate {
        memory_bytes: args.job_memory.map(|g| (g * 1073741824.0) as u64),
        seconds: args.job_time.map_or(3600.0, |m| m * 60.0) as u64,
        disk_bytes: 0,
        basis: if args.job_memory.is_some() || args.job_time.is_some() {
            "given by hand"
        } else {
            "no law yet: a whole node's memory and an hour"
        }
        .into(),
    }
}

/// `dfasolve plan explicit ostle … --tables DIR`: one job per class of the explicit tables
/// by rank, each reading the tables of every class below it (as the class solve does); the
/// census and the sampled check are the report's, run once all are made
/// (`dfasolve explicit ostle … --tables DIR`).
pub(super) fn tables_plan(explicit: &crate::cli::ExplicitOstleArgs, args: &PlanArgs) -> Result<(Plan, PathBuf)> {
    use crate::games::ostle::ranked;
    if explicit.class.is_some() || explicit.list_classes || args.parts.is_some() {
        bail!("the solve to plan is the whole explicit solve: without --class, --list-classes or --parts");
    }
    let Some(dir) = explicit.tables.clone() else { bail!("a plan of the explicit tables needs --tables DIR") };
    let v = explicit.variant.variant()?;
    let classes = ranked::classes(&v);
    let mut base: Vec<String> = args.solve.clone();
    base.extend(["--no-census".into(), "--check-sample".into(), "0".into()]);
    let jobs = classes
        .iter()
        .enumerate()
        .map(|(k, class)| {
            let cost = crate::cli::ostle_cost::ExplicitCost::of(&v, &[class], &dir);
            Job {
                name: format!("class-{}", class.name),
                level: 0,
                args: [base.clone(), vec!["--class".into(), class.name.clone()]].concat(),
                inputs: classes[..k].iter().map(|c| ranked::class_file(&dir, c)).collect(),
                outputs: vec![ranked::class_file(&dir, class)],
                depends_on: classes[..k].iter().map(|c| format!("class-{}", c.name)).collect(),
                superseded_by: Vec::new(),
                estimate: Estimate {
                    memory_bytes: Some(
                        args.job_memory.map_or(cost.peak_bytes.max(256.0 * 1048576.0), |g| g * 1073741824.0) as u64,
                    ),
                    seconds: args.job_time.map_or(cost.seconds.max(10.0), |m| m * 60.0).ceil() as u64,
                    disk_bytes: cost.disk_bytes as u64,
                    basis: "the explicit tables' cost law (states by class, bytes per state)".into(),
                },
            }
        })
        .collect();
    let workdir = std::env::current_dir().context("the working directory")?;
    let title =
        format!("ostle {}x{} k{} t{} {} explicit tables", v.width, v.height, v.pieces, v.lose_at, v.rule.name());
    Ok((Plan::new(title, workdir, dir.clone(), jobs)?, dir))
}

/// `dfasolve plan othello … --differences DIR`: one job per class of discs, from the full
/// board down (`--discs D`), a chain: each reads its own universe and the class above's
/// table. The first job also sweeps every class's universe from the start, so every job
/// depends on it. The start's difference and the report are then one run of the same
/// command, which reads every table.
pub(super) fn differences_plan(othello: &crate::cli::OthelloArgs, dir: &Path, args: &PlanArgs) -> Result<Plan> {
    use crate::games::othello::difference_table::DifferenceTable;
    if othello.discs.is_some() || args.parts.is_some() {
        bail!("the solve to plan is the whole --differences solve: without --discs or --parts");
    }
    if !othello.game.reachable {
        bail!("--differences values the positions reachable from the start; leave out --strong");
    }
    let game = othello.game_at(0)?;
    let squares = game.shape().len();
    // Per class, a share of the whole solve's law: the largest class of 4x6, 6x4 and 5x5 took
    // 22-25% of the time and held 23% of the positions (`results/othello/*-differences/`).
    // Memory is bounded by the whole's peak.
    const LARGEST_SHARE: f64 = 0.3;
    let whole = crate::cli::othello_cost::estimate(crate::cli::othello_cost::Job::Differences, squares);
    let cores = rayon::current_num_threads().max(1) as f64;
    let estimate = Estimate {
        memory_bytes: Some(args.job_memory.map_or(whole.peak_bytes.max(256.0 * 1048576.0), |g| g * 1073741824.0) as u64),
        seconds: args.job_time.map_or((whole.seconds * cores * LARGEST_SHARE).max(10.0), |m| m * 60.0).ceil() as u64,
        disk_bytes: (whole.disk_bytes.unwrap_or(0.0) * LARGEST_SHARE) as u64,
        basis: "the whole solve's cost law (Othello 4x5 to 5x5), a job at most 30% of it (the largest class measured)"
            .into(),
    };
    let universe = |d: usize| ClassUniverse::path(dir, &d.to_string());
    let name = |d: usize| format!("discs-{d}");
    let jobs = (4..=squares)
        .rev()
        .map(|d| {
            let (inputs, outputs, depends_on) = if d == squares {
                let outputs = (4..=squares).map(universe).chain([DifferenceTable::path(dir, d)]).collect();
                (Vec::new(), outputs, Vec::new())
            } else {
                let mut depends_on = vec![name(squares)];
                if d + 1 < squares {
                    depends_on.push(name(d + 1));
                }
                let inputs = vec![universe(d), universe(d + 1), DifferenceTable::path(dir, d + 1)];
                (inputs, vec![DifferenceTable::path(dir, d)], depends_on)
            };
            Job {
                name: name(d),
                level: 0,
                args: [args.solve.clone(), vec!["--discs".into(), d.to_string()]].concat(),
                inputs,
                outputs,
                depends_on,
                superseded_by: Vec::new(),
                estimate: estimate.clone(),
            }
        })
        .collect();
    let workdir = std::env::current_dir().context("the working directory")?;
    Ok(Plan::new(format!("{} exact differences by class of discs", game.name()), workdir, dir.to_path_buf(), jobs)?)
}

/// Othello's exact differences by thresholds (`othello --margins DIR`) as a plan: one job
/// per threshold -N..=N (N the squares), each a solve of its own into the file the
/// one-process run names (none reads another: one level, one array), then the index, which
/// reads them all and writes the margins' index.
pub(super) fn margins_plan(othello: &crate::cli::OthelloArgs, dir: &Path, args: &PlanArgs) -> Result<Plan> {
    use crate::cli::othello_cost::{self, Job as Solve};
    use crate::games::othello::margins;
    if args.parts.is_some() {
        bail!("the solve to plan is the whole --margins solve: without --parts");
    }
    let game = othello.game_at(0)?;
    let squares = othello.game.width * othello.game.height;
    let solve = if othello.game.reachable { Solve::Reachable } else { Solve::Strong };
    let one = othello_cost::estimate(solve, squares);
    let cores = rayon::current_num_threads().max(1) as f64;
    // A threshold's file against the positions it values: 4x4's largest, 471,583 bytes, scaled
    // as the positions (DFAs compress better as boards grow, so this bounds it).
    let disk = 471_583.0 * othello_cost::reachable_positions(squares) / othello_cost::reachable_positions(16);
    let estimate = Estimate {
        memory_bytes: Some(args.job_memory.map_or(one.peak_bytes.max(256.0 * 1048576.0), |g| g * 1073741824.0) as u64),
        seconds: args.job_time.map_or((one.seconds * cores).max(10.0), |m| m * 60.0).ceil() as u64,
        disk_bytes: disk as u64,
        basis: "one solve's cost law (Othello 4x4 to 5x5); its file scaled from 4x4's largest threshold".into(),
    };
    let base = without_option(&args.solve, "--margins");
    let n = squares as i32;
    let threshold_file = |t: i32| dir.join(margins::file_name(t));
    let name = |t: i32| format!("threshold{t:+}");
    let mut jobs: Vec<Job> = (-n..=n)
        .map(|t| Job {
            name: name(t),
            level: 0,
            args: [
                base.clone(),
                vec![format!("--threshold={t}"), "--out".into(), threshold_file(t).display().to_string()],
            ]
            .concat(),
            inputs: Vec::new(),
            outputs: vec![threshold_file(t)],
            depends_on: Vec::new(),
            superseded_by: Vec::new(),
            estimate: estimate.clone(),
        })
        .collect();
    jobs.push(Job {
        name: "index".into(),
        level: 1,
        args: args.solve.clone(),
        inputs: (-n..=n).map(threshold_file).collect(),
        outputs: vec![dir.join(margins::INDEX)],
        depends_on: (-n..=n).map(name).collect(),
        superseded_by: Vec::new(),
        estimate: Estimate {
            memory_bytes: Some(args.job_memory.map_or(256.0 * 1048576.0, |g| g * 1073741824.0) as u64),
            seconds: args.job_time.map_or(60.0, |m| m * 60.0).ceil() as u64,
            disk_bytes: 1 << 16,
            basis: "reads the thresholds' files and counts their sets".into(),
        },
    });
    let workdir = std::env::current_dir().context("the working directory")?;
    Ok(Plan::new(format!("{} exact differences by thresholds", game.name()), workdir, dir.to_path_buf(), jobs)?)
}

/// `args` without `option` and its value (`--option VALUE` or `--option=VALUE`).
fn without_option(args: &[String], option: &str) -> Vec<String> {
    let mut kept = Vec::with_capacity(args.len());
    let mut skip_value = false;
    for a in args {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        if a == option {
            skip_value = true;
        } else if !a.starts_with(&format!("{option}=")) {
            kept.push(a.clone());
        }
    }
    kept
}

/// A job's file checked by its format's checksum: the explicit Ostle tables (`.ranked`), the
/// Othello difference tables (`.table`), the Othello margins' index (read whole) or a dfasolve
/// bundle (everything else a plan names).
pub(super) fn check_file(path: &Path) -> crate::error::Result<()> {
    if path.extension().is_some_and(|e| e == "ranked") {
        crate::games::ostle::ranked::tables::ClassTables::verify_checksum(path)
    } else if path.extension().is_some_and(|e| e == "table") {
        crate::storage::container::verify_checksum(path)
    } else if path.file_name().is_some_and(|n| n == crate::games::othello::margins::INDEX) {
        crate::games::othello::margins::Index::read(path).map(|_| ())
    } else {
        crate::dfa::file::check_file(path).map(|_| ())
    }
}

fn job_name(class: &PositionClass) -> String {
    format!("class-{}", class.name)
}

fn has_option(args: &[String], option: &str) -> bool {
    args.iter().any(|a| a == option || a.starts_with(&format!("{option}=")))
}

/// A class job's needs, scaled from the class's positions by the laws fitted to the 121
/// class jobs of Breakthrough 5x6 (`docs/cluster.md`), each raised to the largest ratio of
/// measured to fitted seen there so that it bounds them; or as given.
fn estimate(class: &PositionClass, args: &PlanArgs) -> Estimate {
    let positions = 2.0 * class.set.count() as f64;
    let scaled = |factor: f64, exponent: f64, worst: f64| factor * positions.max(1.0).powf(exponent) * worst;
    let memory =
        args.job_memory.map_or_else(|| scaled(2.50e4, 0.358, 6.3).max(256.0 * 1048576.0), |g| g * 1073741824.0);
    let seconds = args.job_time.map_or_else(|| scaled(5.0e-6, 0.583, 13.3).max(10.0), |m| m * 60.0);
    let given = args.job_memory.is_some() || args.job_time.is_some();
    Estimate {
        memory_bytes: Some(memory as u64),
        seconds: seconds.ceil() as u64,
        disk_bytes: scaled(0.038, 0.807, 21.0).max(4096.0) as u64,
        basis: if given {
            "given by hand, and the classes of Breakthrough 5x6"
        } else {
            "the classes of Breakthrough 5x6"
        }
        .into(),
    }
}
