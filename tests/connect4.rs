//! Connect Four from the command line: the solve, its answers and its refusals.
use crate::edges::{assert_clean_error, dfasolve, json, path, stdout};

/// A small board solves, saves, answers `query` with each column's value and passes `check`;
/// classes give the same start; a size past the machine is refused with its estimate.
#[test]
fn connect4_solves_answers_and_refuses() {
    let dir = crate::scratch::tempdir();
    let solution = dir.path().join("c44.dfas");
    let solved = json(&dfasolve(&["connect4", "--width", "4", "--height", "4", "--json", "--out", path(&solution)]));
    assert_eq!(solved["initial_value"], "draw");
    let start = json(&dfasolve(&["query", "--json", path(&solution), "..../..../..../.... first"]));
    let moves: Vec<&str> = start["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(moves.len(), 4);
    assert!(["a", "b", "c", "d"].iter().all(|c| moves.contains(c)), "{moves:?}");
    let won = dfasolve(&["query", path(&solution), "..../..../ooo./xxx. first"]);
    assert!(stdout(&won).contains("win in 1 ply"), "{}", stdout(&won));
    assert!(stdout(&dfasolve(&["check", path(&solution)])).contains("check passed"));
    let classes = dir.path().join("classes");
    let by_classes = json(&dfasolve(&[
        "connect4",
        "--width",
        "4",
        "--height",
        "4",
        "--json",
        "--no-save",
        "--by-classes",
        path(&classes),
    ]));
    assert_eq!(by_classes["initial_value"], solved["initial_value"]);
    assert_clean_error(&dfasolve(&["query", path(&solution), "..../..../.x../.... first"]), "above an empty square");
    let refused = dfasolve(&["connect4", "--no-save"]);
    assert_clean_error(&refused, "refused without --long");
    assert_clean_error(&dfasolve(&["connect4", "--width", "9", "--height", "6"]), "width and a height of 1 to 8");
}
