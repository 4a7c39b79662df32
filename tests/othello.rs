//! Othello's exact margins end to end: `othello --margins DIR` solves every threshold, and the
//! directory answers every position with the plain rules' negamax difference.
use crate::cli::{assert_clean_error, dfasolve};
use dfasolve::games::Game;
use dfasolve::games::othello::Othello;
use dfasolve::games::othello::explicit::{Geometry, Negamax};
use dfasolve::games::othello::margins::MarginsSolved;
use dfasolve::vocabulary::{Position, Side};

#[test]
fn margins_give_every_position_its_negamax_difference() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m");
    let args = ["othello", "--width", "4", "--height", "3", "--reachable", "--margins", m.to_str().unwrap(), "--json"];
    let out = dfasolve(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let margins = MarginsSolved::open(&m).unwrap();
    let game = Othello::new(4, 3, 0).unwrap().reachable_only();
    let mut negamax = Negamax::new(Geometry::new(4, 3).unwrap());
    let mut checked = 0;
    for side in Side::BOTH {
        for board in game.universe(side).iter() {
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
