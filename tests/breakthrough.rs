//! Breakthrough: forward ply sets against the independent vectors, symbolic moves against the
//! explicit move generator, and solved values against the explicit solver.
use crate::oracle::breakthrough_vector;
use dfasolve::dfa::Dfa;
use dfasolve::explicit::solve_reachable;
use dfasolve::game::{ExplicitRules, GameParams, Outcome, Ply, Position, Rules, Side, SolverHints};
use dfasolve::games::breakthrough::{Breakthrough, SquareOrder};
use dfasolve::solved::Mode;
use dfasolve::solver::{MirrorPolicy, SolveOptions, Solver};
use std::collections::BTreeSet;

fn check_vectors(width: usize, height: usize, file: &str) {
    let game = Breakthrough::new(width, height).unwrap();
    let mut solver = Solver::new(&game).unwrap();
    let plies = solver.forward_plies(&game.initial(), None, None).unwrap();
    let expected = breakthrough_vector(file);
    // The vector lists a final empty ply; our list stops at the last non-empty one.
    assert_eq!(plies.len() + 1, expected.len(), "number of plies");
    for (k, set) in plies.iter().enumerate() {
        // The player who just moved stands on its far row: the first player after odd plies.
        let mover = Side::after(Side::First, Ply(k as u32)).other();
        let far_row = if mover == Side::First { height - 1 } else { 0 };
        let symbol = if mover == Side::First { 1 } else { 2 };
        let reached =
            Dfa::count_between(game.shape(), far_row * width..(far_row + 1) * width, |c| c == symbol, 1, width);
        let got = (set.count(), set.intersection(&reached).unwrap().count());
        assert_eq!(got, expected[k], "{width}x{height} ply {k}");
    }
}

#[test]
fn forward_ply_counts_3x4_match_vectors() {
    check_vectors(3, 4, "games/breakthrough/ply_counts_3x4.txt");
}

#[test]
fn forward_ply_counts_4x4_match_vectors() {
    check_vectors(4, 4, "games/breakthrough/ply_counts_4x4.txt");
}

/// Every reachable position's value equals the explicit solver's: win/loss for meet in the
/// middle, and also the exact distance for the strong solve.
fn check_values(width: usize, height: usize) {
    check_values_in_order(width, height, SquareOrder::Rows);
}

fn check_values_in_order(width: usize, height: usize, order: SquareOrder) {
    let game = Breakthrough::with_order(width, height, order).unwrap();
    let explicit = solve_reachable(&game, &game.initial()).expect("an acyclic game without draws");
    for mode in [Mode::Strong, Mode::MeetInTheMiddle { depth: 0 }, Mode::MeetInTheMiddle { depth: 3 }] {
        let solution = Solver::new(&game).unwrap().solve(mode).unwrap();
        let mut covered = 0;
        for (pos, &value) in &explicit {
            let value = Outcome::from(value);
            // Meet in the middle does not expand positions the retrograde pass decided, so what
            // lies only beyond them is not covered; everything covered must be right.
            let Some(got) = solution.value(pos) else {
                assert!(
                    mode != Mode::Strong && mode != Mode::MeetInTheMiddle { depth: 0 },
                    "{width}x{height} {mode:?}: {} not covered",
                    game.render(pos)
                );
                continue;
            };
            covered += 1;
            if matches!(got, Outcome::Win { plies: Some(_) } | Outcome::Loss { plies: Some(_) }) {
                assert_eq!(got, value, "{width}x{height} {mode:?} at {}", game.render(pos));
            } else {
                assert_eq!(got.kind(), value.kind(), "{width}x{height} {mode:?} at {}", game.render(pos));
            }
        }
        assert_eq!(solution.initial_value.kind(), Outcome::from(explicit[&game.initial()]).kind());
        assert!(covered * 10 >= explicit.len(), "{mode:?} covers too little: {covered} of {}", explicit.len());
    }
}

