//! The conformance suite: every game with a `games/<game>/cases.toml` (every game of the table
//! has one), on every instance its cases name (`params = { game = "nim", heaps = 3, tokens = 3 }`),
//! through every strategy and solver configuration that applies to it. A new game gets all of
//! it by adding its `cases.toml`:
//!
//! * its text forms parse back to the positions they render;
//! * the symbolic moves (forward and backward images) equal the explicit moves, on samples;
//! * the strong solve equals a counter retrograde over the explicit rules on every legal
//!   position, distances and draws included, and holds every hand-derived case;
//! * every strategy (strong; by classes, for games that declare classes; meet in the middle at
//!   two depths, for games without draws) agrees with the strong solve, and its solution passes
//!   `check_solution` on every position it holds (a sample of each value class above a million
//!   positions);
//! * every configuration of the solver (mirror never and always, checkpointed and resumed,
//!   parked and filtered by parts, spilled and cut into regions) gives each strategy's values
//!   exactly.
//!
//! Failures are collected per (game, strategy, configuration) and reported together. Instances
//! of more than a million positions run in the ignored tests:
//! `cargo test --release -- --ignored conformance`.
use dfasolve::dfa::{Dfa, SplitMix64};
use dfasolve::explicit::{Exact, solve_retrograde};
use dfasolve::game::{Game, GameParams, Outcome, Position, Side};
use dfasolve::solved::check::check_solution;
use dfasolve::solved::{Mode, Solution};
use dfasolve::solver::{MirrorPolicy, SolveOptions, Solver};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// One instance of a game and the cases written for it.
struct Subject {
    file: String,
    game: Box<dyn Game>,
    cases: Vec<Case>,
}

struct Case {
    position: String,
    value: String,
}

impl Subject {
    fn name(&self) -> String {
        format!("{} ({})", self.game.name(), self.file)
    }

    /// The sides whose positions are distinct (one for a mover-relative game).
    fn sides(&self) -> &'static [Side] {
        if self.game.mover_relative() { &[Side::First] } else { &Side::BOTH }
    }

    /// Every legal position, as the solver's universe holds them.
    fn positions(&self, solver: &Solver<'_>) -> Vec<Position> {
        self.sides()
            .iter()
            .flat_map(|&side| solver.universe(side).iter().map(move |board| Position { side, board }))
            .collect()
    }
}

/// Every instance of every game's cases, in the order of the files.
fn subjects() -> Vec<Subject> {
    let mut files: Vec<_> = std::fs::read_dir("games")
        .unwrap()
        .map(|e| e.unwrap().path().join("cases.toml"))
        .filter(|p| p.exists())
        .collect();
    files.sort();
    for name in dfasolve::games::GAMES.names() {
        let cases = std::path::Path::new("games").join(name).join("cases.toml");
        assert!(files.contains(&cases), "game {name} has no {}", cases.display());
    }
    let mut subjects: Vec<(GameParams, Subject)> = Vec::new();
    for file in files {
        let doc: toml::Table = std::fs::read_to_string(&file).unwrap().parse().unwrap();
        let cases = doc["case"].as_array().unwrap();
        assert!(!cases.is_empty(), "{} has cases", file.display());
        for case in cases {
            let params: GameParams = case["params"].clone().try_into().unwrap();
            let case = Case {
                position: case["position"].as_str().unwrap().to_string(),
                value: case["value"].as_str().unwrap().to_string(),
            };
            match subjects.iter_mut().find(|(p, _)| *p == params) {
                Some((_, subject)) => subject.cases.push(case),
                None => {
                    let game = dfasolve::games::GAMES.build(&params).unwrap();
                    let file = file.display().to_string();
                    subjects.push((params, Subject { file, game, cases: vec![case] }));
                }
            }
        }
    }
    subjects.into_iter().map(|(_, s)| s).collect()
}

/// The instance of every game that its cases name (for suites that want the games only).
pub fn games() -> Vec<Box<dyn Game>> {
    subjects().into_iter().map(|s| s.game).collect()
}

