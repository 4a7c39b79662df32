//! The binary end to end: bad input gives a one-line error and a non-zero exit (never a
//! panic); solutions are saved, queried and checked; interrupted runs resume to the same result.
use dfasolve::solver::StepKey;
use std::path::Path;
use std::process::{Command, Output};

pub(crate) fn dfasolve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dfasolve")).args(args).output().expect("run dfasolve")
}

pub(crate) fn assert_clean_error(out: &Output, needle: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "expected failure, got success; stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    assert!(stderr.to_lowercase().contains(needle), "stderr {stderr:?} should mention {needle:?}");
}

#[test]
fn bad_input_is_a_clear_error() {
    assert_clean_error(&dfasolve(&["breakthrough", "--width", "3", "--height", "3", "--no-save"]), "height");
    assert_clean_error(&dfasolve(&["breakthrough", "--width", "0", "--height", "5", "--no-save"]), "width");
    assert_clean_error(&dfasolve(&["nim", "--heaps", "0", "--tokens", "3", "--no-save"]), "heaps");
    assert_clean_error(&dfasolve(&["nim", "--heaps", "2", "--tokens", "300", "--no-save"]), "tokens");
    assert_clean_error(&dfasolve(&["chess"]), "unrecognized subcommand");
    let dir = crate::scratch::tempdir();
    let missing = dir.path().join("missing.dfas");
    assert_clean_error(&dfasolve(&["stats", missing.to_str().unwrap()]), "no such file");
    let foreign = dir.path().join("foreign.dfas");
    std::fs::write(&foreign, b"not a solution at all").unwrap();
    assert_clean_error(&dfasolve(&["query", foreign.to_str().unwrap(), "1,2 first"]), "not a dfasolve file");
    // A check of nothing passes nothing; a budget must be a finite size.
    assert_clean_error(&dfasolve(&["check", foreign.to_str().unwrap(), "--sample", "0"]), "from 1 up");
    for bad in ["nan", "inf", "-1", "1e30"] {
        let flag = format!("--max-memory={bad}");
        assert_clean_error(&dfasolve(&["nim", "--heaps", "2", "--tokens", "3", "--no-save", &flag]), "number of gib");
        assert_clean_error(&dfasolve(&["explicit", "ostle", &flag]), "number of gib");
    }
}

