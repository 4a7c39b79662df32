//! The `dfasolve` command line: clap definitions (their doc comments are the `--help` text),
//! the dispatch of each subcommand, and the printing of what it found. The work itself is
//! done by the library ([`crate::solver`], [`crate::games`]).

mod breakthrough;
mod connect4;
mod cost;

mod files;
mod nim;
mod options;
mod ostle;
mod ostle_cost;
mod ostle_explicit;
mod othello;
mod othello_cost;
mod output;
mod outputs;
mod plan;
mod play;
mod positions;
mod progress;
pub use progress::ProgressLayer;
mod puzzles;
mod report;
mod serve;
mod solve;
mod spread;

use crate::atomic::write_atomically;
use crate::vocabulary::Side;
use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use outputs::{Files, Writing};
use std::path::PathBuf;

pub use breakthrough::BreakthroughArgs;
pub use connect4::Connect4Args;
pub use nim::NimArgs;
pub use options::{RunOptions, VerifyOptions};
pub use ostle::{OstleArgs, OstleSolveArgs, VerifyOstleArgs};
pub use ostle_explicit::ExplicitOstleArgs;
pub use othello::OthelloArgs;
pub use output::is_broken_pipe;
use output::{AboutFile, say};
pub use plan::{PlanArgs, RunPlanArgs};
pub use report::SolveReport;
pub use solve::{Prepared, STOP_AFTER, STOPPED_EXIT_CODE, before_solving, solve, solve_with};
pub use spread::SpreadArgs;

