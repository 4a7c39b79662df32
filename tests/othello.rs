//! Othello's exact margins end to end: `othello --margins DIR` solves every threshold, and the
//! directory answers every position with the plain rules' negamax difference.
use crate::cli::{assert_clean_error, dfasolve};
use dfasolve::game::Rules;
use dfasolve::games::othello::Othello;
use dfasolve::games::othello::explicit::{Geometry, Negamax};
use dfasolve::games::othello::margins::MarginsSolved;
use dfasolve::vocabulary::{Position, Side};

#[test]
fn margins_give_every_position_its_negamax_difference() {
    let dir = crate::scratch::tempdir();
    let m = dir.path().join("m");
    let args = ["othello", "--width", "4", "--height", "3", "--reachable", "--margins", m.to_str().unwrap(), "--json"];
    let out = dfasolve(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let margins = MarginsSolved::open(&m, &dfasolve::games::GAMES).unwrap();
    let game = Othello::new(4, 3, 0).unwrap().reachable_only();
    let mut negamax = Negamax::new(Geometry::new(4, 3).unwrap());
    let mut checked = 0;
    for side in Side::BOTH {
        for board in game.universe(side).unwrap().iter() {
            let pos = Position { side, board };
            let for_mover = i32::from(negamax.value(game.discs(&pos)));
            let black = if side == Side::First { for_mover } else { -for_mover };
            assert_eq!(margins.difference(&pos).unwrap(), Some(black), "{}", game.render(&pos));
            checked += 1;
        }
    }
    assert_eq!(checked, 382);
    assert_eq!(report["index"]["start_difference"], 12);
    assert_eq!(report["index"]["thresholds"].as_array().unwrap().len(), 25);
    // The directory answers queries with each move's score, best first.
    let q = dfasolve(&["query", m.to_str().unwrap(), ".ox./.xo./.... black"]);
    let text = String::from_utf8_lossy(&q.stdout);
    assert!(q.status.success() && text.contains("final score +12"), "{text}");
    // Issue 65, defect 4: the value is the score's, with no distance from the win-or-loss solve
    // to contradict the line the scores choose; that line is best play.
    let q = dfasolve(&["query", "--json", m.to_str().unwrap(), ".ox./.xo./.... black"]);
    let answer: serde_json::Value = serde_json::from_slice(&q.stdout).unwrap();
    assert_eq!((&answer["value"], &answer["score"]), (&serde_json::json!("win"), &serde_json::json!(12)));
    for m in answer["moves"].as_array().unwrap() {
        assert!(!m["value_for_opponent"].as_str().unwrap().contains(" in "), "{m}");
    }
    assert_eq!(answer["best_line_is_best_play"], true);
    // A second run reads the saved thresholds (none is solved and written again) and gives the
    // same index; a damaged index is a clean error.
    let written = || -> Vec<std::time::SystemTime> {
        (-12..=12)
            .map(|t| std::fs::metadata(m.join(format!("threshold{t:+}.dfas"))).unwrap().modified().unwrap())
            .collect()
    };
    let before = written();
    let again = dfasolve(&args);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(written(), before, "the saved thresholds are read, not solved again");
    let exactly = |r: &serde_json::Value| -> Vec<serde_json::Value> {
        r["index"]["thresholds"].as_array().unwrap().iter().map(|t| t["exactly"].clone()).collect()
    };
    assert_eq!(exactly(&again), exactly(&report));
    std::fs::write(m.join("margins.json"), b"{\"program\": 1}").unwrap();
    assert_clean_error(&dfasolve(&["query", m.to_str().unwrap(), ".ox./.xo./.... black"]), "not a margins index");
}

/// `othello --reachable --by-classes DIR` makes each class's universe from the start up and
/// saves it beside the class files, never the whole universe: the solution is the whole
/// solve's, a one-class job reads the saved universes, and a damaged universe file is a clean
/// error.
#[test]
fn reachable_classes_are_solved_from_their_own_universes() {
    let dir = crate::scratch::tempdir();
    let (whole, classes) = (dir.path().join("whole.dfas"), dir.path().join("classes"));
    let base = ["othello", "--width", "4", "--height", "4", "--reachable", "--json"];
    let solve = |extra: &[&str]| {
        let out = dfasolve(&[&base[..], extra].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let a = solve(&["--out", whole.to_str().unwrap()]);
    let b = solve(&["--by-classes", classes.to_str().unwrap(), "--no-save"]);
    for key in ["initial_value", "positions_solved", "solution_bytes"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    for discs in 4..=16 {
        assert!(classes.join(format!("universe-{discs}.dfas")).exists(), "universe of class {discs}");
    }
    // One class again, as a job of its own: its universe and its successor's are read.
    let class_file = classes.join("class-10.dfas");
    let before = std::fs::read(&class_file).unwrap();
    std::fs::remove_file(&class_file).unwrap();
    let job = dfasolve(&[&base[..], &["--by-classes", classes.to_str().unwrap(), "--class", "10"]].concat());
    assert!(job.status.success(), "{}", String::from_utf8_lossy(&job.stderr));
    assert_eq!(std::fs::read(&class_file).unwrap(), before, "the job writes the class the whole run wrote");
    // Another threshold's classes over the same universes, copied: none is made again, and
    // Black's difference -8 draws at -8.
    let other = dir.path().join("threshold-8");
    std::fs::create_dir(&other).unwrap();
    for discs in 4..=16 {
        let name = format!("universe-{discs}.dfas");
        std::fs::copy(classes.join(&name), other.join(&name)).unwrap();
    }
    let args =
        [&base[..], &["--threshold=-8", "--by-classes", other.to_str().unwrap(), "--no-save", "--progress"]].concat();
    let out = dfasolve(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !stderr.contains("universe of class"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["initial_value"], "draw");
    std::fs::write(classes.join("universe-11.dfas"), b"not a universe").unwrap();
    std::fs::remove_file(&class_file).unwrap();
    let damaged = dfasolve(&[&base[..], &["--by-classes", classes.to_str().unwrap(), "--class", "10"]].concat());
    assert_clean_error(&damaged, "universe-11.dfas");
}

/// `othello --differences DIR` over the universes and class files a solve by classes left in
/// DIR: no universe is made again, every class's won, drawn and lost counts agree with the
/// class files, the start is the published 4x4 loss by 8, and a damaged table is a clean
/// error, not a wrong answer.
#[test]
fn differences_by_rank_agree_with_the_solve_by_classes() {
    let dir = crate::scratch::tempdir();
    let classes = dir.path().join("classes");
    let base = ["othello", "--width", "4", "--height", "4"];
    let by_classes =
        dfasolve(&[&base[..], &["--by-classes", classes.to_str().unwrap(), "--no-save", "--json"]].concat());
    assert!(by_classes.status.success(), "{}", String::from_utf8_lossy(&by_classes.stderr));
    let args = [&base[..], &["--differences", classes.to_str().unwrap(), "--json", "--progress"]].concat();
    let out = dfasolve(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && !stderr.contains("universe of"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["start_difference"], -8);
    assert_eq!(report["positions"], 62789, "the reachable positions of 4x4 (sizes.csv)");
    let checked = report["classes"].as_array().unwrap();
    assert_eq!(checked.len(), 13);
    assert!(checked.iter().all(|c| c["signs_checked"] == true && c["already_solved"] == false));
    // The directory answers positions: the start and each move with its exact score.
    let query = dfasolve(&["query", classes.to_str().unwrap(), "..../.ox./.xo./.... black", "--json"]);
    assert!(query.status.success(), "{}", String::from_utf8_lossy(&query.stderr));
    let look: serde_json::Value = serde_json::from_slice(&query.stdout).unwrap();
    assert_eq!((look["score"].clone(), look["value"].clone()), (serde_json::json!(-8), serde_json::json!("loss")));
    let moves = look["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert!(moves.iter().all(|m| m["score_for_opponent"] == 8), "every first move loses by 8: {moves:?}");
    let check = dfasolve(&["check", classes.to_str().unwrap(), "--sample", "1000", "--json"]);
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    let checked: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(
        (checked["passed"].clone(), checked["per"].clone()),
        (serde_json::json!(true), serde_json::json!("class of discs"))
    );
    let table = classes.join("differences-10.table");
    let mut bytes = std::fs::read(&table).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&table, &bytes).unwrap();
    assert_clean_error(&dfasolve(&args), "differences-10.table");
    let human = dfasolve(&[&base[..], &["--differences", classes.to_str().unwrap(), "--strong"]].concat());
    assert_clean_error(&human, "leave out --strong");
}