/// Progress is said once, through `tracing`, and shown as asked: a line per solver step with
/// `--progress`, nothing with `--json` or `--quiet`, stamped lines from the explicit solver.
#[test]
fn progress_is_shown_as_asked() {
    let stderr = |args: &[&str]| {
        let out = dfasolve(args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let bt = ["breakthrough", "--width", "3", "--height", "4", "--strong", "--no-save"];
    let lines = stderr(&[&bt[..], &["--progress"]].concat());
    assert!(
        lines.lines().any(|l| l.contains("backward") && l.contains("new_win") && l.contains("positions")),
        "{lines}"
    );
    assert_eq!(lines.lines().count(), lines.lines().filter(|l| l.starts_with('[')).count(), "{lines}");
    let beside_json = stderr(&[&bt[..], &["--progress", "--json"]].concat());
    assert!(beside_json.lines().any(|l| l.contains("new_win")), "--progress is shown beside --json: {beside_json}");
    assert_eq!(stderr(&[&bt[..], &["--json"]].concat()), "");
    assert_eq!(stderr(&[&bt[..], &["--progress", "--quiet"]].concat()), "");
    assert_eq!(stderr(&bt), "", "stderr is not a terminal: nothing unless asked");
    let dir = crate::scratch::tempdir();
    let t = dir.path().join("t");
    let explicit = ["explicit", "ostle", "--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1"];
    let stamped = stderr(&[&explicit[..], &["--rule", "class", "--tables", t.to_str().unwrap(), "--json"]].concat());
    assert!(stamped.lines().any(|l| l.starts_with("[") && l.ends_with("class 2v2")), "{stamped}");
    let quiet = stderr(&[&explicit[..], &["--rule", "class", "--tables", t.to_str().unwrap(), "--quiet"]].concat());
    assert_eq!(quiet, "");
}

/// `ostle --no-census` reports the solve without the census of its values (the same value of
/// the start); the census is there by default.
#[test]
fn ostle_solve_without_its_census() {
    let game = ["ostle", "--width", "3", "--height", "3", "--pieces", "2", "--lose-at", "1", "--no-save", "--json"];
    let report = |extra: &[&str]| -> serde_json::Value {
        let out = dfasolve(&[&game[..], extra].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let (with, without) = (report(&[]), report(&["--no-census"]));
    assert!(with.get("census").is_some() && without.get("census").is_none(), "{without}");
    assert_eq!(with["initial_value"], without["initial_value"]);
    assert_clean_error(&dfasolve(&[&game[..], &["--no-census", "--census"]].concat()), "cannot be used with");
}

/// `othello --plies` counts positions per ply from the start; it solves nothing, so solve
/// options are refused.
#[test]
fn othello_positions_per_ply() {
    let out = dfasolve(&["othello", "--width", "4", "--height", "4", "--plies", "3", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let counts: Vec<u64> = v["plies"].as_array().unwrap().iter().map(|p| p["positions"].as_u64().unwrap()).collect();
    assert_eq!(counts, [1, 4, 12, 42]);
    assert_clean_error(&dfasolve(&["othello", "--plies", "3", "--margin"]), "cannot be used with");
    assert_clean_error(&dfasolve(&["othello", "--plies", "3", "--out", "x.dfas"]), "cannot be used with");
    // By hash sets: the same counts from the start to the end of every game, said when the
    // plies run out; a budget too small for the next ply stops cleanly.
    let by_dfa = dfasolve(&["othello", "--width", "4", "--height", "4", "--plies", "40", "--json"]);
    let by_sets = dfasolve(&["othello", "--width", "4", "--height", "4", "--plies", "40", "--explicit", "--json"]);
    let counts = |out: &std::process::Output| -> Vec<u64> {
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["plies"].as_array().unwrap().iter().map(|p| p["positions"].as_u64().unwrap()).filter(|&c| c > 0).collect()
    };
    assert!(by_sets.status.success(), "{}", String::from_utf8_lossy(&by_sets.stderr));
    assert_eq!(counts(&by_sets), counts(&by_dfa));
    let v: serde_json::Value = serde_json::from_slice(&by_sets.stdout).unwrap();
    assert!(v["stopped"].as_str().unwrap().starts_with("every game has ended"), "{v}");
    let tight =
        dfasolve(&["othello", "--width", "8", "--height", "8", "--plies", "12", "--explicit", "--max-memory", "0.05"]);
    assert_clean_error(&tight, "over the --max-memory budget");
    assert_clean_error(&dfasolve(&["othello", "--explicit"]), "--plies");
}

#[test]
fn solve_save_query_check_and_corruption() {
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("bt.dfas");
    let f = file.to_str().unwrap();
    let out = dfasolve(&["breakthrough", "--width", "3", "--height", "4", "--strong", "--quiet", "--out", f]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("second player (P2) wins"));
    let q = dfasolve(&["query", f, "xxx/xxx/ooo/ooo first"]);
    let text = String::from_utf8_lossy(&q.stdout);
    assert!(q.status.success() && text.contains("loss in 12 plies"), "{text}");
    assert!(text.contains("a2xb3  win in 11 plies"), "moves are listed: {text}");
    assert_clean_error(&dfasolve(&["query", f, "xxx/xxx/ooo first"]), "bad position");
    assert_clean_error(&dfasolve(&["query", f, "xxx/xqx/.../ooo first"]), "bad position");
    let c = dfasolve(&["check", f, "--sample", "300"]);
    assert!(
        c.status.success() && String::from_utf8_lossy(&c.stdout).contains("check passed"),
        "{}",
        String::from_utf8_lossy(&c.stderr)
    );
    let s = dfasolve(&["stats", f, "--json"]);
    assert!(s.status.success());
    let json: serde_json::Value = serde_json::from_slice(&s.stdout).unwrap();
    assert!(json["total_positions"].as_u64().unwrap() > 0);
    // Damage the file: a clear error naming the problem, never a panic.
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    assert_clean_error(&dfasolve(&["query", f, "xxx/xxx/ooo/ooo first"]), "checksum");
    bytes.truncate(100);
    std::fs::write(&file, &bytes).unwrap();
    assert_clean_error(&dfasolve(&["stats", f]), "corrupt");
}

#[test]
fn json_report_has_the_figures() {
    let out = dfasolve(&["nim", "--heaps", "3", "--tokens", "4", "--json", "--no-save"]);
    assert!(out.status.success());
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["per_ply_reachable"], serde_json::json!([1, 12, 57, 115, 105, 90, 72, 53, 35, 20, 10, 4, 1]));
    for key in
        ["initial_value", "wall_s", "peak_rss_bytes", "largest_dfa", "positions_solved", "positions_per_byte", "steps"]
    {
        assert!(!r[key].is_null(), "missing {key}");
    }
}

/// Stop a checkpointing run of `game_args` right after it saves step `stop_after` (as a kill
/// there would stop it), resume it, and compare with a run that was never stopped: the saved
/// solutions must be byte-identical, and a finished run leaves no journal. Returns the names
/// the stop left and the resumed run's log of journals read.
fn stopped_run_resumes(game_args: &[&str], stop_after: &str) -> (Vec<String>, String) {
    let dir = crate::scratch::tempdir();
    let ck = dir.path().join("ck");
    let (full, resumed) = (dir.path().join("full.dfas"), dir.path().join("resumed.dfas"));
    let args = |out: &Path, ck: Option<&Path>| {
        let mut a: Vec<String> = game_args.iter().map(|s| s.to_string()).collect();
        a.extend(["--quiet".into(), "--out".into(), out.to_str().unwrap().into()]);
        if let Some(c) = ck {
            a.push("--checkpoint".into());
            a.push(c.to_str().unwrap().into());
        }
        a
    };
    let saved = |ck: &Path| -> Vec<String> {
        std::fs::read_dir(ck)
            .map(|d| {
                d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".dfas"))
                    .collect()
            })
            .unwrap_or_default()
    };
    assert!(Command::new(env!("CARGO_BIN_EXE_dfasolve")).args(args(&full, None)).output().unwrap().status.success());
    let stopped = Command::new(env!("CARGO_BIN_EXE_dfasolve"))
        .args(args(&resumed, Some(&ck)))
        .env(dfasolve::cli::STOP_AFTER, stop_after)
        .output()
        .unwrap();
    assert_eq!(
        stopped.status.code(),
        Some(i32::from(dfasolve::cli::STOPPED_EXIT_CODE)),
        "the run stops after {stop_after}: {}",
        String::from_utf8_lossy(&stopped.stderr)
    );
    assert!(!resumed.exists(), "a stopped run writes no solution");
    let left = saved(&ck);
    assert!(left.contains(&format!("{stop_after}.dfas")), "{stop_after} was saved: {left:?}");
    // A stale journal of a checkpointed iteration, as a stop between the checkpoint and the
    // removal of its journals leaves: the resumed run removes it unread.
    let iteration = |n: &&String| matches!(n.trim_end_matches(".dfas").parse(), Ok(StepKey::Backward { .. }));
    if let Some(done) = left.iter().find(iteration) {
        let step: StepKey = done.trim_end_matches(".dfas").parse().unwrap();
        let stale = step.journal(dfasolve::vocabulary::Side::First, dfasolve::solver::JournalPart::Wins);
        std::fs::copy(ck.join(done), ck.join(format!("{stale}.dfas"))).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_dfasolve"))
        .args(args(&resumed, Some(&ck)))
        .env("DFASOLVE_LOG", "dfasolve::journal=info")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&full).unwrap(), std::fs::read(&resumed).unwrap(), "resumed solution differs");
    let after = saved(&ck);
    assert!(!after.iter().any(|n| is_journal(n)), "a finished run leaves no journal: {after:?}");
    (left, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Whether checkpoint file `name` is an image's or a filter's journal, or parked sets.
fn is_journal(name: &str) -> bool {
    let key: StepKey = name.strip_suffix(".dfas").unwrap().parse().unwrap();
    key.is_journal()
}

/// [`stopped_run_resumes`], stopped inside an image, right after its first journal
/// `journal` is saved: the resumed run reads it.
fn stopped_inside_an_image_resumes(game_args: &[&str], journal: &str) {
    let (left, log) = stopped_run_resumes(game_args, journal);
    let StepKey::Journal { step, .. } = journal.parse().unwrap() else { panic!("{journal} is not a journal") };
    assert!(!left.contains(&format!("{step}.dfas")), "the stop is inside {step}: {left:?}");
    assert!(log.contains("resuming after"), "the resumed run read the journal of {left:?}: {log}");
}

#[test]
fn stopped_run_resumes_to_the_same_result() {
    let (left, _) =
        stopped_run_resumes(&["breakthrough", "--width", "4", "--height", "5", "--strong"], "backward-0004");
    assert!(left.iter().any(|n| n == "backward-0001.dfas"), "the earlier iterations are kept: {left:?}");
}

/// Ostle's checkpoints hold one side only (mover-relative strings).
#[test]
fn stopped_ostle_run_resumes_to_the_same_result() {
    let game = ["ostle", "--width", "3", "--height", "4", "--pieces", "2", "--lose-at", "1"];
    let (left, _) = stopped_run_resumes(&game, "backward-0004");
    assert!(left.iter().any(|n| n == "backward-0001.dfas"), "the earlier iterations are kept: {left:?}");
}

/// With `--journal-every 0` a retrograde image saves its progress after every move group:
/// a run stopped inside an image resumes from there, to the same solution, and a finished
/// iteration's journals are gone.
#[test]
fn run_stopped_inside_an_image_resumes_from_its_journal() {
    let game = ["ostle", "--width", "3", "--height", "4", "--pieces", "2", "--lose-at", "1", "--journal-every", "0"];
    stopped_inside_an_image_resumes(&game, "backward-0003-first-wins");
    let dir = crate::scratch::tempdir();
    let ck = dir.path().join("ck");
    let args = [&game[..], &["--quiet", "--no-save", "--checkpoint", ck.to_str().unwrap()]].concat();
    assert!(dfasolve(&args).status.success());
    let files: Vec<String> =
        std::fs::read_dir(&ck).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(files.iter().any(|n| n.starts_with("backward-")), "{files:?}");
    assert!(!files.iter().any(|n| is_journal(n)), "journals of finished iterations are removed: {files:?}");
}

/// An Ostle run whose escape filters all go by hole square (`--filter-parts-above 0`), stopped
/// once a filter's journal of parts is written, resumes from it to the same solution, which
/// is byte-identical to the one of whole filters.
#[test]
fn run_stopped_inside_a_filter_by_parts_resumes_from_its_journal() {
    let game = [
        "ostle",
        "--width",
        "3",
        "--height",
        "4",
        "--pieces",
        "2",
        "--lose-at",
        "1",
        "--journal-every",
        "0",
        "--filter-parts-above",
        "0",
    ];
    stopped_inside_an_image_resumes(&game, "backward-0004-first-losses-by-part");
    let dir = crate::scratch::tempdir();
    let (whole, parts) = (dir.path().join("whole.dfas"), dir.path().join("parts.dfas"));
    assert!(dfasolve(&[&game[..9], &["--quiet", "--out", whole.to_str().unwrap()]].concat()).status.success());
    assert!(dfasolve(&[&game[..], &["--quiet", "--out", parts.to_str().unwrap()]].concat()).status.success());
    assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&parts).unwrap(), "by parts or whole, the same solution");
}

/// A meet in the middle whose backup plies are each cut into many regions gives the same
/// solution, byte for byte, as one of whole plies; stopped right after a ply's journal of
/// regions is saved, it resumes from that journal to the same solution.
#[test]
fn backup_by_regions_gives_the_same_solution_and_resumes_inside_a_ply() {
    let game = ["breakthrough", "--width", "3", "--height", "5", "--journal-every", "0"];
    let dir = crate::scratch::tempdir();
    let (whole, cut) = (dir.path().join("whole.dfas"), dir.path().join("cut.dfas"));
    assert!(dfasolve(&[&game[..], &["--quiet", "--out", whole.to_str().unwrap()]].concat()).status.success());
    let many = [&game[..], &["--backup-parts", "16", "--quiet", "--out", cut.to_str().unwrap()]].concat();
    assert!(dfasolve(&many).status.success());
    assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&cut).unwrap(), "cut or whole, the same solution");
    let parted = [&game[..], &["--backup-parts", "16"]].concat();
    stopped_inside_an_image_resumes(&parted, "backup-0010-first-wins");
    // Stopped after the retrograde pass, a forward ply or a backup ply, it resumes too.
    for step in ["backward-0002", "forward-0005", "backup-0012"] {
        let (left, _) = stopped_run_resumes(&parted, step);
        assert!(left.iter().any(|n| n == "forward-0001.dfas") || step == "backward-0002", "{step}: {left:?}");
    }
}

