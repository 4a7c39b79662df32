//! Solving by classes (`docs/solving.md`) gives exactly the value classes of the whole-universe strong
//! solve, on every game that declares classes; and the classes partition the universe.
use crate::conformance::by_value;
use dfasolve::dfa::Dfa;
use dfasolve::game::{Game, Outcome, Rules, Side, SolverHints};
use dfasolve::games::breakthrough::Breakthrough;
use dfasolve::games::nim::Nim;
use dfasolve::games::ostle::{Ostle, Rule, Variant};
use dfasolve::solved::{Mode, Solution};
use dfasolve::solver::Solver;

fn check(game: &dyn Game) {
    let classes = game.classes().unwrap();
    assert!(!classes.is_empty(), "{} declares classes", game.name());
    // A partition of each side's universe.
    let sides: &[Side] = if game.mover_relative() { &[Side::First] } else { &Side::BOTH };
    for &side in sides {
        let universe = game.universe(side).unwrap();
        let mut covered = Dfa::reject_all(game.shape());
        let mut total = 0u128;
        for c in &classes {
            let part = c.set.intersection(&universe).unwrap();
            assert!(
                part.intersection(&covered).unwrap().is_empty(),
                "{}: class {} overlaps a lower one",
                game.name(),
                c.name
            );
            total += part.count();
            covered = covered.union(&part).unwrap();
        }
        assert_eq!(covered, universe, "{}: the classes cover the universe", game.name());
        assert_eq!(total, universe.count());
    }
    let whole = Solver::new(game).unwrap().solve(Mode::Strong).unwrap();
    let by_classes = Solver::new(game).unwrap().solve_by_classes(None).unwrap();
    assert_eq!(by_classes.initial_value, whole.initial_value, "{}", game.name());
    // One entry per value, as a solution file must hold them: it saves and loads back.
    for (i, c) in by_classes.classes.iter().enumerate() {
        let twin = by_classes.classes[..i].iter().any(|b| b.side == c.side && b.outcome == c.outcome);
        assert!(!twin, "{}: two entries for {} with {} to move", game.name(), c.outcome, c.side);
    }
    let dir = crate::scratch::tempdir();
    let path = dir.path().join("by-classes.dfas");
    by_classes.save(&path).unwrap();
    let (_, loaded) = Solution::load(&path, &dfasolve::games::GAMES).unwrap();
    assert_eq!(loaded.classes.len(), by_classes.classes.len(), "{}", game.name());
    assert_eq!(loaded.initial_value, by_classes.initial_value);
    let (a, b) = (by_value(&whole), by_value(&by_classes));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>(), "{}: the same values", game.name());
    for (key, set) in &a {
        assert_eq!(set, &b[key], "{}: {key:?}", game.name());
    }
    // Every class's records carry its name.
    assert!(by_classes.records.iter().all(|r| r.class.is_some()), "{}", game.name());
    assert!(matches!(whole.initial_value, Outcome::Win { .. } | Outcome::Loss { .. } | Outcome::Draw));
}

#[test]
fn nim_by_classes_equals_whole() {
    for (heaps, tokens) in [(1, 4), (3, 3), (4, 2), (2, 6)] {
        check(&Nim::new(heaps, tokens).unwrap());
    }
}

#[test]
#[ignore = "slow"]
fn breakthrough_by_classes_equals_whole() {
    for (w, h) in [(2, 4), (3, 4), (2, 5), (4, 4), (3, 5), (2, 6), (5, 4), (4, 5)] {
        check(&Breakthrough::new(w, h).unwrap());
    }
}

