//! Issue 40's defects, one reproducer each: what a new user hit exploring solutions.
use crate::edges::{assert_clean_error, bin, dfasolve, json, path, stderr, stdout};
#[cfg(unix)]
use std::os::unix::fs::FileTypeExt;

/// Defects 1 and 6: a solve by classes saves a solution that `query` and `check` read (one
/// entry per value), `--quiet` leaves out the per-step table, and the table and the CSV name
/// each step's class.
#[test]
fn a_solve_by_classes_saves_a_readable_solution_and_names_its_classes() {
    let dir = crate::scratch::tempdir();
    let (classes, file, csv) = (dir.path().join("classes"), dir.path().join("bt.dfas"), dir.path().join("run.csv"));
    let solve = |extra: &[&str]| {
        let mut args = vec!["breakthrough", "--width", "3", "--height", "4", "--by-classes", path(&classes)];
        args.extend(["--out", path(&file)]);
        args.extend(extra);
        dfasolve(&args)
    };
    let quiet = solve(&["--quiet", "--csv", path(&csv)]);
    assert!(quiet.status.success(), "{}", stderr(&quiet));
    let text = stdout(&quiet);
    assert!(text.lines().count() <= 4, "quiet: the headline and totals only:\n{text}");
    assert!(text.contains("second player (P2) wins"), "{text}");
    let q = json(&dfasolve(&["query", path(&file), "xxx/.../.../ooo first", "--json"]));
    assert!(q.to_string().contains("loss"), "{q}");
    let checked = dfasolve(&["check", path(&file), "--sample", "20"]);
    assert!(checked.status.success(), "{}", stderr(&checked));
    let record = std::fs::read_to_string(&csv).unwrap();
    assert!(
        record.starts_with("game,phase,step,side,set,") && record.lines().next().unwrap().ends_with(",class,program")
    );
    for line in record.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        assert!(!fields[11].is_empty(), "every step names its class: {line}");
        assert!(fields[12].starts_with("dfasolve ") && fields[12].contains("(commit "), "and the program: {line}");
    }
    // Read again from the class files: the same values, and a table with the class column.
    let again = solve(&[]);
    let table = stdout(&again);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(table.contains("second player (P2) wins"));
    assert!(!table.contains("largest DFA 0 states"), "{table}");
    let chart = json(&dfasolve(&["plot", path(&csv), "--out", path(&dir.path().join("run.svg")), "--json"]));
    assert_eq!(chart["title"], serde_json::json!("breakthrough 3x4: retrograde iterations"));
    let svg = std::fs::read_to_string(dir.path().join("run.svg")).unwrap();
    assert!(svg.contains("classes one after another"), "the x axis says how the classes' steps are laid");
}

/// Defect 13: a law that does not fit is not printed as the run's compression law.
#[test]
fn plot_draws_a_compression_law_only_where_one_fits() {
    let dir = crate::scratch::tempdir();
    let csv = dir.path().join("two.csv");
    let header = "game,phase,step,side,set,positions,states,bytes,positions_per_byte,elapsed_s,peak_rss_bytes\n";
    let rows = "g,Backward,0,first,loss,10,5,80,0.1,0.1,\ng,Backward,1,first,new_win,1000,9,80,0.1,0.2,\n";
    std::fs::write(&csv, format!("{header}{rows}")).unwrap();
    let out = dfasolve(&["plot", path(&csv), "--out", path(&dir.path().join("two.svg"))]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("no law drawn (only 2 sets"), "{}", stdout(&out));
    let chart = json(&dfasolve(&["plot", path(&csv), "--out", path(&dir.path().join("two.svg")), "--json"]));
    assert!(chart["fit_not_drawn"].as_str().unwrap().contains("only 2 sets"), "{chart}");
}

