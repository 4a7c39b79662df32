//! `dfasolve ostle` (strong solve and the published counts) and `dfasolve verify ostle`
//! (every entry of the explicit tables checked by membership in the DFA solution).

use super::RunOptions;
use super::output::{AboutFile, say, say_raw};
use super::report::{SolveReport, finish};
use super::solve::{solve, solve_with};
use crate::atomic::write_atomically;
use crate::counts::human;
use crate::game::Rules;
use crate::games::ostle::census::structure::{Counter, LevelsLimit, Structure};
use crate::games::ostle::census::{Count, SolvedSets, census};
use crate::games::ostle::explicit;
use crate::games::ostle::subgame::class_from_subgame;
use crate::games::ostle::{Ostle, Variant};
use crate::solved::solution::ClassValues;
use crate::solved::{Mode, Solution};
use crate::solver::Solver;
use crate::vocabulary::Outcome;
use crate::vocabulary::Side;
use anyhow::Result;
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which Ostle variant.
#[derive(Args, Debug, Clone)]
pub struct OstleArgs {
    /// Which Ostle.
    #[command(flatten)]
    pub game: Variant,
    /// Start a solve estimated to take more than half an hour (the standard 5x5 game takes
    /// hours); without it such a solve is refused with its estimate.
    #[arg(long)]
    pub long: bool,
}

/// The arguments of `dfasolve ostle`: the variant, what to do with it, and the run's options.
#[derive(Args, Debug)]
pub struct OstleSolveArgs {
    /// The variant.
    #[command(flatten)]
    pub variant: OstleArgs,
    /// Count without solving: positions by hole class and pieces, checkmate positions,
    /// non-trivial states, breadth-first levels from the start (part by part, so 5x5 fits).
    #[arg(long)]
    pub census: bool,
    /// Solve and save without the census of the solved values (raw and up to symmetry,
    /// with the breadth-first levels), which on the largest classes needs more memory and
    /// time than the solve.
    #[arg(long, conflicts_with = "census")]
    pub no_census: bool,
    /// Stop the breadth-first levels from the start after this many minutes; the report
    /// gives the levels finished by then and says where they stopped.
    #[arg(long, value_name = "MIN", default_value_t = 60.0)]
    pub levels_minutes: f64,
    /// Instead of solving: write the K v K class file of this variant into the
    /// `--by-classes` directory from FILE, a strong solution of the same board and limit
    /// with K pieces a side (5x5's 4 v 4 class from `dfasolve ostle --pieces 4 --lose-at 3`).
    #[arg(long, value_name = "FILE", requires = "by_classes", conflicts_with_all = ["census", "class"])]
    pub class_from_subgame: Option<PathBuf>,
    /// Output, progress and checkpoint options.
    #[command(flatten)]
    pub run: RunOptions,
}

impl super::SolveCommand for OstleSolveArgs {
    fn build(&self) -> Result<Box<dyn crate::game::Game>> {
        Ok(Box::new(self.variant.game()?))
    }

    fn run_options(&self) -> &RunOptions {
        &self.run
    }

    fn run(&self) -> Result<()> {
        if let Some(file) = &self.class_from_subgame {
            return run_class_from_subgame(&self.variant, file, &self.run);
        }
        let limit = levels_limit(self.levels_minutes)?;
        if self.census {
            return run_census(&self.variant, limit, &self.run);
        }
        let after = if self.no_census { AfterSolve::Nothing } else { AfterSolve::Census(limit) };
        run_ostle(&self.variant, after, &self.run)
    }
}

