//! What a new user hit (issue 65), one reproducer each.
use crate::edges::{assert_clean_error, dfasolve, json, path, stderr};

/// Defect 6: an output that is an input, or another output, or a file dfasolve did not
/// write, is refused before anything is written; `--force` replaces a file not ours.
#[test]
fn outputs_never_overwrite_inputs_each_other_or_files_not_ours() {
    let dir = crate::scratch::tempdir();
    let at = |name: &str| dir.path().join(name);
    let (solution, csv) = (at("s.dfas"), at("run.csv"));
    let nim = ["nim", "--heaps", "2", "--tokens", "3", "--quiet"];
    let solved = dfasolve(&[&nim[..], &["--out", path(&solution), "--csv", path(&csv)]].concat());
    assert!(solved.status.success(), "{}", stderr(&solved));
    let kept = |p: &std::path::Path| std::fs::read(p).unwrap();
    let (solution_bytes, csv_bytes) = (kept(&solution), kept(&csv));
    assert_clean_error(&dfasolve(&["export", path(&solution), "first/loss", path(&solution)]), "also read");
    assert_clean_error(&dfasolve(&["plot", path(&csv), "--out", path(&csv)]), "also read");
    assert_clean_error(&dfasolve(&["play", path(&solution), "--record", path(&solution)]), "also read");
    assert_clean_error(
        &dfasolve(&[&nim[..], &["--out", path(&at("x")), "--csv", path(&at("x"))]].concat()),
        "same file",
    );
    assert!(!at("x").exists(), "nothing written");
    let dfa1 = at("w.dfa1");
    assert!(dfasolve(&["export", path(&solution), "first/loss", path(&dfa1)]).status.success());
    let dfa1_bytes = kept(&dfa1);
    assert_clean_error(&dfasolve(&["import", path(&dfa1), path(&dfa1)]), "also read");
    assert_eq!((kept(&solution), kept(&csv), kept(&dfa1)), (solution_bytes, csv_bytes, dfa1_bytes), "inputs kept");
    let notes = at("keep.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    assert_clean_error(&dfasolve(&[&nim[..], &["--out", path(&notes)]].concat()), "not written by dfasolve");
    assert_clean_error(&dfasolve(&["plot", path(&csv), "--out", path(&notes)]), "--force");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    let forced = dfasolve(&[&nim[..], &["--out", path(&notes), "--force"]].concat());
    assert!(forced.status.success(), "{}", stderr(&forced));
    // dfasolve's own files are replaced as before: a solution, a record, a chart.
    let again = dfasolve(&[&nim[..], &["--out", path(&solution), "--csv", path(&csv)]].concat());
    assert!(again.status.success(), "{}", stderr(&again));
    for _ in 0..2 {
        let chart = dfasolve(&["plot", path(&csv), "--out", path(&at("run.svg"))]);
        assert!(chart.status.success(), "{}", stderr(&chart));
    }
}

/// Defect 7: a FIFO given for a solution is refused at once (it needs a file it can seek
/// in), instead of waiting for a reader and failing after the solve.
#[cfg(unix)]
#[test]
fn a_pipe_for_a_solution_is_refused_before_the_solve() {
    let dir = crate::scratch::tempdir();
    let fifo = dir.path().join("out.fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let started = std::time::Instant::now();
    let out = dfasolve(&["nim", "--heaps", "2", "--tokens", "3", "--quiet", "--out", path(&fifo)]);
    assert_clean_error(&out, "is a pipe");
    assert!(started.elapsed().as_secs() < 20, "refused without waiting for a reader");
}

/// A spill directory is checked with the other outputs before the solve: one that does not
/// exist is made (as `--checkpoint`'s is), and one that cannot be is refused at once
/// instead of after the forward plies.
#[test]
fn the_spill_directory_is_made_or_refused_before_the_solve() {
    let dir = crate::scratch::tempdir();
    let spill = dir.path().join("spill");
    let bt = ["breakthrough", "--width", "3", "--height", "4", "--no-save", "--quiet", "--spill"];
    let out = dfasolve(&[&bt[..], &[path(&spill)]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(spill.is_dir());
    let under_a_file = dir.path().join("file");
    std::fs::write(&under_a_file, "x").unwrap();
    assert_clean_error(&dfasolve(&[&bt[..], &[path(&under_a_file.join("spill"))]].concat()), "not a directory");
}

/// Defect 16: a position that does not parse is answered with an example of the board in
/// question (its start), not of another size.
#[test]
fn parse_errors_show_the_board_in_question() {
    use dfasolve::game::Rules;
    let game = dfasolve::games::breakthrough::Breakthrough::new(5, 6).unwrap();
    let why = game.parse("xxx/ooo first").unwrap_err().to_string();
    assert!(why.contains("\"xxxxx/xxxxx/...../...../ooooo/ooooo first\""), "{why}");
    let nim = dfasolve::games::nim::Nim::new(3, 5).unwrap();
    let why = nim.parse("1,2 sideways").unwrap_err().to_string();
    assert!(why.contains(&nim.render(&nim.initial())), "{why}");
    let rule = dfasolve::games::ostle::Rule::Exact;
    let ostle = dfasolve::games::ostle::Variant { width: 4, height: 3, pieces: 3, lose_at: 2, rule };
    let why = ostle.parse_position("bbb/.o").unwrap_err().to_string();
    assert!(why.contains("ostle 4x3") && why.contains("\"bbb./.o../www. -\""), "{why}");
}

/// Defect 10: a resumed run says so, as it starts and in its report, with how many steps it
/// reused; every run with checkpoints says where they are kept.
#[test]
fn a_resumed_run_says_what_it_reused_and_where_checkpoints_are_kept() {
    let dir = crate::scratch::tempdir();
    let ckpt = dir.path().join("ckpt");
    let bt = ["breakthrough", "--width", "3", "--height", "4", "--no-save", "--progress", "--checkpoint", path(&ckpt)];
    let fresh = dfasolve(&bt);
    assert!(fresh.status.success(), "{}", stderr(&fresh));
    let said = crate::edges::stdout(&fresh);
    assert!(said.contains("saved in") && said.contains("kept there"), "{said}");
    assert!(!stderr(&fresh).contains("resuming"), "a fresh run does not claim to resume");
    let resumed = dfasolve(&bt);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(stderr(&resumed).contains("resuming: reusing the finished steps checkpointed in"), "{}", stderr(&resumed));
    assert!(
        crate::edges::stdout(&resumed).contains("finished steps reused from"),
        "{}",
        crate::edges::stdout(&resumed)
    );
    let report = crate::edges::json(&dfasolve(&[&bt[..], &["--json"]].concat()));
    assert!(report["checkpoints"]["steps_reused"].as_u64().unwrap() > 1, "{}", report["checkpoints"]);
    assert_eq!(report["checkpoints"]["kept"], serde_json::json!(true));
}

/// Defects 12 and 18: `--margins` and `--differences` take their directory as `--by-classes`
/// and `--tables` do: made if missing (never its parents), and a file there is named as one.
#[test]
fn result_directories_are_made_and_refused_alike() {
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let deep = dir.path().join("no").join("such");
    for flag in ["--margins", "--differences"] {
        let othello = ["othello", "--width", "4", "--height", "4", "--quiet", flag];
        assert_clean_error(&dfasolve(&[&othello[..], &[path(&file)]].concat()), "is a file, not a directory");
        assert_clean_error(&dfasolve(&[&othello[..], &[path(&deep)]].concat()), "parent directory does not exist");
        assert!(!dir.path().join("no").exists(), "{flag}: no parent made");
    }
    let by_classes = ["breakthrough", "--width", "3", "--height", "4", "--quiet", "--by-classes", path(&file)];
    assert_clean_error(&dfasolve(&by_classes), "is a file, not a directory");
}

/// Defect 15: a tiny budget is said as it is, not as "0 MiB".
#[test]
fn tiny_budgets_are_said_as_they_are() {
    let out = dfasolve(&["nim", "--heaps", "3", "--tokens", "3", "--no-save", "--max-memory", "0.000001"]);
    assert_clean_error(&out, "budget 1 kib");
    assert!(!stderr(&out).contains(" 0 MiB"), "{}", stderr(&out));
    assert_eq!(dfasolve::error::memory_text(20 << 30), "20.0 GiB");
    assert_eq!(dfasolve::error::memory_text(3 << 19), "1.5 MiB");
    assert_eq!(dfasolve::error::memory_text(512), "512 bytes");
}

/// Defect 2: a class tables file with one byte changed is refused by every command that
/// reads it, not read into an impossible answer.
#[test]
fn damaged_class_tables_are_refused_on_first_use() {
    let dir = crate::scratch::tempdir();
    let tables = dir.path().join("t3");
    let v = ["--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1", "--rule", "class"];
    let solved = dfasolve(&[&["explicit", "ostle", "--tables", path(&tables), "--quiet"][..], &v].concat());
    assert!(solved.status.success(), "{}", stderr(&solved));
    let file = std::fs::read_dir(&tables)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "ranked"))
        .unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() - 40;
    bytes[at] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let t = path(&tables);
    for args in [
        &["positions", t, "--value", "win"][..],
        &["query", t, "bbb/.o./www"],
        &["puzzles", t, "--longest"],
        &["stats", t],
        &["check", t],
    ] {
        assert_clean_error(&dfasolve(args), "checksum");
    }
}

/// Defect 14: `stats` on class tables lines its columns up under their headers.
#[test]
fn stats_on_class_tables_keeps_its_columns() {
    let dir = crate::scratch::tempdir();
    let tables = dir.path().join("t");
    let v = ["--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1", "--rule", "class"];
    assert!(
        dfasolve(&[&["explicit", "ostle", "--tables", path(&tables), "--quiet"][..], &v].concat()).status.success()
    );
    let out = dfasolve(&["stats", path(&tables)]);
    let text = crate::edges::stdout(&out);
    let lines: Vec<&str> = text.lines().skip(1).collect();
    let header = lines[0];
    assert!(lines.len() > 2, "{text}");
    for row in &lines[1..] {
        assert_eq!(row.len(), header.len(), "a row as wide as its header:\n{text}");
    }
}

/// Defect 20: a count of one takes the singular ("1 set", "1 ply", "1 word given").
#[test]
fn a_count_of_one_is_said_in_the_singular() {
    use dfasolve::counts::counted;
    assert_eq!(counted(1u32, "ply", "plies"), "1 ply");
    assert_eq!(counted(0u32, "ply", "plies"), "0 plies");
    assert_eq!(counted(3u64, "set", "sets"), "3 sets");
    let game = dfasolve::games::othello::Othello::new(4, 4, 0).unwrap();
    let why = dfasolve::game::Rules::parse(&game, "..../.ox./.xo./....").unwrap_err().to_string();
    assert!(why.contains("1 word given"), "{why}");
}

/// Defect 1: on class-reading Ostle tables a move shows the board it makes, not its class's
/// canonical (rotated or mirrored) representative, with its forbidden move carried along: the
/// answers are those of the DFA solution of the same game, move for move, two plies deep.
#[test]
fn class_tables_show_the_board_a_move_makes() {
    let dir = crate::scratch::tempdir();
    let tables = dir.path().join("t3");
    let solution = dir.path().join("d3.dfas");
    let variant = ["--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1", "--rule", "class", "--quiet"];
    let made = dfasolve(&[&["explicit", "ostle"][..], &variant, &["--tables", path(&tables)]].concat());
    assert!(made.status.success(), "{}", stderr(&made));
    let made = dfasolve(&[&["ostle"][..], &variant, &["--out", path(&solution)]].concat());
    assert!(made.status.success(), "{}", stderr(&made));
    let moves = |solved: &std::path::Path, position: &str| -> Vec<(String, String, String)> {
        let answer = json(&dfasolve(&["query", "--json", path(solved), position]));
        answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let text = |key: &str| m[key].as_str().unwrap().to_string();
                (text("move"), text("position"), text("value_for_opponent"))
            })
            .collect()
    };
    let start = moves(&tables, "bbb/.o./www");
    let b2l = start.iter().find(|(name, _, _)| name == "b2L").unwrap();
    assert_eq!(b2l.1, "bbb/o../www a2R w", "the hole moved left, not a rotated board");
    let mut compared = 0;
    for (_, after, _) in &start {
        assert_eq!(moves(&tables, after), moves(&solution, after), "after {after}");
        compared += 1;
    }
    assert_eq!(start, moves(&solution, "bbb/.o./www"));
    assert!(compared >= 5);
}