/// The strong solve carries the second side's sets over from the first side's by the side
/// mirror (rotate the board, swap colours). Computing them with images of their own must give
/// the identical sets, iteration by iteration, on even and odd widths.
#[test]
fn side_mirror_gives_the_sets_images_give() {
    let sizes = [(3, 5, SquareOrder::Rows), (4, 4, SquareOrder::Rows), (5, 4, SquareOrder::Rows)];
    let more = [(2, 6, SquareOrder::Rows), (3, 5, SquareOrder::Columns), (5, 4, SquareOrder::Columns)];
    for (w, h, order) in sizes.into_iter().chain(more) {
        let game = Breakthrough::with_order(w, h, order).unwrap();
        let mirror = game.side_mirror().expect("breakthrough has a side mirror");
        assert_eq!(mirror.apply(&game.universe(Side::First).unwrap()).unwrap(), game.universe(Side::Second).unwrap());
        assert_eq!(
            mirror.apply(&game.lost_terminal(Side::First).unwrap()).unwrap(),
            game.lost_terminal(Side::Second).unwrap()
        );
        let with = |mirror, mirror_budget| {
            let options = SolveOptions { mirror, mirror_budget, ..SolveOptions::default() };
            Solver::with_options(&game, options).unwrap().retrograde(None).unwrap()
        };
        let budget = SolveOptions::default().mirror_budget;
        let mirrored = with(MirrorPolicy::Always, budget);
        let plain = with(MirrorPolicy::Never, budget);
        assert!(mirrored.complete && plain.complete);
        assert_eq!(mirrored.new_win, plain.new_win, "{w}x{h}");
        assert_eq!(mirrored.new_loss, plain.new_loss, "{w}x{h}");
        // A mirror over its budget falls back to the second side's own images.
        let starved = with(MirrorPolicy::Always, (0, 0));
        assert_eq!(starved.new_win, plain.new_win, "{w}x{h}");
        assert_eq!(starved.new_loss, plain.new_loss, "{w}x{h}");
    }
}

#[test]
fn values_3x4_match_explicit_solver() {
    check_values(3, 4);
}

#[test]
fn values_2x6_match_explicit_solver() {
    check_values(2, 6);
}

#[test]
#[ignore = "slow"]
fn values_3x5_match_explicit_solver() {
    check_values(3, 5);
}

#[test]
#[ignore = "slow"]
fn values_4x4_match_explicit_solver() {
    check_values(4, 4);
}

#[test]
#[ignore = "slow"]
fn values_in_column_order_match_explicit_solver() {
    check_values_in_order(3, 5, SquareOrder::Columns);
    check_values_in_order(4, 4, SquareOrder::Columns);
}

/// Column order changes the strings, never the positions: the same text names the same
/// position, renders back the same, and has the same value.
#[test]
fn column_order_reads_the_same_positions() {
    let rows = Breakthrough::new(4, 5).unwrap();
    let columns = Breakthrough::with_order(4, 5, SquareOrder::Columns).unwrap();
    assert_eq!(rows.render(&rows.initial()), columns.render(&columns.initial()));
    let text = "x.x./.x../..o./o..o/.oo. first";
    let (in_rows, in_columns) = (rows.parse(text).unwrap(), columns.parse(text).unwrap());
    assert_ne!(in_rows.board, in_columns.board, "the strings differ");
    assert_eq!(columns.render(&in_columns), text);
    assert_eq!(
        rows.explicit_moves(&in_rows).iter().map(|p| rows.render(p)).collect::<BTreeSet<_>>(),
        columns.explicit_moves(&in_columns).iter().map(|p| columns.render(p)).collect::<BTreeSet<_>>()
    );
    let by_rows = Solver::new(&rows).unwrap().solve(Mode::Strong).unwrap();
    let by_columns = Solver::new(&columns).unwrap().solve(Mode::Strong).unwrap();
    assert_eq!(by_rows.value(&in_rows), by_columns.value(&in_columns));
    assert_eq!(by_rows.initial_value, by_columns.initial_value);
    // A column-order solution file names its order, so a reader rebuilds the same game.
    let params = columns.params();
    assert_eq!(params.to_json()["order"], "columns");
    let rebuilt = dfasolve::games::GAMES.build(&GameParams::from_json(&params.to_json()).unwrap()).unwrap();
    assert_eq!(rebuilt.render(&in_columns), text);
}

