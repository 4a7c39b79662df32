//! The `dfasolve` command line: clap definitions (their doc comments are the `--help` text)
//! and the code behind each subcommand.

use crate::dfa::file::{Bundle, write_atomically};
use crate::dfa::{Dfa, SplitMix64};
use crate::games::breakthrough::{Breakthrough, SquareOrder};
use crate::games::nim::Nim;
use crate::games::{Game, Outcome, Position, Side, Status, from_params, move_rank};
use crate::solver::{MirrorPolicy, Mode, Phase, Solution, Solver, StepRecord, peak_rss_bytes};
use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

mod ostle;
pub use ostle::{OstleArgs, VerifyOstleArgs};

/// Strongly solve board games with sets of positions stored as minimal layered DFAs.
#[derive(Parser, Debug)]
#[command(name = "dfasolve", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve Breakthrough of one board size: winner, per-ply table, compression.
    Breakthrough {
        /// Board width (columns), 1..=16.
        #[arg(long, default_value_t = 4)]
        width: usize,
        /// Board height (rows), 4..=16.
        #[arg(long, default_value_t = 4)]
        height: usize,
        /// Solve every position by retrograde analysis to the fixpoint (exact distances),
        /// instead of meet in the middle over the positions reachable from the start.
        #[arg(long)]
        strong: bool,
        /// Backward plies solved before going forward (meet in the middle).
        #[arg(long, default_value_t = 2)]
        depth: u32,
        /// When the retrograde pass takes the second player's sets from the first player's by
        /// rotating the board and swapping colours, instead of computing their images: never,
        /// in the large iterations (less memory), or always.
        #[arg(long, value_enum, default_value_t = MirrorPolicy::Large)]
        side_mirror: MirrorPolicy,
        /// The order squares are read into the DFA strings: row by row (the published
        /// encoding) or column by column.
        #[arg(long, value_enum, default_value_t = SquareOrder::Rows)]
        order: SquareOrder,
        /// Output, progress and checkpoint options.
        #[command(flatten)]
        run: RunOptions,
    },
    /// Solve Nim and check every position against Bouton's XOR rule.
    Nim {
        /// Number of heaps, 1..=64.
        #[arg(long, default_value_t = 4)]
        heaps: usize,
        /// Tokens each heap starts with, 1..=255.
        #[arg(long, default_value_t = 7)]
        tokens: usize,
        /// Retrograde over every position to the fixpoint, with exact distances (slow for big
        /// heaps: the sets of "wins in exactly d plies" are far larger than the XOR set).
        /// Default: forward ply sets from the start, then values backed up through them;
        /// every position is reachable in Nim, so this still decides every position.
        #[arg(long)]
        strong: bool,
        /// Output, progress and checkpoint options.
        #[command(flatten)]
        run: RunOptions,
    },
    /// Strongly solve Ostle(WxH, K, T) (default: the standard 5x5 game) and report the
    /// published counts: values, positions by hole class and pieces, checkmates, non-trivial
    /// states, distances from the start, raw and up to the board's symmetries.
    Ostle {
        /// The variant.
        #[command(flatten)]
        variant: OstleArgs,
        /// Output, progress and checkpoint options.
        #[command(flatten)]
        run: RunOptions,
    },
    /// Check a DFA solution against an independent explicit solver, entry by entry.
    Verify {
        /// Which game.
        #[command(subcommand)]
        game: VerifyCommand,
    },
    /// Value and best moves of one position in a saved solution.
    Query {
        /// A solution file written by a solve command.
        solution: PathBuf,
        /// The position in the game's text form (e.g. breakthrough: "xxxx/xxxx/..../..../oooo/oooo first").
        #[arg(num_args = 1.., required = true)]
        position: Vec<String>,
    },
    /// Play against the perfect player at the terminal: you move, it answers with a best move.
    Play {
        /// A solution file.
        solution: PathBuf,
        /// Which side you play.
        #[arg(long, default_value = "first")]
        side: String,
        /// Start from this position instead of the game's start (text form, as for query).
        #[arg(long)]
        from: Option<String>,
    },
    /// Sizes and compression of every set in a saved file.
    Stats {
        /// A file written by dfasolve (solution or checkpoint).
        file: PathBuf,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Draw SVG charts (positions, DFA states, positions per byte per step) from a run record
    /// written with `--csv`.
    Plot {
        /// The CSV run record.
        csv: PathBuf,
        /// The SVG file to write (default: the CSV's name with .svg).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Write one set of a dfasolve file as a DFA1 exchange file (canonical numbering, SHA-256).
    Export(ExportArgs),
    /// Read a DFA1 exchange file (any valid one) into a one-set dfasolve file named "imported".
    Import {
        /// The DFA1 file.
        dfa1: PathBuf,
        /// The dfasolve file to write.
        out: PathBuf,
    },
    /// Re-check a saved solution against the explicit rules only (no DFA moves): a won position
    /// has a move into a lost one, a lost position only moves into won ones.
    Check {
        /// A solution file.
        solution: PathBuf,
        /// Positions checked per value class (sampled uniformly with a fixed seed); classes this
        /// small or smaller are checked member by member.
        #[arg(long, default_value_t = 2000)]
        sample: usize,
        /// Seed of the sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Games `verify` knows.
#[derive(Subcommand, Debug)]
pub enum VerifyCommand {
    /// Build the explicit tables of an Ostle variant (plain board code, retrograde) and check
    /// every entry by membership in the DFA solution's value class.
    Ostle {
        /// The variant and where to write the tables.
        #[command(flatten)]
        args: VerifyOstleArgs,
        /// Output, progress and checkpoint options of the DFA solve.
        #[command(flatten)]
        run: RunOptions,
    },
}

/// Export one set of a dfasolve file in the DFA1 exchange format of the C++ dfa-games solver.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// A file written by dfasolve (solution or checkpoint).
    pub file: PathBuf,
    /// The name of the set inside it (see `dfasolve stats FILE`).
    pub set: String,
    /// The DFA1 file to write.
    pub out: PathBuf,
}

/// Options shared by the solve commands.
#[derive(Args, Debug, Clone)]
pub struct RunOptions {
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No progress lines (also the default when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
    /// Where to save the solution (default: `solutions/GAME-MODE.dfas`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Do not save the solution.
    #[arg(long)]
    pub no_save: bool,
    /// Also write the per-step record as CSV to this file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Save every finished ply/iteration in this directory and reuse the ones already there,
    /// so an interrupted run continues where it stopped.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Continue an interrupted run from its default checkpoint directory
    /// (`checkpoints/GAME-MODE/`).
    #[arg(long)]
    pub resume: bool,
}

/// Run one parsed command line.
///
/// # Errors
/// Any failure, as a message for the user.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Breakthrough { width, height, strong, depth, side_mirror, order, run } => {
            let game = Breakthrough::with_order(width, height, order)?;
            let mode = if strong { Mode::Strong } else { Mode::MeetInTheMiddle { depth } };
            let started = Instant::now();
            let mut solver = Solver::new(&game);
            solver.set_mirror_policy(side_mirror);
            let report = solve_with(&mut solver, &game, mode, &run, started)?;
            let winner = match report.solution.initial_value {
                Outcome::Win { .. } => "first player (P1)",
                Outcome::Loss { .. } => "second player (P2)",
                Outcome::Draw => "nobody (draw)",
            };
            finish(&report, &run, &[("winner", serde_json::json!(winner))], |out| {
                out.push_str(&format!("{}: the {winner} wins ({})\n", game.name(), report.solution.initial_value));
            })
        }
        Command::Nim { heaps, tokens, strong, run } => {
            let game = Nim::new(heaps, tokens)?;
            let mode = if strong { Mode::Strong } else { Mode::MeetInTheMiddle { depth: 0 } };
            let report = solve(&game, mode, &run)?;
            let check = check_nim(&game, &report.solution)?;
            // Without backward plies nothing is decided before going forward (the lost
            // terminal position has no moves), so the solve's forward records are the
            // reachable sets; the strong mode has none and goes forward here.
            let recorded: Option<Vec<u128>> = report
                .solution
                .records
                .iter()
                .filter(|r| r.phase == Phase::Forward && r.set == "reachable")
                .map(|r| r.positions)
                .collect();
            let forward = match recorded {
                Some(counts) if !strong && !counts.is_empty() => counts,
                _ => {
                    let mut solver = Solver::new(&game);
                    let plies = solver.forward_plies(&game.initial(), None, None)?;
                    plies.iter().map(Dfa::count).collect::<Vec<u128>>()
                }
            };
            let extra = [
                ("xor_check", serde_json::json!(check.summary)),
                ("losing_positions", serde_json::json!(check.losing)),
                ("losing_dfa_states", serde_json::json!(check.losing_states)),
                ("positions", serde_json::json!(check.positions)),
                ("per_ply_reachable", serde_json::json!(forward)),
            ];
            finish(&report, &run, &extra, |out| {
                out.push_str(&format!("{}: first player {}\n", game.name(), report.solution.initial_value));
                out.push_str(&format!(
                    "XOR check: {} — losing set has {} positions of {} in {} DFA states\n",
                    check.summary, check.losing, check.positions, check.losing_states
                ));
                out.push_str(&format!("per-ply reachable: {forward:?}\n"));
            })
        }
        Command::Ostle { variant, run } => ostle::run_ostle(&variant, &run),
        Command::Verify { game: VerifyCommand::Ostle { args, run } } => ostle::run_verify_ostle(&args, &run),
        Command::Query { solution, position } => query(&solution, &position.join(" ")),
        Command::Stats { file, json } => stats(&file, json),
        Command::Play { solution, side, from } => play(&solution, &side, from.as_deref()),
        Command::Check { solution, sample, seed } => check(&solution, sample, seed),
        Command::Plot { csv, out } => {
            let out = out.unwrap_or_else(|| csv.with_extension("svg"));
            let title = csv.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let svg = crate::plot::plot_record(&csv, &title)?;
            write_atomically(&out, svg.as_bytes()).with_context(|| format!("writing {}", out.display()))?;
            println!("wrote {}", out.display());
            Ok(())
        }
        Command::Export(ExportArgs { file, set, out }) => {
            let bundle = Bundle::load(&file).with_context(|| format!("loading {}", file.display()))?;
            let Some(dfa) = bundle.get(&set) else {
                let names: Vec<&str> = bundle.entries.iter().map(|(n, _)| n.as_str()).collect();
                bail!("{} has no set named {set:?} (it has: {})", file.display(), names.join(", "));
            };
            dfa.save_dfa1(&out).with_context(|| format!("writing {}", out.display()))?;
            println!(
                "wrote {} ({} states, {} positions)",
                out.display(),
                dfa.nontrivial_state_count(),
                human(dfa.checked_count())
            );
            Ok(())
        }
        Command::Import { dfa1, out } => {
            let dfa = Dfa::load_dfa1(&dfa1).with_context(|| format!("loading {}", dfa1.display()))?;
            let meta = serde_json::json!({ "kind": "dfa1-import", "source": dfa1 }).to_string();
            println!(
                "read {} ({} states after minimisation, {} positions)",
                dfa1.display(),
                dfa.nontrivial_state_count(),
                human(dfa.checked_count())
            );
            Bundle { meta, entries: vec![("imported".into(), dfa)] }
                .save(&out)
                .with_context(|| format!("writing {}", out.display()))
        }
    }
}

