use super::explicit::Negamax;
use super::*;
use crate::solved::Mode;
use crate::solver::Solver;
use crate::vocabulary::Outcome;

/// Every position of the universe, both sides to move, has the negamax value: on boards
/// small enough to enumerate, lines of 3 and 4.
#[test]
fn the_strong_solve_equals_negamax_on_every_position() {
    for (w, h, line) in [(3, 3, 3), (4, 3, 3), (4, 4, 4), (3, 4, 3), (5, 3, 4)] {
        let g = Connect4::new(w, h, line).unwrap();
        let mut solver = Solver::new(&g).unwrap();
        let solution = solver.solve(Mode::Strong).unwrap();
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

/// Positions after n plies on 7x6: the forward ply sets, a breadth-first walk of the plain
/// rules and the first terms of OEIS A212693 agree. (Run with `--ignored`: the forward sets
/// need the whole 7x6 universe and its lines made first, 140 s beside another solve.)
#[test]
#[ignore = "slow"]
fn forward_plies_of_7x6_are_oeis_a212693() {
    const A212693: [u128; 9] = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275];
    let g = Connect4::new(7, 6, 4).unwrap();
    let plies = Solver::new(&g).unwrap().forward_plies(&g.initial(), None, Some(8)).unwrap();
    let by_sets: Vec<u128> = plies.iter().map(crate::dfa::Dfa::count).collect();
    let mut ply = vec![g.initial()];
    let mut by_rules = vec![1u128];
    for _ in 1..A212693.len() {
        let next: std::collections::BTreeSet<Position> =
            ply.iter().filter(|p| g.explicit_status(p) == Status::Ongoing).flat_map(|p| g.explicit_moves(p)).collect();
        by_rules.push(next.len() as u128);
        ply = next.into_iter().collect();
    }
    assert_eq!(by_rules, A212693);
    assert_eq!(by_sets, A212693);
}
