//! `dfasolve ostle` (strong solve and the published counts) and `dfasolve verify ostle`
//! (every entry of the explicit tables checked by membership in the DFA solution).

use super::{RunOptions, SolveReport, finish, human, solve, solve_with};
use crate::dfa::Dfa;
use crate::dfa::file::write_atomically;
use crate::games::ostle::census::{boards_of, boards_with, hole_classes, orbit_set, orbits, states_of_boards};
use crate::games::ostle::explicit::{self, Value};
use crate::games::ostle::{Ostle, Rule, Variant};
use crate::games::{Game, Outcome, Side};
use crate::solver::{Mode, Solution, Solver};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

/// Which Ostle variant.
#[derive(Args, Debug, Clone)]
pub struct OstleArgs {
    /// Files (board width), 2..=8.
    #[arg(long, default_value_t = 5)]
    pub width: usize,
    /// Ranks (board height), 3..=8.
    #[arg(long, default_value_t = 5)]
    pub height: usize,
    /// Pieces per side at the start (at most the width).
    #[arg(long, default_value_t = 5)]
    pub pieces: usize,
    /// A player reduced to this many pieces loses.
    #[arg(long = "lose-at", default_value_t = 3)]
    pub lose_at: usize,
    /// Reading of the no-undo rule: `exact` (the game's rule) or `class` (the published
    /// explicit solutions' symmetry-class reading, for variants of up to 20 million boards).
    #[arg(long, default_value = "exact")]
    pub rule: String,
}

impl OstleArgs {
    fn variant(&self) -> Result<Variant> {
        Ok(Variant {
            width: self.width,
            height: self.height,
            pieces: self.pieces,
            lose_at: self.lose_at,
            rule: Rule::parse(&self.rule)?,
        }
        .checked()?)
    }
}

fn symbolic_game(v: &Variant) -> Result<Ostle> {
    Ok(Ostle::new(v.clone())?)
}

/// One line of a count table: raw strings and orbits under the board symmetries.
#[derive(serde::Serialize)]
struct Count {
    what: String,
    raw: u128,
    up_to_symmetry: u128,
}

fn count(v: &Variant, what: impl Into<String>, set: &Dfa) -> Result<Count> {
    let (raw, up_to_symmetry) = orbits(v, set)?;
    Ok(Count { what: what.into(), raw, up_to_symmetry })
}

/// The published counts of a solved variant.
#[derive(serde::Serialize)]
struct Census {
    values: Vec<Count>,
    nontrivial_values: Vec<Count>,
    positions_by_hole_and_pieces: Vec<Count>,
    checkmate_positions: Count,
    nontrivial_states: Count,
    distances_from_start: Vec<Count>,
}

/// The counts of a solved variant, from the sets of the solver that solved it.
fn census(game: &Ostle, solution: &Solution, solver: &Solver) -> Result<Census> {
    let v = game.variant().clone();
    let mut values = Vec::new();
    let mut classes: Vec<_> = solution.classes.iter().filter(|c| c.side == Side::First).collect();
    classes.sort_by_key(|c| match c.outcome {
        Outcome::Win { plies } => (0, plies.unwrap_or(0)),
        Outcome::Loss { plies } => (1, plies.unwrap_or(0)),
        Outcome::Draw => (2, 0),
    });
    for c in &classes {
        values.push(count(&v, c.outcome.to_string(), &c.set)?);
    }
    let mut by_hole = Vec::new();
    for (name, squares) in hole_classes(&v) {
        for mine in (v.lose_at + 1..=v.pieces).rev() {
            for theirs in (v.lose_at + 1..=v.pieces).rev() {
                let set = boards_with(game, &squares, mine, theirs);
                by_hole.push(count(&v, format!("hole {name}, {mine} v {theirs}"), &set)?);
            }
        }
    }
    // Checkmate: the opponent has T+1 pieces and some move leaves them with T.
    let ongoing = game.ongoing_boards();
    let opponent_at_limit = solver.lost_terminal(Side::First).clone();
    let checkmate = solver.backward_within(Side::First, &opponent_at_limit, &ongoing);
    let checkmate_positions = count(&v, "checkmate positions", &checkmate)?;
    // Non-trivial: possibly reachable states of non-checkmate positions.
    // The universe is the possibly reachable states plus the start; the start counts only if
    // some move leads to it (one backward image of a single state).
    let mut reachable = solver.universe(Side::First).clone();
    let start = Dfa::from_string(game.shape(), &game.initial().board);
    if solver.backward_within(Side::First, &start, &ongoing).is_empty() {
        reachable = reachable.difference(&start);
    }
    let terminal = solver.lost_terminal(Side::First).union(&game.won_terminal(Side::First));
    let checkmate_states = states_of_boards(game, &checkmate);
    let nontrivial = reachable.difference(&terminal).difference(&checkmate_states);
    let nontrivial_states = count(&v, "non-trivial states", &nontrivial)?;
    // Breadth-first levels from the orbit of the start, forbidden moves not excluded; the
    // levels are closed under symmetry, so their orbits are the published levels.
    let mut levels = Vec::new();
    let mut seen = orbit_set(&v, game, &game.initial().board);
    let mut frontier = seen.clone();
    let mut k = 0;
    while !frontier.is_empty() {
        levels.push(count(&v, format!("level {k}"), &frontier)?);
        let expand = boards_of(game, &frontier.difference(&terminal)).intersection(&ongoing);
        // Moves that end the game are not expanded: their results are not levels.
        let next = solver.forward(Side::First, &expand).difference(&terminal).difference(&seen);
        seen = seen.union(&next);
        frontier = next;
        k += 1;
    }
    // The published histogram: non-trivial states by d = plies - 1 (d even: the mover wins).
    let mut nontrivial_values = Vec::new();
    for c in &classes {
        let set = c.set.intersection(&nontrivial);
        if set.is_empty() {
            continue;
        }
        let what = match c.outcome {
            Outcome::Win { plies: Some(p) } | Outcome::Loss { plies: Some(p) } => format!("d = {}", p - 1),
            o => o.to_string(),
        };
        nontrivial_values.push(count(&v, what, &set)?);
    }
    nontrivial_values.sort_by_key(|c| c.what.trim_start_matches("d = ").parse::<u32>().unwrap_or(u32::MAX));
    Ok(Census {
        values,
        nontrivial_values,
        positions_by_hole_and_pieces: by_hole,
        checkmate_positions,
        nontrivial_states,
        distances_from_start: levels,
    })
}

