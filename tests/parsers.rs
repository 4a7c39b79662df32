//! Fuzz-style: random and mutated text fed to every position parser gives a position or an
//! error, never a panic; what parses renders back to an equal position.
use dfasolve::game::{Game, Rules};
use dfasolve::games::breakthrough::Breakthrough;
use dfasolve::games::nim::Nim;
use dfasolve::games::ostle::{Ostle, Variant};
use proptest::prelude::*;

/// Every game of the conformance suite, and the largest boards, whose text is longest.
fn all_games() -> Vec<Box<dyn Game>> {
    let mut games = crate::conformance::games();
    games.push(Box::new(Breakthrough::new(5, 6).unwrap()));
    games.push(Box::new(Ostle::new(Variant::standard()).unwrap()));
    games
}

thread_local! {
    /// [`all_games`], built once per test thread rather than once per generated case.
    static GAMES: Vec<Box<dyn Game>> = all_games();
}

/// Run `f` on every game.
fn games<T>(f: impl FnOnce(&[Box<dyn Game>]) -> T) -> T {
    GAMES.with(|games| f(games))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in ".{0,60}") {
        games(|games| {
            for g in games {
                if let Ok(pos) = g.parse(&text) {
                    prop_assert_eq!(g.parse(&g.render(&pos)).unwrap(), pos);
                }
            }
            Ok(())
        })?;
    }

    #[test]
    fn mutated_positions_never_panic(i in 0usize..64, ch in prop::sample::select(vec!['x', 'o', '.', '/', ' ', '9', ',', 'q', '\u{e9}', 'b', 'w', 'U', 'D', '-'])) {
        games(|games| {
            for g in games {
                let mut text: Vec<char> = g.render(&g.initial()).chars().collect();
                let k = i % text.len();
                text[k] = ch;
                let mutated: String = text.into_iter().collect();
                if let Ok(pos) = g.parse(&mutated) {
                    prop_assert_eq!(g.parse(&g.render(&pos)).unwrap(), pos);
                }
            }
            Ok(())
        })?;
    }
}

/// Text after the side to move, and a separator too many, are errors that say so.
#[test]
fn extra_text_and_separators_are_named() {
    let bt = Breakthrough::new(4, 4).unwrap();
    let nim = Nim::new(4, 7).unwrap();
    let err = |g: &dyn Game, text: &str| g.parse(text).unwrap_err().to_string();
    assert!(err(&bt, "xxxx/..../..../oooo first extra").contains("unexpected \"extra\" after the side"));
    assert!(err(&bt, "xxxx/..../..../oooo/ first").contains("empty row"));
    assert!(err(&bt, "xxxx/..../..../oooo").contains("missing side"));
    assert!(err(&nim, "1,2,3,4 first x").contains("unexpected \"x\" after the side"));
    assert!(err(&nim, "1,2,3,4, first").contains("empty heap size"));
    assert!(
        nim.parse("1,2,3,4 first").is_ok() && nim.parse("1 2 3 4").is_ok() && bt.parse("xxxx/..../..../oooo o").is_ok()
    );
}
