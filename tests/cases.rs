//! Every game's `games/<game>/cases.toml`: hand-derived positions and their values, checked
//! against a strong solve (exact distances where the case gives them). Each case names its
//! game by the registry's parameters (`params = { game = "nim", heaps = 3, tokens = 3 }`), so
//! a new game's folder is picked up with no change here.
use dfasolve::games::{GameParams, Mode, Outcome};
use dfasolve::solver::Solver;

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
    let mut files: Vec<_> = std::fs::read_dir("games")
        .unwrap()
        .map(|e| e.unwrap().path().join("cases.toml"))
        .filter(|p| p.exists())
        .collect();
    files.sort();
    assert!(files.len() >= 3, "every game has cases: {files:?}");
    for file in files {
        let doc: toml::Table = std::fs::read_to_string(&file).unwrap().parse().unwrap();
        let cases = doc["case"].as_array().unwrap();
        assert!(!cases.is_empty());
        for case in cases {
            let params: GameParams = case["params"].clone().try_into().unwrap();
            let game = params.build().unwrap();
            let solution = Solver::new(game.as_ref()).solve(Mode::Strong).unwrap();
            let pos = game.parse(case["position"].as_str().unwrap()).unwrap();
            let value = solution.value(&pos).expect("strong solves cover every legal position");
            let expected = case["value"].as_str().unwrap();
            assert!(
                matches(value, expected),
                "{} {params:?} {}: got {value}, expected {expected}",
                file.display(),
                case["position"]
            );
        }
    }
}