/// Strongly solve board games with sets of positions stored as minimal layered DFAs.
#[derive(Parser, Debug)]
#[command(name = "dfasolve", version = crate::VERSION, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve Breakthrough of one board size: winner, per-ply table, compression.
    #[command(after_help = "Examples:\n  dfasolve breakthrough --width 4 --height 5\n  \
        dfasolve breakthrough --width 5 --height 5 --strong --by-classes classes/bt-5x5")]
    Breakthrough(BreakthroughArgs),
    /// Solve Nim and check every position against Bouton's XOR rule.
    #[command(after_help = "Example:\n  dfasolve nim --heaps 4 --tokens 7 --json")]
    Nim(NimArgs),
    /// Solve Othello on a small board (`games/othello/README.md`) over the positions reachable
    /// from the start (every board with `--strong`): win, draw or loss against a threshold on
    /// the final disc difference, or the start's exact difference.
    #[command(after_help = "Examples:\n  dfasolve othello --width 4 --height 4\n  \
        dfasolve othello --width 4 --height 5 --margin")]
    Othello(OthelloArgs),
    /// Strongly solve Spread, the toy game with passes and drawn endings
    /// (`games/spread/README.md`).
    #[command(after_help = "Example:\n  dfasolve spread --width 3 --height 3")]
    Spread(SpreadArgs),
    /// Strongly solve Connect Four (`games/connect4/README.md`): win, draw or loss and the
    /// plies to the end of every position.
    #[command(after_help = "Examples:\n  dfasolve connect4 --width 4 --height 4\n  \
        dfasolve connect4 --width 5 --height 4 --by-classes classes/c4-5x4")]
    Connect4(Connect4Args),
    /// Strongly solve Ostle(WxH, K, T) (default: the standard 5x5 game) and report the
    /// published counts: values, positions by hole class and pieces, checkmates, non-trivial
    /// states, distances from the start, raw and up to the board's symmetries.
    #[command(after_help = "Example:\n  dfasolve ostle --width 4 --height 4 --pieces 3 --lose-at 2 --rule class")]
    Ostle(OstleSolveArgs),
    /// Check a DFA solution against an independent explicit solver, entry by entry.
    #[command(after_help = "Example:\n  dfasolve verify ostle --width 3 --height 4 --pieces 3 --lose-at 2")]
    Verify {
        /// Which game.
        #[command(subcommand)]
        game: VerifyCommand,
    },
    /// Solve a game with an explicit solver only (no DFA): a byte per state, indexed by rank.
    #[command(after_help = "Example:\n  dfasolve explicit ostle --width 5 --height 5 --pieces 4 --lose-at 3")]
    Explicit {
        /// Which game.
        #[command(subcommand)]
        game: ExplicitCommand,
    },
    /// A page in the browser over a saved solution: play moves by clicking, each coloured by
    /// its value, with the game's history; served on 127.0.0.1 (or `--host`) until stopped.
    #[command(after_help = "Example (then open the address it prints):\n  \
                            dfasolve serve solutions/breakthrough-4x5-mitm2.dfas --port 8080")]
    Serve {
        /// A solution file, or a directory of Ostle class tables.
        #[arg(value_name = "SOLUTION")]
        solution: PathBuf,
        /// The port (0: any free one; the address is printed first).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on: 127.0.0.1 (this machine only), or e.g. 0.0.0.0 to offer the
        /// page to a network. The server answers questions and writes nothing.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
    },
    /// Puzzles from a solved game: wins that pass a filter, with their winning line (a DFA
    /// solution of any game, or a directory of Ostle class tables).
    #[command(after_help = "Examples:\n  dfasolve breakthrough --width 4 --height 4 --strong --quiet\n  \
                      dfasolve puzzles solutions/breakthrough-4x4-strong.dfas --longest --unique\n  \
                      dfasolve explicit ostle --width 3 --height 3 --pieces 3 --lose-at 1 --rule class --tables t3 --quiet\n  \
                      dfasolve puzzles t3 --plies 9 --unique\n  \
                      dfasolve puzzles t3 --sacrifice --no-forbidden-move")]
    Puzzles {
        /// A solution file, or a directory of class tables written by `dfasolve explicit ostle`.
        #[arg(value_name = "SOLUTION")]
        solution: PathBuf,
        /// Wins in exactly this many plies.
        #[arg(long, value_name = "N", conflicts_with = "longest")]
        plies: Option<u32>,
        /// The longest wins of the tables.
        #[arg(long)]
        longest: bool,
        /// Only states with exactly one winning move.
        #[arg(long)]
        unique: bool,
        /// Only states whose every winning move removes one of the mover's own pieces (wins of
        /// any length unless --plies or --longest says one; the count of all is reported).
        #[arg(long)]
        sacrifice: bool,
        /// Only states without a forbidden move: one per position, as published lists count.
        #[arg(long)]
        no_forbidden_move: bool,
        /// List at most this many.
        #[arg(long, value_name = "N", default_value_t = 10)]
        limit: usize,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Positions of one value with how many there are at each distance: wins, losses or draws
    /// of a saved solution (a DFA solution or Ostle class tables), the first in order or a
    /// uniform sample, each with its best line.
    #[command(after_help = "Examples:\n  dfasolve breakthrough --width 4 --height 4 --strong --quiet\n  \
                      dfasolve positions solutions/breakthrough-4x4-strong.dfas --value loss --longest\n  \
                      dfasolve positions solutions/breakthrough-4x4-strong.dfas --value win --plies 5 --side second --sample 3")]
    Positions {
        /// A solution file, or a directory of class tables written by `dfasolve explicit ostle`.
        #[arg(value_name = "SOLUTION")]
        solution: PathBuf,
        /// Which value, for the player to move.
        #[arg(long, value_parser = crate::choice::parser::<crate::solved::explore::positions::ValueKind>())]
        value: crate::solved::explore::positions::ValueKind,
        /// Only those this many plies from the end (the counts cover every distance).
        #[arg(long, value_name = "N", conflicts_with = "longest")]
        plies: Option<u32>,
        /// Only those farthest from the end.
        #[arg(long)]
        longest: bool,
        /// Only those with this side to move (games whose positions name it).
        #[arg(long, value_parser = crate::choice::parser::<Side>())]
        side: Option<Side>,
        /// List at most this many, the first in order.
        #[arg(long, value_name = "N", default_value_t = 10)]
        limit: usize,
        /// List this many drawn uniformly at random instead (distinct; all if there are no more).
        #[arg(long, value_name = "N", conflicts_with = "limit")]
        sample: Option<usize>,
        /// Seed of the sample.
        #[arg(long, default_value_t = 1, requires = "sample")]
        seed: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Value and best moves of a position in a saved solution; without a position (or with
    /// `-`), of every position on standard input, one per line, the solution loaded once.
    #[command(
        after_help = "Examples:\n  dfasolve query solutions/breakthrough-4x5-mitm2.dfas 'xxxx/xxxx/..../oooo/oooo first'\n  \
                      echo 'xxxx/xxxx/..../oooo/oooo first' | dfasolve query solutions/breakthrough-4x5-mitm2.dfas"
    )]
    Query {
        /// A solution file (or class directory) written by a solve command.
        #[arg(value_name = "FILE")]
        solution: PathBuf,
        /// The position in the game's text form (e.g. Breakthrough 4x5's start: "xxxx/xxxx/..../oooo/oooo first").
        #[arg(num_args = 0.., value_name = "POSITION")]
        position: Vec<String>,
        /// Print one JSON object instead of text (one per line for standard input).
        #[arg(long)]
        json: bool,
        /// List at most this many moves.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
    },
    /// Play against the perfect player at the terminal: you move, it answers with a best move.
    /// Your moves are listed best first with the value each leaves the opponent (`h` turns
    /// these hints off and on); `u` takes your last move back, `s FILE` saves the game's record.
    #[command(
        after_help = "Example:\n  dfasolve play solutions/breakthrough-4x5-mitm2.dfas --side second --record game.json"
    )]
    Play {
        /// A solution file (or class directory).
        #[arg(value_name = "FILE")]
        solution: PathBuf,
        /// Which side you play.
        #[arg(long, value_parser = crate::choice::parser::<Side>(), default_value = "first")]
        side: Side,
        /// Start from this position instead of the game's start (text form, as for query).
        #[arg(long, value_name = "POSITION")]
        from: Option<String>,
        /// Board and prompts on stderr, and one JSON object with the result on stdout.
        #[arg(long)]
        json: bool,
        /// Offer at most this many moves by number (the others are still playable by name).
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// Write the game's record (every move with the value before it, and the result) to
        /// this file when the game ends or you quit; `s FILE` during the game saves it too.
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
        /// Replace an existing file that dfasolve did not write.
        #[arg(long)]
        force: bool,
    },
    /// Sizes and compression of every set in a saved file.
    #[command(after_help = "Example:\n  dfasolve stats solutions/breakthrough-4x5-mitm2.dfas --json")]
    Stats {
        /// A file written by dfasolve (solution, class file or checkpoint), or a class directory.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Draw SVG charts (positions, DFA states, positions per byte per step) from a run record
    /// written with `--csv`.
    #[command(
        after_help = "Example:\n  dfasolve breakthrough --width 4 --height 5 --csv run.csv && dfasolve plot run.csv"
    )]
    Plot {
        /// The CSV run record.
        #[arg(value_name = "CSV")]
        csv: PathBuf,
        /// The SVG file to write (default: the CSV's name with .svg).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Print one JSON object (the charts drawn, the fitted compression exponent).
        #[arg(long)]
        json: bool,
        /// Replace an existing file that dfasolve did not write.
        #[arg(long)]
        force: bool,
    },
    /// Write the plan of a solve by classes as a graph of jobs (`DIR/plan.json`): one job per
    /// class with its command line, files, dependencies and estimates; show its status; or
    /// write and submit Slurm job arrays for it.
    Plan(PlanArgs),
    /// Run a plan's jobs that are not done, here, N at a time; or one job (a Slurm task).
    RunPlan(RunPlanArgs),
    /// Write one set of a dfasolve file as a DFA1 exchange file (canonical numbering, SHA-256).
    Export(ExportArgs),
    /// Read a DFA1 exchange file (any valid one) into a one-set dfasolve file named "imported".
    #[command(after_help = "Example:\n  dfasolve import reachable.dfa1 reachable.dfas")]
    Import {
        /// The DFA1 file.
        #[arg(value_name = "DFA1")]
        dfa1: PathBuf,
        /// The dfasolve file to write.
        #[arg(value_name = "FILE")]
        out: PathBuf,
        /// Replace an existing file that dfasolve did not write.
        #[arg(long)]
        force: bool,
    },
    /// Re-check a saved solution against the explicit rules only (no DFA moves): a won position
    /// has a move into a lost one, a lost position only moves into won ones.
    #[command(after_help = "Example:\n  dfasolve check solutions/breakthrough-4x5-mitm2.dfas --sample 500")]
    Check {
        /// A solution file (or class directory).
        #[arg(value_name = "FILE")]
        solution: PathBuf,
        /// Positions checked per value class (sampled uniformly with a fixed seed); classes this
        /// small or smaller are checked member by member (at least 1: a check of nothing passes
        /// nothing).
        #[arg(long, default_value_t = 2000, value_parser = options::at_least_one)]
        sample: usize,
        /// Seed of the sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Ostle class tables only: also compare them state by state with this DFA solution of
        /// the same game (or of the game with fewer pieces, for the classes it has): `--sample`
        /// states of the tables' kinds the DFA can hold, and about `--sample` of the DFA
        /// solution, shared equally by its value classes.
        #[arg(long, value_name = "DFA_FILE")]
        against: Option<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
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
        /// Output and memory options.
        #[command(flatten)]
        run: VerifyOptions,
    },
}