/// Defects 4 and 9: the defaults (the standard 5x5 game) are refused with their cost unless
/// `--long` asks for hours; nothing is written by a refusal; a tables directory the user names
/// is made only where its parent is; `--out` names the tables directory too.
#[test]
fn long_solves_are_refused_with_their_estimate() {
    let dir = crate::scratch::tempdir();
    let at_home = |args: &[&str]| bin().args(args).current_dir(dir.path()).output().unwrap();
    let refused = at_home(&["explicit", "ostle"]);
    assert_clean_error(&refused, "--long");
    assert!(stderr(&refused).contains("GB of tables"), "{}", stderr(&refused));
    assert_clean_error(&at_home(&["ostle"]), "--long");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "a refusal writes nothing");
    let v = ["--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1", "--rule", "class", "--quiet"];
    let nowhere = dir.path().join("missing").join("tables");
    assert_clean_error(&at_home(&[&["explicit", "ostle", "--tables", path(&nowhere)][..], &v].concat()), "cannot make");
    let out = dir.path().join("t33");
    let solved = at_home(&[&["explicit", "ostle", "--out", path(&out), "--json"][..], &v].concat());
    assert_eq!(json(&solved)["initial_value"], serde_json::json!("win in 17 plies"), "Black wins in 17 plies");
    assert!(out.join("class-3v3.ranked").exists());
    // Solved tables: the levels alone, without the census.
    let levels = json(&at_home(
        &[&["explicit", "ostle", "--out", path(&out), "--json", "--no-census", "--levels"][..], &v].concat(),
    ));
    assert!(
        levels["census"].is_null() && levels["classes"][0]["already_solved"] == serde_json::json!(true),
        "{levels}"
    );
    assert_eq!(levels["levels_from_start"][0], serde_json::json!(1), "the start alone at level 0");
}

/// Defect 2: paths are written as the user means them. A FIFO given to `--csv` receives the
/// record, a symbolic link given to `export` still links to the file it wrote, a device stays
/// a device, and a missing directory is refused, not made.
#[cfg(unix)]
#[test]
fn outputs_follow_links_stream_to_special_files_and_make_no_directories() {
    let dir = crate::scratch::tempdir();
    let nim = ["nim", "--heaps", "2", "--tokens", "3", "--quiet"];
    let nowhere = dir.path().join("no").join("such").join("x.dfas");
    assert_clean_error(&dfasolve(&[&nim[..], &["--out", path(&nowhere)]].concat()), "does not exist");
    assert!(!dir.path().join("no").exists(), "no directory is made unasked");
    let solution = dir.path().join("nim.dfas");
    let fifo = dir.path().join("record.fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = dfasolve(&[&nim[..], &["--out", path(&solution), "--csv", path(&fifo)]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(reader.join().unwrap().starts_with("game,phase,step,"), "the record went into the FIFO");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO stays a FIFO");
    let (real, link) = (dir.path().join("loss.dfa1"), dir.path().join("link.dfa1"));
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let exported = dfasolve(&["export", path(&solution), "first/loss", path(&link)]);
    assert!(exported.status.success(), "{}", stderr(&exported));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert!(std::fs::metadata(&real).unwrap().len() > 0, "the file it names is written");
    let to_null = dfasolve(&[&nim[..], &["--out", "/dev/null"]].concat());
    assert!(to_null.status.success(), "{}", stderr(&to_null));
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device(), "/dev/null stays a device");
}

/// Ostle(4x4, 3, 1)'s lowest class (2 v 2) solved by rank into `DIR/t`, in the class reading.
fn lowest_class_of_4x4(dir: &std::path::Path) -> std::path::PathBuf {
    let tables = dir.join("t");
    let v = ["--width", "4", "--height", "4", "--pieces", "3", "--lose-at", "1", "--rule", "class"];
    let solved =
        dfasolve(&[&["explicit", "ostle", "--tables", path(&tables), "--class", "2v2", "--quiet"][..], &v].concat());
    assert!(solved.status.success(), "{}", stderr(&solved));
    tables
}

