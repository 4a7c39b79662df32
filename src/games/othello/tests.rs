use super::*;
use crate::games::Mode;
use crate::solver::Solver;
use crate::vocabulary::Outcome;
use std::collections::BTreeSet;

/// The staged move graph's image of each legal board is exactly the boards the plain rules
/// reach (the pass aside: the solver adds it), on 3x4 for both sides.
#[test]
fn staged_moves_equal_the_plain_rules() {
    let g = Othello::new(4, 3, 0).unwrap();
    for side in Side::BOTH {
        let graph = g.moves(side);
        let universe = g.universe(side);
        for (i, board) in universe.iter().enumerate().filter(|(i, _)| i % 7 == 0) {
            let pos = Position { side, board };
            let want: BTreeSet<Vec<Symbol>> = if g.geometry.moves(g.discs(&pos)).is_empty() {
                BTreeSet::new()
            } else {
                g.explicit_moves(&pos).into_iter().map(|p| p.board).collect()
            };
            let got: BTreeSet<Vec<Symbol>> = graph.forward(&Dfa::from_string(&g.shape, &pos.board)).iter().collect();
            assert_eq!(got, want, "{} (board {i})", g.render(&pos));
        }
    }
}

/// The start of 4x4 is lost by Black by 8 discs (negamax): with thresholds around -8 the
/// symbolic solve says win, draw and loss.
#[test]
fn four_by_four_thresholds_bracket_the_negamax_value() {
    let geometry = Geometry::new(4, 4).unwrap();
    let exact = i32::from(explicit::Negamax::new(geometry).value(geometry.start()));
    assert_eq!(exact, -8);
    for (t, kind) in [(exact - 1, "win"), (exact, "draw"), (exact + 1, "loss")] {
        let g = Othello::new(4, 4, t).unwrap();
        let s = Solver::new(&g).solve(Mode::Strong).unwrap();
        let v = s.value(&g.initial()).unwrap();
        assert_eq!(v.kind(), kind, "threshold {t}: {v:?}");
    }
    let _ = Outcome::Draw;
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
