use super::*;

fn spec(name: &str, deps: &[&str], inputs: &[&str], outputs: &[&str]) -> Job {
    Job {
        name: name.into(),
        level: 0,
        args: vec!["nim".into(), "--class".into(), name.into()],
        inputs: inputs.iter().map(PathBuf::from).collect(),
        outputs: outputs.iter().map(PathBuf::from).collect(),
        depends_on: deps.iter().map(|d| (*d).to_string()).collect(),
        superseded_by: Vec::new(),
        estimate: Estimate { memory_bytes: Some(1 << 20), seconds: 10, disk_bytes: 1 << 10, basis: "a test".into() },
    }
}

/// A diamond: `a` below `b` and `c`, both below `d`.
fn diamond() -> Vec<Job> {
    vec![
        spec("a", &[], &[], &["d/a"]),
        spec("b", &["a"], &["d/a"], &["d/b"]),
        spec("c", &["a"], &["d/a"], &["d/c"]),
        spec("d", &["b", "c"], &["d/b", "d/c", "given"], &["d/d"]),
    ]
}

fn plan_of(jobs: Vec<Job>) -> Result<Plan> {
    Plan::new("a test".into(), PathBuf::from("/nowhere"), PathBuf::from("d"), jobs)
}

#[test]
fn levels_are_one_above_the_highest_dependency() {
    let plan = plan_of(diamond()).unwrap();
    assert_eq!(plan.jobs.iter().map(|j| j.level).collect::<Vec<_>>(), [0, 1, 1, 2]);
    assert_eq!(plan.levels(), [vec![0], vec![1, 2], vec![3]]);
    assert_eq!(plan.task(1, 1).unwrap(), 2);
    assert!(plan.task(1, 2).is_err());
    assert!(plan.task(3, 0).is_err());
    assert_eq!(plan.job_named("d").unwrap(), 3);
}

#[test]
fn plans_that_break_an_invariant_are_refused() {
    let mut later = diamond();
    later.swap(0, 1);
    assert!(plan_of(later).unwrap_err().to_string().contains("not an earlier job"));
    let mut twice = diamond();
    twice[2].name = "b".into();
    twice[3].depends_on = vec!["b".into()];
    assert!(plan_of(twice).unwrap_err().to_string().contains("two jobs are named b"));
    let mut same_output = diamond();
    same_output[2].outputs = vec!["d/b".into()];
    assert!(plan_of(same_output).unwrap_err().to_string().contains("both write"));
    let mut unordered_read = diamond();
    unordered_read[2].inputs.push("d/b".into());
    assert!(plan_of(unordered_read).unwrap_err().to_string().contains("without depending on it"));
    let mut bad_name = diamond();
    bad_name[0].name = "../a".into();
    bad_name[1].depends_on = vec!["../a".into()];
    bad_name[2].depends_on = vec!["../a".into()];
    assert!(plan_of(bad_name).unwrap_err().to_string().contains("cannot name a file"));
}

#[test]
fn a_plan_reads_back_as_written_and_a_changed_one_is_refused() {
    let dir = crate::scratch::tempdir();
    let path = dir.path().join("plan.json");
    let plan = plan_of(diamond()).unwrap();
    plan.save(&path).unwrap();
    assert_eq!(Plan::load(&path).unwrap(), plan);

    let text = std::fs::read_to_string(&path).unwrap();
    let lifted = text.replacen("\"level\": 2", "\"level\": 5", 1);
    std::fs::write(&path, lifted).unwrap();
    assert!(matches!(Plan::load(&path), Err(Error::Corrupt { .. })));

    std::fs::write(&path, text.replacen("\"version\": 1", "\"version\": 99", 1)).unwrap();
    assert!(matches!(Plan::load(&path), Err(Error::UnsupportedVersion { found: 99, .. })));
    std::fs::write(&path, "{\"format\": \"something else\"}").unwrap();
    assert!(matches!(Plan::load(&path), Err(Error::ForeignFile { .. })));
    std::fs::write(&path, [0xff, 0, 1]).unwrap();
    assert!(matches!(Plan::load(&path), Err(Error::ForeignFile { .. })));
    assert!(matches!(Plan::load(dir.path()), Err(Error::NotApplicable(_))));
}

