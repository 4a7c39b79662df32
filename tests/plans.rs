//! Plans of class jobs (`dfasolve plan`, `dfasolve run-plan`): run here they make the files
//! of the one-process solve byte for byte; a job is idempotent, refuses damaged inputs, and a
//! failed job stops the jobs after it.

use std::path::Path;
use std::process::{Command, Output};

fn dfasolve_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dfasolve")).args(args).current_dir(dir).output().expect("run dfasolve")
}

fn said(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn ok(out: Output) -> String {
    assert!(out.status.success(), "{}", said(&out));
    said(&out)
}

/// The `.dfas` files of `dir`, by name.
fn class_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files_ending(dir, "dfas")
}

/// The files of `dir` with extension `extension`, by name, with their bytes.
fn files_ending(dir: &Path, extension: &str) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == extension))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    files.sort();
    files
}

#[test]
fn a_plan_run_here_makes_the_files_of_the_one_process_solve() {
    let games: [&[&str]; 5] = [
        &["breakthrough", "--width", "3", "--height", "4"],
        &["breakthrough", "--width", "3", "--height", "4", "--reachable"],
        &["nim", "--heaps", "3", "--tokens", "3"],
        &["ostle", "--width", "3", "--height", "3", "--pieces", "2", "--lose-at", "1"],
        &["othello", "--width", "4", "--height", "4", "--reachable"],
    ];
    for game in games {
        let tmp = crate::scratch::tempdir();
        let one = [game, &["--by-classes", "one", "--quiet", "--no-save"]].concat();
        ok(dfasolve_in(tmp.path(), &one));
        let plan = ok(dfasolve_in(tmp.path(), &[&["plan"], game, &["--by-classes", "planned"]].concat()));
        assert!(plan.contains("jobs in"), "{plan}");
        let ran = ok(dfasolve_in(tmp.path(), &["run-plan", "planned/plan.json", "--jobs", "2"]));
        assert!(ran.contains("0 failed"), "{ran}");
        let (made, expected) = (class_files(&tmp.path().join("planned")), class_files(&tmp.path().join("one")));
        assert!(!expected.is_empty());
        assert_eq!(
            made.iter().map(|f| &f.0).collect::<Vec<_>>(),
            expected.iter().map(|f| &f.0).collect::<Vec<_>>(),
            "{game:?}"
        );
        assert!(made == expected, "{game:?}: the class files differ from the one-process solve's");
        let status = ok(dfasolve_in(tmp.path(), &["run-plan", "planned/plan.json", "--status"]));
        assert!(status.contains("100.0% of the estimated work"), "{status}");
    }
}

#[test]
fn a_job_is_idempotent_refuses_a_damaged_input_and_stops_the_jobs_after_it() {
    let tmp = crate::scratch::tempdir();
    let game = ["breakthrough", "--width", "3", "--height", "4"];
    ok(dfasolve_in(tmp.path(), &[&["plan"], &game[..], &["--by-classes", "d"]].concat()));
    let plan = "d/plan.json";
    assert!(ok(dfasolve_in(tmp.path(), &["run-plan", plan, "--level", "0", "--task", "0"])).contains("ran"));
    assert!(ok(dfasolve_in(tmp.path(), &["run-plan", plan, "--level", "0", "--task", "0"])).contains("already done"));

    // A job whose input is missing says which job makes it.
    let status = ok(dfasolve_in(tmp.path(), &["run-plan", plan, "--status", "--json"]));
    let status: serde_json::Value = serde_json::from_str(status.lines().next().unwrap()).unwrap();
    let waiting = status["status"]["jobs"].as_array().unwrap().iter().find(|j| j["state"] == "waiting").unwrap();
    let name = waiting["name"].as_str().unwrap();
    let refused = dfasolve_in(tmp.path(), &["run-plan", plan, "--job", name]);
    assert!(!refused.status.success());
    assert!(
        said(&refused).contains("refuses to start: its input") && said(&refused).contains("is missing (job"),
        "{}",
        said(&refused)
    );

    // A damaged input: the job refuses with the file and why; the run of the whole plan
    // reports the damaged output and runs none of the jobs that read it.
    let lowest = tmp.path().join("d/class-0v0.dfas");
    let mut bytes = std::fs::read(&lowest).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&lowest, bytes).unwrap();
    let level1 = dfasolve_in(tmp.path(), &["run-plan", plan, "--level", "1", "--task", "0"]);
    assert!(!level1.status.success());
    let text = said(&level1);
    assert!(text.contains("refuses to start") && text.contains("checksum"), "{text}");
    assert_eq!(text.trim().lines().count(), 1, "one line: {text}");
    let whole = dfasolve_in(tmp.path(), &["run-plan", plan, "--jobs", "2"]);
    assert!(!whole.status.success());
    let text = said(&whole);
    assert!(text.contains("damaged") && text.contains("not run"), "{text}");
    assert!(!tmp.path().join("d/class-1v1.dfas").exists());

    // Removed, the damaged file is made again and the plan finishes; run again, nothing runs.
    std::fs::remove_file(&lowest).unwrap();
    ok(dfasolve_in(tmp.path(), &["run-plan", plan, "--jobs", "2"]));
    let again = ok(dfasolve_in(tmp.path(), &["run-plan", plan]));
    assert!(again.contains(": 0 jobs run,"), "{again}");
}

