//! The solver by rank against oracles that share none of its board code: the hash-map solver
//! of the raw game (exact reading), and for the class reading a counter and a retrograde
//! solver written straight from the published rule over cell vectors.

use super::super::explicit::{self, Cell, Move, State};
use super::super::{Rule, Variant};
use super::class_oracle::{after, can_capture_to_win, canonical, class_oracle};
use super::tables::Progress;
use super::*;
use crate::vocabulary::Outcome;
use hashbrown::{HashMap, HashSet};

fn variant(w: usize, h: usize, k: usize, t: usize, rule: Rule) -> Variant {
    Variant { width: w, height: h, pieces: k, lose_at: t, rule }
}

fn solve_all(v: &Variant) -> (tempfile::TempDir, Solution, census::Census) {
    let dir = crate::scratch::tempdir();
    let options = Options { budget: None, checkpoint_every: Duration::ZERO, stop_at: None };
    let rules = Rules::new(v).unwrap();
    let mut all = census::Census::default();
    for c in classes(v) {
        solve_class(v, dir.path(), &c, &options).unwrap();
        let t = ClassTables::open(&class_file(dir.path(), &c), Some(v)).unwrap();
        let lower = lower_of(v, dir.path(), &c).unwrap();
        all.add(&census::census(&rules, &t, &lower, Some(start_board(&rules, v))));
    }
    let s = Solution::open(v, dir.path()).unwrap();
    (dir, s, all)
}

/// Exact reading: every state of the raw game has the hash-map solver's value.
#[test]
fn exact_reading_equals_the_raw_explicit_solver() {
    exact_reading_equals_the_raw_explicit_solver_on(&[
        variant(3, 3, 3, 1, Rule::Exact),
        variant(3, 3, 3, 2, Rule::Exact),
    ]);
}

/// [`exact_reading_equals_the_raw_explicit_solver`] on the larger boards.
#[test]
#[ignore = "slow"]
fn exact_reading_equals_the_raw_explicit_solver_on_larger_boards() {
    exact_reading_equals_the_raw_explicit_solver_on(&[
        variant(3, 4, 3, 2, Rule::Exact),
        variant(4, 3, 3, 2, Rule::Exact),
        variant(4, 4, 2, 1, Rule::Exact),
    ]);
}

fn exact_reading_equals_the_raw_explicit_solver_on(variants: &[Variant]) {
    for v in variants {
        let v = v.clone();
        let (_dir, s, census) = solve_all(&v);
        let t = explicit::solve(&v);
        let mut checked = 0;
        // The published counts, raw, from the hash-map tables: values of the states of
        // positions that are not checkmate positions.
        let (mut nontrivial, mut draws, mut by_d) = (0u64, 0u64, vec![0u64; census.by_d.len()]);
        for (state, value) in t.states.iter().zip(&t.values) {
            if v.finished(&state.cells).is_some() {
                continue;
            }
            assert_eq!(
                s.value(state),
                Exact::of(*value),
                "{v:?}: {} {:?}",
                v.board_text(&state.cells),
                state.forbidden
            );
            checked += 1;
            if !can_capture_to_win(&v, &state.cells) {
                nontrivial += 1;
                match value {
                    Outcome::Draw => draws += 1,
                    Outcome::Win { plies: Some(n) } | Outcome::Loss { plies: Some(n) } => {
                        by_d[n.saturating_sub(1) as usize] += 1
                    }
                    Outcome::Win { plies: None } | Outcome::Loss { plies: None } => {
                        panic!("a value without its distance")
                    }
                }
            }
        }
        assert!(checked > 1000);
        assert_eq!((census.nontrivial_states.raw, census.draws.raw), (nontrivial, draws), "{v:?}");
        assert_eq!(census.by_d.iter().map(|c| c.raw).collect::<Vec<_>>(), by_d, "{v:?}");
    }
}

/// Class reading: the published rule's state count and every state's value.
#[test]
fn class_reading_equals_an_oracle_written_from_the_published_rule() {
    class_reading_equals_the_oracle_on(&[variant(3, 3, 3, 1, Rule::Class), variant(3, 3, 3, 2, Rule::Class)]);
}