/// A finished solve with its timing.
pub struct SolveReport {
    /// The game's name.
    pub name: String,
    /// The solution.
    pub solution: Solution,
    /// Wall time of the solve in seconds.
    pub wall_s: f64,
    /// Where it was saved.
    pub saved: Option<PathBuf>,
}

fn mode_tag(mode: Mode) -> String {
    match mode {
        Mode::Strong => "strong".into(),
        Mode::MeetInTheMiddle { depth } => format!("mitm{depth}"),
    }
}

fn file_stem(game: &dyn Game) -> String {
    game.name().replace(' ', "-")
}

/// Solve `game` by `mode` with the shared run options (progress, checkpoints, saving).
///
/// # Errors
/// Solver and file errors.
pub fn solve(game: &dyn Game, mode: Mode, run: &RunOptions) -> Result<SolveReport> {
    let started = Instant::now();
    solve_with(&mut Solver::new(game), game, mode, run, started)
}

/// [`solve`] with a solver the caller keeps (to compute more from its sets afterwards);
/// `started` is when the solver's construction began.
///
/// # Errors
/// Solver and file errors.
pub fn solve_with<'g>(
    solver: &mut Solver<'g>,
    game: &'g dyn Game,
    mode: Mode,
    run: &RunOptions,
    started: Instant,
) -> Result<SolveReport> {
    let show = !run.quiet && !run.json && std::io::stderr().is_terminal();
    // Long runs: progress lines on a terminal, and the CSV record grows step by step (a
    // `.partial` file next to the final one) so an interrupted run still shows how far it got.
    let partial = run.csv.as_ref().map(|p| p.with_extension("partial.csv"));
    if let Some(p) = &partial {
        let _ = std::fs::remove_file(p);
    }
    let name = game.name();
    solver.on_step(move |r: &StepRecord| {
        if show {
            eprintln!("{}", progress_line(r));
        }
        if let Some(p) = &partial {
            use std::io::Write;
            let new = !p.exists();
            if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(p) {
                let _ = write!(f, "{}{}", if new { CSV_HEADER } else { "" }, csv_line(&name, r));
            }
        }
    });
    let checkpoint = match (&run.checkpoint, run.resume) {
        (Some(d), _) => Some(d.clone()),
        (None, true) => Some(PathBuf::from("checkpoints").join(format!("{}-{}", file_stem(game), mode_tag(mode)))),
        (None, false) => None,
    };
    if let Some(dir) = checkpoint {
        solver.checkpoint_into(dir);
    }
    let solution = solver.solve(mode).with_context(|| format!("solving {}", game.name()))?;
    let wall_s = started.elapsed().as_secs_f64();
    let saved = if run.no_save {
        None
    } else {
        let path = run
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("solutions").join(format!("{}-{}.dfas", file_stem(game), mode_tag(mode))));
        solution.save(&path).with_context(|| format!("saving the solution to {}", path.display()))?;
        Some(path)
    };
    if let Some(csv) = &run.csv {
        write_csv(csv, game, &solution.records)?;
    }
    Ok(SolveReport { name: game.name(), solution, wall_s, saved })
}

