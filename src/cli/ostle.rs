//! `dfasolve ostle` (strong solve and the published counts) and `dfasolve verify ostle`
//! (every entry of the explicit tables checked by membership in the DFA solution).

use super::RunOptions;
use super::output::{AboutFile, say, say_raw};
use super::report::{SolveReport, finish, human};
use super::solve::{solve, solve_with};
use crate::atomic::write_atomically;
use crate::games::ostle::census::{Count, SolvedSets, census};
use crate::games::ostle::explicit::{self, Value};
use crate::games::ostle::structure::{Counter, LevelsLimit, Structure};
use crate::games::ostle::subgame::class_from_subgame;
use crate::games::ostle::{Ostle, Rule, Variant};
use crate::games::solution::ClassValues;
use crate::games::{Game, GameParams, Mode, Solution};
use crate::solver::Solver;
use crate::vocabulary::Side;
use anyhow::Result;
use clap::Args;
use std::path::{Path, PathBuf};
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
    /// explicit solutions' symmetry-class reading, for variants with up to 2 million boards
    /// where the readings differ; 5x5 has 365,784).
    #[arg(long, value_enum, default_value_t = Rule::Exact)]
    pub rule: Rule,
}

impl OstleArgs {
    fn variant(&self) -> Result<Variant> {
        Ok(Variant {
            width: self.width,
            height: self.height,
            pieces: self.pieces,
            lose_at: self.lose_at,
            rule: self.rule,
        }
        .checked()?)
    }
}

impl OstleArgs {
    /// The game these arguments describe.
    pub(super) fn game(&self) -> Result<Ostle> {
        symbolic_game(&self.variant()?)
    }
}

fn symbolic_game(v: &Variant) -> Result<Ostle> {
    Ok(Ostle::new(v.clone())?)
}

fn refs(rows: &[Count]) -> Vec<&Count> {
    rows.iter().collect()
}

/// The bound of the breadth-first levels from `--levels-minutes`.
pub(super) fn levels_limit(minutes: f64) -> Result<LevelsLimit> {
    if !(minutes.is_finite() && minutes > 0.0) {
        anyhow::bail!("--levels-minutes must be a positive number of minutes, not {minutes}");
    }
    Ok(LevelsLimit { time: Some(std::time::Duration::from_secs_f64((minutes * 60.0).min(1e9))) })
}

/// `dfasolve ostle`.
pub fn run_ostle(args: &OstleArgs, limit: LevelsLimit, run: &RunOptions) -> Result<()> {
    let v = args.variant()?;
    let game = symbolic_game(&v)?;
    let started = Instant::now();
    let mut solver = Solver::new(&game);
    let report: SolveReport = solve_with(&mut solver, &game, Mode::Strong, run, started)?;
    let t = Instant::now();
    let sets = SolvedSets {
        universe: solver.universe(Side::First),
        lost_terminal: solver.lost_terminal(Side::First),
        moves: solver.moves(Side::First),
    };
    let census = census(&game, &report.solution, &sets, limit)?;
    let census_s = t.elapsed().as_secs_f64();
    let value = report.solution.initial_value;
    let extra = [("census", serde_json::to_value(&census)?), ("census_s", serde_json::json!(census_s))];
    finish(&report, run, &extra, |out| {
        out.push_str(&format!("{}: the player to move first (Black) has a {value}\n", game.name()));
        table(out, "values of all states (plies to the end; published d = plies - 1):", &refs(&census.values));
        table(
            out,
            "values of non-trivial states, published convention (d even: the mover wins):",
            &refs(&census.nontrivial_values),
        );
        structure_tables(out, &census.structure);
        out.push_str(&format!("census computed in {census_s:.2} s\n"));
    })
}