/// Defect 5: on a meet-in-the-middle solution (distances unknown) an immediate win ranks
/// first, "not covered" is explained, and the line is said to be a winning line, not best
/// play; a strong solution's line is best play.
#[test]
fn known_distances_rank_first_and_a_line_without_them_says_so() {
    let dir = crate::scratch::tempdir();
    let (meet, strong) = (dir.path().join("meet.dfas"), dir.path().join("strong.dfas"));
    let bt = ["breakthrough", "--width", "4", "--height", "5", "--quiet"];
    assert!(dfasolve(&[&bt[..], &["--out", path(&meet)]].concat()).status.success());
    let bt34 = ["breakthrough", "--width", "3", "--height", "4", "--quiet", "--strong"];
    assert!(dfasolve(&[&bt34[..], &["--out", path(&strong)]].concat()).status.success());
    let answer = json(&dfasolve(&["query", "--json", path(&meet), ".xxx/.oxx/x.../o.oo/oooo second"]));
    let moves = answer["moves"].as_array().unwrap();
    let values: Vec<&str> = moves.iter().map(|m| m["value_for_opponent"].as_str().unwrap_or("not covered")).collect();
    assert_eq!(&values[..3], ["loss in 0 plies", "loss in 0 plies", "loss"], "{values:?}");
    assert_eq!(answer["best_line"].as_array().unwrap().len(), 1, "the immediate win");
    let text = crate::edges::stdout(&dfasolve(&["query", path(&meet), ".xxx/.oxx/x.../o.oo/oooo second"]));
    assert!(text.contains("not covered: the solution values only the positions the start reaches"), "{text}");
    let start = json(&dfasolve(&["query", "--json", path(&meet), "xxxx/xxxx/..../oooo/oooo first"]));
    assert_eq!(start["best_line_is_best_play"], false);
    let text = crate::edges::stdout(&dfasolve(&["query", path(&meet), "xxxx/xxxx/..../oooo/oooo first"]));
    assert!(text.contains("a winning line, not best play (no distances)"), "{text}");
    let start = json(&dfasolve(&["query", "--json", path(&strong), "xxx/xxx/.../ooo first"]));
    assert_eq!(start["best_line_is_best_play"], true);
}