/// [`class_reading_equals_an_oracle_written_from_the_published_rule`] on the larger boards.
#[test]
#[ignore = "slow"]
fn class_reading_equals_an_oracle_written_from_the_published_rule_on_larger_boards() {
    class_reading_equals_the_oracle_on(&[variant(4, 4, 2, 1, Rule::Class), variant(3, 4, 3, 2, Rule::Class)]);
}

fn class_reading_equals_the_oracle_on(variants: &[Variant]) {
    for v in variants {
        let v = v.clone();
        let (_dir, s, census) = solve_all(&v);
        let (values, nontrivial) = class_oracle(&v);
        assert_eq!(census.nontrivial_states.classes, nontrivial as u64, "{v:?}");
        for (state, value) in &values {
            assert_eq!(
                s.value(state),
                Exact::of(*value),
                "{v:?}: {} {:?}",
                v.board_text(&state.cells),
                state.forbidden
            );
        }
    }
}

/// The published count on 4x4 K2 T1 in the class reading (the worked example).
#[test]
fn four_by_four_two_pieces_class_reading_counts_42684_states() {
    let (_dir, _s, census) = solve_all(&variant(4, 4, 2, 1, Rule::Class));
    assert_eq!(census.nontrivial_states.classes, 42_684);
}

/// The check by the plain rules passes on every state in both readings, and finds a changed
/// byte.
#[test]
fn every_state_follows_from_its_moves_and_a_changed_byte_is_found() {
    for rule in [Rule::Exact, Rule::Class] {
        let v = variant(3, 4, 3, 2, rule);
        let (dir, s, _) = solve_all(&v);
        let states: u64 = s.classes().iter().flat_map(|c| c.kinds.iter().map(|k| k.states())).sum();
        assert_eq!(s.check_sample(u64::MAX, 0).unwrap(), states);
        drop(s);
        // Change one decided byte of the top class's file (its last section is the values of
        // its last kind, padded to 8 bytes, before the checksum) and check again.
        let c = classes(&v).pop().unwrap();
        let path = class_file(dir.path(), &c);
        let mut bytes = std::fs::read(&path).unwrap();
        let t = ClassTables::open(&path, Some(&v)).unwrap();
        let values = &t.kinds.last().unwrap().values;
        let i = values.iter().position(|&c| c >= code::DECIDED + 3 && c != code::OTHER_PARITY).unwrap();
        let at = bytes.len() - 32 - values.len().next_multiple_of(8) + i;
        assert_eq!(bytes[at], values[i]);
        drop(t);
        bytes[at] += 2;
        std::fs::write(&path, &bytes).unwrap();
        let e = Solution::open(&v, dir.path()).err().expect("a damaged file is refused on opening").to_string();
        assert!(e.contains("checksum"), "{e}");
        // The plain rules find the same damage where the checksum is not read.
        let e = Solution::open_checking(&v, dir.path(), super::Checksums::Trust)
            .unwrap()
            .check_sample(u64::MAX, 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("the tables say"), "{e}");
    }
}