/// One table of counts, raw and up to symmetry.
fn table(out: &mut String, title: &str, rows: &[&Count]) {
    out.push_str(&format!("{title}\n{:>44} {:>22} {:>22}\n", "", "raw", "up to symmetry"));
    for r in rows {
        out.push_str(&format!("{:>44} {:>22} {:>22}\n", r.what, human(Some(r.raw)), human(Some(r.up_to_symmetry))));
    }
}

/// The tables of the value-free counts.
fn structure_tables(out: &mut String, s: &Structure) {
    count_tables(out, s);
    level_table(out, s);
}

/// The tables of the value-free counts but the levels.
fn count_tables(out: &mut String, s: &Structure) {
    table(out, "positions by hole class and pieces (mover v opponent):", &refs(&s.positions_by_hole_and_pieces));
    table(out, "states:", &[&s.checkmate_positions, &s.nontrivial_states, &s.nontrivial_with_forbidden_move]);
    table(
        out,
        "boards where the readings of the no-undo rule differ (mover v opponent):",
        &refs(&s.boards_where_readings_differ),
    );
}

/// The table of the breadth-first levels, and why they stopped if they did.
fn level_table(out: &mut String, s: &Structure) {
    table(out, "distances from the start (breadth-first levels):", &refs(&s.distances_from_start));
    if let Some(why) = &s.distances_stopped {
        out.push_str(&format!("breadth-first levels: {why}\n"));
    }
}

/// `dfasolve ostle --census`: the counts that do not depend on values, without solving. The
/// text report shows the counts as soon as they are known, before the levels.
pub fn run_census(args: &OstleArgs, limit: LevelsLimit, run: &RunOptions) -> Result<()> {
    let v = args.variant()?;
    let game = symbolic_game(&v)?;
    super::solve::watch_memory(run);
    let started = Instant::now();
    let solver = Solver::new(&game);
    let sets = SolvedSets {
        universe: solver.universe(Side::First),
        lost_terminal: solver.lost_terminal(Side::First),
        moves: solver.moves(Side::First),
    };
    let counter = Counter::new(&game, &sets);
    let mut s = counter.counts(|_| Ok(()))?;
    let counts_s = started.elapsed().as_secs_f64();
    if !run.json {
        let mut out = format!("{}: census without solving\n", game.name());
        count_tables(&mut out, &s);
        out.push_str(&format!("counted in {counts_s:.2} s; now the breadth-first levels\n"));
        say_raw!("{out}");
    }
    (s.distances_from_start, s.distances_stopped) = counter.levels(limit)?;
    let wall_s = started.elapsed().as_secs_f64();
    let peak = crate::record::peak_rss_bytes();
    if run.json {
        say!(
            "{}",
            serde_json::json!({ "game": game.name(), "params": game.params(), "census": s,
                "counts_s": counts_s, "wall_s": wall_s, "peak_rss_bytes": peak })
        );
        return Ok(());
    }
    let mut out = String::new();
    level_table(&mut out, &s);
    out.push_str(&format!("computed in {wall_s:.2} s, peak memory {} MiB\n", peak.unwrap_or(0) >> 20));
    say!("{}", out.trim_end());
    Ok(())
}

/// `dfasolve ostle --by-classes DIR --class-from-subgame FILE`: the K v K class file of the
/// variant from a strong solution of its K-piece subgame.
pub fn run_class_from_subgame(args: &OstleArgs, file: &Path, run: &RunOptions) -> Result<()> {
    let big = symbolic_game(&args.variant()?)?;
    let dir = run.by_classes.as_deref().expect("clap requires --by-classes");
    let started = Instant::now();
    let (_, solution) = Solution::load(file).about_file("loading", file)?;
    let GameParams::Ostle(small) = solution.params.clone() else {
        anyhow::bail!("{} is not a solution of an Ostle variant", file.display());
    };
    let small = symbolic_game(&small)?;
    let loaded_s = started.elapsed().as_secs_f64();
    let made = class_from_subgame(&small, &big, solution)?;
    let path = ClassValues::path(dir, &made.class.class);
    made.class.save(&path)?;
    let states: u128 = made.class.values.iter().map(|v| v.set.count()).sum();
    let wall_s = started.elapsed().as_secs_f64();
    if run.json {
        say!(
            "{}",
            serde_json::json!({ "class_file": path, "class": made.class.class, "from": small.name(),
                "states": states, "gap_states": made.gap_states, "loaded_s": loaded_s, "wall_s": wall_s,
                "peak_rss_bytes": crate::record::peak_rss_bytes() })
        );
    } else {
        say!(
            "wrote {}: class {} of {}, {} states ({} of them only a removal reaches, valued by one step), in {wall_s:.1} s",
            path.display(),
            made.class.class,
            big.name(),
            human(Some(states)),
            human(Some(made.gap_states))
        );
    }
    Ok(())
}