/// Whether `value` is the case's `expected`: "win", "loss" or "draw", with the exact plies
/// where the case gives them ("loss 4").
fn matches(value: Outcome, expected: &str) -> bool {
    let mut words = expected.split_whitespace();
    let kind = words.next().unwrap();
    let plies: Option<u32> = words.next().map(|p| p.parse().unwrap());
    value.kind() == kind
        && plies.is_none_or(
            |p| matches!(value, Outcome::Win { plies: Some(q) } | Outcome::Loss { plies: Some(q) } if q == p),
        )
}

/// The positions of each (side, value), united over the entries of a solution.
pub fn by_value(solution: &Solution) -> BTreeMap<(Side, String), Dfa> {
    let mut out: BTreeMap<(Side, String), Dfa> = BTreeMap::new();
    for c in &solution.with_rest_as_sets().unwrap().classes {
        let key = (c.side, c.outcome.to_string());
        let set = out.remove(&key).map_or_else(|| c.set.clone(), |d| d.union(&c.set).unwrap());
        out.insert(key, set);
    }
    out.retain(|_, d| !d.is_empty());
    out
}

#[test]
fn text_forms_round_trip() {
    for subject in subjects() {
        let game = subject.game.as_ref();
        for case in &subject.cases {
            let pos =
                game.parse(&case.position).unwrap_or_else(|e| panic!("{}: {}: {e}", subject.name(), case.position));
            assert_eq!(game.parse(&game.render(&pos)).unwrap(), pos, "{}: {}", subject.name(), case.position);
        }
        let start = game.initial();
        assert_eq!(game.parse(&game.render(&start)).unwrap(), start, "{}: the start", subject.name());
        let solver = Solver::new(game).unwrap();
        let mut rng = SplitMix64::new(11);
        for &side in subject.sides() {
            let sampler = solver.universe(side).sampler().expect("legal positions");
            for _ in 0..200 {
                let pos = Position { side, board: sampler.sample(&mut rng) };
                let text = game.render(&pos);
                let back = game.parse(&text).unwrap_or_else(|e| panic!("{}: {text}: {e}", subject.name()));
                assert_eq!(back, pos, "{}: {text}", subject.name());
            }
        }
    }
}

/// forward(S) equals the explicit successors of S's members, for samples S of the ongoing
/// positions; backward(T) ∩ S equals the members of S with an explicit move into T.
#[test]
fn symbolic_images_equal_explicit_moves() {
    for subject in subjects() {
        let game = subject.game.as_ref();
        let solver = Solver::new(game).unwrap();
        let mut rng = SplitMix64::new(42);
        for &side in subject.sides() {
            let Some(sampler) = solver.ongoing(side).sampler() else { continue };
            for round in 0..6 {
                let picked: Vec<Vec<u8>> = (0..40).map(|_| sampler.sample(&mut rng)).collect();
                let set = Dfa::from_strings(game.shape(), &picked);
                let moves_of = |b: &Vec<u8>| game.explicit_moves(&Position { side, board: b.clone() });
                let explicit: BTreeSet<Vec<u8>> = picked.iter().flat_map(moves_of).map(|p| p.board).collect();
                let symbolic: BTreeSet<Vec<u8>> = solver.forward(side, &set).unwrap().iter().collect();
                assert_eq!(symbolic, explicit, "{}: forward image, {side} to move, round {round}", subject.name());
                let target: Vec<Vec<u8>> = explicit.iter().step_by(3).cloned().collect();
                let target = Dfa::from_strings(game.shape(), &target);
                let back: BTreeSet<Vec<u8>> =
                    solver.backward(side, &target).unwrap().intersection(&set).unwrap().iter().collect();
                let expected: BTreeSet<Vec<u8>> =
                    picked.iter().filter(|b| moves_of(b).iter().any(|p| target.contains(&p.board))).cloned().collect();
                assert_eq!(back, expected, "{}: backward image, {side} to move, round {round}", subject.name());
            }
        }
    }
}

/// Instances with more legal positions than this are held against the explicit retrograde in
/// the ignored test below (Breakthrough 4x4: 15 M positions, a minute), not in the default run.
const EXHAUSTIVE_UP_TO: u128 = 1_000_000;