/// Games `explicit` knows.
#[derive(Subcommand, Debug)]
pub enum ExplicitCommand {
    /// Strongly solve an Ostle variant by retrograde analysis over a byte per state up to
    /// symmetry, class by class (pieces on the board), saving each class's tables; then report
    /// the published counts and check a sample of states by the plain rules.
    Ostle {
        /// The variant and the report's form.
        #[command(flatten)]
        args: ExplicitOstleArgs,
    },
}

/// Export one set of a dfasolve file in the DFA1 exchange format of the C++ dfa-games solver.
#[derive(Args, Debug)]
#[command(after_help = "Example:\n  dfasolve export solutions/nim-4x7-mitm0.dfas first/loss loss.dfa1")]
pub struct ExportArgs {
    /// A file written by dfasolve (solution or checkpoint).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The name of the set inside it (see `dfasolve stats FILE`).
    #[arg(value_name = "SET")]
    pub set: String,
    /// The DFA1 file to write.
    #[arg(value_name = "DFA1")]
    pub out: PathBuf,
    /// Replace an existing file that dfasolve did not write.
    #[arg(long)]
    pub force: bool,
}

/// Run one parsed command line.
///
/// # Errors
/// Any failure, as a message for the user.
pub fn run(cli: Cli) -> Result<()> {
    if let Some(solve) = cli.command.solve_command() {
        return done_if_stopped_as_asked(class_jobs(solve).unwrap_or_else(|| solve.run()));
    }
    match cli.command {
        Command::Verify { game: VerifyCommand::Ostle { args, run } } => {
            ostle::run_verify_ostle(&args, run.json, &run.run_options())
        }
        Command::Explicit { game: ExplicitCommand::Ostle { args } } => ostle_explicit::run_explicit_ostle(&args),
        Command::Query { solution, position, json, limit } => {
            let position = (!position.is_empty() && position != ["-"]).then(|| position.join(" "));
            files::query(&solution, position.as_deref(), json, limit)
        }
        Command::Serve { solution, port, host } => serve::serve(&solution, &host, port),
        Command::Puzzles { solution, plies, longest, unique, sacrifice, no_forbidden_move, limit, json } => {
            let filter = crate::solved::Filter { plies, longest, unique, sacrifice, plain: no_forbidden_move };
            puzzles::puzzles(&solution, &filter, limit, json)
        }
        Command::Positions { solution, value, plies, longest, side, limit, sample, seed, json } => {
            use crate::solved::explore::positions::{Distance, Pick};
            let distance = match (plies, longest) {
                (Some(n), _) => Distance::Exactly(n),
                (None, true) => Distance::Longest,
                (None, false) => Distance::Any,
            };
            let pick = sample.map_or(Pick::First(limit), |count| Pick::Sample { count, seed });
            positions::positions(
                &solution,
                &positions::Ask { positions: crate::solved::PositionsAsk { kind: value, distance, side, pick }, json },
            )
        }
        Command::Stats { file, json } => files::stats(&file, json),
        Command::Plan(args) => plan::plan(&args),
        Command::RunPlan(args) => plan::run_plan_command(&args),
        Command::Play { solution, side, from, json, limit, record, force } => {
            Files::new(force).reads(&solution).writes(record.as_deref(), Writing::Stream, "the record").check()?;
            play::play(&solution, side, from.as_deref(), json, limit, record.as_deref())
        }
        Command::Check { solution, sample, seed, against, json } => {
            files::check(&solution, sample, seed, against.as_deref(), json)
        }
        Command::Plot { csv, out, json, force } => {
            let out = out.unwrap_or_else(|| csv.with_extension("svg"));
            Files::new(force).reads(&csv).writes(Some(&out), Writing::Stream, "the chart").check()?;
            let source = csv.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let charts = crate::plot::plot_record(&csv, &source)?;
            write_atomically(&out, charts.svg.as_bytes()).about_file("writing", &out)?;
            if json {
                /// `plot --json`: the charts' figures and the file written.
                #[derive(serde::Serialize)]
                struct PlotJson<'a, C: serde::Serialize> {
                    #[serde(flatten)]
                    charts: &'a C,
                    svg_file: &'a std::path::Path,
                }
                say!("{}", crate::solved::report::to_json(&PlotJson { charts: &charts, svg_file: &out }));
            } else {
                say!("wrote {} ({})", out.display(), charts.title);
                match (&charts.fit, &charts.fit_not_drawn) {
                    (Some(f), None) => say!(
                        "compression: states ≈ {:.3} · positions^{:.3} (R² {:.3}, {} sets over {:.1} decades)",
                        f.factor,
                        f.exponent,
                        f.r_squared,
                        f.points,
                        f.decades
                    ),
                    (_, Some(why)) => say!("compression: no law drawn ({why})"),
                    (None, None) => {}
                }
            }
            Ok(())
        }
        Command::Export(args) => {
            Files::new(args.force)
                .reads(&args.file)
                .writes(Some(&args.out), Writing::Stream, "the DFA1 file")
                .check()?;
            files::export(&args)
        }
        Command::Import { dfa1, out, force } => {
            Files::new(force).reads(&dfa1).writes(Some(&out), Writing::Whole, "the imported file").check()?;
            files::import(&dfa1, &out)
        }
        // The solve commands ran above, as one arm a game in `Command::solve_command`.
        _ => unreachable!("a solve command is run before this match"),
    }
}

