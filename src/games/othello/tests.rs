use super::*;
use crate::solved::Mode;
use crate::solver::Solver;
use std::collections::BTreeSet;

/// The staged move graph's image of each legal board is exactly the boards the plain rules
/// reach (the pass aside: the solver adds it), on 3x4 for both sides.
#[test]
fn staged_moves_equal_the_plain_rules() {
    let g = Othello::new(4, 3, 0).unwrap();
    for side in Side::BOTH {
        let graph = g.moves(side).unwrap();
        let universe = g.universe(side).unwrap();
        for (i, board) in universe.iter().enumerate().filter(|(i, _)| i % 7 == 0) {
            let pos = Position { side, board };
            let want: BTreeSet<Vec<Symbol>> = if g.geometry.moves(g.discs(&pos)).is_empty() {
                BTreeSet::new()
            } else {
                g.explicit_moves(&pos).into_iter().map(|p| p.board).collect()
            };
            let got: BTreeSet<Vec<Symbol>> =
                graph.forward(&Dfa::from_string(&g.shape, &pos.board)).unwrap().iter().collect();
            assert_eq!(got, want, "{} (board {i})", g.render(&pos));
        }
    }
}

/// The boards without a move that the game gives the solver are those the move graph finds no
/// move on, and those the plain rules find none on (4x4, every board, both sides).
#[test]
fn the_boards_without_a_move_are_those_the_moves_and_the_rules_find() {
    let g = Othello::new(4, 4, 0).unwrap();
    let all = Dfa::accept_all(&g.shape);
    for side in Side::BOTH {
        let stuck = g.stuck(side).unwrap().expect("Othello knows its boards without a move");
        assert_eq!(
            stuck,
            all.difference(&g.moves(side).unwrap().backward(&all).unwrap()).unwrap(),
            "{side}: the move graph"
        );
        for (i, board) in all.iter().enumerate().filter(|(i, _)| i % 97 == 0) {
            let pos = Position { side, board };
            let none = g.geometry.moves(g.discs(&pos)).is_empty();
            assert_eq!(stuck.contains(&pos.board), none, "{} (board {i})", g.render(&pos));
        }
    }
}

/// The start of 4x4 is lost by Black by 8 discs (negamax): with thresholds around -8 the
/// symbolic solve over the reachable positions says win, draw and loss.
#[test]
fn four_by_four_thresholds_bracket_the_negamax_value() {
    let geometry = Geometry::new(4, 4).unwrap();
    let exact = i32::from(explicit::Negamax::new(geometry).value(geometry.start()));
    assert_eq!(exact, -8);
    for (t, kind) in [(exact - 1, "win"), (exact, "draw"), (exact + 1, "loss")] {
        let g = Othello::new(4, 4, t).unwrap().reachable_only();
        let s = Solver::new(&g).unwrap().solve(Mode::Strong).unwrap();
        let v = s.value(&g.initial()).unwrap();
        assert_eq!(v.kind(), kind, "threshold {t}: {v:?}");
    }
}

#[test]
fn text_forms_and_refusals() {
    let g = Othello::new(4, 4, 0).unwrap();
    let start = g.initial();
    assert_eq!(g.render(&start), "..../.ox./.xo./.... black");
    assert_eq!(g.parse("..../.ox./.xo./.... black").unwrap(), start);
    let after = &g.explicit_moves(&start)[0];
    assert_eq!(g.move_name(&start, after), "b1");
    assert!(g.parse("..../..x./.xo./.... black").unwrap_err().to_string().contains("centre square b2"));
    assert!(g.parse("..../.ox./.xo./.... red").is_err());
    assert!(Othello::new(4, 4, 17).is_err() && Othello::new(2, 4, 0).is_err());
}

