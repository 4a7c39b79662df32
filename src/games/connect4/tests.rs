use super::explicit::Negamax;
use super::*;
use crate::games::Mode;
use crate::solver::Solver;
use crate::vocabulary::Outcome;

/// Every position of the universe, both sides to move, has the negamax value: on boards
/// small enough to enumerate, lines of 3 and 4.
#[test]
fn the_strong_solve_equals_negamax_on_every_position() {
    for (w, h, line) in [(3, 3, 3), (4, 3, 3), (4, 4, 4), (3, 4, 3), (5, 3, 4)] {
        let g = Connect4::new(w, h, line).unwrap();
        let solver = Solver::new(&g);
        let solution = Solver::new(&g).solve(Mode::Strong).unwrap();
        let mut negamax = Negamax::new(&g);
        let mut checked = 0;
        for side in Side::BOTH {
            for board in solver.universe(side).iter() {
                let pos = Position { side, board };
                assert_eq!(solution.value(&pos), Some(negamax.value(&pos)), "{w}x{h} line {line}: {}", g.render(&pos));
                checked += 1;
            }
        }
        assert!(checked > 100, "{w}x{h}: {checked}");
    }
}

/// The start of 4x4 is a draw (as published); a full board without a line is drawn.
#[test]
fn four_by_four_is_a_draw() {
    let g = Connect4::new(4, 4, 4).unwrap();
    assert_eq!(Negamax::new(&g).value(&g.initial()), Outcome::Draw);
    let full = g.parse("xxoo/ooxx/xxoo/ooxx first").unwrap();
    assert_eq!(g.explicit_status(&full), Status::Drawn);
}

#[test]
fn text_forms_and_refusals() {
    let g = Connect4::new(7, 6, 4).unwrap();
    let start = g.initial();
    assert_eq!(g.render(&start), "......./......./......./......./......./....... first");
    let centre = g.explicit_moves(&start)[3].clone();
    assert_eq!(g.render(&centre), "......./......./......./......./......./...x... second");
    assert_eq!(g.move_name(&start, &centre), "d");
    assert_eq!(g.parse(&g.render(&centre)).unwrap(), centre);
    let refused = |text: &str, why: &str| {
        let e = g.parse(text).unwrap_err().to_string();
        assert!(e.contains(why) && e.contains("connect4 7x6"), "{text}: {e}");
    };
    refused("......./......./......./......./...x.../....... second", "column d has a disc above an empty square");
    refused("......./......./......./......./......./...x... first", "x has 1 discs and o 0");
    refused("......./......./...x.../...xo../...xo../..oxo.. first", "has a line already");
    refused("......./....... first", "2 rows given");
    refused("......./......./......./......./......./...q... second", "unknown square symbol");
    assert!(Connect4::new(0, 6, 4).is_err() && Connect4::new(9, 6, 4).is_err() && Connect4::new(7, 6, 1).is_err());
}

/// A column fills from the bottom, and a full column takes no more discs.
#[test]
fn discs_drop_and_full_columns_are_closed() {
    let g = Connect4::new(2, 2, 2).unwrap();
    let pos = g.parse(".x/o. first").unwrap_err();
    assert!(pos.to_string().contains("above an empty"), "{pos}");
    let pos = g.parse("../ox first").unwrap();
    let next: Vec<String> = g.explicit_moves(&pos).iter().map(|p| g.render(p)).collect();
    assert_eq!(next, ["x./ox second", ".x/ox second"]);
    let over = g.parse("xo/xo first").unwrap_err();
    assert!(over.to_string().contains("line already"), "{over}");
    let lost = g.parse("../xo second").unwrap_err();
    assert!(lost.to_string().contains("x has 1 discs and o 1"), "{lost}");
    let lost = g.parse("x./xo second").unwrap();
    assert_eq!(g.explicit_status(&lost), Status::Lost);
}