/// A solve that stopped where it was asked to (one step run as a job) did its work: said on
/// stderr, and a success.
fn done_if_stopped_as_asked(outcome: Result<()>) -> Result<()> {
    let Err(e) = outcome else { return outcome };
    let stopped = e.chain().find_map(|cause| match cause.downcast_ref::<crate::Error>() {
        Some(crate::Error::StoppedAsAsked(what)) => Some(what.clone()),
        _ => None,
    });
    match stopped {
        Some(what) => {
            eprintln!("{what}");
            Ok(())
        }
        None => Err(e),
    }
}

/// Refuse a solve whose estimated peak memory is more than 64 times what the system has
/// available: the estimate is an extrapolation, so hard sizes within that factor start, and
/// the memory budget stops them cleanly if they do not fit.
fn refuse_hopeless(estimated_bytes: f64, force: bool) -> Result<()> {
    let Some(available) = crate::dfa::limits::available_memory() else { return Ok(()) };
    if !force && estimated_bytes > 64.0 * available as f64 {
        anyhow::bail!(
            "this size is estimated to need about {:.1e} GiB at its peak (from the growth of the sizes measured so far) \
             and {} GiB is available: refused (--force starts it anyway; --max-memory bounds it)",
            estimated_bytes / f64::from(1u32 << 30),
            available >> 30
        );
    }
    Ok(())
}