/// A class stopped after a level resumes from its checkpoint to the same tables, byte for
/// byte, as a run that was never stopped; the checkpoint is gone afterwards.
#[test]
fn a_stopped_class_resumes_to_the_same_tables() {
    let v = variant(4, 4, 2, 1, Rule::Class);
    let c = classes(&v).pop().unwrap();
    let whole = crate::scratch::tempdir();
    let plain = Options { budget: None, checkpoint_every: Duration::from_secs(3600), stop_at: None };
    for lower in classes(&v) {
        solve_class(&v, whole.path(), &lower, &plain).unwrap();
    }
    let stopped = crate::scratch::tempdir();
    for lower in classes(&v).iter().take_while(|x| **x != c) {
        solve_class(&v, stopped.path(), lower, &plain).unwrap();
    }
    // A temporary file a killed write left behind is removed.
    let stale = stopped.path().join(format!(".class-{}.ranked.checkpoint.tmpXYZ", c.name));
    std::fs::write(&stale, b"half").unwrap();
    // Stopped twice in the count of moves, then twice in the walk back.
    // (2 v 2 on 4x4: 16,380 boards, 16 tasks of the unit tests' size.)
    let stops = [StopPoint::CountedTasks(2), StopPoint::CountedTasks(6), StopPoint::Level(3), StopPoint::Level(20)];
    for at in stops {
        let stop = Options { stop_at: Some(at), ..plain };
        let e = solve_class(&v, stopped.path(), &c, &stop).unwrap_err().to_string();
        assert!(e.contains("stopped after"), "{e}");
        let ck = ClassTables::open(&checkpoint_file(stopped.path(), &c), Some(&v)).unwrap();
        match (at, ck.progress) {
            (StopPoint::CountedTasks(n), Some(Progress::Counting { tasks, .. })) => assert_eq!(tasks, n),
            (StopPoint::Level(l), Some(Progress::Level { next, .. })) => assert_eq!(next, l + 1),
            (at, p) => panic!("stopped at {at:?} with the checkpoint's progress {p:?}"),
        }
    }
    let r = solve_class(&v, stopped.path(), &c, &plain).unwrap();
    assert!(r.resumed);
    assert!(!checkpoint_file(stopped.path(), &c).exists());
    assert!(!stale.exists());
    assert_eq!(
        std::fs::read(class_file(whole.path(), &c)).unwrap(),
        std::fs::read(class_file(stopped.path(), &c)).unwrap()
    );
}

/// The breadth-first levels up to symmetry equal the DFA census's on 4x4 K3 T2 (exact reading,
/// `results/ostle/small-variants/4x4-k3-t2.txt`).
#[test]
fn breadth_first_levels_equal_the_dfa_census() {
    let (_dir, s, _) = solve_all(&variant(4, 4, 3, 2, Rule::Exact));
    let want =
        [1, 8, 59, 343, 1_367, 4_583, 13_077, 29_786, 58_305, 99_884, 147_377, 174_509, 140_895, 60_829, 7_740, 143];
    assert_eq!(s.levels(None).unwrap(), want);
}

/// Class reading: the breadth-first levels equal a search written straight from the published
/// rule over cell vectors (every move that does not end the game expanded, the forbidden one
/// included; states as the rule creates them).
#[test]
fn breadth_first_levels_follow_the_published_rule() {
    for v in [variant(4, 4, 2, 1, Rule::Class), variant(3, 4, 3, 1, Rule::Class)] {
        let (_dir, s, _) = solve_all(&v);
        let start = State { cells: canonical(&v, &v.initial_state().cells), forbidden: None };
        let mut seen: HashSet<State> = HashSet::from([start.clone()]);
        let (mut frontier, mut want) = (vec![start], vec![1u64]);
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for st in &frontier {
                for m in v.all_moves(&st.cells) {
                    let q = Variant::turn_over(&v.play(&st.cells, m).cells);
                    if v.finished(&q).is_none() {
                        let n = after(&v, &st.cells, m);
                        if seen.insert(n.clone()) {
                            next.push(n);
                        }
                    }
                }
            }
            if !next.is_empty() {
                want.push(next.len() as u64);
            }
            frontier = next;
        }
        assert!(want.len() > 5, "{v:?}: {want:?}");
        assert_eq!(s.levels(None).unwrap(), want, "{v:?}");
    }
}

/// A breadth-first pass stopped after a save resumes from its file to the same levels, and
/// the file is gone at the end; a file of other tables is refused.
#[test]
fn a_stopped_breadth_first_pass_resumes_to_the_same_levels() {
    let (dir, s, _) = solve_all(&variant(4, 4, 3, 2, Rule::Exact));
    let whole = s.levels(None).unwrap();
    let path = dir.path().join("levels.checkpoint");
    for stop in [1, 4, 5, 3] {
        let cp = levels::LevelsCheckpoint { path: &path, every: Duration::ZERO, stop_after_saves: Some(stop) };
        let e = s.levels(Some(&cp)).unwrap_err().to_string();
        assert!(e.contains("stopped after"), "{e}");
        assert!(path.exists());
    }
    let cp = levels::LevelsCheckpoint { path: &path, every: Duration::ZERO, stop_after_saves: None };
    assert_eq!(s.levels(Some(&cp)).unwrap(), whole);
    assert!(!path.exists());
    // Saved from the tables of another variant.
    let (_other_dir, other, _) = solve_all(&variant(4, 4, 2, 1, Rule::Class));
    let stop = levels::LevelsCheckpoint { path: &path, every: Duration::ZERO, stop_after_saves: Some(2) };
    other.levels(Some(&stop)).unwrap_err();
    let e = s.levels(Some(&cp)).unwrap_err().to_string();
    assert!(e.contains("other tables"), "{e}");
    // A corrupt file is named as one.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 40;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let e = other.levels(Some(&cp)).unwrap_err().to_string();
    assert!(e.contains("corrupt"), "{e}");
}

