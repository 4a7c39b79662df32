//! Solution files: a saved solution loads back equal with the metadata bytes every file has
//! had, and forged numbers or sets are refused on load.
use dfasolve::dfa::Dfa;
use dfasolve::dfa::file::{Bundle, save_entries};
use dfasolve::error::Error;
use dfasolve::game::{Outcome, Position, Rules};
use dfasolve::games::GAMES;
use dfasolve::games::nim::Nim;
use dfasolve::solved::solution::metadata_for_reports;
use dfasolve::solved::{Mode, Solution};
use dfasolve::solver::Solver;

/// A saved solution loads back equal, with the metadata bytes every file has had (keys
/// sorted, outcomes as `{"win": plies}`), and a forged out-of-range distance is refused.
#[test]
fn solutions_round_trip_and_forged_numbers_are_refused() {
    let game = Nim::new(2, 3).expect("a small Nim");
    let solution = Solver::new(&game).unwrap().solve(Mode::MeetInTheMiddle { depth: 1 }).expect("solved");
    let dir = crate::scratch::tempdir();
    let path = dir.path().join("nim.dfas");
    solution.save(&path).expect("saved");
    let meta = Bundle::load(&path).expect("a bundle").meta;
    assert!(meta.starts_with(r#"{"classes":[{"outcome":{"#), "{meta}");
    assert!(meta.contains(r#""kind":"dfasolve-solution","mode":{"meet_in_the_middle":{"depth":1}}"#), "{meta}");
    // The meet's wins are the rest of its positions: their count after the start's value.
    let program = format!(
        r#""params":{{"game":"nim","heaps":2,"tokens":3}},"program":"{}","reachable_valued":"15","rest":[{{"outcome":{{"win":null}},"positions":"{}","side":"first"}}]}}"#,
        dfasolve::PROGRAM_VERSION,
        solution.rest[0].positions.unwrap()
    );
    assert!(meta.ends_with(&program), "{meta}");
    let shown = metadata_for_reports(&meta);
    assert!(shown["classes"].as_array().expect("classes").iter().all(|c| c["outcome"].is_string()), "{shown}");
    assert_eq!(shown["initial_value"], serde_json::json!(solution.initial_value.to_string()));
    let (_, loaded) = Solution::load(&path, &GAMES).expect("loaded");
    assert_eq!(loaded.initial_value, solution.initial_value);
    // Every position but 0,0, which only positions the backward ply decided lead to.
    assert_eq!((loaded.reachable_valued, solution.reachable_valued), (Some(15), Some(15)));
    assert_eq!(loaded.classes.len(), solution.classes.len());
    for (a, b) in loaded.classes.iter().zip(&solution.classes) {
        assert_eq!((a.side, a.outcome, &a.set), (b.side, b.outcome, &b.set));
    }
    assert_eq!(loaded.rest.len(), 1);
    for (a, b) in loaded.rest.iter().zip(&solution.rest) {
        assert_eq!((a.side, a.outcome, &a.domain, a.positions), (b.side, b.outcome, &b.domain, b.positions));
    }
    // Every position answers as before the round trip, through the rest class too.
    let all = Dfa::accept_all(game.shape());
    for board in all.iter() {
        let pos = Position { side: dfasolve::game::Side::First, board };
        assert_eq!(loaded.value(&pos), solution.value(&pos));
    }
    let bundle = Bundle::load(&path).expect("a bundle");
    let forged = bundle.meta.replacen(r#"{"loss":0}"#, r#"{"loss":4294967296}"#, 1);
    assert_ne!(forged, bundle.meta, "the solution has a loss in 0 plies to forge");
    let entries: Vec<(&str, &Dfa)> = bundle.entries.iter().map(|(n, d)| (n.as_str(), d)).collect();
    save_entries(&path, &forged, &entries).expect("saved");
    assert!(matches!(Solution::load(&path, &GAMES), Err(Error::Corrupt { .. })));
}

/// The invariants between sets: a wrong stored start value is refused on load, a class
/// stored in disjoint parts answers as the whole, and an answer read from two overlapping
/// classes (a class stored twice, or two values claiming a position) is an error.
#[test]
fn forged_class_sets_are_refused() {
    let game = Nim::new(2, 3).expect("a small Nim");
    let solution = Solver::new(&game).unwrap().solve(Mode::Strong).expect("solved");
    let dir = crate::scratch::tempdir();
    let path = dir.path().join("nim.dfas");
    let load_error = |forged: &Solution| {
        forged.save(&path).expect("saved");
        match Solution::load(&path, &GAMES) {
            Err(Error::Corrupt { what, .. }) => what,
            other => panic!("expected a corrupt file, got {:?}", other.map(|(_, s)| s.initial_value)),
        }
    };
    let positions: Vec<Position> =
        solution.classes.iter().flat_map(|c| c.set.iter().map(move |board| Position { side: c.side, board })).collect();
    let mut parted = solution.clone();
    let whole = parted.classes[1].clone();
    let member = whole.set.iter().next().expect("a member");
    let one = Dfa::from_strings(whole.set.shape(), std::slice::from_ref(&member));
    parted.classes[1].set = whole.set.difference(&one).unwrap();
    parted.classes.push(dfasolve::solved::ValueClass { set: one, ..whole.clone() });
    parted.save(&path).expect("saved");
    let (_, loaded) = Solution::load(&path, &GAMES).expect("a class in parts loads");
    for p in &positions {
        assert_eq!(loaded.checked_value(p).expect("one class"), solution.value(p), "{p:?}");
    }
    let mut duplicate = solution.clone();
    duplicate.classes.push(whole.clone());
    duplicate.save(&path).expect("saved");
    let (_, loaded) = Solution::load(&path, &GAMES).expect("loaded");
    let twice = Position { side: whole.side, board: member };
    assert!(matches!(loaded.checked_value(&twice), Err(Error::Mismatch(_))));
    let mut wrong_start = solution.clone();
    wrong_start.initial_value = Outcome::Win { plies: Some(99) };
    assert!(load_error(&wrong_start).contains("stored value of the start"));
    // Two classes that overlap (one class's positions also claimed by another value).
    let mut overlap = solution.clone();
    let a = overlap.classes[0].set.clone();
    let shared =
        overlap.classes.iter().position(|c| c.side == overlap.classes[0].side && c.set != a).expect("another class");
    overlap.classes[shared].set = overlap.classes[shared].set.union(&a).unwrap();
    let member = Position { side: overlap.classes[0].side, board: a.iter().next().expect("a member") };
    assert!(matches!(overlap.checked_value(&member), Err(Error::Mismatch(_))));
}

/// A meet in the middle stores its wins as the rest of the positions it valued: the rest
/// class holds exactly what the domain holds besides the other classes, as many as it says,
/// its samples are its members, and a listing of wins draws from it.
#[test]
fn a_class_stored_as_the_rest_of_a_domain_answers_as_a_set_of_its_own() {
    use dfasolve::dfa::SplitMix64;
    use dfasolve::games::breakthrough::Breakthrough;
    use dfasolve::solved::explore::positions::{Distance, Pick, ValueKind};
    use dfasolve::solved::{DfaSolved, RestClass};
    let game = Breakthrough::new(3, 5).expect("a small board");
    let solution = Solver::new(&game).unwrap().solve(Mode::MeetInTheMiddle { depth: 2 }).expect("solved");
    assert_eq!(solution.rest.len(), 2, "the wins of each side to move");
    let whole = solution.with_rest_as_sets().unwrap();
    let mut rng = SplitMix64::new(7);
    for rest in &solution.rest {
        let RestClass { side, outcome, positions, .. } = rest;
        let made = solution.rest_positions(rest).unwrap();
        assert_eq!(Some(made.count()), *positions, "{side}: the count it stores");
        for board in made.iter() {
            let pos = Position { side: *side, board };
            assert_eq!(solution.checked_value(&pos).unwrap(), Some(*outcome));
            let in_classes = solution.classes.iter().filter(|c| c.side == *side && c.set.contains(&pos.board));
            assert_eq!(in_classes.count(), 0, "in no other class");
        }
        assert_eq!(solution.rest_members(rest).count() as u128, made.count(), "its members in order");
        for board in solution.sample_rest(rest, 200, &mut rng).expect("a sample") {
            assert!(made.contains(&board), "a sample is a member");
        }
        assert!(whole.classes.iter().any(|c| c.side == *side && c.outcome == *outcome && c.set == made));
    }
    let listed = DfaSolved { game: Box::new(game), solution: solution.clone() };
    for pick in [Pick::First(5), Pick::Sample { count: 5, seed: 3 }] {
        let listing = listed.positions(ValueKind::Win, Distance::Any, None, pick).expect("listed");
        let wins: u128 = whole.classes.iter().filter(|c| c.outcome.kind() == "win").map(|c| c.set.count()).sum();
        assert_eq!(listing.matching, wins, "{pick:?}");
        assert_eq!(listing.positions.len(), 5, "{pick:?}");
        for text in &listing.positions {
            let pos = listed.game.parse(text).expect("a position");
            assert_eq!(solution.value(&pos).map(|v| v.kind()), Some("win"), "{pick:?}: {text}");
        }
    }
}

/// A solution file read in place answers every position as the loaded solution does: a meet
/// in the middle (with a class stored as the rest of a domain) and a strong solve, on the
/// first 3,000 positions the start reaches, and a damaged start value is refused on opening.
#[test]
fn a_solution_read_in_place_answers_as_the_loaded_one() {
    use dfasolve::games::breakthrough::Breakthrough;
    use dfasolve::solved::{DfaSolved, Solved, open_with};
    let game = Breakthrough::new(3, 5).expect("a small board");
    let dir = crate::scratch::tempdir();
    for mode in [Mode::MeetInTheMiddle { depth: 2 }, Mode::Strong] {
        let path = dir.path().join("bt.dfas");
        Solver::new(&game).unwrap().solve(mode).expect("solved").save(&path).expect("saved");
        let loaded = DfaSolved::load(&path, &GAMES).expect("loaded");
        let in_place = open_with(&path, &GAMES, 0).expect("opened in place");
        assert_eq!(in_place.start(), loaded.start());
        let positions = first_positions(&game, 3_000);
        for text in &positions {
            assert_eq!(in_place.look(text).expect("looked"), loaded.look(text).expect("looked"), "{mode:?}: {text}");
        }
        assert_eq!(positions.len(), 3_000, "{mode:?}");
    }
    // The start's stored value forged: refused on opening, as on loading.
    let path = dir.path().join("bt.dfas");
    let bundle = Bundle::load(&path).expect("a bundle");
    let value = dfasolve::solved::Solution::load(&path, &GAMES).expect("loaded").1.initial_value;
    let stored = if value.kind() == "win" { r#""initial_value":{"win":"# } else { r#""initial_value":{"loss":"# };
    let forged = bundle.meta.replacen(
        stored,
        if value.kind() == "win" { r#""initial_value":{"loss":"# } else { r#""initial_value":{"win":"# },
        1,
    );
    assert_ne!(forged, bundle.meta);
    let entries: Vec<(&str, &Dfa)> = bundle.entries.iter().map(|(n, d)| (n.as_str(), d)).collect();
    save_entries(&path, &forged, &entries).expect("saved");
    assert!(matches!(open_with(&path, &GAMES, 0), Err(Error::Corrupt { .. })));
}

/// A solution whose classes lie in the checkpoints' files (a checkpointed meet in the
/// middle's losses) is saved past the link threshold as a directory that links those files:
/// the same inodes, no copy. Loaded, read in place, or after the checkpoints are removed, it
/// answers every position as the one file does; a linked file swapped for another is refused.
#[test]
fn a_solution_saved_as_a_directory_links_the_checkpoints_and_answers_as_one_file() {
    use dfasolve::games::breakthrough::Breakthrough;
    use dfasolve::solved::solution::{DIRECTORY_INDEX, is_solution_directory};
    use dfasolve::solved::{DfaSolved, Solved, open_with};
    use dfasolve::solver::SolveOptions;
    use std::os::unix::fs::MetadataExt;
    let game = Breakthrough::new(3, 5).expect("a small board");
    let dir = crate::scratch::tempdir();
    let checkpoints = dir.path().join("checkpoints");
    // Runs of a few states: the losses stay in several files, as on a board larger than a run.
    let options = SolveOptions { checkpoints: Some(checkpoints.clone()), run_cap: Some(64), ..SolveOptions::default() };
    let mode = Mode::MeetInTheMiddle { depth: 2 };
    let solution = Solver::with_options(&game, options).unwrap().solve(mode).expect("solved");
    let linked: Vec<_> = solution.classes.iter().filter_map(|c| c.file.clone()).collect();
    assert!(!linked.is_empty(), "the losses lie in the checkpoints' files");
    let (one_file, linking) = (dir.path().join("one.dfas"), dir.path().join("linked.dfas"));
    solution.save(&one_file).expect("saved as one file");
    assert!(one_file.is_file(), "below the threshold a solution is one file");
    // Saved twice, the second over the first (and then over a file), as a run saved again.
    std::fs::write(&linking, b"").expect("an empty file to replace");
    solution.save_linking(&linking, 0).expect("saved as a directory");
    solution.save_linking(&linking, 0).expect("saved again over it");
    assert!(is_solution_directory(&linking));
    let other = dir.path().join("other");
    std::fs::create_dir(&other).expect("a directory");
    assert!(solution.save_linking(&other, 0).is_err() && other.is_dir(), "a directory not a solution is kept");
    std::fs::remove_dir(&other).expect("removed");
    let inodes = |paths: &[std::path::PathBuf]| {
        let mut inodes: Vec<u64> = paths.iter().map(|p| std::fs::metadata(p).expect("there").ino()).collect();
        inodes.sort_unstable();
        inodes
    };
    let in_directory: Vec<_> = std::fs::read_dir(&linking)
        .expect("a directory")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "set"))
        .collect();
    assert_eq!(inodes(&in_directory), inodes(&linked), "the checkpoints' files, linked");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .expect("a directory")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "no partial or replaced copy is left: {leftovers:?}");
    std::fs::remove_dir_all(&checkpoints).expect("the checkpoints removed");
    let plain = DfaSolved::load(&one_file, &GAMES).expect("loaded");
    let readers: Vec<(&str, Box<dyn Solved>)> = vec![
        ("loaded", Box::new(DfaSolved::load(&linking, &GAMES).expect("loaded"))),
        ("loaded from its index", Box::new(DfaSolved::load(&linking.join(DIRECTORY_INDEX), &GAMES).expect("loaded"))),
        ("in place", open_with(&linking, &GAMES, u64::MAX).expect("opened")),
    ];
    let positions = first_positions(&game, 2_000);
    for text in &positions {
        for (how, reader) in &readers {
            assert_eq!(reader.look(text).expect("looked"), plain.look(text).expect("looked"), "{how}: {text}");
        }
    }
    assert_eq!(positions.len(), 2_000);
    drop(readers);
    // One linked file swapped for a set of the same shape: refused however it is read.
    let victim = &in_directory[0];
    std::fs::remove_file(victim).expect("removed");
    drop(Dfa::reject_all(game.shape()).saved_mapped(victim).expect("another set in its place"));
    for refused in [DfaSolved::load(&linking, &GAMES).err(), open_with(&linking, &GAMES, u64::MAX).err()] {
        let refused = refused.expect("refused");
        assert!(matches!(refused, Error::Corrupt { .. }), "{refused}");
        assert!(refused.to_string().contains("not the file the solution was saved with"), "{refused}");
    }
}

/// The first `count` positions a depth-first walk of `game` from its start meets (fewer if it
/// has fewer), as text.
fn first_positions(game: &(impl dfasolve::game::ExplicitRules + Rules + ?Sized), count: usize) -> Vec<String> {
    use dfasolve::game::Status;
    let mut seen = std::collections::HashSet::from([game.initial()]);
    let mut frontier = vec![game.initial()];
    let mut positions = Vec::new();
    while positions.len() < count
        && let Some(p) = frontier.pop()
    {
        positions.push(game.render(&p));
        if game.explicit_status(&p) == Status::Ongoing {
            frontier.extend(game.explicit_moves(&p).into_iter().filter(|q| seen.insert(q.clone())));
        }
    }
    positions
}