/// Defect 10: a directory with only the lower classes solved answers for their positions,
/// and names the class to solve for the others.
#[test]
fn partly_solved_tables_answer_their_classes_and_name_the_missing_one() {
    let dir = crate::scratch::tempdir();
    let tables = lowest_class_of_4x4(dir.path());
    let q = json(&dfasolve(&["query", path(&tables), "b..b/..o./..../w..w -", "--json"]));
    assert_eq!(q["value"], serde_json::json!("draw"), "{q}");
    assert_clean_error(&dfasolve(&["query", path(&tables), "bb.b/..o./..../w.ww -"]), "class 3v3 is not solved");
    assert_clean_error(&dfasolve(&["play", path(&tables)]), "class 3v3 is not solved");
    // Defect 12: a class tables file given where a DFA file goes is named for what it is.
    let file = tables.join("class-2v2.ranked");
    assert_clean_error(&dfasolve(&["stats", path(&file)]), "ostle class tables");
}

/// Defect 3: the memory budget holds from the first set built (the terminal sets' "has move"
/// step ran unwatched, to 7.2 GB under a 2 GiB budget). The peak is read by `/usr/bin/time`.
#[cfg(target_os = "linux")]
#[test]
fn the_memory_budget_holds_from_the_first_set() {
    let nim = ["nim", "--heaps", "64", "--tokens", "255", "--long", "--max-memory", "0.3", "--no-save", "--quiet"];
    let out = std::process::Command::new("/usr/bin/time")
        .args(["-f", "peak %M KiB", env!("CARGO_BIN_EXE_dfasolve")])
        .args(nim)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(!out.status.success() && err.contains("memory budget") && !err.contains("panicked"), "{err}");
    let peak: u64 = err
        .lines()
        .find_map(|l| l.strip_prefix("peak ")?.strip_suffix(" KiB")?.parse().ok())
        .unwrap_or_else(|| panic!("no peak in {err}"));
    assert!(peak < 400 * 1024, "peak {peak} KiB under a budget of 0.3 GiB");
}