#[test]
fn a_seeker_reads_the_boards_of_increasing_ranks_as_the_directory_does() {
    let v = variant(4, 4, 3, 2, Rule::Class);
    let sym = symmetry::Symmetries::new(&v);
    let dir = directory::Directory::build(directory::Kind { mover: 3, opponent: 2 }, 16, &sym);
    // Steps near and far, with repeats: every gap from 0 to past the seeker's stepping range.
    let mut seeker = dir.seeker();
    let (mut r, mut gap) = (0u64, 0u64);
    while r < dir.boards() {
        assert_eq!(seeker.board(r), dir.board(r), "rank {r}");
        gap = (gap * 7 + 3) % 200;
        r += gap / 2;
    }
    assert_eq!(dir.seeker().board(dir.boards() - 1), dir.board(dir.boards() - 1));
}

/// The tables and the DFA solution of the same variant value every state alike; against the
/// DFA solution of a variant with fewer pieces only the kinds it holds are compared, and
/// against one with one piece fewer to lose the comparison fails.
#[test]
fn tables_and_the_dfa_solution_agree_state_by_state() {
    tables_and_the_dfa_solution_agree_on(
        &[variant(3, 4, 3, 2, Rule::Exact)],
        (variant(3, 3, 3, 1, Rule::Class), variant(3, 3, 2, 1, Rule::Class)),
    );
}

/// [`tables_and_the_dfa_solution_agree_state_by_state`] on 4x4.
#[test]
#[ignore = "slow"]
fn tables_and_the_dfa_solution_agree_state_by_state_on_4x4() {
    tables_and_the_dfa_solution_agree_on(
        &[variant(4, 4, 3, 2, Rule::Exact)],
        (variant(4, 4, 3, 1, Rule::Class), variant(4, 4, 2, 1, Rule::Class)),
    );
}

/// Each of `same` against its own DFA solution, and the tables of `fewer.0` against the DFA
/// solution of `fewer.1`, a variant with fewer pieces.
fn tables_and_the_dfa_solution_agree_on(same: &[Variant], fewer: (Variant, Variant)) {
    use crate::games::ostle::Ostle;
    use crate::solved::Mode;
    use crate::solver::Solver;
    let dfa_of = |v: &Variant| Solver::new(&Ostle::new(v.clone()).unwrap()).unwrap().solve(Mode::Strong).unwrap();
    for v in same {
        let (_dir, tables, _) = solve_all(v);
        let c = tables.compare_with_dfa(&dfa_of(v), u64::MAX, 1).unwrap();
        let states: u64 = tables.classes().iter().flat_map(|t| &t.kinds).map(|k| k.states()).sum();
        assert_eq!(c.from_tables, states, "{v:?}: every state of the tables");
        assert!(c.from_dfa > c.from_tables - c.not_in_dfa, "{v:?}: the DFA's raw states, {c:?}");
    }
    // Against a variant with fewer pieces, only the kinds it holds are drawn.
    let (_dir, tables, _) = solve_all(&fewer.0);
    let c = tables.compare_with_dfa(&dfa_of(&fewer.1), u64::MAX, 1).unwrap();
    let kept = fewer.1.pieces as u8;
    let two_by_two: u64 = tables
        .classes()
        .iter()
        .flat_map(|t| &t.kinds)
        .filter(|k| k.kind.mover <= kept && k.kind.opponent <= kept)
        .map(|k| k.states())
        .sum();
    assert!(two_by_two > 0 && two_by_two < tables.classes().iter().flat_map(|t| &t.kinds).map(|k| k.states()).sum());
    assert_eq!(c.from_tables, two_by_two, "only the kinds of the smaller variant, {c:?}");
    let (_dir, tables, _) = solve_all(&variant(3, 4, 3, 1, Rule::Exact));
    let other = dfa_of(&variant(3, 4, 3, 2, Rule::Exact));
    let e = tables.compare_with_dfa(&other, u64::MAX, 1).unwrap_err().to_string();
    assert!(e.contains("the tables say"), "{e}");
}

