//! Ostle: the rules on hand-made positions, symbolic moves against the explicit move
//! generator, and the DFA solution against the explicit tables of small variants.
use dfasolve::dfa::{Dfa, SplitMix64};
use dfasolve::games::ostle::explicit::{self, Cell, Move};
use dfasolve::games::ostle::{Dir, Ostle, Rule, Variant};
use dfasolve::games::{Game, Position, Side};
use dfasolve::solver::Solver;
use std::collections::BTreeSet;

fn variant(width: usize, height: usize, pieces: usize, lose_at: usize, rule: Rule) -> Variant {
    Variant { width, height, pieces, lose_at, rule }.checked().unwrap()
}

fn state(v: &Variant, text: &str) -> explicit::State {
    v.parse_state(text).unwrap()
}

fn mv(v: &Variant, square: &str, dir: Dir) -> Move {
    let file = square.as_bytes()[0] - b'a';
    let rank: usize = square[1..].parse().unwrap();
    Move { square: (rank - 1) * v.width + file as usize, dir }
}

/// Board text after `m`, from the new mover's view, and the forbidden move text.
fn after(v: &Variant, text: &str, square: &str, dir: Dir) -> (String, String) {
    let s = state(v, text);
    let m = mv(v, square, dir);
    assert!(v.successors(&s).iter().any(|(x, _)| *x == m), "{square}{dir:?} is not legal in {text}");
    let t = v.after(&s.cells, m);
    (v.board_text(&t.cells), t.forbidden.map_or("-".into(), |f| v.move_text(f)))
}

#[test]
fn push_chains_removals_and_the_forbidden_move() {
    let v = variant(5, 5, 5, 3, Rule::Exact);
    // A move onto an empty square: nothing to undo for the opponent (it is not their piece).
    let start = "bbbbb/...../..o../...../wwwww";
    assert_eq!(after(&v, start, "a1", Dir::U), (".wwww/w..../..o../...../bbbbb".into(), "-".into()));
    // Chain of 2 (own, opponent) ending on an empty square: the pushed piece may push back.
    let (b, f) = after(&v, "bbbb./w..../..o../...../wwww. -", "a1", Dir::U);
    assert_eq!((b.as_str(), f.as_str()), (".www./w..../b.o../...../bbbb.", "a3D"));
    // Chain of 4 off the edge: the last piece (the mover's own) leaves the game.
    let (b, f) = after(&v, "bbbbb/...../..o../...../wwww.", "a1", Dir::R);
    assert_eq!((b.as_str(), f.as_str()), (".wwww/...../..o../...../bbbb.", "-"));
    // Chain of 3 into the hole: the opponent's piece falls in.
    let (b, f) = after(&v, "bb.../...../bbwo./...../wwww.", "a3", Dir::R);
    assert_eq!((b.as_str(), f.as_str()), ("ww.../...../.wwo./...../bbbb.", "-"));
    // The hole moves only onto an empty square; moving it back is then forbidden.
    let (b, f) = after(&v, start, "c3", Dir::L);
    assert_eq!((b.as_str(), f.as_str()), ("wwwww/...../.o.../...../bbbbb", "b3R"));
    let s = state(&v, "wwwww/...../.o.../...../bbbbb b3R");
    assert!(v.successors(&s).iter().all(|(m, _)| *m != mv(&v, "b3", Dir::R)));
    assert!(v.successors(&s).iter().any(|(m, _)| *m == mv(&v, "b3", Dir::L)));
    // A hole next to a piece cannot move onto it.
    let s = state(&v, "bbbb./..b../..o../...../wwwww");
    assert!(v.successors(&s).iter().all(|(m, _)| *m != mv(&v, "c3", Dir::D)));
    // A forbidden piece move: only that direction is excluded.
    let s = state(&v, ".www./w..../b.o../...../bbbb. a3D");
    let moves: Vec<Move> = v.successors(&s).into_iter().map(|(m, _)| m).collect();
    assert!(!moves.contains(&mv(&v, "a3", Dir::D)));
    assert!(moves.contains(&mv(&v, "a3", Dir::U)) && moves.contains(&mv(&v, "a3", Dir::R)));
}

#[test]
fn the_game_ends_at_lose_at_pieces() {
    let v = variant(5, 5, 5, 3, Rule::Exact);
    // Pushing one of the opponent's four pieces off: they are down to 3 and lose at once.
    let s = state(&v, "bbbb./...../..o../b..../wwww.");
    let t = v.after(&s.cells, mv(&v, "a4", Dir::U));
    assert_eq!(t.forbidden, None);
    assert_eq!(Variant::piece_counts(&t.cells), (3, 5), "white, to move, has 3 pieces left");
    assert_eq!(v.finished(&t.cells), Some(false));
    let game = Ostle::new(v.clone()).unwrap();
    let pos = Position { side: Side::Second, board: v.encode(&t) };
    assert_eq!(game.explicit_status(&pos), dfasolve::games::Status::Lost);
    // Pushing one's own fourth-last piece off loses: the opponent, to move, has won.
    let s = state(&v, "bbbb./...../..o../...../wwww.");
    let t = v.after(&s.cells, mv(&v, "a1", Dir::D));
    assert_eq!(v.finished(&t.cells), Some(true));
    assert_eq!(Cell::Empty, t.cells[0]);
}

/// forward(S) equals the explicit successors of S's members; backward(T) within the
/// universe equals the states with an explicit move into T.
fn symbolic_moves_match(v: Variant, samples: usize) {
    let game = Ostle::new(v.clone()).unwrap();
    let solver = Solver::new(&game);
    let ongoing = solver.ongoing(Side::First).clone();
    let sampler = ongoing.sampler().expect("ongoing states");
    let mut rng = SplitMix64::new(7);
    for _round in 0..8 {
        let picked: Vec<Vec<u8>> = (0..samples).map(|_| sampler.sample(&mut rng)).collect();
        let set = Dfa::from_strings(game.shape(), &picked);
        let explicit: BTreeSet<Vec<u8>> = picked
            .iter()
            .flat_map(|b| game.explicit_moves(&Position { side: Side::First, board: b.clone() }))
            .map(|p| p.board)
            .collect();
        let symbolic: BTreeSet<Vec<u8>> = solver.forward(Side::First, &set).iter().collect();
        assert_eq!(symbolic, explicit, "forward image of {} states", picked.len());
        // Backward: every ongoing state with a move into the image of the sample.
        let target = Dfa::from_strings(game.shape(), &explicit.iter().take(samples).cloned().collect::<Vec<_>>());
        let back: BTreeSet<Vec<u8>> = solver.backward(Side::First, &target).intersection(&ongoing).iter().collect();
        for s in picked.iter() {
            let hits = game
                .explicit_moves(&Position { side: Side::First, board: s.clone() })
                .iter()
                .any(|p| target.contains(&p.board));
            assert_eq!(back.contains(s), hits, "backward image membership of {}", game.render(&Position { side: Side::First, board: s.clone() }));
        }
        for s in &back {
            let hits = game
                .explicit_moves(&Position { side: Side::First, board: s.clone() })
                .iter()
                .any(|p| target.contains(&p.board));
            assert!(hits, "{} has no move into the target", game.render(&Position { side: Side::First, board: s.clone() }));
        }
    }
}

#[test]
fn symbolic_moves_equal_explicit_moves_3x3() {
    symbolic_moves_match(variant(3, 3, 3, 1, Rule::Exact), 30);
}

#[test]
fn symbolic_moves_equal_explicit_moves_4x4() {
    symbolic_moves_match(variant(4, 4, 3, 2, Rule::Exact), 30);
}