#[test]
fn bad_sizes_are_errors() {
    assert!(Breakthrough::new(0, 5).is_err());
    assert!(Breakthrough::new(3, 3).is_err());
    assert!(Breakthrough::new(17, 5).is_err());
    let game = Breakthrough::new(3, 4).unwrap();
    assert!(game.parse("xxx/xxx/ooo first").is_err(), "wrong row count");
    assert!(game.parse("xxx/xxx/ooo/ooo").is_err(), "missing side");
    assert!(game.parse("xxx/xqx/.../ooo first").is_err());
    assert!(game.parse("xxx/xxx/ooo/oox first").is_err(), "mover on its goal row");
    let start = game.initial();
    assert_eq!(game.parse(&game.render(&start)).unwrap(), start);
}

/// With checkpoints the solver keeps only the newest increments in memory and reads the older
/// ones back from their checkpoints at the end: the result is the same as without.
#[test]
fn checkpointed_retrograde_reads_back_the_same_increments() {
    let game = Breakthrough::new(4, 4).unwrap();
    let plain = Solver::new(&game).unwrap().retrograde(None).unwrap();
    let dir = crate::scratch::tempdir();
    let options = SolveOptions { checkpoints: Some(dir.path().to_path_buf()), ..SolveOptions::default() };
    let spilled = Solver::with_options(&game, options).unwrap().retrograde(None).unwrap();
    assert!(plain.new_win[Side::First].len() > 4, "enough iterations to spill some");
    assert_eq!(spilled.new_win, plain.new_win);
    assert_eq!(spilled.new_loss, plain.new_loss);
    assert_eq!((spilled.win, spilled.loss), (plain.win, plain.loss));
}

/// Every backward depth of the meet in the middle (a deeper one prunes the forward plies and
/// shortens the backup) values positions exactly as the strong solve does, and depth 0 (no
/// pruning) values every position reachable from the start, on every size up to 4x5 and 5x4.
#[test]
#[ignore = "slow"]
fn meet_in_the_middle_depths_agree_with_the_strong_solve() {
    use dfasolve::dfa::Dfa;
    for (w, h) in [(2, 4), (3, 4), (2, 5), (4, 4), (2, 6), (3, 5), (5, 4), (4, 5)] {
        let game = Breakthrough::new(w, h).unwrap();
        let shape = game.shape().clone();
        // Positions won and lost (any distance) by side to move.
        let by_kind = |s: &dfasolve::solved::Solution| {
            Side::BOTH.map(|side| {
                let s = s.with_rest_as_sets().unwrap();
                let of = |win: bool| {
                    let sets: Vec<&Dfa> = s
                        .classes
                        .iter()
                        .filter(|c| c.side == side && matches!(c.outcome, Outcome::Win { .. }) == win)
                        .map(|c| &c.set)
                        .collect();
                    Dfa::union_all(&shape, &sets).unwrap()
                };
                (of(true), of(false))
            })
        };
        let strong = by_kind(&Solver::new(&game).unwrap().solve(Mode::Strong).unwrap());
        let plies = Solver::new(&game).unwrap().forward_plies(&game.initial(), None, None).unwrap();
        let reachable = Side::BOTH.map(|side| {
            let sets: Vec<&Dfa> = plies
                .iter()
                .enumerate()
                .filter(|(k, _)| (k % 2 == 0) == (side == Side::First))
                .map(|(_, d)| d)
                .collect();
            Dfa::union_all(&shape, &sets).unwrap()
        });
        for depth in [0, 2, 4, 7] {
            let mitm = by_kind(&Solver::new(&game).unwrap().solve(Mode::MeetInTheMiddle { depth }).unwrap());
            for side in Side::BOTH {
                let i = side.index();
                let case = format!("{w}x{h} depth {depth}, {side} to move");
                assert!(mitm[i].0.is_subset(&strong[i].0).unwrap(), "{case}: a win that is not one");
                assert!(mitm[i].1.is_subset(&strong[i].1).unwrap(), "{case}: a loss that is not one");
                if depth == 0 {
                    assert!(
                        reachable[i].is_subset(&mitm[i].0.union(&mitm[i].1).unwrap()).unwrap(),
                        "{case}: every reachable position"
                    );
                }
            }
        }
    }
}