#[test]
fn a_lock_left_by_a_killed_job_is_taken_over_and_a_live_one_is_respected() {
    let tmp = crate::scratch::tempdir();
    ok(dfasolve_in(tmp.path(), &["plan", "nim", "--heaps", "2", "--tokens", "2", "--by-classes", "d"]));
    let jobs = tmp.path().join("d/jobs");
    std::fs::create_dir_all(&jobs).unwrap();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    // A pid no process has (above the kernel's maximum).
    let gone = format!("{{\"host\":\"{}\",\"pid\":4294967295,\"slurm_job\":null}}", host.trim());
    std::fs::write(jobs.join("class-0.lock"), gone).unwrap();
    let status = ok(dfasolve_in(tmp.path(), &["run-plan", "d/plan.json", "--status"]));
    assert!(status.contains("class-0 stale"), "{status}");
    ok(dfasolve_in(tmp.path(), &["run-plan", "d/plan.json", "--job", "class-0"]));
    assert!(!jobs.join("class-0.lock").exists());

    let live = format!("{{\"host\":\"{}\",\"pid\":{},\"slurm_job\":null}}", host.trim(), std::process::id());
    std::fs::write(jobs.join("class-1.lock"), live).unwrap();
    let refused = dfasolve_in(tmp.path(), &["run-plan", "d/plan.json", "--job", "class-1"]);
    assert!(!refused.status.success() && said(&refused).contains("is running"), "{}", said(&refused));
}

#[test]
fn plans_of_what_has_no_jobs_are_refused_with_one_line() {
    let tmp = crate::scratch::tempdir();
    std::fs::write(tmp.path().join("not-a-plan.json"), "{\"format\": \"other\"}").unwrap();
    for (args, says) in [
        (&["plan", "breakthrough", "--width", "3", "--height", "4"][..], "--by-classes"),
        (
            &["plan", "breakthrough", "--width", "3", "--height", "4", "--by-classes", "d", "--class", "1v1"],
            "without --class",
        ),
        (&["plan", "chess", "--by-classes", "d"], "the solve to plan"),
        (&["plan", "stats", "x.dfas"], "takes a solve command"),
        (&["plan", "nim", "--heaps", "2", "--tokens", "2", "--by-classes", "d", "--csv", "r.csv"], "same file"),
        (&["run-plan", "not-a-plan.json"], "not a dfasolve file"),
        (&["run-plan", "missing.json"], "missing.json"),
        (&["run-plan", "/dev/null"], "not a plan file"),
    ] {
        let out = dfasolve_in(tmp.path(), args);
        let text = said(&out);
        assert!(!out.status.success(), "{args:?}: {text}");
        assert!(text.contains(says), "{args:?}: {text}");
        assert_eq!(text.trim().lines().count(), 1, "{args:?}: one line: {text}");
    }
    // Another solve's plan is not replaced unasked.
    ok(dfasolve_in(tmp.path(), &["plan", "nim", "--heaps", "2", "--tokens", "2", "--by-classes", "d"]));
    let other = dfasolve_in(tmp.path(), &["plan", "nim", "--heaps", "3", "--tokens", "2", "--by-classes", "d"]);
    assert!(!other.status.success() && said(&other).contains("plan of another solve"), "{}", said(&other));
}

