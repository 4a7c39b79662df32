//! The explicit Ostle solver by rank from the command line: class tables solved, read again,
//! queried, checked, compared with a DFA solution, and bad requests refused cleanly.
use super::cli::{assert_clean_error, dfasolve};

/// `explicit ostle`: class by class into a directory of tables, the start's value, every state
/// checked by the plain rules when there are fewer than the sample, the published counts; a
/// second run reads the tables instead of solving; a budget too small is one clear error line.
#[test]
fn explicit_ostle_solves_by_classes_checks_and_refuses_cleanly() {
    let dir = crate::scratch::tempdir();
    let tables = dir.path().join("t");
    let tables = tables.to_str().unwrap();
    let v = ["explicit", "ostle", "--width", "3", "--height", "3", "--pieces", "3", "--tables", tables];
    let out = dfasolve(&[&v[..], &["--lose-at", "2", "--json", "--quiet"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["initial_value"], "win in 5 plies");
    let states: u64 = r["classes"].as_array().unwrap().iter().map(|c| c["states"].as_u64().unwrap()).sum();
    assert_eq!(r["checked_states"].as_u64(), Some(states));
    assert_eq!(r["census"]["positions"]["raw"], 5040);
    assert_eq!(r["census"]["nontrivial_states"]["raw"], 736);
    // Again: the class is read, not solved.
    let again = dfasolve(&[&v[..], &["--lose-at", "2", "--json", "--quiet"]].concat());
    let r2: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(r2["classes"][0]["already_solved"], true);
    assert_eq!(r2["census"], r["census"]);
    // Against the DFA solution of the same game: every state alike; against another game's, a
    // clear refusal.
    let dfa = dir.path().join("k3t2.dfas");
    let game: Vec<&str> = "ostle --width 3 --height 3 --pieces 3 --lose-at 2 --quiet --out".split(' ').collect();
    let solved = dfasolve(&[&game[..], &[dfa.to_str().unwrap()]].concat());
    assert!(solved.status.success(), "{}", String::from_utf8_lossy(&solved.stderr));
    let c = dfasolve(&["check", tables, "--against", dfa.to_str().unwrap(), "--sample", "100000", "--json"]);
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    let c: serde_json::Value = serde_json::from_slice(&c.stdout).unwrap();
    assert_eq!(c["compared_with_dfa"]["from_tables"].as_u64(), Some(states));
    let nim = dir.path().join("nim.dfas");
    assert!(
        dfasolve(&["nim", "--heaps", "2", "--tokens", "2", "--quiet", "--out", nim.to_str().unwrap()]).status.success()
    );
    assert_clean_error(&dfasolve(&["check", tables, "--against", nim.to_str().unwrap()]), "not ostle 3x3 k3 t2");
    assert_clean_error(&dfasolve(&["check", nim.to_str().unwrap(), "--against", dfa.to_str().unwrap()]), "--against");
    // Several classes, in the class reading (the published one): 3x3 K3 T1 is a win in 17.
    let t1 = dir.path().join("t1");
    let class = ["explicit", "ostle", "--width", "3", "--height", "3", "--pieces", "3", "--lose-at", "1"];
    let out =
        dfasolve(&[&class[..], &["--rule", "class", "--tables", t1.to_str().unwrap(), "--json", "--quiet"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["initial_value"], "win in 17 plies");
    assert_eq!(r["classes"].as_array().unwrap().len(), 3);
    assert_clean_error(&dfasolve(&[&v[..], &["--lose-at", "2", "--class", "9v9"]].concat()), "no class");
    // query, check and stats read the directory of tables.
    let q = dfasolve(&["query", t1.to_str().unwrap(), "bbb/.o./www -", "--json"]);
    assert!(q.status.success(), "{}", String::from_utf8_lossy(&q.stderr));
    let q: serde_json::Value = serde_json::from_slice(&q.stdout).unwrap();
    assert_eq!(q["value"], "win in 17 plies");
    assert_eq!(q["moves"][0]["value_for_opponent"], "loss in 16 plies");
    let c = dfasolve(&["check", t1.to_str().unwrap(), "--sample", "500"]);
    assert!(c.status.success() && String::from_utf8_lossy(&c.stdout).contains("check passed"));
    assert_clean_error(&dfasolve(&["check", t1.to_str().unwrap(), "--sample", "0"]), "from 1 up");
    let s = dfasolve(&["stats", t1.to_str().unwrap(), "--json"]);
    let s: serde_json::Value = serde_json::from_slice(&s.stdout).unwrap();
    assert_eq!(s["kinds"].as_array().unwrap().len(), 4);
    // Puzzles: the longest wins, with a line that ends the game in as many plies.
    let p = dfasolve(&["puzzles", t1.to_str().unwrap(), "--longest", "--json", "--limit", "1"]);
    assert!(p.status.success(), "{}", String::from_utf8_lossy(&p.stderr));
    let p: serde_json::Value = serde_json::from_slice(&p.stdout).unwrap();
    let first = &p["puzzles"][0];
    assert_eq!(first["plies"], 21);
    assert_eq!(first["line"].as_array().unwrap().len(), 21);
    assert_clean_error(&dfasolve(&["puzzles", t1.to_str().unwrap()]), "say which wins");
    // Wins by sacrifices only, of any length: states, and positions (no forbidden move) as the
    // census counts them.
    let sac = |extra: &[&str]| {
        let p =
            dfasolve(&[&["puzzles", t1.to_str().unwrap(), "--sacrifice", "--json", "--limit", "2"], extra].concat());
        assert!(p.status.success(), "{}", String::from_utf8_lossy(&p.stderr));
        serde_json::from_slice::<serde_json::Value>(&p.stdout).unwrap()
    };
    let (states, positions) = (sac(&[]), sac(&["--no-forbidden-move"]));
    assert!(states["passing"]["classes"].as_u64() > positions["passing"]["classes"].as_u64());
    assert_eq!(states["passing"], r["census"]["sacrifice_wins"]);
    assert_eq!(positions["passing"], r["census"]["sacrifice_positions"]);
    assert!(positions["puzzles"].as_array().unwrap().iter().all(|p| p["position"].as_str().unwrap().ends_with('-')));
    let small = dir.path().join("small");
    let tight = ["--lose-at", "1", "--tables", small.to_str().unwrap(), "--max-memory", "0.000001"];
    assert_clean_error(&dfasolve(&[&class[..8], &tight[..]].concat()), "budget");
    let big =
        ["explicit", "ostle", "--width", "8", "--height", "8", "--pieces", "5", "--lose-at", "4", "--tables", tables];
    assert_clean_error(&dfasolve(&big), "--long");
    assert_clean_error(&dfasolve(&[&big[..], &["--long"]].concat()), "budget");
}

/// The class reading (the published rule) two independent ways on 4x4 K2 T1: the DFA solve
/// (the exact reading's move graph plus the boards where the readings differ, listed) and
/// the tables by rank agree state by state and in the census, which is the published
/// 42,684 non-trivial states up to symmetry.
#[test]
#[ignore = "slow"]
fn class_reading_dfa_solution_and_tables_agree_on_the_published_count() {
    let dir = crate::scratch::tempdir();
    let (tables, dfa) = (dir.path().join("t"), dir.path().join("class.dfas"));
    let (tables, dfa) = (tables.to_str().unwrap(), dfa.to_str().unwrap());
    let v =
        ["--width", "4", "--height", "4", "--pieces", "2", "--lose-at", "1", "--rule", "class", "--json", "--quiet"];
    let run = |args: &[&str]| {
        let out = dfasolve(args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let by_rank = run(&[&["explicit", "ostle", "--tables", tables][..], &v[..]].concat());
    let by_dfa = run(&[&["ostle", "--out", dfa][..], &v[..]].concat());
    let (r, d) = (&by_rank["census"], &by_dfa["census"]);
    assert_eq!((&r["nontrivial_states"]["classes"], &r["nontrivial_states"]["raw"]), (&42_684.into(), &341_032.into()));
    assert_eq!(d["nontrivial_states"]["up_to_symmetry"], 42_684);
    assert_eq!(d["nontrivial_states"]["raw"], 341_032);
    // The histogram by d = plies - 1, then draws: the same rows both ways.
    let dfa_rows: Vec<(u64, u64)> = d["nontrivial_values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["raw"].as_u64().unwrap(), c["up_to_symmetry"].as_u64().unwrap()))
        .collect();
    let mut rank_rows: Vec<(u64, u64)> = r["by_d"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["raw"].as_u64().unwrap(), c["classes"].as_u64().unwrap()))
        .filter(|&(raw, _)| raw > 0)
        .collect();
    rank_rows.push((r["draws"]["raw"].as_u64().unwrap(), r["draws"]["classes"].as_u64().unwrap()));
    assert_eq!(dfa_rows, rank_rows);
    let c = run(&["check", tables, "--against", dfa, "--sample", "1000000", "--json"]);
    let states: u64 = by_rank["classes"].as_array().unwrap().iter().map(|c| c["states"].as_u64().unwrap()).sum();
    assert_eq!(c["compared_with_dfa"]["from_tables"].as_u64(), Some(states));
}