/// Defect 8: Othello's result directories are read by `check` and `stats`, and `positions`
/// and `puzzles` say they do not apply and what to ask instead, not "corrupt file".
#[test]
fn othello_result_directories_are_read_or_refused_by_name() {
    let dir = crate::scratch::tempdir();
    let (margins, differences) = (dir.path().join("m43"), dir.path().join("d43"));
    let othello = ["othello", "--width", "4", "--height", "3", "--reachable", "--quiet"];
    for (flag, at) in [("--margins", &margins), ("--differences", &differences)] {
        let solved = dfasolve(&[&othello[..], &[flag, path(at)]].concat());
        assert!(solved.status.success(), "{}", stderr(&solved));
        let checked = dfasolve(&["check", path(at)]);
        assert!(checked.status.success(), "{}", stderr(&checked));
        assert!(crate::edges::stdout(&checked).contains("check passed"));
        let stats = dfasolve(&["stats", path(at)]);
        assert!(stats.status.success(), "{}", stderr(&stats));
        assert!(
            crate::edges::stdout(&stats).contains("total: ") && crate::edges::stdout(&stats).contains(" 382 positions")
        );
        assert_clean_error(&dfasolve(&["positions", path(at), "--value", "win"]), "positions does not apply");
        assert_clean_error(&dfasolve(&["puzzles", path(at), "--longest"]), "puzzles does not apply");
    }
    let checked = json(&dfasolve(&["check", "--json", path(&margins)]));
    assert_eq!((&checked["passed"], &checked["start_difference"]), (&serde_json::json!(true), &serde_json::json!(12)));
    assert_eq!(checked["thresholds"].as_array().unwrap().len(), 25);
}