/// Puzzles find every state of the value asked for, those whose value the side table holds
/// included, and the longest win is the longest of all values.
#[test]
fn puzzles_find_every_state_of_the_value_asked_for() {
    puzzles_find_every_state_on(&[variant(3, 3, 3, 1, Rule::Class), variant(3, 4, 3, 1, Rule::Exact)]);
    // No small variant has a value of the other parity: make one, the longest win of all.
    let (_dir, mut s, _) = solve_all(&variant(3, 3, 3, 1, Rule::Class));
    let longest = s.longest_win().unwrap();
    let want = code::encode(Exact::Win(longest));
    let (c, k, i) = (0..s.classes.len())
        .flat_map(|c| (0..s.classes[c].kinds.len()).map(move |k| (c, k)))
        .find_map(|(c, k)| s.classes[c].kinds[k].values.iter().position(|&x| x == want).map(|i| (c, k, i)))
        .unwrap();
    let t = &mut s.classes[c];
    let mut bytes = t.kinds[k].values.to_vec();
    bytes[i] = code::OTHER_PARITY;
    t.kinds[k].values = crate::storage::mapped::Store::Owned(bytes);
    let kt = &t.kinds[k];
    let (r, slot) = (0..kt.dir.boards())
        .flat_map(|r| (0..=kt.markers[r as usize]).map(move |slot| (r, slot)))
        .find(|&(r, slot)| kt.first_state(r) + u64::from(slot) == i as u64)
        .unwrap();
    t.other_parity.insert((k as u8, r, slot), Exact::Win(longest + 1));
    assert_eq!(s.longest_win(), Some(longest + 1));
    let filter = puzzles::Filter { plies: Some(longest + 1), ..Default::default() };
    assert_eq!(s.puzzles(&filter, 0).with_value, 1);
}

/// [`puzzles_find_every_state_of_the_value_asked_for`] on 4x4.
#[test]
#[ignore = "slow"]
fn puzzles_find_every_state_of_the_value_asked_for_on_4x4() {
    puzzles_find_every_state_on(&[variant(4, 4, 3, 1, Rule::Class)]);
}

