//! Nim: per-ply counts against the vectors, every position against Bouton's XOR rule.
use dfasolve::dfa::Dfa;
use dfasolve::game::{Outcome, Rules, Side};
use dfasolve::games::nim::Nim;
use dfasolve::solved::Mode;
use dfasolve::solver::Solver;

#[test]
fn per_ply_counts_match_vectors() {
    let text = std::fs::read_to_string("games/nim/counts.txt").unwrap();
    for line in text.lines() {
        let name = line.split(':').next().unwrap().trim_start_matches("normalnim_");
        let (n, m) = name.split_once('x').unwrap();
        let game = Nim::new(n.parse().unwrap(), m.parse().unwrap()).unwrap();
        let list = line.split('[').nth(1).unwrap().trim_end_matches(']');
        let expected: Vec<u128> = list.split(", ").map(|x| x.parse().unwrap()).collect();
        let plies = Solver::new(&game).unwrap().forward_plies(&game.initial(), None, None).unwrap();
        let got: Vec<u128> = plies.iter().map(Dfa::count).collect();
        assert_eq!(got, expected, "{name}");
        let positions: u128 =
            line.split("positions=").nth(1).unwrap().split(' ').next().unwrap().replace(',', "").parse().unwrap();
        let p: u128 =
            line.split("P(xor=0)=").nth(1).unwrap().split(' ').next().unwrap().replace(',', "").parse().unwrap();
        assert_eq!(Dfa::accept_all(game.shape()).count(), positions);
        assert_eq!(game.xor_zero().count(), p, "{name}");
    }
}

#[test]
fn every_position_matches_xor_rule() {
    for heaps in 1..=6 {
        for tokens in 1..=7 {
            let game = Nim::new(heaps, tokens).unwrap();
            let solution = Solver::new(&game).unwrap().solve(Mode::Strong).unwrap();
            let xor0 = game.xor_zero();
            // Nim's strings do not say who moves, so the solution keeps one side's sets and
            // answers for both (checked position by position below).
            assert!(solution.mover_relative);
            {
                let loss: Vec<&Dfa> = solution
                    .classes
                    .iter()
                    .filter(|c| c.side == Side::First && matches!(c.outcome, Outcome::Loss { .. }))
                    .map(|c| &c.set)
                    .collect();
                let loss = Dfa::union_all(game.shape(), &loss).unwrap();
                assert_eq!(loss, xor0, "{heaps}x{tokens}");
            }
            // And position by position through the explicit XOR, on the small ones.
            if (tokens as u32 + 1).pow(heaps as u32) <= 5000 {
                for board in Dfa::accept_all(game.shape()).iter() {
                    let xor = board.iter().fold(0, |a, &b| a ^ b);
                    for side in Side::BOTH {
                        let v = solution.value(&dfasolve::game::Position { side, board: board.clone() }).unwrap();
                        assert_eq!(v.kind(), if xor == 0 { "loss" } else { "win" });
                    }
                }
            }
        }
    }
}
