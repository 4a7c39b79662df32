//! What a long run shows while it works. The library says its progress through `tracing`
//! ([`crate::progress`]); [`ProgressLayer`] shows it as the command asked: a live line on a
//! terminal (indicatif) with the current step, its set's size, memory and elapsed time, and a
//! bar with an estimate where the number of steps is known (the backup of a meet in the
//! middle); plain lines when stderr is not a terminal and `--progress` asks for them; lines
//! stamped with the time since the start (the explicit solver's long jobs); or nothing.

use super::RunOptions;
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};
use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, Layer};

/// How progress is shown now.
enum Shown {
    /// Nothing.
    Off,
    /// One plain line per event on stderr, a line that is not a step's (which carries its
    /// own time) stamped with the seconds since this instant.
    Lines(Instant),
    /// One line per event, stamped with the seconds since this instant.
    Stamped(Instant),
    /// A live line (and a bar once the number of steps is known).
    Live(ProgressBar),
}

/// The one display of the process: the layer sees events from every thread.
static SHOWN: Mutex<Shown> = Mutex::new(Shown::Off);

fn shown() -> MutexGuard<'static, Shown> {
    SHOWN.lock().unwrap_or_else(PoisonError::into_inner)
}

/// While it lives, progress is shown; dropped, the live line is cleared and nothing more is
/// shown.
#[must_use = "progress is shown only while the guard lives"]
pub(super) struct Showing(());

impl Drop for Showing {
    fn drop(&mut self) {
        if let Shown::Live(bar) = std::mem::replace(&mut *shown(), Shown::Off) {
            bar.finish_and_clear();
        }
    }
}

fn install(how: Shown) -> Showing {
    *shown() = how;
    Showing(())
}

/// Show progress as the solve commands' options ask: nothing with `--quiet`, plain lines
/// with `--progress` (on stderr, so beside `--json` too), else a live line on a terminal
/// unless the output is JSON.
pub(super) fn show(run: &RunOptions) -> Showing {
    if run.quiet {
        install(Shown::Off)
    } else if run.progress {
        install(Shown::Lines(Instant::now()))
    } else if !run.json && std::io::stderr().is_terminal() {
        let bar = ProgressBar::new_spinner();
        bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("a valid template"));
        bar.enable_steady_tick(Duration::from_millis(200));
        install(Shown::Live(bar))
    } else {
        install(Shown::Off)
    }
}

/// Show every line stamped with the seconds since now (`[  12.3 s] ...`), unless `quiet`.
pub(super) fn show_stamped(quiet: bool) -> Showing {
    install(if quiet { Shown::Off } else { Shown::Stamped(Instant::now()) })
}

/// The layer that shows the library's progress events ([`crate::progress::TARGET`] and
/// [`crate::progress::STEP_TARGET`]); every other event is left to the other layers.
pub struct ProgressLayer;

impl<S: Subscriber> Layer<S> for ProgressLayer {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        let target = event.metadata().target();
        let step = target == crate::progress::STEP_TARGET;
        if !step && target != crate::progress::TARGET {
            return;
        }
        let shown = shown();
        if matches!(*shown, Shown::Off) {
            return;
        }
        let mut fields = Fields::default();
        event.record(&mut fields);
        match &*shown {
            Shown::Off => {}
            Shown::Lines(t) | Shown::Stamped(t) if !step => {
                eprintln!("[{:>7.1} s] {}", t.elapsed().as_secs_f64(), fields.message)
            }
            Shown::Lines(_) | Shown::Stamped(_) => eprintln!("{}", fields.message),
            Shown::Live(bar) if step => live_step(bar, &fields),
            Shown::Live(bar) => bar.set_message(fields.message),
        }
    }
}

/// A step on the live line; the backup counts plies down to 0, so from its first step on
/// the rest is known and a bar shows it.
fn live_step(bar: &ProgressBar, f: &Fields) {
    let class = if f.class.is_empty() { String::new() } else { format!("class {}, ", f.class) };
    bar.set_message(format!(
        "{class}{} {} ({} to move, {}): {} positions, {} DFA states, {} MiB resident",
        f.phase,
        f.step,
        f.side,
        f.set,
        f.positions,
        crate::counts::human(Some(u128::from(f.states))),
        f.rss_mib
    ));
    if f.phase == "backup" {
        let total = bar.length().unwrap_or(0).max(f.step + 1);
        if bar.length().is_none() {
            bar.set_length(total);
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} plies, eta {eta} [{elapsed_precise}] {msg}")
                    .expect("a valid template"),
            );
        }
        bar.set_position(total - f.step);
    }
}

/// The fields of a progress event.
#[derive(Default)]
struct Fields {
    message: String,
    phase: String,
    step: u64,
    side: String,
    set: String,
    positions: String,
    states: u64,
    rss_mib: u64,
    class: String,
}

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let text = match field.name() {
            "message" => &mut self.message,
            "phase" => &mut self.phase,
            "side" => &mut self.side,
            "set" => &mut self.set,
            "positions" => &mut self.positions,
            "class" => &mut self.class,
            _ => return,
        };
        text.clear();
        let _ = write!(text, "{value:?}");
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "phase" => self.phase = value.to_string(),
            "class" => self.class = value.to_string(),
            _ => self.record_debug(field, &value),
        }
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        match field.name() {
            "step" => self.step = value,
            "states" => self.states = value,
            "rss_mib" => self.rss_mib = value,
            _ => self.record_debug(field, &value),
        }
    }
}