/// Arguments of `dfasolve verify ostle`.
#[derive(Args, Debug, Clone)]
pub struct VerifyOstleArgs {
    /// The variant.
    #[command(flatten)]
    pub variant: OstleArgs,
    /// Also write the explicit tables to this file (format: games/ostle/README.md).
    #[arg(long, value_name = "FILE")]
    pub tables: Option<PathBuf>,
    /// Build the explicit tables even when their estimated memory is more than is available.
    #[arg(long)]
    pub force: bool,
}

/// Resident bytes per state of the explicit solver (its hash map, state list, predecessor
/// lists and values), measured: 2.06 GB for the 6.86 M states of Ostle(4x4, 3, 2).
const EXPLICIT_BYTES_PER_STATE: u128 = 320;

/// `dfasolve verify ostle`.
pub fn run_verify_ostle(args: &VerifyOstleArgs, run: &RunOptions) -> Result<()> {
    let v = args.variant.variant()?;
    super::solve::check_outputs(args.tables.as_deref(), None, [])?;
    // The explicit tables hold every state at once: refuse, with the estimate, what cannot fit.
    let game = symbolic_game(&v)?;
    let states = game.universe(Side::First).checked_count().unwrap_or(u128::MAX);
    let need = states.saturating_mul(EXPLICIT_BYTES_PER_STATE);
    if let Some(available) = crate::dfa::limits::available_memory()
        && need > u128::from(available)
        && !args.force
    {
        anyhow::bail!(
            "the explicit tables of this variant hold {} states, about {} MiB at {EXPLICIT_BYTES_PER_STATE} bytes each, \
             and {} MiB is available: refused (--force tries anyway)",
            human(Some(states)),
            human(Some(need >> 20)),
            available >> 20
        );
    }
    let t = Instant::now();
    let tables = explicit::solve(&v);
    let explicit_s = t.elapsed().as_secs_f64();
    let variant = format!("ostle {}x{} k{} t{} ({} rule)", v.width, v.height, v.pieces, v.lose_at, v.rule.name());
    if !run.json {
        say!("explicit tables: {} states of {variant} in {explicit_s:.2} s", tables.states.len());
    }
    if let Some(path) = &args.tables {
        write_atomically(path, explicit::write_tables(&tables).as_bytes())?;
        if !run.json {
            say!("wrote {}", path.display());
        }
    }
    let report = solve(&game, Mode::Strong, &RunOptions { no_save: true, json: true, ..run.clone() })?;
    let solution = &report.solution;
    if !run.json {
        say!("DFA solution: {} in {:.2} s", solution.initial_value, report.wall_s);
    }
    let checked = crate::games::ostle::verify::check_tables(&tables, solution)?;
    let mut hist: std::collections::BTreeMap<&str, u64> = Default::default();
    for val in &tables.values {
        let key = match val {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        };
        *hist.entry(key).or_default() += 1;
    }
    if run.json {
        say!(
            "{}",
            serde_json::json!({ "variant": variant, "params": solution.params, "passed": true,
                "explicit_states": tables.states.len(), "explicit_s": explicit_s,
                "dfa_initial_value": solution.initial_value.to_string(), "dfa_s": report.wall_s,
                "entries_checked": checked, "explicit_values": hist, "tables_file": args.tables })
        );
        return Ok(());
    }
    say!(
        "verified: all {checked} table entries are in the DFA value class of their exact value \
         (distance included), and the DFA solution has exactly {checked} states; {hist:?}"
    );
    Ok(())
}