fn puzzles_find_every_state_on(variants: &[Variant]) {
    for v in variants {
        let (_dir, s, _) = solve_all(v);
        let mut wins: HashMap<u32, u64> = HashMap::new();
        for t in s.classes() {
            for (k, kt) in t.kinds.iter().enumerate() {
                for r in 0..kt.dir.boards() {
                    for slot in 0..=kt.markers[r as usize] {
                        if let Exact::Win(n) = t.value_at(k as u8, r, slot) {
                            *wins.entry(n).or_default() += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(s.longest_win(), wins.keys().copied().max(), "{v:?}");
        for (&n, &count) in &wins {
            let filter = puzzles::Filter { plies: Some(n), ..Default::default() };
            assert_eq!(s.puzzles(&filter, 0).with_value, count, "{v:?}: wins in {n}");
        }
    }
}

/// The board-by-board scan of wins by sacrifices finds what the census counts, states and
/// positions, and what the plain rules find checking every won state of the tables one by
/// one; every state it lists passes the plain rules' test (checked as it lists them).
#[test]
fn the_sacrifice_scan_agrees_with_the_census_and_the_plain_rules() {
    for v in [variant(3, 4, 3, 1, Rule::Class), variant(3, 4, 3, 1, Rule::Exact)] {
        let (_dir, s, census) = solve_all(&v);
        let all = |plain| puzzles::Filter { sacrifice: true, plain, ..Default::default() };
        let states = s.sacrifice_puzzles(&all(false), usize::MAX).unwrap();
        let positions = s.sacrifice_puzzles(&all(true), usize::MAX).unwrap();
        assert!(states.passing.classes > positions.passing.classes && positions.passing.classes > 0, "{v:?}");
        assert_eq!(
            (states.passing.classes, states.passing.raw, positions.passing.classes, positions.passing.raw),
            (
                census.sacrifice_wins.classes,
                census.sacrifice_wins.raw,
                census.sacrifice_positions.classes,
                census.sacrifice_positions.raw
            ),
            "{v:?}"
        );
        assert_eq!(states.puzzles.len() as u64, states.passing.classes);
        // The oracle: every reachable won state of the tables by the plain rules.
        let rules = s.rules();
        let start = start_board(rules, &v);
        let mut oracle = 0u64;
        for (c, t) in s.classes().iter().enumerate() {
            for (k, kt) in t.kinds.iter().enumerate() {
                for r in 0..kt.dir.boards() {
                    let b = kt.dir.board(r);
                    let exc = tables::bit(&kt.exceptional, r);
                    for slot in 0..=kt.markers[r as usize] {
                        let st = s.state_of(c, k, kt.first_state(r) + u64::from(slot));
                        let reachable = slot > 0 || census::has_plain_state(rules, &b, exc, Some(start));
                        if !reachable || can_capture_to_win(&v, &st.cells) {
                            continue;
                        }
                        let winning: Vec<Move> = s
                            .moves_of(&st)
                            .into_iter()
                            .filter(|(_, _, x)| matches!(x, Some(Exact::Loss(_))))
                            .map(|(m, _, _)| m)
                            .collect();
                        if !winning.is_empty()
                            && winning.iter().all(|&m| v.play(&st.cells, m).removed == Some(Cell::Mine))
                        {
                            oracle += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(oracle, states.passing.classes, "{v:?}");
    }
}

/// `positions` counts and lists the census's states: its counts per value equal the census's
/// (taken on the spot here, none being saved), it lists exactly that many states at each
/// distance, each with the value, and a sample draws from them.
#[test]
fn positions_count_and_list_the_census_states() {
    use crate::solved::explore::positions::{Distance, Pick, ValueKind};
    for v in [
        variant(3, 3, 3, 1, Rule::Class),
        variant(3, 3, 3, 1, Rule::Exact),
        variant(3, 4, 3, 2, Rule::Class),
        variant(4, 3, 3, 2, Rule::Exact),
    ] {
        let (_dir, s, census) = solve_all(&v);
        let taken = s.census().unwrap();
        assert_eq!(serde_json::to_value(&taken).unwrap(), serde_json::to_value(&census).unwrap(), "{v:?}");
        let mut in_all = 0u128;
        for kind in [ValueKind::Win, ValueKind::Loss, ValueKind::Draw] {
            let listing = s.positions(kind, Distance::Any, Pick::First(usize::MAX)).unwrap();
            for t in &listing.tallies {
                let census_count = match t.plies {
                    Some(n) => census.by_d[n as usize - 1].classes,
                    None => census.draws.classes,
                };
                assert_eq!(t.count, u128::from(census_count), "{v:?} {}", t.value);
                let distance = t.plies.map_or(Distance::Any, Distance::Exactly);
                let at = s.positions(kind, distance, Pick::First(usize::MAX)).unwrap();
                assert_eq!(at.positions.len() as u128, t.count, "{v:?} {}", t.value);
                for text in &at.positions {
                    let state = v.parse_state(text).unwrap();
                    assert_eq!(s.value(&state).map(|o| o.to_string()), Some(t.value.clone()), "{v:?} {text}");
                }
                let sample = s.positions(kind, distance, Pick::Sample { count: 3, seed: 7 }).unwrap();
                assert_eq!(sample.positions.len() as u128, t.count.min(3));
                assert!(sample.positions.iter().all(|p| at.positions.contains(p)), "{v:?} {}", t.value);
            }
            assert_eq!(listing.positions.len() as u128, listing.matching);
            in_all += listing.matching;
        }
        assert_eq!(in_all, u128::from(census.nontrivial_states.classes), "{v:?}");
    }
}