/// Over the positions reachable from the start (`--reachable --by-classes`), every class holds
/// its swept universe, and each position keeps the exact value the strong solve gives it: a
/// swept universe is closed under moves, so no value depends on a position left out.
#[test]
fn breakthrough_reachable_classes_keep_the_strong_values() {
    for (w, h) in [(3, 4), (2, 5), (4, 4)] {
        let plain = Breakthrough::new(w, h).unwrap();
        let reachable = plain.clone().reachable_only();
        let whole = Solver::new(&plain).unwrap().solve(Mode::Strong).unwrap();
        let solved = Solver::new(&reachable).unwrap().solve_by_classes(None).unwrap();
        assert_eq!(solved.initial_value, whole.initial_value);
        let strong = by_value(&whole);
        let mut valued = [Dfa::reject_all(plain.shape()), Dfa::reject_all(plain.shape())];
        for (key, set) in by_value(&solved) {
            let same = strong.get(&key).unwrap_or_else(|| panic!("{w}x{h}: {key:?} is not a strong value"));
            assert!(set.difference(same).unwrap().is_empty(), "{w}x{h}: {key:?} holds positions of another value");
            valued[key.0.index()] = valued[key.0.index()].union(&set).unwrap();
        }
        let mut swept = [Dfa::reject_all(plain.shape()), Dfa::reject_all(plain.shape())];
        reachable
            .classes_from_start(&mut |_, sets| {
                for (all, set) in swept.iter_mut().zip(sets) {
                    *all = all.union(&set).unwrap();
                }
                Ok(())
            })
            .unwrap();
        assert_eq!(valued, swept, "{w}x{h}: every reachable position is valued, and only those");
    }
}

/// 3x4 Breakthrough solved by classes into a temporary directory: (the directory's owner,
/// the class directory).
fn classes_of_3x4() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = crate::scratch::tempdir();
    let classes = dir.path().join("classes");
    Solver::new(&Breakthrough::new(3, 4).unwrap()).unwrap().solve_by_classes(Some(&classes)).unwrap();
    (dir, classes)
}

/// A directory of class files answers the same for every position of the game three ways:
/// loaded whole and looked up through its index by class, by a scan of every value class,
/// and read in place; and a look in place opens only the position's class and the classes its
/// moves lead to.
#[test]
fn a_class_directory_answers_as_every_value_class_would() {
    use dfasolve::solved::ClassesOnDisk;
    use dfasolve::solved::explore::{ClassDirSolved, DfaSolved, Solved};
    let game = Breakthrough::new(3, 4).unwrap();
    let (_dir, classes) = classes_of_3x4();
    let (_, indexed) = Solution::load(&classes, &dfasolve::games::GAMES).unwrap();
    assert!(indexed.index.is_some(), "the class files name the game's classes");
    let scanned = Solution { index: None, ..indexed.clone() };
    let (_, in_place) =
        ClassesOnDisk::open(&classes, &dfasolve::games::GAMES).unwrap().expect("the files name the game's classes");
    for side in Side::BOTH {
        for board in game.universe(side).unwrap().iter() {
            let pos = dfasolve::vocabulary::Position { side, board };
            let value = indexed.checked_value(&pos).unwrap();
            assert_eq!(value, scanned.checked_value(&pos).unwrap(), "{pos:?}");
            assert_eq!(value, in_place.value(&pos).unwrap(), "{pos:?}");
        }
    }
    let opened = dfasolve::solved::open(&classes, &dfasolve::games::GAMES).unwrap();
    let read_whole = DfaSolved::load(&classes, &dfasolve::games::GAMES).unwrap();
    let start = opened.start();
    assert_eq!(start, read_whole.start());
    assert_eq!(opened.look(&start).unwrap(), read_whole.look(&start).unwrap());
    let start_class = game.classes().unwrap().into_iter().find(|c| c.set.contains(&game.initial().board)).unwrap();
    let (game, fresh) = ClassesOnDisk::open(&classes, &dfasolve::games::GAMES).unwrap().unwrap();
    let fresh = ClassDirSolved::new(game, fresh);
    fresh.look(&start).unwrap();
    assert!(
        fresh.classes_opened() <= 1 + start_class.successors.len(),
        "the start's look opened {} class files",
        fresh.classes_opened()
    );
}

/// A damaged class file is reported when a position of its class is asked about; the other
/// classes still answer, and a directory without the start's class is refused.
#[test]
fn a_damaged_class_file_read_in_place_is_an_error_not_an_answer() {
    use dfasolve::solved::ClassesOnDisk;
    let game = Breakthrough::new(3, 4).unwrap();
    let (_dir, classes) = classes_of_3x4();
    let partition = game.classes().unwrap();
    let start = game.initial();
    let start_class = partition.iter().find(|c| c.set.contains(&start.board)).unwrap();
    // The largest other file: the smallest is read as the directory opens, to name the game.
    let file = |name: &str| classes.join(format!("class-{name}.dfas"));
    let size = |name: &str| std::fs::metadata(file(name)).unwrap().len();
    let others = partition.iter().filter(|c| c.name != start_class.name);
    let damaged = others.max_by_key(|c| size(&c.name)).unwrap();
    let path = file(&damaged.name);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let (_, mapped) = ClassesOnDisk::open(&classes, &dfasolve::games::GAMES).unwrap().unwrap();
    assert!(mapped.value(&start).unwrap().is_some(), "the start's class still answers");
    let board = damaged.set.iter().next().unwrap();
    let err = mapped.value(&dfasolve::vocabulary::Position { side: Side::First, board }).unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
    std::fs::remove_file(file(&start_class.name)).unwrap();
    let err = ClassesOnDisk::open(&classes, &dfasolve::games::GAMES).err().expect("no start class");
    assert!(err.to_string().contains("start"), "{err}");
}