fn human(n: Option<u128>) -> String {
    match n {
        None => "> u128".into(),
        Some(n) => {
            let s = n.to_string();
            let mut out = String::new();
            for (i, ch) in s.chars().enumerate() {
                if i > 0 && (s.len() - i) % 3 == 0 {
                    out.push(',');
                }
                out.push(ch);
            }
            out
        }
    }
}

fn progress_line(r: &StepRecord) -> String {
    format!(
        "[{:>8.2}s] {:>8} {:>4} {:>6} {:>9}: {:>22} positions, {:>10} states, rss {:>6} MiB",
        r.elapsed_s,
        format!("{:?}", r.phase).to_lowercase(),
        r.step,
        r.side.to_string(),
        r.set,
        human(r.positions),
        r.states,
        r.peak_rss_bytes.unwrap_or(0) >> 20
    )
}

const CSV_HEADER: &str =
    "game,phase,step,side,set,positions,states,bytes,positions_per_byte,elapsed_s,peak_rss_bytes\n";

fn csv_line(game: &str, r: &StepRecord) -> String {
    format!(
        "{},{:?},{},{},{},{},{},{},{},{:.3},{}\n",
        game,
        r.phase,
        r.step,
        r.side,
        r.set,
        r.positions.map_or(String::new(), |p| p.to_string()),
        r.states,
        r.bytes,
        r.positions_per_byte.map_or(String::new(), |p| format!("{p:.3}")),
        r.elapsed_s,
        r.peak_rss_bytes.map_or(String::new(), |p| p.to_string()),
    )
}