/// Defect 22: `puzzles` on Ostle tables says how many states pass the filter, as on a DFA
/// solution: with no filter every one passes, and with one the count is the number listed
/// when the limit lets every one through.
#[test]
fn puzzles_on_tables_count_what_passes_the_filter() {
    let dir = crate::scratch::tempdir();
    let tables = dir.path().join("t3");
    let v = ["--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1", "--rule", "class", "--quiet"];
    assert!(dfasolve(&[&["explicit", "ostle", "--tables", path(&tables)][..], &v].concat()).status.success());
    let t = path(&tables);
    let all = json(&dfasolve(&["puzzles", t, "--plies", "9", "--json", "--limit", "1000"]));
    assert_eq!(all["passing"], all["states_with_the_value"]);
    assert_eq!(all["examined"], all["states_with_the_value"]);
    assert_eq!(all["puzzles"].as_array().unwrap().len() as u64, all["passing"].as_u64().unwrap());
    let unique = json(&dfasolve(&["puzzles", t, "--plies", "9", "--unique", "--json", "--limit", "1000"]));
    let passing = unique["passing"].as_u64().unwrap();
    assert!(0 < passing && passing < all["passing"].as_u64().unwrap(), "{unique}");
    assert_eq!(unique["puzzles"].as_array().unwrap().len() as u64, passing);
    let text = crate::edges::stdout(&dfasolve(&["puzzles", t, "--plies", "9", "--unique", "--limit", "1"]));
    assert!(text.contains(&format!("{passing} pass the filter; 1 shown")), "{text}");
}