/// The strong solve, value for value and distance for distance, equals the explicit
/// retrograde on every legal position, and holds every case.
#[test]
fn strong_solves_equal_the_explicit_retrograde_and_hold_every_case() {
    for subject in subjects() {
        strong_solve_conforms(&subject, |positions| positions <= EXHAUSTIVE_UP_TO);
    }
}

/// [`strong_solves_equal_the_explicit_retrograde_and_hold_every_case`] on the instances too
/// large for the default run: `cargo test --release -- --ignored conformance`.
#[test]
#[ignore = "slow"]
fn strong_solves_of_large_instances_equal_the_explicit_retrograde() {
    for subject in subjects() {
        strong_solve_conforms(&subject, |positions| positions > EXHAUSTIVE_UP_TO);
    }
}

/// The strong solve of `subject` holds its cases; against the explicit retrograde on every
/// position if `exhaustive(its positions)`.
fn strong_solve_conforms(subject: &Subject, exhaustive: impl Fn(u128) -> bool) {
    let game = subject.game.as_ref();
    let mut solver = Solver::new(game).unwrap();
    let legal: u128 = subject.sides().iter().map(|&s| solver.universe(s).count()).sum();
    let solution = solver.solve(Mode::Strong).unwrap();
    for case in &subject.cases {
        let pos = game.parse(&case.position).unwrap();
        let value = solution.value(&pos).expect("strong solves cover every legal position");
        assert!(
            matches(value, &case.value),
            "{}: {}: got {value}, expected {}",
            subject.name(),
            case.position,
            case.value
        );
    }
    let valued: u128 = solution.classes.iter().map(|c| c.set.count()).sum();
    assert_eq!(valued, legal, "{}: the classes hold the legal positions only", subject.name());
    if !exhaustive(legal) {
        return;
    }
    let positions = subject.positions(&solver);
    let oracle = solve_retrograde(game, &positions).expect("the positions are closed under the moves");
    for pos in &positions {
        let key = if game.mover_relative() { Position { side: Side::First, ..pos.clone() } } else { pos.clone() };
        assert_eq!(solution.value(pos), Some(oracle[&key].into()), "{}: {}", subject.name(), game.render(pos));
    }
    if !game.has_draws() {
        assert!(oracle.values().all(|v| *v != Exact::Draw), "{}: a game without draws", subject.name());
    }
}

/// A way to solve a game, through the solver's own entry points.
#[derive(Clone, Copy, Debug)]
enum Strategy {
    Strong,
    ByClasses,
    Meet { depth: u32 },
}

impl Strategy {
    const ALL: [Strategy; 4] =
        [Strategy::Strong, Strategy::ByClasses, Strategy::Meet { depth: 0 }, Strategy::Meet { depth: 2 }];

    fn applies(self, game: &dyn Game) -> bool {
        match self {
            Strategy::Strong => true,
            Strategy::ByClasses => !game.classes().unwrap().is_empty(),
            Strategy::Meet { .. } => !game.has_draws(),
        }
    }

    /// The solve, keeping any class files in `classes`.
    fn solve(self, solver: &mut Solver<'_>, classes: &std::path::Path) -> dfasolve::Result<Solution> {
        match self {
            Strategy::Strong => solver.solve(Mode::Strong),
            Strategy::ByClasses => solver.solve_by_classes(Some(classes)),
            Strategy::Meet { depth } => solver.solve(Mode::MeetInTheMiddle { depth }),
        }
    }
}

/// How the solver runs: options that trade memory, disk and time and must not change a value.
#[derive(Clone, Copy, Debug)]
enum Configuration {
    /// The defaults.
    Plain,
    /// Both sides' images computed, never mirrored.
    MirrorNever,
    /// The second side's sets mirrored from the first side's in every iteration.
    MirrorAlways,
    /// Every step checkpointed and every image journaled after each move group, then the same
    /// solve again, which must take every step from the checkpoints.
    Resumed,
    /// Loss steps park their running sets and filter by the game's parts, whatever their size.
    ParkedByParts,
    /// The meet in the middle's finished sets spilled to files, each backup ply cut into
    /// regions, and its running values merged in small runs.
    SpilledInRegions,
}