fn refs(rows: &[Count]) -> Vec<&Count> {
    rows.iter().collect()
}

/// `dfasolve ostle`.
pub fn run_ostle(args: &OstleArgs, run: &RunOptions) -> Result<()> {
    let v = args.variant()?;
    let game = symbolic_game(&v)?;
    let started = Instant::now();
    let mut solver = Solver::new(&game);
    let report: SolveReport = solve_with(&mut solver, &game, Mode::Strong, run, started)?;
    let t = Instant::now();
    let census = census(&game, &report.solution, &solver)?;
    let census_s = t.elapsed().as_secs_f64();
    let value = report.solution.initial_value;
    let extra = [("census", serde_json::to_value(&census)?), ("census_s", serde_json::json!(census_s))];
    finish(&report, run, &extra, |out| {
        out.push_str(&format!("{}: the player to move first (Black) has a {value}\n", game.name()));
        let table = |out: &mut String, title: &str, rows: &[&Count]| {
            out.push_str(&format!("{title}\n{:>28} {:>22} {:>22}\n", "", "raw", "up to symmetry"));
            for r in rows {
                out.push_str(&format!(
                    "{:>28} {:>22} {:>22}\n",
                    r.what,
                    human(Some(r.raw)),
                    human(Some(r.up_to_symmetry))
                ));
            }
        };
        table(out, "values of all states (plies to the end; published d = plies - 1):", &refs(&census.values));
        table(
            out,
            "values of non-trivial states, published convention (d even: the mover wins):",
            &refs(&census.nontrivial_values),
        );
        table(
            out,
            "positions by hole class and pieces (mover v opponent):",
            &refs(&census.positions_by_hole_and_pieces),
        );
        table(out, "states:", &[&census.checkmate_positions, &census.nontrivial_states]);
        table(out, "distances from the start (breadth-first levels):", &refs(&census.distances_from_start));
        out.push_str(&format!("census computed in {census_s:.2} s\n"));
    })
}

/// Arguments of `dfasolve verify ostle`.
#[derive(Args, Debug, Clone)]
pub struct VerifyOstleArgs {
    /// The variant.
    #[command(flatten)]
    pub variant: OstleArgs,
    /// Also write the explicit tables to this file (format: games/ostle/README.md).
    #[arg(long)]
    pub tables: Option<PathBuf>,
}

/// `dfasolve verify ostle`.
pub fn run_verify_ostle(args: &VerifyOstleArgs, run: &RunOptions) -> Result<()> {
    let v = args.variant.variant()?;
    let t = Instant::now();
    let tables = explicit::solve(&v);
    let explicit_s = t.elapsed().as_secs_f64();
    println!(
        "explicit tables: {} states of ostle {}x{} k{} t{} ({} rule) in {explicit_s:.2} s",
        tables.states.len(),
        v.width,
        v.height,
        v.pieces,
        v.lose_at,
        v.rule.name()
    );
    if let Some(path) = &args.tables {
        write_atomically(path, explicit::write_tables(&tables).as_bytes())?;
        println!("wrote {}", path.display());
    }
    let game = symbolic_game(&v)?;
    let report = solve(&game, Mode::Strong, &RunOptions { no_save: true, ..run.clone() })?;
    let solution = &report.solution;
    println!("DFA solution: {} in {:.2} s", solution.initial_value, report.wall_s);
    let checked = crate::games::ostle::verify::check_tables(&tables, solution)?;
    let mut hist: std::collections::BTreeMap<String, u64> = Default::default();
    for val in &tables.values {
        let key = match val {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        };
        *hist.entry(key.into()).or_default() += 1;
    }
    println!(
        "verified: all {checked} table entries are in the DFA value class of their exact value \
         (distance included), and the DFA solution has exactly {checked} states; {hist:?}"
    );
    Ok(())
}