fn write_csv(path: &Path, game: &dyn Game, records: &[StepRecord]) -> Result<()> {
    let mut s = String::from(CSV_HEADER);
    for r in records {
        s += &csv_line(&game.name(), r);
    }
    let _ = std::fs::remove_file(path.with_extension("partial.csv"));
    write_atomically(path, s.as_bytes()).with_context(|| format!("writing {}", path.display()))
}

/// Totals over the value classes of a solution.
struct Totals {
    positions: Option<u128>,
    bytes: usize,
    largest_states: usize,
    largest_bytes: usize,
}

fn totals(report: &SolveReport) -> Totals {
    let mut t = Totals { positions: Some(0), bytes: 0, largest_states: 0, largest_bytes: 0 };
    for c in &report.solution.classes {
        let n = c.set.checked_count();
        t.positions = t.positions.and_then(|p| n.and_then(|n| p.checked_add(n)));
        t.bytes += c.set.disk_bytes();
    }
    for r in &report.solution.records {
        if r.states > t.largest_states {
            t.largest_states = r.states;
            t.largest_bytes = r.bytes;
        }
    }
    t
}

fn finish(
    report: &SolveReport,
    run: &RunOptions,
    extra: &[(&str, serde_json::Value)],
    headline: impl FnOnce(&mut String),
) -> Result<()> {
    let t = totals(report);
    let peak = peak_rss_bytes();
    let ppb = t.positions.map(|p| p as f64 / t.bytes.max(1) as f64);
    if run.json {
        let mut obj = serde_json::json!({
            "game": report.name,
            "params": report.solution.params,
            "mode": report.solution.mode,
            "initial_value": report.solution.initial_value.to_string(),
            "longest_win": report.solution.longest_win(),
            "wall_s": report.wall_s,
            "peak_rss_bytes": peak,
            "largest_dfa": { "states": t.largest_states, "bytes": t.largest_bytes },
            "positions_solved": t.positions,
            "solution_bytes": t.bytes,
            "positions_per_byte": ppb,
            "solution_file": report.saved,
            "steps": report.solution.records,
        });
        for (k, v) in extra {
            obj[*k] = v.clone();
        }
        println!("{obj}");
        return Ok(());
    }
    let mut out = String::new();
    headline(&mut out);
    out.push_str(&format!(
        "{:>8} {:>5} {:>6} {:>9} {:>24} {:>11} {:>12} {:>10} {:>9}\n",
        "phase", "step", "side", "set", "positions", "states", "bytes", "pos/byte", "time s"
    ));
    for r in &report.solution.records {
        out.push_str(&format!(
            "{:>8} {:>5} {:>6} {:>9} {:>24} {:>11} {:>12} {:>10} {:>9.2}\n",
            format!("{:?}", r.phase).to_lowercase(),
            r.step,
            r.side.to_string(),
            r.set,
            human(r.positions),
            r.states,
            r.bytes,
            r.positions_per_byte.map_or("-".into(), |p| format!("{p:.1}")),
            r.elapsed_s
        ));
    }
    out.push_str(&format!(
        "total: {:.2} s wall, peak memory {} MiB, largest DFA {} states ({} bytes), {} positions solved in {} bytes ({} positions/byte)\n",
        report.wall_s,
        peak.unwrap_or(0) >> 20,
        t.largest_states,
        t.largest_bytes,
        human(t.positions),
        t.bytes,
        ppb.map_or("-".into(), |p| format!("{p:.1}")),
    ));
    if let Some(longest) = report.solution.longest_win() {
        out.push_str(&format!("longest forced win: {longest} plies\n"));
    }
    if let Some(path) = &report.saved {
        out.push_str(&format!("solution saved to {}\n", path.display()));
    }
    print!("{out}");
    Ok(())
}