impl Configuration {
    const ALL: [Configuration; 6] = [
        Configuration::Plain,
        Configuration::MirrorNever,
        Configuration::MirrorAlways,
        Configuration::Resumed,
        Configuration::ParkedByParts,
        Configuration::SpilledInRegions,
    ];

    fn applies(self, game: &dyn Game, strategy: Strategy) -> bool {
        let mirrored = game.side_mirror().is_some() && !game.mover_relative();
        let meet = matches!(strategy, Strategy::Meet { .. });
        match self {
            Configuration::Plain | Configuration::Resumed => true,
            Configuration::MirrorNever | Configuration::MirrorAlways => mirrored,
            Configuration::ParkedByParts => !meet,
            Configuration::SpilledInRegions => meet,
        }
    }

    fn options(self, dir: &std::path::Path) -> SolveOptions {
        let checkpoints = Some(dir.join("checkpoints"));
        match self {
            Configuration::Plain => SolveOptions::default(),
            Configuration::MirrorNever => SolveOptions { mirror: MirrorPolicy::Never, ..SolveOptions::default() },
            Configuration::MirrorAlways => SolveOptions { mirror: MirrorPolicy::Always, ..SolveOptions::default() },
            Configuration::Resumed => {
                SolveOptions { checkpoints, journal_every: Duration::ZERO, ..SolveOptions::default() }
            }
            Configuration::ParkedByParts => SolveOptions {
                checkpoints,
                park_above: 0,
                part_above: 0,
                journal_every: Duration::ZERO,
                ..SolveOptions::default()
            },
            Configuration::SpilledInRegions => SolveOptions {
                spill: Some(dir.to_path_buf()),
                backup_parts: 5,
                run_cap: Some(4),
                ..SolveOptions::default()
            },
        }
    }
}

/// One solve of the matrix: its solution, or what went wrong (an error or a panic).
fn run_cell(game: &dyn Game, strategy: Strategy, configuration: Configuration) -> Result<Solution, String> {
    let dir = crate::scratch::tempdir();
    let solve = || -> Result<Solution, String> {
        let options = configuration.options(dir.path());
        let first =
            strategy.solve(&mut Solver::with_options(game, options.clone()).unwrap(), &dir.path().join("classes"));
        let first = first.map_err(|e| e.to_string())?;
        if let Configuration::Resumed = configuration {
            let mut again = Solver::with_options(game, options).unwrap();
            // Class files of its own, so that the classes too resume from the checkpoints.
            let resumed =
                strategy.solve(&mut again, &dir.path().join("classes-again")).map_err(|e| format!("resumed: {e}"))?;
            if again.checkpoints_reused() == 0 {
                return Err("the second run reused no checkpoint".into());
            }
            if by_value(&resumed) != by_value(&first) || resumed.initial_value != first.initial_value {
                return Err("the resumed run's values differ from the first run's".into());
            }
        }
        let left = leftover_journals(&dir.path().join("checkpoints"));
        if !left.is_empty() {
            return Err(format!("a finished run left journals: {left:?}"));
        }
        Ok(first)
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(solve)).unwrap_or_else(|panic| {
        Err(format!(
            "panicked: {}",
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        ))
    })
}

/// Journals and parked sets a finished run should have removed from `checkpoints`.
fn leftover_journals(checkpoints: &std::path::Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(checkpoints) else { return Vec::new() };
    entries
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.contains("parked") || n.ends_with("-wins.dfas") || (n.contains("-losses") && n.ends_with(".dfas"))
        })
        .collect()
}

/// Whether `meet`, a meet in the middle's solution, values the start and every position it
/// holds as `strong` does: the same distance where the meet knows one, the same kind
/// otherwise.
fn meet_agrees(game: &dyn Game, meet: &Solution, strong: &Solution) -> Result<(), String> {
    if meet.initial_value.kind() != strong.initial_value.kind() {
        return Err(format!("the start is {}, strong says {}", meet.initial_value, strong.initial_value));
    }
    for class in &meet.with_rest_as_sets().unwrap().classes {
        let same = strong.classes.iter().filter(|c| {
            c.side == class.side
                && match class.outcome {
                    Outcome::Win { plies: Some(_) } | Outcome::Loss { plies: Some(_) } => c.outcome == class.outcome,
                    _ => c.outcome.kind() == class.outcome.kind(),
                }
        });
        let same = same.fold(Dfa::reject_all(game.shape()), |acc, c| acc.union(&c.set).unwrap());
        if let Some(board) = class.set.difference(&same).unwrap().iter().next() {
            let pos = Position { side: class.side, board };
            let whole = strong.value(&pos).unwrap();
            return Err(format!("{} is {}, strong says {whole}", game.render(&pos), class.outcome));
        }
    }
    Ok(())
}