#[test]
fn status_follows_the_files_and_locks() {
    let dir = crate::scratch::tempdir();
    let plan = Plan::new("a test".into(), dir.path().to_path_buf(), PathBuf::from("d"), diamond()).unwrap();
    let words = |plan: &Plan| Status::of(plan).jobs.iter().map(|j| j.state.word()).collect::<Vec<_>>();
    assert_eq!(words(&plan), ["ready", "waiting", "waiting", "waiting"]);
    std::fs::create_dir_all(plan.state_dir()).unwrap();
    std::fs::write(dir.path().join("d/a"), "made").unwrap();
    assert_eq!(words(&plan), ["done", "ready", "ready", "waiting"]);
    // A lock held by this process is live; one held by a process that is gone is stale.
    let lock = lock::Lock::take(&plan.state_dir().join("b.lock"), "b").unwrap();
    assert_eq!(words(&plan), ["done", "running", "ready", "waiting"]);
    assert!(lock::Lock::take(&plan.state_dir().join("b.lock"), "b").unwrap_err().to_string().contains("is running"));
    drop(lock);
    let gone = lock::Holder { host: lock::host_name(), pid: u32::MAX, slurm_job: None };
    std::fs::write(plan.state_dir().join("c.lock"), serde_json::to_string(&gone).unwrap()).unwrap();
    std::fs::write(plan.state_dir().join("b.failed"), "job b failed (exit status: 1)\n").unwrap();
    assert_eq!(words(&plan), ["done", "failed", "stale", "waiting"]);
    let status = Status::of(&plan);
    assert_eq!(status.done, 1);
    assert!((status.progress - 0.25).abs() < 1e-9);
    // The stale lock is taken over.
    drop(lock::Lock::take(&plan.state_dir().join("c.lock"), "c").unwrap());
    assert!(!plan.state_dir().join("c.lock").exists());
}

#[test]
fn slurm_scripts_ask_for_each_levels_largest_estimate() {
    let dir = crate::scratch::tempdir();
    let mut jobs = diamond();
    jobs[2].estimate.memory_bytes = Some(3 << 30);
    jobs[2].estimate.seconds = 7200;
    let plan = Plan::new("a test".into(), dir.path().to_path_buf(), PathBuf::from("d"), jobs).unwrap();
    let scripts = dir.path().join("slurm");
    let written = slurm::write_scripts(
        &plan,
        Path::new("/p/plan.json"),
        Path::new("/bin/dfa solve"),
        &scripts,
        &slurm::Request::default(),
    )
    .unwrap();
    assert_eq!(written.len(), 4);
    let level1 = std::fs::read_to_string(slurm::script_path(&scripts, 1)).unwrap();
    for line in [
        "#SBATCH --array=0-1",
        "#SBATCH --mem=3072M",
        "#SBATCH --time=0-04:00:00",
        "DFASOLVE='/bin/dfa solve'",
        "run-plan '/p/plan.json' --level 1 --task \"$SLURM_ARRAY_TASK_ID\"",
    ] {
        assert!(level1.contains(line), "{line} not in\n{level1}");
    }
    let level0 = std::fs::read_to_string(slurm::script_path(&scripts, 0)).unwrap();
    assert!(level0.contains("#SBATCH --time=0-00:10:00") && level0.contains("#SBATCH --mem=1M"), "{level0}");
    let submit = std::fs::read_to_string(scripts.join("submit.sh")).unwrap();
    assert_eq!(submit.matches("sbatch --parsable").count(), 3);
}

#[test]
fn a_job_without_a_memory_estimate_makes_its_level_ask_for_a_whole_node() {
    let dir = crate::scratch::tempdir();
    let mut jobs = diamond();
    jobs[1].estimate.memory_bytes = None;
    let plan = Plan::new("a test".into(), dir.path().to_path_buf(), PathBuf::from("d"), jobs).unwrap();
    let summary = plan.summary();
    assert_eq!((summary.whole_node_jobs, summary.peak_memory_bytes), (1, 1 << 20));
    let scripts = dir.path().join("slurm");
    slurm::write_scripts(&plan, Path::new("/p/plan.json"), Path::new("/bin/dfasolve"), &scripts, &Default::default())
        .unwrap();
    let level1 = std::fs::read_to_string(slurm::script_path(&scripts, 1)).unwrap();
    assert!(level1.contains("#SBATCH --mem=0\n"), "{level1}");
    let level0 = std::fs::read_to_string(slurm::script_path(&scripts, 0)).unwrap();
    assert!(level0.contains("#SBATCH --mem=1M\n"), "{level0}");
}
