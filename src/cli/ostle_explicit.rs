//! `dfasolve explicit ostle`: an Ostle variant solved class by class by canonical rank, with
//! no DFA; the solve is the library's ([`crate::games::ostle::ranked::run`]), this the
//! command's arguments, its checks before any work, and the printed report.

use super::ostle::OstleArgs;
use super::output::{AboutFile, say};
use crate::counts::human;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `dfasolve explicit ostle`.
#[derive(Args, Debug, Clone)]
pub struct ExplicitOstleArgs {
    /// The variant.
    #[command(flatten)]
    pub variant: OstleArgs,
    /// Directory of the class tables (`class-NAME.ranked`, one file per class; a class whose
    /// file is there is not solved again, and a class under way resumes from its checkpoint
    /// there; also `--out`). Default: `solutions/ostle-WxH-kK-tT-RULE-ranked`.
    #[arg(long, value_name = "DIR", visible_alias = "out")]
    pub tables: Option<PathBuf>,
    /// Solve this class only (its lower classes must be solved); see `--list-classes`.
    #[arg(long, value_name = "NAME")]
    pub class: Option<String>,
    /// List the classes, lowest first, and exit.
    #[arg(long)]
    pub list_classes: bool,
    /// Save a checkpoint between groups of the count of moves and between levels at most this
    /// often (minutes).
    #[arg(long, value_name = "MINUTES", default_value_t = 10.0)]
    pub checkpoint_minutes: f64,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Memory budget in GiB for a class's tables (default: what the system has available; 0:
    /// no budget).
    #[arg(long, value_name = "GIB", value_parser = super::options::gib)]
    pub max_memory: Option<f64>,
    /// After the solve, check this many states drawn at random from the tables by the plain
    /// rules: each value must follow from its moves' values (0: none).
    #[arg(long, value_name = "STATES", default_value_t = 100_000)]
    pub check_sample: u64,
    /// Seed of the states checked.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also count the breadth-first levels from the start to the end, up to symmetry (a pass
    /// over every board of the solved classes, saved in `levels.checkpoint` in the tables'
    /// directory as a class solve is, and resumed from there).
    #[arg(long)]
    pub levels: bool,
    /// Skip the census (an hour on 5x5), e.g. to count only the levels of solved tables.
    #[arg(long)]
    pub no_census: bool,
}

/// `dfasolve explicit ostle`: the variant solved class by class by canonical rank.
pub fn run_explicit_ostle(args: &ExplicitOstleArgs) -> Result<()> {
    use crate::games::ostle::ranked;
    let v = args.variant.variant()?;
    // Refuses a variant the tables by rank cannot hold before anything is made.
    ranked::reading::Rules::new(&v)?;
    let all = ranked::classes(&v);
    if args.list_classes {
        for c in &all {
            let kinds: Vec<String> = c.kinds.iter().map(|k| k.to_string()).collect();
            say!("{}\t{}", c.name, kinds.join(" "));
        }
        return Ok(());
    }
    let budget = super::solve::budget_bytes(args.max_memory);
    if !(args.checkpoint_minutes.is_finite() && args.checkpoint_minutes >= 0.0) {
        anyhow::bail!("--checkpoint-minutes must be a number of minutes, got {}", args.checkpoint_minutes);
    }
    let dir = args.tables.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "solutions/ostle-{}x{}-k{}-t{}-{}-ranked",
            v.width,
            v.height,
            v.pieces,
            v.lose_at,
            v.rule.name()
        ))
    });
    let chosen: Vec<&ranked::Class> = match &args.class {
        None => all.iter().collect(),
        Some(name) => vec![all.iter().find(|c| &c.name == name).ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
            anyhow::anyhow!("no class {name:?} in this variant (its classes: {})", names.join(", "))
        })?],
    };
    let what = format!("ostle {}x{} k{} t{} by classes", v.width, v.height, v.pieces, v.lose_at);
    let cost = super::ostle_cost::ExplicitCost::of(&v, &chosen, &dir);
    cost.refuse_unless(args.variant.long, &what)?;
    // The default directory's parents are ours to make; a directory the user names must have
    // its parent already.
    if args.tables.is_none() {
        std::fs::create_dir_all(&dir).about_file("cannot make", &dir)?;
    }
    crate::atomic::check_directory(&dir).map_err(|e| anyhow::anyhow!("cannot make the tables directory: {e}"))?;
    let _showing = super::progress::show_stamped(args.quiet);
    if cost.states > 0.0 {
        crate::progress!("{what}: estimated {}", cost.text());
    }
    let report = ranked::run::run(&ranked::run::Request {
        variant: &v,
        dir: &dir,
        classes: &chosen,
        options: ranked::Options {
            budget,
            checkpoint_every: std::time::Duration::from_secs_f64(args.checkpoint_minutes * 60.0),
            stop_at: None,
        },
        census: !args.no_census,
        check_sample: args.check_sample,
        seed: args.seed,
        levels: args.levels,
    })?;
    if args.json {
        #[derive(serde::Serialize)]
        struct Printed<'a> {
            #[serde(flatten)]
            report: &'a ranked::run::Report,
            winner: Option<&'static str>,
        }
        let winner = report.initial_value.map(super::report::winner);
        say!("{}", serde_json::to_string(&Printed { report: &report, winner })?);
        return Ok(());
    }
    print_explicit_report(&report)
}

/// The report of `dfasolve explicit ostle` as text.
fn print_explicit_report(report: &crate::games::ostle::ranked::run::Report) -> Result<()> {
    let crate::games::ostle::ranked::run::Report { variant, initial_value, census, levels_from_start, .. } = report;
    match initial_value {
        Some(start) => say!("{}", super::report::headline(variant, *start)),
        None => say!("{variant}: the start's class is not solved yet"),
    }
    say!("tables in {}", report.tables.display());
    if !report.all_classes_solved {
        say!("not every class is solved yet: the counts below are those of the classes solved");
    }
    say!("{} states drawn at random follow from their moves by the plain rules", report.checked_states);
    if let Some(win) = &report.longest_win {
        say!(
            "longest forced win: {} plies (d = {}), {} states up to symmetry ({} raw)",
            win.plies,
            win.plies - 1,
            win.states.classes,
            win.states.raw
        );
    }
    if let Some(census) = &census {
        say!("{:>28} {:>16} {:>18}", "", "up to symmetry", "raw");
        for (name, c) in [
            ("positions", &census.positions),
            ("checkmate positions", &census.checkmate_positions),
            ("non-trivial states", &census.nontrivial_states),
            ("with a forbidden move", &census.with_forbidden_move),
            ("wins only by sacrifices", &census.sacrifice_wins),
            ("draws", &census.draws),
        ] {
            say!("{name:>28} {:>16} {:>18}", human(Some(c.classes.into())), human(Some(c.raw.into())));
        }
    }
    if let Some(levels) = levels_from_start {
        say!("breadth-first levels from the start, states up to symmetry ({:.0} s):", report.levels_s.unwrap_or(0.0));
        for (i, n) in levels.iter().enumerate() {
            say!("{:>28} {:>16}", format!("level {i}"), human(Some((*n).into())));
        }
    }
    if let Some(census) = &census {
        say!("value of the non-trivial states (d = plies - 1; d even: the mover wins):");
        for (d, n) in census.by_d.iter().enumerate().filter(|(_, n)| n.classes > 0) {
            say!("{d:>28} {:>16} {:>18}", human(Some(n.classes.into())), human(Some(n.raw.into())));
        }
    }
    Ok(())
}