/// Every strategy that applies to a subject, in every configuration that applies to it: the
/// plain run of each strategy agrees with the strong solve and passes the explicit re-check
/// (every position up to [`EXHAUSTIVE_UP_TO`], a sample of each value class above), and every
/// other configuration gives its plain run's values exactly. Failures are collected per
/// (game, strategy, configuration) and reported together.
fn strategies_and_configurations_conform(subject: &Subject) -> Vec<String> {
    let game = subject.game.as_ref();
    let mut failures = Vec::new();
    let strong = match run_cell(game, Strategy::Strong, Configuration::Plain) {
        Ok(strong) => strong,
        Err(e) => return vec![format!("{}, strong, plain: {e}", subject.name())],
    };
    let legal: u128 = strong.classes.iter().map(|c| c.set.count()).sum();
    let sample = if legal <= EXHAUSTIVE_UP_TO { usize::MAX } else { 2_000 };
    for strategy in Strategy::ALL.into_iter().filter(|s| s.applies(game)) {
        let plain = match strategy {
            Strategy::Strong => Ok(strong.clone()),
            _ => run_cell(game, strategy, Configuration::Plain),
        };
        let plain = plain.and_then(|plain| {
            match strategy {
                Strategy::Strong => Ok(()),
                Strategy::ByClasses if by_value(&plain) == by_value(&strong) => Ok(()),
                Strategy::ByClasses => Err("values differ from the strong solve's".to_string()),
                Strategy::Meet { .. } => meet_agrees(game, &plain, &strong),
            }?;
            check_solution(game, &plain, sample, 0).map_err(|e| format!("explicit check: {e}"))?;
            Ok(plain)
        });
        let plain = match plain {
            Ok(plain) => plain,
            Err(e) => {
                failures.push(format!("{}, {strategy:?}, plain: {e}", subject.name()));
                continue;
            }
        };
        let others = Configuration::ALL.into_iter().filter(|c| !matches!(c, Configuration::Plain));
        for configuration in others.filter(|c| c.applies(game, strategy)) {
            let outcome = run_cell(game, strategy, configuration).and_then(|solution| {
                if solution.initial_value != plain.initial_value || by_value(&solution) != by_value(&plain) {
                    return Err("values differ from the plain run's".to_string());
                }
                Ok(())
            });
            if let Err(e) = outcome {
                failures.push(format!("{}, {strategy:?}, {configuration:?}: {e}", subject.name()));
            }
        }
    }
    failures
}

/// [`strategies_and_configurations_conform`] on every instance of at most
/// [`EXHAUSTIVE_UP_TO`] legal positions.
#[test]
fn every_strategy_and_configuration_agrees_and_passes_the_explicit_check() {
    let failures: Vec<String> = subjects()
        .iter()
        .filter(|s| legal_positions(s) <= EXHAUSTIVE_UP_TO)
        .flat_map(strategies_and_configurations_conform)
        .collect();
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// [`strategies_and_configurations_conform`] on the instances too large for the default run:
/// `cargo test --release -- --ignored conformance`.
#[test]
#[ignore = "slow"]
fn every_strategy_and_configuration_agrees_on_large_instances() {
    let failures: Vec<String> = subjects()
        .iter()
        .filter(|s| legal_positions(s) > EXHAUSTIVE_UP_TO)
        .flat_map(strategies_and_configurations_conform)
        .collect();
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// How many legal positions `subject` has, counted on its universe.
fn legal_positions(subject: &Subject) -> u128 {
    let solver = Solver::new(subject.game.as_ref()).unwrap();
    subject.sides().iter().map(|&s| solver.universe(s).count()).sum()
}