/// A meet in the middle reports the positions it values reachable from the start: exactly
/// those a search by the explicit rules reaches without going past a position the backward
/// plies decided (which the forward plies do not expand), each with a value.
#[test]
fn meet_in_the_middle_counts_the_reachable_positions_it_values() {
    for (width, height) in [(3, 4), (4, 4), (3, 5)] {
        let game = Breakthrough::new(width, height).unwrap();
        let solution = Solver::new(&game).unwrap().solve(Mode::MeetInTheMiddle { depth: 2 }).unwrap();
        let decided = |p: &Position| {
            solution.classes.iter().any(|c| {
                c.side == p.side
                    && matches!(c.outcome, Outcome::Win { plies: Some(_) } | Outcome::Loss { plies: Some(_) })
                    && c.set.contains(&p.board)
            })
        };
        let mut seen = std::collections::HashSet::from([game.initial()]);
        let mut frontier = vec![game.initial()];
        while let Some(p) = frontier.pop() {
            assert!(solution.value(&p).is_some(), "{width}x{height}: a reached position is valued");
            if game.explicit_status(&p) != dfasolve::game::Status::Ongoing || decided(&p) {
                continue;
            }
            for next in game.explicit_moves(&p) {
                if seen.insert(next.clone()) {
                    frontier.push(next);
                }
            }
        }
        let in_sets: u128 = solution.with_rest_as_sets().unwrap().classes.iter().map(|c| c.set.count()).sum();
        assert_eq!(solution.reachable_valued, Some(seen.len() as u128), "{width}x{height}");
        assert!(in_sets > seen.len() as u128, "{width}x{height}: the backward sets hold unreachable positions too");
    }
}

/// A meet in the middle that keeps its finished sets in spill files finds the same solution
/// as one that keeps them in memory, and leaves no file behind.
#[test]
fn meet_in_the_middle_spilled_to_disk_finds_the_same_solution() {
    for (width, height) in [(3, 5), (4, 4)] {
        let game = Breakthrough::new(width, height).unwrap();
        let mode = Mode::MeetInTheMiddle { depth: 2 };
        let in_memory = Solver::new(&game).unwrap().solve(mode).unwrap();
        let dir = crate::scratch::tempdir();
        let options = SolveOptions { spill: Some(dir.path().to_path_buf()), ..SolveOptions::default() };
        let spilled = Solver::with_options(&game, options).unwrap().solve(mode).unwrap();
        assert!(spilled.classes.iter().any(|c| c.set.is_spilled()), "{width}x{height}: some class lies in a file");
        assert_eq!(spilled.initial_value, in_memory.initial_value);
        assert_eq!(spilled.reachable_valued, in_memory.reachable_valued);
        let sets = |s: &dfasolve::solved::Solution| -> Vec<_> {
            let classes = s.classes.iter().map(|c| (c.side, c.outcome, c.set.clone(), None));
            classes.chain(s.rest.iter().map(|r| (r.side, r.outcome, r.domain.clone(), r.positions))).collect()
        };
        assert_eq!(sets(&spilled), sets(&in_memory), "{width}x{height}");
        drop(spilled);
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none(), "spill files have no name");
    }
}