/// Backup checkpoints as older builds wrote them still resume to the same solution: each
/// ply's new wins and losses (`tests/data/backup-by-ply-4x4`), and before that the positions
/// valued, then their wins and losses, with no record of the ply's parts; and each ply's new
/// wins beside the running losses' files (`tests/data/backup-wins-and-loss-files-4x4`). The lower half of
/// the plies is left out, so the run reads the old files back and then writes its own.
#[test]
fn backup_checkpoints_of_older_builds_still_resume() {
    use dfasolve::dfa::file::{Bundle, save_entries};
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/backup-by-ply-4x4");
    let dir = crate::scratch::tempdir();
    let run = |out: &Path, ck: Option<&Path>| {
        let mut args = vec!["breakthrough", "--width", "4", "--height", "4", "--quiet", "--out", out.to_str().unwrap()];
        if let Some(ck) = ck {
            args.extend(["--checkpoint", ck.to_str().unwrap()]);
        }
        let out = dfasolve(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    let plain = dir.path().join("plain.dfas");
    run(&plain, None);
    for three_sets in [false, true] {
        let ck = dir.path().join(format!("ck-{three_sets}"));
        std::fs::create_dir(&ck).unwrap();
        let mut copied = 0;
        for entry in std::fs::read_dir(&data).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let ply: u32 = name.trim_start_matches("backup-").trim_end_matches(".dfas").parse().unwrap();
            if ply < 8 {
                continue;
            }
            let old = Bundle::load(&path).unwrap();
            assert_eq!(old.entries.len(), 2, "{name}: new wins and new losses");
            if three_sets {
                let mut meta: serde_json::Value = serde_json::from_str(&old.meta).unwrap();
                meta.as_object_mut().unwrap().remove("record");
                let [(_, win), (_, loss)] = <[(String, dfasolve::dfa::Dfa); 2]>::try_from(old.entries).unwrap();
                let new = win.union(&loss).unwrap();
                let entries = [("new", &new), ("new_win", &win), ("new_loss", &loss)];
                save_entries(&ck.join(&name), &meta.to_string(), &entries).unwrap();
            } else {
                std::fs::copy(&path, ck.join(&name)).unwrap();
            }
            copied += 1;
        }
        assert_eq!(copied, 9, "plies 8-16");
        let resumed = dir.path().join(format!("resumed-{three_sets}.dfas"));
        run(&resumed, Some(&ck));
        assert_eq!(std::fs::read(&plain).unwrap(), std::fs::read(&resumed).unwrap(), "resumed solution differs");
        let old_kept = Bundle::load(&ck.join("backup-0008.dfas")).unwrap().entries.len();
        let new_written = Bundle::load(&ck.join("backup-0007.dfas")).unwrap().entries.len();
        assert_eq!((old_kept, new_written), (if three_sets { 3 } else { 2 }, 0), "a ply's checkpoint keeps no set");
        // Resumed again: the newest checkpoint lists the loss files, so the older plies'
        // sets are dropped, their figures kept.
        run(&resumed, Some(&ck));
        assert_eq!(std::fs::read(&plain).unwrap(), std::fs::read(&resumed).unwrap(), "resumed solution differs");
        assert_eq!(Bundle::load(&ck.join("backup-0008.dfas")).unwrap().entries.len(), 0, "older sets dropped");
        run(&resumed, Some(&ck));
        assert_eq!(std::fs::read(&plain).unwrap(), std::fs::read(&resumed).unwrap(), "resumed solution differs");
    }
    // Then the builds that kept the running losses in files: each ply's new wins, and the
    // loss files the newest ply lists.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/backup-wins-and-loss-files-4x4");
    let ck = dir.path().join("ck-loss-files");
    std::fs::create_dir(&ck).unwrap();
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, ck.join(path.file_name().unwrap())).unwrap();
    }
    let resumed = dir.path().join("resumed-loss-files.dfas");
    run(&resumed, Some(&ck));
    assert_eq!(std::fs::read(&plain).unwrap(), std::fs::read(&resumed).unwrap(), "resumed solution differs");
    // Resumed again over the checkpoints it rewrote.
    run(&resumed, Some(&ck));
    assert_eq!(std::fs::read(&plain).unwrap(), std::fs::read(&resumed).unwrap(), "resumed solution differs");
    let old_kept = Bundle::load(&ck.join("backup-0008.dfas")).unwrap().entries.len();
    let new_written = Bundle::load(&ck.join("backup-0007.dfas")).unwrap().entries.len();
    assert_eq!((old_kept, new_written), (0, 0), "the older ply's wins are dropped once read, the new one has none");
}

