//! Every game's `games/<game>/cases.toml`: hand-derived positions and their values, checked
//! against a strong solve (exact distances where the case gives them).
use dfasolve::games::breakthrough::Breakthrough;
use dfasolve::games::nim::Nim;
use dfasolve::games::ostle::{Ostle, Rule, Variant};
use dfasolve::games::{Game, Outcome};
use dfasolve::solver::{Mode, Solver};

fn game_for(name: &str, size: &str, case: &toml::Value) -> Box<dyn Game> {
    let (a, b) = size.split_once('x').expect("size WxH");
    let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
    let int = |k: &str| case[k].as_integer().unwrap() as usize;
    match name {
        "breakthrough" => Box::new(Breakthrough::new(a, b).unwrap()),
        "nim" => Box::new(Nim::new(a, b).unwrap()),
        "ostle" => Box::new(
            Ostle::new(Variant {
                width: a,
                height: b,
                pieces: int("pieces"),
                lose_at: int("lose_at"),
                rule: Rule::Exact,
            })
            .unwrap(),
        ),
        _ => panic!("no game {name}"),
    }
}

fn matches(value: Outcome, expected: &str) -> bool {
    let mut words = expected.split_whitespace();
    let kind = words.next().unwrap();
    let plies: Option<u32> = words.next().map(|p| p.parse().unwrap());
    value.kind() == kind
        && plies.is_none_or(
            |p| matches!(value, Outcome::Win { plies: Some(q) } | Outcome::Loss { plies: Some(q) } if q == p),
        )
}

#[test]
fn every_case_file_holds() {
    for name in ["breakthrough", "nim", "ostle"] {
        let text = std::fs::read_to_string(format!("games/{name}/cases.toml")).unwrap();
        let doc: toml::Table = text.parse().unwrap();
        let cases = doc["case"].as_array().unwrap();
        assert!(!cases.is_empty());
        for case in cases {
            let size = case["size"].as_str().unwrap();
            let game = game_for(name, size, case);
            let solution = Solver::new(game.as_ref()).solve(Mode::Strong).unwrap();
            let pos = game.parse(case["position"].as_str().unwrap()).unwrap();
            let value = solution.value(&pos).expect("strong solves cover every legal position");
            let expected = case["value"].as_str().unwrap();
            assert!(matches(value, expected), "{name} {size} {}: got {value}, expected {expected}", case["position"]);
        }
    }
}
