//! The `dfasolve` binary: parse the command line, run it, print any error once.
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    init_tracing();
    let cli = dfasolve::cli::Cli::parse();
    match dfasolve::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of stdout went away (`dfasolve stats FILE | head -1`): stop quietly.
        Err(e) if dfasolve::cli::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) if e.chain().any(|c| matches!(c.downcast_ref(), Some(dfasolve::Error::StoppedAfter(_)))) => {
            eprintln!("{e:#}");
            ExitCode::from(dfasolve::cli::STOPPED_EXIT_CODE)
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Progress as the command asks (`cli::ProgressLayer`), and timing lines of the solver's steps
/// and images on stderr: `DFASOLVE_TRACE=1` turns on the step and image lines,
/// `DFASOLVE_TRACE=layers` also one line per image layer, and `DFASOLVE_LOG` takes any
/// `tracing` filter (e.g. `dfasolve::image=debug`).
fn init_tracing() {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::{EnvFilter, Layer};
    let filter = match std::env::var("DFASOLVE_TRACE") {
        Ok(level) if level == "layers" => EnvFilter::new("dfasolve=trace"),
        Ok(_) => EnvFilter::new("dfasolve=debug"),
        Err(_) => EnvFilter::try_from_env("DFASOLVE_LOG").unwrap_or_else(|_| EnvFilter::new("off")),
    }
    // Progress is the progress layer's to show.
    .add_directive("dfasolve::progress=off".parse().expect("a valid directive"));
    let timing = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .without_time()
        .with_target(false)
        .with_level(false)
        .with_ansi(false)
        .with_filter(filter);
    let progress = dfasolve::cli::ProgressLayer
        .with_filter(tracing_subscriber::filter::filter_fn(|m| m.target().starts_with(dfasolve::progress::TARGET)));
    tracing_subscriber::registry().with(timing).with(progress).init();
}