/// Probing many positions: `query` without a position reads them from standard input, one per
/// line, loading the solution once; a bad line is answered by an error object and the exit
/// status says some failed.
#[test]
fn query_answers_positions_from_standard_input() {
    use std::io::Write;
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("nim.dfas");
    let solved = dfasolve(&["nim", "--heaps", "3", "--tokens", "3", "--quiet", "--out", path(&file)]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    let probe = |input: &str| {
        let mut child = bin()
            .args(["query", path(&file), "--json"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    };
    let out = probe("1,2,3 first\n\n3,3,0 second\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "one object per position, blank lines skipped");
    // 1 ^ 2 ^ 3 = 0 and 3 ^ 3 ^ 0 = 0: both lost for the mover.
    for (line, want) in lines.iter().zip(["1,2,3 first", "3,3,0 second"]) {
        assert_eq!(line["position"], serde_json::json!(want));
        assert!(line["value"].as_str().unwrap().starts_with("loss"), "{line}");
    }
    let bad = probe("1,2,3 first\nnot a position\n");
    assert!(!bad.status.success());
    let lines: Vec<serde_json::Value> = stdout(&bad).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(lines[1]["error"].is_string(), "{}", lines[1]);
}

/// The best line: `query` plays the principal variation to the end, the winner quickest and
/// the loser slowest, so a win in n plies has a line of n plies; a draw is cut and says so.
#[test]
fn query_shows_the_best_line_to_the_end() {
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("nim.dfas");
    let solved = dfasolve(&["nim", "--heaps", "3", "--tokens", "3", "--strong", "--quiet", "--out", path(&file)]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    for (position, plies) in [("1,2,2 first", 5), ("3,3,0 second", 6), ("0,0,1 second", 1)] {
        let q = json(&dfasolve(&["query", path(&file), position, "--json"]));
        let unit = if plies == 1 { "ply" } else { "plies" };
        assert!(q["value"].as_str().unwrap().ends_with(&format!(" in {plies} {unit}")), "{q}");
        assert_eq!(q["best_line"].as_array().unwrap().len(), plies, "{q}");
        assert_eq!(q["best_line_end"], serde_json::json!("the game is over"));
    }
    let tables = lowest_class_of_4x4(dir.path());
    let q = json(&dfasolve(&["query", path(&tables), "b..b/..o./..../w..w -", "--json"]));
    assert_eq!(q["best_line"].as_array().unwrap().len(), 20, "{q}");
    assert!(q["best_line_end"].as_str().unwrap().starts_with("a draw, cut"), "{q}");
}

/// Puzzles on a DFA solution of any game: the longest wins with exactly one winning move, each
/// listed with that move and a line that ends the game in as many plies; every member of the
/// value class examined and counted; a game without pieces has no sacrifices, and a meet in
/// the middle no longest win.
#[test]
fn puzzles_work_on_dfa_solutions_of_any_game() {
    let dir = crate::scratch::tempdir();
    let (bt, nim, mitm) = (dir.path().join("bt.dfas"), dir.path().join("nim.dfas"), dir.path().join("mitm.dfas"));
    let solved =
        dfasolve(&["breakthrough", "--width", "4", "--height", "4", "--strong", "--quiet", "--out", path(&bt)]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    let p = json(&dfasolve(&["puzzles", path(&bt), "--longest", "--unique", "--json", "--limit", "3"]));
    assert_eq!(p["complete"], true);
    let (with_value, passing) = (p["states_with_the_value"].as_u64().unwrap(), p["passing"].as_u64().unwrap());
    assert!(with_value > passing && passing >= 3, "{p}");
    for puzzle in p["puzzles"].as_array().unwrap() {
        let plies = puzzle["plies"].as_u64().unwrap() as usize;
        assert_eq!(puzzle["winning_moves"].as_array().unwrap().len(), 1);
        let line = puzzle["line"].as_array().unwrap();
        assert_eq!(line.len(), plies);
        assert_eq!(line[0], puzzle["winning_moves"][0]);
        // The position wins in as many plies, by `query`.
        let q = json(&dfasolve(&["query", path(&bt), puzzle["position"].as_str().unwrap(), "--json"]));
        assert_eq!(q["value"], format!("win in {plies} plies"), "{q}");
    }
    let every = json(&dfasolve(&["puzzles", path(&bt), "--longest", "--json", "--limit", "0"]));
    assert_eq!(every["passing"], every["states_with_the_value"]);
    let n = dfasolve(&["nim", "--heaps", "3", "--tokens", "3", "--strong", "--quiet", "--out", path(&nim)]);
    assert!(n.status.success(), "{}", stderr(&n));
    assert_clean_error(&dfasolve(&["puzzles", path(&nim), "--sacrifice"]), "no pieces to sacrifice");
    assert_clean_error(&dfasolve(&["puzzles", path(&nim), "--plies", "3", "--no-forbidden-move"]), "class tables");
    assert_clean_error(&dfasolve(&["puzzles", path(&nim)]), "say which wins");
    let m = dfasolve(&["breakthrough", "--width", "3", "--height", "4", "--quiet", "--out", path(&mitm)]);
    assert!(m.status.success(), "{}", stderr(&m));
    assert_clean_error(&dfasolve(&["puzzles", path(&mitm), "--longest"]), "meet in the middle");
}

/// `serve`: the page, the start, and for a position the very object `query --json` writes; a
/// bad position is a 400 with the error, an unknown path a 404.
#[test]
fn serve_answers_as_query_does() {
    use std::io::{BufRead, Read, Write};
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("bt.dfas");
    let solved =
        dfasolve(&["breakthrough", "--width", "3", "--height", "4", "--strong", "--quiet", "--out", path(&file)]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    /// The server, stopped however the test ends.
    struct Running(std::process::Child);
    impl Drop for Running {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut server = Running(
        bin()
            .args(["serve", path(&file), "--port", "0", "--host", "127.0.0.1"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut first = String::new();
    std::io::BufReader::new(server.0.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let address = first.split("http://").nth(1).unwrap().split('/').next().unwrap().to_string();
    let get = |target: &str| {
        let mut s = std::net::TcpStream::connect(&address).unwrap();
        write!(s, "GET {target} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        s.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        (head.split(' ').nth(1).unwrap().parse::<u16>().unwrap(), body.to_string())
    };
    let (status, page) = get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<title>dfasolve</title>"));
    assert!(first.contains("this machine only"), "{first}");
    // The start is drawn in the page itself (issue 65, defect 21), and without a script the
    // page says what it is.
    let drawn = json(&dfasolve(&["query", path(&file), "xxx/xxx/ooo/ooo first", "--json"]))["board"].clone();
    assert!(page.contains(&format!("<pre id=\"board\">{}</pre>", drawn.as_str().unwrap())), "{page}");
    assert!(page.contains("<noscript>"));
    let start: serde_json::Value = serde_json::from_str(&get("/api/start").1).unwrap();
    assert_eq!(start["position"], "xxx/xxx/ooo/ooo first");
    let (status, body) = get("/api/query?position=xxx%2F.x.%2Fooo%2F...+second");
    assert_eq!(status, 200);
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer, json(&dfasolve(&["query", path(&file), "xxx/.x./ooo/... second", "--json"])));
    let (status, body) = get("/api/query?position=xxx");
    assert_eq!(status, 400);
    assert!(body.contains("error"), "{body}");
    assert_eq!(get("/elsewhere").0, 404);
}

/// Runs `play` on `solution` with `args`, typing `typed`; returns its output.
fn play(solution: &std::path::Path, args: &[&str], typed: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = bin()
        .args([&["play", path(solution)][..], args].concat())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.as_mut().unwrap().write_all(typed.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// Play: the person's moves are listed best first with the value each leaves the opponent;
/// `h` turns the values off (moves by name), `u` takes the person's last move back, and
/// `s FILE` and `--record FILE` save the game's record with the program that played it.
#[test]
fn play_lists_moves_best_first_with_hints_undo_and_a_saved_record() {
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("bt.dfas");
    let solved =
        dfasolve(&["breakthrough", "--width", "3", "--height", "4", "--strong", "--quiet", "--out", path(&file)]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    let start = json(&dfasolve(&["query", path(&file), "xxx/.../.../ooo first", "--json"]));
    let mut by_name: Vec<&str> =
        start["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    by_name.sort_unstable();
    let (saved, record) = (dir.path().join("saved.json"), dir.path().join("record.json"));
    let typed = format!("u\n1\nu\nh\n1\ns {}\nq\n", path(&saved));
    let from = "xxx/.../.../ooo first";
    let out = play(&file, &["--side", "first", "--from", from, "--record", path(&record)], &typed);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("your moves, best first (the value each leaves me):"), "{text}");
    assert!(text.contains(&format!("1) {} ({})", start["moves"][0]["move"].as_str().unwrap(), {
        start["moves"][0]["value_for_opponent"].as_str().unwrap()
    })));
    assert!(text.contains("nothing of yours to take back"), "u before any move: {text}");
    let (_, hidden) = text.split_once("hints off").expect("h turns the hints off");
    assert!(!hidden.contains(" in ") && !hidden.contains("leaves you"), "no values with the hints off: {hidden}");
    assert!(hidden.contains(&format!("1) {}\n", by_name[0])), "moves by name with the hints off: {hidden}");
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(saved, record, "nothing was played between the save and the end");
    let moves = record["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2, "the undone move is not in the record: {record}");
    assert_eq!((moves[0]["side"].as_str(), moves[0]["move"].as_str()), (Some("first"), Some(by_name[0])));
    assert_eq!(moves[0]["value_before"], start["value"]);
    assert_eq!(record["start"], start["position"]);
    assert_eq!(record["finished"], serde_json::json!(false));
    assert!(record["program"].as_str().unwrap().contains("(commit "), "{record}");
}

/// Play on Ostle class tables goes through the same loop: hints, undo and the record.
#[test]
fn play_on_class_tables_takes_back_and_records() {
    let dir = crate::scratch::tempdir();
    let tables = lowest_class_of_4x4(dir.path());
    let record = dir.path().join("record.json");
    let from = "b..b/..o./..../w..w -";
    let out = play(&tables, &["--from", from, "--record", path(&record)], "1\nu\n1\nq\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let best = json(&dfasolve(&["query", path(&tables), from, "--json"]))["moves"][0]["move"].clone();
    assert_eq!(record["moves"][0]["move"], best, "{record}");
    assert_eq!(record["moves"].as_array().unwrap().len(), 2, "{record}");
    assert_eq!(record["game"], serde_json::json!("ostle 4x4 k3 t1 class"));
}

/// Provenance and one shape: every report names the program and its commit, values are
/// the same text everywhere, and every game's solve opens with the same headline.
#[test]
fn reports_name_the_program_and_write_values_one_way() {
    let version = stdout(&dfasolve(&["--version"]));
    assert!(version.starts_with("dfasolve ") && version.contains("(commit "), "{version}");
    let program = format!("dfasolve {}", version.trim().trim_start_matches("dfasolve "));
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("nim.dfas");
    let solved = json(&dfasolve(&["nim", "--heaps", "2", "--tokens", "3", "--strong", "--json", "--out", path(&file)]));
    assert_eq!(solved["program"], serde_json::json!(program));
    assert_eq!(solved["winner"], serde_json::json!("second player (P2)"));
    let stats = json(&dfasolve(&["stats", path(&file), "--json"]));
    assert_eq!(stats["meta"]["program"], serde_json::json!(program), "the file records who wrote it");
    assert_eq!(stats["meta"]["initial_value"], solved["initial_value"], "{stats}");
    assert!(stats["meta"]["classes"].as_array().unwrap().iter().all(|c| c["outcome"].is_string()), "{stats}");
    let check = json(&dfasolve(&["check", path(&file), "--json"]));
    assert!(check["classes"].as_array().unwrap().iter().all(|c| c["value"].is_string()), "{check}");
    assert_eq!(check["program"], serde_json::json!(program));
    let q = json(&dfasolve(&["query", path(&file), "3,3 first", "--json"]));
    assert_eq!(q["value"], solved["initial_value"]);
    // One headline: who wins, then the start's value for the first player.
    let headline = |args: &[&str]| stdout(&dfasolve(args)).lines().next().unwrap_or_default().to_string();
    let nim = headline(&["nim", "--heaps", "2", "--tokens", "3", "--strong", "--quiet", "--no-save"]);
    assert_eq!(nim, "nim 2x3: the second player (P2) wins; the start is a loss in 6 plies for the first player");
    let bt = headline(&["breakthrough", "--width", "3", "--height", "4", "--quiet", "--no-save"]);
    assert!(bt.starts_with("breakthrough 3x4: the second player (P2) wins; the start is a loss"), "{bt}");
    let ostle = ["ostle", "--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1", "--quiet", "--no-save"];
    let ostle = headline(&ostle);
    assert!(ostle.starts_with("ostle 3x3 k3 t1 exact: "), "{ostle}");
    assert!(ostle.contains(" wins; the start is a ") || ostle.contains("nobody wins, a draw"), "{ostle}");
}

/// Positions of a value class: counts per distance that add up to the solution's own, the
/// listed positions of the value asked for (the first in order, or a seeded sample), on a DFA
/// solution and on class tables alike.
#[test]
fn positions_of_a_value_come_with_counts_per_distance() {
    let dir = crate::scratch::tempdir();
    let file = dir.path().join("bt.dfas");
    let solved =
        dfasolve(&["breakthrough", "--width", "3", "--height", "4", "--strong", "--quiet", "--out", path(&file)]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    let stats = json(&dfasolve(&["stats", path(&file), "--json"]));
    let losses = json(&dfasolve(&["positions", path(&file), "--value", "loss", "--longest", "--limit", "3", "--json"]));
    let counted: u64 = losses["counts"].as_array().unwrap().iter().map(|t| t["count"].as_u64().unwrap()).sum();
    let in_stats: u64 = stats["sets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["name"].as_str().unwrap().contains("/loss"))
        .map(|s| s["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, in_stats, "every loss counted once: {losses}");
    let longest = losses["plies"].as_u64().unwrap();
    assert!(losses["counts"].as_array().unwrap().iter().all(|t| t["plies"].as_u64().unwrap() <= longest));
    for p in losses["positions"].as_array().unwrap() {
        assert_eq!(p["value"], serde_json::json!(format!("loss in {longest} plies")), "{p}");
        assert_eq!(p["best_line"].as_array().unwrap().len() as u64, longest, "the loser's longest line: {p}");
    }
    let sample = |seed: &str| {
        let args =
            ["positions", path(&file), "--value", "win", "--side", "second", "--sample", "4", "--seed", seed, "--json"];
        json(&dfasolve(&args))
    };
    let (a, b) = (sample("5"), sample("5"));
    assert_eq!(a, b, "a seeded sample is the same twice");
    assert_eq!(a["positions"].as_array().unwrap().len(), 4);
    assert!(a["positions"].as_array().unwrap().iter().all(|p| p["position"].as_str().unwrap().ends_with(" second")));
    assert!(a["counts"].as_array().unwrap().iter().all(|t| t["side"] == serde_json::json!("second")));
    // Class tables: states up to symmetry, the same value everywhere, no side to choose.
    let tables = lowest_class_of_4x4(dir.path());
    let draws = json(&dfasolve(&["positions", path(&tables), "--value", "draw", "--limit", "2", "--json"]));
    assert_eq!(draws["positions"].as_array().unwrap().len(), 2, "{draws}");
    for p in draws["positions"].as_array().unwrap() {
        let q = json(&dfasolve(&["query", path(&tables), p["position"].as_str().unwrap(), "--json"]));
        assert_eq!(q["value"], serde_json::json!("draw"), "{q}");
    }
    assert_clean_error(&dfasolve(&["positions", path(&tables), "--value", "win", "--side", "first"]), "--side");
    assert_clean_error(&dfasolve(&["positions", path(&file), "--value", "draw", "--longest"]), "--longest");
}

/// Class tables in the published reading answer every move of every state they hold: a move's
/// result carries the forbidden move that reading gives it, so it is a state of the tables.
#[test]
fn every_move_of_class_tables_leads_to_a_state_they_hold() {
    use std::io::Write;
    use std::process::Stdio;
    let dir = crate::scratch::tempdir();
    let tables = lowest_class_of_4x4(dir.path());
    let mut states = Vec::new();
    for value in ["win", "loss", "draw"] {
        let listed = json(&dfasolve(&["positions", path(&tables), "--value", value, "--sample", "300", "--json"]));
        states.extend(
            listed["positions"].as_array().unwrap().iter().map(|p| p["position"].as_str().unwrap().to_string()),
        );
    }
    assert!(states.len() > 500, "{}", states.len());
    let mut child = bin()
        .args(["query", path(&tables), "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all((states.join("\n") + "\n").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    for line in stdout(&out).lines() {
        let q: serde_json::Value = serde_json::from_str(line).unwrap();
        for m in q["moves"].as_array().unwrap() {
            assert!(m["value_for_opponent"].is_string(), "{}: {m}", q["position"]);
        }
    }
}