/// Over the reachable positions the universe is the plies' union: 4x4 has 62,789 (the sum of
/// its forward plies), each a position the plain rules reach from the start.
#[test]
fn the_reachable_universe_is_what_the_plain_rules_reach() {
    let g = Othello::new(4, 4, 0).unwrap().reachable_only();
    let mut seen: BTreeSet<Position> = BTreeSet::from([g.initial()]);
    let mut frontier = vec![g.initial()];
    while let Some(p) = frontier.pop() {
        if g.explicit_status(&p) != Status::Ongoing {
            continue;
        }
        for q in g.explicit_moves(&p) {
            if seen.insert(q.clone()) {
                frontier.push(q);
            }
        }
    }
    let mut symbolic = BTreeSet::new();
    for side in Side::BOTH {
        symbolic.extend(g.universe(side).unwrap().iter().map(|board| Position { side, board }));
    }
    assert_eq!(symbolic.len(), 62_789);
    assert_eq!(symbolic, seen);
}

/// The classes by discs from the start are the reachable positions with that many discs:
/// together exactly the universe of the plies, each on its own disc count, each once (4x3,
/// and 4x4, which has passes inside a class).
#[test]
fn the_classes_from_the_start_partition_the_reachable_positions_by_discs() {
    for (w, h) in [(4, 3), (4, 4)] {
        let g = Othello::new(w, h, 0).unwrap().reachable_only();
        let mut union = [Dfa::reject_all(&g.shape), Dfa::reject_all(&g.shape)];
        let mut seen = Vec::new();
        g.classes_from_start(|discs, sets| {
            let on_the_board = &g.classes().unwrap()[g.shape.len() - discs].set;
            for side in Side::BOTH {
                let set = &sets[side.index()];
                assert_eq!(
                    &set.intersection(on_the_board).unwrap(),
                    set,
                    "{w}x{h}: class {discs} holds other disc counts"
                );
                union[side.index()] = union[side.index()].union(set).unwrap();
            }
            seen.push(discs);
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(seen, (4..=w * h).collect::<Vec<_>>(), "{w}x{h}: every class once, the start's first");
        for side in Side::BOTH {
            assert_eq!(union[side.index()], g.universe(side).unwrap(), "{w}x{h}, {side:?} to move");
        }
    }
}

/// The plies from the start are exactly the positions the plain rules reach in n plies, a pass
/// being a ply (4x4 and 5x4 have passes before their last ply).
#[test]
fn the_plies_from_the_start_are_what_the_plain_rules_reach_in_n_plies() {
    plies_from_the_start_are_what_the_plain_rules_reach(4, 4);
}

/// [`the_plies_from_the_start_are_what_the_plain_rules_reach_in_n_plies`] on 5x4.
#[test]
#[ignore = "slow"]
fn the_plies_from_the_start_of_5x4_are_what_the_plain_rules_reach_in_n_plies() {
    plies_from_the_start_are_what_the_plain_rules_reach(5, 4);
}

fn plies_from_the_start_are_what_the_plain_rules_reach(w: usize, h: usize) {
    let g = Othello::new(w, h, 0).unwrap();
    let mut explicit: BTreeSet<Position> = BTreeSet::from([g.initial()]);
    let mut passes = 0;
    g.plies_from_start(|n, ply| {
        let symbolic: BTreeSet<Position> = Side::BOTH
            .into_iter()
            .flat_map(|side| ply[side.index()].iter().map(move |board| Position { side, board }))
            .collect();
        assert_eq!(symbolic, explicit, "{w}x{h}, ply {n}");
        explicit = explicit
            .iter()
            .filter(|p| g.explicit_status(p) == Status::Ongoing)
            .flat_map(|p| {
                let next = g.explicit_moves(p);
                passes += next.iter().filter(|q| q.board == p.board).count();
                next
            })
            .collect();
        ControlFlow::Continue(())
    })
    .unwrap();
    assert!(explicit.is_empty(), "{w}x{h}: the symbolic plies ended before the plain rules' ({})", explicit.len());
    assert!(passes > 0, "{w}x{h} has passes");
}

/// 8x8's positions after 1..=6 plies are OEIS A124005's first terms.
#[test]
fn eight_by_eight_plies_are_oeis_a124005() {
    let g = Othello::new(8, 8, 0).unwrap();
    let mut counts = Vec::new();
    g.plies_from_start(|n, ply| {
        counts.push(ply[0].count() + ply[1].count());
        if n < 6 { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
    })
    .unwrap();
    assert_eq!(counts, [1, 4, 12, 54, 236, 1288, 7092]);
}