/// Arguments of `dfasolve explicit ostle`.
#[derive(Args, Debug, Clone)]
pub struct ExplicitOstleArgs {
    /// The variant.
    #[command(flatten)]
    pub variant: OstleArgs,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Memory budget in GiB for the tables (default: what the system has available).
    #[arg(long, value_name = "GIB")]
    pub max_memory: Option<f64>,
    /// After the solve, check this many states drawn at random by the plain rules: each
    /// value must follow from its moves' values (0: none).
    #[arg(long, value_name = "STATES", default_value_t = 1_000_000)]
    pub check_sample: u64,
    /// Seed of the states checked.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `dfasolve explicit ostle`.
pub fn run_explicit_ostle(args: &ExplicitOstleArgs) -> Result<()> {
    use crate::games::ostle::indexed;
    let v = args.variant.variant()?;
    indexed::check_variant(&v)?;
    let budget = match args.max_memory {
        Some(g) if g.is_finite() && g > 0.0 => Some((g * f64::from(1u32 << 30)) as u64),
        Some(g) => anyhow::bail!("--max-memory must be a positive number of GiB, got {g}"),
        None => crate::dfa::limits::available_memory(),
    };
    let started = Instant::now();
    let quiet = args.quiet;
    let progress = move |line: String| {
        if !quiet {
            eprintln!("[{:>7.1} s] {line}", started.elapsed().as_secs_f64());
        }
    };
    let (tables, levels) = indexed::solve(&v, budget, &progress)?;
    let solve_s = started.elapsed().as_secs_f64();
    let checked = tables.check_sample(args.check_sample, args.seed)?;
    let check_s = started.elapsed().as_secs_f64() - solve_s;
    progress(format!("{checked} states drawn at random follow from their moves ({check_s:.1} s)"));
    let initial = v.initial_state();
    let initial_value = tables.value(&initial).map(explicit::value_text);
    let census = tables.census();
    let wall_s = started.elapsed().as_secs_f64();
    let variant = format!("ostle {}x{} k{} t{} (exact rule)", v.width, v.height, v.pieces, v.lose_at);
    let longest_win = levels.iter().rev().find(|l| l.wins > 0).map(|l| l.plies);
    if args.json {
        say!(
            "{}",
            serde_json::json!({ "variant": variant, "boards": tables.boards(), "states": tables.states(),
                "initial_value": initial_value, "longest_win": longest_win, "solve_s": solve_s, "wall_s": wall_s,
                "checked_states": checked, "check_seed": args.seed, "check_s": check_s,
                "levels": levels, "census": census })
        );
        return Ok(());
    }
    say!("{variant}: {} boards, {} states (a byte each)", tables.boards(), tables.states());
    say!("start: {}", initial_value.as_deref().unwrap_or("not a state of this class"));
    say!("longest forced win: {} plies", longest_win.map_or("none".into(), |p| p.to_string()));
    say!(
        "solved in {solve_s:.1} s; {checked} states drawn at random follow from their moves by the plain rules \
         ({check_s:.1} s); census in {:.1} s",
        wall_s - solve_s - check_s
    );
    say!("positions {}, checkmate positions {}", census.positions, census.checkmate_positions);
    say!(
        "non-trivial states {} (published convention d = plies - 1; d even: the mover wins)",
        census.nontrivial_states
    );
    say!("{:>5} {:>15}", "d", "states");
    for (d, n) in census.by_d.iter().enumerate() {
        if *n > 0 {
            say!("{d:>5} {n:>15}");
        }
    }
    say!("{:>5} {:>15}", "draw", census.draws);
    Ok(())
}
