//! Solving by classes (SPEC §3.1) gives exactly the value classes of the whole-universe strong
//! solve, on every game that declares classes; and the classes partition the universe.
use dfasolve::dfa::Dfa;
use dfasolve::games::breakthrough::Breakthrough;
use dfasolve::games::nim::Nim;
use dfasolve::games::ostle::{Ostle, Rule, Variant};
use dfasolve::games::{Game, Mode, Outcome, Side, Solution};
use dfasolve::solver::Solver;
use std::collections::BTreeMap;

/// The positions of each (side, value), united over the entries of a solution.
fn by_value(game: &dyn Game, s: &Solution) -> BTreeMap<(Side, String), Dfa> {
    let mut out: BTreeMap<(Side, String), Dfa> = BTreeMap::new();
    for c in &s.classes {
        let key = (c.side, c.outcome.to_string());
        let set = out.remove(&key).map_or_else(|| c.set.clone(), |d| d.union(&c.set));
        out.insert(key, set);
    }
    out.retain(|_, d| !d.is_empty());
    let _ = game;
    out
}

fn check(game: &dyn Game) {
    let classes = game.classes();
    assert!(!classes.is_empty(), "{} declares classes", game.name());
    // A partition of each side's universe.
    let sides: &[Side] = if game.mover_relative() { &[Side::First] } else { &Side::BOTH };
    for &side in sides {
        let universe = game.universe(side);
        let mut covered = Dfa::reject_all(game.shape());
        let mut total = 0u128;
        for c in &classes {
            let part = c.set.intersection(&universe);
            assert!(part.intersection(&covered).is_empty(), "{}: class {} overlaps a lower one", game.name(), c.name);
            total += part.count();
            covered = covered.union(&part);
        }
        assert_eq!(covered, universe, "{}: the classes cover the universe", game.name());
        assert_eq!(total, universe.count());
    }
    let whole = Solver::new(game).solve(Mode::Strong).unwrap();
    let by_classes = Solver::new(game).solve_by_classes(None).unwrap();
    assert_eq!(by_classes.initial_value, whole.initial_value, "{}", game.name());
    let (a, b) = (by_value(game, &whole), by_value(game, &by_classes));
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
fn breakthrough_by_classes_equals_whole() {
    for (w, h) in [(2, 4), (3, 4), (2, 5), (4, 4), (3, 5), (2, 6), (5, 4), (4, 5)] {
        check(&Breakthrough::new(w, h).unwrap());
    }
}

#[test]
fn ostle_by_classes_equals_whole() {
    for (width, height, pieces, lose_at) in [(3, 3, 3, 1), (3, 3, 3, 2), (3, 4, 3, 1), (4, 3, 3, 2)] {
        check(&Ostle::new(Variant { width, height, pieces, lose_at, rule: Rule::Exact }).unwrap());
    }
}