/// A solve command's arguments: the game they name, the options of the run, and the run.
pub trait SolveCommand {
    /// The game the arguments name.
    ///
    /// # Errors
    /// Parameters the game refuses.
    fn build(&self) -> Result<Box<dyn crate::game::Game>>;

    /// The options every solve takes.
    fn run_options(&self) -> &RunOptions;

    /// Solve, and print or write what was asked.
    ///
    /// # Errors
    /// Any failure, as a message for the user.
    fn run(&self) -> Result<()>;
}

impl Command {
    /// The solve command this is, if it is one: one arm a game.
    fn solve_command(&self) -> Option<&dyn SolveCommand> {
        Some(match self {
            Command::Breakthrough(args) => args,
            Command::Nim(args) => args,
            Command::Ostle(args) => args,
            Command::Othello(args) => args,
            Command::Spread(args) => args,
            Command::Connect4(args) => args,
            _ => return None,
        })
    }
}

/// `--list-classes`, and `--by-classes DIR --class NAME` (one class as one job), for a solve
/// command; `None` when neither is asked.
fn class_jobs(command: &dyn SolveCommand) -> Option<Result<()>> {
    let run = command.run_options();
    if !run.list_classes && run.class.is_none() {
        return None;
    }
    // Built here only for a class job: the solve commands build their own game.
    let game = match command.build() {
        Ok(g) => g,
        Err(e) => return Some(Err(e)),
    };
    Some(match (&run.by_classes, &run.class) {
        _ if run.list_classes => solve::list_classes(game.as_ref()),
        (Some(dir), Some(name)) => solve::solve_one_class(game.as_ref(), dir, name, run),
        _ => Err(anyhow::anyhow!("--class needs --by-classes DIR (where the lower classes' files are)")),
    })
}
