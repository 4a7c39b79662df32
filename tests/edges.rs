//! The binary at its edges (issue 26): one reproducer per defect found by trying it as a new
//! user would, every reporting command's `--json`, the charts as XML, and a fuzz run of every
//! subcommand that must never panic.
use dfasolve::dfa::SplitMix64;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub(crate) fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dfasolve"))
}

pub(crate) fn dfasolve(args: &[&str]) -> Output {
    bin().args(args).output().expect("run dfasolve")
}

pub(crate) fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub(crate) fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "failed: {}", stderr(out));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not one JSON object ({e}): {}", stdout(out)))
}

pub(crate) fn assert_clean_error(out: &Output, needle: &str) {
    let err = stderr(out);
    assert!(!out.status.success(), "expected failure; stdout {}", stdout(out));
    assert!(!err.contains("panicked"), "panic: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.to_lowercase().contains(needle), "{err:?} should mention {needle:?}");
}

pub(crate) fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// A small strong Breakthrough solution, its run record, in `dir`.
fn solved(dir: &Path) -> (PathBuf, PathBuf) {
    let file = dir.join("bt.dfas");
    let csv = dir.join("bt.csv");
    let out = dfasolve(&[
        "breakthrough",
        "--width",
        "3",
        "--height",
        "4",
        "--strong",
        "--quiet",
        "--out",
        path(&file),
        "--csv",
        path(&csv),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    (file, csv)
}

/// Defect 1: counts above `u64` go into JSON as exact strings, counts above `u128` as null,
/// never a panic.
#[test]
fn counts_beyond_64_bits_are_reported_not_panicked_on() {
    let r = json(&dfasolve(&["nim", "--heaps", "16", "--tokens", "15", "--no-save", "--json"]));
    assert_eq!(r["positions"], serde_json::json!("18446744073709551616"), "16^16 = 2^64");
    assert_eq!(r["losing_positions"], serde_json::json!(1u64 << 60));
    let text = dfasolve(&["nim", "--heaps", "16", "--tokens", "15", "--no-save", "--quiet"]);
    assert!(text.status.success() && stdout(&text).contains("18,446,744,073,709,551,616"), "{}", stderr(&text));
    // 4^64 = 2^128 positions: the universe's count is beyond u128, a single ply's is not.
    let r = json(&dfasolve(&["nim", "--heaps", "64", "--tokens", "3", "--no-save", "--json"]));
    assert_eq!(r["positions"], serde_json::Value::Null);
    assert_eq!(r["per_ply_reachable"][0], serde_json::json!(1));
    assert_eq!(r["per_ply_reachable"][1], serde_json::json!(192));
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("nim.dfas");
    assert!(dfasolve(&["nim", "--heaps", "16", "--tokens", "15", "--quiet", "--out", path(&file)]).status.success());
    let s = json(&dfasolve(&["stats", path(&file), "--json"]));
    assert!(s["sets"].as_array().is_some_and(|sets| !sets.is_empty()));
}

/// Defect 2: a record with a non-finite number is refused, naming the line, at once.
#[test]
fn plot_refuses_numbers_that_are_not_finite() {
    let dir = crate::scratch::tempdir();
    let (_, csv) = solved(dir.path());
    let good = std::fs::read_to_string(&csv).unwrap();
    for bad in ["inf", "1e999", "NaN"] {
        let lines: Vec<&str> = good.lines().collect();
        let mut fields: Vec<String> = lines[2].split(',').map(String::from).collect();
        fields[8] = bad.into(); // positions per byte
        let mut text = format!("{}\n{}\n{}\n", lines[0], lines[1], fields.join(","));
        text.push_str(&lines[3..].join("\n"));
        let forged = dir.path().join(format!("forged-{bad}.csv"));
        std::fs::write(&forged, text).unwrap();
        let started = Instant::now();
        let out = dfasolve(&["plot", path(&forged)]);
        assert!(started.elapsed() < Duration::from_secs(20));
        assert_clean_error(&out, "line 3");
    }
}

/// Defect 3: a closed stdout ends the program quietly.
#[test]
fn a_closed_pipe_is_not_a_panic() {
    let dir = crate::scratch::tempdir();
    let (file, _) = solved(dir.path());
    let f = path(&file);
    let commands: [&[&str]; 4] = [
        &["stats", f],
        &["check", f, "--sample", "50"],
        &["query", f, "xxx/.../.../ooo", "first"],
        &["nim", "--heaps", "3", "--tokens", "3", "--no-save"],
    ];
    for args in commands {
        for _ in 0..3 {
            let mut child = bin().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
            drop(child.stdout.take()); // the reader goes away before anything is written
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "{args:?}: {:?} {}", out.status, stderr(&out));
            assert!(!stderr(&out).contains("panicked"), "{args:?}: {}", stderr(&out));
        }
    }
}

/// Defect 4: a meet in the middle knows distances only near the end: no made-up longest win.
#[test]
fn a_meet_in_the_middle_claims_no_longest_win() {
    let out = dfasolve(&["breakthrough", "--width", "4", "--height", "5", "--no-save", "--quiet"]);
    let text = stdout(&out);
    assert!(text.contains("longest forced win: not known"), "{text}");
    let r = json(&dfasolve(&["breakthrough", "--width", "4", "--height", "5", "--no-save", "--json"]));
    assert_eq!(r["longest_win"], serde_json::Value::Null);
    let r = json(&dfasolve(&["breakthrough", "--width", "3", "--height", "4", "--strong", "--no-save", "--json"]));
    assert_eq!(r["longest_win"], serde_json::json!(11), "the strong solve knows it");
}

/// Defect 5: every command that reports prints one JSON object with `--json`.
#[test]
fn every_reporting_command_speaks_json() {
    let dir = crate::scratch::tempdir();
    let (file, csv) = solved(dir.path());
    let f = path(&file);
    let q = json(&dfasolve(&["query", f, "xxx/xxx/ooo/ooo", "first", "--json", "--limit", "2"]));
    assert_eq!(q["value"], serde_json::json!("loss in 12 plies"));
    assert_eq!(q["moves"].as_array().unwrap().len(), 2);
    assert!(q["moves_total"].as_u64().unwrap() > 2);
    let c = json(&dfasolve(&["check", f, "--sample", "100", "--json"]));
    assert_eq!(c["passed"], serde_json::json!(true));
    let s = json(&dfasolve(&["stats", f, "--json"]));
    assert!(s["meta"].is_object(), "meta is an object: {}", s["meta"]);
    let v = json(&dfasolve(&[
        "verify",
        "ostle",
        "--width",
        "3",
        "--height",
        "3",
        "--pieces",
        "2",
        "--lose-at",
        "1",
        "--json",
    ]));
    assert_eq!(v["passed"], serde_json::json!(true));
    assert_eq!(v["entries_checked"], v["explicit_states"]);
    let svg = dir.path().join("bt.svg");
    let p = json(&dfasolve(&["plot", path(&csv), "--out", path(&svg), "--json"]));
    assert!(p["fit"]["exponent"].is_number());
    let mut child = bin()
        .args(["play", f, "--side", "first", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.as_mut().unwrap().write_all(b"1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n").unwrap();
    let played = json(&child.wait_with_output().unwrap());
    assert_eq!(played["winner"], serde_json::json!("second"), "{played}");
    assert_eq!(played["you_won"], serde_json::json!(false));
}

/// Defect 6 and the charts: valid XML whatever the names, a title, one legend entry per
/// series, the fitted exponent on the compression chart.
#[test]
fn charts_are_valid_svg_with_title_legend_and_exponent() {
    let dir = crate::scratch::tempdir();
    let csv = dir.path().join("run & <test>.csv");
    let out = dfasolve(&["breakthrough", "--width", "3", "--height", "5", "--quiet", "--no-save", "--csv", path(&csv)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let svg = dir.path().join("chart & <1>.svg");
    let report = json(&dfasolve(&["plot", path(&csv), "--out", path(&svg), "--json"]));
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG parses as XML");
    assert!(!text.contains("NaN") && !text.to_lowercase().contains("inf\""), "no non-finite coordinates");
    let texts: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect();
    assert!(texts.iter().any(|t| t == "breakthrough 3x5: meet in the middle"), "title: {texts:?}");
    assert!(texts.iter().any(|t| t.contains("run & <test>.csv")), "the file name, escaped: {texts:?}");
    for series in report["series"].as_array().unwrap() {
        let label = series.as_str().unwrap();
        let n = texts.iter().filter(|t| *t == label).count();
        assert_eq!(n, 1, "one legend entry for {label}: {texts:?}");
    }
    let exponent = format!("positions^{:.3}", report["fit"]["exponent"].as_f64().unwrap());
    assert!(texts.iter().any(|t| t.contains(&exponent)), "{exponent} on the chart: {texts:?}");
    assert!(texts.iter().any(|t| t.starts_with("compression")), "{texts:?}");
}

/// Class jobs side by side share one checkpoint directory: a job removes the files a killed
/// run left for its own class only, never the live temporaries or parked sets of another.
#[test]
fn class_jobs_leave_each_others_checkpoints_alone() {
    let dir = crate::scratch::tempdir();
    let (classes, ck) = (dir.path().join("classes"), dir.path().join("ck"));
    let job = |class: &str| {
        let args = ["breakthrough", "--width", "3", "--height", "4", "--strong", "--quiet", "--no-save"];
        let dirs = ["--by-classes", path(&classes), "--checkpoint", path(&ck), "--class", class];
        dfasolve(&[&args[..], &dirs[..]].concat())
    };
    std::fs::create_dir_all(&ck).unwrap();
    let others = [".class-1v1-backward-0002.dfas.tmpXYZ", "class-1v1-backward-0002-first-parked.dfas"];
    let own = [".class-0v1-backward-0001.dfas.tmpXYZ", "class-0v1-backward-0001-second-parked.dfas"];
    for name in others.iter().chain(&own) {
        std::fs::write(ck.join(name), b"a live write, or a killed run's").unwrap();
    }
    for class in ["0v0", "0v1"] {
        let out = job(class);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    for name in others {
        assert!(ck.join(name).exists(), "{name}: class 1v1's, left alone by the jobs of 0v0 and 0v1");
    }
    for name in own {
        assert!(!ck.join(name).exists(), "{name}: class 0v1's, removed as its job started");
    }
}

/// Defect 7: checkpoints are keyed by everything that shapes them; stale temporaries go.
#[test]
fn checkpoints_of_another_solve_are_refused() {
    let dir = crate::scratch::tempdir();
    let run = |ck: &Path, depth: &str| {
        let args = ["breakthrough", "--width", "3", "--height", "5", "--quiet", "--no-save", "--depth", depth];
        dfasolve(&[&args[..], &["--checkpoint", path(ck)]].concat())
    };
    let ck = dir.path().join("ck");
    assert!(run(&ck, "2").status.success());
    std::fs::write(ck.join(".backward-1.dfas.tmpXYZ"), b"left by a killed run").unwrap();
    std::fs::write(ck.join("backward-0003-first-parked.dfas"), b"parked by a killed run").unwrap();
    std::fs::write(ck.join("class-2v2-backward-0003-first-parked.dfas"), b"another job's").unwrap();
    assert!(run(&ck, "2").status.success(), "the same solve resumes");
    assert!(!ck.join(".backward-1.dfas.tmpXYZ").exists(), "stale temporary removed");
    assert!(!ck.join("backward-0003-first-parked.dfas").exists(), "stale parked sets removed");
    assert!(ck.join("class-2v2-backward-0003-first-parked.dfas").exists(), "a class's files are its job's");
    assert_clean_error(&run(&ck, "3"), "not for this solve");
    // Swap two checkpoints of the same solve: each names its own step.
    let ck2 = dir.path().join("ck2");
    assert!(run(&ck2, "2").status.success());
    let mut names: Vec<PathBuf> = std::fs::read_dir(&ck2).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    assert!(names.len() >= 2, "{names:?}");
    let (a, b) = (&names[0], &names[1]);
    let tmp = dir.path().join("swap");
    std::fs::rename(a, &tmp).unwrap();
    std::fs::rename(b, a).unwrap();
    std::fs::rename(&tmp, b).unwrap();
    assert_clean_error(&run(&ck2, "2"), "not for this solve");
}

/// Defect 8: outputs are checked before any work.
#[test]
fn bad_outputs_fail_before_the_solve() {
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("plain");
    std::fs::write(&file, b"x").unwrap();
    let d = path(dir.path());
    let under_file = file.join("x.dfas");
    let started = Instant::now();
    // 5x5 strong takes seconds: each refusal must come before it.
    let base = ["breakthrough", "--width", "5", "--height", "5", "--strong", "--quiet"];
    let with = |extra: &[&str]| dfasolve(&[&base[..], extra].concat());
    assert_clean_error(&with(&["--out", d]), "directory");
    assert_clean_error(&with(&["--out", path(&under_file)]), "not a directory");
    assert_clean_error(&with(&["--no-save", "--csv", d]), "directory");
    assert_clean_error(&with(&["--no-save", "--checkpoint", path(&file)]), "not a directory");
    assert_clean_error(&with(&["--by-classes", path(&file)]), "not a directory");
    assert!(started.elapsed() < Duration::from_secs(5), "refused before solving: {:?}", started.elapsed());
}

/// Defect 9: hopeless requests are refused with an estimate; a run over its memory budget
/// stops with one clear line.
#[test]
fn infeasible_requests_are_refused_or_stopped_cleanly() {
    assert_clean_error(&dfasolve(&["breakthrough", "--width", "16", "--height", "16", "--no-save"]), "refused");
    assert_clean_error(&dfasolve(&["verify", "ostle"]), "refused");
    // Without --long a job this size is refused with its estimate; with it, the budget stops it.
    assert_clean_error(&dfasolve(&["nim", "--heaps", "64", "--tokens", "255", "--no-save"]), "refused without --long");
    let out = dfasolve(&["nim", "--heaps", "64", "--tokens", "255", "--no-save", "--max-memory", "0.3", "--long"]);
    assert_clean_error(&out, "memory budget");
    assert!(!stderr(&out).contains("checkpointed"), "no checkpoints, no hint: {}", stderr(&out));
    // With checkpoints, the line says where the finished steps are, for a rerun to resume
    // (64 x 255 stops before its first step: this size finishes a few).
    let dir = crate::scratch::tempdir();
    let ckpt = dir.path().join("ckpt");
    let args = ["nim", "--heaps", "64", "--tokens", "31", "--no-save", "--long", "--max-memory", "0.3", "--checkpoint"];
    let out = dfasolve(&[&args[..], &[path(&ckpt)]].concat());
    assert_clean_error(&out, "memory budget");
    let err = stderr(&out);
    assert!(err.contains(path(&ckpt)) && err.contains("resumes from them"), "{err}");
}

/// Defect 10: a file error says the path and the OS message once.
#[test]
fn file_errors_say_it_once() {
    let dir = crate::scratch::tempdir();
    let missing = dir.path().join("no/such/x.dfas");
    let out = dfasolve(&["stats", path(&missing)]);
    assert_clean_error(&out, "no such file");
    let err = stderr(&out);
    assert_eq!(err.matches("No such file").count(), 1, "{err}");
    assert_eq!(err.matches(path(&missing)).count(), 1, "{err}");
}

/// Moves of equal value are listed in natural order (`take 2` before `take 10`).
#[test]
fn equal_moves_are_in_natural_order() {
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("nim.dfas");
    assert!(
        dfasolve(&["nim", "--heaps", "2", "--tokens", "12", "--strong", "--quiet", "--out", path(&file)])
            .status
            .success()
    );
    let q = json(&dfasolve(&["query", path(&file), "12,11", "first", "--json"]));
    let names: Vec<String> =
        q["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap().to_string()).collect();
    let values: Vec<String> =
        q["moves"].as_array().unwrap().iter().map(|m| m["value_for_opponent"].to_string()).collect();
    for i in 1..names.len() {
        if values[i] == values[i - 1] {
            let num = |s: &str| {
                s.split(|c: char| !c.is_ascii_digit())
                    .filter(|p| !p.is_empty())
                    .map(|p| p.parse::<u32>().unwrap())
                    .collect::<Vec<_>>()
            };
            assert!(num(&names[i - 1]) <= num(&names[i]), "{names:?}");
        }
    }
}

/// One of `items`, drawn with `rng` (the fuzz run must be reproducible).
fn pick<'a, T>(rng: &mut SplitMix64, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len() as u128) as usize]
}

/// Every subcommand with random arguments, random files and sometimes a closed stdout: no
/// panic, no abort, no hang, ever.
#[test]
fn fuzzing_every_subcommand_finds_no_panic() {
    let dir = crate::scratch::tempdir();
    let (solution, csv) = solved(dir.path());
    let bytes = std::fs::read(&solution).unwrap();
    let files: Vec<PathBuf> = {
        let mut rng = SplitMix64::new(7);
        let mut out = vec![solution.clone(), csv.clone(), dir.path().to_path_buf(), dir.path().join("missing")];
        for (i, len) in [0usize, 9, 100, bytes.len() / 2].into_iter().enumerate() {
            let p = dir.path().join(format!("cut{i}.dfas"));
            std::fs::write(&p, &bytes[..len.min(bytes.len())]).unwrap();
            out.push(p);
        }
        for i in 0..4 {
            let mut flipped = bytes.clone();
            let at = (rng.next_u64() % flipped.len() as u64) as usize;
            flipped[at] ^= 1 << (i % 8);
            let p = dir.path().join(format!("flip{i}.dfas"));
            std::fs::write(&p, flipped).unwrap();
            out.push(p);
        }
        let junk: Vec<u8> = (0..300).map(|_| rng.next_u64() as u8).collect();
        let p = dir.path().join("junk.csv");
        std::fs::write(&p, junk).unwrap();
        out.push(p);
        out
    };
    let numbers = ["0", "1", "2", "3", "4", "-1", "17", "300", "99999999999999999999", "x", "1e999", ""];
    let positions = ["xxx/.../.../ooo first", "1,2 first", "", "b.w/.o./... -", "xxx/xxx/ooo/ooo second", "\u{1F600}"];
    let mut rng = SplitMix64::new(2026);
    for _ in 0..120 {
        let sub = *pick(
            &mut rng,
            &[
                "breakthrough",
                "nim",
                "ostle",
                "spread",
                "verify",
                "explicit",
                "query",
                "play",
                "stats",
                "plot",
                "export",
                "import",
                "check",
            ],
        );
        let picked = files[(rng.next_u64() % files.len() as u64) as usize].clone();
        let file = || picked.clone();
        let mut args: Vec<String> = vec![sub.into()];
        match sub {
            "breakthrough" | "nim" | "ostle" | "spread" => {
                for flag in ["--width", "--height", "--heaps", "--tokens", "--pieces", "--lose-at", "--depth"] {
                    if rng.next_u64().is_multiple_of(3) {
                        args.extend([flag.to_string(), pick(&mut rng, &numbers).to_string()]);
                    }
                }
                args.extend(["--no-save".into(), "--max-memory".into(), "1".into()]);
                if rng.next_u64().is_multiple_of(4) {
                    args.push("--json".into());
                }
                if rng.next_u64().is_multiple_of(5) {
                    args.extend(["--csv".into(), path(&file()).into()]);
                }
            }
            "verify" => {
                let (w, h) = (*pick(&mut rng, &numbers), *pick(&mut rng, &["3", "0", "9"]));
                args.extend(["ostle", "--width", w, "--height", h, "--json"].map(String::from));
            }
            "explicit" => {
                args.push("ostle".into());
                for flag in ["--width", "--height", "--pieces", "--lose-at", "--check-sample"] {
                    if rng.next_u64().is_multiple_of(2) {
                        args.extend([flag.to_string(), pick(&mut rng, &numbers).to_string()]);
                    }
                }
                args.extend([
                    "--max-memory".into(),
                    "0.1".into(),
                    "--quiet".into(),
                    "--tables".into(),
                    path(&dir.path().join("tables")).into(),
                ]);
            }
            "query" | "play" => {
                args.push(path(&file()).into());
                args.push(pick(&mut rng, &positions).to_string());
                if sub == "play" {
                    args.insert(2, "--from".into());
                }
            }
            "stats" | "check" => {
                args.push(path(&file()).into());
                if rng.next_u64().is_multiple_of(2) {
                    args.push("--json".into());
                }
            }
            "plot" => args.extend([path(&file()).into(), "--out".into(), path(&dir.path().join("fuzz.svg")).into()]),
            "export" => args.extend([
                path(&file()).into(),
                pick(&mut rng, &["first loss", "x", ""]).to_string(),
                path(&dir.path().join("o.dfa1")).into(),
            ]),
            _ => args.extend([path(&file()).into(), path(&dir.path().join("imported.dfas")).into()]),
        }
        let closed = rng.next_u64().is_multiple_of(3);
        let mut child = bin()
            .args(&args)
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdin.take());
        if closed {
            drop(child.stdout.take());
        }
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            // Every case is refused or finishes in well under a second: one still going
            // after a minute is a hang, however loaded the machine.
            if started.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("{args:?} still runs after a minute");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        assert!(!err.contains("panicked") && status.code().is_some(), "{args:?}: {status:?} {err}");
        assert_ne!(status.code(), Some(101), "{args:?}: {err}");
    }
}