/// A meet in the middle planned as ply parts: the forward job first, then every backup ply
/// cut into parts run side by side and their union; the solution is the one-process solve's
/// byte for byte, whatever the number of parts, and the parts' files are gone with their ply.
#[test]
fn a_meet_in_the_middle_in_ply_parts_gives_the_one_process_solution() {
    for (game, parts) in [
        (&["breakthrough", "--width", "4", "--height", "4"][..], "8"),
        (&["breakthrough", "--width", "3", "--height", "5"][..], "3"),
        (&["nim", "--heaps", "3", "--tokens", "3"][..], "2"),
    ] {
        let tmp = crate::scratch::tempdir();
        ok(dfasolve_in(tmp.path(), &[game, &["--out", "one.dfas", "--quiet"]].concat()));
        let plan = [&["plan", "--parts", parts][..], game, &["--checkpoint", "ck", "--out", "planned.dfas"]].concat();
        let first = ok(dfasolve_in(tmp.path(), &plan));
        assert!(first.contains("1 jobs in 1 levels") && first.contains("plan again"), "{first}");
        ok(dfasolve_in(tmp.path(), &["run-plan", "ck/plan.json"]));
        let second = ok(dfasolve_in(tmp.path(), &plan));
        assert!(!second.contains("1 jobs in 1 levels"), "{second}");
        ok(dfasolve_in(tmp.path(), &["run-plan", "ck/plan.json", "--jobs", "2"]));
        let (planned, one) = (
            std::fs::read(tmp.path().join("planned.dfas")).unwrap(),
            std::fs::read(tmp.path().join("one.dfas")).unwrap(),
        );
        assert!(planned == one, "{game:?} in {parts} parts: the solution differs from the one-process solve's");
        let left: Vec<_> = std::fs::read_dir(tmp.path().join("ck"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("-part-"))
            .collect();
        assert!(left.is_empty(), "part files left: {left:?}");
        let status = ok(dfasolve_in(tmp.path(), &["run-plan", "ck/plan.json", "--status"]));
        assert!(status.contains("100.0% of the estimated work"), "{status}");
    }
}

/// A step of a meet in the middle refuses what it cannot do: a ply whose later plies are
/// not backed up, a ply the backup does not have, a strong solve.
#[test]
fn a_meet_step_out_of_order_is_refused() {
    let tmp = crate::scratch::tempdir();
    let game = ["breakthrough", "--width", "3", "--height", "4", "--checkpoint", "ck", "--quiet"];
    let step = |job: &str| dfasolve_in(tmp.path(), &[&game[..], &["--meet-job", job]].concat());
    ok(step("forward"));
    let early = step("ply-0-part-0-of-2");
    assert!(!early.status.success() && said(&early).contains("must be backed up first"), "{}", said(&early));
    let past = step("ply-999-of-2");
    assert!(!past.status.success() && said(&past).contains("the backup has plies 0 to"), "{}", said(&past));
    let strong = dfasolve_in(tmp.path(), &[&game[..], &["--strong", "--meet-job", "forward"]].concat());
    assert!(!strong.status.success() && said(&strong).contains("this solve is strong"), "{}", said(&strong));
    let unchecked =
        dfasolve_in(tmp.path(), &["breakthrough", "--width", "3", "--height", "4", "--meet-job", "forward"]);
    assert!(!unchecked.status.success() && said(&unchecked).contains("--checkpoint"), "{}", said(&unchecked));
}

/// The explicit Ostle tables by rank planned class by class: the tables of the one-process
/// solve, byte for byte, each job checking the tables below it by their own checksums.
#[test]
fn the_explicit_ostle_tables_planned_are_those_of_the_one_process_solve() {
    let tmp = crate::scratch::tempdir();
    let variant = ["--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1", "--rule", "class"];
    ok(dfasolve_in(tmp.path(), &[&["explicit", "ostle"][..], &variant, &["--tables", "one", "--quiet"]].concat()));
    ok(dfasolve_in(tmp.path(), &[&["plan", "explicit", "ostle"][..], &variant, &["--tables", "planned"]].concat()));
    ok(dfasolve_in(tmp.path(), &["run-plan", "planned/plan.json", "--jobs", "2"]));
    let tables = |dir: &str| files_ending(&tmp.path().join(dir), "ranked");
    let (planned, one) = (tables("planned"), tables("one"));
    assert_eq!(planned.len(), 3);
    assert!(planned == one, "the planned tables differ from the one-process solve's");
    // A damaged table below stops the class above it with the checksum's error.
    let lowest = tmp.path().join("planned/class-2v2.ranked");
    let mut bytes = std::fs::read(&lowest).unwrap();
    let at = bytes.len() - 10;
    bytes[at] ^= 1;
    std::fs::write(&lowest, bytes).unwrap();
    std::fs::remove_file(tmp.path().join("planned/class-3v3.ranked")).unwrap();
    let refused = dfasolve_in(tmp.path(), &["run-plan", "planned/plan.json", "--job", "class-3v3"]);
    assert!(!refused.status.success() && said(&refused).contains("refuses to start"), "{}", said(&refused));
}

/// Othello's exact differences planned class by class, from the full board down: the
/// universes and tables of the one-process solve, byte for byte; a class whose class above
/// is not made is refused in one line, and the report afterwards reads every table.
#[test]
fn the_othello_differences_planned_are_those_of_the_one_process_solve() {
    let tmp = crate::scratch::tempdir();
    let board = ["othello", "--width", "4", "--height", "3"];
    ok(dfasolve_in(tmp.path(), &[&board[..], &["--differences", "one", "--quiet"]].concat()));
    let early = dfasolve_in(tmp.path(), &[&board[..], &["--differences", "early", "--discs", "8"]].concat());
    assert!(!early.status.success() && said(&early).contains("reads the class above it"), "{}", said(&early));
    ok(dfasolve_in(tmp.path(), &[&["plan"][..], &board, &["--differences", "planned"]].concat()));
    ok(dfasolve_in(tmp.path(), &["run-plan", "planned/plan.json", "--jobs", "2"]));
    for extension in ["table", "dfas"] {
        let (planned, one) =
            (files_ending(&tmp.path().join("planned"), extension), files_ending(&tmp.path().join("one"), extension));
        assert_eq!(planned.len(), 9, "{extension}: a file per class of 4 to 12 discs");
        assert!(planned == one, "the planned .{extension} files differ from the one-process solve's");
    }
    let report = ok(dfasolve_in(tmp.path(), &[&board[..], &["--differences", "planned", "--json"]].concat()));
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(report["start_difference"], 12, "the published 4x3 win by 12");
    assert!(report["classes"].as_array().unwrap().iter().all(|c| c["already_solved"] == true));
}

/// Othello's exact differences by thresholds planned as a job per threshold and an index:
/// the thresholds' files of the one-process solve, byte for byte, and its index but for the
/// solve times (the index job reads the thresholds, it does not time them); a damaged
/// threshold stops its job, and the index is not made.
#[test]
fn the_othello_margins_planned_are_those_of_the_one_process_solve() {
    let tmp = crate::scratch::tempdir();
    let board = ["othello", "--width", "4", "--height", "3"];
    ok(dfasolve_in(tmp.path(), &[&board[..], &["--margins", "one", "--quiet"]].concat()));
    let planned = ok(dfasolve_in(tmp.path(), &[&["plan"][..], &board, &["--margins", "planned"]].concat()));
    assert!(planned.contains("26 jobs in 2 levels (the widest 25 jobs)"), "{planned}");
    ok(dfasolve_in(tmp.path(), &["run-plan", "planned/plan.json", "--jobs", "2"]));
    let (planned, one) =
        (files_ending(&tmp.path().join("planned"), "dfas"), files_ending(&tmp.path().join("one"), "dfas"));
    assert_eq!(planned.len(), 25, "a file per threshold -12..=12");
    assert!(planned == one, "the planned thresholds differ from the one-process solve's");
    let index = |dir: &str| -> serde_json::Value {
        let mut index: serde_json::Value =
            serde_json::from_slice(&std::fs::read(tmp.path().join(dir).join("margins.json")).unwrap()).unwrap();
        for t in index["thresholds"].as_array_mut().unwrap() {
            t["wall_s"] = serde_json::Value::Null;
        }
        index
    };
    assert_eq!(index("planned"), index("one"));
    assert_eq!(index("planned")["start_difference"], 12, "the published 4x3 win by 12");
    let answer = ok(dfasolve_in(tmp.path(), &["query", "planned", ".ox./.xo./.... black"]));
    assert!(answer.contains("final score +12"), "{answer}");
    std::fs::remove_file(tmp.path().join("planned/margins.json")).unwrap();
    let threshold = tmp.path().join("planned/threshold+0.dfas");
    let mut bytes = std::fs::read(&threshold).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&threshold, bytes).unwrap();
    let refused = dfasolve_in(tmp.path(), &["run-plan", "planned/plan.json", "--jobs", "2"]);
    let why = said(&refused);
    assert!(!refused.status.success() && why.contains("threshold+0") && why.contains("damaged"), "{why}");
    assert!(why.contains("1 job(s) after them not run") && !tmp.path().join("planned/margins.json").exists(), "{why}");
}