/// Defects 19 and 20: one word for a side in every JSON report (`first`, as people type it),
/// and Othello's board drawn like the other games', with its row convention said.
#[test]
fn sides_are_one_word_and_every_board_is_drawn() {
    let dir = crate::scratch::tempdir();
    let bt = dir.path().join("bt.dfas");
    let solved = json(&dfasolve(&["breakthrough", "--width", "3", "--height", "4", "--json", "--out", path(&bt)]));
    let sides: std::collections::BTreeSet<&str> =
        solved["steps"].as_array().unwrap().iter().map(|s| s["side"].as_str().unwrap()).collect();
    assert_eq!(sides.into_iter().collect::<Vec<_>>(), ["first", "second"]);
    let asked = json(&dfasolve(&["query", "--json", path(&bt), "xxx/xxx/ooo/ooo first"]));
    assert_eq!(asked["side_to_move"], "first");
    let othello = dir.path().join("o.dfas");
    let args = ["othello", "--width", "4", "--height", "3", "--reachable", "--quiet", "--out", path(&othello)];
    assert!(dfasolve(&args).status.success());
    let asked = json(&dfasolve(&["query", "--json", path(&othello), ".ox./.xo./.... black"]));
    let board = asked["board"].as_str().unwrap();
    assert!(board.starts_with("1  . o x .\n2  . x o .\n3  . . . .\n   a b c d"), "{board}");
    assert!(board.contains("rows count from 1 at the top"), "{board}");
}