#[test]
#[ignore = "slow"]
fn ostle_by_classes_equals_whole() {
    for (width, height, pieces, lose_at) in [(3, 3, 3, 1), (3, 3, 3, 2), (3, 4, 3, 1), (4, 3, 3, 2)] {
        check(&Ostle::new(Variant { width, height, pieces, lose_at, rule: Rule::Exact }).unwrap());
    }
}

/// A solved subgame Ostle(W×H, K, T) plus one explicit step over the states only a removal
/// reaches (`gap` of them) gives exactly the K v K class of Ostle(W×H, K+1, T) solved by
/// classes.
fn subgame_makes_the_class(width: usize, height: usize, pieces: usize, lose_at: usize, gap: u128) {
    use dfasolve::games::ostle::subgame::{class_from_subgame, removal_gap};
    let variant = |pieces| Ostle::new(Variant { width, height, pieces, lose_at, rule: Rule::Exact }).unwrap();
    let (small, big) = (variant(pieces), variant(pieces + 1));
    assert_eq!(removal_gap(&small, &big).unwrap().1.count(), gap, "{}", big.name());
    let solution = Solver::new(&small).unwrap().solve(Mode::Strong).unwrap();
    let made = class_from_subgame(&small, &big, solution).unwrap();
    assert_eq!(made.gap_states, gap);
    let class = big.classes().unwrap().into_iter().find(|c| c.name == made.class.class).unwrap();
    let mut solved = Solver::new(&big).unwrap().solve_by_classes(None).unwrap();
    for c in &mut solved.classes {
        c.set = c.set.intersection(&class.set).unwrap();
    }
    let made = Solution { classes: made.class.values, ..solved.clone() };
    let (a, b) = (by_value(&made), by_value(&solved));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>(), "{}: the same values", big.name());
    for (key, set) in &a {
        assert_eq!(set, &b[key], "{}: {key:?}", big.name());
    }
}

#[test]
fn ostle_subgame_makes_the_class_of_the_bigger_game() {
    subgame_makes_the_class(3, 3, 2, 1, 36);
    subgame_makes_the_class(3, 4, 2, 1, 30);
}

/// The same on 4x4 (minutes: 4x4 K4 T2 by classes takes about 5).
#[test]
#[ignore = "slow"]
fn ostle_subgame_makes_the_class_of_the_bigger_game_4x4() {
    subgame_makes_the_class(4, 4, 2, 1, 24);
    subgame_makes_the_class(4, 4, 3, 2, 256);
}

#[test]
fn ostle_subgame_refuses_what_is_not_one() {
    use dfasolve::games::ostle::subgame::class_from_subgame;
    let variant =
        |width, pieces| Ostle::new(Variant { width, height: 3, pieces, lose_at: 1, rule: Rule::Exact }).unwrap();
    let (small, other_board, big) = (variant(3, 2), variant(4, 2), variant(3, 3));
    let solution = Solver::new(&small).unwrap().solve(Mode::Strong).unwrap();
    // The solution of another game, a game that is not a subgame, and the wrong way round.
    let err = class_from_subgame(&other_board, &big, solution.clone()).unwrap_err().to_string();
    assert!(err.contains("not a strong solution of"), "{err}");
    let err = class_from_subgame(&small, &variant(4, 3), solution.clone()).unwrap_err().to_string();
    assert!(err.contains("is not a subgame of"), "{err}");
    let big_solution = Solver::new(&big).unwrap().solve(Mode::Strong).unwrap();
    let err = class_from_subgame(&big, &small, big_solution).unwrap_err().to_string();
    assert!(err.contains("is not a subgame of"), "{err}");
}