/// What the Nim XOR check found.
struct NimCheck {
    summary: String,
    losing: u128,
    losing_states: usize,
    positions: u128,
}

/// Compare the solved losing/winning sets with the XOR-zero DFA built from Bouton's rule, for
/// both sides to move; any difference is an error naming a position where they disagree.
fn check_nim(game: &Nim, solution: &Solution) -> Result<NimCheck> {
    let xor0 = game.xor_zero();
    let all = Dfa::accept_all(game.shape());
    let mut covered_any = Dfa::reject_all(game.shape());
    for side in Side::BOTH {
        let union_of = |pred: &dyn Fn(Outcome) -> bool| {
            let sets: Vec<&Dfa> =
                solution.classes.iter().filter(|c| c.side == side && pred(c.outcome)).map(|c| &c.set).collect();
            Dfa::union_all(game.shape(), &sets)
        };
        let losing = union_of(&|o| matches!(o, Outcome::Loss { .. }));
        let winning = union_of(&|o| matches!(o, Outcome::Win { .. }));
        // A meet-in-the-middle solve covers the positions reachable with this side to move;
        // on what it covers it must agree with XOR exactly.
        let covered = losing.union(&winning);
        let wrong = losing.difference(&xor0).union(&winning.intersection(&xor0));
        if let Some(board) = wrong.iter().next() {
            let example = game.render(&Position { side, board });
            bail!("Nim solution disagrees with the XOR rule ({side} to move) at {example}");
        }
        covered_any = covered_any.union(&covered);
    }
    if covered_any != all {
        let missing =
            all.difference(&covered_any).iter().next().map(|b| game.render(&Position { side: Side::First, board: b }));
        bail!("the solution leaves positions undecided for both sides, e.g. {missing:?}");
    }
    Ok(NimCheck {
        summary: "every position agrees with Bouton's rule (loss iff XOR = 0)".into(),
        losing: xor0.count(),
        losing_states: xor0.nontrivial_state_count(),
        positions: all.count(),
    })
}

