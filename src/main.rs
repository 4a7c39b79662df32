//! The `dfasolve` binary: parse the command line, run it, print any error once.
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = dfasolve::cli::Cli::parse();
    match dfasolve::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