/// Defects 9 and 17: a long census is refused with its estimate unless `--long`, the DFA
/// solve's refusal gives time and memory with the explicit solver's estimate beside it, a
/// large solve says what it is doing within seconds, before its first step ends, and
/// Othello's jobs are estimated and refused alike.
#[test]
fn long_jobs_are_said_before_they_start() {
    let census = dfasolve(&["ostle", "--census"]);
    assert_clean_error(&census, "refused without --long");
    assert!(stderr(&census).contains("boards up to symmetry") && stderr(&census).contains("min"));
    let solve = dfasolve(&["ostle"]);
    assert_clean_error(&solve, "refused without --long");
    assert!(stderr(&solve).contains("at least") && stderr(&solve).contains("GB of tables"), "{}", stderr(&solve));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dfasolve"))
        .args(["nim", "--heaps", "64", "--tokens", "255", "--long", "--progress", "--no-save"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let errors = child.stderr.take().unwrap();
    let (said, heard) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let mut line = String::new();
        let _ = std::io::BufReader::new(errors).read_line(&mut line);
        let _ = said.send(line);
    });
    let first = heard.recv_timeout(std::time::Duration::from_secs(20));
    let _ = child.kill();
    let _ = child.wait();
    let first = first.expect("a line within seconds");
    assert!(first.starts_with("[") && first.contains("] nim 64x255: about "), "{first}");
    let refused = dfasolve(&["nim", "--heaps", "64", "--tokens", "255", "--no-save"]);
    assert_clean_error(&refused, "refused without --long");
    assert!(stderr(&refused).contains("GB"), "{}", stderr(&refused));
    // Othello: every job but the ply counts (bounded ply by ply) has an estimate.
    let othello = dfasolve(&["othello", "--width", "8", "--height", "8", "--no-save"]);
    assert_clean_error(&othello, "refused without --long");
    assert!(stderr(&othello).contains("10^28 positions") && stderr(&othello).contains("years"));
    let dir = crate::scratch::tempdir();
    let differences = dfasolve(&["othello", "--width", "5", "--height", "5", "--differences", path(dir.path())]);
    assert_clean_error(&differences, "refused without --long");
    assert!(stderr(&differences).contains("min") && stderr(&differences).contains("GB of tables"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written before the refusal");
}

/// Defect 3: `positions` on class tables counts the census's states, as the census does, on
/// tables of several classes: from the census the solve saves beside each class, or taken on
/// the spot where none was saved; a census of other tables is refused.
#[test]
fn positions_on_tables_count_as_the_census_does() {
    let dir = crate::scratch::tempdir();
    for (name, v) in [
        ("t3", &["--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1", "--rule", "class"][..]),
        ("t34", &["--width", "3", "--height", "4", "--pieces", "3", "--lose-at", "2", "--rule", "exact"][..]),
    ] {
        let tables = dir.path().join(name);
        let solved = json(&dfasolve(&[&["explicit", "ostle", "--json", "--tables", path(&tables)][..], v].concat()));
        let census = &solved["census"];
        let saved = tables.join("class-3v3.census");
        assert!(saved.exists(), "{name}: the solve saves each class's census");
        let counts = |tables: &std::path::Path| -> Vec<(String, u64)> {
            ["win", "loss", "draw"]
                .iter()
                .flat_map(|kind| {
                    let listed =
                        json(&dfasolve(&["positions", "--json", path(tables), "--value", kind, "--limit", "0"]));
                    assert!(listed["counted"].as_str().unwrap().contains("the census's non-trivial states"));
                    listed["counts"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|t| (t["value"].as_str().unwrap().to_string(), t["count"].as_u64().unwrap()))
                        .collect::<Vec<_>>()
                })
                .collect()
        };
        let from_saved = counts(&tables);
        let mut expected = Vec::new();
        for (d, n) in census["by_d"].as_array().unwrap().iter().enumerate() {
            let n = n["classes"].as_u64().unwrap();
            if n > 0 {
                let (kind, plies) = (if d % 2 == 0 { "win" } else { "loss" }, d + 1);
                expected.push((format!("{kind} in {plies} plies"), n));
            }
        }
        expected.push(("draw".to_string(), census["draws"]["classes"].as_u64().unwrap()));
        expected.retain(|e| e.1 > 0);
        let mut sorted = from_saved.clone();
        sorted.sort();
        expected.sort();
        assert_eq!(sorted, expected, "{name}");
        // Without the saved census the counts are the same, taken on the spot.
        let kept = std::fs::read(&saved).unwrap();
        std::fs::remove_file(&saved).unwrap();
        assert_eq!(counts(&tables), from_saved, "{name}");
        // A census of other tables is refused.
        let other = String::from_utf8(kept).unwrap();
        let digest = other.split("\"tables_sha256\": \"").nth(1).unwrap()[..64].to_string();
        std::fs::write(&saved, other.replace(&digest, &"0".repeat(64))).unwrap();
        let refused = dfasolve(&["positions", path(&tables), "--value", "win"]);
        assert_clean_error(&refused, "taken of other tables");
    }
}