fn load_solution(path: &Path) -> Result<(Box<dyn Game>, Solution)> {
    let mut game: Option<Box<dyn Game>> = None;
    let solution = Solution::load(path, |params| {
        let g = from_params(params)?;
        let initial = g.initial();
        game = Some(g);
        Ok(initial)
    })
    .with_context(|| format!("loading {}", path.display()))?;
    let game = game.expect("set by the loader");
    for c in &solution.classes {
        if c.set.shape() != game.shape() {
            bail!("{}: a stored set does not have the shape of {}", path.display(), game.name());
        }
    }
    Ok((game, solution))
}

fn query(path: &Path, text: &str) -> Result<()> {
    let (game, solution) = load_solution(path)?;
    let pos = game.parse(text)?;
    let value = solution.value(&pos);
    println!("{}", game.render(&pos));
    match value {
        Some(v) => println!("value for the {} player (to move): {v}", pos.side),
        None => {
            println!(
                "value: not covered by this solution (a meet-in-the-middle solve covers what the start reaches; \
                 an Ostle solve covers the states some move can produce)"
            )
        }
    }
    if game.explicit_status(&pos) != Status::Ongoing {
        println!("the game is over: {:?} for the player to move", game.explicit_status(&pos));
        return Ok(());
    }
    println!("moves, best first (value for the opponent after the move):");
    for (name, _, v) in ranked_moves(game.as_ref(), &solution, &pos) {
        println!("  {name:>10}  {}", v.map_or("not covered".to_string(), |v| v.to_string()));
    }
    Ok(())
}

/// The moves of `pos` with the value each leads to (for the opponent), best for the mover first.
fn ranked_moves(game: &dyn Game, solution: &Solution, pos: &Position) -> Vec<(String, Position, Option<Outcome>)> {
    let mut moves: Vec<(String, Position, Option<Outcome>)> = game
        .explicit_moves(pos)
        .into_iter()
        .map(|next| (game.move_name(pos, &next), solution.value(&next), next))
        .map(|(name, v, next)| (name, next, v))
        .collect();
    moves.sort_by_key(|(name, _, v)| (move_rank(*v), name.clone()));
    moves
}