#[test]
fn play_against_the_perfect_player_to_the_end() {
    use std::io::Write;
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("bt.dfas");
    let f = file.to_str().unwrap();
    assert!(
        dfasolve(&["breakthrough", "--width", "3", "--height", "4", "--strong", "--quiet", "--out", f])
            .status
            .success()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_dfasolve"))
        .args(["play", f, "--side", "first"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Always pick the first listed move, with one illegal answer thrown in.
    child.stdin.as_mut().unwrap().write_all(b"1\nnonsense\n1\n1\n1\n1\n1\n1\n1\n1\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("not a legal move"), "{text}");
    assert!(text.contains("game over: the second player wins"), "the perfect second player wins 3x4: {text}");
}

#[test]
fn check_passes_on_a_meet_in_the_middle_solution() {
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("bt.dfas");
    let f = file.to_str().unwrap();
    assert!(
        dfasolve(&["breakthrough", "--width", "4", "--height", "4", "--depth", "3", "--quiet", "--out", f])
            .status
            .success()
    );
    let c = dfasolve(&["check", f, "--sample", "200"]);
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    assert!(String::from_utf8_lossy(&c.stdout).contains("check passed"));
}

#[test]
fn ostle_solve_census_query_check_and_verify() {
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("ostle.dfas");
    let f = file.to_str().unwrap();
    let args = ["--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1"];
    let out = dfasolve(&[&["ostle"][..], &args, &["--quiet", "--json", "--out", f]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["initial_value"], "win in 17 plies");
    assert_eq!(report["census"]["distances_from_start"][0]["up_to_symmetry"], 1);
    assert!(report["census"]["nontrivial_states"]["raw"].as_u64().unwrap() > 0);
    // Query: the value of the start and its moves; a move the rules forbid is not listed.
    let q = dfasolve(&["query", f, "bbb/.o./www"]);
    let text = String::from_utf8_lossy(&q.stdout);
    assert!(q.status.success() && text.contains("win in 17 plies"), "{text}");
    // A position query --json writes after a move names White to move (` w`), and querying it
    // says so, with the value the move list gave the opponent (defect: "Black to move").
    let q = dfasolve(&["query", f, "bbb/.o./www", "--json"]);
    let r: serde_json::Value = serde_json::from_slice(&q.stdout).unwrap();
    let after = &r["moves"][0];
    let position = after["position"].as_str().unwrap();
    assert!(position.ends_with(" w"), "{position}");
    let q = dfasolve(&["query", f, position]);
    let text = String::from_utf8_lossy(&q.stdout);
    assert!(q.status.success() && text.contains("White (w, second player) to move"), "{text}");
    assert!(text.contains(&format!("(to move): {}", after["value_for_opponent"].as_str().unwrap())), "{text}");
    let c = dfasolve(&["check", f, "--sample", "200"]);
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    // Verify, with the tables written.
    let tables = dir.path().join("tables.txt");
    let v = dfasolve(&[&["verify", "ostle"][..], &args, &["--quiet", "--tables", tables.to_str().unwrap()]].concat());
    let text = String::from_utf8_lossy(&v.stdout);
    assert!(v.status.success() && text.contains("verified: all 53032 table entries"), "{text}");
    assert!(std::fs::read_to_string(&tables).unwrap().lines().any(|l| l == "bbb/.o./www - W 17"));
    // Bad input.
    assert_clean_error(&dfasolve(&["ostle", "--pieces", "6", "--no-save"]), "pieces");
    assert_clean_error(&dfasolve(&["ostle", "--width", "3", "--height", "2", "--no-save"]), "board");
    assert_clean_error(&dfasolve(&["ostle", "--rule", "loose", "--no-save"]), "rule");
    let too_many_listed =
        ["ostle", "--width", "6", "--height", "6", "--pieces", "6", "--lose-at", "4", "--rule", "class"];
    assert_clean_error(&dfasolve(&[&too_many_listed[..], &["--no-save"]].concat()), "class reading");
    assert_clean_error(&dfasolve(&["query", f, "bbb/.o./ww"]), "ranks");
    assert_clean_error(&dfasolve(&["query", f, "bbb/.o./www a2U"]), "a2u");
    // verify takes only what it honours, and its table estimate respects --max-memory.
    for ignored in [&["--out", "x.dfas"][..], &["--list-classes"], &["--by-classes", "d"], &["--csv", "x.csv"]] {
        assert_clean_error(&dfasolve(&[&["verify", "ostle"][..], ignored].concat()), "unexpected argument");
    }
    let small_budget = dfasolve(&[&["verify", "ostle"][..], &args, &["--max-memory", "0.001"]].concat());
    assert_clean_error(&small_budget, "of --max-memory");
}

#[test]
fn classes_as_jobs_give_the_whole_solution() {
    let dir = crate::scratch::tempdir();
    let d = dir.path().join("classes");
    let ds = d.to_str().unwrap();
    let game = ["nim", "--heaps", "3", "--tokens", "2"];
    let list = dfasolve(&[&game[..], &["--list-classes"]].concat());
    assert!(list.status.success());
    let names: Vec<String> =
        String::from_utf8_lossy(&list.stdout).lines().map(|l| l.split('\t').next().unwrap().to_string()).collect();
    assert_eq!(names, (0..=6).map(|t| t.to_string()).collect::<Vec<_>>(), "classes lowest first");
    // A class whose lower classes are not solved yet is refused, naming the missing file.
    assert_clean_error(
        &dfasolve(&[&game[..], &["--by-classes", ds, "--class", "3", "--quiet"]].concat()),
        "class-0.dfas",
    );
    assert_clean_error(&dfasolve(&[&game[..], &["--by-classes", ds, "--class", "7", "--quiet"]].concat()), "no class");
    // One job per class, lowest first (a shell loop), then the directory is the solution.
    for name in &names {
        let out = dfasolve(&[&game[..], &["--by-classes", ds, "--class", name, "--quiet"]].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let query = dfasolve(&["query", ds, "1,2,3 first"]);
    let whole = dir.path().join("whole.dfas");
    assert!(
        dfasolve(&[&game[..], &["--strong", "--quiet", "--out", whole.to_str().unwrap()]].concat()).status.success()
    );
    let query_whole = dfasolve(&["query", whole.to_str().unwrap(), "1,2,3 first"]);
    assert_eq!(String::from_utf8_lossy(&query.stdout), String::from_utf8_lossy(&query_whole.stdout));
    let check = dfasolve(&["check", ds]);
    assert!(String::from_utf8_lossy(&check.stdout).contains("check passed"));
    assert!(dfasolve(&["stats", ds]).status.success());
    // A class file of another game is refused.
    let other = dir.path().join("other");
    let os = other.to_str().unwrap();
    assert!(
        dfasolve(&["nim", "--heaps", "2", "--tokens", "2", "--by-classes", os, "--quiet", "--no-save"])
            .status
            .success()
    );
    std::fs::copy(other.join("class-0.dfas"), d.join("class-0.dfas")).unwrap();
    assert_clean_error(
        &dfasolve(&[&game[..], &["--by-classes", ds, "--class", "1", "--quiet"]].concat()),
        "holds a class of",
    );
}

/// Solved by classes, Ostle reports the same census as solved whole: one row per value, not
/// one per class and value.
#[test]
fn ostle_by_classes_reports_the_whole_census() {
    let dir = crate::scratch::tempdir();
    let d = dir.path().join("classes");
    let game = ["ostle", "--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1", "--json", "--no-save"];
    let census = |extra: &[&str]| {
        let out = dfasolve(&[&game[..], extra].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        report["census"].clone()
    };
    let whole = census(&[]);
    let by_classes = census(&["--by-classes", d.to_str().unwrap()]);
    assert!(whole["values"].as_array().unwrap().len() > 10);
    assert_eq!(by_classes["values"], whole["values"]);
    assert_eq!(by_classes["nontrivial_values"], whole["nontrivial_values"]);
}

/// A one-class job checkpoints every iteration of its class and, stopped, resumes from them to
/// the same values; its CSV record is written.
#[test]
fn a_class_job_resumes_from_its_iterations() {
    let dir = crate::scratch::tempdir();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (d, ck, csv) = (path("classes"), path("ck"), path("top.csv"));
    let game = ["ostle", "--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1", "--quiet"];
    let job = |class: &str, extra: &[&str]| {
        let out = dfasolve(&[&game[..], &["--by-classes", &d, "--class", class], extra].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for class in ["1v1", "2v1", "2v2", "3v1", "3v2"] {
        job(class, &[]);
    }
    let first = job("3v3", &["--csv", &csv]);
    assert!(std::fs::read_to_string(&csv).unwrap().lines().count() > 10, "the CSV record is written");
    std::fs::remove_file(dir.path().join("classes").join("class-3v3.dfas")).unwrap();
    // Stopped as a kill would stop it, right after its fifth iteration was saved.
    let stopped = Command::new(env!("CARGO_BIN_EXE_dfasolve"))
        .args([&game[..], &["--by-classes", &d, "--class", "3v3", "--checkpoint", &ck]].concat())
        .env(dfasolve::cli::STOP_AFTER, "class-3v3-backward-0005")
        .output()
        .unwrap();
    assert_eq!(
        stopped.status.code(),
        Some(i32::from(dfasolve::cli::STOPPED_EXIT_CODE)),
        "{}",
        String::from_utf8_lossy(&stopped.stderr)
    );
    let steps = |prefix: &str| {
        std::fs::read_dir(&ck)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(prefix))
            .count()
    };
    assert_eq!(steps("class-3v3-backward-"), 5, "one checkpoint per iteration");
    assert!(dir.path().join("ck").join("class-3v3-lower-0000.dfas").exists(), "the lower values wait on disk");
    assert!(!dir.path().join("classes").join("class-3v3.dfas").exists());
    let resumed = job("3v3", &["--checkpoint", &ck]);
    let values = |report: &str| report.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(values(&resumed), values(&first), "the same values after resuming");
    assert_eq!(steps("class-3v3-"), 0, "a solved class's checkpoints are removed with it");
}

/// The lowest class of a solve by classes made from a solved subgame: the by-classes solve
/// reads it instead of solving that class, and reports the whole census. Not a subgame, not
/// an Ostle solution: one-line errors.
#[test]
fn ostle_class_from_a_solved_subgame() {
    let dir = crate::scratch::tempdir();
    let (d, small) = (dir.path().join("classes"), dir.path().join("small.dfas"));
    let (d, small) = (d.to_str().unwrap(), small.to_str().unwrap());
    let board = ["ostle", "--width", "3", "--height", "3", "--lose-at", "1"];
    let run = |extra: &[&str]| dfasolve(&[&board[..], extra].concat());
    let out = run(&["--pieces", "2", "--quiet", "--out", small]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = run(&["--pieces", "3", "--by-classes", d, "--class-from-subgame", small]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("class 2v2") && said.contains("36 of them only a removal reaches"), "{said}");
    let census = |extra: &[&str]| {
        let out = run(&[&["--pieces", "3", "--json", "--no-save"][..], extra].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["census"].clone()
    };
    assert_eq!(census(&["--by-classes", d])["values"], census(&[])["values"]);
    assert_clean_error(&run(&["--pieces", "2", "--by-classes", d, "--class-from-subgame", small]), "not a subgame");
    let nim = dir.path().join("nim.dfas");
    let out = dfasolve(&["nim", "--heaps", "2", "--tokens", "2", "--quiet", "--out", nim.to_str().unwrap()]);
    assert!(out.status.success());
    let out = run(&["--pieces", "3", "--by-classes", d, "--class-from-subgame", nim.to_str().unwrap()]);
    assert_clean_error(&out, "not a solution of an ostle variant");
}

#[test]
fn sets_too_large_for_the_state_ids_are_a_clear_error() {
    // The limit lowered for this process, so that Breakthrough 4x4 reaches it.
    let out = Command::new(env!("CARGO_BIN_EXE_dfasolve"))
        .args(["breakthrough", "--width", "4", "--height", "4", "--strong", "--no-save", "--quiet"])
        .env("DFASOLVE_MAX_LAYER_STATES", "40")
        .output()
        .expect("run dfasolve");
    assert_clean_error(&out, "more than 40 dfa states in one layer");
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "one line");
}

/// `ostle --census` counts part by part without solving: the same value-free counts as the
/// census of a full solve (which reads the whole sets), on variants with and without the
/// class reading.
#[test]
fn ostle_census_without_solving_matches_the_solve() {
    for args in [
        ["--width", "3", "--height", "4", "--pieces", "2", "--lose-at", "1"],
        ["--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "2"],
    ] {
        let census = dfasolve(&[&["ostle", "--census", "--json"][..], &args[..]].concat());
        assert!(census.status.success(), "{}", String::from_utf8_lossy(&census.stderr));
        let census: serde_json::Value = serde_json::from_slice(&census.stdout).unwrap();
        let solved = dfasolve(&[&["ostle", "--no-save", "--json"][..], &args[..]].concat());
        let solved: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
        for key in ["positions_by_hole_and_pieces", "checkmate_positions", "nontrivial_states", "distances_from_start"]
        {
            assert_eq!(census["census"][key], solved["census"][key], "{args:?}: {key}");
        }
        let with_marker = census["census"]["nontrivial_with_forbidden_move"]["raw"].as_u64().unwrap();
        assert!(with_marker > 0 && with_marker < census["census"]["nontrivial_states"]["raw"].as_u64().unwrap());
    }
}

/// `--levels-minutes` bounds the breadth-first levels alone: with a limit too short for them
/// the census still gives every other count, the levels finished by then (a prefix of the
/// full list) and why they stopped; the text report shows the counts before the levels.
#[test]
fn ostle_census_levels_stop_at_their_time_limit() {
    let args = ["ostle", "--census", "--width", "3", "--height", "4", "--pieces", "3", "--lose-at", "2"];
    let full = dfasolve(&[&args[..], &["--json"]].concat());
    assert!(full.status.success(), "{}", String::from_utf8_lossy(&full.stderr));
    let full: serde_json::Value = serde_json::from_slice(&full.stdout).unwrap();
    assert!(full["census"].get("distances_stopped").is_none());
    let short = dfasolve(&[&args[..], &["--json", "--levels-minutes", "0.00001"]].concat());
    assert!(short.status.success(), "{}", String::from_utf8_lossy(&short.stderr));
    let short: serde_json::Value = serde_json::from_slice(&short.stdout).unwrap();
    for key in ["positions_by_hole_and_pieces", "checkmate_positions", "nontrivial_states"] {
        assert_eq!(short["census"][key], full["census"][key], "{key}");
    }
    let (done, all) = (
        short["census"]["distances_from_start"].as_array().unwrap(),
        full["census"]["distances_from_start"].as_array().unwrap(),
    );
    assert!(!done.is_empty() && done.len() < all.len(), "{} of {} levels", done.len(), all.len());
    assert_eq!(done[..], all[..done.len()]);
    let why = short["census"]["distances_stopped"].as_str().unwrap();
    assert!(why.contains(&format!("after {} levels", done.len())) && why.contains("--levels-minutes"), "{why}");

    let text = dfasolve(&[&args[..], &["--levels-minutes", "0.00001"]].concat());
    let text = String::from_utf8_lossy(&text.stdout);
    let (counts, levels) = (text.find("non-trivial states").unwrap(), text.find("breadth-first levels").unwrap());
    assert!(counts < levels, "{text}");
    for bad in ["0", "-1", "nan", "inf"] {
        let out = dfasolve(&[&args[..], &["--levels-minutes", bad]].concat());
        assert!(!out.status.success() && out.status.code() != Some(101), "--levels-minutes {bad}");
    }
}

/// A meet in the middle checkpoints every backup ply, and its running losses in files the
/// newest ply's checkpoint lists: a run stopped after a backup ply (as a kill there would
/// stop it) reads the saved plies back and gives the same solution, byte for byte. Nim's
/// strings are mover-relative, so its plies share their sets between the sides.
#[test]
fn a_meet_in_the_middle_resumes_its_backup_from_the_saved_plies() {
    for game in [&["breakthrough", "--width", "4", "--height", "4"][..], &["nim", "--heaps", "3", "--tokens", "5"]] {
        let (left, _) = stopped_run_resumes(game, "backup-0008");
        assert!(left.iter().any(|n| n == "backup-0009.dfas"), "{game:?}: {left:?}");
        assert!(!left.iter().any(|n| n == "backup-0007.dfas"), "{game:?}: {left:?}");
    }
}

/// A solution saved as a directory (its large sets linked from the checkpoints) is queried,
/// checked and measured as its one-file form is; a solve replaces it, and will not write over
/// a directory that is not a solution.
#[test]
fn a_solution_saved_as_a_directory_answers_as_its_file() {
    use dfasolve::games::breakthrough::Breakthrough;
    use dfasolve::solved::Mode;
    use dfasolve::solver::{SolveOptions, Solver};
    let dir = crate::scratch::tempdir();
    let game = Breakthrough::new(4, 4).expect("a small board");
    let options = SolveOptions {
        checkpoints: Some(dir.path().join("checkpoints")),
        run_cap: Some(64),
        ..SolveOptions::default()
    };
    let solution =
        Solver::with_options(&game, options).unwrap().solve(Mode::MeetInTheMiddle { depth: 3 }).expect("solved");
    let (file, linked) = (dir.path().join("bt.dfas"), dir.path().join("bt-linked.dfas"));
    let (f, l) = (file.to_str().unwrap(), linked.to_str().unwrap());
    solution.save(&file).expect("saved");
    solution.save_linking(&linked, 0).expect("saved as a directory");
    assert!(linked.is_dir());
    let text = |out: Output| {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for position in ["xxxx/xxxx/oooo/oooo first", "xxxx/x.xx/.x../oooo second"] {
        assert_eq!(text(dfasolve(&["query", l, position])), text(dfasolve(&["query", f, position])), "{position}");
    }
    assert!(text(dfasolve(&["check", l, "--sample", "200"])).contains("check passed"));
    for asked in [&["positions", "--value", "loss"][..], &["puzzles", "--plies", "3"]] {
        let on = |path: &str| text(dfasolve(&[&asked[..1], &[path], &asked[1..]].concat()));
        assert_eq!(on(l), on(f), "{asked:?}");
    }
    let total = |path: &str| -> serde_json::Value {
        serde_json::from_str::<serde_json::Value>(&text(dfasolve(&["stats", path, "--json"]))).unwrap()
            ["total_positions"]
            .clone()
    };
    assert_eq!(total(l), total(f));
    // A solve writes over a solution directory, not over any other directory.
    let other = dir.path().join("notes");
    std::fs::create_dir(&other).unwrap();
    let solve = |out: &str| dfasolve(&["breakthrough", "--width", "3", "--height", "4", "--quiet", "--out", out]);
    assert_clean_error(&solve(other.to_str().unwrap()), "is a directory");
    text(solve(l));
    assert!(linked.is_file(), "a small solution replaces the directory with one file");
}
