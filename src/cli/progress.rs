//! What a long run shows while it works: a live line on a terminal (indicatif) with the
//! current step, its set's size, memory and elapsed time, and a bar with an estimate where the
//! number of steps is known (the backup of a meet in the middle); plain lines when stderr is
//! not a terminal and `--progress` asks for them; nothing with `--quiet` or `--json`.

use super::RunOptions;
use super::report::{human, progress_line};
use crate::record::{Phase, StepRecord};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// How a run shows its progress.
#[derive(Clone)]
pub(super) enum Progress {
    /// Nothing.
    Off,
    /// One plain line per step on stderr.
    Lines,
    /// A live line (and a bar once the number of steps is known).
    Live(ProgressBar),
}

impl Progress {
    /// The display `run` asks for.
    pub(super) fn new(run: &RunOptions) -> Progress {
        if run.quiet || run.json {
            return Progress::Off;
        }
        if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("a valid template"),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            Progress::Live(bar)
        } else if run.progress {
            Progress::Lines
        } else {
            Progress::Off
        }
    }

    /// Show step `r`.
    pub(super) fn step(&self, r: &StepRecord) {
        match self {
            Progress::Off => {}
            Progress::Lines => eprintln!("{}", progress_line(r)),
            Progress::Live(bar) => {
                let phase = format!("{:?}", r.phase).to_lowercase();
                let class = r.class.as_ref().map_or(String::new(), |c| format!("class {c}, "));
                bar.set_message(format!(
                    "{class}{phase} {} ({} to move, {}): {} positions, {} DFA states, {} MiB resident",
                    r.step,
                    r.side,
                    r.set,
                    human(r.positions),
                    human(Some(r.states as u128)),
                    r.peak_rss_bytes.unwrap_or(0) >> 20
                ));
                // The backup counts plies down to 0: from its first step on, the rest is known.
                if r.phase == Phase::Backup {
                    let total = bar.length().unwrap_or(0).max(u64::from(r.step) + 1);
                    if bar.length().is_none() {
                        bar.set_length(total);
                        bar.set_style(
                            ProgressStyle::with_template(
                                "{bar:30} {pos}/{len} plies, eta {eta} [{elapsed_precise}] {msg}",
                            )
                            .expect("a valid template"),
                        );
                    }
                    bar.set_position(total - u64::from(r.step));
                }
            }
        }
    }

    /// The run is over: clear the live line.
    pub(super) fn finish(&self) {
        if let Progress::Live(bar) = self {
            bar.finish_and_clear();
        }
    }
}