fn play(path: &Path, side: &str, from: Option<&str>) -> Result<()> {
    use std::io::BufRead;
    let (game, solution) = load_solution(path)?;
    let human = match side {
        "first" => Side::First,
        "second" => Side::Second,
        other => bail!("--side must be first or second, not {other:?}"),
    };
    let mut pos = match from {
        Some(text) => game.parse(text)?,
        None => solution.initial.clone(),
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        println!("\n{}", game.render(&pos));
        match solution.value(&pos) {
            Some(v) => println!("{} to move: {v}", pos.side),
            None => println!("{} to move (position not covered by this solution)", pos.side),
        }
        if game.explicit_status(&pos) != Status::Ongoing {
            let winner = if game.explicit_status(&pos) == Status::Lost { pos.side.other() } else { pos.side };
            println!("game over: the {winner} player wins{}", if winner == human { " — well played!" } else { "" });
            return Ok(());
        }
        let moves = ranked_moves(game.as_ref(), &solution, &pos);
        if pos.side == human {
            for (i, (name, _, _)) in moves.iter().enumerate() {
                print!("{:>3}) {name}  ", i + 1);
            }
            println!("\nyour move (number or name, q to quit):");
            let Some(line) = lines.next() else { return Ok(()) };
            let line = line.context("reading your move")?;
            let answer = line.trim();
            if answer == "q" || answer == "quit" {
                return Ok(());
            }
            let chosen = answer
                .parse::<usize>()
                .ok()
                .and_then(|i| i.checked_sub(1))
                .and_then(|i| moves.get(i))
                .or_else(|| moves.iter().find(|(name, _, _)| name.split('=').any(|n| n == answer)));
            match chosen {
                Some((_, next, _)) => pos = next.clone(),
                None => println!("not a legal move: {answer:?}"),
            }
        } else {
            let (name, next, after) = moves.into_iter().next().expect("ongoing positions have a move");
            println!("I play {name} (leaves you: {})", after.map_or("unknown".into(), |v| v.to_string()));
            pos = next;
        }
    }
}

fn stats(path: &Path, json: bool) -> Result<()> {
    let bundle = Bundle::load(path).with_context(|| format!("loading {}", path.display()))?;
    let file_bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let rows: Vec<serde_json::Value> = bundle
        .entries
        .iter()
        .map(|(name, d)| {
            let s = d.stats();
            serde_json::json!({
                "name": name, "layers": d.shape().len(), "states": s.states, "memory_bytes": s.memory_bytes,
                "disk_bytes": s.disk_bytes, "positions": s.positions, "positions_per_byte": s.positions_per_byte,
            })
        })
        .collect();
    let total_pos: Option<u128> =
        bundle.entries.iter().try_fold(0u128, |acc, (_, d)| d.checked_count().and_then(|n| acc.checked_add(n)));
    let total_states: usize = bundle.entries.iter().map(|(_, d)| d.nontrivial_state_count()).sum();
    if json {
        println!(
            "{}",
            serde_json::json!({ "file": path, "file_bytes": file_bytes, "meta": bundle.meta, "sets": rows,
                "total_positions": total_pos, "total_states": total_states,
                "positions_per_byte": total_pos.map(|p| p as f64 / file_bytes.max(1) as f64) })
        );
        return Ok(());
    }
    println!("{}: {} sets, {} bytes on disk", path.display(), bundle.entries.len(), file_bytes);
    println!("{:>24} {:>11} {:>12} {:>24} {:>10}", "set", "states", "bytes", "positions", "pos/byte");
    for (name, d) in &bundle.entries {
        let s = d.stats();
        println!(
            "{name:>24} {:>11} {:>12} {:>24} {:>10}",
            s.states,
            s.disk_bytes,
            human(s.positions),
            s.positions_per_byte.map_or("-".into(), |p| format!("{p:.1}"))
        );
    }
    println!(
        "total: {} states, {} positions, {} positions per byte of file",
        total_states,
        human(total_pos),
        total_pos.map_or("-".into(), |p| format!("{:.1}", p as f64 / file_bytes.max(1) as f64))
    );
    Ok(())
}