impl OstleArgs {
    pub(super) fn variant(&self) -> Result<Variant> {
        Ok(self.game.clone().checked()?)
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

/// What `dfasolve ostle` does once the solution is solved (and saved).
pub enum AfterSolve {
    /// Report the census of the solved values, with breadth-first levels within the limit.
    Census(LevelsLimit),
    /// Nothing more: the report of the solve.
    Nothing,
}

/// `dfasolve ostle`.
pub fn run_ostle(args: &OstleArgs, after: AfterSolve, run: &RunOptions) -> Result<()> {
    let v = args.variant()?;
    let game = symbolic_game(&v)?;
    let states = game.universe(Side::First)?.checked_count().unwrap_or(u128::MAX);
    let explicit = {
        let classes = crate::games::ostle::ranked::classes(&v);
        super::ostle_cost::ExplicitCost::of(&v, &classes.iter().collect::<Vec<_>>(), Path::new(""))
    };
    super::ostle_cost::refuse_long_dfa_solve(states, args.long, &game.name(), Some(&explicit))?;
    let started = Instant::now();
    let prepared = super::solve::before_solving(&game, Mode::Strong, run)?;
    let mut solver = Solver::with_options(&game, prepared.options())?;
    let report: SolveReport = solve_with(&mut solver, &game, prepared, run, started)?;
    let AfterSolve::Census(limit) = after else {
        return finish(&report, run, &super::report::NoExtra {}, |_| {});
    };
    let t = Instant::now();
    let sets = SolvedSets {
        universe: solver.universe(Side::First),
        lost_terminal: solver.lost_terminal(Side::First),
        moves: solver.moves(Side::First),
    };
    let census = census(&game, &report.solution, &sets, limit)?;
    let census_s = t.elapsed().as_secs_f64();
    let extra = CensusJson { census: &census, census_s };
    finish(&report, run, &extra, |out| {
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

/// One table of counts, up to symmetry and raw (the order of every Ostle report).
fn table(out: &mut String, title: &str, rows: &[&Count]) {
    out.push_str(&format!("{title}\n{:>44} {:>22} {:>22}\n", "", "up to symmetry", "raw"));
    for r in rows {
        out.push_str(&format!("{:>44} {:>22} {:>22}\n", r.what, human(Some(r.up_to_symmetry)), human(Some(r.raw))));
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
    let showing = super::progress::show(run);
    super::ostle_cost::refuse_long_census(&v, limit.time, args.long, &format!("ostle {}x{}", v.width, v.height))?;
    let game = symbolic_game(&v)?;
    super::solve::watch_memory(run);
    let started = Instant::now();
    let solver = Solver::new(&game)?;
    let sets = SolvedSets {
        universe: solver.universe(Side::First),
        lost_terminal: solver.lost_terminal(Side::First),
        moves: solver.moves(Side::First),
    };
    let counter = Counter::new(&game, &sets)?;
    crate::progress!("{}: counting positions, checkmates and states", game.name());
    let mut s = counter.counts(|_| Ok(()))?;
    let counts_s = started.elapsed().as_secs_f64();
    if !run.json {
        let mut out = format!("{}: census without solving\n", game.name());
        count_tables(&mut out, &s);
        out.push_str(&format!("counted in {counts_s:.2} s; now the breadth-first levels\n"));
        say_raw!("{out}");
    }
    crate::progress!("{}: breadth-first levels from the start", game.name());
    (s.distances_from_start, s.distances_stopped) = counter.levels(limit)?;
    drop(showing);
    let wall_s = started.elapsed().as_secs_f64();
    let peak = crate::record::peak_rss_bytes();
    if run.json {
        say!(
            "{}",
            serde_json::to_string(&CensusReport {
                program: crate::PROGRAM_VERSION,
                game: game.name(),
                params: game.params(),
                census: &s,
                counts_s,
                wall_s,
                peak_rss_bytes: peak
            })?
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
    super::solve::check_outputs(None, None, [Some(dir)], run.force)?;
    let started = Instant::now();
    let (_, solution) = Solution::load(file, &crate::games::GAMES).about_file("loading", file)?;
    let Some(small) = solution.params.fields::<crate::games::ostle::Variant>("ostle")? else {
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
            serde_json::to_string(&SubgameClassReport {
                program: crate::PROGRAM_VERSION,
                class_file: &path,
                class: &made.class.class,
                from: small.name(),
                states,
                gap_states: made.gap_states,
                loaded_s,
                wall_s,
                peak_rss_bytes: crate::record::peak_rss_bytes()
            })?
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
pub fn run_verify_ostle(args: &VerifyOstleArgs, json: bool, run: &RunOptions) -> Result<()> {
    let v = args.variant.variant()?;
    use super::outputs::{Files, Writing};
    Files::new(args.force).writes(args.tables.as_deref(), Writing::Stream, "the tables").check()?;
    super::solve::check_outputs(None, None, [], args.force)?;
    if let Some(tables) = &args.tables {
        crate::atomic::check_writable(tables).about_file("cannot write", tables)?;
    }
    // The explicit tables hold every state at once: refuse, with the estimate, what cannot fit.
    let game = symbolic_game(&v)?;
    let states = game.universe(Side::First)?.checked_count().unwrap_or(u128::MAX);
    let need = states.saturating_mul(EXPLICIT_BYTES_PER_STATE);
    if let Some(budget) = super::solve::budget_bytes(run.max_memory)
        && need > u128::from(budget)
        && !args.force
    {
        anyhow::bail!(
            "the explicit tables of this variant hold {} states, about {} MiB at {EXPLICIT_BYTES_PER_STATE} bytes each, \
             over the {} MiB {}: refused (--force tries anyway)",
            human(Some(states)),
            human(Some(need >> 20)),
            budget >> 20,
            if run.max_memory.is_some() { "of --max-memory" } else { "available" }
        );
    }
    let t = Instant::now();
    let tables = explicit::solve(&v);
    let explicit_s = t.elapsed().as_secs_f64();
    let variant = format!("ostle {}x{} k{} t{} ({} rule)", v.width, v.height, v.pieces, v.lose_at, v.rule.name());
    if !json {
        say!("explicit tables: {} states of {variant} in {explicit_s:.2} s", tables.states.len());
    }
    if let Some(path) = &args.tables {
        write_atomically(path, explicit::write_tables(&tables).as_bytes())?;
        if !json {
            say!("wrote {}", path.display());
        }
    }
    let report = solve(&game, Mode::Strong, run)?;
    let solution = &report.solution;
    if !json {
        say!("DFA solution: {} in {:.2} s", solution.initial_value, report.wall_s);
    }
    let checked = crate::games::ostle::explicit::verify::check_tables(&tables, solution)?;
    let mut hist: std::collections::BTreeMap<&str, u64> = Default::default();
    for val in &tables.values {
        let key = match val {
            Outcome::Win { .. } => "win",
            Outcome::Loss { .. } => "loss",
            Outcome::Draw => "draw",
        };
        *hist.entry(key).or_default() += 1;
    }
    if json {
        say!(
            "{}",
            serde_json::to_string(&VerifyReport {
                program: crate::PROGRAM_VERSION,
                variant: &variant,
                params: &solution.params,
                passed: true,
                explicit_states: tables.states.len(),
                explicit_s,
                dfa_initial_value: solution.initial_value.to_string(),
                dfa_s: report.wall_s,
                entries_checked: checked,
                explicit_values: &hist,
                tables_file: args.tables.as_deref()
            })?
        );
        return Ok(());
    }
    say!(
        "verified: all {checked} table entries are in the DFA value class of their exact value \
         (distance included), and the DFA solution has exactly {checked} states; {hist:?}"
    );
    Ok(())
}

/// `ostle --census --json`.
#[derive(serde::Serialize)]
struct CensusReport<'a> {
    program: &'static str,
    game: String,
    params: crate::game::GameParams,
    census: &'a crate::games::ostle::census::structure::Structure,
    counts_s: f64,
    wall_s: f64,
    peak_rss_bytes: Option<u64>,
}

/// `ostle --class-from-subgame FILE --json`.
#[derive(serde::Serialize)]
struct SubgameClassReport<'a> {
    program: &'static str,
    class_file: &'a Path,
    class: &'a str,
    from: String,
    #[serde(serialize_with = "crate::counts::serialize")]
    states: u128,
    #[serde(serialize_with = "crate::counts::serialize")]
    gap_states: u128,
    loaded_s: f64,
    wall_s: f64,
    peak_rss_bytes: Option<u64>,
}

/// `ostle --verify --json`.
#[derive(serde::Serialize)]
struct VerifyReport<'a> {
    program: &'static str,
    variant: &'a str,
    params: &'a crate::game::GameParams,
    passed: bool,
    explicit_states: usize,
    explicit_s: f64,
    dfa_initial_value: String,
    dfa_s: f64,
    entries_checked: u64,
    explicit_values: &'a std::collections::BTreeMap<&'static str, u64>,
    tables_file: Option<&'a Path>,
}

/// The census in `ostle --census --json`, beside the solve's figures.
#[derive(serde::Serialize)]
struct CensusJson<'a, C: serde::Serialize> {
    census: &'a C,
    census_s: f64,
}