/// Check every value class of a solution with the explicit rules only.
fn check(path: &Path, sample: usize, seed: u64) -> Result<()> {
    let (game, solution) = load_solution(path)?;
    let mut rng = SplitMix64::new(seed);
    let mut checked = 0u64;
    for class in &solution.classes {
        let count = class.set.checked_count();
        let members: Vec<Vec<u8>> = match count {
            Some(n) if n <= sample as u128 => class.set.to_strings(),
            _ => {
                let sampler = class.set.sampler().context("class too large to sample (count overflows u128)")?;
                (0..sample).map(|_| sampler.sample(&mut rng)).collect()
            }
        };
        for board in members {
            let pos = Position { side: class.side, board };
            check_one(game.as_ref(), &solution, &pos, class.outcome)?;
            checked += 1;
        }
        println!(
            "{:>6} to move, {:>16}: {} positions checked{}",
            class.side.to_string(),
            class.outcome.to_string(),
            human(Some(count.map_or(sample as u128, |n| n.min(sample as u128)))),
            if count.is_some_and(|n| n <= sample as u128) { " (all)" } else { " (uniform sample)" }
        );
    }
    println!("check passed: {checked} positions of {} agree with the explicit rules", game.name());
    Ok(())
}

/// One position against the explicit rules: terminal status, and the values its moves lead to.
fn check_one(game: &dyn Game, solution: &Solution, pos: &Position, claimed: Outcome) -> Result<()> {
    let fail = |why: String| anyhow::anyhow!("check failed at {} (claimed {claimed}): {why}", game.render(pos));
    match game.explicit_status(pos) {
        Status::Lost => {
            return match claimed {
                Outcome::Loss { plies: Some(0) | None } => Ok(()),
                _ => Err(fail("the rules say the game is already lost".into())),
            };
        }
        Status::Won => {
            return match claimed {
                Outcome::Win { plies: Some(0) | None } => Ok(()),
                _ => Err(fail("the rules say the game is already won".into())),
            };
        }
        Status::Ongoing => {}
    }
    // A win needs one covered move into a loss (a meet-in-the-middle solution need not cover
    // every other move); a loss or a draw needs the values of all its moves.
    let all_after: Vec<Option<Outcome>> = game.explicit_moves(pos).iter().map(|q| solution.value(q)).collect();
    if !matches!(claimed, Outcome::Win { .. }) && all_after.iter().any(Option::is_none) {
        return Err(fail("a move leads outside the solution".into()));
    }
    let after: Vec<Outcome> = all_after.into_iter().flatten().collect();
    match claimed {
        Outcome::Win { plies } => {
            let ok = after.iter().any(|v| match (v, plies) {
                (Outcome::Loss { plies: Some(q) }, Some(p)) => q + 1 == p,
                (Outcome::Loss { .. }, None) => true,
                _ => false,
            });
            let no_faster =
                plies.is_none_or(|p| !after.iter().any(|v| matches!(v, Outcome::Loss { plies: Some(q) } if q + 1 < p)));
            if !ok || !no_faster {
                return Err(fail(format!("no move into a loss of the right length (moves lead to {after:?})")));
            }
        }
        Outcome::Loss { plies } => {
            let all_win = after.iter().all(|v| matches!(v, Outcome::Win { .. }));
            let longest = after
                .iter()
                .filter_map(|v| if let Outcome::Win { plies: Some(q) } = v { Some(q + 1) } else { None })
                .max();
            if !all_win || (plies.is_some() && longest != plies) {
                return Err(fail(format!(
                    "not every move leads into a win of the right length (moves lead to {after:?})"
                )));
            }
        }
        Outcome::Draw => {
            let escape = after.iter().any(|v| matches!(v, Outcome::Loss { .. }));
            let held = after.iter().any(|v| matches!(v, Outcome::Draw));
            if escape || !held {
                return Err(fail(format!(
                    "a draw must have a drawing move and no winning one (moves lead to {after:?})"
                )));
            }
        }
    }
    Ok(())
}
